"""What both adapters share: a loaded game, its action ids and encodings, and one game in progress.

**Returns** (both adapters).  A game that ends (normally or at a limit, whose scores are then
provisional) is worth `(N × share − 1) / (N − 1)` to each of its `N ≥ 2` seats, where `share` is
the seat's win share (1 for a sole winner, split equally between tied winners, 0 for the
others: `GameResult.shares`).  A sole winner gets +1, each loser −1/(N − 1); with two players a
win is +1 and a loss −1; the returns of every game sum to 0.  A game stopped by a run-time
error is worth 0 to everyone.  A one-seat game (a solitaire) returns its score, negated when
the game's lower score wins.

**Atomic blocks** (language spec extensions E4): an option list built by enumerating every
path through a game's atomic blocks can run to tens of thousands of options, so by default
the adapters build them as the random player does, by sampling paths from a stream seeded by
the game seed and the decision number (`atomic="sample"`): the same for everybody, a fixed
function of the position.  `atomic="enumerate"` lists them all.
"""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ..api import Game, load
from ..engine.algorithms import as_int
from ..engine.describe import actions
from ..engine.state import DONE, ERROR, WAITING, State
from ..engine.watchdog import StepTimeExceeded
from .actions import ActionCodec
from .encoding import Encoder


def integer(value: object, what: str = "an action id") -> int:
    """`value` as an int: an int, a NumPy integer or a 0-d integer array (what agents send); anything
    else, a float or a bool included, is a ValueError naming `what`, rather than an int made by truncating it."""
    k = as_int(value)
    if k is not None:
        return k
    raise ValueError(f"{what} is an integer, not {value!r}")


class RecycleSession:
    """A loaded game with its ids and encodings; the adapters' states and environments use one."""

    def __init__(self, game: str | Path | Game, params: Mapping[str, object] | None = None, *,
                 action_bits: int | None = None, atomic: str = "sample", max_decisions: int | None = None,
                 on_clash: str = "warn"):
        if atomic not in ("sample", "enumerate"):
            raise ValueError(f"atomic must be 'sample' or 'enumerate', not {atomic!r}")
        self.game = game if isinstance(game, Game) else load(game, params)
        self.prog = self.game.program
        self.n = self.prog.n_players
        self.atomic = atomic
        self.max_decisions = self.prog.max_decisions if max_decisions is None else max_decisions
        self.codec = ActionCodec(self.prog, action_bits, on_clash)
        self.encoder = Encoder(self.prog, self.codec.kinds)

    @property
    def num_distinct_actions(self) -> int:
        return self.codec.num_distinct_actions

    def new_state(self, seed: int) -> State:
        """The engine state of a new game with game seed `seed` (as `recycle run` plays game seeds)."""
        sampling = [True] * self.n if self.prog.has_atomic and self.atomic == "sample" else None
        return self.prog.new_game(seed, self.max_decisions, None, None, sampling)

    def legal(self, st: State) -> list[int]:
        """The ids of the options, in the engine's option order."""
        return self.codec.legal(st)

    def apply(self, st: State, action: int, legal: list[int] | None = None) -> list[str]:
        """Take the option with id `action`; returns what each seat saw of it (one text per seat)."""
        ids = self.legal(st) if legal is None else legal
        action = integer(action)
        try:
            i = ids.index(action)
        except ValueError:
            raise ValueError(f"action {action} is not legal here (legal: {sorted(ids)[:20]} …)") from None
        assert st.opts is not None and st.chooser is not None  # legal() gave ids: the game is waiting
        opt, who = st.opts[i], st.chooser
        seen = [f"p{who + 1}: " + "; ".join(a.text for a in actions(self.prog, st, opt, p)) for p in range(self.n)]
        try:
            self.prog.apply(st, i)
        except StepTimeExceeded as e:  # the watchdog's rare race: its exception landed just after the step ended
            self.prog.stop_step(st, e)
        return seen

    def is_over(self, st: State) -> bool:
        return st.status >= DONE

    def chooser(self, st: State) -> int | None:
        return st.chooser if st.status == WAITING else None

    def returns(self, st: State) -> list[float]:
        """Each seat's return (see the module docstring); zeros while the game runs."""
        if st.status < DONE or st.status == ERROR:
            return [0.0] * self.n
        r = self.prog.result(st)
        if r.scores is None or r.shares is None:
            return [0.0] * self.n
        if self.n == 1:
            return [float(r.scores[0]) if self.prog.direction == "max" else -float(r.scores[0])]
        return [(self.n * s - 1) / (self.n - 1) for s in r.shares]

    def info_string(self, st: State, seat: int, seen: list[str]) -> str:
        """The information-state string: what `seat` saw of every decision so far, then its observation."""
        return "\n".join([f"seat p{seat + 1}", *seen, "--", self.encoder.string(st, seat)])
