"""Deferred options: a straight decision's options listed without running their bodies (issue 16).

A decision whose clauses have no branch point (items.straight_option_builder, poker's bets) runs the
body of each clause whose guard holds, keeps what it logged as the option's ops and undoes it: most
of the listing's cost, all of it thrown away for the options not taken.  When every clause's body
is a few assignments of cells, the bodies need not run while the options are listed:

* each always logs a change (a `set`, an `inc` or a `dec` logs even when the value stays the same),
  so a clause makes an option exactly when its guard holds;
* none can be rejected: only card moves are (a cell's capacity, E1), and they move none;
* each can fail only by an `inc`/`dec` past the integer bound, and a check made while listing (the
  sums computed and tested, nothing changed) tells whether one will.  When a check fails, or
  there are more options than the limit, the options are listed as before, every body run from
  the start: they fail, or stop at the limit, where and as they always did, with the same changes
  made (the guards tested first change nothing);
* the checks and the bodies see the decision's state: no assignment reads or assigns a cell an
  earlier assignment of the same body assigns.

Such an option is a DeferredOption (engine.state), a LazyOption whose ops, when read, are its body
run from the decision's state, logged and undone; Program.apply runs the body where it would
replay the ops, which makes the same changes and tells a recorder the same.  The options, their
order, their ops and the games played are what running the bodies gives (tests/compiler/test_deferred.py).
"""
from __future__ import annotations

from weakref import ref

from ..engine.state import DeferredOption, Option
from ..lang import ast as A
from ..lang import values
from ..lang.ast import T
from ..lang.consts import walk
from .actions import _generated, incdec_sum
from .context import Compiler
from .options import plain_owner, run_logged

# A clause whose deferred body needs no check (its assignments cannot fail): check_of's result.
ALWAYS = True


def cell(n) -> tuple[str, str] | None:
    """(kind, name) of an integer or string cell of the game or a player, named by a literal, whose owner
    always exists (options.plain_owner): the cells a deferred body may read and assign; None otherwise.
    Kind and name tell cells apart conservatively: one name of two players counts as one cell."""
    if (type(n) is A.Storage and n.kind in ("sto", "str") and n.owner_type in (None, T.PLAYER)
            and type(n.name) is A.Name and plain_owner(n.owner, None, None)):
        return n.kind, n.name.value
    return None


def _value_reads(cx: Compiler, n, sc, kind: str) -> tuple | None:
    """The cells a value assigned to (or added to) a cell of `kind` reads: none for a constant (an integer
    within the bound, or a string), the cell for another integer cell (a stored value is within the
    bound); None (not deferred) for anything else."""
    c, v = cx.const(n, sc)
    if c:
        if kind == "str":
            return () if v.__class__ is str else None
        return () if v.__class__ is int and -values.INT_BOUND < v < values.INT_BOUND else None
    r = cell(n)
    return (r,) if kind == "sto" and r is not None and r[0] == "sto" else None


def actions_of(cx: Compiler, body, sc) -> tuple | None:
    """The assignments a deferrable body is made of, in order; None when it is anything else."""
    acts = body.clauses if type(body) is A.Do else (body,)
    if not acts:
        return None
    assigned: set[tuple[str, str]] = set()
    for a in acts:
        if isinstance(a, A.SetValue):
            target = cell(a.target)
            reads = None if target is None else _value_reads(cx, a.value, sc, target[0])
        elif isinstance(a, A.IncDec):
            target = cell(a.target)
            if target is None or target[0] != "sto":
                return None
            reads = () if a.amount is None else _value_reads(cx, a.amount, sc, "sto")
        else:
            return None
        if target is None or reads is None or target in assigned or any(r in assigned for r in reads):
            return None
        assigned.add(target)
    return acts


def check_of(cx: Compiler, clause, sc):
    """How a straight clause's option is listed without running its body: None (it cannot be: run it),
    ALWAYS (its body cannot fail), or a check `f(st, env) -> bool`, true when the body will not fail
    from this state (the sum of every `inc`/`dec` within the integer bound)."""
    if cx.has_atomic or cx.has_capacity:
        return None
    acts = actions_of(cx, clause.body if type(clause) is A.Guarded else clause, sc)
    if acts is None:
        return None
    sums = [a for a in acts if type(a) is A.IncDec]
    if not sums:
        return ALWAYS
    ns: dict = {}
    src = "".join(incdec_sum(cx, a, sc, ns, str(k)) for k, a in enumerate(sums))
    test = " and ".join(f"-_B < v{k} < _B" for k in range(len(sums)))
    return _generated("check", f"{src}    return {test}\n", ns)


def plan(cx: Compiler, clauses, sc) -> tuple | None:
    """Per clause of a decision, (check_of's result, its guard or None): None when some clause cannot be
    deferred, or some guard is not pure.  The guards must be pure (testing one again gives the same
    value and draws nothing): when a check fails the options are listed again from the start,
    guards and all (option_builder).  A guard equal to the one of the clause before it is tested
    once for both (poker's "no bet to answer" opens two clauses, "a bet to answer" the two others)."""
    checks = [check_of(cx, c, sc) for c in clauses]
    if any(c is None for c in checks):
        return None
    guards = [c.cond if type(c) is A.Guarded else None for c in clauses]
    if any(g is not None and not pure(g) for g in guards):
        return None
    return tuple(zip(checks, guards, strict=True))


# Forms whose value, from one state, is the same each time and draws nothing: not `random`, nor the
# tie-breaks of `max`/`min` (they draw from the game stream), nor a call (whose body is not looked at).
PURE = frozenset({A.Compare, A.Logic, A.Not, A.Storage, A.Name, A.IntLit, A.Var, A.GameOwner, A.WhoRef,
                  A.Arith, A.Size, A.Location})


def pure(n) -> bool:
    """Is this expression made only of PURE forms?"""
    return all(type(x) in PURE for x in walk(n))


def option_builder(p, parts, plan, eager):
    """items.straight_option_builder with deferred options, for a decision every clause of which can be
    deferred: `parts` per clause (guard or None, body), `plan` as plan gives it, `eager` the decision's
    straight_option_builder.  When a check fails, or there are more options than Program.max_options,
    the options are listed by `eager`, from the start, running every body: it fails where it always
    did, with the same changes made, or stops at the limit as it did (the guards tested here change
    nothing)."""
    conds = [cond for cond, _ in parts]
    for i in range(1, len(conds)):
        key = plan[i][1]
        if key is not None and key == plan[i - 1][1]:
            conds[i] = conds[i - 1]  # the same function: its value is reused below
    clauses = tuple((cond, body, check) for cond, (_, body), (check, _) in zip(conds, parts, plan, strict=True))

    def build(st):
        opts: list[Option] = []
        env = st.env
        ctx = None
        tested = holds = None
        for cond, body, check in clauses:
            if cond is not None:
                if cond is not tested:
                    tested = cond
                    holds = cond(st, env)
                if not holds:
                    continue  # nothing logged: no option
            if check is not ALWAYS and not check(st, env):
                return eager(st)
            if ctx is None:  # the decision's: shared by its options
                ctx = (ref(st), st.decisions, st.pc, straight_ops)
            o = new(DeferredOption)  # (no __init__ call: its three slots set here)
            o._ctx = ctx
            o._elem = body
            o._ops = None
            opts.append(o)
        if len(opts) > p.max_options:
            return eager(st)
        p.branches = 0
        return opts
    return build


new = object.__new__


def straight_ops(st, ctx, body, keep: bool = False, heard: bool = False) -> tuple:
    """The ops of a deferred option (LazyOption's ctx[3]): its body run from the decision's state st,
    logged, then undone; with `keep`, left made.  Checked while the options were listed: it cannot fail."""
    return run_logged(st, st.env, body, (), keep, "a deferred option", heard)
