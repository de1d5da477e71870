"""Honest statistics (issue 17): tie rate, scoring direction, estimated branching of sampled decisions,
fairness with ties accounted for, warnings when most games end void, drawn or at a limit, and an
interval on every rate, in `recycle run`, `recycle stats` and summary.json."""
from __future__ import annotations

import pytest

from recycle.analysis.heuristics import heuristics
from recycle.analysis.runs import branching_values, direction_text, outcome_block, outcome_of
from recycle.analysis.summary import analyze, format_summary, summary_document
from recycle.analysis.tally import RunTally
from recycle.cli import main
from recycle.engine.algorithms import competition_ranks
from recycle.run.batch import BatchSpec, run_batch
from recycle.run.records import RunRecord
from support import REPO

RUMMYKRUSS = str(REPO / "games" / "rummykruss.gdl")


def rec(run, scores, reason="normal", bs=(2, 3), sampled=(), direction="max"):
    ranks = shares = None
    winners: list = []
    if scores is not None:
        ranks, shares = competition_ranks(scores, direction)
        winners = [s for s, r in enumerate(ranks) if r == 1]
    return RunRecord(run=run, game_seed=run, end_reason=reason, decisions=len(bs), forced=0, turns=len(bs),
                     moves=len(bs), scores=scores, ranks=ranks, shares=shares, winners=winners, error=None,
                     decision_rows=[(i % 2, b, 0) for i, b in enumerate(bs)], lineup=["R", "R"],
                     sampled=[list(x) for x in sampled])


def is_interval(obj) -> bool:
    return set(obj) == {"value", "lo", "hi", "n"} and obj["lo"] <= obj["value"] <= obj["hi"]


# ---------------------------------------------------------------- hand-made records


def test_outcome_kinds():
    assert outcome_of(rec(0, [3, 1])) == "decided"
    assert outcome_of(rec(0, [2, 2])) == "draw"
    assert outcome_of(rec(0, [0, 0])) == "void"  # every score 0: nobody did anything
    assert outcome_of(rec(0, [5, 1], reason="decision_limit")) == "limit"
    assert outcome_of(rec(0, None, reason="error")) is None
    three = RunRecord(run=0, game_seed=0, end_reason="normal", decisions=0, forced=0, turns=0, moves=0,
                      scores=[4, 4, 1], ranks=[1, 1, 3], shares=[0.5, 0.5, 0], winners=[0, 1], error=None,
                      decision_rows=[], lineup=["R"] * 3)
    assert outcome_of(three) == "tie"  # two of three share first: a tie, not a draw


def test_warnings_when_most_games_end_void_drawn_or_at_a_limit():
    void = outcome_block([rec(i, [0, 0]) for i in range(6)] + [rec(9, [1, 0])])
    assert void["void"]["count"] == 6 and is_interval(void["void"]["rate"])
    assert len(void["warnings"]) == 1 and "most games end void" in void["warnings"][0]
    drawn = outcome_block([rec(i, [2, 2]) for i in range(3)] + [rec(9, [1, 0])])
    assert "most games end in a draw" in drawn["warnings"][0] and "3 of 4" in drawn["warnings"][0]
    limited = outcome_block([rec(i, [1, 0], reason="step_limit") for i in range(3)])
    assert "most games stop at a limit" in limited["warnings"][0]
    mixed = outcome_block([rec(0, [0, 0]), rec(1, [2, 2]), rec(2, [1, 0], reason="decision_limit"),
                           rec(3, [1, 0])])
    assert mixed["warnings"] == ["most games end void, in a draw or at a limit: 3 of 4 (75%); the win rates and "
                                 "fairness say little about such a batch"]
    assert outcome_block([rec(i, [i % 2, 1 - i % 2]) for i in range(4)])["warnings"] == []  # all decided: none


def test_sampled_decisions_count_by_their_estimate():
    r = rec(0, [1, 0], bs=(1, 3, 1), sampled=[(0, 500.0)])
    assert branching_values(r) == [500.0, 3, 1]
    st = analyze([r, rec(1, [0, 1], bs=(2, 2))], game="T", direction="max", players=2, seed=1, lineup="RR")
    br = st["branching"]
    assert br["estimated"] is True and br["sampled_decisions"] == 1
    assert br["mean"] == pytest.approx((500 + 3 + 1 + 2 + 2) / 5) and br["max"] == 500
    assert br["listed_mean"] == pytest.approx((1 + 3 + 1 + 2 + 2) / 5) and br["listed_max"] == 3
    assert "Knuth" in br["method"]
    assert "estimated: 1 of 5 decisions sample" in format_summary(st)
    plain = analyze([rec(1, [0, 1], bs=(2, 2))], game="T", direction="max", players=2, seed=1, lineup="RR")
    assert plain["branching"]["estimated"] is False and plain["branching"]["method"] is None


def test_direction_is_shown():
    assert direction_text("min") == "lower score wins" and direction_text("max") == "higher score wins"
    st = analyze([rec(0, [1, 3], direction="min")], game="T", direction="min", players=2, seed=1, lineup="RR")
    assert st["direction_text"] == "lower score wins"
    assert "lower score wins" in format_summary(st).splitlines()[0]
    s = RunTally.of([rec(0, [1, 3], direction="min")], 2).summary("T", "t.gdl", "RR", 1, 1.0, "min")
    assert s["direction"] == "min" and s["direction_text"] == "lower score wins"


def test_every_rate_has_an_interval():
    records = [rec(0, [2, 2]), rec(1, [3, 1]), rec(2, [0, 0]), rec(3, [1, 0], reason="decision_limit")]
    st = analyze(records, game="T", direction="max", players=2, seed=1, lineup="RR")
    assert is_interval(st["ties"]["first"]["rate"]) and is_interval(st["ties"]["any"]["rate"])
    for k in ("decided", "tie", "draw", "void", "limit"):
        assert is_interval(st["outcomes"][k]["rate"])
    assert all(is_interval(s["win_rate"]) for s in st["seats"])
    s = RunTally.of(records, 2).summary("T", "t.gdl", "RR", 1, 1.0, "max")
    # the draw and the void game (both on 0) share first: 2 of the 3 completed games
    assert s["ties"]["count"] == 2 and s["ties"]["rate"]["n"] == 3 and is_interval(s["ties"]["rate"])
    assert all(is_interval(s["outcomes"][k]["rate"]) for k in ("decided", "tie", "draw", "void", "limit"))
    assert s["decided"]["games"] == 1 and [w["value"] for w in s["decided"]["wins_by_seat"]] == [1.0, 0.0]
    assert all(is_interval(w) for w in s["decided"]["wins_by_seat"])


def test_fairness_says_how_many_games_were_tied():
    records = [rec(i, [2, 2]) for i in range(8)] + [rec(8, [0, 1]), rec(9, [0, 1])]
    fair = next(e for e in heuristics(records, players=2, seed=1, has_shuffle_and_choice=True)["heuristics"]
                if e["name"] == "Fairness")
    assert fair["value"] == pytest.approx(0.8)  # p1's shares 8 * 0.5 of 10 = 0.4 against 0.5: looks nearly fair
    assert fair["tied"] == 8 and fair["decided"] == {"n": 2, "p1_wins": 0.0, "value": 0.0}
    assert "8 of 10 games tied" in fair["note"] and "over the 2 decided games p1 wins 0.000" in fair["note"]


# ---------------------------------------------------------------- Rummykruss, random players


@pytest.fixture(scope="module")
def rummykruss():
    return run_batch(BatchSpec(RUMMYKRUSS, {}, ("R", "R"), 1), 30, jobs=1)


def test_rummykruss_statistics_are_honest(rummykruss):
    st = analyze(rummykruss, game="rummykruss", direction="max", players=2, seed=1, lineup="RR")
    # the random player samples every turn (one atomic block): branching is an estimate, far above 1
    br = st["branching"]
    assert br["estimated"] is True and br["sampled_decisions"] == br["points"] > 0
    assert br["listed_max"] == 1 and br["median"] > 1 and br["mean"] > 1 and br["forced_share"] == 0
    # random rummykruss games nearly all end with both players on the same score: a draw
    ties = st["ties"]["first"]
    assert ties["count"] == st["outcomes"]["draw"]["count"] > 15 and is_interval(ties["rate"])
    assert any(w.startswith("most games end in a draw") for w in st["warnings"])
    text = format_summary(st)
    assert "higher score wins" in text and "Warning: most games end in a draw" in text
    assert "Ties for first" in text and "estimated:" in text
    doc = summary_document(st, game_sha256="x", players=2, lineup="RR", rotate=False, seed=1, interpreter="t",
                           params={})
    assert doc["outcomes"] == st["outcomes"] and doc["warnings"] == st["warnings"]
    assert doc["direction_text"] == "higher score wins" and doc["branching"]["estimated"] is True


def test_rummykruss_run_table(capsys):
    assert main(["run", RUMMYKRUSS, "-n", "30", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "estimated: median" in out and "decisions sampled" in out
    assert "higher score wins" in out and "ties for first" in out
    assert "warning: most games end in a draw" in " ".join(out.split())


def test_the_branching_plot_draws_estimates_on_a_log_scale():
    from visualize.plots import branching_figure

    fig = branching_figure([rec(0, [1, 0], bs=(1, 1, 2), sampled=[(0, 1000.0), (1, 10.0)])], game="T", seed=1)
    ax = fig.axes[0]
    assert ax.get_ylabel().startswith("log10 Branching Factor")
    assert ax.get_ylim()[1] >= 3  # the estimate 1000 is at 3
    plain = branching_figure([rec(0, [1, 0], bs=(1, 3))], game="T", seed=1)
    assert plain.axes[0].get_ylabel() == "Branching Factor"
