"""Player kinds by name and lineup code (flow-and-analytics §0: `R` = uniform random).

| code | name | player | budget (`--ai-budget`) |
|---|---|---|---|
| R | random | uniform over the option list | — |
| F | montecarlo | flat Monte Carlo over sampled worlds | playouts per option (default 10) |
| M | mcts | single-observer IS-MCTS | iterations per decision (default 200) |
| P | pimc | PIMC: UCT in sampled worlds, votes combined | iterations per decision (default 200) |
| H | human | a person at the terminal | — |

A lineup entry may also name a Python class, `package.module:ClassName` (`python_spec`): the
module is imported (from `sys.path`, so PYTHONPATH or the current folder), the class is
instantiated with no arguments once per game, and it must implement one of the two player
protocols: the engine's (`recycle.players.base.Player`: `start(prog, seat, seed)` and
`choose(prog, st) -> int`; subclass it) or the Python API's (`recycle.api.Player`:
`start(game, seat, seed)` and `choose(state) -> int`, where `state.options()` gives readable
options).  Searching kinds also take a per-decision time limit (`--move-time`, seconds).
"""
from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable

from ..errors import UsageError
from .base import Player
from .human import HumanPlayer
from .mcts import ISMCTSPlayer, PIMCPlayer
from .montecarlo import FlatMonteCarloPlayer, SearchPlayer
from .random_player import RandomPlayer

KINDS: dict[str, type[Player]] = {
    "R": RandomPlayer,
    "F": FlatMonteCarloPlayer,
    "M": ISMCTSPlayer,
    "P": PIMCPlayer,
    "H": HumanPlayer,
}
NAMES: dict[str, str] = {"random": "R", "montecarlo": "F", "mcts": "M", "pimc": "P", "human": "H"}
# Kinds that search and can report the estimates of flow-and-analytics §3.5.
SEARCHERS: dict[str, type[SearchPlayer]] = {"F": FlatMonteCarloPlayer, "M": ISMCTSPlayer, "P": PIMCPlayer}
SEARCHING = frozenset(SEARCHERS)


def code_of(word: str) -> str | None:
    """The lineup code for a player name or code (`random`, `R`), or None.

    A `module:Class` spec is its own code, once the class is found to implement a player
    protocol (a UsageError says what is wrong otherwise)."""
    w = word.strip()
    if w in KINDS:
        return w
    if is_python_spec(w):
        python_class(w)
        return w
    return NAMES.get(w.lower())


def is_python_spec(word: str) -> bool:
    """Does a lineup entry name a Python class (`module:Class`)?"""
    return ":" in word


def python_class(spec: str) -> type:
    """The class named by `module.path:ClassName`, checked to implement a player protocol (UsageError if not)."""
    module_name, _, attr = spec.strip().partition(":")
    if not module_name or not attr or not all(p.isidentifier() for p in module_name.split(".")) \
            or not all(p.isidentifier() for p in attr.split(".")):
        raise UsageError(f"player {spec!r}: expected module.path:ClassName, e.g. mypkg.players:Greedy")
    try:
        obj = importlib.import_module(module_name)
    except ImportError as e:
        raise UsageError(f"player {spec!r}: cannot import module {module_name!r} ({e}); is its folder on "
                         "PYTHONPATH?") from None
    except Exception as e:  # the user's module failed while loading: say so, without our trace
        raise UsageError(f"player {spec!r}: importing {module_name!r} failed: {type(e).__name__}: {e}") from None
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise UsageError(f"player {spec!r}: module {module_name!r} has no {attr!r}")
        obj = getattr(obj, part)
    if not inspect.isclass(obj):
        raise UsageError(f"player {spec!r}: {attr!r} is not a class")
    source = inspect.getsourcefile(obj) if inspect.getmodule(obj) is not None else None
    if source:
        USER_FILES[source] = spec
    if not (callable(getattr(obj, "start", None)) and callable(getattr(obj, "choose", None))):
        raise UsageError(f"player {spec!r}: class {attr} does not implement the player protocol: it needs "
                         "start(...) and choose(...) (see recycle.players.base.Player or recycle.api.Player)")
    try:
        inspect.signature(obj).bind()
    except (TypeError, ValueError):
        raise UsageError(f"player {spec!r}: class {attr} must be constructible with no arguments") from None
    return obj


# The source files of the users' player classes, and the lineup entry naming each: an exception raised
# in one of them is that player's failure, not a bug of recycle (cli/main.py says so).
USER_FILES: dict[str, str] = {}


def user_failure(e: BaseException) -> str | None:
    """The one line that says a user's player class raised `e` (None when no frame of its traceback lies
    in a user's player file): the innermost such frame, where their code failed."""
    found = None
    tb = e.__traceback__
    while tb is not None:
        f = tb.tb_frame.f_code.co_filename
        if f in USER_FILES:
            found = (f, tb.tb_lineno, tb.tb_frame.f_code.co_name, USER_FILES[f])
        tb = tb.tb_next
    if found is None:
        return None
    path, line, func, spec = found
    text = str(e) if len(str(e)) <= 300 else str(e)[:300] + "…"
    return f"error: player {spec!r} failed: {type(e).__name__}: {text} ({path}:{line}, in {func})"


def make_python(spec: str) -> Player:
    """A fresh player of a user's class: as it is for an engine player, wrapped for an API player."""
    cls = python_class(spec)
    pl = cls()
    if isinstance(pl, Player):
        if getattr(pl, "code", "?") == "?":
            pl.code = spec
        return pl
    if len(inspect.signature(pl.choose).parameters) == 2:  # (prog, st): the engine's protocol
        return _Duck(pl, spec)
    if API_SEAT is None:  # recycle.api sets it when imported, and importing recycle imports it
        raise UsageError(f"player {spec!r}: a Python API player needs recycle.api (import recycle)")
    return API_SEAT(pl, spec)


# Seats a Python-API player in the engine: set by recycle.api (a later stage) when it is imported.
API_SEAT: Callable[[object, str], Player] | None = None


class _Duck(Player):
    """An engine-protocol player that does not subclass Player."""

    def __init__(self, inner, spec: str):
        super().__init__()
        self.inner = inner
        self.code = spec

    def start(self, prog, seat: int, seed: int) -> None:
        super().start(prog, seat, seed)
        self.inner.start(prog, seat, seed)

    def choose(self, prog, st) -> int:
        return self.inner.choose(prog, st)


def make(code: str, budget: int | None = None, record_estimates: bool = False,
         move_time: float | None = None) -> Player:
    """A fresh player object of that kind; `budget`, `record_estimates` and `move_time` apply to searching
    kinds only; a `module:Class` code makes the user's class."""
    if code in SEARCHING:
        return make_searcher(code, budget, record_estimates, move_time)
    if code in KINDS:
        return KINDS[code]()
    if is_python_spec(code):
        return make_python(code)
    raise UsageError(f"unknown player kind {code!r}: known kinds are {describe()}")


def make_searcher(code: str, budget: int | None = None, record_estimates: bool = False,
                  move_time: float | None = None) -> SearchPlayer:
    """A fresh searching player (code in SEARCHING)."""
    return SEARCHERS[code](budget=budget, record_estimates=record_estimates, move_time=move_time)


def describe() -> str:
    return (", ".join(f"{name} ({code})" for name, code in NAMES.items())
            + ", or a Python class as module.path:ClassName")

