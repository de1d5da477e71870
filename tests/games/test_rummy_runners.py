"""Rummy Runners and its variants (seed-games.md §4): test vectors RR-T1 … RR-T9 on the game files.

Every vector is judged by the game files themselves through Scenario: positions are
arranged by hand (cards in hands and fronts, tiles on cells, owners of spaces), then the
file's own choice builds the legal melds, and the file's own claim phase (claims, steals,
locks, null resolution, win check) runs when an option is applied. Geometry counts that no
rule of the game computes (neighbour degrees, connected sets) are read from the board the
file builds, through the engine's board family — the structure its `line` and
`components` queries use.
"""
from __future__ import annotations

import itertools
import random
from collections import Counter
from pathlib import Path

import pytest

from recycle.compiler import load_program
from recycle.engine.play import play_game
from recycle.engine.state import DONE, MV
from recycle.lang import library
from recycle.players.random_player import RandomPlayer
from recycle.run.scenario import Scenario
from support import GAMES

BASE = GAMES / "rummy_runners.gdl"
BORDER = GAMES / "rummy_runners_border.gdl"
HARD = GAMES / "rummy_runners_hard.gdl"
PIECEPACK = GAMES / "rummy_runners_piecepack.gdl"
ZONING = GAMES / "rummy_runners_zoning.gdl"
ALL_FILES = [BASE, BORDER, HARD, PIECEPACK, ZONING]

SUIT = {"S": "SUNS", "M": "MOONS", "C": "CROWNS", "A": "ARMS"}
COLOR = {"Y": "YELLOW", "R": "RED", "B": "BLUE"}
NUMBER = ["NULL", "ONE", "TWO", "THREE", "FOUR", "FIVE"]
SUITS = "SMCA"

# A meld that claims nothing: a swatch of three different spaces, each in one colour only.
QUIET = ("Y1S", "Y2M", "Y3C")


class Table:
    """A Rummy Runners position arranged by hand, judged by one game file (a thin layer on Scenario)."""

    def __init__(self, path: Path, players: int = 2, seed: int = 1):
        self.sc = Scenario.open(path, {"PLAYERS": players}, seed=seed)
        self.sc.run()  # the opening do: tiles on the board, the deal, a random first player
        self.prog = self.sc.prog
        self.n = players
        self.fam = self.prog.board_ids[(0, 0, "BOARD")]

    def place_tiles(self) -> None:
        """Controlled zoning: play the tile placement (always the first option) up to the first meld decision."""
        while self.sc.get("game", "sto", "PLACED") < 24:
            self.prog.apply(self.st, 0)

    @property
    def st(self):
        return self.sc.st

    @property
    def chooser(self) -> int:
        return self.prog.chooser(self.st)

    # ---- cards
    def card(self, code: str) -> int:
        """A Mystique card from its shorthand, e.g. Y3C."""
        return self.sc.card(COLOR=COLOR[code[0]], NUMBER=NUMBER[int(code[1])], SUIT=SUIT[code[2]])

    def tile(self, code: str) -> int:
        """A tile from its shorthand, e.g. C3 or M0."""
        ids = [c for c in self.sc.cards(SUIT=SUIT[code[0]], NUMBER=NUMBER[int(code[1])]) if self.st.cmeta.deck[c] == "TILE"]
        assert len(ids) == 1
        return ids[0]

    def code(self, c: int) -> str:
        a = self.prog.card_attrs(self.st, c)
        s = {v: k for k, v in SUIT.items()}[a["SUIT"]] + str(NUMBER.index(a["NUMBER"]))
        return ({v: k for k, v in COLOR.items()}[a["COLOR"]] + s[1] + s[0]) if "COLOR" in a else s

    def pile(self, owner, kind: str, name: str) -> list[str]:
        return sorted(self.code(c) for c in self.sc.contents(owner, kind, name))

    def clear_cards(self, draw_to=("game", "iloc", "DRAW", 0)) -> None:
        """Every hand and front emptied (into the draw pile unless told otherwise)."""
        for p in range(self.n):
            self.sc.move_all(p, "iloc", "HAND", to=draw_to)
            self.sc.move_all(p, "vloc", "FRONT", to=draw_to)

    def give(self, p: int, codes, where: str = "HAND") -> None:
        kind = "iloc" if where == "HAND" else "vloc"
        for code in codes:
            self.sc.place(self.card(code), p, kind, where)

    # ---- cells
    def cell(self, q: int, r: int) -> int:
        """The cell index of axial (q, r) (seed-games.md §4.3)."""
        return self.fam.geom.index_of[(r, q)]

    def cell_of_tile(self, code: str) -> int:
        return self.fam.pids.index(self.st.where[self.tile(code)])

    def set_owner(self, i: int, p) -> None:
        self.sc.set(("game", "vloc", "BOARD", i), "ply", "OWNER", p)

    def set_state(self, i: int, word: str) -> None:
        self.sc.set(("game", "vloc", "BOARD", i), "str", "STATE", word)

    def owner(self, i: int):
        return self.sc.get(("game", "vloc", "BOARD", i), "ply", "OWNER")

    def state(self, i: int) -> str:
        return self.sc.get(("game", "vloc", "BOARD", i), "str", "STATE")

    def locked(self, i: int) -> int:
        return self.sc.get(("game", "vloc", "BOARD", i), "sto", "LOCKED")

    def owned_by(self, p: int) -> list[int]:
        return [i for i in range(len(self.fam.pids)) if self.owner(i) == p]

    def layout(self) -> None:
        """A fixed tile layout: cell i < 20 holds suit i mod 4 (S M C A), number i div 4 + 1;
        cells 20..23 hold the null tiles S0 M0 C0 A0. Null STATEs follow the tiles (OPEN)."""
        codes = [SUITS[i % 4] + str(i // 4 + 1) for i in range(20)] + [s + "0" for s in SUITS]
        for c in codes:
            self.sc.place(self.tile(c), "game", "hloc", "SPARE")
        for i, c in enumerate(codes):
            self.sc.place(self.tile(c), "game", "vloc", "BOARD", i)
            self.set_state(i, "OPEN" if c.endswith("0") else "")

    # ---- decisions
    def options(self):
        return self.sc.options()

    def option_melds(self) -> list[frozenset]:
        """For each option of the pending decision, the cards it puts in a front (empty: the pass)."""
        return [frozenset(self.code(op[1]) for op in o.ops if op[0] == MV and self.prog.pile_key[op[4]][2] == "FRONT")
                for o in self.options()]

    def melds(self) -> list[frozenset]:
        """The legal melds of the pending decision, one per meld option."""
        return [m for m in self.option_melds() if m]

    def meld_index(self, codes) -> int:
        want = frozenset(codes)
        found = [i for i, m in enumerate(self.option_melds()) if m == want]
        assert len(found) == 1, f"{sorted(want)} is not exactly one legal meld"
        return found[0]

    def meld(self, codes) -> None:
        """Take the option that melds exactly these cards."""
        self.prog.apply(self.st, self.meld_index(codes))

    def pass_turn(self) -> None:
        descs = self.sc.describe()
        i = descs.index(["turn pass"])
        self.prog.apply(self.st, i)

    def won(self, p: int) -> bool:
        return self.sc.get(p, "sto", "WIN") == 1


def quiet_table(path: Path, players: int = 2, seed: int = 1) -> Table:
    """Hands and fronts emptied; the player to move holds a meld that claims nothing (QUIET)."""
    t = Table(path, players, seed)
    t.clear_cards()
    t.give(t.chooser, QUIET)
    return t


def scan_table(path: Path) -> Table:
    """A quiet table with the fixed tile layout and every null DEAD (no null can join a tested set)."""
    t = quiet_table(path)
    t.layout()
    for i in range(20, 24):
        t.set_state(i, "DEAD")
    t.quiet = t.meld_index(QUIET)
    return t


def win_after_quiet_meld(base: Table, cells) -> bool:
    """Does the file's win check accept a player owning exactly these cells (after a quiet meld)?"""
    sc = Scenario(base.prog, base.st.clone())
    p = base.chooser
    for i in cells:
        sc.set(("game", "vloc", "BOARD", i), "ply", "OWNER", p)
    base.prog.apply(sc.st, base.quiet)
    return sc.get(p, "sto", "WIN") == 1


@pytest.fixture(scope="module")
def hex_quiet():
    return scan_table(BASE)


# ---------------------------------------------------------------- RR-T1 counts


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: p.stem)
@pytest.mark.parametrize("players,draw", [(2, 48), (3, 42), (4, 36)])
def test_rr_t1_counts(path, players, draw):
    t = Table(path, players, seed=3)
    if path == ZONING:
        t.place_tiles()
    cards = t.sc.cards()
    mystique = [c for c in cards if t.st.cmeta.deck[c] == "DEFAULT"]
    tiles = [c for c in cards if t.st.cmeta.deck[c] == "TILE"]
    assert len(mystique) == 60 and len(tiles) == 24
    assert len({tuple(sorted(t.prog.card_attrs(t.st, c).items())) for c in mystique}) == 60
    assert len(t.sc.contents("game", "iloc", "DRAW")) == draw
    assert all(len(t.sc.contents(p, "iloc", "HAND")) == 6 for p in range(players))
    assert sorted(len(t.st.piles[pid]) for pid in t.fam.pids if t.st.piles[pid]) == [1] * 24


def test_rr_t1_zoning_deals_tiles_before_cards():
    for players, each in [(2, 12), (3, 8), (4, 6)]:
        t = Table(ZONING, players, seed=5)
        assert [len(t.sc.contents(p, "vloc", "TILES")) for p in range(players)] == [each] * players
        assert len(t.sc.contents("game", "iloc", "DRAW")) == 60  # cards are dealt after the placement
        assert len(t.options()) == each  # the first tile goes to the centre: one option per tile


# ---------------------------------------------------------------- RR-T2 hex geometry


def test_rr_t2_neighbour_counts_and_pairs():
    g = Table(BASE).fam.geom
    deg = [sum(1 for j in row if j >= 0) for row in g.nbr]
    assert deg == [3, 4, 4, 3,
                   4, 6, 6, 6, 4,
                   3, 6, 6, 6, 6, 3,
                   4, 6, 6, 6, 4,
                   3, 4, 4, 3]
    assert Counter(deg) == {3: 6, 4: 8, 6: 10}
    assert [i for i, d in enumerate(deg) if d == 3] == [0, 3, 9, 14, 20, 23]
    assert sum(deg) // 2 == 55
    rows = {0: range(2, 6), 1: range(1, 6), 2: range(0, 6), 3: range(0, 5), 4: range(0, 4)}
    assert g.coords == [(r, q) for r in range(5) for q in rows[r]]  # (r, q), row-major


def _direction(g, cells):
    (r0, q0), (r1, q1) = g.coords[cells[0]], g.coords[cells[1]]
    d = (q1 - q0, r1 - r0)
    return {(1, 0): "E", (-1, 0): "E", (0, 1): "SE", (0, -1): "SE", (1, -1): "NE", (-1, 1): "NE"}[d]


def test_rr_t2_the_win_check_accepts_exactly_the_38_lines(hex_quiet):
    t = hex_quiet
    wins = [c for c in itertools.combinations(range(24), 3) if win_after_quiet_meld(t, c)]
    assert len(wins) == 38
    # each winning triple is a line: sorted by position along it, consecutive steps in one direction
    by_dir = Counter()
    for c in wins:
        cs = sorted(c, key=lambda i: t.fam.geom.coords[i])
        by_dir[_direction(t.fam.geom, cs)] += 1
    assert by_dir == {"E": 14, "SE": 12, "NE": 12}


def test_rr_t2_448_connected_four_sets(hex_quiet):
    t = hex_quiet
    connected = {c for c in itertools.combinations(range(24), 4) if len(t.fam.components([t.fam.pids[i] for i in c])) == 1}
    assert len(connected) == 448
    # the file's win check: a 4-set without a line wins exactly when it is connected
    # (every third 4-set, 3542 of the 10626, to keep the test fast)
    lines = {c for c in itertools.combinations(range(24), 3) if win_after_quiet_meld(t, c)}
    for c in itertools.islice(itertools.combinations(range(24), 4), 0, None, 3):
        if not any(tri in lines for tri in itertools.combinations(c, 3)):
            assert win_after_quiet_meld(t, c) == (c in connected), c


# ---------------------------------------------------------------- RR-T3 wins


@pytest.mark.parametrize("cells,result", [
    ([(0, 2), (1, 2), (2, 2)], True),            # line E
    ([(2, 0), (2, 1), (2, 2)], True),            # line SE
    ([(5, 0), (4, 1), (3, 2)], True),            # line SW
    ([(0, 2), (1, 2), (3, 2)], False),           # gap
    ([(2, 2), (3, 2), (2, 3)], False),           # 3 connected, not a line
    ([(2, 2), (3, 2), (2, 3), (3, 1)], True),    # connected 4, no line
])
def test_rr_t3_wins(cells, result):
    t = quiet_table(BASE)
    t.layout()  # no three of the cells share a suit, so no null joins them
    p = t.chooser
    for q, r in cells:
        t.set_owner(t.cell(q, r), p)
    t.meld(QUIET)
    assert t.owned_by(p) == sorted(t.cell(q, r) for q, r in cells)
    assert t.won(p) is result
    assert (t.st.status == DONE) is result  # a win ends the game at once
    if result:
        assert t.sc.outcome().winners == [p]


# ---------------------------------------------------------------- RR-T4 null resolution


def _null_case(players: int, owners: str):
    """Owners of s1..s5 as letters (A, B, … or - for none); the player to move is A. Returns (STATE, owner letter)."""
    t = quiet_table(BASE, players)
    t.layout()
    p = t.chooser
    seat = {chr(ord("A") + k): (p + k) % players for k in range(players)}
    s = SUITS.index("M")
    for n, letter in enumerate(owners):
        if letter != "-":
            t.set_owner(s + 4 * n, seat[letter])  # cell of M(n+1) in the layout
    t.meld(QUIET)
    null = 20 + s
    who = {v: k for k, v in seat.items()}.get(t.owner(null))
    return t.state(null), who


@pytest.mark.parametrize("players,owners,state,who", [
    (2, "AABA-", "CLAIMED", "A"),
    (2, "AABBB", "CLAIMED", "B"),
    (3, "AABBC", "DEAD", None),
    (3, "AABC-", "OPEN", None),
    (3, "AABCA", "CLAIMED", "A"),
    (4, "AABBC", "DEAD", None),
    (4, "AABCD", "DEAD", None),
])
def test_rr_t4_null_resolution(players, owners, state, who):
    assert _null_case(players, owners) == (state, who)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rr_t4_owner_distributions_of_a_fully_owned_suit(players):
    """(5) (4,1) (3,2) (3,1,1) claim the null; (2,2,1) and (2,1,1,1) kill it; 2 players always claim."""
    seen = {}
    for owners in itertools.product("ABCD"[:players], repeat=5):
        dist = tuple(sorted(Counter(owners).values(), reverse=True))
        if dist in seen:
            continue
        state, who = _null_case(players, "".join(owners))
        seen[dist] = state
        if state == "CLAIMED":
            assert Counter(owners)[who] >= 3
    want = {(5,): "CLAIMED", (4, 1): "CLAIMED", (3, 2): "CLAIMED", (3, 1, 1): "CLAIMED",
            (2, 2, 1): "DEAD", (2, 1, 1, 1): "DEAD"}
    assert seen == {d: s for d, s in want.items() if len(d) <= players}
    if players == 2:
        assert set(seen.values()) == {"CLAIMED"}


def test_rr_t4_claimed_and_dead_nulls_are_never_re_evaluated():
    t = quiet_table(BASE, 3)
    t.layout()
    p = t.chooser
    s = SUITS.index("S")
    t.set_state(20 + s, "DEAD")
    for n in range(3):
        t.set_owner(s + 4 * n, p)
    t.meld(QUIET)
    assert (t.state(20 + s), t.owner(20 + s)) == ("DEAD", None)


# ---------------------------------------------------------------- RR-T5 claims and scavenging


def _rr_t5(path, first=("Y3C", "B3C", "R3S"), second=("R3C", "Y3A")):
    t = Table(path, 2, seed=2)
    t.clear_cards()
    a = t.chooser
    b = 1 - a
    t.give(a, first)
    t.give(b, second)
    c3, s3 = t.cell_of_tile("C3"), t.cell_of_tile("S3")
    t.meld(first)
    return t, a, b, c3, s3


def test_rr_t5_claims_and_scavenging():
    t, a, b, c3, s3 = _rr_t5(BASE)
    assert t.owner(c3) == a and t.owner(s3) is None  # two colours of C3, one of S3
    assert t.owned_by(a) == [c3]
    assert t.chooser == b
    t.meld(["R3C", "B3C", "Y3A"])  # B3C scavenged from A's front
    assert t.pile(b, "vloc", "FRONT") == ["B3C", "R3C", "Y3A"]
    assert t.pile(a, "vloc", "FRONT") == ["R3S", "Y3C"]
    assert t.owner(c3) == a  # claims are permanent
    assert t.owned_by(b) == []


def test_rr_t5_legal_melds_with_scavenging():
    t, _a, _b, _c3, _s3 = _rr_t5(BASE)
    # B holds R3C Y3A; A's front shows Y3C B3C R3S. Every meld needs a card of B's hand and is listed once.
    melds = set(t.melds())
    assert len(melds) == len(t.melds())
    threes = {"R3C", "Y3A", "Y3C", "B3C", "R3S"}
    expected = set()
    for k in range(3, 6):
        for combo in itertools.combinations(sorted(threes), k):
            if set(combo) & {"R3C", "Y3A"}:
                expected.add(frozenset(combo))  # groups of THREE
    expected |= {frozenset({"R3C", "Y3C", "B3C"})}  # also a flush of crowns (already a group)
    assert melds == expected
    assert len(t.options()) == len(expected) + 1  # and the pass


def test_every_legal_meld_is_exactly_one_option():
    t = quiet_table(BASE)
    t.clear_cards()
    t.give(t.chooser, ["Y3C", "B3C", "R3C", "Y3S"])
    # groups of THREE: the four 3-subsets and the 4-set; swatches and flushes need three cards
    assert sorted(sorted(m) for m in t.melds()) == sorted(
        sorted(c) for k in (3, 4) for c in itertools.combinations(["Y3C", "B3C", "R3C", "Y3S"], k))
    assert len(t.options()) == 6


def test_a_meld_needs_a_card_from_hand():
    t = quiet_table(BASE)
    a = t.chooser
    t.clear_cards()
    t.give(1 - a, ["Y1S", "Y2S", "Y3S"], where="FRONT")
    assert t.melds() == [] and t.sc.describe() == [["turn pass"]]
    t.give(a, ["Y4S"])
    assert set(t.melds()) == {frozenset(c) | {"Y4S"} for k in (2, 3)
                              for c in itertools.combinations(["Y1S", "Y2S", "Y3S"], k)}


# ---------------------------------------------------------------- RR-T6 border disputes


def test_rr_t6_border_steal():
    t, a, b, c3, _s3 = _rr_t5(BORDER)
    assert t.owner(c3) == a and not t.locked(c3)
    t.meld(["R3C", "B3C", "Y3A"])
    assert t.owner(c3) == b  # unlocked, B now holds 2 colours (A holds 1)
    assert t.owned_by(a) == []


def test_rr_t6_border_lock_prevents_the_steal():
    t = Table(BORDER, 2, seed=2)
    t.clear_cards()
    a = t.chooser
    b = 1 - a
    t.give(a, ["Y3C", "B3C", "R3C"])
    t.give(b, ["Y3A"])
    c3 = t.cell_of_tile("C3")
    t.meld(["Y3C", "B3C", "R3C"])
    assert t.owner(c3) == a and t.locked(c3) == 1  # all three colours: locked at once
    t.meld(["Y3A", "B3C", "R3C"])  # B scavenges two colours of C3
    assert t.owner(c3) == a and t.owned_by(b) == []


def test_rr_t6_base_game_has_no_steals():
    t, a, _b, c3, _s3 = _rr_t5(BASE, first=("Y3C", "B3C", "R3C"), second=("Y3A",))
    assert t.locked(c3) == 0  # no locks outside the variant
    t.meld(["Y3A", "B3C", "R3C"])
    assert t.owner(c3) == a


# ---------------------------------------------------------------- RR-T7 hard way sets


def _legal(path, codes) -> bool:
    t = quiet_table(path)
    t.clear_cards()
    t.give(t.chooser, codes)
    return frozenset(codes) in t.melds()


@pytest.mark.parametrize("codes,legal", [
    ("Y1S R2M B3C Y4A R5S", True),    # Sequence
    ("Y2S R2M B5C Y1A", True),        # Suite
    ("Y2S R2M B5C", False),           # 3 cards, 3 suits
    ("Y2S Y4M Y5S", True),            # Swatch
    ("Y3S R3M B3C", False),           # a Group: not a set in this variant
    ("Y1S R2M B3C Y4S", False),       # 4 numbers, and a repeated suit: neither Sequence nor Suite
    ("Y1S R2M B3C Y4A R5S Y2A", False),  # a Sequence is exactly five cards
    ("Y1S R2M B3C Y4A R5A", True),    # any suits and colours
])
def test_rr_t7_hard_way_sets(codes, legal):
    assert _legal(HARD, codes.split()) is legal


def test_rr_t7_four_numbers_with_four_suits_is_a_suite():
    """RR-T7 lists Y1S R2M B3C Y4A as "invalid (4 numbers)": it is no Sequence, but its four
    different suits make it a Suite under §4.9 ("exactly 4 cards with 4 different SUITs")."""
    assert _legal(HARD, ["Y1S", "R2M", "B3C", "Y4A"]) is True
    t = quiet_table(HARD)
    t.clear_cards()
    t.give(t.chooser, ["Y1S", "R2M", "B3C", "Y4A"])
    assert t.melds() == [frozenset({"Y1S", "R2M", "B3C", "Y4A"})]  # its only legal meld


def test_rr_t7_base_game_accepts_the_group():
    assert _legal(BASE, ["Y3S", "R3M", "B3C"]) is True
    assert _legal(BASE, ["Y1S", "R2M", "B3C", "Y4A", "R5S"]) is False


# ---------------------------------------------------------------- RR-T8 piecepack geometry


@pytest.fixture(scope="module")
def pp_quiet():
    return scan_table(PIECEPACK)


def test_rr_t8_piecepack_lines(pp_quiet):
    t = pp_quiet
    assert t.fam.geom.coords == [(r, c) for r in range(4) for c in range(6)]
    wins = [c for c in itertools.combinations(range(24), 3) if win_after_quiet_meld(t, c)]
    assert len(wins) == 44
    kinds = Counter()
    for c in wins:
        (r0, c0), (r1, c1) = t.fam.geom.coords[c[0]], t.fam.geom.coords[c[1]]
        kinds[{(0, 1): "row", (1, 0): "column", (1, 1): "diagonal SE", (1, -1): "diagonal SW"}[(r1 - r0, c1 - c0)]] += 1
    assert kinds == {"row": 16, "column": 12, "diagonal SE": 8, "diagonal SW": 8}


def test_rr_t8_piecepack_209_orthogonal_four_sets(pp_quiet):
    t = pp_quiet
    orth = {c for c in itertools.combinations(range(24), 4)
            if len(t.fam.components([t.fam.pids[i] for i in c], ("N", "E"))) == 1}
    assert len(orth) == 209
    lines = {c for c in itertools.combinations(range(24), 3) if win_after_quiet_meld(t, c)}
    for c in itertools.islice(itertools.combinations(range(24), 4), 1, None, 3):  # every third 4-set
        if not any(tri in lines for tri in itertools.combinations(c, 3)):
            assert win_after_quiet_meld(t, c) == (c in orth), c
    # a diagonal 2x2 block's corners are not orthogonally connected: a square 4 wins, a zigzag diagonal does not
    assert win_after_quiet_meld(t, (0, 1, 6, 7)) and not win_after_quiet_meld(t, (0, 7, 8, 15))


# ---------------------------------------------------------------- RR-T9 stalemate


def _stalemate_table():
    t = Table(BASE, 3, seed=4)
    t.clear_cards(draw_to=("game", "hloc", "OUT", 0))
    t.sc.move_all("game", "iloc", "DRAW")
    t.options()
    # the turn in progress began with cards in the draw pile: it does not count
    t.pass_turn()
    return t


def test_rr_t9_three_idle_turns_end_in_a_draw():
    t = _stalemate_table()
    t.pass_turn()
    t.pass_turn()
    assert t.st.status != DONE
    t.pass_turn()
    assert t.st.status == DONE
    out = t.sc.outcome()
    assert out.scores == [0, 0, 0] and out.winners == [0, 1, 2]


def test_rr_t9_a_claim_restarts_the_count():
    t = _stalemate_table()
    t.pass_turn()
    p = t.chooser
    t.give(p, ["Y3C", "B3C", "R3S"])
    t.meld(["Y3C", "B3C", "R3S"])  # claims C3 in the second idle-count turn
    assert t.owned_by(p) == [t.cell_of_tile("C3")]
    t.pass_turn()
    t.pass_turn()
    assert t.st.status != DONE
    t.pass_turn()
    assert t.st.status == DONE and t.sc.outcome().winners == [0, 1, 2]


# ---------------------------------------------------------------- whole games


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: p.stem)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_normally(path, players):
    prog = load_program(path, {"PLAYERS": players})
    for seed in range(10):
        r = play_game(prog, seed, [RandomPlayer() for _ in range(players)])
        assert r.outcome == "completed", (seed, r.error or r.limit)
        assert sum(r.scores) in (0, 1)  # one winner, or a stalemate draw


def test_the_first_player_is_random():
    firsts = {Table(BASE, 3, seed=s).chooser for s in range(12)}
    assert firsts == {0, 1, 2}


def test_zoning_builds_a_board_of_connected_tiles():
    prog = load_program(ZONING, {"PLAYERS": 3})
    for seed in range(3):
        rng = random.Random(seed)
        st = prog.new_game(seed, sampling=[True] * 3)
        while st.status == 1 and prog.value(st, "game", "sto", "PLACED") < 24:
            prog.apply(st, rng.randrange(len(prog.options(st))))
        fam = prog.board_ids[(0, 0, "BOARD")]
        tiles = [pid for pid in fam.pids if st.piles[pid]]
        assert len(tiles) == 24 and len(fam.components(tiles)) == 1
        centre = fam.pids[fam.geom.index_of[(12, 12)]]
        assert centre in tiles


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: p.stem)
def test_header_credit_licence_players_and_parameters(path):
    text = path.read_text("utf-8")
    head = text[:text.index("(game")]
    assert ("Rummy Runners is © 2014 Nathan Morse, published at hexpack.org and licensed under CC BY-NC-SA 4.0 "
            "(https://creativecommons.org/licenses/by-nc-sa/4.0/).") in head
    for words in ("Author: Nathan Morse", "Source: hexpack.org", "re-expressed", "not under the",
                  "must never be used commercially", "Players: 2-4 (default 3)", "Parameters: PLAYERS (default 3)"):
        assert words in head, words
    info = library.info(path.stem, path)
    assert info.title.startswith("Rummy Runners") and info.players.startswith("2-4")
    assert info.parameters.startswith("PLAYERS (default 3)")
