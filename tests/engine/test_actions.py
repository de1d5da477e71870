"""Engine: actions (§7), piles and references (§8), collections (§9), values (§10–§14), scoring (§15)."""
from __future__ import annotations

import os
import tempfile

import pytest

from recycle.compiler import compile_game
from recycle.errors import UsageError
from recycle.lang import load_game, parse_game

RANKS13 = "(RANK (A, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, J, Q, K))"
SCORING = "(scoring max ((current player) sto SCORE))"


def G(body, players=2, deck="(RANK (A, TWO, THREE, FOUR, FIVE))", setup_extra="", scoring=SCORING, declares="",
      decks=None):
    decks = decks if decks is not None else f"(create deck (game iloc STOCK) (deck {deck}))"
    text = f"(game {declares} (setup (create players {players}) {setup_extra} {decks}) {body} {scoring})"
    return compile_game(parse_game(text, "t.rcy"))


def run(body, **kw):
    """Compile, play to the first decision or the end; return (prog, state)."""
    p = G(body, **kw)
    st = p.new_game(1)
    return p, st


def R(p, st, cards):
    return [st.catt[c]["RANK"] for c in cards]


def err(p, st):
    r = p.result(st)
    assert r.outcome == "error", r
    return r.error.cls


# ---------------------------------------------------------------- move


def test_move_positions_top_bottom_index():
    p, st = run("(do ((move (top (game iloc STOCK)) (top (game vloc T)))"  # FIVE
                "     (move (bottom (game iloc STOCK)) (top (game vloc T)))"  # A
                "     (move (top (game iloc STOCK)) (bottom (game vloc T)))"  # FOUR
                "     (move (1 (game iloc STOCK)) (1 (game vloc T)))))")  # THREE
    assert R(p, st, p.pile(st, "game", "vloc", "T")) == ["FOUR", "THREE", "FIVE", "A"]
    assert R(p, st, p.pile(st, "game", "iloc", "STOCK")) == ["TWO"]


def test_move_top_to_bottom_of_the_same_pile():
    p, st = run("(do ((move (top (game iloc STOCK)) (bottom (game iloc STOCK)))))")
    assert R(p, st, p.pile(st, "game", "iloc", "STOCK")) == ["FIVE", "A", "TWO", "THREE", "FOUR"]


def test_move_top_onto_the_top_of_its_own_pile_leaves_the_card_there():
    # language.md §5.1: the card is taken off and put back; in a choice the option is built,
    # undone and replayed, the path that once failed with an internal IndexError
    p, st = run("(do ((move (top (game iloc STOCK)) (top (game iloc STOCK)))))"
                "(stage player (end (== ((1 player) sto SCORE) 1))"
                " (choice ((move (top (game iloc STOCK)) (top (game iloc STOCK)))"
                "          (move (bottom (game iloc STOCK)) (top (game iloc STOCK)))))"
                " (do ((inc ((current player) sto SCORE) 1))))")
    assert R(p, st, p.pile(st, "game", "iloc", "STOCK")) == ["A", "TWO", "THREE", "FOUR", "FIVE"]
    assert len(p.options(st)) == 2
    p.apply(st, 0)
    assert R(p, st, p.pile(st, "game", "iloc", "STOCK")) == ["A", "TWO", "THREE", "FOUR", "FIVE"]
    p.apply(st, 1)
    assert R(p, st, p.pile(st, "game", "iloc", "STOCK")) == ["TWO", "THREE", "FOUR", "FIVE", "A"]


def test_move_of_a_card_in_a_variable_to_a_top():
    """(move 'C (top X)): each option moves its own card; building them leaves the piles as they were."""
    p, st = run("(stage player (end (== ((1 player) sto SCORE) 1))"
                " (choice ((any (game iloc STOCK) 'C (move 'C (top (game vloc T))))"
                "          (any (game iloc STOCK) 'C ((== (cardatt RANK 'C) TWO) (move 'C (top (game iloc STOCK)))))))"
                " (do ((inc ((current player) sto SCORE) 1))))")
    assert R(p, st, p.pile(st, "game", "iloc", "STOCK")) == ["A", "TWO", "THREE", "FOUR", "FIVE"]
    assert len(p.options(st)) == 6
    p.apply(st, 5)  # TWO to the top of its own pile
    assert R(p, st, p.pile(st, "game", "iloc", "STOCK")) == ["A", "THREE", "FOUR", "FIVE", "TWO"]
    p.apply(st, 1)  # the second card, THREE
    assert R(p, st, p.pile(st, "game", "vloc", "T")) == ["THREE"]
    assert R(p, st, p.pile(st, "game", "iloc", "STOCK")) == ["A", "FOUR", "FIVE", "TWO"]
    p, st = run("(do ((let (top (game vloc EMPTY)) 'C (move 'C (top (game vloc T))))))")
    assert err(p, st) == "no-card"


def test_move_index_destination_may_equal_size_but_not_more():
    p, st = run("(do ((move (top (game iloc STOCK)) (0 (game vloc T))) (move (top (game iloc STOCK)) (1 (game vloc T)))))")
    assert R(p, st, p.pile(st, "game", "vloc", "T")) == ["FIVE", "FOUR"]
    p, st = run("(do ((move (top (game iloc STOCK)) (1 (game vloc T)))))")
    assert err(p, st) == "range"


def test_card_variable_designates_the_card_wherever_it_lies_now():
    p, st = run("(do ((let (top (game iloc STOCK)) 'C (do ((move 'C (top (game vloc A))) (move 'C (top (game vloc B)))"
                " (set (game str R) (cardatt RANK 'C)))))))")
    assert R(p, st, p.pile(st, "game", "vloc", "B")) == ["FIVE"] and p.pile(st, "game", "vloc", "A") == []
    assert p.value(st, "game", "str", "R") == "FIVE"


def test_moving_from_a_virtual_pile_moves_the_real_card_and_removes_the_entry():
    p, st = run("(do ((let (filter (game iloc STOCK) 'X (!= (cardatt RANK 'X) THREE)) 'V"
                " (do ((move (top 'V) (top (game vloc T))) (set (game sto N) (size 'V))"
                "      (move (bottom 'V) (top (game vloc T))) (set (game sto M) (size 'V)))))))")
    assert p.value(st, "game", "sto", "N") == 3 and p.value(st, "game", "sto", "M") == 2
    assert R(p, st, p.pile(st, "game", "vloc", "T")) == ["FIVE", "A"]
    assert R(p, st, p.pile(st, "game", "iloc", "STOCK")) == ["TWO", "THREE", "FOUR"]


def test_repeat_all_empties_a_virtual_pile_and_keeps_or_reverses_order():
    p, st = run("(do ((let (filter (game iloc STOCK) 'X (!= (cardatt RANK 'X) THREE)) 'V"
                " (do ((repeat all (move (top 'V) (top (game vloc T)))) (set (game sto N) (size 'V)))))"
                " (repeat all (move (bottom (game vloc T)) (top (game vloc U))))))")
    assert p.value(st, "game", "sto", "N") == 0
    assert R(p, st, p.pile(st, "game", "vloc", "U")) == ["FIVE", "FOUR", "TWO", "A"]
    assert R(p, st, p.pile(st, "game", "iloc", "STOCK")) == ["THREE"]


def test_repeat_all_of_an_empty_pile_does_nothing():
    p, st = run("(do ((repeat all (move (top (game vloc NONE)) (top (game vloc T)))) (inc (game sto X))))")
    assert st.status == 2 and p.value(st, "game", "sto", "X") == 1


def test_move_into_a_virtual_pile_is_an_error():
    p, st = run("(do ((let (filter (game iloc STOCK) 'X (== 1 1)) 'V (move (top (game iloc STOCK)) (top 'V)))))")
    assert err(p, st) == "pile-kind"


def via(loc, var, clause):
    """Bind `var` to the stored pile `loc` through a pile collection, so only the run time knows its kind."""
    return f"(all (all (X) 'UNUSED {loc}) {var} {clause})"


def test_move_into_or_out_of_memory_by_position_is_an_error():
    p, st = run("(do (" + via("(game mem M)", "'V", "(move (top (game iloc STOCK)) (top 'V))") + "))")
    assert err(p, st) == "pile-kind"
    p, st = run("(do ((remember (top (game iloc STOCK)) (top (game mem M)))"
                + via("(game mem M)", "'V", "(move (top 'V) (top (game vloc T)))") + "))")
    assert err(p, st) == "pile-kind"
    p, st = run("(do ((remember (top (game iloc STOCK)) (top (game mem M)))"
                + via("(game mem M)", "'V", "(move (actual (top 'V)) (top (game vloc T)))") + "))")
    assert err(p, st) == "pile-kind"


# ---------------------------------------------------------------- memory piles


def test_remember_forget_and_references_that_survive_moves():
    p, st = run("(do ((remember (top (game iloc STOCK)) (top (game mem M)))"
                "     (remember (top (game iloc STOCK)) (top (game mem M)))"
                "     (remember (bottom (game iloc STOCK)) (bottom (game mem M)))"
                "     (set (game sto SA) (size (game mem M)))"
                "     (move (top (game iloc STOCK)) (top ((1 player) iloc HAND)))"
                "     (set (game sto OWN) (pid (owner (top (game mem M)))))"
                "     (set (game str R) (cardatt RANK (top (game mem M))))"
                "     ((== (top (game mem M)) (top ((1 player) iloc HAND))) (set (game sto EQ) 1))"
                "     ((!= (bottom (game mem M)) (top ((1 player) iloc HAND))) (set (game sto NE) 1))"
                "     (forget (top (game mem M)))"
                "     (set (game sto SB) (size (game mem M)))"
                "     (set (game sto STOCK) (size (game iloc STOCK)))))")
    v = lambda k: p.value(st, "game", "sto", k)  # noqa: E731
    assert (v("SA"), v("OWN"), v("EQ"), v("NE"), v("SB"), v("STOCK")) == (3, 1, 1, 1, 2, 4)
    assert p.value(st, "game", "str", "R") == "FIVE"
    assert R(p, st, p.pile(st, "game", "mem", "M")) == ["A", "FIVE"]


def test_memory_card_variable_moves_the_real_card_and_memory_keeps_it():
    p, st = run("(do ((remember (top (game iloc STOCK)) (top (game mem M)))"
                "     (all (game mem M) 'C (move 'C (top (game vloc T))))))")
    assert R(p, st, p.pile(st, "game", "vloc", "T")) == ["FIVE"]
    assert R(p, st, p.pile(st, "game", "mem", "M")) == ["FIVE"]
    assert len(p.pile(st, "game", "iloc", "STOCK")) == 4


@pytest.mark.parametrize("action, cls", [
    (via("(game vloc T)", "'V", "(remember (top (game iloc STOCK)) (top 'V))"), "pile-kind"),
    (via("(game iloc STOCK)", "'V", "(forget (top 'V))"), "pile-kind"),
    ("(forget (top (game mem EMPTY)))", "no-card"),
    ("(forget (3 (game mem EMPTY)))", "no-card"),
    ("(remember (top (game vloc EMPTY)) (top (game mem M)))", "no-card"),
    (via("(game mem M)", "'V", "(swap 'V (game vloc T))"), "pile-kind"),
    ("(let (filter (game iloc STOCK) 'X (== 1 1)) 'V (shuffle 'V))", "pile-kind"),
    ("(let (filter (game iloc STOCK) 'X (== 1 1)) 'V (swap 'V (game vloc T)))", "pile-kind"),
])
def test_memory_and_pile_kind_errors(action, cls):
    p, st = run(f"(do ({action}))")
    assert err(p, st) == cls


def test_shuffle_of_a_memory_pile_keeps_its_references():
    p, st = run("(do ((all (game iloc STOCK) 'C (remember 'C (top (game mem M)))) (shuffle (game mem M))))", deck=RANKS13)
    assert sorted(p.pile(st, "game", "mem", "M")) == list(range(13))
    assert p.pile(st, "game", "iloc", "STOCK") == list(range(13))


# ---------------------------------------------------------------- swap


def test_swap_piles_exchanges_contents_and_owners():
    p, st = run("(do ((repeat 2 (move (top (game iloc STOCK)) (top ((0 player) iloc HAND))))"
                "     (swap ((0 player) iloc HAND) ((1 player) vloc ROW))"
                "     (set (game sto OWN) (pid (owner (top ((1 player) vloc ROW)))))"
                "     (swap (game iloc STOCK) (game iloc STOCK))))")
    assert p.pile(st, 0, "iloc", "HAND") == []
    assert R(p, st, p.pile(st, 1, "vloc", "ROW")) == ["FIVE", "FOUR"]
    assert p.value(st, "game", "sto", "OWN") == 1
    assert R(p, st, p.pile(st, "game", "iloc", "STOCK")) == ["A", "TWO", "THREE"]


def test_swap_cards_across_piles_and_within_a_pile():
    p, st = run("(do ((move (top (game iloc STOCK)) (top ((1 player) iloc HAND)))"
                "     (swap (bottom (game iloc STOCK)) (top ((1 player) iloc HAND)))"
                "     (swap (0 (game iloc STOCK)) (3 (game iloc STOCK)))"
                "     (set (game sto OWN) (pid (owner (bottom (game iloc STOCK)))))))")
    assert R(p, st, p.pile(st, 1, "iloc", "HAND")) == ["A"]
    assert R(p, st, p.pile(st, "game", "iloc", "STOCK")) == ["FOUR", "TWO", "THREE", "FIVE"]
    p, st = run("(do ((move (top (game iloc STOCK)) (top ((1 player) iloc HAND)))"
                "     (swap (top ((1 player) iloc HAND)) (top ((1 player) iloc HAND)))"
                "     (set (game sto OWN) (pid (owner (top ((1 player) iloc HAND)))))))")
    assert p.value(st, "game", "sto", "OWN") == 1 and R(p, st, p.pile(st, 1, "iloc", "HAND")) == ["FIVE"]


def test_swap_cards_with_memory_positions_and_variables():
    p, st = run("(do ((remember (top (game iloc STOCK)) (top (game mem M)))"
                + via("(game mem M)", "'V", "(swap (top 'V) (bottom (game iloc STOCK)))") + "))")
    assert err(p, st) == "pile-kind"
    p, st = run("(do ((remember (top (game iloc STOCK)) (top (game mem M)))"
                " (all (game mem M) 'C (swap 'C (bottom (game iloc STOCK))))))")
    assert R(p, st, p.pile(st, "game", "iloc", "STOCK")) == ["FIVE", "TWO", "THREE", "FOUR", "A"]


# ---------------------------------------------------------------- indexed locations


def test_indexed_locations_are_live_and_ordered():
    p, st = run("(do ((move (top (game iloc STOCK)) (top (game vloc RUN 3)))"
                "     (move (top (game iloc STOCK)) (top (game vloc RUN 1)))"
                "     (set (game sto N) 7)"
                "     (move (top (game iloc STOCK)) (top (game vloc RUN (game sto N))))"
                "     (any (indexed game vloc RUN) 'S (move (top (game iloc STOCK)) (bottom 'S)))"
                "     (set (game sto K) (size (indexed game vloc RUN)))"
                "     (move (top (game iloc STOCK)) (top (top (indexed game vloc RUN))))"
                "     (set (game sto Z) (size (game vloc RUN)))))", deck=RANKS13)
    assert st.status == 2
    assert R(p, st, p.pile(st, "game", "vloc", "RUN", 1)) == ["TEN", "Q"]
    assert R(p, st, p.pile(st, "game", "vloc", "RUN", 3)) == ["NINE", "K"]
    assert R(p, st, p.pile(st, "game", "vloc", "RUN", 7)) == ["EIGHT", "J", "SEVEN"]
    assert p.value(st, "game", "sto", "K") == 3 and p.value(st, "game", "sto", "Z") == 0


def test_indexed_omits_empty_piles_and_filter_of_piles_keeps_live_references():
    p, st = run("(do ((move (top (game iloc STOCK)) (top (game vloc RUN 2)))"
                "     (move (top (game vloc RUN 2)) (top (game vloc RUN 5)))"
                "     (set (game sto K) (size (indexed game vloc RUN)))"
                "     (move (top (game iloc STOCK)) (top (top (filter (indexed game vloc RUN) 'S (> (size 'S) 0)))))))")
    assert p.value(st, "game", "sto", "K") == 1
    assert R(p, st, p.pile(st, "game", "vloc", "RUN", 5)) == ["FIVE", "FOUR"]


def test_player_owned_indexed_and_computed_names():
    p, st = run("(do ((all (range 1..3) 'L (move (top (game iloc STOCK)) (top ((1 player) hloc LOC 'L))))"
                "     (all (A, B) 'N (move (top (game iloc STOCK)) (top ((0 player) vloc 'N))))"
                "     (set (game sto K) (size (indexed (1 player) hloc LOC)))))")
    assert p.value(st, "game", "sto", "K") == 3
    assert R(p, st, p.pile(st, 1, "hloc", "LOC", 3)) == ["THREE"]
    assert R(p, st, p.pile(st, 0, "vloc", "B")) == ["A"]


# ---------------------------------------------------------------- cards, decks, identity


def test_create_deck_order_serials_and_identity():
    p = G("(do ((set (game sto EQ) 0) ((== (0 (game iloc STOCK)) (3 (game iloc STOCK))) (set (game sto EQ) 1))"
          " ((== (cardatt RANK (0 (game iloc STOCK))) (cardatt RANK (3 (game iloc STOCK)))) (set (game sto SAME) 1))"
          " (create deck (game iloc STOCK) (deck (RANK (A))))"
          " (create deck JOKER (game iloc STOCK) (deck (RANK (JOKER))))))",
          decks="(repeat 2 (create deck (game iloc STOCK) (deck (RANK (J, Q, K)))))")
    st = p.new_game(1)
    stock = p.pile(st, "game", "iloc", "STOCK")
    assert R(p, st, stock) == ["J", "Q", "K", "J", "Q", "K", "A", "JOKER"]
    assert [p.card_id(st, c) for c in stock] == [("DEFAULT", i) for i in range(7)] + [("JOKER", 0)]
    assert p.value(st, "game", "sto", "EQ") == 0 and p.value(st, "game", "sto", "SAME") == 1


def test_deck_expansion_first_dimension_slowest_and_nested_values():
    p = G("(do ((inc (game sto X))))", deck="(RANK (A, TWO)) (COLOR (RED (SUIT (H, D))) (BLACK (SUIT (C, S))))")
    st = p.new_game(1)
    cards = [tuple(st.catt[c].values()) for c in p.pile(st, "game", "iloc", "STOCK")]
    assert cards[:4] == [("A", "RED", "H"), ("A", "RED", "D"), ("A", "BLACK", "C"), ("A", "BLACK", "S")]
    assert len(cards) == 8


def test_setup_decks_to_player_piles_and_named_decks():
    p = G("(do ((inc (game sto X))))",
          decks="(create deck ONE (game iloc A) (deck (V (X, Y)))) (create deck ((1 player) vloc H) (deck (V (Z))))")
    st = p.new_game(1)
    assert [p.card_id(st, c) for c in p.pile(st, "game", "iloc", "A")] == [("ONE", 0), ("ONE", 1)]
    assert [p.card_id(st, c) for c in p.pile(st, 1, "vloc", "H")] == [("DEFAULT", 0)]


def test_cardatt_of_missing_attribute_or_no_card_is_empty():
    p, st = run("(do (((== (cardatt SUIT (top (game iloc STOCK))) (game str UNSET)) (set (game sto A) 1))"
                "     ((== (cardatt RANK (top (game vloc NONE))) (game str UNSET)) (set (game sto B) 1))"
                "     ((== (top (game vloc NONE)) (bottom (game vloc NOTHING))) (set (game sto C) 1))"
                "     ((!= (top (game vloc NONE)) (top (game iloc STOCK))) (set (game sto D) 1))))")
    assert [p.value(st, "game", "sto", k) for k in "ABCD"] == [1, 1, 1, 1]


# ---------------------------------------------------------------- teams and owners


def test_teams_one_based_with_warning_and_unlisted_players():
    text = ("(game (setup (create players 5) (create teams (1, 3) (2, 5)) (create deck (game iloc S) (deck (R (A)))))"
            " (do ((set ((team (4 player)) sto T) 7) (all (0 team) 'TP (inc (game sto SUM) (+ 1 (pid 'TP))))"
            " (set (game sto NT) (size team)) (set (game sto NO) (size (other team)))))"
            " (scoring max ((team (current player)) sto T)))")
    with tempfile.NamedTemporaryFile("w", suffix=".rcy", delete=False) as f:
        f.write(text)
    try:
        loaded = load_game(f.name)
    finally:
        os.unlink(f.name)
    assert any(w.cls == "teams-one-based" for w in loaded.warnings)
    p = compile_game(loaded.game, warnings=loaded.warnings)
    assert p.teams == [(0, 2), (1, 4), (3,)]
    st = p.new_game(1)
    assert p.value(st, "game", "sto", "SUM") == 1 + 3
    assert p.value(st, "game", "sto", "NT") == 3 and p.value(st, "game", "sto", "NO") == 2
    r = p.result(st)
    assert r.scores == [0, 7, 0, 0, 7] and r.winners == [1, 4]
    assert r.warnings and r.warnings[0].cls == "teams-one-based"


def test_zero_based_teams_and_team_owned_storage():
    p = G("(do ((inc ((team (2 player)) sto SCORE) 5)))", players=4, setup_extra="(create teams (0, 2) (1, 3))",
          scoring="(scoring max ((team (current player)) sto SCORE))")
    r = p.result(p.new_game(1))
    assert r.scores == [5, 0, 5, 0] and r.ranks == [1, 3, 1, 3] and r.shares == [0.5, 0, 0.5, 0]


def test_owner_and_pid():
    p, st = run("(do ((move (top (game iloc STOCK)) (top ((1 player) oloc F)))"
                "     (set (game sto O) (pid (owner (top ((1 player) oloc F)))))))")
    assert p.value(st, "game", "sto", "O") == 1


# ---------------------------------------------------------------- scoring


@pytest.mark.parametrize("direction, scores, ranks, shares", [
    ("max", [10, 7, 10, 3], [1, 3, 1, 4], [0.5, 0, 0.5, 0]),
    ("min", [10, 7, 10, 3], [3, 2, 3, 1], [0, 0, 0, 1]),
    ("max", [4, 4, 4, 4], [1, 1, 1, 1], [0.25] * 4),
])
def test_scoring_ranks_and_ties(direction, scores, ranks, shares):
    sets = " ".join(f"(set (({i} player) sto SCORE) {s})" for i, s in enumerate(scores))
    p = G(f"(do ({sets}))", players=4, scoring=f"(scoring {direction} ((current player) sto SCORE))")
    r = p.result(p.new_game(1))
    assert r.outcome == "completed" and r.end_reason == "normal"
    assert r.scores == scores and r.ranks == ranks and r.shares == shares
    assert r.winners == [i for i, x in enumerate(ranks) if x == 1]


def test_scoring_pushes_a_cycle_per_player():
    p = G("(do ((inc (game sto X))))", players=3,
          scoring="(scoring max (+ (* 10 (pid (next player))) (pid (previous player))))")
    assert p.result(p.new_game(1)).scores == [12, 20, 1]


# ---------------------------------------------------------------- values


@pytest.mark.parametrize("expr, value", [
    ("(// 7 2)", 3), ("(// (- 0 7) 2)", -3), ("(% 7 3)", 1), ("(% (- 0 7) 3)", -1), ("(% 7 (- 0 3))", 1),
    ("(^ 0 0)", 1), ("(^ 2 70)", 2 ** 70), ("(+ (^ 2 3) (tri 4) (fib 6))", 26), ("(* 2 3 4)", 24), ("(+ 1 2 3 4)", 10),
    ("(size (range 3..1))", 0), ("(size (range 1..6))", 6), ("(size (other player))", 2),
    ("(size (union (game iloc STOCK) (game iloc STOCK)))", 10),
    ("(size (intersect (game iloc STOCK) (top 2 (game iloc STOCK))))", 2),
    ("(size (disjunction (game iloc STOCK) (top 2 (game iloc STOCK))))", 3),
    ("(size (subsets (top 3 (game iloc STOCK))))", 8),
    ("(size (partition RANK (game iloc STOCK)))", 5),
    ("(sum (game iloc STOCK) using (game points P))", 15),
    ("(sum (game iloc STOCK) using (game points UNSET))", 0),
    ("(score (top (game iloc STOCK)) using (game points P))", 5),
    ("(scoremin (game iloc STOCK) using (game points P))", 1),
    ("(score (max (game iloc STOCK) using (game points P)) using (game points P))", 5),
    ("(score (top (sort (game iloc STOCK) using (game points NEG))) using (game points P))", 1),
    ("(size (run top 2 (game iloc STOCK) using (game points P)))", 5),
    ("(size (runs all 3 (game iloc STOCK) using (game points P)))", 6),
    ("(size (tuples 2 (game iloc STOCK) using (game points ODD)))", 4),
    ("(score (top (bottom 2 (game iloc STOCK))) using (game points P))", 2),
    ("(score (bottom (top 2 (game iloc STOCK))) using (game points P))", 4),
    ("(score (actual (top (game iloc STOCK))) using (game points P))", 5),
    ("(random 0..0)", 0), ("(pid (next player))", 1), ("(size (filter player 'Q (== (pid 'Q) 1)))", 1),
    ("(size (filter (all player 'Q ('Q vloc X)) 'S (== (size 'S) 0)))", 3),
])
def test_integer_values(expr, value):
    p, st = run("(do ((set (game points P) (((RANK : A) 1) ((RANK : TWO) 2) ((RANK : THREE) 3) ((RANK : FOUR) 4) ((RANK : FIVE) 5)))"
                " (set (game points NEG) (((RANK : A) 5) ((RANK : TWO) 4) ((RANK : THREE) 3) ((RANK : FOUR) 2) ((RANK : FIVE) 1)))"
                " (set (game points ODD) (((RANK : A) 1) ((RANK : THREE) 1) ((RANK : FIVE) 1)))"
                f" (set (game sto V) {expr})))", players=3)
    assert st.status == 2, p.result(st).error
    assert p.value(st, "game", "sto", "V") == value


def test_point_maps_sum_all_matching_awards_and_are_frozen_when_set():
    p, st = run("(do ((set (game str L) A)"
                " (set (game points P) (((RANK : (game str L)) 100) ((RANK : A) 1) ((RANK : A) 1) ((RANK : TWO) (RANK : TWO) 7)))"
                " (set (game str L) TWO)"
                " (set (game sto X) (score (bottom (game iloc STOCK)) using (game points P)))"
                " (set (game sto Y) (score (1 (game iloc STOCK)) using (game points P)))))")
    assert p.value(st, "game", "sto", "X") == 102 and p.value(st, "game", "sto", "Y") == 7


def test_storage_defaults_and_computed_names():
    p, st = run("(do ((all (A, B) 'N (inc (game sto 'N) 3)) (set (game str S) (game str NEVER))"
                " ((== (game sto NEVER) 0) (set ((1 player) str 'N2) X))))".replace("'N2", "OK"))
    assert p.value(st, "game", "sto", "A") == 3 and p.value(st, "game", "sto", "B") == 3
    assert p.value(st, 1, "str", "OK") == "X" and p.value(st, "game", "str", "S") == ""


def test_shadowing_restores_the_outer_binding():
    p, st = run("(do ((all player 'P (do ((inc (game sto N) (size (union (all player 'P ('P vloc T)))))"
                " (inc ('P sto SCORE) (+ 1 (pid 'P))))))))")
    assert p.result(st).scores == [1, 2]


def test_declared_values_and_parameter_overrides():
    text = ("(game (declare 2 'NUMP) (declare (* 'NUMP 10) 'TEN) (declare (A, B) 'NAMES)"
            " (setup (create players 'NUMP) (create deck (game iloc S) (deck (R (A)))))"
            " (do ((set (game sto T) 'TEN) (all 'NAMES 'X (inc (game sto 'X)))))"
            " (scoring max (game sto T)))")
    g = parse_game(text)
    p = compile_game(g)
    assert p.n_players == 2 and p.result(p.new_game(1)).scores == [20, 20]
    p = compile_game(g, params={"NUMP": 3})
    assert p.n_players == 3 and p.result(p.new_game(1)).scores == [30, 30, 30]
    with pytest.raises(UsageError):
        compile_game(g, params={"NOPE": 3})
    with pytest.raises(UsageError):
        compile_game(g, params={"NUMP": "x"})
    with pytest.raises(UsageError):
        compile_game(g, params={"NUMP": 0})
