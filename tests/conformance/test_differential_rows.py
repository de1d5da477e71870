"""docs/language.md §27 "Differences from CardStock": one test per row, asserting the "this dialect" column.

The rows come from the differential test against CardStock (bench/differential.py, docs/differential.md).
"""
from __future__ import annotations

from recycle.compiler import compile_game
from recycle.lang import parse_game

DECK = "(RANK (A, TWO, THREE)) (SUIT (HEARTS, SPADES))"


def game(body: str) -> str:
    return (f"(game (setup (create players 2) (create deck (game iloc STOCK) (deck {DECK})))"
            f" (do ((repeat all (move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))"
            f" {body} (scoring max 0))")


def compiled(body: str):
    return compile_game(parse_game(game(body), "t.rcy"))


def pile(p, st, owner, kind, name):
    return [(st.catt[c]["RANK"], st.catt[c]["SUIT"]) for c in p.pile(st, owner, kind, name, 0)]


def test_row_1_repeat_all_over_a_bound_filter_moves_every_card():
    """§27 row 1: `(repeat all (move (top 'V) …))` with 'V a let-bound filter moves every card of 'V once."""
    p = compiled("(do ((let (filter ((current player) iloc HAND) 'C (== (cardatt RANK 'C) TWO)) 'V"
                 "   (repeat all (move (top 'V) (top (game vloc OUT)))))))")
    st = p.new_game(1)
    out = pile(p, st, "game", "vloc", "OUT")
    assert sorted(out) == [("TWO", "HEARTS"), ("TWO", "SPADES")]  # both twos, each once
    assert all(r != "TWO" for r, _ in pile(p, st, 0, "iloc", "HAND"))


def test_row_2_two_any_binding_one_name_each_bind_their_own_card():
    """§27 row 2: two `any` in one path binding 'C: every option discards two different cards."""
    p = compiled("(stage player (end (== (size (game vloc OUT)) 2))"
                 " (choice ((do ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc OUT))))"
                 "              (any ((current player) iloc HAND) 'C (move 'C (top (game vloc OUT)))))))))")
    st = p.new_game(1)
    assert len(p.options(st)) == 6 * 5  # ordered pairs of different cards of the six in hand
    p.apply(st, 7)
    assert len(set(pile(p, st, "game", "vloc", "OUT"))) == 2
    assert len(pile(p, st, 0, "iloc", "HAND")) == 4
