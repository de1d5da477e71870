"""The OpenSpiel game type `recycle` (recycle.integrations.openspiel): OpenSpiel's checks and algorithms run on it."""
from __future__ import annotations

import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'recycle[openspiel]'")

import recycle  # noqa: E402
import recycle.integrations.openspiel  # noqa: E402  (registers the game type)
from support import CORPUS_MISSING, FIXTURES, corpus_id, corpus_sample  # noqa: E402

SHIPPED = sorted(recycle.shipped_games())
SAMPLE = corpus_sample(20)
TINY = str(FIXTURES / "games" / "deal_n.gdl")  # two seats, N cards each, a card played per decision


def _load(game: str, **params) -> pyspiel.Game:
    return pyspiel.load_game("recycle", {"game": game, **params})


@pytest.mark.parametrize("name", SHIPPED)
def test_random_sim_on_every_shipped_game(name):
    # Two games per file, cut at 20 decisions (a limit ends a game with its provisional scores).
    pyspiel.random_sim_test(_load(name, deals=16, max_decisions=20), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("path", SAMPLE or [pytest.param(None, marks=pytest.mark.skip(reason=CORPUS_MISSING))],
                         ids=[corpus_id(p) for p in SAMPLE] or ["no-corpus"])
def test_random_sim_on_20_corpus_games(path):
    pyspiel.random_sim_test(_load(str(path), deals=16, max_decisions=20), num_sims=2, serialize=True, verbose=False)


def test_the_game_is_what_its_file_says():
    game = _load("block_rummy", deals=8)
    t = game.get_type()
    assert t.short_name == "recycle"
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    fitted = game.session.codec  # the id table fitted to the game: 5 × 54 × 12² + 2**16 ids
    assert game.num_players() == 2 and game.num_distinct_actions() == fitted.num_distinct_actions == 104_416
    assert game.max_chance_outcomes() == 8
    assert _load("block_rummy", action_bits=12).num_distinct_actions() == 2**12
    solitaire = _load("rummy_squared_solitaire")
    assert solitaire.num_players() == 1 and solitaire.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    # the game's own parameters pass through `params`
    assert _load(TINY, params="N=1").max_game_length() > 0
    with pytest.raises(Exception, match="NAME=VALUE"):
        _load(TINY, params="N")


def test_deal_i_is_recycle_game_seed_i_and_observations_hide_the_other_hand():
    game = _load("block_rummy", deals=8)
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 8
    state.apply_action(5)
    engine = recycle.load("block_rummy").start(seed=5)
    assert state.current_player() == engine.to_move
    assert len(state.legal_actions()) == len(engine.options())
    mine, theirs = state.observation_string(0), state.observation_string(1)
    assert "p2 iloc HAND: 10 hidden" in mine and "p1 iloc HAND: 10 hidden" in theirs
    assert state.information_state_string(0).startswith("seat p1")
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()
    assert len(state.information_state_tensor(0)) == game.information_state_tensor_size()


def test_clone_serialise_and_resample():
    game = _load("block_rummy", deals=8, max_decisions=30)
    state = game.new_initial_state()
    state.apply_action(2)
    rng = np.random.RandomState(0)
    for _ in range(6):
        state.apply_action(rng.choice(state.legal_actions()))
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert clone.history() != state.history()  # the clone moved, the original did not
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert again.history() == state.history() and str(again) == str(state)
    assert pickle.loads(pickle.dumps(state)).history() == state.history()
    me = state.current_player()
    other = state.resample_from_infostate(me, rng.random_sample)
    assert other.information_state_string(me) == state.information_state_string(me)
    assert other.observation_string(me) == state.observation_string(me)
    assert other.legal_actions() == state.legal_actions()  # ids depend on what the seat sees only
    assert str(other) != str(state)  # the hidden cards were dealt again


def test_mcts_bot_plays_a_few_moves():
    from open_spiel.python.algorithms import mcts

    game = _load("block_rummy", deals=4, max_decisions=20)
    rng = np.random.RandomState(1)
    bot = mcts.MCTSBot(game, 2.0, 8, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    state.apply_action(0)
    for _ in range(3):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert state.move_number() == 4


def test_cfr_runs_on_a_tiny_game():
    from open_spiel.python.algorithms import cfr, exploitability

    # Two cards each, three deals: a tree small enough to list (CFR walks it whole).
    game = _load(TINY, params="N=2", deals=3, action_bits=8, on_clash="ignore")  # 256 ids, all hashed: clashes
    solver = cfr.CFRSolver(game)
    conv = []
    for _ in range(3):
        solver.evaluate_and_update_policy()
        conv.append(exploitability.nash_conv(game, solver.average_policy()))
    assert all(c >= -1e-9 for c in conv)
    assert conv[-1] <= conv[0] + 1e-9  # no worse after three iterations


def test_openspiel_rl_environment_and_tabular_q_learner_run_a_few_episodes():
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import tabular_qlearner

    game = _load(TINY, params="N=2", deals=64, action_bits=10)
    env = rl_environment.Environment(game, seed=0)
    agents = [tabular_qlearner.QLearner(player_id=p, num_actions=game.num_distinct_actions()) for p in range(2)]
    for _ in range(20):
        step = env.reset()
        while not step.last():
            p = step.observations["current_player"]
            step = env.step([agents[p].step(step).action])
        for agent in agents:
            agent.step(step)  # the learners see the end of the episode
        assert sorted(step.rewards) in ([-1.0, 1.0], [0.0, 0.0])
    assert any(agent._q_values for agent in agents)  # they learnt values for the moves they met


def test_a_deal_outside_the_chance_outcomes_is_refused():
    state = _load("block_rummy", deals=4).new_initial_state()
    for bad in (4, 10**9):
        with pytest.raises(ValueError, match=rf"deal {bad} is not a chance outcome here \(outcomes: 0\.\.3\)"):
            state.apply_action(bad)
    assert state.is_chance_node()  # nothing dealt
    state.apply_action(3)
    assert not state.is_chance_node() and state.history() == [3]
