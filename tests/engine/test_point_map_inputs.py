"""Point map forms cached by their computed inputs (issue 16): the same map for the same values, a new one otherwise."""
from __future__ import annotations

from recycle.engine.state import PointMap

from .test_actions import run


def aw(*awards):
    """The awards tuple of a map whose every award has one condition: aw((KEY, VALUE, POINTS), ...)."""
    return tuple((((k, v),), pts) for k, v, pts in awards)


def test_a_map_with_one_computed_value_is_looked_up_by_that_value():
    p, st = run("(do ((set (game str L) A)"
                " (set (game points P) (((RANK : (game str L)) 100) ((RANK : A) 1)))"
                " (set (game sto X) (score (bottom (game iloc STOCK)) using (game points P)))"
                " (set (game str L) TWO)"
                " (set (game points Q) (((RANK : (game str L)) 100) ((RANK : A) 1)))"
                " (set (game sto Y) (score (bottom (game iloc STOCK)) using (game points Q)))"
                " (set (game str L) A)"
                " (set (game points R) (((RANK : (game str L)) 100) ((RANK : A) 1)))))")
    assert st.status == 2, p.result(st).error
    # the bottom card is the ace: 101 with L = A, 1 with L = TWO
    assert p.value(st, "game", "sto", "X") == 101 and p.value(st, "game", "sto", "Y") == 1
    pm_p, pm_q, pm_r = (p.value(st, "game", "points", k) for k in "PQR")
    assert pm_p.awards == aw(("RANK", "A", 100), ("RANK", "A", 1)) == pm_r.awards
    assert pm_q.awards == aw(("RANK", "TWO", 100), ("RANK", "A", 1))
    assert pm_p is not pm_q  # another value, another map


def test_the_same_form_run_again_with_the_same_value_gives_the_same_map():
    p, st = run("(do ((set (game str L) A)"
                " (all (TWO, A) 'N (set (game points P) (((RANK : (game str L)) 100) ((RANK : 'N) 1))))))")
    assert st.status == 2, p.result(st).error
    pm = p.value(st, "game", "points", "P")
    assert isinstance(pm, PointMap) and pm.awards == aw(("RANK", "A", 100), ("RANK", "A", 1))
    again = p.new_game(2)  # another game of the same program: the form's values seen before, its map kept
    assert p.value(again, "game", "points", "P") is pm


def test_several_computed_keys_values_and_points_are_evaluated_in_order():
    p, st = run("(do ((set (game str K) RANK) (set (game str V) THREE) (set (game sto N) 5)"
                " (set (game points P) ((((game str K) : (game str V)) (game sto N)) ((RANK : A) (game sto N))))"
                " (set (game sto N) 7)"
                " (set (game points Q) ((((game str K) : (game str V)) (game sto N)) ((RANK : A) (game sto N))))"
                " (set (game sto X) (sum (game iloc STOCK) using (game points P)))"
                " (set (game sto Y) (sum (game iloc STOCK) using (game points Q)))))")
    assert st.status == 2, p.result(st).error
    assert p.value(st, "game", "points", "P").awards == aw(("RANK", "THREE", 5), ("RANK", "A", 5))
    assert p.value(st, "game", "points", "Q").awards == aw(("RANK", "THREE", 7), ("RANK", "A", 7))
    assert p.value(st, "game", "sto", "X") == 10 and p.value(st, "game", "sto", "Y") == 14


def test_a_constant_map_is_the_programs_cached_map():
    p, st = run("(do ((set (game points P) (((RANK : A) 1) ((RANK : TWO) 2)))"
                " (set (game points Q) (((RANK : A) 1) ((RANK : TWO) 2)))))")
    assert st.status == 2, p.result(st).error
    assert p.value(st, "game", "points", "P") is p.value(st, "game", "points", "Q")
