"""The step-time watchdog over a decision built step by step (players.stepwise): the walks that list a
person's next actions, or rebuild a built option in a replay, run the rules outside Program.run; rules
that run away there end the game with the same `limit` error as a runaway step, never a hung terminal.

The game's one decision is an atomic block over 5000 numbers whose guard for 4999 alone runs away
(10^10 additions).  The engine's options are a sample (its enumeration budget is cut to 10 paths), which
never meets 4999; the walk listing a person's first action meets every number, and so the runaway."""
from __future__ import annotations

import io
import sys
import time

import pytest

from recycle.cli import main
from recycle.compiler import driver
from recycle.compiler.items import SampledOptions
from recycle.engine import watchdog
from recycle.engine.play import play_game
from recycle.engine.state import ERROR
from recycle.players.human import HumanPlayer
from recycle.players.stepwise import WalkedSteps, rebuild
from recycle.run.session import GameSession
from recycle.run.transcript import dumps
from support.games import NESTED_FOLD, load, make_game

LIMIT = 0.3
STOPPED = f"the rules ran for more than {LIMIT:g} s of CPU time"
RUNAWAY_OPTION = make_game(declares="(declare 0 'X) (declare 0 'Y)", items=(
    f"(atomic (choice ((any (range 1..5000) 'I (do ((if (== 'I 4999) {NESTED_FOLD}) (set (game sto Y) 'I))))))"
    " (require (> (game sto Y) 0)))"))


def sampled():
    prog = load(RUNAWAY_OPTION)
    prog.atomic_max_paths = 10
    with watchdog.step_time_limit(LIMIT):
        st = prog.new_game(1)
    assert type(st.opts) is SampledOptions and st.error is None  # the engine's own building is quick
    return prog, st


def test_the_walk_listing_next_actions_is_timed():
    prog, st = sampled()
    t0 = time.process_time()
    with pytest.raises(watchdog.StepTimeExceeded), watchdog.step_time_limit(LIMIT):
        WalkedSteps(prog, st, 0).steps(())
    assert time.process_time() - t0 < 20 * LIMIT


def test_a_human_building_a_runaway_option_ends_the_game_with_the_limit_error():
    prog, _st = sampled()
    out = io.StringIO()
    with watchdog.step_time_limit(LIMIT):
        res = play_game(prog, 1, [HumanPlayer(io.StringIO(""), out), HumanPlayer(io.StringIO(""), out)])
    assert "build yours one action at a time" in out.getvalue()
    assert res.outcome == "error" and res.n_decisions == 0
    assert res.error is not None and res.error.cls == "limit" and STOPPED in res.error.message
    assert res.error.position.startswith("<string>:5:"), res.error.position  # the decision being built


def test_recycle_play_says_it_as_it_says_a_runaway_step(monkeypatch, capsys, tmp_path):
    game = tmp_path / "runaway_option.gdl"
    game.write_text(RUNAWAY_OPTION)
    monkeypatch.setattr(driver, "ATOMIC_MAX_PATHS", 10)  # the decision is sampled: built step by step
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code = main(["play", str(game), "--players", "H,R", "--seed", "1", "--max-step-time", str(LIMIT)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "The game stopped with an error after 0 decisions" in out and STOPPED in out
    assert "Traceback" not in out + err and err == ""


def test_rebuilding_a_built_option_is_timed():
    prog, st = sampled()
    with pytest.raises(watchdog.StepTimeExceeded), watchdog.step_time_limit(LIMIT):
        rebuild(prog, st, [4998])  # the option of 4999, as a transcript's `steps` name it


def test_replaying_a_transcript_that_rebuilds_a_runaway_option_is_one_message(monkeypatch, capsys, tmp_path):
    game = tmp_path / "runaway_option.gdl"
    game.write_text(RUNAWAY_OPTION)
    monkeypatch.setattr(driver, "ATOMIC_MAX_PATHS", 10)
    sess = GameSession.open(game)
    head = sess.header(7, ["H", "R"], 0, None, "decisions", 2000, 10000)
    head["params"]["max_step_time"] = LIMIT
    with watchdog.step_time_limit(LIMIT):
        st = sess.prog.new_game(7, sampling=[False, True])
    n = len(st.opts)
    lines = [head, {"type": "decision", "n": 1, "seat": 0, "kind": "H", "options": n + 1, "choice": n,
                    "steps": [4998]},
             {"type": "end", "reason": "normal", "decisions": 1, "direction": "max", "scores": [0, 0],
              "ranks": [1, 1], "win_share": [0.5, 0.5], "error": None}]
    t = tmp_path / "t.jsonl"
    t.write_text("".join(dumps(x) + "\n" for x in lines))
    code = main(["replay", str(t), "--game", str(game), "--json"])
    out, err = capsys.readouterr()
    assert code != 0 and "Traceback" not in out + err and "internal error" not in err
    assert len(err.strip().splitlines()) == 1 and "error" in err and "after 0 decisions" in err


def test_an_ordinary_built_option_is_untouched_by_a_small_limit():
    prog = load(RUNAWAY_OPTION.replace("(== 'I 4999)", "(== 'I 5001)"))  # no number runs away
    prog.atomic_max_paths = 10
    with watchdog.step_time_limit(LIMIT):
        st = prog.new_game(1)
        assert rebuild(prog, st, [4]) == len(st.opts) - 1  # the option of 5, built again
        text = prog.describe(st, st.opts[-1])
        prog.apply(st, len(st.opts) - 1)
    assert len(text) == 1 and text[0].startswith("set ") and text[0].endswith(" 5"), text
    assert st.status != ERROR
