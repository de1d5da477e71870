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
