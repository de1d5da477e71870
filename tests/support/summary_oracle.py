"""The `recycle run --json` summary computed the plain way, from the whole list of records.

`recycle run` tallies its summary game by game (recycle.analysis.tally.RunTally) so that its memory
does not grow with the batch.  This is the straightforward computation that the tally must equal
byte for byte: every figure from the list at once, with sorted lists for the medians and sum() for
the means.  It lives in the tests because nothing in the product needs the list version.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from recycle.analysis.runs import (
    LIMIT_REASONS,
    branching_values,
    direction_text,
    interval,
    limit_lines_of,
    outcome_block,
    outcome_of,
    winners_of,
)
from recycle.analysis.stats import mean, quantile, wilson
from recycle.analysis.tally import decided_wins_of
from recycle.run.records import RunRecord


def run_summary(name: str, path: str, lineup: Sequence[str], seed: int, seats: int,
                records: Sequence[RunRecord], elapsed: float, direction: str | None = None) -> dict:
    """The `recycle run --json` object of `records`, as RunTally.summary must give it."""
    n = len(records)
    done = [r for r in records if r.end_reason == "normal"]
    limited = [r for r in records if r.end_reason in LIMIT_REASONS]
    errors = [r for r in records if r.end_reason == "error"]
    used = [r for r in records if r.end_reason != "error"]
    lengths = sorted(r.decisions for r in used)
    bs = sorted(b for r in used for b in branching_values(r))
    listed = [b for r in used for _, b, _ in r.decision_rows]
    sampled = sum(len(r.sampled) for r in used)
    ties = sum(1 for r in done if r.scores is not None and len(winners_of(r)) >= 2)
    tlo, thi = wilson(ties, len(done))
    outcomes = outcome_block(records)
    wins = [sum(r.known_shares[s] for r in done) / len(done) if done else None for s in range(seats)]
    wins_ci = [list(wilson(sum(r.known_shares[s] for r in done), len(done))) for s in range(seats)]
    scored = [r for r in done if r.scores is not None]
    decided = [r for r in done if outcome_of(r) == "decided"]
    total_dec = sum(r.decisions for r in records)
    return {
        "game": name,
        "file": path,
        "players": list(lineup),
        "seed": seed,
        "games": n,
        "completed": len(done),
        "limit_reached": len(limited),
        "errors": len(errors),
        "decisions": {"mean": mean(lengths), "median": quantile(lengths, 0.5) if lengths else None,
                      "max": lengths[-1] if lengths else None},
        "branching": {"mean": mean(bs), "median": quantile(bs, 0.5) if bs else None, "max": bs[-1] if bs else None,
                      "estimated": sampled > 0, "sampled_decisions": sampled, "decisions": len(bs),
                      "listed_mean": mean(listed), "listed_max": max(listed) if listed else None},
        "direction": direction,
        "direction_text": direction_text(direction) if direction is not None else None,
        "wins_by_seat": wins,
        "wins_ci95": wins_ci,
        "ties": {"count": ties, "rate": interval(ties / len(done), tlo, thi, len(done)) if done else None},
        "decided": decided_wins_of(len(decided), [sum(1 for r in decided if winners_of(r) == [s])
                                                  for s in range(seats)]),
        "outcomes": {k: v for k, v in outcomes.items() if k != "warnings"},
        "warnings": outcomes["warnings"],
        "mean_scores": [mean([r.known_scores[s] for r in scored]) for s in range(seats)],
        "first_errors": first_distinct_errors(errors),
        "limits_hit": limit_lines_of(Counter(r.end_reason for r in limited)),
        "elapsed_s": elapsed,
        "games_per_s": n / elapsed if elapsed > 0 else None,
        "decisions_per_s": total_dec / elapsed if elapsed > 0 else None,
    }


def first_distinct_errors(errors: Sequence[RunRecord], k: int = 5) -> list:
    """The first k distinct error messages, each with the first run (and its game seed) that raised it."""
    out, seen = [], set()
    for r in errors:
        if r.error not in seen:
            seen.add(r.error)
            out.append({"run": r.run, "game_seed": r.game_seed, "error": r.error})
            if len(out) == k:
                break
    return out
