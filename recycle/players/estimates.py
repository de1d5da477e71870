"""AI estimates and what flow-and-analytics §3.5 derives from them (pure functions on plain data).

A searching player with `record_estimates` on appends one dict per decision it makes:

    {"decision": 7, "decider": 2, "options": 3, "chosen": 1,
     "value": [v0, v1, v2],            # the decider's mean final score after o (negated for `min`)
     "ranks": [[r00, r01, …], …],      # ranks[o][k]: seat k's mean final competition rank after o
     "samples": [..], "player": "M", …}

Batches keep these dicts in `RunRecord.estimates` (decision order); lead.csv, spread.csv and
the AI heuristics of §4 are computed from them with the functions below.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence


def rank_estimate(rank: float, n: int) -> float:
    """The normalised rank estimate e = (n - rank) / (n - 1): 1 = first, 0 = last; 1 when n = 1."""
    return 1.0 if n <= 1 else (n - rank) / (n - 1)


def lead(est: dict, n: int) -> list[float]:
    """lead[k] = e of seat k under the option the AI chose."""
    return [rank_estimate(r, n) for r in est["ranks"][est["chosen"]]]


def self_estimates(est: dict, n: int) -> list[float]:
    """e_s(o) for every option o, s the decider."""
    s = est["decider"]
    return [rank_estimate(r[s], n) for r in est["ranks"]]


def spread(est: dict, n: int) -> dict:
    """spread_score = max - min of value[o]; spread_rank = max - min of e_s(o); both 0 when forced (b = 1)."""
    b = est["options"]
    if b <= 1:
        return {"spread_score": 0.0, "spread_rank": 0.0, "forced": True}
    vals = est["value"]
    es = self_estimates(est, n)
    return {"spread_score": float(max(vals) - min(vals)), "spread_rank": float(max(es) - min(es)), "forced": False}


def self_view(estimates: Iterable[dict], seat: int, n: int) -> list[float]:
    """Seat s's own lead[s] at its own decisions, in order (the series §4 reads)."""
    return [lead(e, n)[seat] for e in estimates if e["decider"] == seat]


def clarity(est: dict, n: int) -> float | None:
    """§4 Clarity of one decision with b >= 2: 1 - (g - 1)/(b - 1), g = options within 0.1 spread_rank of the best;
    0 when the spread is 0; None for a forced decision."""
    b = est["options"]
    if b < 2:
        return None
    es = self_estimates(est, n)
    sr = max(es) - min(es)
    if sr <= 0:
        return 0.0
    best = max(es)
    g = sum(1 for e in es if e >= best - 0.1 * sr)
    return 1 - (g - 1) / (b - 1)


def competition_order(values: Sequence[float]) -> list[int]:
    """Competition ranks of seats by a value, higher first (1, 1, 3)."""
    return [1 + sum(1 for t in values if t > v) for v in values]
