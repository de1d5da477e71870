"""recycle.run.batch.iter_batch: records in run order as they finish, a clean stop, a dying worker reported."""
from __future__ import annotations

import gc
import os
import signal
import time
from pathlib import Path

import pytest

from recycle.run.batch import BatchSpec, WorkerDied, collector_spared, iter_batch, run_batch
from support import REPO

DEAL_N = str(REPO / "tests" / "fixtures" / "games" / "deal_n.gdl")
SPEC = BatchSpec(DEAL_N, {}, ("R", "R"), 11, transcript_level="decisions")


def workers() -> list[int]:
    me = os.getpid()
    path = Path(f"/proc/{me}/task/{me}/children")
    return [int(x) for x in path.read_text().split()] if path.exists() else []


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"


def key(r) -> tuple:
    return (r.run, r.game_seed, r.end_reason, r.decisions, r.scores, r.decision_rows, r.transcript)


def test_two_jobs_give_the_records_of_one_in_run_order_from_any_start():
    one = run_batch(SPEC, 300, jobs=1)
    two = list(iter_batch(SPEC, range(120, 300), jobs=2))
    assert [r.run for r in two] == list(range(120, 300))
    assert [key(r) for r in two] == [key(r) for r in one[120:]]


needs_proc = pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")


@needs_proc
def test_stop_ends_the_batch_and_its_workers():
    seen = []
    it = iter_batch(SPEC, range(5000), jobs=2, stop=lambda: len(seen) >= 30)
    for rec in it:
        if not seen:
            pids = workers()
        seen.append(rec)
    assert [r.run for r in seen] == list(range(30))
    assert len(pids) == 2 and not any(alive(p) for p in pids)


@needs_proc
def test_a_killed_worker_is_reported_after_the_records_before_it():
    got = []
    with pytest.raises(WorkerDied, match=r"worker process died \(killed by SIGKILL\) while playing runs"):
        for rec in iter_batch(SPEC, range(20000), jobs=2):
            if not got:
                pids = workers()
                os.kill(pids[0], signal.SIGKILL)
            got.append(rec)
    assert [r.run for r in got] == list(range(len(got)))  # in order, nothing skipped
    time.sleep(0.1)
    assert not any(alive(p) for p in pids)


def test_the_parent_spares_its_records_from_the_collector_only_while_the_batch_runs():
    assert gc.get_freeze_count() == 0
    it = iter_batch(SPEC, range(200), jobs=2)
    first = next(it)
    assert first.run == 0 and gc.get_freeze_count() > 0  # the chunks that came back are frozen
    rest = list(it)
    assert [r.run for r in rest] == list(range(1, 200))
    assert gc.get_freeze_count() == 0  # all back with the collector once the batch ends


def test_sparing_leaves_objects_frozen_by_someone_else_frozen():
    gc.freeze()
    try:
        before = gc.get_freeze_count()
        with collector_spared() as spare:
            spare()
        assert gc.get_freeze_count() >= before > 0
    finally:
        gc.unfreeze()
