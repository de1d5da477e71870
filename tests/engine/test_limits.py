"""The run-time limits of a game (docs/limits.md): options per decision, integers, ranges, repeats,
cards created in play, memory and deep nesting.  Each stops the game with a reported outcome."""
from __future__ import annotations

import pytest

from recycle.compiler import compile_game
from recycle.engine.play import play_game
from recycle.engine.program import DEFAULT_MAX_OPTIONS
from recycle.lang import parse_game
from recycle.lang import values as V
from recycle.lang.sexprs import MAX_DEPTH
from recycle.players.random_player import RandomPlayer


def G(items, limits="", score="0", decks="(create deck (game iloc STOCK) (deck (RANK (A, B))))", game_atomic=""):
    text = (f"(game {limits} (setup (create players 2) {decks}) {items} {game_atomic} "
            f"(scoring max {score}))")
    prog = compile_game(parse_game(text, "t.gdl"))
    prog.test_text = text
    return prog


def play(prog, seed=1):
    return play_game(prog, seed, [RandomPlayer(), RandomPlayer()])


# ------------------------------------------------------------------ options


def test_option_limit_stops_the_game_as_a_limit():
    prog = G("(choice ((any (range 1..10) 'A (set (game sto X) 'A))))", limits="(limits (options 5))")
    assert prog.max_options == 5
    r = play(prog)
    assert r.outcome == "limit" and r.end_reason == "option_limit"
    assert r.limit.which == "options" and r.limit.position == f"t.gdl:1:{prog.test_text.index('(choice') + 1}"
    assert r.scores == [0, 0]  # provisional, as at the other limits


def test_option_limit_exactly_reached_is_fine():
    r = play(G("(choice ((any (range 1..5) 'A (set (game sto X) 'A))))", limits="(limits (options 5))"))
    assert r.outcome == "completed"


def test_default_option_limit_on_nested_loops():
    prog = G("(choice ((any (range 1..1000) 'A (any (range 1..1000) 'B (set (game sto X) 'B)))))")
    assert prog.max_options == DEFAULT_MAX_OPTIONS
    r = play(prog)
    assert r.end_reason == "option_limit"


def test_loops_making_no_option_are_bounded_by_the_walk():
    loops = "(any (range 1..100000) 'A (any (range 1..100000) 'B (if (== 'A 0) (turn pass))))"
    r = play(G(f"(choice ({loops} (turn pass)))", limits="(limits (options 100))"))
    assert r.end_reason == "option_limit"


def test_option_limit_in_an_atomic_game_leaves_the_state_as_it_was():
    body = "(atomic (do ((set (game sto X) 'A))) (require (== 1 1)))"
    prog = G(f"(choice ((any (range 1..50) 'A {body})))", limits="(limits (options 10))")
    st = prog.new_game(1)
    r = prog.result(st)
    assert r.end_reason == "option_limit"
    assert prog.value(st, "game", "sto", "X") == 0  # every path walked was undone


# ------------------------------------------------------------------ integers, ranges, repeats, cards


@pytest.mark.parametrize("score", ["(^ (+ 9 1) 100000000)", "(* (^ 10 200) (^ (+ 9 1) 200))",
                                   "(fib (* 1000 1000))", "(tri (^ (+ 9 1) 200))"])
def test_integer_limit_in_play(score):
    r = play(G("(do ((turn pass)))", score=score))
    assert r.outcome == "error" and r.error.cls == "limit" and "MAX_INT_DIGITS" in r.error.message


def test_stored_sums_stay_within_the_integer_limit():
    items = "(do ((set (game sto X) 1) (repeat 5000 (inc (game sto X) (game sto X)))))"
    r = play(G(items, score="(game sto X)"))
    assert r.outcome == "error" and r.error.cls == "limit"
    items = "(do ((set (game sto X) 1) (repeat 995 (set (game sto X) (+ (game sto X) (game sto X))))))"
    r = play(G(items, score="(game sto X)"))
    assert r.outcome == "completed" and r.scores[0] == 2**995  # 300 digits: just within


@pytest.mark.parametrize(("items", "name"), [
    ("(do ((repeat 10000000000 (set (game sto X) 1))))", "MAX_REPEAT"),
    ("(do ((all (range 1..10000000000) 'I (set (game sto X) 'I))))", "MAX_RANGE"),
    ("(choice ((repeat 10000000000 (set (game sto X) 1))))", "MAX_REPEAT"),
    ("(choice ((any (range 1..10000000000) 'I (set (game sto X) 'I))))", "MAX_RANGE"),
])
def test_huge_repeats_and_ranges_in_play(items, name):
    r = play(G(items))
    assert r.outcome == "error" and r.error.cls == "limit" and name in r.error.message


def test_cards_created_in_play_are_bounded():
    vals = ", ".join("V" + c for c in "ABCDEFGHIJ")
    deck = f"(create deck (game vloc X) (deck (A ({vals})) (B ({vals})) (C ({vals}))))"
    r = play(G(f"(do ((repeat 100 {deck})))"))
    assert r.outcome == "error" and "MAX_CARDS" in r.error.message


def test_memory_error_in_play_is_the_games_resource_error(monkeypatch):
    def no_memory(a, b):
        raise MemoryError
    monkeypatch.setattr(V, "power", no_memory)  # the compiled `^` calls values.power when it runs
    prog = G("(do ((set (game sto X) (^ 2 10))))")
    r = play(prog)
    assert r.outcome == "error" and r.error.cls == "resource" and "--max-memory" in r.error.message


# ------------------------------------------------------------------ nesting


def test_nesting_at_the_limit_plays():
    depth = MAX_DEPTH - 2
    r = play(G("(do ((turn pass)))", score="(+ 1 " * depth + "0" + ")" * depth))
    assert r.outcome == "completed" and r.scores == [depth, depth]


def test_deep_choice_and_fused_atomic_conditions_play():
    deep_if = "(choice (" + "(if (== 1 1) " * 480 + "(turn pass)" + ")" * 480 + "))"
    assert play(G(deep_if)).outcome == "completed"
    cond = "(not " * 481 + "(== 1 2)" + ")" * 481  # true: the block is the only option
    r = play(G(f"(choice ((atomic (do ((set (game sto X) 1))) (require {cond}))))", score="(game sto X)"))
    assert r.outcome == "completed" and r.scores == [1, 1]


def test_integer_bound_keeps_scores_printable():
    assert len(str(V.INT_BOUND - 1)) == V.MAX_INT_DIGITS < 4300  # Python's str() limit
    assert float(V.INT_BOUND - 1) < 1.8e308


@pytest.mark.parametrize("items,ok", [
    ("(do ((set (game sto X) 99)))", True),
    ("(do ((set (game sto X) 100)))", False),
    ("(do ((set (game sto X) 99) (inc (game sto X) 1)))", False),
    ("(do ((set (game sto X) (- 0 99)) (dec (game sto X))))", False),
    ("(choice ((set (game sto X) 100) (turn pass)))", False),  # also while the options are built
    ("(choice ((do ((set (game sto X) 98) (inc (game sto X) 1)))))", True),
])
def test_a_stored_integer_stays_within_the_bound(monkeypatch, items, ok):
    monkeypatch.setattr(V, "INT_BOUND", 100)  # read when the game is compiled
    r = play(G(items, score="(game sto X)"))
    if ok:
        assert r.outcome == "completed" and abs(r.scores[0]) == 99
    else:
        assert r.outcome == "error" and r.error.cls == "limit"
