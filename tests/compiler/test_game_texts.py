"""The test helpers of support.games: a game made around clauses round-trips, an expression's value is read back."""
from __future__ import annotations

from recycle.lang import parse_game
from recycle.lang.printer import to_source
from support.games import make_game, value_of


def test_value_of_reads_the_let_value():
    _prog, _st, v = value_of("(+ 2 3)")
    assert v == 5
    _prog, _st, v = value_of("(filter (range 1..9) 'X (> 'X 7))")
    assert list(v) == [8, 9]


def test_make_game_round_trips():
    g = parse_game(make_game(items="(do ((set (game sto X) 1)))"))
    assert parse_game(to_source(g)) == g
