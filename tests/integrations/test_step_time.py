"""A runaway step under the Python API and the adapters (engine/watchdog.py): the game ends with its run-time error of class
`limit`, worth 0 to every seat, as any run-time error; no exception reaches the learning code."""
from __future__ import annotations

import pytest

import recycle
from recycle.engine import watchdog
from recycle.errors import UsageError
from recycle.integrations.core import RecycleSession
from recycle.players.random_player import RandomPlayer
from support.games import CHOOSE_RUNAWAY, make_game

LIMIT = 0.3


@pytest.fixture
def game_file(tmp_path):
    p = tmp_path / "choose_runaway.gdl"
    p.write_text(CHOOSE_RUNAWAY)
    return p


def test_the_session_ends_the_game_and_returns_zeros(game_file):
    s = RecycleSession(game_file)
    with watchdog.step_time_limit(LIMIT):
        st = s.new_state(1)
        legal = s.legal(st)
        assert len(legal) == 2
        s.apply(st, legal[0])  # the option that runs away
    assert s.is_over(st)
    assert st.error is not None and st.error.cls == "limit"
    assert s.returns(st) == [0.0, 0.0]


def test_pettingzoo_terminates_the_episode(game_file):
    pytest.importorskip("pettingzoo", reason="PettingZoo is not installed: pip install 'recycle[pettingzoo]'")
    from recycle.integrations.pettingzoo import env

    e = env(str(game_file))
    old = watchdog.set_max_step_time(LIMIT)  # the adapters play under the process's limit
    try:
        e.reset(seed=1)
        agent = e.agent_selection
        e.step(e.infos[agent]["option_ids"][0])
    finally:
        watchdog.set_max_step_time(old)
    assert all(e.terminations.values())
    assert e.rewards == {a: 0.0 for a in e.possible_agents}


def test_the_api_takes_a_limit_per_game(game_file):
    game = recycle.load(game_file)

    class First:
        def start(self, game, seat, seed):
            pass

        def choose(self, state):
            return 0  # the option that runs away

    res = game.play([First(), First()], seed=1, max_step_time=LIMIT)
    assert res.outcome == "error" and res.error is not None and res.error.cls == "limit"
    assert f"more than {LIMIT:g} s of CPU time" in res.error.message
    state = game.start(seed=1, max_step_time=LIMIT)
    other = state.clone()
    state.apply(0)
    assert state.is_over and state.result().error.cls == "limit"
    other.apply(1)
    assert other.is_over and other.result().outcome == "completed"
    assert watchdog.max_step_time() == watchdog.DEFAULT_MAX_STEP_TIME


@pytest.mark.parametrize("bad", [0, -2.5, float("nan"), float("inf"), 10**6])
def test_the_api_refuses_a_bad_limit_in_one_line(game_file, bad):
    game = recycle.load(game_file)
    with pytest.raises(UsageError, match="max_step_time"):
        game.start(seed=1, max_step_time=bad)
    with pytest.raises(UsageError, match="max_step_time"):
        game.play([RandomPlayer()] * 2, seed=1, max_step_time=bad)


TWO_CHOICES = make_game(declares="(declare 0 'X)", items=(
    "(choice ((set (game sto X) 1) (set (game sto X) 2)))\n (choice ((set (game sto X) 3) (set (game sto X) 4)))"))


def landing_after_each_step(prog, exc=watchdog.StepTimeExceeded) -> None:
    """The watchdog's rare race, every time: its exception lands just after the step apply ran has ended."""
    real = prog.apply

    def apply_then_land(st, i, kind=None):
        real(st, i, kind)
        raise exc

    prog.apply = apply_then_land


# the step-time limit's exception, and the undo log bound's (a kind of it with its own message)
LANDINGS = [(watchdog.StepTimeExceeded, lambda: watchdog.message(watchdog.max_step_time())),
            (watchdog.LogLimitExceeded, watchdog.log_message)]


@pytest.mark.parametrize(("exc", "message"), LANDINGS, ids=["time", "log"])
def test_a_landing_after_a_step_ends_the_api_game_without_an_exception(tmp_path, exc, message):
    p = tmp_path / "two.gdl"
    p.write_text(TWO_CHOICES)
    game = recycle.load(p)
    landing_after_each_step(game.program, exc)
    state = game.start(1)
    state.apply(0)
    assert state.is_over and state.result().outcome == "error"
    assert state.result().error.cls == "limit" and watchdog.stopped(state.state.error)
    assert state.result().error.message == message()


@pytest.mark.parametrize(("exc", "message"), LANDINGS, ids=["time", "log"])
def test_a_landing_after_a_step_ends_the_adapters_game_without_an_exception(tmp_path, exc, message):
    p = tmp_path / "two.gdl"
    p.write_text(TWO_CHOICES)
    s = RecycleSession(p)
    landing_after_each_step(s.prog, exc)
    st = s.new_state(1)
    s.apply(st, s.legal(st)[0])
    assert s.is_over(st) and watchdog.stopped(st.error) and s.returns(st) == [0.0, 0.0]
    assert st.error.message == message()
