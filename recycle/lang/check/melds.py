"""Meld forms: `(meldrules …)`, the rules by which a game's cards form melds, and the questions asked of
them: `isset`, `isrun … using RULES`, `ismeld`, `melds`, `bestmelds`, `deadwood`, `fits`."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .. import ast as A
from ..ast import T
from ..meldrules import ACE_RULES
from ..sexprs import Atom, SList, to_text
from . import references
from .base import ANY, article

if TYPE_CHECKING:
    from .builder import Builder

RULE_WORDS = ("rank", "suit", "ace", "wild", "size", "distinct")


def _meldrules(b: Builder, sx: SList, scope):
    """`(meldrules (rank KEY (V, …)) [(suit KEY)] [(ace W)] [(wild COND …)] [(size N)] [(distinct)])`."""
    parts: dict[str, SList] = {}
    for x in sx.items[1:]:
        lst = b.need_list(x, "a meld rule such as (rank RANK (A, TWO, THREE))", sx)
        w = b.need_keyword(lst.head if lst.items else None, RULE_WORDS, "a meld rule", lst)
        if w in parts:
            b.fail("syntax", f"({w} …) is given twice in (meldrules …)", lst)
        parts[w] = lst
    if "rank" not in parts:
        b.fail("syntax", "meldrules need (rank KEY (V, …)): the rank attribute and its values, lowest first", sx)
    rank = parts["rank"]
    b.arity(rank, 3, shape="(rank KEY (V1, V2, …))")
    key = _name(b, rank[1], "the rank attribute")
    values = b.need_list(rank[2], "the rank values, lowest first: (A, TWO, THREE, …)", rank)
    ranks = references.name_list(b, values)[0].names
    suit = None
    if "suit" in parts:
        b.arity(parts["suit"], 2, shape="(suit KEY)")
        suit = _name(b, parts["suit"][1], "the suit attribute")
    ace = "low"
    if "ace" in parts:
        b.arity(parts["ace"], 2, shape="(ace low|high|both|around)")
        ace = b.need_keyword(parts["ace"][1], ACE_RULES, "how the first rank runs", parts["ace"])
    wild: tuple[tuple[A.Condition, ...], ...] = ()
    if "wild" in parts:
        if len(parts["wild"]) < 2:
            b.fail("syntax", "(wild …) needs at least one condition, e.g. (wild (RANK : JOKER))", parts["wild"])
        wild = tuple(_wild_condition(b, c) for c in parts["wild"].items[1:])
    size = None
    if "size" in parts:
        b.arity(parts["size"], 2, shape="(size <int>)")
        size = b.const(parts["size"][1], scope, T.INT, "the smallest meld's size")
    if "distinct" in parts:
        b.arity(parts["distinct"], 1, shape="(distinct)")
        if suit is None:
            b.fail("syntax", "(distinct) asks for sets of distinct suits: give the suit attribute with (suit KEY)",
                   parts["distinct"])
    node = A.MeldRulesForm(key, ranks, suit, ace, wild, size, "distinct" in parts, span=sx.span)
    return node, T.RULES


def _name(b: Builder, x, what: str) -> str:
    if not (isinstance(x, Atom) and x.kind == "NAME"):
        b.fail("syntax", f"{what} is a NAME, found {to_text(x)}", x)
    return x.text


def _pair(b: Builder, c: SList) -> A.Condition:
    if len(c) != 3 or not (isinstance(c[1], Atom) and c[1].kind == "COLON"):
        b.fail("syntax", f"a condition is (KEY : VALUE), found {to_text(c)}", c)
    return A.Condition(A.Name(_name(b, c[0], "an attribute"), span=c[0].span),
                       A.Name(_name(b, c[2], "a value"), span=c[2].span), span=c.span)


def _wild_condition(b: Builder, c) -> tuple[A.Condition, ...]:
    """`(KEY : VALUE)`, or `((KEY : VALUE) (KEY : VALUE) …)` when a wild card must match several attributes."""
    c = b.need_list(c, "a wild-card condition (KEY : VALUE)", c)
    if c.items and isinstance(c.head, SList):
        return tuple(_pair(b, b.need_list(x, "a condition (KEY : VALUE)", c)) for x in c.items)
    return (_pair(b, c),)


def rules_operand(b: Builder, sx: SList, i: int, scope):
    """`using RULES` at positions i, i+1."""
    b.need_keyword(sx[i], ("using",), "the keyword", sx)
    return b.expect(sx[i + 1], scope, T.RULES)


def _meld_test(b: Builder, sx: SList, scope):
    w = sx.head.text
    b.arity(sx, 4, shape=f"({w} <pile> using <meldrules>)")
    return A.MeldTest(w, b.expect(sx[1], scope, T.PILE), rules_operand(b, sx, 2, scope), span=sx.span), T.BOOL


def meld_run(b: Builder, sx: SList, pile, rules):
    """`(isrun P using RULES)`, told from the point-map `isrun` by the type of what follows `using`."""
    if len(sx) != 4:
        b.fail("syntax", "(step …) and (cyclic …) belong to runs of a point map; a run of meldrules follows the "
                         "rules' own rank order", sx[4])
    return A.MeldTest("isrun", pile, rules, span=sx.span), T.BOOL


def _melds(b: Builder, sx: SList, scope):
    b.arity(sx, 4, shape="(melds <pile> using <meldrules>)")
    return A.Melds(b.expect(sx[1], scope, T.PILE), rules_operand(b, sx, 2, scope), span=sx.span), T.PILES


def _deadwood(b: Builder, sx: SList, scope):
    w = sx.head.text
    b.arity(sx, 5, shape=f"({w} <pile> using <meldrules> <points>)")
    pile = b.expect(sx[1], scope, T.PILE)
    rules = rules_operand(b, sx, 2, scope)
    node = A.Deadwood(w, pile, rules, b.expect(sx[4], scope, T.POINTS), span=sx.span)
    return node, (T.INT if w == "deadwood" else T.PILES)


def _fits(b: Builder, sx: SList, scope):
    b.arity(sx, 5, shape="(fits <card> <meld> using <meldrules>)")
    card, t = b.guard(b.infer, sx[1], scope)
    if t is not ANY and t != T.CARD:
        b.fail("type", f"fits asks whether one card fits a meld, but {to_text(sx[1])} is {article(t)}", sx[1])
    meld = b.expect(sx[2], scope, T.PILE)
    return A.Fits(card, meld, rules_operand(b, sx, 3, scope), span=sx.span), T.BOOL


FORMS: dict[str, Callable] = {
    "meldrules": _meldrules,
    "isset": _meld_test, "ismeld": _meld_test,
    "melds": _melds, "bestmelds": _deadwood, "deadwood": _deadwood,
    "fits": _fits,
}
