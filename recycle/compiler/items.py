"""Program items to code: the flat op list driven by `st.pc`, decisions, stages, scoring.

Each item becomes one or more ops `op(st)` appended with `Compiler.emit`; an op sets the
next `st.pc` itself, so a state can be cloned at any decision point.
"""
from __future__ import annotations

from ..engine import algorithms as alg
from ..engine.ops import REDO, UNDO, undo_to
from ..engine.stack import with_room
from ..engine.state import DCL, WAITING, Option
from ..errors import GameRuntimeError
from ..lang import ast as A
from ..lang.consts import walk
from . import deferred
from .atomic import sim_atomic
from .clause_code import clause_code
from .context import Compiler, ItemForm
from .options import _EnumerationBudget, _OptionLimit, _Reject, _walk_clauses
from .walks import WalkStream

_err = GameRuntimeError


def is_item_only(n) -> bool:
    """Does this node need the program counter (a decision, a stage, a loop of items), rather than run as a clause?"""
    t = type(n)
    if t is A.Let:
        return is_item_only(n.body)
    if t is A.Atomic:
        return type(n.body) is not A.Do
    return t in ITEM_ONLY


def gen_exec_item(cx: Compiler, it, sc, stages) -> None:
    ex = clause_code(cx, it, sc)
    p = cx.p
    pc = cx.emit(None, it.span, stages)
    nxt = pc + 1
    span = it.span
    limit = p._limit

    def op(st):
        s = st.steps + 1
        if s > st.max_steps:
            limit(st, "steps", span)
            return
        st.steps = s
        ex(st, st.env)
        st.pc = nxt

    p.code[pc] = op


def gen_let_item(cx: Compiler, it: A.Let, sc, stages) -> None:
    """A `let` item: run as a clause, or, around a decision or other item, an op binding the value first."""
    if not is_item_only(it.body):
        gen_exec_item(cx, it, sc, stages)
        return
    s, sc2 = cx.bind(sc, it.var)
    gen_bind(cx, ((s, cx.expr(it.value, sc)),), it.span, stages)
    cx.gen_items((it.body,), sc2, stages)


def gen_bind(cx: Compiler, binds, span, stages) -> None:
    """An op giving variable slots their values, every value read before any slot is set, then the next op."""
    pc = cx.emit(None, span, stages)
    nxt = pc + 1
    if len(binds) == 1:
        [(s, vf)] = binds

        def op(st):
            env = st.env
            env[s] = vf(st, env)
            st.pc = nxt
    else:
        slots = tuple(s for s, _ in binds)
        reads = tuple(vf for _, vf in binds)

        def op(st):
            env = st.env
            vals = [vf(st, env) for vf in reads]
            for s, v in zip(slots, vals, strict=True):
                env[s] = v
            st.pc = nxt

    cx.p.code[pc] = op


class SampledOptions(list):
    """The options of a decision whose atomic blocks were sampled (§15.4): one walk each, not every path.

    `estimate` is the estimated number of complete paths the decision has: over its options, the
    sum of the products of the alternatives met at the forks of each option's walk (Knuth's
    estimator).  The decision record keeps it as the decision's estimated branching.
    """

    def __init__(self, opts, estimate: float):
        super().__init__(opts)
        # summed from powers of ten of logarithms: twelve significant digits drop the rounding noise
        self.estimate = max(float(f"{estimate:.12g}"), float(len(opts)))


def option_builder(cx: Compiler, sims, lazy_before: int, plan=None):
    """The options of a decision from its top-level clause walks (§6.7); None past Program.max_options.

    `lazy_before`: Program.lazy_anys before the walks were compiled (more now: some `any` makes lazy options).
    `plan`: how the options are listed without running the clauses (deferred.plan), or None."""
    has_atomic = cx.has_atomic
    p = cx.p
    if not has_atomic:
        return plain_option_builder(p, sims, p.lazy_anys > lazy_before, plan)

    def build(st):
        env = st.env
        log: list[tuple] = []
        rec = st.rec
        st.log = log
        st.rec = None
        opts: list[Option] = []
        append = opts.append
        p.branches = 0
        if has_atomic:
            p.atomic_paths = 0
            smp = st.sampling
            st.sampler = (WalkStream(alg.derive(st.seed, "atomic", st.decisions + 1))
                          if smp is not None and smp[st.chooser] else None)

        most = p.max_options
        paths = [0.0]  # with sampled blocks: the estimated number of complete paths of the options so far

        def finish(st, env):
            if log:
                if len(opts) >= most:
                    raise _OptionLimit
                append(Option(tuple(log)))
                smp = st.sampler
                if smp is not None:
                    paths[0] += 10.0 ** min(smp.log_paths, 300.0)

        try:
            try:
                _walk_clauses(sims, st, env, finish, 0)
            except _EnumerationBudget:
                # Too many paths to list: build the decision again, sampling every block.
                undo_to(st, 0)
                opts.clear()
                paths[0] = 0.0
                st.sampler = WalkStream(alg.derive(st.seed, "atomic", st.decisions + 1))
                _walk_clauses(sims, st, env, finish, 0)
            smp = st.sampler
            if smp is not None and smp.forks:
                # a random walk chose among alternatives: the options listed are a sample (§15.4)
                return SampledOptions(opts, paths[0])
        except _OptionLimit:
            undo_to(st, 0)
            return None
        finally:
            st.log = None
            st.rec = rec
            st.sampler = None
        return opts

    if has_atomic:
        # Enumerating atomic blocks recurses hundreds of frames deep, and even the sampled walks
        # go deep enough to straddle a stack chunk: they get a chunk of their own (stack.py).
        return lambda st: with_room(build, st)
    return build


def plain_option_builder(p, sims, lazy: bool, plan=None):
    """option_builder for a game without atomic blocks: no sampling stream, no path budget, no estimate.

    `lazy`: some `any` of the walks makes lazy options (options.add_lazy) when it ends a path at once:
    it is told so by Program.lazy_finish, the `finish` of the decision being built.
    `plan`: as option_builder's; a decision of straight clauses that can all be deferred lists its
    options without running them (compiler.deferred)."""
    parts = [getattr(s, "straight", None) for s in sims]
    if not lazy and all(x is not None for x in parts):
        eager = straight_option_builder(p, parts)
        if plan is not None:
            return deferred.option_builder(p, parts, plan, eager)
        return eager
    # a clause without a branch point is tested and run here, its option appended as `finish` would append
    # it (as straight_option_builder does): two calls fewer per such clause (Crazy Eights' draw and pass)
    # and a guarded clause's guard is tested here: a failing one, with nothing logged, makes no option
    clauses = tuple((part, getattr(s, "guard", None), s) for part, s in zip(parts, sims, strict=True))
    undo = UNDO

    def build(st):
        log: list[tuple] = []
        rec = st.rec
        st.log = log
        st.rec = None
        opts: list[Option] = []
        append = opts.append
        p.branches = 0
        most = p.max_options

        def finish(st, env):
            if log:
                if len(opts) >= most:
                    raise _OptionLimit
                append(Option(tuple(log)))

        # an `any` that ends a path here appends its options itself (options.add_lazy, options.walk_straight)
        p.lazy_finish = finish
        p.lazy_opts = opts
        env = st.env
        try:
            for part, guard, sim in clauses:  # _walk_clauses(sims, st, env, finish, 0), inlined
                if part is None:
                    if guard is not None:
                        if not guard[0](st, env):
                            continue
                        sim = guard[1]
                    try:  # noqa: SIM105 - as in _walk_clauses
                        sim(st, env, finish)
                    except _Reject:
                        pass
                else:
                    cond, body = part
                    if cond is not None and not cond(st, env):
                        continue  # nothing logged: no option, nothing to undo
                    try:
                        body(st, env)
                    except _Reject:
                        pass
                    else:
                        if log:
                            if len(opts) >= most:
                                raise _OptionLimit
                            append(Option(tuple(log)))
                while log:  # undo_to(st, 0), inlined
                    op = log.pop()
                    undo[op[0]](st, op)
        except _OptionLimit:
            undo_to(st, 0)
            return None
        finally:
            st.log = None
            st.rec = rec
            p.lazy_finish = p.lazy_opts = None
        return opts
    return build


def straight_option_builder(p, parts):
    """plain_option_builder for a decision whose clauses have no branch point (poker's bets): each clause,
    (guard, body) or (None, body), is one path from the decision's state, tested and run here without
    the walk's continuation, its option (if it changed anything) kept and its changes undone; the
    same options, in the same order, as the walk makes (Kuhn and Leduc poker 6% faster; issue 16).

    It repeats plain_option_builder's opening and closing of the log on purpose: the same build
    given this loop as its walk, with plain_option_builder's `finish` called per clause, kept only
    a third of the gain (measured 3-4% slower on both games)."""
    undo = UNDO

    def build(st):
        log: list[tuple] = []
        rec = st.rec
        st.log = log
        st.rec = None
        opts: list[Option] = []
        p.branches = 0
        most = p.max_options
        env = st.env
        try:
            for cond, body in parts:
                if cond is not None and not cond(st, env):
                    continue  # the walk's path would end here with nothing logged: no option
                try:
                    body(st, env)
                except _Reject:
                    pass
                else:
                    if log:
                        if len(opts) >= most:
                            raise _OptionLimit
                        opts.append(Option(tuple(log)))
                while log:  # undo_to(st, 0), inlined
                    op = log.pop()
                    undo[op[0]](st, op)
        except _OptionLimit:
            undo_to(st, 0)
            return None
        finally:
            st.log = None
            st.rec = rec
        return opts
    return build


def gen_choice(cx: Compiler, ch: A.Choice, sc, stages) -> None:
    gen_decision(cx, ch.clauses, ch.span, sc, stages, "choice")


# The option an optional step adds after its own: take none of them.
DECLINE = Option(((DCL,),))


def gen_decision(cx: Compiler, clauses, span, sc, stages, what: str, optional: bool = False) -> None:
    """A decision point: its options built from its clauses (§6.7), chosen by the current player or, inside
    an `ask`, by the player the ask is asking (cx.chooser_slot).  An optional step adds a pass (DECLINE)
    and is skipped, as one step and no decision, when its clauses give no option."""
    p = cx.p
    lazy_before = p.lazy_anys
    sims = [cx.sim(c, sc) for c in clauses]
    pc = cx.emit(None, span, stages)
    p.choice_span[pc] = span
    nxt = pc + 1
    limit, step = p._limit, p._step
    ctx = f"while building the options of the {what} at {span}"
    build = option_builder(cx, sims, lazy_before, deferred.plan(cx, clauses, sc))
    p.decision_sims[pc] = sims  # walked again, step by step, by a person building a big turn (players.stepwise)
    asked = cx.chooser_slot

    def op(st):
        if st.decisions >= st.max_decisions:
            limit(st, "decisions", span)
            return
        st.chooser = st.pcyc[-2] if asked is None else st.env[asked]
        try:
            opts = build(st)
        except GameRuntimeError as e:
            raise e.with_context(ctx) from None
        if opts is None:
            limit(st, "options", span)
            return
        if not opts:
            if optional:
                if step(st, span):
                    st.pc = nxt
                return
            raise _err("no-option", f"no legal option for player {st.chooser} at this {what} "
                       f"(decision {st.decisions + 1})", span)
        if optional:
            opts.append(DECLINE)
            if type(opts) is SampledOptions:
                opts.estimate += 1
        st.opts = opts
        st.status = WAITING

    p.code[pc] = op


def gen_atomic_item(cx: Compiler, it: A.Atomic, sc, stages) -> None:
    """An atomic block holding a choice or a stage: one decision whose options are its complete successful paths.

    Without any choice inside (a stage of do items) the block has at most one path: it is
    applied at once, no decision.  Without a successful path the block is skipped.
    """
    p = cx.p
    decides = any(isinstance(x, A.Choice) for x in walk(it.body))
    sims = [sim_atomic(cx, it, sc)]
    build = option_builder(cx, sims, cx.p.lazy_anys)  # no lazy options with atomic blocks
    span = it.span
    pc = cx.emit(None, span, stages)
    if decides:
        p.choice_span[pc] = span
        p.decision_sims[pc] = sims
    nxt = pc + 1
    limit = p._limit
    ctx = f"while building the options of the atomic block at {span}"
    redo = REDO

    def op(st):
        if decides:
            if st.decisions >= st.max_decisions:
                limit(st, "decisions", span)
                return
        else:
            s = st.steps + 1
            if s > st.max_steps:
                limit(st, "steps", span)
                return
            st.steps = s
        st.chooser = st.pcyc[-2]
        try:
            opts = build(st)
        except GameRuntimeError as e:
            raise e.with_context(ctx) from None
        if opts is None:
            limit(st, "options", span)
            return
        if not opts:
            st.pc = nxt
            return
        if decides:
            st.opts = opts
            st.status = WAITING
            return
        for o in opts[0].ops:
            redo[o[0]](st, o)
        st.pc = nxt

    p.code[pc] = op


def gen_stage(cx: Compiler, stg: A.Stage, sc, stages) -> None:
    p = cx.p
    inner = (stg.span, *stages)
    cond = cx.expr(stg.end, sc)
    endspan = stg.end.span
    p_enter = cx.emit(None, stg.span, inner)
    p_test1 = cx.emit(None, endspan, inner)
    body = len(p.code)
    cx.gen_items(stg.items, sc, inner)
    p_test2 = cx.emit(None, endspan, inner)
    p_adv = cx.emit(None, stg.span, inner)
    p_exit = cx.emit(None, stg.span, stages)
    limit = p._limit
    n = cx.n
    nt = cx.nt
    after = p_exit + 1
    # The test at the end of a round makes the advance itself, and either test the leave: one op call fewer
    # per round and per exit of a stage (the advance and leave ops stay, at their own pcs, for their spans).
    if stg.kind == "player":
        def enter(st):
            c = st.pcyc
            c.append(c[-2])
            c.append(-1)
            st.pc = p_test1

        def leave(st):
            c = st.pcyc
            old = c[-2]
            del c[-2:]
            if st.rec is not None and c[-2] != old:
                st.rec.turn(c[-2])
            st.pc = after

        def advance(st):
            c = st.pcyc
            q = c[-1]
            old = c[-2]
            if q >= 0:
                new = q
                c[-1] = -1
            else:
                new = (old + 1) % n
            c[-2] = new
            if st.rec is not None and new != old:
                st.rec.turn(new)
            st.pc = body

        def test2(st):
            s = st.steps + 1
            if s > st.max_steps:
                limit(st, "steps", endspan)
                return
            st.steps = s
            if cond(st, st.env):
                leave(st)
                return
            c = st.pcyc  # advance(st), inlined
            q = c[-1]
            old = c[-2]
            if q >= 0:
                new = q
                c[-1] = -1
            else:
                new = (old + 1) % n
            c[-2] = new
            if st.rec is not None and new != old:
                st.rec.turn(new)
            st.pc = body
    else:
        def enter(st):
            st.tcyc.append(st.tcyc[-1])
            st.pc = p_test1

        def leave(st):
            st.tcyc.pop()
            st.pc = after

        def advance(st):
            c = st.tcyc
            c[-1] = (c[-1] + 1) % nt
            st.pc = body

        def test2(st):
            s = st.steps + 1
            if s > st.max_steps:
                limit(st, "steps", endspan)
                return
            st.steps = s
            if cond(st, st.env):
                leave(st)
            else:
                advance(st)

    def test1(st):
        s = st.steps + 1
        if s > st.max_steps:
            limit(st, "steps", endspan)
            return
        st.steps = s
        if cond(st, st.env):
            leave(st)
        else:
            st.pc = body

    p.code[p_enter] = enter
    p.code[p_test1] = test1
    p.code[p_test2] = test2
    p.code[p_adv] = advance
    p.code[p_exit] = leave


def per_player(cx: Compiler, f, what: str):
    """A function of the state giving f's value for every player, each in turn the current player (§15)."""
    n = cx.n

    def values(st):
        c = st.pcyc
        env = st.env
        out = []
        for q in range(n):
            c.append(q)
            c.append(-1)
            try:
                out.append(f(st, env))
            except GameRuntimeError as e:
                raise e.with_context(f"while {what} player {q}") from None
            finally:
                del c[-2:]
        return out

    return values


def scoring(cx: Compiler, sc_node: A.Scoring, sc):
    return per_player(cx, cx.expr(sc_node.expr, sc), "scoring")


def tiebreak_keys(cx: Compiler, sc_node: A.Scoring, sc):
    fs = [cx.expr(x, sc) for x in sc_node.tiebreaks]
    return per_player(cx, lambda st, env: tuple(f(st, env) for f in fs), "computing the tie-break keys of")


def gen_atomic_or_exec(cx: Compiler, it: A.Atomic, sc, stages) -> None:
    if type(it.body) is A.Do:
        gen_exec_item(cx, it, sc, stages)
    else:
        gen_atomic_item(cx, it, sc, stages)


# Node classes that are items only; a `let` or `atomic` item is one when its body is (is_item_only).
ITEM_ONLY = (A.Stage, A.Choice, A.OptionalStep, A.Ask, A.While, A.Match, A.CallItem)

# node class -> fn(cx, node, scope, stages): the program items (turns.py adds the decisions and loops
# of rummy-style turns).
FORMS: dict[type, ItemForm] = {
    A.Stage: gen_stage,
    A.Choice: gen_choice,
    A.Let: gen_let_item,
    A.Atomic: gen_atomic_or_exec,
    A.Do: gen_exec_item,
    A.Loop: gen_exec_item,
}
