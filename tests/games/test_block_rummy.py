"""games/block_rummy.gdl plays like valet/Rummy2.rcy, whose rules it encodes.

Over 300 seeded random games each, the two files must agree on the mean number of decisions
per game (within 10%) and on the first seat's win rate (within 0.12).  Both are compiled once
and played through the engine directly (no recorder), which takes a few seconds.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from recycle.compiler import load_program
from recycle.engine.algorithms import derive
from recycle.engine.play import play_game
from recycle.players.random_player import RandomPlayer
from support import REPO

BLOCK_RUMMY = REPO / "games" / "block_rummy.gdl"
GAMES = 300
SEED = 31


def profile(path: Path) -> dict:
    """Mean decisions per game and the first seat's win rate (ties split) over GAMES seeded games."""
    prog = load_program(path)
    assert prog.n_players == 2
    reasons: dict = {}
    decisions = wins = done = 0
    for run in range(GAMES):
        r = play_game(prog, derive(SEED, "game", run), [RandomPlayer(), RandomPlayer()])
        reasons[r.end_reason] = reasons.get(r.end_reason, 0) + 1
        decisions += r.n_decisions
        if r.end_reason == "normal":
            done += 1
            wins += r.shares[0]
    return {"reasons": reasons, "decisions": decisions / GAMES, "first_seat": wins / done if done else None,
            "direction": prog.direction}


@pytest.fixture(scope="module")
def block_rummy() -> dict:
    return profile(BLOCK_RUMMY)


def test_block_rummy_always_ends(block_rummy):
    assert block_rummy["reasons"] == {"normal": GAMES}
    assert block_rummy["direction"] == "min"  # least deadwood wins


@pytest.mark.needs_corpus
def test_block_rummy_agrees_with_valet_rummy2(block_rummy, needs_corpus):
    valet = profile(needs_corpus / "valet" / "Rummy2.rcy")
    assert valet["reasons"] == {"normal": GAMES}
    assert block_rummy["direction"] == valet["direction"]
    ours, theirs = block_rummy["decisions"], valet["decisions"]
    assert abs(ours - theirs) <= 0.10 * theirs, f"mean decisions: block_rummy {ours:.1f}, valet/Rummy2 {theirs:.1f}"
    a, b = block_rummy["first_seat"], valet["first_seat"]
    assert abs(a - b) <= 0.12, f"first-seat win rate: block_rummy {a:.3f}, valet/Rummy2 {b:.3f}"


RENAME = {"DRAW": "TAKEN"}  # the reference's memory pile of the taken discard


def _successor_views(prog, st, rename=None) -> list:
    """The successor state of every option as a comparable snapshot: non-empty piles by key, and status."""
    rename = rename or {}
    views = []
    for i in range(len(prog.options(st))):
        c = st.clone()
        prog.apply(c, i)
        piles = []
        for pid in range(min(len(c.piles), len(prog.pile_key))):
            if c.piles[pid]:
                owner, kw, name, index = prog.loc_json(pid)
                piles.append(((owner, kw, rename.get(name, name), index), tuple(c.piles[pid])))
        views.append((frozenset(piles), c.status))
    return views


def test_lockstep_with_the_reference(needs_corpus):
    """Stronger than the statistics: from the same deal, both files offer the same successor states
    at every decision point (ignoring option order and duplicates), and end with the same scores."""
    ref = load_program(needs_corpus / "valet" / "Rummy2.rcy")
    ours = load_program(BLOCK_RUMMY)
    for run in range(40):
        seed = derive(7, "lockstep", run)
        a, b = ref.new_game(seed), ours.new_game(seed)
        pick = RandomPlayer()
        pick.start(ref, 0, seed)
        while a.status == 1:
            assert b.status == 1
            va, vb = _successor_views(ref, a, RENAME), _successor_views(ours, b)
            assert set(va) == set(vb), f"seed {seed}: successor states differ at decision {a.decisions + 1}"
            i = pick.rng.randrange(len(va))
            ref.apply(a, i)
            ours.apply(b, vb.index(va[i]))  # the same successor, wherever our file lists it
        assert b.status == a.status
        assert ref.result(a).scores == ours.result(b).scores
