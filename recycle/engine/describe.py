"""Options as text (language spec §6.9): the resolved actions of an option, as a player may see them."""
from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from .ops import REDO
from .state import DCL, FGT, MV, PASS, PCY, REM, SET, SHF, SWC, SWP, VDEL, Option, PointMap, State

if TYPE_CHECKING:
    from .program import Program


def card_text(st: State, c: int) -> str:
    """A card as its attribute values joined by '-', prefixed by '<deck>:' unless the deck is DEFAULT."""
    s = "-".join(st.catt[c].values())
    deck = st.cmeta.deck[c]
    return s if deck == "DEFAULT" else f"{deck}:{s}"


@attrs.frozen
class ActionInfo:
    """One resolved action of an option as a player may see it: its kind, text, card and locations.

    `card` is the card's text, or None when the viewer cannot see it (the text then names it by
    its position); `source` and `destination` are location texts (`p1 iloc HAND`) where the
    action has them.  Kinds: move, remember, forget, swap, shuffle, set, cycle, pass, decline.
    """

    kind: str
    text: str
    card: str | None = None
    source: str | None = None
    destination: str | None = None


def actions(prog: Program, st: State, option: Option, viewer: int | None = None) -> list[ActionInfo]:
    """The resolved actions of an option, in order; with `viewer`, cards that player cannot see are hidden."""
    out = []
    loc = prog.loc_text
    ghost = None
    if viewer is not None:
        ghost = st.clone()  # replay on a scratch copy to know where hidden cards lie

    def shown(c: int) -> str | None:
        """The card's face, or None if the viewer cannot see where it lies before the option (naming a card
        the option would only bring into view would leak it through options not taken)."""
        if ghost is None or viewer is None or prog.sees(viewer, st.where[c]):
            return card_text(st, c)
        return None

    def hidden(c: int) -> str:
        assert ghost is not None
        return prog.hidden_card_text(ghost, c)

    for op in option.ops_at(st):
        code = op[0]
        if code == MV:
            _, c, a, i, b, _j = op
            # hidden if it leaves a pile the viewer cannot see, or was in one when the option began (an
            # earlier action of the option brought it into view: the option is not taken yet)
            if ghost is not None and viewer is not None and not (prog.sees(viewer, a) and shown(c)):
                top = i == len(ghost.piles[a]) - 1
                what = "the top card of" if top else ("the bottom card of" if i == 0 else f"card {i} of")
                out.append(ActionInfo("move", f"move {what} {loc(a)} -> {loc(b)}", None, loc(a), loc(b)))
            else:
                card = card_text(st, c)
                out.append(ActionInfo("move", f"move {card} {loc(a)} -> {loc(b)}", card, loc(a), loc(b)))
        elif code == REM:
            face = shown(op[1])
            text = f"remember {face or hidden(op[1])} => {loc(op[2])}"
            out.append(ActionInfo("remember", text, face, None, loc(op[2])))
        elif code == FGT:
            card = card_text(st, op[1])
            out.append(ActionInfo("forget", f"forget {card} from {loc(op[2])}", card, loc(op[2])))
        elif code == SWP:
            out.append(ActionInfo("swap", f"swap {loc(op[1])} <-> {loc(op[2])}", None, loc(op[1]), loc(op[2])))
        elif code == SWC:
            # each card named by its face only if the viewer sees the pile it lies in (issue 17)
            ca, cb = shown(op[1]), shown(op[4])
            text = f"swap {ca or hidden(op[1])} ({loc(op[2])}) <-> {cb or hidden(op[4])} ({loc(op[5])})"
            out.append(ActionInfo("swap", text, ca, loc(op[2]), loc(op[5])))
        elif code == SHF:
            out.append(ActionInfo("shuffle", f"shuffle {loc(op[1])}", None, loc(op[1])))
        elif code == SET:
            owner, kind, name = prog.slot_key[op[1]]
            v = op[3]
            if isinstance(v, PointMap):
                v = " ".join(f"({' '.join(f'({k} : {x})' for k, x in conds)} {pts})" for conds, pts in v.awards)
            elif kind == "ply":
                v = "nobody" if v is None else f"p{v + 1}"
            out.append(ActionInfo("set", f"set {prog.owner_name(st, owner, viewer)} {kind} {name} = {v}"))
        elif code == PCY:
            which = "current" if op[1] % 2 == 0 else "next"
            out.append(ActionInfo("cycle", f"cycle {which} p{op[3] + 1}"))
        elif code == PASS:
            out.append(ActionInfo("pass", "turn pass"))
        elif code == DCL:
            out.append(ActionInfo("decline", "pass"))
        if ghost is not None and code != VDEL:
            REDO[code](ghost, op)
    return out


def describe(prog: Program, st: State, option: Option, viewer: int | None = None) -> list[str]:
    """The texts of an option's resolved actions (§6.9), as `actions` gives them."""
    return [a.text for a in actions(prog, st, option, viewer)]
