"""Red team: what recycle prints and draws from hostile game files (issue 13), each command run as a
subprocess under time, memory and file-size limits (tests/support/sandbox.py).

Error output is bounded (at most 20 errors per file, then "… and K more"; quoted lines cut to a
window); names from game files reach Graphviz, matplotlib and the terminal as inert text; a reader
that goes away (`recycle … | head`) ends the command quietly with status 141; nothing is written
outside the output folder.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from support import FIXTURES
from support.sandbox import run_cli

DEAL_N = FIXTURES / "games" / "deal_n.gdl"
UNITS = 4300  # "(foo bar baz) " repeated: a 60 KB file of 12,900 errors


def flood(folder: Path, lines: bool = False) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "flood.gdl"
    sep = "\n" if lines else " "
    path.write_text("(game (setup (create players 2))" + sep + ("(foo bar baz)" + sep) * UNITS + ")\n", "utf-8")
    assert 58_000 < path.stat().st_size < 62_000
    return path


# ------------------------------------------------------------------ bounded error output


@pytest.mark.parametrize("lines", [False, True], ids=["one-line", "one-error-per-line"])
def test_error_flood_from_check_is_bounded(tmp_path, lines):
    path = flood(tmp_path / "g", lines)
    res = run_cli(["check", path], cwd=tmp_path)
    assert res.code == 1 and "Traceback" not in res.err and res.written == []
    assert res.out.startswith(f"{path}: {3 * UNITS} errors\n")
    assert len(re.findall(r"error\[lexical\]", res.out)) == 20
    assert res.out.rstrip().endswith(f"… and {3 * UNITS - 20} more errors (not shown)")
    assert res.out_bytes < 20_000 and max(map(len, res.out.splitlines())) < 300
    js = run_cli(["check", path, "--json"], cwd=tmp_path)
    assert js.code == 1 and js.out_bytes < 20_000 and '"more_errors": 12880' in js.out


@pytest.mark.parametrize("command", ["run", "stats", "flow"])
def test_error_flood_when_loading_for_other_commands_is_bounded(tmp_path, command):
    path = flood(tmp_path / "g")
    res = run_cli([command, path, "-n", "2", "--seed", "1", "--out", tmp_path / "out"], cwd=tmp_path,
                  allowed=(tmp_path / "out",))
    assert res.code == 1 and "Traceback" not in res.err and res.written == []
    assert len(re.findall(r"error\[lexical\]", res.err)) == 20 and "more errors (not shown)" in res.err
    assert res.out_bytes + res.err_bytes < 20_000


# ------------------------------------------------------------------ names from game files


EVIL = 'evil $\\frac$ <b>&amp;" \\N {x} $x^{2}$'


@pytest.fixture
def evil_game(tmp_path) -> Path:
    """deal_n.gdl under a file name full of Graphviz, HTML and mathtext metacharacters."""
    folder = tmp_path / "games"
    folder.mkdir()
    return Path(shutil.copy(DEAL_N, folder / f"{EVIL}.gdl"))


def test_names_reach_plots_and_diagrams_as_text(tmp_path, evil_game):
    out = tmp_path / "out"
    res = run_cli(["stats", evil_game, "-n", "6", "--seed", "1", "--out", out, "-q"], cwd=tmp_path, allowed=(out,))
    assert res.code == 0, res.err
    assert "Traceback" not in res.err and res.written == []
    for name in ("branching", "length", "scores", "winrate"):
        assert (out / f"{name}.png").stat().st_size > 5000
        svg = (out / f"{name}.svg").read_text("utf-8")
        # matplotlib draws text as paths; the title is kept as a comment of the SVG, written literally
        assert "evil $\\frac$ &lt;b&gt;&amp;amp;" in svg
    dot = (out / "flow.dot").read_text("utf-8")
    assert dot.count("digraph") == 1 and 'label="evil $\\\\frac$ <b>&amp;amp;\\" \\\\N {x} $x^{2}$"' in dot
    if shutil.which("dot") is not None:
        svg = (out / "flow.svg").read_text("utf-8")
        assert "evil $\\frac$ &lt;b&gt;&amp;amp;&quot; \\N {x} $x^{2}$" in svg  # shown as written


def test_flow_command_with_metacharacters(tmp_path, evil_game):
    out = tmp_path / "fl"
    res = run_cli(["flow", evil_game, "--seed", "2", "--out", out, "-q", "--format", "svg"], cwd=tmp_path,
                  allowed=(out,))
    assert res.code == 0, res.err
    assert res.written == [] and (out / "flow.dot").is_file()


# ------------------------------------------------------------------ broken pipes


@pytest.fixture
def closed_pipe():
    """The writing end of a pipe whose reader is already gone."""
    r, w = os.pipe()
    os.close(r)
    yield w
    os.close(w)


@pytest.mark.parametrize("argv", [
    ["run", DEAL_N, "-n", "3", "--seed", "1", "--out", "out"],
    ["run", DEAL_N, "-n", "3", "--seed", "1", "--out", "out", "--json"],
    ["games"],
    ["check", DEAL_N],
], ids=["run", "run-json", "games", "check"])
def test_broken_pipe_exits_quietly_with_141(tmp_path, closed_pipe, argv):
    res = run_cli(argv, cwd=tmp_path, stdout=closed_pipe, allowed=(tmp_path / "out",))
    assert res.code == 141, res.err
    assert "Traceback" not in res.err and "Exception ignored" not in res.err and "rror" not in res.err
    assert res.written == []


def test_replay_into_a_closed_pipe(tmp_path, closed_pipe):
    folder = tmp_path / "t"
    folder.mkdir()
    shutil.copy(DEAL_N, folder / "deal_n.gdl")
    rec = run_cli(["run", "deal_n.gdl", "-n", "1", "--seed", "4", "--out", "out", "--transcripts", "full"],
                  cwd=folder, allowed=(folder / "out",))
    assert rec.code == 0, rec.err
    shutil.copy(folder / "out" / "transcripts" / "run-0000.jsonl", folder / "t.jsonl")
    for extra in ((), ("--json",)):
        res = run_cli(["replay", "t.jsonl", *extra], cwd=folder, stdout=closed_pipe)
        assert res.code == 141 and "Traceback" not in res.err and res.written == [], res.err


def test_real_pipeline_into_head(tmp_path):
    """`recycle check --max-errors 0 flood.gdl | head -c 100`: megabytes of output, a reader that leaves."""
    path = flood(tmp_path / "g")
    r, w = os.pipe()
    head = subprocess.Popen(["head", "-c", "100"], stdin=r, stdout=subprocess.PIPE)
    os.close(r)
    try:
        res = run_cli(["check", "--max-errors", "0", path], cwd=tmp_path, stdout=w)
    finally:
        os.close(w)
    got, _ = head.communicate(timeout=60)
    assert got.startswith(f"{path}: {3 * UNITS} errors".encode())
    assert res.code == 141 and res.err == "", res.err
