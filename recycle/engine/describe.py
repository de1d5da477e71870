"""Options as text (language spec §6.9): the resolved actions of an option, as a player may see them."""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from .ops import REDO
from .state import FGT, MV, PASS, PCY, REM, SET, SHF, SWC, SWP, VDEL, Option, PointMap, State

if TYPE_CHECKING:
    from .program import Program


def card_text(st: State, c: int) -> str:
    """A card as its attribute values joined by '-', prefixed by '<deck>:' unless the deck is DEFAULT."""
    s = "-".join(st.catt[c].values())
    deck = st.cmeta.deck[c]
    return s if deck == "DEFAULT" else f"{deck}:{s}"


def describe(prog: Program, st: State, option: Option, viewer: Optional[int] = None) -> list[str]:
    """The resolved actions of an option, in order; with `viewer`, cards that player cannot see are hidden."""
    out = []
    ghost = None
    if viewer is not None:
        ghost = st.clone()  # replay on a scratch copy to know where hidden cards lie
    for op in option.ops:
        code = op[0]
        if code == MV:
            _, c, a, i, b, j = op
            if ghost is not None and not prog.sees(viewer, a):
                top = i == len(ghost.piles[a]) - 1
                what = "the top card of" if top else ("the bottom card of" if i == 0 else f"card {i} of")
                card = f"{what} {prog.loc_text(a)}"
                out.append(f"move {card} -> {prog.loc_text(b)}")
            else:
                out.append(f"move {card_text(st, c)} {prog.loc_text(a)} -> {prog.loc_text(b)}")
        elif code == REM:
            out.append(f"remember {card_text(st, op[1])} => {prog.loc_text(op[2])}")
        elif code == FGT:
            out.append(f"forget {card_text(st, op[1])} from {prog.loc_text(op[2])}")
        elif code == SWP:
            out.append(f"swap {prog.loc_text(op[1])} <-> {prog.loc_text(op[2])}")
        elif code == SWC:
            out.append(f"swap {card_text(st, op[1])} ({prog.loc_text(op[2])}) <-> "
                       f"{card_text(st, op[4])} ({prog.loc_text(op[5])})")
        elif code == SHF:
            out.append(f"shuffle {prog.loc_text(op[1])}")
        elif code == SET:
            owner, kind, name = prog.slot_key[op[1]]
            v = op[3]
            if isinstance(v, PointMap):
                v = " ".join(f"({' '.join(f'({k} : {x})' for k, x in conds)} {pts})" for conds, pts in v.awards)
            elif kind == "ply":
                v = "nobody" if v is None else f"p{v + 1}"
            out.append(f"set {prog.owner_text(st, owner)} {kind} {name} = {v}")
        elif code == PCY:
            which = "current" if op[1] % 2 == 0 else "next"
            out.append(f"cycle {which} p{op[3] + 1}")
        elif code == PASS:
            out.append("turn pass")
        if ghost is not None and code != VDEL:
            REDO[code](ghost, op)
    return out
