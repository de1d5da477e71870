"""Engine: choices and option building (§6.6–6.9, §16.1–16.3)."""
from __future__ import annotations

from recycle.compiler import compile_game
from recycle.engine.play import play_game
from recycle.engine.state import MV, SET, SHF
from recycle.lang import parse_game
from recycle.players.random_player import RandomPlayer

RANKS13 = "(RANK (A, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, J, Q, K))"
SCORING = "(scoring max ((current player) sto SCORE))"


def G(body, players=2, deck="(RANK (A, TWO, THREE, FOUR, FIVE))", setup_extra="", scoring=SCORING, declares=""):
    text = (f"(game {declares} (setup (create players {players}) {setup_extra} "
            f"(create deck (game iloc STOCK) (deck {deck}))) {body} {scoring})")
    prog = compile_game(parse_game(text, "t.rcy"))
    return prog


def deal(n, who="(current player)"):
    return f"(repeat {n} (move (top (game iloc STOCK)) (top ({who} iloc HAND))))"


def ranks(prog, st, cards):
    return [st.catt[c].get("RANK") for c in cards]


def moves(opt):
    return [(op[1], op[4]) for op in opt.ops if op[0] == MV]


# ---------------------------------------------------------------- §16.3 branching factors


def test_hand_of_five_plus_pass_is_six_options():
    p = G(f"(do ({deal(5)})) (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc T)))) (turn pass)))")
    st = p.new_game(1)
    assert st.status == 1 and len(p.options(st)) == 6
    # option order: the any's elements bottom to top, then the second clause
    hand = p.pile(st, 0, "iloc", "HAND")
    assert [moves(o)[0][0] for o in p.options(st)[:5]] == hand
    assert p.describe(st, p.options(st)[5]) == ["turn pass"]


def test_gofish_ranks_times_other_players():
    # valet/GoFish4.rcy:42 — 3 distinct ranks held, 4 players: 3 × 3 = 9
    p = G(f"(do ({deal(4)}))"
          "(choice ((any 'RANKS 'R ((> (size (filter ((current player) iloc HAND) 'MR (== (cardatt RANK 'MR) 'R))) 0)"
          "  (any (other player) 'OP (do ((set (game str RANK) 'R) (cycle current 'OP))))))))",
          players=4, deck="(RANK (A, TWO, THREE, FOUR, FIVE)) (SUIT (H, S))",
          declares="(declare (A, TWO, THREE, FOUR, FIVE) 'RANKS)")
    st = p.new_game(1)
    # the top 4 cards of the unshuffled stock: FIVE-S FIVE-H FOUR-S FOUR-H -> ranks FOUR, FIVE: 2 ranks
    assert sorted(set(ranks(p, st, p.pile(st, 0, "iloc", "HAND")))) == ["FIVE", "FOUR"]
    assert len(p.options(st)) == 2 * 3


def test_gofish_nine_options():
    p = G("(do ((move (top (game iloc STOCK)) (top (game vloc X)))" + deal(4) + "))"
          "(choice ((any 'RANKS 'R ((> (size (filter ((current player) iloc HAND) 'MR (== (cardatt RANK 'MR) 'R))) 0)"
          "  (any (other player) 'OP (cycle current 'OP))))))",
          players=4, deck="(RANK (A, TWO, THREE, FOUR, FIVE)) (SUIT (H, S))",
          declares="(declare (A, TWO, THREE, FOUR, FIVE) 'RANKS)")
    st = p.new_game(1)
    assert len(set(ranks(p, st, p.pile(st, 0, "iloc", "HAND")))) == 3
    opts = p.options(st)
    assert len(opts) == 9
    # the option changes the current player; the decision is still player 0's
    p.apply(st, 4)
    r = p.result(st)
    assert r.decisions[0].chooser == 0 and st.pcyc[-2] in (1, 2, 3)


def test_choose_a_trump_suit_is_four_options():
    p = G("(choice ((any (CLUBS, HEARTS, SPADES, DIAMONDS) 'S (set (game str TRUMP) 'S))))")
    st = p.new_game(1)
    assert len(p.options(st)) == 4
    p.apply(st, 2)
    assert p.value(st, "game", "str", "TRUMP") == "SPADES"


def test_forced_move_is_still_a_decision():
    # cardstock/Test-Subset2.gdl:36 — §6.7 example 4
    p = G(f"(do ({deal(3)})) (choice ((repeat all (move (top ((current player) iloc HAND)) (top (game vloc T))))))")
    st = p.new_game(1)
    assert len(p.options(st)) == 1
    assert len(moves(p.options(st)[0])) == 3
    p.apply(st, 0)
    r = p.result(st)
    assert r.n_decisions == 1 and r.decisions[0].branching == 1
    assert p.pile(st, "game", "vloc", "T") == [2, 3, 4]  # reverse order of the hand (§7.12)


# ---------------------------------------------------------------- §6.7 examples


def test_example1_later_actions_see_earlier_ones():
    p = G(f"(do ({deal(3)} (set (game str LEAD) NONE)))"
          "(choice (((== (game str LEAD) NONE)"
          " (any ((current player) iloc HAND) 'AC"
          "  (do ((move 'AC (top ((current player) vloc TRICK)))"
          "       (set (game str LEAD) (cardatt RANK (top ((current player) vloc TRICK))))))))))")
    st = p.new_game(1)
    opts = p.options(st)
    assert len(opts) == 3
    hand = p.pile(st, 0, "iloc", "HAND")
    for i, o in enumerate(opts):
        sets = [op[3] for op in o.ops if op[0] == SET]
        assert sets == [st.catt[hand[i]]["RANK"]]
    # building changed nothing in the real state
    assert p.value(st, "game", "str", "LEAD") == "NONE"
    assert p.pile(st, 0, "vloc", "TRICK") == []
    p.apply(st, 1)
    assert p.value(st, "game", "str", "LEAD") == st.catt[hand[1]]["RANK"]
    assert p.pile(st, 0, "vloc", "TRICK") == [hand[1]]


SCOPA_DECK = "(VAL (ONE, TWO, THREE, FOUR)) (COPY (A, B))"
SCOPA_POINTS = "(set (game points V) (((VAL : ONE) 1) ((VAL : TWO) 2) ((VAL : THREE) 3) ((VAL : FOUR) 4)))"


def pick(val, copy, to):
    return (f"(move (top (filter (game iloc STOCK) 'Q (and (== (cardatt VAL 'Q) {val}) (== (cardatt COPY 'Q) {copy}))))"
            f" (top {to}))")


SCOPA_CHOICE = """
(choice (
 (any ((current player) iloc HAND) 'AC
  (do ((move 'AC (top ((current player) vloc TRICK)))
       (any (filter (game vloc POOL) 'PC (== (cardatt VAL 'PC) (cardatt VAL 'AC))) 'PCF
        (do ((move 'PCF (top ((current player) vloc BUNDLE)))
             (set ((current player) sto MOVED) 1))))
       ((!= ((current player) sto MOVED) 1)
        (any (filter (subsets (game vloc POOL)) 'SUB
                (== (sum 'SUB using (game points V)) (score 'AC using (game points V)))) 'SUBMATCH
         (do ((repeat all (move (top 'SUBMATCH) (top ((current player) vloc BUNDLE)))))))))))))
"""


def test_example2_empty_any_keeps_the_path_alive():
    setup = " ".join([SCOPA_POINTS, pick("THREE", "A", "((0 player) iloc HAND)"), pick("FOUR", "A", "((0 player) iloc HAND)"),
                      pick("THREE", "B", "(game vloc POOL)"), pick("ONE", "A", "(game vloc POOL)"),
                      pick("TWO", "A", "(game vloc POOL)"), pick("ONE", "B", "(game vloc POOL)")])
    p = G(f"(do ({setup})) {SCOPA_CHOICE}", deck=SCOPA_DECK)
    st = p.new_game(1)
    opts = p.options(st)
    # THREE-A: one single match (THREE-B); FOUR-A: no single match, subsets {3,1a} {3,1b} {1a,2,1b}
    assert len(opts) == 4
    assert [len(moves(o)) for o in opts] == [2, 3, 3, 4]
    assert p.value(st, 0, "sto", "MOVED") == 0


def test_example2_no_match_at_all_is_the_single_option_play_the_card():
    setup = " ".join([SCOPA_POINTS, pick("FOUR", "B", "((0 player) iloc HAND)"), pick("ONE", "A", "(game vloc POOL)")])
    p = G(f"(do ({setup})) {SCOPA_CHOICE}", deck=SCOPA_DECK)
    st = p.new_game(1)
    opts = p.options(st)
    assert len(opts) == 1 and len(moves(opts[0])) == 1


def test_any_after_an_action_with_a_false_guard_yields_one_option_per_element():
    p = G("(choice ((do ((inc (game sto A)) (any (range 1..4) 'X ((== 1 2) (inc (game sto B))))))))")
    st = p.new_game(1)
    opts = p.options(st)
    assert len(opts) == 4
    assert all(len(o.ops) == 1 and o.ops[0][0] == SET for o in opts)


def test_paths_without_actions_are_not_options():
    p = G("(choice ((any (range 1..3) 'X ((== 'X 2) (inc (game sto B)))) ((== 1 2) (turn pass))"
          " (any (game vloc EMPTY) 'C (move 'C (top (game vloc T))))))")
    st = p.new_game(1)
    assert len(p.options(st)) == 1


def test_nested_any_multiplies_and_orders_depth_first():
    p = G("(choice ((any (range 1..2) 'X (any (A, B) 'Y (do ((set (game sto N) 'X) (set (game str S) 'Y))))) (turn pass)))")
    st = p.new_game(1)
    got = [tuple(op[3] for op in o.ops if op[0] == SET) for o in p.options(st)]
    assert got == [(1, "A"), (1, "B"), (2, "A"), (2, "B"), ()]


def test_clauses_after_an_any_run_after_the_body_for_every_element_in_written_order():
    # §18 row 18: for the 2nd … kth element too, the rest runs after the body
    p = G("(choice ((do ((any (range 1..3) 'X (set (game sto N) 'X)) (set (game sto M) (+ (game sto N) 10))))))")
    st = p.new_game(1)
    got = [tuple(op[3] for op in o.ops) for o in p.options(st)]
    assert got == [(1, 11), (2, 12), (3, 13)]


def test_all_inside_a_choice_does_not_branch_and_keeps_collection_order():
    p = G("(choice ((all (range 1..3) 'X (inc (game sto N) 'X))))")
    st = p.new_game(1)
    opts = p.options(st)
    assert len(opts) == 1 and [op[3] for op in opts[0].ops] == [1, 3, 6]


def test_all_around_an_any_picks_sequentially():
    p = G(f"(do ({deal(3)})) (choice ((all (range 1..2) 'I (any ((current player) iloc HAND) 'C (move 'C (top (game vloc T)))))))")
    st = p.new_game(1)
    opts = p.options(st)
    assert len(opts) == 3 * 2  # each time the any is reached, its collection is evaluated anew
    assert all(len(moves(o)) == 2 for o in opts)


def test_repeat_around_an_any_sees_earlier_repetitions():
    p = G(f"(do ({deal(3)})) (choice ((repeat 2 (any ((current player) iloc HAND) 'C (move 'C (top (game vloc T)))))))")
    st = p.new_game(1)
    assert len(p.options(st)) == 3 * 2


def test_repeat_count_is_evaluated_when_reached_and_each_repetition_afresh():
    p = G("(do ((repeat 3 (inc (game sto X) 2)) (repeat (game sto X) (inc (game sto Y))))) (choice ((repeat 3 (inc (game sto Z) (+ (game sto Z) 1)))))")
    st = p.new_game(1)
    assert p.value(st, "game", "sto", "X") == 6 and p.value(st, "game", "sto", "Y") == 6
    p.apply(st, 0)
    assert p.value(st, "game", "sto", "Z") == 7  # 0+1 -> 1, 1+2 -> 3, 3+4 -> 7


def test_let_inside_a_choice_is_computed_in_the_simulated_state():
    p = G(f"(do ({deal(2)})) (choice ((any ((current player) iloc HAND) 'C (do ((move 'C (top (game vloc T)))"
          " (let (size ((current player) iloc HAND)) 'N (set (game sto N) 'N)))))))")
    st = p.new_game(1)
    assert [o.ops[-1][3] for o in p.options(st)] == [1, 1]


def test_let_item_with_a_choice_body():
    p = G(f"(do ({deal(3)})) (let (size ((current player) iloc HAND)) 'N"
          " (choice ((any (range 1..'N) 'K (set ((current player) sto BID) 'K)) (turn pass))))")
    st = p.new_game(1)
    assert len(p.options(st)) == 4
    p.apply(st, 2)
    assert p.value(st, 0, "sto", "BID") == 3


def test_virtual_pile_entry_removed_on_one_path_is_still_seen_by_the_others():
    p = G(f"(do ({deal(3)})) (let (filter ((current player) iloc HAND) 'H (!= (cardatt RANK 'H) Q)) 'S"
          " (choice ((any (range 1..2) 'K (repeat all (move (top 'S) (top (game vloc T))))))))")
    st = p.new_game(1)
    opts = p.options(st)
    assert len(opts) == 2
    assert [len(moves(o)) for o in opts] == [3, 3]
    p.apply(st, 1)
    assert len(p.pile(st, "game", "vloc", "T")) == 3


def test_random_values_drawn_while_building_are_reused():
    p = G("(choice ((set (game sto D) (random 1..1000000000)) (set (game sto E) (random 1..1000000000))))")
    for seed in range(5):
        st = p.new_game(seed)
        drawn = [o.ops[0][3] for o in p.options(st)]
        p.apply(st, 1)
        assert p.value(st, "game", "sto", "E") == drawn[1]
        assert p.value(st, "game", "sto", "D") == 0


def test_shuffle_inside_a_choice_reuses_its_permutation():
    p = G("(choice ((shuffle (game iloc STOCK)) (turn pass)))", deck=RANKS13)
    st = p.new_game(3)
    op = p.options(st)[0].ops[0]
    assert op[0] == SHF and p.pile(st, "game", "iloc", "STOCK") == list(range(13))
    p.apply(st, 0)
    assert p.pile(st, "game", "iloc", "STOCK") == list(op[3])


def test_max_tie_break_inside_a_choice_belongs_to_the_option():
    p = G("(do ((set (game points Z) (((RANK : NONE) 1))))) "
          "(choice ((move (max (game iloc STOCK) using (game points Z)) (top (game vloc T)))))", deck=RANKS13)
    seen = set()
    for seed in range(20):
        st = p.new_game(seed)
        c = moves(p.options(st)[0])[0][0]
        p.apply(st, 0)
        assert p.pile(st, "game", "vloc", "T") == [c]
        seen.add(c)
    assert len(seen) > 3  # ties are broken at random


def test_building_does_not_change_the_real_state():
    p = G(f"(do ({deal(3)} (set (game points P) (((RANK : A) 1))))) "
          "(choice ((any ((current player) iloc HAND) 'C (do ((move 'C (top (game vloc T))) (remember 'C (top (game mem M)))"
          " (inc ((current player) sto SCORE)) (cycle current (next player)) (shuffle ((current player) iloc HAND))"
          " (swap (game vloc T) (game vloc U)) (forget (top (game mem M))))))))")
    st = p.new_game(1)
    assert len(p.options(st)) == 3
    ref = p.new_game(1)
    ref.opts = None  # rebuild by hand: clone equality ignores nothing but the rng draws
    assert st.piles == ref.piles and st.vals == ref.vals and st.pcyc == ref.pcyc and st.where == ref.where


def test_option_descriptions():
    p = G(f"(do ({deal(2)})) (choice ((any ((current player) iloc HAND) 'C (do ((move 'C (top (game vloc T)))"
          " (set (game str LEAD) (cardatt RANK 'C)) (inc ((current player) sto SCORE) 2) (cycle next (current player)))))))")
    st = p.new_game(1)
    d = p.describe(st, p.options(st)[0])
    assert d == ["move FIVE p1 iloc HAND -> table vloc T", "set table str LEAD = FIVE",
                 "set p1 sto SCORE = 2", "cycle next p1"]


def test_description_to_a_player_hides_cards_they_cannot_see():
    p = G("(choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))))")
    st = p.new_game(1)
    o = p.options(st)[0]
    assert p.describe(st, o, viewer=0) == ["move the top card of table iloc STOCK -> p1 iloc HAND"]
    assert p.describe(st, o) == ["move FIVE table iloc STOCK -> p1 iloc HAND"]


def test_decision_records():
    p = G("(stage player (end (== (game sto N) 3)) (choice ((inc (game sto A)) (inc (game sto B)) (turn pass)))"
          " (do ((inc (game sto N)))))")
    r = play_game(p, 7, [RandomPlayer(), RandomPlayer()])
    assert [d.number for d in r.decisions] == [1, 2, 3]
    assert [d.chooser for d in r.decisions] == [0, 1, 0]
    assert all(d.branching == 3 for d in r.decisions)
    assert [d.chosen for d in r.decisions] == r.choices
    assert r.decisions[0].position.startswith("t.rcy:1:")


def test_random_player_is_uniform_over_options_not_clauses():
    p = G(f"(do ({deal(5)})) (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc T)))) (turn pass)))")
    passes = 0
    N = 3000
    for seed in range(N):
        r = play_game(p, seed, [RandomPlayer(), RandomPlayer()])
        passes += r.choices[0] == 5
    assert abs(passes / N - 1 / 6) < 0.03


def test_guarded_clauses_without_a_branch_in_a_choice():
    """A guard that fails gives no option at the top of a choice, and is a no-op inside a path that goes on."""
    p = G("(choice (((== 1 2) (inc ((current player) sto SCORE)))"
          "         ((== 1 1) (inc ((current player) sto SCORE) 2))"
          "         (any (game iloc STOCK) 'C ((== (cardatt RANK 'C) TWO) (move 'C (top (game vloc T)))))"
          "         (any (game iloc STOCK) 'C (do (((== 1 2) (inc ((current player) sto SCORE)))"
          "                                       (move 'C (top (game vloc T))))))))")
    st = p.new_game(1)
    opts = p.options(st)
    assert len(opts) == 1 + 1 + 5
    assert [op[0] for op in opts[0].ops] == [SET] and opts[0].ops[0][3] == 2
    assert [ranks(p, st, [c]) for c, _ in moves(opts[1])] == [["TWO"]]
    assert all([op[0] for op in o.ops] == [MV] for o in opts[2:])
