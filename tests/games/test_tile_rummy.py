"""games/tile_rummy.gdl: a Rummikub-style tile game, judged by the game's own options.

Positions are arranged with recycle.run.scenario.Scenario: the game is dealt, every tile goes
back to the pool, then chosen tiles are put in racks and table melds. A tile is written as its
colour letter and number ("R5" is RED-FIVE, "K13" BLACK-THIRTEEN, "O1" ORANGE-ONE) or "J" for a
joker. A turn is then played through its small decisions (pick up, put down, end, take back),
chosen by what they do, and the test asserts what the game offers.
"""
from __future__ import annotations

import random

import pytest

from recycle.engine.state import DONE
from recycle.run.batch import BatchSpec, run_batch
from recycle.run.scenario import Scenario
from support import REPO

GAME = REPO / "games" / "tile_rummy.gdl"
COLOURS = {"R": "RED", "B": "BLUE", "O": "ORANGE", "K": "BLACK"}
NUMBERS = ["ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN",
           "ELEVEN", "TWELVE", "THIRTEEN"]


def attrs(tile: str) -> dict:
    if tile == "J":
        return {"COLOR": "JOKER", "NUMBER": "JOKER"}
    return {"COLOR": COLOURS[tile[0]], "NUMBER": NUMBERS[int(tile[1:]) - 1]}


def name(sc: Scenario, card: int) -> str:
    a = sc.st.catt[card]
    if a["NUMBER"] == "JOKER":
        return "J"
    letter = {v: k for k, v in COLOURS.items()}[a["COLOR"]]
    return f"{letter}{NUMBERS.index(a['NUMBER']) + 1}"


class Pos:
    """A dealt game rearranged by hand, player 0 to move."""

    def __init__(self, racks: dict, table: list | None = None, opened=(), pool: bool = True, **params):
        self.sc = Scenario.open(GAME, params or None, seed=1, fresh=False)
        self.prog, self.st = self.sc.prog, self.sc.st
        for p in range(self.prog.n_players):
            self.sc.move_all(p, "iloc", "RACK", to=("game", "iloc", "POOL", 0))
        for p, tiles in racks.items():
            for t in tiles:
                self.sc.place(self.from_pool(t), p, "iloc", "RACK")
        for i, meld in enumerate(table or [], start=1):
            for t in meld:
                self.sc.place(self.from_pool(t), "game", "vloc", "MELD", i)
        for p in opened:
            self.sc.set(p, "sto", "OPENED", 1)
        if not pool:
            self.sc.move_all("game", "iloc", "POOL")

    def from_pool(self, tile: str) -> int:
        pool = self.sc.contents("game", "iloc", "POOL")
        return next(c for c in self.sc.cards(**attrs(tile)) if c in pool)

    # ---------------------------------------------------------------- reading the position

    def rack(self, p: int = 0) -> list[str]:
        return sorted(name(self.sc, c) for c in self.sc.contents(p, "iloc", "RACK"))

    def table(self) -> list[list[str]]:
        melds = (self.sc.contents("game", "vloc", "MELD", i) for i in range(1, 51))
        return sorted(sorted(name(self.sc, c) for c in m) for m in melds if m)

    def texts(self) -> list[str]:
        return [" | ".join(d) for d in self.sc.describe()]

    def find(self, *words: str) -> int | None:
        """The first option whose text holds every word (two copies of a tile: either one)."""
        found = [i for i, t in enumerate(self.texts()) if all(w in t for w in words)]
        return found[0] if found else None

    # ---------------------------------------------------------------- playing

    def choose(self, *words: str) -> None:
        i = self.find(*words)
        assert i is not None, (words, self.texts())
        self.prog.apply(self.st, i)

    def pick(self, tile: str) -> None:
        a = attrs(tile)
        self.choose(f"move {a['COLOR']}-{a['NUMBER']} ", "-> table vloc HELD")

    def put(self, meld: int) -> None:
        self.choose(f"-> table vloc MELD {meld} ")

    def play(self, tile: str, meld: int) -> None:
        self.pick(tile)
        self.put(meld)

    def can_end(self) -> bool:
        return self.find("STEP = DONE") is not None

    def end(self) -> None:
        self.choose("STEP = DONE")

    def take_back(self) -> None:
        i = self.find("STEP = DRAWN")
        self.prog.apply(self.st, i if i is not None else self.find("STEP = PASSED"))

    def to_move(self) -> int:
        return self.prog.chooser(self.st)


def meld_verdict(tiles: list[str]) -> bool:
    """Player 0 (opened) lays these tiles as one new meld: may the turn end?"""
    pos = Pos({0: [*tiles, "K1"], 1: ["K2"]}, opened=(0,))
    for t in tiles:
        pos.play(t, 1)
    return pos.can_end()


# ====================================================================== the tiles and the deal


def test_106_tiles_and_14_each():
    pos = Pos({})
    cards = pos.st.catt
    assert len(cards) == 106
    assert sum(1 for a in cards if a["NUMBER"] == "JOKER") == 2
    assert all(len(pos.sc.cards(**attrs(c + str(n)))) == 2 for c in COLOURS for n in range(1, 14))
    sc = Scenario.open(GAME, seed=4, fresh=False)
    assert [len(sc.contents(p, "iloc", "RACK")) for p in (0, 1)] == [14, 14]
    assert len(sc.contents("game", "iloc", "POOL")) == 78


def test_four_players():
    sc = Scenario.open(GAME, {"PLAYERS": 4}, seed=4, fresh=False)
    assert sc.prog.n_players == 4
    assert [len(sc.contents(p, "iloc", "RACK")) for p in range(4)] == [14] * 4
    assert len(sc.contents("game", "iloc", "POOL")) == 106 - 56


# ====================================================================== melds


@pytest.mark.parametrize("tiles,valid", [
    (["R5", "B5", "O5"], True),                 # group of three
    (["R5", "B5", "O5", "K5"], True),           # group of four
    (["R5", "B5", "O5", "K5", "J"], False),     # a group has at most four tiles
    (["R5", "R5", "B5"], False),                # colours of a group all different
    (["R5", "B5"], False),                      # too short
    (["R11", "R12", "R13"], True),              # run
    (["R12", "R13", "R1"], False),              # no wrap
    (["R1", "R2", "R3", "R4"], True),
    (["R3", "J", "R5"], True),                  # a joker fills a gap
    (["J", "J", "R7"], True),                   # two jokers
    (["R2", "B3", "R4"], False),                # a run is of one colour
    (["R2", "R4", "R6"], False),                # consecutive numbers
])
def test_melds(tiles, valid):
    assert meld_verdict(tiles) is valid


# ====================================================================== the initial meld


@pytest.mark.parametrize("tiles,enough", [
    ([["R10", "R11", "R12"]], True),                       # 33
    ([["R7", "R8", "R9"]], False),                         # 24
    ([["R7", "R8", "R9"], ["B1", "B2", "B3"]], True),      # 24 + 6 = 30
    ([["O10", "B10", "K10"]], True),                       # 30
    ([["O9", "B9", "K9"]], False),                         # 27
    ([["J", "R12", "R13"]], True),                         # the joker is the 11: 36
    ([["R1", "R2", "J"]], False),                          # the joker is the 3: 6
    ([["R8", "R9", "J"]], False),                          # the joker is the 10: 27
    ([["R12", "R13", "J"]], True),                         # the joker is the 11: 36
])
def test_initial_meld_needs_30(tiles, enough):
    pos = Pos({0: [t for m in tiles for t in m] + ["K1"], 1: ["K2"]})
    for i, meld in enumerate(tiles, start=1):
        for t in meld:
            pos.play(t, i)
    assert pos.can_end() is enough


def test_initial_meld_uses_own_tiles_only():
    pos = Pos({0: ["R10", "R11", "R12", "B13"], 1: ["K2"]}, table=[["K11", "K12", "K13"]])
    # no table tile may be picked up, and a rack tile may not join the table's meld
    assert not any("MELD 1 -> table vloc HELD" in t for t in pos.texts())
    pos.pick("B13")
    assert pos.find("-> table vloc MELD 1 ") is None
    pos.put(2)
    assert not pos.can_end()  # a lone tile: not a meld, and worth 13
    for t in ("R10", "R11", "R12"):
        pos.play(t, 3)
    assert not pos.can_end()  # B13 alone on the table is still invalid


def test_opening_is_remembered():
    pos = Pos({0: ["R10", "R11", "R12", "K1"], 1: ["K2", "K3"]})
    for t in ("R10", "R11", "R12"):
        pos.play(t, 1)
    pos.end()
    assert pos.sc.get(0, "sto", "OPENED") == 1 and pos.sc.get(1, "sto", "OPENED") == 0
    assert pos.table() == [["R10", "R11", "R12"]] and pos.rack(0) == ["K1"]
    assert pos.to_move() == 1


# ====================================================================== rearranging the table


def test_move_a_tile_between_melds():
    # R8 fits nowhere by itself; moving R7 from the group to the run makes room for it
    table = [["R7", "B7", "O7", "K7"], ["R4", "R5", "R6"]]
    pos = Pos({0: ["R8", "K1"], 1: ["K2"]}, table=table, opened=(0,))
    pos.play("R8", 2)
    assert not pos.can_end()
    pos.pick("R7")
    pos.put(2)
    assert pos.can_end()
    pos.end()
    assert pos.table() == [["B7", "K7", "O7"], ["R4", "R5", "R6", "R7", "R8"]]


def test_split_a_run_to_fit_a_tile():
    # R4 R5 R6 R7 R8 R9 + a second R6: split into R4 R5 R6 and R6 R7 R8 R9
    pos = Pos({0: ["R6", "K1"], 1: ["K2"]}, table=[["R4", "R5", "R6", "R7", "R8", "R9"]], opened=(0,))
    pos.pick("R6")
    pos.put(2)
    for t in ("R7", "R8", "R9"):
        pos.pick(t)
        pos.put(2)
    assert pos.can_end()
    pos.end()
    assert pos.table() == [["R4", "R5", "R6"], ["R6", "R7", "R8", "R9"]]


def test_replace_a_joker():
    pos = Pos({0: ["R6", "B9", "O9"], 1: ["K2"]}, table=[["R5", "J", "R7"]], opened=(0,))
    pos.play("R6", 1)
    assert pos.can_end()  # R5 R6 R7 and the joker as R4 or R8
    pos.pick("J")
    pos.put(2)
    pos.play("B9", 2)
    pos.play("O9", 2)
    assert pos.can_end()
    pos.end()
    assert pos.table() == [["B9", "J", "O9"], ["R5", "R6", "R7"]]


def test_a_rack_tile_must_be_played():
    pos = Pos({0: ["K1"], 1: ["K2"]}, table=[["R4", "R5", "R6", "R7"], ["B8", "O8", "K8"]], opened=(0,))
    pos.pick("R7")
    pos.put(1)  # back where it was: the table is valid, but nothing came from the rack
    assert not pos.can_end()


def test_take_back_restores_and_draws():
    table = [["R7", "B7", "O7", "K7"], ["R4", "R5", "R6"]]
    pos = Pos({0: ["R9", "K1"], 1: ["K2"]}, table=table, opened=(0,))
    pool = len(pos.sc.contents("game", "iloc", "POOL"))
    pos.pick("R7")
    pos.put(2)
    pos.play("R9", 1)
    pos.take_back()
    assert pos.table() == [["B7", "K7", "O7", "R7"], ["R4", "R5", "R6"]]
    assert len(pos.rack(0)) == 3 and {"R9", "K1"} <= set(pos.rack(0))
    assert len(pos.sc.contents("game", "iloc", "POOL")) == pool - 1
    assert pos.to_move() == 1


def test_placements_per_turn_are_bounded():
    pos = Pos({0: ["R1", "K1"], 1: ["K2"]}, table=[["R4", "R5", "R6"]], opened=(0,), MOVES=2)
    pos.pick("R6")
    pos.put(2)
    pos.pick("R6")
    pos.put(1)
    assert all("HELD" not in t for t in pos.texts())  # no more pick-ups, only take back
    assert len(pos.texts()) == 1


# ====================================================================== end of the game and scores


def test_going_out_wins_the_others_racks():
    pos = Pos({0: ["R10", "R11", "R12"], 1: ["J", "K5", "B13"]})
    for t in ("R10", "R11", "R12"):
        pos.play(t, 1)
    pos.end()
    assert pos.st.status == DONE  # the game is over as soon as a rack is empty
    out = pos.sc.outcome()
    assert out.scores == [48, -48] and out.winners == [0]


def test_empty_pool_passes_end_the_game():
    pos = Pos({0: ["K1"], 1: ["J", "K2"]}, pool=False)
    assert pos.find("STEP = DRAWN") is None
    pos.take_back()  # a pass
    assert pos.sc.get("game", "sto", "PASSES") == 1 and pos.to_move() == 1
    pos.take_back()
    assert pos.sc.get("game", "sto", "PASSES") == 2
    out = pos.sc.outcome()
    assert out.scores == [-1, -32] and out.winners == [0]


def test_a_play_resets_the_passes():
    pos = Pos({0: ["K1"], 1: ["K2", "K3", "K4", "K5", "K6"]}, table=[["R1", "R2", "R3"]], opened=(1,), pool=False)
    pos.take_back()
    pos.play("K2", 2)
    pos.play("K3", 2)
    pos.play("K4", 2)
    pos.end()
    assert pos.sc.get("game", "sto", "PASSES") == 0 and pos.to_move() == 0


# ====================================================================== the random player


POSITIONS = [  # (racks, table, whether 60 random walks must find the legal play: only when it is two
# steps away; deeper plays are offered step by step, as the tests above show, but found by chance)
    ({0: ["R8", "K1"], 1: ["K2"]}, [["R7", "B7", "O7", "K7"], ["R4", "R5", "R6"]], False),
    ({0: ["R6", "B9", "O9"], 1: ["K2"]}, [["R5", "J", "R7"]], False),
    ({0: ["R3", "K1"], 1: ["K2"]}, [["R4", "R5", "R6"]], True),
    ({0: ["K9", "K1"], 1: ["K2"]}, [["R9", "B9", "O9"], ["R10", "B10", "O10"]], False),
]


@pytest.mark.parametrize("racks,table,found", POSITIONS)
def test_random_turns_always_end_legally(racks, table, found):
    """Random walks through a turn: every decision has options, every ended turn is legal (a
    turn can always end, by a legal play or by taking back and drawing), and where a legal play
    lies a few steps away the random player finds it."""
    ends = 0
    for seed in range(60):
        pos = Pos(racks, table=table, opened=(0,))
        rng = random.Random(seed)
        while pos.to_move() == 0 and pos.sc.get("game", "str", "STEP") == "GO":
            opts = pos.sc.options()
            assert opts
            i = rng.randrange(len(opts))
            ended = "STEP = DONE" in pos.texts()[i]
            pos.prog.apply(pos.st, i)
            if ended:
                ends += 1
                assert all(len(m) >= 3 for m in pos.table())
                assert len(pos.rack(0)) < len(racks[0])
                break
    assert ends > 0 or not found


def test_random_games_end_normally():
    spec = BatchSpec(str(GAME), {}, ("R", "R"), 2024)
    records = run_batch(spec, 1000, jobs=2)
    bad = [(r.run, r.end_reason, r.error) for r in records if r.end_reason != "normal" or r.error]
    assert bad == []


def test_four_players_must_all_pass():
    pos = Pos({0: ["K1"], 1: ["K2"], 2: ["K3"], 3: ["K4"]}, pool=False, PLAYERS=4)
    for p in range(3):
        assert pos.to_move() == p
        pos.take_back()
    assert pos.sc.get("game", "sto", "PASSES") == 3 and pos.st.status != DONE
    pos.take_back()
    assert pos.st.status == DONE
    assert pos.sc.outcome().scores == [-1, -2, -3, -4]


@pytest.mark.parametrize("tiles,enough", [
    (["J", "J", "R10"], True),    # a group of TENs: 30
    (["J", "J", "R9"], False),    # a group of NINEs: 27 (as a run 9 10 11 it would be 30)
])
def test_a_meld_that_is_group_and_run_counts_as_a_group(tiles, enough):
    pos = Pos({0: [*tiles, "K1"], 1: ["K2"]})
    for t in tiles:
        pos.play(t, 1)
    assert pos.can_end() is enough
