"""Fused locations and cells of a player (issue 16): the pile or slot per player indexed in the generated code."""
from __future__ import annotations

import pytest

from recycle.compiler import driver, fusion
from support.games import loc, value_of

from .test_fusion import both

BEFORE = ("(do ((repeat 3 (move (top (game iloc STOCK)) (top ((0 player) iloc HAND))))\n"
          "     (repeat 2 (move (top (game iloc STOCK)) (top ((1 player) iloc HAND))))\n"
          "     (set ((0 player) sto S) 2) (set ((1 player) sto S) 5) (set ((2 player) str W) ASKED)\n"
          "     (cycle next (1 player))))")

EXPRESSIONS = [
    "(size ((current player) iloc HAND))",
    "(+ (* 10 (size ((next player) iloc HAND))) (size ((previous player) iloc HAND)))",
    "(+ (* 10 ((next player) sto S)) ((previous player) sto S) ((current player) sto S))",
    "(filter player 'P (> (size ('P iloc HAND)) 1))",
    "(any player 'P (== ('P str W) ASKED))",
    "(all player 'P (!= ('P str W) ASKED))",
    "(size (filter (other player) 'P (== (size ('P iloc HAND)) 0)))",
    # an inner loop reading the outer variable's slot: the outer one must be stored, the inner need not
    "(filter player 'P (any (other player) 'Q (> ('Q sto S) ('P sto S))))",
    "(filter player 'P (any player 'Q (> (size ('Q iloc HAND)) (size ('P iloc HAND)))))",
    # an outer variable read in an inner loop once, when the inner loop starts; a card of a pile never none
    "(filter (range 0..3) 'R (any player 'P (== (size ('P iloc HAND)) 'R)))",
    "(filter player 'P (any ('P iloc HAND) 'C (== (cardatt RANK 'C) (cardatt RANK (top ((0 player) iloc HAND))))))",
    "(size (filter ((0 player) iloc HAND) 'C (any ((1 player) iloc HAND) 'D (!= (cardatt SUIT 'C) (cardatt SUIT 'D)))))",
]


# written out player by player (fusion._unrolled), and not (a player compared: a closure reads the slot)
UNROLLED = [
    "(all player 'P (or (> ('P sto S) 1) (== ('P str W) ASKED)))",
    "(any player 'P (and (not (== ('P sto S) 5)) (> (size ('P iloc HAND)) (+ ((current player) sto S) 0))))",
    "(any player 'P (and (== 'P (next player)) (== ('P sto S) 5)))",
]


def generated(monkeypatch) -> list[str]:
    """The list that the source of every fused function compiled from now on is appended to."""
    sources: list[str] = []
    real = compile
    monkeypatch.setattr(fusion, "compile", lambda src, name, mode: (sources.append(src), real(src, name, mode))[1],
                        raising=False)
    return sources


@pytest.mark.parametrize("expr", EXPRESSIONS + UNROLLED)
def test_a_fused_player_location_or_cell_has_the_value_of_its_closures(monkeypatch, expr):
    fused, closures = both(monkeypatch, lambda: value_of(expr, "", BEFORE, players=3)[2])
    assert fused == closures


def test_the_values_are_the_expected_ones(monkeypatch):
    monkeypatch.setattr(driver, "FUSE", "always")
    monkeypatch.setattr(fusion, "MIN_NODES", 1)
    # player 0 is current (3 cards, S 2); next is the queued player 1 (2 cards, S 5); previous is 2 (none, S 0)
    assert value_of(EXPRESSIONS[0], "", BEFORE, players=3)[2] == 3
    assert value_of(EXPRESSIONS[1], "", BEFORE, players=3)[2] == 20
    assert value_of(EXPRESSIONS[2], "", BEFORE, players=3)[2] == 52
    assert list(value_of(EXPRESSIONS[3], "", BEFORE, players=3)[2]) == [0, 1]
    assert list(value_of(EXPRESSIONS[7], "", BEFORE, players=3)[2]) == [0, 2]


def test_the_player_tables_are_written_in_the_code(monkeypatch):
    """No closure call left for the owner: the fused source indexes a constant table."""
    sources = generated(monkeypatch)
    monkeypatch.setattr(driver, "FUSE", "always")
    monkeypatch.setattr(fusion, "MIN_NODES", 1)
    monkeypatch.setattr(fusion, "UNROLL_PLAYERS", 0)  # the loop itself (unrolled: the next test)
    value_of("(any player 'P (== (size ('P iloc HAND)) 0))", "", BEFORE, players=3)
    text = "\n".join(sources)
    assert "_piles[_k" in text and "[_e]]" in text, text
    assert "env[" not in text, text  # no slot stored for a test reading only its element


def test_a_test_of_every_player_is_written_out_player_by_player(monkeypatch):
    """`any`/`all` over every player: each player's test with the player's own pile or cell written in, joined
    by `or` / `and` in player order; no loop function, no table, no slot."""
    sources = generated(monkeypatch)
    monkeypatch.setattr(driver, "FUSE", "always")
    monkeypatch.setattr(fusion, "MIN_NODES", 1)
    prog, _, v = value_of("(any player 'P (== (size ('P iloc HAND)) 0))", "", BEFORE, players=3)
    assert v is True  # player 2 holds nothing
    hands = [pid for pid in range(len(prog.pile_key)) if loc(prog, pid)[1:] == ("iloc", "HAND", 0)
             and loc(prog, pid)[0] != "table"]
    text = "\n".join(sources)
    body = next(s for s in sources if "(not _piles[" in s)
    assert "for _e" not in body and "_k" not in body and "env[" not in body, text
    # p1's hand, then p2's, then p3's
    assert " or ".join(f"(not _piles[{h}])" for h in hands) in body and len(hands) == 3, text
    _, _, w = value_of("(all player 'P (!= ('P str W) ASKED))", "", BEFORE, players=3)
    assert w is False  # player 2 was asked


def test_a_small_guard_is_fused(monkeypatch):
    """Two fused nodes are enough (fusion.MIN_NODES): a card's attribute compared with a constant."""
    sources = generated(monkeypatch)
    assert fusion.MIN_NODES == 2
    _, _, v = value_of("(!= (cardatt RANK (top ((0 player) iloc HAND))) EIGHT)", "", BEFORE, players=3)
    assert v is True
    assert any("_column(" in s and "'EIGHT'" in s for s in sources), sources


def test_an_outer_variable_is_read_once_per_inner_loop(monkeypatch):
    monkeypatch.setattr(fusion, "UNROLL_PLAYERS", 0)  # an inner loop over the players, not written out
    sources = generated(monkeypatch)
    _, _, v = value_of(EXPRESSIONS[-3], "", BEFORE, players=3)
    assert list(v) == [0, 2, 3]  # hands of 3, 2 and 0 cards
    text = "\n".join(sources)
    assert "_s" in text and " = env[" in text, text  # the outer element read into a local at the start
