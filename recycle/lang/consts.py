"""Constant values of a checked game: declares (with parameter overrides), setup counts, teams, boards.

What the checker folds at load time and the compiler reads when it builds the program, from the
same functions, so both see the same numbers (language spec §3.8, §4; extensions E1, E6).
"""
from __future__ import annotations

import re
from collections.abc import Callable

import attrs

from ..errors import UsageError, cut_text
from . import ast as A
from . import values
from .ast import T
from .meldrules import MeldRules

# A game has at most MAX_PLAYERS players (docs/limits.md): the compiled game keeps tables per
# player and per pair of players.
MAX_PLAYERS = 100


# A board has at most MAX_CELLS cells (docs/limits.md): every cell is a pile of the state.
MAX_CELLS = 100_000
# The boards a game's `create board` forms describe hold at most MAX_BOARD_CELLS cells together,
# a board owned by each player counted once per player (docs/limits.md): every form is registered
# when the game is compiled, whether it runs or not.
MAX_BOARD_CELLS = MAX_CELLS  # one board of the largest size, or many smaller ones


# The lists a game's declares build at load (ranges, and list values given with --param) hold at
# most MAX_CONST_ELEMENTS numbers and names together (docs/limits.md): each range may hold
# MAX_RANGE, but thousands of them in one file would take minutes and gigabytes to build.
MAX_CONST_ELEMENTS = 1_000_000


def too_many_players(n: int) -> str:
    return (f"(create players {n}) asks for more than {MAX_PLAYERS} players, the player limit "
            "(MAX_PLAYERS, fixed; docs/limits.md)")


class ConstError(Exception):
    def __init__(self, message: str, node, cls: str | None = None):
        super().__init__(message)
        self.node = node
        self.cls = cls  # the error class when it is not the usual one of the form (a limit)


def too_many_elements(total: int, var: str) -> str:
    return (f"the declares build {total:,} list elements up to '{var}, more than {MAX_CONST_ELEMENTS:,}, the limit "
            "of constant lists of a game (MAX_CONST_ELEMENTS, fixed; docs/limits.md)")


def const_value(node, env: dict):
    """Evaluate a constant expression (declare values, setup counts); raises ConstError."""
    if isinstance(node, A.IntLit):
        return node.value
    if isinstance(node, A.Name):
        return node.value
    if isinstance(node, A.Var):
        return env[node.name]
    if isinstance(node, A.NameList):
        return list(node.names)
    if isinstance(node, A.Range):
        lo, hi = const_value(node.lo, env), const_value(node.hi, env)
        if hi - lo >= values.MAX_RANGE:
            raise ConstError(values.range_too_long(lo, hi), node)
        return list(range(lo, hi + 1))
    if isinstance(node, A.Arith):
        vals = [const_value(a, env) for a in node.args]
        try:
            return _arith_value(node.op, vals)
        except (ZeroDivisionError, ValueError) as e:
            raise ConstError(f"arithmetic error: {e}", node) from None
    if isinstance(node, A.IntFn):
        v = const_value(node.arg, env)
        if v < 0:
            raise ConstError(f"({node.fn} {v}): negative argument", node)
        try:
            return values.tri(v) if node.fn == "tri" else values.fib(v)
        except ValueError as e:  # values.IntegerLimit
            raise ConstError(f"arithmetic error: {e}", node) from None
    if isinstance(node, A.Compare):
        a, b = const_value(node.left, env), const_value(node.right, env)
        return {"==": a == b, "!=": a != b, "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[node.op]
    if isinstance(node, A.Logic):
        vals = [const_value(a, env) for a in node.args]
        return all(vals) if node.op == "and" else any(vals)
    if isinstance(node, A.Not):
        return not const_value(node.arg, env)
    if isinstance(node, A.MeldRulesForm):
        return meld_rules(node, env)
    raise ConstError("not a constant expression", node)


def meld_rules(node: A.MeldRulesForm, env: dict) -> MeldRules:
    """The rules a `(meldrules …)` form describes; a rule that makes no sense raises ConstError at the form."""
    size = const_value(node.size, env) if node.size is not None else 3
    wild = tuple(tuple((const_value(c.key, env), const_value(c.value, env)) for c in cond) for cond in node.wild)
    try:
        return MeldRules(node.rank, node.ranks, node.suit, node.ace, wild, size, node.distinct)
    except ValueError as e:
        raise ConstError(str(e), node) from None


def _arith_value(op: str, vals: list) -> int:
    if op == "+":
        return values.bounded(sum(vals))
    if op == "*":
        r = 1
        for v in vals:
            r = values.product(r, v)
        return r
    a, b = vals
    if op == "-":
        return values.bounded(a - b)
    if op == "//":
        return values.trunc_div(a, b)
    if op == "%":
        return values.trunc_mod(a, b)
    return values.power(a, b)


PARAM_TYPES = {T.INT: "an integer", T.STR: "a NAME (uppercase letters)", T.BOOL: "true or false",
               T.STRS: "a comma-separated list of NAMEs", T.INTS: "a range A..B or a comma-separated list of integers"}


def parse_param(text: str, t: T):
    """A --param value read as the declared type; raises ValueError with the expected shape."""
    s = text.strip()
    if t == T.INT and re.fullmatch(r"-?[0-9]+", s):
        if len(s.lstrip("-")) > values.MAX_INT_DIGITS:
            raise values.too_big(_shown(text))
        return int(s)
    if t == T.STR and re.fullmatch(r"[A-Z]+", s):
        return s
    if t == T.BOOL and s.lower() in ("true", "false"):
        return s.lower() == "true"
    if t == T.STRS:
        parts = [p.strip() for p in s.strip("()").split(",")]
        if all(re.fullmatch(r"[A-Z]+", p) for p in parts):
            return parts
    if t == T.INTS:
        m = re.fullmatch(r"\(?\s*(-?[0-9]+)\s*\.\.\s*(-?[0-9]+)\s*\)?", s)
        if m:
            if max(len(m.group(1)), len(m.group(2))) > values.MAX_INT_DIGITS:
                raise values.too_big(_shown(text))
            lo, hi = int(m.group(1)), int(m.group(2))
            if hi - lo >= values.MAX_RANGE:
                raise ValueError(values.range_too_long(lo, hi))
            return list(range(lo, hi + 1))
        parts = [p.strip() for p in s.strip("()").split(",")]
        if all(re.fullmatch(rf"-?[0-9]{{1,{values.MAX_INT_DIGITS}}}", p) for p in parts):
            return [int(p) for p in parts]
    raise ValueError(f"expected {PARAM_TYPES.get(t, str(t))}, got {_shown(text)}")


def _shown(text: str) -> str:
    """A value of the command line quoted in a message: cut short (a value may be thousands of characters)."""
    return repr(cut_text(text, 60))


def declared_values(game: A.Game, params: dict | None = None, made: Callable[[int], None] | None = None) -> dict:
    """The values of every declare, in order, with parameter overrides applied (spec §3.8, E6).

    Raises UsageError for an unknown parameter or a value of the wrong type.  `made`, if given, is told
    how many list elements each declare builds, before they are built (the missing-`)` search counts
    them as work, reader.WORK).
    """
    params = dict(params or {})
    types = {d.var: d.type for d in game.declares}
    for name in params:
        if name not in types:
            known = ", ".join(sorted(types)) or "none"
            raise UsageError(f"unknown parameter {_shown(name)}: this game declares {known}")
    env: dict = {}
    built = 0  # list elements made so far, counted before each range is made
    counted = 0  # of them, told to `made`
    for d in game.declares:
        if d.var in params:
            v = params[d.var]
            if isinstance(v, str) and d.type != T.STR:
                try:
                    v = parse_param(v, d.type)
                except ValueError as e:
                    raise UsageError(f"parameter {d.var}: {e}") from None
            elif not _value_has_type(v, d.type):
                raise UsageError(f"parameter {d.var}: expected {PARAM_TYPES.get(d.type, str(d.type))}, got {v!r}")
            env[d.var] = v
            built += len(v) if isinstance(v, (list, tuple)) else 0
        else:
            built += _list_length(d.value, env)
        if built > MAX_CONST_ELEMENTS:
            raise ConstError(too_many_elements(built, d.var), d, "limit")
        if made is not None:
            made(built - counted)
            counted = built
        if d.var not in params:
            env[d.var] = const_value(d.value, env)
    return env


def _list_length(node, env: dict) -> int:
    """How many elements a declare's list value holds, known before it is made (0 for other values)."""
    if isinstance(node, A.NameList):
        return len(node.names)
    if not isinstance(node, A.Range):
        return 0
    lo, hi = const_value(node.lo, env), const_value(node.hi, env)
    if not (isinstance(lo, int) and isinstance(hi, int)) or hi - lo >= values.MAX_RANGE:
        return 0  # not a range this builds: const_value reports it
    return max(hi - lo + 1, 0)


def _value_has_type(v, t: T) -> bool:
    if t == T.INT:
        return isinstance(v, int) and not isinstance(v, bool)
    if t == T.BOOL:
        return isinstance(v, bool)
    if t == T.STR:
        return isinstance(v, str)
    if t == T.STRS:
        return isinstance(v, (list, tuple)) and all(isinstance(x, str) for x in v)
    if t == T.INTS:
        return isinstance(v, (list, tuple)) and all(isinstance(x, int) for x in v)
    return False


def resolve_teams(teams: tuple, n: int):
    """Team member lists as 0-based ids (spec §4.5): (teams, one_based) or raises ValueError."""
    flat = [m for t in teams for m in t]
    if len(set(flat)) != len(flat):
        dup = next(m for m in flat if flat.count(m) > 1)
        raise ValueError(f"player {dup} is listed twice in create teams")
    if all(0 <= m < n for m in flat):
        return [list(t) for t in teams], False
    if all(1 <= m <= n for m in flat):
        return [[m - 1 for m in t] for t in teams], True
    written = " ".join("(" + ", ".join(map(str, t)) + ")" for t in teams)
    raise ValueError(f"team members must be player ids 0..{n - 1} (or seats 1..{n}), "
                     f"but (create teams {written}) is neither")


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}  # the attribute names of each node class, looked up once


def walk(node):
    """Every AST node below (and including) node, depth-first in field order.

    With a stack, not recursion: a generator that yields from itself passes each node up through
    every level above it, so a walk of a game nested hundreds deep cost hundreds per node."""
    todo = [node]
    while todo:
        n = todo.pop()
        yield n
        names = _FIELD_NAMES.get(type(n))
        if names is None:
            names = _FIELD_NAMES[type(n)] = tuple(f.name for f in attrs.fields(type(n)))
        below: list[A.Node] = []
        for name in names:
            v = getattr(n, name)
            if isinstance(v, tuple):
                below.extend(sub for sub in v if isinstance(sub, A.Node))
            elif isinstance(v, A.Node):
                below.append(v)
        todo.extend(reversed(below))


def nodes_of(node, *kinds: type) -> dict[type, list]:
    """The nodes below node of each of these classes (exactly, not subclasses), in walk order, in one walk:
    the checker and the compiler each looked for three kinds in three walks of the whole game."""
    found: dict[type, list] = {k: [] for k in kinds}
    for n in walk(node):
        bucket = found.get(type(n))
        if bucket is not None:
            bucket.append(n)
    return found


def board_values(node: A.CreateBoard, env: dict) -> tuple[str, tuple, int]:
    """(shape, dimensions, capacity or 0) of a `create board` form, from constants (raises ConstError)."""
    dims = tuple(const_value(d, env) for d in node.shape.dims)
    cap = const_value(node.capacity, env) if node.capacity is not None else 0
    return node.shape.shape, dims, cap


def too_many_board_cells(total: int) -> str:
    return (f"the boards up to this one hold {total:,} cells, more than {MAX_BOARD_CELLS:,}, the limit of cells "
            "of a game's boards together (MAX_BOARD_CELLS, fixed; docs/limits.md)")


def board_cells(node: A.CreateBoard, env: dict) -> int:
    """How many cells a board's constant shape makes (0 when the shape is invalid: board_problem says why)."""
    try:
        shape, dims, _ = board_values(node, env)
    except ConstError:
        return 0
    if any(not isinstance(d, int) or d < 1 for d in dims):
        return 0
    cells = 1
    for d in dims:
        cells = cells * d if shape == "square" else cells + d
    return cells if shape == "square" else cells - 1


def board_problem(node: A.CreateBoard, env: dict) -> str | None:
    """Why a board's constant shape or capacity is invalid, or None."""
    try:
        shape, dims, cap = board_values(node, env)
    except ConstError as e:
        return str(e)
    if any(not isinstance(d, int) or d < 1 for d in dims):
        what = "rows and columns" if shape == "square" else "row lengths"
        return f"a {shape} board needs {what} of at least 1, but ({shape} {' '.join(map(str, dims))}) has not"
    cells = board_cells(node, env)
    if cells > MAX_CELLS:
        return (f"this board has {cells:,} cells, more than {MAX_CELLS:,}, the board limit "
                "(MAX_CELLS, fixed; docs/limits.md)")
    if node.capacity is not None and cap < 1:
        return f"a cell capacity must be at least 1, but (capacity {cap}) is given"
    return None
