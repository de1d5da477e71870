"""Definitions: `(define (NAME 'P …) BODY)` names a value, a clause or a program item once; `(NAME arg …)` uses it.

A definition's body is checked where it is used, in the context of that use (a value, a clause
inside or outside a choice, a program item), with each parameter bound to its argument: a
parameter has its argument's type, so one definition serves piles and cards alike as long as its
body makes sense for them. The body sees its parameters and the declared values, not the
variables around the use. Mistakes inside a body are reported where they stand in the
definition, with a note naming the use; a definition that uses itself, directly or through
others, is an error at the use that closes the circle; an unused definition is a warning.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import ast as A
from ..ast import T
from ..sexprs import MAX_DEPTH, Atom, SList, to_text
from .base import ANY, Binding, Definition, Fail

if TYPE_CHECKING:
    from .builder import Builder

# What checks a body in the context of its use: (body form, scope) -> node, or (node, type) for a value.
BodyCheck = Callable[[Any, dict], Any]

# Bounds on expanding definitions (docs/limits.md).  Every use is checked (and compiled) anew, so a
# chain of uses nests their bodies and two uses of the next definition in each body double the
# game: the bodies being expanded at once nest at most MAX_DEPTH parentheses together (on top of
# the use's own depth in the file), and a game expands at most MAX_EXPANDED_FORMS forms in all.
MAX_EXPANDED_FORMS = 200_000


def _shape(sx) -> tuple[int, int]:
    """(parenthesis depth, number of forms) of an S-expression, without recursion."""
    depth = size = 0
    todo = [(sx, 1)]
    while todo:
        x, d = todo.pop()
        size += 1
        if isinstance(x, SList):
            depth = max(depth, d)
            todo.extend((y, d + 1) for y in x.items)
    return depth, size


def define_form(b: Builder, sx: SList) -> A.Define:
    """`(define (NAME 'P …) BODY)` or `(define NAME BODY)`: registers it; the body is checked at its uses."""
    b.arity(sx, 3, shape="(define (NAME 'P …) <body>)")
    head = sx[1]
    if isinstance(head, Atom) and head.kind == "NAME":
        name_atom, param_atoms = head, []
    elif isinstance(head, SList) and head.items and isinstance(head.head, Atom) and head.head.kind == "NAME":
        name_atom, param_atoms = head.head, list(head.items[1:])
    else:
        b.fail("syntax", f"a definition is (define (NAME 'P …) <body>), with an uppercase NAME, "
                         f"but {to_text(head)} names none", head)
    params: list[str] = []
    for x in param_atoms:
        if not (isinstance(x, Atom) and x.kind == "VAR"):
            b.fail("syntax", f"the parameters of {name_atom.text} are variables such as 'X, found {to_text(x)}", x)
        if x.value in params:
            b.fail("scope", f"{x.text} is a parameter of {name_atom.text} twice", x)
        params.append(x.value)
    prev = b.definitions.get(name_atom.text)
    if prev is not None:
        b.fail("scope", f"{name_atom.text} is defined twice (first at {prev.span.line}:{prev.span.column})", name_atom)
    b.definitions[name_atom.text] = Definition(name_atom.text, tuple(params), tuple(x.span for x in param_atoms),
                                               sx[2], sx.span)
    return A.Define(name_atom.text, tuple(params), sx[2], span=sx.span)


def call(b: Builder, sx: SList, scope: dict, check: BodyCheck) -> tuple[str, tuple, tuple[str, ...], Any]:
    """Check a use `(NAME arg …)`: its arguments here, then the body through `check` with the parameters bound.

    Returns (name, argument nodes, parameter names, what `check` returned for the body).
    """
    name = sx.head.text
    d = b.definitions[name]
    given = len(sx) - 1
    if given != len(d.params):
        want = len(d.params)
        b.fail("syntax", f"{name} takes {want} argument{'s' if want != 1 else ''} "
                         f"({' '.join(chr(39) + p for p in d.params) or 'none'}), but {to_text(sx)} gives {given}", sx)
    args, types = [], []
    for a in sx.items[1:]:
        node, t = b.guard(b.infer, a, scope)
        if t == T.POINTS:
            b.fail("type", f"a point map cannot be passed to {name}: pass its storage owner or name and "
                           f"write (<owner> points <name>) in the body", a)
        args.append(node)
        types.append(t)
    if name in b.expanding:
        circle = " → ".join([*b.expanding[b.expanding.index(name):], name])
        b.fail("definition", f"{name} uses itself ({circle}): a definition cannot be recursive", sx)
    shape = b.body_shape.get(name)
    if shape is None:
        shape = b.body_shape[name] = _shape(d.body)
    depth, size = shape
    if b.expanded_depth + depth > MAX_DEPTH:
        chain = [*b.expanding, name]
        shown = " → ".join(chain if len(chain) <= 6 else [*chain[:3], "…", *chain[-2:]])
        b.fail("limit", f"the {len(chain)} definitions used within one another here ({shown}) nest "
                        f"more than {MAX_DEPTH} parentheses deep once expanded, the nesting limit "
                        "(MAX_DEPTH, fixed; docs/limits.md)", sx)
    if b.expanded_forms > MAX_EXPANDED_FORMS:
        raise Fail()  # reported once, at the use that went over
    b.expanded_forms += size
    if b.expanded_forms > MAX_EXPANDED_FORMS:
        b.fail("limit", f"the uses of definitions expand to more than {MAX_EXPANDED_FORMS:,} forms by this one, "
                        "the expansion limit (MAX_EXPANDED_FORMS, fixed; docs/limits.md)", sx)
    inner = dict(b.declared)
    for p, span, t in zip(d.params, d.param_spans, types, strict=True):
        inner[p] = Binding(t if t is not ANY else ANY, span)
    b.used.add(name)
    b.expanding.append(name)
    b.expanded_depth += depth
    b.call_notes.append(f"in ({name} …) used at {sx.span.line}:{sx.span.column}")
    try:
        body = check(d.body, inner)
    finally:
        b.expanding.pop()
        b.expanded_depth -= depth
        b.call_notes.pop()
    return name, tuple(args), d.params, body


def call_expr(b: Builder, sx: SList, scope: dict):
    """A use in value position: (CallExpr, the body's type)."""
    name, args, params, (body, t) = call(b, sx, scope, lambda body, inner: b.guard(b.infer, body, inner))
    return A.CallExpr(name, args, params, body, t if t is not ANY else T.INT, span=sx.span), t


def is_use(b: Builder, sx: Any) -> bool:
    """Is this form a use of a definition: a list whose head is a defined NAME?"""
    return (isinstance(sx, SList) and bool(sx.items) and isinstance(sx.head, Atom) and sx.head.kind == "NAME"
            and sx.head.text in b.definitions)


def report_unused(b: Builder) -> None:
    """A warning for every definition of the file being checked that no use reached.

    A variant's base may hold definitions only the items the variant replaces used (a scoring
    rule's parts, say): leaving them unused is what the variant means, not a mistake in it.
    """
    for name, d in b.definitions.items():
        if name not in b.used and d.span.file == b.src.filename:
            b.warn("unused", f"{name} is defined but never used", d.span)
