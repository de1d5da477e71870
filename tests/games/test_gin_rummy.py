"""Gin Rummy (games/gin_rummy.gdl): each rule judged by the game file itself.

A position is arranged by hand at the first decision of a match (the upcard offer to p1, the
non-dealer of the first hand; p2 deals), and the game's own options and hand scores are read.
Card shorthand: rank then suit, "TH" = TEN-HEARTS, "AC" = ACE-CLUBS.
"""
from __future__ import annotations

import functools
import random

import pytest

from recycle.compiler import load_program
from recycle.engine.algorithms import derive
from recycle.engine.state import DONE
from recycle.players.random_player import RandomPlayer
from recycle.run.batch import BatchSpec, run_batch
from recycle.run.scenario import Scenario
from support import GAMES

GIN = GAMES / "gin_rummy.gdl"
RANK = dict(zip("A23456789TJQK", ["ACE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE",
                                  "TEN", "JACK", "QUEEN", "KING"], strict=True))
SUIT = {"C": "CLUBS", "D": "DIAMONDS", "H": "HEARTS", "S": "SPADES"}
NAME = {f"{r}{s}": f"{RANK[r]}-{SUIT[s]}" for r in RANK for s in SUIT}

KNOCKER = ["AC", "2C", "3C", "4D", "4H", "4S", "7H", "8H", "9H", "KS"]  # deadwood 10 (KS) in three melds
SCATTERED = ["JH", "2D", "3D", "5S", "8S", "9D", "KD", "KC", "QC", "6D"]  # no meld: deadwood 73


@functools.cache
def program(target: int = 100):
    return load_program(GIN, {"TARGET": target})


def card(sc: Scenario, code: str) -> int:
    return sc.card(RANK=RANK[code[0]], SUIT=SUIT[code[1]])


def arrange(p1: list[str], p2: list[str], up: str, stock: list[str] | None = None, target: int = 100) -> Scenario:
    """The first hand at its first decision, with these hands, this upcard and (when given) exactly
    this stock, first card on top."""
    prog = program(target)
    sc = Scenario(prog, prog.new_game(1))
    for p in (0, 1):
        sc.move_all(p, "iloc", "HAND")
    sc.move_all("game", "vloc", "DISCARD")
    if stock is not None:
        sc.move_all("game", "iloc", "STOCK")
    for p, hand in ((0, p1), (1, p2)):
        for c in hand:
            sc.place(card(sc, c), p, "iloc", "HAND")
    sc.place(card(sc, up), "game", "vloc", "DISCARD")
    for c in reversed(stock or []):
        sc.place(card(sc, c), "game", "iloc", "STOCK")
    assert sc.st.chooser == 0 and len(sc.options()) == 2  # p1 is offered the upcard
    return sc


def texts(sc: Scenario) -> list[str]:
    return [" / ".join(d) for d in sc.describe()]


def choose(sc: Scenario, fragment: str) -> None:
    """Take the one option whose description contains `fragment`."""
    found = [i for i, t in enumerate(texts(sc)) if fragment in t]
    assert len(found) == 1, (fragment, texts(sc))
    sc.prog.apply(sc.st, found[0])


def discards(sc: Scenario) -> set[str]:
    return {t.split()[1] for t in texts(sc) if "-> table vloc DISCARD" in t}


def knocks_offered(sc: Scenario) -> bool:
    return any("sto END" in t for t in texts(sc))


def take_upcard_and_discard(sc: Scenario, code: str) -> None:
    choose(sc, "-> p1 iloc HAND")
    choose(sc, f"move {NAME[code]} p1 iloc HAND -> table vloc DISCARD")


# ---------------------------------------------------------------- the upcard and the draw


def test_upcard_goes_to_the_non_dealer_then_the_dealer_then_the_non_dealer_draws_from_the_stock():
    sc = arrange(KNOCKER, SCATTERED, "QD", stock=["5C", "6C", "7C", "8C", "9C"])
    choose(sc, "pass")
    assert sc.st.chooser == 1 and len(texts(sc)) == 2  # the dealer's offer
    assert "QUEEN-DIAMONDS table vloc DISCARD -> p2 iloc HAND" in texts(sc)[0]
    choose(sc, "pass")
    assert sc.st.chooser == 0
    assert texts(sc) == ["move FIVE-CLUBS table iloc STOCK -> p1 iloc HAND"]  # the upcard is no longer offered


def test_the_dealer_who_takes_the_upcard_plays_first_and_cannot_throw_it_back():
    sc = arrange(KNOCKER, SCATTERED, "QD")
    choose(sc, "pass")
    choose(sc, "-> p2 iloc HAND")
    assert sc.st.chooser == 1  # no draw: the dealer discards at once
    assert discards(sc) == {NAME[c] for c in SCATTERED}  # any card but the queen taken
    choose(sc, "move KING-CLUBS p2 iloc HAND")
    assert sc.st.chooser == 0 and len(texts(sc)) == 2  # then the non-dealer draws: stock or discard
    assert any("KING-CLUBS table vloc DISCARD -> p1 iloc HAND" in t for t in texts(sc))


def test_a_stock_card_may_be_thrown_back_but_not_a_taken_discard():
    sc = arrange(KNOCKER, SCATTERED, "QD", stock=["5C", "6C", "7C", "8C", "9C"])
    choose(sc, "pass")
    choose(sc, "pass")
    choose(sc, "STOCK")
    assert "FIVE-CLUBS" in discards(sc) and len(discards(sc)) == 11
    choose(sc, "move FIVE-CLUBS")
    choose(sc, "pass")  # p1 could knock with the king (10), and does not
    # p2 takes p1's discard and may throw back anything else
    choose(sc, "FIVE-CLUBS table vloc DISCARD -> p2 iloc HAND")
    assert discards(sc) == {NAME[c] for c in SCATTERED}


# ---------------------------------------------------------------- knocking and its scores


def test_knock_is_offered_only_when_the_deadwood_left_is_ten_or_less():
    sc = arrange(KNOCKER, SCATTERED, "QD")
    take_upcard_and_discard(sc, "KS")  # left: three melds and the queen, 10
    assert knocks_offered(sc) and sc.st.chooser == 0 and len(texts(sc)) == 2  # knock, or pass
    sc = arrange(KNOCKER, SCATTERED, "QD")
    take_upcard_and_discard(sc, "9H")  # breaks the run: 7+8+10+10 = 35
    assert not knocks_offered(sc) and sc.st.chooser == 1  # no decision: p2's turn to draw


def test_after_a_knock_the_defender_lays_off_only_cards_that_fit_then_the_knocker_scores_the_difference():
    defender = ["4C", "TH", "JH", "2D", "3D", "6S", "8S", "9D", "KD", "KC"]
    sc = arrange(KNOCKER, defender, "QD")
    take_upcard_and_discard(sc, "KS")
    choose(sc, "sto END")
    assert sc.st.chooser == 1  # the defender decides ...
    # ... the four of clubs on the set of fours or the club run, the ten on the heart run, or stop
    assert sorted(t.split()[1] for t in texts(sc) if t != "pass") == ["FOUR-CLUBS", "FOUR-CLUBS", "TEN-HEARTS"]
    choose(sc, "TEN-HEARTS")
    assert any(t.startswith("move JACK-HEARTS") for t in texts(sc))  # the jack fits once the ten is on
    choose(sc, "JACK-HEARTS")
    choose(sc, "FOUR-CLUBS p2 iloc HAND -> table vloc MELD 1")
    # defender keeps 2D 3D 6S 8S 9D KD KC = 48; the knocker's 10 leaves 38
    assert sc.st.hands == [(38, 0)]


@pytest.mark.parametrize("lay_off,score", [(False, 25), (True, 29)])
def test_an_undercut_scores_the_defender_the_difference_plus_25(lay_off, score):
    defender = ["5S", "6S", "7S", "JC", "JD", "JS", "2D", "3D", "AS", "4C"]  # deadwood 10, 6 once the four is laid off
    sc = arrange(KNOCKER, defender, "QD")
    take_upcard_and_discard(sc, "KS")
    choose(sc, "sto END")
    if lay_off:
        choose(sc, "FOUR-CLUBS p2 iloc HAND -> table vloc MELD 1")
    else:
        choose(sc, "pass")
    assert sc.st.hands == [(0, score)]


def test_gin_scores_the_defenders_deadwood_plus_25_and_allows_no_lay_off():
    sc = arrange(KNOCKER, SCATTERED, "TH")
    take_upcard_and_discard(sc, "KS")
    choose(sc, "sto END = 2")  # no deadwood: the knock is gin
    assert sc.st.hands == [(73 + 25, 0)]  # the jack of hearts was not laid off
    assert sc.st.chooser == 1 and len(texts(sc)) == 2  # the next hand: p2 (non-dealer) is offered the upcard


def test_big_gin_is_declared_instead_of_a_discard_and_scores_31():
    eleven = ["AC", "2C", "3C", "4C", "4D", "4H", "4S", "7H", "8H", "9H"]
    sc = arrange(eleven, SCATTERED, "TH")
    choose(sc, "-> p1 iloc HAND")
    assert any("sto END = 3" in t for t in texts(sc))
    choose(sc, "sto END = 3")
    assert sc.st.hands == [(73 + 31, 0)]
    assert sc.st.status == DONE and sc.outcome().winners == [0]  # 104 ends the match


def test_big_gin_is_not_offered_with_deadwood():
    sc = arrange(KNOCKER, SCATTERED, "TH")
    choose(sc, "-> p1 iloc HAND")
    assert not knocks_offered(sc) and len(texts(sc)) == 10  # ten discards, the taken ten excluded


def test_the_hand_is_drawn_when_a_turn_leaves_two_cards_in_the_stock():
    sc = arrange(SCATTERED, KNOCKER, "QH", stock=["5C", "6C", "7C"])
    choose(sc, "pass")
    choose(sc, "pass")
    choose(sc, "STOCK")
    choose(sc, "move FIVE-CLUBS")
    assert sc.st.hands == [(0, 0)]  # nobody scores
    sc = arrange(SCATTERED, KNOCKER, "QH", stock=["5C", "6C", "7C", "8C"])
    choose(sc, "pass")
    choose(sc, "pass")
    choose(sc, "STOCK")
    choose(sc, "move FIVE-CLUBS")
    assert sc.st.hands == [] and sc.st.chooser == 1  # three left: p2 plays on


def test_the_match_ends_when_a_player_reaches_the_target():
    sc = arrange(KNOCKER, SCATTERED, "TH", target=98)
    take_upcard_and_discard(sc, "KS")
    choose(sc, "sto END = 2")
    assert sc.st.status == DONE and sc.outcome().scores == [98, 0]
    sc = arrange(KNOCKER, SCATTERED, "TH", target=99)
    take_upcard_and_discard(sc, "KS")
    choose(sc, "sto END = 2")
    assert sc.st.status != DONE  # 98 < 99: another hand


# ---------------------------------------------------------------- the game's deadwood vs OpenSpiel


def test_the_games_deadwood_agrees_with_open_spiel(tmp_path):
    """10,000 random 10-card hands: the game's own DEADWOOD definition (read through a variant that
    only scores it) equals OpenSpiel's GinRummyUtils.min_deadwood."""
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install recycle[peers])")
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)  # ranks, suits, hand size
    (tmp_path / "gin_rummy.gdl").write_text(GIN.read_text("utf-8"), "utf-8")  # the shipped file, unchanged
    variant = tmp_path / "gin_deadwood.gdl"
    variant.write_text('(game (extends "gin_rummy.gdl") (scoring min (DEADWOOD (current player))))\n', "utf-8")
    prog = load_program(variant)
    sc = Scenario(prog, prog.new_game(1))
    # OpenSpiel's card index is suit * 13 + rank, ranks "A23456789TJQK" from 0, suits "scdh"
    ours = [card(sc, "A23456789TJQK"[c % 13] + "SCDH"[c // 13]) for c in range(52)]
    for c in range(52):
        assert utils.card_string(c).upper() == "A23456789TJQK"[c % 13] + "SCDH"[c // 13]
    rng = random.Random(20261125)
    for _ in range(5_000):  # two hands per position
        cards = rng.sample(range(52), 20)
        hands = (cards[:10], cards[10:])
        for p in (0, 1):
            sc.move_all(p, "iloc", "HAND")
        for p, hand in enumerate(hands):
            for c in hand:
                sc.place(ours[c], p, "iloc", "HAND")
        assert sc.scores() == [utils.min_deadwood(h) for h in hands], [[utils.card_string(c) for c in h] for h in hands]


# ---------------------------------------------------------------- random play


def test_the_random_player_always_has_a_legal_move_and_takes_one():
    """Random games decision by decision: never an empty option list, and a RandomPlayer's pick is
    one of the options; in the arranged knock position its pick is either knocking or passing."""
    prog = program(20)
    for run in range(5):
        seed = derive(3, "gin", run)
        st = prog.new_game(seed)
        players = [RandomPlayer(), RandomPlayer()]
        for s, p in enumerate(players):
            p.start(prog, s, derive(seed, "seat", s))
        while st.status != DONE:
            assert st.opts, f"seed {seed}: no option at decision {st.decisions + 1}"
            i = players[st.chooser].choose(prog, st)
            assert 0 <= i < len(st.opts)
            prog.apply(st, i)
        assert prog.result(st).outcome == "completed"
    sc = arrange(KNOCKER, SCATTERED, "QD")
    take_upcard_and_discard(sc, "KS")
    pick = RandomPlayer()
    pick.start(sc.prog, 0, 1)
    assert pick.choose(sc.prog, sc.st) in (0, 1) and len(sc.st.opts) == 2


def test_full_matches_end_normally_under_the_games_own_limits():
    spec = BatchSpec(str(GIN), {}, ("R", "R"), 5)
    records = run_batch(spec, 2, jobs=2)
    assert [r.end_reason for r in records] == ["normal"] * 2, [(r.run, r.end_reason, r.error) for r in records]
    assert all(max(r.scores) >= 100 for r in records)


def test_1000_seeded_random_games_end_normally():
    """1,000 matches to 1 point, i.e. until the first hand somebody scores (a full match to 100
    takes a random pair hundreds of hands, most of them drawn: the test above plays whole ones).
    The slowest test here: about 6 CPU-minutes (2 workers)."""
    spec = BatchSpec(str(GIN), {"TARGET": 1}, ("R", "R"), 2024)
    records = run_batch(spec, 1000, jobs=2)
    bad = [(r.run, r.end_reason, r.error) for r in records if r.end_reason != "normal" or r.error]
    assert not bad
