"""Clauses compiled for option building, in continuation-passing style (§6.7).

Inside a choice each clause becomes `sim(st, env, k)`, which calls `k` once per complete
path: every `any` loop is a branch point, every state change is logged so that a branch can
be undone exactly, and a complete path's log becomes an option.  `Compiler.sim` sends a
clause without a branch point straight to its direct closure and the others here (or to
`atomic`, for an atomic block).  The exceptions and the clause walk below are shared with
`atomic`, `items` and `actions`: names with one underscore are private to the package.
"""
from __future__ import annotations

from ..engine.ops import UNDO, undo_to
from ..errors import GameRuntimeError
from ..lang import ast as A
from . import references as refs
from .clauses import c_do
from .context import Compiler, Form, _branches, _straight, repeat_count


class _Reject(Exception):
    """Abandons the path being walked while options are built (an overfilled cell, E1).

    Caught by the innermost branch point, which goes on with its next element.  Outside
    option building the same condition is the run-time error it carries.
    """

    def __init__(self, error: GameRuntimeError):
        super().__init__(error.message)
        self.error = error


class _OptionLimit(Exception):
    """A decision has more options than Program.max_options, or its `any` loops walked more than
    BRANCHES_PER_OPTION times as many elements: the game stops at the option limit."""


# Building one decision walks at most this many `any` elements per option allowed (docs/limits.md):
# loops whose paths all fail make no option, yet nested ones can walk for ever.
BRANCHES_PER_OPTION = 100


class _EnumerationBudget(Exception):
    """Listing an atomic block's paths went over Program.atomic_max_paths for one decision."""


def _walk_clauses(sims, st, env, k, mark: int) -> None:
    """Walk each clause of a choice from the same state, undoing back to `mark` after each (§6.7)."""
    for sim in sims:
        # try/except, not contextlib.suppress: entering a context manager costs ten times more here
        try:  # noqa: SIM105
            sim(st, env, k)
        except _Reject:
            pass
        undo_to(st, mark)


def s_loop(cx: Compiler, n: A.Loop, sc):
    return s_any(cx, n, sc) if n.quant == "any" else s_all(cx, n, sc)


def s_do(cx: Compiler, n: A.Do, sc):
    # consecutive non-branching clauses run as one straight block
    groups: list = []
    straight: list = []
    for c in n.clauses:
        if _branches(c):
            if straight:
                groups.append(_straight(c_do(cx, A.Do(tuple(straight)), sc)))
                straight = []
            groups.append(cx.sim(c, sc))
        else:
            straight.append(c)
    if straight:
        groups.append(_straight(c_do(cx, A.Do(tuple(straight)), sc)))
    return in_sequence(groups)


def in_sequence(sims):
    """One CPS walker running the given walkers one after another: each continues into the next (§6.7)."""
    if len(sims) == 1:
        return sims[0]
    sims = tuple(sims)
    L = len(sims)

    def seq(st, env, k):
        def chain(i, st, env):
            if i == L:
                k(st, env)
            else:
                sims[i](st, env, lambda st2, env2: chain(i + 1, st2, env2))
        chain(0, st, env)
    return seq


def s_any(cx: Compiler, n: A.Loop, sc):
    cf = refs.iter(cx, n.coll, sc)
    s, sc2 = cx.bind(sc, n.var)
    body = cx.sim(n.body, sc2)
    p = cx.p
    if cx.has_atomic or cx.has_capacity:
        return s_any_ext(p, cf, s, body)

    def any_(st, env, k):
        elems = cf(st, env)
        if not elems:
            k(st, env)
            return
        p.branches += len(elems)
        if p.branches > p.max_options * BRANCHES_PER_OPTION:
            raise _OptionLimit
        log = st.log
        mark = len(log)
        old = env[s]
        for e in elems:
            env[s] = e
            body(st, env, k)
            while len(log) > mark:  # undo_to(st, mark), inlined
                op = log.pop()
                UNDO[op[0]](st, op)
        env[s] = old
    return any_


def s_any_ext(p, cf, s, body):
    """A branch point that also drops rejected paths (E1 capacity)."""
    def any_(st, env, k):
        elems = cf(st, env)
        if not elems:
            k(st, env)
            return
        p.branches += len(elems)
        if p.branches > p.max_options * BRANCHES_PER_OPTION:
            raise _OptionLimit
        old = env[s]
        log = st.log
        mark = len(log)
        for e in elems:
            env[s] = e
            try:  # noqa: SIM105 - as in _walk_clauses
                body(st, env, k)
            except _Reject:
                pass
            while len(log) > mark:
                op = log.pop()
                UNDO[op[0]](st, op)
        env[s] = old
    return any_


def s_all(cx: Compiler, n: A.Loop, sc):
    cf = refs.iter(cx, n.coll, sc)
    s, sc2 = cx.bind(sc, n.var)
    body = cx.sim(n.body, sc2)

    def all_(st, env, k):
        elems = list(cf(st, env))
        L = len(elems)

        def step(i, st, env):
            if i == L:
                k(st, env)
                return
            old = env[s]
            env[s] = elems[i]
            body(st, env, lambda st2, env2: step(i + 1, st2, env2))
            env[s] = old
        step(0, st, env)
    return all_


def s_guarded(cx: Compiler, n: A.Guarded, sc):
    cond = cx.expr(n.cond, sc)
    body = cx.sim(n.body, sc)

    def guarded(st, env, k):
        if cond(st, env):
            body(st, env, k)
        else:
            k(st, env)
    return guarded


def s_let(cx: Compiler, n: A.Let, sc):
    vf = cx.expr(n.value, sc)
    s, sc2 = cx.bind(sc, n.var)
    body = cx.sim(n.body, sc2)

    def let(st, env, k):
        old = env[s]
        env[s] = vf(st, env)
        body(st, env, k)
        env[s] = old
    return let


def s_repeat(cx: Compiler, n: A.Repeat, sc):
    cf = repeat_count(cx, n, sc)
    body = cx.sim(n.body, sc)

    def repeat(st, env, k):
        N = cf(st, env)

        def step(i, st, env):
            if i >= N:
                k(st, env)
            else:
                body(st, env, lambda st2, env2: step(i + 1, st2, env2))
        step(0, st, env)
    return repeat


# Branching clauses (see context._branches); an atomic block's form is in atomic.SIMS.
def s_if(cx: Compiler, n: A.If, sc):
    cond = cx.expr(n.cond, sc)
    then = cx.sim(n.then, sc)
    orelse = cx.sim(n.orelse, sc) if n.orelse is not None else None

    def if_(st, env, k):
        if cond(st, env):
            then(st, env, k)
        elif orelse is not None:
            orelse(st, env, k)
        else:
            k(st, env)
    return if_


def s_either(cx: Compiler, n: A.Either, sc):
    """A branch point over alternatives: each clause continues the path on its own, from the same state."""
    alts = tuple(cx.sim(c, sc) for c in n.clauses)

    def either(st, env, k):
        _walk_clauses(alts, st, env, k, len(st.log))  # as a choice's clauses, but at this point of the path
    return either


FORMS: dict[type, Form] = {
    A.Do: s_do, A.Loop: s_loop, A.Guarded: s_guarded, A.Let: s_let, A.Repeat: s_repeat, A.If: s_if, A.Either: s_either,
}
