"""A runaway step inside a searching player's playouts (engine/watchdog.py): each playout that meets it is
stopped at the step-time limit and counted as a playout ending in error; the search tries each option once,
stops there, and the game goes on."""
from __future__ import annotations

import random

import pytest

from recycle.engine import watchdog
from recycle.engine.play import play_game
from recycle.engine.state import ERROR
from recycle.errors import GameRuntimeError
from recycle.players.mcts import ISMCTSPlayer, PIMCPlayer
from recycle.players.montecarlo import FlatMonteCarloPlayer, outcome, playout
from recycle.players.random_player import RandomPlayer
from support.games import CHOOSE_RUNAWAY, load, make_game

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


@pytest.mark.parametrize(("kind", "budget"), [(FlatMonteCarloPlayer, 40), (ISMCTSPlayer, 200), (PIMCPlayer, 200)])
def test_a_search_meets_a_runaway_option_once(kind, budget):
    # A big budget would otherwise pay the limit for every playout of the runaway option (40 x 0.3 s for F):
    # the search finishes trying each option once, stops, and still avoids the runaway option.
    prog = load(CHOOSE_RUNAWAY)
    searcher = kind(budget=budget)
    with watchdog.step_time_limit(LIMIT):
        res = play_game(prog, 1, [searcher, RandomPlayer()])
    assert searcher.runaways == 1 and searcher.errors == 1
    assert searcher.last_iterations <= 2  # one round (F) or one iteration per option (M, P)
    assert res.outcome == "completed" and res.choices == [1]


def test_a_search_without_runaways_uses_its_whole_budget():
    prog = load(CHOOSE_RUNAWAY.replace("(== (game sto X) 1)", "(== (game sto X) 3)"))  # no option runs away
    searcher = FlatMonteCarloPlayer(budget=7)
    with watchdog.step_time_limit(LIMIT):
        play_game(prog, 1, [searcher, RandomPlayer()])
    assert searcher.runaways == 0 and searcher.last_iterations == 7


def test_only_the_watchdogs_error_counts_as_a_runaway():
    assert watchdog.stopped(GameRuntimeError("limit", watchdog.message(0.3)))
    assert not watchdog.stopped(GameRuntimeError("limit", "repeat count 200000 is more than MAX_REPEAT"))
    assert not watchdog.stopped(GameRuntimeError("type", watchdog.message(0.3)))
    assert not watchdog.stopped(None)


def test_the_watchdogs_exception_landing_after_a_playouts_step_ends_that_playout():
    # the rare race (engine/watchdog.py): the exception arrives just after a step of the playout ended
    choose = "(choice ((set (game sto X) 1) (set (game sto X) 2)))"
    prog = load(make_game(declares="(declare 0 'X)", items=f"{choose}\n {choose}"))  # two decisions
    real, calls = prog.apply, []

    def apply_then_land(st, i, kind=None):
        real(st, i, kind)
        calls.append(i)
        raise watchdog.StepTimeExceeded

    prog.apply = apply_then_land
    s = prog.new_game(1)
    playout(prog, s, random.Random(2))
    assert calls == [calls[0]] and s.status == ERROR and watchdog.stopped(s.error)
    assert outcome(prog, s) is None  # an error: it rewards nobody, as a runaway playout
