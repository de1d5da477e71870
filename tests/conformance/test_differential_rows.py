"""docs/language.md §28 "Differences from CardStock": one test per row, asserting the "this dialect" column.

The rows come from the differential test against CardStock (bench/differential.py, docs/differential.md).
"""
from __future__ import annotations

from recycle.compiler import compile_game
from recycle.lang import parse_game

DECK = "(RANK (A, TWO, THREE)) (SUIT (HEARTS, SPADES))"


def game(body: str) -> str:
    return (f"(game (setup (create players 2) (create deck (game iloc STOCK) (deck {DECK})))"
            f" (do ((repeat all (move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))"
            f" {body} (scoring max 0))")


def compiled(body: str):
    return compile_game(parse_game(game(body), "t.rcy"))


def pile(p, st, owner, kind, name):
    return [(st.catt[c]["RANK"], st.catt[c].get("SUIT")) for c in p.pile(st, owner, kind, name, 0)]


def test_row_1_repeat_all_over_a_bound_filter_moves_every_card():
    """§28 row 1: `(repeat all (move (top 'V) …))` with 'V a let-bound filter moves every card of 'V once."""
    p = compiled("(do ((let (filter ((current player) iloc HAND) 'C (== (cardatt RANK 'C) TWO)) 'V"
                 "   (repeat all (move (top 'V) (top (game vloc OUT)))))))")
    st = p.new_game(1)
    out = pile(p, st, "game", "vloc", "OUT")
    assert sorted(out) == [("TWO", "HEARTS"), ("TWO", "SPADES")]  # both twos, each once
    assert all(r != "TWO" for r, _ in pile(p, st, 0, "iloc", "HAND"))


def test_row_2_two_any_binding_one_name_each_bind_their_own_card():
    """§28 row 2: two `any` in one path binding 'C: every option discards two different cards."""
    p = compiled("(stage player (end (== (size (game vloc OUT)) 2))"
                 " (choice ((do ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc OUT))))"
                 "              (any ((current player) iloc HAND) 'C (move 'C (top (game vloc OUT)))))))))")
    st = p.new_game(1)
    assert len(p.options(st)) == 6 * 5  # ordered pairs of different cards of the six in hand
    p.apply(st, 7)
    assert len(set(pile(p, st, "game", "vloc", "OUT"))) == 2
    assert len(pile(p, st, 0, "iloc", "HAND")) == 4


def test_row_3_runs_all_offers_every_run_once():
    """§28 row 3: `runs all` of A..5 gives the six runs of three or more, each once (not only those ending at 5)."""
    text = ("(game (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (A, TWO, THREE, FOUR, FIVE)))))"
            " (do ((set (game points SEQ) (((RANK : A) 1) ((RANK : TWO) 2) ((RANK : THREE) 3) ((RANK : FOUR) 4)"
            "                              ((RANK : FIVE) 5)))))"
            " (stage player (end (== (size (game iloc STOCK)) 0))"
            "  (choice ((any (runs all 3 (game iloc STOCK) using (game points SEQ)) 'R"
            "    (repeat all (move (top 'R) (top (game vloc MELD))))))))"
            " (scoring max 0))")
    p = compile_game(parse_game(text, "t.rcy"))
    runs = []
    for i in range(len(p.options(p.new_game(1)))):
        st = p.new_game(1)
        p.apply(st, i)
        runs.append(tuple(sorted(r for r, _ in pile(p, st, "game", "vloc", "MELD"))))
    order = ["A", "TWO", "THREE", "FOUR", "FIVE"]
    expected = {tuple(sorted(order[a:b])) for a in range(5) for b in range(a + 3, 6)}
    assert len(runs) == 6 and set(runs) == expected


def test_row_4_max_over_a_union_with_ties_picks_any_seats_card_alike():
    """§28 row 4 (spec §18 row 26): the owner of the `max` of every seat's card under a map that ties them all
    is uniform over the seats (bench/novel/MaxTies3: CardStock favours the last seat, 58% of the wins of three)."""
    text = ("(game (setup (create players 3) (create deck (game iloc STOCK) (deck (RANK (A, TWO, THREE, FOUR)))))"
            " (do ((set (game points FLAT) (((RANK : A) 1) ((RANK : TWO) 1) ((RANK : THREE) 1) ((RANK : FOUR) 1)))"
            "      (all player 'P (move (top (game iloc STOCK)) (top ('P vloc ROW))))"
            "      (inc ((owner (max (union (all player 'P ('P vloc ROW))) using (game points FLAT))) sto WON) 1)))"
            " (scoring max ((current player) sto WON)))")
    p = compile_game(parse_game(text, "t.rcy"))
    wins = [0, 0, 0]
    for seed in range(600):
        st = p.new_game(seed)
        for seat in range(3):
            wins[seat] += p.value(st, seat, "sto", "WON")
    assert sum(wins) == 600, wins
    assert all(150 <= w <= 250 for w in wins), wins  # 200 expected each; CardStock's bias gives the last seat ~300


def test_row_5_repeat_of_an_integer_action_runs_it_each_time():
    """§28 row 5 (spec §18 row 13): `(repeat 3 (inc X 1))` adds 3 and `(repeat N (dec Y 1))` takes N, each copy on the
    value the one before left (bench/novel/RepeatInc2: CardStock adds 1 and takes 1)."""
    p = compiled("(do ((repeat 3 (inc (game sto X) 1))"
                 "     (repeat (size ((current player) iloc HAND)) (dec (game sto Y) 1))))")
    st = p.new_game(1)
    assert p.value(st, "game", "sto", "X") == 3
    assert p.value(st, "game", "sto", "Y") == -6  # six cards in hand: the deck of game() dealt to player 0


def test_row_6_all_inside_a_choice_visits_the_collection_in_order():
    """§28 row 6 (spec §18 row 19): `all` in an option runs for players 0, 1 in that order (CardStock: 1, 0), so a
    `cycle current 'P` in it leaves the last player of the collection current (bench/novel/SeatLoop3)."""
    p = compiled("(stage player (end (> (game sto ORDER) 0))"
                 " (choice ((do ((all player 'P (do ((set (game sto ORDER) (+ (* 10 (game sto ORDER)) (+ 1 (pid 'P))))"
                 "                                   (cycle current 'P))))"
                 "               (set (game sto AFTER) (+ 1 (pid (current player)))))))))")
    st = p.new_game(1)
    p.apply(st, 0)
    assert p.value(st, "game", "sto", "ORDER") == 12
    assert p.value(st, "game", "sto", "AFTER") == 2  # player 1, the last one visited, is current after the all


def test_row_7_a_stage_ended_on_arrival_leaves_the_turn_order_as_it_was():
    """§28 row 7 (spec §18 row 12): an inner stage whose end holds on arrival pushes and pops its cycle, so the next
    top-level stage starts with the base cycle's player 0 (bench/novel/ArriveEnded3: CardStock keeps the stale cycle
    and starts it with player 1)."""
    p = compiled("(stage player (end (>= (game sto PASS) 2))"
                 " (do ((inc (game sto PASS) 1) ((== (game sto PASS) 2) (set (game sto DONE) 2))))"
                 " (stage player (end (== (game sto DONE) (game sto PASS)))"
                 "  (choice ((set (game sto DONE) (game sto PASS)))))"
                 " (choice ((inc ((current player) sto OUTER) 1))))"
                 " (stage player (end (> (game sto FIRST) 0))"
                 "  (choice ((set (game sto FIRST) (+ 1 (pid (current player)))))))")
    st = p.new_game(1)
    for _ in range(3):  # pass 1 (player 0): inner and outer choices; pass 2 (player 1): the outer choice only
        p.apply(st, 0)
    assert [p.value(st, seat, "sto", "OUTER") for seat in (0, 1)] == [1, 1]
    assert p.value(st, "game", "sto", "DONE") == 2
    p.apply(st, 0)
    assert p.value(st, "game", "sto", "FIRST") == 1  # player 0 starts the second stage
