"""recycle/cli/main.py: what a command raises becomes one message and a status. Here: a path the
system refuses (a name longer than the file system allows) is the user's to fix, named in one line,
on every command that takes a path."""
from __future__ import annotations

import os
import shlex
import subprocess
import sys

import pytest

from recycle.cli import games, main
from support import FIXTURES, REPO

GAME = FIXTURES / "games" / "deal_n.gdl"
BAD = FIXTURES / "games" / "load_error.gdl"
LONG = "a" * 300  # past NAME_MAX (255 bytes) of every common file system


@pytest.mark.parametrize("argv", [
    ["check", LONG],
    ["run", LONG + ".gdl", "-n", "1"],
    ["run", str(GAME), "-n", "1", "--seed", "1", "--out", "{tmp}/" + LONG],
    ["stats", str(GAME), "-n", "1", "--seed", "1", "--out", "{tmp}/" + LONG],
    ["flow", str(GAME), "--seed", "1", "--out", "{tmp}/" + LONG],
    ["tournament", str(GAME), "--players", "R,R", "-n", "2", "--seed", "1", "--out", "{tmp}/" + LONG],
    ["play", LONG],
    ["new", "{tmp}/" + LONG],
    ["new", "{tmp}/x.gdl", "--from", LONG],
    ["view", LONG],
], ids=lambda a: " ".join(w for w in a if w not in (LONG, LONG + ".gdl")).replace("{tmp}/", "")[:40])
def test_a_file_name_too_long_is_one_line_naming_it(tmp_path, capsys, argv):
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "internal error" not in err
    assert err.startswith("error: ") and "File name too long" in err
    assert len(err.strip().splitlines()) == 1 and len(err) < 400  # the name is shortened, not printed whole
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_an_os_error_with_no_file_is_still_a_bug(monkeypatch, capsys):
    """Only a refused path is the user's: an OSError that names no file comes from recycle itself."""
    def broken(args):
        raise OSError(5, "Input/output error")
    monkeypatch.setattr(games, "cmd_games", broken)
    code = main(["games"])
    err = capsys.readouterr().err
    assert (code, "internal error" in err) == (70, True)


@pytest.mark.parametrize(("argv", "code"), [(["check", str(GAME)], 0), (["check", str(BAD)], 1),
                                            (["run", str(GAME), "-n", "2", "--seed", "1"], 0),
                                            (["play", str(GAME), "--players", "RR", "--seed", "1"], 0)],
                         ids=["check-ok", "check-bad", "run", "play"])
def test_a_closed_stdout_or_stderr_is_written_as_to_dev_null(argv, code):
    """Started with `>&-` or `2>&-`, Python has no sys.stdout: the status still says how it went."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    cmd = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "recycle", *argv])
    for closing in (">&-", "2>&-", ">&- 2>&-"):
        p = subprocess.run(["bash", "-c", f"{cmd} {closing}"], capture_output=True, env=env, timeout=60)
        assert p.returncode == code, (closing, p.stderr.decode())
        assert b"Traceback" not in p.stdout + p.stderr
