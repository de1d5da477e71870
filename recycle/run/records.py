"""What one played game leaves behind: its record (flow-and-analytics §3.2), decisions and transcript."""
from __future__ import annotations

from typing import Optional

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
    scores: Optional[list]
    ranks: Optional[list]
    shares: Optional[list]
    winners: list
    error: Optional[str]
    decision_rows: list  # (player, branching, chosen)
    lineup: list
    transcript: Optional[list] = None
    ms: float = 0.0
    # §3.5 AI estimates, one dict per decision of a searching player, in decision order
    # (recycle.players.estimates); None when the batch did not record them
    estimates: Optional[list] = None
