"""Program items between decisions as generated Python: the structure of a clause in one function.

A `do` item runs a tree of clauses (`do`, guards, `let`, loops, `repeat`, `if`) whose leaves are
actions, and as closures (clauses.py) every inner node costs a Python call each time it runs:
Go Fish's turn, after the choice, is a stage of guarded `let`s and loops, Hearts' end of a trick
a `do` of guarded moves and a loop over the players.  `clause_code` writes the inner nodes of
such a tree as the statements of one Python function instead (`if`, `for`, assignments to the
environment's slots) and calls the leaves, the conditions and the values as the closures they
are compiled to (fused or not), so that each one's checks, messages and order are their own:
the same calls in the same order as the closures of clauses.py make, fewer frames.

Every node is compiled in the order clauses.py compiles it (slots, piles, fused functions), and a
tree deeper than MAX_DEPTH keeps closures below that depth.
"""
from __future__ import annotations

from collections.abc import Callable
from itertools import count

from ..lang import ast as A
from . import clauses
from . import references as refs
from .context import Compiler, repeat_count

# Nested statements written at most this deep (Python refuses more than 20 nested loops, and 100 indents).
MAX_DEPTH = 12
# The clause forms written as statements, and the function of clauses.py each stands for.
STRUCTURE = {A.Do: clauses.c_do, A.Guarded: clauses.c_guarded, A.Loop: clauses.c_loop, A.Let: clauses.c_let,
             A.Repeat: clauses.c_repeat, A.RepeatAll: clauses.c_repeat_all, A.If: clauses.c_if}


def clause_code(cx: Compiler, n, sc) -> Callable:
    """The clause n as one generated function (st, env) if it has inner nodes, else as its closure."""
    if not _is_structure(cx, n) or not any(_is_structure(cx, c) for c in _children(n)):
        return cx.clause(n, sc)  # one node: its closure is as fast
    w = _Writer(cx)
    body = w.write(n, sc, 1)
    exec(compile("def _clause(st, env):\n" + "".join(body), f"<clause {n.span}>", "exec"), w.ns)
    return w.ns["_clause"]


def _is_structure(cx: Compiler, n) -> bool:
    """Is n a clause form written as statements (the clause table compiles it with clauses.py's function)?"""
    f = STRUCTURE.get(type(n))
    return f is not None and cx._clauses.get(type(n)) is f


def _children(n) -> tuple:
    t = type(n)
    if t is A.Do:
        return n.clauses
    if t is A.If:
        return (n.then,) if n.orelse is None else (n.then, n.orelse)
    if t in STRUCTURE:
        return (n.body,)
    return ()


class _Writer:
    """The source lines of one generated clause and the closures its names stand for."""

    def __init__(self, cx: Compiler):
        self.cx = cx
        self.ns: dict = {}
        self.ids = count()

    def name(self, f) -> str:
        k = f"_f{next(self.ids)}"
        self.ns[k] = f
        return k

    def write(self, n, sc, depth: int) -> list[str]:
        """Lines running clause n at this indentation depth, each node compiled as clauses.py compiles it."""
        cx = self.cx
        pad = "    " * depth
        t = type(n)
        if depth > MAX_DEPTH or not _is_structure(cx, n):
            return [f"{pad}{self.name(cx.clause(n, sc))}(st, env)\n"]
        if t is A.Do:
            out: list[str] = []
            for c in n.clauses:
                out += self.write(c, sc, depth)
            return out or [f"{pad}pass\n"]
        if t is A.Guarded:
            cond = self.name(cx.expr(n.cond, sc))
            return [f"{pad}if {cond}(st, env):\n", *self.write(n.body, sc, depth + 1)]
        if t is A.If:
            cond = self.name(cx.expr(n.cond, sc))
            out = [f"{pad}if {cond}(st, env):\n", *self.write(n.then, sc, depth + 1)]
            if n.orelse is not None:
                out += [f"{pad}else:\n", *self.write(n.orelse, sc, depth + 1)]
            return out
        if t is A.Loop:
            coll = f"{self.name(refs.iter(cx, n.coll, sc))}(st, env)"
            if type(n.coll) is A.AllOf:  # every player (team): the constant tuple its closure gives, named
                coll = self.name(cx.all_p if n.coll.what == "player" else cx.all_t)
            s, sc2 = cx.bind(sc, n.var)
            e = f"_e{next(self.ids)}"
            return [f"{pad}for {e} in {coll}:\n", f"{pad}    env[{s}] = {e}\n",
                    *self.write(n.body, sc2, depth + 1)]
        if t is A.Let:
            value = self.name(cx.expr(n.value, sc))
            s, sc2 = cx.bind(sc, n.var)
            return [f"{pad}env[{s}] = {value}(st, env)\n", *self.write(n.body, sc2, depth)]
        if t is A.Repeat:
            times = self.name(repeat_count(cx, n, sc))
            return [f"{pad}for _ in range({times}(st, env)):\n", *self.write(n.body, sc, depth + 1)]
        # A.RepeatAll: its source pile read once, as clauses.c_repeat_all reads it
        src = n.body.card
        if type(src) is A.Actual:
            src = src.card
        if type(src) is not A.CardAt:
            return [f"{pad}{self.name(cx.clause(n, sc))}(st, env)\n"]
        pile = self.name(refs.cards(cx, src.pile, sc))
        return [f"{pad}for _ in range(len({pile}(st, env))):\n", *self.write(n.body, sc, depth + 1)]
