"""The undo log bound of one step (engine/watchdog.py, MAX_LOG_ENTRIES): rules that loop for ever while an
option is built or inside an atomic block keep every change to undo it; the watchdog, when it looks at the
step, ends the game with a run-time error of class `limit` once that log holds more than the bound, instead
of letting it grow until the step-time limit.  The bound is lowered here to 20,000 entries; the step-time
limit is raised far above what the runaways take to pass it, so only the log bound can stop them."""
from __future__ import annotations

import sys
import threading

import pytest

from recycle.cli import main
from recycle.engine import watchdog
from recycle.engine.play import play_game
from recycle.engine.state import ERROR
from recycle.errors import GameRuntimeError
from recycle.players.mcts import ISMCTSPlayer
from recycle.players.random_player import RandomPlayer
from support.games import load, make_game

BOUND = 20_000
STEP_TIME = 600.0  # CPU seconds: far beyond the test's whole run
# A runaway as far as the watchdog can tell (it logs a change 250 times the bound), yet one that ends: were it
# not stopped, it would finish after 5,000,000 changes (about 700 MB and two CPU seconds), and the test fail
# without taking the machine's memory (NESTED_REPEAT would, until the step-time limit).
LONG_REPEAT = "(repeat 5000 (repeat 1000 (inc (game sto X) 1)))"
ATOMIC_RUNAWAY = make_game(declares="(declare 0 'X)", items=(
    f"(atomic (do ({LONG_REPEAT})) (require (== (game sto X) 0)))\n (choice ((turn pass)))"))
CHOICE_RUNAWAY = make_game(declares="(declare 0 'X)", items=(
    f"(choice ((do ({LONG_REPEAT})) (turn pass)))\n (choice ((turn pass)))"))
# p1 chooses 1 or 2; after a 1 an atomic block runs away, after a 2 the game ends at once
CHOOSE_ATOMIC_RUNAWAY = make_game(declares="(declare 0 'X) (declare 0 'Y)", items=(
    "(choice ((set (game sto X) 1) (set (game sto X) 2)))\n"
    f" (do ((if (== (game sto X) 1) (atomic (do ({LONG_REPEAT.replace('sto X', 'sto Y')})) "
    "(require (== 1 1))))))"))


@pytest.fixture(autouse=True)
def small_bound(monkeypatch):
    monkeypatch.setattr(watchdog, "MAX_LOG_ENTRIES", BOUND)


def assert_log_limit(error, line: int) -> None:
    assert error is not None and error.cls == "limit"
    assert error.message == watchdog.log_message()
    assert f"more than {BOUND:,} changes in one step" in error.message
    assert "MAX_LOG_ENTRIES" in error.message and "docs/limits.md" in error.message
    assert error.position.startswith(f"<string>:{line}:")  # the item that was running


@pytest.mark.parametrize(("text", "line"), [(ATOMIC_RUNAWAY, 5), (CHOICE_RUNAWAY, 5)], ids=["atomic", "choice"])
def test_a_runaway_that_logs_its_changes_ends_at_the_log_bound(text, line):
    prog = load(text)
    with watchdog.step_time_limit(STEP_TIME):
        res = play_game(prog, 1, [RandomPlayer(), RandomPlayer()])
    assert res.outcome == "error" and res.n_decisions == 0
    assert_log_limit(res.error, line)


def test_the_log_bound_is_the_watchdogs_stop_for_a_searching_player():
    # a playout meeting the runaway counts as a runaway (watchdog.stopped): the search tries each option once
    prog = load(CHOOSE_ATOMIC_RUNAWAY)
    searcher = ISMCTSPlayer(budget=50)
    with watchdog.step_time_limit(STEP_TIME):
        res = play_game(prog, 1, [searcher, RandomPlayer()])
    assert searcher.runaways == 1 and searcher.last_iterations == 2
    assert res.outcome == "completed" and res.choices == [1]


def test_the_log_bounds_error_is_the_watchdogs():
    assert watchdog.stopped(GameRuntimeError("limit", watchdog.log_message()))
    assert watchdog.stopped(GameRuntimeError("limit", watchdog.message(1.0)))
    assert not watchdog.stopped(GameRuntimeError("resource", watchdog.log_message()))


def test_the_log_is_read_from_the_steps_state():
    class St:
        log: list | None = None

    def step(st):
        return sys._getframe()

    st = St()
    assert watchdog._logged(step(st)) == 0  # no log: rules run directly
    st.log = [("set",)] * 7
    assert watchdog._logged(step(st)) == 7
    assert watchdog._logged(step(None)) == 0


def test_a_landing_of_the_log_bounds_exception_gives_its_message():
    # the watchdog's rare race (test_watchdog_strays.py) with this exception: the game's error names the log bound
    class Landing(RandomPlayer):
        def choose(self, prog, st):
            raise watchdog.LogLimitExceeded

    prog = load(make_game(items="(choice ((turn pass) (turn pass)))"))
    res = play_game(prog, 1, [Landing(), Landing()])
    assert res.outcome == "error" and res.error is not None and res.error.cls == "limit"
    assert res.error.message == watchdog.log_message()


def test_recycle_run_reports_the_log_bound(tmp_path, capsys):
    game = tmp_path / "runaway.gdl"
    game.write_text(ATOMIC_RUNAWAY)
    code = main(["run", str(game), "-n", "1", "-q", "--max-step-time", str(STEP_TIME)])
    out, err = capsys.readouterr()
    assert code == 1 and "Traceback" not in err
    assert f"error[limit]: the rules made more than {BOUND:,} changes in one step" in out + err


def test_a_game_whose_log_stays_small_is_untouched():
    prog = load(CHOOSE_ATOMIC_RUNAWAY)
    with watchdog.step_time_limit(STEP_TIME):
        st = prog.new_game(1)
        prog.apply(st, 1)  # the 2: no runaway
    assert st.status != ERROR and st.error is None


def test_a_step_that_lost_its_exception_gets_it_again(monkeypatch):
    # raised while the thread runs a gc callback or a __del__, the exception is only reported as unraisable:
    # a step that has run on for more than POLL seconds of CPU time since it was raised gets it again
    class St:
        log = [("set",)] * (BOUND + 1)

    inside, release = threading.Event(), threading.Event()

    def step(st):
        inside.set()
        release.wait()

    me = threading.get_ident()
    raised: list = []

    def fire(tid, frame, exc=watchdog.StepTimeExceeded):
        if threading.get_ident() == me:  # (the process's own watchdog may look too: its calls are not counted)
            raised.append(exc)
        return True

    cpu = iter([0.0, 0.1, 0.2, 0.3, 0.4, 0.5])  # the thread's CPU clock at each look: it runs on
    monkeypatch.setattr(watchdog, "_codes", {step.__code__})
    monkeypatch.setattr(watchdog, "_fire", fire)
    monkeypatch.setattr(watchdog, "_thread_clock",  # (the process's own watchdog reads a clock that stands still)
                        lambda native: (lambda: next(cpu)) if threading.get_ident() == me else (lambda: 0.0))
    t = threading.Thread(target=step, args=(St(),))
    t.start()
    inside.wait()
    try:
        seen: dict = {}
        looks = []
        for _ in range(6):
            seen = watchdog._look(me, seen)
            looks.append(len(raised))
    finally:
        release.set()
        t.join()
    # raised at 0.0; at 0.1 and 0.2 its handler may still be running; at 0.3 (more than POLL later) the step
    # runs on, so it lost the exception: it gets it again at the next look (0.4)
    assert watchdog.POLL == 0.25
    assert raised == [watchdog.LogLimitExceeded] * 2 and looks == [1, 1, 1, 1, 2, 2]
