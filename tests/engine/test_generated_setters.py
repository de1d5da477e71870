"""`set`, `inc` and `dec` written for their form (issue 16): constant values and players' cells inlined, same effects."""
from __future__ import annotations

import pytest

from recycle.lang import values

from .test_actions import run


def test_constant_and_computed_values_in_game_and_player_cells():
    p, st = run("(do ((set (game str W) ASKED) (set (game sto N) 3)"
                " (all player 'P (do ((set ('P str WHO) CHOSEN) (inc (game sto N)) (set ('P sto K) (game sto N)))))"
                " (set ((current player) str WHO) ASKED)"
                " (set ((next player) sto K) 9)"
                " (inc ((current player) sto K))"
                " (all player 'P (do ((inc (game sto M) 2) (inc ('P sto C) (game sto M)))))))", players=3)
    assert st.status == 2, p.result(st).error
    v = lambda owner, kind, name: p.value(st, owner, kind, name)  # noqa: E731
    assert v("game", "str", "W") == "ASKED" and v("game", "sto", "N") == 6
    assert [v(i, "str", "WHO") for i in range(3)] == ["ASKED", "CHOSEN", "CHOSEN"]
    assert [v(i, "sto", "K") for i in range(3)] == [5, 9, 6]  # 4, 5, 6 set; player 1's 9; player 0's 4 + 1
    assert [v(i, "sto", "C") for i in range(3)] == [2, 4, 6]


@pytest.mark.parametrize("items", [
    "(do ((set (game sto X) 1) (repeat 5000 (inc (game sto X) (game sto X)))))",
    "(do ((all player 'P (do ((set ('P sto X) 1) (repeat 5000 (inc ('P sto X) ('P sto X))))))))",
    "(do ((set ((current player) sto X) 1)"
    " (repeat 5000 (dec ((current player) sto X) (+ ((current player) sto X) ((current player) sto X)"
    " ((current player) sto X))))))",
])
def test_sums_past_the_integer_limit_stop_the_game_with_the_message_of_the_operation(items):
    p, st = run(items)
    r = p.result(st)
    assert r.outcome == "error" and r.error.cls == "limit"
    op = "dec" if "(dec" in items else "inc"
    assert f"({op} … " in r.error.message and str(values.MAX_INT_DIGITS) in r.error.message


def test_a_computed_value_past_the_limit_is_refused_by_set():
    p, st = run("(do ((set (game sto X) (* 9 (^ 10 299))) (set ((current player) sto Y) (+ (game sto X) (game sto X)))))")
    r = p.result(st)
    assert r.outcome == "error" and r.error.cls == "limit" and "the value stored" in r.error.message
    assert p.value(st, "game", "sto", "X") == 9 * 10**299 and p.value(st, 0, "sto", "Y") == 0


def test_sets_while_options_are_built_are_undone():
    p, st = run("(choice ((any player 'P (do ((set ('P str WHO) CHOSEN) (inc ((current player) sto K) 2))))))")
    assert st.status == 1 and len(st.opts) == 2
    assert [p.value(st, i, "str", "WHO") for i in range(2)] == ["", ""]
    assert p.value(st, 0, "sto", "K") == 0
    p.apply(st, 1)
    assert [p.value(st, i, "str", "WHO") for i in range(2)] == ["", "CHOSEN"] and p.value(st, 0, "sto", "K") == 2


def test_the_previous_and_next_players_cells():
    # player 0 current of 3: previous is 2; next is 1, or the player queued by `cycle next` (2)
    p, st = run("(do ((inc ((previous player) sto A) 5) (dec ((next player) sto A) 2) (set ((next player) str W) X)"
                " (cycle next (2 player))"
                " (inc ((next player) sto B) 7) (set ((next player) str V) Y) (set ((previous player) sto C) 4)))",
                players=3)
    assert st.status == 2, p.result(st).error
    v = lambda owner, kind, name: p.value(st, owner, kind, name)  # noqa: E731
    assert [v(i, "sto", "A") for i in range(3)] == [0, -2, 5]
    assert [v(i, "str", "W") for i in range(3)] == ["", "X", ""]
    assert [v(i, "sto", "B") for i in range(3)] == [0, 0, 7]
    assert [v(i, "str", "V") for i in range(3)] == ["", "", "Y"]
    assert [v(i, "sto", "C") for i in range(3)] == [0, 0, 4]
