"""Plots of a batch that need no AI estimates (flow-and-analytics §3.7): branching, length,
scores, winrate.

Every plot is a 6 x 6 in figure (100 dpi for PNG) in the house style: the title is the game
stem, matplotlib's default sans-serif font, top and right spines off, the other axis lines
#4D4D4D, a light grey (#EBEBEB) grid behind the data.  Figures are built with the Agg canvas
directly (no pyplot, no global backend switch), so this module is safe to import anywhere.

    files, notes = write_plots(records, out, game="Hearts4", players=4, seed=42)

Each takes the batch as its list of records or as the `StatsTally` `recycle stats` adds them to game by
game (recycle.analysis.statstally: what the plots read of the records, kept without them); both draw the
same image, byte for byte.

`*_figure` functions build and return a `matplotlib.figure.Figure` (tests inspect it) or
raise `NoPlotData` with a one-line reason; `save_figure` writes `<name>.png` / `<name>.svg`.
Jitter uses numpy's default_rng(derive(S, "plot", name)): x offsets for every point in
(run, decision) order, then y offsets, so images are reproducible.
"""
from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import matplotlib
import numpy as np
import numpy.typing as npt
from matplotlib import patheffects
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from recycle.analysis.stats import wilson
from recycle.analysis.statstally import StatsTally
from recycle.analysis.summary import kernel_smooth, smooth_groups
from recycle.engine.algorithms import derive

__all__ = [
    "PLOTS",
    "SEAT_COLORS",
    "NoPlotData",
    "branching_figure",
    "length_figure",
    "plain_text",
    "save_figure",
    "scores_figure",
    "seat_color",
    "seat_label",
    "smoother",
    "winrate_figure",
    "write_plots",
]

SEAT_COLORS = ("red", "goldenrod", "limegreen", "cyan", "blue", "violet",
               "darkorange", "sienna", "deeppink", "teal", "olive", "slategray")
AXIS_COLOR = "#4D4D4D"
GRID_COLOR = "#EBEBEB"
FIGSIZE = (6, 6)
DPI = 100
PLOTS = ("branching", "length", "scores", "winrate")
RASTER_POINTS = 5000  # above this many points the SVG embeds them as an image (file size)


class NoPlotData(Exception):
    """The data a plot needs are absent; the message is the one-line note."""


def as_tally(data, players: int | None = None, include_limited: bool = False) -> StatsTally:
    """The tally of a batch given as its records (the players of its lineup unless given), or the tally itself."""
    if isinstance(data, StatsTally):
        return data
    records = list(data)
    if players is None:
        players = len(records[0].lineup) if records else 1
    return StatsTally.of(records, players, include_limited)


def plain_text(text: str, limit: int = 120) -> str:
    """A name from a game file as matplotlib shows it literally: `$` escaped (no mathtext), control
    characters as U+FFFD, cut to `limit` characters."""
    text = "".join(c if c.isprintable() else "\ufffd" for c in str(text))
    if len(text) > limit:
        text = text[: limit - 1] + "\u2026"
    return text.replace("$", r"\$")


def seat_color(seat: int) -> str:
    """§3.7 colour of a 0-based seat: p1..p6, then the continuation list, cycling."""
    return SEAT_COLORS[seat % len(SEAT_COLORS)]


def seat_label(seat: int) -> str:
    return f"p{seat + 1}"


def _figure(nrows: int = 1, height_ratios=None) -> tuple[Figure, list]:
    fig = Figure(figsize=FIGSIZE, dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    grid = fig.subplots(nrows, 1, squeeze=False,
                        gridspec_kw={"height_ratios": height_ratios} if height_ratios else None)
    axes = [a for row in grid for a in row]
    for ax in axes:
        _style(ax)
    return fig, axes


def _style(ax) -> None:
    """House style: no top/right spines, #4D4D4D axis lines, light grid behind the data."""
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    for side in ("left", "bottom"):
        ax.spines[side].set_color(AXIS_COLOR)
    ax.tick_params(colors=AXIS_COLOR, labelcolor="black")
    ax.grid(True, color=GRID_COLOR, linewidth=0.8)
    ax.set_axisbelow(True)


# ---------------------------------------------------------------- branching


def smoother(k: npt.ArrayLike, b: npt.ArrayLike, max_l: int, points: int = 200):
    """§3.7: grid over [1, max L], bandwidth max(1, 0.06 max L); returns (grid, yhat, se)."""
    grid = np.linspace(1, max_l, points)
    h = max(1.0, 0.06 * max_l)
    yhat, se = kernel_smooth(k, b, grid, h)
    return grid, yhat, se


# Points are read from the tally this many at a time: besides the points the figure draws (two 8-byte
# floats each), the branching plot holds only a chunk's worth of work arrays.
CHUNK = 1 << 16


class _Points:
    """The branching plot's points read from a tally chunk by chunk, in run order: each point's decision
    index k (its place in its run), its branching b (log10 when `estimated`) and its deciding seat."""

    def __init__(self, t: StatsTally, estimated: bool) -> None:
        self.n = len(t.point_b)
        self.b = np.frombuffer(t.point_b, dtype=np.uint16 if t.point_b.typecode == "H" else float)
        self.seat = np.frombuffer(t.point_seat, dtype=np.uint8 if t.point_seat.typecode == "B" else np.uint32)
        rows = np.frombuffer(t.rows, dtype=np.uint32).astype(np.int64)
        self.ends = np.cumsum(rows)
        self.starts = self.ends - rows
        self.estimated = estimated

    def chunks(self):
        for lo in range(0, self.n, CHUNK):
            hi = min(self.n, lo + CHUNK)
            pos = np.arange(lo, hi)
            k = pos - self.starts[np.searchsorted(self.ends, pos, side="right")] + 1
            b = self.b[lo:hi].astype(float)
            yield k, (np.log10(np.maximum(b, 1.0)) if self.estimated else b), self.seat[lo:hi]


def _branching_points(t: StatsTally, seed: int, estimated: bool):
    """Per seat the x and y of its points as drawn (jittered), and the smoother's groups by decision index
    (np.add.at adds in point order, as the np.bincount of kernel_smooth does): what branching_figure
    computed from arrays of every point, without them."""
    pts = _Points(t, estimated)
    counts = np.bincount(pts.seat)
    seats = [int(s) for s in np.flatnonzero(counts)]
    xs = {s: np.empty(counts[s]) for s in seats}
    ys = {s: np.empty(counts[s]) for s in seats}
    filled = dict.fromkeys(seats, 0)
    top = t.max_index
    n, total, m2 = np.zeros(top), np.zeros(top), np.zeros(top)
    # x offsets of every point come first in the plot's stream, then y offsets: two streams, the second
    # started past the first's pts.n draws (one 64-bit draw each)
    rng_x = np.random.Generator(np.random.PCG64(derive(seed, "plot", "branching")))  # = default_rng(seed)
    stream_y = np.random.PCG64(derive(seed, "plot", "branching"))
    stream_y.advance(pts.n)
    rng_y = np.random.Generator(stream_y)
    b_max = -np.inf
    for k, b, seat in pts.chunks():
        jx = rng_x.uniform(-0.4, 0.4, len(k))
        jy = rng_y.uniform(-0.4, 0.4, len(k)) * (0.1 if estimated else 1.0)
        kf = k.astype(float)
        for s in seats:
            m = seat == s
            i, j = filled[s], filled[s] + int(m.sum())
            xs[s][i:j] = kf[m] + jx[m]
            ys[s][i:j] = b[m] + jy[m]
            filled[s] = j
        n += np.bincount(k - 1, minlength=top)
        np.add.at(total, k - 1, b)
        b_max = max(b_max, float(b.max()))
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = total / n
    for k, b, _seat in pts.chunks():
        np.add.at(m2, k - 1, (b - mean[k - 1]) ** 2)
    keys = np.arange(1, top + 1, dtype=float)  # every index up to the longest game has points
    return xs, ys, (keys, n, total, m2), b_max


def branching_figure(data, *, game: str, seed: int) -> Figure:
    """Jittered (decision index, branching) points by deciding seat, with the kernel smoother and band."""
    t = as_tally(data)
    # a sampled decision (language §15.4) counts by its estimated number of paths, drawn on a log scale
    estimated = t.sampled > 0
    if not len(t.point_b):
        raise NoPlotData("no decision points in the used runs")
    xs, ys, groups, b_max = _branching_points(t, seed, estimated)
    max_l = t.max_index
    grid = np.linspace(1, max_l, 200)
    keys, n, total, m2 = groups
    yhat, se = smooth_groups(keys, n, total, m2, grid, max(1.0, 0.06 * max_l))
    return draw_branching(xs, ys, (grid, yhat, se), game=game, estimated=estimated, b_max=b_max, max_l=max_l,
                          n_games=t.length_runs)


def draw_branching(xs: dict, ys: dict, curve: tuple, *, game: str, estimated: bool, b_max: float, max_l: int,
                   n_games: int) -> Figure:
    """The branching plot of each seat's points (x, y as drawn, seats in order), the smoother's
    (grid, mean, SE), the largest branching value drawn and the longest game."""
    n_points = sum(len(x) for x in xs.values())
    fig, (ax,) = _figure()
    for s in xs:
        ax.plot(xs[s], ys[s], linestyle="none", marker="o", markersize=2, alpha=0.9,
                markeredgewidth=0, color=seat_color(s), label=seat_label(s), rasterized=n_points > RASTER_POINTS)
    grid, yhat, se = curve
    ax.fill_between(grid, yhat - 1.96 * se, yhat + 1.96 * se, color="grey", alpha=0.3, linewidth=0,
                    label="\u00b11.96 SE band", zorder=3)
    # a thin white halo keeps the line readable over dense points
    ax.plot(grid, yhat, color="steelblue", linewidth=2, label="smoothed mean", zorder=4,
            path_effects=[patheffects.withStroke(linewidth=3.5, foreground="white")])
    ax.set_title(plain_text(game))
    ax.set_xlabel("Decision Point")
    ax.set_ylabel("log10 Branching Factor (estimated where sampled)" if estimated else "Branching Factor")
    ax.set_ylim(bottom=0, top=max(1.0, b_max + 0.5) * 1.04)
    ax.set_xlim(0, max_l + 1)
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=min(4, len(labels)), markerscale=3, fontsize=8,
               title=f"deciding seat ({n_games} games); line: kernel-smoothed mean "
                     + ("log10 branching factor; sampled atomic blocks count by their estimated paths"
                        if estimated else "branching factor"),
               title_fontsize=8, frameon=False)
    return fig


# ---------------------------------------------------------------- length


def _repeated(counts) -> np.ndarray:
    """The values counted, each as often as counted, sorted (a histogram does not depend on their order)."""
    keys = sorted(counts)
    return np.repeat(np.array(keys, dtype=np.int64), [counts[k] for k in keys])


def length_figure(data, *, game: str) -> Figure:
    """Histogram of decisions per game; runs stopped at a limit stacked in grey; dashed mean line."""
    t = as_tally(data)
    used = range(t.length_runs)
    if not used:
        raise NoPlotData("no used runs")
    return draw_length(_repeated(t.normal_lengths), _repeated(t.limited_lengths), game=game, n_games=len(used))


def draw_length(normal: np.ndarray, limited: np.ndarray, *, game: str, n_games: int) -> Figure:
    """The histogram of the lengths of the games that ended normally and of those stopped at a limit."""
    allL = np.concatenate([normal, limited])
    lo, hi = int(allL.min()), int(allL.max())
    bins = np.arange(lo - 0.5, hi + 1.5, 1.0) if hi <= 100 else 50
    fig, (ax,) = _figure()
    data, colors, labels = [normal], ["steelblue"], [f"ended normally ({len(normal)})"]
    if len(limited):
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
    ax.legend(fontsize=8, title=f"{n_games} games", title_fontsize=8, framealpha=0.9)
    return fig


# ---------------------------------------------------------------- scores


def scores_figure(data, *, game: str, players: int, include_limited: bool = False,
                  direction: str | None = None) -> Figure:
    """One violin per seat with a box plot inside it; y is the final score."""
    t = as_tally(data, players, include_limited)
    used = range(t.used)
    if not used or players < 1:
        raise NoPlotData("no runs with scores")
    if any(t.scores[s].overflow for s in range(players)):
        raise NoPlotData("scores past a float's range")
    # each seat's scores as floats in run order (the violins' densities add them up in that order)
    return draw_scores([np.array(t.scores[s].totals, dtype=float) for s in range(players)], game=game,
                       direction=direction, n_games=len(used))


def draw_scores(data: list[np.ndarray], *, game: str, direction: str | None, n_games: int) -> Figure:
    """The violins and boxes of each seat's final scores (one array per seat)."""
    players = len(data)
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
               title=f"final scores over {n_games} games, one violin per seat", title_fontsize=8)
    return fig


# ---------------------------------------------------------------- winrate


def _win_table(groups):
    """[(label, colour, W, lo, hi)] for (label, colour, wins, games) groups."""
    out = []
    for label, color, x, n in groups:
        lo, hi = wilson(x, n)
        out.append((label, color, x / n if n else 0.0, lo, hi))
    return out


def _bars(ax, rows, players, xlabel, n_games):
    x = np.arange(len(rows))
    w = np.array([r[2] for r in rows])
    lo = np.array([r[3] if r[3] is not None else r[2] for r in rows])
    hi = np.array([r[4] if r[4] is not None else r[2] for r in rows])
    ax.bar(x, w, color=[r[1] for r in rows], edgecolor=AXIS_COLOR, linewidth=0.6, width=0.7)
    ax.errorbar(x, w, yerr=[w - lo, hi - w], fmt="none", ecolor="black", elinewidth=1.2, capsize=5,
                label="95% Wilson interval")
    ax.axhline(1 / players, color="black", linestyle="--", linewidth=1.2,
               label=f"fair share 1/{players} = {1 / players:.3f}")
    ax.set_xticks(x, [r[0] for r in rows])
    top = max(float(hi.max()) if len(rows) else 0.0, 1 / players)
    ax.set_ylim(0, min(1.0, top * 1.35 + 0.02))           # headroom for the legend
    ax.set_xlabel(xlabel)
    ax.set_ylabel("Win Rate (share of games won)")
    ax.legend(fontsize=8, title=f"{n_games} games", title_fontsize=8, loc="best", framealpha=0.9)


def winrate_figure(data, *, game: str, players: int, include_limited: bool = False) -> Figure:
    """Bars of win rate per seat with Wilson CIs and a dashed 1/n line; a kind panel when kinds vary."""
    t = as_tally(data, players, include_limited)
    used = range(t.used)
    if players < 2:
        raise NoPlotData("one seat, win rates are not applicable")
    if not used:
        raise NoPlotData("no runs with outcomes")
    seat_rows = _win_table([(seat_label(s), seat_color(s), t.share_sums[s].value, t.used) for s in range(players)])
    kinds = sorted(t.codes)
    kind_rows = None
    if len(kinds) > 1 or not t.fixed_lineup:
        kind_rows = _win_table([(kind_label(k), kind_color(i), t.kinds[k].x.value, t.kinds[k].n)
                                for i, k in enumerate(kinds)])
    return draw_winrate(seat_rows, kind_rows, game=game, players=players, n_games=len(used))


def kind_label(kind: str) -> str:
    return f"kind {plain_text(kind)}"


def kind_color(i: int) -> str:
    """The colour of the i-th player kind (in sorted order) in the win-rate plot."""
    palette = ("grey", "tab:orange", "tab:purple", "tab:brown", "tab:pink", "tab:olive")
    return palette[i % len(palette)]


def draw_winrate(seat_rows: list, kind_rows: list | None, *, game: str, players: int, n_games: int) -> Figure:
    """The win-rate bars per seat, and per player kind when `kind_rows` is given ([(label, colour, W, lo, hi)])."""
    fig, axes = _figure(2 if kind_rows is not None else 1)
    _bars(axes[0], seat_rows, players, "Seat", n_games)
    axes[0].set_title(plain_text(game))
    if kind_rows is not None:
        _bars(axes[1], kind_rows, players, "Player Kind", n_games)
    return fig


# ---------------------------------------------------------------- files


def save_figure(fig: Figure, out_dir: str | Path, name: str, formats: Sequence[str] = ("png", "svg")) -> list[Path]:
    """Write <name>.<fmt> for each format (PNG at 100 dpi); SVG ids and metadata made reproducible."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for fmt in formats:
        path = out_dir / f"{name}.{fmt}"
        meta = {"Date": None} if fmt == "svg" else ({"Software": None} if fmt == "png" else None)
        with matplotlib.rc_context({"svg.hashsalt": f"recycle-{name}"}):
            fig.savefig(path, format=fmt, dpi=DPI, metadata=meta)
        paths.append(path)
    return paths


def write_plots(data, out_dir: str | Path, *, game: str, players: int, seed: int,
                formats: Sequence[str] = ("png", "svg"), include_limited: bool = False,
                direction: str | None = None, names: Sequence[str] = PLOTS,
                print_notes: bool = True) -> tuple[list[Path], list[str]]:
    """Write the requested plots of a batch (its records, or its StatsTally); a plot without data is skipped
    with a one-line note (returned and printed)."""
    t = as_tally(data, players, include_limited)
    builders = {
        "branching": lambda: branching_figure(t, game=game, seed=seed),
        "length": lambda: length_figure(t, game=game),
        "scores": lambda: scores_figure(t, game=game, players=players, include_limited=include_limited,
                                        direction=direction),
        "winrate": lambda: winrate_figure(t, game=game, players=players, include_limited=include_limited),
    }
    files, notes = [], []
    for name in names:
        if name not in builders:
            notes.append(f"note: plot {name!r} skipped: it needs AI estimates (no searching player yet)"
                         if name in ("spread", "lead") else f"note: unknown plot {name!r} skipped")
            continue
        try:
            fig = builders[name]()
        except NoPlotData as e:
            notes.append(f"note: plot {name} skipped: {e}")
            continue
        files.extend(save_figure(fig, out_dir, name, formats))
    if print_notes:
        for n in notes:
            print(n, file=sys.stderr)
    return files, notes

