"""The parameters of a definition's use, bound like a `let` of each: shared by every way a use is compiled."""
from __future__ import annotations

from .context import Compiler


def bind_params(cx: Compiler, n, sc):
    """(slot, value closure) per parameter, and the scope the body sees; the arguments are compiled in `sc`."""
    binds = []
    inner = dict(sc)
    for name, arg in zip(n.params, n.args, strict=True):
        vf = cx.expr(arg, sc)
        s = cx.new_slot()
        inner[name] = (False, s)
        binds.append((s, vf))
    return tuple(binds), inner
