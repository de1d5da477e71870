"""What expression fusion (compiler.fusion) needs to know of an expression tree: how deep it nests,
its children, the variables it reads free, the loops written twice in it, whether it draws from the
game's stream, and whether it is board geometry of one variable.  Every walk is iterative or
bounded by the tree: expressions may nest up to reader.MAX_DEPTH.
"""
from __future__ import annotations

from collections import Counter

import attrs

from ..lang import ast as A
from . import references as refs
from .context import Compiler

LOOPS = (A.Quantifier, A.Filter)


def deeper_than(n, limit: int, heights: dict[int, tuple]) -> bool:
    """Does the AST below n nest more than `limit` levels (n itself the first)?  Without recursion, and
    each node's height worked out once for all the questions of one compile (`heights`, by id, holding
    the node so that its id stays its own): fusion asks this of every expression it meets, so a chain of
    480 nested forms measured anew at each of them cost 480 × 480 / 2 nodes."""
    todo = [(n, False)]
    while todo:
        m, ready = todo.pop()
        if id(m) in heights:
            continue
        below = subnodes(m)
        if ready:
            heights[id(m)] = (m, min(limit + 1, 1 + max((heights[id(x)][1] for x in below), default=0)))
        else:
            todo.append((m, True))
            todo.extend((x, False) for x in below if id(x) not in heights)
    return heights[id(n)][1] > limit


def shared_loops(n) -> set:
    """The subexpressions of n worth computing once: loops written more than once, closed and not random."""
    seen: Counter = Counter()
    todo = [n]
    while todo:
        m = todo.pop()
        if type(m) in LOOPS:
            seen[m] += 1
        todo.extend(subnodes(m))
    return {m for m, k in seen.items() if k > 1 and not free_vars(m) and not draws_random(m)}


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}  # the attribute names of each node class, looked up once


def _names(t: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(t)
    if names is None:
        names = _FIELD_NAMES[t] = tuple(f.name for f in attrs.fields(t))
    return names


def subnodes(m) -> list:
    out = []
    for name in _names(type(m)):
        v = getattr(m, name)
        for x in (v if isinstance(v, tuple) else (v,)):
            if isinstance(x, A.Node):
                out.append(x)
    return out


def free_vars(m) -> set:
    """The variable names m reads without binding them (the binding forms bind `var` in all but `coll`)."""
    if type(m) is A.Var:
        return {m.name}
    var = getattr(m, "var", None)
    out: set = set()
    for f in attrs.fields(type(m)):
        v = getattr(m, f.name)
        for x in (v if isinstance(v, tuple) else (v,)):
            if isinstance(x, A.Node):
                inner = free_vars(x)
                out |= inner - {var} if var is not None and f.name != "coll" else inner
    return out


def draws_random(m) -> bool:
    """Does m draw from the game's stream (a random number, or a tie between extreme cards)?"""
    return type(m) in (A.Random, A.CardExtreme) or any(draws_random(x) for x in subnodes(m))


# The forms whose value depends on the shape of a board alone (and on their operands).
GEOMETRY = (A.Coord, A.Neighbors, A.CellAt, A.Line, A.Ray, A.Cells)


def geometric_slot(cx: Compiler, n, sc) -> int | None:
    """The env slot of the one variable n depends on, if n is board geometry of that variable, else None."""
    slots: set = set()
    board = False
    todo = [n]
    while todo:
        m = todo.pop()
        t = type(m)
        if cx.const(m, sc)[0] or t is A.NameList:
            continue
        if t is A.Var:
            slots.add(sc[m.name][1])
            continue
        if t is A.Location:
            if refs.static_pid(cx, m, sc) is None:
                return None
            continue
        if t is A.Arith:
            if m.op not in ("+", "-", "*"):
                return None
        elif t in GEOMETRY:
            board = True
            if t is A.Neighbors and m.dirs is not None and type(m.dirs) is not A.NameList:
                return None
        else:
            return None
        todo.extend(subnodes(m))
    return slots.pop() if board and len(slots) == 1 else None


def children(m) -> tuple:
    t = type(m)
    if t is A.Compare:
        return (m.left, m.right)
    if t is A.Logic or t is A.Arith:
        return m.args
    if t is A.Not:
        return (m.arg,)
    if t is A.Size:
        return (m.coll,)
    if t is A.CardAt:
        return (m.pile,)
    if t is A.CardAtt:
        return (m.card,)
    if t is A.Storage:
        return (m.owner,)
    if t is A.Coord:
        return (m.cell,)
    if t is A.Cells:
        return (m.board,)
    if t is A.Neighbors:
        return (m.cell, m.dirs)
    if t is A.Components:
        return (m.cells,)
    if t is A.CallExpr:
        return (*m.args, m.body)
    if t is A.IfExpr:
        return (m.cond, m.then, m.orelse)
    return ()
