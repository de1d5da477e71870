"""The parameters of a definition's use, bound like a `let` of each: shared by every way a use is compiled."""
from __future__ import annotations

from ..lang import ast as A
from .context import Compiler


def bind_params(cx: Compiler, n, sc, alias: bool = True):
    """(slot, value closure) per parameter to bind, and the scope the body sees; arguments compiled in `sc`.

    With `alias`, a parameter given a variable is that variable under another name, and one given
    a literal or a declared value is that constant: neither needs a slot.  That is exact wherever
    the use runs within one binding of the variable (an expression, a clause: nothing rebinds a
    variable while they run); a program item, whose ops may outlive it, binds every parameter.
    """
    binds = []
    inner = dict(sc)
    for name, arg in zip(n.params, n.args, strict=True):
        if alias:
            if type(arg) is A.Var and arg.name in sc:
                inner[name] = sc[arg.name]
                continue
            c, v = cx.const(arg, sc)
            if c:
                inner[name] = (True, v)
                continue
        vf = cx.expr(arg, sc)
        s = cx.new_slot()
        inner[name] = (False, s)
        binds.append((s, vf))
    return tuple(binds), inner


def assign(binds, st, env) -> None:
    """Bind the parameters: every argument is read before any parameter is bound."""
    vals = [vf(st, env) for _, vf in binds]
    for (s, _), v in zip(binds, vals, strict=True):
        env[s] = v


def with_params(binds, body):
    """A continuation-passing `body(st, env, k)` run with the parameters bound on this path only, as a
    `let` is while options are built: the slots get their old values back when the path returns."""
    if not binds:
        return body

    def call(st, env, k):
        old = [env[s] for s, _ in binds]
        assign(binds, st, env)
        body(st, env, k)
        for (s, _), v in zip(binds, old, strict=True):
            env[s] = v
    return call
