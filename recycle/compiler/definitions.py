"""Uses of definitions: `(NAME arg …)` compiled in place, like a `let` of each parameter around the body.

The checker has already checked the body at this use (a definition is never recursive), so each
use compiles its own copy of the body with fresh slots for the parameters: the arguments are
evaluated in order, in the state where the use stands, then the body runs with them bound.
"""
from __future__ import annotations

from ..lang import ast as A
from .context import Compiler, Form, ItemForm
from .items import gen_bind
from .params import assign, bind_params, with_params


def e_call(cx: Compiler, n: A.CallExpr, sc):
    binds, inner = bind_params(cx, n, sc)
    body = cx.expr(n.body, inner)
    if not binds:
        return body
    if len(binds) == 1:
        [(s, vf)] = binds

        def call1(st, env):
            env[s] = vf(st, env)
            return body(st, env)
        return call1
    if len(binds) == 2:
        [(s1, vf1), (s2, vf2)] = binds

        def call2(st, env):
            v1 = vf1(st, env)  # both arguments are read before either parameter is bound
            env[s2] = vf2(st, env)
            env[s1] = v1
            return body(st, env)
        return call2

    def call(st, env):
        vals = [vf(st, env) for _, vf in binds]  # every argument is read before any parameter is bound
        for (s, _), v in zip(binds, vals, strict=True):
            env[s] = v
        return body(st, env)
    return call


def c_call(cx: Compiler, n: A.CallClause, sc):
    binds, inner = bind_params(cx, n, sc)
    body = cx.clause(n.body, inner)
    if not binds:
        return body

    def call(st, env):
        assign(binds, st, env)
        body(st, env)
    return call


def s_call(cx: Compiler, n: A.CallClause, sc):
    """A use walked while options are built: the parameters bound on this path only (as s_let does)."""
    binds, inner = bind_params(cx, n, sc)
    return with_params(binds, cx.sim(n.body, inner))


def gen_call_item(cx: Compiler, n: A.CallItem, sc, stages) -> None:
    """A use as a program item: an op binding the parameters, then the body's own ops."""
    binds, inner = bind_params(cx, n, sc, alias=False)
    if binds:
        gen_bind(cx, binds, n.span, stages)
    cx.gen_items((n.body,), inner, stages)


EXPRESSIONS: dict[type, Form] = {A.CallExpr: e_call}
CLAUSES: dict[type, Form] = {A.CallClause: c_call}
SIMS: dict[type, Form] = {A.CallClause: s_call}
ITEMS: dict[type, ItemForm] = {A.CallItem: gen_call_item}
