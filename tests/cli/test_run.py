"""`recycle run` and `recycle games` through recycle.cli.main (issue "Run any game").

The fixture games of tests/fixtures/games/ are tiny and fast:

* deal_n.gdl   (declare 3 'N): each player is dealt N cards and plays them all, so every game
               has exactly 2N decisions; ties between the two totals are common.
* risky.gdl    the first decision picks SAFE or RISKY; RISKY moves a card from an always-empty
               pile, a run-time error at risky.gdl:25:4, so about half of the runs end in error.
* load_error.gdl  does not load (a type error at 7:8).
"""
from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from recycle.cli import main
from recycle.engine.algorithms import derive
from support import REPO

FIXTURES = REPO / "tests" / "fixtures" / "games"
DEAL_N = str(FIXTURES / "deal_n.gdl")
RISKY = str(FIXTURES / "risky.gdl")
LOAD_ERROR = str(FIXTURES / "load_error.gdl")

SUMMARY_KEYS = {"game", "players", "games", "completed", "limit_reached", "errors", "decisions", "branching",
                "wins_by_seat", "mean_scores", "elapsed_s", "games_per_s", "decisions_per_s"}


def run_json(capsys, *argv, code: int = 0) -> dict:
    """`recycle run ... --json` -> the printed object (exit `code` required: 1 when games end in errors)."""
    rc = main(["run", *argv, "--json"])
    out, err = capsys.readouterr()
    assert rc == code, err
    assert "Traceback" not in err
    return json.loads(out)


def run_fails(capsys, argv, code: int) -> str:
    """Run a command that must fail with `code`; returns stderr (no traceback, never the bug exit 70)."""
    rc = main(argv)
    out, err = capsys.readouterr()
    assert rc == code, (rc, out, err)
    assert "Traceback" not in err and "internal error" not in err
    return err


def read_csv(path: Path) -> list[dict]:
    return list(csv.DictReader(io.StringIO(path.read_text("utf-8"))))


# ------------------------------------------------------------------ the JSON summary


def test_json_summary_has_every_key(capsys):
    s = run_json(capsys, "block_rummy", "-n", "6", "--seed", "1")
    assert set(s) >= SUMMARY_KEYS
    assert s["game"] == "block_rummy"
    assert s["players"] == ["R", "R"]
    assert s["games"] == 6
    assert s["completed"] + s["limit_reached"] + s["errors"] == 6
    assert s["completed"] == 6 and s["errors"] == 0
    d, b = s["decisions"], s["branching"]
    assert set(d) >= {"mean", "median", "max"} and set(b) >= {"mean", "max"}
    assert 0 < d["mean"] <= d["max"] and 0 < d["median"] <= d["max"]
    assert 1 <= b["mean"] <= b["max"]
    assert len(s["wins_by_seat"]) == 2 and len(s["mean_scores"]) == 2
    assert sum(s["wins_by_seat"]) == pytest.approx(1.0)
    assert all(0 <= w <= 1 for w in s["wins_by_seat"])
    assert s["elapsed_s"] > 0 and s["games_per_s"] > 0 and s["decisions_per_s"] > 0


def test_wins_split_ties_and_sum_to_one(capsys, tmp_path):
    s = run_json(capsys, DEAL_N, "-n", "30", "--seed", "11", "--out", str(tmp_path))
    games = read_csv(tmp_path / "games.csv")
    ties = [g for g in games if g["tie_first"] == "true"]
    assert ties, "the fixture should produce some tied games with this seed"
    results = read_csv(tmp_path / "results.csv")
    tied_shares = {float(r["win_share"]) for r in results if r["run"] in {g["run"] for g in ties}}
    assert tied_shares == {0.5}
    assert sum(s["wins_by_seat"]) == pytest.approx(1.0)
    expected = [sum(float(r["win_share"]) for r in results if r["seat"] == str(p)) / 30 for p in (0, 1)]
    assert s["wins_by_seat"] == pytest.approx(expected)
    assert s["decisions"] == {"mean": 6.0, "median": 6.0, "max": 6}


# ------------------------------------------------------------------ --out


def test_out_writes_tidy_files_and_transcripts(capsys, tmp_path):
    s = run_json(capsys, "block_rummy", "-n", "4", "--seed", "3", "--out", str(tmp_path))
    games = read_csv(tmp_path / "games.csv")
    assert [g["run"] for g in games] == ["0", "1", "2", "3"]
    for col in ("run", "game_seed", "end_reason", "decisions", "winners", "scores", "error"):
        assert col in games[0], col
    assert all(g["game_seed"] == str(derive(3, "game", int(g["run"]))) for g in games)
    assert all(g["end_reason"] == "normal" and g["error"] == "" for g in games)
    assert all(len(g["scores"].split(";")) == 2 for g in games)
    assert "ms" not in games[0] and "elapsed" not in "".join(games[0])  # timings only in summary.json

    decisions = read_csv(tmp_path / "decisions.csv")
    for col in ("run", "decision", "player", "branching", "chosen"):
        assert col in decisions[0], col
    for g in games:
        rows = [d for d in decisions if d["run"] == g["run"]]
        assert len(rows) == int(g["decisions"])
        assert [int(d["decision"]) for d in rows] == list(range(1, len(rows) + 1))
        assert all(0 <= int(d["chosen"]) < int(d["branching"]) and d["player"] in ("0", "1") for d in rows)
        # the transcript of the run holds the same decisions
        lines = [json.loads(line) for line in (tmp_path / "transcripts" / f"run-{int(g['run']):04d}.jsonl").read_text().splitlines()]
        assert lines[0]["type"] == "header" and lines[0]["seed"] == int(g["game_seed"])
        assert lines[0]["batch"] == {"seed": 3, "run": int(g["run"])}
        dec = [ev for ev in lines if ev["type"] == "decision"]
        assert [(ev["seat"], ev["options"], ev["choice"]) for ev in dec] == [
            (int(d["player"]), int(d["branching"]), int(d["chosen"])) for d in rows]
        assert lines[-1]["type"] == "end" and lines[-1]["reason"] == "normal"
    assert sorted(p.name for p in (tmp_path / "transcripts").iterdir()) == [f"run-{i:04d}.jsonl" for i in range(4)]

    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["seed"] == 3 and summary["game"] == "block_rummy"
    assert set(summary["timing"]) >= {"wall_s", "games_per_s", "decisions_per_s"}
    assert "elapsed_s" not in summary["summary"]
    assert summary["summary"]["completed"] == s["completed"] == 4


FILES = ["games.csv", "decisions.csv", "results.csv"]


def _outputs(d: Path) -> dict:
    files = {f: (d / f).read_bytes() for f in FILES}
    files.update({f"transcripts/{p.name}": p.read_bytes() for p in sorted((d / "transcripts").iterdir())})
    return files


def test_same_seed_same_bytes_whatever_the_jobs(capsys, tmp_path):
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    run_json(capsys, "block_rummy", "-n", "6", "--seed", "42", "--out", str(a), "--jobs", "1")
    run_json(capsys, "block_rummy", "-n", "6", "--seed", "42", "--out", str(b), "--jobs", "2")
    run_json(capsys, "block_rummy", "-n", "6", "--seed", "43", "--out", str(c), "--jobs", "1")
    oa, ob, oc = _outputs(a), _outputs(b), _outputs(c)
    assert len(oa) == 3 + 6
    assert oa == ob
    for f in ["games.csv", "decisions.csv", "transcripts/run-0000.jsonl"]:
        assert oa[f] != oc[f], f


# ------------------------------------------------------------------ parameters


def test_param_changes_the_game(capsys, tmp_path):
    default = run_json(capsys, DEAL_N, "-n", "3", "--seed", "5")
    assert default["decisions"]["max"] == 6  # N = 3 cards each
    five = run_json(capsys, DEAL_N, "-n", "3", "--seed", "5", "--param", "N=5", "--out", str(tmp_path))
    assert five["decisions"] == {"mean": 10.0, "median": 10.0, "max": 10}
    head = json.loads((tmp_path / "transcripts" / "run-0000.jsonl").read_text().splitlines()[0])
    assert head["params"]["declares"] == {"N": "5"} or head["params"]["declares"] == {"N": 5}
    quoted = run_json(capsys, DEAL_N, "-n", "1", "--seed", "5", "--param", "'N=2")
    assert quoted["decisions"]["max"] == 4


@pytest.mark.parametrize("param, words", [
    ("M=3", ["M"]),                 # not declared by the game
    ("N=abc", ["N", "integer"]),    # wrong type
    ("N=TRUE", ["N", "integer"]),
    ("N", ["NAME=VALUE"]),          # not NAME=VALUE
    ("n=3", ["uppercase"]),
])
def test_bad_param_is_one_clear_line(capsys, param, words):
    err = run_fails(capsys, ["run", DEAL_N, "-n", "1", "--param", param], 2)
    assert len(err.strip().splitlines()) == 1, err
    for w in words:
        assert w in err, err


# ------------------------------------------------------------------ user errors


def test_unknown_game_exits_2(capsys):
    err = run_fails(capsys, ["run", "no_such_game", "-n", "1"], 2)
    assert "no_such_game" in err and "block_rummy" in err
    assert len(err.strip().splitlines()) == 1


def test_load_error_exits_1_with_position(capsys):
    err = run_fails(capsys, ["run", LOAD_ERROR, "-n", "1"], 1)
    assert re.search(r"load_error\.gdl:7:8: error\[type\]", err), err


def test_runtime_errors_are_counted_and_the_batch_goes_on(capsys, tmp_path):
    seed = 3
    s = run_json(capsys, RISKY, "-n", "20", "--seed", str(seed), "--out", str(tmp_path), code=1)
    assert s["errors"] > 0 and s["completed"] > 0
    assert s["errors"] + s["completed"] == 20 and s["limit_reached"] == 0
    assert s["first_errors"], s
    for e in s["first_errors"]:
        assert e["game_seed"] == derive(seed, "game", e["run"])
        assert re.search(r"risky\.gdl:25:4: error\[no-card\]", e["error"]), e
    games = read_csv(tmp_path / "games.csv")
    failed = [g for g in games if g["end_reason"] == "error"]
    assert len(failed) == s["errors"]
    assert all("risky.gdl:25:4" in g["error"] and g["scores"] == "" for g in failed)
    assert all(g["error"] == "" for g in games if g["end_reason"] == "normal")
    # completed games after a failed one are still played and scored
    assert int(games[-1]["run"]) == 19


def test_runtime_errors_in_the_table_keep_class_and_seed(capsys):
    rc = main(["run", RISKY, "-n", "10", "--seed", "3"])
    out, err = capsys.readouterr()
    assert rc == 1, err  # games that end in errors fail the run, and stderr says how many
    counts = re.search(r"(\d+) / (\d+) / (\d+)", out)
    assert counts and int(counts.group(3)) > 0, out
    assert f"error: {counts.group(3)} of 10 games ended in a run-time error" in err, err
    assert "error[no-card]" in out  # not eaten as rich markup
    m = re.search(r"error in run (\d+) \(game seed (\d+)\)", out)
    assert m and int(m.group(2)) == derive(3, "game", int(m.group(1)))
    assert re.search(r"risky\.gdl:25:4: error\[no-card\]: \(move \(top \(game iloc VOID\)\) …\): \(game iloc VOID\) is empty",
                     out), out


def test_decision_limit_is_counted(capsys):
    s = run_json(capsys, "block_rummy", "-n", "3", "--seed", "1", "--max-decisions", "5")
    assert s["limit_reached"] == 3 and s["completed"] == 0 and s["errors"] == 0
    assert s["decisions"]["max"] == 5


@pytest.mark.parametrize("argv", [
    ["run", "block_rummy", "-n", "-1"],
    ["run", "block_rummy", "--jobs", "0"],
    ["run", "block_rummy", "--seed", "x"],
    ["run", "block_rummy", "--seed", "-4"],
    ["run", "block_rummy", "--players", "RRR"],
    ["run", "block_rummy", "--players", "random,genius"],
    ["run", "block_rummy", "--max-decisions", "0"],
    ["run", "block_rummy", "--transcripts", "some"],
    ["run", str(FIXTURES)],
    ["run"],
    ["run", "block_rummy", "--bogus"],
], ids=lambda a: " ".join(a[1:]) or "no-game")
def test_usage_errors_exit_2_without_traceback(capsys, argv):
    err = run_fails(capsys, argv, 2)
    assert err.startswith("error: ") and len(err.strip().splitlines()) == 1, err


def test_out_that_is_a_file_exits_2(capsys, tmp_path):
    f = tmp_path / "taken"
    f.write_text("x")
    err = run_fails(capsys, ["run", "block_rummy", "-n", "1", "--out", str(f)], 2)
    assert "not a directory" in err
    err = run_fails(capsys, ["run", "block_rummy", "-n", "1", "--out", str(f / "sub")], 2)
    assert "cannot create the folder" in err and len(err.strip().splitlines()) == 1


# ------------------------------------------------------------------ recycle games


def test_games_lists_block_rummy(capsys):
    assert main(["games", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    names = [r["name"] for r in rows]
    assert "block_rummy" in names
    br = rows[names.index("block_rummy")]
    assert br["players"] == "2" and br["path"].endswith("block_rummy.gdl")
    assert main(["games"]) == 0
    assert "block_rummy" in capsys.readouterr().out


AUDIT_OPENS = """
import sys
from pathlib import Path

target = Path(sys.argv[1]).resolve()
opened = []

def hook(event, args):
    if event == "open" and args and isinstance(args[0], (str, bytes)):
        path = args[0].decode() if isinstance(args[0], bytes) else args[0]
        if Path(path).resolve() == target:
            opened.append(path)

sys.addaudithook(hook)
from recycle.cli import main

code = main(["run", str(target), "-n", "3", "--jobs", "1", "--seed", "1", "-q"])
print("OPENS", len(opened), "CODE", code, file=sys.stderr)
"""


def test_run_opens_the_game_file_once(tmp_path):
    """`recycle run GAME -n 3 --jobs 1` reads the game file once (an audit hook counts the opens)."""
    game = tmp_path / "block_rummy.gdl"
    game.write_bytes((REPO / "games" / "block_rummy.gdl").read_bytes())
    proc = subprocess.run([sys.executable, "-c", AUDIT_OPENS, str(game)], capture_output=True, text=True,
                          timeout=120)
    assert "OPENS 1 CODE 0" in proc.stderr, proc.stderr


def test_games_json_lists_a_game_with_a_meldrules_parameter(tmp_path, monkeypatch, capsys):
    """Regression: `recycle games --json` failed on a declared meldrules value (not JSON)."""
    from recycle.lang import library
    game = tmp_path / "melder.gdl"
    game.write_text(";; Melder\n;;\n;; A test game with meld rules.\n;; Parameters: none. Players: 2.\n"
                    "(game\n (declare (meldrules (rank RANK (A, B, C)) (size 2)) 'MELDS)\n"
                    " (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (A, B, C)))))\n"
                    " (do ((set (game sto M) (size (melds (game iloc STOCK) using 'MELDS)))))\n"
                    " (scoring max 0))\n")
    monkeypatch.setattr(library, "shipped", lambda: {"melder": game})
    assert main(["games", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in rows] == ["melder"]
    assert "MELDS" in rows[0]["parameters"] and "error" not in rows[0]["parameters"]


def test_the_table_names_the_limit_that_stopped_games_and_how_to_raise_it(capsys):
    assert main(["run", DEAL_N, "-n", "3", "--seed", "1", "--max-decisions", "2"]) == 0
    out = capsys.readouterr().out
    assert "limit: 3 games stopped at the decision limit" in out
    assert "--max-decisions N" in out and "(limits (decisions N))" in out


def test_an_in_process_run_leaves_the_memory_limit_as_it_was(capsys):
    """run lowers RLIMIT_AS for itself and its workers; a longer-lived Python calling main() (tests, a
    notebook) gets its own limit back (a Chromium started later by the same process once crashed)."""
    resource = pytest.importorskip("resource", reason="no address-space limits on this platform")
    before = resource.getrlimit(resource.RLIMIT_AS)
    assert main(["run", DEAL_N, "-n", "2", "--seed", "1", "--max-memory", "3000"]) == 0
    assert resource.getrlimit(resource.RLIMIT_AS) == before


def test_max_options_stops_games_at_the_option_limit_and_replay_applies_it(capsys, tmp_path):
    """deal_n's first decision offers 3 cards: with --max-options 2 every game stops there, as a limit."""
    out = tmp_path / "o"
    s = run_json(capsys, DEAL_N, "-n", "2", "--seed", "1", "--max-options", "2", "--out", str(out),
                 "--transcripts", "full")
    assert s["limit_reached"] == 2 and s["completed"] == 0
    assert any("--max-options N" in line for line in s["limits_hit"])
    t = sorted((out / "transcripts").glob("*.jsonl"))[0]
    head = json.loads(t.read_text("utf-8").splitlines()[0])
    assert head["params"]["max_options"] == 2
    assert main(["replay", str(t), "--game", DEAL_N]) == 0
    assert "replay ok" in capsys.readouterr().err
    assert run_json(capsys, DEAL_N, "-n", "2", "--seed", "1")["limit_reached"] == 0  # the game's own limit
