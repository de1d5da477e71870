"""Extension E5: folds `(sum|max|min COLL 'X INT)` and `(scoring … (tiebreak …))`, with R2-T2 and R2-T3."""
from __future__ import annotations

import pytest

from recycle.compiler import compile_game
from recycle.engine.algorithms import competition_ranks
from recycle.engine.play import play_game
from recycle.errors import LoadError
from recycle.lang import parse_game
from recycle.players.random_player import RandomPlayer
from support.games import make_game, run, value_of

# ---------------------------------------------------------------- folds


@pytest.mark.parametrize("expr,want", [
    ("(sum (range 1..4) 'I (* 'I 'I))", 30),
    ("(max (range 1..4) 'I (- 10 'I))", 9),
    ("(min (range 1..4) 'I (- 10 'I))", 6),
    ("(max (range 1..3) 'I (- 0 'I))", -1),
    ("(sum (filter (range 1..4) 'I (> 'I 9)) 'I 'I)", 0),
    ("(max (filter (range 1..4) 'I (> 'I 9)) 'I 'I)", 0),
    ("(min (filter (range 1..4) 'I (> 'I 9)) 'I 'I)", 0),
    ("(sum player 'P (+ 1 (pid 'P)))", 1 + 2 + 3),
    ("(sum (A, BB, CCC) 'S (size (filter (range 1..1) 'K (== 'S BB))))", 1),
    ("(sum (partition RANK (game iloc STOCK)) 'G (^ (size 'G) 2))", 9 * 16),
    ("(max (partition SUIT (game iloc STOCK)) 'G (size 'G))", 9),
    ("(sum (game iloc STOCK) 'C (size (filter (range 1..1) 'K (== (cardatt SUIT 'C) H))))", 9),
    ("(sum (range 1..3) 'I (sum (range 1..'I) 'I 'I))", 1 + 3 + 6),  # an inner binder shadows the outer one
])
def test_folds(expr, want):
    assert value_of(expr, players=3)[2] == want


def test_folds_are_told_apart_from_using_forms():
    before = "(do ((set (game points V) (((SUIT : H) 1) ((SUIT : S) 2)))))"
    assert value_of("(sum (game iloc STOCK) using (game points V))", before=before)[2] == 9 * 3
    assert value_of("(score (max (game iloc STOCK) using (game points V)) using (game points V))", before=before)[2] == 2
    assert value_of("(max (game iloc STOCK) 'C (score 'C using (game points V)))", before=before)[2] == 2


@pytest.mark.parametrize("expr,words", [
    ("(sum (range 1..3) 'I (== 'I 1))", "expected an Integer"),
    ("(max 3 'I 'I)", "expected a collection"),
    ("(sum (range 1..3) I 'I)", "neither `using` nor a variable"),
    ("(min (range 1..3) 'I)", "takes 4 elements"),
])
def test_fold_type_errors(expr, words):
    with pytest.raises(LoadError) as info:
        parse_game(make_game("", f"(do ((set (game sto X) {expr})))"))
    assert words in info.value.diagnostics[0].message, info.value.diagnostics[0].format()


# ---------------------------------------------------------------- tie-breaks


def test_competition_ranks_with_keys():
    assert competition_ranks([5, 5, 3], "max", [(1,), (2,), (9,)]) == ([2, 1, 3], [0.0, 1.0, 0.0])
    assert competition_ranks([5, 5, 3], "max", [(1, 0), (1, 0), (9, 9)]) == ([1, 1, 3], [0.5, 0.5, 0.0])
    assert competition_ranks([5, 5, 5], "min", [(1, 7), (1, 3), (0, 9)]) == ([3, 2, 1], [0.0, 0.0, 1.0])
    assert competition_ranks([5, 5], "max", None) == ([1, 1], [0.5, 0.5])


RUMMY2 = """
(game
 (setup (create players 2)
  {decks})
 (do ((set (game points SEQUENCE) (((SUIT : SPADES) 100) ((SUIT : HEARTS) 200) ((SUIT : DIAMONDS) 300) ((SUIT : CLUBS) 400)
        ((RANK : ACE) 1) ((RANK : TWO) 2) ((RANK : THREE) 3) ((RANK : FOUR) 4) ((RANK : FIVE) 5)
        ((RANK : SIX) 6) ((RANK : SEVEN) 7) ((RANK : EIGHT) 8) ((RANK : NINE) 9)))))
 (scoring max
  (+ (sum (runs largest 1 ((current player) vloc TAKEN) using (game points SEQUENCE)) 'R (^ (size 'R) 2))
     (sum (partition RANK ((current player) vloc TAKEN)) 'P (^ (size 'P) 2)))
  (tiebreak (sum (runs largest 1 ((current player) vloc TAKEN) using (game points SEQUENCE)) 'R (^ 37 (size 'R)))
            (sum (partition RANK ((current player) vloc TAKEN)) 'P (^ 37 (size 'P)))
            (pid (current player)))))
"""
R = {"A": "ACE", "2": "TWO", "3": "THREE", "4": "FOUR", "5": "FIVE", "6": "SIX", "7": "SEVEN", "8": "EIGHT", "9": "NINE"}
S = {"S": "SPADES", "H": "HEARTS", "D": "DIAMONDS", "C": "CLUBS"}


def result(x: str, y: str):
    """The result of RUMMY2 with player 1 holding the cards x and player 2 the cards y (e.g. '3S 4S 5H')."""
    lines = []
    for who, cards in ((0, x), (1, y)):
        for c in cards.split():
            lines.append(f"(create deck (({who} player) vloc TAKEN) (deck (RANK ({R[c[0]]})) (SUIT ({S[c[1]]}))))")
    text = RUMMY2.replace("  {decks})", "  " + "\n  ".join(lines) + ")")
    prog = compile_game(parse_game(text))
    st = prog.new_game(1)
    return prog.result(st)


W46 = "3S 4S 5S 6S 7S 5H 6H 5C"
W44 = "AD 2D 3D 4D 5D AH AS 2C"


def test_r2_t2_scores():
    r = result(W46, W44)
    assert r.scores == [46, 44] and r.ranks == [1, 2]
    r = result(W46 + " 7H", "4H")
    assert r.scores == [54, 2]


def test_r2_t3_runs_decide():
    r = result("AS 2S 3S", "AH AD AC")
    assert r.scores == [12, 12] and r.ranks == [1, 2] and r.shares == [1.0, 0.0] and r.winners == [0]


def test_r2_t3_sets_decide():
    r = result("5S 5H 5D 5C AS 9H", "2S 2H 2D 7S 7H 7D")
    assert r.scores == [24, 24] and r.ranks == [1, 2]


def test_r2_t3_full_tie_goes_to_the_last_key_and_equal_keys_tie():
    r = result("AS", "9H")
    assert r.scores == [2, 2] and r.ranks == [2, 1] and r.winners == [1]  # second mover (pid key)
    text = make_game("", "(do ((turn pass)))", scoring="(scoring min 5 (tiebreak 1 (pid (0 player))))")
    prog, st = run(text)
    r = prog.result(st)
    assert r.ranks == [1, 1] and r.shares == [0.5, 0.5]


def test_tiebreaks_in_min_games_and_provisional_results():
    text = make_game("", "(stage player (end (== 1 2)) (choice ((inc ((current player) sto S)))))",
                     scoring="(scoring min 0 (tiebreak ((current player) sto S)))")
    prog = compile_game(parse_game(text))
    r = play_game(prog, 1, [RandomPlayer(), RandomPlayer()], max_decisions=3)
    assert r.outcome == "limit" and r.ranks == [2, 1]  # p1 moved twice, p2 once: fewer is better


def test_tiebreak_syntax():
    with pytest.raises(LoadError, match="expected \\(tiebreak"):
        parse_game(make_game("", scoring="(scoring max 0 (keys 1))".replace("keys", "KEYS")))
    with pytest.raises(LoadError, match="expected an Integer"):
        parse_game(make_game("", scoring="(scoring max 0 (tiebreak (== 1 1)))"))
