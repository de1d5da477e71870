"""Leap Rummy (seed-games.md §3): the test vectors LR-T1 … LR-T7, checked on the game files themselves.

Positions are arranged by hand with `Scenario` (cards placed in hands, meld piles and the stock)
and judged by the game's own rules: the options its choices offer, the state an option leads to,
and its scoring.  Nothing here re-implements the meld rules in Python; the helpers only read
the piles a chosen option produced.  At the end, every shipped Leap Rummy file plays seeded
random games to a normal end in every player count it allows.
"""
from __future__ import annotations

import functools
import itertools

import pytest

from recycle.compiler import load_program
from recycle.engine.algorithms import derive
from recycle.engine.play import play_game
from recycle.engine.state import WAITING
from recycle.players.base import Player
from recycle.players.random_player import RandomPlayer
from recycle.run.scenario import KIND_CODE, Scenario
from support import REPO

GAMES = REPO / "games"

RANKS = ["ACE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN", "JACK", "QUEEN", "KING"]
SHORT = dict(zip("A23456789TJQK", RANKS, strict=True))
VALUE = {r: i for i, r in enumerate(RANKS, 1)}
SUITS = {"S": "SPADES", "H": "HEARTS", "D": "DIAMONDS", "C": "CLUBS"}
LEAPS = ["ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX"]


def game(name: str) -> str:
    return str(GAMES / f"{name}.gdl")


@functools.cache
def program(name: str, players: int):
    return load_program(game(name), {"PLAYERS": players})


def pile_size(prog, st, owner, kind: str, name: str) -> int:
    """Cards in (owner kind name); owner is "game" or a player number."""
    code = 0 if owner == "game" else 1 + owner
    return len(st.piles[prog.pile_id(st, code, KIND_CODE[kind], name, 0)])


def val(n: int) -> int:
    return (n - 1) * (n - 2) // 2


class Table:
    """A Leap Rummy position arranged by hand: stock and hands emptied, player 1 to choose PURSUE or RETIRE.

    Cards are written in the shorthand of seed-games.md §0 (`7H`, `TS`, `W` for a joker); a melded
    joker reads as its stated rank with a star (`J*`).
    """

    def __init__(self, name: str = "leap_rummy", players: int = 2, seed: int = 0):
        prog = program(name, players)
        self.sc = Scenario(prog, prog.new_game(seed))
        self.prog, self.n = prog, players
        assert self.sc.st.status == WAITING
        self.sc.move_all("game", "iloc", "STOCK")
        for p in range(players):
            self.sc.move_all(p, "iloc", "HAND")
        self.used: set[int] = set()

    @property
    def st(self):
        return self.sc.st

    # ------------------------------------------------------------ cards

    def card(self, code: str) -> int:
        """A card not handed out yet by this table (two packs: the first free copy)."""
        attrs = {"RANK": "JOKER"} if code == "W" else {"RANK": SHORT[code[0]], "SUIT": SUITS[code[1]]}
        free = [c for c in self.sc.cards(**attrs) if c not in self.used]
        assert free, f"no free card {code}"
        self.used.add(free[0])
        return free[0]

    def give(self, player: int, *codes: str) -> list[int]:
        cards = [self.card(c) for c in codes]
        for c in cards:
            self.sc.place(c, player, "iloc", "HAND")
        return cards

    def name(self, c: int) -> str:
        """A card in shorthand, as it reads now (a melded joker reads as its stated rank, with a `*`)."""
        rank = self.st.catt[c]["RANK"]  # the attribute as the rules read it, override included
        if "SUIT" not in self.st.catt[c]:  # a joker has no suit
            return "W" if rank == "JOKER" else {v: k for k, v in SHORT.items()}[rank] + "*"
        return {v: k for k, v in SHORT.items()}[rank] + self.st.catt[c]["SUIT"][0]

    # ------------------------------------------------------------ reading the state

    def melds(self, player: int = 0, st=None) -> list[list[str]]:
        """The player's non-empty meld piles, each bottom to top, in pile-index order."""
        st = st or self.st
        out = []
        for pid in range(len(st.piles)):
            owner, _kind, name, index = self.prog.loc_json(pid)
            if owner == f"p{player + 1}" and name == "MELD" and st.piles[pid]:
                out.append((index, [self.name_in(st, c) for c in st.piles[pid]]))
        return [m for _, m in sorted(out)]

    def name_in(self, st, c):
        saved, self.sc.st = self.sc.st, st
        try:
            return self.name(c)
        finally:
            self.sc.st = saved

    def hand(self, player: int = 0) -> list[str]:
        return sorted(self.name(c) for c in self.sc.contents(player, "iloc", "HAND"))

    def leap(self, player: int = 0, st=None) -> int:
        """The player's leap; in `distinct_leaps` (no player leap) the leap of their newest meld pile."""
        st = st or self.st
        lp = self.prog.value(st, player, "sto", "LEAP")
        if lp == 0:
            last = self.prog.value(st, player, "sto", "MELDS") - 1
            if last >= 0:
                pile = self.prog.pile_id(st, 1 + player, KIND_CODE["vloc"], "MELD", last)
                lp = self.prog.value(st, ("L", pile), "sto", "LEAP")
        return lp

    def token(self, player: int = 0, st=None) -> list[str]:
        """The leaptoken(s) the player holds."""
        saved, self.sc.st = self.sc.st, st or self.sc.st
        try:
            return [self.sc.st.catt[c]["LEAP"] for c in self.sc.contents(player, "vloc", "LEAPTOKEN")]
        finally:
            self.sc.st = saved

    # ------------------------------------------------------------ deciding

    def texts(self) -> list[list[str]]:
        return self.sc.describe()

    def take(self, i: int) -> None:
        self.sc.options()  # rebuilt for the position as arranged
        self.prog.apply(self.st, i)

    def take_where(self, pred) -> None:
        hits = [i for i, t in enumerate(self.texts()) if pred(" ; ".join(t))]
        assert len(hits) == 1, (hits, self.texts())
        self.take(hits[0])

    def pursue(self, draw: bool = False) -> None:
        """PURSUE; unless `draw`, the stock (where discards went) is emptied first, so nothing is drawn."""
        if not draw:
            self.sc.move_all("game", "iloc", "STOCK")
        self.take_where(lambda t: "DOING = PURSUE" in t)

    def retire(self) -> None:
        self.take_where(lambda t: "DOING = RETIRE" in t)

    def meld_outcomes(self, player: int = 0, min_cards: int = 0) -> list:
        """For each option of the meld choice: (index, melds after it, leap after it, leaptoken after it).

        `min_cards`: only the options that move at least that many cards into meld piles."""
        out = []
        opts = self.sc.options()
        for i, o in enumerate(opts):
            if min_cards and sum("vloc MELD" in a for a in self.prog.describe(self.st, o)) < min_cards:
                continue
            c = self.st.clone()
            self.prog.apply(c, i)
            out.append((i, self.melds(player, c), self.leap(player, c), self.token(player, c)))
        return out

    def new_melds(self, player: int = 0, min_cards: int = 0) -> list:
        """The meld options that lay a new meld: (option, the new meld, its leap)."""
        before = self.melds(player)
        return [(i, m[-1], lp) for i, m, lp, tok in self.meld_outcomes(player, min_cards) if len(m) > len(before)]

    def no_meld(self) -> None:
        self.take_where(lambda t: t == "turn pass")

    def discard(self, code: str) -> None:
        self.take_where(lambda t: t.startswith("move ") and f"{_long(code)} " in t and "STOCK" in t)


def _long(code: str) -> str:
    r = SHORT[code[0]]
    s = SUITS[code[1]]
    color = "RED" if s in ("HEARTS", "DIAMONDS") else "BLACK"
    return f"{r}-{color}-{s}"


def cyc(row: str, suit: str = "H") -> list[str]:
    return [c + suit for c in row.split()]


def meld_values(t: Table, cards: list[str]) -> int:
    """Score of a player whose only possession is one meld pile holding `cards` (in that order)."""
    for c in cards:
        t.sc.place(t.card(c), 0, "vloc", "MELD", 0)
    return t.sc.scores()[0]


# ---------------------------------------------------------------- LR-T1 values


def test_lr_t1_values_through_the_scoring():
    expected = [1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66]
    got = []
    for n in range(3, 14):
        t = Table()
        got.append(meld_values(t, cyc("A 2 3 4 5 6 7 8 9 T J Q K")[:n]))
    assert got == expected
    # two melds add; retired cards subtract their rank value (§3.7 example: 15 + 1 - (5 + 13) = -2)
    t = Table()
    for c in cyc("A 2 3 4 5 6 7"):
        t.sc.place(t.card(c), 0, "vloc", "MELD", 0)
    for c in cyc("A 2 3", "S"):
        t.sc.place(t.card(c), 0, "vloc", "MELD", 1)
    t.sc.place(t.card("5S"), 0, "vloc", "RETIRED")
    t.sc.place(t.card("KD"), 0, "vloc", "RETIRED")
    assert t.sc.scores() == [-2, 0]


# ---------------------------------------------------------------- LR-T2 cycles

LR_T2 = {1: "4 5 6 7 8 9 T J Q K A 2 3 4 5", 2: "4 6 8 T Q A 3 5 7 9 J K 2 4 6", 3: "4 7 T K 3 6 9 Q 2 5 8 J A 4 7",
         4: "4 8 Q 3 7 J 2 6 T A 5 9 K 4 8", 5: "4 9 A 6 J 3 8 K 5 T 2 7 Q 4 9", 6: "4 T 3 9 2 8 A 7 K 6 Q 5 J 4 T"}


@pytest.mark.parametrize("leap", range(1, 7))
def test_lr_t2_leap_cycles_are_melds_in_cycle_order(leap):
    row = cyc(LR_T2[leap])
    assert len(set(row[:13])) == 13 and row[13:] == row[:2]
    for k in (3, 6, 11):
        t = Table()
        t.give(0, *reversed(row[:k]))  # handed over in reverse order: the meld is found whatever the order
        t.pursue()
        news = [(m, lp) for _, m, lp in t.new_melds() if lp == leap]
        # every arc of the sequence is a meld of this leap: (k-2)(k-1)/2 arcs of 3 or more cards
        assert len(news) == val(k)
        full = [m for m, _ in news if len(m) == k]
        assert full == [row[:k]]  # laid in cycle order: d = L between neighbours
    # all 13: one meld for every leap (an ambiguous leap is declared)
    t = Table()
    t.give(0, *row[:13])
    t.pursue()
    full = [(m, lp) for _, m, lp in t.new_melds() if len(m) == 13]
    assert sorted(lp for _, lp in full) == [1, 2, 3, 4, 5, 6]
    m = next(m for m, lp in full if lp == leap)
    assert m[0] == "KH"  # the whole cycle starts at the lowest value modulo 13 (K = 13 = 0) …
    i = row.index("KH")
    assert m == row[i:13] + row[:i]  # … and follows the leap-L cycle


def test_lr_t2_fifteen_card_rows_with_two_packs():
    for leap, text in LR_T2.items():
        row = cyc(text)
        t = Table("leap_rummy_two_packs")
        t.give(0, *row)
        t.pursue()
        assert [lp for _, m, lp in t.new_melds(min_cards=15) if len(m) == 15] == [leap]


# ---------------------------------------------------------------- LR-T3 meld recognition

LR_T3_MELDS = [("7H 9H JH", 2, 1), ("8C QC 3C 7C", 4, 3), ("AD 7D KD 6D QD", 6, 6), ("TS JS QS KS AS 2S", 1, 10),
               ("5H 7H 9H JH KH 2H 4H", 2, 15), ("QH KH AH 2H", 1, 3)]


@pytest.mark.parametrize("cards,leap,value", LR_T3_MELDS)
def test_lr_t3_melds(cards, leap, value):
    cards = cards.split()
    t = Table()
    t.give(0, *cards)
    t.pursue()
    whole = [(i, m, lp) for i, m, lp in t.new_melds() if len(m) == len(cards)]
    assert len(whole) == 1
    i, meld, lp = whole[0]
    assert lp == leap
    values = [VALUE[SHORT[c[0]]] for c in meld]
    assert {(b - a) % 13 for a, b in itertools.pairwise(values)} == {leap}  # d = L in the laid order
    assert meld == cards  # the table lists them in sequence order
    t.take(i)
    assert t.melds() == [cards] and t.leap() == leap and t.token() == [LEAPS[leap - 1]]
    assert t.sc.scores()[0] == value


@pytest.mark.parametrize("cards", ["7H 9H QH", "7H 9H JC", "7H 9H"])
def test_lr_t3_not_melds(cards):
    t = Table()
    t.give(0, *cards.split())
    t.pursue()
    assert t.new_melds() == []
    assert [" ; ".join(x) for x in t.texts()] == ["turn pass"]


def test_lr_t3_order_independence():
    t = Table()
    t.give(0, "JH", "7H", "9H")
    t.pursue()
    assert [m for _, m, _ in t.new_melds()] == [["7H", "9H", "JH"]]


# ---------------------------------------------------------------- LR-T4 worked fragment


def test_lr_t4_worked_game_fragment():
    t = Table()
    # 1. P1 lays 7H 9H JH: NEW, leap 2; P1 takes leaptoken TWO and scores 1.
    t.give(0, "7H", "9H", "JH")
    t.pursue()
    [(i, _meld, _leap)] = t.new_melds()
    t.take(i)  # the hand is empty: no discard
    assert t.melds() == [["7H", "9H", "JH"]] and t.leap() == 2 and t.token() == ["TWO"]
    assert t.sc.scores()[0] == 1
    # 2. P2 may not make a first meld of leap 2 (but may take another free leap).
    t.give(1, "2C", "4C", "6C", "2D", "5D", "8D")
    t.pursue()
    assert [(m, lp) for _, m, lp in t.new_melds(1)] == [(["2D", "5D", "8D"], 3)]
    t.no_meld()
    t.discard("2C")
    # 3. P1 may never lay a leap-3 meld; P1 lays 2H 4H 6H (NEW, leap 2): 1 + 1 = 2.
    t.give(0, "3S", "6S", "9S", "2H", "4H", "6H")
    t.pursue()
    news = t.new_melds()
    assert [(m, lp) for _, m, lp in news] == [(["2H", "4H", "6H"], 2)]
    t.take(news[0][0])
    assert t.melds() == [["7H", "9H", "JH"], ["2H", "4H", "6H"]] and t.sc.scores()[0] == 2
    t.discard("9S")
    t.pursue()  # P2: no meld
    t.no_meld()
    t.discard("4C")
    # Negative case: 7H 9H JH + 2H 4H 6H without KH cannot be conjoined: no melding option at all.
    t.give(0, "QH", "AC")
    t.pursue()
    assert [" ; ".join(x) for x in t.texts()] == ["turn pass"]
    t.no_meld()
    t.discard("6S")
    t.pursue()
    t.no_meld()
    t.discard("6C")
    # 4. P1 conjoins both melds with KH: one meld 7 9 J K 2 4 6 (7 cards), worth 15.
    t.give(0, "KH", "5C")
    t.pursue()
    outcomes = t.meld_outcomes()
    conjoined = [i for i, m, _, _ in outcomes if m == [["7H", "9H", "JH", "KH", "2H", "4H", "6H"]]]
    assert len(conjoined) == 1
    # KH alone also extends either meld: at the end of the first, at the start of the second
    extended = sorted(tuple(x) for i, m, _, _ in outcomes if len(m) == 2 for x in m if "KH" in x)
    assert extended == [("7H", "9H", "JH", "KH"), ("KH", "2H", "4H", "6H")]
    assert len(outcomes) == 4  # conjoin, two extensions, no meld
    t.take(conjoined[0])
    assert t.sc.scores()[0] == 15
    t.discard("5C")
    t.pursue()  # P2 again
    t.no_meld()
    t.discard("5D")
    # 5. P1 retires holding QH, 3S, AC: 15 - (12 + 3 + 1) = -1.
    assert t.hand() == sorted(["QH", "3S", "AC"])
    t.retire()
    assert t.sc.scores()[0] == -1
    assert sorted(t.name(c) for c in t.sc.contents(0, "vloc", "RETIRED")) == sorted(["QH", "3S", "AC"])


# ---------------------------------------------------------------- LR-T5 stock


@pytest.mark.parametrize("players,stock", [(2, 42), (3, 37), (4, 32), (5, 27), (6, 22)])
def test_lr_t5_stock_after_the_deal(players, stock):
    prog = program("leap_rummy", players)
    st = prog.new_game(7)
    assert pile_size(prog, st, "game", "iloc", "STOCK") == stock
    assert all(pile_size(prog, st, p, "iloc", "HAND") == 5 for p in range(players))


def _kind(texts: list[str]) -> str:
    joined = " ".join(texts)
    if "DOING = PURSUE" in joined or "DOING = RETIRE" in joined:
        return "turn"
    if "STOCK" in joined and "DISCARDED" in joined:
        return "discard"
    return "meld"


def test_lr_t5_stock_dynamics_and_the_stalled_stock_rule():
    """Two players who always PURSUE and never meld: the stock falls by one a turn from 42 to 1 and stays at
    1; after 2m idle turns (turns begun with at most one card in the stock) the player to move may only
    RETIRE, and once one has retired the other must retire after 2 more idle turns."""
    prog = program("leap_rummy", 2)
    st = prog.new_game(11)
    starts, turn_menus = [], []
    while st.status == WAITING:
        opts = prog.options(st)
        texts = [prog.describe(st, o) for o in opts]
        kind = _kind(texts[0])
        if kind == "turn":
            menu = ["PURSUE" if "DOING = PURSUE" in " ".join(t) else "RETIRE" for t in texts]
            starts.append(pile_size(prog, st, "game", "iloc", "STOCK"))
            turn_menus.append((st.chooser, menu))
            i = menu.index("PURSUE") if "PURSUE" in menu else 0
        elif kind == "meld":
            i = [" ; ".join(t) for t in texts].index("turn pass")
        else:
            i = 0
        prog.apply(st, i)
    assert starts[:11] == list(range(42, 31, -1))  # after 10 PURSUE turns without melds: 32
    assert starts[:42] == list(range(42, 0, -1)) and min(starts) == 1
    idle_from = starts.index(1)  # the first turn that begins with one card in the stock
    menus = [m for _, m in turn_menus]
    # turns idle_from … idle_from+3 are idle (4 = 2m); the next player to move must retire
    assert all(m == ["PURSUE", "RETIRE"] for m in menus[:idle_from + 4])
    assert menus[idle_from + 4] == ["RETIRE"]
    # the other player, now alone (m = 1), pursues twice more and then must retire
    assert menus[idle_from + 5:] == [["PURSUE", "RETIRE"], ["PURSUE", "RETIRE"], ["RETIRE"]]
    assert [p for p, _ in turn_menus[idle_from + 4:]] == [turn_menus[idle_from + 4][0]] + \
        [1 - turn_menus[idle_from + 4][0]] * 3
    assert prog.result(st).end_reason == "normal"


# ---------------------------------------------------------------- LR-T6 jokers (variant wild)

LR_T6_IMPLIED = {"5": ("J", 6), "6": ("5", 1), "7": ("Q", 5), "8": ("6", 2), "9": ("K", 4), "T": ("7", 3),
                 "J": ("A", 3), "Q": ("8", 4), "K": ("2", 2), "A": ("9", 5), "2": ("3", 1), "3": ("T", 6)}


def _same_meld(meld: list[str], cards: list[str]) -> bool:
    return meld == cards or meld == cards[::-1]


@pytest.mark.parametrize("x", list(LR_T6_IMPLIED))
def test_lr_t6_implied_rank_of_a_joker(x):
    """The resolver table "4 W x". (x = 4 has no answer, d would be 0; one pack has no second 4S to try.)"""
    w, leap = LR_T6_IMPLIED[x]
    d = (VALUE[SHORT[w]] - 4) % 13
    y = {i: r for r, i in ((k, VALUE[v]) for k, v in SHORT.items())}[(VALUE[SHORT[x]] + d - 1) % 13 + 1]
    # 4 W x alone is no meld (no adjacent natural pair): the joker is never placed between 4 and x
    t = Table("leap_rummy_wild")
    t.give(0, "4S", "W", x + "S")
    t.pursue()
    assert not any(_same_meld(m, ["4S", w + "*", x + "S"]) for _, m, _ in t.new_melds())
    # 4 W x y (y one step further) is a meld, and the game resolves W to the table's rank and leap
    t = Table("leap_rummy_wild")
    t.give(0, "4S", "W", x + "S", y + "S")
    t.pursue()
    whole = [(m, lp) for _, m, lp in t.new_melds() if len(m) == 4]
    assert len(whole) == 1
    meld, lp = whole[0]
    assert _same_meld(meld, ["4S", w + "*", x + "S", y + "S"]) and lp == leap


def test_lr_t6_legal_and_illegal_joker_melds():
    # 4S W 5S QS: legal, W = JS, d = 7 (leap 6), value 3
    t = Table("leap_rummy_wild")
    t.give(0, "4S", "W", "5S", "QS")
    t.pursue()
    [(i, meld, leap)] = [n for n in t.new_melds() if len(n[1]) == 4]
    assert _same_meld(meld, ["4S", "J*", "5S", "QS"]) and leap == 6
    t.take(i)
    assert t.sc.scores()[0] == 3
    # 7H 9H W (W = JH) and W 7H 9H (W = 5H) are legal — and the only melds of these three cards
    t = Table("leap_rummy_wild")
    t.give(0, "7H", "9H", "W")
    t.pursue()
    melds = sorted(m if m[0] != "J*" else m[::-1] for _, m, _ in t.new_melds())
    assert melds == [["5*", "7H", "9H"], ["7H", "9H", "J*"]]
    # 4S W 5S is illegal (no adjacent natural pair): only 4 5 W and W 4 5 (leap 1) remain
    t = Table("leap_rummy_wild")
    t.give(0, "4S", "W", "5S")
    t.pursue()
    news = t.new_melds()
    assert sorted(sorted(m) for _, m, _ in news) == [["3*", "4S", "5S"], ["4S", "5S", "6*"]]
    assert {lp for _, _, lp in news} == {1}
    # 7H 9H W W is illegal (adjacent jokers); the two jokers may only sit apart: W 7H 9H W
    t = Table("leap_rummy_wild")
    t.give(0, "7H", "9H", "W", "W")
    t.pursue()
    fours = [m for _, m, _ in t.new_melds() if len(m) == 4]
    assert len(fours) == 1 and _same_meld(fours[0], ["5*", "7H", "9H", "J*"])


def test_wild_a_joker_extends_a_meld_and_a_retired_joker_costs_nothing():
    t = Table("leap_rummy_wild")
    t.give(0, "7H", "9H", "JH")
    t.pursue()
    t.take(t.new_melds()[0][0])
    t.pursue()  # P2 holds nothing: no meld, no discard
    t.no_meld()
    t.give(0, "W", "AC")
    t.pursue()
    # the joker extends the meld at either end: as KH after JH, or as 5H before 7H
    outcomes = [(i, m[0]) for i, m, _, _ in t.meld_outcomes() if m and len(m[0]) == 4]
    assert sorted(m for _, m in outcomes) == [["5*", "7H", "9H", "JH"], ["7H", "9H", "JH", "K*"]]
    t.take(next(i for i, m in outcomes if m[-1] == "K*"))
    t.discard("AC")
    assert t.sc.scores()[0] == 3
    # P2 retires holding the other joker and 5D: the joker costs 0
    t.give(1, "W", "5D")
    t.retire()
    assert t.sc.scores()[1] == -5


# ---------------------------------------------------------------- LR-T7 other rank counts

LR_T7 = [("leap_rummy_eleven", 11, 1, "4 5 6 7 8 9 10 11 1 2 3 4 5"), ("leap_rummy_eleven", 11, 2, "4 6 8 10 1 3 5 7 9 11 2 4 6"),
         ("leap_rummy_eleven", 11, 3, "4 7 10 2 5 8 11 3 6 9 1 4 7"), ("leap_rummy_eleven", 11, 4, "4 8 1 5 9 2 6 10 3 7 11 4 8"),
         ("leap_rummy_eleven", 11, 5, "4 9 3 8 2 7 1 6 11 5 10 4 9"), ("leap_rummy_seven", 7, 1, "4 5 6 7 1 2 3 4 5"),
         ("leap_rummy_seven", 7, 2, "4 6 1 3 5 7 2 4 6"), ("leap_rummy_seven", 7, 3, "4 7 3 6 2 5 1 4 7")]
NUMBER = {i: k for k, i in ((k, VALUE[v]) for k, v in SHORT.items())}  # 1 -> "A", 10 -> "T", …


@pytest.mark.parametrize("name,p,leap,row", LR_T7)
def test_lr_t7_other_rank_counts(name, p, leap, row):
    cards = [NUMBER[int(x)] + "H" for x in row.split()]
    assert len(cards) == p + 2 and len(set(cards[:p])) == p and cards[p:] == cards[:2]
    # p - 2 cards of the cycle: one meld of exactly this leap, laid in cycle order
    t = Table(name)
    t.give(0, *cards[:p - 2])
    t.pursue()
    full = [(m, lp) for _, m, lp in t.new_melds() if len(m) == p - 2]
    assert full == [(cards[:p - 2], leap)]
    # the whole cycle: a meld for every leap 1 … (p-1)/2, declared
    t = Table(name)
    t.give(0, *cards[:p])
    t.pursue()
    assert sorted(lp for _, m, lp in t.new_melds(min_cards=p) if len(m) == p) == list(range(1, (p - 1) // 2 + 1))


def test_lr_t7_two_packs_fourteen_cards_worth_78():
    t = Table("leap_rummy_two_packs")
    t.give(0, *cyc("A 2 3 4 5 6 7 8 9 T J Q K A"))
    t.pursue()
    fourteen = [(i, m, lp) for i, m, lp in t.new_melds(min_cards=14) if len(m) == 14 and lp == 1]
    assert len(fourteen) == 1 and fourteen[0][1] == cyc("A 2 3 4 5 6 7 8 9 T J Q K A")
    t.take(fourteen[0][0])
    assert t.sc.scores()[0] == 78


@pytest.mark.parametrize("name,players,stock", [("leap_rummy_eleven", 2, 34), ("leap_rummy_eleven", 5, 19),
                                                ("leap_rummy_seven", 2, 18), ("leap_rummy_seven", 3, 13),
                                                ("leap_rummy_two_packs", 6, 74), ("leap_rummy_wild", 4, 34),
                                                ("leap_rummy_distinct_leaps", 8, 12)])
def test_pack_sizes(name, players, stock):
    prog = program(name, players)
    st = prog.new_game(3)
    assert pile_size(prog, st, "game", "iloc", "STOCK") == stock
    tokens = [c for c in range(len(st.where)) if "LEAP" in st.catt[c]]
    assert len(tokens) == {"leap_rummy_eleven": 5, "leap_rummy_seven": 3, "leap_rummy_distinct_leaps": 0}.get(name, 6)


# ---------------------------------------------------------------- the other variants of §3.9


def test_distinct_leaps_variant():
    t = Table("leap_rummy_distinct_leaps")
    t.give(0, "7H", "9H", "JH")
    t.pursue()
    [(i, _meld, _leap)] = t.new_melds()
    t.take(i)
    # no leaptokens: P2 may use leap 2 as well
    t.give(1, "2C", "4C", "6C")
    t.pursue()
    assert [(m, lp) for _, m, lp in t.new_melds(1)] == [(["2C", "4C", "6C"], 2)]
    t.no_meld()
    t.discard("2C")
    # P1: a second leap-2 meld is refused, a leap-3 meld is fine; KH extends the leap-2 meld
    t.give(0, "2D", "4D", "6D", "3S", "6S", "9S", "KH")
    t.pursue()
    outcomes = t.meld_outcomes()
    assert sorted(m[-1] for _, m, _, _ in outcomes if len(m) == 2) == [["3S", "6S", "9S"]]
    assert [m for _, m, _, _ in outcomes if len(m) == 1 and len(m[0]) == 4] == [[["7H", "9H", "JH", "KH"]]]
    assert len(outcomes) == 3  # new leap-3 meld, extension, no meld
    t.take(next(i for i, m, _, _ in outcomes if len(m) == 2))
    leaps = [t.prog.value(t.st, ("L", t.sc.pile(0, "vloc", "MELD", k)), "sto", "LEAP") for k in (0, 1)]
    assert leaps == [2, 3]
    # with melds of leaps 2 and 3, the same suit can never be conjoined: only extensions by own leap
    t.discard("KH")
    t.pursue()
    t.no_meld()
    t.discard("4C")
    t.give(0, "QS", "5H")
    t.pursue()
    assert sorted(m[1] for _, m, _, _ in t.meld_outcomes() if len(m) == 2 and len(m[1]) == 4) == \
        [["3S", "6S", "9S", "QS"]]
    assert all(len(m) == 2 for _, m, _, _ in t.meld_outcomes())


def test_colors_variant():
    t = Table("leap_rummy_colors")
    t.give(0, "7H", "9D", "JH")
    t.pursue()
    assert [(m, lp) for _, m, lp in t.new_melds()] == [(["7H", "9D", "JH"], 2)]
    t = Table("leap_rummy_colors")
    t.give(0, "7H", "9C", "JH")
    t.pursue()
    assert t.new_melds() == []
    # ranks stay distinct: two red sevens give two three-card melds, never a four-card one
    t = Table("leap_rummy_colors")
    t.give(0, "7H", "7D", "9H", "JH")
    t.pursue()
    assert sorted(m for _, m, _ in t.new_melds()) == [["7D", "9H", "JH"], ["7H", "9H", "JH"]]


def test_suitless_variant():
    t = Table("leap_rummy_suitless")
    t.give(0, "7H", "9C", "JS")
    t.pursue()
    assert [(m, lp) for _, m, lp in t.new_melds()] == [(["7H", "9C", "JS"], 2)]
    t = Table("leap_rummy_suitless")
    t.give(0, "7H", "7D", "9H")
    t.pursue()
    assert t.new_melds() == []
    # a full suitless cycle of 13 distinct ranks is the longest meld: 14 cards never form one
    t = Table("leap_rummy_suitless")
    t.give(0, *cyc("A 2 3 4 5 6 7 8 9 T J Q K", "S"), "AH")
    t.pursue()
    assert max(len(m) for _, m, _ in t.new_melds(min_cards=13)) == 13


# ---------------------------------------------------------------- every shipped file plays


PLAYER_COUNTS = {"leap_rummy": range(2, 7), "leap_rummy_distinct_leaps": range(2, 9), "leap_rummy_colors": range(2, 7),
                 "leap_rummy_suitless": range(2, 7), "leap_rummy_wild": range(2, 7), "leap_rummy_eleven": range(2, 6),
                 "leap_rummy_seven": range(2, 4), "leap_rummy_two_packs": range(2, 7)}


def test_every_leap_rummy_file_is_shipped():
    assert sorted(p.stem for p in GAMES.glob("leap_rummy*.gdl")) == sorted(PLAYER_COUNTS)


@pytest.mark.parametrize("name,players", [(n, k) for n, ks in PLAYER_COUNTS.items() for k in ks])
def test_random_games_end_normally(name, players):
    prog = program(name, players)
    assert prog.n_players == players and prog.direction == "max"
    for run in range(12):
        r = play_game(prog, derive(2024, name, players, run), [RandomPlayer() for _ in range(players)])
        assert r.end_reason == "normal", (name, players, run, r.end_reason, r.error)


class Eager(Player):
    """Never retires unless forced, always melds when it can (a random meld), discards at random."""

    code = "E"
    atomic_sampling = True

    def choose(self, prog, st) -> int:
        n = len(prog.options(st))
        return 0 if n == 1 else self.rng.randrange(n - 1)


@pytest.mark.parametrize("name", ["leap_rummy", "leap_rummy_wild", "leap_rummy_distinct_leaps", "leap_rummy_seven"])
def test_players_who_never_retire_are_stopped_by_the_stalled_stock_rule(name):
    """The stalled-stock rule ends every game even when nobody retires of their own accord."""
    prog = program(name, 3)
    for run in range(3):
        r = play_game(prog, derive(77, name, run), [Eager() for _ in range(3)])
        assert r.end_reason == "normal"
