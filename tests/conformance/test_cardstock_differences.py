"""Spec §18 "Differences from CardStock": one test per row, asserting the left column ("This dialect").

Each test is named ``test_row_NN_<topic>`` and cites its row; the "Unchanged on purpose" paragraph
after the table is covered by the ``test_unchanged_*`` tests at the end.
"""
from __future__ import annotations

from collections import Counter

import pytest

from recycle.compiler import compile_game
from recycle.engine.play import play_game
from recycle.engine.state import KIND_WORDS
from recycle.errors import LoadError
from recycle.lang import parse_game, parse_source
from recycle.lang.lint import CLASSES as LINT_CLASSES
from recycle.lang.reader import read_sexprs
from recycle.lang.source import SourceFile
from recycle.players.base import ScriptedPlayer
from recycle.players.random_player import RandomPlayer

DECK5 = "(RANK (A, TWO, THREE, FOUR, FIVE))"
SCORING = "(scoring max ((current player) sto SCORE))"
PASS = "(choice ((turn pass)))"


def text_of(body, players=2, deck=DECK5, setup_extra="", scoring=SCORING, declares="", decks=None):
    decks = decks if decks is not None else f"(create deck (game iloc STOCK) (deck {deck}))"
    return f"(game {declares} (setup (create players {players}) {setup_extra} {decks}) {body} {scoring})"


def G(body, **kw):
    return compile_game(parse_game(text_of(body, **kw), "t.rcy"))


def run(body, seed=1, **kw):
    p = G(body, **kw)
    return p, p.new_game(seed)


def V(p, st, name, owner="game", kind="sto"):
    return p.value(st, owner, kind, name)


def ranks(p, st, owner, kind, name, idx=0):
    return [st.catt[c]["RANK"] for c in p.pile(st, owner, kind, name, idx)]


def load_classes(text):
    with pytest.raises(LoadError) as ei:
        parse_game(text, "t.rcy")
    return [d.cls for d in ei.value.diagnostics]


def runtime_error(p, st):
    r = p.result(st)
    assert r.outcome == "error", r
    return r.error.cls


def after_option(body, i, seed=1, **kw):
    """A fresh game, option i taken at its first decision."""
    p = G(body, **kw)
    st = p.new_game(seed)
    assert st.status == 1
    p.apply(st, i)
    return p, st


# ---------------------------------------------------------------- lexical and syntax (rows 1-5)


def test_row_01_comment_on_last_line_without_newline():
    """§18 row 1: a `;;` comment on the last line without a newline is a comment."""
    text = text_of("(do ((inc (game sto X))))") + "\n;; the end, no newline"
    assert not text.endswith("\n")
    parse_game(text, "t.rcy")  # no error
    forms, warnings = read_sexprs(SourceFile("(A B) ;; trailing comment"))
    assert len(forms) == 1 and not warnings


def test_row_02_text_after_the_game_form():
    """§18 row 2: text after `(game …)`: stray `)` warned, anything else an error (§2.7)."""
    base = text_of("(do ((inc (game sto X))))")
    ast = parse_game(base + " ))", "t.rcy")
    assert ast is not None
    assert load_classes(base + " (do ((inc (game sto X))))") == ["syntax"]
    assert load_classes(base + " X") == ["syntax"]


def test_row_02_trailing_paren_warning_is_recorded():
    """§18 row 2 / §19.2: the stray `)` yields a `trailing-paren` warning recorded in results."""
    # (game sto X) is read by a guard, so no `unread` warning joins the stray-paren one.
    game, warnings = parse_source(SourceFile(text_of("(do ((inc (game sto X)) ((== (game sto X) 9) (turn pass))))")
                                             + ")", "t.rcy"))
    assert [w.cls for w in warnings] == ["trailing-paren"]
    p = compile_game(game, warnings=tuple(warnings))
    st = p.new_game(1)
    assert "trailing-paren" in repr(p.result(st).warnings)


def test_row_03_syntax_errors_reject_the_file():
    """§18 row 3: syntax errors reject the file (no error recovery)."""
    bad = text_of("(do ((inc (game sto X)))")  # one `)` missing
    assert "syntax" in load_classes(bad)


def test_row_04_whitespace_separates_tokens():
    """§18 row 4: whitespace inside names or numbers (`TRICK PILE`, `1 0`) separates two tokens."""
    # `(game vloc TRICK PILE)` reads PILE as a (non-integer) index; `(inc X 1 0)` has an extra element
    assert load_classes(text_of("(do ((move (top (game iloc STOCK)) (top (game vloc TRICK PILE)))))")) in (["type"], ["syntax"])
    assert load_classes(text_of("(do ((inc (game sto X) 1 0)))")) == ["syntax"]
    p, st = run("(do ((inc (game sto X) 10) (move (top (game iloc STOCK)) (top (game vloc TRICKPILE)))))")
    assert V(p, st, "X") == 10 and ranks(p, st, "game", "vloc", "TRICKPILE") == ["FIVE"]


def test_row_05_string_equality_resolved_by_static_types():
    """§18 row 5: `(== 'A 'B)` on strings compares strings (§3.5), not integers."""
    body = ("(do ((set (game str S) FOO) (set (game str T) FOO) (set (game str U) BAR)))"
            " (let (game str S) 'A (let (game str T) 'B (let (game str U) 'C (do ("
            "  ((== 'A 'B) (inc (game sto EQ)))"
            "  ((!= 'A 'C) (inc (game sto NE)))"
            "  ((== 'A 'C) (inc (game sto BAD))))))))")
    p, st = run(body)
    assert st.status == 2
    assert (V(p, st, "EQ"), V(p, st, "NE"), V(p, st, "BAD")) == (1, 1, 0)


# ---------------------------------------------------------------- variables, setup, decks (rows 6-11)


def test_row_06_lexical_scoping_shadowing_restores_outer_binding():
    """§18 row 6: an inner binding shadows; the outer one returns after it (§3.7)."""
    p, st = run("(do ((let 1 'V (do ((let 2 'V (set (game sto A) 'V)) (set (game sto B) 'V))))))")
    assert (V(p, st, "A"), V(p, st, "B")) == (2, 1)


def test_row_07_setup_runs_in_textual_order():
    """§18 row 7: `setup` runs in textual order (not every `create deck` first, then every `repeat`)."""
    decks = ("(create deck (game iloc STOCK) (deck (RANK (A))))"
             " (repeat 2 (create deck (game iloc STOCK) (deck (RANK (TWO)))))"
             " (create deck (game iloc STOCK) (deck (RANK (THREE))))")
    p, st = run("(do ((inc (game sto X))))", decks=decks)
    assert ranks(p, st, "game", "iloc", "STOCK") == ["A", "TWO", "TWO", "THREE"]


def test_row_08_unlisted_players_get_a_team_each():
    """§18 row 8: players not listed in `create teams` get a team each (§4.5)."""
    body = ("(do ((set (game sto NT) (size team))"
            " (cycle current (2 player))"
            " (set (game sto NTWO) (size (team (current player))))))")
    p, st = run(body, players=3, setup_extra="(create teams (0, 1))")
    assert st.status == 2
    assert V(p, st, "NT") == 2
    assert V(p, st, "NTWO") == 1


def test_row_09_team_members_one_based_with_warning():
    """§18 row 9: team members written `1 … n` are seat numbers from 1, with a warning."""
    text = text_of("(do ((set (game sto A) (size (0 team))) (set (game sto B) (size (1 team)))))",
                   players=3, setup_extra="(create teams (1, 3) (2))")
    game, warnings = parse_source(SourceFile(text, "t.rcy"))
    assert [w.cls for w in warnings if w.cls not in LINT_CLASSES] == ["teams-one-based"]  # A, B are never read
    p = compile_game(game, warnings=tuple(warnings))
    assert [list(t) for t in p.teams] == [[0, 2], [1]]
    st = p.new_game(1)
    assert (V(p, st, "A"), V(p, st, "B")) == (2, 1)


def test_row_10_value_node_with_several_sub_attributes_is_a_product():
    """§18 row 10: a value node with several sub-attributes gives the product of their options (§4.7)."""
    deck = "(COLOR (RED (SUIT (H, D)) (SIZE (BIG, SMALL))))"
    p, st = run("(do ((inc (game sto X))))", deck=deck)
    cards = [(st.catt[c]["SUIT"], st.catt[c]["SIZE"]) for c in p.pile(st, "game", "iloc", "STOCK")]
    assert cards == [("H", "BIG"), ("H", "SMALL"), ("D", "BIG"), ("D", "SMALL")]


def test_row_11_same_attribute_key_twice_is_a_load_error():
    """§18 row 11: the same attribute key twice in one card is a load-time error."""
    assert "deck" in load_classes(text_of("(do ((inc (game sto X))))", deck="(RANK (A)) (SUIT (H (RANK (B))))"))


# ---------------------------------------------------------------- stages and loops (rows 12-17)


def test_row_12_stage_ending_on_arrival_pushes_and_pops_its_cycle():
    """§18 row 12: a stage whose end holds on arrival pushes and pops its cycle (§5.3)."""
    body = ("(do ((cycle current (1 player))))"
            "(stage player (end (== 1 1)) (do ((inc (game sto Y)))))"
            "(stage player (end (== (game sto N) 3)) (choice ((do ((inc (game sto N)) (turn pass))))))")
    p = G(body, players=3)
    res = play_game(p, 1, [RandomPlayer()] * 3)
    assert [d.chooser for d in res.decisions] == [1, 2, 0]
    # the stage's cycle is popped: afterwards only the base cycle is left, current player unchanged
    p, st = run("(do ((cycle current (1 player))))"
                "(stage player (end (== 1 1)) (do ((inc (game sto Y)))))"
                "(do ((set (game sto C) (pid (current player)))))", players=3)
    assert st.status == 2
    assert (V(p, st, "Y"), V(p, st, "C")) == (0, 1)
    assert st.pcyc == [1, -1]


def test_row_13_repeat_evaluates_each_repetition_when_it_runs():
    """§18 row 13: `(repeat 3 (inc X 1))` adds 3; each repetition is evaluated when it runs."""
    p, st = run("(do ((repeat 3 (inc (game sto X) 1)) (repeat 3 (inc (game sto Y) (+ (game sto Y) 1)))))")
    assert V(p, st, "X") == 3
    assert V(p, st, "Y") == 7  # 0 -> 1 -> 3 -> 7


def test_row_14_repeat_of_a_loop_is_allowed():
    """§18 row 14: `repeat` of a loop is allowed."""
    p, st = run("(do ((repeat 2 (all (range 1..3) 'X (inc (game sto N) 'X)))))")
    assert V(p, st, "N") == 12


def test_row_15_loop_over_a_changing_stored_pile_iterates_a_snapshot():
    """§18 row 15: a loop over a stored pile that its body changes iterates a snapshot (§6.4)."""
    p, st = run("(do ((all (game iloc STOCK) 'C (do ((move 'C (top (game vloc T))) (inc (game sto N)))))))")
    assert V(p, st, "N") == 5
    assert ranks(p, st, "game", "vloc", "T") == ["A", "TWO", "THREE", "FOUR", "FIVE"]
    assert p.pile(st, "game", "iloc", "STOCK") == []


def test_row_16_let_item_with_bare_action_runs():
    """§18 row 16: a `let` program item with a bare action body runs the action."""
    p, st = run("(let 5 'N (set (game sto X) 'N))")
    assert st.status == 2 and V(p, st, "X") == 5


def test_row_17_let_item_with_choice_body():
    """§18 row 17: a `let` item with a `choice` body is allowed (§6.5)."""
    p = G("(let 3 'N (choice ((any (range 1..'N) 'K (set (game sto BID) 'K)))))")
    st = p.new_game(1)
    assert len(p.options(st)) == 3
    p.apply(st, 2)
    assert V(p, st, "BID") == 3


# ---------------------------------------------------------------- choices (rows 18-24)


def test_row_18_clauses_after_any_run_in_written_order_after_the_body():
    """§18 row 18: in a choice, clauses after an `any` run in written order after its body, for every element."""
    body = ("(choice ((do ((any (range 1..3) 'X (set (game sto N) 'X))"
            " (set (game sto M) (+ (game sto N) 10)) (set (game sto K) (* (game sto M) 2))))))")
    for i in range(3):
        p, st = after_option(body, i)
        assert (V(p, st, "N"), V(p, st, "M"), V(p, st, "K")) == (i + 1, i + 11, 2 * (i + 11))


def test_row_19_all_inside_a_choice_runs_in_collection_order():
    """§18 row 19: `all` inside a choice runs in collection order."""
    p, st = after_option("(choice ((all (range 1..3) 'X (set (game sto N) (+ (* (game sto N) 10) 'X)))))", 0)
    assert V(p, st, "N") == 123


def test_row_20_option_order_within_one_any():
    """§18 row 20: option order within one `any` is e1, e2, …, ek."""
    body = "(choice ((any (range 1..4) 'X (set (game sto N) 'X))))"
    p = G(body)
    assert len(p.options(p.new_game(1))) == 4
    for i in range(4):
        p, st = after_option(body, i)
        assert V(p, st, "N") == i + 1


def test_row_21_undoing_simulated_moves_is_exact():
    """§18 row 21: undoing simulated moves from derived collections while building options is exact."""
    body = ("(choice ((any (filter (game iloc STOCK) 'C (!= (cardatt RANK 'C) THREE)) 'C"
            " (move 'C (top (game vloc T))))))")
    p = G(body)
    st = p.new_game(1)
    before = p.pile(st, "game", "iloc", "STOCK")
    assert ranks(p, st, "game", "iloc", "STOCK") == ["A", "TWO", "THREE", "FOUR", "FIVE"]
    assert len(p.options(st)) == 4
    assert p.pile(st, "game", "iloc", "STOCK") == before
    p.apply(st, 0)
    assert ranks(p, st, "game", "iloc", "STOCK") == ["TWO", "THREE", "FOUR", "FIVE"]
    assert ranks(p, st, "game", "vloc", "T") == ["A"]


def test_row_22_shuffle_of_a_players_pile_inside_a_choice_works():
    """§18 row 22: `shuffle` of a player's pile inside a choice works."""
    body = ("(do ((repeat 5 (move (top (game iloc STOCK)) (top ((current player) iloc HAND)))))) "
            "(choice ((shuffle ((current player) iloc HAND)) (turn pass)))")
    p, st = after_option(body, 0, deck="(RANK (A, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT))")
    assert p.result(st).outcome == "completed"
    assert sorted(ranks(p, st, 0, "iloc", "HAND")) == sorted(["FOUR", "FIVE", "SIX", "SEVEN", "EIGHT"])


def test_row_23_shuffle_drawn_while_building_is_reused():
    """§18 row 23: the random outcomes of the chosen option are those drawn while building it (§6.8)."""
    deck = "(RANK (A, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, J, Q, K))"
    body = "(choice ((do ((shuffle (game iloc STOCK)) (move (top (game iloc STOCK)) (top (game vloc T))))) (turn pass)))"
    p = G(body, deck=deck)
    for seed in range(5):
        st = p.new_game(seed)
        described = p.describe(st, p.options(st)[0])
        p.apply(st, 0)
        moved = ranks(p, st, "game", "vloc", "T")
        assert len(moved) == 1
        assert any(f"move {moved[0]} " in line for line in described), (described, moved)


def test_row_24_decision_recorded_to_the_chooser():
    """§18 row 24: the player recorded for a decision is the chooser (§16.1), not the player after the option."""
    body = "(stage player (end (== (game sto N) 3)) (choice ((do ((inc (game sto N)) (turn pass))))))"
    p = G(body, players=3)
    res = play_game(p, 1, [ScriptedPlayer([0, 0, 0])] * 3)
    assert [d.chooser for d in res.decisions] == [0, 1, 2]


# ---------------------------------------------------------------- cards and collections (rows 25-39)


def test_row_25_card_equality_is_identity():
    """§18 row 25: card `==` / `!=` is identity (§12.2)."""
    body = ("(do ((let (top (game iloc STOCK)) 'C (do ("
            " ((== 'C (top (game iloc STOCK))) (inc (game sto EQ)))"
            " ((!= 'C (bottom (game iloc STOCK))) (inc (game sto NE)))"
            " ((== 'C (bottom (game iloc STOCK))) (inc (game sto BAD)))"
            " ((!= 'C (top (game iloc STOCK))) (inc (game sto BAD))))))))")
    p, st = run(body)
    assert (V(p, st, "EQ"), V(p, st, "NE"), V(p, st, "BAD")) == (1, 1, 0)


def test_row_25_equal_attributes_distinct_cards_are_not_equal():
    """§18 row 25: two cards with equal attributes but different identities are `!=`."""
    decks = "(repeat 2 (create deck (game iloc STOCK) (deck (RANK (A)))))"
    p, st = run("(do (((!= (top (game iloc STOCK)) (bottom (game iloc STOCK))) (inc (game sto NE)))))", decks=decks)
    assert V(p, st, "NE") == 1


def test_row_26_max_ties_are_broken_uniformly():
    """§18 row 26: `max` / `min` ties are uniform (§8.6)."""
    for op in ("max", "min"):
        p = G(f"(do ((move ({op} (game iloc STOCK) using (game points Z)) (top (game vloc T)))))")
        counts = Counter()
        for seed in range(500):
            st = p.new_game(seed)
            counts[ranks(p, st, "game", "vloc", "T")[0]] += 1
        assert set(counts) == {"A", "TWO", "THREE", "FOUR", "FIVE"}
        for c in counts.values():
            assert 50 <= c <= 150, (op, counts)  # expected 100 each; CardStock gives one end card 250


def test_row_27_runs_all_lists_every_run_once():
    """§18 row 27: `runs all` yields every run once (§9.3): 9 10 11 12 -> [9 10 11], [9 10 11 12], [10 11 12]."""
    deck = "(RANK (NINE, TEN, J, Q))"
    body = ("(do ((set (game points P) (((RANK : NINE) 9) ((RANK : TEN) 10) ((RANK : J) 11) ((RANK : Q) 12)))"
            " (set (game sto N) (size (runs all 3 (game iloc STOCK) using (game points P))))"
            " (all (runs all 3 (game iloc STOCK) using (game points P)) 'R"
            "   (set (game sto S) (+ (* (game sto S) 10) (size 'R))))))")
    p, st = run(body, deck=deck)
    assert V(p, st, "N") == 3
    assert V(p, st, "S") == 343


def test_row_28_intersect_with_all():
    """§18 row 28: `intersect` with `(all …)` works (§9.2)."""
    p, st = run("(do ((set (game sto N) (size (intersect (all (range 1..2) 'I (game iloc STOCK)))))"
                " (set (game sto M) (size (intersect (all (range 1..3) 'I (top 'I (game iloc STOCK))))))"
                " (set (game str R) (cardatt RANK (top (intersect (all (range 2..3) 'I (top 'I (game iloc STOCK)))))))))")
    assert (V(p, st, "N"), V(p, st, "M")) == (5, 1)
    assert V(p, st, "R", kind="str") == "FIVE"


def test_row_29_disjunction_counts_a_repeated_card_once_per_argument():
    """§18 row 29: `disjunction` with a card repeated inside one argument: the argument counts once."""
    body = ("(do ((set (game sto N) (size (disjunction (union (top 1 (game iloc STOCK)) (top 1 (game iloc STOCK)))"
            " (bottom 1 (game iloc STOCK)))))))")
    p, st = run(body)
    assert V(p, st, "N") == 2  # FIVE (twice in arg 1, counted once) and A


def test_row_30_filter_over_pilecollection_keeps_empty_piles():
    """§18 row 30: `filter` over a PileCollection keeps every accepted pile, empty ones included."""
    body = ("(do ((move (top (game iloc STOCK)) (top ((1 player) vloc P)))"
            " (set (game sto N) (size (filter (all player 'Q ('Q vloc P)) 'X (< (size 'X) 5))))))")
    p, st = run(body, players=3)
    assert V(p, st, "N") == 3


def test_row_31_filter_of_a_variable_holding_a_filter_result():
    """§18 row 31: `filter` of a variable holding an earlier filter result works."""
    body = ("(do ((let (filter (game iloc STOCK) 'C (!= (cardatt RANK 'C) A)) 'F"
            " (set (game sto N) (size (filter 'F 'D (!= (cardatt RANK 'D) FIVE)))))))")
    p, st = run(body)
    assert V(p, st, "N") == 3


def test_row_32_tuples_with_any_scores():
    """§18 row 32: `tuples` works for any scores (not only 0 … 12)."""
    deck = "(RANK (A, TWO, THREE, FOUR)) (SUIT (H, S))"
    body = ("(do ((set (game points P) (((RANK : A) 1000) ((RANK : TWO) 7) ((RANK : THREE) 13) ((RANK : FOUR) 50)))"
            " (set (game sto N) (size (tuples 2 (game iloc STOCK) using (game points P))))))")
    p, st = run(body, deck=deck)
    assert st.status == 2, p.result(st).error
    assert V(p, st, "N") == 4


def test_row_33_slice_keeps_pile_order():
    """§18 row 33: slice `(top N P)` keeps pile order."""
    body = "(do ((let (top 3 (game iloc STOCK)) 'S (repeat all (move (bottom 'S) (top (game vloc T)))))))"
    p, st = run(body)
    assert ranks(p, st, "game", "vloc", "T") == ["THREE", "FOUR", "FIVE"]
    body = "(do ((set (game str S) (cardatt RANK (top (top 3 (game iloc STOCK))))) (set (game str B) (cardatt RANK (bottom (top 3 (game iloc STOCK)))))))"
    p, st = run(body)
    assert (V(p, st, "S", kind="str"), V(p, st, "B", kind="str")) == ("FIVE", "THREE")


def test_row_34_top_bottom_of_a_pilecollection():
    """§18 row 34: `top` / `bottom` of a PileCollection are its last / first element (§9.2)."""
    body = ("(do ((move (top (game iloc STOCK)) (top ((1 player) vloc P)))"
            " (move (top (game iloc STOCK)) (top ((1 player) vloc P)))"
            " (move (top (game iloc STOCK)) (top ((0 player) vloc P)))"
            " (set (game sto T) (size (top (all player 'Q ('Q vloc P)))))"
            " (set (game sto B) (size (bottom (all player 'Q ('Q vloc P)))))))")
    p, st = run(body)
    assert (V(p, st, "T"), V(p, st, "B")) == (2, 1)


def test_row_35_computed_index_into_piles():
    """§18 row 35: `(<int> <piles>)` with a computed index works."""
    body = ("(do ((move (top (game iloc STOCK)) (top ((1 player) vloc P)))"
            " (set (game sto I) 1)"
            " (set (game sto N) (size ((+ (game sto I) 0) (all player 'Q ('Q vloc P)))))))")
    p, st = run(body)
    assert V(p, st, "N") == 1


def test_row_36_sort_and_other_team():
    """§18 row 36: `sort` and `(other team)` are defined (§9.2, §9.5)."""
    body = ("(do ((set (game points P) (((RANK : A) 5) ((RANK : TWO) 3) ((RANK : THREE) 4) ((RANK : FOUR) 1) ((RANK : FIVE) 2)))"
            " (repeat all (move (top (sort (game iloc STOCK) using (game points P))) (top (game vloc T))))"
            " (set (game sto NT) (size (other team)))))")
    p, st = run(body, players=3)
    assert ranks(p, st, "game", "vloc", "T") == ["A", "THREE", "TWO", "FIVE", "FOUR"]
    assert V(p, st, "NT") == 2


def test_row_37_shuffle_of_a_virtual_pile_is_an_error():
    """§18 row 37: `shuffle` of a virtual pile is an error (run-time `pile-kind`, or rejected at load time)."""
    text = text_of("(do ((let (filter (game iloc STOCK) 'C (!= (cardatt RANK 'C) A)) 'V (shuffle 'V))))")
    try:
        p = compile_game(parse_game(text, "t.rcy"))
    except LoadError as e:  # a static rejection is allowed too (§3.5)
        assert [d.cls for d in e.diagnostics] in (["type"], ["pile-kind"])
        return
    st = p.new_game(1)
    assert runtime_error(p, st) == "pile-kind"


def test_row_38_forget_removes_the_designated_entry():
    """§18 row 38: `forget` removes the entry at the designated position, not the first holding that card."""
    body = ("(do ((remember (top (game iloc STOCK)) (top (game mem M)))"
            " (remember (bottom (game iloc STOCK)) (top (game mem M)))"
            " (remember (top (game iloc STOCK)) (top (game mem M)))"
            " (forget (top (game mem M)))))")
    p, st = run(body)
    assert ranks(p, st, "game", "mem", "M") == ["FIVE", "A"]


def test_row_39_move_out_of_memory_pile_through_actual_is_an_error():
    """§18 row 39: `move` out of a memory pile through `actual` is an error (`actual` has no effect)."""
    body = ("(do ((remember (top (game iloc STOCK)) (top (game mem M)))"
            " (move (actual (top (game mem M))) (top (game vloc T)))))")
    text = text_of(body)
    try:
        p = compile_game(parse_game(text, "t.rcy"))
    except LoadError as e:  # rejected statically (§3.5): a positional reference into a memory pile
        assert [d.cls for d in e.diagnostics] in (["type"], ["pile-kind"])
        return
    st = p.new_game(1)
    assert runtime_error(p, st) == "pile-kind"
    assert len(p.pile(st, "game", "iloc", "STOCK")) == 5


# ---------------------------------------------------------------- integers (rows 40-41)


def test_row_40_integers_are_unbounded():
    """§18 row 40: integers are unbounded (no 32-bit wrap)."""
    p, st = run("(do ((set (game sto X) 2147483647) (inc (game sto X) 1) (set (game sto Y) (* 4294967296 4294967296))))")
    assert V(p, st, "X") == 2 ** 31
    assert V(p, st, "Y") == 2 ** 64


def test_row_41_power_is_exact_negative_exponent_is_an_error():
    """§18 row 41: `^` is exact; a negative exponent is a run-time `arithmetic` error."""
    p, st = run("(do ((set (game sto X) (^ 3 50))))")
    assert V(p, st, "X") == 3 ** 50
    p, st = run("(do ((set (game sto E) (- 0 1)) (set (game sto X) (^ 2 (game sto E)))))")
    assert runtime_error(p, st) == "arithmetic"


# ---------------------------------------------------------------- limits and results (rows 42-46)


def test_row_42_step_limit_outcome_limit_scored_provisionally():
    """§18 row 42: the step guard `max_idle_steps` gives outcome `limit`, scored only provisionally (§16.4)."""
    p = G("(do ((set ((1 player) sto SCORE) 4))) (stage player (end (== 1 2)) (do ((inc (game sto N)))))")
    st = p.new_game(1, max_idle_steps=200)
    assert st.status == 3
    r = p.result(st)
    assert r.outcome == "limit"
    assert r.scores is not None and list(r.scores) == [0, 4]


def test_row_42_default_step_guard_is_10000():
    """§18 row 42: the default `max_idle_steps` is 10000 (for a game that declares no limits of its own)."""
    p = G("(stage player (end (== 1 2)) " + PASS + ")")
    assert p.new_game(1).max_steps == 10000


def test_row_43_decision_limit():
    """§18 row 43: the decision limit `max_decisions` (default 2000) gives outcome `limit`."""
    p = G("(stage player (end (== 1 2)) " + PASS + ")")
    res = play_game(p, 1, [RandomPlayer()] * 2, max_decisions=7)
    assert res.outcome == "limit"
    assert len(res.decisions) == 7
    assert p.new_game(1).max_decisions == 2000


def test_row_44_tied_top_score_all_win_sharing():
    """§18 row 44: when the top score is tied, all tied players win, share 1/k (§15)."""
    p, st = run("(do ((set ((0 player) sto SCORE) 5) (set ((2 player) sto SCORE) 5) (set ((1 player) sto SCORE) 1)))",
                players=3)
    r = p.result(st)
    assert r.outcome == "completed"
    assert sorted(r.winners) == [0, 2]
    assert list(r.shares) == pytest.approx([0.5, 0.0, 0.5])


def test_row_44_min_scoring_ties():
    """§18 row 44: with `min` scoring too, all tied players win (not only the lowest id)."""
    p, st = run("(do ((set ((1 player) sto SCORE) 5) (set ((2 player) sto SCORE) 5) (set ((0 player) sto SCORE) 9)))",
                players=3, scoring="(scoring min ((current player) sto SCORE))")
    r = p.result(st)
    assert sorted(r.winners) == [1, 2]
    assert list(r.shares) == pytest.approx([0.0, 0.5, 0.5])


def test_row_45_all_players_tied_share_one_over_n():
    """§18 row 45: all players tied: share 1/n each."""
    p, st = run("(do ((inc (game sto X))))", players=4)
    r = p.result(st)
    assert list(r.shares) == pytest.approx([0.25] * 4)


def test_row_46_a_seed_reproduces_a_run():
    """§18 row 46: a seed reproduces a run (§1.5)."""
    body = ("(do ((shuffle (game iloc STOCK)))) "
            "(stage player (end (== (size (game iloc STOCK)) 0))"
            " (choice ((any (top 2 (game iloc STOCK)) 'C (do ((move 'C (top ((current player) vloc W)))"
            "  (inc ((current player) sto SCORE) (random 1..6)) (turn pass)))))))")
    deck = "(RANK (A, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN))"
    p = G(body, deck=deck)

    def once(seed):
        r = play_game(p, seed, [RandomPlayer()] * 2)
        return r.scores, [(d.chooser, d.branching, d.chosen) for d in r.decisions]

    assert once(7) == once(7)
    assert len({repr(once(s)) for s in range(6)}) > 1


# ---------------------------------------------------------------- visibility, extensions, placement (rows 47-49)


def test_row_47_oloc_seen_by_everyone_except_the_owner():
    """§18 row 47: `oloc` piles are seen by everyone except the owner (§17.2)."""
    p, st = run("(do ((move (top (game iloc STOCK)) (top ((0 player) oloc O)))))", players=3)
    pid = p.pile_id(st, p._owner_code(0), KIND_WORDS.index("oloc"), "O", 0)
    assert not p.sees(0, pid)
    assert p.sees(1, pid) and p.sees(2, pid)
    key = ("p1", "oloc", "O", 0)
    assert p.view(st, 0)["piles"][key][0] == "backs"
    assert p.view(st, 1)["piles"][key] == ("cards", tuple(p.pile(st, 0, "oloc", "O")))
    assert p.view(st, 2)["piles"][key][0] == "cards"


def test_row_48_indexed_locations_and_indexed():
    """§18 row 48: indexed locations and `indexed` are supported."""
    body = ("(do ((set (game sto I) 2) (move (top (game iloc STOCK)) (top (game vloc SET (game sto I))))"
            " (move (top (game iloc STOCK)) (top (game vloc SET 5)))"
            " (set (game sto N) (size (indexed game vloc SET)))))")
    p, st = run(body)
    assert ranks(p, st, "game", "vloc", "SET", 2) == ["FIVE"]
    assert ranks(p, st, "game", "vloc", "SET", 5) == ["FOUR"]
    assert V(p, st, "N") == 2


def test_row_48_swap_pid_scoremax_inc_without_amount_nary_plus():
    """§18 row 48: `swap`, `pid`, `scoremax`/`scoremin`, `inc`/`dec` without amount, n-ary `+`/`*` are supported."""
    body = ("(do ((move (top (game iloc STOCK)) (top (game vloc T)))"
            " (swap (game vloc T) (game vloc U))"
            " (set (game sto P) (pid (next player)))"
            " (set (game points Q) (((RANK : A) 1) ((RANK : TWO) 2) ((RANK : THREE) 3) ((RANK : FOUR) 4)))"
            " (set (game sto MX) (scoremax (game iloc STOCK) using (game points Q)))"
            " (set (game sto MN) (scoremin (game iloc STOCK) using (game points Q)))"
            " (inc (game sto C)) (inc (game sto C)) (dec (game sto C))"
            " (set (game sto S) (+ 1 2 3 4)) (set (game sto M) (* 1 2 3 4))))")
    p, st = run(body)
    assert st.status == 2, p.result(st).error
    assert p.pile(st, "game", "vloc", "T") == [] and ranks(p, st, "game", "vloc", "U") == ["FIVE"]
    assert V(p, st, "P") == 1
    assert (V(p, st, "MX"), V(p, st, "MN")) == (4, 1)
    assert V(p, st, "C") == 1
    assert (V(p, st, "S"), V(p, st, "M")) == (10, 24)


def test_row_48_player_expression_as_cycle_target():
    """§18 row 48: player expressions as `cycle` targets are supported."""
    p, st = run("(do ((cycle current (next player)) (set (game sto C) (pid (current player)))))", players=3)
    assert V(p, st, "C") == 1


def test_row_49_create_teams_outside_setup_is_a_placement_error():
    """§18 row 49: `create teams` outside `setup` is a load-time `placement` error (§7.13)."""
    assert "placement" in load_classes(text_of("(do ((create teams (0) (1))))"))


def test_row_49_create_deck_in_a_choice_is_a_placement_error():
    """§18 row 49: `create deck` inside a choice is a load-time `placement` error (§7.13)."""
    assert "placement" in load_classes(text_of("(choice ((create deck (game iloc X) (deck (RANK (A))))))"))


# ---------------------------------------------------------------- "Unchanged on purpose"


def test_unchanged_any_outside_a_choice_runs_for_every_element():
    """§18 unchanged: `any` outside a choice runs its body for every element (§6.4)."""
    p, st = run("(do ((any (range 1..4) 'X (inc (game sto N) 'X))))")
    assert V(p, st, "N") == 10


def test_unchanged_empty_any_in_a_choice_keeps_the_path():
    """§18 unchanged: an empty `any` inside a choice does not remove the path (§6.7)."""
    p = G("(choice ((do ((inc (game sto A)) (any (range 1..0) 'X (inc (game sto B)))))))")
    st = p.new_game(1)
    assert len(p.options(st)) == 1
    p.apply(st, 0)
    assert (V(p, st, "A"), V(p, st, "B")) == (1, 0)


def test_unchanged_choice_without_options_is_an_error():
    """§18 unchanged: a choice without options is an error (§6.6)."""
    p, st = run("(choice ((any (range 1..0) 'X (inc (game sto B) 'X))))")
    assert runtime_error(p, st) == "no-option"


def test_unchanged_subsets_include_the_empty_subset():
    """§18 unchanged: `(subsets P)` includes the empty subset (§9.3)."""
    p, st = run("(do ((set (game sto N) (size (subsets (game iloc STOCK))))"
                " (set (game sto Z) (size (bottom (subsets (game iloc STOCK)))))))")
    assert (V(p, st, "N"), V(p, st, "Z")) == (32, 0)


def test_unchanged_range_includes_upper_bound():
    """§18 unchanged: `(range A..B)` includes B."""
    p, st = run("(do ((set (game sto N) (size (range 2..5)))))")
    assert V(p, st, "N") == 4


def test_unchanged_previous_player_ignores_a_queued_player():
    """§18 unchanged: `(previous player)` ignores a queued player."""
    p, st = run("(do ((cycle current (1 player)) (cycle next (3 player)) (set (game sto P) (pid (previous player)))"
                " (set (game sto N) (pid (next player)))))", players=4)
    assert V(p, st, "P") == 0
    assert V(p, st, "N") == 3


def test_unchanged_cycle_next_previous_does_not_reverse_play():
    """§18 unchanged: `cycle next previous` does not reverse the direction of play."""
    body = ("(stage player (end (== (game sto N) 3)) (choice ((do ((inc (game sto N))"
            " ((== (game sto N) 1) (cycle next (previous player))) (turn pass))))))")
    p = G(body, players=3)
    res = play_game(p, 1, [RandomPlayer()] * 3)
    assert [d.chooser for d in res.decisions] == [0, 2, 0]  # reversed play would give [0, 2, 1]
