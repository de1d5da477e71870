"""Layer two of loading: S-expressions -> typed AST, with every load-time check.

A form is recognised by its head (a keyword, or the shape of a non-keyword
head, language spec Appendix A) and checked against its signature: arity,
operand types, scoping, placement.  Types are inferred bottom-up (spec §3.5),
so `(top X)` becomes a card or a pile by the type of X, and `(== 'A 'B)`
compares whatever both variables hold.  Errors are collected, not raised at the
first: a failing sub-form yields a `Poison` node compatible with everything, so
one mistake does not cascade into a dozen.
"""
from __future__ import annotations

from typing import Callable

import attrs

from ...errors import Diagnostic, Span
from .. import ast as A
from ..ast import T
from ..consts import ConstError, board_problem, const_value, declared_values, resolve_teams, walk
from ..decks import DeckError, expand_deck
from ..printer import doc, flat
from ..reader import Atom, SList, to_text
from ..signatures import ACTIONS, COMPARABLE, KINDS, STORAGE_KINDS, STORAGE_TYPES, pile_nature
from ..source import SourceFile
from ..words import UNSUPPORTED_WORDS


class Fail(Exception):
    """Aborts the current form; the diagnostic is already recorded."""


@attrs.frozen(slots=True)
class Poison(A.Expr):
    """Stands for a sub-form that failed to check; compatible with any type."""


ANY = None  # the "type" of a Poison node


def _article(t) -> str:
    s = str(t)
    return ("an " if s[0] in "AEIOU" else "a ") + s


@attrs.frozen(slots=True)
class Binding:
    type: T
    span: Span
    declared: bool = False


class Builder:
    """Turns the S-expressions of one file into a typed `ast.Game`, collecting diagnostics."""

    def __init__(self, src: SourceFile):
        self.src = src
        self.errors: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []
        self.declared: dict[str, Binding] = {}
        self.atomic_depth = 0  # > 0 while the body of an `atomic` block is being built

    # ------------------------------------------------------------ diagnostics

    def error(self, cls: str, message: str, at, notes=()) -> None:
        span = at.span if not isinstance(at, Span) else at
        self.errors.append(self.src.diag("error", cls, message, span, notes))

    def fail(self, cls: str, message: str, at, notes=()):
        self.error(cls, message, at, notes)
        raise Fail()

    def warn(self, cls: str, message: str, at) -> None:
        span = at.span if not isinstance(at, Span) else at
        self.warnings.append(self.src.diag("warning", cls, message, span))

    def guard(self, fn: Callable, *args):
        """Run fn(*args); on failure return a Poison node so checking can go on."""
        try:
            return fn(*args)
        except Fail:
            sx = args[0]
            return (Poison(span=sx.span), ANY)

    # ------------------------------------------------------------ helpers

    @staticmethod
    def kw(x, *words) -> bool:
        return isinstance(x, Atom) and x.kind == "KEYWORD" and (not words or x.text in words)

    def arity(self, sx: SList, *allowed: int, shape: str) -> None:
        if len(sx) not in allowed:
            self.fail("syntax", f"`{shape}` takes {self._count(allowed)} elements, but {to_text(sx)} has {len(sx)}", sx)

    @staticmethod
    def _count(allowed) -> str:
        return " or ".join(str(a) for a in allowed)

    def need_keyword(self, x, words: tuple, what: str, parent) -> str:
        if not self.kw(x, *words):
            got = to_text(x) if x is not None else "nothing"
            self.fail("syntax", f"expected {what} ({' or '.join('`%s`' % w for w in words)}), found {got}", x if x is not None else parent)
        return x.text

    def need_list(self, x, what: str, parent) -> SList:
        if not isinstance(x, SList):
            self.fail("syntax", f"expected {what}, found `{to_text(x)}`", x if x is not None else parent)
        return x

    def need_var(self, x, parent) -> str:
        if not (isinstance(x, Atom) and x.kind == "VAR"):
            self.fail("syntax", f"expected a variable such as 'X, found {to_text(x)}", x if x is not None else parent)
        return x.value

    def using(self, sx: SList, i: int, scope):
        """`using <pm>` at positions i, i+1."""
        self.need_keyword(sx[i], ("using",), "the keyword", sx)
        return self.expect(sx[i + 1], scope, T.POINTS)

    # ------------------------------------------------------------ typing core

    def expect(self, sx, scope, want: T):
        """Build sx and check that its type is `want` (a Team counts as players where players are wanted)."""
        node, t = self.guard(self.infer, sx, scope)
        return self.coerce(node, t, want, sx, scope)

    def coerce(self, node, t, want: T, sx, scope=None):
        if t is ANY or t == want:
            return node
        if want == T.PLAYERS and t == T.TEAM:
            return A.TeamAsPlayers(node, span=node.span)
        self.type_error(t, want, sx, scope)
        return Poison(span=sx.span)

    def type_error(self, t, want, sx, scope=None):
        self.error("type", f"expected {_article(want)}, but {to_text(sx)} is {_article(t)}{self.bound_at(sx, scope)}", sx)

    @staticmethod
    def bound_at(sx, scope) -> str:
        """` (bound at L:C)` for a variable, to say where its type comes from (spec §19.1)."""
        if scope and isinstance(sx, Atom) and sx.kind == "VAR" and sx.value in scope:
            sp = scope[sx.value].span
            return f" ({sx.text} bound at {sp.line}:{sp.column})"
        return ""

    def collection(self, sx, scope):
        """Build a collection expression; returns (node, type) with Team -> its members."""
        node, t = self.guard(self.infer, sx, scope)
        if t == T.TEAM:
            return A.TeamAsPlayers(node, span=node.span), T.PLAYERS
        if t is not ANY and t not in A.COLLECTIONS:
            self.error("type", f"expected a collection, but {to_text(sx)} is {_article(t)}", sx)
            return Poison(span=sx.span), ANY
        return node, t

    def bind(self, scope: dict, name: str, t, at) -> dict:
        new = dict(scope)
        new[name] = Binding(t if t is not ANY else ANY, at.span)
        return new

    # ------------------------------------------------------------ expressions

    def infer(self, sx, scope):
        """(node, type) of an expression in value position."""
        if isinstance(sx, Atom):
            return self.atom(sx, scope)
        if not sx.items:
            self.fail("syntax", "`()` is not a form", sx)
        head = sx.head
        if isinstance(head, Atom) and head.kind in ("KEYWORD", "OP"):
            fn = EXPR_FORMS.get(head.text)
            if fn is None:
                if head.text in ACTIONS or head.text in ("do", "choice", "stage", "let", "atomic"):
                    self.fail("placement", f"`{head.text}` is not an expression: {to_text(sx)} cannot stand where a value is expected", sx)
                self.fail("syntax", f"`{head.text}` cannot begin a form here: {to_text(sx)}", sx)
            return fn(self, sx, scope)
        return self.headless(sx, scope)

    def atom(self, a: Atom, scope):
        k = a.kind
        if k == "INT":
            return A.IntLit(a.value, span=a.span), T.INT
        if k == "NAME":
            return A.Name(a.text, span=a.span), T.STR
        if k == "VAR":
            b = scope.get(a.value)
            if b is None:
                self.fail("scope", f"variable {a.text} is not bound here (no enclosing binder or declare)", a)
            return A.Var(a.value, b.type, span=a.span), b.type
        if k == "KEYWORD":
            if a.text in ("player", "team"):
                return A.AllOf(a.text, span=a.span), (T.PLAYERS if a.text == "player" else T.TEAMS)
            if a.text == "game":
                self.fail("type", "`game` is an owner only: it cannot stand alone as a value", a)
            self.fail("syntax", f"the keyword `{a.text}` cannot stand alone here", a)
        self.fail("syntax", f"unexpected `{a.text}`", a)

    def headless(self, sx: SList, scope):
        """Forms whose head is not a keyword: locations, storage, who-by-id, name lists, indexing."""
        items = sx.items
        head = items[0]
        second = items[1] if len(items) > 1 else None
        if isinstance(head, Atom) and head.kind == "NAME" and (second is None or (isinstance(second, Atom) and second.kind in ("COMMA", "NAME"))):
            return self.name_list(sx)
        if self.kw(second, *KINDS):
            self.arity(sx, 3, 4, shape="(<owner> <kind> <name> [<index>])")
            owner = self.pile_owner(head, scope)
            name = self.expect(items[2], scope, T.STR)
            index = self.expect(items[3], scope, T.INT) if len(items) == 4 else None
            return A.Location(owner, KINDS[second.text], name, index, span=sx.span), T.PILE
        if self.kw(second, *STORAGE_KINDS):
            self.arity(sx, 3, shape=f"(<owner> {second.text} <name>)")
            owner, otype = self.storage_owner(head, scope)
            name = self.expect(items[2], scope, T.STR)
            return A.Storage(owner, second.text, name, otype, span=sx.span), STORAGE_TYPES[second.text]
        if self.kw(second, "player", "team"):
            self.arity(sx, 2, shape=f"(<int> {second.text})")
            idx = self.expect(head, scope, T.INT)
            return A.WhoById(idx, second.text, span=sx.span), (T.PLAYER if second.text == "player" else T.TEAM)
        if len(items) == 2:
            idx_node, it = self.guard(self.infer, head, scope)
            if it is not ANY and it != T.INT:
                if it == T.BOOL:
                    self.fail("placement", f"{to_text(sx)} looks like a guarded clause, which is allowed only where a clause is expected", sx)
                self.fail("type", f"cannot read {to_text(sx)}: an index must be an Integer, but {to_text(head)} is {_article(it)}", head)
            node, t = self.guard(self.infer, second, scope)
            if t == T.PILE:
                return A.CardAt("index", node, idx_node, span=sx.span), T.CARD
            if t == T.PILES:
                return A.PileAt("index", node, idx_node, span=sx.span), T.PILE
            if t is ANY:
                return Poison(span=sx.span), ANY
            self.fail("type", f"{to_text(sx)}: indexing needs a Pile or a PileCollection, but {to_text(second)} is {_article(t)}", second)
        if isinstance(head, Atom) and head.kind == "NAME":
            self.fail("syntax", f"cannot read {to_text(sx)}: a name list is written (A, B, C)", sx)
        self.fail("syntax", f"cannot read {to_text(sx)} as an expression", sx)

    def name_list(self, sx: SList):
        names = []
        for i, x in enumerate(sx.items):
            if i % 2 == 0:
                if not (isinstance(x, Atom) and x.kind == "NAME"):
                    if isinstance(x, SList):
                        self.fail("syntax", f"name lists cannot be nested: {to_text(sx)}", x)
                    self.fail("syntax", f"expected a NAME in the name list, found `{to_text(x)}`", x)
                names.append(x.text)
            elif not (isinstance(x, Atom) and x.kind == "COMMA"):
                self.fail("syntax", f"expected `,` between names, found `{to_text(x)}`", x)
        if len(sx.items) % 2 == 0:
            self.fail("syntax", "a name list cannot end with `,`", sx.items[-1])
        return A.NameList(tuple(names), span=sx.span), T.STRS

    def pile_owner(self, x, scope):
        if self.kw(x, "game"):
            return A.GameOwner(span=x.span)
        node, t = self.guard(self.infer, x, scope)
        if t is ANY or t == T.PLAYER:
            return node
        if t == T.TEAM:
            self.fail("type", f"a team cannot own a pile: {to_text(x)} is a Team (teams own storage only)", x)
        self.fail("type", f"a pile owner must be `game` or a Player, but {to_text(x)} is {_article(t)}", x)

    def storage_owner(self, x, scope):
        """(owner node, owner type): `game` (type None), a Player, a Team, a stored location or a card (E2)."""
        if self.kw(x, "game"):
            return A.GameOwner(span=x.span), None
        node, t = self.guard(self.infer, x, scope)
        if t is ANY or t in (T.PLAYER, T.TEAM, T.CARD):
            return node, (t if t is not ANY else None)
        if t == T.PILE:
            if pile_nature(node) == "virtual":
                self.fail("type", f"storage belongs to a stored location, but {to_text(x)} is a computed (virtual) pile", x)
            return node, t
        self.fail("type", f"a storage owner must be `game`, a Player, a Team, a location or a Card, but {to_text(x)} is {_article(t)}", x)

    # ------------------------------------------------------------ clauses and items

    def clause(self, sx, scope, in_choice: bool):
        try:
            return self._clause(sx, scope, in_choice)
        except Fail:
            return A.TurnPass(span=sx.span)

    def _clause(self, sx, scope, in_choice: bool):
        if isinstance(sx, Atom):
            self.fail("syntax", f"expected a clause (an action, do, loop, let, atomic or guarded clause), found `{sx.text}`", sx)
        if not sx.items:
            self.fail("syntax", "`()` is not a clause", sx)
        head = sx.head
        if self.kw(head):
            w = head.text
            if w == "do":
                return self.do_block(sx, scope, in_choice)
            if w == "choice":
                self.fail("placement", "a `choice` may only be a program item (or the body of a `let` item), not inside a do, loop or guarded clause", sx)
            if w in ("any", "all"):
                return self.loop(sx, scope, in_choice)
            if w == "let":
                return self.let(sx, scope, lambda body, sc: self.clause(body, sc, in_choice))
            if w == "atomic":
                return self.atomic(sx, scope, in_choice, False)
            if w in ACTIONS:
                return self.action(sx, scope, in_choice)
            if w in ("stage",):
                self.fail("placement", "a `stage` may only be a program item", sx)
            self.fail("syntax", f"expected a clause (an action, do, loop, let, atomic or guarded clause), found {to_text(sx)}", sx)
        if isinstance(head, SList) or (isinstance(head, Atom) and head.kind == "VAR"):
            if len(sx) != 2:
                self.fail("syntax", f"a guarded clause is (<condition> <clause>), but {to_text(sx)} has {len(sx)} elements", sx)
            cond = self.expect(head, scope, T.BOOL)
            body = self.clause(sx[1], scope, in_choice)
            return A.Guarded(cond, body, span=sx.span)
        self.fail("syntax", f"expected a clause (an action, do, loop, let, atomic or guarded clause), found {to_text(sx)}", sx)

    def do_block(self, sx: SList, scope, in_choice: bool):
        self.arity(sx, 2, shape="(do (<clause>+))")
        body = self.need_list(sx[1], "a parenthesised list of clauses after `do`", sx)
        if not body.items:
            self.fail("syntax", "`do` needs at least one clause", body)
        return A.Do(tuple(self.clause(c, scope, in_choice) for c in body.items), span=sx.span)

    def choice(self, sx: SList, scope):
        self.arity(sx, 2, shape="(choice (<clause>+))")
        body = self.need_list(sx[1], "a parenthesised list of clauses after `choice`", sx)
        if not body.items:
            self.fail("syntax", "`choice` needs at least one clause", body)
        return A.Choice(tuple(self.clause(c, scope, True) for c in body.items), span=sx.span)

    def loop(self, sx: SList, scope, in_choice: bool):
        self.arity(sx, 4, shape=f"({sx.head.text} <collection> 'V <body>)")
        coll, t = self.collection(sx[1], scope)
        var = self.need_var(sx[2], sx)
        inner = self.bind(scope, var, A.ELEMENT.get(t, ANY), sx[2])
        body = self.clause(sx[3], inner, in_choice)
        return A.Loop(sx.head.text, coll, var, body, A.ELEMENT.get(t, T.INT), span=sx.span)

    def let(self, sx: SList, scope, body_fn):
        self.arity(sx, 4, shape="(let <value> 'V <body>)")
        value, t = self.guard(self.infer, sx[1], scope)
        if t == T.POINTS:
            self.fail("type", "point maps cannot be held in variables", sx[1])
        var = self.need_var(sx[2], sx)
        inner = self.bind(scope, var, t, sx[2])
        body = body_fn(sx[3], inner)
        return A.Let(value, var, body, t if t is not ANY else T.INT, span=sx.span)

    def item(self, sx, scope):
        try:
            return self._item(sx, scope)
        except Fail:
            return A.Do((A.TurnPass(span=sx.span),), span=sx.span)

    def _item(self, sx, scope):
        if isinstance(sx, Atom) or not sx.items:
            self.fail("syntax", f"expected a program item (do, choice, stage, loop, let or atomic), found {to_text(sx)}", sx)
        head = sx.head
        if self.kw(head, "do"):
            return self.do_block(sx, scope, False)
        if self.kw(head, "choice"):
            return self.choice(sx, scope)
        if self.kw(head, "stage"):
            return self.stage(sx, scope)
        if self.kw(head, "any", "all"):
            return self.loop(sx, scope, False)
        if self.kw(head, "atomic"):
            return self.atomic(sx, scope, False, True)
        if self.kw(head, "let"):
            def body(b, sc):
                if isinstance(b, SList) and self.kw(b.head, "choice"):
                    return self.choice(b, sc)
                return self.clause(b, sc, False)
            return self.let(sx, scope, body)
        if self.kw(head, "create") and len(sx) > 1 and self.kw(sx[1], "players", "teams"):
            self.fail("placement", f"`create {sx[1].text}` may only appear in setup", sx)
        if self.kw(head, *ACTIONS) or isinstance(head, SList) or (isinstance(head, Atom) and head.kind == "VAR"):
            self.fail("placement", f"a bare action or guarded clause is not a program item: wrap it in (do (…)): {to_text(sx)}", sx)
        if self.kw(head, "setup", "scoring", "declare"):
            self.fail("syntax", f"`{head.text}` is out of place: a game is (game (declare …)* (setup …) <item>+ (scoring …))", sx)
        self.fail("syntax", f"expected a program item (do, choice, stage, loop, let or atomic), found {to_text(sx)}", sx)

    def atomic(self, sx: SList, scope, in_choice: bool, item: bool):
        """`(atomic <do|choice|stage> (require <bool>))` as a program item or a clause (extensions E4)."""
        self.arity(sx, 3, shape="(atomic <do|choice|stage> (require <condition>))")
        body_sx = self.need_list(sx[1], "a (do …), (choice …) or (stage …) after `atomic`", sx)
        req = self.need_list(sx[2], "(require <condition>)", sx)
        if not (req.items and self.kw(req.head, "require") and len(req) == 2):
            self.fail("syntax", f"expected (require <condition>), found {to_text(req)}", req)
        what = body_sx.head.text if body_sx.items and self.kw(body_sx.head) else None
        if what not in ("do", "choice", "stage"):
            self.fail("syntax", f"an atomic block holds a do, a choice or a stage, not {to_text(body_sx)}", body_sx)
        if what != "do" and not (item or in_choice):
            self.fail("placement", f"an atomic block with a {what} is a decision: it may be a program item or stand "
                      "inside a choice, not inside a do, loop or guarded clause", sx)
        self.atomic_depth += 1
        try:
            if what == "do":
                body = self.do_block(body_sx, scope, in_choice)
            elif what == "choice":
                body = self.choice(body_sx, scope)
            else:
                body = self.stage(body_sx, scope)
        finally:
            self.atomic_depth -= 1
        cond = self.expect(req[1], scope, T.BOOL)
        return A.Atomic(body, cond, span=sx.span)

    def stage(self, sx: SList, scope):
        if len(sx) < 4:
            self.fail("syntax", f"a stage is (stage player|team (end <condition>) <item>+), but {to_text(sx)} has {len(sx)} elements", sx)
        kind = self.need_keyword(sx[1], ("player", "team"), "the stage kind", sx)
        end = self.need_list(sx[2], "(end <condition>)", sx)
        if not (end.items and self.kw(end.head, "end") and len(end) == 2):
            self.fail("syntax", f"expected (end <condition>), found {to_text(end)}", end)
        cond = self.expect(end[1], scope, T.BOOL)
        items = tuple(self.item(i, scope) for i in sx.items[3:])
        return A.Stage(kind, cond, items, span=sx.span)

    # ------------------------------------------------------------ actions

    def action(self, sx: SList, scope, in_choice: bool):
        return ACTION_FORMS[sx.head.text](self, sx, scope, in_choice)

    def card_ref(self, sx, scope, role: str):
        """A card reference (spec §8.6); `(top X)` with X a PileCollection is a type error here."""
        node, t = self.guard(self.infer, sx, scope)
        if t is ANY or t == T.CARD:
            return node
        if isinstance(node, A.PileAt) and isinstance(node.piles, A.Var):
            b = scope.get(node.piles.name)
            where = f" (bound at {b.span.line}:{b.span.column})" if b else ""
            vname = "'" + node.piles.name
            self.fail("type", f"{to_text(sx)} needs a pile, but {vname} holds a collection of piles{where}; {role} must be a card", sx)
        if isinstance(node, A.Slice):
            self.fail("type", f"{to_text(sx)} is a slice (a Pile), but {role} must be a card; (top <pile>) designates one card", sx)
        self.fail("type", f"{role} must be a Card, but {to_text(sx)} is {_article(t)}", sx)

    def positional(self, sx, scope, role: str):
        """A destination or positional source: (top P), (bottom P), (<int> P), possibly in `actual`."""
        node = self.card_ref(sx, scope, role)
        inner = node.card if isinstance(node, A.Actual) else node
        if isinstance(node, Poison) or isinstance(inner, (A.CardAt, Poison)):
            return node
        self.fail("type", f"{role} must be positional — (top <pile>), (bottom <pile>) or (<int> <pile>) — not {to_text(sx)}", sx)

    def storage(self, sx, scope, kinds: tuple, role: str):
        node, t = self.guard(self.infer, sx, scope)
        if isinstance(node, Poison):
            return node
        if not isinstance(node, A.Storage) or node.kind not in kinds:
            self.fail("type", f"{role} must be a storage cell ({' or '.join('(<owner> %s <name>)' % k for k in kinds)}), not {to_text(sx)}", sx)
        return node

    def awards(self, sx, scope):
        lst = self.need_list(sx, "a list of awards ((<condition>+ <int>) …)", sx)
        if not lst.items:
            self.fail("syntax", "a point map needs at least one award", lst)
        out = []
        for aw in lst.items:
            try:
                out.append(self.award(aw, scope))
            except Fail:
                pass
        return tuple(out)

    def award(self, aw, scope):
        aw = self.need_list(aw, "an award (<condition>+ <int>)", aw)
        if len(aw) < 2:
            self.fail("syntax", f"an award is (<condition>+ <int>), found {to_text(aw)}", aw)
        conds = []
        for c in aw.items[:-1]:
            c = self.need_list(c, "a condition (KEY : VALUE)", aw)
            if len(c) == 2 and isinstance(c[1], SList) and not any(isinstance(x, Atom) and x.kind == "COLON" for x in c.items):
                self.fail("unsupported", f"{to_text(c)} is CardStockXam award syntax; write ({to_text(c[0])} : VALUE)", c)
            if len(c) != 3 or not (isinstance(c[1], Atom) and c[1].kind == "COLON"):
                self.fail("syntax", f"a condition is (KEY : VALUE), found {to_text(c)}", c)
            conds.append(A.Condition(self.expect(c[0], scope, T.STR), self.expect(c[2], scope, T.STR), span=c.span))
        pts = self.expect(aw.items[-1], scope, T.INT)
        return A.Award(tuple(conds), pts, span=aw.span)

    # ------------------------------------------------------------ decks and setup

    def attribute(self, sx) -> A.Attribute:
        sx = self.need_list(sx, "an attribute (KEY (V1, V2, …)) or (KEY (V …) …)", sx)
        if len(sx) < 2 or not (isinstance(sx.head, Atom) and sx.head.kind == "NAME"):
            self.fail("deck", f"an attribute is (KEY (V1, V2, …)) or (KEY (V <attribute>*) …), found {to_text(sx)}", sx)
        key = sx.head.text
        rest = sx.items[1:]
        flat = len(rest) == 1 and isinstance(rest[0], SList) and all(isinstance(x, Atom) for x in rest[0].items)
        if flat:
            lst = rest[0]
            if not lst.items:
                self.fail("deck", f"attribute {key} has an empty value list", lst)
            vals = []
            for i, x in enumerate(lst.items):
                if i % 2 == 0:
                    if x.kind != "NAME":
                        self.fail("deck", f"attribute values are NAMEs, found `{x.text}`", x)
                    vals.append(A.ValueNode(x.text, (), span=x.span))
                elif x.kind != "COMMA":
                    if x.kind == "NAME":
                        self.fail("deck", f"values of {key} must be separated by commas: {to_text(lst)}", x)
                    self.fail("deck", f"expected `,` between values, found `{x.text}`", x)
            if len(lst.items) % 2 == 0:
                self.fail("deck", "a value list cannot end with `,`", lst.items[-1])
            return A.Attribute(key, tuple(vals), True, span=sx.span)
        nodes = []
        for v in rest:
            if not isinstance(v, SList) or not v.items or not (isinstance(v.head, Atom) and v.head.kind == "NAME"):
                self.fail("deck", f"a value node is (VALUE <attribute>*), found {to_text(v)}", v)
            if any(isinstance(x, Atom) for x in v.items[1:]):
                self.fail("deck", f"a value node with sub-attributes holds one value: {to_text(v)} mixes the flat and nested shapes", v)
            nodes.append(A.ValueNode(v.head.text, tuple(self.attribute(a) for a in v.items[1:]), span=v.span))
        return A.Attribute(key, tuple(nodes), False, span=sx.span)

    def create_deck(self, sx: SList, scope, in_choice: bool, in_setup: bool = False):
        if len(sx) < 2:
            self.fail("syntax", "expected (create deck …)", sx)
        what = self.need_keyword(sx[1], ("deck", "board", "players", "teams"), "what to create", sx)
        if what in ("players", "teams"):
            self.fail("placement", f"`create {what}` may only appear at the start of setup", sx)
        if in_choice:
            self.fail("placement", f"`create {what}` cannot appear inside a choice", sx)
        if self.atomic_depth:
            self.fail("placement", f"`create {what}` cannot appear inside an atomic block (it cannot be rolled back)", sx)
        if what == "board":
            return self.create_board(sx, scope)
        self.arity(sx, 4, 5, shape="(create deck [<name>] <location> (deck <attribute>+))")
        name = self.expect(sx[2], scope, T.STR) if len(sx) == 5 else None
        loc_sx = sx[-2]
        loc, t = self.guard(self.infer, loc_sx, scope)
        if t is not ANY and not isinstance(loc, A.Location):
            self.fail("type", f"a deck is created in a location (<owner> <kind> <name>), not {to_text(loc_sx)}", loc_sx)
        if isinstance(loc, A.Location) and loc.kind == A.Visibility.MEMORY:
            self.fail("setup", "a deck cannot be created in a memory pile", loc_sx)
        spec = self.need_list(sx[-1], "(deck <attribute>+)", sx)
        if not (spec.items and self.kw(spec.head, "deck") and len(spec) >= 2):
            self.fail("deck", f"expected (deck <attribute>+), found {to_text(spec)}", spec)
        attrs_ = tuple(self.attribute(a) for a in spec.items[1:])
        return A.CreateDeck(name, loc, attrs_, span=sx.span)

    def create_board(self, sx: SList, scope):
        """`(create board <location> (square R C)|(hex N1 N2 …) [(capacity K)])` (extensions E1)."""
        self.arity(sx, 4, 5, shape="(create board <location> (square R C)|(hex N1 N2 …) [(capacity K)])")
        loc_sx = sx[2]
        loc, t = self.guard(self.infer, loc_sx, scope)
        if t is not ANY and not isinstance(loc, A.Location):
            self.fail("type", f"a board is created on a location family (<owner> <kind> <name>), not {to_text(loc_sx)}", loc_sx)
        if isinstance(loc, A.Location):
            if loc.index is not None:
                self.fail("syntax", f"a board is named by (<owner> <kind> <name>) without an index: {to_text(loc_sx)} "
                          "has one (its cells are the indexed locations of the family)", loc_sx)
            if loc.kind == A.Visibility.MEMORY:
                self.fail("setup", "a board cannot be made of memory piles", loc_sx)
            self.check_const(loc.name, "the name of a board")
        shp = self.need_list(sx[3], "a board shape (square R C) or (hex N1 N2 …)", sx)
        kind = self.need_keyword(shp.head if shp.items else None, ("square", "hex"), "a board shape", shp)
        if kind == "square":
            self.arity(shp, 3, shape="(square <rows> <columns>)")
        elif len(shp) < 2:
            self.fail("syntax", "(hex N1 N2 …) needs at least one row length", shp)
        dims = tuple(self.const(x, scope, T.INT, "board sizes") for x in shp.items[1:])
        shape = A.BoardShape(kind, dims, span=shp.span)
        cap = None
        if len(sx) == 5:
            c = self.need_list(sx[4], "(capacity <int>)", sx)
            if not (c.items and self.kw(c.head, "capacity") and len(c) == 2):
                self.fail("syntax", f"expected (capacity <int>), found {to_text(c)}", c)
            cap = self.const(c[1], scope, T.INT, "a cell capacity")
        return A.CreateBoard(loc, shape, cap, span=sx.span)

    def setup(self, sx: SList, scope):
        items = sx.items[1:]
        if not items or not (isinstance(items[0], SList) and len(items[0]) >= 2 and self.kw(items[0].head, "create") and self.kw(items[0][1], "players")):
            self.fail("syntax", "setup must begin with (create players <int>)", items[0] if items else sx)
        cp = items[0]
        self.arity(cp, 3, shape="(create players <int>)")
        players = A.CreatePlayers(self.const(cp[2], scope, T.INT), span=cp.span)
        rest = list(items[1:])
        teams = None
        if rest and isinstance(rest[0], SList) and len(rest[0]) >= 2 and self.kw(rest[0].head, "create") and self.kw(rest[0][1], "teams"):
            teams = self.guard(self.create_teams, rest.pop(0))
            teams = teams if isinstance(teams, A.CreateTeams) else None
        decks = []
        for d in rest:
            try:
                decks.append(self.deck_clause(d, scope))
            except Fail:
                pass
        if not decks and not rest:
            self.error("syntax", "setup needs at least one (create deck …)", sx)
        return A.Setup(players, teams, tuple(decks), span=sx.span)

    def deck_clause(self, d, scope):
        d = self.need_list(d, "(create deck …) or (repeat <int> (create deck …))", d)
        if d.items and self.kw(d.head, "repeat"):
            self.arity(d, 3, shape="(repeat <int> <deck-clause>)")
            return A.Repeat(self.const(d[1], scope, T.INT), self.deck_clause(d[2], scope), span=d.span)
        if d.items and self.kw(d.head, "create"):
            if len(d) > 1 and self.kw(d[1], "teams"):
                self.fail("placement", "(create teams …) must come right after (create players …)", d)
            node = self.create_deck(d, scope, False, True)
            loc = node.location
            if isinstance(node, A.CreateBoard):
                if isinstance(loc, A.Location) and not isinstance(loc.owner, (A.GameOwner, Poison, A.WhoById)):
                    self.error("setup", "a board created in setup belongs to the game or to (<int> player)", d)
                return node
            if isinstance(loc, A.Location):
                ok_owner = isinstance(loc.owner, (A.GameOwner, Poison)) or isinstance(loc.owner, A.WhoById)
                if not ok_owner:
                    self.error("setup", "a deck created in setup goes to a game pile or to (<int> player)", d)
                for part in (loc.name, loc.index, node.deck_name):
                    if part is not None:
                        self.check_const(part)
            return node
        self.fail("syntax", f"expected (create deck …) in setup, found {to_text(d)}", d)

    def create_teams(self, sx: SList):
        teams = []
        for t in sx.items[2:]:
            if not isinstance(t, SList) or not t.items:
                self.fail("syntax", f"a team is a list of player numbers (0, 2), found {to_text(t)}", t)
            members = []
            for i, x in enumerate(t.items):
                if isinstance(x, SList):
                    self.fail("unsupported", f"team lists cannot be nested: {to_text(t)}", x)
                if i % 2 == 0:
                    if x.kind != "INT":
                        self.fail("syntax", f"team members are written as integers, found `{x.text}`", x)
                    members.append(x.value)
                elif x.kind != "COMMA":
                    self.fail("syntax", f"expected `,` between team members, found `{x.text}`", x)
            teams.append(tuple(members))
        if not teams:
            self.fail("syntax", "(create teams …) needs at least one team", sx)
        return A.CreateTeams(tuple(teams), span=sx.span)

    # ------------------------------------------------------------ constants

    CONST_NODES = (A.IntLit, A.Name, A.Var, A.Arith, A.IntFn, A.NameList, A.Range, A.Compare, A.Logic, A.Not, Poison)

    def check_const(self, node, what: str = "declare and setup values") -> bool:
        """Report a non-constant expression where a constant is required (declare, setup, board shapes)."""
        bad = self.first_nonconst(node)
        if bad is not None:
            self.error("type", f"{_describe(bad)} is not constant: {what} may use only literals, declared variables and arithmetic", bad)
            return False
        return True

    def first_nonconst(self, node):
        if not isinstance(node, self.CONST_NODES):
            return node
        if isinstance(node, A.Var) and node.name not in self.declared:
            return node
        for f in attrs.fields(type(node)):
            v = getattr(node, f.name)
            for sub in (v if isinstance(v, tuple) else (v,)):
                if isinstance(sub, A.Expr):
                    bad = self.first_nonconst(sub)
                    if bad is not None:
                        return bad
        return None

    def const(self, sx, scope, want: T, what: str = "declare and setup values"):
        node = self.expect(sx, scope, want)
        self.check_const(node, what)
        return node

    # ------------------------------------------------------------ game

    def game(self, forms: list):
        if not forms:
            self.fail("syntax", "the file holds no game: expected (game …)", Span(self.src.filename, 1, 1))
        g = forms[0]
        if not (isinstance(g, SList) and g.items and self.kw(g.head, "game")):
            self.fail("syntax", f"a game file must hold one (game …) form, found {to_text(g)}", g)
        if len(forms) > 1:
            self.error("syntax", f"unexpected {to_text(forms[1])} after the game form", forms[1])
        elems = list(g.items[1:])
        scope: dict = {}
        declares = []
        while elems and isinstance(elems[0], SList) and elems[0].items and self.kw(elems[0].head, "declare"):
            d = elems.pop(0)
            try:
                declares.append(self.declare(d, scope))
                scope = dict(self.declared)
            except Fail:
                pass
        if not elems or not (isinstance(elems[0], SList) and elems[0].items and self.kw(elems[0].head, "setup")):
            at = elems[0] if elems else g
            if elems and isinstance(elems[0], SList) and any(isinstance(e, SList) and e.items and self.kw(e.head, "setup") for e in elems):
                self.fail("syntax", "declarations come first, then setup: (game (declare …)* (setup …) <item>+ (scoring …))", at)
            self.fail("syntax", "expected (setup …) after the declarations", at)
        setup = self.setup(elems.pop(0), scope)
        if not elems or not (isinstance(elems[-1], SList) and elems[-1].items and self.kw(elems[-1].head, "scoring")):
            last = elems[-1] if elems else g
            self.error("syntax", "a game must end with (scoring max|min <int>)", last)
            scoring = A.Scoring("max", A.IntLit(0), span=g.span)
        else:
            sc = elems.pop()
            scoring = self.guard(self.scoring, sc, scope)
            if isinstance(scoring, tuple):
                scoring = A.Scoring("max", A.IntLit(0), span=sc.span)
        if not elems:
            self.error("syntax", "a game needs at least one program item between setup and scoring", g)
        items = tuple(self.item(i, scope) for i in elems)
        return A.Game(tuple(declares), setup, items, scoring, span=g.span)

    def declare(self, sx: SList, scope):
        self.arity(sx, 3, shape="(declare <value> 'V)")
        var = self.need_var(sx[2], sx)
        node, t = self.guard(self.infer, sx[1], scope)
        self.check_const(node)
        if var in self.declared:
            prev = self.declared[var].span
            self.fail("scope", f"'{var} is declared twice (first at {prev.line}:{prev.column})", sx[2])
        if t not in (T.INT, T.STR, T.BOOL, T.STRS, T.INTS, ANY):
            self.fail("type", f"a declared value must be an Integer, String, Boolean or a name/integer list, not {_article(t)}", sx[1])
        self.declared[var] = Binding(t, sx[2].span, True)
        return A.Declare(node, var, t if t is not ANY else T.INT, span=sx.span)

    def scoring(self, sx: SList, scope):
        self.arity(sx, 3, 4, shape="(scoring max|min <int> [(tiebreak <int>+)])")
        d = self.need_keyword(sx[1], ("max", "min"), "the scoring direction", sx)
        main = self.expect(sx[2], scope, T.INT)
        keys = ()
        if len(sx) == 4:
            tb = self.need_list(sx[3], "(tiebreak <int>+)", sx)
            if not (tb.items and self.kw(tb.head, "tiebreak") and len(tb) >= 2):
                self.fail("syntax", f"expected (tiebreak <int>+) after the score, found {to_text(tb)}", tb)
            keys = tuple(self.expect(x, scope, T.INT) for x in tb.items[1:])
        return A.Scoring(d, main, keys, span=sx.span)


def _describe(node) -> str:
    """The node as RECYCLE text for messages, e.g. `(size (game vloc X))`."""
    try:
        text = flat(doc(node))
    except TypeError:  # a node without a printing rule
        return f"the form at {node.span.line}:{node.span.column}"
    return text if len(text) <= 60 else text[:56] + " …)"


# ---------------------------------------------------------------- expression forms


def _who(b: Builder, sx, scope):
    b.arity(sx, 2, shape=f"({sx.head.text} player|team)")
    what = b.need_keyword(sx[1], ("player", "team"), "player or team", sx)
    return A.WhoRef(sx.head.text, what, span=sx.span), (T.PLAYER if what == "player" else T.TEAM)


def _owner(b, sx, scope):
    b.arity(sx, 2, shape="(owner <card>)")
    return A.OwnerOf(b.card_ref(sx[1], scope, "the operand of owner"), span=sx.span), T.PLAYER


def _team(b, sx, scope):
    b.arity(sx, 2, shape="(team <player>)")
    return A.TeamOf(b.expect(sx[1], scope, T.PLAYER), span=sx.span), T.TEAM


def _other(b, sx, scope):
    b.arity(sx, 2, shape="(other player|team)")
    what = b.need_keyword(sx[1], ("player", "team"), "player or team", sx)
    return A.Other(what, span=sx.span), (T.PLAYERS if what == "player" else T.TEAMS)


def _dotted(b, sx, i, scope):
    """`A .. B` at positions i, i+1, i+2."""
    if not (isinstance(sx[i + 1], Atom) and sx[i + 1].kind == "DOTDOT"):
        b.fail("syntax", f"expected `..` in {to_text(sx)}", sx[i + 1])
    return b.expect(sx[i], scope, T.INT), b.expect(sx[i + 2], scope, T.INT)


def _range(b, sx, scope):
    b.arity(sx, 4, shape="(range <int>..<int>)")
    lo, hi = _dotted(b, sx, 1, scope)
    return A.Range(lo, hi, span=sx.span), T.INTS


def _size(b, sx, scope):
    b.arity(sx, 2, shape="(size <collection>)")
    node, _ = b.collection(sx[1], scope)
    return A.Size(node, span=sx.span), T.INT


def _is_fold(b, sx) -> bool:
    """`(sum|max|min COLL 'V <int>)`: told apart from the `using` forms by the variable (E5)."""
    return len(sx) == 4 and isinstance(sx[2], Atom) and sx[2].kind == "VAR"


def _not_fold_nor_using(b, sx) -> None:
    """`(sum|max|min X Y Z)` whose third element is neither `using` nor a variable."""
    if len(sx) == 4 and not b.kw(sx[2], "using") and not (isinstance(sx[2], Atom) and sx[2].kind == "VAR"):
        op = sx.head.text
        b.fail("syntax", f"({op} …) is ({op} <pile> using <points>) or the fold ({op} <collection> 'V <int>), "
               f"but {to_text(sx[2])} is neither `using` nor a variable", sx[2])


def _fold(b, sx, scope):
    op = sx.head.text
    coll, t = b.collection(sx[1], scope)
    var = b.need_var(sx[2], sx)
    elem = A.ELEMENT.get(t, ANY)
    inner = b.bind(scope, var, elem, sx[2])
    body = b.expect(sx[3], inner, T.INT)
    return A.Fold(op, coll, var, body, elem if elem is not ANY else T.INT, span=sx.span), T.INT


def _using_form(cls, result: T, operand: T, shape: str):
    def build(b, sx, scope):
        if cls is A.Sum:
            if _is_fold(b, sx):
                return _fold(b, sx, scope)
            _not_fold_nor_using(b, sx)
        b.arity(sx, 4, shape=shape)
        x = b.card_ref(sx[1], scope, "the operand") if operand == T.CARD else b.expect(sx[1], scope, operand)
        return cls(x, b.using(sx, 2, scope), span=sx.span), result
    return build


def _score_extreme(b, sx, scope):
    b.arity(sx, 4, shape=f"({sx.head.text} <pile> using <points>)")
    return A.ScoreExtreme(sx.head.text, b.expect(sx[1], scope, T.PILE), b.using(sx, 2, scope), span=sx.span), T.INT


def _card_extreme(b, sx, scope):
    if _is_fold(b, sx):
        return _fold(b, sx, scope)
    _not_fold_nor_using(b, sx)
    b.arity(sx, 4, shape=f"({sx.head.text} <pile> using <points>)")
    return A.CardExtreme(sx.head.text, b.expect(sx[1], scope, T.PILE), b.using(sx, 2, scope), span=sx.span), T.CARD


def _pid(b, sx, scope):
    b.arity(sx, 2, shape="(pid <player>)")
    return A.Pid(b.expect(sx[1], scope, T.PLAYER), span=sx.span), T.INT


def _intfn(b, sx, scope):
    b.arity(sx, 2, shape=f"({sx.head.text} <int>)")
    return A.IntFn(sx.head.text, b.expect(sx[1], scope, T.INT), span=sx.span), T.INT


def _random(b, sx, scope):
    b.arity(sx, 2, 4, shape="(random <int>) or (random <int>..<int>)")
    if len(sx) == 2:
        return A.Random(None, b.expect(sx[1], scope, T.INT), span=sx.span), T.INT
    lo, hi = _dotted(b, sx, 1, scope)
    return A.Random(lo, hi, span=sx.span), T.INT


def _arith(b, sx, scope):
    op = sx.head.text
    if op in ("+", "*"):
        if len(sx) < 3:
            b.fail("syntax", f"`({op} …)` takes two or more operands, but {to_text(sx)} has {len(sx) - 1}", sx)
    elif op in ("-", "//", "%", "^"):
        b.arity(sx, 3, shape=f"({op} <int> <int>)")
    args = tuple(b.expect(x, scope, T.INT) for x in sx.items[1:])
    return A.Arith(op, args, span=sx.span), T.INT


def _compare(b, sx, scope):
    op = sx.head.text
    b.arity(sx, 3, shape=f"({op} <a> <b>)")
    l, lt = b.guard(b.infer, sx[1], scope)
    r, rt = b.guard(b.infer, sx[2], scope)
    if op in ("==", "!="):
        t = lt if lt is not ANY else rt
        if lt is not ANY and rt is not ANY:
            if lt != rt:
                b.fail("type", f"`{op}` compares two values of one type, but {to_text(sx[1])} is {_article(lt)}{b.bound_at(sx[1], scope)} and {to_text(sx[2])} is {_article(rt)}{b.bound_at(sx[2], scope)}", sx)
            if lt not in COMPARABLE:
                b.fail("type", f"`{op}` compares Integers, Strings, Cards, Players or Teams, not {lt}s", sx)
        return A.Compare(op, l, r, t if t is not ANY else T.INT, span=sx.span), T.BOOL
    for node, t, x in ((l, lt, sx[1]), (r, rt, sx[2])):
        if t is not ANY and t != T.INT:
            b.fail("type", f"`{op}` compares Integers, but {to_text(x)} is {_article(t)}{b.bound_at(x, scope)}", x)
    return A.Compare(op, l, r, T.INT, span=sx.span), T.BOOL


def _logic(b, sx, scope):
    op = sx.head.text
    if op == "not":
        b.arity(sx, 2, shape="(not <bool>)")
        return A.Not(b.expect(sx[1], scope, T.BOOL), span=sx.span), T.BOOL
    if len(sx) < 3:
        b.fail("syntax", f"`({op} …)` takes two or more conditions, but {to_text(sx)} has {len(sx) - 1}", sx)
    return A.Logic(op, tuple(b.expect(x, scope, T.BOOL) for x in sx.items[1:]), span=sx.span), T.BOOL


def _cardatt(b, sx, scope):
    b.arity(sx, 3, shape="(cardatt <name> <card>)")
    return A.CardAtt(b.expect(sx[1], scope, T.STR), b.card_ref(sx[2], scope, "the card of cardatt"), span=sx.span), T.STR


def _quant(b, sx, scope):
    q = sx.head.text
    b.arity(sx, 4, shape=f"({q} <collection> 'V <condition>)")
    coll, t = b.collection(sx[1], scope)
    var = b.need_var(sx[2], sx)
    elem = A.ELEMENT.get(t, ANY)
    inner = b.bind(scope, var, elem, sx[2])
    body_sx = sx[3]
    if isinstance(body_sx, SList) and body_sx.items and b.kw(body_sx.head, *ACTIONS, "do"):
        b.fail("placement", f"({q} … {to_text(body_sx)}) is a loop, which is allowed only where a clause is expected", sx)
    body, bt = b.guard(b.infer, body_sx, inner)
    elem_t = elem if elem is not ANY else T.INT
    if bt is ANY or bt == T.BOOL:
        return A.Quantifier(q, coll, var, body, elem_t, span=sx.span), T.BOOL
    if bt == T.PILE and q == "all":
        return A.Collect(coll, var, body, elem_t, span=sx.span), T.PILES
    b.fail("type", f"the body of ({q} … 'V <body>) must be a condition{' or a pile' if q == 'all' else ''}, but {to_text(body_sx)} is {_article(bt)}", body_sx)


def _top_bottom(b, sx, scope):
    end = sx.head.text
    b.arity(sx, 2, 3, shape=f"({end} <pile>) or ({end} <int> <pile>)")
    if len(sx) == 3:
        return A.Slice(end, b.expect(sx[1], scope, T.INT), b.expect(sx[2], scope, T.PILE), span=sx.span), T.PILE
    node, t = b.guard(b.infer, sx[1], scope)
    if t is ANY:
        return Poison(span=sx.span), ANY
    if t == T.PILE:
        return A.CardAt(end, node, span=sx.span), T.CARD
    if t == T.PILES:
        return A.PileAt(end, node, span=sx.span), T.PILE
    b.fail("type", f"({end} X) needs a Pile or a PileCollection, but {to_text(sx[1])} is {_article(t)}", sx[1])


def _actual(b, sx, scope):
    b.arity(sx, 2, shape="(actual <card>)")
    return A.Actual(b.card_ref(sx[1], scope, "the operand of actual"), span=sx.span), T.CARD


def _piles_args(b, sx, start, scope, what):
    """`<pile>+` or a single `(all …)` collector."""
    args = sx.items[start:]
    if not args:
        b.fail("syntax", f"({what} …) needs at least one pile", sx)
    if len(args) == 1:
        node, t = b.guard(b.infer, args[0], scope)
        if t in (ANY, T.PILE) or (t == T.PILES and isinstance(node, A.Collect)):
            return (node,)
        if t == T.PILES:
            b.fail("type", f"({what} …) takes piles or one (all <coll> 'V <pile>), but {to_text(args[0])} is a PileCollection", args[0])
        b.fail("type", f"({what} …) takes piles, but {to_text(args[0])} is {_article(t)}", args[0])
    return tuple(b.expect(x, scope, T.PILE) for x in args)


def _setop(b, sx, scope):
    return A.SetOp(sx.head.text, _piles_args(b, sx, 1, scope, sx.head.text), span=sx.span), T.PILE


def _filter(b, sx, scope):
    b.arity(sx, 4, shape="(filter <collection> 'V <condition>)")
    coll, t = b.collection(sx[1], scope)
    var = b.need_var(sx[2], sx)
    inner = b.bind(scope, var, A.ELEMENT.get(t, ANY), sx[2])
    cond = b.expect(sx[3], inner, T.BOOL)
    tt = t if t is not ANY else T.PILE
    return A.Filter(coll, var, cond, tt, span=sx.span), t


def _sort(b, sx, scope):
    b.arity(sx, 4, shape="(sort <pile> using <points>)")
    return A.Sort(b.expect(sx[1], scope, T.PILE), b.using(sx, 2, scope), span=sx.span), T.PILE


def _run(b, sx, scope):
    b.arity(sx, 6, shape="(run top|bottom <int> <pile> using <points>)")
    end = b.need_keyword(sx[1], ("top", "bottom"), "top or bottom", sx)
    return A.RunAtEnd(end, b.expect(sx[2], scope, T.INT), b.expect(sx[3], scope, T.PILE), b.using(sx, 4, scope), span=sx.span), T.PILE


def _partition(b, sx, scope):
    if len(sx) < 3:
        b.fail("syntax", "(partition <attribute> <pile>+) needs an attribute and at least one pile", sx)
    if len(sx) == 3 and isinstance(sx[2], Atom) and sx[2].kind == "NAME":
        b.fail("unsupported", f"{to_text(sx)} is the CardStockXam name-last form; write (partition {sx[2].text} <pile>)", sx)
    attr = b.expect(sx[1], scope, T.STR)
    return A.Partition(attr, _piles_args(b, sx, 2, scope, "partition"), span=sx.span), T.PILES


def _subsets(b, sx, scope):
    b.arity(sx, 2, shape="(subsets <pile>)")
    return A.Subsets(b.expect(sx[1], scope, T.PILE), span=sx.span), T.PILES


def _tuples(b, sx, scope):
    b.arity(sx, 5, shape="(tuples <int> <pile> using <points>)")
    return A.Tuples(b.expect(sx[1], scope, T.INT), b.expect(sx[2], scope, T.PILE), b.using(sx, 3, scope), span=sx.span), T.PILES


def _run_clauses(b, sx, start, scope):
    """The optional `(step K)` and `(cyclic M)` clauses of runs and isrun (extensions E3)."""
    found = {"step": None, "cyclic": None}
    for x in sx.items[start:]:
        lst = b.need_list(x, "(step <int>) or (cyclic <int>)", sx)
        w = b.need_keyword(lst.head if lst.items else None, ("step", "cyclic"), "a run clause", lst)
        b.arity(lst, 2, shape=f"({w} <int>)")
        if found[w] is not None:
            b.fail("syntax", f"({w} …) is given twice in {to_text(sx)}", lst)
        found[w] = b.expect(lst[1], scope, T.INT)
    return found["step"], found["cyclic"]


def _runs(b, sx, scope):
    if len(sx) < 6:
        b.arity(sx, 6, shape="(runs largest|all <int> <pile> using <points> [(step <int>)] [(cyclic <int>)])")
    mode = b.need_keyword(sx[1], ("largest", "all"), "largest or all", sx)
    count, pile, pm = b.expect(sx[2], scope, T.INT), b.expect(sx[3], scope, T.PILE), b.using(sx, 4, scope)
    step, cyc = _run_clauses(b, sx, 6, scope)
    return A.Runs(mode, count, pile, pm, step, cyc, span=sx.span), T.PILES


def _isrun(b, sx, scope):
    if len(sx) < 4:
        b.arity(sx, 4, shape="(isrun <pile> using <points> [(step <int>)] [(cyclic <int>)])")
    node, t = b.guard(b.infer, sx[1], scope)
    if t is not ANY and t not in (T.PILE, T.PILES):
        b.fail("type", f"isrun tests a Pile (or a PileCollection, read pile after pile), but {to_text(sx[1])} is {_article(t)}", sx[1])
    pm = b.using(sx, 2, scope)
    step, cyc = _run_clauses(b, sx, 4, scope)
    return A.IsRun(node, pm, step, cyc, t if t is not ANY else T.PILE, span=sx.span), T.BOOL


# ---------------------------------------------------------------- board queries (extensions E1)


def _cell_arg(b, x, scope, form: str):
    """A board cell operand: a Pile that is a stored, non-memory location (checked again at run time)."""
    node = b.expect(x, scope, T.PILE)
    nature = pile_nature(node)
    if nature == "virtual":
        b.fail("type", f"({form} …) needs a board cell (a stored location), but {to_text(x)} is a computed (virtual) pile", x)
    if nature == "memory":
        b.fail("type", f"({form} …) needs a board cell, but {to_text(x)} is a memory pile", x)
    return node


def _cells(b, sx, scope):
    b.arity(sx, 2, shape="(cells <board>)")
    return A.Cells(_cell_arg(b, sx[1], scope, "cells"), span=sx.span), T.PILES


def _cell(b, sx, scope):
    b.arity(sx, 4, shape="(cell <board> <row> <col>)")
    return A.CellAt(_cell_arg(b, sx[1], scope, "cell"), b.expect(sx[2], scope, T.INT), b.expect(sx[3], scope, T.INT),
                    span=sx.span), T.PILE


def _coord(b, sx, scope):
    b.arity(sx, 2, shape=f"({sx.head.text} <cell>)")
    return A.Coord(sx.head.text, _cell_arg(b, sx[1], scope, sx.head.text), span=sx.span), T.INT


def _directions(b, sx, scope):
    b.arity(sx, 2, shape="(directions <board>)")
    return A.Directions(_cell_arg(b, sx[1], scope, "directions"), span=sx.span), T.STRS


def _neighbors(b, sx, scope):
    b.arity(sx, 2, 3, shape="(neighbors <cell> [<directions>])")
    dirs = b.expect(sx[2], scope, T.STRS) if len(sx) == 3 else None
    return A.Neighbors(_cell_arg(b, sx[1], scope, "neighbors"), dirs, span=sx.span), T.PILES


def _ray(b, sx, scope):
    b.arity(sx, 3, shape="(ray <cell> <direction>)")
    return A.Ray(_cell_arg(b, sx[1], scope, "ray"), b.expect(sx[2], scope, T.STR), span=sx.span), T.PILES


def _line(b, sx, scope):
    b.arity(sx, 4, shape="(line <cell> <direction> <int>)")
    return A.Line(_cell_arg(b, sx[1], scope, "line"), b.expect(sx[2], scope, T.STR), b.expect(sx[3], scope, T.INT),
                  span=sx.span), T.PILES


def _components(b, sx, scope):
    b.arity(sx, 2, 3, shape="(components <cells> [<directions>])")
    cells = b.expect(sx[1], scope, T.PILES)
    dirs = b.expect(sx[2], scope, T.STRS) if len(sx) == 3 else None
    return A.Components(cells, dirs, span=sx.span), T.GROUPS


def _indexed(b, sx, scope):
    b.arity(sx, 4, shape="(indexed <owner> <kind> <name>)")
    owner = b.pile_owner(sx[1], scope)
    kind = b.need_keyword(sx[2], tuple(KINDS), "a pile kind", sx)
    return A.Indexed(owner, KINDS[kind], b.expect(sx[3], scope, T.STR), span=sx.span), T.PILES


def _unsupported_expr(b, sx, scope):
    b.fail("unsupported", f"`{sx.head.text}`: " + UNSUPPORTED_WORDS.get(sx.head.text, "not supported"), sx)


def _game_head(b, sx, scope):
    # `(game vloc X)` and friends: `game` as owner.
    if len(sx) >= 2 and (b.kw(sx[1], *KINDS) or b.kw(sx[1], *STORAGE_KINDS)):
        return b.headless(sx, scope)
    b.fail("syntax", f"a nested (game …) form is not allowed: {to_text(sx)}", sx)


EXPR_FORMS: dict[str, Callable] = {
    "current": _who, "next": _who, "previous": _who,
    "owner": _owner, "team": _team, "other": _other,
    "range": _range, "size": _size,
    "sum": _using_form(A.Sum, T.INT, T.PILE, "(sum <pile> using <points>)"),
    "score": _using_form(A.Score, T.INT, T.CARD, "(score <card> using <points>)"),
    "scoremax": _score_extreme, "scoremin": _score_extreme,
    "max": _card_extreme, "min": _card_extreme,
    "pid": _pid, "tri": _intfn, "fib": _intfn, "random": _random,
    "+": _arith, "*": _arith, "-": _arith, "//": _arith, "%": _arith, "^": _arith,
    "==": _compare, "!=": _compare, "<": _compare, ">": _compare, "<=": _compare, ">=": _compare,
    "and": _logic, "or": _logic, "not": _logic,
    "cardatt": _cardatt, "any": _quant, "all": _quant,
    "top": _top_bottom, "bottom": _top_bottom, "actual": _actual,
    "union": _setop, "intersect": _setop, "disjunction": _setop,
    "filter": _filter, "sort": _sort, "run": _run,
    "partition": _partition, "subsets": _subsets, "tuples": _tuples, "runs": _runs,
    "indexed": _indexed, "game": _game_head,
    "isrun": _isrun, "cells": _cells, "cell": _cell, "row": _coord, "col": _coord, "directions": _directions,
    "neighbors": _neighbors, "ray": _ray, "line": _line, "components": _components,
    "put": _unsupported_expr, "initialize": _unsupported_expr, "comp": _unsupported_expr, "mod": _unsupported_expr,
}


# ---------------------------------------------------------------- action forms


def _dest_pile(node):
    inner = node.card if isinstance(node, A.Actual) else node
    return inner.pile if isinstance(inner, A.CardAt) else None



def _move(b, sx, scope, in_choice):
    b.arity(sx, 3, shape=f"({sx.head.text} <card> <destination>)")
    card = b.card_ref(sx[1], scope, f"the card to {sx.head.text}")
    dest = b.positional(sx[2], scope, "a destination")
    verb = sx.head.text
    nature = pile_nature(_dest_pile(dest))
    if verb == "move" and nature in ("memory", "virtual"):
        b.fail("type", f"cannot move a card into {'a memory pile (use remember)' if nature == 'memory' else 'a computed (virtual) pile'}: {to_text(sx[2])}", sx[2])
    if verb == "remember" and nature in ("physical", "virtual"):
        b.fail("type", f"remember needs a memory pile (<owner> mem <name>) as destination, not {to_text(sx[2])}", sx[2])
    src = card.card if isinstance(card, A.Actual) else card
    if verb == "move" and isinstance(src, A.CardAt) and pile_nature(src.pile) == "memory":
        b.fail("type", f"cannot move a card out of a memory pile by position (use forget): {to_text(sx[1])}", sx[1])
    cls = A.Move if verb == "move" else A.Remember
    return cls(card, dest, span=sx.span)


def _forget(b, sx, scope, in_choice):
    b.arity(sx, 2, shape="(forget <card>)")
    node = b.positional(sx[1], scope, "the operand of forget")
    if pile_nature(_dest_pile(node)) in ("physical", "virtual"):
        b.fail("type", f"forget removes an entry from a memory pile, but {to_text(sx[1])} is not in one", sx[1])
    return A.Forget(node, span=sx.span)


def _swap(b, sx, scope, in_choice):
    b.arity(sx, 3, shape="(swap <a> <b>)")
    l, lt = b.guard(b.infer, sx[1], scope)
    r, rt = b.guard(b.infer, sx[2], scope)
    t = lt if lt is not ANY else rt
    if lt is not ANY and rt is not ANY and (lt != rt or lt not in (T.PILE, T.CARD)):
        b.fail("type", f"swap takes two piles or two cards, but {to_text(sx[1])} is {_article(lt)} and {to_text(sx[2])} is {_article(rt)}", sx)
    if t == T.PILE:
        for node, x in ((l, sx[1]), (r, sx[2])):
            if pile_nature(node) in ("memory", "virtual"):
                b.fail("type", f"swap exchanges stored physical piles, but {to_text(x)} is a {pile_nature(node)} pile", x)
    return A.Swap(l, r, t if t is not ANY else T.PILE, span=sx.span)


def _shuffle(b, sx, scope, in_choice):
    b.arity(sx, 2, shape="(shuffle <pile>)")
    if b.kw(sx[1], "faro"):
        b.fail("unsupported", "`shuffle faro` is not supported", sx[1])
    pile = b.expect(sx[1], scope, T.PILE)
    if pile_nature(pile) == "virtual":
        b.fail("type", f"shuffle needs a stored pile, but {to_text(sx[1])} is computed (virtual)", sx[1])
    return A.Shuffle(pile, span=sx.span)


def _set(b, sx, scope, in_choice):
    b.arity(sx, 3, shape="(set <storage> <value>)")
    target = b.storage(sx[1], scope, STORAGE_KINDS, "the target of set")
    if isinstance(target, Poison):
        return A.TurnPass(span=sx.span)
    if target.kind == "points":
        return A.SetPoints(target, b.awards(sx[2], scope), span=sx.span)
    return A.SetValue(target, b.expect(sx[2], scope, STORAGE_TYPES[target.kind]), span=sx.span)


def _incdec(b, sx, scope, in_choice):
    op = sx.head.text
    b.arity(sx, 2, 3, shape=f"({op} (<owner> sto <name>) [<int>])")
    target = b.storage(sx[1], scope, ("sto",), f"the target of {op}")
    amount = b.expect(sx[2], scope, T.INT) if len(sx) == 3 else None
    return A.IncDec(op, target, amount, span=sx.span)


def _cycle(b, sx, scope, in_choice):
    b.arity(sx, 3, shape="(cycle next|current <player>)")
    mode = b.need_keyword(sx[1], ("next", "current"), "next or current", sx)
    tgt = sx[2]
    if b.kw(tgt, "current", "next", "previous"):
        target = A.WhoRef(tgt.text, "player", span=tgt.span)
    else:
        node, t = b.guard(b.infer, tgt, scope)
        if t == T.TEAM:
            b.fail("type", f"the target of cycle must be a Player, but {to_text(tgt)} is a Team", tgt)
        target = b.coerce(node, t, T.PLAYER, tgt)
    return A.Cycle(mode, target, span=sx.span)


def _turn(b, sx, scope, in_choice):
    b.arity(sx, 2, shape="(turn pass)")
    b.need_keyword(sx[1], ("pass",), "the keyword", sx)
    return A.TurnPass(span=sx.span)


def _repeat(b, sx, scope, in_choice):
    b.arity(sx, 3, shape="(repeat <int> <action>) or (repeat all (move|forget …))")
    if b.kw(sx[1], "all"):
        body_sx = b.need_list(sx[2], "(move …) or (forget …) after repeat all", sx)
        if not (body_sx.items and b.kw(body_sx.head, "move", "forget")):
            b.fail("syntax", f"repeat all repeats a move or a forget, not {to_text(body_sx)}", body_sx)
        body = b.action(body_sx, scope, in_choice)
        src_sx = body_sx[1]
        if isinstance(body, A.Move):
            src = body.card.card if isinstance(body.card, A.Actual) else body.card
            if not isinstance(src, (A.CardAt, Poison)):
                b.fail("type", f"the source of repeat all must be positional — (top <pile>), (bottom <pile>) or (<int> <pile>) — not {to_text(src_sx)}", src_sx)
        return A.RepeatAll(body, span=sx.span)
    count = b.expect(sx[1], scope, T.INT)
    body_sx = sx[2]
    if isinstance(body_sx, SList) and body_sx.items and b.kw(body_sx.head, "any", "all"):
        body = b.loop(body_sx, scope, in_choice)
    elif isinstance(body_sx, SList) and body_sx.items and b.kw(body_sx.head, *ACTIONS):
        body = b.action(body_sx, scope, in_choice)
    else:
        b.fail("syntax", f"repeat repeats an action or a loop, not {to_text(body_sx)}", body_sx)
    return A.Repeat(count, body, span=sx.span)


def _clear(b, sx, scope, in_choice):
    b.arity(sx, 2, shape="(clear <storage>)")
    target = b.storage(sx[1], scope, STORAGE_KINDS, "the operand of clear")
    if isinstance(target, Poison):
        return A.TurnPass(span=sx.span)
    return A.Clear(target, span=sx.span)


ACTION_FORMS: dict[str, Callable] = {
    "clear": _clear,
    "move": _move, "remember": _move, "forget": _forget, "swap": _swap, "shuffle": _shuffle,
    "set": _set, "inc": _incdec, "dec": _incdec, "cycle": _cycle, "turn": _turn, "repeat": _repeat,
    "create": lambda b, sx, scope, in_choice: b.create_deck(sx, scope, in_choice),
}




def check_setup(b: Builder, game: A.Game, params: dict) -> None:
    """Load-time checks of the constant parts: decks, declares with overrides, player count, teams."""
    for node in walk(game):
        if isinstance(node, A.CreateDeck):
            try:
                expand_deck(node.attributes)
            except DeckError as e:
                b.error("deck", e.message, e.span if e.span.line else node.span)
    try:
        env = declared_values(game, params)
    except ConstError as e:
        b.error("arithmetic", str(e), e.node)
        return
    try:
        n = const_value(game.setup.players.count, env)
    except ConstError as e:
        b.error("type", str(e), e.node)
        return
    if n < 1:
        b.error("setup", f"a game needs at least one player, but (create players …) gives {n}", game.setup.players)
        return
    for node in walk(game):
        if isinstance(node, A.CreateBoard):
            msg = board_problem(node, env)
            if msg:
                b.error("setup", msg, node)
    if game.setup.teams is not None:
        try:
            _, one_based = resolve_teams(game.setup.teams.teams, n)
        except ValueError as e:
            b.error("setup", str(e), game.setup.teams)
            return
        if one_based:
            b.warn("teams-one-based", "team members read as seat numbers counted from 1 (subtracting 1 from each)", game.setup.teams)

