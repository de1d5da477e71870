"""Board queries (extensions E1): cells, coordinates, directions, neighbours, rays, lines, components."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .. import ast as A
from ..ast import T
from ..sexprs import to_text
from ..signatures import pile_nature

if TYPE_CHECKING:
    from .builder import Builder


def _cell_arg(b: Builder, x, scope, form: str):
    """A board cell operand: a Pile that is a stored, non-memory location (checked again at run time)."""
    node = b.expect(x, scope, T.PILE)
    nature = pile_nature(node)
    if nature == "virtual":
        b.fail("type", f"({form} …) needs a board cell (a stored location), "
                       f"but {to_text(x)} is a computed (virtual) pile", x)
    if nature == "memory":
        b.fail("type", f"({form} …) needs a board cell, but {to_text(x)} is a memory pile", x)
    return node


def _cells(b: Builder, sx, scope):
    b.arity(sx, 2, shape="(cells <board>)")
    return A.Cells(_cell_arg(b, sx[1], scope, "cells"), span=sx.span), T.PILES


def _cell(b: Builder, sx, scope):
    b.arity(sx, 4, shape="(cell <board> <row> <col>)")
    return A.CellAt(_cell_arg(b, sx[1], scope, "cell"), b.expect(sx[2], scope, T.INT), b.expect(sx[3], scope, T.INT),
                    span=sx.span), T.PILE


def _coord(b: Builder, sx, scope):
    b.arity(sx, 2, shape=f"({sx.head.text} <cell>)")
    return A.Coord(sx.head.text, _cell_arg(b, sx[1], scope, sx.head.text), span=sx.span), T.INT


def _directions(b: Builder, sx, scope):
    b.arity(sx, 2, shape="(directions <board>)")
    return A.Directions(_cell_arg(b, sx[1], scope, "directions"), span=sx.span), T.STRS


def _neighbors(b: Builder, sx, scope):
    b.arity(sx, 2, 3, shape="(neighbors <cell> [<directions>])")
    dirs = b.expect(sx[2], scope, T.STRS) if len(sx) == 3 else None
    return A.Neighbors(_cell_arg(b, sx[1], scope, "neighbors"), dirs, span=sx.span), T.PILES


def _ray(b: Builder, sx, scope):
    b.arity(sx, 3, shape="(ray <cell> <direction>)")
    return A.Ray(_cell_arg(b, sx[1], scope, "ray"), b.expect(sx[2], scope, T.STR), span=sx.span), T.PILES


def _line(b: Builder, sx, scope):
    b.arity(sx, 4, shape="(line <cell> <direction> <int>)")
    return A.Line(_cell_arg(b, sx[1], scope, "line"), b.expect(sx[2], scope, T.STR), b.expect(sx[3], scope, T.INT),
                  span=sx.span), T.PILES


def _components(b: Builder, sx, scope):
    b.arity(sx, 2, 3, shape="(components <cells> [<directions>])")
    cells = b.expect(sx[1], scope, T.PILES)
    dirs = b.expect(sx[2], scope, T.STRS) if len(sx) == 3 else None
    return A.Components(cells, dirs, span=sx.span), T.GROUPS


FORMS: dict[str, Callable] = {
    "cells": _cells, "cell": _cell, "row": _coord, "col": _coord, "directions": _directions,
    "neighbors": _neighbors, "ray": _ray, "line": _line, "components": _components,
}
