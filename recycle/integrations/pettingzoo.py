"""A PettingZoo AEC environment for any game file (docs/integrations.md).

    from recycle.integrations.pettingzoo import env

    e = env(game="block_rummy", render_mode="ansi")
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else int(np.flatnonzero(obs["action_mask"])[0])
        e.step(action)

Agents are `player_0` … `player_{N-1}` (seat 0 is the language's `(0 player)`, `p1`).  Each
observation is a dict: `observation`, the seat's observation tensor (`encoding`), and
`action_mask`, an int8 vector over the `num_distinct_actions` stable ids (`actions`) with 1 at
each legal id (all zero for a seat that is not to move).  The info of the seat to move has
`option_ids`, the legal ids in the engine's option order (`recycle run` and the players of
recycle choose by index in that order).  Rewards come once, when the game ends: the returns of
`recycle.integrations.core`.  A game ended by its rules terminates every agent; one stopped by
the decision limit (`max_decisions`) truncates every agent (its rewards then come from the
provisional scores).

**Seeding.**  `reset(seed=S)` starts the game with game seed `S`: the same game as the engine's
`Game.start(seed=S)`, and as run `i` of `recycle run --seed B` when `S = derive(B, "game", i)`
(`recycle.engine.algorithms.derive`).  `reset()` without a seed draws the next game seed from a
stream seeded by the last seed given (or by the operating system if none was).

**Parallel API.**  `parallel_env(game=…)` is the same game as a PettingZoo `ParallelEnv`.  A
game of the language is turn-based: every decision has one chooser (language §4.8: no form lets
seats choose at once), so it cannot be made parallel by `aec_to_parallel`, which needs every agent to
act once per cycle.  The parallel form follows PettingZoo's own convention for turn-based games
(`turn_based_aec_to_parallel`): every live agent gets an observation and sends an action each
step; the agent to move has the legal ids in its mask, the others have a single legal action,
the **no-op** id `num_distinct_actions` (one past the stable ids), which they send or leave
out (any other action of theirs is an error); every agent's info names the `active_agent`.
Rewards, terminations, truncations and seeding are the AEC environment's; when the game ends
every agent leaves at once.
"""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

try:
    import gymnasium
    from pettingzoo import AECEnv, ParallelEnv
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError("recycle.integrations.pettingzoo needs PettingZoo: pip install 'recycle[pettingzoo]'") from e
import numpy as np

from ..api import Game
from ..engine.describe import describe
from ..engine.state import LIMIT
from .core import RecycleSession, integer


def env(game: str | Path | Game = "block_rummy", render_mode: str | None = None, *,
        params: Mapping[str, object] | None = None, action_bits: int | None = None,
        max_decisions: int | None = None, atomic: str = "sample", **game_params: object) -> RecycleAECEnv:
    """The AEC environment of a game (a shipped name, a path or a loaded Game); keywords: the game's parameters."""
    return RecycleAECEnv(game, render_mode, params={**(params or {}), **game_params}, action_bits=action_bits,
                         max_decisions=max_decisions, atomic=atomic)


def _seed(seed: object) -> int:
    """A seed given to reset(): a non-negative integer (NumPy's generator of the next seeds takes no other)."""
    value = integer(seed, "a seed")
    if value < 0:
        raise ValueError(f"a seed is a non-negative integer, not {seed!r}")
    return value


class RecycleAECEnv(AECEnv):
    """A game file as a PettingZoo AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "recycle_v0", "is_parallelizable": False}

    def __init__(self, game: str | Path | Game = "block_rummy", render_mode: str | None = None, *,
                 params: Mapping[str, object] | None = None, action_bits: int | None = None,
                 max_decisions: int | None = None, atomic: str = "sample"):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.session = RecycleSession(game, params, action_bits=action_bits, atomic=atomic,
                                      max_decisions=max_decisions)
        s = self.session
        self.possible_agents = [f"player_{i}" for i in range(s.n)]
        n_ids = s.num_distinct_actions
        self.action_spaces = {a: gymnasium.spaces.Discrete(n_ids) for a in self.possible_agents}
        self.observation_spaces = {a: gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(-np.inf, np.inf, (s.encoder.obs_size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (n_ids,), np.int8),
        }) for a in self.possible_agents}
        self._seeds = np.random.default_rng()
        self.st: Any = None
        self._legal: list[int] = []

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            game_seed = _seed(seed)
            self._seeds = np.random.default_rng(game_seed)
        else:
            game_seed = int(self._seeds.integers(0, 2**63 - 1))
        self.game_seed = game_seed
        self.st = self.session.new_state(game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self._after_move()

    def _after_move(self) -> None:
        """Legal ids, infos, and (at the end) rewards and terminations after a reset or a move."""
        s, st = self.session, self.st
        self._legal = s.legal(st)
        for a in self.agents:
            self.infos[a] = {}
        if s.is_over(st):
            returns = s.returns(st)
            limit = st.status == LIMIT
            for a in self.agents:
                i = self.possible_agents.index(a)
                self.rewards[a] = returns[i]
                self.terminations[a] = not limit
                self.truncations[a] = limit
            # every agent is done: they step out (None actions) in seat order, starting with the first
            self.agent_selection = self.agents[0]
        else:
            ch = s.chooser(st)
            assert ch is not None  # a game not over waits for a decision
            self.agent_selection = self.possible_agents[ch]
            self.infos[self.agent_selection] = {"option_ids": list(self._legal)}

    def step(self, action: Any) -> None:
        if self.st is None:
            raise RuntimeError("step() before reset(): call reset() to start a game")
        if not self.agents:
            raise RuntimeError("step() after every agent has stepped out of the finished game: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        self.session.apply(self.st, integer(action), self._legal)
        self._clear_rewards()
        self._after_move()
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        s = self.session
        if agent not in self.possible_agents:
            raise ValueError(f"no agent {agent!r} in this game (agents: {', '.join(self.possible_agents)})")
        if self.st is None:
            raise RuntimeError("observe() before reset(): call reset() to start a game")
        seat = self.possible_agents.index(agent)
        mask = np.zeros(s.num_distinct_actions, np.int8)
        if s.chooser(self.st) == seat:
            mask[self._legal] = 1
        return {"observation": s.encoder.tensor(self.st, seat), "action_mask": mask}

    def render(self) -> str | None:
        """With render_mode="ansi": the position as the seat to move sees it (everything, once over)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode: nothing to render")
            return None
        s, st = self.session, self.st
        ch = s.chooser(st)
        head = f"{s.game.name}, game seed {self.game_seed}, {st.decisions} decisions"
        return head + "\n" + s.encoder.string(st, ch if ch is not None else None)

    def option_texts(self) -> dict[int, str]:
        """The legal ids of the seat to move, each with its option's text (as that seat sees it)."""
        st = self.st
        ch = self.session.chooser(st)
        if ch is None or st.opts is None:
            return {}
        return {a: "; ".join(describe(self.session.prog, st, o, ch)) for a, o in zip(self._legal, st.opts, strict=True)}

    def close(self) -> None:
        pass


def parallel_env(game: str | Path | Game = "block_rummy", render_mode: str | None = None, *,
                 params: Mapping[str, object] | None = None, action_bits: int | None = None,
                 max_decisions: int | None = None, atomic: str = "sample",
                 **game_params: object) -> RecycleParallelEnv:
    """The parallel environment of a game (turn-based convention: see the module docstring)."""
    return RecycleParallelEnv(game, render_mode, params={**(params or {}), **game_params}, action_bits=action_bits,
                              max_decisions=max_decisions, atomic=atomic)


class RecycleParallelEnv(ParallelEnv):
    """A game file as a PettingZoo parallel environment: every live agent acts each step, the one to move for real."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "recycle_parallel_v0"}

    def __init__(self, game: str | Path | Game = "block_rummy", render_mode: str | None = None, *,
                 params: Mapping[str, object] | None = None, action_bits: int | None = None,
                 max_decisions: int | None = None, atomic: str = "sample"):
        # The AEC environment keeps the game, its seeds and its rewards; this one only changes who is asked.
        self.aec = RecycleAECEnv(game, render_mode, params=params, action_bits=action_bits,
                                 max_decisions=max_decisions, atomic=atomic)
        self.render_mode = render_mode
        self.possible_agents = self.aec.possible_agents[:]
        self.agents: list[str] = []
        s = self.aec.session
        self.noop = s.num_distinct_actions  # one past the stable ids
        self.action_spaces = {a: gymnasium.spaces.Discrete(self.noop + 1) for a in self.possible_agents}
        self.observation_spaces = {a: gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(-np.inf, np.inf, (s.encoder.obs_size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (self.noop + 1,), np.int8),
        }) for a in self.possible_agents}

    @property
    def session(self) -> RecycleSession:
        return self.aec.session

    @property
    def game_seed(self) -> int:
        return self.aec.game_seed

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None,
              options: dict | None = None) -> tuple[dict[str, dict], dict[str, dict]]:
        self.aec.reset(seed=seed, options=options)
        self.agents = self.possible_agents[:]
        return {a: self._observe(a) for a in self.agents}, self._infos(self.agents)

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        """The AEC observation with the no-op appended: the only legal action of a live agent not to move."""
        obs = self.aec.observe(agent)
        mask = np.zeros(self.noop + 1, np.int8)
        mask[: self.noop] = obs["action_mask"]
        if not self.aec.session.is_over(self.aec.st) and agent != self.aec.agent_selection:
            mask[self.noop] = 1
        return {"observation": obs["observation"], "action_mask": mask}

    def _infos(self, agents: list[str]) -> dict[str, dict]:
        over = self.aec.session.is_over(self.aec.st)
        active = None if over else self.aec.agent_selection
        return {a: {**self.aec.infos.get(a, {}), "active_agent": active} for a in agents}

    def step(self, actions: Mapping[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Apply the action of the agent to move; the others must send the no-op (or nothing)."""
        if self.aec.st is None:
            raise RuntimeError("step() before reset(): call reset() to start a game")
        if not self.agents:
            return {}, {}, {}, {}, {}
        mover = self.aec.agent_selection
        for a, act in actions.items():
            if a not in self.agents:
                raise ValueError(f"no live agent {a!r} in this game (agents: {', '.join(self.agents)})")
            if a != mover and act is not None and integer(act) != self.noop:
                raise ValueError(f"{a} is not to move ({mover} is): its action must be the no-op {self.noop}, "
                                 f"not {act}")
        if actions.get(mover) is None:
            raise ValueError(f"{mover} is to move: its action is missing")
        self.aec.step(integer(actions[mover]))
        live = self.agents
        observations = {a: self._observe(a) for a in live}
        rewards = {a: float(self.aec.rewards[a]) for a in live}
        terminations = {a: bool(self.aec.terminations[a]) for a in live}
        truncations = {a: bool(self.aec.truncations[a]) for a in live}
        infos = self._infos(live)
        if self.aec.session.is_over(self.aec.st):
            self.agents = []  # every agent leaves when the game ends
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return self.aec.render()

    def option_texts(self) -> dict[int, str]:
        """The legal ids of the agent to move, each with its option's text."""
        return self.aec.option_texts()

    def close(self) -> None:
        self.aec.close()
