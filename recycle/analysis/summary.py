"""Statistics over a batch of runs (flow-and-analytics §3.2-§3.4, §3.6, §3.7): length, branching,
outcomes by seat, kind and team, ties, timing, the summary document, its CSVs and its text.

Inputs are the per-run `RunRecord`s of `recycle.run` plus what describes the batch (game stem,
scoring direction, number of players, batch seed, lineup).  Nothing here reads engine internals.

    stats = analyze(records, game="Hearts4", direction="min", players=4, seed=42, lineup="RRRR")
    write_branching_csv(out / "branching_by_index.csv", "Hearts4", 4, "RRRR", branching_by_index(records))
    write_seats_csv(out / "seats.csv", "Hearts4", 4, "RRRR", stats)
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..run.records import RunRecord
from ..run.tables import KEY_COLUMNS, write_csv
from .runs import (
    END_REASONS,
    LIMIT_REASONS,
    SAMPLED_METHOD,
    boot_seed,
    branching_values,
    direction_text,
    interval,
    length_runs,
    limit_lines_of,
    mean_ci,
    outcome_block,
    outcome_runs,
    ranks_of,
    winners_of,
)
from .stats import bootstrap_apply, describe, quantile, sd, wilson

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


def _win_block(x: float, n: int, players: int) -> dict | None:
    if players < 2 or n <= 0:
        return None
    lo, hi = wilson(x, n)
    return interval(x / n, lo, hi, n)


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


def summary_document(stats: dict, *, game_sha256: str, players: int, lineup: str | Sequence[str], rotate: bool,
                     seed: int, interpreter: str, params: dict, information: dict | None = None,
                     heuristics: dict | None = None, timing: dict | None = None,
                     files: list | None = None) -> dict:
    """§3.6 summary.json: the top-level keys in order, from analyze() plus what the caller knows."""
    doc = {
        "format": "recycle-analytics", "version": 1, "game": stats["game"], "game_sha256": game_sha256,
        "players": players, "lineup": "".join(lineup), "rotate": rotate, "seed": seed,
        "interpreter": interpreter, "params": params, "direction": stats["direction"],
        "direction_text": stats.get("direction_text"),
        "runs": stats["runs"], "errors": stats["errors"], "length": stats["length"],
        "branching": stats["branching"], "seats": stats["seats"], "kinds": stats["kinds"],
        "ties": stats["ties"], "outcomes": stats.get("outcomes"), "warnings": stats.get("warnings", []),
        "teams": stats["teams"], "information": information,
    }
    if heuristics is not None:
        doc["heuristics"] = heuristics
    doc["timing"] = timing
    doc["files"] = files if files is not None else []
    return doc


# ---------------------------------------------------------------- §3.6 CSVs


def write_branching_csv(path: Path, game: str, players: int, lineup: str | Sequence[str],
                        rows: Sequence[dict]) -> Path:
    """branching_by_index.csv: key columns (run empty), then decision, n_runs, mean, sd, median, min, max."""
    path = Path(path)
    key = [game, players, "".join(lineup), None]
    write_csv(path, [*KEY_COLUMNS, "decision", "n_runs", "mean", "sd", "median", "min", "max"],
               ([*key, r["decision"], r["n_runs"], r["mean"], r["sd"], r["median"], r["min"], r["max"]]
                for r in rows))
    return path


SEAT_COLUMNS = ["seat", "kind", "n", "win_rate", "win_lo", "win_hi", "outright", "shared", "score_mean",
                "score_lo", "score_hi", "score_sd", "score_min", "score_q1", "score_median", "score_q3",
                "score_max"]


def seat_rows(stats: dict) -> list[list]:
    """The seats.csv rows (without key columns): one per seat, then one per kind with seat empty."""
    rows = []
    for entry in list(stats["seats"]) + list(stats["kinds"]):
        w = entry["win_rate"] or {}
        sc = entry["score"]
        m = sc["mean"] or {}
        rows.append([entry.get("seat"), entry.get("kind"), entry["n"], w.get("value"), w.get("lo"), w.get("hi"),
                     entry["outright"], entry["shared"], m.get("value"), m.get("lo"), m.get("hi"), sc["sd"],
                     sc["min"], sc["q1"], sc["median"], sc["q3"], sc["max"]])
    return rows


def write_seats_csv(path: Path, game: str, players: int, lineup: str | Sequence[str], stats: dict) -> Path:
    """seats.csv: key columns (run empty), then the §3.6 seat columns; kind rows have seat empty."""
    path = Path(path)
    key = [game, players, "".join(lineup), None]
    write_csv(path, KEY_COLUMNS + SEAT_COLUMNS, (key + row for row in seat_rows(stats)))
    return path


def _number(fmt: str, v) -> str:
    """fmt.format(v), or for an integer past a float's range its leading digits and exponent."""
    try:
        return fmt.format(v)
    except OverflowError:
        digits = str(abs(int(v)))
        return f"{'-' if v < 0 else ''}{digits[0]}.{digits[1:4]}e+{len(digits) - 1}"


def num_text(v, fmt="{:.3f}"):
    return "  n/a" if v is None else _number(fmt, v)


def _ci_text(obj, fmt="{:.3f}") -> str:
    if obj is None:
        return "n/a"
    s = _number(fmt, obj["value"])
    if obj.get("lo") is not None:
        s += f" [{_number(fmt, obj['lo'])}, {_number(fmt, obj['hi'])}]"
    return s


def format_summary(stats: dict, information: dict | None = None) -> str:
    """The short text summary of §3.6: length, branching, win rates, ties, limits/errors, categories."""
    runs, le, br = stats["runs"], stats["length"], stats["branching"]
    out = [f"{stats['game']}: {runs['requested']} runs ({runs['normal']} normal, "
           f"{sum(runs.get(k, 0) for k in LIMIT_REASONS)} at a limit, {runs['error']} errors; "
           f"{runs['used']} used for outcomes; {direction_text(stats['direction'])})"]
    out.extend(limit_lines_of(runs))
    if le["mean"] is not None:
        out.append(f"Length      {_ci_text(le['mean'], '{:.1f}')} decisions; median {le['median']:g}, "
                   f"range {le['min']}-{le['max']}")
    if br["run_mean"] is not None:
        big = "{:.3g}" if br.get("estimated") and br["max"] >= 1e6 else "{:.2f}"  # estimates run to 1e30 and more
        out.append(f"Branching   mean {_number(big, br['mean'])} per decision, median {br['median']:g}, "
                   f"max {br['max']:g}; forced share {br['forced_share']:.3f}")
        if br.get("estimated"):
            out.append(f"            estimated: {br['sampled_decisions']} of {br['points']} decisions sample their "
                       f"atomic blocks and count by their estimated number of paths (options listed: mean "
                       f"{br['listed_mean']:.2f}, max {br['listed_max']})")
    if br["slope"] is not None:
        big = "{:.3g}" if br.get("estimated") and br["max"] >= 1e6 else "{:.3f}"
        out.append(f"            slope {_ci_text(br['slope'], big)}; "
                   f"log10 tree size {_ci_text(br['log10_tree'], '{:.1f}')}")
    if stats["seats"] and stats["seats"][0]["win_rate"] is not None:
        out.append("Seat  kind  win rate [95% CI]       outright  shared  mean score")
        for s in stats["seats"] + stats["kinds"]:
            label = s.get("label") or "kind"
            sm = s["score"]["mean"]
            out.append(f"{label:<5} {s.get('kind') or '-':<5} {_ci_text(s['win_rate']):<23} "
                       f"{s['outright']:>8}  {s['shared']:>6}  {num_text(sm['value'] if sm else None, '{:.2f}')}")
        t = stats["ties"]["first"]
        out.append(f"Ties for first: {t['count']} ({_ci_text(t['rate'])})")
    elif stats["seats"] and stats["seats"][0].get("fair") is None:
        out.append("Win rates: not applicable (one player)")
    elif stats["seats"]:
        out.append("Win rates: no game with an outcome to count")
    oc = stats.get("outcomes")
    if oc and oc["n"]:
        out.append("Outcomes    " + "; ".join(f"{k} {oc[k]['count']} ({_ci_text(oc[k]['rate'])})"
                                             for k in ("decided", "tie", "draw", "void", "limit")))
    for w in stats.get("warnings", []):
        out.append(f"Warning: {w}")
    for e in stats["errors"]:
        out.append(f"error in run {e['run']} (game seed {e['game_seed']}): {e['message']}")
    if information is not None:
        cats = information.get("categories", [])
        out.append("Information: " + (", ".join(cats) if cats else "none derived"))
    return "\n".join(out)


# ---------------------------------------------------------------- §3.7 smoother (shared with the plots)


def kernel_smooth(k: npt.ArrayLike, b: npt.ArrayLike, grid: npt.ArrayLike, h: float):
    """§3.7 Gaussian-kernel weighted mean and its standard error at each grid point.

    A point's weight depends on its k alone, so the points are grouped by distinct k first: time and
    memory grow with grid points x distinct k, not grid points x points (a weight matrix over every
    point of a 100,000-game Hearts batch, 5.2 million of them, would take 8 GB).  Within a group of
    n points with mean m, sum (b_i - y)^2 = M2 + n (m - y)^2, where M2 is the group's own sum of
    squared deviations (computed about m, so nothing cancels)."""
    ka = np.asarray(k, dtype=float)
    ba = np.asarray(b, dtype=float)
    x = np.asarray(grid, dtype=float)
    keys, group = np.unique(ka, return_inverse=True)
    n = np.bincount(group, minlength=len(keys)).astype(float)
    total = np.bincount(group, weights=ba, minlength=len(keys))
    with np.errstate(invalid="ignore", divide="ignore"):
        m = total / n
        m2 = np.bincount(group, weights=(ba - m[group]) ** 2, minlength=len(keys))
        w = np.exp(-0.5 * ((keys[None, :] - x[:, None]) / h) ** 2)
        sw = w @ n
        yhat = (w @ total) / sw
        se = np.sqrt((w ** 2 * (m2[None, :] + n[None, :] * (m[None, :] - yhat[:, None]) ** 2)).sum(axis=1)) / sw
    return yhat, se
