"""Atomic blocks (extension E4): run directly, or walked for option building.

Outside a choice an atomic `do` runs tentatively and is rolled back unless `require` holds.
While options are built its complete successful paths are enumerated (or, for a player that
samples, found by random walks, §15.4); program items inside a block (choices, stages) are
walked here too, with their stage cycles pushed and popped through the log.
"""
from __future__ import annotations

import random

from ..engine.ops import p_advance, p_pop_cycle, p_push_cycle, undo_to
from ..engine.recording import EventSink
from ..errors import GameRuntimeError, InternalError
from ..lang import ast as A
from .context import Compiler, Form, _straight
from .options import _EnumerationBudget, _Found, _Reject, _walk_clauses, in_sequence

_err = GameRuntimeError

# A stage inside an atomic block may run at most this many passes on one path (E4).
ATOMIC_MAX_PASSES = 500


class WalkStream(random.Random):
    """The sampling stream of one decision (§15.4), counting the draws that can change a walk.

    A draw is a fork when its outcome can send a walk elsewhere: an `any` over two or more
    elements, or an inner choice taking a clause while others are still untried.  A failed
    walk without a fork (and without a draw from the game stream) is the only walk the block
    has, so the attempts stop there.
    """

    def __init__(self, seed: int):
        super().__init__(seed)
        self.forks = 0


class _WatchedStream(random.Random):
    """Stands in for the game stream during an atomic block's random walks and notes any draw from it.

    Every method of `random.Random` draws through `random` or `getrandbits`, both passed on to
    the real stream, so the game's numbers are exactly those it would have drawn directly.
    """

    def __init__(self):
        super().__init__(0)
        self.real: random.Random = self
        self.drawn = False

    def random(self) -> float:
        self.drawn = True
        return self.real.random()

    def getrandbits(self, k: int) -> int:
        self.drawn = True
        return self.real.getrandbits(k)


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
    p = cx.p
    watch = _WatchedStream()  # a block is never entered again while it is being walked

    def atomic(st, env, k):
        rng = st.sampler
        if rng is None:
            def check(st2, env2):
                p.atomic_paths += 1
                if p.atomic_paths > p.atomic_max_paths:
                    raise _EnumerationBudget()
                if req(st2, env2):
                    k(st2, env2)
            body(st, env, check)
            return
        log = st.log
        mark = len(log)
        prev = st.active
        game = st.rng
        found = _Found()  # this invocation's own stop signal (nested blocks have theirs)

        def done(st2, env2):
            if req(st2, env2):
                st.active = prev
                st.rng = game  # the rest of the decision draws from the game stream itself
                k(st2, env2)
                raise found

        if game is not None:
            watch.real = game
            st.rng = watch
        try:
            for _ in range(p.atomic_attempts):
                st.active = rng
                forks = rng.forks
                watch.drawn = False
                try:
                    body(st, env, done)
                except _Found as f:
                    if f is not found:
                        raise
                    return
                except _Reject:
                    pass
                undo_to(st, mark)
                if rng.forks == forks and not watch.drawn:
                    return  # nothing random decided this walk: every further attempt would repeat it
        finally:
            undo_to(st, mark)
            st.active = prev
            st.rng = game
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
    return _straight(cx.clause(it, sc))


def sim_items(cx: Compiler, items, sc):
    return in_sequence([sim_item(cx, it, sc) for it in items])


def sim_choice(cx: Compiler, ch: A.Choice, sc):
    """A choice inside an atomic block: a branch point over its options (enumerating) or its clauses (sampling)."""
    sims = [cx.sim(c, sc) for c in ch.clauses]

    def choice(st, env, k):
        log = st.log
        mark = len(log)
        act = st.active
        if act is None:
            def fin(st2, env2):
                if len(log) > mark:
                    k(st2, env2)
            _walk_clauses(sims, st, env, fin, mark)
            return
        # A random walk (§15.4): the clauses in a random order, one random walk through each,
        # until one completes with an effect.  The walk goes on from there and never comes back
        # for another clause: a failure further on fails the whole walk.
        left = list(sims)
        taken = False

        def take(st2, env2):
            nonlocal taken
            if len(log) > mark:
                taken = True
                if left:
                    act.forks += 1
                k(st2, env2)
        while left:
            m = len(left)
            sim = left.pop(act.randrange(m) if m > 1 else 0)
            try:
                sim(st, env, take)
            except _Reject:
                if taken:
                    raise
            if taken:
                return
            undo_to(st, mark)
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
