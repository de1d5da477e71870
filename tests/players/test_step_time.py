"""A runaway step inside a searching player's playouts (engine/watchdog.py): each playout that meets it is
stopped at the step-time limit and counted as a playout ending in error; the search and the game go on."""
from __future__ import annotations

import pytest

from recycle.engine import watchdog
from recycle.engine.play import play_game
from recycle.players.mcts import ISMCTSPlayer, PIMCPlayer
from recycle.players.montecarlo import FlatMonteCarloPlayer
from recycle.players.random_player import RandomPlayer
from support.games import CHOOSE_RUNAWAY, load

LIMIT = 0.3


@pytest.mark.parametrize("kind", [FlatMonteCarloPlayer, ISMCTSPlayer, PIMCPlayer])
def test_a_runaway_in_a_playout_is_stopped_and_the_search_goes_on(kind):
    # p1's option 1 runs away, option 2 ends the game: every search tries both, and prefers the one
    # whose playouts end (an erroneous playout rewards nobody)
    prog = load(CHOOSE_RUNAWAY)
    searcher = kind(budget=2)
    with watchdog.step_time_limit(LIMIT):
        res = play_game(prog, 1, [searcher, RandomPlayer()])
    assert searcher.errors >= 1  # playouts stopped by the watchdog
    assert searcher.simulations > searcher.errors  # and others that ended
    assert res.outcome == "completed" and res.choices == [1]
