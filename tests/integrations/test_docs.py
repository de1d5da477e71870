"""docs/integrations.md: its examples run as written, and the training example learns."""
from __future__ import annotations

import contextlib
import io
import re

import pytest

from support import REPO

pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'recycle[openspiel]'")
pytest.importorskip("pettingzoo", reason="PettingZoo is not installed: pip install 'recycle[pettingzoo]'")

DOC = (REPO / "docs" / "integrations.md").read_text("utf-8")


def test_the_examples_run_and_the_policy_learns():
    blocks = re.findall(r"```python\n(.*?)```", DOC, re.S)
    assert len(blocks) == 4  # OpenSpiel, its algorithms, PettingZoo, training
    out = io.StringIO()
    names: dict = {}  # the page's blocks continue each other, as in one session
    with contextlib.redirect_stdout(out):
        for block in blocks:
            exec(compile(block, "docs/integrations.md", "exec"), names)
    lines = out.getvalue().splitlines()
    assert re.fullmatch(r"3 1048576 Utility\.ZERO_SUM", lines[0])  # leap_rummy with PLAYERS=3
    returns = [float(x) for x in lines[1].strip("[]").split(",")]
    assert len(returns) == 3 and abs(sum(returns)) < 1e-9
    assert lines[2].startswith("move ")  # the MCTS bot's move, as seat p1 sees it
    assert lines[3].startswith("block_rummy, game seed 7")
    assert "hidden" in out.getvalue()  # the render shows the other hand as backs
    rewards = eval(next(line for line in lines if line.startswith("{'player_0'")))
    assert sorted(rewards.values()) == [-1.0, 1.0] or set(rewards.values()) == {0.0}
    m = re.fullmatch(r"win rate against a random player: (\d\.\d\d) before training, (\d\.\d\d) after", lines[-1])
    assert m, lines[-1]
    before, after = map(float, m.groups())
    assert after > before + 0.1  # the learner now plays its high cards
