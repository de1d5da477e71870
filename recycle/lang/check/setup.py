"""The game form and its constant parts (language spec §3.8, §4; extensions E1, E6): declares, setup, decks,
boards, teams, scoring, and the load-time checks of their values."""
from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from ...errors import Span
from .. import ast as A
from ..ast import T
from ..consts import (
    MAX_BOARD_CELLS,
    MAX_PLAYERS,
    ConstError,
    board_cells,
    board_problem,
    const_value,
    declared_values,
    meld_rules,
    nodes_of,
    resolve_teams,
    too_many_board_cells,
    too_many_players,
)
from ..decks import (
    MAX_CARDS,
    MAX_DESCRIBED_CARDS,
    DeckError,
    deck_size,
    expand_deck,
    too_many_cards,
    too_many_described,
)
from ..sexprs import Atom, SList, to_text
from . import clauses, definitions
from .base import ANY, Binding, Fail, Poison, article

if TYPE_CHECKING:
    from .builder import Builder


def attribute(b: Builder, sx) -> A.Attribute:
    sx = b.need_list(sx, "an attribute (KEY (V1, V2, …)) or (KEY (V …) …)", sx)
    if len(sx) < 2 or not (isinstance(sx.head, Atom) and sx.head.kind == "NAME"):
        b.fail("deck", f"an attribute is (KEY (V1, V2, …)) or (KEY (V <attribute>*) …), found {to_text(sx)}", sx)
    key = sx.head.text
    rest = sx.items[1:]
    flat = len(rest) == 1 and isinstance(rest[0], SList) and all(isinstance(x, Atom) for x in rest[0].items)
    if flat:
        lst = rest[0]
        if not lst.items:
            b.fail("deck", f"attribute {key} has an empty value list", lst)
        vals = []
        for i, x in enumerate(lst.items):
            if i % 2 == 0:
                if x.kind != "NAME":
                    b.fail("deck", f"attribute values are NAMEs, found `{x.text}`", x)
                vals.append(A.ValueNode(x.text, (), span=x.span))
            elif x.kind != "COMMA":
                if x.kind == "NAME":
                    b.fail("deck", f"values of {key} must be separated by commas: {to_text(lst)}", x)
                b.fail("deck", f"expected `,` between values, found `{x.text}`", x)
        if len(lst.items) % 2 == 0:
            b.fail("deck", "a value list cannot end with `,`", lst.items[-1])
        return A.Attribute(key, tuple(vals), True, span=sx.span)
    nodes = []
    for v in rest:
        if not isinstance(v, SList) or not v.items or not (isinstance(v.head, Atom) and v.head.kind == "NAME"):
            b.fail("deck", f"a value node is (VALUE <attribute>*), found {to_text(v)}", v)
        if any(isinstance(x, Atom) for x in v.items[1:]):
            b.fail("deck", "a value node with sub-attributes holds one value: "
                           f"{to_text(v)} mixes the flat and nested shapes", v)
        nodes.append(A.ValueNode(v.head.text, tuple(attribute(b, a) for a in v.items[1:]), span=v.span))
    return A.Attribute(key, tuple(nodes), False, span=sx.span)


def create_deck(b: Builder, sx: SList, scope, in_choice: bool, in_setup: bool = False):
    if len(sx) < 2:
        b.fail("syntax", "expected (create deck …)", sx)
    what = b.need_keyword(sx[1], ("deck", "board", "players", "teams"), "what to create", sx)
    if what in ("players", "teams"):
        b.fail("placement", f"`create {what}` may only appear at the start of setup", sx)
    if in_choice:
        b.fail("placement", f"`create {what}` cannot appear inside a choice", sx)
    if b.atomic_depth:
        b.fail("placement", f"`create {what}` cannot appear inside an atomic block (it cannot be rolled back)", sx)
    if what == "board":
        return create_board(b, sx, scope)
    b.arity(sx, 4, 5, shape="(create deck [<name>] <location> (deck <attribute>+))")
    name = b.expect(sx[2], scope, T.STR) if len(sx) == 5 else None
    loc_sx = sx[-2]
    loc, t = b.guard(b.infer, loc_sx, scope)
    if t is not ANY and not isinstance(loc, A.Location):
        b.fail("type", f"a deck is created in a location (<owner> <kind> <name>), not {to_text(loc_sx)}", loc_sx)
    if isinstance(loc, A.Location) and loc.kind == A.Visibility.MEMORY:
        b.fail("setup", "a deck cannot be created in a memory pile", loc_sx)
    spec = b.need_list(sx[-1], "(deck <attribute>+)", sx)
    if not (spec.items and b.kw(spec.head, "deck") and len(spec) >= 2):
        b.fail("deck", f"expected (deck <attribute>+), found {to_text(spec)}", spec)
    attrs_ = tuple(attribute(b, a) for a in spec.items[1:])
    return A.CreateDeck(name, loc, attrs_, span=sx.span)


def create_board(b: Builder, sx: SList, scope):
    """`(create board <location> (square R C)|(hex N1 N2 …) [(capacity K)])` (extensions E1)."""
    b.arity(sx, 4, 5, shape="(create board <location> (square R C)|(hex N1 N2 …) [(capacity K)])")
    loc_sx = sx[2]
    loc, t = b.guard(b.infer, loc_sx, scope)
    if t is not ANY and not isinstance(loc, A.Location):
        b.fail("type", "a board is created on a location family (<owner> <kind> <name>), not "
                       f"{to_text(loc_sx)}", loc_sx)
    if isinstance(loc, A.Location):
        if loc.index is not None:
            b.fail("syntax", f"a board is named by (<owner> <kind> <name>) without an index: {to_text(loc_sx)} "
                      "has one (its cells are the indexed locations of the family)", loc_sx)
        if loc.kind == A.Visibility.MEMORY:
            b.fail("setup", "a board cannot be made of memory piles", loc_sx)
        b.check_const(loc.name, "the name of a board")
    shp = b.need_list(sx[3], "a board shape (square R C) or (hex N1 N2 …)", sx)
    kind = b.need_keyword(shp.head if shp.items else None, ("square", "hex"), "a board shape", shp)
    if kind == "square":
        b.arity(shp, 3, shape="(square <rows> <columns>)")
    elif len(shp) < 2:
        b.fail("syntax", "(hex N1 N2 …) needs at least one row length", shp)
    dims = tuple(b.const(x, scope, T.INT, "board sizes") for x in shp.items[1:])
    shape = A.BoardShape(kind, dims, span=shp.span)
    cap = None
    if len(sx) == 5:
        c = b.need_list(sx[4], "(capacity <int>)", sx)
        if not (c.items and b.kw(c.head, "capacity") and len(c) == 2):
            b.fail("syntax", f"expected (capacity <int>), found {to_text(c)}", c)
        cap = b.const(c[1], scope, T.INT, "a cell capacity")
    return A.CreateBoard(loc, shape, cap, span=sx.span)


def setup_form(b: Builder, sx: SList, scope):
    items = sx.items[1:]
    if not items or not (isinstance(items[0], SList) and len(items[0]) >= 2 and b.kw(items[0].head, "create")
                         and b.kw(items[0][1], "players")):
        b.fail("syntax", "setup must begin with (create players <int>)", items[0] if items else sx)
    cp = items[0]
    b.arity(cp, 3, shape="(create players <int>)")
    players = A.CreatePlayers(b.const(cp[2], scope, T.INT), span=cp.span)
    rest = list(items[1:])
    teams = None
    if (rest and isinstance(rest[0], SList) and len(rest[0]) >= 2 and b.kw(rest[0].head, "create")
            and b.kw(rest[0][1], "teams")):
        try:
            teams = create_teams(b, rest.pop(0))
        except Fail:
            teams = None
    decks = []
    for d in rest:
        with contextlib.suppress(Fail):  # reported; the other decks are still checked
            decks.append(deck_clause(b, d, scope))
    if not decks and not rest:
        b.error("syntax", "setup needs at least one (create deck …)", sx)
    return A.Setup(players, teams, tuple(decks), span=sx.span)


def deck_clause(b: Builder, d, scope):
    d = b.need_list(d, "(create deck …) or (repeat <int> (create deck …))", d)
    if d.items and b.kw(d.head, "repeat"):
        b.arity(d, 3, shape="(repeat <int> <deck-clause>)")
        return A.Repeat(b.const(d[1], scope, T.INT), deck_clause(b, d[2], scope), span=d.span)
    if d.items and b.kw(d.head, "create"):
        if len(d) > 1 and b.kw(d[1], "teams"):
            b.fail("placement", "(create teams …) must come right after (create players …)", d)
        node = create_deck(b, d, scope, False, True)
        loc = node.location
        if isinstance(node, A.CreateBoard):
            if isinstance(loc, A.Location) and not isinstance(loc.owner, (A.GameOwner, Poison, A.WhoById)):
                b.error("setup", "a board created in setup belongs to the game or to (<int> player)", d)
            return node
        if isinstance(loc, A.Location):
            ok_owner = isinstance(loc.owner, (A.GameOwner, Poison, A.WhoById))
            if not ok_owner:
                b.error("setup", "a deck created in setup goes to a game pile or to (<int> player)", d)
            for part in (loc.name, loc.index, node.deck_name):
                if part is not None:
                    b.check_const(part)
        return node
    b.fail("syntax", f"expected (create deck …) in setup, found {to_text(d)}", d)


def create_teams(b: Builder, sx: SList):
    teams = []
    for t in sx.items[2:]:
        if not isinstance(t, SList) or not t.items:
            b.fail("syntax", f"a team is a list of player numbers (0, 2), found {to_text(t)}", t)
        members = []
        for i, x in enumerate(t.items):
            if isinstance(x, SList):
                b.fail("unsupported", f"team lists cannot be nested: {to_text(t)}", x)
            if i % 2 == 0:
                if x.kind != "INT":
                    b.fail("syntax", f"team members are written as integers, found `{x.text}`", x)
                members.append(x.value)
            elif x.kind != "COMMA":
                b.fail("syntax", f"expected `,` between team members, found `{x.text}`", x)
        teams.append(tuple(members))
    if not teams:
        b.fail("syntax", "(create teams …) needs at least one team", sx)
    return A.CreateTeams(tuple(teams), span=sx.span)


def game(b: Builder, forms: list):
    if not forms:
        b.fail("syntax", "the file holds no game: expected (game …)", Span(b.src.filename, 1, 1))
    g = forms[0]
    if not (isinstance(g, SList) and g.items and b.kw(g.head, "game")):
        b.fail("syntax", f"a game file must hold one (game …) form, found {to_text(g)}", g)
    if len(forms) > 1:
        b.error("syntax", f"unexpected {to_text(forms[1])} after the game form", forms[1])
    elems = list(g.items[1:])
    declares, defines = [], []
    limits = None
    # Before setup: declares, definitions and limits, in any order (a declare sees the declares above it:
    # b.declared itself, which only a declare adds to, so that a megabyte of declares is not copied once
    # per declare).
    scope = b.declared
    first = 0
    while first < len(elems) and isinstance(elems[first], SList) and elems[first].items and \
            b.kw(elems[first].head, *PROLOGUE):
        d = elems[first]
        first += 1
        try:
            if d.head.text == "declare":
                declares.append(declare(b, d, scope))
            elif d.head.text == "define":
                defines.append(definitions.define_form(b, d))
            elif d.head.text == "limits":
                if limits is not None:
                    b.fail("syntax", f"(limits …) is given twice (first at {limits.span.line}:{limits.span.column})",
                           d)
                limits = limits_form(b, d, scope)
            else:
                b.fail("placement", "(extends \"…\") must be the first form of the game", d)
        except Fail:
            pass
    del elems[:first]
    scope = dict(b.declared)  # what setup and the items see: the declares, as a scope of their own
    if not elems or not (isinstance(elems[0], SList) and elems[0].items and b.kw(elems[0].head, "setup")):
        at = elems[0] if elems else g
        if elems and isinstance(elems[0], SList) and any(isinstance(e, SList) and e.items and b.kw(e.head, "setup")
                                                         for e in elems):
            b.fail("syntax", "declarations and definitions come first, then setup: "
                             "(game (declare|define|limits …)* (setup …) <item>+ (scoring …))", at)
        b.fail("syntax", "expected (setup …) after the declarations", at)
    setup = setup_form(b, elems.pop(0), scope)
    if not elems or not (isinstance(elems[-1], SList) and elems[-1].items and b.kw(elems[-1].head, "scoring")):
        last = elems[-1] if elems else g
        b.error("syntax", "a game must end with (scoring max|min <int>)", last)
        scoring = A.Scoring("max", A.IntLit(0), span=g.span)
    else:
        sc = elems.pop()
        try:
            scoring = scoring_form(b, sc, scope)
        except Fail:
            scoring = A.Scoring("max", A.IntLit(0), span=sc.span)
    if not elems:
        b.error("syntax", "a game needs at least one program item between setup and scoring", g)
    items = tuple(clauses.item(b, i, scope) for i in elems)
    definitions.report_unused(b)
    return A.Game(tuple(declares), setup, items, scoring, tuple(defines), limits, span=g.span)


PROLOGUE = ("declare", "define", "limits", "extends")
LIMITS = ("decisions", "steps", "options")


def limits_form(b: Builder, sx: SList, scope) -> A.Limits:
    """`(limits [(decisions N)] [(steps N)] [(options N)])`: this game's limits, constants of at least 1."""
    found: dict[str, A.Expr] = {}
    for x in sx.items[1:]:
        lst = b.need_list(x, "(decisions <int>), (steps <int>) or (options <int>)", sx)
        w = b.need_keyword(lst.head if lst.items else None, LIMITS, "a limit", lst)
        b.arity(lst, 2, shape=f"({w} <int>)")
        if w in found:
            b.fail("syntax", f"({w} …) is given twice in {to_text(sx)}", lst)
        found[w] = b.const(lst[1], scope, T.INT, "limits")
    if not found:
        b.fail("syntax", "(limits …) needs at least one of (decisions <int>), (steps <int>), (options <int>)", sx)
    return A.Limits(found.get("decisions"), found.get("steps"), found.get("options"), span=sx.span)


def declare(b: Builder, sx: SList, scope):
    b.arity(sx, 3, shape="(declare <value> 'V)")
    value, name = sx[1], sx[2]
    if (isinstance(value, Atom) and value.kind == "VAR") and not (isinstance(name, Atom) and name.kind == "VAR"):
        # The name written first: the caret goes on it, and the name is still bound (its uses would
        # otherwise each report an unbound variable).
        b.error("syntax", f"the name comes last in a declare: write (declare {to_text(name)} {value.text})", value)
        value, name = name, value
    var = b.need_var(name, sx)
    node, t = b.guard(b.infer, value, scope)
    b.check_const(node)
    if var in b.declared:
        prev = b.declared[var].span
        b.fail("scope", f"'{var} is declared twice (first at {prev.line}:{prev.column})", name)
    if t not in (T.INT, T.STR, T.BOOL, T.STRS, T.INTS, T.RULES, ANY):
        b.fail("type", "a declared value must be an Integer, String, Boolean, a name/integer list or meldrules, "
                       f"not {article(t)}", value)
    b.declared[var] = Binding(t, name.span, True)
    return A.Declare(node, var, t if t is not ANY else T.INT, span=sx.span)


def scoring_form(b: Builder, sx: SList, scope):
    b.arity(sx, 3, 4, shape="(scoring max|min <int> [(tiebreak <int>+)])")
    d = b.need_keyword(sx[1], ("max", "min"), "the scoring direction", sx)
    main = b.expect(sx[2], scope, T.INT)
    keys = ()
    if len(sx) == 4:
        tb = b.need_list(sx[3], "(tiebreak <int>+)", sx)
        if not (tb.items and b.kw(tb.head, "tiebreak") and len(tb) >= 2):
            b.fail("syntax", f"expected (tiebreak <int>+) after the score, found {to_text(tb)}", tb)
        keys = tuple(b.expect(x, scope, T.INT) for x in tb.items[1:])
    return A.Scoring(d, main, keys, span=sx.span)


def _setup_cards(d, env: dict) -> int:
    """How many cards a deck clause of setup creates (its repeat counts are constants)."""
    if isinstance(d, A.Repeat):
        try:
            k = const_value(d.count, env)
        except ConstError:
            return 0  # reported with the count
        return max(k, 0) * _setup_cards(d.body, env) if isinstance(k, int) else 0
    if isinstance(d, A.CreateDeck):
        return deck_size(d.attributes)
    return 0


def check_setup(b: Builder, game: A.Game, params: dict) -> None:
    """Load-time checks of the constant parts: decks, declares with overrides, player count, teams."""
    described = 0  # cards of the decks expanded so far, counted before each is made
    found = nodes_of(game, A.CreateDeck, A.MeldRulesForm, A.CreateBoard)
    for node in found[A.CreateDeck]:
        size = deck_size(node.attributes)
        described += size if size <= MAX_CARDS else 0  # a larger deck is refused alone, unmade
        if described > MAX_DESCRIBED_CARDS:
            b.error("limit", too_many_described(described), node)
            break
        b.constant_elements += size if size <= MAX_CARDS else 0
        try:
            expand_deck(node.attributes)
        except DeckError as e:
            b.error("deck", e.message, e.span if e.span.line else node.span)
    try:
        env = declared_values(game, params, b.count_constants)
    except ConstError as e:
        b.error(e.cls or ("meld" if isinstance(e.node, A.MeldRulesForm) else "arithmetic"), str(e), e.node)
        return
    for node in found[A.MeldRulesForm]:
        try:
            meld_rules(node, env)
        except ConstError as e:
            b.error("meld", str(e), e.node)
    if game.limits is not None:
        lim = game.limits
        for which, x in (("decisions", lim.decisions), ("steps", lim.steps), ("options", lim.options)):
            v = const_value(x, env) if x is not None else 1
            if not isinstance(v, int) or v < 1:
                b.error("setup", f"a limit of {which} must be at least 1, but (limits ({which} …)) gives {v}", x)
    try:
        n = const_value(game.setup.players.count, env)
    except ConstError as e:
        b.error("type", str(e), e.node)
        return
    if n < 1:
        b.error("setup", f"a game needs at least one player, but (create players …) gives {n}", game.setup.players)
        return
    if n > MAX_PLAYERS:
        b.error("limit", too_many_players(n), game.setup.players)
        return
    cards = sum(_setup_cards(d, env) for d in game.setup.decks)
    if cards > MAX_CARDS:
        b.error("limit", too_many_cards(cards, "setup creates"), game.setup)
        return
    cells = 0  # of every board form so far, counted without making them
    for node in found[A.CreateBoard]:
        msg = board_problem(node, env)
        if msg:
            b.error("setup", msg, node)
            continue
        cells += board_cells(node, env) * (1 if isinstance(node.location.owner, A.GameOwner) else n)
        if cells > MAX_BOARD_CELLS:
            b.error("limit", too_many_board_cells(cells), node)
            break
    if game.setup.teams is not None:
        try:
            _, one_based = resolve_teams(game.setup.teams.teams, n)
        except ValueError as e:
            b.error("setup", str(e), game.setup.teams)
            return
        if one_based:
            b.warn("teams-one-based", "team members read as seat numbers counted from 1 (subtracting 1 from each)",
                   game.setup.teams)
