"""Pile and collection forms (language spec §9; extensions E3): set operations, filters, sorts, runs,
partitions, subsets and tuples."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .. import ast as A
from ..ast import T
from ..sexprs import Atom, to_text
from . import melds
from .base import ANY, article

if TYPE_CHECKING:
    from .builder import Builder


def _piles_args(b: Builder, sx, start, scope, what):
    """`<pile>+` or a single `(all …)` collector."""
    args = sx.items[start:]
    if not args:
        b.fail("syntax", f"({what} …) needs at least one pile", sx)
    if len(args) == 1:
        node, t = b.guard(b.infer, args[0], scope)
        if t in (ANY, T.PILE, T.PILES):
            return (node,), t == T.PILES
        if t == T.CARD:
            return (b.coerce(node, t, T.PILE, args[0]),), False
        b.fail("type", f"({what} …) takes piles or one collection of piles, but {to_text(args[0])} is "
                       f"{article(t)}", args[0])
    return tuple(b.expect(x, scope, T.PILE) for x in args), False


def _setop(b: Builder, sx, scope):
    args, coll = _piles_args(b, sx, 1, scope, sx.head.text)
    return A.SetOp(sx.head.text, args, coll, span=sx.span), T.PILE


def _filter(b: Builder, sx, scope):
    b.arity(sx, 4, shape="(filter <collection> 'V <condition>)")
    coll, t = b.collection(sx[1], scope)
    var = b.need_var(sx[2], sx)
    inner = b.bind(scope, var, A.ELEMENT.get(t, ANY), sx[2])
    cond = b.expect(sx[3], inner, T.BOOL)
    tt = t if t is not ANY else T.PILE
    return A.Filter(coll, var, cond, tt, span=sx.span), t


def _sort(b: Builder, sx, scope):
    b.arity(sx, 4, shape="(sort <pile> using <points>)")
    return A.Sort(b.expect(sx[1], scope, T.PILE), b.using(sx, 2, scope), span=sx.span), T.PILE


def _run(b: Builder, sx, scope):
    b.arity(sx, 6, shape="(run top|bottom <int> <pile> using <points>)")
    end = b.need_keyword(sx[1], ("top", "bottom"), "top or bottom", sx)
    return A.RunAtEnd(end, b.expect(sx[2], scope, T.INT), b.expect(sx[3], scope, T.PILE), b.using(sx, 4, scope),
                      span=sx.span), T.PILE


def _partition(b: Builder, sx, scope):
    if len(sx) < 3:
        b.fail("syntax", "(partition <attribute> <pile>+) needs an attribute and at least one pile", sx)
    if len(sx) == 3 and isinstance(sx[2], Atom) and sx[2].kind == "NAME":
        b.fail("unsupported", f"{to_text(sx)} is the CardStockXam name-last form; "
                              f"write (partition {sx[2].text} <pile>), or read the file with --dialect xam", sx)
    attr = b.expect(sx[1], scope, T.STR)
    args, coll = _piles_args(b, sx, 2, scope, "partition")
    return A.Partition(attr, args, coll, span=sx.span), T.PILES


def _subsets(b: Builder, sx, scope):
    b.arity(sx, 2, shape="(subsets <pile>)")
    return A.Subsets(b.expect(sx[1], scope, T.PILE), span=sx.span), T.PILES


def _tuples(b: Builder, sx, scope):
    b.arity(sx, 5, shape="(tuples <int> <pile> using <points>)")
    return A.Tuples(b.expect(sx[1], scope, T.INT), b.expect(sx[2], scope, T.PILE), b.using(sx, 3, scope),
                    span=sx.span), T.PILES


def _run_clauses(b: Builder, sx, start, scope):
    """The optional `(step K)` and `(cyclic M)` clauses of runs and isrun (extensions E3)."""
    found = {"step": None, "cyclic": None}
    for x in sx.items[start:]:
        lst = b.need_list(x, "(step <int>) or (cyclic <int>)", sx)
        w = b.need_keyword(lst.head if lst.items else None, ("step", "cyclic"), "a run clause", lst)
        b.arity(lst, 2, shape=f"({w} <int>)")
        if found[w] is not None:
            b.fail("syntax", f"({w} …) is given twice in {to_text(sx)}", lst)
        found[w] = b.expect(lst[1], scope, T.INT)
    return found["step"], found["cyclic"]


def _runs(b: Builder, sx, scope):
    if len(sx) < 6:
        b.arity(sx, 6, shape="(runs largest|all <int> <pile> using <points> [(step <int>)] [(cyclic <int>)])")
    mode = b.need_keyword(sx[1], ("largest", "all"), "largest or all", sx)
    count, pile, pm = b.expect(sx[2], scope, T.INT), b.expect(sx[3], scope, T.PILE), b.using(sx, 4, scope)
    step, cyc = _run_clauses(b, sx, 6, scope)
    return A.Runs(mode, count, pile, pm, step, cyc, span=sx.span), T.PILES


def _isrun(b: Builder, sx, scope):
    if len(sx) < 4:
        b.arity(sx, 4, shape="(isrun <pile> using <points> [(step <int>)] [(cyclic <int>)])")
    node, t = b.guard(b.infer, sx[1], scope)
    if t == T.CARD:
        node, t = b.coerce(node, t, T.PILE, sx[1]), T.PILE
    if t is not ANY and t not in (T.PILE, T.PILES):
        b.fail("type", f"isrun tests a Pile (or a PileCollection, read pile after pile), but {to_text(sx[1])} is "
                       f"{article(t)}", sx[1])
    b.need_keyword(sx[2], ("using",), "the keyword", sx)
    pm, pt = b.guard(b.infer, sx[3], scope)
    if pt == T.RULES:
        if t == T.PILES:
            b.fail("type", f"a meld is one pile: (isrun … using meldrules) tests a Pile, but {to_text(sx[1])} is a "
                           "PileCollection", sx[1])
        return melds.meld_run(b, sx, node, pm)
    pm = b.coerce(pm, pt, T.POINTS, sx[3], scope)
    step, cyc = _run_clauses(b, sx, 4, scope)
    return A.IsRun(node, pm, step, cyc, t if t is not ANY else T.PILE, span=sx.span), T.BOOL


def _pile_test(b: Builder, sx, scope):
    """`(subset P Q)`: every card of P is in Q; `(contains P C)`: the card C is in P."""
    w = sx.head.text
    if w == "subset":
        b.arity(sx, 3, shape="(subset <pile> <pile>)")
        return A.PileTest(w, b.expect(sx[1], scope, T.PILE), b.expect(sx[2], scope, T.PILE), span=sx.span), T.BOOL
    b.arity(sx, 3, shape="(contains <pile> <card>)")
    card, t = b.guard(b.infer, sx[2], scope)
    if t is not ANY and t != T.CARD:
        b.fail("type", f"(contains <pile> <card>) asks about one card, but {to_text(sx[2])} is {article(t)}; "
                       "for piles use (subset …)", sx[2])
    return A.PileTest(w, b.expect(sx[1], scope, T.PILE), card, span=sx.span), T.BOOL


FORMS: dict[str, Callable] = {
    "union": _setop, "intersect": _setop, "disjunction": _setop,
    "filter": _filter, "sort": _sort, "run": _run,
    "partition": _partition, "subsets": _subsets, "tuples": _tuples, "runs": _runs, "isrun": _isrun,
    "subset": _pile_test, "contains": _pile_test,
}
