"""Warnings for probable mistakes that are legal RECYCLE (issue 14): run on a game that checked clean.

Each looks only at the S-expressions of the whole game (a variant merged with its bases):

* `undeclared`: a card attribute or value that no deck of the game declares: `(cardatt RANKK 'C)`,
  `(== (cardatt RANK 'C) KINGG)`, `((RANK : KINGG) 13)` — always "" or never matched at run time;
* `unwritten`: a pile or point map read but never created, moved into, set or remembered (`DISCRAD`);
* `unread`: a cell (sto, str, points, mem) written but never read (it cannot change the game); piles
  only moved into are left alone, a discard pile is often just that;
* `constant`: a comparison of two constants, or of a form with itself, which is always true or false;
* `never-option`: a clause of a choice that can never be an option: its condition is always false
  (constants only), or it takes its card from a pile nothing ever fills (no deck is created there,
  no move or remember puts a card there), moving it out or looping over it.

Locations are told apart by kind and name (`vloc DISCARD`), whoever owns them.  A location inside
a `define` counts as read and written: how it is used depends on each call.
"""
from __future__ import annotations

import difflib
from collections.abc import Iterator

from ..errors import Diagnostic, Span
from .sexprs import Atom, SList, to_text, walk
from .source import SourceFile

CLASSES = ("undeclared", "unwritten", "unread", "constant", "never-option")
LOCATION_KINDS = frozenset({"iloc", "vloc", "hloc", "mem", "sto", "str", "points"})
PILE_KINDS = frozenset({"iloc", "vloc", "hloc"})
COMPARISONS = frozenset({"==", "!=", "<", ">", "<=", ">="})
# Forms whose first argument they write (set, inc, dec), and actions whose second they write.
WRITES_FIRST = frozenset({"set", "inc", "dec", "initialize"})
WRITES_SECOND = frozenset({"move", "remember"})


def _kw(x, *words: str) -> bool:
    return isinstance(x, Atom) and x.text in words


def _walk(x) -> Iterator[SList]:
    """Every list form in x, depth-first in text order."""
    return walk(x)


def _location(x) -> tuple[str, str] | None:
    """(kind, NAME) of a location form (OWNER KIND NAME [index]), else None."""
    if (isinstance(x, SList) and len(x) >= 3 and isinstance(x[1], Atom) and x[1].text in LOCATION_KINDS
            and isinstance(x[2], Atom) and x[2].kind == "NAME"):
        return x[1].text, x[2].text
    if (isinstance(x, SList) and len(x) == 4 and _kw(x[0], "indexed") and isinstance(x[2], Atom)
            and x[2].text in LOCATION_KINDS and isinstance(x[3], Atom) and x[3].kind == "NAME"):
        return x[2].text, x[3].text  # (indexed OWNER KIND NAME): every pile of that name
    return None


def _deck_names(forms) -> tuple[dict[str, set[str]], bool]:
    """Attribute -> declared values over every (deck …) of the game; False if there is none."""
    attrs_: dict[str, set[str]] = {}
    seen = False

    def attribute(form: SList) -> None:
        # (ATTR (V1, V2, …)) or (ATTR (V1 (SUB …) …) (V2 …) …)
        if not (len(form) >= 2 and isinstance(form[0], Atom) and form[0].kind == "NAME"):
            return
        values = attrs_.setdefault(form[0].text, set())
        for part in form.items[1:]:
            if not isinstance(part, SList):
                continue
            if (len(part) >= 2 and isinstance(part[0], Atom) and part[0].kind == "NAME"
                    and all(isinstance(i, SList) for i in part.items[1:])):
                value(part, values)
                continue
            for v in part.items:
                if isinstance(v, Atom) and v.kind == "NAME":
                    values.add(v.text)
                elif isinstance(v, SList):
                    value(v, values)

    def value(v: SList, values: set[str]) -> None:
        # (VALUE (SUB …) …): a value and the attributes its cards have besides
        if v.items and isinstance(v[0], Atom) and v[0].kind == "NAME":
            values.add(v[0].text)
            for sub in v.items[1:]:
                if isinstance(sub, SList):
                    attribute(sub)

    for form in forms:
        for sx in _walk(form):
            if _kw(sx.head, "deck"):
                seen = True
                for item in sx.items[1:]:
                    if isinstance(item, SList):
                        attribute(item)
    return attrs_, seen


def lint(forms: list, src: SourceFile, sources: dict[str, SourceFile]) -> list[Diagnostic]:
    """The warnings of a game that checked clean, in file order."""
    out: list[Diagnostic] = []

    def warn(cls: str, message: str, span: Span) -> None:
        out.append(sources.get(span.file, src).diag("warning", cls, message, span))

    _undeclared(forms, warn)
    _locations(forms, warn)
    _constants(forms, warn)
    _never_options(forms, warn)
    return sorted(out, key=lambda d: (d.span.file != src.filename, d.span.file, d.span.line, d.span.column))


def _undeclared(forms, warn) -> None:
    decks, seen = _deck_names(forms)
    if not seen:
        return
    every_value = set().union(*decks.values()) if decks else set()

    def attribute_ok(a) -> bool:
        return not (isinstance(a, Atom) and a.kind == "NAME" and a.text not in decks)

    def check_value(attr: Atom, v) -> None:
        if (isinstance(v, Atom) and v.kind == "NAME" and attr.text in decks and v.text not in decks[attr.text]
                and v.text not in every_value):
            warn("undeclared", f"{v.text} is not a value of {attr.text} in any deck of this game, so this "
                               f"never matches a card (values: {', '.join(sorted(decks[attr.text]))})", v.span)

    for form in forms:
        for sx in _walk(form):
            if _kw(sx.head, "cardatt") and len(sx) >= 2 and not attribute_ok(sx[1]):
                warn("undeclared", f"no deck of this game declares the attribute {sx[1].text}, so this is always "
                                   f"\"\" (attributes: {', '.join(sorted(decks))})", sx[1].span)
            elif (len(sx) == 3 and isinstance(sx[0], Atom) and sx[0].kind == "NAME" and _kw(sx[1], ":")):
                if not attribute_ok(sx[0]):
                    warn("undeclared", f"no deck of this game declares the attribute {sx[0].text} "
                                       f"(attributes: {', '.join(sorted(decks))})", sx[0].span)
                else:
                    check_value(sx[0], sx[2])
            elif _kw(sx.head, "==", "!=") and len(sx) == 3:
                for a, b in ((sx[1], sx[2]), (sx[2], sx[1])):
                    if (isinstance(a, SList) and _kw(a.head, "cardatt") and len(a) >= 2 and isinstance(a[1], Atom)
                            and a[1].kind == "NAME"):
                        check_value(a[1], b)


def _locations(forms, warn) -> None:
    attributes = set(_deck_names(forms)[0])
    read: dict[tuple[str, str], Span] = {}
    written: dict[tuple[str, str], Span] = {}

    def visit(x, role: str) -> None:
        """role: "read", "write" or "both" for the location forms in x."""
        if not isinstance(x, SList):
            return
        loc = _location(x)
        if loc is not None:
            if role in ("read", "both"):
                read.setdefault(loc, x.span)
            if role in ("write", "both"):
                written.setdefault(loc, x.span)
            for item in x.items[3:]:
                visit(item, "read")
            visit(x[0], "read")
            return
        head = x.head
        if _kw(head, "define") or (isinstance(head, Atom) and head.kind == "NAME" and role == "read"):
            # a definition's body, or the arguments of a call: how they are used depends on the body
            for item in x.items[1:]:
                visit(item, "both")
            return
        if _kw(head, *WRITES_FIRST) and len(x) >= 2:
            visit(x[1], "write" if role == "read" else role)
            for item in x.items[2:]:
                visit(item, role)
            return
        if _kw(head, *WRITES_SECOND) and len(x) >= 3:
            visit(x[1], "both" if role == "read" else role)  # moving out of a pile changes it too
            visit(x[2], "write" if role == "read" else role)
            for item in x.items[3:]:
                visit(item, role)
            return
        if _kw(head, "create") and len(x) >= 3 and _kw(x[1], "deck"):
            visit(x[2], "write" if role == "read" else role)
            for item in x.items[3:]:
                visit(item, role)
            return
        for item in x.items:
            visit(item, role)

    for form in forms:
        visit(form, "read")
    for loc, span in read.items():
        # An integer or text cell never written reads as 0 or NONE, often on purpose; a pile never
        # filled is empty for good, which is rarely meant.
        if loc not in written and loc[0] not in ("sto", "str"):
            kind, name = loc
            near = [n for k, n in written if k == kind and _close(n, name)]
            hint = f" (did you mean {near[0]}?)" if near else ""
            warn("unwritten", f"the {kind} {name} is read but never created or written, so it is always empty"
                              f"{hint}", span)
    for loc, span in written.items():
        # A pile only moved into is a common sink (a discard pile); a card's str cell named like a
        # deck attribute overrides that attribute, read through cardatt.
        if loc not in read and loc[0] not in PILE_KINDS and loc[1] not in attributes:
            kind, name = loc
            warn("unread", f"the {kind} {name} is written but never read: what it holds cannot change the game",
                 span)


def _close(a: str, b: str) -> bool:
    return difflib.SequenceMatcher(None, a, b).ratio() >= 0.8


def _constants(forms, warn) -> None:
    # A definition whose body is constant, such as (define (GOODRUN 'R) (== 1 1)), is a hook a
    # variant replaces on purpose: only comparisons outside definitions are judged.
    outside = [sx for form in forms for sx in _walk_outside_defines(form)]
    for form in outside:
        for sx in [form]:
            if not (_kw(sx.head, *COMPARISONS) and len(sx) == 3):
                continue
            a, b = sx[1], sx[2]
            both_literal = all(isinstance(x, Atom) and x.kind in ("INT", "NAME") for x in (a, b))
            if both_literal or (to_text(a, 10_000) == to_text(b, 10_000) and not _random(a)):
                warn("constant", f"{to_text(sx)} compares constants (or a form with itself): it is always the same, "
                                 "true or false", sx.span)


def _walk_outside_defines(x) -> Iterator[SList]:
    """As _walk, leaving out every (define …) and what it holds."""
    return walk(x, skip=lambda y: _kw(y.head, "define"))


def _random(x) -> bool:
    return any(_kw(s.head, "random") for s in _walk(x))


def _constant_truth(x) -> bool | None:
    """The value of a condition made of constants only (comparisons of literals, not, and, or), else None."""
    if not isinstance(x, SList) or not x.items:
        return None
    if _kw(x.head, *COMPARISONS) and len(x) == 3:
        a, b = x[1], x[2]
        if not all(isinstance(v, Atom) and v.kind in ("INT", "NAME") for v in (a, b)):
            return None
        if a.kind != b.kind:
            return None  # a type error, reported by the checker
        if a.kind == "INT":
            u, v = a.value, b.value
        elif x.head.text in ("==", "!="):
            u, v = a.text, b.text
        else:
            return None
        return {"==": u == v, "!=": u != v, "<": u < v, ">": u > v, "<=": u <= v, ">=": u >= v}[x.head.text]
    values = [_constant_truth(v) for v in x.items[1:]]
    if _kw(x.head, "not") and len(values) == 1:
        return None if values[0] is None else not values[0]
    if _kw(x.head, "and"):
        return False if False in values else True if all(v is True for v in values) else None
    if _kw(x.head, "or"):
        return True if True in values else False if all(v is False for v in values) else None
    return None


def _filled(forms) -> set[tuple[str, str]]:
    """Piles something puts a card in: a deck, the destination of a move or remember, either side of a
    swap, and every location named inside a definition (how it is used depends on each call)."""
    out: set[tuple[str, str]] = set()

    def every_location(x) -> None:
        for sx in _walk(x):
            loc = _location(sx)
            if loc is not None:
                out.add(loc)

    for form in forms:
        for sx in _walk(form):
            if _kw(sx.head, "define", "swap"):
                every_location(sx)
            elif len(sx) >= 3 and (_kw(sx.head, *WRITES_SECOND) or (_kw(sx.head, "create") and _kw(sx[1], "deck"))):
                every_location(sx[2])
    return out


def _pile_of(x) -> SList | None:
    """The location a card or pile form takes its cards from: LOC, (top LOC), (bottom LOC), (N LOC)."""
    if _location(x) is not None:
        return x
    if isinstance(x, SList) and len(x) == 2 and (_kw(x.head, "top", "bottom") or
                                                 (isinstance(x.head, Atom) and x.head.kind == "INT")):
        return x[1] if _location(x[1]) is not None else None
    return None


def _never_options(forms, warn) -> None:
    # Only what is written in the choice itself is judged: a condition or a pile reached through a
    # definition is a hook that a variant may replace (rummykruss's (NEVER) clauses).
    filled = _filled(forms)

    def empty_source(clause) -> SList | None:
        """The never-filled pile a clause's first action takes a card from, if it does."""
        if _kw(clause.head, "any", "all") and len(clause) >= 2:
            return _pile_of(clause[1])
        if _kw(clause.head, "move", "remember") and len(clause) >= 3:
            return _pile_of(clause[1])
        return None

    for form in forms:
        for sx in _walk_outside_defines(form):
            if not (_kw(sx.head, "choice") and len(sx) == 2 and isinstance(sx[1], SList)):
                continue
            for clause in sx[1].items:
                if not (isinstance(clause, SList) and clause.items):
                    continue
                if isinstance(clause.head, SList) and len(clause) >= 2:
                    if _constant_truth(clause.head) is False:
                        warn("never-option", "this clause can never be an option: its condition "
                                             f"{to_text(clause.head)} is always false", clause.span)
                        continue
                    clause = clause[1]
                    if not isinstance(clause, SList):
                        continue
                pile = empty_source(clause)
                loc = _location(pile) if pile is not None else None
                if loc is not None and loc not in filled:
                    why = (f"it loops over {to_text(pile)}" if _kw(clause.head, "any", "all") else
                           f"it takes a card from {to_text(clause[1])} (building it stops the game with an error)")
                    warn("never-option", f"this clause can never be an option: {why}, and nothing ever fills "
                                         f"{to_text(pile)} (no deck, move or remember puts a card there)", clause.span)
