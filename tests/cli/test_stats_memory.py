"""`recycle stats` in bounded memory: the batch is tallied game by game (analysis.statstally.StatsTally), not
kept as records, so the memory of a batch grows by a small constant per game (docs/scaling.md, "Memory"):
the tally's per-game floats and 3 bytes per decision, and, while the branching plot is drawn, the points it
draws.  The outputs are those computed from the records (tests/analysis/test_stats_tally.py,
tests/visualize/test_plots_tally.py, tests/cli/test_stats_shard_merge.py).
"""
from __future__ import annotations

import json
import tracemalloc

from recycle.analysis.statstally import StatsTally
from recycle.cli import main, statsbatch
from recycle.run.batch import BatchSpec, iter_batch
from recycle.run.session import GameSession
from recycle.visualize import plots
from support import FIXTURES
from support.memory import traced

DEAL_N = FIXTURES / "games" / "deal_n.gdl"  # two seats, about two decisions a game

# Bytes per game of deal_n: the most `recycle stats` may hold once it has played the batch (the tally's
# ~115, plus what the command keeps of each game besides), and the most the drawing of the plots may add
# to its peak (the points, scores and lengths drawn).  A record kept in a list takes about 1,200.
HELD_PER_GAME = 300
PLOT_PER_GAME = 300
# Bytes: what the tally alone holds per game of deal_n (measured about 125).
TALLY_PER_GAME = 200


def test_the_memory_of_a_stats_batch_grows_by_a_small_constant_per_game(tmp_path, capsys, monkeypatch):
    """`recycle stats` of 300 and 1,200 games, measured when every game is played and its figures are written
    (what is then held: HELD_PER_GAME bytes a game at most) and while the plots are drawn (their peak:
    PLOT_PER_GAME bytes a game at most, over what the drawing of any batch takes); the records of those games
    kept in a list take more than both together (measured here).  Below some thousands of games the peak of
    the whole command is that of things every batch has (loading the game, drawing a figure), so the growth
    is measured at these two moments.  The flow diagram of the batch reads its first FLOW_GAMES games (set to
    50 here, so that both batches have the same flow)."""
    monkeypatch.setattr(statsbatch, "FLOW_GAMES", 50)
    real = plots.write_plots
    seen: dict[str, int] = {}

    def measured(*args, **kwargs):
        seen["held"] = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        try:
            return real(*args, **kwargs)
        finally:
            seen["plots"] = tracemalloc.get_traced_memory()[1] - seen["held"]

    monkeypatch.setattr(plots, "write_plots", measured)
    held, peak = {}, {}
    for n in (50, 300, 1200):  # the first one imports and fills caches outside the measure
        out = tmp_path / f"out{n}"
        codes: list[int] = []
        argv = ["stats", str(DEAL_N), "-n", str(n), "--seed", "3", "-q", "--json", "--transcripts", "none",
                "--plot-format", "png", "--flow-format", "svg", "--bootstrap", "20", "--out", str(out)]
        traced(lambda argv=argv, codes=codes: codes.append(main(argv)))
        doc = json.loads(capsys.readouterr().out)
        assert codes == [0] and doc["runs"]["requested"] == n and doc["params"]["flow_games"] == 50
        assert (out / "branching.png").is_file() and (out / "scores.png").is_file()
        held[n], peak[n] = seen["held"], seen["plots"]
    assert (held[1200] - held[300]) / 900 < HELD_PER_GAME, held
    assert (peak[1200] - peak[300]) / 900 < PLOT_PER_GAME, peak
    sess = GameSession.open(DEAL_N)
    spec = BatchSpec(str(DEAL_N), {}, ("R", "R"), 3)
    kept: list = []
    records, _ = traced(lambda: kept.extend(iter_batch(spec, range(600), 1, sess)))
    assert len(kept) == 600 and records / 600 > HELD_PER_GAME + PLOT_PER_GAME, records


def test_the_tally_holds_a_small_constant_per_game():
    sess = GameSession.open(DEAL_N)
    spec = BatchSpec(str(DEAL_N), {}, ("R", "R"), 3)
    tallies: dict[int, StatsTally] = {}
    held = {}
    for n in (400, 1600):
        def play(n=n):
            t = tallies[n] = StatsTally(2)
            for r in iter_batch(spec, range(n), 1, sess):
                t.add(r)
        held[n], _ = traced(play)
        assert tallies[n].games == n and len(tallies[n].point_b) >= n
    assert (held[1600] - held[400]) / 1200 < TALLY_PER_GAME, held
