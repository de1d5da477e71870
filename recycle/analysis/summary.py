"""Statistics over a batch of runs (flow-and-analytics §3.2-§3.4, §3.6, §3.7): length, branching,
outcomes by seat, kind and team, ties, timing, the summary document, its CSVs and its text.

Inputs are the per-run `RunRecord`s of `recycle.run` plus what describes the batch (game stem,
scoring direction, number of players, batch seed, lineup).  Nothing here reads engine internals.

    stats = analyze(records, game="Hearts4", direction="min", players=4, seed=42, lineup="RRRR")
    write_branching_csv(out / "branching_by_index.csv", "Hearts4", 4, "RRRR", branching_by_index(records))
    write_seats_csv(out / "seats.csv", "Hearts4", 4, "RRRR", stats)
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..run.records import RunRecord
from ..run.tables import KEY_COLUMNS, write_csv
from .runs import LIMIT_REASONS, direction_text, limit_lines_of
from .statfigures import branching_rows, stats_of, timing_of
from .statstally import StatsTally

# ---------------------------------------------------------------- §3.3-§3.4 from a list of records


def branching_by_index(records: Sequence[RunRecord]) -> list[dict]:
    """§3.3: for k = 1 .. max L, n_k runs with L >= k and mean, sd, median, min, max of b at k
    (a sampled decision's b is its estimated number of paths: analysis.runs.branching_values)."""
    return branching_rows(StatsTally.of(records, 1))


def analyze(records: Sequence[RunRecord], *, game: str, direction: str, players: int, seed: int,
            lineup: str | Sequence[str], rotate: bool = False, teams: Sequence[Sequence[int]] | None = None,
            include_limited: bool = False, bootstrap: int = 1000) -> dict:
    """§3.3-§3.4: the statistics part of summary.json (runs, errors, length, branching, seats, kinds, ties, teams).
    (`recycle stats` tallies the records game by game instead: analysis.statstally.)"""
    tally = StatsTally.of(records, players, include_limited, teams)
    return stats_of(tally, game=game, direction=direction, seed=seed, lineup=lineup, rotate=rotate,
                    bootstrap=bootstrap)


def timing_stats(records: Sequence[RunRecord], wall_seconds: float | None = None) -> dict:
    """Timing figures (the only place timings go): median ms per run and, given the wall time, rates."""
    return timing_of(StatsTally.of(records, 1), wall_seconds)


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
    keys, group = np.unique(ka, return_inverse=True)
    n = np.bincount(group, minlength=len(keys)).astype(float)
    total = np.bincount(group, weights=ba, minlength=len(keys))
    with np.errstate(invalid="ignore", divide="ignore"):
        m = total / n
        m2 = np.bincount(group, weights=(ba - m[group]) ** 2, minlength=len(keys))
    return smooth_groups(keys, n, total, m2, grid, h)


def smooth_groups(keys, n, total, m2, grid: npt.ArrayLike, h: float):
    """kernel_smooth from the points grouped by k: the distinct k (`keys`, sorted) and for each its number
    of points, their sum (added in point order) and their sum of squared deviations from their mean."""
    x = np.asarray(grid, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        m = total / n
        w = np.exp(-0.5 * ((keys[None, :] - x[:, None]) / h) ** 2)
        sw = w @ n
        yhat = (w @ total) / sw
        se = np.sqrt((w ** 2 * (m2[None, :] + n[None, :] * (m[None, :] - yhat[:, None]) ** 2)).sum(axis=1)) / sw
    return yhat, se
