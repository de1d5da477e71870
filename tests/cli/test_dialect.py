"""`--dialect auto|modern|xam` on every command that loads a game (docs/language.md §27): each command
reads a CardStockXam file with it, and a bad value is one clear message and exit status 2."""
from __future__ import annotations

import json

import pytest

from recycle.cli import main

# An old-dialect game of our own: its award conditions have no colon, so auto reads it as xam.
OLD = """(game
 (setup (create players 2)
        (create deck (game iloc STOCK) (deck (RANK (ACE, TWO, KING)) (SUIT (HEARTS, SPADES)))))
 (do ((set (game points VALUE) (((RANK (ACE)) 11) ((RANK (KING)) 4) ((RANK TWO) 2)))
      (shuffle (game iloc STOCK))))
 (stage player
        (end (== (size (game iloc STOCK)) 0))
        (choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))
 (scoring max (sum ((current player) iloc HAND) using (game points VALUE))))
"""
# The same game with one condition written the modern way: mixing both is not unambiguous, so
# auto reads it as modern (and rejects the old conditions); --dialect xam reads it.
MIXED = OLD.replace("((RANK (ACE)) 11)", "((RANK : ACE) 11)")

COMMANDS = ["check", "run", "play", "stats", "flow", "tournament", "replay"]


@pytest.fixture
def old(tmp_path):
    p = tmp_path / "old.gdl"
    p.write_text(OLD, "utf-8")
    return p


@pytest.fixture
def mixed(tmp_path):
    p = tmp_path / "mixed.gdl"
    p.write_text(MIXED, "utf-8")
    return p


def call(capsys, *argv):
    try:
        code = main([str(a) for a in argv])
    except SystemExit as e:  # argparse's own exits (--help)
        code = e.code
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.mark.parametrize("command", COMMANDS)
def test_a_bad_dialect_is_one_clear_message_and_exit_2(command, old, capsys):
    code, out, err = call(capsys, command, old, "--dialect", "ancient")
    assert code == 2
    assert out == ""
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1, err
    assert "--dialect: invalid choice: 'ancient'" in lines[0] and "'auto', 'modern', 'xam'" in lines[0]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_that_loads_a_game_offers_the_option(command, capsys):
    code, out, _ = call(capsys, command, "--help")
    assert code == 0
    assert "--dialect {auto,modern,xam}" in out


def test_check_auto_detects_and_warns(old, capsys):
    code, out, _ = call(capsys, "check", old)
    assert code == 0
    assert "ok (1 warning)" in out and "warning[dialect]: (RANK (ACE)) is written in the older CardStockXam" in out


def test_check_xam_is_silent_and_modern_rejects(old, capsys):
    code, out, _ = call(capsys, "check", "--dialect", "xam", old)
    assert code == 0 and "ok" in out and "warning" not in out
    code, out, _ = call(capsys, "check", "--dialect", "modern", old)
    assert code == 1
    assert "3 errors" in out and "4:34: error[unsupported]: (RANK (ACE)) is CardStockXam award syntax" in out


def test_check_strict_makes_the_detection_warning_an_error(old, capsys):
    code, _, _ = call(capsys, "check", "--strict", old)
    assert code == 1
    code, _, _ = call(capsys, "check", "--strict", "--dialect", "xam", old)
    assert code == 0


def test_check_json_with_a_mixed_file(mixed, capsys):
    code, out, _ = call(capsys, "check", "--json", mixed)
    assert code == 1
    [row] = json.loads(out)
    assert [e["class"] for e in row["errors"]] == ["unsupported", "syntax"]  # (RANK (KING)), (RANK TWO)
    code, out, _ = call(capsys, "check", "--json", "--dialect", "xam", mixed)
    assert code == 0


def test_run_with_xam_plays_the_mixed_file(mixed, capsys):
    code, _, err = call(capsys, "run", mixed, "-n", "3", "--seed", "1", "--json")
    assert code == 1 and "CardStockXam award syntax" in err
    code, out, _ = call(capsys, "run", mixed, "-n", "3", "--seed", "1", "--json", "--dialect", "xam")
    assert code == 0
    assert json.loads(out)["games"] == 3


def test_run_with_two_jobs_reads_the_dialect_in_every_worker(mixed, capsys):
    code, out, _ = call(capsys, "run", mixed, "-n", "6", "--seed", "2", "--json", "--jobs", "2", "--dialect", "xam")
    assert code == 0 and json.loads(out)["games"] == 6


def test_play_with_random_seats(mixed, capsys):
    code, out, _ = call(capsys, "play", mixed, "--players", "RR", "--seed", "4", "--dialect", "xam")
    assert code == 0
    # six cards dealt, scored by the translated awards: two of each of ACE 11, KING 4, TWO 2
    assert "Game over after 6 decisions: p1 24 (rank 1), p2 10 (rank 2)" in out


def test_stats_and_replay(mixed, tmp_path, capsys):
    out_dir = tmp_path / "out"
    code, _, _ = call(capsys, "stats", mixed, "-n", "2", "--seed", "3", "--dialect", "xam", "--out", out_dir, "-q")
    assert code == 0
    code, _, _ = call(capsys, "run", mixed, "-n", "1", "--seed", "3", "--dialect", "xam", "--out", tmp_path / "r",
                      "-q")
    assert code == 0
    transcript = tmp_path / "r" / "transcripts" / "run-0000.jsonl"
    head = json.loads(transcript.read_text("utf-8").splitlines()[0])
    assert head["dialect"] == "xam"  # recorded, so that the replay reads the file the same way
    code, _, err = call(capsys, "replay", transcript, "--game", mixed)
    assert code == 0 and "replay ok" in err
    code, _, err = call(capsys, "replay", transcript, "--game", mixed, "--dialect", "modern")
    assert code == 1 and "CardStockXam award syntax" in err
    code, _, err = call(capsys, "replay", transcript, "--game", mixed, "--dialect", "xam")
    assert code == 0 and "replay ok" in err


def test_a_transcript_of_an_auto_read_game_records_no_dialect(old, tmp_path, capsys):
    code, _, _ = call(capsys, "run", old, "-n", "1", "--seed", "3", "--out", tmp_path / "r", "-q")
    assert code == 0
    transcript = tmp_path / "r" / "transcripts" / "run-0000.jsonl"
    assert "dialect" not in json.loads(transcript.read_text("utf-8").splitlines()[0])
    code, _, err = call(capsys, "replay", transcript, "--game", old)
    assert code == 0 and "replay ok" in err


def test_flow(mixed, tmp_path, capsys):
    dot = tmp_path / "mixed.dot"
    code, _, err = call(capsys, "flow", mixed, "--seed", "1", "-o", dot, "-q")
    assert code == 1 and "CardStockXam award syntax" in err
    code, _, _ = call(capsys, "flow", mixed, "--seed", "1", "-o", dot, "-q", "--dialect", "xam")
    assert code == 0 and dot.read_text("utf-8").startswith("// recycle flow: game=mixed")


def test_tournament(mixed, tmp_path, capsys):
    pytest.importorskip("openskill", reason="tournaments rate players with openskill (recycle[tournament])")
    out = tmp_path / "t"
    code, _, err = call(capsys, "tournament", mixed, "--players", "R,F", "-n", "2", "--seed", "1", "--out", out, "-q",
                        "--ai-budget", "2", "--dialect", "xam")
    assert code == 0, err
    assert (out / "games.csv").is_file()


def test_a_header_with_a_bad_dialect_is_a_malformed_transcript(mixed, tmp_path, capsys):
    code, _, _ = call(capsys, "run", mixed, "-n", "1", "--seed", "3", "--dialect", "xam", "--out", tmp_path / "r",
                      "-q")
    assert code == 0
    transcript = tmp_path / "r" / "transcripts" / "run-0000.jsonl"
    lines = transcript.read_text("utf-8").splitlines()
    lines[0] = lines[0].replace('"dialect":"xam"', '"dialect":"ancient"')
    transcript.write_text("\n".join(lines) + "\n", "utf-8")
    code, _, err = call(capsys, "replay", transcript, "--game", mixed)
    assert code == 2 and "the header has no valid 'dialect'" in err
