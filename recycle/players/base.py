"""The interface between the engine and whoever decides (language spec §16.5, design.md "Engine").

A player object is bound to one seat for one game with `start`, then asked for
decisions with `choose`.  It reads the options with `prog.options(st)` (and may
describe them with `prog.describe(st, option, viewer=seat)`) and what it may
observe with `prog.view(st, seat)`; it must not change `st` (clone it to look
ahead: clones carry no recorder).  Random and AI players draw only from their
own stream, seeded per seat by the engine (flow-and-analytics §0), never from
the game stream.

A user's player class is named on the command line as `module.path:ClassName` (see
`registry`); it may subclass `Player` or implement the Python API's protocol (`recycle.api.Player`).
"""
from __future__ import annotations

import random

from ..engine.streams import new_stream


class Player:
    """Base class: one seat's decision maker."""

    code = "?"  # the lineup code (flow-and-analytics §0), e.g. "R"

    def __init__(self):
        self.seat = -1
        # no stream yet: `start` gives each game its own, and seeding one costs as much as a short
        # game's decisions; a player asked to choose before any start gets random.Random(0), as if
        # made here (the `rng` property)
        self._rng: random.Random | None = None

    @property
    def rng(self) -> random.Random:
        """This seat's own stream (seeded by `start`)."""
        r = self._rng
        if r is None:
            r = self._rng = random.Random(0)
        return r

    @rng.setter
    def rng(self, r: random.Random) -> None:
        self._rng = r

    def start(self, prog, seat: int, seed: int) -> None:
        """Called at the start of each game: this player's seat and its own stream's seed."""
        self.seat = seat
        self._rng = new_stream(seed)

    def choose(self, prog, st) -> int:
        """Return the index of the chosen option (0 … len(prog.options(st)) - 1)."""
        raise NotImplementedError


class ScriptedPlayer(Player):
    """Replays a fixed list of choice indices (shared by all seats: pass the same object for every seat)."""

    code = "S"

    def __init__(self, choices):
        super().__init__()
        self.choices = list(choices)
        self.pos = 0

    def start(self, prog, seat, seed):
        pass

    def choose(self, prog, st) -> int:
        if self.pos >= len(self.choices):
            raise IndexError("the script has no more choices")
        i = self.choices[self.pos]
        self.pos += 1
        return i
