"""The OpenSpiel game type `recycle`: any game file as a `pyspiel.Game` (docs/integrations.md).

    import pyspiel
    import recycle.integrations.openspiel  # registers the game type "recycle"

    game = pyspiel.load_game("recycle", {"game": "block_rummy"})
    game = pyspiel.load_game("recycle", {"game": "path/to/game.gdl", "params": "ROUNDS=2,TARGET=50"})

Game parameters (all optional but `game`):

* `game`: a shipped game's name or a file's path;
* `params`: the game's own parameters as `NAME=VALUE,NAME=VALUE` (what `--param` takes);
* `deals` (default 1024): how many outcomes the chance node at the root has (see below);
* `max_decisions` (default 0: the game's own limit, else 2000): the decision limit; a game
  stopped by it ends with its provisional scores;
* `action_bits` (default 0: fitted to the game's deck and piles): else `num_distinct_actions`
  is `2 ** action_bits` (`recycle.integrations.actions` says how ids are made);
* `on_clash` (default `warn`): what a clash of action ids does (`warn`, `raise` or `ignore`;
  `recycle.integrations.actions`);
* `atomic` (default `sample`): how option lists with atomic blocks are built
  (`recycle.integrations.core`).

**Chance.**  The engine draws every random outcome (the shuffles of setup, a reshuffle of the
discards, …) from one stream seeded by the game seed.  The adapter makes that seed the one
explicit chance node, at the root: outcome `i` of `deals` (uniform) starts the game with game
seed `i`, which is the game `recycle` plays with that game seed.  Every later random outcome
follows from it and is hidden from the players (only what they see of the cards tells them
anything), so the game is **explicitly stochastic** with a single chance node, and histories
replay exactly: clone, serialisation, `get_all_states` and CFR work.  Raise `deals` for more
distinct games; a small value makes tree search and CFR tractable on small games.

Information: imperfect, always (the engine's visibility rules, §17).  Utility: zero-sum for
two seats and more, with the returns of `recycle.integrations.core`; a one-seat game is
general-sum and returns its score.  Observations and their tensors: `encoding`; the
information-state string is what the seat saw of every decision (each option's actions as
`describe` gives them to that seat) followed by its current observation.
"""
from __future__ import annotations

import functools
import random

try:
    import pyspiel
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError("recycle.integrations.openspiel needs OpenSpiel: pip install 'recycle[openspiel]'") from e
import numpy as np

from ..engine.state import State as EngineState
from ..lang import library
from .actions import option_key
from .core import RecycleSession, integer

SHORT_NAME = "recycle"
DEFAULTS: dict[str, object] = {"game": "block_rummy", "params": "", "deals": 1024, "max_decisions": 0,
                               "action_bits": 0, "atomic": "sample", "on_clash": "warn"}
MAX_PLAYERS = 16


def _game_type(n_players: int = 0) -> pyspiel.GameType:
    """The game type: registered with n_players 0 (any), given to each game with its own count."""
    utility = pyspiel.GameType.Utility.GENERAL_SUM if n_players == 1 else pyspiel.GameType.Utility.ZERO_SUM
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="RECYCLE card game (a game file run by recycle)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=n_players or MAX_PLAYERS,
        min_num_players=n_players or 1,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULTS,
    )


def parse_params(text: str) -> dict[str, str]:
    """`NAME=VALUE,NAME=VALUE` -> {NAME: VALUE} (values as strings, as `--param` takes them)."""
    out = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, eq, value = part.partition("=")
        if not eq:
            raise ValueError(f"params: {part!r} is not NAME=VALUE")
        out[name.strip()] = value.strip()
    return out


def _session(game: str, params: str, action_bits: int | None, atomic: str, max_decisions: int,
             on_clash: str) -> RecycleSession:
    """One compiled game per parameter set and file version: OpenSpiel makes a new Game for each state it
    deserialises, and compiling a game costs far more than playing a few moves of it."""
    stamp = library.resolve(game).stat().st_mtime_ns  # an edited file is compiled again
    return _compiled(game, params, action_bits, atomic, max_decisions, on_clash, stamp)


@functools.lru_cache(maxsize=16)
def _compiled(game: str, params: str, action_bits: int | None, atomic: str, max_decisions: int, on_clash: str,
              stamp: int) -> RecycleSession:
    return RecycleSession(game, parse_params(params), action_bits=action_bits, atomic=atomic, on_clash=on_clash,
                          max_decisions=max_decisions or None)


class RecycleGame(pyspiel.Game):
    """A game file as an OpenSpiel game (see the module docstring)."""

    def __init__(self, params: dict | None = None):
        p = {**DEFAULTS, **(params or {})}
        self.session = _session(str(p["game"]), str(p["params"]), int(p["action_bits"]) or None,
                                str(p["atomic"]), int(p["max_decisions"]), str(p["on_clash"]))
        self.deals = int(p["deals"])
        if self.deals < 1:
            raise ValueError("deals must be at least 1")
        s = self.session
        info = pyspiel.GameInfo(
            num_distinct_actions=s.num_distinct_actions,
            max_chance_outcomes=self.deals,
            num_players=s.n,
            min_utility=-1e9 if s.n == 1 else -1.0,
            max_utility=1e9 if s.n == 1 else 1.0,
            utility_sum=None if s.n == 1 else 0.0,
            max_game_length=s.max_decisions,
        )
        super().__init__(_game_type(s.n), info, params or {})

    def new_initial_state(self) -> RecycleState:
        return RecycleState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> RecycleObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return RecycleObserver(self.session, perfect_recall)


class RecycleState(pyspiel.State):
    """One game: before the deal (the chance node), then the engine's state."""

    def __init__(self, game: RecycleGame):
        super().__init__(game)
        # Only `_g` lives in the instance's __dict__: pyspiel clones a Python state by deep-copying its
        # __dict__ and serialises it by pickling it, so the compiled game stays out of it (see _Game).
        self._g = _Game(game.session.n, game.deals)

    @property
    def _session(self) -> RecycleSession:
        return self.get_game().session

    @property
    def _st(self) -> EngineState | None:
        g = self._g
        if g.pending is not None:  # unpickled: replay the actions on this game (see _Game)
            actions, g.pending = g.pending, None
            for a in actions:
                self._advance(a)
        return g.st

    # --- OpenSpiel's API

    def current_player(self) -> int:
        st = self._st
        if st is None:
            return int(pyspiel.PlayerId.CHANCE)
        ch = self._session.chooser(st)
        return int(pyspiel.PlayerId.TERMINAL) if ch is None else ch

    def _options(self) -> tuple[list[int], list[tuple[str, ...]]]:
        """The ids and (distinct) keys of the options, in the engine's option order; cached per position."""
        g, st = self._g, self._st
        if g.legal is None or g.keys is None:
            if st is None or st.opts is None or st.chooser is None:
                g.legal, g.keys = [], []
            else:
                s = self._session
                g.keys = s.codec.distinct_keys([option_key(s.prog, st, o, st.chooser) for o in st.opts])
                g.legal = s.codec.ids_of_keys(g.keys)
        return g.legal, g.keys

    def _legal_actions(self, player: int) -> list[int]:
        st = self._st
        if st is None or player != self._session.chooser(st):
            return []
        return sorted(self._options()[0])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._st is not None:
            return []
        p = 1.0 / self._g.deals
        return [(i, p) for i in range(self._g.deals)]

    def _apply_action(self, action: int) -> None:
        if self._st is None and not 0 <= action < self._g.deals:  # (an unpickled state replays its actions first)
            raise ValueError(f"deal {action} is not a chance outcome here (outcomes: 0..{self._g.deals - 1})")
        self._advance(integer(action))

    def _advance(self, action: int) -> None:
        g = self._g
        if g.st is None:
            g.st = self._session.new_state(action)
        else:
            seen = self._session.apply(g.st, action, self._options()[0])
            for p, line in enumerate(seen):
                g.seen_by[p].append(line)
        if g.actions is not None:
            g.actions.append(action)
        g.legal = g.keys = None

    def _action_to_string(self, player: int, action: int) -> str:
        st = self._st
        if player == pyspiel.PlayerId.CHANCE or st is None:
            return f"deal {action}"
        ids, keys = self._options()
        if action in ids and player == st.chooser:
            # the option's key (its actions as the seat sees them, `#2` … on a repeated move): one text per id
            return "; ".join(keys[ids.index(action)])
        return f"action {action}"

    def is_terminal(self) -> bool:
        st = self._st
        return st is not None and self._session.is_over(st)

    def returns(self) -> list[float]:
        st = self._st
        return [0.0] * self._session.n if st is None else self._session.returns(st)

    def resample_from_infostate(self, player_id: int, probability_sampler) -> RecycleState:
        """A state of `player_id`'s information set: the unseen cards dealt again (Program.determinize)."""
        c = self.clone()
        st = self._st
        if st is not None and not self.is_terminal():
            rng = random.Random(int(probability_sampler() * 2**53))
            c._g.st = self._session.prog.determinize(st, player_id, rng)
            c._g.legal = c._g.keys = None
            c._g.actions = None  # no longer the result of its history: pickled as it is
        return c

    def __str__(self) -> str:
        st = self._st
        return "before the deal" if st is None else self._session.encoder.string(st, None)


class _Game:
    """The Python side of a RecycleState: the engine state (None before the deal), what each seat saw, the ids.

    Pickled (OpenSpiel's serialisation) as the actions taken, replayed on the game that unpickles it:
    an engine state refers to its program's registries by number, and a program registers some
    storage cells only when the game first uses them, so a state is read right only by the program
    that played it.  A resampled state is no result of its history and is pickled as it is.
    """

    def __init__(self, n: int, deals: int):
        self.deals = deals
        self.st: EngineState | None = None
        self.seen_by: list[list[str]] = [[] for _ in range(n)]
        self.legal: list[int] | None = None
        self.keys: list[tuple[str, ...]] | None = None
        self.actions: list[int] | None = []  # the actions taken (the deal first); None once resampled
        self.pending: list[int] | None = None  # actions to replay, after unpickling

    def __deepcopy__(self, memo) -> _Game:
        c = _Game.__new__(_Game)
        c.deals = self.deals
        c.st = self.st.clone() if self.st is not None else None
        c.seen_by = [s[:] for s in self.seen_by]
        c.legal, c.keys = self.legal, self.keys
        c.actions = self.actions[:] if self.actions is not None else None
        c.pending = self.pending[:] if self.pending is not None else None
        return c

    def __getstate__(self) -> dict:
        if self.actions is None:
            return {**self.__dict__, "legal": None, "keys": None}
        actions = (self.pending or []) + self.actions
        return {"deals": self.deals, "n": len(self.seen_by), "replay": actions}

    def __setstate__(self, d: dict) -> None:
        if "replay" not in d:
            self.__dict__.update(d)
            return
        self.__init__(d["n"], d["deals"])  # type: ignore[misc]
        self.pending = d["replay"] or None


class RecycleObserver:
    """OpenSpiel's Python observer: `tensor`/`dict` and `string_from` from `encoding`."""

    def __init__(self, session: RecycleSession, perfect_recall: bool):
        self.session = session
        self.perfect_recall = perfect_recall
        enc = session.encoder
        self.tensor = np.zeros(enc.info_size if perfect_recall else enc.obs_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: RecycleState, player: int) -> None:
        st = state._st
        if st is None:
            self.tensor.fill(0)
            return
        enc = self.session.encoder
        if self.perfect_recall:
            self.tensor[:] = enc.info_tensor(st, player)
        else:
            enc.tensor(st, player, self.tensor)

    def string_from(self, state: RecycleState, player: int) -> str:
        st = state._st
        if st is None:
            return f"seat p{player + 1}: before the deal"
        if self.perfect_recall:
            return self.session.info_string(st, player, state._g.seen_by[player])
        return self.session.encoder.string(st, player)


pyspiel.register_game(_game_type(), RecycleGame)
