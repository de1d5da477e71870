"""What the forms of RECYCLE are made of: pile kinds, storage kinds, comparable types, action heads, pile natures.

Shared by the checker (which gives forms their meaning) and the tools that read the AST.
"""
from __future__ import annotations

from . import ast as A
from .ast import T

KINDS = {k.value: k for k in A.Visibility}
STORAGE_TYPES = {"sto": T.INT, "str": T.STR, "points": T.POINTS, "ply": T.PLAYER}
STORAGE_KINDS = tuple(STORAGE_TYPES)
COMPARABLE = {T.INT, T.STR, T.CARD, T.PLAYER, T.TEAM}
ACTIONS = {"move", "remember", "forget", "swap", "shuffle", "set", "inc", "dec", "cycle", "turn", "repeat", "create",
           "clear"}

VIRTUAL_PILES = (A.SetOp, A.Filter, A.Sort, A.Slice, A.RunAtEnd)


def pile_nature(node) -> str | None:
    """`physical`, `memory` or `virtual` when a pile expression's nature is known at load time (§3.3, §3.5)."""
    if isinstance(node, A.Location):
        return "memory" if node.kind == A.Visibility.MEMORY else "physical"
    if isinstance(node, VIRTUAL_PILES):
        return "virtual"
    if isinstance(node, A.CellAt):
        return "physical"
    return None  # a variable or a selection from a PileCollection: known only at run time

