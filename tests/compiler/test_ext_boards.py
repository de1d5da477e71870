"""Extension E1: boards — geometry (square and hex), cell queries, capacity, building, errors.

Expected values are computed by hand (3×3) or taken from seed-games.md test vectors
(R2-T1 on 6×6, RR-T2/RR-T3 on the 4-5-6-5-4 hex board, RR-T8 on the 4×6 piecepack board).
"""
from __future__ import annotations

import pickle
import random
from collections import Counter
from itertools import combinations

import pytest

from recycle.analysis.flow import FlowGraph
from recycle.compiler import compile_game
from recycle.engine.boards import Geometry, hex_coords
from recycle.engine.play import play_game
from recycle.engine.recording import ListRecorder
from recycle.errors import LoadError, UsageError
from recycle.lang import parse_game
from recycle.players.random_player import RandomPlayer
from support.games import idx, load, make_game, run, value_of

SQ3 = "(create board (game vloc G) (square 3 3))"
SQ6 = "(create board (game vloc G) (square 6 6))"
HEX = "(create board (game vloc H) (hex 4 5 6 5 4))"
B = "(game vloc G)"


def q(expr, setup=SQ3, **kw):
    return value_of(expr, setup, **kw)


# ---------------------------------------------------------------- geometry tables


def test_rays_of_a_long_board_are_made_on_demand():
    # all its rays together would hold 100,000 × 99,999 cells: none is made before it is asked for
    g = Geometry("square", (1, 100_000))
    E, W = g.dir_index["E"], g.dir_index["W"]
    assert len(g.cell_rays(0)[E]) == 99_999 and g.cell_rays(0)[W] == ()
    prog = compile_game(parse_game(make_game(setup="(create board (game vloc G) (square 1 100000))")))
    [fam] = prog.board_families
    assert fam.rays.count(None) == 100_000
    assert fam.ray(5, E)[:2] == (fam.pids[6], fam.pids[7]) and fam.rays.count(None) == 99_999


def test_square_3x3_coordinates_directions_and_rays():
    g = Geometry("square", (3, 3))
    assert g.coords == [(r, c) for r in range(3) for c in range(3)]
    assert g.dirs == ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
    E, SE, S, W = (g.dir_index[d] for d in ("E", "SE", "S", "W"))
    assert g.cell_rays(0)[E] == (1, 2) and g.cell_rays(0)[S] == (3, 6) and g.cell_rays(0)[SE] == (4, 8) and g.cell_rays(0)[W] == ()
    assert [sum(len(r) for r in g.cell_rays(i)) for i in range(9)] == [6, 6, 6, 6, 8, 6, 6, 6, 6]
    assert [sum(1 for j in g.nbr[i] if j >= 0) for i in range(9)] == [3, 5, 3, 5, 8, 5, 3, 5, 3]
    # the graph: one edge per (cell, direction) step, labelled with the direction
    assert g.graph.number_of_edges() == 40 and g.graph.edges[0, 4]["dir"] == "SE" and g.graph.edges[4, 0]["dir"] == "NW"


def test_hex_coordinates_match_seed_games_4_3():
    rows = {0: range(2, 6), 1: range(1, 6), 2: range(0, 6), 3: range(0, 5), 4: range(0, 4)}
    expected = [(r, q) for r in range(5) for q in rows[r]]
    assert hex_coords((4, 5, 6, 5, 4)) == expected
    # an offset rectangle: the odd row is shifted half a cell to the right
    assert hex_coords((3, 3, 3)) == [(0, 1), (0, 2), (0, 3), (1, 1), (1, 2), (1, 3), (2, 0), (2, 1), (2, 2)]
    g = Geometry("hex", (3, 3, 3))
    assert [sum(1 for j in row if j >= 0) for row in g.nbr] == [2, 4, 3, 5, 6, 3, 2, 4, 3]


def test_hex_rr_t2_neighbour_counts_pairs_and_lines():
    g = Geometry("hex", (4, 5, 6, 5, 4))
    deg = [sum(1 for j in row if j >= 0) for row in g.nbr]
    assert deg == [3, 4, 4, 3, 4, 6, 6, 6, 4, 3, 6, 6, 6, 6, 3, 4, 6, 6, 6, 4, 3, 4, 4, 3]
    assert Counter(deg) == {3: 6, 4: 8, 6: 10}
    assert [i for i, d in enumerate(deg) if d == 3] == [0, 3, 9, 14, 20, 23]
    assert g.graph.number_of_edges() == 2 * 55
    lines = {d: sum(1 for i in range(g.n) if len(g.cell_rays(i)[g.dir_index[d]]) >= 2) for d in ("E", "SE", "NE")}
    assert lines == {"E": 14, "SE": 12, "NE": 12} and sum(lines.values()) == 38


def _connected_sets(prog, fam, size, dirs=None):
    return sum(1 for cs in combinations(fam.pids, size) if len(fam.components(cs, dirs)) == 1)


def test_hex_rr_t2_448_connected_four_sets():
    prog, _st = run(make_game(HEX))
    fam = prog.board_ids[(0, 0, "H")]
    assert _connected_sets(prog, fam, 4) == 448


def test_piecepack_rr_t8_lines_and_orthogonal_sets():
    g = Geometry("square", (4, 6))
    lines = {d: sum(1 for i in range(g.n) if len(g.cell_rays(i)[g.dir_index[d]]) >= 2) for d in ("E", "S", "SE", "SW")}
    assert lines == {"E": 16, "S": 12, "SE": 8, "SW": 8} and sum(lines.values()) == 44
    prog, _st = run(make_game("(create board (game vloc P) (square 4 6))"))
    fam = prog.board_ids[(0, 0, "P")]
    assert _connected_sets(prog, fam, 4, ("N", "E")) == 209


# ---------------------------------------------------------------- queries through the language


def test_cells_and_cell_and_coordinates():
    prog, _st, v = q(f"(cells {B})")
    assert idx(prog, v) == list(range(9))
    assert q(f"(size (cells {B}))")[2] == 9
    prog, _st, v = q(f"(cell {B} 2 1)")
    assert prog.loc_json(v) == ["table", "vloc", "G", 7]
    assert q(f"(row (cell {B} 2 1))")[2] == 2 and q(f"(col (cell {B} 2 1))")[2] == 1
    assert q("(row (game vloc G 5))")[2] == 1 and q("(col (game vloc G 5))")[2] == 2
    # a cell designates the same stored pile as the indexed location
    assert q(f"(size (filter (range 1..1) 'K (== (row (cell {B} 1 2)) (row (game vloc G 5)))))")[2] == 1


def test_directions():
    assert list(q(f"(directions {B})")[2]) == ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
    assert list(q("(directions (game vloc H))", HEX)[2]) == ["E", "W", "NE", "NW", "SE", "SW"]


def test_neighbors_all_and_by_direction():
    prog, _st, v = q(f"(neighbors (cell {B} 1 1))")
    assert idx(prog, v) == [1, 2, 5, 8, 7, 6, 3, 0]  # N NE E SE S SW W NW
    prog, _st, v = q(f"(neighbors (cell {B} 0 0))")
    assert idx(prog, v) == [1, 4, 3]
    prog, _st, v = q(f"(neighbors (cell {B} 1 1) (S, N, E, W))")
    assert idx(prog, v) == [7, 1, 5, 3]
    prog, _st, v = q(f"(neighbors (cell {B} 0 1) (N, S))")
    assert idx(prog, v) == [4]
    # a variable may range over directions
    assert q(f"(sum (directions {B}) 'D (size (neighbors (cell {B} 1 1) ('D))))".replace("('D)", "(N)"))[2] == 8


def test_ray_lengths_and_order():
    prog, _st, v = q(f"(ray (cell {B} 0 0) E)")
    assert idx(prog, v) == [1, 2]
    prog, _st, v = q(f"(ray (cell {B} 2 2) NW)")
    assert idx(prog, v) == [4, 0]
    prog, _st, v = q(f"(ray (cell {B} 0 0) N)")
    assert list(v) == []
    assert q(f"(sum (cells {B}) 'X (sum (directions {B}) 'D (size (ray 'X 'D))))")[2] == 56


def test_line_windows_that_leave_the_board_are_empty():
    prog, _st, v = q(f"(line (cell {B} 0 0) E 3)")
    assert idx(prog, v) == [0, 1, 2]
    assert list(q(f"(line (cell {B} 0 1) E 3)")[2]) == []
    prog, _st, v = q(f"(line (cell {B} 0 2) SW 3)")
    assert idx(prog, v) == [2, 4, 6]
    prog, _st, v = q(f"(line (cell {B} 1 1) W 1)")
    assert idx(prog, v) == [4]
    assert list(q(f"(line (cell {B} 1 1) W 0)")[2]) == []
    assert q(f"(sum (cells {B}) 'X (sum (directions {B}) 'D (size (line 'X 'D 3))))")[2] == 3 * 8 * 2


def test_components_by_axis_and_in_positional_order():
    occupied = f"(filter (cells {B}) 'X (or (== (row 'X) 0) (and (== (row 'X) 2) (== (col 'X) 2)) (and (== (col 'X) 0) (== (row 'X) 1))))"
    # cells 0 1 2 3 8
    prog, _st, v = q(f"(components {occupied})")
    assert [idx(prog, g) for g in v] == [[0, 1, 2, 3], [8]]
    prog, _st, v = q(f"(components {occupied} (E, W))")
    assert [idx(prog, g) for g in v] == [[0, 1, 2], [3], [8]]
    prog, _st, v = q(f"(components {occupied} (E))")  # one direction brings its opposite
    assert [idx(prog, g) for g in v] == [[0, 1, 2], [3], [8]]
    prog, _st, v = q(f"(components {occupied} (N, S))")
    assert [idx(prog, g) for g in v] == [[0, 3], [1], [2], [8]]
    prog, _st, v = q(f"(components {occupied} (NW, SE))")
    assert [idx(prog, g) for g in v] == [[0], [1], [2], [3], [8]]
    assert list(q(f"(components (filter (cells {B}) 'X (== 1 2)))")[2]) == []
    # groups are a GroupCollection: size, loops, folds and filters work on them
    assert q(f"(sum (components {occupied} (E, W)) 'S (^ (size 'S) 2))")[2] == 9 + 1 + 1
    assert q(f"(size (filter (components {occupied}) 'S (>= (size 'S) 2)))")[2] == 1


def test_hex_rr_t3_lines_and_connected_sets():
    cell = lambda qq, r: f"(cell (game vloc H) {r} {qq})"  # noqa: E731  axial (q, r) -> (cell H r q)
    assert idx(*q(f"(line {cell(0, 2)} E 3)", HEX)[::2]) == [9, 10, 11]
    assert idx(*q(f"(line {cell(2, 0)} SE 3)", HEX)[::2]) == [0, 5, 11]
    assert idx(*q(f"(line {cell(5, 0)} SW 3)", HEX)[::2]) == [3, 7, 12]
    assert list(q(f"(line {cell(3, 2)} E 3)", HEX)[2]) != []
    assert list(q(f"(line {cell(4, 2)} E 3)", HEX)[2]) == []
    prog, _st, v = q("(components (filter (cells (game vloc H)) 'X (or (== (pid (0 player)) 1) "
                    "(and (== (row 'X) 2) (or (== (col 'X) 2) (== (col 'X) 3))) (and (== (row 'X) 3) (== (col 'X) 2)) "
                    "(and (== (row 'X) 1) (== (col 'X) 3)))))", HEX)
    assert [idx(prog, g) for g in v] == [[6, 11, 12, 17]]


def test_r2_t1_reach_matrix_580_pairs_and_54_windows():
    text = make_game(SQ6, f"(do ((all (cells {B}) 'X (set ('X sto REACH) (sum (directions {B}) 'D (size (ray 'X 'D)))))"
                          f" (set (game sto PAIRS) (sum (cells {B}) 'X ('X sto REACH)))"
                          f" (set (game sto WINDOWS) (sum (cells {B}) 'X (sum (E, S, SE, SW) 'D (min (line 'X 'D 4) 'C 1))))"
                          f" (set (game sto ROWS) (sum (cells {B}) 'X (min (line 'X E 4) 'C 1)))"
                          f" (set (game sto DIAG) (sum (cells {B}) 'X (min (line 'X SW 4) 'C 1)))))")
    prog, st = run(text)
    fam = prog.board_ids[(0, 0, "G")]
    reach = [[prog.value(st, ("L", fam.pids[r * 6 + c]), "sto", "REACH") for c in range(6)] for r in range(6)]
    assert reach == [
        [15, 15, 15, 15, 15, 15],
        [15, 17, 17, 17, 17, 15],
        [15, 17, 19, 19, 17, 15],
        [15, 17, 19, 19, 17, 15],
        [15, 17, 17, 17, 17, 15],
        [15, 15, 15, 15, 15, 15],
    ]
    assert prog.value(st, "game", "sto", "PAIRS") == 580
    assert prog.value(st, "game", "sto", "WINDOWS") == 54
    assert prog.value(st, "game", "sto", "ROWS") == 18 and prog.value(st, "game", "sto", "DIAG") == 9


@pytest.mark.parametrize("s,t,aligned", [((0, 0), (5, 5), True), ((2, 3), (5, 0), True),
                                         ((0, 0), (1, 2), False), ((1, 4), (4, 2), False)])
def test_r2_t1_aligned_by_rays(s, t, aligned):
    expr = (f"(any (directions {B}) 'D (any (ray (cell {B} {s[0]} {s[1]}) 'D) 'T "
            f"(and (== (row 'T) {t[0]}) (== (col 'T) {t[1]}))))")
    _prog, _st, v = q(expr, SQ6)
    assert v is aligned


# ---------------------------------------------------------------- cells are ordinary locations


def test_cells_hold_cards_like_any_location_and_show_in_events_and_flow():
    text = make_game(SQ3, f"(do ((all (cells {B}) 'X (move (top (game iloc STOCK)) (top 'X)))))\n"
                          f" (stage player (end (all (cells {B}) 'X (== (size 'X) 0)))\n"
                          f"  (choice ((any (filter (cells {B}) 'X (> (size 'X) 0)) 'X (move (top 'X) (top ((current player) vloc WON)))))))",
                     scoring="(scoring max (size ((current player) vloc WON)))")
    prog = load(text)
    rec = ListRecorder()
    r = play_game(prog, 5, [RandomPlayer(), RandomPlayer()], recorder=rec)
    assert r.outcome == "completed" and sum(r.scores) == 9
    assert [d.branching for d in r.decisions] == [9, 8, 7, 6, 5, 4, 3, 2, 1]
    moves = [e for e in rec if e["type"] == "move"]
    assert moves[0]["to"] == ["table", "vloc", "G", 0] and moves[8]["to"] == ["table", "vloc", "G", 8]
    fg = FlowGraph(title="t", game="t")
    fg.add_run(rec)
    G = fg.graph()
    cells = [n for n, d in G.nodes(data=True) if d["name"] == "G"]
    assert len(cells) == 9 and {G.nodes[n]["index"] for n in cells} == set(range(9))
    assert all(G.nodes[n]["owner"] == "table" and G.nodes[n]["keyword"] == "vloc" for n in cells)


def test_player_boards_and_a_board_built_in_an_action_once():
    text = make_game("", "(do ((all player 'P (create board ('P vloc MAT) (square 2 2)))))\n"
                         " (do ((set (game sto N) (size (cells ((1 player) vloc MAT))))))\n"
                         " (do ((create board ((0 player) vloc MAT) (square 2 2))))")
    prog, st = run(text)
    assert st.status == 4 and st.error.cls == "board" and "already built" in st.error.message
    assert prog.value(st, "game", "sto", "N") == 4
    assert str(st.error.span).endswith(":7:7")


def test_queries_before_the_board_is_built_are_errors():
    text = make_game("", "(do ((set (game sto N) 1)))\n (do ((set (game sto N) (size (cells (game vloc LATER))))))\n"
                         " (do ((create board (game vloc LATER) (square 2 2))))")
    _prog, st = run(text)
    assert st.status == 4 and st.error.cls == "board" and "not built yet" in st.error.message


@pytest.mark.parametrize("expr,cls,words", [
    ("(row (game vloc NOTABOARD))", "board", "is not a cell of a board"),
    (f"(ray (cell {B} 0 0) NORTH)", "board", "'NORTH' is not a direction"),
    (f"(neighbors (cell {B} 0 0) (N, UP))", "board", "'UP' is not a direction"),
    (f"(cell {B} 3 0)", "range", "no cell at row 3"),
    (f"(line (cell {B} 0 0) E (- 0 1))", "range", "a line of -1 cells"),
])
def test_run_time_board_errors(expr, cls, words):
    _prog, st = run(make_game(SQ3, f"(do ((set (game sto X) (size (all (range 1..1) 'K (game vloc T))))))\n"
                                  f" (let {expr} 'OUT (do ((turn pass))))"))
    assert st.status == 4 and st.error.cls == cls and words in st.error.message, st.error.format()


# ---------------------------------------------------------------- capacity


CAP = "(create board (game vloc R) (square 1 3) (capacity 1))"


def test_capacity_in_a_choice_drops_overfilling_options():
    text = make_game(CAP, "(do ((move (top (game iloc STOCK)) (top (game vloc R 1)))\n"
                          "     (move (top (game iloc STOCK)) (top ((current player) iloc HAND)))\n"
                          "     (move (top (game iloc STOCK)) (top ((current player) iloc HAND)))))\n"
                          " (choice ((any ((current player) iloc HAND) 'C (any (cells (game vloc R)) 'X (move 'C (top 'X))))))")
    prog, st = run(text)
    opts = prog.options(st)
    assert len(opts) == 2 * 2  # two cards, two empty cells (cell 1 is full)
    targets = {op[4] for o in opts for op in o.ops if op[0] == 0}
    assert {prog.pile_key[t][3] for t in targets} == {0, 2}


def test_capacity_two_moves_in_one_option():
    text = make_game(CAP, "(do ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))\n"
                          "     (move (top (game iloc STOCK)) (top ((current player) iloc HAND)))))\n"
                          " (choice ((any (cells (game vloc R)) 'X (any (cells (game vloc R)) 'Y\n"
                          "   (do ((move (top ((current player) iloc HAND)) (top 'X)) (move (top ((current player) iloc HAND)) (top 'Y))))))))")
    prog, st = run(text)
    assert len(prog.options(st)) == 3 * 3 - 3  # never twice the same cell


def test_capacity_in_a_do_is_an_error_naming_the_cell():
    text = make_game(CAP, "(do ((move (top (game iloc STOCK)) (top (game vloc R 2)))\n"
                          "     (move (top (game iloc STOCK)) (top (game vloc R 2)))))")
    _prog, st = run(text)
    assert st.status == 4 and st.error.cls == "capacity"
    assert "(table vloc R 2) holds at most 1 card" in st.error.message
    # moving a card within its own cell does not overfill it
    _prog, st = run(make_game(CAP, "(do ((move (top (game iloc STOCK)) (top (game vloc R 2))) (move (top (game vloc R 2)) (bottom (game vloc R 2)))))"))
    assert st.status == 2


def test_capacity_of_swapped_piles_and_created_decks():
    text = make_game(CAP, "(do ((move (top (game iloc STOCK)) (top (game vloc X))) (move (top (game iloc STOCK)) (top (game vloc X)))\n"
                          "     (swap (game vloc X) (game vloc R))))")
    _prog, st = run(text)
    assert st.status == 4 and st.error.cls == "capacity"
    with pytest.raises(UsageError, match="holds at most 1 card"):
        load(make_game(CAP + " (create deck (game vloc R 0) (deck (RANK (A, B))))"))


# ---------------------------------------------------------------- load-time checks


@pytest.mark.parametrize("items,line,col,cls,words", [
    ("(do ((set (game sto X) (row (top 2 (game vloc S))))))", 5, 30, "type", "needs a board cell"),
    ("(do ((set (game sto X) (size (components (game vloc S))))))", 5, 43, "type", "expected a PileCollection"),
    ("(do ((set (game sto X) (size (neighbors (game vloc S) N)))))", 5, 56, "type", "expected a StringCollection"),
    ("(choice ((create board (game vloc Q) (square 2 2))))", 5, 11, "placement", "cannot appear inside a choice"),
    ("(do ((create board (game vloc Q 1) (square 2 2))))", 5, 21, "syntax", "without an index"),
    ("(do ((create board (game mem Q) (square 2 2))))", 5, 21, "setup", "memory piles"),
    ("(do ((create board (game vloc Q) (square 2))))", 5, 35, "syntax", "(square <rows> <columns>)"),
    ("(do ((create board (game vloc Q) (RING 2))))", 5, 36, "syntax", "board shape"),
    ("(do ((create board (game vloc Q) (square (size (game vloc S)) 2))))", 5, 43, "type", "board sizes"),
    ("(do ((create board (game vloc Q) (hex 2 0 2))))", 5, 7, "setup", "row lengths of at least 1"),
    ("(do ((create board (game vloc Q) (square 2 2) (capacity 0))))", 5, 7, "setup", "capacity must be at least 1"),
])
def test_load_time_board_errors_are_positioned(items, line, col, cls, words):
    with pytest.raises(LoadError) as info:
        parse_game(make_game(SQ3, items))
    d = info.value.diagnostics[0]
    assert (d.span.line, d.span.column, d.cls) == (line, col, cls) and words in d.message, d.format()


def test_two_shapes_for_one_board_are_refused():
    with pytest.raises(UsageError, match="two different shapes"):
        compile_game(parse_game(make_game(SQ3, "(do ((create board (game vloc G) (square 2 2))))")))


def test_cells_follow_the_visibility_of_their_family():
    text = make_game("(create board ((0 player) iloc MAT) (square 1 2))",
                     "(do ((move (top (game iloc STOCK)) (top ((0 player) iloc MAT 1)))))\n (choice ((turn pass) (turn pass)))")
    prog, st = run(text)
    key = ("p1", "iloc", "MAT", 1)
    assert prog.view(st, 0)["piles"][key][0] == "cards" and prog.view(st, 1)["piles"][key] == ("backs", ("DEFAULT",))
    d = prog.determinize(st, 1, random.Random(1))
    assert prog.view(d, 1)["piles"] == prog.view(st, 1)["piles"] and d.boards == st.boards


def test_states_of_board_games_pickle_and_compare():
    text = make_game(SQ3, f"(do ((set ((game vloc G 4) ply OWNER) (1 player)) (set ((top (game iloc STOCK)) str RANK) ONE)))\n"
                          f" (choice ((any (cells {B}) 'X (move (top (game iloc STOCK)) (top 'X)))))")
    prog, st = run(text)
    s2 = pickle.loads(pickle.dumps(st))
    assert s2 == st and s2.boards == st.boards
    assert [o.ops for o in pickle.loads(pickle.dumps(prog.options(st)))] == [o.ops for o in prog.options(st)]
    prog.apply(s2, 3)
    prog.apply(st, 3)
    assert s2 == st
