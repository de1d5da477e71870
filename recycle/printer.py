"""Pretty-printer: typed AST -> canonical RECYCLE text (parse(print(ast)) == ast).

Each node becomes a small document: a string (an atom) or a list (a form).  The
layout puts a form on one line when it fits and otherwise breaks it Lisp-style,
its head and leading atoms on the first line and every further element on a
line of its own.
"""
from __future__ import annotations

from typing import Callable

from . import ast as A

Doc = "str | list"
WIDTH = 96


def _var(name: str) -> str:
    return "'" + name


def _do_like(head: str, clauses) -> list:
    return [head, [doc(c) for c in clauses]]


RULES: dict[type, Callable] = {
    A.IntLit: lambda n: str(n.value),
    A.Name: lambda n: n.value,
    A.Var: lambda n: _var(n.name),
    A.GameOwner: lambda n: "game",
    A.Storage: lambda n: [doc(n.owner), n.kind, doc(n.name)],
    A.Arith: lambda n: [n.op, *map(doc, n.args)],
    A.IntFn: lambda n: [n.fn, doc(n.arg)],
    A.Random: lambda n: ["random", doc(n.hi)] if n.lo is None else ["random", _dots(n.lo, n.hi)],
    A.Size: lambda n: ["size", doc(n.coll)],
    A.Sum: lambda n: ["sum", doc(n.pile), "using", doc(n.points)],
    A.Score: lambda n: ["score", doc(n.card), "using", doc(n.points)],
    A.ScoreExtreme: lambda n: [n.which, doc(n.pile), "using", doc(n.points)],
    A.Pid: lambda n: ["pid", doc(n.player)],
    A.CardAtt: lambda n: ["cardatt", doc(n.attribute), doc(n.card)],
    A.Logic: lambda n: [n.op, *map(doc, n.args)],
    A.Not: lambda n: ["not", doc(n.arg)],
    A.Compare: lambda n: [n.op, doc(n.left), doc(n.right)],
    A.Quantifier: lambda n: [n.quant, doc(n.coll), _var(n.var), doc(n.cond)],
    A.CardAt: lambda n: _positional(n.pos, n.pile, n.index),
    A.PileAt: lambda n: _positional(n.pos, n.piles, n.index),
    A.CardExtreme: lambda n: [n.which, doc(n.pile), "using", doc(n.points)],
    A.Actual: lambda n: ["actual", doc(n.card)],
    A.Location: lambda n: [doc(n.owner), n.kind.value, doc(n.name)] + ([doc(n.index)] if n.index is not None else []),
    A.Indexed: lambda n: ["indexed", doc(n.owner), n.kind.value, doc(n.name)],
    A.SetOp: lambda n: [n.op, *map(doc, n.args)],
    A.Filter: lambda n: ["filter", doc(n.coll), _var(n.var), doc(n.cond)],
    A.Sort: lambda n: ["sort", doc(n.pile), "using", doc(n.points)],
    A.Slice: lambda n: [n.end, doc(n.count), doc(n.pile)],
    A.RunAtEnd: lambda n: ["run", n.end, doc(n.count), doc(n.pile), "using", doc(n.points)],
    A.Partition: lambda n: ["partition", doc(n.attribute), *map(doc, n.args)],
    A.Subsets: lambda n: ["subsets", doc(n.pile)],
    A.Tuples: lambda n: ["tuples", doc(n.count), doc(n.pile), "using", doc(n.points)],
    A.Runs: lambda n: ["runs", n.mode, doc(n.count), doc(n.pile), "using", doc(n.points)] + _run_clauses(n),
    A.IsRun: lambda n: ["isrun", doc(n.coll), "using", doc(n.points)] + _run_clauses(n),
    A.Fold: lambda n: [n.op, doc(n.coll), _var(n.var), doc(n.body)],
    A.BoardShape: lambda n: [n.shape, *map(doc, n.dims)],
    A.Cells: lambda n: ["cells", doc(n.board)],
    A.CellAt: lambda n: ["cell", doc(n.board), doc(n.row), doc(n.col)],
    A.Coord: lambda n: [n.axis, doc(n.cell)],
    A.Directions: lambda n: ["directions", doc(n.board)],
    A.Neighbors: lambda n: ["neighbors", doc(n.cell)] + ([doc(n.dirs)] if n.dirs is not None else []),
    A.Ray: lambda n: ["ray", doc(n.cell), doc(n.direction)],
    A.Line: lambda n: ["line", doc(n.cell), doc(n.direction), doc(n.count)],
    A.Components: lambda n: ["components", doc(n.cells)] + ([doc(n.dirs)] if n.dirs is not None else []),
    A.Collect: lambda n: ["all", doc(n.coll), _var(n.var), doc(n.pile)],
    A.AllOf: lambda n: n.what,
    A.Other: lambda n: ["other", n.what],
    A.Range: lambda n: ["range", _dots(n.lo, n.hi)],
    A.NameList: lambda n: [", ".join(n.names)],
    A.WhoRef: lambda n: [n.which, n.what],
    A.WhoById: lambda n: [doc(n.index), n.what],
    A.OwnerOf: lambda n: ["owner", doc(n.card)],
    A.TeamOf: lambda n: ["team", doc(n.player)],
    A.TeamAsPlayers: lambda n: doc(n.team),
    A.Condition: lambda n: [doc(n.key), ":", doc(n.value)],
    A.Award: lambda n: [*map(doc, n.conditions), doc(n.points)],
    A.Move: lambda n: ["move", doc(n.card), doc(n.dest)],
    A.Remember: lambda n: ["remember", doc(n.card), doc(n.dest)],
    A.Forget: lambda n: ["forget", doc(n.card)],
    A.Swap: lambda n: ["swap", doc(n.a), doc(n.b)],
    A.Shuffle: lambda n: ["shuffle", doc(n.pile)],
    A.SetValue: lambda n: ["set", doc(n.target), doc(n.value)],
    A.SetPoints: lambda n: ["set", doc(n.target), [doc(a) for a in n.awards]],
    A.IncDec: lambda n: [n.op, doc(n.target)] + ([doc(n.amount)] if n.amount is not None else []),
    A.Cycle: lambda n: ["cycle", n.mode, doc(n.target)],
    A.TurnPass: lambda n: ["turn", "pass"],
    A.Repeat: lambda n: ["repeat", doc(n.count), doc(n.body)],
    A.RepeatAll: lambda n: ["repeat", "all", doc(n.body)],
    A.ValueNode: lambda n: [n.value, *map(doc, n.attributes)],
    A.Attribute: lambda n: [n.key, [", ".join(v.value for v in n.values)]] if n.flat else [n.key, *map(doc, n.values)],
    A.CreateBoard: lambda n: ["create", "board", doc(n.location), doc(n.shape)]
    + ([["capacity", doc(n.capacity)]] if n.capacity is not None else []),
    A.Clear: lambda n: ["clear", doc(n.target)],
    A.Atomic: lambda n: ["atomic", doc(n.body), ["require", doc(n.require)]],
    A.CreateDeck: lambda n: ["create", "deck"] + ([doc(n.deck_name)] if n.deck_name is not None else [])
    + [doc(n.location), ["deck", *map(doc, n.attributes)]],
    A.Guarded: lambda n: [doc(n.cond), doc(n.body)],
    A.Do: lambda n: _do_like("do", n.clauses),
    A.Choice: lambda n: _do_like("choice", n.clauses),
    A.Loop: lambda n: [n.quant, doc(n.coll), _var(n.var), doc(n.body)],
    A.Let: lambda n: ["let", doc(n.value), _var(n.var), doc(n.body)],
    A.Stage: lambda n: ["stage", n.kind, ["end", doc(n.end)], *map(doc, n.items)],
    A.Declare: lambda n: ["declare", doc(n.value), _var(n.var)],
    A.CreatePlayers: lambda n: ["create", "players", doc(n.count)],
    A.CreateTeams: lambda n: ["create", "teams", *[[", ".join(map(str, t))] for t in n.teams]],
    A.Setup: lambda n: ["setup", doc(n.players)] + ([doc(n.teams)] if n.teams else []) + [doc(d) for d in n.decks],
    A.Scoring: lambda n: ["scoring", n.direction, doc(n.expr)]
    + ([["tiebreak", *map(doc, n.tiebreaks)]] if n.tiebreaks else []),
    A.Game: lambda n: ["game", *map(doc, n.declares), doc(n.setup), *map(doc, n.items), doc(n.scoring)],
}


BINDERS = {"any", "all", "filter", "let", "sum", "max", "min"}


def _run_clauses(n) -> list:
    return ([["step", doc(n.step)]] if n.step is not None else []) + ([["cyclic", doc(n.cyclic)]] if n.cyclic is not None else [])


def _dots(lo, hi) -> str:
    return flat(doc(lo)) + ".." + flat(doc(hi))


def _positional(pos: str, pile, index) -> list:
    return [doc(index) if pos == "index" else pos, doc(pile)]


def doc(node):
    """The layout document of a node."""
    rule = RULES.get(type(node))
    if rule is None:
        raise TypeError(f"no printing rule for {type(node).__name__}")
    return rule(node)


def flat(d) -> str:
    if isinstance(d, str):
        return d
    return "(" + " ".join(flat(x) for x in d) + ")"


def layout(d, indent: int = 0) -> str:
    """Render a document, breaking forms that do not fit in WIDTH columns."""
    one = flat(d)
    if isinstance(d, str) or indent + len(one) <= WIDTH:
        return one
    # Head and the plain atoms right after it stay on the first line.
    lead = []
    i = 0
    while i < len(d) and isinstance(d[i], str) and (i == 0 or len(lead) < 3):
        lead.append(d[i])
        i += 1
    if lead and lead[0] in BINDERS and len(d) > 3 and i == 1 and isinstance(d[2], str) and d[2][:1] == "'":
        # Keep `(any <coll> 'V` together, as people write it, when it fits.
        cand = [lead[0], flat(d[1]), flat(d[2])]
        if indent + len(" ".join(cand)) + 1 <= WIDTH:
            lead, i = cand, 3
    if not lead:
        first = layout(d[0], indent + 1)
        rest = d[1:]
        head = "(" + first
    else:
        head = "(" + " ".join(lead)
        rest = d[i:]
    if not rest:
        return head + ")"
    inner = indent + 1
    lines = [head]
    for x in rest:
        lines.append(" " * inner + layout(x, inner))
    return "\n".join(lines) + ")"


def to_source(node) -> str:
    """Canonical RECYCLE text for a node (a whole game ends with a newline)."""
    text = layout(doc(node))
    return text + "\n" if isinstance(node, A.Game) else text
