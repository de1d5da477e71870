"""How long will a batch with AI players take? An estimate made before it starts.

The estimate plays one all-random game of the batch's game (a timed probe, a few
milliseconds for most games) and reads from it the decisions per game D, the mean branching
factor B and the time t of one random game.  A searching player's decision costs about:

- with `--move-time T`: T (a bound: a budget may stop the search sooner);
- otherwise its budget of playouts, each about half a random game (a playout starts mid-game):
  `budget × t / 2` for M and P (iterations per decision), `budget × B × t / 2` for F (playouts
  per option).

A game then costs `D × (searching seats / seats) × cost`, and the batch that times the games
divided by the worker processes.  It is an order of magnitude, not a promise: searching
players change how long games last.  Commands warn on stderr when it passes `WARN_SECONDS`.
"""
from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence

from ..engine.algorithms import derive
from ..players import registry
from .session import GameSession

WARN_SECONDS = 60.0


def decision_cost(code: str, budget: int | None, move_time: float | None, game_s: float, branching: float) -> float:
    """Seconds one decision of a player of kind `code` takes, by the rules of the module docstring."""
    if code not in registry.SEARCHING:
        return 0.0
    if move_time is not None and budget is None:
        return move_time
    b = budget if budget is not None else registry.SEARCHERS[code].default_budget
    per = b * game_s / 2 * (branching if code == "F" else 1.0)
    return min(per, move_time) if move_time is not None else per


Lineups = Sequence[Sequence[str]] | Mapping[tuple[str, ...], int]


def counted(lineups: Lineups) -> Mapping[tuple[str, ...], int]:
    """Each distinct lineup and its number of games: a batch of 10^12 games of one lineup is read as one
    entry, not walked game by game before its first game."""
    return lineups if isinstance(lineups, Mapping) else Counter(tuple(lu) for lu in lineups)


def estimate(sess: GameSession, lineups: Lineups, budget: int | None, move_time: float | None,
             jobs: int = 1, probe_seed: int = 0) -> dict | None:
    """The estimated wall time of playing one game per lineup (None when no lineup seats a searching player).

    `lineups`: one per game, or each distinct lineup with its number of games.
    Returns {"seconds", "decisions", "branching", "probe_s"}.
    """
    games = counted(lineups)
    if not any(c in registry.SEARCHING for lu in games for c in lu):
        return None
    t0 = time.perf_counter()
    rec = sess.play(derive(probe_seed, "probe", 0), ["R"] * sess.n_players)
    game_s = time.perf_counter() - t0
    rows = rec.decision_rows
    d = max(1, rec.decisions)
    branching = sum(b for _, b, _ in rows) / len(rows) if rows else 1.0
    n = max(1, sess.n_players)
    total = 0.0
    for lu, k in games.items():
        total += k * (game_s + d * sum(decision_cost(c, budget, move_time, game_s, branching) for c in lu) / n)
    return {"seconds": total / max(1, jobs), "decisions": d, "branching": branching, "probe_s": game_s}


def human_time(s: float) -> str:
    if s < 90:
        return f"{s:.0f} s"
    if s < 5400:
        return f"{s / 60:.0f} min"
    return f"{s / 3600:.1f} h"


def warn_if_long(sess: GameSession, lineups: Lineups, budget: int | None,
                 move_time: float | None, jobs: int = 1, threshold: float | None = None, file=None) -> dict | None:
    """Print a warning with the estimate when a batch with AI players will likely take more than `threshold` s
    (default WARN_SECONDS)."""
    est = estimate(sess, lineups, budget, move_time, jobs)
    limit = WARN_SECONDS if threshold is None else threshold
    if est is not None and est["seconds"] > limit:
        n = sum(counted(lineups).values())
        print(f"warning: {n} games with AI players may take about {human_time(est['seconds'])}"
              f"{f' with {jobs} jobs' if jobs > 1 else ''} (estimate: {est['decisions']} decisions per game, "
              f"a random game in {est['probe_s'] * 1000:.1f} ms, budget x decisions); lower --ai-budget, "
              "set --move-time, add --jobs or play fewer games", file=file or sys.stderr)
    return est
