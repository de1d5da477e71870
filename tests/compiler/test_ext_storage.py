"""Extension E2: storage owned by locations and cards, `ply` storage, attribute overrides, `clear`."""
from __future__ import annotations

import random

import pytest

from recycle.engine.play import play_game
from recycle.engine.recording import ListRecorder
from recycle.errors import LoadError
from recycle.lang import parse_game
from recycle.players.base import ScriptedPlayer
from recycle.players.random_player import RandomPlayer
from support.games import load, make_game, run, value_of

HAND = "(game vloc HAND)"
# ONE-H TWO-H THREE-H FIVE-H, then a wild W (no SUIT H), bottom to top
CARDS = ("(create deck (game vloc HAND) (deck (RANK (ONE, TWO, THREE, FIVE)) (SUIT (H))))"
         " (create deck (game vloc HAND) (deck (RANK (WILD)) (SUIT (W))))")
VAL = ("(set (game points VAL) (((RANK : ONE) 1) ((RANK : TWO) 2) ((RANK : THREE) 3) ((RANK : FOUR) 4) "
       "((RANK : FIVE) 5) ((SUIT : H) 100)))")
WILD = f"(top {HAND})"


def game(items: str, setup: str = CARDS, **kw) -> str:
    return make_game(setup, items, **kw)


def stored(prog, st, key):
    return prog.value(st, "game", "sto", key)


# ---------------------------------------------------------------- storage on locations


def test_location_storage_sto_str_and_inc():
    prog, st = run(game(f"(do ((set ({HAND} sto BLOCKED) 1) (inc ({HAND} sto BLOCKED) 2) (dec ({HAND} sto BLOCKED))"
                        f" (set ((game vloc CELL 3) str STATE) DEAD)"
                        f" (set (game sto A) ({HAND} sto BLOCKED))"
                        f" (set (game sto B) ((game vloc OTHER) sto BLOCKED))"
                        f" ((== ((game vloc CELL 3) str STATE) DEAD) (set (game sto C) 1))"
                        f" (let (game vloc CELL 3) 'X (set (game str D) ('X str STATE)))))"))
    assert (stored(prog, st, "A"), stored(prog, st, "B"), stored(prog, st, "C")) == (2, 0, 1)
    assert prog.value(st, "game", "str", "D") == "DEAD"
    fam_pid = prog.pile_ids[(0, 0, "CELL", 3)]
    assert prog.value(st, ("L", fam_pid), "str", "STATE") == "DEAD"
    storage = prog.view(st, 1)["storage"]
    assert storage[("table vloc HAND", "sto", "BLOCKED")] == 2 and storage[("table vloc CELL 3", "str", "STATE")] == "DEAD"


def test_location_storage_is_per_stored_pile_and_a_virtual_pile_owns_none():
    with pytest.raises(LoadError, match="computed"):
        parse_game(game(f"(do ((set ((top 2 {HAND}) sto X) 1)))"))
    prog, st = run(game("(do ((all (range 0..3) 'I (set ((game vloc C 'I) sto N) 'I))"
                        " (set (game sto S) (sum (range 0..3) 'I ((game vloc C 'I) sto N)))))"))
    assert stored(prog, st, "S") == 6


def test_set_events_name_locations_and_cards():
    prog = load(game(f"(do ((set ({HAND} sto BLOCKED) 1) (set ((bottom {HAND}) str PLACER) P)"
                     f" (set ({HAND} ply OWNER) (1 player)) (clear ({HAND} ply OWNER))))"))
    rec = ListRecorder()
    prog.new_game(1, recorder=rec)
    sets = [e for e in rec if e["type"] == "set"]
    assert [(e["owner"], e["store"], e["key"], e["value"]) for e in sets] == [
        ("table vloc HAND", "sto", "BLOCKED", 1), ("DEFAULT#0", "str", "PLACER", "P"),
        ("table vloc HAND", "ply", "OWNER", "p2"), ("table vloc HAND", "ply", "OWNER", None)]


# ---------------------------------------------------------------- storage on cards


def test_card_storage_travels_with_the_card():
    prog, st = run(game(f"(do ((set ((bottom {HAND}) sto MARK) 7) (move (bottom {HAND}) (top (game vloc ELSEWHERE)))"
                        " (set (game sto A) ((top (game vloc ELSEWHERE)) sto MARK))"
                        f" (set (game sto B) ((bottom {HAND}) sto MARK))))"))
    assert (stored(prog, st, "A"), stored(prog, st, "B")) == (7, 0)
    assert prog.view(st, 0)["storage"][("DEFAULT#0", "sto", "MARK")] == 7


def test_card_storage_of_no_card_is_an_error():
    _prog, st = run(game("(do ((set ((top (game vloc EMPTY)) sto MARK) 1)))"))
    assert st.status == 4 and st.error.cls == "no-card"


# ---------------------------------------------------------------- ply storage


def test_unset_ply_equals_no_player_and_set_ply_is_that_player():
    claimed = "(any player 'P (== ((game vloc S) ply OWNER) 'P))"
    prog, st, v = value_of(claimed)
    assert v is False
    prog, st, v = value_of(claimed, before="(do ((set ((game vloc S) ply OWNER) (1 player))))")
    assert v is True
    prog, st, v = value_of("(filter player 'P (!= ((game vloc S) ply OWNER) 'P))", before="(do ((set ((game vloc S) ply OWNER) (1 player))))")
    assert list(v) == [0]
    # no player equals no player (as "no card" equals "no card")
    assert value_of("(== ((game vloc S) ply OWNER) ((game vloc T) ply OWNER))")[2] is True
    # a copy of an unset cell is unset; clear unsets
    prog, st = run(game("(do ((set ((game vloc S) ply OWNER) (1 player)) (set ((game vloc T) ply OWNER) ((game vloc U) ply OWNER))"
                        " (set ((game vloc S) ply COPY) ((game vloc S) ply OWNER)) (clear ((game vloc S) ply OWNER))))"))
    S, T = prog.pile_ids[(0, 0, "S", 0)], prog.pile_ids[(0, 0, "T", 0)]
    assert prog.value(st, ("L", S), "ply", "OWNER") is None and prog.value(st, ("L", T), "ply", "OWNER") is None
    assert prog.value(st, ("L", S), "ply", "COPY") == 1


def test_a_ply_cell_is_a_player_expression():
    prog, st = run(game("(do ((set (game ply LEADER) (1 player)) (move (top (game vloc HAND)) (top ((game ply LEADER) vloc WON)))"
                        " (inc ((game ply LEADER) sto SCORE) 3) (set (game sto P) (pid (game ply LEADER)))))"))
    assert stored(prog, st, "P") == 1 and prog.value(st, 1, "sto", "SCORE") == 3
    assert len(prog.pile(st, 1, "vloc", "WON")) == 1


def test_using_an_unset_ply_cell_as_a_player_is_an_error():
    _prog, st = run(game("(do ((set (game sto P) (pid (game ply LEADER)))))"))
    assert st.status == 4 and st.error.cls == "no-player" and "(game ply LEADER) holds no player" in st.error.message


def test_ply_type_checks():
    with pytest.raises(LoadError, match="expected a Player"):
        parse_game(game("(do ((set (game ply X) 3)))"))
    with pytest.raises(LoadError, match="`==` compares two values of one type"):
        parse_game(game("(do (((== (game ply X) 0) (turn pass))))"))


# ---------------------------------------------------------------- attribute overrides


def test_override_is_seen_by_cardatt_point_maps_partition_runs_filter_and_sort():
    before = (f"(do ({VAL} (set (game sto BEFORE) (max (runs largest 1 {HAND} using (game points VAL)) 'R (size 'R)))"
              f" (set (game sto SCOREW) (score {WILD} using (game points VAL)))"
              f" (set ({WILD} str RANK) FOUR) (set ({WILD} str SUIT) H)))")
    checks = {
        f"(cardatt RANK {WILD})": "FOUR",
        f"(score {WILD} using (game points VAL))": 104,
        f"(sum {HAND} using (game points VAL))": 500 + 15,
        f"(scoremax {HAND} using (game points VAL))": 105,
        f"(size (partition RANK {HAND}))": 5,
        f"(size (partition SUIT {HAND}))": 1,
        f"(size (top (runs largest 1 {HAND} using (game points VAL))))": 5,
        f"(size (filter {HAND} 'C (== (cardatt RANK 'C) FOUR)))": 1,
        f"(cardatt RANK (4 (sort {HAND} using (game points VAL))))": "FIVE",
        f"(cardatt RANK (3 (sort {HAND} using (game points VAL))))": "FOUR",
    }
    for expr, want in checks.items():
        _prog, _st, v = value_of(expr, CARDS, before)
        assert v == want, expr
    _prog, _st, v = value_of("(game sto BEFORE)", CARDS, before)
    assert v == 3  # before the override: ONE TWO THREE
    assert value_of("(game sto SCOREW)", CARDS, before)[2] == 0  # the score cached for the printed card is not reused


def test_override_travels_with_the_card_and_clear_removes_it():
    prog, st = run(game(f"(do ({VAL} (set ({WILD} str RANK) FOUR) (move {WILD} (top (game vloc AWAY)))"
                        " (set (game sto A) (score (top (game vloc AWAY)) using (game points VAL)))"
                        " (clear ((top (game vloc AWAY)) str RANK))"
                        " (set (game sto B) (score (top (game vloc AWAY)) using (game points VAL)))"
                        " (set (game str C) (cardatt RANK (top (game vloc AWAY))))))"))
    assert (stored(prog, st, "A"), stored(prog, st, "B"), prog.value(st, "game", "str", "C")) == (4, 0, "WILD")


def test_storage_named_like_no_attribute_is_no_override():
    prog, st = run(game(f"(do ((set ({WILD} str COLOR) RED) (set (game str C) (cardatt COLOR {WILD}))))"))
    assert prog.value(st, "game", "str", "C") == ""
    assert prog.card_attrs(st, prog.pile(st, "game", "vloc", "HAND")[-1]) == {"RANK": "WILD", "SUIT": "W"}


def test_overrides_inside_a_choice_are_undone_while_building_and_applied_with_the_option():
    text = game(f"(do ({VAL}))\n (choice ((any (ONE, FIVE) 'R (set ({WILD} str RANK) 'R))))\n"
                f" (do ((set (game sto S) (score {WILD} using (game points VAL)))))")
    prog, st = run(text)
    wild = prog.pile(st, "game", "vloc", "HAND")[-1]
    assert len(prog.options(st)) == 2 and prog.card_attrs(st, wild)["RANK"] == "WILD"  # building left no trace
    assert prog.describe(st, prog.options(st)[1]) == ["set WILD-W str RANK = FIVE"]  # the card as the game shows it
    prog.apply(st, 1)
    assert prog.card_attrs(st, wild)["RANK"] == "FIVE" and stored(prog, st, "S") == 5


def test_determinize_keeps_overrides_with_their_card():
    text = make_game(CARDS.replace("vloc HAND", "iloc SECRET"),
                     "(do ((set ((top (game iloc SECRET)) str RANK) NINE)))\n (choice ((turn pass) (turn pass)))",
                     deck="(create deck (game iloc STOCK) (deck (RANK (A))))")
    prog, st = run(text)
    rng = random.Random(3)
    for _ in range(5):
        d = prog.determinize(st, 0, rng)
        nine = [c for c in range(len(d.catt)) if d.catt[c]["RANK"] == "NINE"]
        assert nine == [4]  # the overridden card is still the one with the override, wherever it lies


def test_overrides_replay_exactly():
    text = game(f"(do ({VAL}))\n (stage player (end (== (game sto T) 4))\n"
                f"  (choice ((any (ONE, TWO, THREE, FOUR, FIVE) 'R (do ((set ({WILD} str RANK) 'R) (inc (game sto T))))))))",
                scoring=f"(scoring max (score {WILD} using (game points VAL)))")
    prog = load(text)
    r = play_game(prog, 9, [RandomPlayer(), RandomPlayer()])
    r2 = play_game(prog, 9, [ScriptedPlayer(r.choices)] * 2)
    assert r.scores == r2.scores and r.choices == r2.choices and r.scores[0] in (1, 2, 3, 4, 5)
