"""The run-time error fixtures (tests/fixtures/runtime/, shown in docs/errors.md): each game loads, and
played with random players (game seed 1) stops with the error its `;; expect-runtime:` line states."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from recycle.compiler import load_program
from recycle.engine.play import play_game
from recycle.players.random_player import RandomPlayer
from support import FIXTURES

EXPECT = re.compile(r";; expect-runtime: (\d+):(\d+) (\S+) (.+)")
FILES = sorted((FIXTURES / "runtime").glob("*.gdl"))


def test_runtime_fixtures_are_present():
    assert FILES


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_runtime_fixture(path: Path):
    m = EXPECT.fullmatch(path.read_text("utf-8").split("\n")[0])
    assert m, f"{path.name}: the first line must be `;; expect-runtime: LINE:COL CLASS message`"
    prog = load_program(path)
    r = play_game(prog, 1, [RandomPlayer() for _ in range(prog.n_players)])
    assert r.outcome == "error" and r.error is not None, r
    assert r.error.position.endswith(f":{m[1]}:{m[2]}"), r.error.text
    assert r.error.cls == m[3]
    assert m[4] in r.error.message, r.error.message
    assert ";; fix:" in path.read_text("utf-8"), "a run-time fixture states its fix"
