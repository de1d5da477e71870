"""Fused expressions (compiler/fusion.py) mean what their closures mean: same values, same errors, same games."""
from __future__ import annotations

import random

import pytest

from recycle.compiler import driver, fusion, load_program
from recycle.compiler.walks import WalkStream
from recycle.engine.algorithms import derive
from recycle.engine.play import play_game
from recycle.lang import library
from recycle.players.random_player import RandomPlayer
from support.games import load, make_game, run, value_of

BOARD = ("(create board (game vloc G) (square 3 4))\n"
         "  (create board (game vloc H) (square 2 2))")
# a few cards on the board and in hands, and some storage, before the expression is read
BEFORE = ("(do ((move (top (game iloc STOCK)) (top (game vloc G 0)))\n"
          "     (move (top (game iloc STOCK)) (top (game vloc G 1)))\n"
          "     (move (top (game iloc STOCK)) (top (game vloc G 5)))\n"
          "     (repeat 3 (move (top (game iloc STOCK)) (top ((0 player) iloc HAND))))\n"
          "     (set ((game vloc G 1) sto MARK) 4)\n"
          "     (set ((top (game vloc G 5)) sto MARK) 2)\n"
          "     (set (game sto N) 3)))")

EXPRESSIONS = [
    "(and (== (game sto N) 3) (or (> 1 2) (not (== 1 2))) (< (+ 1 (game sto N) 2) (* 2 (- 9 1))))",
    "(size (filter (cells (game vloc G)) 'X (> (size 'X) 0)))",
    "(size (filter (cells (game vloc G)) 'X (== (size 'X) 0)))",
    "(filter (cells (game vloc G)) 'X (!= (size 'X) 0))",
    "(any (cells (game vloc G)) 'X (== ('X sto MARK) 4))",
    "(all (cells (game vloc G)) 'X (or (== (size 'X) 0) (< ('X sto MARK) 5)))",
    "(filter (cells (game vloc G)) 'X (> (+ (* (row 'X) 4) (col 'X)) 6))",
    "(size (filter (cells (game vloc G)) 'X (any (neighbors 'X) 'Y (> (size 'Y) 0))))",
    "(filter (cells (game vloc G)) 'X (any (neighbors 'X (N, E)) 'Y (> (size 'Y) 0)))",
    "(+ (size (filter (cells (game vloc G)) 'X (> (size 'X) 0))) (size (filter (cells (game vloc G)) 'X (> (size 'X) 0))))",
    "(components (filter (cells (game vloc G)) 'X (> (size 'X) 0)) (E, W))",
    "(all (components (filter (cells (game vloc G)) 'X (> (size 'X) 0))) 'S (<= (size 'S) 2))",
    "(filter ((0 player) iloc HAND) 'C (or (== (cardatt RANK 'C) NINE) (== ((top (game vloc G 5)) sto MARK) 2)))",
    "(cardatt RANK (top ((0 player) iloc HAND)))",
    "(cardatt RANK (bottom (game vloc G 5)))",
    "(any player 'P (and (== (size ('P iloc HAND)) 3) (== 'P (current player))))",
    "(filter (range 1..3) 'R (any (line (cell (game vloc G) (- 'R 1) 0) E 4) 'X (> (size 'X) 0)))",
    "(size (filter (filter (cells (game vloc G)) 'X (> (size 'X) 0)) 'X (> ((top 'X) sto MARK) 0)))",
    # parts of a loop's test that do not depend on its element (computed once per loop, where first needed)
    "(filter ((0 player) iloc HAND) 'C (or (== (cardatt SUIT 'C) (cardatt SUIT (top (game vloc G 5))))"
    " (== (cardatt RANK 'C) (cardatt RANK (top ((0 player) iloc HAND))))))",
    "(filter (game vloc G 2) 'C (> ((top (game vloc G 2)) sto MARK) 0))",  # never needed: no error
    "(filter ((0 player) iloc HAND) 'C (< (size (union (game vloc G 0) (game vloc G 1))) 3))",
    "(filter (cells (game vloc G)) 'X (any ((0 player) iloc HAND) 'C (== (size 'X) (size (game vloc G 1)))))",
    # a loop over a loop, and a loop whose test reads a variable bound outside it, each the whole expression
    "(filter (filter (cells (game vloc G)) 'X (> (size 'X) 0)) 'Y (> ((top 'Y) sto MARK) 0))",
    "(all (range 1..2) 'R (any ((0 player) iloc HAND) 'C (!= 'R (size (game vloc G 'R)))))",
]


@pytest.fixture(params=["always", "never"])
def fusing(request, monkeypatch):
    monkeypatch.setattr(driver, "FUSE", request.param)
    return request.param


def both(monkeypatch, f):
    """f() compiled with every expression fused (however small), and with none."""
    out = []
    for mode, least in (("always", 1), ("never", fusion.MIN_NODES)):
        monkeypatch.setattr(driver, "FUSE", mode)
        monkeypatch.setattr(fusion, "MIN_NODES", least)
        out.append(f())
    return out


@pytest.mark.parametrize("expr", EXPRESSIONS)
def test_a_fused_expression_has_the_value_of_its_closures(monkeypatch, expr):
    fused, closures = both(monkeypatch, lambda: value_of(expr, BOARD, BEFORE)[2])
    assert fused == closures


def test_the_fused_forms_are_fused(monkeypatch):
    """The expressions above really go through fusion, whole (a guard against testing closures twice)."""
    lines = []
    real = fusion._Source.compile
    monkeypatch.setattr(fusion._Source, "compile", lambda self, n, sc: (lines.append(n.span.line), real(self, n, sc))[1])
    monkeypatch.setattr(driver, "FUSE", "always")
    monkeypatch.setattr(fusion, "MIN_NODES", 1)
    text = make_game(BOARD, BEFORE + "\n (let")
    let_line = text[:text.index("(let")].count("\n") + 1
    for expr in EXPRESSIONS:
        lines.clear()
        value_of(expr, BOARD, BEFORE)
        assert let_line in lines, expr


DEFS = ("(define (OCC 'X) (> (size 'X) 0))\n"
        " (define (MARKED 'X 'K) (== ('X sto MARK) 'K))\n"
        " (define (NB 'X) (any (neighbors 'X) 'Y (OCC 'Y)))\n"
        " (define (PICK 'B) (if (== 'B 1) (game vloc G 0) (game vloc G 1)))")
# uses of definitions: a variable as argument (the parameter is that variable), a computed one (bound
# once), a parameter read by an inner loop, a random argument (drawn once), an `if` of piles
DEFINED = [
    "(size (filter (cells (game vloc G)) 'X (OCC 'X)))",
    "(filter (cells (game vloc G)) 'X (MARKED 'X (+ 1 3)))",
    "(size (filter (cells (game vloc G)) 'X (NB 'X)))",
    "(filter (cells (game vloc G)) 'X (and (MARKED 'X (game sto N)) (NB 'X)))",
    "(any (cells (game vloc G)) 'X (MARKED (game vloc G 1) (+ (random 1) 3)))",
    "(+ (size (PICK (- 2 1))) (size (if (== (game sto N) 3) (game vloc G 5) (game vloc G 2))) (size (PICK 0)))",
    # the same body with other arguments in one loop: each use's invariant parts are its own
    "(filter (cells (game vloc G)) 'X (or (MARKED 'X (size ((0 player) iloc HAND))) (MARKED 'X (game sto N))))",
    "(filter (cells (game vloc G)) 'X (and (OCC (game vloc G 1)) (OCC 'X)))",
]


@pytest.mark.parametrize("expr", DEFINED)
def test_a_fused_use_of_a_definition_has_the_value_of_its_closures(monkeypatch, expr):
    def value():
        _prog, st, v = value_of(expr, BOARD, BEFORE, declares=DEFS)
        return v, st.rng.random()  # the same draws from the game stream, too
    fused, closures = both(monkeypatch, value)
    assert fused == closures


def test_uses_of_definitions_are_fused_whole(monkeypatch):
    """No closure is called for a definition's use in a fused loop: its body is fused in place."""
    monkeypatch.setattr(driver, "FUSE", "always")
    monkeypatch.setattr(fusion, "MIN_NODES", 1)
    calls = []
    real = fusion._Source.call
    monkeypatch.setattr(fusion._Source, "call", lambda self, f: (calls.append(f), real(self, f))[1])
    value_of(DEFINED[3], BOARD, BEFORE, declares=DEFS)
    assert calls == []


@pytest.mark.parametrize("expr,cls", [
    ("(any (all (X) 'U (filter (game vloc G 0) 'C (== 1 1))) 'P (> ('P sto MARK) 0))", "pile-kind"),
    ("(filter (cells (game vloc G)) 'X (> ((top 'X) sto MARK) 0))", "no-card"),
    ("(cardatt RANK (bottom (game vloc G 2)))", "no-card"),  # an empty cell: an attribute of no card
    ("(filter ((0 player) iloc HAND) 'C (> (row ((0 player) iloc HAND)) 0))", "board"),
    ("(filter (cells (game vloc G)) 'X (> (size (neighbors 'X (N, UP))) 0))", "board"),
    ("(components (all (X) 'U (game iloc STOCK)))", "board"),
    ("(any (cells (game vloc G)) 'X (== (row (cell (game vloc G) 5 5)) 0))", "range"),
    ("(filter ((0 player) iloc HAND) 'C (> ((top (game vloc G 2)) sto MARK) 0))", "no-card"),
])
def test_a_fused_expression_fails_as_its_closures_do(monkeypatch, expr, cls):
    def error():
        _prog, st = run(make_game(BOARD, f"{BEFORE}\n (let {expr} 'OUT (do ((turn pass))))"))
        assert st.status == 4
        return st.error.cls, st.error.message
    fused, closures = both(monkeypatch, error)
    assert fused == closures and fused[0] == cls


def test_board_geometry_is_read_from_a_table_only_once_every_board_is_built(monkeypatch):
    """(row 'C) of a board not built yet is an error even after an earlier game filled its table."""
    monkeypatch.setattr(driver, "FUSE", "always")
    items = ("(do (((== (random 1) 1) (create board (game vloc K) (square 2 2)))))\n"
             " (let (any (all (X) 'U (game vloc K 3)) 'C (> (row 'C) 0)) 'OUT (do ((turn pass))))")
    prog = load(make_game("(create board (game vloc G) (square 3 3))", items))
    built = [seed for seed in range(20) if random.Random(seed).randint(0, 1) == 1]
    not_built = [seed for seed in range(20) if seed not in built]
    for seed in (built[0], not_built[0], built[1], not_built[1]):  # the same program, one game after the other
        st = prog.new_game(seed)
        if seed in built:
            assert st.status == 2 and st.env[prog.nslots - 1] is True
        else:
            assert st.status == 4 and st.error.cls == "board" and "not built yet" in st.error.message


@pytest.mark.parametrize("name", sorted(library.shipped()))
def test_every_shipped_game_plays_the_same_fused_or_not(monkeypatch, name):
    def games():
        prog = load_program(library.resolve(name))
        return [(r.choices, r.scores, r.outcome) for r in
                (play_game(prog, derive(7, name, i), [RandomPlayer() for _ in range(prog.n_players)], max_decisions=150)
                 for i in range(2))]
    fused, closures = both(monkeypatch, games)
    assert fused == closures


def test_the_walk_stream_draws_as_randrange_does():
    a, b = WalkStream(5), random.Random(5)
    assert [a.below(n) for n in range(1, 400)] == [b.randrange(n) for n in range(1, 400)]


def test_a_loop_invariant_part_of_a_test_is_computed_once_per_loop(monkeypatch):
    """(size (union …)) reads nothing of 'C: computed for the first card of the hand, kept for the other two."""
    monkeypatch.setattr(driver, "FUSE", "always")
    calls: dict = {}
    real = fusion._Source.call

    def counted(self, f):
        def g(st, env):
            calls[f] = calls.get(f, 0) + 1
            return f(st, env)
        return real(self, g)
    monkeypatch.setattr(fusion._Source, "call", counted)
    _prog, _st, v = value_of("(filter ((0 player) iloc HAND) 'C (< (size (union (game vloc G 0) (game vloc G 1))) 3))",
                             BOARD, BEFORE)
    assert len(v) == 3  # the whole hand, so the test was read for every card
    assert calls and set(calls.values()) == {1}  # the union's closure (and the hand's), once each


def test_a_loop_that_is_the_whole_expression_is_the_fused_function_itself(monkeypatch):
    """No helper call for it (one call fewer per evaluation); a loop inside an expression keeps its helper."""
    made: dict = {}
    real = fusion._Source.compile

    def keep(self, n, sc):
        made[type(n).__name__] = f = real(self, n, sc)
        return f
    monkeypatch.setattr(fusion._Source, "compile", keep)
    monkeypatch.setattr(driver, "FUSE", "always")
    value_of("(filter ((0 player) iloc HAND) 'C (== (cardatt RANK 'C) NINE))", BOARD, BEFORE)
    assert "Filter" in made and not [x for x in made["Filter"].__code__.co_names if x.startswith("_q")]
    made.clear()
    value_of("(size (filter ((0 player) iloc HAND) 'C (== (cardatt RANK 'C) NINE)))", BOARD, BEFORE)
    assert [x for x in made["Size"].__code__.co_names if x.startswith("_q")]
