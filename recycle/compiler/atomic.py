"""Atomic blocks (extension E4): run directly, or walked for option building.

Outside a choice an atomic `do` runs tentatively and is rolled back unless `require` holds.
While options are built its complete successful paths are enumerated here, in the
continuation-passing style of `options` (program items inside a block, choices and stages,
too, with their stage cycles pushed and popped through the log); for a player that samples,
`walks` finds one by random walks instead (§15.4).
"""
from __future__ import annotations

from ..engine.ops import p_advance, p_pop_cycle, p_push_cycle, undo_to
from ..engine.recording import EventSink
from ..errors import GameRuntimeError, InternalError
from ..lang import ast as A
from .context import Compiler, Form, _straight
from .options import _EnumerationBudget, _Reject, _walk_clauses, in_sequence
from .params import bind_params, with_params
from .walks import ATOMIC_MAX_PASSES, sample

_err = GameRuntimeError


def c_atomic(cx: Compiler, n: A.Atomic, sc):
    """An atomic `do` run directly: tentatively, kept if `require` holds, else rolled back exactly."""
    body = cx.clause(n.body, sc)
    req = cx.expr(n.require, sc)
    p = cx.p

    def atomic(st, env):
        log = st.log
        if log is not None:  # inside another tentative block: roll back this one only
            mark = len(log)
            body(st, env)
            if not req(st, env):
                undo_to(st, mark)
            return
        rec = st.rec
        buf: list[dict] | None = None
        st.log = []
        if rec is not None:
            buf = []
            st.rec = EventSink(p, buf.append)
        try:
            body(st, env)
            ok = req(st, env)
            if not ok:
                undo_to(st, 0)
        except _Reject as e:
            raise e.error from None
        finally:
            st.log = None
            st.rec = rec
        if ok and buf:
            out = rec.out
            for ev in buf:
                out(ev)
    return atomic


def sim_atomic(cx: Compiler, n: A.Atomic, sc):
    """An atomic block while options are built: its successful paths (enumerating), or one found by sampling."""
    body = sim_multi(cx, n.body, sc)
    req = cx.expr(n.require, sc)
    attempts = sample(cx, n, sc)
    p = cx.p

    def atomic(st, env, k):
        smp = st.sampler
        if smp is not None:
            paths = smp.log_paths
            attempts(st, env, k)
            smp.log_paths = paths  # the next option's walk counts its own forks
            return

        def check(st2, env2):
            p.atomic_paths += 1
            if p.atomic_paths > p.atomic_max_paths:
                raise _EnumerationBudget()
            if req(st2, env2):
                k(st2, env2)
        body(st, env, check)
    return atomic


def sim_multi(cx: Compiler, body, sc):
    t = type(body)
    if t is A.Do:
        return cx.sim(body, sc)
    if t is A.Choice:
        return sim_choice(cx, body, sc)
    if t is A.Stage:
        return sim_stage(cx, body, sc)
    raise InternalError(f"atomic block of {t.__name__} at {body.span}")


def sim_item(cx: Compiler, it, sc):
    """A program item inside an atomic block, for option building: choices branch, do items run straight."""
    t = type(it)
    if t is A.Stage:
        return sim_stage(cx, it, sc)
    if t is A.Choice:
        return sim_choice(cx, it, sc)
    if t is A.Let and type(it.body) is A.Choice:
        vf = cx.expr(it.value, sc)
        s, sc2 = cx.bind(sc, it.var)
        body = sim_choice(cx, it.body, sc2)

        def let(st, env, k):
            old = env[s]
            env[s] = vf(st, env)
            body(st, env, k)
            env[s] = old
        return let
    if t is A.Atomic and type(it.body) is not A.Do:
        return sim_atomic(cx, it, sc)
    if t is A.CallItem:  # a named item: its body, with the arguments bound on this path only (as s_call)
        binds, inner = bind_params(cx, it, sc)
        return with_params(binds, sim_item(cx, it.body, inner))
    return _straight(cx.clause(it, sc))


def sim_items(cx: Compiler, items, sc):
    return in_sequence([sim_item(cx, it, sc) for it in items])


def sim_choice(cx: Compiler, ch: A.Choice, sc):
    """A choice inside an atomic block, while its paths are enumerated: a branch point over its options."""
    sims = [cx.sim(c, sc) for c in ch.clauses]

    def choice(st, env, k):
        log = st.log
        mark = len(log)

        def fin(st2, env2):
            if len(log) > mark:
                k(st2, env2)
        _walk_clauses(sims, st, env, fin, mark)
    return choice


def sim_stage(cx: Compiler, stg: A.Stage, sc):
    """A stage inside an atomic block: its cycle pushed, advanced and popped through the log."""
    cond = cx.expr(stg.end, sc)
    body = sim_items(cx, stg.items, sc)
    span = stg.span
    n, nt = cx.n, cx.nt
    player = stg.kind == "player"

    def stage(st, env, k):
        if player:
            p_push_cycle(st, 0, (st.pcyc[-2], -1))
        else:
            p_push_cycle(st, 1, (st.tcyc[-1],))

        def test(first, passes, st, env):
            if cond(st, env):
                p_pop_cycle(st, 0 if player else 1)
                k(st, env)
                return
            if passes >= ATOMIC_MAX_PASSES:
                raise _err("resource", f"the stage at {span} inside an atomic block ran more than "
                           f"{ATOMIC_MAX_PASSES} passes on one path", span)
            if not first:
                p_advance(st, 0, n) if player else p_advance(st, 1, nt)
            body(st, env, lambda st2, env2: test(False, passes + 1, st2, env2))
        test(True, 0, st, env)
    return stage


CLAUSES: dict[type, Form] = {A.Atomic: c_atomic}
SIMS: dict[type, Form] = {A.Atomic: sim_atomic}
