"""Statistics over a batch of runs (flow-and-analytics §3.2-§3.4, §3.6, §3.8) and the
game-quality heuristics of §4: those an all-random batch gives and, from the estimates of
searching players (§3.5, `RunRecord.estimates`), the AI ones (`ai_heuristics`, `order_heuristic`,
lead.csv and spread.csv with `write_estimate_csvs`).

Inputs are the per-run `RunRecord`s of `recycle.batch` plus what describes the batch
(game stem, scoring direction, number of players, batch seed, lineup).  Nothing here
reads engine internals.

    stats = analyze(records, game="Hearts4", direction="min", players=4, seed=42, lineup="RRRR")
    write_branching_csv(out / "branching_by_index.csv", "Hearts4", 4, "RRRR", branching_by_index(records))
    write_seats_csv(out / "seats.csv", "Hearts4", 4, "RRRR", stats)
    h = heuristics(records, players=4, seed=42, has_shuffle_and_choice=True)
    write_heuristics(out, h, game="Hearts4", players=4)

Which runs are used (§3.2): length and branching use every run that did not end in
`error` (limit runs are used and counted in `limited`); outcomes and heuristics use the
runs that ended `normal` (plus limit runs with `include_limited`) and have scores.

Every statistic with an interval is `{"value", "lo", "hi", "n"}`; `None` (JSON null)
means not applicable.  Bootstrap intervals resample runs with the stream
`derive(S, "bootstrap", name)`; the names used are listed in `BOOTSTRAP_NAMES`.
"""
from __future__ import annotations

import math
from collections import Counter
from pathlib import Path
from typing import Iterable, Optional, Sequence

import numpy as np

from .batch import KEY_COLUMNS, RunRecord, _write_csv
from .engine.algorithms import derive
from .stats import bootstrap_apply, describe, quantile, sd, wilson

__all__ = [
    "LIMIT_REASONS", "END_REASONS", "HEURISTICS", "NOT_APPLICABLE_AI", "BOOTSTRAP_NAMES",
    "length_runs", "outcome_runs", "interval", "branching_by_index", "analyze", "summary_document",
    "write_branching_csv", "write_seats_csv", "seat_rows", "heuristics", "write_heuristics",
    "format_heuristics", "format_summary", "timing_stats", "kernel_smooth",
    "ai_heuristics", "order_heuristic", "lead_rows", "spread_rows", "write_estimate_csvs", "AI_HEURISTICS",
]

END_REASONS = ("normal", "decision_limit", "step_limit", "error")
LIMIT_REASONS = ("decision_limit", "step_limit")

# §4 table: name -> (weight, status when computable, batch it reads)
HEURISTICS = {
    "Fairness": (0.5, "active", "R"),
    "MeaningfulMoves": (0.5, "active", "M"),
    "Drama": (0.25, "active", "M"),
    "Decisiveness": (0.4, "active", "M"),
    "Coolness": (0.5, "active", "M"),
    "Security": (0.0, "extra", "M"),
    "SeatFairness": (0.0, "extra", "R"),
    "Clarity": (0.0, "extra", "M"),
    "Stability": (0.0, "extra", "M"),
    "NoTies": (0.0, "extra", "R"),
    "GameLength": (0.0, "extra", "R"),
    "Order": (0.0, "extra", "A"),
}
MAX_TOTAL = 2.15
NOT_APPLICABLE_AI = "needs the estimates of a searching player (recycle stats --heuristics)"

BOOTSTRAP_NAMES = {
    "length.mean": "mean game length L",
    "branching.run_mean": "mean over runs of the per-run mean branching factor",
    "branching.log10_tree": "mean log10 tree size",
    "branching.slope": "mean least-squares slope of b against k",
    "score.seat<s>": "mean score of seat s (0-based)",
    "score.kind.<code>": "mean score of a player kind",
    "heuristic.<Name>": "a §4 heuristic",
}


# ---------------------------------------------------------------- selections


def length_runs(records: Sequence[RunRecord]) -> list[RunRecord]:
    """Runs used for length and branching: all but `error`."""
    return [r for r in records if r.end_reason != "error"]


def outcome_runs(records: Sequence[RunRecord], include_limited: bool = False) -> list[RunRecord]:
    """Runs used for outcomes and heuristics: `normal` (and limits if asked) with scores."""
    ok = ("normal",) + (LIMIT_REASONS if include_limited else ())
    return [r for r in records if r.end_reason in ok and r.scores is not None and r.shares is not None]


def interval(value, lo=None, hi=None, n=None) -> Optional[dict]:
    """The §3.6 interval object; None when the value is not applicable."""
    if value is None:
        return None
    return {"value": value, "lo": lo, "hi": hi, "n": n}


def _boot_seed(seed, name: str) -> int:
    return derive(seed, "bootstrap", name)


def _mean_ci(xs: Sequence[float], seed, name: str, b: int) -> Optional[dict]:
    """Mean with a bootstrap CI over the runs (null when there are none)."""
    if not xs:
        return None
    a = np.asarray(xs, dtype=float)
    lo, hi = bootstrap_apply(len(a), _boot_seed(seed, name), lambda idx: a[idx].mean(axis=1), b)
    return interval(float(a.mean()), lo, hi, len(a))


def _ranks(r: RunRecord) -> list:
    return list(r.ranks) if r.ranks is not None else [1 if s in r.winners else 2 for s in range(len(r.scores))]


def _winners(r: RunRecord) -> list[int]:
    if r.ranks is not None:
        return [s for s, k in enumerate(r.ranks) if k == 1]
    return list(r.winners)


# ---------------------------------------------------------------- §3.3 length and branching


def branching_by_index(records: Sequence[RunRecord]) -> list[dict]:
    """§3.3: for k = 1 .. max L, n_k runs with L >= k and mean, sd, median, min, max of b at k."""
    runs = [[b for (_p, b, _c) in r.decision_rows] for r in length_runs(records)]
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
        "mean": _mean_ci(L, seed, "length.mean", b),
        "sd": d["sd"], "min": d["min"], "q1": d["q1"], "median": d["median"], "q3": d["q3"], "max": d["max"],
        "limited": limited,
        "max_is_limit": bool(limited) and d["max"] == max(r.decisions for r in used if r.end_reason in LIMIT_REASONS),
        "forced_share": sum(forced_share) / len(forced_share) if forced_share else None,
        "turns": sum(r.turns for r in used) / len(used) if used else None,
        "moves": sum(r.moves for r in used) / len(used) if used else None,
    }


def _branching(records: Sequence[RunRecord], seed, b: int) -> dict:
    used = length_runs(records)
    per_run = [[bb for (_p, bb, _c) in r.decision_rows] for r in used]
    pooled = sorted(x for bs in per_run for x in bs)
    run_means = [sum(bs) / len(bs) for bs in per_run if bs]
    trees = [sum(math.log10(x) for x in bs) for bs in per_run if bs and all(x >= 1 for x in bs)]
    slopes = [_slope(bs) for bs in per_run if len(bs) >= 2]
    return {
        "points": len(pooled),
        "mean": sum(pooled) / len(pooled) if pooled else None,
        "median": quantile(pooled, 0.5) if pooled else None,
        "max": pooled[-1] if pooled else None,
        "run_mean": _mean_ci(run_means, seed, "branching.run_mean", b),
        "forced_share": sum(1 for x in pooled if x == 1) / len(pooled) if pooled else None,
        "log10_tree": _mean_ci(trees, seed, "branching.log10_tree", b),
        "slope": _mean_ci(slopes, seed, "branching.slope", b),
        "max_index": max((len(bs) for bs in per_run), default=0),
    }


# ---------------------------------------------------------------- §3.4 outcomes


def _score_block(values_by_run: Sequence[Sequence[float]], seed, name: str, b: int) -> dict:
    """Score distribution pooled over runs, with a run-resampled bootstrap CI of the mean."""
    flat = [v for vs in values_by_run for v in vs]
    d = describe(flat)
    mean_ci = None
    if flat:
        sums = np.array([sum(vs) for vs in values_by_run], dtype=float)
        cnts = np.array([len(vs) for vs in values_by_run], dtype=float)

        def stat(idx):
            c = cnts[idx].sum(axis=1)
            return np.where(c > 0, sums[idx].sum(axis=1) / np.maximum(c, 1), np.nan)

        lo, hi = bootstrap_apply(len(values_by_run), _boot_seed(seed, name), stat, b)
        if lo is not None and (math.isnan(lo) or math.isnan(hi)):
            lo = hi = None
        mean_ci = interval(d["mean"], lo, hi, len(flat))
    return {"mean": mean_ci, "sd": d["sd"], "min": d["min"], "q1": d["q1"], "median": d["median"],
            "q3": d["q3"], "max": d["max"]}


def _win_block(x: float, n: int, players: int) -> Optional[dict]:
    if players < 2 or n <= 0:
        return None
    lo, hi = wilson(x, n)
    return interval(x / n, lo, hi, n)


def _seats(used: Sequence[RunRecord], players: int, seed, b: int) -> list[dict]:
    out = []
    for s in range(players):
        x = sum(r.shares[s] for r in used)
        outright = sum(1 for r in used if _winners(r) == [s])
        shared = sum(1 for r in used if s in _winners(r) and len(_winners(r)) >= 2)
        ranks = Counter(_ranks(r)[s] for r in used)
        kinds = {r.lineup[s] for r in used if s < len(r.lineup)}
        out.append({
            "seat": s, "label": f"p{s + 1}", "kind": kinds.pop() if len(kinds) == 1 else None,
            "n": len(used),
            "win_rate": _win_block(x, len(used), players),
            "wins": x if players >= 2 else None,
            "outright": outright, "shared": shared,
            "fair": 1 / players if players >= 2 else None,
            "ranks": [ranks.get(k, 0) for k in range(1, players + 1)],
            "score": _score_block([[r.scores[s]] for r in used], seed, f"score.seat{s}", b),
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
        x = sum(r.shares[s] for r, s in occ)
        win = _win_block(x, n, players)
        order = None
        if (code != "R" and players >= 2 and used and win is not None
                and all(sum(1 for c in r.lineup[:players] if c == code) == 1
                        and all(c in (code, "R") for c in r.lineup[:players]) for r in used)):
            f = 1 / players
            to = lambda w: (w - f) / (1 - f)  # noqa: E731
            order = interval(to(win["value"]), to(win["lo"]), to(win["hi"]), n)
        ranks = Counter(_ranks(r)[s] for r, s in occ)
        out.append({
            "kind": code, "n": n, "win_rate": win, "wins": x if players >= 2 else None,
            "outright": sum(1 for r, s in occ if _winners(r) == [s]),
            "shared": sum(1 for r, s in occ if s in _winners(r) and len(_winners(r)) >= 2),
            "fair": 1 / players if players >= 2 else None,
            "ranks": [ranks.get(k, 0) for k in range(1, players + 1)],
            "order": order,
            "score": _score_block([[r.scores[s] for s in range(players) if s < len(r.lineup) and r.lineup[s] == code]
                                   for r in used], seed, f"score.kind.{code}", b),
        })
    return out


def _ties(used: Sequence[RunRecord], players: int) -> dict:
    n = len(used)
    first = sum(1 for r in used if len(_winners(r)) >= 2)
    anytie = sum(1 for r in used if len(set(_ranks(r))) < len(_ranks(r)))
    lo, hi = wilson(first, n)
    return {"n": n,
            "first": {"count": first, "rate": interval(first / n, lo, hi, n) if n else None},
            "any": {"count": anytie, "rate": anytie / n if n else None}}


def _teams(used: Sequence[RunRecord], teams: Optional[Sequence[Sequence[int]]], players: int) -> Optional[list]:
    if not teams:
        return None
    out = []
    for t, members in enumerate(teams):
        x = sum(sum(r.shares[s] for s in members) for r in used)
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
            lineup: str | Sequence[str], rotate: bool = False, teams: Optional[Sequence[Sequence[int]]] = None,
            include_limited: bool = False, bootstrap: int = 1000) -> dict:
    """§3.3-§3.4: the statistics part of summary.json (runs, errors, length, branching, seats, kinds, ties, teams)."""
    lineup = "".join(lineup)
    counts = Counter(r.end_reason for r in records)
    used = outcome_runs(records, include_limited)
    return {
        "game": game,
        "direction": direction,
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
    }


def timing_stats(records: Sequence[RunRecord], wall_seconds: Optional[float] = None) -> dict:
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
                     seed: int, interpreter: str, params: dict, information: Optional[dict] = None,
                     heuristics: Optional[dict] = None, timing: Optional[dict] = None,
                     files: Optional[list] = None) -> dict:
    """§3.6 summary.json: the top-level keys in order, from analyze() plus what the caller knows."""
    doc = {
        "format": "recycle-analytics", "version": 1, "game": stats["game"], "game_sha256": game_sha256,
        "players": players, "lineup": "".join(lineup), "rotate": rotate, "seed": seed,
        "interpreter": interpreter, "params": params, "direction": stats["direction"],
        "runs": stats["runs"], "errors": stats["errors"], "length": stats["length"],
        "branching": stats["branching"], "seats": stats["seats"], "kinds": stats["kinds"],
        "ties": stats["ties"], "teams": stats["teams"], "information": information,
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
    _write_csv(path, KEY_COLUMNS + ["decision", "n_runs", "mean", "sd", "median", "min", "max"],
               (key + [r["decision"], r["n_runs"], r["mean"], r["sd"], r["median"], r["min"], r["max"]]
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
    _write_csv(path, KEY_COLUMNS + SEAT_COLUMNS, (key + row for row in seat_rows(stats)))
    return path


# ---------------------------------------------------------------- §4 heuristics


def _triangle(p, f):
    return p / f if p <= f else (1 - p) / (1 - f)


def _game_length_score(mean_l, lmin, lmax):
    if mean_l < lmin:
        return mean_l / lmin
    if mean_l > lmax:
        return lmax / mean_l
    return 1.0


def _entry(name, value=None, lo=None, hi=None, n_runs=0, status=None, note=""):
    weight, default_status, batch = HEURISTICS[name]
    status = status or default_status
    weighted = weight * value if value is not None else None
    return {"name": name, "value": value, "lo": lo, "hi": hi, "weight": weight, "weighted": weighted,
            "n_runs": n_runs, "status": status, "note": note, "batch": batch}


def heuristics(records: Sequence[RunRecord], *, players: int, seed: int, has_shuffle_and_choice: bool,
               lmin: float = 5, lmax: float = 100, bootstrap: int = 1000, include_limited: bool = False,
               other_batches: Iterable[Sequence[RunRecord]] = (), ai_records: Optional[Sequence[RunRecord]] = None,
               vs_records: Optional[Sequence[RunRecord]] = None, ai_code: Optional[str] = None) -> dict:
    """§4 from the all-random batch R: Fairness, SeatFairness, NoTies, GameLength; and, given the all-AI batch M
    (`ai_records`, with estimates) and the rotated AI-vs-random batch A (`vs_records`, AI kind `ai_code`), the
    AI heuristics; without them those are not_applicable.  Every batch given counts for the reasonable gate."""
    used = outcome_runs(records, include_limited)
    N = len(used)
    entries = {}
    shares = np.array([r.shares[:players] for r in used], dtype=float).reshape(N, players)
    na_reason = "one seat" if players < 2 else ("no used run" if N == 0 else None)

    # Fairness: triangle of p1's win rate around 1/n, bootstrapped over R's runs
    if na_reason:
        entries["Fairness"] = _entry("Fairness", status="not_applicable", note=na_reason)
        entries["SeatFairness"] = _entry("SeatFairness", status="not_applicable", note=na_reason)
    else:
        f = 1 / players
        p1 = shares[:, 0]
        tri = np.vectorize(lambda p: _triangle(p, f))
        lo, hi = bootstrap_apply(N, _boot_seed(seed, "heuristic.Fairness"), lambda idx: tri(p1[idx].mean(axis=1)),
                                 bootstrap)
        entries["Fairness"] = _entry("Fairness", _triangle(float(p1.mean()), f), lo, hi, N,
                                     note=f"p1 wins {float(p1.mean()):.3f}, fair share {f:.3f}")

        def seat_fair(w):
            return 1 - np.abs(w - f).sum(axis=-1) / (2 * (1 - f))

        lo, hi = bootstrap_apply(N, _boot_seed(seed, "heuristic.SeatFairness"),
                                 lambda idx: seat_fair(shares[idx].mean(axis=1)), bootstrap)
        entries["SeatFairness"] = _entry("SeatFairness", float(seat_fair(shares.mean(axis=0))), lo, hi, N)

    for name in ("MeaningfulMoves", "Drama", "Decisiveness", "Coolness", "Security", "Clarity", "Stability", "Order"):
        entries[name] = _entry(name, status="not_applicable", note=NOT_APPLICABLE_AI)
    if ai_records is not None:
        entries.update(ai_heuristics(ai_records, players=players, seed=seed, bootstrap=bootstrap,
                                     include_limited=include_limited))
    if vs_records is not None and ai_code is not None:
        entries["Order"] = order_heuristic(vs_records, ai_code, players=players, include_limited=include_limited)

    if N == 0:
        entries["NoTies"] = _entry("NoTies", status="not_applicable", note="no used run")
        entries["GameLength"] = _entry("GameLength", status="not_applicable", note="no used run")
    else:
        ties = sum(1 for r in used if len(_winners(r)) >= 2)
        lo, hi = wilson(N - ties, N)
        entries["NoTies"] = _entry("NoTies", 1 - ties / N, lo, hi, N, note=f"{ties} of {N} runs tied for first")
        L = np.array([r.decisions for r in used], dtype=float)
        gl = np.vectorize(lambda m: _game_length_score(m, lmin, lmax))
        lo, hi = bootstrap_apply(N, _boot_seed(seed, "heuristic.GameLength"), lambda idx: gl(L[idx].mean(axis=1)),
                                 bootstrap)
        entries["GameLength"] = _entry("GameLength", _game_length_score(float(L.mean()), lmin, lmax), lo, hi, N,
                                       note=f"mean L {float(L.mean()):.1f}, bounds [{lmin:g}, {lmax:g}]")

    ordered = [entries[name] for name in HEURISTICS]
    total = sum(e["weight"] * e["value"] for e in ordered if e["status"] == "active" and e["value"] is not None)

    reasons = []
    if not has_shuffle_and_choice:
        reasons.append("the game has no shuffle or no choice")
    all_records = list(records) + [r for batch in other_batches for r in batch]
    all_records += list(ai_records or ()) + list(vs_records or ())
    n_err = sum(1 for r in all_records if r.end_reason == "error")
    n_lim = sum(1 for r in all_records if r.end_reason in LIMIT_REASONS)
    if n_err:
        reasons.append(f"{n_err} run{'s' if n_err != 1 else ''} ended with an error")
    if n_lim:
        reasons.append(f"{n_lim} run{'s' if n_lim != 1 else ''} stopped at a decision or step limit")
    reasonable = not reasons
    return {
        "heuristics": ordered,
        "total": total if reasonable else 0.0,
        "total_normalized": total / MAX_TOTAL if reasonable else 0.0,
        "total_ungated": total,
        "max_total": MAX_TOTAL,
        "reasonable": reasonable,
        "gate_reasons": reasons,
        "params": {"lmin": lmin, "lmax": lmax, "bootstrap": bootstrap, "include_limited": include_limited},
    }


# ---------------------------------------------------------------- §3.5 estimates, §4 AI heuristics


def _est():
    from .players import estimates

    return estimates


def lead_rows(records: Sequence[RunRecord], players: int) -> list[list]:
    """lead.csv rows (key columns first): one per (AI decision, seat k): decision, decider, seat, rank_est
    (ranks[o*][k]), lead (e of k under o*), final_rank."""
    est = _est()
    rows = []
    for r in records:
        key = [None, players, "".join(r.lineup), r.run]
        for e in r.estimates or ():
            ld = est.lead(e, players)
            for k in range(players):
                rows.append(key + [e["decision"], e["decider"], k, e["ranks"][e["chosen"]][k], ld[k],
                                   r.ranks[k] if r.ranks is not None else None])
    return rows


def spread_rows(records: Sequence[RunRecord], players: int) -> list[list]:
    """spread.csv rows (key columns first): one per AI decision: decision, decider, options, spread_score,
    spread_rank, forced."""
    est = _est()
    rows = []
    for r in records:
        key = [None, players, "".join(r.lineup), r.run]
        for e in r.estimates or ():
            sp = est.spread(e, players)
            rows.append(key + [e["decision"], e["decider"], e["options"], sp["spread_score"], sp["spread_rank"],
                               sp["forced"]])
    return rows


def write_estimate_csvs(out: Path, game: str, players: int, records: Sequence[RunRecord]) -> list[str]:
    """lead.csv and spread.csv (§3.6) of a batch whose records carry estimates."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)

    def keyed(rows):
        for row in rows:
            row[0] = game
            yield row

    _write_csv(out / "lead.csv", KEY_COLUMNS + ["decision", "decider", "seat", "rank_est", "lead", "final_rank"],
               keyed(lead_rows(records, players)))
    _write_csv(out / "spread.csv", KEY_COLUMNS + ["decision", "decider", "options", "spread_score", "spread_rank",
                                                  "forced"], keyed(spread_rows(records, players)))
    return ["lead.csv", "spread.csv"]


def _run_ai_values(r: RunRecord, n: int) -> dict:
    """The per-run values of the §4 AI heuristics (a name is missing when the run has no input for it)."""
    est = _est()
    ests = list(r.estimates or ())
    out = {}
    spreads = [est.spread(e, n)["spread_rank"] for e in ests if e["options"] >= 2]
    if spreads:
        out["MeaningfulMoves"] = sum(spreads) / len(spreads)
    clar = [c for c in (est.clarity(e, n) for e in ests) if c is not None]
    if clar:
        out["Clarity"] = sum(clar) / len(clar)
    series = {s: est.self_view(ests, s, n) for s in range(n)}
    tau = (2 * n - 3) / (2 * n - 2)
    drama, decisive, security = [], [], []
    for w in _winners(r):
        v = series.get(w) or []
        if not v:
            continue
        below = [x for x in v if x < tau]
        drama.append(sum(math.sqrt(tau - x) for x in below) / len(below) if below else 0.0)
        L = len(v)
        j = next((t for t, x in enumerate(v, 1) if x > 0.8), L)
        decisive.append(1 - (L - j) / L)
        security.append(1 - len(below) / L)
    if drama:
        out["Drama"] = sum(drama) / len(drama)
        out["Decisiveness"] = sum(decisive) / len(decisive)
        out["Security"] = sum(security) / len(security)
    pairs = sum(max(0, len(v) - 1) for v in series.values())
    if pairs:
        drops = sum(1 for v in series.values() for a, b in zip(v, v[1:]) if b < a)
        out["Coolness"] = 1 - drops / pairs
    if len(ests) >= 2:
        orders = [est.competition_order(est.lead(e, n)) for e in ests]
        changes = [sum(1 for a, b in zip(p, q) if a != b) / n for p, q in zip(orders, orders[1:])]
        out["Stability"] = 1 - sum(changes) / len(changes)
    return out


AI_HEURISTICS = ("MeaningfulMoves", "Drama", "Decisiveness", "Coolness", "Security", "Clarity", "Stability")


def ai_heuristics(records: Sequence[RunRecord], *, players: int, seed: int, bootstrap: int = 1000,
                  include_limited: bool = False) -> dict:
    """§4 heuristics of the all-AI batch M from its estimates: name -> entry (mean over runs, bootstrap CI)."""
    used = outcome_runs(records, include_limited)
    if players < 2:
        return {k: _entry(k, status="not_applicable", note="one seat") for k in AI_HEURISTICS}
    if not used:
        return {k: _entry(k, status="not_applicable", note="no used run") for k in AI_HEURISTICS}
    if not any(r.estimates for r in used):
        return {k: _entry(k, status="not_applicable", note="no AI estimates in the batch") for k in AI_HEURISTICS}
    per_run = [_run_ai_values(r, players) for r in used]
    notes = {"MeaningfulMoves": "runs' mean spread_rank over AI decisions with b >= 2",
             "Drama": f"tau = {(2 * players - 3) / (2 * players - 2):.3f}",
             "Decisiveness": "confidence threshold 0.8",
             "Clarity": "options within 0.1 x spread_rank of the best"}
    out = {}
    for name in AI_HEURISTICS:
        vals = [d[name] for d in per_run if name in d]
        if not vals:
            out[name] = _entry(name, status="not_applicable", note="no run with input for it")
            continue
        ci = _mean_ci(vals, seed, f"heuristic.{name}", bootstrap)
        out[name] = _entry(name, ci["value"], ci["lo"], ci["hi"], len(vals), note=notes.get(name, ""))
    return out


def order_heuristic(records: Sequence[RunRecord], ai_code: str, *, players: int,
                    include_limited: bool = False) -> dict:
    """§4 Order from the rotated AI-vs-random batch A: (W_AI - 1/n) / (1 - 1/n), Wilson CI mapped the same way."""
    used = outcome_runs(records, include_limited)
    if players < 2:
        return _entry("Order", status="not_applicable", note="one seat")
    occ = [(r, s) for r in used for s in range(players) if s < len(r.lineup) and r.lineup[s] == ai_code]
    if not occ:
        return _entry("Order", status="not_applicable", note="no used run")
    x = sum(r.shares[s] for r, s in occ)
    n = len(occ)
    lo, hi = wilson(x, n)
    f = 1 / players
    to = lambda w: (w - f) / (1 - f)  # noqa: E731
    return _entry("Order", to(x / n), to(lo), to(hi), len(used),
                  note=f"{ai_code} wins {x / n:.3f} against random players, fair share {f:.3f}")


HEURISTIC_COLUMNS = ["name", "value", "lo", "hi", "weight", "weighted", "n_runs", "status", "note"]


def write_heuristics(out: Path, result: dict, *, game: str, players: int, lineups: Optional[dict] = None,
                     json_name: str = "heuristics.json") -> list[str]:
    """heuristics.csv (key columns, run empty; lineup of the batch each heuristic reads) and heuristics.json."""
    import json

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    lineups = lineups or {"R": "R" * players}
    _write_csv(out / "heuristics.csv", KEY_COLUMNS + HEURISTIC_COLUMNS,
               ([game, players, lineups.get(e["batch"], ""), None] + [e[c] for c in HEURISTIC_COLUMNS]
                for e in result["heuristics"]))
    (out / json_name).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return ["heuristics.csv", json_name]


def _num(v, fmt="{:.3f}"):
    return "  n/a" if v is None else fmt.format(v)


def format_heuristics(result: dict) -> str:
    """§4 text report: one line per heuristic, the total, the gate line."""
    lines = []
    for e in result["heuristics"]:
        ci = f"[{_num(e['lo'])}, {_num(e['hi'])}]" if e["lo"] is not None else " " * 14
        w = f"w={e['weight']:.2f}"
        tail = f"\u2192 {_num(e['weighted'])}" if e["status"] == "active" and e["value"] is not None else e["status"]
        if e["status"] == "not_applicable":
            tail += f" ({e['note']})"
        lines.append(f"{e['name']:<16}{_num(e['value'])}  {ci}  {w}  {tail}")
    t = result["total"]
    lines.append(f"Total {t:.3f} / {result['max_total']:g} ({result['total_normalized']:.3f})")
    if result["reasonable"]:
        lines.append("Reasonable: yes (shuffle and choice present, no error or limit runs)")
    else:
        lines.append(f"Reasonable: no; total set to 0 (ungated {result['total_ungated']:.3f}): "
                     + "; ".join(result["gate_reasons"]))
    return "\n".join(lines)


def _ci_text(obj, fmt="{:.3f}") -> str:
    if obj is None:
        return "n/a"
    s = fmt.format(obj["value"])
    if obj.get("lo") is not None:
        s += f" [{fmt.format(obj['lo'])}, {fmt.format(obj['hi'])}]"
    return s


def format_summary(stats: dict, information: Optional[dict] = None) -> str:
    """The short text summary of §3.6: length, branching, win rates, ties, limits/errors, categories."""
    runs, le, br = stats["runs"], stats["length"], stats["branching"]
    out = [f"{stats['game']}: {runs['requested']} runs ({runs['normal']} normal, "
           f"{runs['decision_limit'] + runs['step_limit']} at a limit, {runs['error']} errors; "
           f"{runs['used']} used for outcomes)"]
    if le["mean"] is not None:
        out.append(f"Length      {_ci_text(le['mean'], '{:.1f}')} decisions; median {le['median']:g}, "
                   f"range {le['min']}-{le['max']}")
    if br["run_mean"] is not None:
        out.append(f"Branching   mean {br['mean']:.2f} per decision, median {br['median']:g}, max {br['max']}; "
                   f"forced share {br['forced_share']:.3f}")
    if br["slope"] is not None:
        out.append(f"            slope {_ci_text(br['slope'])}; log10 tree size {_ci_text(br['log10_tree'], '{:.1f}')}")
    if stats["seats"] and stats["seats"][0]["win_rate"] is not None:
        out.append("Seat  kind  win rate [95% CI]       outright  shared  mean score")
        for s in stats["seats"] + stats["kinds"]:
            label = s.get("label") or "kind"
            sm = s["score"]["mean"]
            out.append(f"{label:<5} {s.get('kind') or '-':<5} {_ci_text(s['win_rate']):<23} "
                       f"{s['outright']:>8}  {s['shared']:>6}  {_num(sm['value'] if sm else None, '{:.2f}')}")
        t = stats["ties"]["first"]
        out.append(f"Ties for first: {t['count']} ({_ci_text(t['rate'])})")
    elif stats["seats"] and stats["seats"][0].get("fair") is None:
        out.append("Win rates: not applicable (one player)")
    elif stats["seats"]:
        out.append("Win rates: no game with an outcome to count")
    for e in stats["errors"]:
        out.append(f"error in run {e['run']} (game seed {e['game_seed']}): {e['message']}")
    if information is not None:
        cats = information.get("categories", [])
        out.append("Information: " + (", ".join(cats) if cats else "none derived"))
    return "\n".join(out)


# ---------------------------------------------------------------- §3.7 smoother (shared with the plots)


def kernel_smooth(k: Sequence[float], b: Sequence[float], grid: Sequence[float], h: float):
    """§3.7 Gaussian-kernel weighted mean and its standard error at each grid point."""
    k = np.asarray(k, dtype=float)
    b = np.asarray(b, dtype=float)
    x = np.asarray(grid, dtype=float)
    w = np.exp(-0.5 * ((k[None, :] - x[:, None]) / h) ** 2)
    sw = w.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        yhat = (w * b[None, :]).sum(axis=1) / sw
        se = np.sqrt((w ** 2 * (b[None, :] - yhat[:, None]) ** 2).sum(axis=1)) / sw
    return yhat, se
