"""Clauses compiled for option building, in continuation-passing style (§6.7).

Inside a choice each clause becomes `sim(st, env, k)`, which calls `k` once per complete
path: every `any` loop is a branch point, every state change is logged so that a branch can
be undone exactly, and a complete path's log becomes an option.  `Compiler.sim` sends a
clause without a branch point straight to its direct closure and the others here (or to
`atomic`, for an atomic block).  The exceptions and the clause walk below are shared with
`atomic`, `items` and `actions`: names with one underscore are private to the package.
"""
from __future__ import annotations

from weakref import ref

from ..engine.ops import REDO, UNDO, undo_to
from ..engine.state import VDEL, LazyOption, Option
from ..errors import GameRuntimeError, InternalError
from ..lang import ast as A
from ..lang.ast import T
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

    last = len(sims) - 1
    if last == 1:
        a, b = sims

        def seq2(st, env, k):
            a(st, env, lambda st2, env2: b(st2, env2, k))
        return seq2

    def seq(st, env, k):
        def chain(i, st, env):
            if i == last:  # the last walker continues into k itself: an `any` there can see the decision's finish
                sims[i](st, env, k)
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
    lazy = lazy_parts(cx, n.body, sc2, n.var, n.elem)
    if lazy is not None:
        p.lazy_anys += 1  # the decision's option builder then gives them its `finish` (items.plain_option_builder)
    # a body without a branch point, (guard or None, clause): ending at the decision's `finish`, each element's
    # option is appended here, as `finish` would append it (two calls fewer per element: Crazy Eights' plays)
    straight = getattr(body, "straight", None)

    def any_(st, env, k):
        elems = cf(st, env)
        if not elems:
            if st.log or k is not p.lazy_finish:  # else the decision's `finish` of an empty log: no option
                k(st, env)
            return
        p.branches += len(elems)
        if p.branches > p.max_options * BRANCHES_PER_OPTION:
            raise _OptionLimit
        log = st.log
        if k is p.lazy_finish:
            if lazy is not None and len(elems) >= LAZY_MIN_ELEMENTS:
                prefix = tuple(log) if log else ()
                if not prefix or replayable(prefix):
                    add_lazy(p, st, env, s, elems, lazy, prefix)
                    return
            if straight is not None:
                walk_straight(p, st, env, s, elems, straight)
                return
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


def walk_straight(p, st, env, s, elems, straight) -> None:
    """Walk an `any` whose body has no branch point and whose path ends at the decision's `finish`: each
    element's body run, its option appended as `finish` appends it (the whole log, with the changes before
    the `any`), and undone."""
    cond, ex = straight
    opts = p.lazy_opts
    most = p.max_options
    log = st.log
    mark = len(log)
    undo = UNDO
    old = env[s]
    for e in elems:
        env[s] = e
        if cond is None or cond(st, env):
            ex(st, env)
        if log:
            if len(opts) >= most:
                raise _OptionLimit
            opts.append(Option(tuple(log)))
            while len(log) > mark:  # undo_to(st, mark), inlined
                op = log.pop()
                undo[op[0]](st, op)
    env[s] = old


# ---------------------------------------------------------------- lazy options
#
# An `any` whose body is plain makes one option per element without walking it: a LazyOption whose
# ops are computed when first read (Program.apply, describe, players that look at ops), by running the
# body from the decision state, after making again the changes logged on the path before the `any` (its
# prefix, kept with the options: Crazy Eights' "play an eight, then name a suit").  That gives the log
# walking it would have given, provided that
#
# * the `any` ends the path: its continuation is the option builder's `finish` (plain_option_builder sets
#   Program.lazy_finish; in_sequence hands the last walker of a sequence that continuation itself), and
#   the state there is the decision state plus the prefix (every change made while options are built is
#   logged, and replays as Program.apply replays an option; the variables bound on the way are kept in a
#   snapshot of the environment).  A prefix with an entry removed from a virtual pile is walked instead
#   (replayable);
# * the body has no branch point and cannot be rejected (no atomic block nor capacity in the game);
# * the body cannot raise a run-time error: the error would come when the option is read, not while the
#   options are built;
# * the body always logs a change: an option with an empty log is dropped (`finish`), so every element
#   (whose guards hold) makes exactly one option, as walking it would.
#
# `lazy_parts` decides the last three statically and conservatively: the body is guards around a
# sequence of "plain" actions (plain_action), the guards being evaluated while the options are built as
# they are today.  Anything else is walked as before.
#
# A lazy option costs about what walking it costs when it is chosen, and the bookkeeping of the `any`
# (its context, one object per option) comes on top: an `any` of one element is walked (measured on
# Crazy Eights, whose plays are mostly among one or two cards: lazy single options made it 5% slower).
LAZY_MIN_ELEMENTS = 2


def plain_owner(o, var: str | None, vtype) -> bool:
    """An owner of a pile or a cell that is always a valid game, player or loop player."""
    t = type(o)
    if t is A.GameOwner:
        return True
    if t is A.WhoRef:
        return o.what == "player"
    return t is A.Var and o.name == var and vtype == T.PLAYER and o.type == T.PLAYER


def plain_location(n, var: str | None, vtype) -> bool:
    """A stored, non-memory pile with a constant name and a plain owner: it always exists."""
    return (type(n) is A.Location and n.kind != A.Visibility.MEMORY and n.index is None
            and type(n.name) is A.Name and plain_owner(n.owner, var, vtype))


def plain_action(n, var: str | None, vtype, last_top) -> tuple[bool, object]:
    """Is action n plain (always logs, never raises)?  And the pile a card was last moved onto the top of.

    Plain: `(turn pass)`; `(move 'C (top <pile>))` of the loop's own card to a plain location (a card of
    a collection always lies somewhere); `(set <cell> <value>)` of a string cell of a plain owner to a name,
    a variable or the attribute of the top card of the pile the last move went to (it holds that card).
    """
    t = type(n)
    if t is A.TurnPass:
        return True, last_top
    if t is A.Move:
        src = n.card.card if type(n.card) is A.Actual else n.card
        dst = n.dest.card if type(n.dest) is A.Actual else n.dest
        if (type(src) is A.Var and src.name == var and vtype == T.CARD and type(dst) is A.CardAt
                and dst.pos == "top" and plain_location(dst.pile, var, vtype)):
            return True, dst.pile
        return False, None
    if t is A.SetValue:
        tg = n.target
        if (tg.kind != "str" or tg.owner_type not in (None, T.PLAYER) or type(tg.name) is not A.Name
                or not plain_owner(tg.owner, var, vtype)):
            return False, None
        v = n.value
        if type(v) is A.Name or type(v) is A.Var:
            return True, last_top
        if (type(v) is A.CardAtt and type(v.attribute) is A.Name and type(v.card) is A.CardAt
                and v.card.pos == "top" and last_top is not None and v.card.pile == last_top):
            return True, last_top
    return False, None


def lazy_shape(n, var: str | None, vtype):
    """(guard nodes, plain body) if clause n is guards around plain actions, else None."""
    conds = []
    while type(n) is A.Guarded:
        conds.append(n.cond)
        n = n.body
    acts = n.clauses if type(n) is A.Do else (n,)
    if not acts:
        return None
    top = None
    for a in acts:
        ok, top = plain_action(a, var, vtype, top)
        if not ok:
            return None
    return conds, n


def lazy_parts(cx: Compiler, body, sc, var: str | None, vtype):
    """The compiled guards and plain body of a clause making lazy options, or None (walked as before)."""
    if cx.has_atomic or cx.has_capacity:
        return None
    shape = lazy_shape(body, var, vtype)
    if shape is None:
        return None
    conds, plain = shape
    # the variable slots the plain body reads besides the loop's own: the values of `set`s (plain_action)
    acts = plain.clauses if type(plain) is A.Do else (plain,)
    reads = []
    for a in acts:
        if type(a) is A.SetValue and type(a.value) is A.Var and a.value.name != var:
            b = sc.get(a.value.name)
            if b is None:  # not a variable slot the scope knows: walked as before
                return None
            if not b[0] and b[1] not in reads:
                reads.append(b[1])
    return tuple(cx.expr(c, sc) for c in conds), cx.clause(plain, sc), tuple(reads)


def lazy_ops(st, ctx, elem, keep: bool = False, heard: bool = False) -> tuple:
    """The ops of a lazy option: its prefix replayed and its plain body run from the decision state st, both
    logged, then undone; with `keep`, left made (Program.apply taking the option: no undo, then no redo).

    The body reads no variable but the loop's and those in `binds` (lazy_parts), given their values of
    the walk for the time of the run; the state's environment holds them."""
    binds, s, plain, prefix = ctx[4], ctx[5], ctx[6], ctx[7]
    env = st.env
    olds = [(x, env[x]) for x, _ in binds] if binds else None
    for x, v in binds:
        env[x] = v
    old = env[s]
    env[s] = elem
    try:  # a plain body cannot fail (lazy_parts)
        return run_logged(st, env, plain, prefix, keep, "a lazily built option", heard)
    finally:
        env[s] = old
        if olds:
            for x, v in olds:
                env[x] = v


def run_logged(st, env, body, prefix: tuple, keep: bool, what: str, heard: bool = False) -> tuple:
    """The ops of `prefix` made again (as Program.apply replays an option) and of `body` run after them on
    st, logged with no recorder listening; then undone, or with `keep` left made.  The body of a lazy or
    deferred option (`what`), which cannot fail: an error is an internal one.

    `heard` (with keep): st's recorder listens, and hears what it would hear of the ops' replay: the
    prefix is replayed, and the plain actions of a lazy body (a move to a top, a `set`, a pass) tell
    the recorder what replaying their ops tells it."""
    saved = st.log, st.rec
    if not heard:
        st.rec = None
    if prefix:
        redo = REDO
        for op in prefix:
            redo[op[0]](st, op)
        log = list(prefix)
    else:
        log = []
    st.log = log
    try:
        body(st, env)
        ops = tuple(log)
        if not keep:
            undo = UNDO
            while log:  # undo_to(st, 0), inlined
                op = log.pop()
                undo[op[0]](st, op)
    except Exception as e:
        raise InternalError(f"computing {what} failed: {e!r}") from e
    finally:
        st.log, st.rec = saved
    return ops


def replayable(prefix: tuple) -> bool:
    """Can lazy_ops make the changes of `prefix` again and undo them?  Not an entry removed from a virtual
    pile: its replay does nothing (the list is the walk's scratch), its undo would insert the entry again."""
    return all(op[0] != VDEL for op in prefix)


def add_lazy(p, st, env, s, elems, lazy, prefix: tuple) -> None:
    """Append a lazy option for each element (s: the loop's variable slot) whose guards hold; `prefix`: the
    ops logged on the path before the `any`, the start of each option's ops."""
    conds, plain, reads = lazy
    opts = p.lazy_opts
    most = p.max_options
    if not reads:
        binds: tuple = ()
    elif len(reads) == 1:  # Go Fish's rank: no list comprehension's frame for one variable
        x = reads[0]
        binds = ((x, env[x]),)
    else:
        binds = tuple([(x, env[x]) for x in reads])
    ctx = (ref(st), st.decisions, st.pc, lazy_ops, binds, s, plain, prefix)
    append = opts.append
    if not conds:
        if len(opts) + len(elems) > most:
            raise _OptionLimit  # as `finish` would, at the option one too many
        for e in elems:
            append(LazyOption(ctx, e))
        return
    old = env[s]
    for e in elems:
        env[s] = e
        for c in conds:
            if not c(st, env):
                break
        else:
            if len(opts) >= most:
                raise _OptionLimit
            append(LazyOption(ctx, e))
    env[s] = old


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

    p = cx.p

    def guarded(st, env, k):
        if cond(st, env):
            body(st, env, k)
        elif st.log or k is not p.lazy_finish:  # else the decision's `finish` of an empty log: no option
            k(st, env)
    setattr(guarded, "guard", (cond, body))  # noqa: B010 - tested by the option builder (items.plain_option_builder)
    return guarded


def s_let(cx: Compiler, n: A.Let, sc):
    vf = cx.expr(n.value, sc)
    s, sc2 = cx.bind(sc, n.var)
    if type(n.body) is A.Guarded and _branches(n.body):
        # a guard right inside, tested here: one call fewer per binding (Go Fish binds its cards of each rank)
        cond = cx.expr(n.body.cond, sc2)
        inner = cx.sim(n.body.body, sc2)
        p = cx.p

        def let_guarded(st, env, k):
            old = env[s]
            env[s] = vf(st, env)
            if cond(st, env):
                inner(st, env, k)
            elif st.log or k is not p.lazy_finish:  # as in guarded
                k(st, env)
            env[s] = old
        return let_guarded
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
