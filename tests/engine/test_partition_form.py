"""The `partition` form groups in one pass (issue 16): the groups of algorithms.partition, in its order."""
from __future__ import annotations

from recycle.engine import algorithms as alg
from support.games import value_of

# a shuffled 36-card deck: 7 cards to A, 9 to B, so that suits and ranks repeat across both piles
BEFORE = ("(do ((shuffle (game iloc STOCK))"
          " (repeat 7 (move (top (game iloc STOCK)) (top (game vloc A))))"
          " (repeat 9 (move (top (game iloc STOCK)) (top (game vloc B))))))")


def test_partition_of_several_piles_is_the_algorithms_partition_of_their_cards():
    for attr in ("SUIT", "RANK", "COLOR"):  # COLOR: no card has it, one group of all (the value "")
        prog, st, groups = value_of(f"(partition {attr} (game vloc A) (game vloc B))", "", BEFORE, seed=5)
        cards = prog.pile(st, "game", "vloc", "A") + prog.pile(st, "game", "vloc", "B")
        expected = alg.partition(cards, [st.catt[c].get(attr, "") for c in cards])
        assert [list(g) for g in groups] == expected
        assert sum(len(g) for g in groups) == 16
    assert len(value_of("(partition COLOR (game vloc A) (game vloc B))", "", BEFORE)[2]) == 1


def test_partition_groups_follow_first_appearance_and_keep_scan_order():
    prog, st, groups = value_of("(partition SUIT (game vloc A) (game vloc B))", "", BEFORE, seed=5)
    cards = prog.pile(st, "game", "vloc", "A") + prog.pile(st, "game", "vloc", "B")
    firsts = [g[0] for g in groups]
    assert firsts == sorted(firsts, key=cards.index)  # groups in order of their first card
    for g in groups:
        assert list(g) == sorted(g, key=cards.index)  # each group in scan order
