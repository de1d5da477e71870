"""The random player (language spec §16.5): uniform over the option list, with its seat's own stream."""
from __future__ import annotations

from .base import Player


class RandomPlayer(Player):
    """Picks an option index uniformly from 0 … branching factor − 1."""

    code = "R"

    def choose(self, prog, st) -> int:
        return (self._rng or self.rng).randrange(len(st.opts))  # the stream without the property, once started
