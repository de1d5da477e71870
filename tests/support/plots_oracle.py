"""The plots of `recycle stats` drawn the plain way, from the whole list of records (before the figures were
tallied game by game): what visualize.plots must draw from a StatsTally, byte for byte.  The drawing is
visualize.plots' own (its draw_* functions); only the reading of the records is the old one.
"""
from __future__ import annotations

from itertools import chain

import numpy as np
from matplotlib.figure import Figure

from recycle.analysis.runs import branching_values, length_runs, outcome_runs
from recycle.analysis.stats import wilson
from recycle.engine.algorithms import derive
from recycle.errors import InternalError
from recycle.visualize.plots import (
    NoPlotData,
    draw_branching,
    draw_length,
    draw_scores,
    draw_winrate,
    kind_color,
    kind_label,
    seat_color,
    seat_label,
    smoother,
)


def branching_figure(records, *, game: str, seed: int) -> Figure:
    """Jittered (decision index, branching) points by deciding seat, with the kernel smoother and band."""
    used = length_runs(records)
    # a sampled decision (language §15.4) counts by its estimated number of paths, drawn on a log scale
    estimated = any(r.sampled for r in used)
    k = np.fromiter(chain.from_iterable(range(1, len(r.decision_rows) + 1) for r in used), dtype=float)
    b = np.fromiter(chain.from_iterable(branching_values(r) for r in used), dtype=float)
    seat = np.fromiter((p for r in used for p, _b, _c in r.decision_rows), dtype=int)
    if not len(k):
        raise NoPlotData("no decision points in the used runs")
    if not len(k) == len(b) == len(seat):
        raise InternalError("branching plot: a run's branching values and decision rows differ in number")
    if estimated:
        b = np.log10(np.maximum(b, 1.0))
    n_points = len(k)
    rng = np.random.default_rng(derive(seed, "plot", "branching"))
    jx = rng.uniform(-0.4, 0.4, n_points)
    jy = rng.uniform(-0.4, 0.4, n_points) * (0.1 if estimated else 1.0)
    seats = sorted(set(seat.tolist()))
    xs = {s: k[seat == s] + jx[seat == s] for s in seats}
    ys = {s: b[seat == s] + jy[seat == s] for s in seats}
    max_l = int(k.max())
    return draw_branching(xs, ys, smoother(k, b, max_l), game=game, estimated=estimated, b_max=float(b.max()),
                          max_l=max_l, n_games=len(used))


def length_figure(records, *, game: str) -> Figure:
    """Histogram of decisions per game; runs stopped at a limit stacked in grey; dashed mean line."""
    used = length_runs(records)
    if not used:
        raise NoPlotData("no used runs")
    normal = np.array([r.decisions for r in used if r.end_reason == "normal"], dtype=np.int64)
    limited = np.array([r.decisions for r in used if r.end_reason != "normal"], dtype=np.int64)
    return draw_length(normal, limited, game=game, n_games=len(used))


def scores_figure(records, *, game: str, players: int, include_limited: bool = False,
                  direction: str | None = None) -> Figure:
    """One violin per seat with a box plot inside it; y is the final score."""
    used = outcome_runs(records, include_limited)
    if not used or players < 1:
        raise NoPlotData("no runs with scores")
    data = [np.array([r.known_scores[s] for r in used], dtype=float) for s in range(players)]
    return draw_scores(data, game=game, direction=direction, n_games=len(used))


def _win_table(groups):
    """[(label, colour, W, lo, hi)] for (label, colour, [(run, seat)]) groups."""
    out = []
    for label, color, occ in groups:
        n = len(occ)
        x = sum(r.known_shares[s] for r, s in occ)
        lo, hi = wilson(x, n)
        out.append((label, color, x / n if n else 0.0, lo, hi))
    return out


def winrate_figure(records, *, game: str, players: int, include_limited: bool = False) -> Figure:
    """Bars of win rate per seat with Wilson CIs and a dashed 1/n line; a kind panel when kinds vary."""
    used = outcome_runs(records, include_limited)
    if players < 2:
        raise NoPlotData("one seat, win rates are not applicable")
    if not used:
        raise NoPlotData("no runs with outcomes")
    seat_rows = _win_table([(seat_label(s), seat_color(s), [(r, s) for r in used]) for s in range(players)])
    kinds = sorted({r.lineup[s] for r in used for s in range(players) if s < len(r.lineup)})
    fixed = all(r.lineup[:players] == used[0].lineup[:players] for r in used)
    kind_rows = None
    if len(kinds) > 1 or not fixed:
        kind_rows = _win_table([
            (kind_label(k), kind_color(i),
             [(r, s) for r in used for s in range(players) if s < len(r.lineup) and r.lineup[s] == k])
            for i, k in enumerate(kinds)])
    return draw_winrate(seat_rows, kind_rows, game=game, players=players, n_games=len(used))
