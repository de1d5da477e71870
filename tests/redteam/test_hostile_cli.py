"""Red team: the command line used by a hostile or careless user (counts past any batch, outputs that are
FIFOs or full devices, JSON nested without end, an input that never ends a line, files the user keeps).
Each case asserts the status, the first line of the message and that no trace is printed."""
from __future__ import annotations

import pytest

from recycle.cli import main
from support import FIXTURES

GAME = FIXTURES / "games" / "deal_n.gdl"


def refused(capsys, argv: list, code: int) -> str:
    """Run `recycle ARGV` in this process; the status must be `code` and stderr one line, no trace."""
    assert main([str(a) for a in argv]) == code
    err = capsys.readouterr().err
    assert "Traceback" not in err and "internal error" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize("command", ["run", "stats", "flow"])
def test_a_game_count_past_any_batch_is_refused_before_playing(tmp_path, capsys, command):
    """-n 10**23 raised OverflowError (a bug, status 70) once the batch started; now a limit, named."""
    first = refused(capsys, [command, GAME, "-n", "9" * 23, "--seed", "1", "-q", "--out", tmp_path / "o"], 2)
    assert first.startswith(f"error: recycle {command}: argument ") and "MAX_BATCH_GAMES" in first
    assert not (tmp_path / "o").exists()


DEEP = "[" * 100_000 + "]" * 100_000  # valid JSON nested past Python's recursion limit


def test_merge_of_a_shard_whose_summary_is_nested_without_end(tmp_path, capsys):
    for i in (0, 1):
        assert main(["run", str(GAME), "-n", "2", "--seed", "1", "-q", "--shard", f"{i}/2",
                     "--out", str(tmp_path / f"s{i}")]) == 0
    capsys.readouterr()
    (tmp_path / "s1" / "summary.json").write_text(DEEP, "utf-8")
    first = refused(capsys, ["merge", tmp_path / "m", tmp_path / "s0", tmp_path / "s1"], 2)
    assert first == f"error: {tmp_path / 's1'}/summary.json: damaged (not JSON)"
    assert not (tmp_path / "m").exists()


def test_resume_of_a_state_nested_without_end(tmp_path, capsys):
    out = tmp_path / "o"
    out.mkdir()
    (out / ".recycle-resume.json").write_text(DEEP, "utf-8")
    first = refused(capsys, ["run", GAME, "-n", "2", "--seed", "1", "-q", "--out", out, "--resume"], 2)
    assert first.startswith(f"error: {out}/.recycle-resume.json: damaged (not JSON)")
    assert (out / ".recycle-resume.json").read_text("utf-8") == DEEP  # the user's folder as it was


def test_tournament_resume_of_settings_nested_without_end(tmp_path, capsys):
    pytest.importorskip("openskill", reason="the tournament extra (openskill) is not installed")
    out = tmp_path / "t"
    out.mkdir()
    (out / "tournament.json").write_text(DEEP, "utf-8")
    first = refused(capsys, ["tournament", GAME, "--players", "R,F", "-q", "--out", out, "--resume"], 2)
    assert first == f"error: --resume: {out}/tournament.json cannot be read (arrays or objects nested too deeply)"
