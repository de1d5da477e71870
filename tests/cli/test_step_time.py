"""--max-step-time on the commands that play (engine/watchdog.py): a runaway step is the game's run-time
error of class `limit`, the batch goes on, with one worker or several; `recycle play` says it in one
message; replay reproduces it; a bad value is refused in one line.  Limits of 0.3 CPU seconds."""
from __future__ import annotations

import csv
import io
import json
import os
import signal
import sys

import pytest

from recycle.cli import main
from recycle.engine import watchdog
from recycle.run import batch
from support import REPO
from support.games import CHOOSE_RUNAWAY, runaway_game

LIMIT = "0.3"
DEAL_N = str(REPO / "tests" / "fixtures" / "games" / "deal_n.gdl")
STOPPED = f"the rules ran for more than {LIMIT} s of CPU time"


@pytest.fixture
def choose_runaway(tmp_path):
    p = tmp_path / "choose_runaway.gdl"
    p.write_text(CHOOSE_RUNAWAY)
    return p


def run_json(capsys, *argv) -> dict:
    code = main(["run", *map(str, argv), "--json", "-q"])
    out, err = capsys.readouterr()
    summary = json.loads(out)
    assert code == (1 if summary["errors"] else 0), err
    assert "Traceback" not in err and "internal error" not in err
    return summary


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_run_counts_runaway_games_as_errors_and_goes_on(capsys, choose_runaway, tmp_path, jobs):
    out = tmp_path / "out"
    summary = run_json(capsys, choose_runaway, "-n", 6, "--seed", 3, "--jobs", jobs, "--max-step-time", LIMIT,
                       "--out", out)
    assert summary["games"] == 6
    assert summary["errors"] >= 1 and summary["completed"] >= 1  # the games after a runaway were played
    assert summary["errors"] + summary["completed"] == 6
    first = summary["first_errors"][0]["error"]
    assert "error[limit]" in first and STOPPED in first and "--max-step-time" in first
    with (out / "games.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["run"] for r in rows] == [str(i) for i in range(6)]
    assert sum(r["end_reason"] == "error" for r in rows) == summary["errors"]
    ends = [json.loads(p.read_text().splitlines()[-1]) for p in sorted((out / "transcripts").glob("*.jsonl"))]
    stopped = [e for e in ends if e["reason"] == "error"]
    assert len(stopped) == summary["errors"] and all(STOPPED in e["error"] for e in stopped)
    assert watchdog.max_step_time() == watchdog.DEFAULT_MAX_STEP_TIME  # the command put the default back


def test_same_results_with_one_worker_or_two(capsys, choose_runaway):
    one = run_json(capsys, choose_runaway, "-n", 4, "--seed", 5, "--max-step-time", LIMIT)
    two = run_json(capsys, choose_runaway, "-n", 4, "--seed", 5, "--jobs", 2, "--max-step-time", LIMIT)
    assert (one["errors"], one["completed"], one["first_errors"]) == (two["errors"], two["completed"],
                                                                      two["first_errors"])


def test_replay_reproduces_the_report(capsys, choose_runaway, tmp_path):
    out = tmp_path / "out"
    summary = run_json(capsys, choose_runaway, "-n", 4, "--seed", 3, "--max-step-time", LIMIT, "--out", out)
    assert summary["errors"] >= 1
    run = summary["first_errors"][0]["run"]
    path = out / "transcripts" / f"run-{run:04d}.jsonl"
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert lines[0]["params"]["max_step_time"] == float(LIMIT)  # recorded: replay applies it
    assert main(["replay", str(path), "--game", str(choose_runaway), "--json"]) == 0
    got, _err = capsys.readouterr()
    end = [json.loads(x) for x in got.splitlines()][-1]
    assert end["type"] == "end" and end["error"] == lines[-1]["error"]
    assert STOPPED in end["error"]


def test_a_transcript_without_the_limit_has_the_usual_header(capsys, tmp_path):
    game = tmp_path / "g.gdl"
    game.write_text(runaway_game("(inc (game sto X) 1)"))
    out = tmp_path / "out"
    run_json(capsys, game, "-n", 1, "--seed", 1, "--out", out)
    head = json.loads((out / "transcripts" / "run-0000.jsonl").read_text().splitlines()[0])
    assert "max_step_time" not in head["params"]


def test_play_with_a_human_says_it_in_one_message(monkeypatch, capsys, choose_runaway):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))  # p1 chooses the option that runs away
    code = main(["play", str(choose_runaway), "--players", "H,R", "--seed", "1", "--max-step-time", LIMIT])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "The game stopped with an error after 1 decisions" in out
    assert STOPPED in out and "Traceback" not in out + err


@pytest.mark.parametrize("command", ["run", "stats", "play", "flow", "tournament"])
@pytest.mark.parametrize("bad", ["0", "-1", "nan", "inf", "1e9", "soon"])
def test_a_bad_limit_is_refused_in_one_line(capsys, choose_runaway, command, bad):
    code = main([command, str(choose_runaway), f"--max-step-time={bad}"])
    _out, err = capsys.readouterr()
    assert code == 2
    assert "--max-step-time" in err and len(err.strip().splitlines()) == 1
    assert err.count("--max-step-time") == 1 and "a step's CPU time" in err  # the flag named once


def test_a_tournament_goes_on_past_runaway_games(capsys, choose_runaway):
    code = main(["tournament", str(choose_runaway), "--players", "R,F", "-n", "2", "--seed", "4", "--ai-budget", "1",
                 "--jobs", "2", "--max-step-time", LIMIT, "--json", "-q"])
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err
    assert code in (0, 1), err
    standings = json.loads(out)["standings"]
    assert sorted(r["player"] for r in standings) == ["F", "R"]


def test_resume_needs_the_same_step_time_limit(capsys, monkeypatch, tmp_path):
    out = tmp_path / "out"
    real = batch.play_run

    def interrupted(sess, spec, r):  # SIGINT while run 2 is played: the first two games are kept
        if r == 2:
            os.kill(os.getpid(), signal.SIGINT)
        return real(sess, spec, r)

    monkeypatch.setattr(batch, "play_run", interrupted)
    argv = ["run", DEAL_N, "-n", "6", "--seed", "1", "--out", str(out), "-q"]
    assert main([*argv, "--max-step-time", LIMIT]) == 130
    monkeypatch.undo()
    capsys.readouterr()
    for other in ([], ["--max-step-time", "0.5"]):
        assert main([*argv, *other, "--resume"]) == 2
        err = capsys.readouterr().err
        assert "different --max-step-time" in err and "Traceback" not in err
    assert main([*argv, "--max-step-time", LIMIT, "--resume"]) == 0


def test_the_watchdogs_exception_outside_a_step_is_one_line(capsys, monkeypatch, choose_runaway):
    # the rare race: a step ends just as the watchdog raises; the command still says it in one line
    def late(args):
        raise watchdog.StepTimeExceeded

    monkeypatch.setattr("recycle.cli.run.cmd_run", late)
    code = main(["run", str(choose_runaway), "-n", "1"])
    err = capsys.readouterr().err
    assert code == 1 and err.startswith("error: the rules ran for more than") and len(err.splitlines()) == 1
