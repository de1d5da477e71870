"""The result of one game (language spec §16.6; flow-and-analytics §3.2, §5.2)."""
from __future__ import annotations

from typing import NamedTuple

import attrs

OUTCOMES = ("completed", "limit", "error")
END_REASONS = ("normal", "decision_limit", "step_limit", "option_limit", "error")


class DecisionRecord(NamedTuple):
    """One decision point (§16.1): 1-based number, chooser seat, branching factor, chosen index, position.

    `estimated`: for a decision whose atomic blocks the player sampled (§15.4), the options listed
    are one walk per block, so `branching` undercounts; this is the estimated number of its
    complete paths (compiler.items.SampledOptions).  None when the options were all listed.

    A named tuple, immutable: a game's result makes one per decision, and a tuple is made in a
    third of the time of a frozen attrs class (issue 16; Program.result builds them with
    `tuple.__new__`, skipping even the named tuple's own constructor).
    """

    number: int
    chooser: int
    branching: int
    chosen: int
    position: str  # "FILE:LINE:COLUMN" of the choice
    estimated: float | None = None

    def to_dict(self) -> dict:
        d = {"n": self.number, "seat": self.chooser, "options": self.branching,
             "choice": self.chosen, "position": self.position}
        if self.estimated is not None:
            d["estimated"] = self.estimated
        return d


@attrs.frozen(slots=True)
class LimitInfo:
    """Which limit stopped the game (§16.4), the counters then, and where it stopped."""

    which: str  # "decisions" | "steps" | "options"
    decisions: int
    steps: int
    position: str

    @property
    def message(self) -> str:
        return f"limit reached: {self.which} (decisions {self.decisions}, steps {self.steps}) at {self.position}"


@attrs.frozen(slots=True)
class ErrorInfo:
    """A run-time error (§19.4): class, message, position, context lines and the full report."""

    cls: str
    message: str
    position: str
    context: tuple[str, ...]
    text: str


@attrs.define(slots=True)
class GameResult:
    """Outcome, decision records, (provisional) scores, ranks, win shares, and the chosen indices."""

    outcome: str  # completed | limit | error
    end_reason: str  # normal | decision_limit | step_limit | option_limit | error
    seed: int | None
    direction: str  # max | min
    decisions: list[DecisionRecord]
    scores: list[int] | None
    ranks: list[int] | None
    shares: list[float] | None
    winners: list[int] | None
    limit: LimitInfo | None = None
    error: ErrorInfo | None = None
    warnings: tuple = ()
    choices: list[int] = attrs.Factory(list)
    score_error: ErrorInfo | None = None  # a run-time error while scoring a limit outcome
    hands: list[list[int]] = attrs.Factory(list)  # in a match, each finished hand's score per player

    @property
    def n_decisions(self) -> int:
        return len(self.decisions)

    @property
    def provisional(self) -> bool:
        return self.outcome == "limit"

    def to_dict(self) -> dict:
        """A JSON-ready summary (the `end` line of a transcript plus details)."""
        return {
            "outcome": self.outcome,
            "reason": self.end_reason,
            "seed": self.seed,
            "decisions": self.n_decisions,
            "direction": self.direction,
            "scores": self.scores,
            "ranks": self.ranks,
            "win_share": self.shares,
            "winners": self.winners,
            "limit": attrs.asdict(self.limit) if self.limit else None,
            "error": self.error.text if self.error else None,
            "warnings": [getattr(w, "message", str(w)) for w in self.warnings],
            "hands": self.hands,
        }
