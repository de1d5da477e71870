"""The plots drawn from a StatsTally (what `recycle stats` keeps of its games) are those drawn from the list of
records (support/plots_oracle.py, the reading of the records before the tally), byte for byte in PNG and SVG:
played batches (errors, games stopped at a limit, sampled branching estimates drawn on a log scale, a
rotated lineup of two kinds) and more points than an SVG draws one by one (RASTER_POINTS), read from the
tally in small chunks."""
from __future__ import annotations

from pathlib import Path

import pytest

from recycle.analysis.statstally import StatsTally
from recycle.run.batch import BatchSpec, run_batch
from recycle.run.session import GameSession
from recycle.visualize import plots
from support import FIXTURES, GAMES
from support import plots_oracle as oracle


def drawn(fig, out: Path, name: str) -> dict[str, bytes]:
    return {p.suffix: p.read_bytes() for p in plots.save_figure(fig, out, name, ("png", "svg"))}


BATCHES = [
    (FIXTURES / "games" / "risky.gdl", 60, None, None, False),
    (GAMES / "block_rummy.gdl", 12, 12, None, False),
    (GAMES / "rummykruss.gdl", 4, None, None, False),
    (FIXTURES / "games" / "deal_n.gdl", 40, None, "FR", True),
    (FIXTURES / "games" / "high_card.gdl", 2600, None, None, False),
]


@pytest.mark.parametrize(("game", "n", "limit", "lineup", "rotate"), BATCHES,
                         ids=["risky", "block_rummy_limit", "rummykruss_sampled", "deal_n_rotated", "high_card_many"])
@pytest.mark.parametrize("include_limited", [False, True])
def test_plots_of_the_tally_are_those_of_the_records(game, n, limit, lineup, rotate, include_limited, tmp_path,
                                                     monkeypatch):
    monkeypatch.setattr(plots, "CHUNK", 37)  # the points are read in many chunks, cut inside games
    sess = GameSession.open(game, {})
    players = sess.n_players
    spec = BatchSpec(str(game), {}, tuple(lineup or "R" * players), 3, max_decisions=limit, rotate=rotate)
    records = run_batch(spec, n, jobs=1, session=sess)
    tally = StatsTally.of(records, players, include_limited)
    figures = {
        "branching": (lambda d: plots.branching_figure(d, game="G", seed=9),
                      lambda: oracle.branching_figure(records, game="G", seed=9)),
        "length": (lambda d: plots.length_figure(d, game="G"), lambda: oracle.length_figure(records, game="G")),
        "scores": (lambda d: plots.scores_figure(d, game="G", players=players, include_limited=include_limited,
                                                 direction="max"),
                   lambda: oracle.scores_figure(records, game="G", players=players, include_limited=include_limited,
                                                direction="max")),
        "winrate": (lambda d: plots.winrate_figure(d, game="G", players=players, include_limited=include_limited),
                    lambda: oracle.winrate_figure(records, game="G", players=players,
                                                  include_limited=include_limited)),
    }
    drew = 0
    for name, (new, old) in figures.items():
        try:
            want = drawn(old(), tmp_path / "old", name)
        except oracle.NoPlotData as e:
            with pytest.raises(plots.NoPlotData, match=str(e)):
                new(tally)
            continue
        assert drawn(new(tally), tmp_path / "new", name) == want, name
        drew += 1
    assert drew >= 2  # branching and length at least (a batch stopped at its limit has no outcome)
