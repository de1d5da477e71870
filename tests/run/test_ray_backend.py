"""`--backend ray` (issue 16): a 2-worker local Ray cluster started by `recycle run` writes the folder
`--jobs 1` writes, byte for byte (summary.json's timing aside); without the extra, one line and exit 2.

A tournament on Ray gives the games of one job, and a Ray worker killed in the middle of a batch has
its chunk played again, the files unchanged.  The cluster tests run the command in a child process
(Ray starts its own processes and threads: they stay out of the test process) and skip when Ray is
not installed (CI installs the extra [ray]).  Starting Ray takes a few seconds each time.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from recycle.cli import main
from recycle.run import raybatch
from support import REPO, folder_files

DEAL_N = str(REPO / "tests" / "fixtures" / "games" / "deal_n.gdl")


def have_ray() -> bool:
    try:
        import ray
    except ImportError:
        return False
    return hasattr(ray, "init")  # not a folder named ray on the path


needs_ray = pytest.mark.skipif(not have_ray(), reason="Ray is not installed (the extra [ray])")


def child(*argv: str) -> subprocess.CompletedProcess:
    path = os.pathsep.join([str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])])
    return subprocess.run([sys.executable, "-m", "recycle", *argv], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": path}, cwd=REPO)


@needs_ray
def test_a_two_worker_local_ray_cluster_writes_what_one_job_writes(tmp_path):
    n = "300"
    one, on_ray = tmp_path / "one", tmp_path / "ray"
    assert main(["run", DEAL_N, "-n", n, "--seed", "21", "-q", "--out", str(one)]) == 0
    done = child("run", DEAL_N, "-n", n, "--seed", "21", "-q", "--out", str(on_ray), "--backend", "ray",
                 "--jobs", "2")
    assert done.returncode == 0, done.stderr
    want, got = folder_files(one), folder_files(on_ray)
    assert len(want) == 3 + 1 + 300 and sorted(got) == sorted(want)
    for name in want:
        assert got[name] == want[name], name
    assert json.loads((on_ray / "summary.json").read_text())["timing"]["jobs"] == 2


@needs_ray
def test_a_tournament_on_ray_gives_the_games_of_one_job(tmp_path):
    pytest.importorskip("openskill")
    one, on_ray = tmp_path / "one", tmp_path / "ray"
    argv = ["tournament", DEAL_N, "--players", "R,F", "-n", "6", "--seed", "4", "-q", "--json"]
    assert main([*argv, "--out", str(one)]) == 0
    done = child(*argv, "--out", str(on_ray), "--backend", "ray", "--jobs", "2")
    assert done.returncode == 0, done.stderr
    assert (on_ray / "games.csv").read_bytes() == (one / "games.csv").read_bytes()


def test_without_the_extra_backend_ray_says_so_in_one_line(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    assert main(["run", DEAL_N, "-n", "3", "--backend", "ray", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err == f"error: {raybatch.RAY_MISSING}\n"
    assert "pip install 'recycle[ray]'" in err
    assert not (tmp_path / "o").exists()  # said before anything is written


def test_address_without_backend_ray_is_refused(capsys):
    assert main(["run", DEAL_N, "-n", "3", "--address", "10.0.0.1:6379"]) == 2
    assert "--address joins a Ray cluster: give it with --backend ray" in capsys.readouterr().err


@needs_ray
def test_a_lost_ray_worker_has_its_chunk_played_again(tmp_path):
    """SIGKILL one actor in the middle of the batch: Ray restarts it, the chunk is played again, and the
    files are still those of the local backend."""
    if shutil.which("ps") is None:
        pytest.skip("needs ps to find Ray's worker processes")
    n = "600"
    game = str(REPO / "games" / "block_rummy.gdl")
    argv = ["run", game, "-n", n, "--seed", "5", "-q", "--transcripts", "none"]
    on_ray, local = tmp_path / "ray", tmp_path / "local"
    path = os.pathsep.join([str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])])
    proc = subprocess.Popen([sys.executable, "-m", "recycle", *argv, "--out", str(on_ray), "--backend", "ray",
                             "--jobs", "2"], env={**os.environ, "PYTHONPATH": path}, cwd=REPO,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    killed = None
    try:
        deadline = time.monotonic() + 120
        while killed is None and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.2)
            summary = on_ray / "summary.json"
            try:
                kept = json.loads(summary.read_text())["games_kept"] if summary.exists() else 0
            except ValueError:  # being replaced
                continue
            actors = [int(line.split()[0]) for line in subprocess.run(
                ["ps", "-eo", "pid,args"], capture_output=True, text=True).stdout.splitlines()
                if "ray::Player" in line]
            if kept > 0 and actors:
                os.kill(actors[0], signal.SIGKILL)
                killed = actors[0]
        _, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
    if killed is None:
        pytest.skip("the batch ended before a worker could be killed (a fast machine)")
    assert proc.returncode == 0, err
    assert main([*argv, "--out", str(local), "--jobs", "2"]) == 0
    assert folder_files(on_ray) == folder_files(local)


def test_chunks_grow_to_a_fifth_of_a_second_of_play_and_shrink_for_the_last_games():
    size = raybatch.chunk_size
    assert size(25, None, 100_000, 2) == 25  # nothing back yet: the first size
    assert size(25, None, 7, 2) == 7
    assert size(25, 0.00005, 100_000, 2) == 4000  # 50 µs games: 0.2 s of them
    assert size(25, 0.5, 100_000, 2) == 1  # slower than the target: one game a chunk
    assert size(25, 0.0, 100_000, 2) == raybatch.MAX_CHUNK
    assert size(25, 0.00005, 1000, 2) == 250  # the end: a quarter of what is left each
    assert size(25, 0.00005, 3, 2) == 1
