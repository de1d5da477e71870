"""The tables that give each form head its checking function, one table per kind of form.

A new expression or action form is one entry in the `FORMS` table of the module that implements
it (expressions, collection_forms, boards, melds, references, actions); this module only joins
them.  Clauses and program items are dispatched by `clauses`, which knows where each may stand.
"""
from __future__ import annotations

from collections.abc import Callable

from . import actions, boards, collection_forms, expressions, melds, references

# head keyword -> fn(builder, sx, scope) -> (node, static type)
EXPRESSIONS: dict[str, Callable] = {
    **expressions.FORMS, **collection_forms.FORMS, **boards.FORMS, **melds.FORMS, **references.FORMS,
}
# head keyword -> fn(builder, sx, scope, in_choice) -> node
ACTIONS: dict[str, Callable] = dict(actions.FORMS)
