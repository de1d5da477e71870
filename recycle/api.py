"""The public Python API: load a game, play it decision by decision or whole, read the result.

    import recycle

    game = recycle.load("block_rummy")                # a shipped name or a path; checked and compiled once
    state = game.start(seed=1)                        # setup done, at the first decision (or the end)
    while not state.is_over:
        options = state.options()                     # readable: option.text, option.actions
        state.apply(options[0])                       # or an index
    print(state.result().scores)
    print(game.play([recycle.RandomPlayer(), recycle.RandomPlayer()], seed=7).winners)

Seats are numbered as the language numbers players: seat 0 is `(0 player)`, written `p1` in
texts and transcripts.  A player is any object with `start(game, seat, seed)` and
`choose(state) -> int` (see `Player`); the built-in players (`RandomPlayer` and the searching
players of `recycle.players`) work on the engine directly and are accepted as they are.

Seeds (at least 0), limits (at least 1), seats (0 … players − 1) and option indexes are whole
numbers, an int or a NumPy integer, as on the command line; anything else, a float or a string
included, is a UsageError saying what was expected, never truncated or read another way.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

import attrs

from .compiler import compile_loaded
from .engine.algorithms import whole_number
from .engine.describe import ActionInfo, actions
from .engine.play import play_game
from .engine.program import Program
from .engine.results import GameResult
from .engine.state import WAITING, State
from .engine.watchdog import StepTimeExceeded, check_seconds, step_time_limit
from .errors import UsageError
from .lang import SourceFile, library, load_source
from .players import base as engine_players
from .players import registry as _registry

__all__ = ["Action", "Game", "GameState", "Option", "Player", "load", "shipped_games"]

Action = ActionInfo  # kind, text, card, source, destination


@attrs.frozen
class Option:
    """One option of a decision: its index, its text (the actions joined by '; ') and its actions."""

    index: int
    text: str
    actions: tuple[Action, ...]


@runtime_checkable
class Player(Protocol):
    """What a player of the Python API implements: told its seat once per game, asked at each decision."""

    def start(self, game: Game, seat: int, seed: int) -> None:
        """A new game: this player's seat and the seed of its own random stream."""

    def choose(self, state: GameState) -> int:
        """The index of the chosen option, 0 … len(state.options()) - 1."""


def load(game: str | Path, params: Mapping[str, object] | None = None, dialect: str = "auto") -> Game:
    """A game by path or shipped name, read once, checked and compiled; `params` override its declares;
    `dialect` is how to read it: auto, modern or xam (the older CardStockXam dialect).

    Raises LoadError (the file does not load: every diagnostic) or UsageError (no such game, a bad
    parameter).  Parameter values are the declared type's values, or strings as `--param` takes them.
    """
    path = library.resolve(str(game))
    source = SourceFile.read(path, dialect)
    values = dict(params or {})
    return Game(compile_loaded(load_source(source, values or None), values or None), path, source.sha256)


def _limit(value: int | None, what: str) -> int | None:
    return None if value is None else whole_number(value, what, 1)


def shipped_games() -> dict[str, Path]:
    """The games that ship with recycle: name -> file."""
    return library.shipped()


class Game:
    """A loaded, compiled game: start positions from seeds, or play whole games with players."""

    def __init__(self, program: Program, path: Path, sha256: str):
        self.program = program
        self.path = Path(path)
        self.sha256 = sha256

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def players(self) -> int:
        """The number of seats."""
        return self.program.n_players

    @property
    def params(self) -> dict:
        """The declared values the game was compiled with (overrides applied)."""
        return dict(self.program.declared)

    def start(self, seed: int = 0, *, max_decisions: int | None = None, max_steps: int | None = None,
              max_step_time: float | None = None) -> GameState:
        """A new game from a seed, run to its first decision (or its end); limits default to the game's.

        `max_step_time`: CPU seconds the rules may run between two decisions, for this game's steps
        (default: the process's, 60 s unless `recycle.engine.watchdog.set_max_step_time` set another);
        a step that runs longer ends the game with a run-time error of class `limit` (docs/limits.md).
        """
        seed = whole_number(seed, "a seed")
        max_decisions, max_steps = _limit(max_decisions, "max_decisions"), _limit(max_steps, "max_steps")
        limit = None if max_step_time is None else check_seconds(max_step_time)
        with step_time_limit(limit):
            st = self.program.new_game(seed, max_decisions, max_steps)
        return GameState(self, st, max_step_time=limit)

    def play(self, players: Sequence[object], seed: int = 0, *, max_decisions: int | None = None,
             max_steps: int | None = None, max_step_time: float | None = None) -> GameResult:
        """A whole game with one player per seat (API players or engine players); its result.

        `max_step_time` as in `start`: a runaway step is the result's error (outcome `error`, class `limit`).
        """
        seed = whole_number(seed, "a seed")
        max_decisions, max_steps = _limit(max_decisions, "max_decisions"), _limit(max_steps, "max_steps")
        given = None if isinstance(players, str) else list(players)
        if given is None or len(given) != self.players:
            raise UsageError(f"{self.name} is played by {self.players} players: give play() a list of "
                             f"{self.players} player objects, not {players!r}")
        seats = [p if isinstance(p, engine_players.Player) else _EnginePlayer(self, p) for p in given]
        with step_time_limit(max_step_time):
            return play_game(self.program, seed, seats, max_decisions, max_steps)

    def __repr__(self) -> str:
        return f"<recycle.Game {self.name} ({self.players} players)>"


class GameState:
    """One game in progress: whose turn it is, its options, the moves, and its result."""

    def __init__(self, game: Game, state: State, *, read_only: bool = False, max_step_time: float | None = None):
        self.game = game
        self.state = state
        self.read_only = read_only  # the state a player is asked about: it may look, clone, not move
        self.max_step_time = max_step_time  # CPU seconds of each step apply() runs (None: the process's limit)
        self._options: list[Option] | None = None

    @property
    def is_over(self) -> bool:
        return self.game.program.is_terminal(self.state)

    @property
    def to_move(self) -> int | None:
        """The seat that decides now (0 is p1), or None when the game is over."""
        return self.game.program.chooser(self.state)

    @property
    def decisions(self) -> int:
        """How many decisions have been taken."""
        return self.state.decisions

    def options(self, viewer: int | None = None) -> list[Option]:
        """The options of the pending decision, described as `viewer` (default: the chooser) may see them."""
        if self.state.status != WAITING:
            return []
        prog, st = self.game.program, self.state
        who = st.chooser if viewer is None else whole_number(viewer, "a viewer's seat", 0, self.game.players)
        if viewer is None and self._options is not None:
            return self._options
        out = []
        for i, o in enumerate(prog.options(st)):
            acts = tuple(actions(prog, st, o, who))
            out.append(Option(i, "; ".join(a.text for a in acts), acts))
        if viewer is None:
            self._options = out
        return out

    def apply(self, option: Option | int) -> None:
        """Take an option (or its index) and run to the next decision or the end."""
        if self.read_only:
            raise UsageError("a player may not move on the game it is asked about: clone() the state to look ahead")
        i = option.index if isinstance(option, Option) else option  # (any other type: Program.apply's own error)
        try:
            with step_time_limit(self.max_step_time):
                self.game.program.apply(self.state, i)
        except StepTimeExceeded as e:  # the watchdog's rare race: its exception landed just after the step ended
            self.game.program.stop_step(self.state, e)
        self._options = None

    def view(self, seat: int) -> dict:
        """What `seat` observes now (language spec §17): piles it sees, backs of the others, storage."""
        return self.game.program.view(self.state, whole_number(seat, "a seat", 0, self.game.players))

    def result(self) -> GameResult:
        """The result of the game (provisional while it runs): outcome, scores, ranks, winners."""
        return self.game.program.result(self.state)

    def clone(self) -> GameState:
        """An independent copy (its own random stream, in the same position)."""
        return GameState(self.game, self.state.clone(), max_step_time=self.max_step_time)

    def __repr__(self) -> str:
        who = "over" if self.is_over else f"p{self.to_move + 1} to move" if self.to_move is not None else "running"
        return f"<recycle.GameState {self.game.name}, {self.decisions} decisions, {who}>"


class _EnginePlayer(engine_players.Player):
    """Seats an API player in the engine: the engine's (program, state) become the API's GameState."""

    def __init__(self, game: Game, player: object):
        super().__init__()
        if not isinstance(player, Player):
            raise TypeError(f"{player!r} is not a player: it needs start(game, seat, seed) and choose(state)")
        self.game = game
        self.player = player
        self.code = getattr(player, "code", "?")

    def start(self, prog: Program, seat: int, seed: int) -> None:
        super().start(prog, seat, seed)
        self.player.start(self.game, seat, seed)

    def choose(self, prog: Program, st: State) -> int:
        return self.player.choose(GameState(self.game, st, read_only=True))


class _NamedApiPlayer(engine_players.Player):
    """A Python-API player named on the command line (`module:Class`), seated in the engine's games."""

    def __init__(self, player: object, spec: str):
        super().__init__()
        self.player = player
        self.code = spec
        self._seat: _EnginePlayer | None = None

    def start(self, prog: Program, seat: int, seed: int) -> None:
        super().start(prog, seat, seed)
        self._seat = _EnginePlayer(Game(prog, Path(prog.filename), ""), self.player)
        self._seat.start(prog, seat, seed)

    def choose(self, prog: Program, st: State) -> int:
        if self._seat is None:
            raise UsageError("choose() before start(): the engine starts every player first")
        return self._seat.choose(prog, st)


_registry.API_SEAT = _NamedApiPlayer
