"""The older CardStockXam dialect (RECYCLE 0.5), read as the modern forms it stands for.

CardStock's earlier interpreter, CardStockXam, has its own grammar (CardStockXam/Recycle.g4,
version 0.5).  Almost every form of it is also a form of the modern grammar (0.5.10) with the
same meaning; the modern grammar only added forms.  Three forms were written differently:

* a point-map award condition had no colon: `(RANK (ACE))`, `(RANK ACE)` or
  `(SUIT (cardatt SUIT <card>))`, where the modern grammar writes `(RANK : ACE)`;
* `partition` named the attribute last: `(partition <pile>+ SUIT)` is `(partition SUIT <pile>+)`;
* a deck attribute could take its values from a declared name list: with
  `(declare (A, B, C) 'R)`, `(deck (RANK ('R)) …)` is `(deck (RANK (A, B, C)) …)`.

`translate` rewrites those three on the S-expressions, between reading and checking, so the
checker, the compiler and everything after them see exactly the modern forms (same AST, same
positions).  `detect` says whether a file is unambiguously in the old dialect: only forms that
the modern grammar rejects trigger it, and only in a file with nothing the old grammar lacks,
so no valid modern file is ever read differently.
docs/language.md "Older dialect (CardStockXam)" is the user's account of both.
"""
from __future__ import annotations

from ..errors import Diagnostic
from .sexprs import Atom, SList, to_text, walk
from .source import SourceFile

DIALECTS = ("auto", "modern", "xam")


def _kw(x, *words: str) -> bool:
    return isinstance(x, Atom) and x.kind == "KEYWORD" and x.text in words


def _points_set(sx) -> bool:
    """(set (<owner> points NAME) (<award>+)): the one place award conditions are written."""
    return (isinstance(sx, SList) and len(sx) == 3 and _kw(sx.head, "set") and isinstance(sx[1], SList)
            and len(sx[1]) == 3 and _kw(sx[1][1], "points") and isinstance(sx[2], SList))


def _has_colon(c: SList) -> bool:
    return any(isinstance(x, Atom) and x.kind == "COLON" for x in c.items)


def _old_conditions(sx):
    """The award conditions of a (set … points …) written the old way: two items, no colon."""
    for award in sx[2].items:
        if isinstance(award, SList):
            for c in award.items[:-1]:
                if isinstance(c, SList) and len(c) == 2 and not _has_colon(c):
                    yield c


def _old_partition(sx) -> bool:
    """(partition <pile>+ NAME): a bare name last, where the modern form has a pile."""
    return (isinstance(sx, SList) and len(sx) >= 3 and _kw(sx.head, "partition")
            and isinstance(sx[-1], Atom) and sx[-1].kind == "NAME"
            and not (isinstance(sx[1], Atom) and sx[1].kind == "NAME"))


def _walk(x):
    """Every form and atom in x, depth-first in text order."""
    return walk(x, atoms=True)


def _modern_only(sx) -> bool:
    """A form the old grammar cannot hold: a `:` (it has no colon at all) or a modern partition
    (an attribute name first)."""
    if isinstance(sx, Atom):
        return sx.kind == "COLON"
    return (len(sx) >= 3 and _kw(sx.head, "partition") and isinstance(sx[1], Atom) and sx[1].kind == "NAME"
            and not (isinstance(sx[-1], Atom) and sx[-1].kind == "NAME"))


def detect(forms: list) -> SList | None:
    """The first form that exists only in the old dialect (an old award condition, an old
    partition or a deck attribute whose values are a variable), or None.  A file holding one,
    and nothing that exists only in the modern language, is read as CardStockXam when the
    dialect is auto; a file mixing both is not unambiguous and stays modern (its old forms are
    then errors that say how to write them)."""
    first = None
    for form in forms:
        for sx in _walk(form):
            if _modern_only(sx):
                return None
            if first is None and _points_set(sx):
                first = next(_old_conditions(sx), None)
            if first is None and _old_partition(sx):
                first = sx
            if first is None and isinstance(sx, SList) and _kw(sx.head, "deck"):
                first = next((a for a in _walk(sx) if isinstance(a, SList) and _values_variable(a.items)), None)
    return first


def _condition(c: SList) -> SList:
    """(KEY (VALUE)) or (KEY VALUE) or (KEY (cardatt …)) -> (KEY : VALUE)."""
    key, value = c.items
    if isinstance(value, SList) and len(value) == 1:
        value = value[0]  # the old grammar's (OPEN str CLOSE): the parentheses only wrap the value
    colon = Atom("COLON", ":", key.span)
    return SList((key, colon, value), c.span)


def _award(aw):
    if not isinstance(aw, SList):
        return aw
    items = [_condition(c) if isinstance(c, SList) and len(c) == 2 and not _has_colon(c) else c
             for c in aw.items[:-1]]
    return SList((*items, *aw.items[-1:]), aw.span)


def _partition(sx: SList) -> SList:
    """(partition <pile>+ S) -> (partition S <pile>+), when S can be an attribute (a name, a
    variable or a (… str …) cell); a form already modern (a name first, which no pile of the old
    grammar is, or a pile last) is left as it is."""
    last = sx[-1]
    is_str = (isinstance(last, Atom) and last.kind in ("NAME", "VAR")) or \
        (isinstance(last, SList) and len(last) == 3 and _kw(last[1], "str"))
    if not is_str or (isinstance(sx[1], Atom) and sx[1].kind == "NAME"):
        return sx
    return SList((sx.head, last, *sx.items[1:-1]), sx.span)


def _name_lists(forms: list) -> dict[str, SList]:
    """The declared name lists of the game, (declare (A, B, C) 'V): variable name -> the list."""
    lists: dict[str, SList] = {}
    for form in forms:
        if isinstance(form, SList) and _kw(form.head, "game"):
            for d in form.items[1:]:
                if (isinstance(d, SList) and len(d) == 3 and _kw(d.head, "declare") and isinstance(d[1], SList)
                        and isinstance(d[2], Atom) and d[2].kind == "VAR" and len(d[1]) > 0
                        and all(isinstance(a, Atom) and a.kind in ("NAME", "COMMA") for a in d[1].items)):
                    lists[d[2].value] = d[1]
    return lists


def _values_variable(items) -> Atom | None:
    """The 'V of a deck attribute (KEY ('V)), or None."""
    if (len(items) == 2 and isinstance(items[0], Atom) and items[0].kind == "NAME" and isinstance(items[1], SList)
            and len(items[1]) == 1 and isinstance(items[1][0], Atom) and items[1][0].kind == "VAR"):
        return items[1][0]
    return None


def _deck_values(x, lists: dict[str, SList]):
    """Inside (deck …): (KEY ('V)) -> (KEY (A, B, C)) for a declared name list 'V."""
    if not isinstance(x, SList):
        return x
    items = tuple(_deck_values(i, lists) for i in x.items)
    var = _values_variable(items)
    if var is not None and var.value in lists:
        items = (items[0], SList(lists[var.value].items, items[1].span))
    return SList(items, x.span)


def _translate(x, lists: dict[str, SList]):
    if not isinstance(x, SList):
        return x
    if _kw(x.head, "deck"):
        return _deck_values(x, lists)
    items = tuple(_translate(i, lists) for i in x.items)
    sx = SList(items, x.span)
    if _points_set(sx):
        return SList((*sx.items[:2], SList(tuple(_award(a) for a in sx[2].items), sx[2].span)), sx.span)
    if len(sx) >= 3 and _kw(sx.head, "partition"):
        return _partition(sx)
    return sx


def translate(forms: list) -> list:
    """The old dialect's forms rewritten as the modern forms they stand for (positions kept)."""
    lists = _name_lists(forms)
    return [_translate(f, lists) for f in forms]


def read_dialect(forms: list, dialect: str, src: SourceFile, warnings: list[Diagnostic]) -> list:
    """The forms to check: translated when the dialect is xam, or auto and detected (with a
    warning naming the form that decided it)."""
    if dialect not in DIALECTS:
        raise ValueError(f"unknown dialect {dialect!r}: expected one of {', '.join(DIALECTS)}")
    if dialect == "modern":
        return forms
    if dialect == "auto":
        cause = detect(forms)
        if cause is None:
            return forms
        warnings.append(src.diag("warning", "dialect", f"{to_text(cause)} is written in the older CardStockXam "
                                 "dialect: the file is read as CardStockXam (--dialect xam says so and silences "
                                 "this, --dialect modern forbids it)", cause.span))
    return translate(forms)
