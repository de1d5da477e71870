"""The random player (language spec §16.5): uniform over the option list, with its seat's own stream."""
from __future__ import annotations

import random

from .base import Player

# random.Random draws an index below n by rejection from n.bit_length() random bits (its
# `_randbelow`, which `randrange(n)` calls for n > 0).  `choose` runs once per decision of every
# random seat, and the two calls between it and the bits cost a fifth of an option's build on a
# short decision: it draws the bits itself, the same way, so the same stream gives the same
# indices.  On an interpreter whose Random draws otherwise, it calls randrange.
_SAME_DRAW = getattr(random.Random, "_randbelow", None) is getattr(random.Random, "_randbelow_with_getrandbits", 0)


class RandomPlayer(Player):
    """Picks an option index uniformly from 0 … branching factor − 1."""

    code = "R"

    def choose(self, prog, st) -> int:
        n = len(st.opts)
        rng = self._rng or self.rng  # the stream without the property, once started
        if n <= 0 or not _SAME_DRAW:  # (no option: randrange's own error)
            return rng.randrange(n)
        getrandbits = rng.getrandbits
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r
