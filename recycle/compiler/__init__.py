"""The compiler stage: a checked AST -> an engine `Program` of closures, each node compiled once (design.md "Engine").

Every AST node is compiled once into a closure `f(st, env)`; dispatch on node classes
happens at compile time, never while a game runs.  An expression of the forms `fusion` knows
with a loop or a few nodes is compiled into one generated Python function instead (its other
forms stay closures, called from it; a loop's parts that do not depend on its element are
computed once per loop).  Variables are resolved to slots of the
flat `env` list (one slot per binder, so shadowing is just another slot); declared variables
become constants.  Program items become a flat list of ops driven by an integer program
counter (`st.pc`), so a state can be cloned at any decision point.

Value representation while running:

* Integer, String, Boolean: Python int, str, bool.  Player / Team: int id.
* Card: card id (int), or None for a reference that designates no card (§8.8).
* Pile: a stored pile is its pile id (int, live); a virtual pile is a list of card ids.
* PileCollection: a list of pile values.  Player/Team/String/Integer collections:
  tuples, lists or ranges of ints / strs.
* PointMap: a `PointMap` (interned per program, with per-card-kind score caches).

Inside a `choice`, clauses are compiled a second time in continuation-passing style
(`sim(st, env, k)`) for option building (§6.7): every `any` is a branch point, every state
change is logged so a branch can be undone exactly, and a complete path's log becomes the
option (its resolved actions; applying the option replays them, reusing every random
outcome drawn while building).

Modules (each form is a function `(cx: Compiler, node, scope) -> closure`):

* `driver`      compile_game / compile_loaded / load_program; players, teams, boards, setup
                run once into the template state; ATOMIC_MAX_PATHS.
* `context`     `Compiler`: slots, `emit`, `const`, the facts the driver sets, and the
                dispatchers `expr` / `clause` / `action` / `sim` over the form tables.
* `registry`    the form tables EXPRESSIONS, CLAUSES, ACTIONS, SIMS, merged from the
                modules' own tables and handed to each Compiler by the driver.
* `items`       program items to ops: do items, choices, atomic items, stages; scoring.
* `clauses`     clauses run directly: do, guarded clauses, loops, let, repeat.
* `options`     clauses compiled for option building (CPS) and its shared exceptions.
* `atomic`      atomic blocks (E4), run directly and enumerated for options.
* `walks`       random walks through atomic blocks for the players that sample them (§15.4),
                in direct style; ATOMIC_MAX_PASSES.
* `actions`     actions: move, remember, forget, swap, shuffle, set, inc/dec, clear, cycle,
                pass, create deck / board.
* `references`  locations, piles, cards, owners and storage cells (helpers, not forms).
* `expressions` values: literals, variables, storage, arithmetic, scores, logic, players.
* `collection_forms` piles and collections: set operations, filter, sort, slices, runs,
                folds (not `collections`, which would shadow the standard library's name).
* `boards`      board queries (E1).
* `fusion`      expressions fused into generated Python functions (one call per loop instead
                of one closure per node, loop-invariant parts once per loop), for the games
                the driver's FUSE says (all, by default).

Imports point one way (driver -> registry -> form modules -> references -> context):
`context` dispatches through the tables it is given and imports no form module, so a form
reaches any other form through `cx.expr` / `cx.clause` / `cx.sim` without a cycle.

To add a form: write its function in the module of its kind and add `NodeClass: function`
to that module's table (`FORMS`, at its end).  An expression goes to EXPRESSIONS, a clause
run directly to CLAUSES, an action to ACTIONS.  A clause that can branch inside a choice
(holds an `any` loop or an atomic block) also needs its CPS form in SIMS, its walker in
`walks.CLAUSES` and a case in `context._branches`; other clauses are walked for options as
their direct closure.
"""
from __future__ import annotations

from .driver import compile_game, compile_loaded, load_program

__all__ = ["compile_game", "compile_loaded", "load_program"]
