"""The checker's core: one `Builder` per file collects diagnostics and infers types bottom-up (spec §3.5).

A form is recognised by its head (a keyword, or the shape of a non-keyword head, language spec
Appendix A) and checked against its signature: arity, operand types, scoping, placement.  The
forms themselves live in the modules of this package, one kind each, and are found through the
tables of `registry` (expressions, actions) or the dispatch of `clauses` (clauses, items).
Errors are collected, not raised at the first: a failing sub-form yields a `Poison` node
compatible with everything, so one mistake does not cascade into a dozen.
"""
from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from typing import NoReturn, TypeGuard

import attrs

from ...errors import Diagnostic, Span
from .. import ast as A
from ..ast import T
from ..sexprs import Atom, SList, to_text
from ..signatures import ACTIONS
from ..source import SourceFile
from . import definitions, references
from .base import ANY, Binding, Definition, Fail, Poison, article, describe
from .registry import ACTIONS as ACTION_FORMS
from .registry import EXPRESSIONS


class Builder:
    """Turns the S-expressions of one file into a typed `ast.Game`, collecting diagnostics."""

    CONST_NODES = (A.IntLit, A.Name, A.Var, A.Arith, A.IntFn, A.NameList, A.Range, A.Compare, A.Logic, A.Not,
                   A.MeldRulesForm, Poison)

    def __init__(self, src: SourceFile, sources: Mapping[str, SourceFile] | None = None):
        self.src = src
        # every file whose forms are checked here (a variant and the games it builds on), by name
        self.sources: dict[str, SourceFile] = {src.filename: src, **(sources or {})}
        self.errors: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []
        self.declared: dict[str, Binding] = {}
        self.atomic_depth = 0  # > 0 while the body of an `atomic` block is being built
        self.definitions: dict[str, Definition] = {}
        self.expanding: list[str] = []  # the definitions whose bodies are being checked, outermost first
        self.call_notes: list[str] = []  # "in (NAME …) used at L:C", for messages inside a definition's body
        self.used: set[str] = set()  # definitions used at least once
        # definitions.call: (depth, size) of each body, the depth of the bodies being expanded, forms expanded
        self.body_shape: dict[str, tuple[int, int]] = {}
        self.expanded_depth = 0
        self.expanded_forms = 0
        # cards of the decks and elements of the declared lists made when the constants are worked out
        # (check_setup): with expanded_forms, the work of a check its tokens do not show (reader.WORK)
        self.constant_elements = 0

    def count_constants(self, k: int) -> None:
        """Count k more constant elements made (consts.declared_values tells each declare's)."""
        self.constant_elements += k

    def action(self, sx: SList, scope, in_choice: bool):
        """An action form, by its head (the table of `registry`)."""
        return ACTION_FORMS[sx.head.text](self, sx, scope, in_choice)

    def diag(self, severity: str, cls: str, message: str, at, notes=()) -> Diagnostic:
        """A diagnostic at a form or span, with the source line of the file it stands in."""
        span = at.span if not isinstance(at, Span) else at
        src = self.sources.get(span.file, self.src)
        return src.diag(severity, cls, message, span, (*notes, *reversed(self.call_notes)))

    def error(self, cls: str, message: str, at, notes=()) -> None:
        self.errors.append(self.diag("error", cls, message, at, notes))

    def fail(self, cls: str, message: str, at, notes=()) -> NoReturn:
        self.error(cls, message, at, notes)
        raise Fail()

    def warn(self, cls: str, message: str, at) -> None:
        self.warnings.append(self.diag("warning", cls, message, at))

    def guard(self, fn: Callable, *args):
        """Run fn(*args); on failure return a Poison node so checking can go on."""
        try:
            return fn(*args)
        except Fail:
            sx = args[0]
            return (Poison(span=sx.span), ANY)

    @staticmethod
    def kw(x, *words) -> TypeGuard[Atom]:
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
            self.fail("syntax", f"expected {what} ({' or '.join(f'`{w}`' for w in words)}), found {got}",
                      x if x is not None else parent)
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

    def expect(self, sx, scope, want: T):
        """Build sx and check that its type is `want` (a Team counts as players where players are wanted)."""
        node, t = self.guard(self.infer, sx, scope)
        return self.coerce(node, t, want, sx, scope)

    def coerce(self, node, t, want: T, sx, scope=None):
        if t is ANY or t == want:
            return node
        if want == T.PLAYERS and t == T.TEAM:
            return A.TeamAsPlayers(node, span=node.span)
        if want == T.PILE and t == T.CARD:
            return A.CardAsPile(node, span=node.span)
        self.type_error(t, want, sx, scope)
        return Poison(span=sx.span)

    def type_error(self, t, want, sx, scope=None):
        self.error("type", f"expected {article(want)}, but {to_text(sx)} is {article(t)}{self.bound_at(sx, scope)}", sx)

    @staticmethod
    def bound_at(sx, scope) -> str:
        """` (bound at L:C)` for a variable, to say where its type comes from (spec §19.1)."""
        if scope and isinstance(sx, Atom) and sx.kind == "VAR" and sx.value in scope:
            sp = scope[sx.value].span
            return f" ({sx.text} bound at {sp.line}:{sp.column})"
        return ""

    def collection(self, sx, scope):
        """Build a collection expression; returns (node, type) with Team -> its members, Card -> a one-card pile."""
        node, t = self.guard(self.infer, sx, scope)
        if t == T.TEAM:
            return A.TeamAsPlayers(node, span=node.span), T.PLAYERS
        if t == T.CARD:
            return A.CardAsPile(node, span=node.span), T.PILE
        if t is not ANY and t not in A.COLLECTIONS:
            self.error("type", f"expected a collection, but {to_text(sx)} is {article(t)}", sx)
            return Poison(span=sx.span), ANY
        return node, t

    def bind(self, scope: dict, name: str, t, at) -> dict:
        new = dict(scope)
        new[name] = Binding(t if t is not ANY else ANY, at.span)
        return new

    def infer(self, sx, scope):
        """(node, type) of an expression in value position."""
        if isinstance(sx, Atom):
            return self.atom(sx, scope)
        if not sx.items:
            self.fail("syntax", "`()` is not a form", sx)
        head = sx.head
        if isinstance(head, Atom) and head.kind in ("KEYWORD", "OP"):
            fn = EXPRESSIONS.get(head.text)
            if fn is None:
                if head.text in ACTIONS or head.text in ("do", "choice", "stage", "let", "atomic"):
                    self.fail("placement", f"`{head.text}` is not an expression: "
                                           f"{to_text(sx)} cannot stand where a value is expected", sx)
                self.fail("syntax", f"`{head.text}` cannot begin a form here: {to_text(sx)}", sx)
            return fn(self, sx, scope)
        if isinstance(head, Atom) and head.kind == "NAME" and head.text in self.definitions:
            return definitions.call_expr(self, sx, scope)
        return references.headless(self, sx, scope)

    def atom(self, a: Atom, scope):
        k = a.kind
        if k == "INT":
            return A.IntLit(a.value, span=a.span), T.INT
        if k == "NAME":
            return A.Name(a.text, span=a.span), T.STR
        if k == "VAR":
            b = scope.get(a.value)
            if b is None:
                by_upper = {str(n).upper(): n for n in scope}
                close = difflib.get_close_matches(a.value.upper(), list(by_upper), n=1)
                hint = f" (did you mean '{by_upper[close[0]]}?)" if close else ""
                self.fail("scope", f"variable {a.text} is not bound here (no enclosing binder or declare){hint}", a)
            return A.Var(a.value, b.type, span=a.span), b.type
        if k == "TEXT":
            self.fail("syntax", f"quoted text such as {a.text} names only the base game of (extends \"…\"): "
                                "names in RECYCLE are bare uppercase words", a)
        if k == "KEYWORD":
            if a.text in ("player", "team"):
                return A.AllOf(a.text, span=a.span), (T.PLAYERS if a.text == "player" else T.TEAMS)
            if a.text == "game":
                self.fail("type", "`game` is an owner only: it cannot stand alone as a value", a)
            self.fail("syntax", f"the keyword `{a.text}` cannot stand alone here", a)
        self.fail("syntax", f"unexpected `{a.text}`", a)

    def card_ref(self, sx, scope, role: str):
        """A card reference (spec §8.6); `(top X)` with X a PileCollection is a type error here."""
        node, t = self.guard(self.infer, sx, scope)
        if t is ANY or t == T.CARD:
            return node
        if isinstance(node, A.PileAt) and isinstance(node.piles, A.Var):
            b = scope.get(node.piles.name)
            where = f" (bound at {b.span.line}:{b.span.column})" if b else ""
            vname = "'" + node.piles.name
            self.fail("type", f"{to_text(sx)} needs a pile, but {vname} holds a collection of piles{where}; "
                              f"{role} must be a card", sx)
        if isinstance(node, A.Slice):
            self.fail("type", f"{to_text(sx)} is a slice (a Pile), but {role} must be a card; "
                              "(top <pile>) designates one card", sx)
        self.fail("type", f"{role} must be a Card, but {to_text(sx)} is {article(t)}", sx)

    def positional(self, sx, scope, role: str):
        """A destination or positional source: (top P), (bottom P), (<int> P), possibly in `actual`."""
        node = self.card_ref(sx, scope, role)
        inner = node.card if isinstance(node, A.Actual) else node
        if isinstance(node, Poison) or isinstance(inner, (A.CardAt, Poison)):
            return node
        self.fail("type", f"{role} must be positional — (top <pile>), (bottom <pile>) or (<int> <pile>) — not "
                          f"{to_text(sx)}", sx)

    def storage(self, sx, scope, kinds: tuple, role: str):
        node, _t = self.guard(self.infer, sx, scope)
        if isinstance(node, Poison):
            return node
        if not isinstance(node, A.Storage) or node.kind not in kinds:
            self.fail("type", f"{role} must be a storage cell ({' or '.join(f'(<owner> {k} <name>)' for k in kinds)}), "
                              f"not {to_text(sx)}", sx)
        return node

    def check_const(self, node, what: str = "declare and setup values") -> bool:
        """Report a non-constant expression where a constant is required (declare, setup, board shapes)."""
        bad = self.first_nonconst(node)
        if bad is not None:
            self.error("type", f"{describe(bad)} is not constant: "
                               f"{what} may use only literals, declared variables and arithmetic", bad)
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
