"""Random walks through atomic blocks for the players that sample them (§15.4), in direct style.

A sampled walk never comes back to a branch point, so unlike option building (`options`) it
needs no continuation: every clause is compiled once more into a walker `w(st, env) -> bool`
that runs it once, taking one element at each `any` and one clause at each inner choice, and
says whether it completed.  Its state changes are logged in `st.log` like every change made
while options are built, so that a failed walk can be undone.  Clauses without a branch point
walk as their direct closure.  The stream drawn from is `st.sampler`, a `WalkStream`.

`sample` makes a block's attempts: walk, test `require`, undo and walk again, at most
`Program.atomic_attempts` times, or once if nothing random decided the failed walk.
"""
from __future__ import annotations

import math
import random
import threading
from collections.abc import Callable

from ..engine.ops import p_advance, p_pop_cycle, p_push_cycle, undo_to
from ..errors import GameRuntimeError, InternalError
from ..lang import ast as A
from ..lang.ast import T
from . import references as refs
from .context import Compiler, _branches, repeat_count
from .options import _Reject
from .params import assign, bind_params

_err = GameRuntimeError

# A stage inside an atomic block may run at most this many passes on one path (E4).
ATOMIC_MAX_PASSES = 500

Walker = Callable[..., bool]


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
        # log10 of the product of the alternatives met at the forks of the walk under way: with
        # uniform draws, its power of ten estimates the number of complete paths (Knuth's
        # estimator of a tree's size), recorded as the estimated branching of a sampled decision
        self.log_paths = 0.0

    def below(self, n: int) -> int:
        """randrange(n) for n >= 1, the same number drawn the same way, without its argument checks."""
        k = n.bit_length()
        r = self.getrandbits(k)
        while r >= n:
            r = self.getrandbits(k)
        return r


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


def sample(cx: Compiler, n: A.Atomic, sc) -> Callable:
    """The attempts of a block: `attempts(st, env, then) -> bool`, True once a walk passed `require` and `then` ran.

    `then(st, env)` continues after the block (the rest of the option being built, or nothing
    inside another walk); a move it rejects (E1) counts as a failure of the attempt, as when
    options are enumerated.  At the end the state is as it was before the block, but for what
    a successful attempt and `then` did.
    """
    body = walk_multi(cx, n.body, sc)
    req = cx.expr(n.require, sc)
    p = cx.p

    def attempts(st, env, then) -> bool:
        rng = st.sampler
        mark = len(st.log)
        game = st.rng
        spare = _spare_watches()
        watch = spare.pop() if spare else _WatchedStream()
        try:
            for _ in range(p.atomic_attempts):
                if game is not None:
                    watch.real = game
                    st.rng = watch
                forks = rng.forks
                paths = rng.log_paths
                watch.drawn = False
                try:
                    if body(st, env) and req(st, env):
                        st.rng = game  # what follows the block draws from the game stream itself
                        try:
                            then(st, env)
                        except _Reject:
                            # what follows is not watched: another attempt may fare otherwise, even the same walk
                            undo_to(st, mark)
                            rng.log_paths = paths
                            continue
                        return True
                except _Reject:
                    pass
                undo_to(st, mark)
                rng.log_paths = paths  # a failed walk is no path
                if rng.forks == forks and not watch.drawn:
                    return False  # nothing random decided this walk: every further attempt would repeat it
            return False
        finally:
            st.rng = game
            spare.append(watch)
    return attempts


_here = threading.local()  # .spare: this thread's stand-ins for the game stream not in use


def _spare_watches() -> list:
    """The stand-ins this thread may reuse: one per block being walked at a time (blocks nest, games
    run in threads), made once rather than seeded anew for every block."""
    spare = getattr(_here, "spare", None)
    if spare is None:
        spare = _here.spare = []
    return spare


def _done(st, env) -> None:
    pass


def w_atomic(cx: Compiler, n: A.Atomic, sc) -> Walker:
    """A block met during a walk: its own attempts; the walk goes on after the first that succeeds."""
    attempts = sample(cx, n, sc)
    return lambda st, env: attempts(st, env, _done)


def walk_multi(cx: Compiler, body, sc) -> Walker:
    """The walker of a block's MULTIACTION (a do, a choice or a stage)."""
    t = type(body)
    if t is A.Do:
        return walker(cx, body, sc)
    if t is A.Choice:
        return w_choice(cx, body, sc)
    if t is A.Stage:
        return w_stage(cx, body, sc)
    raise InternalError(f"atomic block of {t.__name__} at {body.span}")


def walker(cx: Compiler, n, sc) -> Walker:
    """The walker of a clause: its branch points sampled, or its direct closure if it has none."""
    if not _branches(n):
        ex = cx.clause(n, sc)

        def straight(st, env) -> bool:
            ex(st, env)
            return True
        return straight
    f = CLAUSES.get(type(n))
    if f is None:
        raise InternalError(f"cannot walk {type(n).__name__} at {n.span}")
    return f(cx, n, sc)


def w_do(cx: Compiler, n: A.Do, sc) -> Walker:
    ws: list[Walker] = []
    straight: list = []
    for c in n.clauses:  # consecutive clauses without a branch point run as one (as options.s_do)
        if _branches(c):
            if straight:
                ws.append(walker(cx, A.Do(tuple(straight)), sc))
                straight = []
            ws.append(walker(cx, c, sc))
        else:
            straight.append(c)
    if straight:
        ws.append(walker(cx, A.Do(tuple(straight)), sc))
    return in_turn(ws)


def in_turn(ws: list[Walker]) -> Walker:
    """One walker running the given ones in turn, failing at the first that fails."""
    if len(ws) == 1:
        return ws[0]
    seq = tuple(ws)

    def do(st, env) -> bool:
        for w in seq:  # noqa: SIM110 - all() over a generator takes twice as long on this path
            if not w(st, env):
                return False
        return True
    return do


def w_loop(cx: Compiler, n: A.Loop, sc) -> Walker:
    if n.quant == "any":
        pick = draw(cx, n.coll, sc)
        s, sc2 = cx.bind(sc, n.var)
        body = walker(cx, n.body, sc2)

        def any_(st, env) -> bool:
            e = pick(st, env, st.sampler)
            if e is _NONE:  # an `any` over nothing does nothing
                return True
            env[s] = e
            return body(st, env)
        return any_
    cf = refs.iter(cx, n.coll, sc)
    s, sc2 = cx.bind(sc, n.var)
    body = walker(cx, n.body, sc2)

    def all_(st, env) -> bool:
        for e in list(cf(st, env)):
            env[s] = e
            if not body(st, env):
                return False
        return True
    return all_


_NONE = object()  # what `draw` gives for an empty collection (None is a value: a reference to no card)


def draw(cx: Compiler, coll, sc) -> Callable:
    """`pick(st, env, stream)`: the element a walk takes at an `any`, uniform, or _NONE if there is none (§15.4).

    The draw is a fork unless one element alone was possible.  Over `(filter C 'X cond)` the
    elements of C are tried in a random order and the first one passing `cond` is taken:
    uniform among those that pass, without testing every element of C.
    """
    if type(coll) is not A.Filter:
        cf = refs.iter(cx, coll, sc)

        def pick(st, env, rng):
            elems = cf(st, env)
            n = len(elems)
            if n > 1:
                rng.forks += 1
                rng.log_paths += math.log10(n)
                return elems[rng.below(n)]
            return elems[0] if n else _NONE
        return pick
    base = refs.coll(cx, coll.coll, sc)
    s, sc2 = cx.bind(sc, coll.var)
    cond = cx.expr(coll.cond, sc2)

    def pick_filtered(st, env, rng):
        elems = base(st, env)
        n = len(elems)
        order = list(range(n))
        for i in range(n):
            # one step of a Fisher–Yates shuffle: order[i] is uniform among the elements not yet tried
            j = i + rng.below(n - i) if i < n - 1 else i
            order[i], order[j] = order[j], order[i]
            e = elems[order[i]]
            env[s] = e
            if cond(st, env):
                if i < n - 1:
                    rng.forks += 1
                    rng.log_paths += math.log10(n - i)  # the elements not yet ruled out
                return e
        return _NONE
    return pick_filtered


def w_guarded(cx: Compiler, n: A.Guarded, sc) -> Walker:
    cond = cx.expr(n.cond, sc)
    body = walker(cx, n.body, sc)
    return lambda st, env: body(st, env) if cond(st, env) else True


def w_let(cx: Compiler, n: A.Let, sc) -> Walker:
    vf = cx.expr(n.value, sc)
    s, sc2 = cx.bind(sc, n.var)
    body = walker(cx, n.body, sc2)

    def let(st, env) -> bool:
        env[s] = vf(st, env)
        return body(st, env)
    return let


def w_repeat(cx: Compiler, n: A.Repeat, sc) -> Walker:
    cf = repeat_count(cx, n, sc)
    body = walker(cx, n.body, sc)

    def repeat(st, env) -> bool:
        for _ in range(cf(st, env)):  # noqa: SIM110 - as in_turn
            if not body(st, env):
                return False
        return True
    return repeat


def w_if(cx: Compiler, n: A.If, sc) -> Walker:
    cond = cx.expr(n.cond, sc)
    then = walker(cx, n.then, sc)
    orelse = walker(cx, n.orelse, sc) if n.orelse is not None else None

    def if_(st, env) -> bool:
        if cond(st, env):
            return then(st, env)
        return orelse(st, env) if orelse is not None else True
    return if_


def w_either(cx: Compiler, n: A.Either, sc) -> Walker:
    """Alternatives in a random order, a walk through each, the first that completes (uniform over those that can)."""
    alts = tuple(walker(cx, c, sc) for c in n.clauses)

    def either(st, env) -> bool:
        log = st.log
        mark = len(log)
        rng = st.sampler
        paths = rng.log_paths
        left = list(alts)
        while left:
            m = len(left)
            w = left.pop(rng.below(m) if m > 1 else 0)
            try:
                ok = w(st, env)
            except _Reject:  # a move overfilling a cell (E1): no path through this alternative
                ok = False
            if ok:
                if left:
                    rng.forks += 1
                    rng.log_paths += math.log10(m)  # the alternatives not yet ruled out
                return True
            undo_to(st, mark)
            rng.log_paths = paths
        return False
    return either


def w_call(cx: Compiler, n: A.CallClause, sc) -> Walker:
    """A use of a named action block: its arguments bound (all read before any is bound), its body walked."""
    binds, inner = bind_params(cx, n, sc)
    return _bound(binds, walker(cx, n.body, inner))


def _bound(binds, body: Walker) -> Walker:
    """A walker run with a definition's parameters bound first."""
    if not binds:
        return body

    def call(st, env) -> bool:
        assign(binds, st, env)
        return body(st, env)
    return call


# ---------------------------------------------------------------- program items inside a block


def w_item(cx: Compiler, it, sc) -> Walker:
    """A program item inside a block: choices and stages walked, other items run straight."""
    t = type(it)
    if t is A.Stage:
        return w_stage(cx, it, sc)
    if t is A.Choice:
        return w_choice(cx, it, sc)
    if t is A.Let and type(it.body) is A.Choice:
        vf = cx.expr(it.value, sc)
        s, sc2 = cx.bind(sc, it.var)
        body = w_choice(cx, it.body, sc2)

        def let(st, env) -> bool:
            env[s] = vf(st, env)
            return body(st, env)
        return let
    if t is A.Atomic and type(it.body) is not A.Do:
        return w_atomic(cx, it, sc)
    if t is A.CallItem:
        binds, inner = bind_params(cx, it, sc)
        return _bound(binds, w_item(cx, it.body, inner))
    ex = cx.clause(it, sc)

    def straight(st, env) -> bool:
        ex(st, env)
        return True
    return straight


def w_choice(cx: Compiler, ch: A.Choice, sc) -> Walker:
    """An inner choice: its clauses in a random order, a walk through each, the first that completes with an effect."""
    # a clause whose condition is false whatever the state (a place a base leaves for its variants,
    # §24) is dropped here, so that it changes no walk: a variant walks as its full copy would
    clauses = [p for p in (_clause_parts(cx, c, sc) for c in ch.clauses) if p is not None]

    def choice(st, env) -> bool:
        log = st.log
        mark = len(log)
        rng = st.sampler
        paths = rng.log_paths
        left = list(clauses)
        while left:
            m = len(left)
            cond, ex, w = left.pop(rng.below(m) if m > 1 else 0)
            if cond is not None and not cond(st, env):
                continue  # a clause whose condition is false does nothing: no option
            try:
                if ex is not None:
                    ex(st, env)
                    ok = True
                else:
                    ok = w(st, env)
            except _Reject:  # a move overfilling a cell (E1): this clause has no path here
                ok = False
            if ok and len(log) > mark:
                if left:
                    rng.forks += 1
                    rng.log_paths += math.log10(m)  # the clauses not yet ruled out
                return True
            undo_to(st, mark)
            rng.log_paths = paths
        return False
    return choice


def _clause_parts(cx: Compiler, c, sc) -> tuple | None:
    """(condition or None, direct closure or None, walker or None) of a choice's clause, for w_choice;
    None for a clause whose condition is constantly false.

    A use of a definition whose body is a guarded clause has that guard as its condition, read
    with the arguments bound (the body then reads them from their slots).
    """
    if type(c) is A.CallClause and type(c.body) is A.Guarded:
        binds, inner = bind_params(cx, c, sc)
        if _never(cx, c.body.cond, inner):
            return None
        guard = cx.expr(c.body.cond, inner)
        parts = _clause_parts(cx, c.body.body, inner)
        if parts is None:
            return None
        _, ex, w = parts

        return _bound(binds, guard), ex, w
    cond = None
    if type(c) is A.Guarded:
        if _never(cx, c.cond, sc):
            return None
        cond = cx.expr(c.cond, sc)
        c = c.body
    if _branches(c):
        return cond, None, walker(cx, c, sc)
    return cond, cx.clause(c, sc), None


_COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
            ">": lambda a, b: a > b, "<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b}


def _never(cx: Compiler, n, sc) -> bool:
    """Is the condition n false in every state (literals, declared values, uses of such definitions)?"""
    return _folded(cx, n, sc) == (True, False)


def _folded(cx: Compiler, n, sc) -> tuple:
    """(True, value) of an expression made only of constants, comparisons and logic, else (False, None)."""
    t = type(n)
    if t is A.CallExpr:
        inner = dict(sc)
        for name, arg in zip(n.params, n.args, strict=True):
            known, v = _folded(cx, arg, sc)
            inner[name] = (True, v) if known else (False, -1)  # -1: a slot no constant reads
        return _folded(cx, n.body, inner)
    if t is A.Compare and n.op in _COMPARE and n.type != T.PLAYER:
        (ka, a), (kb, b) = _folded(cx, n.left, sc), _folded(cx, n.right, sc)
        return (True, _COMPARE[n.op](a, b)) if ka and kb and type(a) is type(b) else (False, None)
    if t is A.Logic:
        vals = [_folded(cx, a, sc) for a in n.args]
        if not all(k for k, _ in vals):
            return False, None
        return True, (all(v for _, v in vals) if n.op == "and" else any(v for _, v in vals))
    if t is A.Not:
        k, v = _folded(cx, n.arg, sc)
        return (True, not v) if k else (False, None)
    return cx.const(n, sc)


def w_stage(cx: Compiler, stg: A.Stage, sc) -> Walker:
    """A stage inside a block: its cycle pushed, advanced and popped through the log, its passes walked."""
    cond = cx.expr(stg.end, sc)
    body = in_turn([w_item(cx, it, sc) for it in stg.items])
    span = stg.span
    n, nt = cx.n, cx.nt
    player = stg.kind == "player"

    def stage(st, env) -> bool:
        if player:
            p_push_cycle(st, 0, (st.pcyc[-2], -1))
        else:
            p_push_cycle(st, 1, (st.tcyc[-1],))
        passes = 0
        while not cond(st, env):
            if passes >= ATOMIC_MAX_PASSES:
                raise _err("resource", f"the stage at {span} inside an atomic block ran more than "
                           f"{ATOMIC_MAX_PASSES} passes on one path", span)
            if passes:
                p_advance(st, 0, n) if player else p_advance(st, 1, nt)
            if not body(st, env):
                return False
            passes += 1
        p_pop_cycle(st, 0 if player else 1)
        return True
    return stage


# Branching clauses (see context._branches): how each is walked.
CLAUSES: dict[type, Callable] = {A.Do: w_do, A.Loop: w_loop, A.Guarded: w_guarded, A.Let: w_let,
                                 A.Repeat: w_repeat, A.Atomic: w_atomic, A.If: w_if, A.Either: w_either,
                                 A.CallClause: w_call}
