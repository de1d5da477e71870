"""`(all player 'P ('P <kind> NAME))` as its constant list of pile ids (collections.players_piles, issue 16):
the piles, in player order, that the loop over the players collects."""
from __future__ import annotations

from recycle.compiler import collections
from support.games import value_of

DEAL = ("(do (" + " ".join(f"(repeat {q + 1} (move (top (game iloc STOCK)) (top (({q} player) iloc HAND))))"
                           for q in range(3))
        + " (move (top (game iloc STOCK)) (top ((1 player) vloc TRICK)))))")
# the same piles through a collection that is not `player` itself: collected by the loop
LOOPED = "(all (filter player 'Q (>= (size ('Q iloc HAND)) 0)) 'P ('P iloc HAND))"


def test_the_union_of_every_players_pile_is_that_of_the_loop():
    fast = value_of("(union (all player 'P ('P iloc HAND)))", "", DEAL, players=3)[2]
    slow = value_of(f"(union {LOOPED})", "", DEAL, players=3)[2]
    assert fast == slow and len(fast) == 1 + 2 + 3


def test_the_piles_are_the_players_in_order(monkeypatch):
    seen = []
    real = collections.players_piles
    monkeypatch.setattr(collections, "players_piles", lambda *a: seen.append(r := real(*a)) or r)
    prog, st, v = value_of("(all player 'P ('P vloc TRICK))", "", DEAL, players=3)
    assert seen and seen[-1] is not None
    assert [prog.pile_key[pid] for pid in v] == [(q + 1, 0, "TRICK", 0) for q in range(3)]
    assert [len(st.piles[pid]) for pid in v] == [0, 1, 0]
    assert value_of(f"(size (top {LOOPED}))", "", DEAL, players=3)[2] == 3
