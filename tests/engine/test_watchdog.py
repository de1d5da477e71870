"""The step-time watchdog (engine/watchdog.py): a step whose rules run past the CPU-time limit ends the
game with a run-time error of class `limit`; sleeping, thinking players and ordinary games are untouched.

Each runaway here is stopped at a limit of 0.3 CPU seconds (the default is 60)."""
from __future__ import annotations

import math
import threading
import time

import pytest

from recycle.engine import watchdog
from recycle.engine.play import play_game
from recycle.engine.state import DONE, ERROR
from recycle.errors import UsageError
from recycle.lang import library
from recycle.players.random_player import RandomPlayer
from support.games import (
    CHOOSE_RUNAWAY,
    DEAL3,
    NESTED_FOLD,
    NESTED_REPEAT,
    PLACE_STAGE,
    ROW,
    load,
    make_game,
    runaway_game,
)

LIMIT = 0.3


def assert_stopped(error, line: int) -> None:
    assert error is not None
    assert error.cls == "limit"
    assert f"more than {LIMIT:g} s of CPU time" in error.message
    assert "--max-step-time" in error.message and "docs/limits.md" in error.message
    assert error.span.line == line  # the item that was running


@pytest.mark.parametrize("action", [NESTED_REPEAT, NESTED_FOLD], ids=["repeat", "filter-sum"])
def test_a_runaway_item_ends_the_game_with_a_limit_error(action):
    prog = load(runaway_game(action))
    t0 = time.process_time()
    with watchdog.step_time_limit(LIMIT):
        st = prog.new_game(1)
    assert st.status == ERROR
    assert_stopped(st.error, 5)
    assert time.process_time() - t0 < 20 * LIMIT  # stopped near the limit, not after the loops' 10^10 rounds
    res = prog.result(st)
    assert res.outcome == "error" and res.error is not None and res.error.cls == "limit"


def test_a_runaway_after_a_decision_is_caught_in_apply():
    prog = load(CHOOSE_RUNAWAY)
    with watchdog.step_time_limit(LIMIT):
        st = prog.new_game(1)
        assert len(prog.options(st)) == 2
        prog.apply(st, 0)
    assert st.status == ERROR
    assert_stopped(st.error, 6)
    with watchdog.step_time_limit(LIMIT):  # the other option ends the game at once
        st = prog.new_game(1)
        prog.apply(st, 1)
    assert st.status == DONE


def test_a_runaway_guard_inside_an_atomic_block():
    # the guard of each cell sums 10^10 numbers: the runaway is inside the atomic block's option building,
    # which runs below engine.stack.with_room (the whole game in one stack chunk)
    slow = "(== (size 'X) (- (sum (range 1..100000) 'I (sum (range 1..100000) 'J 1)) 10000000000))"
    stage = PLACE_STAGE.replace("(== (size 'X) 0)", slow)
    assert stage != PLACE_STAGE
    prog = load(make_game(ROW, DEAL3 + "\n " + stage, deck="(create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE))))"))
    assert prog.has_atomic
    with watchdog.step_time_limit(LIMIT):
        res = play_game(prog, 1, [RandomPlayer(), RandomPlayer()])
    assert res.outcome == "error" and res.error is not None and res.error.cls == "limit"
    assert f"more than {LIMIT:g} s of CPU time" in res.error.message


class _Recorder:
    """Hears the events of a game; waits `pause` seconds at each `set`, sleeping or spinning the CPU."""

    def __init__(self, pause: float, busy: bool):
        self.pause = pause
        self.busy = busy
        self.sets = 0

    def __call__(self, ev: dict) -> None:
        if ev["type"] != "set":
            return
        self.sets += 1
        if self.busy:
            end = time.process_time() + self.pause
            while time.process_time() < end:
                pass
        else:
            time.sleep(self.pause)


@pytest.mark.parametrize("busy", [False, True], ids=["sleeping", "busy"])
def test_only_cpu_time_counts(busy):
    # one step of twelve `set`s, each heard by a recorder that waits 0.15 s inside the step: 1.8 s of wall
    # time in all.  Sleeping, it is well over the limit in wall time and far under it in CPU time: not
    # stopped.  Spinning, the same wait is CPU time: stopped, at the latest a poll's worth of CPU time after
    # the limit counted from the poll that first saw the step (under 1 s of CPU, so before the last set,
    # even on a loaded machine).
    prog = load(runaway_game("(repeat 12 (inc (game sto X) 1))"))
    rec = _Recorder(0.15, busy)
    t0 = time.perf_counter()
    with watchdog.step_time_limit(LIMIT):
        st = prog.new_game(1, recorder=rec)
    if busy:
        assert st.status == ERROR
        assert_stopped(st.error, 5)
        assert rec.sets < 12
    else:
        assert time.perf_counter() - t0 >= 12 * 0.15 > LIMIT
        assert st.status == DONE, st.error
        assert rec.sets == 12


class _SlowThinker(RandomPlayer):
    """A random player that thinks (sleeps) before each choice: time between steps, never inside one."""

    def choose(self, prog, st):
        time.sleep(2 * LIMIT)
        return super().choose(prog, st)


def test_a_player_thinking_longer_than_the_limit_is_not_stopped():
    choose = "(choice ((set (game sto X) 1) (set (game sto X) 2)))"
    prog = load(make_game(declares="(declare 0 'X)", items=f"{choose}\n {choose}"))
    t0 = time.perf_counter()
    with watchdog.step_time_limit(LIMIT):
        res = play_game(prog, 1, [_SlowThinker(), _SlowThinker()])
    assert time.perf_counter() - t0 >= 2 * 2 * LIMIT
    assert res.outcome == "completed" and res.n_decisions == 2


def test_an_ordinary_game_is_the_same_under_a_small_limit():
    prog = load(library.resolve("block_rummy").read_text())
    players = [RandomPlayer(), RandomPlayer()]
    free = play_game(prog, 7, players)
    with watchdog.step_time_limit(0.05):  # far above any step of the game, far below the default
        limited = play_game(prog, 7, [RandomPlayer(), RandomPlayer()])
    assert free.outcome == "completed"
    assert limited == free


def test_limits_are_per_thread_and_put_back():
    default = watchdog.max_step_time()
    assert default == watchdog.DEFAULT_MAX_STEP_TIME
    seen = []
    with watchdog.step_time_limit(2.5):
        assert watchdog.max_step_time() == 2.5
        t = threading.Thread(target=lambda: seen.append(watchdog.max_step_time()))
        t.start()
        t.join()
        with watchdog.step_time_limit(None):
            assert watchdog.max_step_time() == 2.5
    assert seen == [default]
    assert watchdog.max_step_time() == default
    old = watchdog.set_max_step_time(7)
    try:
        assert old == default and watchdog.max_step_time() == 7.0
    finally:
        watchdog.set_max_step_time(old)


@pytest.mark.parametrize("bad", [0, -1, math.nan, math.inf, -math.inf, 86_401, "soon", None])
def test_a_limit_must_be_a_positive_finite_number_of_seconds(bad):
    with pytest.raises(UsageError) as e:
        watchdog.check_seconds(bad)
    assert "\n" not in str(e.value) and "max_step_time" in str(e.value)


def test_a_limit_in_range_is_taken():
    assert watchdog.check_seconds("0.5") == 0.5
    assert watchdog.check_seconds(86_400) == watchdog.MAX_STEP_TIME
