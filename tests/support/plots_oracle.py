"""The plots of `recycle stats` drawn the plain way, from the whole list of records (before the figures were
tallied game by game): what visualize.plots must draw from a StatsTally, byte for byte.  The drawing
helpers are visualize.plots' own; only the reading of the records is the old one.
"""
from __future__ import annotations

from itertools import chain

import numpy as np
from matplotlib import patheffects
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from recycle.analysis.runs import branching_values, length_runs, outcome_runs
from recycle.analysis.stats import wilson
from recycle.engine.algorithms import derive
from recycle.errors import InternalError
from recycle.visualize.plots import (
    AXIS_COLOR,
    RASTER_POINTS,
    NoPlotData,
    _bars,
    _figure,
    plain_text,
    seat_color,
    seat_label,
    smoother,
)


def branching_figure(records, *, game: str, seed: int) -> Figure:
    """Jittered (decision index, branching) points by deciding seat, with the kernel smoother and band."""
    used = length_runs(records)
    # a sampled decision (language §15.4) counts by its estimated number of paths, drawn on a log scale
    estimated = any(r.sampled for r in used)
    # straight into arrays, in run order: a list of point tuples took ~120 bytes a point (5 million
    # points in a 100,000-game Hearts batch)
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
    fig, (ax,) = _figure()
    for s in sorted(set(seat.tolist())):
        m = seat == s
        ax.plot(k[m] + jx[m], b[m] + jy[m], linestyle="none", marker="o", markersize=2, alpha=0.9,
                markeredgewidth=0, color=seat_color(s), label=seat_label(s), rasterized=n_points > RASTER_POINTS)
    max_l = int(k.max())
    grid, yhat, se = smoother(k, b, max_l)
    ax.fill_between(grid, yhat - 1.96 * se, yhat + 1.96 * se, color="grey", alpha=0.3, linewidth=0,
                    label="\u00b11.96 SE band", zorder=3)
    # a thin white halo keeps the line readable over dense points
    ax.plot(grid, yhat, color="steelblue", linewidth=2, label="smoothed mean", zorder=4,
            path_effects=[patheffects.withStroke(linewidth=3.5, foreground="white")])
    ax.set_title(plain_text(game))
    ax.set_xlabel("Decision Point")
    ax.set_ylabel("log10 Branching Factor (estimated where sampled)" if estimated else "Branching Factor")
    ax.set_ylim(bottom=0, top=max(1.0, float(b.max()) + 0.5) * 1.04)
    ax.set_xlim(0, max_l + 1)
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=min(4, len(labels)), markerscale=3, fontsize=8,
               title=f"deciding seat ({len(used)} games); line: kernel-smoothed mean "
                     + ("log10 branching factor; sampled atomic blocks count by their estimated paths"
                        if estimated else "branching factor"),
               title_fontsize=8, frameon=False)
    return fig


# ---------------------------------------------------------------- length


def length_figure(records, *, game: str) -> Figure:
    """Histogram of decisions per game; runs stopped at a limit stacked in grey; dashed mean line."""
    used = length_runs(records)
    if not used:
        raise NoPlotData("no used runs")
    normal = [r.decisions for r in used if r.end_reason == "normal"]
    limited = [r.decisions for r in used if r.end_reason != "normal"]
    allL = normal + limited
    lo, hi = min(allL), max(allL)
    bins = np.arange(lo - 0.5, hi + 1.5, 1.0) if hi <= 100 else 50
    fig, (ax,) = _figure()
    data, colors, labels = [normal], ["steelblue"], [f"ended normally ({len(normal)})"]
    if limited:
        data.append(limited)
        colors.append("grey")
        labels.append(f"stopped at a limit ({len(limited)})")
    ax.hist(data, bins=bins, stacked=True, color=colors, label=labels, edgecolor="white", linewidth=0.3)
    mean = float(np.mean(allL))
    ax.axvline(mean, color="black", linestyle="--", linewidth=1.2, label=f"mean = {mean:.1f}")
    ax.set_title(plain_text(game))
    ax.set_xlabel("Game Length (decision points per game)")
    ax.set_ylabel("Number of Games")
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.legend(fontsize=8, title=f"{len(used)} games", title_fontsize=8, framealpha=0.9)
    return fig


# ---------------------------------------------------------------- scores


def scores_figure(records, *, game: str, players: int, include_limited: bool = False,
                  direction: str | None = None) -> Figure:
    """One violin per seat with a box plot inside it; y is the final score."""
    used = outcome_runs(records, include_limited)
    if not used or players < 1:
        raise NoPlotData("no runs with scores")
    data = [np.array([r.known_scores[s] for r in used], dtype=float) for s in range(players)]
    pos = np.arange(1, players + 1)
    fig, (ax,) = _figure()
    varied = [i for i, d in enumerate(data) if np.ptp(d) > 0]
    if varied:
        try:
            parts = ax.violinplot([data[i] for i in varied], positions=pos[varied], widths=0.8,
                                  showextrema=False)
            for i, body in zip(varied, parts["bodies"], strict=True):  # one body per data set
                body.set_facecolor(seat_color(i))
                body.set_edgecolor(AXIS_COLOR)
                body.set_alpha(0.45)
        except np.linalg.LinAlgError:  # older matplotlib: a degenerate kernel density
            pass
    ax.boxplot(data, positions=pos, widths=0.15, patch_artist=True, showfliers=True,
               boxprops={"facecolor": "white", "edgecolor": "black"}, medianprops={"color": "black"},
               whiskerprops={"color": "black"}, capprops={"color": "black"},
               flierprops={"marker": "o", "markersize": 3, "markerfacecolor": AXIS_COLOR, "markeredgewidth": 0})
    ax.set_xticks(pos, [seat_label(s) for s in range(players)])
    ax.set_xlim(0.4, players + 0.6)
    ax.set_title(plain_text(game))
    ax.set_xlabel("Seat")
    best = {"max": " (higher wins)", "min": " (lower wins)"}.get(direction or "", "")
    ax.set_ylabel("Final Score" + best)
    handles = [Patch(facecolor="lightgrey", edgecolor=AXIS_COLOR, alpha=0.6, label="score distribution"),
               Patch(facecolor="white", edgecolor="black", label="quartiles, median line")]
    fig.legend(handles=handles, loc="outside lower center", ncols=2, fontsize=8, frameon=False,
               title=f"final scores over {len(used)} games, one violin per seat", title_fontsize=8)
    return fig


# ---------------------------------------------------------------- winrate


def _win_table(used, players, groups):
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
    seat_rows = _win_table(used, players, [(seat_label(s), seat_color(s), [(r, s) for r in used])
                                           for s in range(players)])
    kinds = sorted({r.lineup[s] for r in used for s in range(players) if s < len(r.lineup)})
    fixed = all(r.lineup[:players] == used[0].lineup[:players] for r in used)
    by_kind = len(kinds) > 1 or not fixed
    fig, axes = _figure(2 if by_kind else 1)
    _bars(axes[0], seat_rows, players, "Seat", len(used))
    axes[0].set_title(plain_text(game))
    if by_kind:
        palette = ("grey", "tab:orange", "tab:purple", "tab:brown", "tab:pink", "tab:olive")
        kind_rows = _win_table(used, players, [
            (f"kind {plain_text(k)}", palette[i % len(palette)],
             [(r, s) for r in used for s in range(players) if s < len(r.lineup) and r.lineup[s] == k])
            for i, k in enumerate(kinds)])
        _bars(axes[1], kind_rows, players, "Player Kind", len(used))
    return fig


