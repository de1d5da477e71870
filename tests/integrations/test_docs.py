"""docs/integrations.md: its examples run as written, and the training example learns."""
from __future__ import annotations

import contextlib
import io
import re

import pytest

import recycle
from recycle.integrations.actions import ActionCodec
from support import REPO

pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'recycle[openspiel]'")
pytest.importorskip("pettingzoo", reason="PettingZoo is not installed: pip install 'recycle[pettingzoo]'")

DOC = (REPO / "docs" / "integrations.md").read_text("utf-8")


def test_the_examples_run_and_the_policy_learns():
    blocks = re.findall(r"```python\n(.*?)```", DOC, re.S)
    assert len(blocks) == 5  # OpenSpiel, its algorithms, PettingZoo, its parallel API, training
    out = io.StringIO()
    names: dict = {}  # the page's blocks continue each other, as in one session
    with contextlib.redirect_stdout(out):
        for block in blocks:
            exec(compile(block, "docs/integrations.md", "exec"), names)
    lines = out.getvalue().splitlines()
    fitted = ActionCodec(recycle.load("leap_rummy", {"PLAYERS": 3}).program).num_distinct_actions
    assert lines[0] == f"3 {fitted} Utility.ZERO_SUM"  # leap_rummy with PLAYERS=3, its table fitted to it
    returns = [float(x) for x in lines[1].strip("[]").split(",")]
    assert len(returns) == 3 and abs(sum(returns)) < 1e-9
    assert lines[2].startswith("move ")  # the MCTS bot's move, as seat p1 sees it
    assert lines[3].startswith("block_rummy, game seed 7")
    assert "hidden" in out.getvalue()  # the render shows the other hand as backs
    aec_rewards, par_rewards = (eval(line) for line in lines if line.startswith("{'player_0'"))
    for rewards in (aec_rewards, par_rewards):
        assert sorted(rewards.values()) == [-1.0, 1.0] or set(rewards.values()) == {0.0}
    assert "True player_" in out.getvalue()  # the parallel action space: the ids and the no-op; who moves first
    m = re.fullmatch(r"win rate against a random player: (\d\.\d\d) before training, (\d\.\d\d) after", lines[-1])
    assert m, lines[-1]
    before, after = map(float, m.groups())
    assert after > before + 0.1  # the learner now plays its high cards


def test_the_sizes_table_is_each_shipped_games_table():
    rows = re.findall(r"^\| (\w+) \|.*\| ([\d,]+) \|$", DOC.split("### Sizes", 1)[1].split("## Encoding")[0], re.M)
    assert {name for name, _ in rows} == set(recycle.shipped_games())
    for name, size in rows:
        assert ActionCodec(recycle.load(name).program).num_distinct_actions == int(size.replace(",", "")), name
