"""The compile context: what every form's compiler shares, and the dispatch on node classes.

A `Compiler` holds one game's compile-time state (the Program being filled, the variable
slots handed out so far, facts about the game the driver sets once) and looks a node's
class up in the form tables it was given.  Those tables come from `registry`, handed in by
the driver: this module imports no form module, so every form module may import it (for
`Compiler`, `KIND_CODE`) and call any other form through `cx.expr` / `cx.clause` /
`cx.action` / `cx.sim` without an import cycle.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from ..engine.program import Program
from ..errors import GameRuntimeError, InternalError
from ..lang import ast as A
from ..lang import values

KIND_CODE = {A.Visibility.VISIBLE: 0, A.Visibility.INVISIBLE: 1, A.Visibility.HIDDEN: 2,
             A.Visibility.OTHERS: 3, A.Visibility.MEMORY: 4}

# A form's compiler: (compile context, node, scope) -> closure.  The scope maps a variable
# name to (True, constant value) or (False, env slot).
Form = Callable[["Compiler", Any, dict], Callable]


# A program item's generator: (compile context, node, scope, enclosing stage spans) -> None; it emits ops.
ItemForm = Callable[["Compiler", Any, dict, tuple], None]


class Forms(NamedTuple):
    """One table per kind of form, AST node class -> its compiler (assembled in `registry`)."""
    expressions: dict[type, Form]
    clauses: dict[type, Form]     # clauses run directly; a class missing here is an action
    actions: dict[type, Form]
    sims: dict[type, Form]        # clauses compiled for option building (continuation-passing)
    items: dict[type, ItemForm]   # program items, emitted as ops of the flat program


class Compiler:
    """Compiles one game into its Program: slots, code emission, and dispatch to the form tables."""

    def __init__(self, prog: Program, game: A.Game, params: dict, forms: Forms):
        self.p = prog
        self.game = game
        self.params = params
        self.nslots = 0
        self._expressions = forms.expressions
        self._clauses = forms.clauses
        self._actions = forms.actions
        self._sims = forms.sims
        self._items = forms.items
        # Inside an `ask`, the slot of the player asked: the chooser of the decisions emitted there.
        self.chooser_slot: int | None = None
        # Set by driver.build before any form is compiled (they depend on the player count).
        self.n = 0
        self.nt = 0
        self.others_p: list = []
        self.others_t: list = []
        self.all_p: tuple = ()
        self.all_t: tuple = ()
        self.has_atomic = False
        self.has_capacity = False
        # fusion.fuse when expressions are fused into generated code (set by the driver)
        self.fuser: Callable[[Compiler, Any, dict], Callable | None] | None = None
        # id(expression) -> (the expression, how deep it nests, capped): fusion asks it of every expression
        self.heights: dict[int, tuple[Any, int]] = {}
        self.boards: dict = {}  # id(CreateBoard node) -> {owner code: BoardFamily}
        self.meld_cache: Any = None  # the CardInfo cache of the meld forms (compiler.melds.MeldCache)

    def new_slot(self) -> int:
        s = self.nslots
        self.nslots += 1
        return s

    def bind(self, sc: dict, name: str):
        s = self.new_slot()
        sc2 = dict(sc)
        sc2[name] = (False, s)
        return s, sc2

    def emit(self, op, span, stages) -> int:
        p = self.p
        p.code.append(op)
        p.code_span.append(span)
        p.code_stages.append(stages)
        return len(p.code) - 1

    def const(self, n, sc=None):
        """(True, value) when n is a literal or a declared variable, else (False, None)."""
        t = type(n)
        if t is A.IntLit or t is A.Name:
            return True, n.value
        if t is A.Var and sc is not None:
            b = sc.get(n.name)
            if b is not None and b[0]:
                return True, b[1]
        return False, None

    # ------------------------------------------------------------ dispatch (compile time only)

    def expr(self, n, sc):
        if self.fuser is not None:
            f = self.fuser(self, n, sc)
            if f is not None:
                return f
        return self.closure(n, sc)

    def closure(self, n, sc):
        """An expression compiled by its form's function (never fused)."""
        f = self._expressions.get(type(n))
        if f is None:
            raise InternalError(f"no compiler for expression {type(n).__name__} at {getattr(n, 'span', '?')}")
        return f(self, n, sc)

    def clause(self, n, sc):
        f = self._clauses.get(type(n))
        if f is None:
            return self.action(n, sc)
        return f(self, n, sc)

    def action(self, n, sc):
        f = self._actions.get(type(n))
        if f is None:
            raise InternalError(f"no compiler for {type(n).__name__} at {n.span}")
        return f(self, n, sc)

    def gen_items(self, items, sc, stages: tuple) -> None:
        """Emit the ops of program items, each by the generator of its class."""
        for it in items:
            f = self._items.get(type(it))
            if f is None:
                raise InternalError(f"no item generator for {type(it).__name__} at {it.span}")
            f(self, it, sc, stages)

    def sim(self, n, sc):
        """Compile a clause for option building: `f(st, env, k)` calls k once per complete path."""
        if not _branches(n):
            if type(n) is A.Guarded:  # the guard tested here: one call fewer per clause of a decision
                return _straight_guarded(self.expr(n.cond, sc), self.clause(n.body, sc))
            return _straight(self.clause(n, sc))
        f = self._sims.get(type(n))
        if f is None:
            raise InternalError(f"cannot build options of {type(n).__name__} at {n.span}")
        return f(self, n, sc)


def _straight(ex):
    def sim(st, env, k):
        ex(st, env)
        k(st, env)
    # what the walk is made of, for a decision whose clauses are all straight (items.straight_option_builder)
    setattr(sim, "straight", (None, ex))  # noqa: B010 - mypy knows no attributes of functions
    return sim


def _straight_guarded(cond, body):
    """_straight of a guarded clause (clauses.c_guarded): the path goes on whether the guard holds or not."""
    def sim(st, env, k):
        if cond(st, env):
            body(st, env)
        k(st, env)
    setattr(sim, "straight", (cond, body))  # noqa: B010 - as in _straight
    return sim


def _branches(n) -> bool:
    """Does this clause contain an `any` loop or an atomic block (a branch point inside a choice)?"""
    t = type(n)
    if t is A.Atomic:
        return True
    if t is A.Loop:
        return n.quant == "any" or _branches(n.body)
    if t is A.Do:
        return any(_branches(c) for c in n.clauses)
    if t is A.Guarded or t is A.Let or t is A.Repeat or t is A.CallClause:
        return _branches(n.body)
    if t is A.Either:
        return True
    if t is A.If:
        return _branches(n.then) or (n.orelse is not None and _branches(n.orelse))
    return False


def repeat_count(cx: Compiler, n, sc) -> Callable:
    """The count of `(repeat N …)` as a closure refusing a count over values.MAX_REPEAT (docs/limits.md)."""
    cf = cx.expr(n.count, sc)
    span = n.span
    limit = values.MAX_REPEAT

    def count(st, env) -> int:
        c = cf(st, env)
        if c > limit:
            raise GameRuntimeError("limit", values.repeat_too_long(c), span)
        return c
    return count
