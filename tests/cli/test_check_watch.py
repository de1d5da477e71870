"""`recycle check --watch` (recycle/cli/check.py) in a subprocess: the first report, a save that fixes the
file (only that file's new report is printed), a save that changes nothing checked (nothing printed),
a change to a variant's base (the variant is checked again), and Ctrl-C (exit 130, nothing on stderr)."""
from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time

import pytest

from recycle.cli import main
from support import REPO

GOOD = """(game
 (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (A, B)))))
 (do ((shuffle (game iloc STOCK))))
 (scoring max 0))
"""
BAD = GOOD.replace("(shuffle", "(shufle")


def save(path, text: str) -> None:
    """Write and move the time forward, so that the change is seen whatever the file system's clock."""
    before = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(text, "utf-8")
    t = max(time.time_ns(), before + 1_000_000_000)
    os.utime(path, ns=(t, t))


def test_watch(tmp_path):
    a, b = tmp_path / "a.gdl", tmp_path / "b.gdl"
    save(a, BAD)
    save(b, GOOD)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-m", "recycle", "check", "--watch", "--interval", "0.05", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            # Ctrl-C is what the test sends: a shell running the tests in the background
                            # may have left SIGINT ignored, and Python then never raises KeyboardInterrupt
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    lines: queue.Queue = queue.Queue()

    def pump():
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line.rstrip("\n"))

    threading.Thread(target=pump, daemon=True).start()

    def until(prefix: str) -> list[str]:
        got = []
        while True:
            line = lines.get(timeout=30)
            got.append(line)
            if line.startswith(prefix):
                return got

    def quiet(seconds: float) -> list[str]:
        time.sleep(seconds)
        out = []
        while not lines.empty():
            out.append(lines.get())
        return out

    try:
        first = until(f"{b}: ok")
        assert first[0] == f"{a}: 1 error" and any("shufle" in line for line in first)
        assert quiet(0.3) == []
        save(a, GOOD)  # fixed: only a's report
        assert until(f"{a}: ok") == [f"{a}: ok"]
        save(a, ";; a comment changes nothing checked\n" + GOOD)
        assert quiet(0.5) == []
        # a variant of b, then b broken: the variant is reported again too
        v = tmp_path / "v.gdl"
        save(v, '(game (extends "b.gdl"))\n')
        assert until(f"{v}: ok") == [f"{v}: ok"]
        save(b, BAD)
        got = until(f"{v}: 1 error")
        got += quiet(0.3)  # the error's position, line and caret
        heads = [line for line in got if line.startswith(str(tmp_path)) and ": " in line and "error[" not in line]
        assert sorted(heads) == sorted([f"{b}: 1 error", f"{v}: 1 error"])
        assert any("shufle" in line for line in got)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 130
        assert proc.stderr is not None and proc.stderr.read() == ""
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_watch_refuses_json(capsys):
    from recycle.cli import main
    assert main(["check", "--watch", "--json", str(REPO / "games" / "gin_rummy.gdl")]) == 2
    assert "--json" in capsys.readouterr().err


@pytest.mark.parametrize("interval", ["nan", "inf", "1e30", "0", "-1"])
def test_watch_refuses_an_interval_it_cannot_sleep(capsys, interval):
    assert main(["check", "--watch", "--interval", interval, str(REPO / "games" / "gin_rummy.gdl")]) == 2
    err = capsys.readouterr().err
    assert "--interval must be a positive number of seconds" in err and "Traceback" not in err
