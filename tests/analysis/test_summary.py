"""Batch statistics and heuristics (flow-and-analytics §3.2-§3.4, §3.6, §3.8, §4) on hand-made records.

Every expectation below is computed by hand from the tiny record sets defined here.
"""
from __future__ import annotations

import csv
import json
import math
import tracemalloc

import numpy as np
import pytest

from recycle.analysis.heuristics import HEURISTICS, NOT_APPLICABLE_AI, format_heuristics, heuristics, write_heuristics
from recycle.analysis.runs import length_runs, outcome_runs
from recycle.analysis.stats import bootstrap_apply, wilson
from recycle.analysis.summary import (
    analyze,
    branching_by_index,
    format_summary,
    kernel_smooth,
    summary_document,
    write_branching_csv,
    write_seats_csv,
)
from recycle.engine.algorithms import competition_ranks, derive
from recycle.run.records import RunRecord


def rec(run, bs, reason="normal", scores=None, lineup=("R", "R"), direction="max", players=None, forced=None):
    """A RunRecord with branching factors bs (deciders rotate), and scores ranked by competition rank."""
    n = players or len(lineup)
    rows = [(i % n, b, 0) for i, b in enumerate(bs)]
    ranks = shares = None
    winners = []
    if scores is not None:
        ranks, shares = competition_ranks(scores, direction)
        winners = [s for s, r in enumerate(ranks) if r == 1]
    return RunRecord(run=run, game_seed=1000 + run, end_reason=reason, decisions=len(bs),
                     forced=sum(1 for b in bs if b == 1) if forced is None else forced, turns=len(bs),
                     moves=2 * len(bs), scores=scores, ranks=ranks, shares=shares, winners=winners,
                     error="boom" if reason == "error" else None, decision_rows=rows, lineup=list(lineup), ms=2.0)


# ---------------------------------------------------------------- §3.8 statistics


def test_wilson_interval_holds_the_rate_at_zero_and_one():
    """At 0 or n successes rounding once put the upper bound below 1 (4 of 4), and the plot's error bar
    became negative, which matplotlib refuses."""
    for n in range(1, 400):
        for x in (0, n):
            lo, hi = wilson(x, n)
            assert lo <= x / n <= hi


def test_wilson_known_values():
    assert wilson(5, 10) == pytest.approx((0.236593, 0.763407), abs=1e-6)
    assert wilson(0, 10) == pytest.approx((0.0, 0.277533), abs=1e-6)
    assert wilson(10, 10) == pytest.approx((0.722467, 1.0), abs=1e-6)
    assert wilson(2.5, 4) == pytest.approx((0.219427, 0.908101), abs=1e-6)   # fractional successes
    assert wilson(1, 0) == (None, None)


def test_bootstrap_apply_is_seeded_and_needs_two_units():
    xs = [1.0, 2.0, 3.0, 10.0]
    a = np.array(xs)
    f = lambda idx: a[idx].mean(axis=1)  # noqa: E731
    assert bootstrap_apply(4, 7, f) == bootstrap_apply(4, 7, f)
    lo, hi = bootstrap_apply(4, 7, f)
    assert 1.0 <= lo <= 4.0 <= hi <= 10.0
    assert bootstrap_apply(1, 7, f) == (None, None)


def test_kernel_smoother_on_tiny_data():
    yhat, se = kernel_smooth([1, 2, 3], [1, 2, 6], [2.0], 1.0)
    # weights e^-1/2, 1, e^-1/2: yhat = (0.6065*1 + 2 + 0.6065*6) / 2.2131
    assert yhat[0] == pytest.approx(2.822206, abs=1e-6)
    assert se[0] == pytest.approx(1.070498, abs=1e-6)
    yhat, se = kernel_smooth([1, 1], [4, 4], [1.0, 50.0], 1.0)
    assert yhat[0] == 4.0 and se[0] == 0.0


# ---------------------------------------------------------------- §3.3 length and branching

LEN_RECORDS = [rec(0, [4, 2, 1], scores=[1, 0]), rec(1, [2, 2], reason="decision_limit", scores=[0, 1]),
               rec(2, [9, 9, 9, 9], reason="error")]


def test_run_selection():
    assert [r.run for r in length_runs(LEN_RECORDS)] == [0, 1]
    assert [r.run for r in outcome_runs(LEN_RECORDS)] == [0]
    assert [r.run for r in outcome_runs(LEN_RECORDS, include_limited=True)] == [0, 1]


def test_branching_by_index():
    rows = branching_by_index(LEN_RECORDS)
    assert [r["decision"] for r in rows] == [1, 2, 3]
    assert rows[0] == {"decision": 1, "n_runs": 2, "mean": 3.0, "sd": pytest.approx(math.sqrt(2)), "median": 3.0,
                       "min": 2, "max": 4}
    assert rows[1] == {"decision": 2, "n_runs": 2, "mean": 2.0, "sd": 0.0, "median": 2.0, "min": 2, "max": 2}
    assert rows[2] == {"decision": 3, "n_runs": 1, "mean": 1.0, "sd": None, "median": 1.0, "min": 1, "max": 1}


def test_length_and_branching_statistics():
    st = analyze(LEN_RECORDS, game="Toy", direction="max", players=2, seed=42, lineup="RR")
    assert st["runs"] == {"requested": 3, "normal": 1, "decision_limit": 1, "step_limit": 0, "option_limit": 0, "error": 1,
                          "used": 1, "used_length": 2, "include_limited": False}
    assert st["errors"] == [{"message": "boom", "run": 2, "game_seed": 1002}]
    le = st["length"]
    assert le["n"] == 2 and le["mean"]["value"] == 2.5 and le["mean"]["n"] == 2
    assert le["mean"]["lo"] >= 2 and le["mean"]["hi"] <= 3
    assert (le["min"], le["median"], le["max"], le["limited"]) == (2, 2.5, 3, 1)
    assert le["sd"] == pytest.approx(math.sqrt(0.5))
    assert le["forced_share"] == pytest.approx((1 / 3 + 0) / 2)
    br = st["branching"]
    assert br["points"] == 5 and br["mean"] == pytest.approx(2.2) and br["median"] == 2 and br["max"] == 4
    assert br["forced_share"] == pytest.approx(0.2)
    assert br["run_mean"]["value"] == pytest.approx((7 / 3 + 2) / 2)
    assert br["log10_tree"]["value"] == pytest.approx((math.log10(8) + math.log10(4)) / 2)
    # run 0: b = 4, 2, 1 at k = 1, 2, 3 -> slope -1.5; run 1: flat -> 0
    assert br["slope"]["value"] == pytest.approx(-0.75)
    assert br["max_index"] == 3


def test_one_run_has_no_intervals():
    st = analyze([rec(0, [3, 3], scores=[1, 2])], game="Toy", direction="max", players=2, seed=1, lineup="RR")
    assert st["length"]["sd"] is None
    assert st["length"]["mean"] == {"value": 2.0, "lo": None, "hi": None, "n": 1}


# ---------------------------------------------------------------- §3.4 outcomes

OUT = [rec(0, [2, 2, 2], scores=[3, 1]), rec(1, [2, 2, 2, 2], scores=[2, 2]), rec(2, [2] * 5, scores=[0, 5]),
       rec(3, [2] * 6, scores=[4, 0]), rec(4, [2] * 7, reason="step_limit", scores=[9, 0]),
       rec(5, [2], reason="error")]


def test_win_rates_by_seat():
    st = analyze(OUT, game="Toy", direction="max", players=2, seed=3, lineup="RR")
    p1, p2 = st["seats"]
    assert p1["win_rate"]["value"] == 0.625 and p1["win_rate"]["n"] == 4
    assert (p1["win_rate"]["lo"], p1["win_rate"]["hi"]) == pytest.approx(wilson(2.5, 4))
    assert p2["win_rate"]["value"] == 0.375
    assert (p1["outright"], p1["shared"], p2["outright"], p2["shared"]) == (2, 1, 1, 1)
    assert p1["ranks"] == [3, 1] and p2["ranks"] == [2, 2]
    assert p1["fair"] == 0.5 and p1["kind"] == "R" and p1["label"] == "p1"
    assert st["kinds"] == []          # one kind, no rotation: no per-kind rows
    with_limits = analyze(OUT, game="Toy", direction="max", players=2, seed=3, lineup="RR", include_limited=True)
    assert with_limits["seats"][0]["win_rate"]["value"] == pytest.approx(3.5 / 5)


def test_score_distribution():
    st = analyze(OUT, game="Toy", direction="max", players=2, seed=3, lineup="RR")
    sc = st["seats"][0]["score"]                       # p1 scored 3, 2, 0, 4
    assert sc["mean"]["value"] == 2.25 and sc["mean"]["n"] == 4
    assert sc["sd"] == pytest.approx(math.sqrt(8.75 / 3))
    assert (sc["min"], sc["q1"], sc["median"], sc["q3"], sc["max"]) == (0, 1.5, 2.5, 3.25, 4)
    assert 0 <= sc["mean"]["lo"] <= 2.25 <= sc["mean"]["hi"] <= 4


def test_ties_and_teams():
    st = analyze(OUT, game="Toy", direction="max", players=2, seed=3, lineup="RR", teams=[[0], [1]])
    t = st["ties"]
    assert t["first"]["count"] == 1 and t["first"]["rate"]["value"] == 0.25
    assert (t["first"]["rate"]["lo"], t["first"]["rate"]["hi"]) == pytest.approx(wilson(1, 4))
    assert t["any"]["count"] == 1 and t["any"]["rate"]["value"] == 0.25
    assert t["any"]["rate"]["lo"] < 0.25 < t["any"]["rate"]["hi"]
    team0 = st["teams"][0]
    assert team0["members"] == [0] and team0["win_rate"]["value"] == 0.625
    assert analyze(OUT, game="Toy", direction="max", players=2, seed=3, lineup="RR")["teams"] is None


def test_rotated_kinds_and_order():
    lineup = "AR"
    records = [rec(i, [2, 2], scores=s, lineup=[lineup[(k - i) % 2] for k in range(2)])
               for i, s in enumerate([[3, 1], [2, 2], [0, 5], [4, 0]])]
    st = analyze(records, game="Toy", direction="max", players=2, seed=3, lineup=lineup, rotate=True)
    assert st["seats"][0]["kind"] is None                    # the kind at a seat varies under rotation
    kinds = {k["kind"]: k for k in st["kinds"]}
    # A sat at seat 0 in runs 0, 2 (shares 1, 0) and at seat 1 in runs 1, 3 (shares 0.5, 0)
    a = kinds["A"]
    assert a["n"] == 4 and a["win_rate"]["value"] == 0.375
    assert a["order"]["value"] == pytest.approx(-0.25)
    lo, hi = wilson(1.5, 4)
    assert (a["order"]["lo"], a["order"]["hi"]) == pytest.approx(((lo - 0.5) / 0.5, (hi - 0.5) / 0.5))
    assert kinds["R"]["order"] is None and kinds["R"]["win_rate"]["value"] == 0.625


def test_one_player_game():
    records = [rec(i, [3, 2], scores=[s], lineup=["R"]) for i, s in enumerate([5, 7, 9])]
    st = analyze(records, game="Solo", direction="max", players=1, seed=3, lineup="R")
    seat = st["seats"][0]
    assert seat["win_rate"] is None and seat["fair"] is None and seat["wins"] is None
    assert seat["score"]["mean"]["value"] == 7
    h = heuristics(records, players=1, seed=3, has_shuffle_and_choice=True)
    fair = h["heuristics"][0]
    assert fair["name"] == "Fairness" and fair["value"] is None and fair["status"] == "not_applicable"
    assert "not applicable" in format_summary(st)


# ---------------------------------------------------------------- §4 heuristics

H_RECORDS = [rec(i, [2] * n, scores=s) for i, (n, s) in enumerate([(3, [3, 1]), (4, [2, 2]), (5, [0, 5]), (6, [4, 0])])]


def test_heuristics_from_random_batch():
    h = heuristics(H_RECORDS, players=2, seed=9, has_shuffle_and_choice=True)
    by = {e["name"]: e for e in h["heuristics"]}
    assert list(by) == list(HEURISTICS)
    # p1 wins 0.625 > 1/2: (1 - 0.625) / (1 - 0.5)
    assert by["Fairness"]["value"] == pytest.approx(0.75) and by["Fairness"]["status"] == "active"
    assert by["Fairness"]["weight"] == 0.5 and by["Fairness"]["weighted"] == pytest.approx(0.375)
    assert by["Fairness"]["n_runs"] == 4 and by["Fairness"]["lo"] <= 0.75 <= by["Fairness"]["hi"]
    # 1 - (|0.625 - 0.5| + |0.375 - 0.5|) / (2 (1 - 0.5))
    assert by["SeatFairness"]["value"] == pytest.approx(0.75) and by["SeatFairness"]["status"] == "extra"
    assert by["NoTies"]["value"] == 0.75
    assert (by["NoTies"]["lo"], by["NoTies"]["hi"]) == pytest.approx(wilson(3, 4))
    assert by["GameLength"]["value"] == pytest.approx(4.5 / 5)      # mean L 4.5 below Lmin 5
    for name in ("MeaningfulMoves", "Drama", "Decisiveness", "Coolness", "Security", "Clarity", "Stability", "Order"):
        assert by[name]["status"] == "not_applicable" and by[name]["value"] is None
        assert by[name]["note"] == NOT_APPLICABLE_AI
    assert h["reasonable"] is True and h["gate_reasons"] == []
    assert h["total"] == pytest.approx(0.375) and h["total_normalized"] == pytest.approx(0.375 / 2.15)


def test_game_length_bounds():
    long = [rec(i, [2] * 200, scores=[i % 2, 1 - i % 2]) for i in range(4)]
    by = {e["name"]: e for e in heuristics(long, players=2, seed=1, has_shuffle_and_choice=True)["heuristics"]}
    assert by["GameLength"]["value"] == pytest.approx(0.5)
    mid = {e["name"]: e for e in heuristics(long, players=2, seed=1, has_shuffle_and_choice=True,
                                            lmax=300)["heuristics"]}
    assert mid["GameLength"]["value"] == 1.0


def test_reasonable_gate():
    h = heuristics(OUT, players=2, seed=9, has_shuffle_and_choice=False)
    assert h["reasonable"] is False and h["total"] == 0.0 and h["total_normalized"] == 0.0
    assert h["total_ungated"] == pytest.approx(0.375)
    assert h["gate_reasons"] == ["the game has no shuffle or no choice", "1 run ended with an error",
                                 "1 run stopped at a decision or step limit"]
    h2 = heuristics(H_RECORDS, players=2, seed=9, has_shuffle_and_choice=True, other_batches=[[OUT[5]]])
    assert h2["reasonable"] is False and h2["gate_reasons"] == ["1 run ended with an error"]


def test_heuristics_are_reproducible_and_named_streams():
    a = heuristics(H_RECORDS, players=2, seed=9, has_shuffle_and_choice=True)
    b = heuristics(H_RECORDS, players=2, seed=9, has_shuffle_and_choice=True)
    assert a == b
    assert derive(9, "bootstrap", "heuristic.Fairness") != derive(9, "bootstrap", "heuristic.SeatFairness")


def test_heuristics_report_and_files(tmp_path):
    h = heuristics(H_RECORDS, players=2, seed=9, has_shuffle_and_choice=True)
    text = format_heuristics(h)
    lines = text.splitlines()
    assert lines[0].startswith("Fairness        0.750  [") and "w=0.50  → 0.375" in lines[0]
    assert lines[-2] == "Total 0.375 / 2.15 (0.174)"
    assert lines[-1].startswith("Reasonable: yes")
    files = write_heuristics(tmp_path, h, game="Toy", players=2)
    assert files == ["heuristics.csv", "heuristics.json"]
    rows = list(csv.reader((tmp_path / "heuristics.csv").open(encoding="utf-8")))
    assert rows[0] == ["game", "players", "lineup", "run", "name", "value", "lo", "hi", "weight", "weighted",
                       "n_runs", "status", "note"]
    assert rows[1][:6] == ["Toy", "2", "RR", "", "Fairness", "0.75"]
    assert rows[2][2] == "" and rows[2][5] == "" and rows[2][11] == "not_applicable"   # MeaningfulMoves reads M
    assert json.loads((tmp_path / "heuristics.json").read_text())["total"] == pytest.approx(0.375)


# ---------------------------------------------------------------- §3.6 files and summary


def test_branching_csv(tmp_path):
    path = write_branching_csv(tmp_path / "branching_by_index.csv", "Toy", 2, ["R", "R"],
                               branching_by_index(LEN_RECORDS))
    rows = list(csv.reader(path.open(encoding="utf-8")))
    assert rows[0] == ["game", "players", "lineup", "run", "decision", "n_runs", "mean", "sd", "median", "min", "max"]
    assert rows[1] == ["Toy", "2", "RR", "", "1", "2", "3.0", repr(math.sqrt(2)), "3.0", "2", "4"]
    assert rows[3] == ["Toy", "2", "RR", "", "3", "1", "1.0", "", "1.0", "1", "1"]


def test_seats_csv(tmp_path):
    records = [rec(i, [2, 2], scores=s, lineup=["AR"[(k - i) % 2] for k in range(2)])
               for i, s in enumerate([[3, 1], [2, 2], [0, 5], [4, 0]])]
    st = analyze(records, game="Toy", direction="max", players=2, seed=3, lineup="AR", rotate=True)
    path = write_seats_csv(tmp_path / "seats.csv", "Toy", 2, "AR", st)
    rows = list(csv.reader(path.open(encoding="utf-8")))
    assert rows[0] == ["game", "players", "lineup", "run", "seat", "kind", "n", "win_rate", "win_lo", "win_hi",
                       "outright", "shared", "score_mean", "score_lo", "score_hi", "score_sd", "score_min",
                       "score_q1", "score_median", "score_q3", "score_max"]
    assert [r[4] for r in rows[1:]] == ["0", "1", "", ""]
    assert [r[5] for r in rows[1:]] == ["", "", "A", "R"]
    assert rows[1][7] == "0.625" and rows[3][7] == "0.375"
    assert all(r[3] == "" for r in rows[1:])


def test_summary_document_shape():
    st = analyze(OUT, game="Toy", direction="max", players=2, seed=3, lineup="RR")
    doc = summary_document(st, game_sha256="ab", players=2, lineup="RR", rotate=False, seed=3,
                           interpreter="0.1.0", params={"decision_limit": 2000}, information={"categories": []},
                           timing={"wall_seconds": 1.0}, files=["games.csv"])
    assert list(doc) == ["format", "version", "game", "game_sha256", "players", "lineup", "rotate", "seed",
                         "interpreter", "params", "direction", "direction_text", "runs", "errors", "length",
                         "branching", "seats", "kinds", "ties", "outcomes", "warnings", "teams", "information",
                         "timing", "files"]
    assert doc["format"] == "recycle-analytics" and doc["version"] == 1
    json.dumps(doc)                                  # JSON-serialisable (no numpy scalars)
    text = format_summary(st, {"categories": ["Hidden"]})
    assert "Toy: 6 runs (4 normal, 1 at a limit, 1 errors; 4 used for outcomes; higher score wins)" in text
    assert "p1    R     0.625 [" in text and "Information: Hidden" in text


def test_kernel_smoother_is_the_formula_over_every_point():
    """Grouping the points by k gives the §3.7 sums over every point (with many points at each k)."""
    rng = np.random.default_rng(3)
    k = rng.integers(1, 30, 2000).astype(float)
    b = rng.integers(1, 12, 2000).astype(float) + (k > 20) * 40.0  # a jump, so groups differ widely
    grid = np.linspace(1, 29, 57)
    w = np.exp(-0.5 * ((k[None, :] - grid[:, None]) / 2.5) ** 2)
    want_y = (w * b).sum(axis=1) / w.sum(axis=1)
    want_se = np.sqrt((w ** 2 * (b[None, :] - want_y[:, None]) ** 2).sum(axis=1)) / w.sum(axis=1)
    yhat, se = kernel_smooth(k, b, grid, 2.5)
    assert np.allclose(yhat, want_y, rtol=1e-12, atol=0) and np.allclose(se, want_se, rtol=1e-9, atol=1e-15)


def test_kernel_smoother_memory_does_not_grow_with_grid_times_points():
    """A million points (a 20,000-game Hearts batch) on the 200-point grid: a weight per grid point and
    point would take 1.6 GB; grouped by k the smoother stays within a few copies of its input."""
    k = np.tile(np.arange(1, 53, dtype=float), 20_000)
    b = (k % 13) + 1
    tracemalloc.start()
    try:
        yhat, se = kernel_smooth(k, b, np.linspace(1, 52, 200), 3.12)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 * k.nbytes  # k.nbytes is 8 MB
    assert np.all(np.isfinite(yhat)) and np.all(se >= 0)
