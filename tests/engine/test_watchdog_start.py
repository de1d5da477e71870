"""Every way a process can start playing has the step-time watchdog (engine/watchdog.py), not only
Program.new_game: a state unpickled in a process that never started a game, a scenario arranged by hand,
and a child forked from a process that has one.  Each case runs in a fresh Python process, which has no
watchdog until one of these starts it; its runaway is stopped at 0.3 CPU seconds."""
from __future__ import annotations

import os
import pickle
import subprocess
import sys
import textwrap

import pytest

from support import REPO
from support.games import CHOOSE_RUNAWAY, load

LIMIT = 0.3
PREAMBLE = f"""
import pickle, sys, threading
from recycle.engine import watchdog
from recycle.engine.state import ERROR
from support.games import CHOOSE_RUNAWAY, load
LIMIT = {LIMIT}
def watching():
    return watchdog._running[0] and any(t.name == "recycle-watchdog" for t in threading.enumerate())
"""


def fresh_python(body: str, tmp_path, timeout: float = 60) -> subprocess.CompletedProcess:
    script = tmp_path / "script.py"
    script.write_text(PREAMBLE + textwrap.dedent(body))
    path = os.pathsep.join([str(REPO), str(REPO / "tests"), *filter(None, [os.environ.get("PYTHONPATH")])])
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "PYTHONPATH": path}, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return done


def test_a_state_unpickled_in_a_fresh_process_is_timed(tmp_path):
    prog = load(CHOOSE_RUNAWAY)
    (tmp_path / "state.pickle").write_bytes(pickle.dumps(prog.new_game(1)))  # p1 to choose: 1 runs away
    done = fresh_python("""
        prog = load(CHOOSE_RUNAWAY)  # compiling starts no watchdog
        assert not watching()
        st = pickle.loads(open("state.pickle", "rb").read())
        assert watching()
        with watchdog.step_time_limit(LIMIT):
            prog.apply(st, 0)
        assert st.status == ERROR and st.error.cls == "limit", st
        print(st.error.message)
    """, tmp_path)
    assert f"more than {LIMIT:g} s of CPU time" in done.stdout


def test_a_scenario_arranged_by_hand_is_timed(tmp_path):
    (tmp_path / "g.gdl").write_text(CHOOSE_RUNAWAY)
    done = fresh_python("""
        from recycle.run.scenario import Scenario
        sc = Scenario.open("g.gdl")  # right after setup: no new_game
        assert watching()
        with watchdog.step_time_limit(LIMIT):
            sc.run()
            sc.prog.apply(sc.st, 0)
        assert sc.st.status == ERROR and sc.st.error.cls == "limit", sc.st
        print("stopped")
    """, tmp_path)
    assert done.stdout.strip() == "stopped"


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this system")
def test_a_child_forked_mid_game_is_timed(tmp_path):
    done = fresh_python("""
        import os
        prog = load(CHOOSE_RUNAWAY)
        st = prog.new_game(1)  # the parent's watchdog starts here
        assert watching()
        pid = os.fork()
        if pid == 0:  # the child goes on with the parent's state, without a game of its own
            ok = watching()
            with watchdog.step_time_limit(LIMIT):
                prog.apply(st, 0)
            os._exit(0 if ok and st.status == ERROR and st.error.cls == "limit" else 3)
        _, status = os.waitpid(pid, 0)
        print("child", os.waitstatus_to_exitcode(status))
    """, tmp_path)
    assert done.stdout.strip() == "child 0"
