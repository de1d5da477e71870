"""The step-time limit in sessions, batches and replay (engine/watchdog.py): a limit far below the default
but above every step of an ordinary game changes nothing in its replay; the header records a limit other
than the default, for replay to apply; a runaway is stopped the same on Ray's workers, which are not forked from the command."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from recycle.engine import watchdog
from recycle.run.batch import BatchSpec, play_run
from recycle.run.replay import replay
from recycle.run.session import GameSession
from recycle.run.transcript import dumps
from support import REPO
from support.games import CHOOSE_RUNAWAY

GOLDEN = sorted((REPO / "tests" / "golden").glob("*-seed-*.jsonl"))
SMALL = 0.05  # CPU seconds: the largest step of a shipped game is a few milliseconds (docs/limits.md)


def test_goldens_are_the_same_under_a_small_limit():
    assert GOLDEN
    for path in GOLDEN[::3]:  # a sample of the games: each replays in well under a second
        want = path.read_text("utf-8").splitlines()
        head = json.loads(want[0])
        with watchdog.step_time_limit(SMALL):
            got, warnings = replay(path, REPO / "games" / f"{head['game']}.gdl")
        assert warnings == []
        assert [dumps(ev) for ev in got] == want, path.name


def test_the_header_records_only_a_limit_other_than_the_default(tmp_path):
    game = tmp_path / "g.gdl"
    game.write_text(CHOOSE_RUNAWAY)
    sess = GameSession.open(game)
    spec = BatchSpec(str(game), {}, ("R", "R"), 1, transcript_level="decisions")
    head = json.loads(play_run(sess, spec, 0).transcript[0])
    assert "max_step_time" not in head["params"]
    spec = BatchSpec(str(game), {}, ("R", "R"), 1, transcript_level="decisions", max_step_time=0.3)
    recs = [play_run(sess, spec, r) for r in range(4)]
    assert {json.loads(r.transcript[0])["params"]["max_step_time"] for r in recs} == {0.3}
    stopped = [r for r in recs if r.end_reason == "error"]
    assert stopped and all("more than 0.3 s of CPU time" in r.error for r in stopped)
    assert watchdog.max_step_time() == watchdog.DEFAULT_MAX_STEP_TIME  # the spec's limit was for its runs only


def _have_ray() -> bool:
    try:
        import ray
    except ImportError:
        return False
    return hasattr(ray, "init")


@pytest.mark.skipif(not _have_ray(), reason="Ray is not installed (the extra [ray])")
def test_ray_workers_stop_a_runaway_at_the_given_limit(tmp_path):
    game = tmp_path / "g.gdl"
    game.write_text(CHOOSE_RUNAWAY)
    path = os.pathsep.join([str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])])
    done = subprocess.run([sys.executable, "-m", "recycle", "run", str(game), "-n", "4", "--seed", "3", "--json",
                           "-q", "--backend", "ray", "--jobs", "2", "--max-step-time", "0.3"],
                          capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": path}, cwd=REPO)
    summary = json.loads(done.stdout)
    assert done.returncode == 1, done.stderr  # games ended in run-time errors
    assert summary["errors"] >= 1 and summary["errors"] + summary["completed"] == 4
    assert "more than 0.3 s of CPU time" in summary["first_errors"][0]["error"]
