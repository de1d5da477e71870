"""Batches on a Ray cluster: `--backend ray [--address ADDR]` (the optional extra `[ray]`, docs/scaling.md).

The games are cut into seed-ordered chunks as with the local process pool (recycle.run.batch): each
game's seed is derived from the batch seed and its run number, never from where it is played, so the
records are those of `--jobs 1` and are given back in run order, each as soon as it and every run
before it are done.  One actor per worker CPU compiles the game once from the text the driver read
(the game file is never read on a worker) and then plays the chunks sent to it.

What is shipped to the workers: the game's source text and --param values (once per actor), then
per chunk the batch spec and the run numbers; they send back the runs' records (with transcripts).
On an existing cluster (`--address`) the workers also receive this `recycle` package itself
(runtime_env py_modules), so the cluster needs Ray and the Python dependencies, not recycle.

A worker lost with its chunk (a node that dies, a killed process) is restarted and the chunk retried
by Ray (up to RETRIES times); past that, the batch stops keeping every record finished in order
before the lost chunk, as the local backend does when a worker dies (WorkerDied).
"""
from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Generator, Sequence
from pathlib import Path
from types import ModuleType

import attrs

from ..errors import UsageError
from .batch import BatchSpec, WorkerDied, collector_spared, finished_before_loss, in_order, iter_batch, play_run
from .records import RunRecord
from .session import GameSession

try:
    import resource
except ImportError:  # pragma: no cover - not on POSIX: no ceiling
    resource = None  # type: ignore[assignment]

RAY_MISSING = "--backend ray needs Ray, the optional extra [ray]: pip install 'recycle[ray]'"
RETRIES = 3  # restarts of a lost actor, and retries of the chunk it was playing
WINDOW_PER_WORKER = 4  # chunks sent or finished out of order, per worker, at most
# Chunk sizes: the first chunks have FIRST_CHUNK games at most; once games have come back, a chunk
# has as many as play in about CHUNK_SECONDS (a Ray task costs the cluster about a millisecond of
# its own, as much as a whole Kuhn poker game: 25 such games a task made two workers only 1.2x as
# fast as one), at most MAX_CHUNK, and no more than a 2*workers-th of the games left, so that the
# last chunks end together.
FIRST_CHUNK = 25
CHUNK_SECONDS = 0.2
MAX_CHUNK = 10_000


def chunk_size(first: int, seconds_per_game: float | None, left: int, workers: int) -> int:
    """The number of tasks of the next chunk (see CHUNK_SECONDS), `left` tasks not sent yet."""
    if seconds_per_game is None:
        return min(first, left)
    size = MAX_CHUNK if seconds_per_game <= 0 else int(CHUNK_SECONDS / seconds_per_game)
    return max(1, min(left, size, MAX_CHUNK, -(-left // (2 * workers))))


@attrs.frozen
class Backend:
    """Where the games of a batch are played: `local` processes (--jobs), or a `ray` cluster (started
    locally with --jobs CPUs, or joined at `address`); `memory_mb`: the --max-memory ceiling of each worker."""

    kind: str = "local"
    address: str | None = None
    memory_mb: int | None = None


def iter_runs(spec: BatchSpec, runs: range, jobs: int = 1, session: GameSession | None = None,
              stop: Callable[[], bool] | None = None,
              backend: Backend | None = None) -> Generator[RunRecord, None, None]:
    """recycle.run.batch.iter_batch on the given backend: the same records, in run order."""
    if backend is None or backend.kind == "local":
        yield from iter_batch(spec, runs, jobs, session, stop)
        return
    sess = session if session is not None else GameSession.open(spec.game_path, spec.params)
    yield from iter_ray([(spec, r) for r in runs], sess, jobs, backend.address, stop, backend.memory_mb)


def run_batch_on(backend: Backend | None, spec: BatchSpec, n: int, jobs: int = 1,
                 session: GameSession | None = None) -> list[RunRecord]:
    """recycle.run.batch.run_batch on the given backend: runs 0..n-1, their records in run order."""
    return list(iter_runs(spec, range(n), jobs, session, backend=backend))


def require_ray() -> ModuleType:
    """The ray module, or a one-line usage error (exit 2) when the extra is not installed."""
    try:
        import ray
    except ImportError:
        raise UsageError(RAY_MISSING) from None
    if not hasattr(ray, "init"):  # a folder named ray on the path (Ray's own /tmp/ray), not the package
        raise UsageError(RAY_MISSING)
    return ray


def _actor_class(ray: ModuleType):
    """The actor that plays chunks of runs on a worker (made once per driver: ray must be imported first)."""

    @ray.remote(num_cpus=1, max_restarts=RETRIES, max_task_retries=RETRIES)
    class Player:
        def __init__(self, source, params: dict, memory_mb: int | None):
            if memory_mb and resource is not None:
                # the command's --max-memory, per worker, on top of what Ray's worker has reserved already
                want = (memory_mb + _address_space_mb()) * 1024 * 1024
                _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
                resource.setrlimit(resource.RLIMIT_AS, (want if hard == resource.RLIM_INFINITY else min(want, hard),
                                                        hard))
            self.sess = GameSession.from_source(source, params)

        def play(self, tasks: list[tuple[BatchSpec, int]]) -> list[RunRecord]:
            return [play_run(self.sess, spec, r) for spec, r in tasks]

    return Player


def _address_space_mb() -> int:
    """The address space this process has now (Ray's worker reserves gigabytes of it before any game)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * resource.getpagesize() // (1024 * 1024)
    except (OSError, ValueError, IndexError, AttributeError):
        return 0


def _connect(ray: ModuleType, jobs: int, address: str | None) -> bool:
    """Start a local cluster of `jobs` CPUs, or join the one at `address`; True when this call started Ray."""
    if ray.is_initialized():  # (a program that started Ray itself and calls the batch functions)
        return False
    # Ray's own processes (started here, or Ray's threads in this one) need far more address space than
    # the --max-memory ceiling meant for games: lift it in this process, which plays no game; the actors
    # set it again for their own games.
    if resource is not None:
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if soft != hard:
            resource.setrlimit(resource.RLIMIT_AS, (hard, hard))
    quiet = {"logging_level": logging.ERROR, "log_to_driver": False, "include_dashboard": False,
             "configure_logging": True}
    if address is None:
        ray.init(num_cpus=jobs, **quiet)
    else:
        # the workers of an existing cluster get this package (they may not have recycle installed)
        package = str(Path(__file__).resolve().parents[1])
        try:
            ray.init(address=address, runtime_env={"py_modules": [package]}, **quiet)
        except (ConnectionError, ValueError) as e:  # (ValueError: an address Ray cannot read, as x:y:z)
            raise UsageError(f"--address {address}: cannot join the Ray cluster ({e})") from None
    return True


def iter_ray(tasks: Sequence[tuple[BatchSpec, int]], sess: GameSession, jobs: int = 1, address: str | None = None,
             stop: Callable[[], bool] | None = None,
             memory_mb: int | None = None) -> Generator[RunRecord, None, None]:
    """Play `tasks` (spec, run) on Ray, yielding each record in task order as soon as it and every task
    before it are done.  `jobs` workers on a local cluster this starts; with `address`, one worker per CPU
    of the cluster.  `stop()` is asked at least every 0.1 s; leaving early ends the actors."""
    ray = require_ray()
    started = _connect(ray, jobs, address)
    actors: list = []
    try:
        workers = jobs if address is None else max(1, int(ray.cluster_resources().get("CPU", jobs)))
        n = len(tasks)
        first = max(1, min(FIRST_CHUNK, n // (workers * 4) or 1))
        player = _actor_class(ray)
        actors = [player.remote(sess.source, dict(sess.params), memory_mb) for _ in range(min(workers, -(-n // first)))]
        pending: dict = {}  # object ref -> (index of the chunk's first task, its number of tasks)
        done: dict[int, list[RunRecord]] = {}
        submitted = 0  # chunks
        a = 0  # the first task not sent yet
        played = [0, 0.0]  # games back, and their playing time in ms
        next_start = 0
        window = workers * WINDOW_PER_WORKER
        with collector_spared() as spare:
            while next_start < n:
                while a < n and len(pending) + len(done) < window:
                    size = chunk_size(first, played[1] / played[0] / 1000 if played[0] else None, n - a, workers)
                    ref = actors[submitted % len(actors)].play.remote(list(tasks[a:a + size]))
                    pending[ref] = (a, size)
                    submitted += 1
                    a += size
                ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.1)
                for ref in ready:
                    c, size = pending.pop(ref)
                    try:
                        recs = done[c] = ray.get(ref)
                        spare()
                        played[0] += len(recs)
                        played[1] += sum(r.ms for r in recs)
                    except (ray.exceptions.RayActorError, ray.exceptions.WorkerCrashedError,
                            ray.exceptions.NodeDiedError, ray.exceptions.ObjectLostError) as e:
                        # lost past its retries: keep what finished in order before it, as the local backend does
                        yield from finished_before_loss(done, next_start, stop)
                        raise WorkerDied(f"error: a Ray worker was lost {RETRIES + 1} times while playing runs "
                                         f"{tasks[c][1]}..{tasks[c + size - 1][1]} "
                                         f"({type(e).__name__})") from None
                    except ray.exceptions.RayTaskError as e:  # play_run raised: a bug, reported with its trace
                        raise RuntimeError(f"a Ray worker failed:\n{e}") from None
                next_start, stopped = yield from in_order(done, next_start, stop)
                if stopped or (stop is not None and stop()):
                    return
    finally:
        for actor in actors:
            with contextlib.suppress(Exception):  # already gone, or the cluster is: nothing left to end
                ray.kill(actor)
        if started:
            ray.shutdown()
