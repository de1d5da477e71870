"""bench/differential.py: its statistics and its table, on synthetic records (the harness needs mono: not run here)."""
from __future__ import annotations

import importlib.util
import json
import math
import random

import pytest

from support import REPO

pytest.importorskip("scipy")

_spec = importlib.util.spec_from_file_location("differential", REPO / "bench" / "differential.py")
diff = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(diff)


def rec(decisions, choosers=None, scores=(1, 0), maximise=True, end="normal"):
    choosers = list(choosers) if choosers is not None else [i % 2 for i in range(decisions)]
    return {"run": 0, "end": end, "decisions": decisions, "choosers": choosers, "options": [2] * decisions,
            "scores": list(scores), "max": maximise}


def test_turns_count_runs_of_one_seat():
    assert diff.turns_of([]) == 0
    assert diff.turns_of([0, 0, 1, 1, 1, 0, 2]) == 4
    assert diff.turns_of([3]) == 1


def test_winner_is_the_unique_best_seat_else_tie():
    assert diff.winner_of([3, 5, 1], True) == "1"
    assert diff.winner_of([3, 5, 1], False) == "2"
    assert diff.winner_of([5, 5, 1], True) == "tie"
    assert diff.winner_of([], True) == "none"


def test_holm_matches_the_step_down_rule():
    # sorted p: .01 (x3 = .03), .02 (x2 = .04), .04 (x1 = .04, kept monotone); NaN is not counted
    assert diff.holm([0.04, 0.01, math.nan, 0.02]) == pytest.approx([0.04, 0.03, math.nan, 0.04], nan_ok=True)
    assert diff.holm([0.5, 0.9]) == [1.0, 1.0]


def test_mann_whitney_sees_a_shift_and_not_noise():
    rng = random.Random(1)
    a = [rng.randint(50, 70) for _ in range(300)]
    b = [rng.randint(50, 70) for _ in range(300)]
    shifted = [x + 8 for x in b]
    assert diff.mann_whitney(a, b) > 0.01
    assert diff.mann_whitney(a, shifted) < 1e-6
    assert diff.mann_whitney([52] * 10, [52] * 7) == 1.0  # one value on both sides: no difference
    assert math.isnan(diff.mann_whitney([], [1]))


def test_chi_square_on_winner_categories():
    assert diff.chi_square(["0"] * 50 + ["1"] * 50, ["0"] * 48 + ["1"] * 52) > 0.5
    assert diff.chi_square(["0"] * 80 + ["1"] * 20, ["0"] * 20 + ["1"] * 80) < 1e-6
    assert diff.chi_square(["tie"] * 5, ["tie"] * 9) == 1.0


def test_compare_and_adjust_flag_only_the_real_difference():
    rng = random.Random(7)
    cs = [rec(rng.randint(40, 60)) for _ in range(200)]
    same = [rec(rng.randint(40, 60)) for _ in range(200)]
    longer = [rec(rng.randint(55, 75)) for _ in range(200)]
    rows = {"a/Same2": diff.compare(cs, same), "a/Longer2": diff.compare(cs, longer)}
    diff.adjust(rows)
    assert rows["a/Same2"]["significant"] == []
    # every chooser alternates, so turns = decisions: both metrics differ, the winner does not
    assert rows["a/Longer2"]["significant"] == ["decisions", "turns"]
    assert rows["a/Longer2"]["decisions_ours"] > rows["a/Longer2"]["decisions_cardstock"] + 10
    assert rows["a/Same2"]["wins_cardstock"] == {"0": 1.0, "tie": 0.0}


def test_compare_leaves_out_games_that_ended_in_an_error():
    row = diff.compare([rec(10), rec(10), rec(3, end="error")], [rec(10)])
    assert row["decisions_cardstock"] == 10 and row["ends_cardstock"] == {"error": 1, "normal": 2}
    assert row["n_cardstock"] == 3 and row["n_ours"] == 1


def test_render_marks_significant_rows_and_explains_them():
    rng = random.Random(3)
    cs = [rec(rng.randint(40, 60)) for _ in range(200)]
    rows = {"cardstock/Far2": diff.compare(cs, [rec(rng.randint(70, 90)) for _ in range(200)]),
            "cardstock/NinetyEight2": diff.compare(cs, [rec(rng.randint(40, 60)) for _ in range(200)])}
    diff.adjust(rows)
    data = json.loads(json.dumps({"games": 200, "max_decisions": 2000, "rows": rows,
                                  "skipped": {"cardstock/Broken2": "CardStock does not run it: boom"}}))
    page = diff.render(data, {"cardstock/Far2": "an intended difference."})
    assert "**Summary:** 2 games compared, 1 with a significant difference (cardstock/Far2); 1 corpus files" in page
    far = next(line for line in page.splitlines() if line.startswith("| `cardstock/Far2`"))
    near = next(line for line in page.splitlines() if line.startswith("| `cardstock/NinetyEight2`"))
    assert "**" in far and "**" not in near
    assert "- `cardstock/Far2` (decisions, turns): an intended difference." in page
    assert "- `cardstock/Broken2`: CardStock does not run it: boom" in page
    assert "not yet explained" in diff.render(data, {})
    # a lead of the issue that is not significant says so, with its figures
    lead = next(line for line in page.splitlines() if line.startswith("- `cardstock/NinetyEight2`: the screen saw"))
    assert "With N = 200:" in lead and "not significant (p = " in lead and "after)" in lead
    # fewer games than asked for (a time budget ran out) are named in the summary
    data["rows"]["cardstock/Far2"]["n_cardstock"] = 150
    assert "`cardstock/Far2` at N = 150." in diff.render(data, {})
