"""The parameters of a definition's use, bound like a `let` of each: shared by every way a use is compiled."""
from __future__ import annotations

from ..lang import ast as A
from .context import Compiler


def bind_params(cx: Compiler, n, sc):
    """(slot, value closure) per parameter, and the scope the body sees; the arguments are compiled in `sc`.

    An argument that is a constant binds its parameter as that constant, and one that is a
    variable binds it to the variable's own slot: nothing to evaluate at run time. This is the
    same value read at the same moment: a variable's slot is written only by its own binder,
    and every binder takes a fresh slot, so nothing in the body can change it.
    """
    binds = []
    inner = dict(sc)
    for name, arg in zip(n.params, n.args, strict=True):
        c, v = cx.const(arg, sc)
        if c:
            inner[name] = (True, v)
            continue
        if type(arg) is A.Var and arg.name in sc:
            inner[name] = sc[arg.name]
            continue
        vf = cx.expr(arg, sc)
        s = cx.new_slot()
        inner[name] = (False, s)
        binds.append((s, vf))
    return tuple(binds), inner
