"""Property tests (hypothesis): sampled worlds agree with the player's view, and the AIs never read a card
the deciding player cannot see (design.md "Engine"; language spec §17.3-§17.5).

Positions are reached by random play from a seeded game on several corpus games that hide cards in
different ways: a hidden stock and private hands (Kuhn poker, Go Fish, Hearts), decks with
different backs (Goofspiel), face-down cards nobody sees (Golf Six), a crib (Cribbage), memory
piles (Rummy).
"""
from __future__ import annotations

import random
import sys
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from recycle.compiler import load_program
from recycle.engine.state import MEM, WAITING
from recycle.players import registry
from recycle.players.montecarlo import option_keys, sample_world
from support import CORPUS

GAMES = ["cardstock/KuhnPoker2.rcy", "valet/GoFish4.rcy", "valet/Hearts4.rcy", "valet/Goofspiel2.rcy",
         "valet/GolfSix4.rcy", "valet/Cribbage2.rcy", "valet/Rummy2.rcy", "cardstock/LeducPoker2.rcy"]

pytestmark = pytest.mark.needs_corpus
if sys.getrecursionlimit() < 20000:
    sys.setrecursionlimit(20000)  # as compile_game does: set before hypothesis runs, not during a test


@cache
def program(name):
    return load_program(CORPUS / name)


def position(prog, seed: int, steps: int):
    """The state after `steps` random decisions of a seeded game (or the last decision point before the end)."""
    st = prog.new_game(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if st.status != WAITING:
            break
        nxt = st.clone()
        prog.apply(nxt, rng.randrange(len(nxt.opts)))
        if nxt.status != WAITING:
            break
        st = nxt
    return st


def _without_options(view: dict) -> dict:
    # §17.5: the number of options of *another* player's decision may depend on cards p cannot see
    return {k: v for k, v in view.items() if k != "options"}


def _cards(st, prog) -> list:
    return sorted(c for pid, pile in enumerate(st.piles) if prog.pile_kind[pid] != MEM for c in pile)


settings_ = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@settings_
@given(game=st_.sampled_from(GAMES), seed=st_.integers(0, 10**6), steps=st_.integers(0, 60),
       seat=st_.integers(0, 5), draw=st_.integers(0, 2**32))
def test_a_sampled_world_agrees_with_the_view(game, seed, steps, seat, draw):
    prog = program(game)
    st = position(prog, seed, steps)
    p = seat % prog.n_players
    for w in (sample_world(prog, st, p, random.Random(draw)), prog.determinize(st, p, random.Random(draw))):
        assert _without_options(prog.view(w, p)) == _without_options(prog.view(st, p))
        assert _cards(w, prog) == _cards(st, prog)                  # the same cards, re-dealt
        for pid, pile in enumerate(w.piles):
            if prog.pile_kind[pid] != MEM:
                assert all(w.where[c] == pid for c in pile)
        if st.status == WAITING and prog.chooser(st) == p and w.status == WAITING:
            assert prog.chooser(w) == p
    # the state p was shown is unchanged by sampling
    assert prog.view(st, p) == prog.view(position(prog, seed, steps), p)


@settings_
@given(game=st_.sampled_from(GAMES), seed=st_.integers(0, 10**6), steps=st_.integers(0, 60),
       draw=st_.integers(0, 2**32))
def test_sampling_depends_only_on_the_view(game, seed, steps, draw):
    """Two states the chooser cannot tell apart give the same sampled world for the same stream."""
    prog = program(game)
    st = position(prog, seed, steps)
    if st.status != WAITING:
        return
    p = prog.chooser(st)
    other = prog.determinize(st, p, random.Random(draw ^ 0x5A5A))   # hidden cards and game stream differ
    a = sample_world(prog, st, p, random.Random(draw))
    b = sample_world(prog, other, p, random.Random(draw))
    assert a == b


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st_.sampled_from(GAMES), seed=st_.integers(0, 10**6), steps=st_.integers(0, 40),
       draw=st_.integers(0, 2**32), code=st_.sampled_from(["F", "M", "P"]))
def test_ais_never_read_hidden_cards(game, seed, steps, draw, code):
    """Same seat stream, states differing only in cards the decider cannot see: same choice, same estimates."""
    prog = program(game)
    st = position(prog, seed, steps)
    if st.status != WAITING:
        return
    p = prog.chooser(st)
    other = prog.determinize(st, p, random.Random(draw))
    if other.status != WAITING or option_keys(prog, other, p) != option_keys(prog, st, p):
        return  # §17.5: here the option list itself depends on hidden cards
    budget = {"F": 2, "M": 12, "P": 12}[code]
    picks = []
    for state in (st, other):
        pl = registry.KINDS[code](budget=budget, record_estimates=True, max_playout_decisions=200)
        pl.start(prog, p, draw)
        picks.append((pl.choose(prog, state), pl.estimates[-1]))
    assert picks[0] == picks[1]
