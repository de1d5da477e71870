"""Board queries (extension E1): cells, coordinates, neighbours, rays, lines, components."""
from __future__ import annotations

from ..engine.state import KIND_WORDS
from ..errors import GameRuntimeError
from ..lang import ast as A
from ..lang.printer import brief as show
from . import references as refs
from .context import Compiler, Form

_err = GameRuntimeError


def cell_fn(cx: Compiler, node, sc, form: str):
    """Closure giving (BoardFamily, cell index) of a cell operand; run-time `board` errors otherwise."""
    pf = refs.pile(cx, node, sc)
    cell_of = cx.p.cell_of
    check = cell_check(cx, node, form)

    def cell(st, env):
        pid = pf(st, env)
        hit = cell_of.get(pid) if pid.__class__ is int else None
        if hit is None or hit[0].fid not in st.boards:
            return check(st, pid)  # raises the error
        return hit
    return cell


def cell_check(cx: Compiler, node, form: str):
    """`check(st, pile value)`: (BoardFamily, cell index) of the cell operand `node`, or its `board` error."""
    cell_of = cx.p.cell_of
    span = node.span
    what = show(node)

    def check(st, pid):
        hit = cell_of.get(pid) if pid.__class__ is int else None
        if hit is None:
            raise _err("board", f"({form} {what} …): {what} is not a cell of a board", span)
        if hit[0].fid not in st.boards:
            raise _err("board", f"({form} {what} …): the board ({board_text(cx, hit[0])}) is not built yet", span)
        return hit
    return check


def board_text(cx: Compiler, fam) -> str:
    return f"{cx.p.owner_json(fam.owner)} {KIND_WORDS[fam.kind]} {fam.name}"


def direction_fn(cx: Compiler, span, form: str):
    """Closure giving a direction index on a family, or a `board` error for an unknown name."""
    def direction(st, env, fam, name):
        k = fam.dir_index.get(name)
        if k is None:
            raise _err("board", f"({form} …): {name!r} is not a direction of this board "
                       f"({', '.join(fam.dirs)})", span)
        return k
    return direction


def e_cells(cx: Compiler, n: A.Cells, sc):
    cf = cell_fn(cx, n.board, sc, "cells")
    return lambda st, env: cf(st, env)[0].pids


def e_cell_at(cx: Compiler, n: A.CellAt, sc):
    cf = cell_fn(cx, n.board, sc, "cell")
    rf, kf = cx.expr(n.row, sc), cx.expr(n.col, sc)
    span = n.span

    def cell_at(st, env):
        fam = cf(st, env)[0]
        r, c = rf(st, env), kf(st, env)
        i = fam.geom.index_of.get((r, c))
        if i is None:
            raise _err("range", f"{show(n)}: the board has no cell at row {r}, column {c}", span)
        return fam.pids[i]
    return cell_at


def e_coord(cx: Compiler, n: A.Coord, sc):
    cf = cell_fn(cx, n.cell, sc, n.axis)
    k = 0 if n.axis == "row" else 1

    def coord(st, env):
        fam, i = cf(st, env)
        return fam.geom.coords[i][k]
    return coord


def e_directions(cx: Compiler, n: A.Directions, sc):
    cf = cell_fn(cx, n.board, sc, "directions")
    return lambda st, env: cf(st, env)[0].dirs


def e_neighbors(cx: Compiler, n: A.Neighbors, sc):
    cf = cell_fn(cx, n.cell, sc, "neighbors")
    if n.dirs is None:
        def neighbors(st, env):
            fam, i = cf(st, env)
            return fam.nb_all[i]
        return neighbors
    df = cx.expr(n.dirs, sc)
    nb = neighbours_in(n)

    def neighbors_in(st, env):
        fam, i = cf(st, env)
        return nb(fam, i, df(st, env))
    return neighbors_in


def neighbours_in(n: A.Neighbors):
    """`nb(family, cell index, direction names)`: the neighbours of `(neighbors X DIRS)`, or its `board` error."""
    span = n.span

    def nb(fam, i, names):
        try:
            return fam.neighbours_in(names)[i]
        except KeyError as e:
            raise _err("board", f"(neighbors …): {e.args[0]!r} is not a direction of this board "
                       f"({', '.join(fam.dirs)})", span) from None
    return nb


def e_ray(cx: Compiler, n: A.Ray, sc):
    cf = cell_fn(cx, n.cell, sc, "ray")
    df = cx.expr(n.direction, sc)
    dirf = direction_fn(cx, n.span, "ray")

    def ray(st, env):
        fam, i = cf(st, env)
        d = df(st, env)
        k = fam.dir_index.get(d)
        if k is None:
            k = dirf(st, env, fam, d)
        return fam.ray(i, k)
    return ray


def e_line(cx: Compiler, n: A.Line, sc):
    cf = cell_fn(cx, n.cell, sc, "line")
    df = cx.expr(n.direction, sc)
    nf = cx.expr(n.count, sc)
    dirf = direction_fn(cx, n.span, "line")
    span = n.span

    def line(st, env):
        fam, i = cf(st, env)
        d = df(st, env)
        k = fam.dir_index.get(d)
        if k is None:
            k = dirf(st, env, fam, d)
        m = nf(st, env)
        if m < 1:
            if m < 0:
                raise _err("range", f"{show(n)}: a line of {m} cells", span)
            return ()
        ray = fam.ray(i, k)
        if len(ray) < m - 1:
            return ()
        # concatenation: faster than (fam.pids[i], *ray[:m - 1]) on this per-evaluation path
        return (fam.pids[i],) + ray[:m - 1]  # noqa: RUF005
    return line


def e_components(cx: Compiler, n: A.Components, sc):
    cf = refs.coll(cx, n.cells, sc)
    df = cx.expr(n.dirs, sc) if n.dirs is not None else None
    groups = components_of(cx, n)
    return lambda st, env: groups(st, env, cf(st, env), df)


def components_of(cx: Compiler, n: A.Components):
    """`groups(st, env, cells, df)`: the value of `(components CELLS [DIRS])`, df the DIRS closure or None.

    DIRS is evaluated only when there are cells, as the form says.
    """
    cell_of = cx.p.cell_of
    span = n.span

    def groups(st, env, cells, df):
        if not len(cells):
            return []
        fam = None
        for pid in cells:
            hit = cell_of.get(pid) if pid.__class__ is int else None
            if hit is None or (fam is not None and hit[0] is not fam):
                raise _err("board", f"{show(n)}: the cells must all belong to one board", span)
            fam = hit[0]
        assert fam is not None  # cells is not empty
        if fam.fid not in st.boards:
            raise _err("board", f"{show(n)}: the board is not built yet", span)
        try:
            return fam.components(cells, df(st, env) if df is not None else None)
        except KeyError as e:
            raise _err("board", f"(components …): {e.args[0]!r} is not a direction of this board "
                       f"({', '.join(fam.dirs)})", span) from None
    return groups


FORMS: dict[type, Form] = {
    A.Cells: e_cells, A.CellAt: e_cell_at, A.Coord: e_coord, A.Directions: e_directions,
    A.Neighbors: e_neighbors, A.Ray: e_ray, A.Line: e_line, A.Components: e_components,
}
