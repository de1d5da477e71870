"""Time limits per decision (`move_time`, `--move-time`) and the long-run estimate (recycle.run.timing).

No assertion depends on how fast the machine is: the searches are timed by a fake clock
(montecarlo.clock replaced) that advances a fixed step per reading, so the number of
iterations a limit allows is known; the one test on the real clock only bounds the
elapsed time by a generous factor.
"""
from __future__ import annotations

import json

import pytest

from recycle.cli import main
from recycle.cli.main import build_parser
from recycle.compiler import compile_game
from recycle.lang import parse_game
from recycle.players import montecarlo, registry
from recycle.run import timing
from recycle.run.session import GameSession
from support import REPO

HIGH_CARD = REPO / "tests" / "fixtures" / "games" / "high_card.gdl"


def first_decision():
    prog = compile_game(parse_game(HIGH_CARD.read_text("utf-8")))
    return prog, prog.new_game(5)


class FakeClock:
    """Advances `step` seconds each time it is read."""

    def __init__(self, step: float):
        self.t = 100.0
        self.step = step

    def __call__(self) -> float:
        self.t += self.step
        return self.t


@pytest.mark.parametrize("code,most", [("F", 12), ("M", 12), ("P", 20)])
def test_a_search_stops_at_its_time_limit(monkeypatch, code, most):
    monkeypatch.setattr(montecarlo, "clock", FakeClock(0.01))
    prog, st = first_decision()
    pl = registry.make(code, move_time=0.1)  # no budget: unbounded, the clock alone stops it
    assert pl.budget == montecarlo.UNBOUNDED
    pl.start(prog, 0, 1)
    i = pl.choose(prog, st)
    assert 0 <= i < len(st.opts)
    # 0.1 s at 0.01 s per reading: about ten iterations (P: at least one in each of its eight worlds)
    assert 1 <= pl.last_iterations <= most
    assert pl.last_elapsed == pytest.approx(0.1, abs=0.1)


@pytest.mark.parametrize("code", ["F", "M", "P"])
def test_the_budget_still_applies_under_a_time_limit(monkeypatch, code):
    monkeypatch.setattr(montecarlo, "clock", lambda: 5.0)  # time stands still: only the budget stops
    prog, st = first_decision()
    pl = registry.make(code, budget=30, move_time=0.1)
    pl.start(prog, 0, 1)
    pl.choose(prog, st)
    assert pl.last_iterations == 30  # rounds for F, iterations for M and P


@pytest.mark.parametrize("code", ["F", "M", "P"])
def test_a_tiny_limit_still_searches_once_and_takes_the_nine(code):
    prog, st = first_decision()
    pl = registry.make(code, move_time=1e-9)
    pl.start(prog, 0, 1)
    i = pl.choose(prog, st)
    assert pl.last_iterations >= 1 and 0 <= i < len(st.opts)


@pytest.mark.parametrize("code", ["F", "M", "P"])
def test_real_clock_elapsed_is_bounded(code):
    prog, st = first_decision()
    pl = registry.make(code, move_time=0.05)
    pl.start(prog, 0, 1)
    i = pl.choose(prog, st)
    assert pl.last_iterations >= 1
    assert pl.last_elapsed < 0.05 * 20  # generous: one iteration of this game takes microseconds
    assert st.opts[i].ops  # a real option


@pytest.mark.parametrize("code", ["F", "M", "P"])
def test_given_time_the_search_finds_the_nine(monkeypatch, code):
    monkeypatch.setattr(montecarlo, "clock", FakeClock(0.001))  # 0.1 s: about a hundred iterations
    prog, st = first_decision()
    pl = registry.make(code, move_time=0.1)
    pl.start(prog, 0, 1)
    i = pl.choose(prog, st)
    assert pl.last_iterations >= 50
    assert "NINE" in " ".join(prog.describe(st, st.opts[i], viewer=0))  # the winning card


def test_bad_time_limits_are_refused(capsys):
    for bad in ("0", "-1", "soon", "nan"):
        rc = main(["run", str(HIGH_CARD), "-n", "1", "--move-time", bad])
        err = capsys.readouterr().err
        assert rc == 2 and "--move-time" in err, (bad, err)
    with pytest.raises(ValueError):
        registry.make("M", move_time=0)


def test_run_stats_play_and_tournament_take_the_options():
    p = build_parser()
    for argv in (["run", "G"], ["stats", "G"], ["play", "G"], ["tournament", "G"]):
        a = p.parse_args([*argv, "--move-time", "0.25", "--ai-budget", "7"])
        assert a.move_time == 0.25 and a.ai_budget == 7


def test_run_with_move_time_records_it(tmp_path, capsys):
    rc = main(["run", str(HIGH_CARD), "-n", "2", "--seed", "1", "--players", "M,R", "--move-time", "0.01",
               "--out", str(tmp_path), "-q"])
    assert rc == 0, capsys.readouterr().err
    head = json.loads((tmp_path / "transcripts" / "run-0000.jsonl").read_text().splitlines()[0])
    assert head["params"]["move_time"] == 0.01
    assert head["params"]["ai_budget"] == {"M": None}  # no budget: the time limit decides


# ---------------------------------------------------------------- the long-run estimate


def test_decision_cost_rules():
    assert timing.decision_cost("R", 100, None, 0.01, 4.0) == 0.0
    assert timing.decision_cost("M", None, 0.2, 0.01, 4.0) == 0.2  # the time limit alone
    assert timing.decision_cost("M", 100, None, 0.01, 4.0) == pytest.approx(100 * 0.01 / 2)
    assert timing.decision_cost("F", 10, None, 0.01, 4.0) == pytest.approx(10 * 4.0 * 0.01 / 2)  # per option
    assert timing.decision_cost("M", 100, 0.1, 0.01, 4.0) == pytest.approx(0.1)  # the smaller bound
    assert timing.decision_cost("P", None, None, 0.01, 1.0) == pytest.approx(200 * 0.01 / 2)  # default budget


def test_estimate_only_for_ai_lineups_and_scales_with_games():
    sess = GameSession.open(HIGH_CARD)
    assert timing.estimate(sess, [["R", "R"]] * 10, None, None) is None
    one = timing.estimate(sess, [["M", "R"]] * 10, None, 0.5)
    assert one is not None and one["decisions"] == 2
    # 10 games x 2 decisions x half the seats searching x 0.5 s, plus the random games themselves
    assert one["seconds"] == pytest.approx(10 * (one["probe_s"] + 2 * 0.5 * 0.5))
    two = timing.estimate(sess, [["M", "R"]] * 10, None, 0.5, jobs=2)
    assert two["seconds"] < one["seconds"]
    # each distinct lineup with its number of games, as a batch gives them: a trillion games cost one entry
    many = timing.estimate(sess, {("M", "R"): 10**12, ("R", "R"): 10**12}, None, 0.5)
    assert many is not None and many["seconds"] > 10**11


def test_run_warns_before_a_long_batch(capsys, monkeypatch):
    monkeypatch.setattr(timing, "WARN_SECONDS", 0.0)
    rc = main(["run", str(HIGH_CARD), "-n", "2", "--seed", "1", "--players", "M,R", "--ai-budget", "5", "-q"])
    err = capsys.readouterr().err
    assert rc == 0 and "warning:" in err and "may take about" in err and "--ai-budget" in err
    rc = main(["run", str(HIGH_CARD), "-n", "2", "--seed", "1", "-q"])  # no AI players: no warning
    assert rc == 0 and "warning" not in capsys.readouterr().err


def test_play_with_a_time_limit(capsys):
    rc = main(["play", str(HIGH_CARD), "--players", "M,R", "--move-time", "0.01", "--seed", "2"])
    out = capsys.readouterr().out
    assert rc == 0 and "(M) chose" in out and "Game over after 2 decisions" in out
