"""Compiling a whole game: the entry points, the player/team facts, setup, the template state."""
from __future__ import annotations

import sys

from ..engine.program import Program
from ..engine.state import RUNNING, CardMeta, State
from ..errors import GameRuntimeError, InternalError, UsageError
from ..lang import ast as A
from ..lang.consts import (
    MAX_BOARD_CELLS,
    MAX_PLAYERS,
    ConstError,
    board_cells,
    board_problem,
    board_values,
    const_value,
    declared_values,
    nodes_of,
    resolve_teams,
    too_many_board_cells,
    too_many_players,
)
from ..lang.gcpause import collector_paused
from ..lang.load import Loaded, load_game
from .actions import deck_clause
from .context import KIND_CODE, Compiler
from .fusion import fuse
from .items import scoring, tiebreak_keys
from .registry import FORMS

__all__ = ["compile_game", "compile_loaded", "load_program"]

# Enumerating the atomic blocks of one decision may walk at most this many complete paths (E4).
# Enumerating an atomic block's paths for a player that does not sample them (searching
# players, Scenario) stops after this many complete paths; the decision is then built again
# with every block sampled, as for a random player.  Deterministic, unlike a time budget.
# Read when a game is compiled (tests lower it with monkeypatch).
ATOMIC_MAX_PATHS = 50_000

# Which games have their expressions fused into generated code (fusion.py): "always", "atomic"
# (only the games with atomic blocks, whose random walks test the same conditions thousands of
# times per decision) or "never".  Every game: the filters of a hand in a choice's `any` loops are
# one generated loop each, with their loop-invariant parts computed once (issue 16); the games
# play exactly as with closures.  Read when a game is compiled (tests set it).
FUSE = "always"


def compile_game(game: A.Game, params: dict | None = None, filename: str | None = None,
                 warnings=()) -> Program:
    """Compile a checked game (ast.Game) into a Program; `params` override declared values (raises UsageError)."""
    if sys.getrecursionlimit() < 20000:
        sys.setrecursionlimit(20000)  # option building nests one call per clause on a path
    prog = Program(game, filename or game.span.file, warnings)
    prog.atomic_max_paths = ATOMIC_MAX_PATHS
    with collector_paused():  # compiling makes closures and tables that all live on (lang/gcpause.py)
        build(Compiler(prog, game, params or {}, FORMS))
    return prog


def compile_loaded(loaded: Loaded, params: dict | None = None) -> Program:
    """Compile a loaded game; the program keeps its file name, warnings and source hash."""
    prog = compile_game(loaded.game, params, loaded.filename, loaded.warnings)
    prog.source_hash = loaded.source_hash
    return prog


def load_program(path, params: dict | None = None) -> Program:
    """Read, check (raises LoadError) and compile a game file."""
    return compile_loaded(load_game(path, params), params)


class _SetupCapture:
    """Stands in for a recorder while setup runs at compile time: keeps the create events."""

    def __init__(self):
        self.events = []

    def create(self, st, deck, pid, cards):
        self.events.append((deck, pid, list(cards)))


def build(cx: Compiler) -> None:
    """Fill cx.p: players and teams, boards, code, scoring, and the template state after setup."""
    p, game = cx.p, cx.game
    try:  # parameters given here were not seen when the game was checked
        consts = declared_values(game, cx.params)
    except ConstError as e:
        raise UsageError(f"{e.node.span}: {e}") from None
    consts = {k: (tuple(v) if isinstance(v, list) else v) for k, v in consts.items()}
    p.params = dict(cx.params)
    p.declared = dict(consts)
    try:
        n = const_value(game.setup.players.count, consts)
    except Exception as e:
        raise UsageError(f"cannot evaluate (create players …): {e}") from None
    if not isinstance(n, int) or n < 1:
        raise UsageError(f"a game needs at least one player, but (create players …) gives {n}")
    if n > MAX_PLAYERS:
        raise UsageError(too_many_players(n))
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
    if game.limits is not None:
        lim = game.limits
        p.max_decisions = const_value(lim.decisions, consts) if lim.decisions is not None else p.max_decisions
        p.max_steps = const_value(lim.steps, consts) if lim.steps is not None else p.max_steps
        p.max_options = const_value(lim.options, consts) if lim.options is not None else p.max_options
    cx.n, cx.nt = n, len(teams)
    cx.others_p = [tuple(q for q in range(n) if q != c) for c in range(n)]
    cx.others_t = [tuple(q for q in range(cx.nt) if q != c) for c in range(cx.nt)]
    cx.all_p = tuple(range(n))
    cx.all_t = tuple(range(cx.nt))

    sc = {name: (True, v) for name, v in consts.items()}
    found = nodes_of(game, A.Atomic, A.CreateBoard)  # one walk of the game for all three questions
    cx.has_atomic = bool(found[A.Atomic])
    cx.has_capacity = any(x.capacity is not None for x in found[A.CreateBoard])
    p.has_atomic = cx.has_atomic
    if FUSE == "always" or (FUSE == "atomic" and cx.has_atomic):
        cx.fuser = fuse
    cx.boards = {}  # id(CreateBoard node) -> {owner code: BoardFamily}
    cells = 0  # the load-time bound again, for parameters given only here
    for x in found[A.CreateBoard]:
        cells += board_cells(x, consts) * (1 if type(x.location.owner) is A.GameOwner else n)
        if cells > MAX_BOARD_CELLS:
            raise UsageError(f"{x.span}: {too_many_board_cells(cells)}")
        cx.boards[id(x)] = register_board(cx, x, consts, sc)
    # setup decks (compiled like actions, run below on the template)
    setup_fns = [deck_clause(cx, d, sc) for d in game.setup.decks]
    # program items
    cx.gen_items(game.items, sc, ())
    end_pc = cx.emit(None, game.scoring.span, ())
    p.code[end_pc] = p.finish
    p.score_fn = scoring(cx, game.scoring, sc)
    if game.scoring.tiebreaks:
        p.keys_fn = tiebreak_keys(cx, game.scoring, sc)
    p.nslots = cx.nslots
    # template state: run setup once (it is constant, §4.3)
    st = blank_state(cx)
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


def blank_state(cx: Compiler) -> State:
    p = cx.p
    st = State.__new__(State)
    st.pc = 0
    st.status = RUNNING
    st.piles = [[] for _ in p.pile_key]
    st.where = []
    st.vals = list(p.slot_default)
    st.pcyc = [0, -1]
    st.tcyc = [0]
    st.env = [None] * cx.nslots
    st.catt = []
    st.ckind = []
    st.cmeta = CardMeta([], [], {})
    st.rng = None
    st.seed = None
    st.decisions = 0
    st.steps = 0
    st.max_decisions = p.max_decisions
    st.max_steps = p.max_steps
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
    st.hands = []
    return st


def register_board(cx: Compiler, node: A.CreateBoard, consts: dict, sc: dict) -> dict:
    """The board families a `create board` form can build, registered once (cells, capacity, tables)."""
    p = cx.p
    problem = board_problem(node, consts)
    if problem:
        raise UsageError(f"{node.span}: {problem}")
    shape, dims, cap = board_values(node, consts)
    geom = p.geometry(shape, dims)
    loc = node.location
    nc, name = cx.const(loc.name, sc)
    if not nc:
        raise InternalError(f"board name is not constant at {node.span}")
    owners = [0] if type(loc.owner) is A.GameOwner else range(1, cx.n + 1)
    return {o: p.board_family(geom, o, KIND_CODE[loc.kind], name, cap) for o in owners}
