"""Compile a checked game AST into a `Program` of Python closures (design.md "Engine").

Every AST node is compiled once into a closure `f(st, env)`; dispatch on node
classes happens here, at compile time, never while a game runs.  Variables are
resolved to slots of the flat `env` list (one slot per binder, so shadowing is
just another slot); declared variables become constants.  Program items become
a flat list of ops driven by an integer program counter (`st.pc`), so a state
can be cloned at any decision point.

Value representation while running:

* Integer, String, Boolean: Python int, str, bool.  Player / Team: int id.
* Card: card id (int), or None for a reference that designates no card (§8.8).
* Pile: a stored pile is its pile id (int, live); a virtual pile is a list of card ids.
* PileCollection: a list of pile values.  Player/Team/String/Integer collections:
  tuples, lists or ranges of ints / strs.
* PointMap: a `PointMap` (interned per program, with per-card-kind score caches).

Inside a `choice`, clauses are compiled a second time in continuation-passing
style (`sim(st, env, k)`) for option building (§6.7): every `any` is a branch
point, every state change is logged so a branch can be undone exactly, and a
complete path's log becomes the option (its resolved actions; applying the
option replays them, reusing every random outcome drawn while building).
"""
from __future__ import annotations

import random
import sys
from typing import Optional

from ..engine import algorithms as alg
from ..engine.ops import (
    REDO, UNDO, p_advance, p_forget, p_move, p_pass, p_pcyc, p_pop_cycle, p_push_cycle, p_rekind, p_remember, p_set,
    p_shuffle, p_swap_cards, p_swap_piles, redo_logged, undo_to,
)
from ..engine.program import Program
from ..engine.recording import EventSink
from ..engine.state import (
    KIND_WORDS, MEM, MV, RUNNING, VDEL, WAITING, CardMeta, Option, State,
)
from ..errors import GameRuntimeError, InternalError, UsageError
from ..lang import ast as A
from ..lang import values
from ..lang.ast import T
from ..lang.consts import board_problem, board_values, const_value, declared_values, resolve_teams, walk
from ..lang.decks import expand_deck
from ..lang.load import Loaded, load_game
from ..lang.printer import brief as show

__all__ = ["compile_game", "compile_loaded", "load_program"]

KIND_CODE = {A.Visibility.VISIBLE: 0, A.Visibility.INVISIBLE: 1, A.Visibility.HIDDEN: 2,
             A.Visibility.OTHERS: 3, A.Visibility.MEMORY: 4}

_err = GameRuntimeError

# A stage inside an atomic block may run at most this many passes on one path (E4).
ATOMIC_MAX_PASSES = 500
# Enumerating the atomic blocks of one decision may walk at most this many complete paths (E4).
# Enumerating an atomic block's paths for a player that does not sample them (searching
# players, Scenario) stops after this many complete paths; the decision is then built again
# with every block sampled, as for a random player.  Deterministic, unlike a time budget.
ATOMIC_MAX_PATHS = 50_000


class _Reject(Exception):
    """Abandons the path being walked while options are built (an overfilled cell, E1).

    Caught by the innermost branch point, which goes on with its next element.  Outside
    option building the same condition is the run-time error it carries.
    """

    def __init__(self, error: GameRuntimeError):
        super().__init__(error.message)
        self.error = error


class _EnumerationBudget(Exception):
    """Listing an atomic block's paths went over Program.atomic_max_paths for one decision."""


def _walk_clauses(sims, st, env, k, mark: int) -> None:
    """Walk each clause of a choice from the same state, undoing back to `mark` after each (§6.7)."""
    for sim in sims:
        try:
            sim(st, env, k)
        except _Reject:
            pass
        undo_to(st, mark)


class _Found(Exception):
    """Stops the random walks of an atomic block once one of them succeeded (E4)."""


def compile_game(game: A.Game, params: Optional[dict] = None, filename: Optional[str] = None,
                 warnings=()) -> Program:
    """Compile a checked game (ast.Game) into a Program; `params` override declared values (raises UsageError)."""
    if sys.getrecursionlimit() < 20000:
        sys.setrecursionlimit(20000)  # option building nests one call per clause on a path
    prog = Program(game, filename or game.span.file, warnings)
    prog.atomic_max_paths = ATOMIC_MAX_PATHS
    Compiler(prog, game, params or {}).run()
    return prog


def compile_loaded(loaded: Loaded, params: Optional[dict] = None) -> Program:
    """Compile a loaded game; the program keeps its file name, warnings and source hash."""
    prog = compile_game(loaded.game, params, loaded.filename, loaded.warnings)
    prog.source_hash = loaded.source_hash
    return prog


def load_program(path, params: Optional[dict] = None) -> Program:
    """Read, check (raises LoadError) and compile a game file."""
    return compile_loaded(load_game(path, params), params)


# ---------------------------------------------------------------- the compiler


class _SetupCapture:
    """Stands in for a recorder while setup runs at compile time: keeps the create events."""

    def __init__(self):
        self.events = []

    def create(self, st, deck, pid, cards):
        self.events.append((deck, pid, list(cards)))


def _straight(ex):
    def sim(st, env, k):
        ex(st, env)
        k(st, env)
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
    if t is A.Guarded or t is A.Let or t is A.Repeat:
        return _branches(n.body)
    return False


class Compiler:
    """Compiles one game into its Program (registries, code, scoring, template state)."""

    def __init__(self, prog: Program, game: A.Game, params: dict):
        self.p = prog
        self.game = game
        self.params = params
        self.nslots = 0

    # ------------------------------------------------------------ driver

    def run(self) -> None:
        p, game = self.p, self.game
        consts = declared_values(game, self.params)
        consts = {k: (tuple(v) if isinstance(v, list) else v) for k, v in consts.items()}
        p.params = dict(self.params)
        p.declared = dict(consts)
        try:
            n = const_value(game.setup.players.count, consts)
        except Exception as e:
            raise UsageError(f"cannot evaluate (create players …): {e}") from None
        if not isinstance(n, int) or n < 1:
            raise UsageError(f"a game needs at least one player, but (create players …) gives {n}")
        p.n_players = n
        if game.setup.teams is not None:
            try:
                teams, _ = resolve_teams(game.setup.teams.teams, n)
            except ValueError as e:
                raise UsageError(str(e)) from None
        else:
            teams = []
        listed = {m for t in teams for m in t}
        teams = [tuple(t) for t in teams] + [(q,) for q in range(n) if q not in listed]
        p.teams = teams
        p.n_teams = len(teams)
        team_of = [0] * n
        for ti, t in enumerate(teams):
            for m in t:
                team_of[m] = ti
        p.team_of = team_of
        p.direction = game.scoring.direction
        self.n, self.nt = n, len(teams)
        self.others_p = [tuple(q for q in range(n) if q != c) for c in range(n)]
        self.others_t = [tuple(q for q in range(self.nt) if q != c) for c in range(self.nt)]
        self.all_p = tuple(range(n))
        self.all_t = tuple(range(self.nt))

        sc = {name: (True, v) for name, v in consts.items()}
        self.has_atomic = any(isinstance(x, A.Atomic) for x in walk(game))
        self.has_capacity = any(isinstance(x, A.CreateBoard) and x.capacity is not None for x in walk(game))
        p.has_atomic = self.has_atomic
        self.boards = {}  # id(CreateBoard node) -> {owner code: BoardFamily}
        for x in walk(game):
            if isinstance(x, A.CreateBoard):
                self.boards[id(x)] = self.register_board(x, consts, sc)
        # setup decks (compiled like actions, run below on the template)
        setup_fns = [self.deck_clause(d, sc) for d in game.setup.decks]
        # program items
        self.gen_items(game.items, sc, ())
        end_pc = self.emit(None, game.scoring.span, ())
        p.code[end_pc] = p.finish
        p.score_fn = self.scoring(game.scoring, sc)
        if game.scoring.tiebreaks:
            p.keys_fn = self.tiebreak_keys(game.scoring, sc)
        p.nslots = self.nslots
        # template state: run setup once (it is constant, §4.3)
        st = self.blank_state()
        cap = _SetupCapture()
        st.rec = cap
        try:
            for f in setup_fns:
                f(st, st.env)
        except GameRuntimeError as e:
            raise UsageError(f"setup failed: {e.format()}") from None
        st.rec = None
        p.setup_events = cap.events
        p.template = st

    def blank_state(self) -> State:
        p = self.p
        st = State.__new__(State)
        st.pc = 0
        st.status = RUNNING
        st.piles = [[] for _ in p.pile_key]
        st.where = []
        st.vals = list(p.slot_default)
        st.pcyc = [0, -1]
        st.tcyc = [0]
        st.env = [None] * self.nslots
        st.catt = []
        st.ckind = []
        st.cmeta = CardMeta([], [], {})
        st.rng = None
        st.seed = None
        st.decisions = 0
        st.steps = 0
        st.max_decisions = 2000
        st.max_steps = 10000
        st.opts = None
        st.chooser = None
        st.records = []
        st.log = None
        st.rec = None
        st.error = None
        st.limit = None
        st.scores = None
        st.warnings = p.warnings
        st.boards = ()
        st.keys = None
        st.sampling = None
        st.sampler = None
        st.active = None
        return st

    def register_board(self, node: A.CreateBoard, consts: dict, sc: dict) -> dict:
        """The board families a `create board` form can build, registered once (cells, capacity, tables)."""
        p = self.p
        problem = board_problem(node, consts)
        if problem:
            raise UsageError(f"{node.span}: {problem}")
        shape, dims, cap = board_values(node, consts)
        geom = p.geometry(shape, dims)
        loc = node.location
        nc, name = self.const(loc.name, sc)
        if not nc:
            raise InternalError(f"board name is not constant at {node.span}")
        owners = [0] if type(loc.owner) is A.GameOwner else range(1, self.n + 1)
        return {o: p.board_family(geom, o, KIND_CODE[loc.kind], name, cap) for o in owners}

    def new_slot(self) -> int:
        s = self.nslots
        self.nslots += 1
        return s

    def bind(self, sc: dict, name: str):
        s = self.new_slot()
        sc2 = dict(sc)
        sc2[name] = (False, s)
        return s, sc2

    # ------------------------------------------------------------ program items -> code

    def emit(self, op, span, stages) -> int:
        p = self.p
        p.code.append(op)
        p.code_span.append(span)
        p.code_stages.append(stages)
        return len(p.code) - 1

    def gen_items(self, items, sc, stages) -> None:
        for it in items:
            t = type(it)
            if t is A.Stage:
                self.gen_stage(it, sc, stages)
            elif t is A.Choice:
                self.gen_choice(it, sc, stages)
            elif t is A.Let and type(it.body) is A.Choice:
                self.gen_let_choice(it, sc, stages)
            elif t is A.Atomic and type(it.body) is not A.Do:
                self.gen_atomic_item(it, sc, stages)
            else:
                self.gen_exec_item(it, sc, stages)

    def gen_exec_item(self, it, sc, stages) -> None:
        ex = self.clause(it, sc)
        p = self.p
        pc = self.emit(None, it.span, stages)
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

    def gen_let_choice(self, it: A.Let, sc, stages) -> None:
        vf = self.expr(it.value, sc)
        s, sc2 = self.bind(sc, it.var)
        pc = self.emit(None, it.span, stages)
        nxt = pc + 1

        def op(st):
            env = st.env
            env[s] = vf(st, env)
            st.pc = nxt

        self.p.code[pc] = op
        self.gen_choice(it.body, sc2, stages)

    def option_builder(self, sims):
        """The function building the option list of a decision from its top-level clause walks (§6.7)."""
        has_atomic = self.has_atomic
        p = self.p

        def build(st):
            env = st.env
            log = []
            rec = st.rec
            st.log = log
            st.rec = None
            opts = []
            append = opts.append
            if has_atomic:
                p.atomic_paths = 0
                smp = st.sampling
                st.sampler = (random.Random(alg.derive(st.seed, "atomic", st.decisions + 1))
                              if smp is not None and smp[st.pcyc[-2]] else None)

            def finish(st, env):
                if log:
                    append(Option(tuple(log)))

            try:
                try:
                    _walk_clauses(sims, st, env, finish, 0)
                except _EnumerationBudget:
                    # Too many paths to list: build the decision again, sampling every block.
                    undo_to(st, 0)
                    opts.clear()
                    st.sampler = random.Random(alg.derive(st.seed, "atomic", st.decisions + 1))
                    _walk_clauses(sims, st, env, finish, 0)
            finally:
                st.log = None
                st.rec = rec
                st.sampler = None
                st.active = None
            return opts

        return build

    def gen_choice(self, ch: A.Choice, sc, stages) -> None:
        p = self.p
        sims = [self.sim(c, sc) for c in ch.clauses]
        span = ch.span
        pc = self.emit(None, span, stages)
        p.choice_span[pc] = span
        limit = p._limit
        ctx = f"while building the options of the choice at {span}"
        build = self.option_builder(sims)

        def op(st):
            if st.decisions >= st.max_decisions:
                limit(st, "decisions", span)
                return
            st.chooser = st.pcyc[-2]
            try:
                opts = build(st)
            except GameRuntimeError as e:
                raise e.with_context(ctx) from None
            if not opts:
                raise _err("no-option", f"no legal option for player {st.chooser} at this choice "
                           f"(decision {st.decisions + 1})", span)
            st.opts = opts
            st.status = WAITING

        p.code[pc] = op

    def gen_atomic_item(self, it: A.Atomic, sc, stages) -> None:
        """An atomic block holding a choice or a stage: one decision whose options are its complete successful paths.

        Without any choice inside (a stage of do items) the block has at most one path: it is
        applied at once, no decision.  Without a successful path the block is skipped.
        """
        p = self.p
        decides = any(isinstance(x, A.Choice) for x in walk(it.body))
        build = self.option_builder([self.sim_atomic(it, sc)])
        span = it.span
        pc = self.emit(None, span, stages)
        if decides:
            p.choice_span[pc] = span
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

    def gen_stage(self, stg: A.Stage, sc, stages) -> None:
        p = self.p
        inner = (stg.span,) + stages
        cond = self.expr(stg.end, sc)
        endspan = stg.end.span
        p_enter = self.emit(None, stg.span, inner)
        p_test1 = self.emit(None, endspan, inner)
        body = len(p.code)
        self.gen_items(stg.items, sc, inner)
        p_test2 = self.emit(None, endspan, inner)
        p_adv = self.emit(None, stg.span, inner)
        p_exit = self.emit(None, stg.span, stages)
        limit = p._limit
        n = self.n
        nt = self.nt

        def make_test(nxt):
            def op(st):
                s = st.steps + 1
                if s > st.max_steps:
                    limit(st, "steps", endspan)
                    return
                st.steps = s
                st.pc = p_exit if cond(st, st.env) else nxt
            return op

        if stg.kind == "player":
            def enter(st):
                c = st.pcyc
                c.append(c[-2])
                c.append(-1)
                st.pc = p_test1

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

            def leave(st):
                c = st.pcyc
                old = c[-2]
                del c[-2:]
                if st.rec is not None and c[-2] != old:
                    st.rec.turn(c[-2])
                st.pc = p_exit + 1
        else:
            def enter(st):
                st.tcyc.append(st.tcyc[-1])
                st.pc = p_test1

            def advance(st):
                c = st.tcyc
                c[-1] = (c[-1] + 1) % nt
                st.pc = body

            def leave(st):
                st.tcyc.pop()
                st.pc = p_exit + 1

        p.code[p_enter] = enter
        p.code[p_test1] = make_test(body)
        p.code[p_test2] = make_test(p_adv)
        p.code[p_adv] = advance
        p.code[p_exit] = leave

    def scoring(self, sc_node: A.Scoring, sc):
        f = self.expr(sc_node.expr, sc)
        n = self.n

        def score(st):
            c = st.pcyc
            env = st.env
            out = []
            for q in range(n):
                c.append(q)
                c.append(-1)
                try:
                    out.append(f(st, env))
                except GameRuntimeError as e:
                    raise e.with_context(f"while scoring player {q}") from None
                finally:
                    del c[-2:]
            return out

        return score

    def tiebreak_keys(self, sc_node: A.Scoring, sc):
        fs = [self.expr(x, sc) for x in sc_node.tiebreaks]
        n = self.n

        def keys(st):
            c = st.pcyc
            env = st.env
            out = []
            for q in range(n):
                c.append(q)
                c.append(-1)
                try:
                    out.append(tuple(f(st, env) for f in fs))
                except GameRuntimeError as e:
                    raise e.with_context(f"while computing the tie-break keys of player {q}") from None
                finally:
                    del c[-2:]
            return out

        return keys

    # ------------------------------------------------------------ clauses (direct execution)

    def clause(self, n, sc):
        f = self._CLAUSE.get(type(n))
        if f is None:
            return self.action(n, sc)
        return f(self, n, sc)

    def c_do(self, n: A.Do, sc):
        fs = [self.clause(c, sc) for c in n.clauses]
        if len(fs) == 1:
            return fs[0]
        if len(fs) == 2:
            a, b = fs

            def do2(st, env):
                a(st, env)
                b(st, env)
            return do2
        if len(fs) == 3:
            a, b, c = fs

            def do3(st, env):
                a(st, env)
                b(st, env)
                c(st, env)
            return do3
        fs = tuple(fs)

        def do(st, env):
            for f in fs:
                f(st, env)
        return do

    def c_guarded(self, n: A.Guarded, sc):
        cond = self.expr(n.cond, sc)
        body = self.clause(n.body, sc)

        def guarded(st, env):
            if cond(st, env):
                body(st, env)
        return guarded

    def c_loop(self, n: A.Loop, sc):
        cf = self.iter(n.coll, sc)
        s, sc2 = self.bind(sc, n.var)
        body = self.clause(n.body, sc2)

        def loop(st, env):
            for e in cf(st, env):
                env[s] = e
                body(st, env)
        return loop

    def c_let(self, n: A.Let, sc):
        vf = self.expr(n.value, sc)
        s, sc2 = self.bind(sc, n.var)
        body = self.clause(n.body, sc2)

        def let(st, env):
            env[s] = vf(st, env)
            body(st, env)
        return let

    def c_repeat(self, n: A.Repeat, sc):
        cf = self.expr(n.count, sc)
        body = self.clause(n.body, sc)

        def repeat(st, env):
            for _ in range(cf(st, env)):
                body(st, env)
        return repeat

    def c_repeat_all(self, n: A.RepeatAll, sc):
        src = n.body.card
        if type(src) is A.Actual:
            src = src.card
        if type(src) is not A.CardAt:
            raise InternalError(f"repeat all with a non-positional source at {n.span}")
        kf = self.cards(src.pile, sc)
        body = self.clause(n.body, sc)

        def repeat_all(st, env):
            for _ in range(len(kf(st, env))):
                body(st, env)
        return repeat_all

    # ------------------------------------------------------------ clauses (option building, CPS)

    def sim(self, n, sc):
        """Compile a clause for option building: `f(st, env, k)` calls k once per complete path."""
        if not _branches(n):
            return _straight(self.clause(n, sc))
        t = type(n)
        if t is A.Atomic:
            return self.sim_atomic(n, sc)
        if t is A.Loop:
            return self.s_any(n, sc) if n.quant == "any" else self.s_all(n, sc)
        if t is A.Do:
            return self.s_do(n, sc)
        if t is A.Guarded:
            cond = self.expr(n.cond, sc)
            body = self.sim(n.body, sc)

            def guarded(st, env, k):
                if cond(st, env):
                    body(st, env, k)
                else:
                    k(st, env)
            return guarded
        if t is A.Let:
            vf = self.expr(n.value, sc)
            s, sc2 = self.bind(sc, n.var)
            body = self.sim(n.body, sc2)

            def let(st, env, k):
                old = env[s]
                env[s] = vf(st, env)
                body(st, env, k)
                env[s] = old
            return let
        if t is A.Repeat:
            cf = self.expr(n.count, sc)
            body = self.sim(n.body, sc)

            def repeat(st, env, k):
                N = cf(st, env)

                def step(i, st, env):
                    if i >= N:
                        k(st, env)
                    else:
                        body(st, env, lambda st2, env2: step(i + 1, st2, env2))
                step(0, st, env)
            return repeat
        raise InternalError(f"cannot build options of {type(n).__name__} at {n.span}")

    def s_do(self, n: A.Do, sc):
        # consecutive non-branching clauses run as one straight block
        groups: list = []
        straight: list = []
        for c in n.clauses:
            if _branches(c):
                if straight:
                    groups.append(_straight(self.c_do(A.Do(tuple(straight)), sc)))
                    straight = []
                groups.append(self.sim(c, sc))
            else:
                straight.append(c)
        if straight:
            groups.append(_straight(self.c_do(A.Do(tuple(straight)), sc)))
        if len(groups) == 1:
            return groups[0]
        sims = tuple(groups)
        L = len(sims)

        def do(st, env, k):
            def chain(i, st, env):
                if i == L:
                    k(st, env)
                else:
                    sims[i](st, env, lambda st2, env2: chain(i + 1, st2, env2))
            chain(0, st, env)
        return do

    def s_any(self, n: A.Loop, sc):
        cf = self.iter(n.coll, sc)
        s, sc2 = self.bind(sc, n.var)
        body = self.sim(n.body, sc2)
        if self.has_atomic or self.has_capacity:
            return self.s_any_ext(cf, s, body)

        def any_(st, env, k):
            elems = cf(st, env)
            if not elems:
                k(st, env)
                return
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

    @staticmethod
    def s_any_ext(cf, s, body):
        """A branch point that also drops rejected paths (E1 capacity) and samples inside atomic walks (E4)."""
        def any_(st, env, k):
            elems = cf(st, env)
            if not elems:
                k(st, env)
                return
            old = env[s]
            act = st.active
            if act is not None:  # a random walk through an atomic block: one element
                env[s] = elems[act.randrange(len(elems))]
                body(st, env, k)
                env[s] = old
                return
            log = st.log
            mark = len(log)
            for e in elems:
                env[s] = e
                try:
                    body(st, env, k)
                except _Reject:
                    pass
                while len(log) > mark:
                    op = log.pop()
                    UNDO[op[0]](st, op)
            env[s] = old
        return any_

    # ------------------------------------------------------------ atomic blocks (extensions E4)

    def c_atomic(self, n: A.Atomic, sc):
        """An atomic `do` run directly: tentatively, kept if `require` holds, else rolled back exactly."""
        body = self.clause(n.body, sc)
        req = self.expr(n.require, sc)
        p = self.p

        def atomic(st, env):
            log = st.log
            if log is not None:  # inside another tentative block: roll back this one only
                mark = len(log)
                body(st, env)
                if not req(st, env):
                    undo_to(st, mark)
                return
            rec = st.rec
            buf = None
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

    def sim_atomic(self, n: A.Atomic, sc):
        """An atomic block while options are built: its successful paths (enumerating), or one found by sampling."""
        body = self.sim_multi(n.body, sc)
        req = self.expr(n.require, sc)
        p = self.p

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
            found = _Found()  # this invocation's own stop signal (nested blocks have theirs)

            def done(st2, env2):
                if req(st2, env2):
                    st.active = prev
                    k(st2, env2)
                    raise found

            try:
                for _ in range(p.atomic_attempts):
                    st.active = rng
                    try:
                        body(st, env, done)
                    except _Found as f:
                        if f is not found:
                            raise
                        return
                    except _Reject:
                        pass
                    undo_to(st, mark)
            finally:
                undo_to(st, mark)
                st.active = prev
        return atomic

    def sim_multi(self, body, sc):
        t = type(body)
        if t is A.Do:
            return self.sim(body, sc)
        if t is A.Choice:
            return self.sim_choice(body, sc)
        if t is A.Stage:
            return self.sim_stage(body, sc)
        raise InternalError(f"atomic block of {t.__name__} at {body.span}")

    def sim_item(self, it, sc):
        """A program item inside an atomic block, for option building: choices branch, do items run straight."""
        t = type(it)
        if t is A.Stage:
            return self.sim_stage(it, sc)
        if t is A.Choice:
            return self.sim_choice(it, sc)
        if t is A.Let and type(it.body) is A.Choice:
            vf = self.expr(it.value, sc)
            s, sc2 = self.bind(sc, it.var)
            body = self.sim_choice(it.body, sc2)

            def let(st, env, k):
                old = env[s]
                env[s] = vf(st, env)
                body(st, env, k)
                env[s] = old
            return let
        if t is A.Atomic and type(it.body) is not A.Do:
            return self.sim_atomic(it, sc)
        return _straight(self.clause(it, sc))

    def sim_items(self, items, sc):
        sims = tuple(self.sim_item(it, sc) for it in items)
        L = len(sims)
        if L == 1:
            return sims[0]

        def seq(st, env, k):
            def chain(i, st, env):
                if i == L:
                    k(st, env)
                else:
                    sims[i](st, env, lambda st2, env2: chain(i + 1, st2, env2))
            chain(0, st, env)
        return seq

    def sim_choice(self, ch: A.Choice, sc):
        """A choice inside an atomic block: a branch point over its options (enumerating), or one picked at random."""
        sims = [self.sim(c, sc) for c in ch.clauses]

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
            opts = []

            def collect(st2, env2):
                if len(log) > mark:
                    opts.append(tuple(log[mark:]))
            st.active = None
            try:
                _walk_clauses(sims, st, env, collect, mark)
            finally:
                st.active = act
            if not opts:
                return
            for op in opts[act.randrange(len(opts))]:
                redo_logged(st, op)
            k(st, env)
        return choice

    def sim_stage(self, stg: A.Stage, sc):
        """A stage inside an atomic block: its cycle pushed, advanced and popped through the log."""
        cond = self.expr(stg.end, sc)
        body = self.sim_items(stg.items, sc)
        span = stg.span
        n, nt = self.n, self.nt
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

    def s_all(self, n: A.Loop, sc):
        cf = self.iter(n.coll, sc)
        s, sc2 = self.bind(sc, n.var)
        body = self.sim(n.body, sc2)

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

    # ------------------------------------------------------------ actions

    def action(self, n, sc):
        f = self._ACTION.get(type(n))
        if f is None:
            raise InternalError(f"no compiler for {type(n).__name__} at {n.span}")
        return f(self, n, sc)

    def a_move(self, n: A.Move, sc):
        p = self.p
        kind = p.pile_kind
        span = n.span
        what = f"(move {show(n.card)} …)"
        src_node = n.card.card if type(n.card) is A.Actual else n.card
        dst_node = n.dest.card if type(n.dest) is A.Actual else n.dest
        dstf = self.dest(n.dest, sc)
        cap = p.pile_cap if self.has_capacity else None
        # fast path: (move (top <location>) (top <location>))
        if (cap is None and type(src_node) is A.CardAt and src_node.pos == "top" and type(src_node.pile) is A.Location
                and src_node.pile.kind != A.Visibility.MEMORY and type(dst_node) is A.CardAt
                and dst_node.pos == "top" and type(dst_node.pile) is A.Location
                and dst_node.pile.kind != A.Visibility.MEMORY):
            af = self.pile(src_node.pile, sc)
            bf = self.pile(dst_node.pile, sc)
            sa, sb = self.static_pid(src_node.pile, sc), self.static_pid(dst_node.pile, sc)

            def move_top(st, env):
                a = sa if sa is not None else af(st, env)
                piles = st.piles
                pa = piles[a]
                if not pa:
                    raise _err("no-card", f"{what}: {show(src_node.pile)} is empty", span)
                b = sb if sb is not None else bf(st, env)
                c = pa.pop()
                d = piles[b]
                d.append(c)
                st.where[c] = b
                if st.log is not None:
                    st.log.append((MV, c, a, len(pa), b, len(d) - 1))
                if st.rec is not None:
                    st.rec.move(st, c, a, b)
            return move_top

        srcf = self.card_source(n.card, sc)

        def move(st, env):
            c, pv, i = srcf(st, env)
            if c is None:
                raise _err("no-card", f"{what}: {show(src_node)} designates no card", span)
            if pv is None:
                a = st.where[c]
                i = st.piles[a].index(c)
            elif pv.__class__ is int:
                if kind[pv] == MEM:
                    raise _err("pile-kind", f"{what}: cannot move out of a memory pile; use forget", span)
                a = pv
            else:
                a = -1
            b, j = dstf(st, env)
            if b.__class__ is not int:
                raise _err("pile-kind", f"{what}: cannot move into a virtual pile", span)
            if kind[b] == MEM:
                raise _err("pile-kind", f"{what}: cannot move into a memory pile; use remember", span)
            if a == -1:
                del pv[i]
                if st.log is not None:
                    st.log.append((VDEL, pv, i, c))
                a = st.where[c]
                i = st.piles[a].index(c)
            if j > 0:
                size = len(st.piles[b]) - (1 if a == b else 0)
                if j > size:
                    raise _err("range", f"{what}: destination index {j} is outside 0..{size}", span)
            if cap is not None:
                k = cap[b]
                if k and a != b and len(st.piles[b]) >= k:
                    self.overfill(st, b, k, what, span)
            p_move(st, c, a, i, b, j)
        return move

    def overfill(self, st, pid: int, k: int, what: str, span) -> None:
        """A move would put more than k cards on a cell: the path is dropped (options) or it is an error (E1)."""
        e = _err("capacity", f"{what}: the cell ({self.p.loc_text(pid)}) holds at most {k} card{'s' if k != 1 else ''}", span)
        if st.log is not None:
            raise _Reject(e)
        raise e

    def a_remember(self, n: A.Remember, sc):
        p = self.p
        kind = p.pile_kind
        span = n.span
        what = f"(remember {show(n.card)} …)"
        cf = self.card(n.card, sc)
        dstf = self.dest(n.dest, sc)

        def remember(st, env):
            c = cf(st, env)
            if c is None:
                raise _err("no-card", f"{what}: {show(n.card)} designates no card", span)
            m, j = dstf(st, env)
            if m.__class__ is not int or kind[m] != MEM:
                raise _err("pile-kind", f"{what}: remember needs a memory pile (mem) as destination", span)
            if j > len(st.piles[m]):
                raise _err("range", f"{what}: destination index {j} is outside 0..{len(st.piles[m])}", span)
            p_remember(st, c, m, j)
        return remember

    def a_forget(self, n: A.Forget, sc):
        p = self.p
        kind = p.pile_kind
        span = n.span
        ref = n.card.card if type(n.card) is A.Actual else n.card
        if type(ref) is not A.CardAt:
            raise InternalError(f"forget of a non-positional reference at {span}")
        what = f"(forget {show(ref)})"
        pvf = self.pile(ref.pile, sc)
        pos = ref.pos
        xf = self.expr(ref.index, sc) if pos == "index" else None

        def forget(st, env):
            m = pvf(st, env)
            if m.__class__ is not int or kind[m] != MEM:
                raise _err("pile-kind", f"{what}: forget works on memory piles (mem) only", span)
            L = len(st.piles[m])
            i = L - 1 if pos == "top" else 0 if pos == "bottom" else xf(st, env)
            if not (0 <= i < L):
                raise _err("no-card", f"{what}: designates no entry ({'the pile is empty' if not L else f'index {i} of {L}'})", span)
            p_forget(st, m, i)
        return forget

    def a_swap(self, n: A.Swap, sc):
        p = self.p
        kind = p.pile_kind
        span = n.span
        what = f"(swap {show(n.a)} {show(n.b)})"
        if n.type == T.PILE:
            af = self.pile(n.a, sc)
            bf = self.pile(n.b, sc)

            cap = p.pile_cap if self.has_capacity else None

            def swap_piles(st, env):
                a = af(st, env)
                b = bf(st, env)
                for x in (a, b):
                    if x.__class__ is not int:
                        raise _err("pile-kind", f"{what}: cannot swap a virtual pile", span)
                    if kind[x] == MEM:
                        raise _err("pile-kind", f"{what}: cannot swap a memory pile", span)
                if cap is not None:
                    for x, y in ((a, b), (b, a)):
                        if cap[x] and len(st.piles[y]) > cap[x]:
                            self.overfill(st, x, cap[x], what, span)
                p_swap_piles(st, a, b)
            return swap_piles
        sa = self.card_source(n.a, sc)
        sb = self.card_source(n.b, sc)

        def locate(st, r, node):
            c, pv, i = r
            if c is None:
                raise _err("no-card", f"{what}: {show(node)} designates no card", span)
            if pv.__class__ is int:
                if kind[pv] == MEM:
                    raise _err("pile-kind", f"{what}: cannot swap a card by its position in a memory pile", span)
                return c, pv, i
            a = st.where[c]
            return c, a, st.piles[a].index(c)

        def swap_cards(st, env):
            ra = sa(st, env)
            rb = sb(st, env)
            ca, pa, ia = locate(st, ra, n.a)
            cb, pb, ib = locate(st, rb, n.b)
            p_swap_cards(st, ca, pa, ia, cb, pb, ib)
        return swap_cards

    def a_shuffle(self, n: A.Shuffle, sc):
        span = n.span
        pf = self.pile(n.pile, sc)

        def shuffle(st, env):
            pid = pf(st, env)
            if pid.__class__ is not int:
                raise _err("pile-kind", f"(shuffle {show(n.pile)}): cannot shuffle a virtual pile", span)
            p_shuffle(st, pid)
        return shuffle

    def a_set(self, n: A.SetValue, sc):
        ss, sf = self.slot(n.target, sc)
        vf = self.ply_raw(n.value, sc) if n.target.kind == "ply" else self.expr(n.value, sc)
        if n.target.kind == "str" and n.target.owner_type == T.CARD:
            return self.card_str_setter(n.target, sc, vf)
        if ss is not None:
            def set_(st, env):
                p_set(st, ss, vf(st, env))
        else:
            def set_(st, env):
                p_set(st, sf(st, env), vf(st, env))
        return set_

    def a_set_points(self, n: A.SetPoints, sc):
        ss, sf = self.slot(n.target, sc)
        p = self.p
        parts = []
        static = True
        for aw in n.awards:
            conds = []
            for cd in aw.conditions:
                kc, kv = self.const(cd.key, sc)
                vc, vv = self.const(cd.value, sc)
                conds.append((kv if kc else self.expr(cd.key, sc), kc, vv if vc else self.expr(cd.value, sc), vc))
                static = static and kc and vc
            pc, pv = self.const(aw.points, sc)
            static = static and pc
            parts.append((conds, pv if pc else self.expr(aw.points, sc), pc))
        if static:
            awards = tuple((tuple((k, v) for k, _, v, _ in conds), pts) for conds, pts, _ in parts)

            def build(st, env):
                return p.point_map(awards)
        else:
            def build(st, env):
                return p.point_map(tuple(
                    (tuple((k if kc else k(st, env), v if vc else v(st, env)) for k, kc, v, vc in conds),
                     pts if pc else pts(st, env))
                    for conds, pts, pc in parts))

        def set_points(st, env):
            slot = ss if ss is not None else sf(st, env)
            p_set(st, slot, build(st, env))
        return set_points

    def a_incdec(self, n: A.IncDec, sc):
        ss, sf = self.slot(n.target, sc)
        sign = 1 if n.op == "inc" else -1
        if n.amount is None:
            af = None
            amt = sign
        else:
            c, v = self.const(n.amount, sc)
            af = None if c else self.expr(n.amount, sc)
            amt = sign * v if c else 0

        def incdec(st, env):
            slot = ss if ss is not None else sf(st, env)
            a = amt if af is None else sign * af(st, env)
            p_set(st, slot, st.vals[slot] + a)
        return incdec

    def a_clear(self, n: A.Clear, sc):
        t = n.target
        default = {"sto": 0, "str": "", "ply": None, "points": self.p.empty_pm}[t.kind]
        if t.kind == "str" and t.owner_type == T.CARD:
            return self.card_str_setter(t, sc, lambda st, env: "")
        ss, sf = self.slot(t, sc)
        if ss is not None:
            return lambda st, env: p_set(st, ss, default)
        return lambda st, env: p_set(st, sf(st, env), default)

    def card_str_setter(self, target: A.Storage, sc, vf):
        """`(set ('C str K) V)` on a card: the cell, and the override of attribute K when the card has one (E2)."""
        p = self.p
        cf = self.card(target.owner, sc)
        nc, name = self.const(target.name, sc)
        nf = None if nc else self.expr(target.name, sc)
        span = target.span
        kinds = p.kinds
        slot_ids = p.slot_ids

        def set_card_str(st, env):
            c = cf(st, env)
            if c is None:
                raise _err("no-card", f"{show(target)}: {show(target.owner)} designates no card", span)
            key = name if nf is None else nf(st, env)
            p_set(st, p.slot_id(st, ("C", c), "str", key), vf(st, env))
            printed = kinds[st.cmeta.base[c]]
            if key not in printed:
                return
            att = dict(printed)
            vals = st.vals
            for a in printed:
                sl = slot_ids.get((("C", c), "str", a))
                if sl is not None and sl < len(vals) and vals[sl] != "":
                    att[a] = vals[sl]
            p_rekind(st, c, p.kind_id(att), kinds)
        return set_card_str

    def a_create_board(self, n: A.CreateBoard, sc):
        fams = self.boards[id(n)]
        loc = n.location
        of = (lambda st, env: 0) if type(loc.owner) is A.GameOwner else self.owner_code(loc.owner, sc)
        span = n.span

        def create_board(st, env):
            fam = fams[of(st, env)]
            if fam.fid in st.boards:
                raise _err("board", f"the board ({self.board_text(fam)}) is already built: a board is built once", span)
            st.boards = st.boards + (fam.fid,)
        return create_board

    def a_cycle(self, n: A.Cycle, sc):
        tf = self.expr(n.target, sc)
        off = 2 if n.mode == "current" else 1

        def cycle(st, env):
            v = tf(st, env)
            p_pcyc(st, len(st.pcyc) - off, v)
        return cycle

    def a_pass(self, n, sc):
        return lambda st, env: p_pass(st)

    def a_create_deck(self, n: A.CreateDeck, sc):
        p = self.p
        protos = expand_deck(n.attributes)
        kinds = [p.kind_id(a) for a in protos]
        atts = [p.kinds[k] for k in kinds]
        if n.deck_name is None:
            namef = None
            name = "DEFAULT"
        else:
            c, v = self.const(n.deck_name, sc)
            namef = None if c else self.expr(n.deck_name, sc)
            name = v
        pf = self.pile(n.location, sc)
        span = n.span

        def create(st, env):
            deck = name if namef is None else namef(st, env)
            pid = pf(st, env)
            if p.pile_kind[pid] == MEM:
                raise _err("pile-kind", "a deck cannot be created in a memory pile", span)
            meta = st.cmeta.copy()
            catt = list(st.catt)
            ckind = list(st.ckind)
            serial = meta.next_serial.get(deck, 0)
            pile = st.piles[pid]
            where = st.where
            new = []
            for k, att in zip(kinds, atts):
                c = len(catt)
                catt.append(att)
                ckind.append(k)
                meta.base.append(k)
                meta.deck.append(deck)
                meta.serial.append(serial)
                serial += 1
                pile.append(c)
                where.append(pid)
                new.append(c)
            meta.next_serial[deck] = serial
            st.catt, st.ckind, st.cmeta = catt, ckind, meta
            cap = p.pile_cap[pid]
            if cap and len(pile) > cap:
                raise _err("capacity", f"create deck: the cell ({p.loc_text(pid)}) holds at most {cap} "
                           f"card{'s' if cap != 1 else ''}", span)
            if st.rec is not None:
                st.rec.create(st, deck, pid, new)
        return create

    def deck_clause(self, d, sc):
        if type(d) is A.CreateBoard:
            return self.a_create_board(d, sc)
        if type(d) is A.Repeat:
            cf = self.expr(d.count, sc)
            body = self.deck_clause(d.body, sc)

            def rep(st, env):
                for _ in range(cf(st, env)):
                    body(st, env)
            return rep
        return self.a_create_deck(d, sc)

    # ------------------------------------------------------------ card, pile and storage references

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

    def static_pid(self, n, sc) -> Optional[int]:
        """The pile id of a location whose owner is `game` and whose name and index are constant."""
        if type(n) is not A.Location or type(n.owner) is not A.GameOwner:
            return None
        nc, name = self.const(n.name, sc)
        if n.index is None:
            ic, idx = True, 0
        else:
            ic, idx = self.const(n.index, sc)
        if not (nc and ic) or idx < 0:
            return None
        return self.p.register_pile(0, KIND_CODE[n.kind], name, idx)

    def owner_code(self, o, sc):
        """Closure giving the owner code: 0 game, 1 + p player, 1 + n + t team."""
        if type(o) is A.GameOwner:
            return lambda st, env: 0
        t = self.etype(o)
        f = self.expr(o, sc)
        if t == T.PLAYER:
            return lambda st, env: f(st, env) + 1
        off = 1 + self.n
        return lambda st, env: f(st, env) + off

    def etype(self, o) -> T:
        t = type(o)
        if t is A.Var:
            return o.type
        if t is A.WhoRef or t is A.WhoById:
            return T.PLAYER if o.what == "player" else T.TEAM
        if t is A.OwnerOf:
            return T.PLAYER
        if t is A.TeamOf:
            return T.TEAM
        if t is A.Storage and o.kind == "ply":
            return T.PLAYER
        raise InternalError(f"cannot tell whether {type(o).__name__} at {o.span} is a player or a team")

    def _owner_table_fn(self, o, sc, tbl):
        """Closure tbl[owner code of o], specialised for the common owners."""
        t = type(o)
        if t is A.GameOwner:
            v = tbl[0]
            return v, None
        if t is A.WhoRef and o.what == "player" and o.which == "current":
            return None, lambda st, env: tbl[st.pcyc[-2] + 1]
        if t is A.Var and o.type == T.PLAYER:
            b = sc[o.name]
            if not b[0]:
                s = b[1]
                return None, lambda st, env: tbl[env[s] + 1]
        of = self.owner_code(o, sc)
        return None, lambda st, env: tbl[of(st, env)]

    def location(self, n: A.Location, sc):
        """(static pile id or None, closure or None) for a location expression."""
        p = self.p
        kind = KIND_CODE[n.kind]
        nc, name = self.const(n.name, sc)
        if n.index is None:
            ic, idx = True, 0
        else:
            ic, idx = self.const(n.index, sc)
        if nc and ic and idx >= 0:
            tbl = [p.register_pile(o, kind, name, idx) for o in range(self.n + 1)]
            return self._owner_table_fn(n.owner, sc, tbl)
        of = self.owner_code(n.owner, sc) if type(n.owner) is not A.GameOwner else None
        nf = self.expr(n.name, sc)
        xf = self.expr(n.index, sc) if n.index is not None else None
        span = n.span

        def loc(st, env):
            o = 0 if of is None else of(st, env)
            nm = nf(st, env)
            i = 0 if xf is None else xf(st, env)
            if i < 0:
                raise _err("range", f"{show(n)}: negative location index {i}", span)
            return p.pile_id(st, o, kind, nm, i)
        return None, loc

    def ext_owner(self, o, t: T, sc):
        """Closure giving the owner key of a location ("L", pid) or a card ("C", card) (extensions E2)."""
        span = o.span
        if t == T.PILE:
            pf = self.pile(o, sc)

            def loc_owner(st, env):
                v = pf(st, env)
                if v.__class__ is not int:
                    raise _err("pile-kind", f"storage of {show(o)}: a computed (virtual) pile owns no storage", span)
                return ("L", v)
            return loc_owner
        cf = self.card(o, sc)

        def card_owner(st, env):
            c = cf(st, env)
            if c is None:
                raise _err("no-card", f"storage of {show(o)}: designates no card", span)
            return ("C", c)
        return card_owner

    def slot(self, n: A.Storage, sc):
        """(static slot or None, closure or None) for a storage cell."""
        p = self.p
        kind = n.kind
        nc, name = self.const(n.name, sc)
        if n.owner_type in (T.PILE, T.CARD):
            of = self.ext_owner(n.owner, n.owner_type, sc)
            if not nc:
                nf = self.expr(n.name, sc)
                return None, lambda st, env: p.slot_id(st, of(st, env), kind, nf(st, env))
            cache: dict = {}
            default = p.slot_default

            def ext_slot(st, env):
                o = of(st, env)
                s = cache.get(o)
                if s is None:
                    s = cache[o] = p.register_slot(o, kind, name)
                vals = st.vals
                if s >= len(vals):
                    vals.extend(default[len(vals):s + 1])
                return s
            return None, ext_slot
        if nc:
            tbl = [p.register_slot(o, kind, name) for o in range(1 + self.n + self.nt)]
            o = n.owner
            t = type(o)
            if t is A.GameOwner:
                return tbl[0], None
            if t is A.WhoRef and o.what == "player" and o.which == "current":
                return None, lambda st, env: tbl[st.pcyc[-2] + 1]
            if t is A.Var:
                b = sc[o.name]
                if not b[0]:
                    s = b[1]
                    off = 1 if o.type == T.PLAYER else 1 + self.n
                    return None, lambda st, env: tbl[env[s] + off]
            of = self.owner_code(o, sc)
            return None, lambda st, env: tbl[of(st, env)]
        of = self.owner_code(n.owner, sc)
        nf = self.expr(n.name, sc)
        return None, lambda st, env: p.slot_id(st, of(st, env), kind, nf(st, env))

    def pile(self, n, sc):
        """Closure giving a pile value: a pile id (stored pile) or a list of card ids (virtual pile)."""
        if type(n) is A.Location:
            s, f = self.location(n, sc)
            if s is not None:
                return lambda st, env: s
            return f
        return self.expr(n, sc)

    def cards(self, n, sc):
        """Closure giving the card list of a pile expression (read-only; may be the live list)."""
        t = type(n)
        if t is A.Location:
            s, f = self.location(n, sc)
            if s is not None:
                return lambda st, env: st.piles[s]
            return lambda st, env: st.piles[f(st, env)]
        if t is A.Var or t is A.PileAt or t is A.CellAt:
            f = self.expr(n, sc)

            def cards(st, env):
                v = f(st, env)
                return st.piles[v] if v.__class__ is int else v
            return cards
        return self.expr(n, sc)  # a freshly computed virtual pile

    def iter(self, n, sc):
        """Closure giving the elements of a collection, safe to iterate while the loop body changes the state."""
        t = type(n)
        pile_typed = (t is A.Location or (t is A.Var and n.type == T.PILE) or t is A.PileAt or t is A.CellAt)
        if pile_typed:
            f = self.cards(n, sc)
            return lambda st, env: list(f(st, env))
        return self.coll(n, sc)

    def coll(self, n, sc):
        """Closure giving the elements of any collection (cards of a pile, piles, players, …), read-only."""
        t = type(n)
        if t is A.Location or (t is A.Var and n.type == T.PILE) or t is A.PileAt or t is A.CellAt:
            return self.cards(n, sc)
        return self.expr(n, sc)

    def card(self, n, sc):
        """Closure giving a card id or None."""
        return self.expr(n, sc)

    def card_source(self, n, sc):
        """Closure giving (card or None, pile value or None, index) for move/swap sources."""
        if type(n) is A.Actual:
            n = n.card
        if type(n) is A.CardAt:
            pvf = self.pile(n.pile, sc)
            pos = n.pos
            xf = self.expr(n.index, sc) if pos == "index" else None

            def src(st, env):
                pv = pvf(st, env)
                cards = st.piles[pv] if pv.__class__ is int else pv
                L = len(cards)
                if pos == "top":
                    i = L - 1
                elif pos == "bottom":
                    i = 0
                else:
                    i = xf(st, env)
                if 0 <= i < L:
                    return cards[i], pv, i
                return None, pv, -1
            return src
        cf = self.card(n, sc)
        return lambda st, env: (cf(st, env), None, -1)

    def dest(self, n, sc):
        """Closure giving (pile value, index) of a destination; index -1 means top."""
        if type(n) is A.Actual:
            n = n.card
        if type(n) is not A.CardAt:
            raise InternalError(f"destination is not positional at {n.span}")
        pvf = self.pile(n.pile, sc)
        if n.pos == "top":
            return lambda st, env: (pvf(st, env), -1)
        if n.pos == "bottom":
            return lambda st, env: (pvf(st, env), 0)
        xf = self.expr(n.index, sc)
        span = n.span

        def dest(st, env):
            pv = pvf(st, env)
            i = xf(st, env)
            if i < 0:
                raise _err("range", f"destination index {i} is negative", span)
            return pv, i
        return dest

    def scores(self, pm_node, sc):
        """Closure giving the per-kind score list of a point-map reference."""
        kinds = self.p.kinds
        ss, sf = self.slot(pm_node, sc)
        if ss is not None:
            def sk(st, env):
                pm = st.vals[ss]
                s = pm.sk
                return s if len(s) == len(kinds) else pm.extend(kinds)
        else:
            def sk(st, env):
                pm = st.vals[sf(st, env)]
                s = pm.sk
                return s if len(s) == len(kinds) else pm.extend(kinds)
        return sk

    # ------------------------------------------------------------ expressions

    def expr(self, n, sc):
        f = self._EXPR.get(type(n))
        if f is None:
            raise InternalError(f"no compiler for expression {type(n).__name__} at {getattr(n, 'span', '?')}")
        return f(self, n, sc)

    def e_lit(self, n, sc):
        v = n.value
        return lambda st, env: v

    def e_var(self, n: A.Var, sc):
        b = sc.get(n.name)
        if b is None:
            raise InternalError(f"unbound variable '{n.name} at {n.span}")
        if b[0]:
            v = b[1]
            return lambda st, env: v
        s = b[1]
        return lambda st, env: env[s]

    def e_storage(self, n: A.Storage, sc):
        ss, sf = self.slot(n, sc)
        if n.kind == "ply":
            span = n.span
            what = show(n)

            def ply(st, env):
                v = st.vals[ss if ss is not None else sf(st, env)]
                if v is None:
                    raise _err("no-player", f"{what} holds no player", span)
                return v
            return ply
        if ss is not None:
            return lambda st, env: st.vals[ss]
        return lambda st, env: st.vals[sf(st, env)]

    def ply_raw(self, n, sc):
        """A Player expression that may be `no player` (None): an unset ply cell read for ==, != or set (E2)."""
        if type(n) is A.Storage and n.kind == "ply":
            ss, sf = self.slot(n, sc)
            if ss is not None:
                return lambda st, env: st.vals[ss]
            return lambda st, env: st.vals[sf(st, env)]
        return self.expr(n, sc)

    def e_arith(self, n: A.Arith, sc):
        fs = [self.expr(a, sc) for a in n.args]
        op = n.op
        span = n.span
        if op == "+":
            if len(fs) == 2:
                a, b = fs
                cb, vb = self.const(n.args[1], sc)
                if cb:
                    return lambda st, env: a(st, env) + vb
                return lambda st, env: a(st, env) + b(st, env)

            def add(st, env):
                s = 0
                for f in fs:
                    s += f(st, env)
                return s
            return add
        if op == "*":
            def mul(st, env):
                r = 1
                for f in fs:
                    r *= f(st, env)
                return r
            return mul
        a, b = fs
        if op == "-":
            return lambda st, env: a(st, env) - b(st, env)
        if op == "//" or op == "%":
            fn = values.trunc_div if op == "//" else values.trunc_mod

            def div(st, env):
                x = a(st, env)
                y = b(st, env)
                if y == 0:
                    raise _err("arithmetic", f"({op} {x} 0): division by zero", span)
                return fn(x, y)
            return div

        def pw(st, env):
            x = a(st, env)
            y = b(st, env)
            if y < 0:
                raise _err("arithmetic", f"(^ {x} {y}): negative exponent", span)
            return values.power(x, y)
        return pw

    def e_intfn(self, n: A.IntFn, sc):
        f = self.expr(n.arg, sc)
        fn = values.tri if n.fn == "tri" else values.fib
        span = n.span
        name = n.fn

        def intfn(st, env):
            x = f(st, env)
            if x < 0:
                raise _err("arithmetic", f"({name} {x}): negative argument", span)
            return fn(x)
        return intfn

    def e_random(self, n: A.Random, sc):
        hf = self.expr(n.hi, sc)
        lf = self.expr(n.lo, sc) if n.lo is not None else None
        span = n.span

        def rnd(st, env):
            lo = 0 if lf is None else lf(st, env)
            hi = hf(st, env)
            if lo > hi:
                raise _err("arithmetic", f"{show(n)}: empty range {lo}..{hi}", span)
            return st.rng.randint(lo, hi)
        return rnd

    def e_size(self, n: A.Size, sc):
        c = n.coll
        if type(c) is A.Location:
            s, f = self.location(c, sc)
            if s is not None:
                return lambda st, env: len(st.piles[s])
            return lambda st, env: len(st.piles[f(st, env)])
        f = self.coll(c, sc)
        return lambda st, env: len(f(st, env))

    def e_sum(self, n: A.Sum, sc):
        cf = self.cards(n.pile, sc)
        skf = self.scores(n.points, sc)

        def sum_(st, env):
            cards = cf(st, env)
            sk = skf(st, env)
            ck = st.ckind
            s = 0
            for c in cards:
                s += sk[ck[c]]
            return s
        return sum_

    def e_score(self, n: A.Score, sc):
        cf = self.card(n.card, sc)
        skf = self.scores(n.points, sc)
        span = n.span

        def score(st, env):
            c = cf(st, env)
            if c is None:
                raise _err("no-card", f"(score {show(n.card)} …): designates no card", span)
            return skf(st, env)[st.ckind[c]]
        return score

    def e_score_extreme(self, n: A.ScoreExtreme, sc):
        cf = self.cards(n.pile, sc)
        skf = self.scores(n.points, sc)
        span = n.span
        fn = max if n.which == "scoremax" else min

        def ext(st, env):
            cards = cf(st, env)
            if not cards:
                raise _err("empty", f"{show(n)}: the pile is empty", span)
            sk = skf(st, env)
            ck = st.ckind
            return fn([sk[ck[c]] for c in cards])
        return ext

    def e_pid(self, n: A.Pid, sc):
        return self.expr(n.player, sc)

    def e_cardatt(self, n: A.CardAtt, sc):
        cf = self.card(n.card, sc)
        c, a = self.const(n.attribute, sc)
        b = sc.get(n.card.name) if type(n.card) is A.Var else None
        if c and b is not None and not b[0]:
            s = b[1]

            def cardatt_var(st, env):
                x = env[s]
                return "" if x is None else st.catt[x].get(a, "")
            return cardatt_var
        if c:
            def cardatt(st, env):
                x = cf(st, env)
                if x is None:
                    return ""
                return st.catt[x].get(a, "")
            return cardatt
        af = self.expr(n.attribute, sc)

        def cardatt_dyn(st, env):
            name = af(st, env)
            x = cf(st, env)
            if x is None:
                return ""
            return st.catt[x].get(name, "")
        return cardatt_dyn

    def e_logic(self, n: A.Logic, sc):
        fs = [self.expr(a, sc) for a in n.args]
        if n.op == "and":
            if len(fs) == 2:
                a, b = fs
                return lambda st, env: a(st, env) and b(st, env)
            if len(fs) == 3:
                a, b, c = fs
                return lambda st, env: a(st, env) and b(st, env) and c(st, env)

            def and_(st, env):
                for f in fs:
                    if not f(st, env):
                        return False
                return True
            return and_
        if len(fs) == 2:
            a, b = fs
            return lambda st, env: a(st, env) or b(st, env)
        if len(fs) == 3:
            a, b, c = fs
            return lambda st, env: a(st, env) or b(st, env) or c(st, env)

        def or_(st, env):
            for f in fs:
                if f(st, env):
                    return True
            return False
        return or_

    def e_not(self, n: A.Not, sc):
        f = self.expr(n.arg, sc)
        return lambda st, env: not f(st, env)

    def e_compare(self, n: A.Compare, sc):
        a = self.ply_raw(n.left, sc) if n.type == T.PLAYER else self.expr(n.left, sc)
        op = n.op
        cb, vb = self.const(n.right, sc)
        if cb:
            if op == "==":
                return lambda st, env: a(st, env) == vb
            if op == "!=":
                return lambda st, env: a(st, env) != vb
            if op == "<":
                return lambda st, env: a(st, env) < vb
            if op == ">":
                return lambda st, env: a(st, env) > vb
            if op == "<=":
                return lambda st, env: a(st, env) <= vb
            return lambda st, env: a(st, env) >= vb
        b = self.ply_raw(n.right, sc) if n.type == T.PLAYER else self.expr(n.right, sc)
        if op == "==":
            return lambda st, env: a(st, env) == b(st, env)
        if op == "!=":
            return lambda st, env: a(st, env) != b(st, env)
        if op == "<":
            return lambda st, env: a(st, env) < b(st, env)
        if op == ">":
            return lambda st, env: a(st, env) > b(st, env)
        if op == "<=":
            return lambda st, env: a(st, env) <= b(st, env)
        return lambda st, env: a(st, env) >= b(st, env)

    def e_quant(self, n: A.Quantifier, sc):
        cf = self.coll(n.coll, sc)
        s, sc2 = self.bind(sc, n.var)
        cond = self.expr(n.cond, sc2)
        if n.quant == "any":
            def any_(st, env):
                for e in cf(st, env):
                    env[s] = e
                    if cond(st, env):
                        return True
                return False
            return any_

        def all_(st, env):
            for e in cf(st, env):
                env[s] = e
                if not cond(st, env):
                    return False
            return True
        return all_

    def e_card_at(self, n: A.CardAt, sc):
        cf = self.cards(n.pile, sc)
        if n.pos == "top":
            def top(st, env):
                c = cf(st, env)
                return c[-1] if c else None
            return top
        if n.pos == "bottom":
            def bottom(st, env):
                c = cf(st, env)
                return c[0] if c else None
            return bottom
        xf = self.expr(n.index, sc)

        def at(st, env):
            i = xf(st, env)
            c = cf(st, env)
            return c[i] if 0 <= i < len(c) else None
        return at

    def e_card_extreme(self, n: A.CardExtreme, sc):
        cf = self.cards(n.pile, sc)
        skf = self.scores(n.points, sc)
        span = n.span
        best_is_max = n.which == "max"

        def extreme(st, env):
            cards = cf(st, env)
            if not cards:
                raise _err("empty", f"{show(n)}: the pile is empty", span)
            sk = skf(st, env)
            ck = st.ckind
            scores = [sk[ck[c]] for c in cards]
            b = max(scores) if best_is_max else min(scores)
            cands = [c for c, s in zip(cards, scores) if s == b]
            if len(cands) == 1:
                return cands[0]
            return cands[st.rng.randrange(len(cands))]
        return extreme

    def e_actual(self, n: A.Actual, sc):
        return self.card(n.card, sc)

    def e_location(self, n: A.Location, sc):
        return self.pile(n, sc)

    def e_indexed(self, n: A.Indexed, sc):
        p = self.p
        kind = KIND_CODE[n.kind]
        nc, name = self.const(n.name, sc)
        if nc:
            fams = [p.family(o, kind, name) for o in range(self.n + 1)]
            o = n.owner
            if type(o) is A.GameOwner:
                fam = fams[0]
                famf = lambda st, env: fam  # noqa: E731
            else:
                of = self.owner_code(o, sc)
                famf = lambda st, env: fams[of(st, env)]  # noqa: E731
        else:
            of = (lambda st, env: 0) if type(n.owner) is A.GameOwner else self.owner_code(n.owner, sc)
            nf = self.expr(n.name, sc)
            famf = lambda st, env: p.family(of(st, env), kind, nf(st, env))  # noqa: E731

        def indexed(st, env):
            fam = famf(st, env)
            piles = st.piles
            L = len(piles)
            return [pid for pid in fam[1] if pid < L and piles[pid]]
        return indexed

    def _pile_args(self, args, sc):
        """Closure giving the list of card lists of `<pile>+` or one `(all …)` collector."""
        if len(args) == 1 and type(args[0]) is A.Collect:
            pf = self.expr(args[0], sc)

            def from_collect(st, env):
                piles = st.piles
                return [piles[v] if v.__class__ is int else v for v in pf(st, env)]
            return from_collect
        fs = [self.cards(a, sc) for a in args]
        return lambda st, env: [f(st, env) for f in fs]

    def e_setop(self, n: A.SetOp, sc):
        af = self._pile_args(n.args, sc)
        if n.op == "union":
            def union(st, env):
                out = []
                for c in af(st, env):
                    out.extend(c)
                return out
            return union
        fn = alg.intersect if n.op == "intersect" else alg.disjunction
        return lambda st, env: fn(af(st, env))

    def e_filter(self, n: A.Filter, sc):
        cf = self.coll(n.coll, sc)
        s, sc2 = self.bind(sc, n.var)
        cond = self.expr(n.cond, sc2)

        def filter_(st, env):
            out = []
            for e in cf(st, env):
                env[s] = e
                if cond(st, env):
                    out.append(e)
            return out
        return filter_

    def e_sort(self, n: A.Sort, sc):
        cf = self.cards(n.pile, sc)
        skf = self.scores(n.points, sc)

        def sort(st, env):
            cards = cf(st, env)
            sk = skf(st, env)
            ck = st.ckind
            return alg.sort_by_score(cards, [sk[ck[c]] for c in cards])
        return sort

    def e_slice(self, n: A.Slice, sc):
        cf = self.cards(n.pile, sc)
        kf = self.expr(n.count, sc)
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

    def _using(self, n, sc, call):
        """Shared shape of run/runs/tuples: cards, per-card scores, count; ValueError -> arithmetic."""
        cf = self.cards(n.pile, sc)
        skf = self.scores(n.points, sc)
        kf = self.expr(n.count, sc)
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

    def e_run_at_end(self, n: A.RunAtEnd, sc):
        end = n.end
        return self._using(n, sc, lambda cards, scores, k: alg.run_at_end(cards, scores, k, end))

    def e_runs(self, n: A.Runs, sc):
        mode = n.mode
        if n.step is None and n.cyclic is None:
            return self._using(n, sc, lambda cards, scores, k: alg.runs(cards, scores, k, mode))
        cf = self.cards(n.pile, sc)
        skf = self.scores(n.points, sc)
        kf = self.expr(n.count, sc)
        stf = self.expr(n.step, sc) if n.step is not None else (lambda st, env: 1)
        mf = self.expr(n.cyclic, sc) if n.cyclic is not None else (lambda st, env: None)
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

    def e_isrun(self, n: A.IsRun, sc):
        if n.type == T.PILES:
            pf = self.expr(n.coll, sc)

            def cf(st, env):
                piles = st.piles
                out = []
                for v in pf(st, env):
                    out.extend(piles[v] if v.__class__ is int else v)
                return out
        else:
            cf = self.cards(n.coll, sc)
        skf = self.scores(n.points, sc)
        stf = self.expr(n.step, sc) if n.step is not None else (lambda st, env: 1)
        mf = self.expr(n.cyclic, sc) if n.cyclic is not None else (lambda st, env: None)
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

    def e_fold(self, n: A.Fold, sc):
        cf = self.coll(n.coll, sc)
        s, sc2 = self.bind(sc, n.var)
        body = self.expr(n.body, sc2)
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

    # ------------------------------------------------------------ board queries (extensions E1)

    def cell_fn(self, node, sc, form: str):
        """Closure giving (BoardFamily, cell index) of a cell operand; run-time `board` errors otherwise."""
        pf = self.pile(node, sc)
        cell_of = self.p.cell_of
        span = node.span
        what = show(node)

        def cell(st, env):
            pid = pf(st, env)
            hit = cell_of.get(pid) if pid.__class__ is int else None
            if hit is None:
                raise _err("board", f"({form} {what} …): {what} is not a cell of a board", span)
            if hit[0].fid not in st.boards:
                raise _err("board", f"({form} {what} …): the board ({self.board_text(hit[0])}) is not built yet", span)
            return hit
        return cell

    def board_text(self, fam) -> str:
        return f"{self.p.owner_json(fam.owner)} {KIND_WORDS[fam.kind]} {fam.name}"

    def direction_fn(self, span, form: str):
        """Closure giving a direction index on a family, or a `board` error for an unknown name."""
        def direction(st, env, fam, name):
            k = fam.dir_index.get(name)
            if k is None:
                raise _err("board", f"({form} …): {name!r} is not a direction of this board "
                           f"({', '.join(fam.dirs)})", span)
            return k
        return direction

    def e_cells(self, n: A.Cells, sc):
        cf = self.cell_fn(n.board, sc, "cells")
        return lambda st, env: cf(st, env)[0].pids

    def e_cell_at(self, n: A.CellAt, sc):
        cf = self.cell_fn(n.board, sc, "cell")
        rf, kf = self.expr(n.row, sc), self.expr(n.col, sc)
        span = n.span

        def cell_at(st, env):
            fam = cf(st, env)[0]
            r, c = rf(st, env), kf(st, env)
            i = fam.geom.index_of.get((r, c))
            if i is None:
                raise _err("range", f"{show(n)}: the board has no cell at row {r}, column {c}", span)
            return fam.pids[i]
        return cell_at

    def e_coord(self, n: A.Coord, sc):
        cf = self.cell_fn(n.cell, sc, n.axis)
        k = 0 if n.axis == "row" else 1

        def coord(st, env):
            fam, i = cf(st, env)
            return fam.geom.coords[i][k]
        return coord

    def e_directions(self, n: A.Directions, sc):
        cf = self.cell_fn(n.board, sc, "directions")
        return lambda st, env: cf(st, env)[0].dirs

    def e_neighbors(self, n: A.Neighbors, sc):
        cf = self.cell_fn(n.cell, sc, "neighbors")
        if n.dirs is None:
            def neighbors(st, env):
                fam, i = cf(st, env)
                return fam.nb_all[i]
            return neighbors
        df = self.expr(n.dirs, sc)
        span = n.span

        def neighbors_in(st, env):
            fam, i = cf(st, env)
            names = df(st, env)
            try:
                return fam.neighbours_in(names)[i]
            except KeyError as e:
                raise _err("board", f"(neighbors …): {e.args[0]!r} is not a direction of this board "
                           f"({', '.join(fam.dirs)})", span) from None
        return neighbors_in

    def e_ray(self, n: A.Ray, sc):
        cf = self.cell_fn(n.cell, sc, "ray")
        df = self.expr(n.direction, sc)
        dirf = self.direction_fn(n.span, "ray")

        def ray(st, env):
            fam, i = cf(st, env)
            d = df(st, env)
            k = fam.dir_index.get(d)
            if k is None:
                k = dirf(st, env, fam, d)
            return fam.rays[i][k]
        return ray

    def e_line(self, n: A.Line, sc):
        cf = self.cell_fn(n.cell, sc, "line")
        df = self.expr(n.direction, sc)
        nf = self.expr(n.count, sc)
        dirf = self.direction_fn(n.span, "line")
        span = n.span

        def line(st, env):
            fam, i = cf(st, env)
            d = df(st, env)
            k = fam.dir_index.get(d)
            if k is None:
                k = dirf(st, env, fam, d)
            m = nf(st, env)
            if m < 1:
                if m < 0:
                    raise _err("range", f"{show(n)}: a line of {m} cells", span)
                return ()
            ray = fam.rays[i][k]
            if len(ray) < m - 1:
                return ()
            return (fam.pids[i],) + ray[:m - 1]
        return line

    def e_components(self, n: A.Components, sc):
        cf = self.coll(n.cells, sc)
        df = self.expr(n.dirs, sc) if n.dirs is not None else None
        cell_of = self.p.cell_of
        span = n.span

        def components(st, env):
            cells = cf(st, env)
            if not len(cells):
                return []
            fam = None
            for pid in cells:
                hit = cell_of.get(pid) if pid.__class__ is int else None
                if hit is None or (fam is not None and hit[0] is not fam):
                    raise _err("board", f"{show(n)}: the cells must all belong to one board", span)
                fam = hit[0]
            if fam.fid not in st.boards:
                raise _err("board", f"{show(n)}: the board is not built yet", span)
            try:
                return fam.components(cells, df(st, env) if df is not None else None)
            except KeyError as e:
                raise _err("board", f"(components …): {e.args[0]!r} is not a direction of this board "
                           f"({', '.join(fam.dirs)})", span) from None
        return components

    def e_tuples(self, n: A.Tuples, sc):
        return self._using(n, sc, lambda cards, scores, k: alg.tuples(cards, scores, k))

    def e_pile_at(self, n: A.PileAt, sc):
        cf = self.expr(n.piles, sc)
        pos = n.pos
        xf = self.expr(n.index, sc) if pos == "index" else None
        span = n.span

        def pile_at(st, env):
            coll = cf(st, env)
            L = len(coll)
            if pos == "index":
                i = xf(st, env)
                if not (0 <= i < L):
                    raise _err("range", f"{show(n)}: index {i} outside 0..{L - 1}", span)
                return coll[i]
            if not L:
                raise _err("empty", f"{show(n)}: the collection of piles is empty", span)
            return coll[-1] if pos == "top" else coll[0]
        return pile_at

    def e_partition(self, n: A.Partition, sc):
        af = self._pile_args(n.args, sc)
        c, a = self.const(n.attribute, sc)
        atf = None if c else self.expr(n.attribute, sc)

        def partition(st, env):
            attr = a if atf is None else atf(st, env)
            cards = []
            for x in af(st, env):
                cards.extend(x)
            catt = st.catt
            return alg.partition(cards, [catt[x].get(attr, "") for x in cards])
        return partition

    def e_subsets(self, n: A.Subsets, sc):
        cf = self.cards(n.pile, sc)
        span = n.span

        def subsets(st, env):
            try:
                return alg.subsets(cf(st, env))
            except alg.ResourceLimit as e:
                raise _err("resource", f"{show(n)}: {e}", span) from None
        return subsets

    def e_collect(self, n: A.Collect, sc):
        cf = self.coll(n.coll, sc)
        s, sc2 = self.bind(sc, n.var)
        pf = self.pile(n.pile, sc2)

        def collect(st, env):
            out = []
            for e in cf(st, env):
                env[s] = e
                out.append(pf(st, env))
            return out
        return collect

    def e_allof(self, n: A.AllOf, sc):
        v = self.all_p if n.what == "player" else self.all_t
        return lambda st, env: v

    def e_other(self, n: A.Other, sc):
        if n.what == "player":
            tbl = self.others_p
            return lambda st, env: tbl[st.pcyc[-2]]
        tbl = self.others_t
        return lambda st, env: tbl[st.tcyc[-1]]

    def e_range(self, n: A.Range, sc):
        lf = self.expr(n.lo, sc)
        hf = self.expr(n.hi, sc)
        return lambda st, env: range(lf(st, env), hf(st, env) + 1)

    def e_namelist(self, n: A.NameList, sc):
        v = tuple(n.names)
        return lambda st, env: v

    def e_whoref(self, n: A.WhoRef, sc):
        if n.what == "player":
            N = self.n
            if n.which == "current":
                return lambda st, env: st.pcyc[-2]
            if n.which == "next":
                def nxt(st, env):
                    c = st.pcyc
                    q = c[-1]
                    return q if q >= 0 else (c[-2] + 1) % N
                return nxt
            return lambda st, env: (st.pcyc[-2] - 1) % N
        NT = self.nt
        if n.which == "current":
            return lambda st, env: st.tcyc[-1]
        if n.which == "next":
            return lambda st, env: (st.tcyc[-1] + 1) % NT
        return lambda st, env: (st.tcyc[-1] - 1) % NT

    def e_whobyid(self, n: A.WhoById, sc):
        f = self.expr(n.index, sc)
        N = self.n if n.what == "player" else self.nt
        what = n.what
        span = n.span

        def who(st, env):
            i = f(st, env)
            if not (0 <= i < N):
                raise _err("range", f"({i} {what}): there is no {what} {i} (ids 0..{N - 1})", span)
            return i
        return who

    def e_owner_of(self, n: A.OwnerOf, sc):
        cf = self.card(n.card, sc)
        owner = self.p.pile_owner
        span = n.span

        def owner_of(st, env):
            c = cf(st, env)
            if c is None:
                raise _err("no-card", f"(owner {show(n.card)}): designates no card", span)
            o = owner[st.where[c]]
            if o == 0:
                raise _err("owner", f"(owner {show(n.card)}): the card lies on a game pile, which no player owns", span)
            return o - 1
        return owner_of

    def e_team_of(self, n: A.TeamOf, sc):
        f = self.expr(n.player, sc)
        tof = self.p.team_of
        return lambda st, env: tof[f(st, env)]

    def e_team_as_players(self, n: A.TeamAsPlayers, sc):
        f = self.expr(n.team, sc)
        teams = self.p.teams
        return lambda st, env: teams[f(st, env)]

    _EXPR = {
        A.IntLit: e_lit, A.Name: e_lit, A.Var: e_var, A.Storage: e_storage, A.Arith: e_arith,
        A.IntFn: e_intfn, A.Random: e_random, A.Size: e_size, A.Sum: e_sum, A.Score: e_score,
        A.ScoreExtreme: e_score_extreme, A.Pid: e_pid, A.CardAtt: e_cardatt, A.Logic: e_logic,
        A.Not: e_not, A.Compare: e_compare, A.Quantifier: e_quant, A.CardAt: e_card_at,
        A.CardExtreme: e_card_extreme, A.Actual: e_actual, A.Location: e_location, A.Indexed: e_indexed,
        A.SetOp: e_setop, A.Filter: e_filter, A.Sort: e_sort, A.Slice: e_slice, A.RunAtEnd: e_run_at_end,
        A.PileAt: e_pile_at, A.Partition: e_partition, A.Subsets: e_subsets, A.Tuples: e_tuples,
        A.Runs: e_runs, A.Collect: e_collect, A.AllOf: e_allof, A.Other: e_other, A.Range: e_range,
        A.NameList: e_namelist, A.WhoRef: e_whoref, A.WhoById: e_whobyid, A.OwnerOf: e_owner_of,
        A.TeamOf: e_team_of, A.TeamAsPlayers: e_team_as_players,
        A.IsRun: e_isrun, A.Fold: e_fold, A.Cells: e_cells, A.CellAt: e_cell_at, A.Coord: e_coord,
        A.Directions: e_directions, A.Neighbors: e_neighbors, A.Ray: e_ray, A.Line: e_line,
        A.Components: e_components,
    }
    _CLAUSE = {
        A.Do: c_do, A.Guarded: c_guarded, A.Loop: c_loop, A.Let: c_let, A.Repeat: c_repeat,
        A.RepeatAll: c_repeat_all, A.Atomic: c_atomic,
    }
    _ACTION = {
        A.Move: a_move, A.Remember: a_remember, A.Forget: a_forget, A.Swap: a_swap, A.Shuffle: a_shuffle,
        A.SetValue: a_set, A.SetPoints: a_set_points, A.IncDec: a_incdec, A.Cycle: a_cycle,
        A.TurnPass: a_pass, A.CreateDeck: a_create_deck, A.CreateBoard: a_create_board, A.Clear: a_clear,
    }
