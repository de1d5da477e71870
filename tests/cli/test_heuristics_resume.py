"""`recycle stats --heuristics` keeps what it played and --resume finishes it byte for byte (issue 13).

The signal tests run the command in a real process on tests/fixtures/games/high_card.gdl (a game of two
decisions) with a few games per batch.  The process is slowed down (each game waits 150 ms, from a
wrapper that patches recycle.run.batch.play_run) so that the test can send SIGINT or SIGTERM while the
second batch (ai-vs-random) is being played; then --resume must finish the three batches with files
equal to an uninterrupted run, without playing again the batch that was already complete.  The same
with --jobs 2 and a worker killed.  The other tests run in this process: a signal between batches, the
folder rules (refuse, --force), the --resume checks and symlinks.
"""
from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from recycle.cli import main, statsbatch
from recycle.run import batch
from recycle.run.tables import RECORDS, STATE
from support import REPO

HIGH_CARD = str(REPO / "tests" / "fixtures" / "games" / "high_card.gdl")
N = 8
ARGS = ["--heuristics", "-n", str(N), "--seed", "11", "--ai-budget", "4", "--bootstrap", "20",
        "--plot-format", "svg", "--flow-format", "svg", "-q"]
BATCHES = ("random", "ai-vs-random", "ai")

# Runs recycle with every game slowed down, and counts the games played per lineup into a file, so that
# the test sees which batches --resume plays again.
SLOW = """
import sys, time
from recycle.run import batch
from recycle.cli import main, statsbatch
real = batch.play_run
log = open(sys.argv[1], "a")
def play(sess, spec, r):
    time.sleep(0.15)
    log.write("".join(spec.lineup) + " " + str(r) + "\\n"); log.flush()
    return real(sess, spec, r)
batch.play_run = play
sys.exit(main(sys.argv[2:]))
"""


def argv(out: Path, *extra: str) -> list[str]:
    return ["stats", HIGH_CARD, *ARGS, "--out", str(out), *extra]


def env() -> dict:
    return {**os.environ, "PYTHONPATH": str(REPO)}


def untimed(doc):
    """A summary.json or evaluation.json without its timings (the only part that may differ)."""
    if isinstance(doc, dict):
        return {k: untimed(v) for k, v in doc.items() if k != "timing"}
    if isinstance(doc, list):
        return [untimed(v) for v in doc]
    return doc


def fingerprint(d: Path) -> dict:
    files = {}
    for p in sorted(d.rglob("*")):
        if p.is_file():
            rel = p.relative_to(d).as_posix()
            data = p.read_bytes()
            if p.name in ("summary.json", "evaluation.json"):
                data = json.dumps(untimed(json.loads(data)), sort_keys=True).encode()
            files[rel] = hashlib.sha256(data).hexdigest()
    return files


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("href") / "out"
    assert main(argv(out)) == 0
    fp = fingerprint(out)
    assert {"heuristics.json", "heuristics.csv", "evaluation.json"} <= set(fp)
    for sub in BATCHES:
        assert f"{sub}/games.csv" in fp and f"{sub}/summary.json" in fp
    assert not any(name.endswith((STATE, RECORDS)) for name in fp)  # the journals are gone
    assert json.loads((out / "evaluation.json").read_text())["complete"] is True
    return fp


def played(log: Path) -> list[str]:
    return log.read_text().split("\n")[:-1] if log.exists() else []


@pytest.mark.parametrize("how, code", [("SIGINT", 130), ("SIGTERM", 143)])
def test_signal_during_a_batch_then_resume_equals_an_uninterrupted_run(tmp_path, reference, how, code):
    out, log = tmp_path / "out", tmp_path / "played.log"
    proc = subprocess.Popen([sys.executable, "-c", SLOW, str(log), *argv(out)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env(), cwd=tmp_path)
    t0 = time.monotonic()
    summary = out / "ai-vs-random" / "summary.json"
    while time.monotonic() - t0 < 60:  # until the second batch has committed a game or two
        assert proc.poll() is None, proc.communicate()
        if summary.exists() and json.loads(summary.read_text())["games_kept"] > 0:
            break
        time.sleep(0.05)
    proc.send_signal(getattr(signal, how))
    _stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == code, stderr
    last = stderr.strip().splitlines()[-1]
    assert last.startswith(f"interrupted by {how}: kept random {N} of {N}, ai-vs-random ") and \
        "ai not started" in last and last.endswith("run the same command again with --resume"), last
    doc = json.loads((out / "evaluation.json").read_text())
    assert doc["complete"] is False
    kept = doc["batches"]["ai-vs-random"]["games_kept"]
    assert 0 < kept < N and doc["batches"]["random"] == {"games_kept": N, "games_asked": N, "complete": True}
    assert not (out / "heuristics.json").exists() and not (out / "ai").exists()
    sub = json.loads(summary.read_text())
    assert (sub["complete"], sub["games_kept"]) == (False, kept)

    log.unlink()
    proc2 = subprocess.run([sys.executable, "-c", SLOW, str(log), *argv(out, "--resume")], capture_output=True,
                           text=True, env=env(), cwd=tmp_path, timeout=120)
    assert proc2.returncode == 0, proc2.stderr
    assert "batch random: players R R; complete before the stop, read back" in proc2.stderr
    runs = played(log)
    assert not any(line.startswith("RR ") for line in runs)  # the complete batch was not played again
    # the stopped batch plays only its missing games (the flow is drawn only for the random batch)
    assert sorted(int(line.split()[1]) for line in runs if line.startswith("FR ")) == list(range(kept, N))
    assert fingerprint(out) == reference


def test_sigint_in_process_between_batches_then_resume(tmp_path, reference, monkeypatch, capsys):
    """A signal while a batch writes its whole-batch files stops before the next batch, keeping it whole."""
    out = tmp_path / "out"
    real = statsbatch.write_seats_csv

    def seats(*a, **kw):  # the random batch has played all its games and writes its seats.csv
        os.kill(os.getpid(), signal.SIGINT)
        return real(*a, **kw)

    monkeypatch.setattr(statsbatch, "write_seats_csv", seats)
    assert main(argv(out)) == 130
    assert (f"interrupted by SIGINT: kept random {N} of {N}, ai-vs-random not started, ai not started games"
            in capsys.readouterr().err)
    monkeypatch.undo()
    doc = json.loads((out / "evaluation.json").read_text())
    assert doc["complete"] is False and doc["batches"]["random"]["complete"] is True
    assert json.loads((out / "random" / "summary.json").read_text())["complete"] is True
    assert main(argv(out, "--resume")) == 0
    assert fingerprint(out) == reference


def test_non_empty_out_is_refused_and_force_clears_only_its_own_files(tmp_path, reference, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    assert main(argv(out)) == 2
    err = capsys.readouterr().err
    assert "is not empty" in err and "--force" in err and "notes.txt" in err
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
    assert main(argv(out, "--force")) == 0
    (out / "ai" / "mine.txt").write_text("also mine")
    (out / "random" / "games.csv").write_text("stale")
    assert main(argv(out)) == 2  # a finished run is not replaced silently either
    assert "is not empty" in capsys.readouterr().err
    assert main(argv(out, "--force")) == 0
    assert "removed" in capsys.readouterr().err
    assert (out / "notes.txt").read_text() == "mine" and (out / "ai" / "mine.txt").read_text() == "also mine"
    fp = fingerprint(out)
    del fp["notes.txt"], fp["ai/mine.txt"]
    assert fp == reference


def test_resume_checks(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(argv(out, "--resume")) == 2
    assert "not a folder holding an interrupted run" in capsys.readouterr().err
    out.mkdir()
    assert main(argv(out, "--resume")) == 2
    assert "nothing to resume" in capsys.readouterr().err
    # a folder of a plain `recycle stats` is not resumed by --heuristics, nor the other way round
    (out / STATE).write_text(json.dumps({"format": "recycle-resume", "identity": {"command": "stats"},
                                         "sizes": {}}))
    assert main(argv(out, "--resume")) == 2
    assert "`recycle stats`, not `recycle stats --heuristics`" in capsys.readouterr().err
    assert main(argv(out, "--resume", "--force")) == 2
    assert "choose one" in capsys.readouterr().err


def test_symlinked_batch_folder_is_refused_and_force_removes_the_link(tmp_path, monkeypatch, capsys):
    outside = tmp_path / "outside"
    outside.mkdir()
    out = tmp_path / "out"
    real = batch.play_run

    def play(sess, spec, r):
        if "".join(spec.lineup) == "RR" and r == 3:
            os.kill(os.getpid(), signal.SIGINT)
        return real(sess, spec, r)

    monkeypatch.setattr(batch, "play_run", play)
    assert main(argv(out)) == 130
    monkeypatch.undo()
    capsys.readouterr()
    (out / "ai-vs-random").symlink_to(outside, target_is_directory=True)
    assert main(argv(out, "--resume")) == 2
    assert "symlink" in capsys.readouterr().err
    assert list(outside.iterdir()) == []
    assert main(argv(out, "--force")) == 0
    assert list(outside.iterdir()) == [] and (out / "ai-vs-random").is_dir()
    assert not (out / "ai-vs-random").is_symlink()


def children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(x) for x in path.read_text().split()] if path.exists() else []


def test_a_dying_worker_stops_the_batch_and_resume_finishes_it(tmp_path, reference):
    out, log = tmp_path / "out", tmp_path / "played.log"
    proc = subprocess.Popen([sys.executable, "-c", SLOW, str(log), *argv(out, "--jobs", "2")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env(), cwd=tmp_path)
    t0 = time.monotonic()
    workers: list[int] = []
    while time.monotonic() - t0 < 60:  # until the second batch has started its workers
        assert proc.poll() is None, proc.communicate()
        workers = children(proc.pid)
        if any(line.startswith("FR ") for line in played(log)) and workers:
            break
        time.sleep(0.05)
    os.kill(workers[0], signal.SIGKILL)
    _stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 1, stderr
    last = stderr.strip().splitlines()[-1]
    assert "a worker process died" in last and f"kept random {N} of {N}, ai-vs-random " in last, last
    assert "--resume" in last and "Traceback" not in stderr
    assert json.loads((out / "evaluation.json").read_text())["complete"] is False
    proc2 = subprocess.run([sys.executable, "-m", "recycle", *argv(out, "--resume", "--jobs", "2")],
                           capture_output=True, text=True, env=env(), cwd=tmp_path, timeout=120)
    assert proc2.returncode == 0, proc2.stderr
    assert fingerprint(out) == reference
