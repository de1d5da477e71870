"""Random streams made and drawn from as `random.Random` does, with less Python around the C code.

The seed convention (flow-and-analytics §0) fixes which seed each stream gets, not how the
stream object is made.  A short game (Kuhn or Leduc poker) seeds three streams and shuffles
once, and the Python layers of `random.Random` around its C core (`Random.__init__` and
`Random.seed` checking the seed's type, `shuffle` calling `_randbelow` per card) cost a tenth
of such a game (issue 16).  The functions here take the same C steps in the same order, so a
stream holds the same state and yields the same numbers as one made and used the usual way
(tests/engine/test_streams.py compares them over many seeds and pile sizes).
"""
from __future__ import annotations

import random
from _random import Random as _CRandom

_Random = random.Random
_new = _Random.__new__  # the C type's allocation: no seeding, no __init__
_seed = _CRandom.seed  # what Random.seed calls, for an int, after its type checks

# For an int seed Random(x) runs Random.seed(x): its type checks, then the C type's seed and
# `gauss_next = None`.  Shuffles and draws below n take bits as `_randbelow_with_getrandbits`
# does; on an interpreter whose Random draws otherwise the functions here call its own methods.
SAME_DRAW = getattr(_Random, "_randbelow", None) is getattr(_Random, "_randbelow_with_getrandbits", 0)


def new_stream(seed: int) -> random.Random:
    """`random.Random(seed)`: the same class and the same state, made without the Python-level seeding."""
    if seed.__class__ is not int:  # (an int subclass, a str, ...: Random.seed's own rules)
        return _Random(seed)
    r = _new(_Random)
    _seed(r, seed)
    r.gauss_next = None  # type: ignore[attr-defined]  # (set by Random.seed; typeshed does not declare it)
    return r


def shuffle(rng: random.Random, x: list) -> None:
    """`rng.shuffle(x)`: the same permutation from the same bits, with the index draws inlined."""
    if rng.__class__ is not _Random or not SAME_DRAW:  # a stream that draws its own way (compiler.walks)
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]
