"""Expressions building piles and collections: set operations, filter, sort, slices, runs, folds, partitions."""
from __future__ import annotations

from ..engine import algorithms as alg
from ..errors import GameRuntimeError
from ..lang import ast as A
from ..lang.ast import T
from ..lang.printer import brief as show
from . import references as refs
from .context import KIND_CODE, Compiler, Form

_err = GameRuntimeError


def e_indexed(cx: Compiler, n: A.Indexed, sc):
    p = cx.p
    kind = KIND_CODE[n.kind]
    nc, name = cx.const(n.name, sc)
    if nc:
        fams = [p.family(o, kind, name) for o in range(cx.n + 1)]
        o = n.owner
        if type(o) is A.GameOwner:
            fam = fams[0]
            famf = lambda st, env: fam  # noqa: E731
        else:
            of = refs.owner_code(cx, o, sc)
            famf = lambda st, env: fams[of(st, env)]  # noqa: E731
    else:
        of = (lambda st, env: 0) if type(n.owner) is A.GameOwner else refs.owner_code(cx, n.owner, sc)
        nf = cx.expr(n.name, sc)
        famf = lambda st, env: p.family(of(st, env), kind, nf(st, env))  # noqa: E731

    def indexed(st, env):
        fam = famf(st, env)
        piles = st.piles
        L = len(piles)
        return [pid for pid in fam[1] if pid < L and piles[pid]]
    return indexed


def _pile_args(cx: Compiler, args, sc, collection: bool = False):
    """Closure giving the list of card lists of `<pile>+` or of one collection of piles (such as a collector)."""
    if len(args) == 1 and (collection or type(args[0]) is A.Collect):
        pf = cx.expr(args[0], sc)

        def from_collect(st, env):
            piles = st.piles
            return [piles[v] if v.__class__ is int else v for v in pf(st, env)]
        return from_collect
    fs = [refs.cards(cx, a, sc) for a in args]
    return lambda st, env: [f(st, env) for f in fs]


def e_setop(cx: Compiler, n: A.SetOp, sc):
    af = _pile_args(cx, n.args, sc, n.collection)
    if n.op == "union":
        def union(st, env):
            out = []
            for c in af(st, env):
                out.extend(c)
            return out
        return union
    fn = alg.intersect if n.op == "intersect" else alg.disjunction
    return lambda st, env: fn(af(st, env))


def e_filter(cx: Compiler, n: A.Filter, sc):
    cf = refs.coll(cx, n.coll, sc)
    s, sc2 = cx.bind(sc, n.var)
    cond = cx.expr(n.cond, sc2)

    def filter_(st, env):
        out = []
        for e in cf(st, env):
            env[s] = e
            if cond(st, env):
                out.append(e)
        return out
    return filter_


def e_sort(cx: Compiler, n: A.Sort, sc):
    scored = refs.card_scores(cx, n.pile, n.points, sc)

    def sort(st, env):
        cards, scores = scored(st, env)
        return alg.sort_by_score(cards, scores)
    return sort


def e_slice(cx: Compiler, n: A.Slice, sc):
    cf = refs.cards(cx, n.pile, sc)
    kf = cx.expr(n.count, sc)
    top = n.end == "top"
    span = n.span

    def slice_(st, env):
        k = kf(st, env)
        cards = cf(st, env)
        L = len(cards)
        if not (0 <= k <= L):
            raise _err("range", f"{show(n)}: cannot take {k} cards of a pile of {L}", span)
        return list(cards[L - k:]) if top else list(cards[:k])
    return slice_


def _using(cx: Compiler, n, sc, call):
    """Shared shape of run/runs/tuples: cards, per-card scores, count; ValueError -> arithmetic."""
    cf = refs.cards(cx, n.pile, sc)
    skf = refs.scores(cx, n.points, sc)
    kf = cx.expr(n.count, sc)
    span = n.span

    def f(st, env):
        k = kf(st, env)
        cards = cf(st, env)
        sk = skf(st, env)
        ck = st.ckind
        try:
            return call(list(cards), [sk[ck[c]] for c in cards], k)
        except ValueError as e:
            raise _err("arithmetic", f"{show(n)}: {e}", span) from None
    return f


def e_run_at_end(cx: Compiler, n: A.RunAtEnd, sc):
    end = n.end
    return _using(cx, n, sc, lambda cards, scores, k: alg.run_at_end(cards, scores, k, end))


def e_runs(cx: Compiler, n: A.Runs, sc):
    mode = n.mode
    if n.step is None and n.cyclic is None:
        return _using(cx, n, sc, lambda cards, scores, k: alg.runs(cards, scores, k, mode))
    cf = refs.cards(cx, n.pile, sc)
    skf = refs.scores(cx, n.points, sc)
    kf = cx.expr(n.count, sc)
    stf = cx.expr(n.step, sc) if n.step is not None else (lambda st, env: 1)
    mf = cx.expr(n.cyclic, sc) if n.cyclic is not None else (lambda st, env: None)
    span = n.span

    def runs(st, env):
        k = kf(st, env)
        step, mod = stf(st, env), mf(st, env)
        cards = cf(st, env)
        sk = skf(st, env)
        ck = st.ckind
        try:
            return alg.runs_ext(list(cards), [sk[ck[c]] for c in cards], k, mode, step, mod)
        except ValueError as e:
            raise _err("arithmetic", f"{show(n)}: {e}", span) from None
    return runs


def e_isrun(cx: Compiler, n: A.IsRun, sc):
    if n.type == T.PILES:
        pf = cx.expr(n.coll, sc)

        def cf(st, env):
            piles = st.piles
            out = []
            for v in pf(st, env):
                out.extend(piles[v] if v.__class__ is int else v)
            return out
    else:
        cf = refs.cards(cx, n.coll, sc)
    skf = refs.scores(cx, n.points, sc)
    stf = cx.expr(n.step, sc) if n.step is not None else (lambda st, env: 1)
    mf = cx.expr(n.cyclic, sc) if n.cyclic is not None else (lambda st, env: None)
    span = n.span

    def isrun(st, env):
        cards = cf(st, env)
        sk = skf(st, env)
        ck = st.ckind
        try:
            return alg.isrun(cards, [sk[ck[c]] for c in cards], stf(st, env), mf(st, env))
        except ValueError as e:
            raise _err("arithmetic", f"{show(n)}: {e}", span) from None
    return isrun


def e_fold(cx: Compiler, n: A.Fold, sc):
    cf = refs.coll(cx, n.coll, sc)
    s, sc2 = cx.bind(sc, n.var)
    body = cx.expr(n.body, sc2)
    if n.op == "sum":
        def fold_sum(st, env):
            t = 0
            for e in cf(st, env):
                env[s] = e
                t += body(st, env)
            return t
        return fold_sum
    better = (lambda a, b: a > b) if n.op == "max" else (lambda a, b: a < b)

    def fold_ext(st, env):
        best = None
        for e in cf(st, env):
            env[s] = e
            v = body(st, env)
            if best is None or better(v, best):
                best = v
        return 0 if best is None else best
    return fold_ext


def e_tuples(cx: Compiler, n: A.Tuples, sc):
    return _using(cx, n, sc, lambda cards, scores, k: alg.tuples(cards, scores, k))


def e_pile_at(cx: Compiler, n: A.PileAt, sc):
    cf = cx.expr(n.piles, sc)
    pos = n.pos
    xf = cx.expr(n.index, sc) if pos == "index" else None
    span = n.span

    def pile_at(st, env):
        coll = cf(st, env)
        L = len(coll)
        if xf is not None:  # pos == "index"
            i = xf(st, env)
            if not (0 <= i < L):
                raise _err("range", f"{show(n)}: index {i} outside 0..{L - 1}", span)
            return coll[i]
        if not L:
            raise _err("empty", f"{show(n)}: the collection of piles is empty", span)
        return coll[-1] if pos == "top" else coll[0]
    return pile_at


def e_partition(cx: Compiler, n: A.Partition, sc):
    af = _pile_args(cx, n.args, sc, n.collection)
    c, a = cx.const(n.attribute, sc)
    atf = None if c else cx.expr(n.attribute, sc)

    def partition(st, env):
        attr = a if atf is None else atf(st, env)
        cards = []
        for x in af(st, env):
            cards.extend(x)
        catt = st.catt
        return alg.partition(cards, [catt[x].get(attr, "") for x in cards])
    return partition


def e_subsets(cx: Compiler, n: A.Subsets, sc):
    cf = refs.cards(cx, n.pile, sc)
    span = n.span

    def subsets(st, env):
        try:
            return alg.subsets(cf(st, env))
        except alg.ResourceLimit as e:
            raise _err("resource", f"{show(n)}: {e}", span) from None
    return subsets


def e_collect(cx: Compiler, n: A.Collect, sc):
    cf = refs.coll(cx, n.coll, sc)
    s, sc2 = cx.bind(sc, n.var)
    pf = refs.pile(cx, n.pile, sc2)

    def collect(st, env):
        out = []
        for e in cf(st, env):
            env[s] = e
            out.append(pf(st, env))
        return out
    return collect


def e_pile_test(cx: Compiler, n: A.PileTest, sc):
    """`(subset P Q)`: every card of P lies in Q; `(contains P C)`: C lies in P (a card that is none does not)."""
    pf = refs.cards(cx, n.pile, sc)
    if n.test == "contains":
        cf = cx.expr(n.other, sc)

        def contains(st, env):
            c = cf(st, env)
            return c is not None and c in pf(st, env)
        return contains
    qf = refs.cards(cx, n.other, sc)

    def subset(st, env):
        inside = set(qf(st, env))
        return all(c in inside for c in pf(st, env))
    return subset


FORMS: dict[type, Form] = {
    A.PileTest: e_pile_test,
    A.Indexed: e_indexed, A.SetOp: e_setop, A.Filter: e_filter, A.Sort: e_sort, A.Slice: e_slice,
    A.RunAtEnd: e_run_at_end, A.Runs: e_runs, A.IsRun: e_isrun, A.Fold: e_fold, A.Tuples: e_tuples,
    A.PileAt: e_pile_at, A.Partition: e_partition, A.Subsets: e_subsets, A.Collect: e_collect,
}
