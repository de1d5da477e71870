"""Rummykruss (games/rummykruss*.gdl): the test vectors of seed-games.md §2.11, judged by the game files.

Every verdict comes from the game file itself: a position is arranged by hand (racks, board,
the cells a player may use) and the game's own decision is rebuilt (`Scenario`); an attempt is
legal exactly when one of the options of that decision places those tiles on those cells (with
those designations). Blocking every cell the attempt does not use keeps the enumeration small
and changes no verdict: blocked cells count as empty, like cells nobody uses.

Tile shorthand as in seed-games.md §0: R3 = RED THREE, B12 = BLUE TWELVE, W = a wild tile,
W=K5 = a wild designated BLACK FIVE.
"""
from __future__ import annotations

import functools
from pathlib import Path

import pytest

from recycle.compiler import load_program
from recycle.engine.play import play_game
from recycle.engine.state import DONE, MV, SET, WAITING
from recycle.players.random_player import RandomPlayer
from recycle.run.scenario import Scenario
from support import GAMES

BASE = GAMES / "rummykruss.gdl"
VARIANTS = ["adjacency", "turn_scoring", "rearrange", "strict", "colorless", "open_draft", "turn_cap"]
FILES = [BASE] + [GAMES / f"rummykruss_{v}.gdl" for v in VARIANTS]

NUMBER = ["ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN", "ELEVEN", "TWELVE",
          "THIRTEEN"]
VALUE = {n: i for i, n in enumerate(NUMBER, 1)}
COLOR = {"R": "RED", "B": "BLUE", "Y": "YELLOW", "K": "BLACK"}
LETTER = {v: k for k, v in COLOR.items()}

RANDOM_GAMES = 8  # seeded random games per file (about 0.3 s each)
PROGRAMS: dict = {}


def program(path: Path, params: dict):
    key = (str(path), tuple(sorted(params.items())))
    if key not in PROGRAMS:
        PROGRAMS[key] = load_program(path, params)
    return PROGRAMS[key]


class Position:
    """A Rummykruss game with the position arranged by hand, P1 to move, judged by the game's rules.

    The game is loaded with one tile per rack and a single free cell (parameters RACK and
    BLOCKED), so that its first decision is small; then every tile goes back to the pool and
    every cell is unblocked. Tests then give tiles to racks and allow cells before each turn.
    """

    def __init__(self, path: Path = BASE, **params):
        board = params.get("BOARD", 15)
        params = {"RACK": 1, "BLOCKED": board * board - 1, **params}
        self.prog = program(path, params)
        self.sc = Scenario(self.prog, self.prog.new_game(1))
        self.st = self.sc.st
        self.grid = self.prog.board_ids[(0, 0, "GRID")]
        self.n = board
        for p in (0, 1):
            self.sc.move_all(p, "iloc", "RACK", to=("game", "iloc", "POOL", 0))
        self.allow([divmod(i, board) for i in range(board * board)])

    def clone(self) -> Position:
        c = Position.__new__(Position)
        c.__dict__.update(self.__dict__)
        c.sc = Scenario(self.prog, self.st.clone())
        c.sc.home = self.sc.home
        c.st = c.sc.st
        return c

    # ---------------------------------------------------------------- tiles, racks, cells

    def tile(self, code: str) -> int:
        """A natural tile by shorthand, or (W) a wild tile that is not on the board yet."""
        if code == "W":
            return next(c for c in self.sc.cards(NUMBER="WILD") if self.st.catt[c]["NUMBER"] == "WILD"
                        and self.st.where[c] not in self.grid.pids)
        return self.sc.card(COLOR=COLOR[code[0]], NUMBER=NUMBER[int(code[1:]) - 1])

    def code(self, c: int) -> str:
        """The shorthand of a tile as it reads now (a wild on the board shows its designation)."""
        a = self.st.catt[c]
        if a["NUMBER"] == "WILD":
            return "W"
        s = LETTER[a["COLOR"]] + str(VALUE[a["NUMBER"]])
        return "W=" + s if self.prog.value(self.st, ("C", c), "sto", "WILD") else s

    def give(self, player: int, *codes: str) -> None:
        for code in codes:
            self.sc.place(self.tile(code), player, "iloc", "RACK")

    def rack(self, player: int) -> list:
        return sorted(self.code(c) for c in self.sc.contents(player, "iloc", "RACK"))

    def empty_pool(self) -> None:
        self.sc.move_all("game", "iloc", "POOL", to=("game", "hloc", "BOX", 0))

    def cell(self, pid: int) -> tuple:
        return divmod(self.grid.pids.index(pid), self.n)

    def allow(self, cells) -> None:
        """Block every cell but these (cells with tiles keep their tiles)."""
        keep = {r * self.n + c for r, c in cells}
        for i in range(self.n * self.n):
            self.sc.set(("game", "vloc", "GRID", i), "sto", "BLOCKED", 0 if i in keep else 1)

    def board(self) -> dict:
        return {self.cell(pid): self.code(self.st.piles[pid][-1]) for pid in self.grid.pids
                if pid < len(self.st.piles) and self.st.piles[pid]}

    def mem(self, name: str) -> list:
        return sorted(self.code(c) for c in self.sc.contents("game", "mem", name))

    def pin(self, *codes: str) -> None:
        """Rearrange variant: these board tiles have used their two moves this turn (fewer paths)."""
        for code in codes:
            self.sc.set(("card", self.tile(code)), "sto", "MOVES", 2)

    def forget(self, name: str) -> None:
        """Empty a memory pile of the game (to show which restriction made an attempt illegal)."""
        self.st.piles[self.sc.pile("game", "mem", name)].clear()

    # ---------------------------------------------------------------- the decision

    def options(self) -> list:
        """The options of the pending turn: "DRAW", or a frozenset of (tile, cell) that end on new cells."""
        out = []
        grid = set(self.grid.pids)
        for o in self.sc.options():
            placed, named, drew = {}, {}, False
            for op in o.ops:
                if op[0] == MV and op[4] in grid:
                    placed[op[1]] = self.cell(op[4])
                elif op[0] == MV and self.prog.loc_json(op[2])[2] == "POOL":
                    drew = True
                elif op[0] == SET:
                    owner, kind, name = self.prog.slot_key[op[1]]
                    if isinstance(owner, tuple) and owner[0] == "C" and kind == "str":
                        named.setdefault(owner[1], {})[name] = op[3]
            if drew:
                out.append("DRAW")
                continue
            items = set()
            for c, rc in placed.items():
                d = named.get(c)
                items.add(("W=" + LETTER[d["COLOR"]] + str(VALUE[d["NUMBER"]]) if d else self.code(c), rc))
            out.append(frozenset(items))
        return out

    def find(self, *attempt, unique: bool = True) -> int | None:
        """The index of the option that ends with exactly these (tile, (row, col)) on new cells, or None.

        Every placement is one option; with `unique=False` (rearranging, where moves in another
        order reach the same board) the first of them.
        """
        want = frozenset(attempt)
        found = [i for i, o in enumerate(self.options()) if o == want]
        assert len(found) <= 1 or not unique, f"{attempt} is {len(found)} options"
        return found[0] if found else None

    def legal(self, *attempt, unique: bool = True) -> bool:
        return self.find(*attempt, unique=unique) is not None

    def play(self, *attempt, unique: bool = True) -> None:
        i = self.find(*attempt, unique=unique)
        assert i is not None, f"{attempt} is not legal here"
        self.prog.apply(self.st, i)

    def draw(self) -> None:
        self.prog.apply(self.st, self.options().index("DRAW"))

    def score(self, p: int) -> int:
        return self.prog.value(self.st, p, "sto", "SCORE")

    def to_move(self):
        return self.prog.chooser(self.st)

    def keys(self) -> list:
        """The tie-break keys of the game's scoring, per player: (intersection tiles placed, -rack size)."""
        st = self.st.clone()
        self.prog.finish(st)
        return st.keys


def turn(pos: Position, player: int, *attempt) -> None:
    """Give the player the attempt's tiles, allow only its cells, and play the attempt."""
    assert pos.to_move() == player
    pos.give(player, *[t if not t.startswith("W=") else "W" for t, _ in attempt])
    pos.allow([rc for _, rc in attempt])
    pos.play(*attempt)


def try_alone(pos: Position, player: int, *attempt) -> bool:
    """On a copy: is this attempt legal for the player to move, with only its tiles and cells?"""
    c = pos.clone()
    c.give(player, *[t if not t.startswith("W=") else "W" for t, _ in attempt])
    c.allow([rc for _, rc in attempt])
    return c.legal(*attempt)


# ====================================================================== RK-T1


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_rk_t1_counts(seed):
    prog = load_program(BASE)
    st = prog.new_game(seed, sampling=[True, True])  # the random player's view: the first turn is sampled
    catt = [st.catt[c] for c in range(len(st.where))]
    assert len(catt) == 54
    assert sum(1 for a in catt if a["NUMBER"] == "WILD") == 2
    assert len({(a["COLOR"], a["NUMBER"]) for a in catt if a["NUMBER"] != "WILD"}) == 52
    grid = prog.board_ids[(0, 0, "GRID")]
    assert len(grid.pids) == 225
    blocked = [pid for pid in grid.pids if prog.value(st, ("L", pid), "sto", "BLOCKED")]
    assert len(blocked) == 10 and len(grid.pids) - len(blocked) == 215
    assert [len(prog.pile(st, p, "iloc", "RACK")) for p in (0, 1)] == [14, 14]
    assert len(prog.pile(st, "game", "iloc", "POOL")) == 26
    assert prog.pile(st, "game", "hloc", "BOX") == [] and prog.chooser(st) == 0


def test_rk_t1_blocked_cells_are_random():
    prog = load_program(BASE)
    grid = prog.board_ids[(0, 0, "GRID")]
    sets = set()
    for seed in range(6):
        st = prog.new_game(seed, sampling=[True, True])
        sets.add(frozenset(pid for pid in grid.pids if prog.value(st, ("L", pid), "sto", "BLOCKED")))
    assert len(sets) == 6


# ====================================================================== RK-T2

RK_T2 = [
    ("R3 R4 R5", True),  # ASC
    ("R5 R4 R3", True),  # DSC
    ("R3 B3 Y3", True),  # REP
    ("R3 B3 Y3 K3", True),  # REP
    ("R3 R4 R5 R6", True),  # ASC
    ("R3 R4", False),  # segment of 2
    ("R3 B4 R5", False),  # colour breaks ASC
    ("R12 R13 R1", False),  # no wrap
    ("R3 W=R3 B3", False),  # repeated colour
    ("R3 R4 R5 · Y7", True),  # valid segment plus an alone tile
    ("R3 R4 R5 R6 Y7", False),  # filling the gap merges everything into one invalid segment
]


def row_attempt(row: str, r: int = 2):
    return [(t, (r, c)) for c, t in enumerate(row.split()) if t != "·"]


def row_verdict(path: Path, row: str, allow_gap: bool = False, board: int = 5) -> bool:
    """Place one row on the empty board (row 2), P1's first turn.

    A 5x5 board (parameter BOARD) is enough for a row of five and makes the cell scans of the
    enumeration nine times shorter than on 15x15; test_rk_t2_on_the_full_board checks that the
    size does not matter.
    """
    pos = Position(path, BOARD=board)
    attempt = row_attempt(row)
    pos.give(0, *[t if not t.startswith("W=") else "W" for t, _ in attempt])
    cells = [rc for _, rc in attempt]
    if allow_gap:
        cells = [(2, c) for c in range(len(row.split()))]
    pos.allow(cells)
    return pos.legal(*attempt)


@pytest.mark.parametrize("row,verdict", RK_T2)
def test_rk_t2_row_validity(row, verdict):
    assert row_verdict(BASE, row) is verdict


@pytest.mark.parametrize("row,verdict", [("R5 R4 R3", True), ("R3 R4", False), ("R3 R4 R5 · Y7", True)])
def test_rk_t2_on_the_full_board(row, verdict):
    assert row_verdict(BASE, row, board=15) is verdict


def test_rk_t2_an_empty_gap_is_like_a_blocked_one():
    assert row_verdict(BASE, "R3 R4 R5 · Y7", allow_gap=True) is True


def test_rk_t2_strict():
    path = GAMES / "rummykruss_strict.gdl"
    assert row_verdict(path, "R3 R4 R5 · Y7") is False
    assert row_verdict(path, "R3 R4 R5") is True


@pytest.mark.parametrize("row", ["R3 B4 Y5", "R3 W=R3 B3"])
def test_rk_t2_colorless(row):
    path = GAMES / "rummykruss_colorless.gdl"
    assert row_verdict(path, row) is True
    assert row_verdict(BASE, row) is False


# ====================================================================== RK-T3

T1 = (("R3", (7, 6)), ("R4", (7, 7)), ("R5", (7, 8)))
T2 = (("R6", (7, 9)),)
T3 = (("B4", (6, 7)), ("Y4", (8, 7)))
T4 = (("B5", (6, 8)), ("B6", (6, 9)), ("Y5", (8, 8)), ("Y6", (8, 9)))


@functools.cache
def _after(path: Path, k: int) -> Position:
    pos = _after(path, k - 1).clone() if k else Position(path)
    if k == 0:
        pos.give(0, "K12")  # P1 keeps K12 throughout, so that the racks are never both empty
    else:
        turn(pos, (k - 1) % 2, *(T1, T2, T3, T4)[k - 1])
    return pos


def after_turns(path: Path, k: int) -> Position:
    """The RK-T3 scenario after its first k turns (a copy)."""
    return _after(path, k).clone()


def test_rk_t3_turns_1_and_2():
    pos = after_turns(BASE, 0)
    turn(pos, 0, *T1)
    assert pos.score(0) == 6  # three touching tiles: +6
    assert pos.mem("F") == ["R3", "R4", "R5"] and pos.mem("ANCHORS") == []  # F for P2 = {3, 4, 5}
    # turn 2: B4 (6,7) + Y4 (8,7) is illegal: 4 is in F
    attempt = (("B4", (6, 7)), ("Y4", (8, 7)))
    assert not try_alone(pos, 1, *attempt)
    free = pos.clone()
    free.forget("F")
    assert try_alone(free, 1, *attempt)  # the number restriction is the only reason
    # R6 (7,9) is legal, +2, anchors {R5}
    turn(pos, 1, *T2)
    assert pos.score(1) == 2 and pos.mem("ANCHORS") == ["R5"] and pos.mem("F") == ["R6"]


def test_rk_t3_turn_3():
    pos = after_turns(BASE, 2)
    # B5 (6,8) + Y5 (8,8): illegal, its anchors {R5} meet P2's anchors {R5} ...
    attempt = (("B5", (6, 8)), ("Y5", (8, 8)))
    assert not try_alone(pos, 0, *attempt)
    free = pos.clone()
    free.forget("ANCHORS")
    assert try_alone(free, 0, *attempt)  # ... though column 8 = B5 R5 Y5 is legal and 5 is not in F = {6}
    assert try_alone(pos, 0, ("R7", (7, 10)))  # would be legal (not played)
    c = pos.clone()
    turn(c, 0, ("R7", (7, 10)))
    assert c.score(0) == 6 + 2
    turn(pos, 0, *T3)
    assert pos.score(0) == 6 + 4 and pos.mem("ANCHORS") == ["R4"]
    assert pos.keys()[0][0] == 1  # R4 is the first intersection tile


def test_rk_t3_turn_4():
    pos = after_turns(BASE, 3)
    assert not try_alone(pos, 1, ("B5", (6, 8)))  # row 6 = B4 B5, a segment of 2
    assert not try_alone(pos, 1, ("B5", (6, 8)), ("B6", (6, 9)))  # column 8 = B5 R5, a segment of 2
    turn(pos, 1, *T4)
    assert pos.score(1) == 2 + 8
    assert pos.mem("ANCHORS") == ["B4", "R5", "R6", "Y4"] and pos.mem("F") == ["B5", "B6", "Y5", "Y6"]


def test_rk_t3_board_scores_and_tie_break_after_turn_4():
    pos = after_turns(BASE, 4)
    assert pos.board() == {(6, 7): "B4", (6, 8): "B5", (6, 9): "B6",
                           (7, 6): "R3", (7, 7): "R4", (7, 8): "R5", (7, 9): "R6",
                           (8, 7): "Y4", (8, 8): "Y5", (8, 9): "Y6"}
    assert [pos.score(0), pos.score(1)] == [10, 10]
    keys = pos.keys()
    assert [keys[0][0], keys[1][0]] == [4, 5]  # intersection tiles placed: P1 R4 R5 B4 Y4, P2 R6 B5 B6 Y5 Y6
    out = pos.sc.outcome()
    assert out.scores == [10, 10] and out.ranks == [2, 1] and out.winners == [1]  # P2 wins on tie-break 2


@pytest.mark.parametrize("attempt,legal", [
    ((("R7", (7, 10)),), False),  # anchor R6 was in P2's anchors
    ((("R2", (7, 5)),), True),
    ((("K5", (5, 8)),), False),  # number restriction: 5 is in F = {5, 6}
    ((("W=K5", (5, 8)),), True),  # wilds are exempt; column 8 = K5 B5 R5 Y5, a REP of 4
    ((("W=Y7", (8, 10)),), True),  # row 8 = Y4 ... Y7
    ((("B7", (6, 10)),), True),
])
def test_rk_t3_turn_5(attempt, legal):
    pos = after_turns(BASE, 4)
    assert try_alone(pos, 0, *attempt) is legal
    if legal:
        c = pos.clone()
        turn(c, 0, *attempt)
        assert c.score(0) == 10 + 2


# ====================================================================== RK-T4


def test_rk_t4_turn_scoring():
    pos = after_turns(GAMES / "rummykruss_turn_scoring.gdl", 0)
    scores = []
    for i, attempt in enumerate((T1, T2, T3, T4)):
        before = pos.score(i % 2)
        turn(pos, i % 2, *attempt)
        scores.append(pos.score(i % 2) - before)
    assert scores == [1, 1, 2, 2]
    assert [pos.score(0), pos.score(1)] == [3, 3]


def test_rk_t4_adjacency():
    path = GAMES / "rummykruss_adjacency.gdl"
    pos = after_turns(path, 1)
    assert not try_alone(pos, 1, *T2)  # R6 (7,9) touches R5, which P1 has just placed
    assert try_alone(pos, 1, ("R6", (3, 3)))
    assert try_alone(after_turns(BASE, 1), 1, *T2)


# ====================================================================== RK-T5


def test_rk_t5_draw_scores_minus_one():
    pos = Position()
    pos.give(0, "R3")
    pos.give(1, "K13")
    pool = len(pos.sc.contents("game", "iloc", "POOL"))
    pos.draw()
    assert pos.score(0) == -1 and len(pos.rack(0)) == 2 and len(pos.sc.contents("game", "iloc", "POOL")) == pool - 1
    assert pos.to_move() == 1


def test_rk_t5_no_draw_from_an_empty_pool():
    pos = Position()
    pos.give(0, "R3")
    pos.give(1, "K13")
    pos.empty_pool()
    pos.allow([(7, 7)])
    assert pos.options() == [frozenset({("R3", (7, 7))})]


def test_rk_t5_no_pass_while_the_pool_has_tiles():
    pos = Position()
    pos.give(0, "R3")
    pos.give(1, "K13")
    pos.allow([])  # nowhere to place: DRAW is the only option, there is no PASS
    assert pos.options() == ["DRAW"]
    pos.sc.place(pos.tile("R3"), "game", "hloc", "BOX")  # nothing in the rack either
    assert pos.options() == ["DRAW"]


def test_rk_t5_pass_then_pass_ends_the_game():
    pos = Position()
    pos.give(0, "R3")
    pos.give(1, "K13")
    pos.empty_pool()
    pos.allow([])
    assert pos.options() == []  # P1 passes, then P2 passes: the game is over, no decision taken
    assert pos.st.status == DONE and pos.st.decisions == 0
    assert [pos.score(0), pos.score(1)] == [0, 0]
    assert pos.prog.value(pos.st, "game", "sto", "PASSES") == 2


def test_rk_t5_one_pass_does_not_end_the_game():
    pos = Position()
    pos.give(1, "K13")  # P1 has nothing to place and cannot draw: PASS; P2 can place
    pos.empty_pool()
    pos.allow([(0, 0)])
    assert pos.options() == [frozenset({("K13", (0, 0))})]
    assert pos.st.status == WAITING and pos.to_move() == 1 and pos.st.decisions == 0
    assert pos.prog.value(pos.st, "game", "sto", "PASSES") == 1


# ====================================================================== §2.7 worked examples and bounds


def test_a_lone_tile_scores_one_and_an_extension_two():
    pos = after_turns(BASE, 1)  # R3 R4 R5 on row 7
    assert try_alone(pos, 1, ("B9", (2, 2)))
    c = pos.clone()
    turn(c, 1, ("B9", (2, 2)))
    assert c.score(1) == 1
    turn(pos, 1, *T2)  # R6 at the end of R3 R4 R5
    assert pos.score(1) == 2


def test_a_wild_keeps_its_designation_and_never_restricts():
    pos = after_turns(BASE, 4)
    turn(pos, 0, ("W=K5", (5, 8)))
    assert pos.board()[(5, 8)] == "W=K5" and pos.mem("F") == []  # a wild adds nothing to F
    assert try_alone(pos, 1, ("K6", (1, 1)))  # so P2 may place a FIVE or a SIX again ...
    assert try_alone(pos, 1, ("K1", (1, 1)))


def test_each_placement_is_one_option_and_maxtiles_bounds_them():
    # two tiles, two cells far apart: 2 x 2 single placements + 2 pairs, and DRAW
    pos = Position()
    pos.give(0, "R3", "B9")
    pos.give(1, "K13")
    pos.allow([(1, 1), (5, 5)])
    opts = pos.options()
    assert len(opts) == 1 + 4 + 2 and len(set(opts)) == len(opts)
    one = Position(MAXTILES=1)
    one.give(0, "R3", "B9")
    one.give(1, "K13")
    one.allow([(1, 1), (5, 5)])
    assert len(one.options()) == 1 + 4


def test_a_wild_is_designated_once_per_number_and_colour():
    pos = Position()
    pos.give(0, "W")
    pos.give(1, "K13")
    pos.allow([(4, 4)])
    opts = [o for o in pos.options() if o != "DRAW"]
    assert len(opts) == 13 * 4 and len(set(opts)) == 52


# ====================================================================== variants


def test_rearrange_moves_a_board_tile_to_make_a_run():
    path = GAMES / "rummykruss_rearrange.gdl"
    for game, legal in ((BASE, False), (path, True)):
        pos = Position(game)
        pos.give(0, "K12")
        turn(pos, 0, ("R3", (7, 6)), ("R5", (7, 9)))  # two alone tiles
        pos.give(1, "R4")
        pos.allow([(7, 7), (7, 8)])
        if legal:
            pos.pin("R3")  # only R5 may move
        # R3 R4 . R5: R5 moved next to R4 makes the run R3 R4 R5
        assert pos.legal(("R4", (7, 7)), ("R5", (7, 8)), unique=False) is legal
        assert not pos.legal(("R4", (7, 7)), unique=False) and not pos.legal(("R4", (7, 8)), unique=False)
        if legal:
            assert all(o == "DRAW" or any(t == "R4" for t, _ in o) for o in pos.options())  # a rack tile is a must
            pos.play(("R4", (7, 7)), ("R5", (7, 8)), unique=False)
            assert pos.score(1) == 2  # only the rack tile scores
            assert pos.mem("ANCHORS") == ["R3", "R5"] and pos.mem("F") == ["R4"]  # R5 moved, an anchor still
            assert pos.board() == {(7, 6): "R3", (7, 7): "R4", (7, 8): "R5"}
            r5 = pos.tile("R5")
            assert pos.prog.value(pos.st, ("C", r5), "ply", "PLACER") == 0  # a moved tile keeps its PLACER
            assert pos.prog.value(pos.st, ("C", r5), "sto", "MOVES") == 0  # moves count per turn


def test_rearrange_anchors_moved_or_not():
    pos = Position(GAMES / "rummykruss_rearrange.gdl")
    pos.give(0, "B12")
    turn(pos, 0, ("K9", (2, 2)))
    turn(pos, 1, ("K10", (2, 3)), ("K11", (2, 4)), ("K12", (2, 5)))
    assert pos.mem("ANCHORS") == ["K9"]
    # P1 moves K9 away (K10 K11 K12 stays a run) and builds a group around it on its new cell:
    # K9 is an anchor of the preceding turn, moved or not.
    pos.pin("K10", "K11", "K12")
    pos.give(0, "B9", "Y9")
    pos.allow([(9, 10), (10, 10), (11, 10)])
    attempt = (("K9", (10, 10)), ("B9", (9, 10)), ("Y9", (11, 10)))
    assert not pos.legal(*attempt, unique=False)
    free = pos.clone()
    free.forget("ANCHORS")
    assert free.legal(*attempt, unique=False)
    free.play(*attempt, unique=False)
    assert free.score(0) == 1 + 4 and free.mem("ANCHORS") == ["K9"]


def test_open_draft():
    prog = load_program(GAMES / "rummykruss_open_draft.gdl")
    r = play_game(prog, 5, [RandomPlayer(), RandomPlayer()])
    assert r.outcome == "completed"
    draft = r.decisions[:28]
    assert [d.chooser for d in draft] == [0, 1] * 14
    assert [d.branching for d in draft] == list(range(54, 26, -1))  # any one of the face-up tiles
    st = prog.new_game(5, sampling=[True, True])
    for _ in range(28):
        prog.apply(st, 0)
    assert [len(prog.pile(st, p, "iloc", "RACK")) for p in (0, 1)] == [14, 14]
    assert len(prog.pile(st, "game", "iloc", "POOL")) == 26 and prog.pile(st, "game", "vloc", "DRAFT") == []
    assert prog.chooser(st) == 0  # P1 moves first


def test_turn_cap_ends_after_20_turns():
    prog = load_program(GAMES / "rummykruss_turn_cap.gdl")
    for seed in range(3):
        st = prog.new_game(seed, sampling=[True, True])
        while st.status == WAITING:
            prog.apply(st, 0)
        assert st.status == DONE and prog.value(st, "game", "sto", "TURNS") == 20
        assert [len(prog.pile(st, p, "iloc", "RACK")) for p in (0, 1)] != [0, 0]


# ====================================================================== random play


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_random_games_end_normally(path):
    prog = load_program(path)
    for seed in range(RANDOM_GAMES):
        r = play_game(prog, seed, [RandomPlayer(), RandomPlayer()])
        assert r.outcome == "completed" and r.end_reason == "normal", (seed, r.error or r.limit)
