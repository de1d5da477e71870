"""`recycle stats`'s figures computed the plain way, from the whole list of records (the computation before
the statistics were tallied game by game).

`recycle stats` tallies its figures game by game (recycle.analysis.statstally) so that its memory does not
grow with the batch by whole records.  These are the straightforward computations the tally must equal byte
for byte: analyze, branching_by_index and timing_stats of summary.json and its CSVs.  (The heuristics have
their own record path in the product, analysis.heuristics.heuristics.)  They live in the tests because
nothing in the product needs the list versions.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

import numpy as np

from recycle.analysis.runs import (
    END_REASONS,
    LIMIT_REASONS,
    SAMPLED_METHOD,
    boot_seed,
    branching_values,
    direction_text,
    interval,
    length_runs,
    mean_ci,
    outcome_block,
    outcome_runs,
    ranks_of,
    winners_of,
)
from recycle.analysis.statfigures import _win_block
from recycle.analysis.stats import bootstrap_apply, describe, quantile, sd, wilson
from recycle.run.records import RunRecord

# ---------------------------------------------------------------- §3.3 length and branching


def branching_by_index(records: Sequence[RunRecord]) -> list[dict]:
    """§3.3: for k = 1 .. max L, n_k runs with L >= k and mean, sd, median, min, max of b at k
    (a sampled decision's b is its estimated number of paths: analysis.runs.branching_values)."""
    runs = [branching_values(r) for r in length_runs(records)]
    top = max((len(bs) for bs in runs), default=0)
    rows = []
    for k in range(1, top + 1):
        vals = sorted(bs[k - 1] for bs in runs if len(bs) >= k)
        rows.append({"decision": k, "n_runs": len(vals), "mean": sum(vals) / len(vals), "sd": sd(vals),
                     "median": quantile(vals, 0.5), "min": vals[0], "max": vals[-1]})
    return rows


def _slope(bs: Sequence[float]) -> float:
    """Least-squares slope of b against k = 1 .. L (L >= 2)."""
    n = len(bs)
    kbar = (n + 1) / 2
    bbar = sum(bs) / n
    return sum((k - kbar) * (b - bbar) for k, b in enumerate(bs, 1)) / sum((k - kbar) ** 2 for k in range(1, n + 1))


def _length(records: Sequence[RunRecord], seed, b: int) -> dict:
    used = length_runs(records)
    L = [r.decisions for r in used]
    d = describe(L)
    limited = sum(1 for r in used if r.end_reason in LIMIT_REASONS)
    forced_share = [r.forced / r.decisions for r in used if r.decisions > 0]
    return {
        "n": len(L),
        "mean": mean_ci(L, seed, "length.mean", b),
        "sd": d["sd"], "min": d["min"], "q1": d["q1"], "median": d["median"], "q3": d["q3"], "max": d["max"],
        "limited": limited,
        "max_is_limit": bool(limited) and d["max"] == max(r.decisions for r in used if r.end_reason in LIMIT_REASONS),
        "forced_share": sum(forced_share) / len(forced_share) if forced_share else None,
        "turns": sum(r.turns for r in used) / len(used) if used else None,
        "moves": sum(r.moves for r in used) / len(used) if used else None,
    }


def _branching(records: Sequence[RunRecord], seed, b: int) -> dict:
    used = length_runs(records)
    per_run = [branching_values(r) for r in used]
    listed = [bb for r in used for (_p, bb, _c) in r.decision_rows]
    sampled = sum(len(r.sampled) for r in used)
    pooled = sorted(x for bs in per_run for x in bs)
    run_means = [sum(bs) / len(bs) for bs in per_run if bs]
    trees = [sum(math.log10(x) for x in bs) for bs in per_run if bs and all(x >= 1 for x in bs)]
    slopes = [_slope(bs) for bs in per_run if len(bs) >= 2]
    return {
        "points": len(pooled),
        "mean": sum(pooled) / len(pooled) if pooled else None,
        "median": quantile(pooled, 0.5) if pooled else None,
        "max": pooled[-1] if pooled else None,
        "run_mean": mean_ci(run_means, seed, "branching.run_mean", b),
        "forced_share": sum(1 for x in pooled if x == 1) / len(pooled) if pooled else None,
        "log10_tree": mean_ci(trees, seed, "branching.log10_tree", b),
        "slope": mean_ci(slopes, seed, "branching.slope", b),
        "max_index": max((len(bs) for bs in per_run), default=0),
        # sampled decisions (language §15.4) count by their estimated number of paths, not their options
        "estimated": sampled > 0,
        "sampled_decisions": sampled,
        "listed_mean": sum(listed) / len(listed) if listed else None,
        "listed_max": max(listed) if listed else None,
        "method": SAMPLED_METHOD if sampled else None,
    }


# ---------------------------------------------------------------- §3.4 outcomes


def _score_block(values_by_run: Sequence[Sequence[float]], seed, name: str, b: int) -> dict:
    """Score distribution pooled over runs, with a run-resampled bootstrap CI of the mean."""
    flat = [v for vs in values_by_run for v in vs]
    d = describe(flat)
    mean_ci = None
    totals = [sum(vs) for vs in values_by_run]
    if flat and not all(abs(t) < 1e300 for t in totals):  # past a float's range: no bootstrap interval
        mean_ci = interval(d["mean"], None, None, len(flat))
    elif flat:
        sums = np.array(totals, dtype=float)
        cnts = np.array([len(vs) for vs in values_by_run], dtype=float)

        def stat(idx):
            c = cnts[idx].sum(axis=1)
            return np.where(c > 0, sums[idx].sum(axis=1) / np.maximum(c, 1), np.nan)

        lo, hi = bootstrap_apply(len(values_by_run), boot_seed(seed, name), stat, b)
        if lo is not None and (math.isnan(lo) or math.isnan(hi)):
            lo = hi = None
        mean_ci = interval(d["mean"], lo, hi, len(flat))
    return {"mean": mean_ci, "sd": d["sd"], "min": d["min"], "q1": d["q1"], "median": d["median"],
            "q3": d["q3"], "max": d["max"]}


def _seats(used: Sequence[RunRecord], players: int, seed, b: int) -> list[dict]:
    out = []
    for s in range(players):
        x = sum(r.known_shares[s] for r in used)
        outright = sum(1 for r in used if winners_of(r) == [s])
        shared = sum(1 for r in used if s in winners_of(r) and len(winners_of(r)) >= 2)
        ranks = Counter(ranks_of(r)[s] for r in used)
        kinds = {r.lineup[s] for r in used if s < len(r.lineup)}
        out.append({
            "seat": s, "label": f"p{s + 1}", "kind": kinds.pop() if len(kinds) == 1 else None,
            "n": len(used),
            "win_rate": _win_block(x, len(used), players),
            "wins": x if players >= 2 else None,
            "outright": outright, "shared": shared,
            "fair": 1 / players if players >= 2 else None,
            "ranks": [ranks.get(k, 0) for k in range(1, players + 1)],
            "score": _score_block([[r.known_scores[s]] for r in used], seed, f"score.seat{s}", b),
        })
    return out


def _kinds(used: Sequence[RunRecord], players: int, seed, b: int, rotate: bool, lineup: str) -> list[dict]:
    codes = sorted({c for r in used for c in r.lineup[:players]} | set(lineup))
    if len(codes) < 2 and not rotate:
        return []
    out = []
    for code in codes:
        occ = [(r, s) for r in used for s in range(players) if s < len(r.lineup) and r.lineup[s] == code]
        n = len(occ)
        x = sum(r.known_shares[s] for r, s in occ)
        win = _win_block(x, n, players)
        order = None
        if (code != "R" and players >= 2 and used and win is not None
                and all(sum(1 for c in r.lineup[:players] if c == code) == 1
                        and all(c in (code, "R") for c in r.lineup[:players]) for r in used)):
            f = 1 / players
            value, lo, hi = ((w - f) / (1 - f) for w in (win["value"], win["lo"], win["hi"]))
            order = interval(value, lo, hi, n)
        ranks = Counter(ranks_of(r)[s] for r, s in occ)
        out.append({
            "kind": code, "n": n, "win_rate": win, "wins": x if players >= 2 else None,
            "outright": sum(1 for r, s in occ if winners_of(r) == [s]),
            "shared": sum(1 for r, s in occ if s in winners_of(r) and len(winners_of(r)) >= 2),
            "fair": 1 / players if players >= 2 else None,
            "ranks": [ranks.get(k, 0) for k in range(1, players + 1)],
            "order": order,
            "score": _score_block([[r.known_scores[s] for s in range(players)
                                    if s < len(r.lineup) and r.lineup[s] == code]
                                   for r in used], seed, f"score.kind.{code}", b),
        })
    return out


def _ties(used: Sequence[RunRecord], players: int) -> dict:
    n = len(used)
    first = sum(1 for r in used if len(winners_of(r)) >= 2)
    anytie = sum(1 for r in used if len(set(ranks_of(r))) < len(ranks_of(r)))
    lo, hi = wilson(first, n)
    alo, ahi = wilson(anytie, n)
    return {"n": n,
            "first": {"count": first, "rate": interval(first / n, lo, hi, n) if n else None},
            "any": {"count": anytie, "rate": interval(anytie / n, alo, ahi, n) if n else None}}


def _teams(used: Sequence[RunRecord], teams: Sequence[Sequence[int]] | None, players: int) -> list | None:
    if not teams:
        return None
    out = []
    for t, members in enumerate(teams):
        x = sum(sum(r.known_shares[s] for s in members) for r in used)
        out.append({"team": t, "members": list(members), "n": len(used),
                    "win_rate": _win_block(x, len(used), len(teams)),
                    "wins": x, "fair": 1 / len(teams) if len(teams) >= 2 else None})
    return out


def _errors(records: Sequence[RunRecord], limit: int = 5) -> list[dict]:
    seen, out = set(), []
    for r in records:
        if r.end_reason == "error" and r.error is not None and r.error not in seen:
            seen.add(r.error)
            out.append({"message": r.error, "run": r.run, "game_seed": r.game_seed})
            if len(out) == limit:
                break
    return out


def analyze(records: Sequence[RunRecord], *, game: str, direction: str, players: int, seed: int,
            lineup: str | Sequence[str], rotate: bool = False, teams: Sequence[Sequence[int]] | None = None,
            include_limited: bool = False, bootstrap: int = 1000) -> dict:
    """§3.3-§3.4: the statistics part of summary.json (runs, errors, length, branching, seats, kinds, ties, teams)."""
    lineup = "".join(lineup)
    counts = Counter(r.end_reason for r in records)
    used = outcome_runs(records, include_limited)
    outcomes = outcome_block(records)
    return {
        "game": game,
        "direction": direction,
        "direction_text": direction_text(direction),
        "runs": {"requested": len(records), **{k: counts.get(k, 0) for k in END_REASONS},
                 "used": len(used), "used_length": len(length_runs(records)),
                 "include_limited": include_limited},
        "errors": _errors(records),
        "length": _length(records, seed, bootstrap),
        "branching": _branching(records, seed, bootstrap),
        "seats": _seats(used, players, seed, bootstrap),
        "kinds": _kinds(used, players, seed, bootstrap, rotate, lineup),
        "ties": _ties(used, players),
        "teams": _teams(used, teams, players),
        "outcomes": {k: v for k, v in outcomes.items() if k != "warnings"},
        "warnings": outcomes["warnings"],
    }


def timing_stats(records: Sequence[RunRecord], wall_seconds: float | None = None) -> dict:
    """Timing figures (the only place timings go): median ms per run and, given the wall time, rates."""
    ms = sorted(r.ms for r in records)
    out = {"median_ms": quantile(ms, 0.5) if ms else None}
    if wall_seconds is not None:
        out["wall_seconds"] = wall_seconds
        out["games_per_second"] = len(records) / wall_seconds if wall_seconds > 0 else None
        out["decisions_per_second"] = (sum(r.decisions for r in records) / wall_seconds
                                       if wall_seconds > 0 else None)
    return out


