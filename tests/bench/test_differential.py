"""bench/differential.py: its statistics and its table, on synthetic records (the harness needs mono: not run here)."""
from __future__ import annotations

import importlib.util
import json
import math
import os
import random
import shutil
from pathlib import Path

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


# ---------------------------------------------------------------- games from outside the corpus (--dir, paths)

TINY = """;; a tiny game: each player draws once, the higher card wins
(game (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (A, B, C)))))
 (do ((set (game points V) (((RANK : A) 1) ((RANK : B) 2) ((RANK : C) 3))) (shuffle (game iloc STOCK))))
 (stage player (end (== (size (game iloc STOCK)) 1))
  (choice ((move (top (game iloc STOCK)) (top ((current player) vloc GOT))))))
 (scoring max (sum ((current player) vloc GOT) using (game points V))))
"""


def test_named_files_takes_a_folders_games_and_single_paths(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "B2.rcy").write_text(TINY)
    (mine / "A2.gdl").write_text(TINY)
    (mine / "notes.txt").write_text("not a game")
    other = tmp_path / "other"
    other.mkdir()
    (other / "C2.rcy").write_text(TINY)
    named = diff.named_files([mine], [other / "C2.rcy"])
    assert list(named) == ["mine/A2", "mine/B2", "other/C2"]
    assert named["other/C2"] == other / "C2.rcy"
    # the same file twice is one game; two files of one name are an error
    assert list(diff.named_files([mine], [mine / "B2.rcy"])) == ["mine/A2", "mine/B2"]
    (other / "B2.rcy").write_text(TINY)
    twin = tmp_path / "x" / "mine"
    twin.mkdir(parents=True)
    (twin / "B2.rcy").write_text(TINY)
    with pytest.raises(ValueError, match="two games named mine/B2"):
        diff.named_files([mine], [twin / "B2.rcy"])


@pytest.mark.parametrize("dirs, paths, message", [
    (["nowhere"], [], "--dir .*nowhere: not a folder"),
    (["empty"], [], "--dir .*empty: no .rcy or .gdl file in it"),
    ([], ["empty/notes.txt"], "notes.txt: not a .rcy or .gdl file"),
    ([], ["missing.rcy"], "missing.rcy: not a .rcy or .gdl file"),
])
def test_named_files_refuses_what_is_not_a_game(tmp_path, dirs, paths, message):
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "notes.txt").write_text("x")
    with pytest.raises(ValueError, match=message):
        diff.named_files([tmp_path / d for d in dirs], [tmp_path / p for p in paths])


def test_bad_folder_is_one_clear_message_and_exit_2(tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        diff.main(["--dir", str(tmp_path / "nowhere"), "--render-only"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "nowhere: not a folder" in err and "Traceback" not in err
    with pytest.raises(SystemExit):
        diff.main(["--out", str(tmp_path / "page")])  # --out belongs to --dir / paths only
    assert "--out names the page of --dir or game paths" in capsys.readouterr().err


def _novel_data():
    rng = random.Random(5)
    cs = [rec(rng.randint(40, 60)) for _ in range(200)]
    rows = {"mine/Far2": diff.compare(cs, [rec(rng.randint(70, 90)) for _ in range(200)]),
            "mine/Near2": diff.compare(cs, [rec(rng.randint(40, 60)) for _ in range(200)]),
            # a name of issue 14's leads: the novel page has no such section
            "cardstock/NinetyEight2": diff.compare(cs, [rec(rng.randint(40, 60)) for _ in range(200)])}
    diff.adjust(rows)
    return json.loads(json.dumps({"games": 200, "max_decisions": 2000, "rows": rows,
                                  "skipped": {"mine/Odd2": "CardStock does not run it: boom"}}))


def test_render_of_games_outside_the_corpus_is_a_page_of_its_own():
    data = _novel_data()
    page = diff.render(data, {"mine/Far2": "an intended difference (row 26).", "mine/Odd2": "Row 17."}, corpus=False)
    assert page.startswith("# Differential test against CardStock: games outside the corpus\n")
    assert "game given to it (not from the corpus)" in page
    assert "**Summary:** 3 games compared, 1 with a significant difference (mine/Far2); 1 novel files" in page
    assert "- `mine/Far2` (decisions, turns): an intended difference (row 26)." in page
    assert "## Novel files not compared" in page and "- `mine/Odd2`: CardStock does not run it: boom Row 17." in page
    assert "leads of issue 14" not in page and "valet/" not in page
    assert "## Found while writing the games" in page and diff.NOVEL_NOTES[0] in page
    # the corpus page keeps its own title and sections
    corpus_page = diff.render(data, {})
    assert corpus_page.startswith("# Differential test against CardStock\n") and "leads of issue 14" in corpus_page
    assert "Found while writing" not in corpus_page
    # the corpus page keeps its notes of files not compared as they were (docs/differential.md stays byte-identical)
    assert "- `mine/Odd2`: CardStock does not run it: boom\n" in diff.render(data, {"mine/Odd2": "Row 17."})


def test_render_only_writes_the_page_of_a_folder_from_its_json(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "Far2.rcy").write_text(TINY)
    out = tmp_path / "page"
    out.with_suffix(".json").write_text(json.dumps(_novel_data()))
    assert diff.main(["--dir", str(mine), "--out", str(out), "--render-only"]) == 0
    page = out.with_suffix(".md").read_text()
    assert "games outside the corpus" in page and "| `mine/Far2` |" in page


_BUILD = Path(os.environ.get("TMPDIR", "/tmp")) / "cardstock-build" / "bin" / "CardStock.dll"


def test_a_folder_is_compared_in_both_interpreters(tmp_path):
    if (shutil.which("mono") is None or shutil.which("mcs") is None or not _BUILD.exists()
            or not (diff.CARDSTOCK_TOOLS / "build.sh").exists()):
        pytest.skip(f"needs mono, mcs, a CardStock build at {_BUILD} and its harness "
                    f"{diff.CARDSTOCK_TOOLS / 'build.sh'} (the shared folder beside the repository)")
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "Tiny2.rcy").write_text(TINY)
    out = tmp_path / "page"
    assert diff.main(["--dir", str(mine), "--out", str(out), "--games", "20", "--budget", "60",
                      "--cache", str(tmp_path / "cache")]) == 0
    data = json.loads(out.with_suffix(".json").read_text())
    row = data["rows"]["mine/Tiny2"]
    assert row["n_cardstock"] == row["n_ours"] == 20
    # every game is exactly two draws on both sides
    assert row["decisions_cardstock"] == row["decisions_ours"] == 2.0
    assert "| `mine/Tiny2` | 20 | 20 |" in out.with_suffix(".md").read_text()
    assert len(list((tmp_path / "cache" / "cardstock").glob("mine__Tiny2-*.jsonl"))) == 1
