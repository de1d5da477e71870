"""Every shipped game (games/*.gdl): listed by `recycle games`, loads, plays, and is --jobs independent."""
from __future__ import annotations

import json

import pytest

from recycle.cli import main
from recycle.lang import library
from recycle.run.batch import BatchSpec, run_batch
from recycle.run.session import GameSession

SHIPPED = sorted(library.shipped().items())


def test_recycle_games_lists_every_shipped_game(capsys):
    assert main(["games", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in rows] == [name for name, _ in SHIPPED]
    for r in rows:
        assert r["title"] and r["description"], f"{r['name']}: the opening comment needs a title and a summary"
        assert "error" not in r["parameters"], f"{r['name']} does not load: {r['parameters']}"


@pytest.mark.parametrize("name,path", SHIPPED, ids=[n for n, _ in SHIPPED])
def test_shipped_game_opens_with_a_comment_block(name, path):
    first = path.read_text("utf-8").lstrip("\ufeff").splitlines()[0]
    assert first.startswith(";;"), f"{name}: a shipped game opens with a comment block naming the game"


@pytest.mark.parametrize("name,path", SHIPPED, ids=[n for n, _ in SHIPPED])
def test_results_do_not_depend_on_jobs(name, path):
    n = GameSession.open(path).n_players
    spec = BatchSpec(str(path), {}, ("R",) * n, 11, None, 10000, "decisions")  # None: the game's own limit
    one = run_batch(spec, 4, jobs=1)
    two = run_batch(spec, 4, jobs=2)
    assert [(r.end_reason, r.decisions, r.scores, r.transcript) for r in one] == \
           [(r.end_reason, r.decisions, r.scores, r.transcript) for r in two]
    assert all(r.end_reason == "normal" for r in one), [(r.run, r.end_reason, r.error) for r in one]
