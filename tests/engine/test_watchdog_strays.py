"""The rare race of the step-time watchdog (engine/watchdog.py): its exception raised just as a step ends.
The watchdog takes back an exception still pending when the thread has left the step; one that lands
anyway, between steps (a player choosing, the play loop) ends the game with the watchdog's `limit` error,
and a batch plays a game again rather than losing it or its worker.  The landing is simulated here by
raising StepTimeExceeded at those points."""
from __future__ import annotations

import json
import os
import sys
import threading
import time

import pytest

from recycle.cli import main
from recycle.engine import watchdog
from recycle.engine.play import play_game
from recycle.engine.recording import ListRecorder
from recycle.engine.state import DONE
from recycle.players.random_player import RandomPlayer
from recycle.run import batch, session
from recycle.run.batch import BatchSpec, play_run
from recycle.run.session import GameSession
from support import REPO
from support.games import load, make_game

DEAL_N = REPO / "tests" / "fixtures" / "games" / "deal_n.gdl"
TWO_CHOICES = make_game(declares="(declare 0 'X)", items=(
    "(choice ((set (game sto X) 1) (set (game sto X) 2)))\n (choice ((set (game sto X) 3) (set (game sto X) 4)))"))


class LateLanding(RandomPlayer):
    """A random player that receives the watchdog's exception while it chooses at decision `at` (1-based)."""

    def __init__(self, at: int):
        super().__init__()
        self.at = at

    def choose(self, prog, st):
        if st.decisions + 1 == self.at:
            raise watchdog.StepTimeExceeded
        return super().choose(prog, st)


@pytest.mark.parametrize("recorded", [False, True])
def test_one_landing_while_a_player_chooses_is_the_games_limit_error(recorded):
    prog = load(TWO_CHOICES)
    rec = ListRecorder() if recorded else None
    res = play_game(prog, 1, [LateLanding(2), LateLanding(2)], recorder=rec)
    assert res.outcome == "error" and res.n_decisions == 1
    assert res.error is not None and res.error.cls == "limit" and res.error.position.startswith("<string>:6:")
    assert res.error.message == watchdog.message(watchdog.max_step_time())
    if recorded:  # the transcript ends as a runaway step's does
        assert rec[-1]["type"] == "end" and rec[-1]["reason"] == "error" and "CPU time" in rec[-1]["error"]


def test_a_game_already_over_keeps_its_end():
    prog = load(TWO_CHOICES)
    st = prog.new_game(1)
    prog.apply(st, 0)
    prog.apply(st, 0)
    assert st.status == DONE
    prog.stop_step(st)
    assert st.status == DONE and st.error is None


def test_a_batch_plays_a_game_again_when_the_exception_lands_after_it(monkeypatch):
    sess = GameSession.open(DEAL_N)
    spec = BatchSpec(str(DEAL_N), {}, ("R", "R"), 5, transcript_level="decisions")
    want = play_run(sess, spec, 0)
    real, landed = session.GameSession.play, []

    def play_then_land(self, *args, **kwargs):  # the game is played, then the exception lands once
        rec = real(self, *args, **kwargs)
        if not landed:
            landed.append(rec)
            raise watchdog.StepTimeExceeded
        return rec

    monkeypatch.setattr(session.GameSession, "play", play_then_land)
    got = play_run(sess, spec, 0)
    assert landed and got.end_reason == want.end_reason == "normal"
    assert (got.scores, got.decision_rows, got.transcript) == (want.scores, want.decision_rows, want.transcript)


def test_recycle_run_with_workers_loses_no_game_to_a_landing(monkeypatch, capsys):
    clean = main(["run", str(DEAL_N), "-n", "6", "--seed", "2", "--json", "-q"])
    want = json.loads(capsys.readouterr().out)
    real = batch._play_run
    landed: set[int] = set()

    def land_once_per_process(sess, spec, r):  # the first game of each (forked) worker meets a landing
        if os.getpid() not in landed:
            landed.add(os.getpid())
            raise watchdog.StepTimeExceeded
        return real(sess, spec, r)

    monkeypatch.setattr(batch, "_play_run", land_once_per_process)
    code = main(["run", str(DEAL_N), "-n", "6", "--seed", "2", "--jobs", "2", "--json", "-q"])
    out, err = capsys.readouterr()
    assert code == clean == 0 and "Traceback" not in err, err
    got = json.loads(out)
    assert got["games"] == 6 and got["errors"] == 0
    timing = ("elapsed_s", "games_per_s", "decisions_per_s")
    assert {k: v for k, v in got.items() if k not in timing} == {k: v for k, v in want.items() if k not in timing}


def test_an_exception_raised_as_the_step_ends_is_taken_back(monkeypatch):
    # the watchdog looks (the thread runs the step), raises, and looks again: the thread has left the step
    # meanwhile, so the exception, still pending, is cleared instead of landing outside the step
    step = sys._getframe()  # stands for the step frame the watchdog saw
    looks = iter([step, None])
    monkeypatch.setattr(watchdog, "_outermost_step", lambda frame: next(looks))
    landed: list[bool] = []
    started = threading.Event()

    def between_steps() -> None:
        started.set()
        try:
            end = time.monotonic() + 0.5
            while time.monotonic() < end:
                time.sleep(0.001)  # lets the exception land, were it pending, at each wake
        except watchdog.StepTimeExceeded:
            landed.append(True)

    t = threading.Thread(target=between_steps)
    old = sys.getswitchinterval()
    t.start()
    started.wait()
    sys.setswitchinterval(5.0)  # this thread keeps the interpreter from the raise to the second look
    try:
        fired = watchdog._fire(t.ident, step)
    finally:
        sys.setswitchinterval(old)
    t.join()
    assert fired is False and landed == []
