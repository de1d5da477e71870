"""What every checking module shares: the failure signal, the Poison node, bindings, and message helpers."""
from __future__ import annotations

from typing import Any

import attrs

from ...errors import Span
from .. import ast as A
from ..ast import T
from ..printer import doc, flat


class Fail(Exception):
    """Aborts the current form; the diagnostic is already recorded."""


@attrs.frozen(slots=True)
class Poison(A.Expr):
    """Stands for a sub-form that failed to check; compatible with any type."""


ANY: Any = None  # the "type" of a Poison node


def article(t: Any) -> str:
    """`an Integer`, `a Pile`: a type named in a message."""
    s = str(t)
    return ("an " if s[0] in "AEIOU" else "a ") + s


@attrs.frozen(slots=True)
class Binding:
    """What a variable is bound to: its static type, where it was bound, and whether it is a declare."""

    type: T
    span: Span
    declared: bool = False


@attrs.frozen
class Definition:
    """A `define` as written: its name, parameters (with where each is bound), body form and position."""

    name: str
    params: tuple[str, ...]
    param_spans: tuple[Span, ...]
    body: Any  # the body's S-expression: it is checked at each use, in the context of that use
    span: Span


def describe(node: A.Node) -> str:
    """The node as RECYCLE text for messages, e.g. `(size (game vloc X))`."""
    try:
        text = flat(doc(node))
    except TypeError:  # a node without a printing rule
        return f"the form at {node.span.line}:{node.span.column}"
    return text if len(text) <= 60 else text[:56] + " …)"
