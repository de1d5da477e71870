"""Pretty-printer: typed AST -> canonical RECYCLE text (parse(print(ast)) == ast).

Each node becomes a small document: a string (an atom) or a list (a form).  The
layout puts a form on one line when it fits and otherwise breaks it Lisp-style,
its head and leading atoms on the first line and every further element on a
line of its own.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import ast as A
from .sexprs import Atom

Doc = str | list
Render = Callable[[Any], Doc]
Rule = Callable[[Any, Render], Doc]
WIDTH = 96


def _var(name: str) -> str:
    return "'" + name


def _do_like(d: Render, head: str, clauses) -> list:
    return [head, [d(c) for c in clauses]]


RULES: dict[type, Rule] = {
    A.IntLit: lambda n, d: str(n.value),
    A.Name: lambda n, d: n.value,
    A.Var: lambda n, d: _var(n.name),
    A.GameOwner: lambda n, d: "game",
    A.Storage: lambda n, d: [d(n.owner), n.kind, d(n.name)],
    A.Arith: lambda n, d: [n.op, *map(d, n.args)],
    A.IntFn: lambda n, d: [n.fn, d(n.arg)],
    A.Random: lambda n, d: ["random", d(n.hi)] if n.lo is None else ["random", _dots(d, n.lo, n.hi)],
    A.Size: lambda n, d: ["size", d(n.coll)],
    A.Sum: lambda n, d: ["sum", d(n.pile), "using", d(n.points)],
    A.Score: lambda n, d: ["score", d(n.card), "using", d(n.points)],
    A.ScoreExtreme: lambda n, d: [n.which, d(n.pile), "using", d(n.points)],
    A.Pid: lambda n, d: ["pid", d(n.player)],
    A.CardAtt: lambda n, d: ["cardatt", d(n.attribute), d(n.card)],
    A.Logic: lambda n, d: [n.op, *map(d, n.args)],
    A.Not: lambda n, d: ["not", d(n.arg)],
    A.Compare: lambda n, d: [n.op, d(n.left), d(n.right)],
    A.Quantifier: lambda n, d: [n.quant, d(n.coll), _var(n.var), d(n.cond)],
    A.CardAt: lambda n, d: _positional(d, n.pos, n.pile, n.index),
    A.PileAt: lambda n, d: _positional(d, n.pos, n.piles, n.index),
    A.CardExtreme: lambda n, d: [n.which, d(n.pile), "using", d(n.points)],
    A.Actual: lambda n, d: ["actual", d(n.card)],
    A.Location: lambda n, d: [d(n.owner), n.kind.value, d(n.name)] + ([d(n.index)] if n.index is not None else []),
    A.Indexed: lambda n, d: ["indexed", d(n.owner), n.kind.value, d(n.name)],
    A.SetOp: lambda n, d: [n.op, *map(d, n.args)],
    A.Filter: lambda n, d: ["filter", d(n.coll), _var(n.var), d(n.cond)],
    A.Sort: lambda n, d: ["sort", d(n.pile), "using", d(n.points)],
    A.Slice: lambda n, d: [n.end, d(n.count), d(n.pile)],
    A.RunAtEnd: lambda n, d: ["run", n.end, d(n.count), d(n.pile), "using", d(n.points)],
    A.Partition: lambda n, d: ["partition", d(n.attribute), *map(d, n.args)],
    A.Subsets: lambda n, d: ["subsets", d(n.pile)],
    A.Tuples: lambda n, d: ["tuples", d(n.count), d(n.pile), "using", d(n.points)],
    A.Runs: lambda n, d: ["runs", n.mode, d(n.count), d(n.pile), "using", d(n.points), *_run_clauses(n, d)],
    A.IsRun: lambda n, d: ["isrun", d(n.coll), "using", d(n.points), *_run_clauses(n, d)],
    A.Fold: lambda n, d: [n.op, d(n.coll), _var(n.var), d(n.body)],
    A.BoardShape: lambda n, d: [n.shape, *map(d, n.dims)],
    A.Cells: lambda n, d: ["cells", d(n.board)],
    A.CellAt: lambda n, d: ["cell", d(n.board), d(n.row), d(n.col)],
    A.Coord: lambda n, d: [n.axis, d(n.cell)],
    A.Directions: lambda n, d: ["directions", d(n.board)],
    A.Neighbors: lambda n, d: ["neighbors", d(n.cell)] + ([d(n.dirs)] if n.dirs is not None else []),
    A.Ray: lambda n, d: ["ray", d(n.cell), d(n.direction)],
    A.Line: lambda n, d: ["line", d(n.cell), d(n.direction), d(n.count)],
    A.Components: lambda n, d: ["components", d(n.cells)] + ([d(n.dirs)] if n.dirs is not None else []),
    A.Collect: lambda n, d: ["all", d(n.coll), _var(n.var), d(n.pile)],
    A.AllOf: lambda n, d: n.what,
    A.Other: lambda n, d: ["other", n.what],
    A.Range: lambda n, d: ["range", _dots(d, n.lo, n.hi)],
    A.NameList: lambda n, d: [", ".join(n.names)],
    A.WhoRef: lambda n, d: [n.which, n.what],
    A.WhoById: lambda n, d: [d(n.index), n.what],
    A.OwnerOf: lambda n, d: ["owner", d(n.card)],
    A.TeamOf: lambda n, d: ["team", d(n.player)],
    A.TeamAsPlayers: lambda n, d: d(n.team),
    A.Condition: lambda n, d: [d(n.key), ":", d(n.value)],
    A.Award: lambda n, d: [*map(d, n.conditions), d(n.points)],
    A.Move: lambda n, d: ["move", d(n.card), d(n.dest)],
    A.Remember: lambda n, d: ["remember", d(n.card), d(n.dest)],
    A.Forget: lambda n, d: ["forget", d(n.card)],
    A.Swap: lambda n, d: ["swap", d(n.a), d(n.b)],
    A.Shuffle: lambda n, d: ["shuffle", d(n.pile)],
    A.SetValue: lambda n, d: ["set", d(n.target), d(n.value)],
    A.SetPoints: lambda n, d: ["set", d(n.target), [d(a) for a in n.awards]],
    A.IncDec: lambda n, d: [n.op, d(n.target)] + ([d(n.amount)] if n.amount is not None else []),
    A.Cycle: lambda n, d: ["cycle", n.mode, d(n.target)],
    A.TurnPass: lambda n, d: ["turn", "pass"],
    A.Repeat: lambda n, d: ["repeat", d(n.count), d(n.body)],
    A.RepeatAll: lambda n, d: ["repeat", "all", d(n.body)],
    A.ValueNode: lambda n, d: [n.value, *map(d, n.attributes)],
    A.Attribute: lambda n, d: [n.key, [", ".join(v.value for v in n.values)]] if n.flat else [n.key, *map(d, n.values)],
    A.CreateBoard: lambda n, d: ["create", "board", d(n.location), d(n.shape)]
    + ([["capacity", d(n.capacity)]] if n.capacity is not None else []),
    A.Clear: lambda n, d: ["clear", d(n.target)],
    A.Atomic: lambda n, d: ["atomic", d(n.body), ["require", d(n.require)]],
    A.CreateDeck: lambda n, d: ["create", "deck"] + ([d(n.deck_name)] if n.deck_name is not None else [])
    + [d(n.location), ["deck", *map(d, n.attributes)]],
    A.Guarded: lambda n, d: [d(n.cond), d(n.body)],
    A.Do: lambda n, d: _do_like(d, "do", n.clauses),
    A.Choice: lambda n, d: _do_like(d, "choice", n.clauses),
    A.Loop: lambda n, d: [n.quant, d(n.coll), _var(n.var), d(n.body)],
    A.Let: lambda n, d: ["let", d(n.value), _var(n.var), d(n.body)],
    A.Stage: lambda n, d: ["stage", n.kind, ["end", d(n.end)], *map(d, n.items)],
    A.Declare: lambda n, d: ["declare", d(n.value), _var(n.var)],
    A.CreatePlayers: lambda n, d: ["create", "players", d(n.count)],
    A.CreateTeams: lambda n, d: ["create", "teams", *[[", ".join(map(str, t))] for t in n.teams]],
    A.Setup: lambda n, d: ["setup", d(n.players)] + ([d(n.teams)] if n.teams else []) + [d(x) for x in n.decks],
    A.Scoring: lambda n, d: ["scoring", n.direction, d(n.expr)]
    + ([["tiebreak", *map(d, n.tiebreaks)]] if n.tiebreaks else []),
    A.Game: lambda n, d: ["game", *map(d, n.declares), *map(d, n.definitions), *([d(n.limits)] if n.limits else []),
                          d(n.setup), *map(d, n.items), d(n.scoring)],
    # definitions, conditionals, alternatives, decisions, loops, matches, limits
    A.Define: lambda n, d: ["define", [n.name, *map(_var, n.params)] if n.params else n.name, sexp_doc(n.body)],
    A.CallExpr: lambda n, d: [n.name, *map(d, n.args)],
    A.CallClause: lambda n, d: [n.name, *map(d, n.args)],
    A.CallItem: lambda n, d: [n.name, *map(d, n.args)],
    A.IfExpr: lambda n, d: ["if", d(n.cond), d(n.then), d(n.orelse)],
    A.If: lambda n, d: ["if", d(n.cond), d(n.then)] + ([d(n.orelse)] if n.orelse is not None else []),
    A.Either: lambda n, d: _do_like(d, "either", n.clauses),
    A.OptionalStep: lambda n, d: _do_like(d, "optional", n.clauses),
    A.Ask: lambda n, d: ["ask", d(n.players), _var(n.var), d(n.body)],
    A.While: lambda n, d: ["while", d(n.cond), *map(d, n.items)],
    A.Match: lambda n, d: ["match", ["end", d(n.end)], ["score", d(n.score)], *map(d, n.items)],
    A.MatchScore: lambda n, d: ["matchscore", d(n.player)],
    A.Limits: lambda n, d: ["limits"] + ([["decisions", d(n.decisions)]] if n.decisions is not None else [])
    + ([["steps", d(n.steps)]] if n.steps is not None else [])
    + ([["options", d(n.options)]] if n.options is not None else []),
    # piles and melds
    A.CardAsPile: lambda n, d: d(n.card),
    A.PileTest: lambda n, d: [n.test, d(n.pile), d(n.other)],
    A.MeldRulesForm: lambda n, d: _meldrules(n, d),
    A.MeldTest: lambda n, d: [n.test, d(n.pile), "using", d(n.rules)],
    A.Melds: lambda n, d: ["melds", d(n.pile), "using", d(n.rules)],
    A.Deadwood: lambda n, d: [n.what, d(n.pile), "using", d(n.rules), d(n.points)],
    A.Fits: lambda n, d: ["fits", d(n.card), d(n.meld), "using", d(n.rules)],
}


BINDERS = {"any", "all", "filter", "let", "sum", "max", "min"}


def _meldrules(n, d: Render) -> list:
    out = ["meldrules", ["rank", n.rank, [", ".join(n.ranks)]]]
    if n.suit is not None:
        out.append(["suit", n.suit])
    if n.ace != "low":
        out.append(["ace", n.ace])
    if n.wild:
        out.append(["wild", *[d(c[0]) if len(c) == 1 else [d(x) for x in c] for c in n.wild]])
    if n.size is not None:
        out.append(["size", d(n.size)])
    if n.distinct:
        out.append(["distinct"])
    return out


def sexp_doc(x) -> Doc:
    """The layout document of an S-expression as read (a definition's body): atoms as written."""
    if isinstance(x, Atom):
        return x.text
    out: list = []
    items = list(x.items)
    i = 0
    while i < len(items):
        it = items[i]
        if isinstance(it, Atom) and it.kind == "COMMA" and out and isinstance(out[-1], str):
            out[-1] += ","
        elif (isinstance(it, Atom) and it.kind == "DOTDOT" and out and isinstance(out[-1], str)
              and i + 1 < len(items) and isinstance(items[i + 1], Atom)):
            out[-1] += ".." + items[i + 1].text
            i += 1
        else:
            out.append(sexp_doc(it))
        i += 1
    return out


def _run_clauses(n, d: Render) -> list:
    return (([["step", d(n.step)]] if n.step is not None else [])
            + ([["cyclic", d(n.cyclic)]] if n.cyclic is not None else []))


def _dots(d: Render, lo, hi) -> str:
    return flat(d(lo)) + ".." + flat(d(hi))


def _positional(d: Render, pos: str, pile, index) -> list:
    return [d(index) if pos == "index" else pos, d(pile)]


def doc(node) -> Doc:
    """The layout document of a node."""
    rule = RULES.get(type(node))
    if rule is None:
        raise TypeError(f"no printing rule for {type(node).__name__}")
    return rule(node, doc)


# Messages name a form by its head and operands and elide the bodies of binders, which can be long.
BRIEF_RULES: dict[type, Rule] = {
    A.Filter: lambda n, d: ["filter", d(n.coll), _var(n.var), "…"],
    A.Partition: lambda n, d: ["partition", d(n.attribute), "…"],
    A.IsRun: lambda n, d: ["isrun", d(n.coll), "using", d(n.points), "…"],
    A.Fold: lambda n, d: [n.op, d(n.coll), _var(n.var), "…"],
    A.Runs: lambda n, d: ["runs", n.mode, d(n.count), d(n.pile), "using", d(n.points)],
}


def _brief_doc(node) -> Doc:
    rule = BRIEF_RULES.get(type(node)) or RULES.get(type(node))
    if rule is None:
        return f"<{type(node).__name__}>"
    return rule(node, _brief_doc)


def brief(node) -> str:
    """A form on one line for messages, binder bodies elided: `(filter (game vloc DECK) 'C …)`."""
    return flat(_brief_doc(node))


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
    lead: list[str] = []
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
