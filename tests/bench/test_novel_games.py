"""bench/novel/: the small games the differential test compares outside the corpus load and play here.

Each opens with a `;;` header saying what corner of the language it uses; every game but one plays
to a normal end with random players (the differential needs it, and CardStock runs them too).
`LetChoice2` is kept because CardStock does not run it (spec §18, row 17): here it plays too.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from recycle.compiler import load_program
from recycle.engine.algorithms import derive
from recycle.engine.play import play_game
from recycle.players.random_player import RandomPlayer
from support import REPO

NOVEL = REPO / "bench" / "novel"
GAMES = sorted(NOVEL.glob("*.rcy"))


def test_there_are_fifteen_to_twenty_five_games():
    assert 15 <= len(GAMES) <= 25, [p.name for p in GAMES]


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_a_novel_game_says_what_it_exercises_and_plays_to_its_end(path: Path):
    text = path.read_text("utf-8")
    header = text.splitlines()[0]
    assert header.startswith(f";; {path.stem}: "), header  # the header names the game and its corner
    prog = load_program(path)
    assert prog.n_players == int(path.stem[-1])  # the last character of the name is the player count
    for run in range(5):
        r = play_game(prog, derive(2024, "novel", run), [RandomPlayer() for _ in range(prog.n_players)], 2000)
        assert r.end_reason == "normal", (path.stem, run, r.end_reason, r.error)
        assert r.n_decisions > 0 and len(r.scores) == prog.n_players
