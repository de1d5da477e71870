"""Clauses and program items (language spec §6, §7; extensions E4): do, choice, loops, let, atomic, stage, guards."""
from __future__ import annotations

import difflib
from collections.abc import Callable
from typing import TYPE_CHECKING

from .. import ast as A
from ..ast import T
from ..sexprs import Atom, SList, to_text
from ..signatures import ACTIONS
from . import definitions
from .base import ANY, Fail, article

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
        if w in ("stage", "optional", "ask", "while", "match"):
            b.fail("placement", f"a `{w}` may only be a program item, not inside a do, loop or guarded clause", sx)
        b.fail("syntax", "expected a clause (an action, do, loop, let, atomic or guarded clause), found "
                         f"{to_text(sx)}", sx)
    if definitions.is_use(b, sx):
        name, args, params, body = definitions.call(b, sx, scope, lambda body, inner: clause(b, body, inner, in_choice))
        return A.CallClause(name, args, params, body, span=sx.span)
    if isinstance(head, Atom) and head.kind == "NAME":
        b.fail("scope", f"{head.text} is not defined: a clause that begins with a NAME uses a definition"
                        f"{_suggest(b, head.text)}", head)
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
    return A.Choice(alternatives(b, sx, scope), span=sx.span)


def alternatives(b: Builder, sx: SList, scope) -> tuple:
    """The clauses of `(choice|optional|either (<clause>+))`, each an alternative inside a choice."""
    w = sx.head.text
    b.arity(sx, 2, shape=f"({w} (<clause>+))")
    body = b.need_list(sx[1], f"a parenthesised list of clauses after `{w}`", sx)
    if not body.items:
        b.fail("syntax", f"`{w}` needs at least one clause", body)
    out = tuple(clause(b, c, scope, True) for c in body.items)
    for c in out:
        _warn_sequence(b, c)
    return out


def _warn_sequence(b: Builder, alt) -> None:
    """Warn about a do that walks several `any` loops in a row where one of them was probably meant.

    Loops over one collection are a repeated pick ("discard two cards") and say nothing; loops over
    different collections side by side are how the mistake reads ("meld from the hand, lay off on the
    table"): every option then takes one path through each.
    """
    if not isinstance(alt, A.Do):
        return
    loops = [c for c in alt.clauses if isinstance(c, A.Loop) and c.quant == "any"]
    if len(loops) >= 2 and len({c.coll for c in loops}) > 1:
        b.warn("sequence", f"this do walks {len(loops)} `any` loops one after another: each option takes one path "
                           "through every loop; if they are alternatives, write (either (…)) instead", alt)


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
    if definitions.is_use(b, sx):
        name, args, params, body = definitions.call(b, sx, scope, lambda body, inner: item(b, body, inner))
        return A.CallItem(name, args, params, body, span=sx.span)
    if isinstance(head, Atom) and head.kind == "NAME":
        b.fail("scope", f"{head.text} is not defined: an item that begins with a NAME uses a definition"
                        f"{_suggest(b, head.text)}", head)
    if b.kw(head, "create") and len(sx) > 1 and b.kw(sx[1], "players", "teams"):
        b.fail("placement", f"`create {sx[1].text}` may only appear in setup", sx)
    if b.kw(head, *ACTIONS) or isinstance(head, SList) or (isinstance(head, Atom) and head.kind == "VAR"):
        b.fail("placement", "a bare action or guarded clause is not a program item: wrap it in (do (…)): "
                            f"{to_text(sx)}", sx)
    if b.kw(head, "setup", "scoring", "declare"):
        b.fail("syntax", f"`{head.text}` is out of place: "
                         "a game is (game (declare …)* (setup …) <item>+ (scoring …))", sx)
    b.fail("syntax", f"expected a program item (do, choice, stage, loop, let or atomic), found {to_text(sx)}", sx)


def _suggest(b: Builder, name: str) -> str:
    # Case-insensitive: `Curent` and `CURENT` both find CURRENT.
    by_upper = {d.upper(): d for d in b.definitions}
    close = difflib.get_close_matches(name.upper(), list(by_upper), n=1)
    return f" (did you mean {by_upper[close[0]]}?)" if close else ""


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


# Items that are not clauses: as the body of a `let` item they stay items (a decision, a loop of items, …).
ITEM_ONLY = ("choice", "stage", "optional", "ask", "while", "match", "let")


def _let_item(b: Builder, sx: SList, scope):
    """A `let` item: its body is a clause, or an item such as a choice or another let (spec §6.5)."""
    def body(body_sx, sc):
        if isinstance(body_sx, SList) and (b.kw(body_sx.head, *ITEM_ONLY) or definitions.is_use(b, body_sx)):
            return item(b, body_sx, sc)
        return clause(b, body_sx, sc, False)
    return let(b, sx, scope, body)


def _if_clause(b: Builder, sx: SList, scope, in_choice: bool):
    """`(if <bool> <clause> [<clause>])`: the condition, evaluated once, chooses the branch that runs."""
    b.arity(sx, 3, 4, shape="(if <condition> <clause> [<clause>])")
    cond = b.expect(sx[1], scope, T.BOOL)
    then = clause(b, sx[2], scope, in_choice)
    orelse = clause(b, sx[3], scope, in_choice) if len(sx) == 4 else None
    return A.If(cond, then, orelse, span=sx.span)


def _either(b: Builder, sx: SList, scope, in_choice: bool):
    """`(either (<clause>+))`: alternatives, each a separate continuation of the options being built."""
    if not in_choice:
        b.fail("placement", "`either` offers alternatives, so it may only stand inside a choice (or an optional "
                            "step): outside one, every clause runs and there is nothing to choose", sx)
    return A.Either(alternatives(b, sx, scope), span=sx.span)


def _optional(b: Builder, sx: SList, scope):
    """`(optional (<clause>+))`: a decision with a pass, skipped when none of its clauses gives an option."""
    return A.OptionalStep(alternatives(b, sx, scope), span=sx.span)


# Why each turn item cannot stand inside an atomic block, which is one decision of one player.
_NOT_ATOMIC = {
    "optional": "make the pass a clause of a choice",
    "ask": "a decision by another player cannot be part of this one",
    "while": "repeat with a stage ending on the condition",
    "match": "a match deals whole hands, each of many decisions",
}


def _turn_item(b: Builder, sx: SList, scope, form: Callable):
    """The turn items (§20, §22), outside atomic blocks only."""
    if b.atomic_depth:
        word = sx.head.text
        b.fail("placement", f"`{word}` cannot stand inside an atomic block, which is one decision: "
                            f"{_NOT_ATOMIC[word]}", sx)
    return form(b, sx, scope)


DECISIONS = (A.Choice, A.OptionalStep)


def _decision(b: Builder, sx, scope):
    """The decision of an `ask`: a choice or an optional step, possibly inside `let`s."""
    node = item(b, sx, scope)
    inner = node
    while isinstance(inner, A.Let):
        inner = inner.body
    if not isinstance(inner, DECISIONS):
        b.fail("syntax", f"ask makes a player take a decision: a (choice …) or an (optional …), not {to_text(sx)}",
               sx)
    return node


def _ask(b: Builder, sx: SList, scope):
    """`(ask <player or players> 'V <decision>)`: each player in order decides; whose turn it is does not change."""
    b.arity(sx, 4, shape="(ask <players> 'V <choice or optional>)")
    who, t = b.guard(b.infer, sx[1], scope)
    if t == T.TEAM:
        who, t = A.TeamAsPlayers(who, span=who.span), T.PLAYERS
    if t is not ANY and t not in (T.PLAYER, T.PLAYERS):
        b.fail("type", f"ask needs a Player or players, but {to_text(sx[1])} is {article(t)}", sx[1])
    var = b.need_var(sx[2], sx)
    inner = b.bind(scope, var, T.PLAYER, sx[2])
    body = _decision(b, sx[3], inner)
    return A.Ask(who, var, body, t if t is not ANY else T.PLAYER, span=sx.span)


def _while(b: Builder, sx: SList, scope):
    """`(while <bool> <item>+)`: the items over and over while the condition holds; the turn does not change."""
    if len(sx) < 3:
        b.fail("syntax", f"a while is (while <condition> <item>+), but {to_text(sx)} has no item", sx)
    cond = b.expect(sx[1], scope, T.BOOL)
    return A.While(cond, tuple(item(b, i, scope) for i in sx.items[2:]), span=sx.span)


def _match(b: Builder, sx: SList, scope):
    """`(match (end <bool>) (score <int>) <item>+)`: hands until the condition, each hand's score recorded."""
    if len(sx) < 4:
        b.fail("syntax", f"a match is (match (end <condition>) (score <int>) <item>+), but {to_text(sx)} "
                         f"has {len(sx)} elements", sx)
    end = b.need_list(sx[1], "(end <condition>)", sx)
    if not (end.items and b.kw(end.head, "end") and len(end) == 2):
        b.fail("syntax", f"expected (end <condition>), found {to_text(end)}", end)
    score = b.need_list(sx[2], "(score <int>)", sx)
    if not (score.items and b.kw(score.head, "score") and len(score) == 2):
        b.fail("syntax", f"expected (score <int>): each hand's score of a player, found {to_text(score)}", score)
    items = tuple(item(b, i, scope) for i in sx.items[3:])
    return A.Match(b.expect(end[1], scope, T.BOOL), b.expect(score[1], scope, T.INT), items, span=sx.span)


# head keyword -> fn(builder, sx, scope, in_choice): the forms that may stand where a clause is expected
# (actions too, through the builder's action table).
CLAUSE_FORMS: dict[str, Callable] = {
    "do": do_block,
    "any": loop, "all": loop,
    "let": _let_clause,
    "atomic": lambda b, sx, scope, in_choice: atomic(b, sx, scope, in_choice, False),
    "if": _if_clause,
    "either": _either,
}
# head keyword -> fn(builder, sx, scope): the program items.
ITEM_FORMS: dict[str, Callable] = {
    "do": lambda b, sx, scope: do_block(b, sx, scope, False),
    "choice": choice,
    "stage": stage,
    "any": lambda b, sx, scope: loop(b, sx, scope, False), "all": lambda b, sx, scope: loop(b, sx, scope, False),
    "atomic": lambda b, sx, scope: atomic(b, sx, scope, False, True),
    "let": _let_item,
    "optional": lambda b, sx, scope: _turn_item(b, sx, scope, _optional),
    "ask": lambda b, sx, scope: _turn_item(b, sx, scope, _ask),
    "while": lambda b, sx, scope: _turn_item(b, sx, scope, _while),
    "match": lambda b, sx, scope: _turn_item(b, sx, scope, _match),
}
