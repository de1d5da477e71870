"""The load-time limits of recycle/lang (docs/limits.md): nesting, integers, ranges, cards, players, files.

Each bound is checked where the value is known, before anything that could hang or fill memory
runs, and reported as a positioned error naming the limit.
"""
from __future__ import annotations

import os
import time

import pytest

from recycle.errors import LoadError
from recycle.lang import ast as A
from recycle.lang import consts, parse_game
from recycle.lang import values as V
from recycle.lang.ast import T
from recycle.lang.check import setup as check_setup
from recycle.lang.consts import MAX_BOARD_CELLS, MAX_CONST_ELEMENTS, MAX_PLAYERS, parse_param
from recycle.lang.decks import MAX_CARDS, MAX_DESCRIBED_CARDS
from recycle.lang.load import load_game
from recycle.lang.printer import to_source
from recycle.lang.reader import read_sexprs
from recycle.lang.sexprs import MAX_DEPTH
from recycle.lang.source import MAX_FILE_BYTES, SourceFile, read_bytes
from support.games import definition_name as _name


def G(score="0", declare="1 'X", players="2", decks="(create deck (game iloc STOCK) (deck (RANK (A, B))))",
      items="(do ((turn pass)))", limits=""):
    return (f"(game {limits} (declare {declare}) (setup (create players {players}) {decks}) {items} "
            f"(scoring max {score}))")


def errors(text: str, params=None) -> list:
    with pytest.raises(LoadError) as e:
        parse_game(text, "t.gdl", params)
    return e.value.diagnostics


def nested(depth: int) -> str:
    return "(+ 1 " * depth + "0" + ")" * depth


# ------------------------------------------------------------------ nesting


def test_nesting_past_the_limit_is_refused_at_the_deepest_paren():
    text = G(nested(10_000))
    with pytest.raises(LoadError) as e:
        read_sexprs(SourceFile(text, "t.gdl"))
    [d] = e.value.diagnostics
    assert d.cls == "limit" and f"more than {MAX_DEPTH} parentheses deep" in d.message
    # the `(` at depth MAX_DEPTH + 1: (game, (scoring, then the sums
    assert d.span.line == 1 and text[d.span.column - 1] == "("
    assert text[: d.span.column - 1].count("(") - text[: d.span.column - 1].count(")") == MAX_DEPTH


def test_nesting_at_the_limit_checks_and_prints_back():
    depth = MAX_DEPTH - 2  # (game (scoring …
    game = parse_game(G(nested(depth)), "t.gdl")
    assert parse_game(to_source(game), "t.gdl") == game


def test_deep_actions_and_conditions_check():
    deep_if = "(do (" + "(if (== 1 1) " * 490 + "(turn pass)" + ")" * 490 + "))"
    deep_not = "(do ((if " + "(not " * 490 + "(== 1 1)" + ")" * 490 + " (turn pass))))"
    for items in (deep_if, deep_not):
        game = parse_game(G(items=items), "t.gdl")
        assert parse_game(to_source(game), "t.gdl") == game


# ------------------------------------------------------------------ integers


def test_integer_literal_digits():
    [d] = errors(G(declare="9" * (V.MAX_INT_DIGITS + 1) + " 'X"))
    assert d.cls == "limit" and "301 digits" in d.message and "MAX_INT_DIGITS" in d.message
    parse_game(G(declare="9" * V.MAX_INT_DIGITS + " 'X"))  # exactly at the limit: fine
    parse_game(G(declare="0" * 400 + "7 'X"))  # leading zeros are not digits of the value


@pytest.mark.parametrize("expr", ["(^ 10 100000000)", "(^ 2 1000)", "(fib 100000000)", "(tri (^ 10 200))",
                                  "(* (^ 10 200) (^ 10 200))", "(+ (^ 10 299) (* 9 (^ 10 299)))",
                                  "(- (- 0 (^ 10 299)) (* 9 (^ 10 299)))"])
def test_constant_folding_is_bounded_and_fast(expr):
    start = time.perf_counter()
    ds = errors(G(declare=f"{expr} 'X"))
    assert time.perf_counter() - start < 5  # never computes the huge value (a bound, not a benchmark)
    assert any("more than 300 digits" in d.message for d in ds), ds


def test_values_refuse_before_computing():
    with pytest.raises(V.IntegerLimit):
        V.power(7, 10**18)
    with pytest.raises(V.IntegerLimit):
        V.product(10**200, 10**200)
    with pytest.raises(V.IntegerLimit):
        V.fib(10**12)
    assert V.power(-1, 10**18) == 1 and V.power(1, 10**18) == 1 and V.power(0, 10**18) == 0
    assert V.power(10, 299) == 10**299 and V.product(-(10**150), 10**149) == -(10**299)
    assert V.bounded(V.INT_BOUND - 1) == V.INT_BOUND - 1
    with pytest.raises(V.IntegerLimit):
        V.bounded(-V.INT_BOUND)


def test_param_values_are_bounded():
    with pytest.raises(ValueError, match="more than 300 digits"):
        parse_param("9" * 301, T.INT)
    with pytest.raises(ValueError, match="MAX_RANGE"):
        parse_param("1..10000000000", T.INTS)
    assert parse_param("1..5", T.INTS) == [1, 2, 3, 4, 5]


def test_constant_range_length():
    [d] = errors(G(declare="(range 1..10000000000) 'R"))
    assert "MAX_RANGE" in d.message
    parse_game(G(declare=f"(range 1..{V.MAX_RANGE}) 'R"))


# ------------------------------------------------------------------ cards and players


def test_deck_of_ten_billion_cards_is_refused_without_making_it():
    attrs = " ".join(f"(K{c} (A, B, C, D, E, F, G, H, I, J))" for c in "ABCDEFGHIJ")
    ds = errors(G(decks=f"(create deck (game iloc STOCK) (deck {attrs}))"))
    assert any(d.cls == "deck" and "10,000,000,000 cards" in d.message for d in ds)


def test_setup_decks_together_are_bounded():
    deck = "(create deck (game iloc STOCK) (deck (RANK (A, B))))"
    [d] = errors(G(declare="10000000000 'N", decks=f"(repeat 'N {deck})"))
    assert d.cls == "limit" and "setup creates 20,000,000,000 cards" in d.message and "MAX_CARDS" in d.message
    parse_game(G(decks=f"(repeat {MAX_CARDS // 2} {deck})"))


def test_players_are_bounded_with_parameters_too():
    [d] = errors(G(players="100000"))
    assert d.cls == "limit" and "MAX_PLAYERS" in d.message
    text = G(declare="2 'PLAYERS", players="'PLAYERS")
    [d] = errors(text, {"PLAYERS": "100000"})
    assert "(create players 100000)" in d.message
    parse_game(text, params={"PLAYERS": str(MAX_PLAYERS)})


def test_option_limit_in_limits():
    game = parse_game(G(limits="(limits (options 7))"))
    assert parse_game(to_source(game)) == game
    [d] = errors(G(limits="(limits (options 0))"))
    assert "a limit of options must be at least 1" in d.message


# ------------------------------------------------------------------ files


def test_special_files_are_refused_unread(tmp_path):
    with pytest.raises(LoadError, match="not a regular file"):
        load_game("/dev/zero")
    fifo = tmp_path / "pipe.gdl"
    os.mkfifo(fifo)
    with pytest.raises(LoadError, match="not a regular file"):
        load_game(fifo)  # would block for ever if it were opened for a plain read
    with pytest.raises(LoadError, match="is a directory"):
        load_game(tmp_path)


def test_file_size_is_capped(tmp_path):
    big = tmp_path / "big.gdl"
    big.write_bytes(b";;\n" * (MAX_FILE_BYTES // 3 + 1))
    with pytest.raises(LoadError, match="larger than 1,000,000 bytes"):
        load_game(big)
    assert len(read_bytes(big, limit=4 * MAX_FILE_BYTES)) == big.stat().st_size


# ------------------------------------------------------------------ definitions




def test_a_long_chain_of_definitions_is_refused_by_its_expanded_depth():
    n = 3000
    defs = " ".join(f"(define {_name(i)} (+ 1 ({_name(i + 1)})))" for i in range(n)) + f" (define {_name(n)} 0)"
    text = f"(game {defs} (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (A, B))))) " \
           f"(do ((turn pass))) (scoring max ({_name(0)})))"
    [d] = errors(text)
    assert d.cls == "limit" and "nest more than 500 parentheses deep once expanded" in d.message
    assert "(DA → DB → DC → … →" in d.message


def test_definitions_doubling_at_each_level_are_refused_by_their_expanded_size():
    n = 60  # 2^60 uses once expanded
    defs = " ".join(f"(define {_name(i)} (+ ({_name(i + 1)}) ({_name(i + 1)})))" for i in range(n))
    text = f"(game {defs} (define {_name(n)} 1) (setup (create players 2) " \
           "(create deck (game iloc STOCK) (deck (RANK (A, B))))) " \
           f"(do ((turn pass))) (scoring max ({_name(0)})))"
    start = time.perf_counter()
    [d] = errors(text)
    assert time.perf_counter() - start < 20  # stops early (a bound, not a benchmark)
    assert d.cls == "limit" and "MAX_EXPANDED_FORMS" in d.message


def test_a_short_chain_of_definitions_still_expands():
    defs = " ".join(f"(define {_name(i)} (+ 1 ({_name(i + 1)})))" for i in range(100)) + f" (define {_name(100)} 0)"
    text = f"(game {defs} (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (A, B))))) " \
           f"(do ((turn pass))) (scoring max ({_name(0)})))"
    parse_game(text)


@pytest.mark.parametrize("where", ["setup", "play"])
def test_boards_are_bounded(where):
    board = "(create board (game vloc MAT) (square 100000 100000))"
    deck = "(create deck (game iloc STOCK) (deck (RANK (A, B))))"
    text = G(decks=f"{deck} {board}") if where == "setup" else G(items=f"(do ({board}))")
    [d] = errors(text)
    assert "10,000,000,000 cells" in d.message and "MAX_CELLS" in d.message
    parse_game(G(items="(do ((create board (game vloc MAT) (hex 4 5 6 5 4))))"))


# ------------------------------------------------------------------ aggregate bounds of a whole game


def at(text: str, d) -> str:
    """The text of a one-line game from where a diagnostic points."""
    assert d.span.line == 1
    return text[d.span.column - 1:]


def game_with(declares: str) -> str:
    return G().replace("(declare 1 'X)", declares)


def test_declares_together_are_bounded_before_building(monkeypatch):
    made = []  # the declares whose values were made
    real = consts.const_value
    monkeypatch.setattr(consts, "const_value", lambda node, env: made.append(node) or real(node, env))
    per = V.MAX_RANGE - 1
    fit = MAX_CONST_ELEMENTS // per  # this many ranges of per numbers fit, one more does not
    declares = " ".join(f"(declare (range 1..{per}) 'X{_name(i)})" for i in range(fit + 50))
    text = game_with(declares)
    [d] = errors(text)
    assert d.cls == "limit" and "MAX_CONST_ELEMENTS" in d.message
    assert f"{(fit + 1) * per:,} list elements up to 'X{_name(fit)}" in d.message
    assert at(text, d).startswith(f"(declare (range 1..{per}) 'X{_name(fit)})")
    # the declare that passes is refused before its range is made, and no later one is looked at
    assert sum(isinstance(m, A.Range) for m in made) == fit
    made.clear()
    fits = " ".join(f"(declare (range 1..{per}) 'X{_name(i)})" for i in range(fit))
    parse_game(game_with(fits))


def test_declared_lists_count_parameters_too():
    per = V.MAX_RANGE
    n = MAX_CONST_ELEMENTS // per + 1
    declares = " ".join(f"(declare (range 1..2) 'R{_name(i)})" for i in range(n))
    text = game_with(declares)
    params = {f"R{_name(i)}": f"1..{per}" for i in range(n)}
    [d] = errors(text, params)
    assert d.cls == "limit" and f"up to 'R{_name(n - 1)}" in d.message and "MAX_CONST_ELEMENTS" in d.message


def test_decks_together_are_bounded_before_expanding(monkeypatch):
    expanded = []
    monkeypatch.setattr(check_setup, "expand_deck", lambda attributes: expanded.append(attributes) or [])
    vals = "(A, B, C, D, E, F, G, H, I, J)"
    big = "(create deck (game iloc STOCK) (deck " + " ".join(f"(K{c} {vals})" for c in "ABCDE") + "))"
    fit = MAX_DESCRIBED_CARDS // MAX_CARDS  # decks of exactly MAX_CARDS cards
    text = G(items="(do (" + " ".join([big] * (fit + 100)) + " (turn pass)))")
    [d] = errors(text)
    assert d.cls == "limit" and "MAX_DESCRIBED_CARDS" in d.message
    # the setup deck's 2 cards come first, so the fit-th deck of the do passes the limit
    assert f"describe {fit * MAX_CARDS + 2:,} cards" in d.message
    assert at(text, d).startswith(big) and text[:d.span.column - 1].count(big) == fit - 1
    assert len(expanded) == fit  # the setup deck and fit - 1 of the do: the one that passes is not made


def test_boards_together_are_bounded_with_owners_counted():
    deck = "(create deck (game iloc STOCK) (deck (RANK (A, B))))"
    board = "(create board (game vloc M{}) (square 100 100))"  # 10,000 cells
    fit = MAX_BOARD_CELLS // 10_000
    text = G(decks=deck + " " + " ".join(board.format(_name(i)) for i in range(fit + 5)))
    [d] = errors(text)
    assert d.cls == "limit" and "MAX_BOARD_CELLS" in d.message and f"{(fit + 1) * 10_000:,} cells" in d.message
    assert at(text, d).startswith(board.format(_name(fit)))
    parse_game(G(decks=deck + " " + " ".join(board.format(_name(i)) for i in range(fit))))
    # one board of each player's: counted once per player
    mine = "(create board ('P vloc MAT) (square 100 100))"
    [d] = errors(G(players="21", decks=deck, items=f"(do ((all player 'P {mine})))"))
    assert d.cls == "limit" and "210,000 cells" in d.message


def test_declared_name_lists_count_too():
    ranges = " ".join(f"(declare (range 1..{V.MAX_RANGE}) 'R{_name(i)})" for i in range(9))
    names = ", ".join(["A"] * (MAX_CONST_ELEMENTS - 9 * V.MAX_RANGE + 1))
    [d] = errors(game_with(f"{ranges} (declare ({names}) 'N)"))
    assert d.cls == "limit" and f"{MAX_CONST_ELEMENTS + 1:,} list elements up to 'N" in d.message
    parse_game(game_with(f"{ranges} (declare ({names[3:]}) 'N)"))  # one name fewer: at the limit
