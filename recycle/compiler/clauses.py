"""Clauses run directly (outside option building): do, guarded clauses, loops, let, repeat."""
from __future__ import annotations

from ..errors import InternalError
from ..lang import ast as A
from . import references as refs
from .context import Compiler, Form, repeat_count


def c_do(cx: Compiler, n: A.Do, sc):
    fs = tuple(cx.clause(c, sc) for c in n.clauses)
    if len(fs) == 1:
        return fs[0]
    if len(fs) == 2:
        a, b = fs

        def do2(st, env):
            a(st, env)
            b(st, env)
        return do2
    if len(fs) == 3:
        a, b, c = fs

        def do3(st, env):
            a(st, env)
            b(st, env)
            c(st, env)
        return do3

    def do(st, env):
        for f in fs:
            f(st, env)
    return do


def c_guarded(cx: Compiler, n: A.Guarded, sc):
    cond = cx.expr(n.cond, sc)
    body = cx.clause(n.body, sc)

    def guarded(st, env):
        if cond(st, env):
            body(st, env)
    return guarded


def c_loop(cx: Compiler, n: A.Loop, sc):
    cf = refs.iter(cx, n.coll, sc)
    s, sc2 = cx.bind(sc, n.var)
    body = cx.clause(n.body, sc2)

    def loop(st, env):
        for e in cf(st, env):
            env[s] = e
            body(st, env)
    return loop


def c_let(cx: Compiler, n: A.Let, sc):
    vf = cx.expr(n.value, sc)
    s, sc2 = cx.bind(sc, n.var)
    body = cx.clause(n.body, sc2)

    def let(st, env):
        env[s] = vf(st, env)
        body(st, env)
    return let


def c_repeat(cx: Compiler, n: A.Repeat, sc):
    cf = repeat_count(cx, n, sc)
    body = cx.clause(n.body, sc)

    def repeat(st, env):
        for _ in range(cf(st, env)):
            body(st, env)
    return repeat


def c_repeat_all(cx: Compiler, n: A.RepeatAll, sc):
    src = n.body.card
    if type(src) is A.Actual:
        src = src.card
    if type(src) is not A.CardAt:
        raise InternalError(f"repeat all with a non-positional source at {n.span}")
    kf = refs.cards(cx, src.pile, sc)
    body = cx.clause(n.body, sc)

    def repeat_all(st, env):
        for _ in range(len(kf(st, env))):
            body(st, env)
    return repeat_all


# An atomic block run directly is in atomic.CLAUSES; any other clause is an action.
def c_if(cx: Compiler, n: A.If, sc):
    cond = cx.expr(n.cond, sc)
    then = cx.clause(n.then, sc)
    if n.orelse is None:
        def if_(st, env):
            if cond(st, env):
                then(st, env)
        return if_
    orelse = cx.clause(n.orelse, sc)

    def if_else(st, env):
        if cond(st, env):
            then(st, env)
        else:
            orelse(st, env)
    return if_else


FORMS: dict[type, Form] = {
    A.Do: c_do, A.Guarded: c_guarded, A.Loop: c_loop, A.Let: c_let, A.Repeat: c_repeat,
    A.RepeatAll: c_repeat_all, A.If: c_if,
}
