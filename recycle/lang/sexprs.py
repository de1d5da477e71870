"""What the reader makes: S-expressions, lists (`SList`) and atoms (`Atom`) with their positions.

Kept apart from the reader so that the checker, which reads these forms, does not depend on the
reader, and the reader may ask the checker where a missing `)` fits best.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator

import attrs

from ..errors import NOWHERE, Span

# Forms nest at most MAX_DEPTH parentheses deep (docs/limits.md).  Every later stage (checker,
# compiler, printer, engine) walks forms recursively; this bound, checked on the token stream
# before anything recursive runs, is what keeps them all within the recursion room they have.
MAX_DEPTH = 500


@attrs.frozen(slots=True)
class Atom:
    """A token: kind is NAME, VAR, INT, KEYWORD, OP, COMMA, COLON, DOTDOT or TEXT (quoted, for extends)."""

    kind: str
    text: str
    span: Span = attrs.field(default=NOWHERE, eq=False, repr=False)

    @property
    def value(self):
        if self.kind == "INT":
            return int(self.text)
        if self.kind == "VAR":
            return self.text[1:]
        if self.kind == "TEXT":
            return self.text[1:-1]
        return self.text

    def __str__(self) -> str:
        return self.text


@attrs.frozen(slots=True)
class SList:
    """A parenthesised form; its span is the position of its `(`."""

    items: tuple
    span: Span = attrs.field(default=NOWHERE, eq=False, repr=False)

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]

    @property
    def head(self):
        return self.items[0] if self.items else None

    def __str__(self) -> str:
        return to_text(self)


def to_text(x, limit: int = 60) -> str:
    """A short one-line rendering of an S-expression for messages."""
    if isinstance(x, Atom):
        return x.text
    parts: list[str] = []
    for item in x.items:
        t = to_text(item, limit)
        if parts and t in (",",):
            parts[-1] += ","
            continue
        parts.append(t)
    s = "(" + " ".join(parts) + ")"
    if len(s) > limit:
        s = s[: limit - 4] + " …)"
    return s


def walk(x, atoms: bool = False, skip: Callable[[SList], bool] | None = None) -> Iterator:
    """Every list in x, and with `atoms` every atom too, depth-first in text order; a list `skip` holds
    true for is left out with all it holds.  With a stack, not recursion: a generator that yields from
    itself passes each form up through every level above it, so a form 400 deep would cost 400."""
    todo = [x]
    while todo:
        y = todo.pop()
        if isinstance(y, SList):
            if skip is not None and skip(y):
                continue
            yield y
            todo.extend(reversed(y.items))
        elif atoms:
            yield y
