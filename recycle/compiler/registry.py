"""The form tables: AST node class -> the function compiling it, one table per kind of form.

Each form module ends with its own table (`FORMS`, or `CLAUSES` / `SIMS` for atomic blocks,
which are both a clause and a branching form); this module merges them and is imported by
the driver alone, which hands `FORMS` to each `Compiler`.  So the import arrows all point
one way: driver -> registry -> form modules -> references -> context, and context, which
dispatches on the tables, imports none of them.
"""
from __future__ import annotations

from typing import TypeVar

from . import actions, atomic, boards, clauses, collection_forms, definitions, expressions, items, melds, options, turns
from .context import Forms

F = TypeVar("F")


def _merge(*tables: dict[type, F]) -> dict[type, F]:
    """One table from several; a class claimed twice is a mistake, caught at import time."""
    out: dict[type, F] = {}
    for t in tables:
        twice = out.keys() & t.keys()
        if twice:
            raise RuntimeError(f"forms compiled twice: {sorted(c.__name__ for c in twice)}")
        out.update(t)
    return out


EXPRESSIONS = _merge(expressions.FORMS, collection_forms.FORMS, boards.FORMS, melds.FORMS,
                     definitions.EXPRESSIONS, turns.EXPRESSIONS)
CLAUSES = _merge(clauses.FORMS, atomic.CLAUSES, definitions.CLAUSES)  # a clause missing here is an action
ACTIONS = _merge(actions.FORMS)
SIMS = _merge(options.FORMS, atomic.SIMS, definitions.SIMS)  # only clauses with a branch point (context._branches)
ITEMS = _merge(items.FORMS, turns.FORMS, definitions.ITEMS)

FORMS = Forms(expressions=EXPRESSIONS, clauses=CLAUSES, actions=ACTIONS, sims=SIMS, items=ITEMS)
