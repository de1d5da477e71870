"""What one played game leaves behind: its record (flow-and-analytics §3.2), decisions and transcript."""
from __future__ import annotations

import attrs


@attrs.define
class RunRecord:
    """What one run produced: its §3.2 record, its decisions and (optionally) its transcript lines."""

    run: int
    game_seed: int
    end_reason: str
    decisions: int
    forced: int
    turns: int
    moves: int
    scores: list | None
    ranks: list | None
    shares: list | None
    winners: list
    error: str | None
    decision_rows: list  # (player, branching, chosen)
    lineup: list
    transcript: list | None = None
    ms: float = 0.0
    # §3.5 AI estimates, one dict per decision of a searching player, in decision order
    # (recycle.players.estimates); None when the batch did not record them
    estimates: list | None = None
    # decisions whose atomic blocks were sampled (§15.4): [index in decision_rows, estimated number of
    # complete paths], their branching in decision_rows being the options listed (one walk per block)
    sampled: list = attrs.Factory(list)

    # Statistics read the outcome of runs they selected for having one (analysis.runs.outcome_runs,
    # or the runs that ended normally, which are always scored): these give it as a list.

    @property
    def known_scores(self) -> list:
        """The scores of a run that has them (a ValueError if it has none)."""
        if self.scores is None:
            raise ValueError(f"run {self.run} has no scores")
        return self.scores

    @property
    def known_shares(self) -> list:
        """The win shares of a run that has them (a ValueError if it has none)."""
        if self.shares is None:
            raise ValueError(f"run {self.run} has no win shares")
        return self.shares
