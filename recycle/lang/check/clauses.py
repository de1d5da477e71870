"""Clauses and program items (language spec §6, §7; extensions E4): do, choice, loops, let, atomic, stage, guards."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .. import ast as A
from ..ast import T
from ..reader import Atom, SList, to_text
from ..signatures import ACTIONS
from .base import ANY, Fail

if TYPE_CHECKING:
    from .builder import Builder


def clause(b: Builder, sx, scope, in_choice: bool):
    try:
        return _clause(b, sx, scope, in_choice)
    except Fail:
        return A.TurnPass(span=sx.span)


def _clause(b: Builder, sx, scope, in_choice: bool):
    if isinstance(sx, Atom):
        b.fail("syntax", "expected a clause (an action, do, loop, let, atomic or guarded clause), found "
                         f"`{sx.text}`", sx)
    if not sx.items:
        b.fail("syntax", "`()` is not a clause", sx)
    head = sx.head
    if b.kw(head):
        w = head.text
        form = CLAUSE_FORMS.get(w)
        if form is not None:
            return form(b, sx, scope, in_choice)
        if w in ACTIONS:
            return b.action(sx, scope, in_choice)
        if w == "choice":
            b.fail("placement", "a `choice` may only be a program item (or the body of a `let` item), "
                                "not inside a do, loop or guarded clause", sx)
        if w == "stage":
            b.fail("placement", "a `stage` may only be a program item", sx)
        b.fail("syntax", "expected a clause (an action, do, loop, let, atomic or guarded clause), found "
                         f"{to_text(sx)}", sx)
    if isinstance(head, SList) or (isinstance(head, Atom) and head.kind == "VAR"):
        if len(sx) != 2:
            b.fail("syntax", "a guarded clause is (<condition> <clause>), "
                             f"but {to_text(sx)} has {len(sx)} elements", sx)
        cond = b.expect(head, scope, T.BOOL)
        body = clause(b, sx[1], scope, in_choice)
        return A.Guarded(cond, body, span=sx.span)
    b.fail("syntax", f"expected a clause (an action, do, loop, let, atomic or guarded clause), found {to_text(sx)}", sx)


def do_block(b: Builder, sx: SList, scope, in_choice: bool):
    b.arity(sx, 2, shape="(do (<clause>+))")
    body = b.need_list(sx[1], "a parenthesised list of clauses after `do`", sx)
    if not body.items:
        b.fail("syntax", "`do` needs at least one clause", body)
    return A.Do(tuple(clause(b, c, scope, in_choice) for c in body.items), span=sx.span)


def choice(b: Builder, sx: SList, scope):
    b.arity(sx, 2, shape="(choice (<clause>+))")
    body = b.need_list(sx[1], "a parenthesised list of clauses after `choice`", sx)
    if not body.items:
        b.fail("syntax", "`choice` needs at least one clause", body)
    return A.Choice(tuple(clause(b, c, scope, True) for c in body.items), span=sx.span)


def loop(b: Builder, sx: SList, scope, in_choice: bool):
    b.arity(sx, 4, shape=f"({sx.head.text} <collection> 'V <body>)")
    coll, t = b.collection(sx[1], scope)
    var = b.need_var(sx[2], sx)
    inner = b.bind(scope, var, A.ELEMENT.get(t, ANY), sx[2])
    body = clause(b, sx[3], inner, in_choice)
    return A.Loop(sx.head.text, coll, var, body, A.ELEMENT.get(t, T.INT), span=sx.span)


def let(b: Builder, sx: SList, scope, body_fn):
    b.arity(sx, 4, shape="(let <value> 'V <body>)")
    value, t = b.guard(b.infer, sx[1], scope)
    if t == T.POINTS:
        b.fail("type", "point maps cannot be held in variables", sx[1])
    var = b.need_var(sx[2], sx)
    inner = b.bind(scope, var, t, sx[2])
    body = body_fn(sx[3], inner)
    return A.Let(value, var, body, t if t is not ANY else T.INT, span=sx.span)


def item(b: Builder, sx, scope):
    try:
        return _item(b, sx, scope)
    except Fail:
        return A.Do((A.TurnPass(span=sx.span),), span=sx.span)


def _item(b: Builder, sx, scope):
    if isinstance(sx, Atom) or not sx.items:
        b.fail("syntax", f"expected a program item (do, choice, stage, loop, let or atomic), found {to_text(sx)}", sx)
    head = sx.head
    form = ITEM_FORMS.get(head.text) if b.kw(head) else None
    if form is not None:
        return form(b, sx, scope)
    if b.kw(head, "create") and len(sx) > 1 and b.kw(sx[1], "players", "teams"):
        b.fail("placement", f"`create {sx[1].text}` may only appear in setup", sx)
    if b.kw(head, *ACTIONS) or isinstance(head, SList) or (isinstance(head, Atom) and head.kind == "VAR"):
        b.fail("placement", "a bare action or guarded clause is not a program item: wrap it in (do (…)): "
                            f"{to_text(sx)}", sx)
    if b.kw(head, "setup", "scoring", "declare"):
        b.fail("syntax", f"`{head.text}` is out of place: "
                         "a game is (game (declare …)* (setup …) <item>+ (scoring …))", sx)
    b.fail("syntax", f"expected a program item (do, choice, stage, loop, let or atomic), found {to_text(sx)}", sx)


def atomic(b: Builder, sx: SList, scope, in_choice: bool, item: bool):
    """`(atomic <do|choice|stage> (require <bool>))` as a program item or a clause (extensions E4)."""
    b.arity(sx, 3, shape="(atomic <do|choice|stage> (require <condition>))")
    body_sx = b.need_list(sx[1], "a (do …), (choice …) or (stage …) after `atomic`", sx)
    req = b.need_list(sx[2], "(require <condition>)", sx)
    if not (req.items and b.kw(req.head, "require") and len(req) == 2):
        b.fail("syntax", f"expected (require <condition>), found {to_text(req)}", req)
    what = body_sx.head.text if body_sx.items and b.kw(body_sx.head) else None
    if what not in ("do", "choice", "stage"):
        b.fail("syntax", f"an atomic block holds a do, a choice or a stage, not {to_text(body_sx)}", body_sx)
    if what != "do" and not (item or in_choice):
        b.fail("placement", f"an atomic block with a {what} is a decision: it may be a program item or stand "
                  "inside a choice, not inside a do, loop or guarded clause", sx)
    b.atomic_depth += 1
    try:
        if what == "do":
            body = do_block(b, body_sx, scope, in_choice)
        elif what == "choice":
            body = choice(b, body_sx, scope)
        else:
            body = stage(b, body_sx, scope)
    finally:
        b.atomic_depth -= 1
    cond = b.expect(req[1], scope, T.BOOL)
    return A.Atomic(body, cond, span=sx.span)


def stage(b: Builder, sx: SList, scope):
    if len(sx) < 4:
        b.fail("syntax", "a stage is (stage player|team (end <condition>) <item>+), "
                         f"but {to_text(sx)} has {len(sx)} elements", sx)
    kind = b.need_keyword(sx[1], ("player", "team"), "the stage kind", sx)
    end = b.need_list(sx[2], "(end <condition>)", sx)
    if not (end.items and b.kw(end.head, "end") and len(end) == 2):
        b.fail("syntax", f"expected (end <condition>), found {to_text(end)}", end)
    cond = b.expect(end[1], scope, T.BOOL)
    items = tuple(item(b, i, scope) for i in sx.items[3:])
    return A.Stage(kind, cond, items, span=sx.span)


def _let_clause(b: Builder, sx: SList, scope, in_choice: bool):
    return let(b, sx, scope, lambda body, sc: clause(b, body, sc, in_choice))


def _let_item(b: Builder, sx: SList, scope):
    """A `let` item: its body is a clause or a choice (spec §6.5)."""
    def body(body_sx, sc):
        if isinstance(body_sx, SList) and b.kw(body_sx.head, "choice"):
            return choice(b, body_sx, sc)
        return clause(b, body_sx, sc, False)
    return let(b, sx, scope, body)


# head keyword -> fn(builder, sx, scope, in_choice): the forms that may stand where a clause is expected
# (actions too, through the builder's action table).
CLAUSE_FORMS: dict[str, Callable] = {
    "do": do_block,
    "any": loop, "all": loop,
    "let": _let_clause,
    "atomic": lambda b, sx, scope, in_choice: atomic(b, sx, scope, in_choice, False),
}
# head keyword -> fn(builder, sx, scope): the program items.
ITEM_FORMS: dict[str, Callable] = {
    "do": lambda b, sx, scope: do_block(b, sx, scope, False),
    "choice": choice,
    "stage": stage,
    "any": lambda b, sx, scope: loop(b, sx, scope, False), "all": lambda b, sx, scope: loop(b, sx, scope, False),
    "atomic": lambda b, sx, scope: atomic(b, sx, scope, False, True),
    "let": _let_item,
}
