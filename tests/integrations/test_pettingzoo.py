"""The PettingZoo AEC environment (recycle.integrations.pettingzoo): PettingZoo's own checks, and the same games as `recycle run`."""
from __future__ import annotations

import csv
import functools
import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="PettingZoo is not installed: pip install 'recycle[pettingzoo]'")

from pettingzoo.test import api_test, seed_test

import recycle
from recycle.cli import main as cli_main
from recycle.engine.algorithms import derive
from recycle.integrations.pettingzoo import env
from support import CORPUS_MISSING, corpus_id, corpus_sample

SHIPPED = sorted(recycle.shipped_games())
SAMPLE = corpus_sample(20)
# The checks step through many observations: a 2**14 table keeps each action mask small (the ids are
# made as with the default table; only the hashed region is smaller).
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


@pytest.mark.parametrize("name", ["block_rummy", "leap_rummy_wild", "rummy_squared"])
def test_a_random_rollout_is_the_game_recycle_run_plays(name, tmp_path):
    # `recycle run --seed B` plays run i with game seed derive(B, "game", i); reset(seed=that) is the same game.
    assert cli_main(["run", name, "-n", "3", "--seed", "11", "--out", str(tmp_path)]) == 0
    with open(tmp_path / "games.csv", newline="") as f:
        runs = list(csv.DictReader(f))
    e = env(_game(name))
    n = len(e.possible_agents)
    for i, row in enumerate(runs):
        game_seed = derive(11, "game", i)
        assert int(row["game_seed"]) == game_seed
        returns, decisions = _random_rollout(e, game_seed)
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
