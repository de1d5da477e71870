"""Scores past a float's range (about 1.8e308) in the summaries: exact integer statistics, never a crash.

A game's own integers stay below 10^300 (docs/limits.md), but the summaries take records from
anywhere (hand-made positions, the Python API): a mean, spread or quantile that a float cannot
hold is computed exactly on integers and rounded down.
"""
from __future__ import annotations

import json

from recycle.analysis.stats import describe, mean, quantile, sd
from recycle.analysis.summary import analyze, format_summary
from recycle.analysis.tally import RunTally
from recycle.engine.algorithms import competition_ranks
from recycle.run.records import RunRecord

HUGE = 10**400


def rec(run: int, scores: list[int]) -> RunRecord:
    ranks, shares = competition_ranks(scores, "max")
    return RunRecord(run=run, game_seed=run, end_reason="normal", decisions=2, forced=0, turns=2, moves=2,
                     scores=scores, ranks=ranks, shares=shares,
                     winners=[s for s, r in enumerate(ranks) if r == 1], error=None,
                     decision_rows=[(0, 2, 0), (1, 2, 0)], lineup=["R", "R"], ms=1.0)


def test_statistics_of_huge_integers_are_exact():
    assert mean([HUGE, HUGE + 2]) == HUGE + 1
    assert mean([-HUGE, -HUGE - 3]) == -HUGE - 2  # rounded down
    assert sd([HUGE, HUGE + 2, HUGE + 4]) == 2
    assert quantile([HUGE, HUGE + 4], 0.5) == HUGE + 2
    assert quantile([0, HUGE], 0.25) == HUGE // 4
    d = describe([HUGE, 0, HUGE])
    assert d["max"] == HUGE and d["median"] == HUGE and d["min"] == 0


def test_batch_summaries_with_huge_scores():
    records = [rec(i, [HUGE * (i + 1), i]) for i in range(4)]
    st = analyze(records, game="Huge", direction="max", players=2, seed=1, lineup="RR")
    score = st["seats"][0]["score"]
    assert score["mean"]["value"] == HUGE * 10 // 4 and score["max"] == HUGE * 4
    assert score["mean"]["lo"] is None  # no bootstrap interval past a float's range
    assert "Huge" in format_summary(st)
    json.dumps(st)  # integers, not infinities: still strict JSON
    s = RunTally.of(records, 2).summary("Huge", "huge.gdl", ["R", "R"], 1, 1.0)
    assert s["mean_scores"] == [HUGE * 10 // 4, 1.5]
