"""Contract Rummy (games/contract_rummy.gdl): each rule judged by the game file's own options.

A position is arranged by hand with `Scenario` at the first decision of the first deal (the
current player's take-or-decline), then the game's decisions are taken by their descriptions and
the options that follow are compared with what the rules allow.

Card shorthand: "5H" = FIVE of HEARTS, "TS" = TEN of SPADES, "*" = a joker. The game has two
packs, so a shorthand names one of the two copies (the first not yet used by the test).
"""
from __future__ import annotations

import random

from recycle.engine.algorithms import derive
from recycle.engine.state import DONE
from recycle.run.batch import BatchSpec, run_batch
from recycle.run.scenario import Scenario
from support import GAMES

GAME = GAMES / "contract_rummy.gdl"
RANKS = {"A": "A", "2": "TWO", "3": "THREE", "4": "FOUR", "5": "FIVE", "6": "SIX", "7": "SEVEN", "8": "EIGHT",
         "9": "NINE", "T": "TEN", "J": "J", "Q": "Q", "K": "K"}
SUITS = {"H": "HEARTS", "C": "CLUBS", "S": "SPADES", "D": "DIAMONDS"}
CONTRACTS = {1: ("SET", "SET", "NONE"), 2: ("SET", "RUN", "NONE"), 3: ("RUN", "RUN", "NONE"),
             4: ("SET", "SET", "SET"), 5: ("SET", "SET", "RUN"), 6: ("SET", "RUN", "RUN"), 7: ("RUN", "RUN", "RUN")}


class Table:
    """Deal 1 of a seeded game, at player 0's first decision, with hands arranged by hand."""

    def __init__(self, seed: int = 1, players: int = 3):
        self.sc = Scenario.open(GAME, {"PLAYERS": players}, seed=seed, fresh=False)
        self.st, self.prog = self.sc.st, self.sc.prog
        self.used: set = set()

    def card(self, code: str) -> int:
        attrs = {"RANK": "JOKER"} if code == "*" else {"RANK": RANKS[code[0]], "SUIT": SUITS[code[1]]}
        c = next(c for c in self.sc.cards(**attrs) if c not in self.used)
        self.used.add(c)
        return c

    def hand(self, player: int, *codes: str) -> None:
        """Replace a player's hand by these cards."""
        self.sc.move_all(player, "iloc", "HAND", to=("game", "iloc", "STOCK", 0))
        for code in codes:
            self.sc.place(self.card(code), player, "iloc", "HAND")

    def put(self, code: str, owner, kind: str, name: str, index: int = 0) -> None:
        self.sc.place(self.card(code), owner, kind, name, index)

    def contract(self, first: str, second: str, third: str) -> None:
        for name, kind in zip(("FIRST", "SECOND", "THIRD"), (first, second, third), strict=True):
            self.sc.set("game", "str", name, kind)

    def texts(self) -> list[str]:
        return [" / ".join(d) for d in self.sc.describe()]

    def choose(self, word: str) -> None:
        """Take the first option whose description contains `word`."""
        i = next(i for i, t in enumerate(self.texts()) if word in t)
        self.prog.apply(self.st, i)

    def codes(self, player: int, kind: str = "iloc", name: str = "HAND", owner=None) -> list[str]:
        cards = self.sc.contents(player if owner is None else owner, kind, name)
        return sorted(self.code(c) for c in cards)

    def code(self, c: int) -> str:
        a = self.st.catt[c]
        if a["RANK"] == "JOKER":
            return "*"
        return next(k for k, v in RANKS.items() if v == a["RANK"]) + a["SUIT"][0]

    def lays(self) -> list[list[str]]:
        """The melds offered by a lay-down decision, as sorted card codes."""
        out = []
        for o in self.sc.options():
            text = self.prog.describe(self.st, o)
            moved = [t.split()[1] for t in text if "-> table vloc MELD" in t]
            if moved:
                out.append(sorted(self.short(m) for m in moved))
        return out

    @staticmethod
    def short(name: str) -> str:
        rank, suit = name.split("-")
        return "*" if rank == "JOKER" else next(k for k, v in RANKS.items() if v == rank) + suit[0]

    def draw_next(self, code: str) -> None:
        """Put this card on top of the stock (the next draw)."""
        self.put(code, "game", "iloc", "STOCK")

    def take_discard(self, code: str) -> None:
        """Player 0 takes a discard of this card (the hand is arranged first)."""
        self.put(code, "game", "vloc", "DISCARD")
        self.choose("vloc DISCARD -> p1 iloc HAND")


# ---------------------------------------------------------------- deals and contracts


def test_seven_deals_with_their_contracts_and_hand_sizes():
    prog = Table().prog
    st = prog.new_game(5)
    rng = random.Random(5)
    seen: dict = {}
    while st.status != DONE:
        deal = prog.value(st, "game", "sto", "DEAL")
        if deal not in seen:
            seen[deal] = ((prog.value(st, "game", "str", "FIRST"), prog.value(st, "game", "str", "SECOND"),
                           prog.value(st, "game", "str", "THIRD")),
                          [len(prog.pile(st, p, "iloc", "HAND")) for p in range(3)],
                          len(prog.pile(st, "game", "vloc", "DISCARD")))
        prog.apply(st, rng.randrange(len(prog.options(st))))
    assert sorted(seen) == list(range(1, 8))
    for deal, (contract, sizes, discards) in seen.items():
        assert contract == CONTRACTS[deal]
        assert sizes == [10 if deal <= 3 else 12] * 3  # dealt hands, before the first draw
        assert discards == 1  # the upcard
    r = prog.result(st)
    assert len(r.hands) == 7  # one score line per deal, kept apart from the match score
    assert r.scores == [sum(h[p] for h in r.hands) for p in range(3)]


# ---------------------------------------------------------------- laying down


def test_two_sets_are_offered_only_when_the_hand_holds_both():
    t = Table()
    t.hand(0, "5H", "5C", "5S", "9H", "9D", "2C", "KD", "JS", "7C")
    t.take_discard("9C")
    lays = t.lays()
    assert ["5C", "5H", "5S"] in lays and ["9C", "9D", "9H"] in lays
    t2 = Table()
    t2.hand(0, "5H", "5C", "5S", "9H", "3D", "2C", "KD", "JS", "7C")
    t2.take_discard("8C")
    assert t2.lays() == [] and all("-> table vloc DISCARD" in x for x in t2.texts())  # straight to the discard


def test_once_started_the_contract_is_completed_in_the_same_turn():
    t = Table()
    t.hand(0, "5H", "5C", "5S", "9H", "9D", "2C", "KD", "JS", "7C")
    t.take_discard("9C")
    t.choose("FIVE-HEARTS")  # the first set
    assert t.lays() and all(sorted(m) == ["9C", "9D", "9H"] for m in t.lays())
    assert "pass" not in t.texts()  # no way to stop halfway
    t.choose("NINE")
    assert t.sc.get(0, "sto", "DOWN") == 1 and t.sc.get("game", "sto", "MELDS") == 2


def test_a_first_meld_is_offered_only_if_the_rest_still_makes_the_contract():
    t = Table()
    t.contract("SET", "RUN", "NONE")
    # 7H 8H 9H TH is the run; the sevens set 7H 7C 7S would use the run's 7H, 7D 7C 7S does not.
    t.hand(0, "7H", "8H", "9H", "TH", "7C", "7S", "2D", "KC", "QS")
    t.take_discard("7D")
    lays = t.lays()
    assert ["7C", "7D", "7S"] in lays
    assert all("7H" not in m for m in lays)  # taking 7H for the set leaves no run


def test_runs_need_four_cards_of_one_suit_and_jokers_are_wild():
    t = Table()
    t.contract("RUN", "RUN", "NONE")
    t.hand(0, "5H", "6H", "7H", "8H", "9S", "TS", "JS", "2D", "KC")
    t.take_discard("*")
    lays = t.lays()
    assert ["5H", "6H", "7H", "8H"] in lays and ["*", "9S", "JS", "TS"] in lays
    t2 = Table()
    t2.contract("RUN", "RUN", "NONE")
    t2.hand(0, "5H", "6H", "7H", "8C", "9S", "TS", "JS", "QS", "KC")
    t2.take_discard("2D")
    assert t2.lays() == []  # 5H 6H 7H 8C is not a run


def test_ace_is_low_or_high_but_runs_do_not_turn_the_corner():
    t = Table()
    t.contract("RUN", "RUN", "NONE")
    t.hand(0, "AH", "2H", "3H", "4H", "JS", "QS", "KS", "9D", "7C")
    t.take_discard("AS")
    assert ["2H", "3H", "4H", "AH"] in t.lays() and ["AS", "JS", "KS", "QS"] in t.lays()
    t2 = Table()
    t2.contract("RUN", "RUN", "NONE")
    t2.hand(0, "QH", "KH", "AH", "2H", "5S", "6S", "7S", "8S", "7C")
    t2.take_discard("9D")
    assert t2.lays() == []  # Q-K-A-2 wraps the corner


def test_three_meld_contract_deal_six_set_and_two_runs():
    t = Table()
    t.contract("SET", "RUN", "RUN")
    t.hand(0, "4H", "4C", "4S", "5D", "6D", "7D", "8D", "9C", "TC", "JC", "2S", "KH")
    t.take_discard("QC")
    t.choose("FOUR")
    t.choose("DIAMONDS")
    t.choose("CLUBS")
    assert t.sc.get(0, "sto", "DOWN") == 1 and t.sc.get("game", "sto", "MELDS") == 3
    assert t.codes(0) == ["2S", "KH"]


# ---------------------------------------------------------------- laying off and going out


def test_lay_off_only_after_laying_down_on_any_meld():
    t = Table()
    t.put("8S", "game", "vloc", "MELD")
    t.put("8D", "game", "vloc", "MELD")
    t.put("8C", "game", "vloc", "MELD")
    t.sc.set("game", "sto", "MELDS", 1)
    t.hand(0, "8H", "3C", "KD", "5S", "9S", "2H", "JC", "QD", "4S")
    t.take_discard("6C")
    assert not any("-> table vloc MELD" in x for x in t.texts())  # not down yet: no lay-off
    t2 = Table()
    for code in ("8S", "8D", "8C"):
        t2.put(code, "game", "vloc", "MELD")  # a meld of another player
    t2.sc.set("game", "sto", "MELDS", 1)
    t2.sc.set(0, "sto", "DOWN", 1)
    t2.hand(0, "8H", "3C", "KD")
    t2.take_discard("6C")
    offs = [x for x in t2.texts() if "-> table vloc MELD" in x]
    assert offs == ["move EIGHT-HEARTS p1 iloc HAND -> table vloc MELD 0"]
    t2.choose("EIGHT-HEARTS")
    assert t2.codes(None, "vloc", "MELD", owner="game") == ["8C", "8D", "8H", "8S"]


def test_going_out_by_laying_off_needs_no_discard_and_scores_the_others():
    t = Table()
    for code in ("8S", "8D", "8C"):
        t.put(code, "game", "vloc", "MELD")
    t.sc.set("game", "sto", "MELDS", 1)
    t.sc.set(0, "sto", "DOWN", 1)
    t.hand(0, "8H")
    t.hand(1, "2C", "TD", "AS", "*")      # 5 + 10 + 15 + 50
    t.hand(2, "9C", "KD")                 # 5 + 10
    t.draw_next("8H")
    t.choose("DECLINED")
    while t.st.chooser != 0:
        t.choose("pass")                  # nobody buys the discard
    t.choose("EIGHT-HEARTS")
    t.choose("EIGHT-HEARTS")
    assert t.texts() == ["turn pass"]     # the hand is empty: nothing to discard
    t.choose("turn pass")
    assert t.st.hands == [(0, 80, 15)]     # deal 1 over: no discard was needed
    assert t.prog.value(t.st, "game", "sto", "DEAL") == 2


# ---------------------------------------------------------------- buying


def test_declined_discard_is_offered_for_sale_in_turn_order_with_a_penalty_card():
    t = Table()
    t.put("QH", "game", "vloc", "DISCARD")
    t.draw_next("3C")  # the buyer's penalty card
    t.choose("DECLINED")
    assert t.st.chooser == 1 and t.st.pcyc[-2] == 0  # player 1 is asked; still player 0's turn
    assert any("Q-HEARTS table vloc DISCARD -> p2 iloc HAND" in x for x in t.texts())
    before = len(t.sc.contents(1, "iloc", "HAND"))
    t.choose("p2 sto BOUGHT")
    assert len(t.sc.contents(1, "iloc", "HAND")) == before + 2 and "3C" in t.codes(1) and "QH" in t.codes(1)
    assert t.st.chooser == 0  # sold: player 2 is not asked, player 0 goes on with the stock draw


def test_buys_are_limited_per_deal():
    t = Table()
    t.sc.set(1, "sto", "BOUGHT", 3)
    t.choose("DECLINED")
    assert t.st.chooser == 2  # player 1 has used their three buys: not asked
    t.choose("pass")
    assert t.st.chooser == 0


def test_taking_the_discard_offers_no_sale():
    t = Table()
    t.choose("vloc DISCARD -> p1 iloc HAND")
    assert t.st.chooser == 0


# ---------------------------------------------------------------- the random player finds the contract


def test_random_player_completes_every_contract_it_holds():
    hands = {
        ("SET", "SET", "NONE"): ("5H", "5C", "5S", "9H", "9D", "9C", "2C", "KD", "JS"),
        ("SET", "RUN", "NONE"): ("7H", "8H", "9H", "TH", "7C", "7S", "7D", "KC", "QS"),
        ("RUN", "RUN", "NONE"): ("5H", "6H", "7H", "8H", "9S", "TS", "JS", "*", "KC"),
        ("SET", "SET", "SET"): ("4H", "4C", "4S", "6D", "6C", "*", "JH", "JS", "JD", "2D", "KC"),
        ("SET", "SET", "RUN"): ("4H", "4C", "4S", "6D", "6C", "6S", "8H", "9H", "TH", "JH", "2D"),
        ("SET", "RUN", "RUN"): ("4H", "4C", "*", "5D", "6D", "7D", "8D", "9C", "TC", "JC", "QC"),
        ("RUN", "RUN", "RUN"): ("AH", "2H", "3H", "4H", "5S", "6S", "7S", "*", "9C", "TC", "JC", "QC"),
    }
    for contract, cards in hands.items():
        for seed in range(4):
            t = Table(seed=seed)
            t.contract(*contract)
            t.hand(0, *cards)
            t.take_discard("QD")
            rng = random.Random(seed)
            assert t.lays(), contract  # the lay-down is offered
            first = [i for i, o in enumerate(t.sc.options()) if t.prog.describe(t.st, o) != ["pass"]]
            t.prog.apply(t.st, rng.choice(first))
            while t.sc.get(0, "sto", "DOWN") == 1 and t.sc.get("game", "sto", "NEXT") < 4 and t.lays():
                opts = t.sc.options()
                assert opts  # never stuck halfway
                t.prog.apply(t.st, rng.randrange(len(opts)))
            want = sum(k != "NONE" for k in contract)
            assert t.sc.get("game", "sto", "MELDS") == want, (contract, seed)


def test_random_games_lay_down_contracts():
    prog = Table().prog
    downs = 0
    for run in range(3):
        st = prog.new_game(derive(9, "game", run))
        rng = random.Random(run)
        while st.status != DONE:
            prog.apply(st, rng.randrange(len(prog.options(st))))
            downs += sum(prog.value(st, p, "sto", "DOWN") for p in range(3)) > 0
        assert all(len(h) == 3 for h in st.hands)
    assert downs > 0


# ---------------------------------------------------------------- many random games


def test_1000_random_games_end_normally():
    # Heavy: seven deals a game, about 300 CPU-seconds in all (some 2.5 minutes on two free cores).
    spec = BatchSpec(game_path=str(GAME), params={}, lineup=("R", "R", "R"), seed=2024)
    records = run_batch(spec, 1000, jobs=2)
    assert len(records) == 1000
    assert {r.end_reason for r in records} == {"normal"} and not any(r.error for r in records)
    assert all(r.decisions < 20000 for r in records)  # far from the game's own limit (200,000)


def test_five_players_play_to_the_end():
    spec = BatchSpec(game_path=str(GAME), params={"PLAYERS": 5}, lineup=("R",) * 5, seed=7)
    records = run_batch(spec, 10, jobs=1)
    assert {r.end_reason for r in records} == {"normal"}
