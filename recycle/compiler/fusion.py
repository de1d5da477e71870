"""Expressions fused into generated Python: one function call per loop instead of one closure call per node.

A random rollout of a board game tests the same conditions on hundreds of cells, and as closures
every node of `(and (== (size 'X) 0) (== ('X sto BLOCKED) 0) …)` costs a Python call per cell:
those calls were most of the time of a Rummykruss rollout.  `fuse` compiles an expression made of
the forms of FUSED into the source text of one Python function instead (one more for each
`any`, `all` or `filter` inside it: its loop, unless that loop is the whole expression, then the
function is the loop's), executed once at compile time.  Forms that are
not in FUSED, and parts of forms that check something and can fail, stay closures called from
the generated code, so their checks and messages are the closures' own; a variable is its env
slot, as for the closures, so both read the same bindings.  The generated code evaluates the same
subexpressions in the same order as the closures would and gives the same values.

Fusing pays when the expression has a loop or a few nodes; a lone form is left to its closure.

An expression changes nothing while it is evaluated, so a loop written twice in it, with no free
variable and nothing random in it (Rummykruss tests `(filter (cells …) 'X (> (size 'X) 0))` in
both directions of one `require`), has the same value both times: the function computes it the
first time it is needed and reuses it the second.

And the shape of a board never changes: once every board of the game is built, a part made only
of board geometry and arithmetic with one variable, `(+ (* (row 'X) 'BOARD) (col 'X))` or
`(neighbors 'X (N, E, S, W))`, has one value per value of the variable, kept in a table the
first time it is computed (the program's, for all its games).
"""
from __future__ import annotations

import re
from collections.abc import Callable
from itertools import count

from ..errors import InternalError
from ..lang import ast as A
from ..lang.ast import T
from ..lang.consts import walk
from . import boards
from . import references as refs
from .context import Compiler
from .expressions import no_card_attribute
from .fusion_trees import GEOMETRY, children, deeper_than, draws_random, free_vars, geometric_slot, shared_loops

# An expression is fused if it has a loop, or at least this many fused nodes.  Two are enough: a
# guard such as (!= (cardatt RANK (top (game vloc DISCARD))) EIGHT) is one call fused and three
# closure calls not (Go Fish 8%, Leduc 5%, Crazy Eights 3% faster than with four; issue 16).
MIN_NODES = 2

_ATOMS = (int, str, bool, type(None))
_NOT_YET = object()  # a shared subexpression not computed yet


def fuse(cx: Compiler, n, sc) -> Callable | None:
    """The generated function evaluating n, or None if n is better left to its closure."""
    if type(n) not in FUSED or not _worth(cx, n, sc) or deeper_than(n, MAX_FUSED_DEPTH, cx.heights):
        return None
    return _Source(cx).compile(n, sc)


# Python's own parser refuses source nested about 200 parentheses deep: a deeper expression
# (forms may nest up to reader.MAX_DEPTH) keeps its closures.
MAX_FUSED_DEPTH = 60


def _worth(cx: Compiler, n, sc) -> bool:
    nodes = 0
    todo = [n]
    while todo:
        m = todo.pop()
        t = type(m)
        if t not in FUSED or cx.const(m, sc)[0]:
            continue
        if t is A.Quantifier or t is A.Filter:
            return True
        nodes += 1
        if nodes >= MIN_NODES:
            return True
        todo.extend(x for x in children(m) if x is not None)
    return False


# The state's lists a generated function reads, bound once per call (an expression changes none of them).
_HOISTED = {"_piles": "st.piles", "_vals": "st.vals", "_nvals": "len(st.vals)", "_catt": "st.catt",
            "_boards": "st.boards", "_nboards": "len(st.boards)"}
# Forms read directly even when they are loop-invariant (see _Source.invariant): a memo would cost more.
_NOT_HOISTED = (A.Var, A.Storage, A.AllOf, A.Other)
# The collections whose elements are always stored piles (cell ids): a loop over them needs no test of kind.
_PILE_IDS = (A.Cells, A.Neighbors, A.Line, A.Ray)


def _head(body: str) -> str:
    """The first lines of a generated function of this body: the state's lists, memos and variables it reads."""
    head = "".join(f"    {k} = {v}\n" for k, v in _HOISTED.items() if re.search(rf"\b{k}\b", body))
    head += "".join(f"    {a} = _C{a[2:]}[1] if _C{a[2:]}[0] is st.catt else _column(_C{a[2:]}, st.catt)\n"
                    for a in sorted(set(re.findall(r"\b_a\d+\b", body)), key=lambda a: int(a[2:])))
    head += "".join(f"    {m} = _NOT_YET\n" for m in sorted(set(re.findall(r"\b_m\d+\b", body))))
    return head + "".join(f"    _s{k} = env[{k}]\n" for k in sorted(set(re.findall(r"\b_s(\d+)\b", body)), key=int))


def _column(cell: list, catt: list) -> list:
    """Every card's value of one attribute, by card id: an index instead of a dict's `get` per card (Go Fish's
    filter of the hand per rank).  `cell` is [card table, column, attribute], the column kept for that table:
    a state's card table is replaced, never changed in place, when cards are created or their attributes
    overridden (copy on write), and clones share it, so the column is made again only then."""
    a = cell[2]
    col = [att.get(a, "") for att in catt]
    cell[0], cell[1] = catt, col
    return col


class _Source:
    """The source text of one fused expression, its helper functions, and the objects it refers to."""

    def __init__(self, cx: Compiler):
        self.cx = cx
        self.ns: dict = {}  # name -> object, the globals of the generated code
        self.defs: list[str] = []
        self.ids = count()
        self.local: dict[int, str] = {}  # env slot -> the local holding its value, in the function being written
        self.pids: set[str] = set()  # the locals known to hold a stored pile's id, in the function being written
        self.shared: set = set()  # subexpressions computed once (shared_loops)
        self.memo: dict = {}  # shared subexpression -> its source, in the function being written
        self.filling = False  # writing the function that fills a geometry table
        # the env slots whose values change while the loop function being written runs (its variable,
        # the parameters of the definitions used in it); None outside a loop function
        self.varying: set[int] | None = None
        self.card_locals: set[str] = set()  # the locals known to hold a card (a loop's element from a pile)
        self.ns["_NOT_YET"] = _NOT_YET
        self.ns["_column"] = _column
        self.columns: dict[str, str] = {}  # card attribute -> the local of its column (column)
        # the call of a loop function (_loop) -> (its index in defs, the source of its collection, its body)
        self.loop_calls: dict[str, tuple[int, str, str]] = {}

    def compile(self, n, sc) -> Callable:
        self.shared = shared_loops(n)
        text = self.src(n, sc)
        loop = self.loop_calls.get(text)
        if loop is None:
            self.function("_fused", "", f"    return {text}\n")
        else:
            # The expression is one loop: its function becomes _fused itself, the collection read first, then
            # the loop's own locals, as when it was called (one call fewer per evaluation: Go Fish's filter of
            # the hand per rank, issue 16).
            i, coll, body = loop
            self.defs[i] = ""
            outer = f"    _coll = {coll}\n"
            first = _head(outer)
            # the state's lists already read stay read (a collection changes none of them); variables are read again
            then = "".join(x for x in _head(body).splitlines(True) if not (x in first and x.split()[0] in _HOISTED))
            self.defs.append(f"def _fused(st, env):\n{first}{outer}{then}{body}")
        exec(compile("\n".join(self.defs), f"<fused {n.span}>", "exec"), self.ns)
        return self.ns["_fused"]

    def function(self, name: str, params: str, body: str) -> None:
        """Add a generated function, reading the state's lists it uses into locals first."""
        self.defs.append(f"def {name}(st, env{params}):\n{_head(body)}{body}")

    # ------------------------------------------------------------ names and temporaries

    def ref(self, obj, prefix: str = "_c") -> str:
        """A name of the generated code standing for obj (a closure, a helper, a constant)."""
        name = f"{prefix}{next(self.ids)}"
        self.ns[name] = obj
        return name

    def const(self, v) -> str:
        return repr(v) if type(v) in _ATOMS else self.ref(v, "_k")

    def call(self, f) -> str:
        """A call of the closure f(st, env)."""
        return f"{self.ref(f)}(st, env)"

    def temp(self) -> str:
        return f"_t{next(self.ids)}"

    def column(self, attribute: str) -> str:
        """The local holding every card's value of `attribute` (`_column`), read at the top of the function."""
        name = self.columns.get(attribute)
        if name is None:
            i = next(self.ids)
            self.ns[f"_C{i}"] = [None, None, attribute]
            name = self.columns[attribute] = f"_a{i}"
        return name

    # ------------------------------------------------------------ expressions

    def src(self, n, sc) -> str:
        """Python source evaluating n (st and env in scope)."""
        c, v = self.cx.const(n, sc)
        if c:
            return self.const(v)
        f = FUSED.get(type(n))
        if f is None:
            if type(n) in GEOMETRY:
                return self.geometry(n, sc) or self.call(self.cx.expr(n, sc))
            key = self.invariant(n, sc)
            if key is None:
                return self.call(self.cx.expr(n, sc))
            return self.kept(key, lambda: self.call(self.cx.expr(n, sc)))
        if type(n) is not A.Var and (text := self.geometry(n, sc)) is not None:
            return text
        if n not in self.shared:
            key = self.invariant(n, sc)
            if key is None:
                return f(self, n, sc)
            return self.kept(key, lambda: f(self, n, sc))
        return self.kept(n, lambda: f(self, n, sc))

    def kept(self, key, write: Callable[[], str]) -> str:
        """Source computing a value where first needed in this function and reusing it after (memo by key)."""
        text = self.memo.get(key)
        if text is None:  # the first time in this function: computed where first needed, then kept
            m = f"_m{next(self.ids)}"
            text = self.memo[key] = f"({m} if {m} is not _NOT_YET else ({m} := {write()}))"
        return text

    def invariant(self, n, sc) -> tuple | None:
        """The memo key of n if it is loop-invariant in the loop function being written, else None.

        Inside a loop's test, a part that reads neither the loop's variable nor anything bound in
        the test, and draws nothing at random, has the same value for every element (an expression
        changes nothing): `(cardatt SUIT (top DISCARD))` in a filter of the hand.  It is computed
        where first needed, as before, and kept for the other elements.  The key is the node with
        the slots its variables read, so that one definition's body used with other arguments is
        another part.  Variables and cells are read directly (a memo would cost more).
        """
        if self.varying is None or type(n) in _NOT_HOISTED or self.filling:
            return None
        slots = []
        for name in sorted(free_vars(n)):
            b = sc.get(name)
            if b is None:
                return None
            if not b[0]:
                if b[1] in self.varying:
                    return None
                slots.append((name, b[1]))
        if draws_random(n):
            return None
        return (n, tuple(slots))

    def geometry(self, n, sc) -> str | None:
        """n read from a table by the value of its one variable, if it is board geometry (None otherwise)."""
        slot = None if self.filling else geometric_slot(self.cx, n, sc)
        if slot is None:  # (parts of a geometric part are computed with it, not read from tables of their own)
            return None
        table: dict = {}
        name, x, r = self.ref(None, "_g"), self.temp(), self.temp()
        outer, self.local, memo, self.memo, pids, self.pids = self.local, {slot: "_x"}, self.memo, {}, self.pids, set()
        self.filling = True
        try:
            f = FUSED.get(type(n))
            value = f(self, n, sc) if f is not None else self.call(self.cx.expr(n, sc))
        finally:
            self.local, self.memo, self.pids, self.filling = outer, memo, pids, False
        boards = len(self.cx.p.board_families)
        tab = self.ref(table, "_k")
        # a board not built yet is an error of the form: the table serves only when all are built
        self.function(name, ", _x", f"    _v = {value}\n"
                      f"    if _x.__class__ is int and len(st.boards) == {boards}:\n"
                      f"        {tab}[_x] = _v\n"
                      f"    return _v\n")
        var = outer.get(slot) or f"env[{slot}]"
        kind = "" if var in self.pids else f"({x} := {var}).__class__ is int and "
        x = var if var in self.pids else x
        return (f"({r} if {kind}({r} := {tab}.get({x}, _NOT_YET)) is not _NOT_YET"
                f" and _nboards == {boards} else {name}(st, env, {x}))")

    def location(self, n: A.Location, sc) -> str:
        """The pile id of a location, as refs.location gives it.

        A constant name owned by the current player or by a player variable is an index into the
        table of that name's pile per player, written in the code: no closure call per card or
        per player of a loop such as (all player 'P (== (size ('P iloc HAND)) 0)).
        """
        tbl = refs.location_table(self.cx, n, sc)
        if tbl is not None:
            if type(n.owner) is A.GameOwner:
                return str(tbl[0])
            who = self.player(n.owner, sc)
            if who is not None:
                if who.isdigit():  # a player written in (_unrolled): the pile id itself
                    return str(tbl[1 + int(who)])
                return f"{self.ref(tuple(tbl[1:]), '_k')}[{who}]"
        s, f = refs.location(self.cx, n, sc)
        return str(s) if s is not None else self.call(f)

    def player(self, o, sc) -> str | None:
        """The source of the player a location's or a cell's owner names, for the common owners; else None."""
        t = type(o)
        if t is A.WhoRef and o.what == "player":
            if o.which == "current":
                return "st.pcyc[-2]"
            n = self.cx.n
            if o.which == "previous":
                return f"((st.pcyc[-2] - 1) % {n})"
            q = self.temp()  # next: the queued player if any (as expressions.e_whoref)
            return f"({q} if ({q} := st.pcyc[-1]) >= 0 else (st.pcyc[-2] + 1) % {n})"
        if t is A.Var and o.type == T.PLAYER and not sc[o.name][0]:
            return _var(self, o, sc)
        return None

    def pile(self, n, sc) -> str:
        """A pile value, as refs.pile gives it: a pile id, or the card list of a virtual pile."""
        if type(n) is A.Location:
            return self.location(n, sc)
        return self.src(n, sc)

    def cards(self, n, sc) -> str:
        """The card list of a pile (or the elements of a collection), as refs.cards / refs.coll give them."""
        t = type(n)
        if t is A.Location:
            return f"_piles[{self.location(n, sc)}]"
        if t not in FUSED and refs.holds_pile(n):  # a cell, a pile at an index: maybe a stored pile
            return self.call(refs.cards(self.cx, n, sc))
        if refs.holds_pile(n):  # a variable, a definition's use, an `if` of piles: an id or a card list
            v, x = self.src(n, sc), self.temp()
            if v in self.pids:
                return f"_piles[{v}]"
            return f"(_piles[{x}] if ({x} := {v}).__class__ is int else {x})"
        return self.src(n, sc)

    def cell(self, node, sc, form: str) -> str:
        """(BoardFamily, cell index) of a cell operand, as boards.cell_fn gives it (the check inlined)."""
        pid = self.pile(node, sc)
        check = self.ref(boards.cell_check(self.cx, node, form))
        hit = self.cx.p.cell_of.get(int(pid)) if pid.isdigit() else None
        if hit is not None:  # a constant cell (a board named in the text): only "is it built yet?" is left
            return f"({self.ref(hit, '_k')} if {hit[0].fid} in _boards else {check}(st, {pid}))"
        x, h = self.temp(), self.temp()
        cell_of = self.ref(self.cx.p.cell_of, "_k")
        kind = "" if pid in self.pids else f"({x} := {pid}).__class__ is int and "
        x = pid if pid in self.pids else x
        return (f"({h} if {kind}({h} := {cell_of}.get({x})) is not None"
                f" and {h}[0].fid in _boards else {check}(st, {x}))")


def _var(g: _Source, n: A.Var, sc) -> str:
    b = sc.get(n.name)
    if b is None:
        raise InternalError(f"unbound variable '{n.name} at {n.span}")
    local = g.local.get(b[1])  # a constant was taken by _Source.src
    if local is not None:
        return local
    if g.varying is not None and b[1] not in g.varying:
        # in a loop function, a variable bound outside it (an outer loop's element, say) keeps its
        # value while the loop runs: read once into a local when the function starts (_Source.function)
        return f"_s{b[1]}"
    return f"env[{b[1]}]"


def _compare(g: _Source, n: A.Compare, sc) -> str:
    if n.type == T.PLAYER:  # either side may be `no player` (refs.ply_raw)
        a, b = g.call(refs.ply_raw(g.cx, n.left, sc)), g.call(refs.ply_raw(g.cx, n.right, sc))
        return f"({a} {n.op} {b})"
    if type(n.left) is A.Size and n.op in ("==", "!=", ">") and g.cx.const(n.right, sc) == (True, 0):
        # (== (size X) 0) is "X is empty": the truth of the list, without counting it
        c = g.cards(n.left.coll, sc)
        return f"(not {c})" if n.op == "==" else f"(not not {c})"
    return f"({g.src(n.left, sc)} {n.op} {g.src(n.right, sc)})"


def _logic(g: _Source, n: A.Logic, sc) -> str:
    return "(" + f" {n.op} ".join(g.src(a, sc) for a in n.args) + ")"


def _not(g: _Source, n: A.Not, sc) -> str:
    return f"(not {g.src(n.arg, sc)})"


def _arith(g: _Source, n: A.Arith, sc) -> str:
    if n.op not in ("+", "-"):  # products, division and powers check their operands and the integer limit
        return g.call(g.cx.closure(n, sc))
    return "(" + f" {n.op} ".join(g.src(a, sc) for a in n.args) + ")"


def _size(g: _Source, n: A.Size, sc) -> str:
    return f"len({g.cards(n.coll, sc)})"


def _storage(g: _Source, n: A.Storage, sc) -> str:
    if n.kind == "ply":  # an unset player cell is an error
        return g.call(g.cx.closure(n, sc))
    nc, name = g.cx.const(n.name, sc)
    if nc and n.owner_type in (T.PILE, T.CARD):
        owner = g.pile(n.owner, sc) if n.owner_type == T.PILE else g.src(n.owner, sc)
        sv, cache = refs.ext_slot_of(g.cx, n, name)
        x, s = g.temp(), g.temp()
        kind = "" if owner in g.pids else f"({x} := {owner}).__class__ is int and "
        x = owner if owner in g.pids else x
        # the slot of a known owner read from sv's cache; sv itself for the first time or an error
        # (_nvals, the length of the values when the function started, may be short: sv extends them)
        return (f"_vals[{s} if {kind}({s} := {g.ref(cache, '_k')}.get({x}, -1)) >= 0"
                f" and {s} < _nvals else {g.ref(sv)}(st, {x})]")
    ss, sf = refs.slot(g.cx, n, sc)
    if ss is None and nc and (who := g.player(n.owner, sc)) is not None:
        # as in _Source.location: the slot per player written in the code (for a player written in, the slot)
        tbl = tuple(refs.slot_table(g.cx, n, name)[1:])
        return f"_vals[{tbl[int(who)]}]" if who.isdigit() else f"_vals[{g.ref(tbl, '_k')}[{who}]]"
    return f"_vals[{ss if ss is not None else g.call(sf)}]"


def _loop(g: _Source, n, sc) -> str:
    """any / all / filter: a function of its own holding the loop, called with the collection."""
    if (text := _unrolled(g, n, sc)) is not None:
        return text
    coll = g.cards(n.coll, sc)
    s, sc2 = g.cx.bind(sc, n.var)
    pids = {"_e"} if _pile_ids(n.coll) else set()
    outer, g.local, memo, g.memo, known, g.pids = g.local, {s: "_e"}, g.memo, {}, g.pids, pids
    varying, g.varying = g.varying, {s}
    cards, g.card_locals = g.card_locals, {"_e"} if _card_elements(n) else set()
    try:
        cond = g.src(n.cond, sc2)
    finally:
        g.local, g.memo, g.pids, g.varying, g.card_locals = outer, memo, known, varying, cards
    name = g.ref(None, "_q")
    # closures and inner loops read the variable in its slot; a test reading only `_e` (and other
    # variables' slots, env[k]) needs no slot
    store = f"        env[{s}] = _e\n" if re.search(rf"\benv\b(?!\[)|\benv\[{s}\]", cond) else ""
    if type(n) is A.Filter:
        if not store:
            return _loop_function(g, name, coll, f"    return [_e for _e in _coll if {cond}]\n")
        head, test, hit, end = "    _out = []\n", cond, "_out.append(_e)", "_out"
    elif n.quant == "any":
        head, test, hit, end = "", cond, "return True", "False"
    else:
        head, test, hit, end = "", f"not {cond}", "return False", "True"
    return _loop_function(g, name, coll, f"{head}"
                          f"    for _e in _coll:\n{store}"
                          f"        if {test}:\n"
                          f"            {hit}\n"
                          f"    return {end}\n")


# `any`/`all` over every player is written out, player by player, when there are at most this many players
# and its test is one of these plain forms (no loop, no call: nothing reads the variable's slot).
UNROLL_PLAYERS = 8
_UNROLLED = frozenset({A.Compare, A.Logic, A.Not, A.Storage, A.Name, A.IntLit, A.Var, A.WhoRef, A.GameOwner,
                       A.Size, A.Location})


def _unrolled(g: _Source, n, sc) -> str | None:
    """`(any|all player 'P test)` as the test of each player joined by `or`/`and`, in player order, each with
    the player written in: the same value, tests made in the same order up to the same first decisive
    one, and no function call nor loop (a stage's end test of poker, issue 16); None if not so simple."""
    if (type(n) is not A.Quantifier or type(n.coll) is not A.AllOf or n.coll.what != "player"
            or len(g.cx.all_p) > UNROLL_PLAYERS or any(type(x) not in _UNROLLED for x in walk(n.cond))):
        return None
    s, sc2 = g.cx.bind(sc, n.var)
    local, varying = g.local, g.varying
    # inside a loop function, a part reading the player differs from one player to the next: never kept
    g.varying = None if varying is None else varying | {s}
    tests = []
    try:
        for q in g.cx.all_p:
            g.local = {**local, s: str(q)}
            tests.append(g.src(n.cond, sc2))
    finally:
        g.local, g.varying = local, varying
    if any(re.search(r"\benv\b", t) for t in tests):  # (the unrolled forms read no slot: defensive)
        return None
    return "(" + (" or " if n.quant == "any" else " and ").join(tests) + ")" if tests else repr(n.quant == "all")


def _loop_function(g: _Source, name: str, coll: str, body: str) -> str:
    """Add the function of a loop over `_coll`; the source of its call on the collection."""
    g.function(name, ", _coll", body)
    call = f"{name}(st, env, {coll})"
    g.loop_calls[call] = (len(g.defs) - 1, coll, body)
    return call


def _card_elements(n) -> bool:
    """Are the elements of this loop's collection cards (of a pile: ids, never none)?"""
    return n.elem == T.CARD if type(n) is A.Quantifier else n.type == T.PILE


def _pile_ids(coll) -> bool:
    """Are the elements of this collection always stored piles (ids)?"""
    while type(coll) is A.Filter:
        coll = coll.coll
    return type(coll) in _PILE_IDS


def _card_at(g: _Source, n: A.CardAt, sc) -> str:
    if n.pos == "index":
        return g.call(g.cx.closure(n, sc))
    x = g.temp()
    return f"({x}[{-1 if n.pos == 'top' else 0}] if ({x} := {g.cards(n.pile, sc)}) else None)"


def _cardatt(g: _Source, n: A.CardAtt, sc) -> str:
    c, a = g.cx.const(n.attribute, sc)
    if not c:
        return g.call(g.cx.closure(n, sc))
    card = g.src(n.card, sc)
    if card in g.card_locals:  # a loop's element from a pile: a card, never none
        return f"{g.column(a)}[{card}]"
    x = g.temp()
    none = g.ref(no_card_attribute(g.cx.game, n), "_n")
    return f"({none}() if ({x} := {card}) is None else {g.column(a)}[{x}])"


def _cells(g: _Source, n: A.Cells, sc) -> str:
    return f"{g.cell(n.board, sc, 'cells')}[0].pids"


def _coord(g: _Source, n: A.Coord, sc) -> str:
    x = g.temp()
    return f"({x} := {g.cell(n.cell, sc, n.axis)})[0].geom.coords[{x}[1]][{0 if n.axis == 'row' else 1}]"


def _neighbors(g: _Source, n: A.Neighbors, sc) -> str:
    x = g.temp()
    cell = g.cell(n.cell, sc, "neighbors")
    if n.dirs is None:
        return f"({x} := {cell})[0].nb_all[{x}[1]]"
    dirs = g.const(tuple(n.dirs.names)) if type(n.dirs) is A.NameList else g.src(n.dirs, sc)
    return f"{g.ref(boards.neighbours_in(n))}(({x} := {cell})[0], {x}[1], {dirs})"


def _components(g: _Source, n: A.Components, sc) -> str:
    cells = g.cards(n.cells, sc)
    df = g.ref(g.cx.expr(n.dirs, sc)) if n.dirs is not None else "None"
    return f"{g.ref(boards.components_of(g.cx, n))}(st, env, {cells}, {df})"


def _call(g: _Source, n: A.CallExpr, sc) -> str:
    """A definition's use: its body fused in place, the arguments evaluated first, in order.

    The body reads a parameter from a local of the generated function; closures and inner loops
    called from it read the parameter's env slot, so the slot is set too when the body's code
    passes `env` on.
    """
    inner = dict(sc)
    names, args = [], []
    for name, arg in zip(n.params, n.args, strict=True):
        if type(arg) is A.Var and arg.name in sc:
            # the parameter is that variable under another name: nothing changes it while the
            # expression is evaluated, so the body reads the variable itself (its local or slot)
            inner[name] = sc[arg.name]
            continue
        c, v = g.cx.const(arg, sc)
        if c:
            inner[name] = (True, v)
            continue
        slot = g.cx.new_slot()
        inner[name] = (False, slot)
        if g.varying is not None:  # set anew each time the expression is evaluated
            g.varying.add(slot)
        names.append((slot, g.temp()))
        args.append(g.src(arg, sc))
    outer = g.local
    g.local = {**outer, **{slot: t for slot, t in names}}
    try:
        body = g.src(n.body, inner)
    finally:
        g.local = outer
    if not names:
        return body
    parts = [f"({t} := {a})" for (_, t), a in zip(names, args, strict=True)]
    if re.search(r"\benv\b", body):
        parts += [f"env.__setitem__({slot}, {t})" for slot, t in names]
    return f"({', '.join(parts)}, {body})[-1]"


def _all_of(g: _Source, n: A.AllOf, sc) -> str:
    """(all player) / (all team): the constant tuple, named in the code (no closure call)."""
    return g.ref(g.cx.all_p if n.what == "player" else g.cx.all_t, "_k")


def _other(g: _Source, n: A.Other, sc) -> str:
    """(other player) / (other team): the table of the others of each player (team), indexed in the code."""
    if n.what == "player":
        return f"{g.ref(g.cx.others_p, '_k')}[st.pcyc[-2]]"
    return f"{g.ref(g.cx.others_t, '_k')}[st.tcyc[-1]]"


def _if(g: _Source, n: A.IfExpr, sc) -> str:
    return f"({g.src(n.then, sc)} if {g.src(n.cond, sc)} else {g.src(n.orelse, sc)})"


FUSED: dict[type, Callable[..., str]] = {
    A.Var: _var, A.Compare: _compare, A.Logic: _logic, A.Not: _not, A.Arith: _arith, A.Size: _size,
    A.Storage: _storage, A.Quantifier: _loop, A.Filter: _loop, A.CardAt: _card_at, A.CardAtt: _cardatt,
    A.Cells: _cells, A.Coord: _coord, A.Neighbors: _neighbors, A.Components: _components,
    A.CallExpr: _call, A.IfExpr: _if, A.AllOf: _all_of, A.Other: _other,
}
