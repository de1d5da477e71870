"""Ratings and standings of a tournament: win rates with Wilson intervals, OpenSkill ratings, a plot.

Ratings use OpenSkill's Plackett-Luce model (the `openskill` package, the optional extra
`recycle[tournament]`), which rates games of any number of players from their finishing order.
Each game is one match: every distinct player of the game is one team of one, placed at the
best competition rank of its seats (a player sits several seats only when the game has more
seats than the tournament has players); tied ranks are ties.  Games are rated in game-index
order, so the ratings are a function of the results alone (not of which process finished
first).  A player's `ordinal` is mu - 3 sigma, a conservative skill that the standings are
sorted by (then win rate, then name).  Games without ranks (a run-time error) are left out of
ratings and win rates.

Win rate: the player's mean win share per game (a game's win goes to its first-ranked seats,
split equally between tied seats); the 95% interval is Wilson's (`analysis.stats.wilson`).
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import attrs

from ..errors import UsageError
from .stats import wilson

EXTRA = "tournament"
INSTALL_HINT = f"pip install 'recycle[{EXTRA}]' (or pip install openskill)"


def require_openskill() -> None:
    """Raise a UsageError naming the extra when openskill is not installed."""
    try:
        import openskill.models  # noqa: F401
    except ImportError:
        raise UsageError(f"tournament ratings need the openskill package, which is not installed: {INSTALL_HINT}") \
            from None


@attrs.define
class Standing:
    """One player's line of the standings."""

    player: str
    games: int = 0  # games with a result
    wins: float = 0.0  # win shares summed
    ci_low: float | None = None
    ci_high: float | None = None
    mu: float = 0.0
    sigma: float = 0.0
    ordinal: float = 0.0

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None


def standings(players: Sequence[str], games: Sequence[Sequence[tuple[str, int, float]]]) -> list[Standing]:
    """The standings from games in order, each a list of (player, rank, win share) per seat (ranks 0 = first).

    Sorted best first: by ordinal, then win rate, then the order of `players`.
    """
    require_openskill()
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {p: model.rating(name=p) for p in players}
    table = {p: Standing(p) for p in players}
    for seats in games:
        best: dict[str, int] = {}
        share: dict[str, float] = {}
        for p, rank, w in seats:
            best[p] = min(rank, best.get(p, rank))
            share[p] = share.get(p, 0.0) + w
        for p, w in share.items():
            table[p].games += 1
            table[p].wins += w
        if len(best) < 2:
            continue
        names = list(best)
        rated = model.rate([[ratings[p]] for p in names], ranks=[best[p] for p in names])
        for p, team in zip(names, rated, strict=True):
            ratings[p] = team[0]
    for p, s in table.items():
        s.ci_low, s.ci_high = wilson(s.wins, s.games)
        s.mu, s.sigma = ratings[p].mu, ratings[p].sigma
        s.ordinal = ratings[p].ordinal()
    order = {p: i for i, p in enumerate(players)}
    return sorted(table.values(), key=lambda s: (-s.ordinal, -(s.win_rate or 0.0), order[s.player]))


def standings_figure(rows: Sequence[Standing], *, game: str, games: int, seats: int | None = None):
    """Two panels: win rate with its 95% interval per player (a dashed line at 1/seats, the rate of equal
    players), and rating mu with ±2 sigma; best player on top."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 1.2 + 0.45 * max(2, len(rows))), dpi=100, layout="constrained")
    FigureCanvasAgg(fig)
    ax_w, ax_r = fig.subplots(1, 2, sharey=True)
    names = [r.player for r in rows][::-1]
    ys = list(range(len(names)))
    rev = list(rows)[::-1]
    rates = [r.win_rate if r.win_rate is not None else 0.0 for r in rev]
    lo = [max(0.0, w - (r.ci_low if r.ci_low is not None else w)) for w, r in zip(rates, rev, strict=True)]
    hi = [max(0.0, (r.ci_high if r.ci_high is not None else w) - w) for w, r in zip(rates, rev, strict=True)]
    ax_w.errorbar(rates, ys, xerr=[lo, hi], fmt="o", color="tab:blue", capsize=3)
    if seats:
        ax_w.axvline(1 / seats, color="#4D4D4D", linestyle="--", linewidth=0.8)
    ax_w.set_xlim(0, 1)
    ax_w.set_xlabel("win rate (95% Wilson interval)")
    ax_w.set_yticks(ys, names)
    ax_r.errorbar([r.mu for r in rev], ys, xerr=[[2 * r.sigma for r in rev], [2 * r.sigma for r in rev]],
                  fmt="s", color="tab:red", capsize=3)
    ax_r.set_xlabel("OpenSkill rating (mu ± 2 sigma)")
    for ax in (ax_w, ax_r):
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
        ax.grid(True, color="#EBEBEB", linewidth=0.8)
        ax.set_axisbelow(True)
    fig.suptitle(f"{game}: tournament of {games} games")
    return fig


def save_standings_plot(rows: Sequence[Standing], path: Path, *, game: str, games: int,
                        seats: int | None = None) -> Path:
    """Write the standings plot (PNG or SVG by the suffix), without dates so that files are reproducible."""
    import matplotlib

    fig = standings_figure(rows, game=game, games=games, seats=seats)
    fmt = path.suffix.lstrip(".").lower() or "png"
    meta = {"Date": None} if fmt == "svg" else ({"Software": None} if fmt == "png" else None)
    with matplotlib.rc_context({"svg.hashsalt": "recycle-tournament"}):
        fig.savefig(path, format=fmt, metadata=meta)
    return path
