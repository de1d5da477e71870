"""Action forms (language spec §11, §12; extensions E2): move, remember, forget, swap, shuffle, set, inc, dec,
cycle, turn pass, repeat, clear, create."""
from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from .. import ast as A
from ..ast import T
from ..sexprs import Atom, SList, to_text
from ..signatures import ACTIONS, STORAGE_KINDS, STORAGE_TYPES, pile_nature
from . import clauses, definitions, setup
from .base import ANY, Fail, Poison, article

if TYPE_CHECKING:
    from .builder import Builder


def awards(b: Builder, sx, scope):
    lst = b.need_list(sx, "a list of awards ((<condition>+ <int>) …)", sx)
    if not lst.items:
        b.fail("syntax", "a point map needs at least one award", lst)
    out = []
    for aw in lst.items:
        with contextlib.suppress(Fail):  # reported; the other awards are still checked
            out.append(award(b, aw, scope))
    return tuple(out)


def award(b: Builder, aw, scope):
    aw = b.need_list(aw, "an award (<condition>+ <int>)", aw)
    if len(aw) < 2:
        b.fail("syntax", f"an award is (<condition>+ <int>), found {to_text(aw)}", aw)
    # Every condition and the points are checked, so that all the mistakes of an award are reported.
    conds = []
    failed = False
    for c in aw.items[:-1]:
        try:
            conds.append(_condition(b, c, aw, scope))
        except Fail:
            failed = True
    try:
        pts = b.expect(aw.items[-1], scope, T.INT)
    except Fail:
        failed = True
    if failed:
        raise Fail()
    return A.Award(tuple(conds), pts, span=aw.span)


def _condition(b: Builder, c, aw, scope):
    c = b.need_list(c, "a condition (KEY : VALUE)", aw)
    if (len(c) == 2 and isinstance(c[1], SList)
            and not any(isinstance(x, Atom) and x.kind == "COLON" for x in c.items)):
        b.fail("unsupported", f"{to_text(c)} is CardStockXam award syntax; write ({to_text(c[0])} : VALUE), "
                              "or read the file with --dialect xam", c)
    if len(c) != 3 or not (isinstance(c[1], Atom) and c[1].kind == "COLON"):
        b.fail("syntax", f"a condition is (KEY : VALUE), found {to_text(c)}", c)
    try:
        key = b.expect(c[0], scope, T.STR)
    except Fail:
        b.expect(c[2], scope, T.STR)  # the value's own mistake too, then give up on this condition
        raise
    return A.Condition(key, b.expect(c[2], scope, T.STR), span=c.span)


def _dest_pile(node):
    inner = node.card if isinstance(node, A.Actual) else node
    return inner.pile if isinstance(inner, A.CardAt) else None


def _move(b: Builder, sx, scope, in_choice):
    b.arity(sx, 3, shape=f"({sx.head.text} <card> <destination>)")
    card = b.card_ref(sx[1], scope, f"the card to {sx.head.text}")
    dest = b.positional(sx[2], scope, "a destination")
    verb = sx.head.text
    nature = pile_nature(_dest_pile(dest))
    if verb == "move" and nature in ("memory", "virtual"):
        b.fail("type", "cannot move a card into "
                       f"{'a memory pile (use remember)' if nature == 'memory' else 'a computed (virtual) pile'}: "
                       f"{to_text(sx[2])}", sx[2])
    if verb == "remember" and nature in ("physical", "virtual"):
        b.fail("type", f"remember needs a memory pile (<owner> mem <name>) as destination, not {to_text(sx[2])}", sx[2])
    src = card.card if isinstance(card, A.Actual) else card
    if verb == "move" and isinstance(src, A.CardAt) and pile_nature(src.pile) == "memory":
        b.fail("type", f"cannot move a card out of a memory pile by position (use forget): {to_text(sx[1])}", sx[1])
    cls = A.Move if verb == "move" else A.Remember
    return cls(card, dest, span=sx.span)


def _forget(b: Builder, sx, scope, in_choice):
    b.arity(sx, 2, shape="(forget <card>)")
    node = b.positional(sx[1], scope, "the operand of forget")
    if pile_nature(_dest_pile(node)) in ("physical", "virtual"):
        b.fail("type", f"forget removes an entry from a memory pile, but {to_text(sx[1])} is not in one", sx[1])
    return A.Forget(node, span=sx.span)


def _swap(b: Builder, sx, scope, in_choice):
    b.arity(sx, 3, shape="(swap <a> <b>)")
    left, lt = b.guard(b.infer, sx[1], scope)
    right, rt = b.guard(b.infer, sx[2], scope)
    t = lt if lt is not ANY else rt
    if lt is not ANY and rt is not ANY and (lt != rt or lt not in (T.PILE, T.CARD)):
        b.fail("type", f"swap takes two piles or two cards, but {to_text(sx[1])} is {article(lt)} and {to_text(sx[2])} "
                       f"is {article(rt)}", sx)
    if t == T.PILE:
        for node, x in ((left, sx[1]), (right, sx[2])):
            if pile_nature(node) in ("memory", "virtual"):
                b.fail("type", f"swap exchanges stored physical piles, "
                               f"but {to_text(x)} is a {pile_nature(node)} pile", x)
    return A.Swap(left, right, t if t is not ANY else T.PILE, span=sx.span)


def _shuffle(b: Builder, sx, scope, in_choice):
    b.arity(sx, 2, shape="(shuffle <pile>)")
    if b.kw(sx[1], "faro"):
        b.fail("unsupported", "`shuffle faro` is not supported", sx[1])
    pile = b.expect(sx[1], scope, T.PILE)
    if pile_nature(pile) == "virtual":
        b.fail("type", f"shuffle needs a stored pile, but {to_text(sx[1])} is computed (virtual)", sx[1])
    return A.Shuffle(pile, span=sx.span)


def _set(b: Builder, sx, scope, in_choice):
    b.arity(sx, 3, shape="(set <storage> <value>)")
    target = b.storage(sx[1], scope, STORAGE_KINDS, "the target of set")
    if isinstance(target, Poison):
        return A.TurnPass(span=sx.span)
    if target.kind == "points":
        return A.SetPoints(target, awards(b, sx[2], scope), span=sx.span)
    return A.SetValue(target, b.expect(sx[2], scope, STORAGE_TYPES[target.kind]), span=sx.span)


def _incdec(b: Builder, sx, scope, in_choice):
    op = sx.head.text
    b.arity(sx, 2, 3, shape=f"({op} (<owner> sto <name>) [<int>])")
    target = b.storage(sx[1], scope, ("sto",), f"the target of {op}")
    amount = b.expect(sx[2], scope, T.INT) if len(sx) == 3 else None
    return A.IncDec(op, target, amount, span=sx.span)


def _cycle(b: Builder, sx, scope, in_choice):
    b.arity(sx, 3, shape="(cycle next|current <player>)")
    mode = b.need_keyword(sx[1], ("next", "current"), "next or current", sx)
    tgt = sx[2]
    if b.kw(tgt, "current", "next", "previous"):
        target = A.WhoRef(tgt.text, "player", span=tgt.span)
    else:
        node, t = b.guard(b.infer, tgt, scope)
        if t == T.TEAM:
            b.fail("type", f"the target of cycle must be a Player, but {to_text(tgt)} is a Team", tgt)
        target = b.coerce(node, t, T.PLAYER, tgt)
    return A.Cycle(mode, target, span=sx.span)


def _turn(b: Builder, sx, scope, in_choice):
    b.arity(sx, 2, shape="(turn pass)")
    b.need_keyword(sx[1], ("pass",), "the keyword", sx)
    return A.TurnPass(span=sx.span)


def _repeat(b: Builder, sx, scope, in_choice):
    b.arity(sx, 3, shape="(repeat <int> <action>) or (repeat all (move|forget …))")
    if b.kw(sx[1], "all"):
        body_sx = b.need_list(sx[2], "(move …) or (forget …) after repeat all", sx)
        if not (body_sx.items and b.kw(body_sx.head, "move", "forget")):
            b.fail("syntax", f"repeat all repeats a move or a forget, not {to_text(body_sx)}", body_sx)
        body = b.action(body_sx, scope, in_choice)
        src_sx = body_sx[1]
        if isinstance(body, A.Move):
            src = body.card.card if isinstance(body.card, A.Actual) else body.card
            if not isinstance(src, (A.CardAt, Poison)):
                b.fail("type", "the source of repeat all must be positional — (top <pile>), (bottom <pile>) or (<int> "
                               f"<pile>) — not {to_text(src_sx)}", src_sx)
        return A.RepeatAll(body, span=sx.span)
    count = b.expect(sx[1], scope, T.INT)
    body_sx = sx[2]
    if isinstance(body_sx, SList) and body_sx.items and b.kw(body_sx.head, "any", "all"):
        body = clauses.loop(b, body_sx, scope, in_choice)
    elif isinstance(body_sx, SList) and body_sx.items and b.kw(body_sx.head, *ACTIONS):
        body = b.action(body_sx, scope, in_choice)
    elif definitions.is_use(b, body_sx):
        body = clauses.clause(b, body_sx, scope, in_choice)
    else:
        b.fail("syntax", f"repeat repeats an action, a loop or a definition's use, not {to_text(body_sx)}", body_sx)
    return A.Repeat(count, body, span=sx.span)


def _clear(b: Builder, sx, scope, in_choice):
    b.arity(sx, 2, shape="(clear <storage>)")
    target = b.storage(sx[1], scope, STORAGE_KINDS, "the operand of clear")
    if isinstance(target, Poison):
        return A.TurnPass(span=sx.span)
    return A.Clear(target, span=sx.span)


FORMS: dict[str, Callable] = {
    "clear": _clear,
    "move": _move, "remember": _move, "forget": _forget, "swap": _swap, "shuffle": _shuffle,
    "set": _set, "inc": _incdec, "dec": _incdec, "cycle": _cycle, "turn": _turn, "repeat": _repeat,
    "create": lambda b, sx, scope, in_choice: setup.create_deck(b, sx, scope, in_choice),
}
