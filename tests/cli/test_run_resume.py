"""Interrupted batches keep what they played, and --resume finishes them byte for byte (issue 13).

The kill tests run `recycle run` of 20,000 games of tests/fixtures/games/deal_n.gdl (a tiny game:
about ten seconds for the batch with two jobs) in a real process, stop it after a couple of
seconds with SIGINT, SIGTERM or by killing one worker, check what was kept, finish it with
--resume and compare every file with an uninterrupted run of the same seed.  The other tests
run in this process: the folder rules (refuse, --force, symlinks, --out ''), resume after a
half-written commit, resume checks, and `recycle stats`.
"""
from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from recycle.cli import main
from recycle.run import batch
from recycle.run.output import OutFolder, OutputError
from recycle.run.tables import RECORDS, STATE
from support import REPO, folder_files

DEAL_N = str(REPO / "tests" / "fixtures" / "games" / "deal_n.gdl")
BLOCK_RUMMY = str(REPO / "games" / "block_rummy.gdl")
BIG = 20000
TABLES = ("games.csv", "decisions.csv", "results.csv")


def run_cmd(*argv: str) -> list[str]:
    return [sys.executable, "-m", "recycle", "run", DEAL_N, "-n", str(BIG), "--jobs", "2", "--seed", "7", "-q",
            *argv]


def env() -> dict:
    return {**os.environ, "PYTHONPATH": str(REPO)}


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict:
    """The uninterrupted batch (the same command, never stopped)."""
    out = tmp_path_factory.mktemp("ref") / "out"
    proc = subprocess.run(run_cmd("--out", str(out)), capture_output=True, text=True, env=env(),
                          cwd=out.parent, timeout=300)
    assert proc.returncode == 0, proc.stderr
    fp = folder_files(out)
    assert len(fp) == 3 + 1 + BIG  # the tables, summary.json and one transcript per game
    assert not (out / STATE).exists() and not (out / RECORDS).exists()
    doc = json.loads((out / "summary.json").read_text())
    assert (doc["complete"], doc["games_kept"], doc["games_asked"]) == (True, BIG, BIG)
    return fp


def children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(x) for x in path.read_text().split()] if path.exists() else []


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"


def start_and_stop(out: Path, how: str) -> tuple[subprocess.CompletedProcess, list[int]]:
    """Start the big batch, let it play about two seconds (and at least one commit), then stop it `how`."""
    proc = subprocess.Popen(run_cmd("--out", str(out)), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env(), cwd=out.parent)
    t0 = time.monotonic()
    while time.monotonic() - t0 < 60:
        time.sleep(0.2)
        assert proc.poll() is None, proc.communicate()
        summary = out / "summary.json"
        if time.monotonic() - t0 >= 2 and summary.exists() and json.loads(summary.read_text())["games_kept"] > 0:
            break
    workers = children(proc.pid)
    assert len(workers) == 2, workers
    if how == "worker":
        os.kill(workers[0], signal.SIGKILL)
    else:
        proc.send_signal(getattr(signal, how))
    stdout, stderr = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr), workers


def check_kept(out: Path) -> int:
    """The files of a stopped run hold complete games 0..K-1, and summary.json says so; returns K."""
    doc = json.loads((out / "summary.json").read_text())
    assert doc["complete"] is False and doc["games_asked"] == BIG
    kept = doc["games_kept"]
    assert 0 < kept < BIG
    games = list(csv.DictReader(io.StringIO((out / "games.csv").read_text())))
    assert [int(g["run"]) for g in games] == list(range(kept))
    assert all(g["end_reason"] == "normal" and len(g["scores"].split(";")) == 2 for g in games)
    decisions = (out / "decisions.csv").read_text()
    assert decisions.endswith("\n")
    rows = list(csv.DictReader(io.StringIO(decisions)))
    assert len(rows) == sum(int(g["decisions"]) for g in games)  # every decision of every kept game
    results = list(csv.DictReader(io.StringIO((out / "results.csv").read_text())))
    assert len(results) == 2 * kept
    # by run number: past run 9999 the names grow a digit, so their text order is not the runs' order
    names = sorted((p.name for p in (out / "transcripts").iterdir()), key=lambda n: int(n[4:-6]))
    assert names == [f"run-{i:04d}.jsonl" for i in range(kept)]
    last = (out / "transcripts" / names[-1]).read_text().splitlines()
    assert json.loads(last[-1])["type"] == "end"
    return kept


def resume_and_compare(out: Path, reference: dict, kept: int) -> None:
    proc = subprocess.run(run_cmd("--out", str(out), "--resume"), capture_output=True, text=True, env=env(),
                          cwd=out.parent, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert f"resuming after {kept} kept games" in proc.stderr
    assert folder_files(out) == reference


needs_proc = pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="finds the workers in Linux /proc")


@needs_proc
@pytest.mark.parametrize("how, code", [("SIGINT", 130), ("SIGTERM", 143)])
def test_signal_keeps_finished_games_and_resume_finishes_byte_for_byte(tmp_path, reference, how, code):
    out = tmp_path / "out"
    proc, workers = start_and_stop(out, how)
    assert proc.returncode == code, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert lines[-1].startswith(f"interrupted by {how}: kept ") and "--resume" in lines[-1], lines
    assert len(lines) == 2  # the batch's first line, then the one line saying what was kept
    assert all(gone(w) for w in workers)  # no orphan worker
    kept = check_kept(out)
    assert f"kept {kept} of {BIG} games" in lines[-1]
    resume_and_compare(out, reference, kept)


@needs_proc
def test_a_dying_worker_stops_the_run_cleanly_and_it_resumes(tmp_path, reference):
    out = tmp_path / "out"
    proc, workers = start_and_stop(out, "worker")
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    last = proc.stderr.strip().splitlines()[-1]
    assert "worker process died (killed by SIGKILL)" in last and "--resume" in last, last
    assert all(gone(w) for w in workers)
    kept = check_kept(out)
    resume_and_compare(out, reference, kept)


@needs_proc
def test_kill_9_of_the_run_leaves_no_worker_and_a_resumable_folder(tmp_path, reference):
    out = tmp_path / "out"
    proc, workers = start_and_stop(out, "SIGKILL")
    assert proc.returncode == -signal.SIGKILL
    t0 = time.monotonic()
    while not all(gone(w) for w in workers) and time.monotonic() - t0 < 10:
        time.sleep(0.1)
    assert all(gone(w) for w in workers)  # the kernel ended them with their parent
    doc = json.loads((out / "summary.json").read_text())
    assert doc["complete"] is False and doc["games_kept"] < BIG
    proc2 = subprocess.run(run_cmd("--out", str(out), "--resume"), capture_output=True, text=True, env=env(),
                           cwd=out.parent, timeout=300)
    assert proc2.returncode == 0, proc2.stderr
    assert folder_files(out) == reference


# ---------------------------------------------------------------- in this process


def interrupt_at(monkeypatch, run: int) -> None:
    """SIGINT arrives while run `run` is being played (one job: the game is dropped at once)."""
    real = batch.play_run

    def play(sess, spec, r):
        if r == run:
            os.kill(os.getpid(), signal.SIGINT)
        return real(sess, spec, r)

    monkeypatch.setattr(batch, "play_run", play)


def small(out: Path, *extra: str, n: int = 8, game: str = DEAL_N) -> list[str]:
    return ["run", game, "-n", str(n), "--seed", "3", "--out", str(out), "-q", *extra]


def test_sigint_in_process_then_resume(tmp_path, monkeypatch, capsys):
    ref, out = tmp_path / "ref", tmp_path / "out"
    assert main(small(ref)) == 0
    interrupt_at(monkeypatch, 5)
    assert main(small(out)) == 130
    err = capsys.readouterr().err
    assert "interrupted by SIGINT: kept 5 of 8 games" in err
    assert check_small(out, 5, 8)
    monkeypatch.undo()
    assert main(small(out, "--resume")) == 0
    assert folder_files(out) == folder_files(ref)


def test_sigint_without_out_says_nothing_was_written(monkeypatch, capsys):
    interrupt_at(monkeypatch, 2)
    assert main(["run", DEAL_N, "-n", "8", "--seed", "3", "-q"]) == 130
    out, err = capsys.readouterr()
    assert err.strip().splitlines()[-1] == ("interrupted by SIGINT: 2 of 8 games were played; "
                                             "nothing written (no --out)")
    assert out == ""


def check_small(out: Path, kept: int, asked: int) -> bool:
    doc = json.loads((out / "summary.json").read_text())
    return (doc["complete"], doc["games_kept"], doc["games_asked"]) == (False, kept, asked)


def test_resume_after_a_kill_in_the_middle_of_a_commit(tmp_path, monkeypatch, capsys):
    """What kill -9 can leave (a half-appended row, a transcript past the commit, a temporary file) is undone."""
    ref, out = tmp_path / "ref", tmp_path / "out"
    assert main(small(ref)) == 0
    interrupt_at(monkeypatch, 4)
    assert main(small(out)) == 130
    monkeypatch.undo()
    with open(out / "games.csv", "a") as f:
        f.write("deal_n,2,RR,4,12345,nor")
    with open(out / RECORDS, "a") as f:
        f.write('{"run": 4, "game_')
    (out / "transcripts" / "run-0004.jsonl").write_text('{"type": "header"')
    (out / ".games.csv.tmp-recycle-999").write_text("partial")
    assert main(small(out, "--resume")) == 0
    assert folder_files(out) == folder_files(ref)


def test_resume_checks_the_run_is_the_same(tmp_path, monkeypatch, capsys):
    out = tmp_path / "out"
    interrupt_at(monkeypatch, 3)
    assert main(small(out)) == 130
    monkeypatch.undo()
    capsys.readouterr()
    for argv, needle in [
        (["run", DEAL_N, "-n", "8", "--seed", "4", "--out", str(out), "--resume"], "different --seed: 3 there, 4 here"),
        (small(out, "--resume", n=9), "different -n: 8 there, 9 here"),
        (small(out, "--resume", "--param", "N=4"), "different --param"),
        (small(out, "--resume", game=BLOCK_RUMMY), "different game: 'deal_n' there"),
        (small(out, "--resume", "--force"), "choose one"),
    ]:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert needle in err and "Traceback" not in err, (needle, err)
    assert check_small(out, 3, 8)  # nothing was touched
    # without --seed, the recorded seed is used
    assert main(["run", DEAL_N, "-n", "8", "--out", str(out), "-q", "--resume"]) == 0
    assert json.loads((out / "summary.json").read_text())["complete"] is True
    assert main(small(out, "--resume")) == 2
    assert "nothing to resume" in capsys.readouterr().err


def test_a_non_empty_folder_is_refused_and_force_removes_only_own_files(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    assert main(small(out)) == 2
    err = capsys.readouterr().err
    assert "is not empty" in err and "--force" in err and "notes.txt" in err
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
    # an earlier, larger run left more transcripts; --force removes them, never the user's files
    assert main(small(out, "--force", n=12)) == 0
    (out / "transcripts" / "keep.txt").write_text("also mine")
    (out / "plot.png").write_text("not ours: run writes no plots")
    assert main(small(out)) == 2
    assert main(small(out, "--force", n=3)) == 0
    assert "removed 16 files" in capsys.readouterr().err  # 3 tables, summary.json, 12 transcripts
    assert (out / "notes.txt").read_text() == "mine" and (out / "plot.png").exists()
    assert sorted(p.name for p in (out / "transcripts").iterdir()) == [
        "keep.txt", "run-0000.jsonl", "run-0001.jsonl", "run-0002.jsonl"]
    assert json.loads((out / "summary.json").read_text())["games_kept"] == 3


def test_empty_out_is_a_usage_error(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["run", DEAL_N, "-n", "1", "--out", ""]) == 2
    err = capsys.readouterr().err
    assert "give a folder name" in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_symlinks_inside_out_are_never_followed(tmp_path, monkeypatch, capsys):
    outside = tmp_path / "outside"
    outside.mkdir()
    target = outside / "precious.csv"
    target.write_text("precious")
    out = tmp_path / "out"
    interrupt_at(monkeypatch, 2)
    assert main(small(out)) == 130
    monkeypatch.undo()
    # a symlink planted in place of a table, or of transcripts/, is refused on resume
    (out / "games.csv").unlink()
    (out / "games.csv").symlink_to(target)
    assert main(small(out, "--resume")) == 2
    assert "symlink" in capsys.readouterr().err
    assert target.read_text() == "precious"
    # --force removes the link itself (never its target) and writes a real file
    (out / "transcripts").rename(tmp_path / "old-transcripts")
    (out / "transcripts").symlink_to(outside)
    assert main(small(out, "--force")) == 0
    assert target.read_text() == "precious" and sorted(p.name for p in outside.iterdir()) == ["precious.csv"]
    assert not (out / "games.csv").is_symlink() and (out / "transcripts").is_dir()
    assert not (out / "transcripts").is_symlink()


def test_out_folder_refuses_links_and_names_leaving_it(tmp_path):
    (tmp_path / "secret").write_text("s")
    out = tmp_path / "out"
    with OutFolder.open(out) as folder:
        (out / "link").symlink_to(tmp_path / "secret")
        for bad in ("../secret", "a/b", "..", "", "."):
            with pytest.raises(OutputError):
                folder.write_atomic(bad, "x")
        with pytest.raises(OutputError, match="symlink"):
            folder.write_atomic("link", "x")
        with pytest.raises(OutputError, match="symlink"):
            folder.append("link", b"x")
        folder.write_atomic("fine.txt", "ok")
        assert [n for n in folder.names() if "tmp" in n] == []
    assert (tmp_path / "secret").read_text() == "s" and (out / "fine.txt").read_text() == "ok"


def test_stats_interrupted_then_resumed_equals_an_uninterrupted_run(tmp_path, monkeypatch, capsys):
    ref, out = tmp_path / "ref", tmp_path / "out"
    argv = ["stats", BLOCK_RUMMY, "-n", "6", "--seed", "5", "--plot-format", "svg", "--flow-format", "svg",
            "--bootstrap", "20", "-q"]
    assert main([*argv, "--out", str(ref)]) == 0
    interrupt_at(monkeypatch, 4)
    assert main([*argv, "--out", str(out)]) == 130
    assert "interrupted by SIGINT: kept 4 of 6 games" in capsys.readouterr().err
    assert check_small(out, 4, 6)
    assert not (out / "seats.csv").exists()  # whole-batch files only when it is complete
    monkeypatch.undo()
    assert main([*argv, "--out", str(out), "--resume"]) == 0
    a, b = folder_files(ref), folder_files(out)
    for name in [*TABLES, "branching_by_index.csv", "seats.csv", "heuristics.csv", "flow.dot",
                 "flow-aggregate.dot", *(f"transcripts/run-{i:04d}.jsonl" for i in range(6))]:
        assert a[name] == b[name], name
    assert sorted(a) == sorted(b)
    doc = json.loads((out / "summary.json").read_text())
    assert (doc["complete"], doc["games_kept"], doc["games_asked"]) == (True, 6, 6)


@pytest.mark.parametrize(("key", "value"), [("elapsed_s", {}), ("elapsed_s", -1), ("games_kept", "5"),
                                            ("games_kept", None), ("sizes", {"games.csv": -3})])
def test_a_resume_state_edited_by_hand_is_refused(tmp_path, monkeypatch, capsys, key, value):
    """Each number --resume reads from the state is checked: one line, the folder untouched (a dict for the
    time was a TypeError)."""
    out = tmp_path / "out"
    interrupt_at(monkeypatch, 5)
    assert main(small(out)) == 130
    monkeypatch.undo()
    state = json.loads((out / STATE).read_text())
    state[key] = value
    (out / STATE).write_text(json.dumps(state))
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    capsys.readouterr()
    assert main(small(out, "--resume")) == 2
    err = capsys.readouterr().err
    assert f"{STATE}: damaged" in err and "Traceback" not in err
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before
