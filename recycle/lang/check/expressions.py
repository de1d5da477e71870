"""Expression forms with a keyword head (language spec §8-§14): players and teams, integers, comparisons and
logic, cards, quantifiers, scores, folds."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .. import ast as A
from ..ast import T
from ..sexprs import Atom, SList, to_text
from ..signatures import ACTIONS, COMPARABLE, KINDS
from ..words import UNSUPPORTED_WORDS
from . import references
from .base import ANY, Poison, article

if TYPE_CHECKING:
    from .builder import Builder


def _who(b: Builder, sx, scope):
    b.arity(sx, 2, shape=f"({sx.head.text} player|team)")
    what = b.need_keyword(sx[1], ("player", "team"), "player or team", sx)
    return A.WhoRef(sx.head.text, what, span=sx.span), (T.PLAYER if what == "player" else T.TEAM)


def _owner(b: Builder, sx, scope):
    b.arity(sx, 2, shape="(owner <card>)")
    return A.OwnerOf(b.card_ref(sx[1], scope, "the operand of owner"), span=sx.span), T.PLAYER


def _team(b: Builder, sx, scope):
    b.arity(sx, 2, shape="(team <player>)")
    return A.TeamOf(b.expect(sx[1], scope, T.PLAYER), span=sx.span), T.TEAM


def _other(b: Builder, sx, scope):
    b.arity(sx, 2, shape="(other player|team)")
    what = b.need_keyword(sx[1], ("player", "team"), "player or team", sx)
    return A.Other(what, span=sx.span), (T.PLAYERS if what == "player" else T.TEAMS)


def _dotted(b: Builder, sx, i, scope):
    """`A .. B` at positions i, i+1, i+2."""
    if not (isinstance(sx[i + 1], Atom) and sx[i + 1].kind == "DOTDOT"):
        b.fail("syntax", f"expected `..` in {to_text(sx)}", sx[i + 1])
    return b.expect(sx[i], scope, T.INT), b.expect(sx[i + 2], scope, T.INT)


def _range(b: Builder, sx, scope):
    b.arity(sx, 4, shape="(range <int>..<int>)")
    lo, hi = _dotted(b, sx, 1, scope)
    return A.Range(lo, hi, span=sx.span), T.INTS


def _size(b: Builder, sx, scope):
    b.arity(sx, 2, shape="(size <collection>)")
    node, _ = b.collection(sx[1], scope)
    return A.Size(node, span=sx.span), T.INT


def _is_fold(b: Builder, sx) -> bool:
    """`(sum|max|min COLL 'V <int>)`: told apart from the `using` forms by the variable (E5)."""
    return len(sx) == 4 and isinstance(sx[2], Atom) and sx[2].kind == "VAR"


def _not_fold_nor_using(b: Builder, sx) -> None:
    """`(sum|max|min X Y Z)` whose third element is neither `using` nor a variable."""
    if len(sx) == 4 and not b.kw(sx[2], "using") and not (isinstance(sx[2], Atom) and sx[2].kind == "VAR"):
        op = sx.head.text
        b.fail("syntax", f"({op} …) is ({op} <pile> using <points>) or the fold ({op} <collection> 'V <int>), "
               f"but {to_text(sx[2])} is neither `using` nor a variable", sx[2])


def _fold(b: Builder, sx, scope):
    op = sx.head.text
    coll, t = b.collection(sx[1], scope)
    var = b.need_var(sx[2], sx)
    elem = A.ELEMENT.get(t, ANY)
    inner = b.bind(scope, var, elem, sx[2])
    body = b.expect(sx[3], inner, T.INT)
    return A.Fold(op, coll, var, body, elem if elem is not ANY else T.INT, span=sx.span), T.INT


def _using_form(cls, result: T, operand: T, shape: str):
    def build(b, sx, scope):
        if cls is A.Sum:
            if _is_fold(b, sx):
                return _fold(b, sx, scope)
            _not_fold_nor_using(b, sx)
        b.arity(sx, 4, shape=shape)
        x = b.card_ref(sx[1], scope, "the operand") if operand == T.CARD else b.expect(sx[1], scope, operand)
        return cls(x, b.using(sx, 2, scope), span=sx.span), result
    return build


def _score_extreme(b: Builder, sx, scope):
    b.arity(sx, 4, shape=f"({sx.head.text} <pile> using <points>)")
    return A.ScoreExtreme(sx.head.text, b.expect(sx[1], scope, T.PILE), b.using(sx, 2, scope), span=sx.span), T.INT


def _card_extreme(b: Builder, sx, scope):
    if _is_fold(b, sx):
        return _fold(b, sx, scope)
    _not_fold_nor_using(b, sx)
    b.arity(sx, 4, shape=f"({sx.head.text} <pile> using <points>)")
    return A.CardExtreme(sx.head.text, b.expect(sx[1], scope, T.PILE), b.using(sx, 2, scope), span=sx.span), T.CARD


def _pid(b: Builder, sx, scope):
    b.arity(sx, 2, shape="(pid <player>)")
    return A.Pid(b.expect(sx[1], scope, T.PLAYER), span=sx.span), T.INT


def _intfn(b: Builder, sx, scope):
    b.arity(sx, 2, shape=f"({sx.head.text} <int>)")
    return A.IntFn(sx.head.text, b.expect(sx[1], scope, T.INT), span=sx.span), T.INT


def _random(b: Builder, sx, scope):
    b.arity(sx, 2, 4, shape="(random <int>) or (random <int>..<int>)")
    if len(sx) == 2:
        return A.Random(None, b.expect(sx[1], scope, T.INT), span=sx.span), T.INT
    lo, hi = _dotted(b, sx, 1, scope)
    return A.Random(lo, hi, span=sx.span), T.INT


def _arith(b: Builder, sx, scope):
    op = sx.head.text
    if op in ("+", "*"):
        if len(sx) < 3:
            b.fail("syntax", f"`({op} …)` takes two or more operands, but {to_text(sx)} has {len(sx) - 1}", sx)
    elif op in ("-", "//", "%", "^"):
        b.arity(sx, 3, shape=f"({op} <int> <int>)")
    args = tuple(b.expect(x, scope, T.INT) for x in sx.items[1:])
    return A.Arith(op, args, span=sx.span), T.INT


def _compare(b: Builder, sx, scope):
    op = sx.head.text
    b.arity(sx, 3, shape=f"({op} <a> <b>)")
    left, lt = b.guard(b.infer, sx[1], scope)
    right, rt = b.guard(b.infer, sx[2], scope)
    if op in ("==", "!="):
        t = lt if lt is not ANY else rt
        if lt is not ANY and rt is not ANY:
            if lt != rt:
                b.fail("type", f"`{op}` compares two values of one type, but {to_text(sx[1])} is "
                               f"{article(lt)}{b.bound_at(sx[1], scope)} and {to_text(sx[2])} is "
                               f"{article(rt)}{b.bound_at(sx[2], scope)}", sx)
            if lt not in COMPARABLE and lt != T.PILE:
                b.fail("type", f"`{op}` compares Integers, Strings, Cards, Players, Teams or Piles (their cards), "
                               f"not {lt}s", sx)
        return A.Compare(op, left, right, t if t is not ANY else T.INT, span=sx.span), T.BOOL
    for t, x in ((lt, sx[1]), (rt, sx[2])):
        if t is not ANY and t != T.INT:
            b.fail("type", f"`{op}` compares Integers, but {to_text(x)} is {article(t)}{b.bound_at(x, scope)}", x)
    return A.Compare(op, left, right, T.INT, span=sx.span), T.BOOL


def _logic(b: Builder, sx, scope):
    op = sx.head.text
    if op == "not":
        b.arity(sx, 2, shape="(not <bool>)")
        return A.Not(b.expect(sx[1], scope, T.BOOL), span=sx.span), T.BOOL
    if len(sx) < 3:
        b.fail("syntax", f"`({op} …)` takes two or more conditions, but {to_text(sx)} has {len(sx) - 1}", sx)
    return A.Logic(op, tuple(b.expect(x, scope, T.BOOL) for x in sx.items[1:]), span=sx.span), T.BOOL


def _cardatt(b: Builder, sx, scope):
    b.arity(sx, 3, shape="(cardatt <name> <card>)")
    return A.CardAtt(b.expect(sx[1], scope, T.STR), b.card_ref(sx[2], scope, "the card of cardatt"),
                     span=sx.span), T.STR


def _quant(b: Builder, sx, scope):
    q = sx.head.text
    b.arity(sx, 4, shape=f"({q} <collection> 'V <condition>)")
    coll, t = b.collection(sx[1], scope)
    var = b.need_var(sx[2], sx)
    elem = A.ELEMENT.get(t, ANY)
    inner = b.bind(scope, var, elem, sx[2])
    body_sx = sx[3]
    if isinstance(body_sx, SList) and body_sx.items and b.kw(body_sx.head, *ACTIONS, "do"):
        b.fail("placement", f"({q} … {to_text(body_sx)}) is a loop, "
                            "which is allowed only where a clause is expected", sx)
    body, bt = b.guard(b.infer, body_sx, inner)
    elem_t = elem if elem is not ANY else T.INT
    if bt is ANY or bt == T.BOOL:
        return A.Quantifier(q, coll, var, body, elem_t, span=sx.span), T.BOOL
    if bt == T.PILE and q == "all":
        return A.Collect(coll, var, body, elem_t, span=sx.span), T.PILES
    b.fail("type", f"the body of ({q} … 'V <body>) must be a condition{' or a pile' if q == 'all' else ''}, but "
                   f"{to_text(body_sx)} is {article(bt)}", body_sx)


def _top_bottom(b: Builder, sx, scope):
    end = sx.head.text
    b.arity(sx, 2, 3, shape=f"({end} <pile>) or ({end} <int> <pile>)")
    if len(sx) == 3:
        return A.Slice(end, b.expect(sx[1], scope, T.INT), b.expect(sx[2], scope, T.PILE), span=sx.span), T.PILE
    node, t = b.guard(b.infer, sx[1], scope)
    if t is ANY:
        return Poison(span=sx.span), ANY
    if t == T.PILE:
        return A.CardAt(end, node, span=sx.span), T.CARD
    if t == T.PILES:
        return A.PileAt(end, node, span=sx.span), T.PILE
    b.fail("type", f"({end} X) needs a Pile or a PileCollection, but {to_text(sx[1])} is {article(t)}", sx[1])


def _actual(b: Builder, sx, scope):
    b.arity(sx, 2, shape="(actual <card>)")
    return A.Actual(b.card_ref(sx[1], scope, "the operand of actual"), span=sx.span), T.CARD


def _indexed(b: Builder, sx, scope):
    b.arity(sx, 4, shape="(indexed <owner> <kind> <name>)")
    owner = references.pile_owner(b, sx[1], scope)
    kind = b.need_keyword(sx[2], tuple(KINDS), "a pile kind", sx)
    return A.Indexed(owner, KINDS[kind], b.expect(sx[3], scope, T.STR), span=sx.span), T.PILES


def _unsupported_expr(b: Builder, sx, scope):
    b.fail("unsupported", f"`{sx.head.text}`: " + UNSUPPORTED_WORDS.get(sx.head.text, "not supported"), sx)


def _if(b: Builder, sx, scope):
    """`(if <bool> <value> <value>)`: the condition chooses which value is computed."""
    b.arity(sx, 4, shape="(if <condition> <value> <value>)")
    cond = b.expect(sx[1], scope, T.BOOL)
    then, t = b.guard(b.infer, sx[2], scope)
    orelse, u = b.guard(b.infer, sx[3], scope)
    if t is ANY:
        t = u
    elif u is not ANY and u != t:
        if {t, u} == {T.PILE, T.CARD}:
            then, orelse, t = b.coerce(then, t, T.PILE, sx[2]), b.coerce(orelse, u, T.PILE, sx[3]), T.PILE
        else:
            b.fail("type", f"the two values of (if …) must have one type, but {to_text(sx[2])} is {article(t)} and "
                           f"{to_text(sx[3])} is {article(u)}", sx)
    if t == T.POINTS:
        b.fail("type", "(if …) cannot choose between point maps: choose the storage cell's name instead", sx)
    return A.IfExpr(cond, then, orelse, t if t is not ANY else T.INT, span=sx.span), t


def _matchscore(b: Builder, sx, scope):
    b.arity(sx, 2, shape="(matchscore <player>)")
    return A.MatchScore(b.expect(sx[1], scope, T.PLAYER), span=sx.span), T.INT


FORMS: dict[str, Callable] = {
    "current": _who, "next": _who, "previous": _who,
    "owner": _owner, "team": _team, "other": _other,
    "range": _range, "size": _size,
    "sum": _using_form(A.Sum, T.INT, T.PILE, "(sum <pile> using <points>)"),
    "score": _using_form(A.Score, T.INT, T.CARD, "(score <card> using <points>)"),
    "scoremax": _score_extreme, "scoremin": _score_extreme,
    "max": _card_extreme, "min": _card_extreme,
    "pid": _pid, "tri": _intfn, "fib": _intfn, "random": _random,
    "+": _arith, "*": _arith, "-": _arith, "//": _arith, "%": _arith, "^": _arith,
    "==": _compare, "!=": _compare, "<": _compare, ">": _compare, "<=": _compare, ">=": _compare,
    "and": _logic, "or": _logic, "not": _logic,
    "cardatt": _cardatt, "any": _quant, "all": _quant,
    "top": _top_bottom, "bottom": _top_bottom, "actual": _actual,
    "indexed": _indexed, "if": _if, "matchscore": _matchscore,
    "put": _unsupported_expr, "initialize": _unsupported_expr, "comp": _unsupported_expr, "mod": _unsupported_expr,
}
