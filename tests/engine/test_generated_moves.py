"""Moves to and from the top written for their form (issue 16): players' piles indexed in a table, same effects."""
from __future__ import annotations

from .test_actions import run


def test_deal_to_each_player_and_to_the_current_player():
    p, _ = run("(do ((turn pass)))")
    deck = p.pile(p.new_game(1), "game", "iloc", "STOCK")  # bottom first: the top card is the last
    p, st = run("(do ((all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))"
                " (move (top ((current player) iloc HAND)) (top (game vloc DISCARD)))"
                " (move (top (game iloc STOCK)) (top (game iloc STOCK)))"
                " (move (top (game iloc STOCK)) (top ((current player) iloc HAND)))))")
    assert st.status == 2, p.result(st).error
    top = deck[::-1]
    assert p.pile(st, 0, "iloc", "HAND") == [top[0], top[4]]
    assert p.pile(st, 1, "iloc", "HAND") == [top[2], top[3]]
    assert p.pile(st, "game", "vloc", "DISCARD") == [top[1]] and p.pile(st, "game", "iloc", "STOCK") == []
    assert all(c in st.piles[st.where[c]] for c in top)  # each card's pile kept up to date


def test_a_card_variable_moved_to_a_players_pile():
    p, st = run("(do ((all player 'P (move (top (game iloc STOCK)) (top ('P iloc HAND))))"
                " (all player 'P (any ('P iloc HAND) 'C (move 'C (top ((current player) vloc TRICK)))))"
                " (all ((current player) vloc TRICK) 'C (move 'C (top ((next player) iloc WON))))))")
    assert st.status == 2, p.result(st).error
    assert p.pile(st, 0, "iloc", "HAND") == [] and p.pile(st, 1, "iloc", "HAND") == []
    won = p.pile(st, 1, "iloc", "WON")
    assert len(won) == 2 and all(st.where[c] == st.where[won[0]] for c in won)


def test_the_errors_of_a_move_from_an_empty_pile_and_of_no_card():
    p, st = run("(do ((repeat 6 (move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))")
    r = p.result(st)
    assert r.outcome == "error" and r.error.cls == "no-card" and "is empty" in r.error.message
    p, st = run("(do ((let (top ((current player) iloc HAND)) 'C (move 'C (top ((current player) vloc TRICK))))))")
    r = p.result(st)
    assert r.outcome == "error" and r.error.cls == "no-card" and "designates no card" in r.error.message


def test_moves_while_options_are_built_are_undone():
    p, st = run("(do ((repeat 3 (move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))"
                " (choice ((any ((current player) iloc HAND) 'C (move 'C (top ((current player) vloc TRICK))))))")
    assert st.status == 1 and len(st.opts) == 3
    hand = p.pile(st, 0, "iloc", "HAND")
    assert len(hand) == 3 and p.pile(st, 0, "vloc", "TRICK") == []
    p.apply(st, 1)
    assert p.pile(st, 0, "vloc", "TRICK") == [hand[1]] and p.pile(st, 0, "iloc", "HAND") == [hand[0], hand[2]]
