"""The step-time watchdog's rare race inside a searching player (engine/watchdog.py, montecarlo.SearchPlayer.
_searched): its exception lands just after a simulated step ended, in the search's own code, outside the
playouts' handler.  That ends only the search: the player picks from what it has and the real game goes on.
The same exception landing before the search's first simulated step is the real game's (its step ran past
the limit just before the player was asked): it ends the real game with the `limit` error, as before.
The landing is simulated by raising StepTimeExceeded once at those points."""
from __future__ import annotations

import sys

import pytest

from recycle.compiler import load_program
from recycle.engine import watchdog
from recycle.engine.play import play_game
from recycle.players import mcts, montecarlo
from recycle.players.mcts import ISMCTSPlayer, PIMCPlayer
from recycle.players.montecarlo import FlatMonteCarloPlayer
from recycle.players.random_player import RandomPlayer
from support import FIXTURES

HIGH_CARD = FIXTURES / "games" / "high_card.gdl"  # p1 takes the face-up NINE or the top of the stock; p2 too
KINDS = [(FlatMonteCarloPlayer, 6), (ISMCTSPlayer, 30), (PIMCPlayer, 100)]  # P: four worlds of 25
SEED = 3


class Landing:
    """Raises StepTimeExceeded once, after the `at`-th call of the wrapped function made while a search runs."""

    def __init__(self, at: int, after: bool = True):
        self.at, self.after = at, after
        self.calls = 0
        self.landed = False
        self.searching = False

    def wrap(self, fn):
        def wrapped(*args, **kwargs):
            result = fn(*args, **kwargs) if self.after else None
            if self.searching and not self.landed:
                self.calls += 1
                if self.calls == self.at:
                    self.landed = True
                    raise watchdog.StepTimeExceeded
            return result if self.after else fn(*args, **kwargs)
        return wrapped


def searcher_under(landing: Landing, kind, budget, **kw):
    """A searching player of `kind` that opens `landing` while it chooses."""

    class Searcher(kind):
        def choose(self, prog, st):
            landing.searching = True
            try:
                return super().choose(prog, st)
            finally:
                landing.searching = False
    return Searcher(budget=budget, **kw)


def play(searcher):
    prog = load_program(HIGH_CARD)
    return prog, play_game(prog, SEED, [searcher, RandomPlayer()])


def clean_choices(kind, budget, **kw):
    return play(kind(budget=budget, **kw))[1].choices


@pytest.mark.parametrize(("kind", "budget"), KINDS)
@pytest.mark.parametrize("where", ["sample_world", "outcome", "option_keys"])
def test_a_landing_after_a_simulated_step_ends_only_the_search(monkeypatch, kind, budget, where):
    # sample_world ends with the step that rebuilds the world's options; outcome follows a playout's last
    # step; option_keys of a world follows sample_world: all outside `playout`'s handler
    landing = Landing(at=3)
    for module in (montecarlo, mcts):
        if hasattr(module, where):
            monkeypatch.setattr(module, where, landing.wrap(getattr(module, where)))
    searcher = searcher_under(landing, kind, budget)
    _, res = play(searcher)
    assert landing.landed and res.outcome == "completed" and res.error is None and res.n_decisions == 2
    assert searcher.cut == 1
    assert 1 <= searcher.last_iterations < budget  # the search ended where the exception landed


@pytest.mark.parametrize(("kind", "budget"), KINDS)
def test_a_landing_after_a_simulated_apply_ends_only_the_search(kind, budget):
    # a world's option applied by the selection and expansion of M and P, or before F's playout: the
    # exception lands as `Program.apply` returns, in the search's code
    landing = Landing(at=2)
    prog = load_program(HIGH_CARD)
    real_state = []
    apply = landing.wrap(prog.apply)
    real_apply = prog.apply

    def apply_world(st, i, kind=None):  # the real game's steps and the playouts' (their own handler) left alone
        inside = st is real_state[0] or sys._getframe(1).f_code.co_name == "playout"
        return (real_apply if inside else apply)(st, i, kind)
    prog.apply = apply_world
    new_game = prog.new_game

    def new_game_kept(*args, **kwargs):
        real_state.append(new_game(*args, **kwargs))
        return real_state[0]
    prog.new_game = new_game_kept
    searcher = searcher_under(landing, kind, budget)
    res = play_game(prog, SEED, [searcher, RandomPlayer()])
    assert landing.landed and res.outcome == "completed" and res.n_decisions == 2
    assert searcher.cut == 1


@pytest.mark.parametrize(("kind", "budget"), KINDS)
def test_a_landing_in_the_pick_makes_the_pick_again(monkeypatch, kind, budget):
    # after the search's last simulated step, while the player picks and records its estimates
    landing = Landing(at=1, after=True)
    for module in (montecarlo, mcts):
        monkeypatch.setattr(module, "estimate_record", landing.wrap(montecarlo.estimate_record))
    searcher = searcher_under(landing, kind, budget, record_estimates=True)
    _, res = play(searcher)
    clean = kind(budget=budget, record_estimates=True)
    _, want = play(clean)
    assert landing.landed and res.outcome == "completed" and res.choices == want.choices
    assert searcher.cut == 1
    assert searcher.estimates == clean.estimates  # one record per decision, the same as without the landing


@pytest.mark.parametrize("kind", [ISMCTSPlayer, PIMCPlayer])
def test_a_landing_in_a_forced_decisions_estimate_ends_only_its_playouts(monkeypatch, kind):
    # with this seed p1 (random) takes the NINE: p2 can only take the top of the stock, a forced decision whose
    # estimate (recording on) comes from max(1, budget // 10) playouts of its one option
    prog = load_program(HIGH_CARD)
    landing = Landing(at=2)
    monkeypatch.setattr(mcts, "outcome", landing.wrap(mcts.outcome))
    searcher = searcher_under(landing, kind, 40, record_estimates=True)
    res = play_game(prog, 1, [RandomPlayer(), searcher])
    assert landing.landed and res.outcome == "completed" and res.choices == [1, 0]
    assert searcher.cut == 1
    [est] = searcher.estimates
    assert est["options"] == 1 and est["samples"] == [1]  # the playout before the landing


@pytest.mark.parametrize(("kind", "budget"), KINDS)
def test_a_landing_before_the_first_simulated_step_is_the_real_games(monkeypatch, kind, budget):
    # the search has only keyed the real options: the exception is the real step's, which ends the real game
    landing = Landing(at=1)
    for module in (montecarlo, mcts):
        monkeypatch.setattr(module, "option_keys", landing.wrap(montecarlo.option_keys))
    searcher = searcher_under(landing, kind, budget)
    _, res = play(searcher)
    assert landing.landed and res.outcome == "error" and res.n_decisions == 0
    assert res.error is not None and res.error.cls == "limit"
    assert res.error.message == watchdog.message(watchdog.max_step_time())
    assert searcher.cut == 0


@pytest.mark.parametrize(("kind", "budget"), KINDS)
def test_without_a_landing_the_same_seed_plays_the_same_game(kind, budget):
    a = kind(budget=budget, record_estimates=True)
    b = kind(budget=budget, record_estimates=True)
    ra, rb = play(a)[1], play(b)[1]
    assert ra.choices == rb.choices and a.estimates == b.estimates
    assert a.last_iterations == budget
