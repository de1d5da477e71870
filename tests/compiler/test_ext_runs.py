"""Extension E3: `runs … (step K) (cyclic M)` and `isrun`, with hand-computed expectations and LR-T2/LR-T3."""
from __future__ import annotations

import random

import pytest

from recycle.engine import algorithms as alg
from support.games import make_game, run, value_of

RANKS = "ACE, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING"
RANKVAL = ("(set (game points RV) (" + " ".join(f"((RANK : {r}) {i})" for i, r in enumerate(RANKS.split(", "), 1)) + "))")
SHORT = {"A": "ACE", "2": "TWO", "3": "THREE", "4": "FOUR", "5": "FIVE", "6": "SIX", "7": "SEVEN", "8": "EIGHT",
         "9": "NINE", "T": "TEN", "J": "JACK", "Q": "QUEEN", "K": "KING"}


def hand_deck(cards: str) -> str:
    """Cards like '7 9 J' (one suit), created bottom to top in (game vloc HAND)."""
    return " ".join(f"(create deck (game vloc HAND) (deck (RANK ({SHORT[c]}))))" for c in cards.split())


def ranks_of(prog, st, coll):
    inv = {v: k for k, v in SHORT.items()}
    return [[inv[st.catt[c]["RANK"]] for c in pile] for pile in coll]


def runs_of(cards: str, form: str):
    prog, st, v = value_of(form, hand_deck(cards), f"(do ({RANKVAL}))")
    return ranks_of(prog, st, v)


# ---------------------------------------------------------------- the algorithm on plain integers


def test_step_one_without_cycle_is_the_base_algorithm():
    rng = random.Random(0)
    for _ in range(500):
        scores = [rng.randint(0, 7) for _ in range(rng.randint(0, 8))]
        cards = list(range(len(scores)))
        for mode in ("all", "largest"):
            for n in (1, 2, 3):
                assert alg.runs_ext(cards, scores, n, mode, 1, None) == alg.runs(cards, scores, n, mode)
                # a cycle longer than the values never wraps: same runs
                assert alg.runs_ext(cards, scores, n, mode, 1, 50) == alg.runs(cards, scores, n, mode)


def test_step_two_blocks_by_residue_in_order_of_first_value():
    cards, scores = [0, 1, 2, 3, 4], [1, 2, 3, 4, 5]
    assert alg.runs_ext(cards, scores, 2, "largest", 2) == [[0, 2, 4], [1, 3]]
    assert alg.runs_ext(cards, scores, 2, "all", 2) == [[0, 2], [0, 2, 4], [2, 4], [1, 3]]
    assert alg.runs_ext(cards, scores, 3, "all", 2) == [[0, 2, 4]]


def test_cyclic_wrap_all_versus_largest():
    # J Q K A with 13 values: K is 0 mod 13; the block starts at J and wraps
    cards, scores = [0, 1, 2, 3], [11, 12, 13, 1]
    assert alg.runs_ext(cards, scores, 3, "largest", 1, 13) == [[0, 1, 2, 3]]
    assert alg.runs_ext(cards, scores, 3, "all", 1, 13) == [[0, 1, 2], [0, 1, 2, 3], [1, 2, 3]]
    assert alg.runs_ext(cards, scores, 3, "all", 1, None) == [[0, 1, 2]]  # no wrap without cyclic


def test_a_whole_cycle_rotations_and_repeated_values():
    cards = [0, 1, 2, 3]
    assert alg.runs_ext(cards, [0, 1, 2, 3], 3, "largest", 1, 4) == [[0, 1, 2, 3]]
    assert alg.runs_ext(cards, [0, 1, 2, 3], 3, "all", 1, 4) == [[0, 1, 2], [0, 1, 2, 3], [1, 2, 3], [2, 3, 0], [3, 0, 1]]
    # two cards of value 0: the run may go round once more (never reusing a card)
    assert alg.runs_ext([0, 1, 2, 3, 4], [0, 1, 2, 3, 0], 5, "largest", 1, 4) == [[0, 1, 2, 3, 4]]
    assert alg.runs_ext([0, 1, 2, 3, 4], [0, 1, 2, 3, 0], 4, "largest", 1, 4) == [[0, 1, 2, 3, 4]]
    # descending with a cycle is step M-1
    assert alg.runs_ext([0, 1, 2], [3, 2, 1], 3, "all", 3, 4) == [[0, 1, 2]]
    assert alg.isrun([0, 1, 2], [3, 2, 1], 3, 4) and not alg.isrun([0, 1, 2], [3, 2, 1], 1, 4)


def test_equal_values_give_one_run_per_choice_of_cards():
    assert alg.runs_ext([0, 1, 2, 3], [1, 3, 3, 5], 3, "largest", 2) == [[0, 1, 3], [0, 2, 3]]


def test_invalid_step_and_cycle():
    for step, mod in ((0, None), (13, 13), (2, 1), (-1, None)):
        with pytest.raises(ValueError):
            alg.runs_ext([0], [1], 1, "all", step, mod)
    assert alg.isrun([0, 1, 2], [3, 2, 1], -1)  # isrun is order-sensitive: a negative step is allowed


# ---------------------------------------------------------------- through the language (LR-T2, LR-T3)


def test_lr_t3_meld_recognition_with_leap_and_cycle():
    melds = {"7 9 J": 2, "8 Q 3 7": 4, "A 7 K 6 Q": 6, "T J Q K A 2": 1, "5 7 9 J K 2 4": 2, "Q K A 2": 1}
    for cards, leap in melds.items():
        out = runs_of(cards, f"(runs largest 3 (game vloc HAND) using (game points RV) (step {leap}) (cyclic 13))")
        assert len(out) == 1 and sorted(out[0]) == sorted(cards.split()), (cards, out)
    for cards in ("7 9 Q", "7 9"):
        for leap in range(1, 7):
            assert runs_of(cards, f"(runs largest 3 (game vloc HAND) using (game points RV) (step {leap}) (cyclic 13))") == []
    # order-independence: the meld is found whatever the hand order
    assert runs_of("J 7 9", "(runs all 3 (game vloc HAND) using (game points RV) (step 2) (cyclic 13))") == [["7", "9", "J"]]


@pytest.mark.parametrize("leap,cycle", [(1, "4 5 6 7 8 9 T J Q K A 2 3"), (2, "4 6 8 T Q A 3 5 7 9 J K 2"),
                                        (3, "4 7 T K 3 6 9 Q 2 5 8 J A"), (4, "4 8 Q 3 7 J 2 6 T A 5 9 K"),
                                        (5, "4 9 A 6 J 3 8 K 5 T 2 7 Q"), (6, "4 T 3 9 2 8 A 7 K 6 Q 5 J")])
def test_lr_t2_leap_cycles_are_runs_in_order(leap, cycle):
    _prog, _st, v = value_of(f"(isrun (game vloc HAND) using (game points RV) (step {leap}) (cyclic 13))",
                           hand_deck(cycle), f"(do ({RANKVAL}))")
    assert v is True
    # the reverse order is the step 13 - L
    rev = " ".join(reversed(cycle.split()))
    assert value_of(f"(isrun (game vloc HAND) using (game points RV) (step {13 - leap}) (cyclic 13))",
                    hand_deck(rev), f"(do ({RANKVAL}))")[2] is True
    # the 13 cards are one largest run: the rotation starting at the lowest value modulo 13 (K = 13 = 0)
    out = runs_of(cycle, f"(runs largest 3 (game vloc HAND) using (game points RV) (step {leap}) (cyclic 13))")
    assert len(out) == 1 and out[0][0] == "K" and len(out[0]) == 13
    assert value_of(f"(isrun (top (runs largest 3 (game vloc HAND) using (game points RV) (step {leap}) (cyclic 13))) "
                    f"using (game points RV) (step {leap}) (cyclic 13))", hand_deck(cycle), f"(do ({RANKVAL}))")[2] is True


def test_two_packs_wrap_past_the_cycle():
    cards = "A 2 3 4 5 6 7 8 9 T J Q K A"
    out = runs_of(cards, "(runs largest 3 (game vloc HAND) using (game points RV) (cyclic 13))")
    assert out == [cards.split()]


def test_isrun_ascending_descending_and_duplicates():
    def isrun(cards, clauses=""):
        return value_of(f"(isrun (game vloc HAND) using (game points RV){clauses})", hand_deck(cards), f"(do ({RANKVAL}))")[2]

    assert isrun("3 4 5") is True and isrun("5 4 3") is False and isrun("3 5 4") is False
    assert isrun("5 4 3", " (step (- 0 1))") is True
    assert isrun("Q K A") is False and isrun("Q K A", " (cyclic 13)") is True
    assert isrun("2 A K", " (step 12) (cyclic 13)") is True
    assert isrun("3 5 7", " (step 2)") is True and isrun("3 5 8", " (step 2)") is False
    assert isrun("4") is True
    _prog, _st, v = value_of("(isrun (union (game vloc HAND) (game vloc HAND)) using (game points RV))", hand_deck("4"), f"(do ({RANKVAL}))")
    assert v is False  # a run never uses a card twice


def test_isrun_of_board_cells_reads_them_in_order():
    setup = hand_deck("3 4 5 7") + " (create board (game vloc ROW) (square 1 5))"
    before = (f"(do ({RANKVAL} (move (top (game vloc HAND)) (top (game vloc ROW 4))) (move (top (game vloc HAND)) (top (game vloc ROW 2)))"
              " (move (top (game vloc HAND)) (top (game vloc ROW 1))) (move (top (game vloc HAND)) (top (game vloc ROW 0)))))")
    # ROW: 3 4 5 . 7
    segs = "(components (filter (cells (game vloc ROW)) 'X (> (size 'X) 0)) (E, W))"
    assert value_of(f"(size (filter {segs} 'S (isrun 'S using (game points RV))))", setup, before)[2] == 2
    assert value_of(f"(size (filter {segs} 'S (and (>= (size 'S) 3) (isrun 'S using (game points RV)))))", setup, before)[2] == 1


def test_run_time_errors_of_bad_clauses():
    _prog, st = run(make_game(hand_deck("3 4"), f"(do ({RANKVAL} (set (game sto X) (size (runs all 1 (game vloc HAND) using (game points RV) (step 0))))))"))
    assert st.status == 4 and st.error.cls == "arithmetic" and "step" in st.error.message
    _prog, st = run(make_game(hand_deck("3 4"), f"(do ({RANKVAL} (set (game sto X) (size (runs all 1 (game vloc HAND) using (game points RV) (cyclic 1))))))"))
    assert st.status == 4 and st.error.cls == "arithmetic"
