"""The PettingZoo environments (recycle.integrations.pettingzoo), AEC and parallel: PettingZoo's own checks, and the
same games as `recycle run`."""
from __future__ import annotations

import csv
import functools
import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="PettingZoo is not installed: pip install 'recycle[pettingzoo]'")

from pettingzoo.test import api_test, parallel_api_test, seed_test

import recycle
from recycle.cli import main as cli_main
from recycle.engine.algorithms import derive
from recycle.integrations.pettingzoo import env, parallel_env
from support import CORPUS_MISSING, corpus_id, corpus_sample

SHIPPED = sorted(recycle.shipped_games())
SAMPLE = corpus_sample(20)
# The AEC checks step through many observations: a 2**14 table keeps each action mask small (exact single
# moves, compound ones hashed). The parallel checks use the tables fitted to each game (the default).
BITS = 14
CYCLES = 8


@functools.cache
def _game(name: str) -> recycle.Game:
    return recycle.load(name)


def _env(name: str, **kw):
    return env(_game(name), action_bits=BITS, max_decisions=24, **kw)


def _check(name: str) -> None:
    with warnings.catch_warnings():
        # PettingZoo warns that a dict observation is not a Box; its checks of the dict's parts still run
        warnings.simplefilter("ignore", UserWarning)
        api_test(_env(name), num_cycles=CYCLES)
        seed_test(lambda: _env(name), num_cycles=CYCLES)


@pytest.mark.parametrize("name", SHIPPED)
def test_api_and_seed_tests_on_every_shipped_game(name):
    _check(name)


@pytest.mark.parametrize("path", SAMPLE or [pytest.param(None, marks=pytest.mark.skip(reason=CORPUS_MISSING))],
                         ids=[corpus_id(p) for p in SAMPLE] or ["no-corpus"])
def test_api_and_seed_tests_on_20_corpus_games(path):
    _check(str(path))


def _masked_run(e, seed: int) -> list:
    """A game through the parallel API with actions sampled under the masks from spaces seeded by `seed`."""
    obs, _ = e.reset(seed=seed)
    for i, agent in enumerate(e.possible_agents):
        e.action_space(agent).seed(seed + i)
    trace = []
    while e.agents:
        actions = {a: int(e.action_space(a).sample(mask=obs[a]["action_mask"])) for a in e.agents}
        obs, rewards, _, _, _ = e.step(actions)
        trace.append((actions, {a: o["observation"].tolist() for a, o in obs.items()}, rewards))
    return trace


def _check_parallel(name: str) -> None:
    # the table fitted to the game (the default): the parallel masks are one id longer, for the no-op
    make = functools.partial(parallel_env, _game(name), max_decisions=24)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # as in _check
        parallel_api_test(make(), num_cycles=CYCLES * 4)
    # PettingZoo's parallel_seed_test samples actions without their masks (illegal moves here): the same check
    # with the masks: two environments seeded alike play alike
    first = _masked_run(make(), 42)
    assert first and first == _masked_run(make(), 42)


@pytest.mark.parametrize("name", SHIPPED)
def test_parallel_api_and_seed_tests_on_every_shipped_game(name):
    _check_parallel(name)


@pytest.mark.parametrize("path", SAMPLE or [pytest.param(None, marks=pytest.mark.skip(reason=CORPUS_MISSING))],
                         ids=[corpus_id(p) for p in SAMPLE] or ["no-corpus"])
def test_parallel_api_and_seed_tests_on_20_corpus_games(path):
    _check_parallel(str(path))


def _random_rollout(e, game_seed: int) -> tuple[list[float], int]:
    """One game through the AEC API, each seat choosing as recycle's random player does (its stream, by index)."""
    e.reset(seed=game_seed)
    streams = [random.Random(derive(game_seed, "seat", s)) for s in range(len(e.possible_agents))]
    decisions = 0
    rewards = {}
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        rewards[agent] = reward
        if termination or truncation:
            e.step(None)
            continue
        ids = info["option_ids"]  # the legal ids in the engine's option order
        assert sorted(ids) == list(np.flatnonzero(obs["action_mask"]))
        e.step(ids[streams[e.possible_agents.index(agent)].randrange(len(ids))])
        decisions += 1
    return [rewards[a] for a in e.possible_agents], decisions


def _random_parallel_rollout(e, game_seed: int) -> tuple[list[float], int]:
    """One game through the parallel API: the agent to move chooses as recycle's random player does, the others
    send the no-op, the only action their masks allow."""
    obs, infos = e.reset(seed=game_seed)
    streams = [random.Random(derive(game_seed, "seat", s)) for s in range(len(e.possible_agents))]
    decisions = 0
    rewards: dict[str, float] = {}
    while e.agents:
        mover = infos[e.agents[0]]["active_agent"]
        assert all(info["active_agent"] == mover for info in infos.values())  # every agent is told who moves
        actions = {}
        for agent in e.agents:
            mask = obs[agent]["action_mask"]
            if agent == mover:
                ids = infos[agent]["option_ids"]
                assert sorted(ids) == list(np.flatnonzero(mask)) and mask[e.noop] == 0
                actions[agent] = ids[streams[e.possible_agents.index(agent)].randrange(len(ids))]
            else:
                assert list(np.flatnonzero(mask)) == [e.noop]
                actions[agent] = e.noop
        obs, rewards, terminations, truncations, infos = e.step(actions)
        decisions += 1
    assert set(rewards) == set(e.possible_agents) and all(terminations.values()) != all(truncations.values())
    return [rewards[a] for a in e.possible_agents], decisions


@pytest.mark.parametrize("name", ["block_rummy", "leap_rummy_wild", "rummy_squared"])
@pytest.mark.parametrize("api", ["aec", "parallel"])
def test_a_random_rollout_is_the_game_recycle_run_plays(name, api, tmp_path):
    # `recycle run --seed B` plays run i with game seed derive(B, "game", i); reset(seed=that) is the same game.
    assert cli_main(["run", name, "-n", "3", "--seed", "11", "--out", str(tmp_path)]) == 0
    with open(tmp_path / "games.csv", newline="") as f:
        runs = list(csv.DictReader(f))
    e = env(_game(name)) if api == "aec" else parallel_env(_game(name))
    rollout = _random_rollout if api == "aec" else _random_parallel_rollout
    n = len(e.possible_agents)
    for i, row in enumerate(runs):
        game_seed = derive(11, "game", i)
        assert int(row["game_seed"]) == game_seed
        returns, decisions = rollout(e, game_seed)
        assert decisions == int(row["decisions"])
        winners = [int(w) for w in row["winners"].strip("[]").split(",") if w.strip()]
        # returns: (n × share − 1) / (n − 1), shares split equally between the winners
        expected = [(n * (1 / len(winners) if s in winners else 0) - 1) / (n - 1) for s in range(n)]
        assert returns == pytest.approx(expected)


def test_observations_masks_render_and_seeds():
    e = env("block_rummy", render_mode="ansi")
    e.reset(seed=5)
    agent = e.agent_selection
    obs = e.observe(agent)
    other = e.observe(next(a for a in e.possible_agents if a != agent))
    assert obs["action_mask"].sum() == len(e.infos[agent]["option_ids"]) > 0
    assert other["action_mask"].sum() == 0  # only the seat to move has legal moves
    assert obs["observation"].shape == e.observation_space(agent)["observation"].shape
    text = e.render()
    assert "game seed 5" in text and "p2 iloc HAND: 10 hidden" in text  # the seat to move sees its own hand only
    assert set(e.option_texts()) == set(e.infos[agent]["option_ids"])
    # reset(seed=S) is the engine's game seed S
    engine = recycle.load("block_rummy").start(seed=5)
    assert len(engine.options()) == len(e.infos[agent]["option_ids"])
    # reset() without a seed draws the next one from the stream of the last seed given
    e.reset(seed=9)
    e.reset()
    first = e.game_seed
    e.reset(seed=9)
    e.reset()
    assert e.game_seed == first
    with pytest.raises(ValueError, match="render_mode"):
        env("block_rummy", render_mode="human")


def test_the_parallel_env_takes_only_the_movers_action():
    e = parallel_env("block_rummy", render_mode="ansi")
    obs, infos = e.reset(seed=5)
    mover = infos["player_0"]["active_agent"]
    other = next(a for a in e.possible_agents if a != mover)
    assert e.action_space(mover).n == e.session.num_distinct_actions + 1 == e.noop + 1
    legal = infos[mover]["option_ids"]
    assert "option_ids" not in infos[other]
    with pytest.raises(ValueError, match="no-op"):
        e.step({mover: legal[0], other: legal[0]})  # a seat not to move may only send the no-op
    with pytest.raises(ValueError, match="missing"):
        e.step({other: e.noop})
    obs, rewards, terminations, truncations, infos = e.step({mover: legal[0]})  # no action at all: the no-op too
    assert set(obs) == set(rewards) == set(infos) == set(e.possible_agents)
    assert rewards == {a: 0.0 for a in e.possible_agents}
    assert not any(terminations.values()) and not any(truncations.values())
    assert e.game_seed == 5 and e.render().startswith("block_rummy, game seed 5")
    assert set(e.option_texts()) == set(infos[infos[other]["active_agent"]]["option_ids"])


def test_misuse_gives_one_clear_error_not_a_stray_one():
    e = env("block_rummy")
    with pytest.raises(RuntimeError, match="before reset"):
        e.step(0)
    with pytest.raises(RuntimeError, match="before reset"):
        e.observe("player_0")
    with pytest.raises(ValueError, match="a seed is a non-negative integer, not -1"):
        e.reset(seed=-1)
    with pytest.raises(ValueError, match="a seed is an integer, not 'abc'"):
        e.reset(seed="abc")
    e.reset(seed=np.int64(4))  # a NumPy integer is a seed
    assert e.game_seed == 4
    legal = e.infos[e.agent_selection]["option_ids"]
    before = e.session.prog.options(e.st)
    with pytest.raises(ValueError, match=r"an action id is an integer, not 1\.5"):
        e.step(1.5)  # not truncated to the id 1
    with pytest.raises(ValueError, match="an action id is an integer, not True"):
        e.step(True)
    with pytest.raises(ValueError, match="no agent 'nobody' in this game"):
        e.observe("nobody")
    assert e.session.prog.options(e.st) is before  # nothing was taken
    e.step(np.array(legal[0]))  # a 0-d integer array is an id
    assert e.st.decisions == 1
    while e.agents:  # to the end, every agent stepping out
        ag = e.agent_selection
        done = e.terminations[ag] or e.truncations[ag]
        e.step(None if done else e.infos[ag]["option_ids"][0])
    with pytest.raises(RuntimeError, match="call reset"):
        e.step(0)
    p = parallel_env("block_rummy")
    with pytest.raises(RuntimeError, match="before reset"):
        p.step({})
    p.reset(seed=1)
    with pytest.raises(ValueError, match="no live agent 'zz'"):
        p.step({"zz": 0})
