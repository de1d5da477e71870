"""Forms whose head is not a keyword (language spec Appendix A): locations, storage cells, players and
teams by id, name lists and indexing; and the owners of piles and storage."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import ast as A
from ..ast import T
from ..sexprs import Atom, SList, to_text
from ..signatures import KINDS, STORAGE_KINDS, STORAGE_TYPES, pile_nature
from .base import ANY, Poison, article

if TYPE_CHECKING:
    from .builder import Builder


def headless(b: Builder, sx: SList, scope):
    """Forms whose head is not a keyword: locations, storage, who-by-id, name lists, indexing."""
    items = sx.items
    head = items[0]
    second = items[1] if len(items) > 1 else None
    if isinstance(head, Atom) and head.kind == "NAME" and (
            second is None or (isinstance(second, Atom) and second.kind in ("COMMA", "NAME"))):
        return name_list(b, sx)
    if b.kw(second, *KINDS):
        b.arity(sx, 3, 4, shape="(<owner> <kind> <name> [<index>])")
        owner = pile_owner(b, head, scope)
        name = b.expect(items[2], scope, T.STR)
        index = b.expect(items[3], scope, T.INT) if len(items) == 4 else None
        return A.Location(owner, KINDS[second.text], name, index, span=sx.span), T.PILE
    if b.kw(second, *STORAGE_KINDS):
        b.arity(sx, 3, shape=f"(<owner> {second.text} <name>)")
        owner, otype = storage_owner(b, head, scope)
        name = b.expect(items[2], scope, T.STR)
        return A.Storage(owner, second.text, name, otype, span=sx.span), STORAGE_TYPES[second.text]
    if b.kw(second, "player", "team"):
        b.arity(sx, 2, shape=f"(<int> {second.text})")
        idx = b.expect(head, scope, T.INT)
        return A.WhoById(idx, second.text, span=sx.span), (T.PLAYER if second.text == "player" else T.TEAM)
    if len(items) == 2:
        idx_node, it = b.guard(b.infer, head, scope)
        if it is not ANY and it != T.INT:
            if it == T.BOOL:
                b.fail("placement", f"{to_text(sx)} looks like a guarded clause, "
                                    "which is allowed only where a clause is expected", sx)
            b.fail("type", f"cannot read {to_text(sx)}: an index must be an Integer, but {to_text(head)} is "
                           f"{article(it)}", head)
        node, t = b.guard(b.infer, second, scope)
        if t == T.PILE:
            return A.CardAt("index", node, idx_node, span=sx.span), T.CARD
        if t == T.PILES:
            return A.PileAt("index", node, idx_node, span=sx.span), T.PILE
        if t is ANY:
            return Poison(span=sx.span), ANY
        b.fail("type", f"{to_text(sx)}: indexing needs a Pile or a PileCollection, but {to_text(second)} is "
                       f"{article(t)}", second)
    if isinstance(head, Atom) and head.kind == "NAME":
        b.fail("syntax", f"cannot read {to_text(sx)}: a name list is written (A, B, C)", sx)
    b.fail("syntax", f"cannot read {to_text(sx)} as an expression", sx)


def name_list(b: Builder, sx: SList):
    names = []
    for i, x in enumerate(sx.items):
        if i % 2 == 0:
            if not (isinstance(x, Atom) and x.kind == "NAME"):
                if isinstance(x, SList):
                    b.fail("syntax", f"name lists cannot be nested: {to_text(sx)}", x)
                b.fail("syntax", f"expected a NAME in the name list, found `{to_text(x)}`", x)
            names.append(x.text)
        elif not (isinstance(x, Atom) and x.kind == "COMMA"):
            b.fail("syntax", f"expected `,` between names, found `{to_text(x)}`", x)
    if len(sx.items) % 2 == 0:
        b.fail("syntax", "a name list cannot end with `,`", sx.items[-1])
    return A.NameList(tuple(names), span=sx.span), T.STRS


def pile_owner(b: Builder, x, scope):
    if b.kw(x, "game"):
        return A.GameOwner(span=x.span)
    node, t = b.guard(b.infer, x, scope)
    if t is ANY or t == T.PLAYER:
        return node
    if t == T.TEAM:
        b.fail("type", f"a team cannot own a pile: {to_text(x)} is a Team (teams own storage only)", x)
    b.fail("type", f"a pile owner must be `game` or a Player, but {to_text(x)} is {article(t)}", x)


def storage_owner(b: Builder, x, scope):
    """(owner node, owner type): `game` (type None), a Player, a Team, a stored location or a card (E2)."""
    if b.kw(x, "game"):
        return A.GameOwner(span=x.span), None
    node, t = b.guard(b.infer, x, scope)
    if t is ANY or t in (T.PLAYER, T.TEAM, T.CARD):
        return node, (t if t is not ANY else None)
    if t == T.PILE:
        if pile_nature(node) == "virtual":
            b.fail("type", f"storage belongs to a stored location, but {to_text(x)} is a computed (virtual) pile", x)
        return node, t
    b.fail("type", f"a storage owner must be `game`, a Player, a Team, a location or a Card, but {to_text(x)} is "
                   f"{article(t)}", x)


def _game_head(b: Builder, sx, scope):
    # `(game vloc X)` and friends: `game` as owner.
    if len(sx) >= 2 and (b.kw(sx[1], *KINDS) or b.kw(sx[1], *STORAGE_KINDS)):
        return headless(b, sx, scope)
    b.fail("syntax", f"a nested (game …) form is not allowed: {to_text(sx)}", sx)


FORMS = {"game": _game_head}
