"""AI estimates (flow-and-analytics §3.5), lead.csv / spread.csv (§3.6), the AI heuristics of §4 on
hand-made estimates (every expectation worked out by hand below), batches that record estimates and
rotate, and `recycle stats --heuristics` end to end.
"""
from __future__ import annotations

import csv
import json
import math

import pytest

from recycle.analysis.heuristics import (
    ai_heuristics,
    heuristics,
    lead_rows,
    order_heuristic,
    spread_rows,
    write_estimate_csvs,
)
from recycle.cli import main
from recycle.engine.algorithms import competition_ranks
from recycle.players import estimates as E
from recycle.run.batch import BatchSpec, play_run
from recycle.run.records import RunRecord
from recycle.run.session import GameSession
from support import CORPUS, REPO

BLOCK_RUMMY = REPO / "games" / "block_rummy.gdl"


def est(decision, decider, chosen, ranks, value=None):
    return {"decision": decision, "decider": decider, "options": len(ranks), "chosen": chosen,
            "value": value if value is not None else [0.0] * len(ranks), "ranks": ranks}


def rec(run, scores, estimates, lineup=("M", "M")):
    ranks, shares = competition_ranks(scores, "max")
    return RunRecord(run=run, game_seed=run, end_reason="normal", decisions=len(estimates), forced=0, turns=0,
                     moves=0, scores=scores, ranks=ranks, shares=shares,
                     winners=[s for s, r in enumerate(ranks) if r == 1], error=None, decision_rows=[],
                     lineup=list(lineup), estimates=estimates)


# run 0: p1 wins.  Self-view of p1: 0.5, 1.0, 0.9; of p2: 0.2.
RUN0 = rec(0, [1, 0], [
    est(1, 0, 0, [[1.5, 1.5], [2.0, 1.0]], value=[1.0, 0.0]),  # e_0 = 0.5, 0.0; lead [0.5, 0.5]; spread_rank 0.5
    est(2, 1, 2, [[1.0, 2.0], [1.0, 2.0], [1.2, 1.8]]),       # e_1 = 0, 0, 0.2; lead [0.8, 0.2]; spread 0.2
    est(3, 0, 0, [[1.0, 2.0]]),                               # forced; lead [1, 0]
    est(4, 0, 1, [[1.5, 1.5], [1.1, 1.9]]),                   # e_0 = 0.5, 0.9; lead [0.9, 0.1]; spread 0.4
])
# run 1: p2 wins.  Self-view of p2: 0.0, 0.9.
RUN1 = rec(1, [0, 3], [
    est(1, 1, 0, [[1.0, 2.0], [1.5, 1.5]]),                   # e_1 = 0, 0.5; lead [1, 0]; spread 0.5
    est(2, 1, 1, [[1.6, 1.4], [1.9, 1.1]]),                   # e_1 = 0.6, 0.9; lead [0.1, 0.9]; spread 0.3
])


def test_estimate_functions():
    e = RUN0.estimates[0]
    assert E.rank_estimate(1, 4) == 1 and E.rank_estimate(4, 4) == 0 and E.rank_estimate(1, 1) == 1
    assert E.lead(e, 2) == [0.5, 0.5]
    assert E.spread(e, 2) == {"spread_score": 1.0, "spread_rank": 0.5, "forced": False}
    assert E.spread(RUN0.estimates[2], 2)["forced"] is True
    assert E.self_view(RUN0.estimates, 0, 2) == pytest.approx([0.5, 1.0, 0.9])
    assert E.clarity(RUN0.estimates[1], 2) == 1.0 and E.clarity(RUN0.estimates[2], 2) is None
    # three options, two within 0.1 x spread of the best: 1 - (2 - 1)/(3 - 1)
    assert E.clarity(est(1, 0, 0, [[1.0, 2.0], [1.02, 1.98], [2.0, 1.0]]), 2) == 0.5
    assert E.competition_order([0.5, 0.9, 0.5]) == [2, 1, 2]


def test_ai_heuristics_known_values():
    by = ai_heuristics([RUN0, RUN1], players=2, seed=1, bootstrap=50)
    v = {k: e["value"] for k, e in by.items()}
    # MeaningfulMoves: run 0 mean(0.5, 0.2, 0.4), run 1 mean(0.5, 0.3)
    assert v["MeaningfulMoves"] == pytest.approx((1.1 / 3 + 0.4) / 2)
    # Drama (tau = 1/2): run 0's winner never below tau: 0; run 1's winner at 0.0 once: sqrt(0.5)
    assert v["Drama"] == pytest.approx(math.sqrt(0.5) / 2)
    # Decisiveness: run 0 j = 2 of L = 3 -> 1 - 1/3; run 1 j = 2 of 2 -> 1
    assert v["Decisiveness"] == pytest.approx((2 / 3 + 1) / 2)
    # Security: run 0 none below tau -> 1; run 1 one of two -> 0.5
    assert v["Security"] == pytest.approx(0.75)
    # Coolness: run 0 one drop (1.0 -> 0.9) in 2 pairs; run 1 no drop in 1 pair
    assert v["Coolness"] == pytest.approx((0.5 + 1.0) / 2)
    # Clarity: every non-forced decision has one clear best option
    assert v["Clarity"] == 1.0
    # Stability: run 0 orders [1,1] [1,2] [1,2] [1,2] -> changes 1/2, 0, 0; run 1 [1,2] [2,1] -> 1
    assert v["Stability"] == pytest.approx(((1 - 1 / 6) + 0.0) / 2)
    assert all(e["status"] in ("active", "extra") and e["n_runs"] == 2 for e in by.values())
    assert by["MeaningfulMoves"]["lo"] <= v["MeaningfulMoves"] <= by["MeaningfulMoves"]["hi"]


def test_ai_heuristics_not_applicable():
    plain = rec(0, [1, 0], [])
    plain.estimates = None
    assert {e["status"] for e in ai_heuristics([plain], players=2, seed=1).values()} == {"not_applicable"}
    assert ai_heuristics([RUN0], players=1, seed=1)["Drama"]["note"] == "one seat"


def test_order_and_full_heuristics():
    a = [rec(i, [1, 0] if i % 4 else [0, 1], [], lineup=("M", "R") if i % 2 == 0 else ("R", "M"))
         for i in range(8)]
    # M sits in seat 0 of the even runs and wins runs 2 and 6; in the odd runs seat 0 (R) wins: 2 of 8
    o = order_heuristic(a, "M", players=2)
    assert o["value"] == pytest.approx((2 / 8 - 0.5) / 0.5) and o["status"] == "extra"
    randoms = [rec(i, [i % 2, 1 - i % 2], [], lineup=("R", "R")) for i in range(4)]
    h = heuristics(randoms, players=2, seed=3, has_shuffle_and_choice=True, bootstrap=50,
                   ai_records=[RUN0, RUN1], vs_records=a, ai_code="M")
    by = {e["name"]: e for e in h["heuristics"]}
    assert by["Fairness"]["value"] == 1.0
    active = ["Fairness", "MeaningfulMoves", "Drama", "Decisiveness", "Coolness"]
    assert all(by[k]["status"] == "active" for k in active)
    total = sum(by[k]["weight"] * by[k]["value"] for k in active)
    assert h["total"] == pytest.approx(total) and h["reasonable"] is True


def test_lead_and_spread_rows(tmp_path):
    rows = lead_rows([RUN0], 2)
    assert rows[0] == [None, 2, "MM", 0, 1, 0, 0, 1.5, 0.5, 1] and rows[3][4:] == [2, 1, 1, 1.8, pytest.approx(0.2), 2]
    sp = spread_rows([RUN0], 2)
    assert sp[2][4:] == [3, 0, 1, 0.0, 0.0, True]
    assert write_estimate_csvs(tmp_path, "Toy", 2, [RUN0, RUN1]) == ["lead.csv", "spread.csv"]
    lead = list(csv.reader((tmp_path / "lead.csv").open()))
    assert lead[0] == ["game", "players", "lineup", "run", "decision", "decider", "seat", "rank_est", "lead",
                       "final_rank"]
    assert len(lead) == 1 + 2 * 6 and lead[1][:4] == ["Toy", "2", "MM", "0"]
    spread = list(csv.reader((tmp_path / "spread.csv").open()))
    assert spread[0][4:] == ["decision", "decider", "options", "spread_score", "spread_rank", "forced"]
    assert spread[3][-1] == "true"


# ---------------------------------------------------------------- batches


def test_batches_rotate_and_record_estimates():
    spec = BatchSpec(str(BLOCK_RUMMY), {}, ("F", "R"), 5, ai_budget=1, estimates=True, rotate=True,
                     transcript_level="decisions")
    sess = GameSession.open(BLOCK_RUMMY)
    r0, r1 = play_run(sess, spec, 0), play_run(sess, spec, 1)
    assert r0.lineup == ["F", "R"] and r1.lineup == ["R", "F"]
    for r, seat in ((r0, 0), (r1, 1)):
        assert r.estimates and all(e["decider"] == seat for e in r.estimates)
        assert [e["decision"] for e in r.estimates] == [i + 1 for i, (p, _, _) in enumerate(r.decision_rows)
                                                        if p == seat]
        assert json.loads(r.transcript[0])["params"]["ai_budget"] == {"F": 1}
    # the same run again is the same game (the AI draws from its seat stream only)
    again = play_run(sess, spec, 1)
    assert again.decision_rows == r1.decision_rows and again.estimates == r1.estimates
    # without estimates the records carry none; random batches are unchanged
    plain = play_run(sess, BatchSpec(str(BLOCK_RUMMY), {}, ("R", "R"), 5), 0)
    assert plain.estimates is None


# ---------------------------------------------------------------- recycle stats --heuristics


@pytest.mark.needs_corpus
def test_stats_heuristics_end_to_end(tmp_path, capsys):
    out = tmp_path / "h"
    code = main(["stats", str(CORPUS / "cardstock" / "KuhnPoker2.rcy"), "--heuristics", "-n", "8", "--seed", "4",
                 "--ai", "M", "--ai-budget", "12", "--bootstrap", "40", "--plot-format", "svg",
                 "--flow-format", "svg", "--out", str(out)])
    cap = capsys.readouterr()
    assert code == 0, cap.err
    for name in ("heuristics.json", "heuristics.csv", "evaluation.json", "random/summary.json", "random/flow.dot",
                 "ai-vs-random/lead.csv", "ai-vs-random/spread.csv", "ai/lead.csv", "ai/spread.csv",
                 "ai/summary.json", "ai/games.csv"):
        assert (out / name).is_file(), name
    h = json.loads((out / "heuristics.json").read_text())
    by = {e["name"]: e for e in h["heuristics"]}
    for name in ("Fairness", "MeaningfulMoves", "Drama", "Decisiveness", "Order", "Security", "Clarity",
                 "Stability"):
        assert by[name]["value"] is not None and by[name]["status"] != "not_applicable", name
    assert by["Coolness"]["status"] in ("active", "not_applicable")  # only runs where a seat decides twice
    assert h["ai"] == {"kind": "M", "budget": 12}
    ev = json.loads((out / "evaluation.json").read_text())
    assert ev["format"] == "recycle-evaluation" and set(ev["batches"]) == {"random", "ai-vs-random", "ai"}
    assert ev["batches"]["ai-vs-random"]["rotate"] is True and ev["batches"]["ai"]["lineup"] == "MM"
    games = list(csv.DictReader((out / "ai-vs-random/games.csv").open()))
    assert [g["lineup"] for g in games[:2]] == ["MR", "RM"]
    rows = (out / "heuristics.csv").read_text().splitlines()
    assert any(",MM,,MeaningfulMoves," in r for r in rows) and any(",MR rotated,,Order," in r for r in rows)
    assert "MeaningfulMoves" in cap.out and "Total" in cap.out and "== ai (MM) ==" in cap.out


def test_stats_heuristics_usage_errors(tmp_path, capsys):
    for extra in (["--players", "RR"], ["--ai", "R"], ["--ai", "nobody"], ["--rotate"]):
        code = main(["stats", str(BLOCK_RUMMY), "--heuristics", "-n", "1", "--out", str(tmp_path / "x"), *extra])
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1, (extra, err)
    code = main(["stats", str(BLOCK_RUMMY), "-n", "1", "--ai", "F", "--out", str(tmp_path / "y")])
    assert code == 2 and "--ai chooses the AI of --heuristics" in capsys.readouterr().err
