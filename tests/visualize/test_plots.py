"""Batch plots (flow-and-analytics §3.7): files, sizes, titles, labels, legends and data, not pixels."""
from __future__ import annotations

import random
import struct

import matplotlib.colors as mcolors
import numpy as np
import pytest
from matplotlib.collections import PolyCollection

from recycle.analysis.stats import wilson
from recycle.engine.algorithms import competition_ranks
from recycle.run.records import RunRecord
from recycle.visualize import plots
from recycle.visualize.plots import (
    NoPlotData,
    branching_figure,
    length_figure,
    scores_figure,
    seat_color,
    smoother,
    winrate_figure,
    write_plots,
)


def records(n=30, players=3, seed=1, lineup=None, rotate=False, limit_every=0, error_every=0):
    rng = random.Random(seed)
    base = list(lineup or "R" * players)
    out = []
    for i in range(n):
        lu = [base[(s - i) % players] for s in range(players)] if rotate else list(base)
        L = rng.randint(5, 25)
        rows = [((k - 1) % players, max(1, 12 - k // 2 + rng.randint(-2, 2)), 0) for k in range(1, L + 1)]
        reason = "normal"
        if error_every and i % error_every == error_every - 1:
            reason = "error"
        elif limit_every and i % limit_every == limit_every - 1:
            reason = "decision_limit"
        if reason == "error":
            out.append(RunRecord(i, i, reason, L, 0, L, L, None, None, None, [], "boom", rows, lu))
            continue
        scores = [rng.randint(0, 10) for _ in range(players)]
        ranks, shares = competition_ranks(scores, "max")
        out.append(RunRecord(i, i, reason, L, 0, L, L, scores, ranks, shares,
                             [s for s in range(players) if ranks[s] == 1], None, rows, lu))
    return out


def legend_texts(ax):
    return [t.get_text() for t in ax.get_legend().get_texts()]


def figure_legend(fig):
    assert len(fig.legends) == 1
    return fig.legends[0]


def check_house_style(ax, game):
    assert ax.get_title() == game
    assert not ax.spines["top"].get_visible() and not ax.spines["right"].get_visible()
    assert mcolors.to_hex(ax.spines["left"].get_edgecolor()) == "#4d4d4d"
    assert mcolors.to_hex(ax.xaxis.get_gridlines()[0].get_color()) == "#ebebeb"
    assert ax.get_axisbelow() is True


def test_seat_colours():
    assert [seat_color(s) for s in range(6)] == ["red", "goldenrod", "limegreen", "cyan", "blue", "violet"]
    assert seat_color(6) == "darkorange" and seat_color(11) == "slategray" and seat_color(12) == "red"


def test_smoother_grid_and_bandwidth():
    grid, yhat, _se = smoother([1, 2, 3], [1, 2, 6], 3)
    assert len(grid) == 200 and grid[0] == 1 and grid[-1] == 3
    # max L = 3 -> h = max(1, 0.18) = 1; at x = 2 this is the hand-computed kernel mean
    i = int(np.argmin(abs(grid - 2.0)))
    assert grid[i] == pytest.approx(2.0, abs=0.006)
    assert yhat[i] == pytest.approx(2.8222, abs=0.01)
    _, y2, _ = smoother([1] * 3 + [100] * 3, [1] * 3 + [5] * 3, 100)
    assert y2[0] == pytest.approx(1.0) and y2[-1] == pytest.approx(5.0)          # h = 6: far points weigh ~0


def test_branching_figure():
    recs = records(limit_every=7, error_every=10)
    fig = branching_figure(recs, game="Toy3", seed=42)
    ax = fig.axes[0]
    check_house_style(ax, "Toy3")
    assert ax.get_xlabel() == "Decision Point" and ax.get_ylabel() == "Branching Factor"
    assert ax.get_ylim()[0] == 0
    legend = figure_legend(fig)
    texts = [t.get_text() for t in legend.get_texts()]
    assert texts[:3] == ["p1", "p2", "p3"] and "smoothed mean" in texts and "\u00b11.96 SE band" in texts
    assert "deciding seat" in legend.get_title().get_text()
    used = [r for r in recs if r.end_reason != "error"]
    pts = ax.lines[:3]
    assert sum(len(line.get_xdata()) for line in pts) == sum(len(r.decision_rows) for r in used)
    assert [line.get_color() for line in pts] == ["red", "goldenrod", "limegreen"]
    # jitter within +-0.4 of the integer data on both axes, and reproducible from the plot seed
    x0 = np.asarray(pts[0].get_xdata())
    assert np.all(np.abs(x0 - np.round(x0)) <= 0.4 + 1e-9)
    again = branching_figure(recs, game="Toy3", seed=42).axes[0].lines[0].get_xdata()
    assert np.array_equal(x0, again)
    other = branching_figure(recs, game="Toy3", seed=43).axes[0].lines[0].get_xdata()
    assert not np.array_equal(x0, other)
    smooth = next(line for line in ax.lines if line.get_label() == "smoothed mean")
    assert smooth.get_color() == "steelblue" and smooth.get_linewidth() == 2 and len(smooth.get_xdata()) == 200


def test_length_figure():
    recs = records(limit_every=5, error_every=12)
    fig = length_figure(recs, game="Toy3")
    ax = fig.axes[0]
    check_house_style(ax, "Toy3")
    used = [r for r in recs if r.end_reason != "error"]
    limited = [r for r in used if r.end_reason != "normal"]
    texts = legend_texts(ax)
    assert any(t.startswith("mean = ") for t in texts)
    assert f"stopped at a limit ({len(limited)})" in texts
    assert f"ended normally ({len(used) - len(limited)})" in texts
    mean_line = next(line for line in ax.lines if line.get_linestyle() == "--")
    assert mean_line.get_xdata()[0] == pytest.approx(np.mean([r.decisions for r in used]))
    heights = sum(p.get_height() for p in ax.patches if mcolors.to_hex(p.get_facecolor()) == "#808080")
    assert heights == len(limited)
    assert sum(p.get_height() for p in ax.patches) == len(used)
    assert ax.get_xlabel().startswith("Game Length") and ax.get_ylabel() == "Number of Games"


def test_scores_figure():
    recs = records(players=4)
    fig = scores_figure(recs, game="Toy4", players=4, direction="max")
    ax = fig.axes[0]
    check_house_style(ax, "Toy4")
    assert [t.get_text() for t in ax.get_xticklabels()] == ["p1", "p2", "p3", "p4"]
    assert ax.get_ylabel() == "Final Score (higher wins)" and ax.get_xlabel() == "Seat"
    bodies = [c for c in ax.collections if isinstance(c, PolyCollection)]
    assert len(bodies) == 4
    assert mcolors.to_hex(bodies[1].get_facecolor()[0], keep_alpha=False) == mcolors.to_hex("goldenrod")
    assert [t.get_text() for t in figure_legend(fig).get_texts()] == ["score distribution", "quartiles, median line"]
    medians = [line for line in ax.lines if line.get_color() == "black" and len(line.get_ydata()) == 2
               and line.get_ydata()[0] == line.get_ydata()[1]]
    assert medians


def test_scores_constant_seat_has_no_violin():
    recs = [RunRecord(i, i, "normal", 3, 0, 3, 3, [5, i], [1, 2] if i < 5 else [2, 1], [1.0, 0.0] if i < 5 else [0.0, 1.0],
                      [0], None, [(0, 2, 0)] * 3, ["R", "R"]) for i in range(8)]
    ax = scores_figure(recs, game="Toy2", players=2).axes[0]
    assert len([c for c in ax.collections if isinstance(c, PolyCollection)]) == 1


def test_winrate_figure():
    recs = records(n=40, players=3)
    fig = winrate_figure(recs, game="Toy3", players=3)
    assert len(fig.axes) == 1
    ax = fig.axes[0]
    check_house_style(ax, "Toy3")
    bars = [p for p in ax.patches]
    expected = [sum(r.shares[s] for r in recs) / len(recs) for s in range(3)]
    assert [b.get_height() for b in bars] == pytest.approx(expected)
    assert [mcolors.to_hex(b.get_facecolor()) for b in bars] == [mcolors.to_hex(c) for c in
                                                                 ("red", "goldenrod", "limegreen")]
    fair = next(line for line in ax.lines if line.get_linestyle() == "--")
    assert fair.get_ydata()[0] == pytest.approx(1 / 3)
    assert legend_texts(ax) == ["fair share 1/3 = 0.333", "95% Wilson interval"]
    # error bar ends are the Wilson interval
    segs = ax.collections[-1].get_segments()
    lo, hi = wilson(sum(r.shares[0] for r in recs), len(recs))
    assert (segs[0][0][1], segs[0][1][1]) == pytest.approx((lo, hi))
    assert ax.get_ylabel().startswith("Win Rate") and ax.get_xlabel() == "Seat"


def test_winrate_second_panel_for_rotated_batches():
    fig = winrate_figure(records(players=2, lineup="AR", rotate=True), game="Duel", players=2)
    assert len(fig.axes) == 2
    assert [t.get_text() for t in fig.axes[1].get_xticklabels()] == ["kind A", "kind R"]
    assert fig.axes[1].get_xlabel() == "Player Kind"


def test_winrate_not_applicable_for_one_player():
    with pytest.raises(NoPlotData, match="one seat"):
        winrate_figure(records(players=1), game="Solo", players=1)


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def test_write_plots_files(tmp_path):
    recs = records(limit_every=6)
    files, notes = write_plots(recs, tmp_path, game="Toy3", players=3, seed=5, print_notes=False)
    assert sorted(p.name for p in files) == sorted(f"{n}.{e}" for n in plots.PLOTS for e in ("png", "svg"))
    assert notes == []
    for p in files:
        assert p.stat().st_size > 5000
    assert png_size(tmp_path / "branching.png") == (600, 600)
    assert "<svg" in (tmp_path / "scores.svg").read_text(encoding="utf-8")


@pytest.mark.parametrize("game", ["$x^{2}$ and $\\frac$", "$unbalanced", "a\x1b[31mred\x00", "<b>&amp;</b>" * 30])
def test_names_from_game_files_are_shown_literally(tmp_path, game):
    """A game name is text: no mathtext (`$…$`, which also fails on bad TeX), no control characters."""
    files, notes = write_plots(records(), tmp_path, game=game, players=3, seed=5, formats=("png", "svg"),
                               print_notes=False)
    assert len(files) == 8 and notes == []
    fig = length_figure(records(), game=game)
    title = fig.axes[0].get_title()
    assert title == plots.plain_text(game) and len(title) <= 120
    assert "\x1b" not in title and "\x00" not in title
    assert title.replace("\\$", "").count("$") == 0  # every $ escaped: matplotlib shows it as a dollar sign


def test_write_plots_is_reproducible(tmp_path):
    recs = records()
    for d in ("a", "b"):
        write_plots(recs, tmp_path / d, game="Toy3", players=3, seed=5, formats=("svg", "png"), print_notes=False)
    for name in ("branching.svg", "length.svg", "branching.png"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_write_plots_skips_with_notes(tmp_path, capsys):
    files, notes = write_plots(records(players=1), tmp_path, game="Solo", players=1, seed=5, formats=("png",),
                               names=("winrate", "spread", "length"))
    assert [p.name for p in files] == ["length.png"]
    assert notes == ["note: plot winrate skipped: one seat, win rates are not applicable",
                     "note: plot 'spread' skipped: it needs AI estimates (no searching player yet)"]
    assert capsys.readouterr().err.count("note: plot") == 2
    empty, notes = write_plots([], tmp_path / "e", game="None", players=2, seed=1, print_notes=False)
    assert empty == [] and len(notes) == 4
