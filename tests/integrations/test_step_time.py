"""A runaway step under the adapters (engine/watchdog.py): the game ends with its run-time error of class
`limit`, worth 0 to every seat, as any run-time error; no exception reaches the learning code."""
from __future__ import annotations

import pytest

from recycle.engine import watchdog
from recycle.integrations.core import RecycleSession
from support.games import CHOOSE_RUNAWAY

LIMIT = 0.3


@pytest.fixture
def game_file(tmp_path):
    p = tmp_path / "choose_runaway.gdl"
    p.write_text(CHOOSE_RUNAWAY)
    return p


def test_the_session_ends_the_game_and_returns_zeros(game_file):
    s = RecycleSession(game_file)
    with watchdog.step_time_limit(LIMIT):
        st = s.new_state(1)
        legal = s.legal(st)
        assert len(legal) == 2
        s.apply(st, legal[0])  # the option that runs away
    assert s.is_over(st)
    assert st.error is not None and st.error.cls == "limit"
    assert s.returns(st) == [0.0, 0.0]


def test_pettingzoo_terminates_the_episode(game_file):
    pytest.importorskip("pettingzoo", reason="PettingZoo is not installed: pip install 'recycle[pettingzoo]'")
    from recycle.integrations.pettingzoo import env

    e = env(str(game_file))
    old = watchdog.set_max_step_time(LIMIT)  # the adapters play under the process's limit
    try:
        e.reset(seed=1)
        agent = e.agent_selection
        e.step(e.infos[agent]["option_ids"][0])
    finally:
        watchdog.set_max_step_time(old)
    assert all(e.terminations.values())
    assert e.rewards == {a: 0.0 for a in e.possible_agents}
