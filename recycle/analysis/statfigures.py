"""The figures of `recycle stats` (flow-and-analytics §3.3-§3.4, §3.6) computed from a `StatsTally`.

Each is what the plain computation over the list of records gives (tests/support/stats_oracle.py), byte
for byte: sorted distributions read through `statstally.Values`, sums in the order sum() made them,
bootstrap intervals over the same per-run arrays in run order.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from .runs import (
    END_REASONS,
    SAMPLED_METHOD,
    boot_seed,
    direction_text,
    interval,
    mean_ci,
    outcome_block_of,
)
from .stats import bootstrap_apply, describe_sorted, quantile, sd, wilson
from .statstally import KindTally, ScoreSeries, StatsTally


def stats_of(t: StatsTally, *, game: str, direction: str, seed: int, lineup: str | Sequence[str],
             rotate: bool = False, bootstrap: int = 1000) -> dict:
    """summary.analyze of the records added to `t` (the statistics part of summary.json)."""
    lineup = "".join(lineup)
    outcomes = outcome_block_of(t.outcomes)
    return {
        "game": game,
        "direction": direction,
        "direction_text": direction_text(direction),
        "runs": {"requested": t.games, **{k: t.reasons.get(k, 0) for k in END_REASONS},
                 "used": t.used, "used_length": t.length_runs, "include_limited": t.include_limited},
        "errors": [dict(e) for e in t.errors],
        "length": _length(t, seed, bootstrap),
        "branching": _branching(t, seed, bootstrap),
        "seats": _seats(t, seed, bootstrap),
        "kinds": _kinds(t, seed, bootstrap, rotate, lineup),
        "ties": _ties(t),
        "teams": _teams(t),
        "outcomes": {k: v for k, v in outcomes.items() if k != "warnings"},
        "warnings": outcomes["warnings"],
    }


def _length(t: StatsTally, seed, b: int) -> dict:
    n = t.length_runs
    d = describe_sorted(t.lengths.values())
    return {
        "n": n,
        "mean": mean_ci(t.length_by_run, seed, "length.mean", b),
        "sd": d["sd"], "min": d["min"], "q1": d["q1"], "median": d["median"], "q3": d["q3"], "max": d["max"],
        "limited": t.limited,
        "max_is_limit": bool(t.limited) and d["max"] == t.limited_max,
        "forced_share": t.forced_share.value / t.forced_share_n if t.forced_share_n else None,
        "turns": t.turns / n if n else None,
        "moves": t.moves / n if n else None,
    }


def _branching(t: StatsTally, seed, b: int) -> dict:
    pooled = t.pooled.values()
    return {
        "points": len(pooled),
        "mean": pooled.total() / len(pooled) if pooled else None,
        "median": quantile(pooled, 0.5) if pooled else None,
        "max": pooled[-1] if pooled else None,
        "run_mean": mean_ci(t.run_means, seed, "branching.run_mean", b),
        "forced_share": t.forced_points / len(pooled) if pooled else None,
        "log10_tree": mean_ci(t.trees, seed, "branching.log10_tree", b),
        "slope": mean_ci(t.slopes, seed, "branching.slope", b),
        "max_index": t.max_index,
        "estimated": t.sampled > 0,
        "sampled_decisions": t.sampled,
        "listed_mean": t.listed_sum / t.listed_n if t.listed_n else None,
        "listed_max": t.listed_max,
        "method": SAMPLED_METHOD if t.sampled else None,
    }


def branching_rows(t: StatsTally) -> list[dict]:
    """summary.branching_by_index of the records added to `t`."""
    rows = []
    for k, dist in enumerate(t.by_index, 1):
        vals = dist.values()
        rows.append({"decision": k, "n_runs": len(vals), "mean": vals.total() / len(vals), "sd": sd(vals),
                     "median": quantile(vals, 0.5), "min": vals[0], "max": vals[-1]})
    return rows


def timing_of(t: StatsTally, wall_seconds: float | None = None) -> dict:
    """summary.timing_stats of the records added to `t`."""
    # sorted as 8-byte floats, not as a list of a million Python floats
    ms = np.sort(np.frombuffer(t.ms, dtype=float)) if len(t.ms) else None
    out: dict = {"median_ms": float(quantile(ms, 0.5)) if ms is not None else None}  # type: ignore[arg-type]
    if wall_seconds is not None:
        out["wall_seconds"] = wall_seconds
        out["games_per_second"] = t.games / wall_seconds if wall_seconds > 0 else None
        out["decisions_per_second"] = t.total_decisions / wall_seconds if wall_seconds > 0 else None
    return out


# ---------------------------------------------------------------- §3.4 outcomes


def _score_block(series: ScoreSeries, seed, name: str, b: int) -> dict:
    """Score distribution pooled over runs, with a run-resampled bootstrap CI of the mean."""
    flat = series.dist.values()
    d = describe_sorted(flat)
    mean_ci = None
    if flat and series.big:  # past a float's range: no bootstrap interval
        mean_ci = interval(d["mean"], None, None, len(flat))
    elif flat:
        sums = np.frombuffer(series.totals, dtype=float)
        cnts = (np.ones(series.runs) if series.counts is None
                else np.frombuffer(series.counts, dtype=np.uint16).astype(float))

        def stat(idx):
            c = cnts[idx].sum(axis=1)
            return np.where(c > 0, sums[idx].sum(axis=1) / np.maximum(c, 1), np.nan)

        lo, hi = bootstrap_apply(series.runs, boot_seed(seed, name), stat, b)
        if lo is not None and (np.isnan(lo) or np.isnan(hi)):
            lo = hi = None
        mean_ci = interval(d["mean"], lo, hi, len(flat))
    return {"mean": mean_ci, "sd": d["sd"], "min": d["min"], "q1": d["q1"], "median": d["median"],
            "q3": d["q3"], "max": d["max"]}


def _win_block(x: float, n: int, players: int) -> dict | None:
    if players < 2 or n <= 0:
        return None
    lo, hi = wilson(x, n)
    return interval(x / n, lo, hi, n)


def _seats(t: StatsTally, seed, b: int) -> list[dict]:
    players, n = t.players, t.used
    out = []
    for s in range(players):
        x = t.share_sums[s].value
        kinds = set(t.seat_kinds[s])
        ranks = t.seat_ranks[s]
        out.append({
            "seat": s, "label": f"p{s + 1}", "kind": kinds.pop() if len(kinds) == 1 else None,
            "n": n,
            "win_rate": _win_block(x, n, players),
            "wins": x if players >= 2 else None,
            "outright": t.outright[s], "shared": t.shared[s],
            "fair": 1 / players if players >= 2 else None,
            "ranks": [ranks.get(k, 0) for k in range(1, players + 1)],
            "score": _score_block(t.scores[s], seed, f"score.seat{s}", b),
        })
    return out


def kind_of(t: StatsTally, code: str) -> KindTally:
    """The tally of a kind; one that no used run had, all zeros."""
    return t.kinds.get(code) or KindTally(t.used)


def _kinds(t: StatsTally, seed, b: int, rotate: bool, lineup: str) -> list[dict]:
    players = t.players
    codes = sorted(t.codes | set(lineup))
    if len(codes) < 2 and not rotate:
        return []
    out = []
    for code in codes:
        k = kind_of(t, code)
        n = k.n
        x = k.x.value
        win = _win_block(x, n, players)
        order = None
        if code != "R" and players >= 2 and t.used and win is not None and k.order_ok:
            f = 1 / players
            value, lo, hi = ((w - f) / (1 - f) for w in (win["value"], win["lo"], win["hi"]))
            order = interval(value, lo, hi, n)
        ranks: Counter = k.ranks
        out.append({
            "kind": code, "n": n, "win_rate": win, "wins": x if players >= 2 else None,
            "outright": k.outright, "shared": k.shared,
            "fair": 1 / players if players >= 2 else None,
            "ranks": [ranks.get(r, 0) for r in range(1, players + 1)],
            "order": order,
            "score": _score_block(k.score, seed, f"score.kind.{code}", b),
        })
    return out


def _ties(t: StatsTally) -> dict:
    n, first, anytie = t.used, t.ties_first, t.ties_any
    lo, hi = wilson(first, n)
    alo, ahi = wilson(anytie, n)
    return {"n": n,
            "first": {"count": first, "rate": interval(first / n, lo, hi, n) if n else None},
            "any": {"count": anytie, "rate": interval(anytie / n, alo, ahi, n) if n else None}}


def _teams(t: StatsTally) -> list | None:
    if not t.teams:
        return None
    out = []
    for i, members in enumerate(t.teams):
        x = t.team_sums[i].value
        out.append({"team": i, "members": list(members), "n": t.used,
                    "win_rate": _win_block(x, t.used, len(t.teams)),
                    "wins": x, "fair": 1 / len(t.teams) if len(t.teams) >= 2 else None})
    return out
