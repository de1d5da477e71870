"""Rummy² (seed-games.md §1): every test vector R2-T1 … R2-T8, judged by the game files themselves.

Positions are arranged by hand with `recycle.run.scenario.Scenario` and the game file's own rules
answer: its capture choice lists the legal turns, its scoring and tie-break keys rank the
collections, its end condition and win rules end the game. Nothing here re-implements a rule;
the Python side only lays out cards and reads back where they went.

A turn is read back from the state it produces (not from option texts): the cell the moving
card left, then the cells of the cards it captured, in the order they reached TAKEN.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from recycle.compiler import load_program
from recycle.engine.algorithms import derive
from recycle.engine.play import play_game
from recycle.engine.state import DONE, WAITING
from recycle.lang.library import info
from recycle.players.random_player import RandomPlayer
from recycle.run.scenario import Scenario
from support import GAMES

BASE = GAMES / "rummy_squared.gdl"
SOLITAIRE = GAMES / "rummy_squared_solitaire.gdl"
PIE = GAMES / "rummy_squared_pie.gdl"
DISRUPTOR = GAMES / "rummy_squared_disruptor.gdl"
DOUBLE = GAMES / "rummy_squared_double_capture.gdl"
FOUR = GAMES / "rummy_squared_four_in_a_row.gdl"
FILES = [BASE, SOLITAIRE, PIE, DISRUPTOR, DOUBLE, FOUR]

RANKS = dict(zip("A23456789", ("ACE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE"), strict=True))
SUITS = {"S": "SPADES", "H": "HEARTS", "D": "DIAMONDS", "C": "CLUBS"}
DECK = [r + s for s in "SHDC" for r in "A23456789"]  # the reference layout's order (R2-T4)
OUT = ("game", "hloc", "OUT", 0)


class Table:
    """A Rummy² game file at its first decision, re-arranged by hand for each position."""

    def __init__(self, path: Path, params: dict | None = None):
        self.sc = sc = Scenario.open(path, params)
        sc.run()  # the opening do block: point map and deal
        assert sc.st.status == WAITING
        for i in range(36):
            sc.move_all("game", "vloc", "GRID", i, to=OUT)
        self.empty = sc.st.clone()
        self.prog = sc.prog
        self.cells = [sc.pile("game", "vloc", "GRID", i) for i in range(36)]
        self.n = self.prog.n_players

    def card(self, text: str) -> int:
        return self.sc.card(RANK=RANKS[text[0]], SUIT=SUITS[text[1]])

    def text(self, card: int) -> str:
        att = self.sc.st.catt[card]
        return next(r for r, v in RANKS.items() if v == att["RANK"]) + next(
            s for s, v in SUITS.items() if v == att["SUIT"])

    def arrange(self, board: dict, taken: tuple = ()) -> Table:
        """board: {(row, col): "AS", …}; taken: one card string per player ("3S 4S …")."""
        self.sc.st = self.empty.clone()
        for (r, c), t in board.items():
            self.sc.place(self.card(t), "game", "vloc", "GRID", 6 * r + c)
        for p, cards in enumerate(taken):
            for t in cards.split():
                self.sc.place(self.card(t), p, "vloc", "TAKEN")
        return self

    def layout(self, rows: list[str]) -> Table:
        """A full or partial board from six strings of card texts, `..` for an empty cell."""
        board = {}
        for r, line in enumerate(rows):
            for c, t in enumerate(line.split()):
                if t != "..":
                    board[(r, c)] = t
        return self.arrange(board)

    # -------------------------------------------------------------- reading the game's answers

    def board(self, st=None) -> dict:
        st = st or self.sc.st
        return {i: st.piles[p][-1] for i, p in enumerate(self.cells) if st.piles[p]}

    def turns(self) -> list[tuple]:
        """Every option of the pending decision as a path of cells ((r, c), …): from, then the targets.

        An option that leaves the board as it is (the pie swap) is ("swap",)."""
        st, prog = self.sc.st, self.prog
        opts = self.sc.options()
        before = self.board()
        where = {card: i for i, card in before.items()}
        taken = self.sc.pile(st.chooser, "vloc", "TAKEN")
        paths = []
        for i in range(len(opts)):
            c = st.clone()
            prog.apply(c, i)
            gained = c.piles[taken][len(st.piles[taken]):]
            after = self.board(c)
            if after == before:  # the board did not change: the pie swap
                paths.append(("swap",))
                continue
            movers = [card for j, card in after.items() if where.get(card, j) != j]
            assert len(movers) == 1, f"option {i} moved {len(movers)} cards on the board"
            path = [where[movers[0]]] + [where[g] for g in gained]
            paths.append(tuple(divmod(j, 6) for j in path))
        return paths

    def play(self, *path) -> None:
        """Take the option whose turn is this path of cells."""
        turns = self.turns()
        self.prog.apply(self.sc.st, turns.index(tuple(path)))

    def scores(self) -> list:
        return self.sc.scores()

    def keys(self) -> list:
        return self.prog.keys_fn(self.sc.st)


@pytest.fixture(scope="module")
def base():
    return Table(BASE)


@pytest.fixture(scope="module")
def solo():
    return Table(BASE, {"PLAYERS": 1})


def reference_layout(t: Table) -> Table:
    return t.layout([" ".join(DECK[6 * r:6 * r + 6]) for r in range(6)])


def probe(tmp_path: Path, path: Path, expr: str) -> int:
    """An integer expression evaluated on the game file's own board, after its deal."""
    text = path.read_text("utf-8")
    cut = text.rindex("(scoring")
    probe_file = tmp_path / path.name
    probe_file.write_text(text[:cut] + f"(scoring max {expr}))\n", "utf-8")
    sc = Scenario.open(probe_file)
    sc.run()
    return sc.scores()[0]


# ------------------------------------------------------------------ R2-T1 geometry


def test_r2_t1_aligned_pairs_by_the_capture_rule(base):
    """Two cards of one suit capture each other iff their cells are aligned (nothing blocks)."""
    def aligned(a, b):
        turns = base.arrange({a: "AS", b: "2S"}).turns()
        assert sorted(turns) in ([], sorted([(a, b), (b, a)]))
        return bool(turns)

    assert aligned((0, 0), (5, 5))
    assert aligned((2, 3), (5, 0))
    assert not aligned((0, 0), (1, 2))
    assert not aligned((1, 4), (4, 2))


def test_r2_t1_reach_matrix_and_580_pairs(base):
    expected = [[15] * 6, [15, 17, 17, 17, 17, 15], [15, 17, 19, 19, 17, 15],
                [15, 17, 19, 19, 17, 15], [15, 17, 17, 17, 17, 15], [15] * 6]
    reach = [[0] * 6 for _ in range(6)]
    cells = [(r, c) for r in range(6) for c in range(6)]
    for i, a in enumerate(cells):
        for b in cells[i + 1:]:
            if base.arrange({a: "AS", b: "2S"}).turns():
                reach[a[0]][a[1]] += 1
                reach[b[0]][b[1]] += 1
    assert reach == expected
    assert sum(map(sum, reach)) == 580


def test_r2_t1_windows_of_four(tmp_path):
    """54 lines of four cells on the game's board: 18 in rows, 18 in columns, 9 per diagonal."""
    def count(dirs):
        return probe(tmp_path, FOUR, f"(sum (cells (game vloc GRID)) 'X (size (filter ({dirs}) 'D "
                                     f"(== (size (line 'X 'D 4)) 4))))")
    assert count("E") == 18
    assert count("S") == 18
    assert count("SE") == 9
    assert count("SW") == 9
    assert count("E, S, SE, SW") == 54


# ------------------------------------------------------------------ R2-T2 scoring

W46 = "3S 4S 5S 6S 7S 5H 6H 5C"
W44 = "AD 2D 3D 4D 5D AH AS 2C"
W54 = W46 + " 7H"


@pytest.mark.parametrize("cards, score", [(W46, 46), (W44, 44), (W54, 54), ("4H", 2), ("", 0),
                                          (" ".join(DECK), 468)])
def test_r2_t2_scores(base, solo, cards, score):
    assert base.arrange({}, ("", cards)).scores() == [0, score]
    assert solo.arrange({}, (cards,)).scores() == [score]


def test_r2_t2_w46_and_w44_side_by_side(base):
    assert base.arrange({}, (W46, W44)).scores() == [46, 44]


MISSING = {"A": 444, "9": 444, "2": 430, "8": 430, "3": 420, "7": 420, "4": 414, "6": 414, "5": 412}


@pytest.mark.parametrize("missing", DECK)
def test_r2_t2_full_deck_minus_one_card(solo, missing):
    cards = " ".join(c for c in DECK if c != missing)
    assert solo.arrange({}, (cards,)).scores() == [MISSING[missing[0]]]


def test_r2_t2_solitaire_file_scores_like_the_base():
    t = Table(SOLITAIRE)
    assert t.arrange({}, (W54,)).scores() == [54]
    assert t.arrange({}, (" ".join(DECK[1:]),)).scores() == [444]


# ------------------------------------------------------------------ R2-T3 tie-breaks


def ranking(t: Table, p1: str, p2: str):
    t.arrange({}, (p1, p2))
    return t.sc.outcome()


def test_r2_t3_runs_decide(base):
    x, y = "AS 2S 3S", "AH AD AC"
    assert base.arrange({}, (x, y)).scores() == [12, 12]
    assert ranking(base, x, y).winners == [0]  # X as P1 beats the second-mover rule
    assert ranking(base, y, x).winners == [1]


def test_r2_t3_sets_decide(base):
    x, y = "5S 5H 5D 5C AS 9H", "2S 2H 2D 7S 7H 7D"
    assert base.arrange({}, (x, y)).scores() == [24, 24]
    assert ranking(base, x, y).winners == [0]
    assert ranking(base, y, x).winners == [1]


def test_r2_t3_full_tie_goes_to_the_second_mover(base):
    out = ranking(base, "AS", "9H")
    assert out.scores == [2, 2] and out.winners == [1] and out.ranks == [2, 1]
    assert ranking(base, "9H", "AS").winners == [1]


def test_r2_t3_full_tie_after_a_pie_swap_goes_to_p1():
    t = Table(PIE)
    t.arrange({(0, 0): "AS", (0, 1): "2S", (5, 5): "9H", (4, 4): "8H"})
    t.play((0, 0), (0, 1))  # P1 takes 2S
    swaps = [i for i, path in enumerate(t.turns()) if path == ("swap",)]
    assert len(swaps) == 1
    before = t.board()
    t.prog.apply(t.sc.st, swaps[0])
    assert t.board() == before
    assert t.sc.contents(0, "vloc", "TAKEN") == [] and t.sc.contents(1, "vloc", "TAKEN") == [t.card("2S")]
    assert t.sc.st.chooser == 0  # P1 moves again
    # The same full tie as above, now with the swap made: P1 is the second mover.
    t.sc.move_all(1, "vloc", "TAKEN", to=OUT)
    t.sc.place(t.card("AS"), 0, "vloc", "TAKEN")
    t.sc.place(t.card("9H"), 1, "vloc", "TAKEN")
    out = t.sc.outcome()
    assert out.scores == [2, 2] and out.winners == [0]


def test_r2_t3_pie_swap_only_on_p2s_first_turn():
    t = Table(PIE)
    t.arrange({(0, 0): "AS", (0, 1): "2S", (0, 2): "3S", (0, 3): "4S"})
    assert ("swap",) not in t.turns()  # P1's first turn: captures only
    t.play((0, 0), (0, 1))
    assert t.turns().count(("swap",)) == 1  # P2's first turn: captures and the swap
    t.play((0, 2), (0, 3))
    assert ("swap",) not in t.turns()  # later turns: captures only


@pytest.mark.parametrize("x, y", [
    # runs [5,3,1,1] beat [5,2,2,2] (both score 56; the sets, [2,2,2,2,2] vs [3,2,…], favour Y)
    ("4S 5S 6S 3H 2D 2C 3C 4C 5C 6C", "AS 2S 4H 5H 6H 7H 8H 7D 8D 8C 9C"),
    # runs [5,3,1] beat [5,3] (both score 46; the sets, [2,1,…] vs [2,2,…], favour Y)
    ("5S 4D 5D 6D 7D 8D AC 2C 3C", "5H 6H 7H 8H 9H 4C 5C 6C"),
])
def test_r2_t3_run_comparator(base, x, y):
    base.arrange({}, (x, y))
    s = base.scores()
    assert s[0] == s[1]
    (rx, sx, _), (ry, sy, _) = base.keys()
    assert rx > ry and sx < sy
    assert ranking(base, x, y).winners == [0]  # despite sets and the second-mover rule


# ------------------------------------------------------------------ R2-T4 reference layout


def test_r2_t4_reference_layout(base):
    reference_layout(base)
    turns = base.turns()
    assert len(turns) == 244 == len(set(turns))
    board = {divmod(i, 6): base.text(c) for i, c in base.board().items()}
    by_suit = sum(board[s][1] == board[t][1] for s, t in turns)
    assert (by_suit, len(turns) - by_suit) == (208, 36)

    base.play((0, 0), (0, 1))
    after = {divmod(i, 6): base.text(c) for i, c in base.board().items()}
    assert (0, 0) not in after and after[(0, 1)] == "AS" and len(after) == 35
    assert base.sc.contents(0, "vloc", "TAKEN") == [base.card("2S")]
    assert base.scores() == [2, 0]
    assert base.sc.st.chooser == 1
    assert len(base.turns()) == 226


# ------------------------------------------------------------------ R2-T5 passing over cards


@pytest.mark.parametrize("which", ["base", "solitaire"])
def test_r2_t5_passing_over_cards(base, solo, which):
    t = {"base": base, "solitaire": solo}[which]
    t.arrange({(0, 0): "AS", (0, 2): "7D", (0, 4): "3S"})
    assert sorted(t.turns()) == [((0, 0), (0, 4)), ((0, 4), (0, 0))]
    t.play((0, 0), (0, 4))
    assert t.sc.st.status == DONE  # no capture left: the game is over
    if which == "solitaire":
        assert t.scores() == [2]
    else:
        assert t.scores() == [2, 0]


def test_r2_t5_in_the_solitaire_file():
    t = Table(SOLITAIRE)
    t.arrange({(0, 0): "AS", (0, 2): "7D", (0, 4): "3S"})
    assert sorted(t.turns()) == [((0, 0), (0, 4)), ((0, 4), (0, 0))]
    t.play((0, 0), (0, 4))
    assert t.sc.st.status == DONE and t.scores() == [2]


# ------------------------------------------------------------------ R2-T6 disruptor


def test_r2_t6_disruptor():
    t = Table(DISRUPTOR)
    t.arrange({(0, 0): "AS", (0, 4): "3S", (3, 3): "3H", (5, 1): "8C"})
    assert sorted(t.turns()) == [((0, 0), (0, 4)), ((0, 4), (0, 0))]
    t.play((0, 0), (0, 4))
    assert t.sc.contents(0, "vloc", "TAKEN") == [t.card("3S")]
    # The removal: a decision of its own, over the board's cards matching 3S.
    st = t.sc.st
    assert st.status == WAITING and st.chooser == 0
    removed = set()
    grid = t.board()
    for i in range(len(t.sc.options())):
        c = st.clone()
        t.prog.apply(c, i)
        (gone,) = set(grid.values()) - set(t.board(c).values())
        assert c.piles[t.sc.pile("game", "vloc", "REMOVED")] == [gone]
        removed.add((divmod(next(j for j, x in grid.items() if x == gone), 6), t.text(gone)))
    assert removed == {((0, 4), "AS"), ((3, 3), "3H")}


def test_r2_t6_disruptor_removal_is_out_of_play():
    t = Table(DISRUPTOR)
    t.arrange({(0, 0): "AS", (0, 4): "3S", (3, 3): "3H", (5, 1): "8C"})
    t.play((0, 0), (0, 4))
    remove_3h = next(i for i in range(len(t.sc.options()))
                     if t.card("3H") in _after(t, i).piles[t.sc.pile("game", "vloc", "REMOVED")])
    t.prog.apply(t.sc.st, remove_3h)
    assert t.sc.st.status == DONE  # AS and 8C are left: no capture
    assert t.scores() == [2]  # the removed 3H does not score


def _after(t: Table, i: int):
    c = t.sc.st.clone()
    t.prog.apply(c, i)
    return c


# ------------------------------------------------------------------ R2-T7 double capture


def test_r2_t7_double_capture_has_10_legal_turns():
    t = Table(DOUBLE)
    t.arrange({(0, 0): "AS", (0, 3): "5S", (3, 3): "AH", (0, 5): "9S"})
    turns = t.turns()
    assert len(turns) == 10 == len(set(turns))
    singles = {p for p in turns if len(p) == 2}
    doubles = {p for p in turns if len(p) == 3}
    assert singles == {((0, 0), (0, 3)), ((0, 0), (3, 3)), ((0, 0), (0, 5)), ((0, 3), (0, 0)),
                       ((0, 3), (0, 5)), ((3, 3), (0, 0)), ((0, 5), (0, 0)), ((0, 5), (0, 3))}
    assert doubles == {((0, 0), (0, 3), (3, 3)), ((0, 0), (3, 3), (0, 3))}
    assert ((0, 0), (0, 3), (0, 5)) not in doubles  # both legs by suit


def test_r2_t7_double_capture_effect_and_last_capture_wins():
    t = Table(DOUBLE)
    t.arrange({(0, 0): "AS", (0, 3): "5S", (3, 3): "AH", (0, 5): "9S"})
    assert t.sc.outcome().winners == [1]  # were the game over now, P1 (to move) would lose
    t.play((0, 0), (0, 3), (3, 3))
    board = {divmod(i, 6): t.text(c) for i, c in t.board().items()}
    assert board == {(3, 3): "AS", (0, 5): "9S"}
    assert t.sc.contents(0, "vloc", "TAKEN") == [t.card("5S"), t.card("AH")]
    assert t.sc.st.status == DONE  # AS and 9S are not aligned: no capture left
    out = t.prog.result(t.sc.st)
    assert out.scores == [1, 0] and out.winners == [0]


def test_r2_t7_player_without_a_capture_loses():
    t = Table(DOUBLE)
    t.arrange({(0, 0): "AS", (0, 3): "5S", (5, 2): "7D"})
    t.play((0, 0), (0, 3))  # P1 takes 5S; P2 has no capture left
    assert t.sc.st.status == DONE
    assert t.prog.result(t.sc.st).winners == [0]


# ------------------------------------------------------------------ R2-T8 four in a row


def full_board_except(t: Table, empty: set, placed: dict) -> Table:
    """Every cell filled (reference order, skipping the placed cards) but the empty ones."""
    rest = iter(c for c in DECK if c not in placed.values())
    board = dict(placed)
    for r in range(6):
        for c in range(6):
            if (r, c) not in empty and (r, c) not in board:
                board[(r, c)] = next(rest)
    return t.arrange(board)


def test_r2_t8_four_in_a_row():
    t = Table(FOUR)
    full_board_except(t, {(2, 0), (2, 1), (2, 2)}, {(2, 3): "4S", (5, 3): "4H"})
    assert t.sc.st.chooser == 0
    t.play((2, 3), (5, 3))
    assert t.sc.st.status == DONE  # won at once
    out = t.prog.result(t.sc.st)
    assert out.scores == [1, 0] and out.winners == [0]


def test_r2_t8_no_window_no_win():
    t = Table(FOUR)
    # three empty cells in row 2 and a capture that empties (3,3): no line of four
    full_board_except(t, {(2, 0), (2, 1), (2, 2)}, {(3, 3): "4S", (5, 3): "4H"})
    t.play((3, 3), (5, 3))
    assert t.sc.st.status == WAITING and t.sc.st.chooser == 1


@pytest.mark.parametrize("axis", ["row", "column", "diagonal", "antidiagonal"])
def test_r2_t8_every_direction_wins(axis):
    window = {"row": [(4, 2), (4, 3), (4, 4), (4, 5)], "column": [(1, 1), (2, 1), (3, 1), (4, 1)],
              "diagonal": [(1, 1), (2, 2), (3, 3), (4, 4)], "antidiagonal": [(0, 5), (1, 4), (2, 3), (3, 2)]}[axis]
    vacate = window[1]
    target = (vacate[0], 0) if vacate[1] != 0 else (vacate[0], 5)  # same row, outside the window
    if target in window:
        target = (0, vacate[1]) if vacate[0] != 0 else (5, vacate[1])
    t = Table(FOUR)
    full_board_except(t, set(window) - {vacate}, {vacate: "4S", target: "4H"})
    t.play(vacate, target)
    assert t.sc.st.status == DONE and t.prog.result(t.sc.st).winners == [0]


def test_r2_t8_draw_without_a_line():
    """7C takes 8C; the twelve cards left meet every line of four and no two aligned ones match."""
    t = Table(FOUR)
    t.layout(["7C .. 8C .. .. ..",
              ".. .. .. AH .. ..",
              ".. .. 5S 6C 2D 4H",
              "AD 3C .. .. 9S ..",
              ".. .. .. 5D .. ..",
              ".. 6S .. .. .. 8D"])
    t.play((0, 0), (0, 2))
    assert t.sc.st.status == DONE
    out = t.prog.result(t.sc.st)
    assert out.scores == [0, 0] and out.winners == [0, 1]  # a draw


# ------------------------------------------------------------------ whole games


PLAYS = [(f, None) for f in FILES] + [(BASE, {"PLAYERS": 1})]


@pytest.mark.parametrize("path, params", PLAYS, ids=lambda x: getattr(x, "stem", None) or str(x))
def test_random_games_end_normally(path, params):
    prog = load_program(path, params)
    n = 6 if path == DOUBLE else 12
    for run in range(n):
        r = play_game(prog, derive(11, "rummy_squared", run), [RandomPlayer() for _ in range(prog.n_players)])
        assert r.end_reason == "normal", (path.name, run, r.error)
        assert len(r.scores) == prog.n_players
        if path == DISRUPTOR:
            assert r.n_decisions <= 36  # at most 18 captures, each with its removal


def test_solitaire_file_is_the_base_with_one_player():
    """Same seed, same deal, same options and same score: the two files play identically."""
    a, b = load_program(SOLITAIRE), load_program(BASE, {"PLAYERS": 1})
    assert a.n_players == b.n_players == 1
    for run in range(3):
        seed = derive(5, "solitaire", run)
        x, y = a.new_game(seed), b.new_game(seed)
        k = 0
        while x.status == WAITING:
            assert [a.describe(x, o) for o in a.options(x)] == [b.describe(y, o) for o in b.options(y)]
            i = (7 * k + run) % len(a.options(x))
            a.apply(x, i)
            b.apply(y, i)
            k += 1
        assert y.status == x.status == DONE
        assert a.result(x).scores == b.result(y).scores


def test_player_counts():
    assert load_program(BASE).n_players == 2
    assert load_program(BASE, {"PLAYERS": 1}).n_players == 1
    for path, n in [(SOLITAIRE, 1), (PIE, 2), (DISRUPTOR, 1), (DOUBLE, 2), (FOUR, 2)]:
        assert load_program(path).n_players == n


CREDIT = ("Rummy² (Rummy Squared) is by Phil Leduc; the game and its rules are © 2021 Phil Leduc, "
          "all rights reserved.")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_opening_comment(path):
    lines = []
    for line in path.read_text("utf-8").splitlines():
        if not line.startswith(";;"):
            break
        lines.append(line[2:].strip())
    block = " ".join(" ".join(lines).split())
    assert CREDIT in block
    assert "should contact the author" in block
    assert re.search(r"^Players: ", "\n".join(lines), re.M)
    assert re.search(r"^Parameters: ", "\n".join(lines), re.M)
    gi = info(path.stem, path)
    assert gi.title.startswith("Rummy² (Rummy Squared)")
    assert gi.players == ("1 or 2 (default 2)" if path == BASE else str(load_program(path).n_players))
