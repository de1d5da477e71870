"""Rummy 500 (games/rummy_500.gdl): each rule judged by the game's own options and scores.

A position is arranged by hand from the first decision of a seeded game (`Scenario`): hands,
discard pile, stock and the melds on the table are emptied and refilled with chosen cards,
and the decision pending is rebuilt. Cards are written like "7H" (seven of hearts), "AS"
(ace of spades), "TD" (ten of diamonds), "QC" (queen of clubs).
"""
from __future__ import annotations

import json

from recycle.players.random_player import RandomPlayer
from recycle.run.batch import BatchSpec, run_batch
from recycle.run.scenario import Scenario
from recycle.run.session import GameSession
from support import GAMES

GAME = GAMES / "rummy_500.gdl"
RANKS = {"A": "ACE", "2": "TWO", "3": "THREE", "4": "FOUR", "5": "FIVE", "6": "SIX", "7": "SEVEN",
         "8": "EIGHT", "9": "NINE", "T": "TEN", "J": "JACK", "Q": "QUEEN", "K": "KING"}
SUITS = {"H": "HEARTS", "D": "DIAMONDS", "C": "CLUBS", "S": "SPADES"}


class Table:
    """A hand of Rummy 500 arranged by hand, player 0 to draw."""

    def __init__(self, players: int = 2, seed: int = 1):
        self.sc = Scenario.open(GAME, {"PLAYERS": players}, seed=seed, fresh=False)
        self.st = self.sc.st
        self.players = players
        for p in range(players):
            self.sc.move_all(p, "iloc", "HAND")
        self.sc.move_all("game", "vloc", "DISCARD")

    def card(self, code: str) -> int:
        return self.sc.card(RANK=RANKS[code[0]], SUIT=SUITS[code[1]])

    def code(self, c: int) -> str:
        a = self.st.catt[c]
        return next(k for k, v in RANKS.items() if v == a["RANK"]) + a["SUIT"][0]

    def hand(self, p: int, *codes: str) -> None:
        for code in codes:
            self.sc.place(self.card(code), p, "iloc", "HAND")

    def discard(self, *codes: str) -> None:
        """Cards onto the discard pile, the last one on top."""
        for code in codes:
            self.sc.place(self.card(code), "game", "vloc", "DISCARD")

    def meld(self, *codes: str) -> None:
        """A meld already on the table (the next free meld pile)."""
        n = self.sc.get("game", "sto", "MELDS")
        for code in codes:
            self.sc.place(self.card(code), "game", "vloc", "MELD", n)
        self.sc.set("game", "sto", "MELDS", n + 1)

    def empty_stock(self) -> None:
        self.sc.move_all("game", "iloc", "STOCK")

    def held(self, p: int) -> set:
        return {self.code(c) for c in self.sc.contents(p, "iloc", "HAND")}

    def options(self) -> list:
        return self.sc.describe()

    def find(self, *words: str) -> int:
        """The one option whose text mentions every card or word given."""
        found = [i for i, o in enumerate(self.options()) if all(any(w in a for a in o) for w in words)]
        assert len(found) == 1, (words, self.options())
        return found[0]

    def play(self, i: int) -> None:
        self.sc.prog.apply(self.st, i)

    def stop(self) -> int:
        return self.find("PHASE")

    def melded(self, p: int) -> int:
        return self.sc.get(p, "sto", "MELDED")

    def to_move(self) -> int:
        return self.sc.prog.chooser(self.st)


def name(code: str) -> str:
    """The card's name as option texts write it, e.g. SEVEN-RED-HEARTS."""
    color = "RED" if code[1] in "HD" else "BLACK"
    return f"{RANKS[code[0]]}-{color}-{SUITS[code[1]]}"


def draws(t: Table) -> list:
    """The draw options as the cards each takes into the hand ('STOCK' for the stock, 'DECLINE')."""
    out = []
    for o in t.options():
        if any("STOCK" in a for a in o):
            out.append("STOCK")
        elif any("OVER" in a for a in o):
            out.append("DECLINE")
        else:
            out.append(tuple(a.split()[1] for a in o if a.startswith("move")))
    return out


# ---------------------------------------------------------------------- the deal


def test_the_deal_gives_13_cards_each_to_two_players_and_7_to_three_or_four():
    for players, dealt in ((2, 13), (3, 7), (4, 7)):
        sc = Scenario.open(GAME, {"PLAYERS": players}, seed=3, fresh=False)
        assert [len(sc.contents(p, "iloc", "HAND")) for p in range(players)] == [dealt] * players
        assert len(sc.contents("game", "vloc", "DISCARD")) == 1
        assert len(sc.contents("game", "iloc", "STOCK")) == 52 - players * dealt - 1


# ---------------------------------------------------------------------- the draw


def test_any_discard_can_be_taken_with_the_cards_above_it_when_the_deepest_is_usable():
    t = Table()
    t.hand(0, "5H", "6H", "KC")
    t.discard("7H", "2C", "9S")  # 9S on top
    # the top card alone needs no meld; 2C cannot be used, so 2C+9S is not offered; 7H makes 5-6-7
    assert draws(t) == ["STOCK", (name("9S"),), (name("9S"), name("2C"), name("7H"))]


def test_a_deep_card_may_be_used_by_laying_it_off_on_a_meld_on_the_table():
    t = Table()
    t.hand(0, "KC")
    t.meld("8S", "8D", "8C")
    t.discard("8H", "3D")
    assert (name("3D"), name("8H")) in draws(t)


def test_the_deepest_card_taken_must_be_melded_before_anything_else():
    t = Table()
    t.hand(0, "5H", "6H", "KC", "KD", "KS")
    t.discard("7H", "2C", "9S")
    t.play(draws(t).index((name("9S"), name("2C"), name("7H"))))
    opts = t.options()
    # only melds using 7H: 5-6-7 of hearts; not the kings, no stopping
    assert opts and all(any(name("7H") in a for a in o) for o in opts)
    assert not any(any("PHASE" in a for a in o) for o in opts)
    t.play(0)
    assert t.sc.contents(0, "mem", "MUST") == []
    # afterwards the kings may be melded and stopping is offered
    assert any(any(name("KS") in a for a in o) for o in t.options())
    assert t.stop() >= 0


# ---------------------------------------------------------------------- melds and lay-offs


def test_sets_and_runs_are_melds_ace_high_or_low_but_not_round_the_corner():
    t = Table()
    t.hand(0, "AH", "2H", "3H", "QS", "KS", "AS", "KH", "9D", "9C", "9S")
    t.sc.move_all("game", "iloc", "STOCK")
    t.sc.place(t.card("4C"), "game", "iloc", "STOCK")
    t.play(draws(t).index("STOCK"))
    melds = [frozenset(a.split()[1] for a in o if a.startswith("move")) for o in t.options()]
    assert frozenset(map(name, ("AH", "2H", "3H"))) in melds
    assert frozenset(map(name, ("QS", "KS", "AS"))) in melds
    assert frozenset(map(name, ("9D", "9C", "9S"))) in melds
    assert frozenset(map(name, ("KH", "AH", "2H"))) not in melds


def test_melds_score_ace_15_except_1_in_a_low_run():
    t = Table()
    t.hand(0, "AH", "2H", "3H", "QS", "KS", "AS", "5C")
    t.play(draws(t).index("STOCK"))
    t.play(t.find(name("AH"), name("2H"), name("3H")))
    assert t.melded(0) == 1 + 2 + 3
    t.play(t.find(name("QS"), name("KS"), name("AS")))
    assert t.melded(0) == 6 + 10 + 10 + 15


def test_a_card_laid_off_on_an_opponents_meld_scores_for_the_player_laying_it_off():
    t = Table()
    t.meld("2D", "3D", "4D")  # player 1's meld
    t.sc.set(1, "sto", "MELDED", 9)
    t.hand(0, "AD", "5D", "KC")
    t.play(draws(t).index("STOCK"))
    t.play(t.find(name("AD")))  # an ace below a two is low: 1 point
    assert t.melded(0) == 1 and t.melded(1) == 9
    t.play(t.find(name("5D")))
    assert t.melded(0) == 6


# ---------------------------------------------------------------------- discard, going out, scores


def test_the_turn_ends_with_a_discard_and_the_next_player_draws():
    t = Table()
    t.hand(0, "5H", "9C")
    t.hand(1, "KD")
    t.play(draws(t).index("STOCK"))
    t.play(t.stop())
    assert len(t.options()) == 3  # discard any of three cards
    t.play(t.find(name("9C")))
    assert t.to_move() == 1
    assert t.code(t.sc.contents("game", "vloc", "DISCARD")[-1]) == "9C"


def test_going_out_ends_the_hand_without_a_discard_and_scores_melds_minus_hand():
    t = Table()
    t.hand(0, "7H", "8H", "9H")
    t.hand(1, "AC", "KD")
    t.discard("2S")
    t.play(draws(t).index((name("2S"),)))
    t.play(t.find(name("7H"), name("8H"), name("9H")))
    t.play(t.stop())
    assert len(t.options()) == 1  # 2S is the last card: discarding it goes out
    t.play(t.find(name("2S")))
    # hand over: player 0 scored 24, player 1 is left with ace 15 + king 10
    assert t.sc.scores() == [24, -25]
    assert t.sc.get("game", "sto", "HANDS") == 2  # the next hand is dealt, led by player 1
    assert t.to_move() == 1


def test_with_the_stock_empty_a_player_may_decline_which_ends_the_hand():
    t = Table()
    t.hand(0, "5H", "6H", "KC")
    t.hand(1, "2C")
    t.discard("7H", "QD")
    t.empty_stock()
    # the top card alone must now be usable too: QD is not, 7H (with QD) is
    assert draws(t) == ["DECLINE", (name("QD"), name("7H"))]
    t.play(draws(t).index("DECLINE"))
    assert t.sc.scores() == [-(5 + 6 + 10), -2]


# ---------------------------------------------------------------------- the random player


def test_the_random_player_always_has_a_legal_option_and_meets_the_obligation():
    for seed in range(8):
        t = Table(seed=seed)
        t.hand(0, "5H", "6H", "KC", "KD")
        t.meld("9S", "TS", "JS")
        t.discard("QS", "7H", "2C", "9H")
        t.empty_stock()
        # decline, or take down to 7H (5-6-7) or to QS (laid off on 9-10-J): never 9H or 2C alone
        assert len(draws(t)) == 3
        player = RandomPlayer()
        player.start(t.sc.prog, 0, seed)
        t.play(player.choose(t.sc.prog, t.st))
        while t.sc.contents(0, "mem", "MUST"):
            must = name(t.code(t.sc.contents(0, "mem", "MUST")[0]))
            opts = t.options()
            assert opts and all(any(must in a for a in o) for o in opts)
            t.play(player.choose(t.sc.prog, t.st))
        assert t.sc.contents(0, "mem", "MUST") == []


def test_1000_random_matches_end_normally_at_500():
    spec = BatchSpec(str(GAME), {}, ("R", "R"), seed=7)
    records = run_batch(spec, 1000, jobs=2)
    assert len(records) == 1000
    for r in records:
        assert r.end_reason == "normal" and r.error is None, (r.run, r.end_reason, r.error)
        assert max(r.scores) >= 500


def test_random_matches_of_three_and_four_players_end_normally():
    for players in (3, 4):
        spec = BatchSpec(str(GAME), {"PLAYERS": players}, ("R",) * players, seed=7)
        for r in run_batch(spec, 10, jobs=2):
            assert r.end_reason == "normal" and r.error is None
            assert max(r.scores) >= 500


def test_hand_scores_are_kept_apart_and_the_match_stops_after_the_hand_reaching_500():
    sess = GameSession.open(GAME)
    for seed in (1, 5, 9):
        rec = sess.play(seed, ["R", "R"], level="full")
        end = json.loads(rec.transcript[-1])
        hands = end["hands"]
        assert end["reason"] == "normal" and len(hands) >= 2
        totals = [sum(h[p] for h in hands) for p in range(2)]
        assert totals == end["scores"]
        before = [sum(h[p] for h in hands[:-1]) for p in range(2)]
        assert max(before) < 500 <= max(totals)
