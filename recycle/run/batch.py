"""Batches of seeded games: seeds, player lineups, process pools.

A batch has one seed S; run i plays with game_seed = derive(S, "game", i) and the
players' streams are derived from that (flow-and-analytics §0), so the results
do not depend on how many processes ran the batch, and records always come back
in run order.

The game is read and compiled once per process: the parent's session plays the
runs itself with one job; with several, each worker process compiles the text
the parent read (never the file again) once, when it starts.

Workers are plain processes with one pipe each (not a shared-queue pool): a worker
killed while sending its results cuts only its own pipe, so its death is seen and
reported (WorkerDied) instead of blocking the batch; workers ignore Ctrl-C (the
parent decides what to keep), end on SIGTERM, and get SIGTERM when the parent dies.
"""
from __future__ import annotations

import contextlib
import gc
import json
import multiprocessing as mp
import os
import secrets
import signal
import time
import traceback
from collections.abc import Callable, Generator, Iterator
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as mp_wait
from multiprocessing.process import BaseProcess

import attrs

from ..engine.algorithms import derive
from ..engine.watchdog import StepTimeExceeded, step_time_limit
from ..errors import RecycleError, UsageError
from ..lang import SourceFile
from ..players import registry
from ..players.montecarlo import UNBOUNDED, SearchPlayer
from .records import RunRecord
from .session import GameSession
from .transcript import dumps


def parse_lineup(text: str | None, n_players: int) -> list[str]:
    """`random,random` or `RR` (one code per seat) -> codes; default all random."""
    if not text:
        return ["R"] * n_players
    split = "," in text or ":" in text or text.lower() in registry.NAMES  # `module:Class` is one entry
    parts = [p.strip() for p in text.split(",")] if split else list(text)
    codes = []
    for p in parts:
        code = registry.code_of(p)
        if code is None:
            raise UsageError(f"unknown player kind {p!r}: known kinds are {registry.describe()}")
        codes.append(code)
    if len(codes) == 1 and n_players > 1:
        codes = codes * n_players
    if len(codes) != n_players:
        raise UsageError(f"--players names {len(codes)} players, but this game has {n_players}")
    return codes


@attrs.frozen
class BatchSpec:
    """Everything a worker needs to play runs of a batch (picklable)."""

    game_path: str
    params: dict
    lineup: tuple
    seed: int
    max_decisions: int | None = None  # None: the game's own limit (its (limits …), else the default)
    max_idle_steps: int | None = None
    transcript_level: str = "none"  # none | decisions | full
    ai_budget: int | None = None  # budget of the searching players (None: their defaults)
    estimates: bool = False  # record the §3.5 estimates of searching players
    rotate: bool = False  # run i gives seat s the kind lineup[(s - i) mod n] (§3.1)
    move_time: float | None = None  # time limit per decision of the searching players (seconds)
    max_options: int | None = None  # None: the game's own option limit (its (limits …), else the default)
    # CPU seconds of one step (engine.watchdog), carried to workers that are not forked (Ray's); None: the process's
    max_step_time: float | None = None


def run_lineup(spec: BatchSpec, run: int) -> list[str]:
    """The lineup of run `run`: the spec's, or rotated one seat per run (§3.1)."""
    lineup = list(spec.lineup)
    if spec.rotate and lineup:
        n = len(lineup)
        lineup = [lineup[(s - run) % n] for s in range(n)]
    return lineup


def play_run(sess: GameSession, spec: BatchSpec, run: int) -> RunRecord:
    """Play run `run` of the batch on an open session."""
    try:
        if spec.max_step_time is None:  # the process's limit (no context to enter: the games may take microseconds)
            return _play_run(sess, spec, run)
        with step_time_limit(spec.max_step_time):
            return _play_run(sess, spec, run)
    except StepTimeExceeded:
        # the watchdog's exception landed after the game's last step, outside play_game (which makes one in
        # the game its error): the game is played again, from its seed, rather than losing the worker
        with step_time_limit(spec.max_step_time):
            return _play_run(sess, spec, run)


def _play_run(sess: GameSession, spec: BatchSpec, run: int) -> RunRecord:
    game_seed = derive(spec.seed, "game", run)
    if spec.max_options is None and not spec.rotate and registry.SEARCHING.isdisjoint(spec.lineup):
        # the common batch (every `recycle run` of random players): nothing of the spec to work out per run
        return sess.play(game_seed, spec.lineup, run, spec.seed, spec.max_decisions, spec.max_idle_steps,
                         spec.transcript_level)
    lineup = run_lineup(spec, run)
    searching = any(c in registry.SEARCHING for c in lineup)
    if spec.max_options is not None:
        sess.prog.max_options = spec.max_options  # the option limit belongs to the program (§21.2)
    players = [registry.make(c, budget=spec.ai_budget, record_estimates=spec.estimates, move_time=spec.move_time)
               for c in lineup]
    rec = sess.play(game_seed, lineup, run=run, batch_seed=spec.seed, max_decisions=spec.max_decisions,
                    max_idle_steps=spec.max_idle_steps, level=spec.transcript_level, players=players)
    if spec.estimates:
        ests = [e for pl in players for e in getattr(pl, "estimates", None) or ()]
        rec.estimates = sorted(ests, key=lambda e: e["decision"])
    if (searching or spec.max_options is not None) and rec.transcript:
        # the AI settings and an option limit set on the command line affect play: the header's
        # params record them (§5.2), and replay applies the option limit
        head = json.loads(rec.transcript[0])
        if searching:
            head["params"]["ai_budget"] = {c: pl.budget if pl.budget != UNBOUNDED else None  # None: the time decides
                                           for c, pl in zip(lineup, players, strict=True)
                                           if isinstance(pl, SearchPlayer)}
        if spec.move_time is not None:
            head["params"]["move_time"] = spec.move_time
        if spec.max_options is not None:
            head["params"]["max_options"] = spec.max_options
        rec.transcript[0] = dumps(head)
    return rec


# The session of a worker process, compiled once by `_start_worker`.
_WORKER: dict[str, GameSession] = {}


def _die_with_parent(parent: int) -> None:
    """Linux: have the kernel send SIGTERM to this worker when the parent process dies (no orphans)."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(1)


def _start_worker(source: SourceFile, params: dict, parent: int | None = None) -> None:
    # Ctrl-C reaches the whole process group: the parent decides what to keep and stops the workers;
    # SIGTERM ends a worker at once (the handlers a forked worker inherits are the parent's).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if parent is not None:
        _die_with_parent(parent)
    _WORKER["session"] = GameSession.from_source(source, params)


class WorkerDied(RecycleError):
    """A worker process of a batch ended without returning its games (killed, or out of memory)."""


def _worker_main(conn: Connection, source: SourceFile, params: dict, parent: int) -> None:
    """A worker: compile the game once, then play the chunks of runs the parent sends, one at a time."""
    _start_worker(source, params, parent)
    sess = _WORKER["session"]
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        spec, runs = task
        reply: tuple[str, object]
        try:
            reply = ("ok", [play_run(sess, spec, r) for r in runs])
        except RecycleError as e:  # the user's error (a player's bad choice, say): one line, as without workers
            reply = ("user", f"error: {e}" if isinstance(e, UsageError) else e.format())
        except Exception as e:  # a bug: the parent reports it with this trace (a user's player: one line)
            failure = registry.user_failure(e)
            reply = ("bug", traceback.format_exc()) if failure is None else ("user", failure)
        conn.send(reply)


@attrs.define
class _Worker:
    proc: BaseProcess
    conn: Connection
    tasks: list[int] = attrs.Factory(list)  # the first run of each chunk sent to it, in the order sent


def iter_batch(spec: BatchSpec, runs: range, jobs: int = 1, session: GameSession | None = None,
               stop: Callable[[], bool] | None = None) -> Generator[RunRecord, None, None]:
    """Play the runs `runs` in `jobs` processes, yielding each record in run order as soon as it and
    every run before it are done (chunks finished out of order wait in a bounded buffer).

    `stop()` is asked between games (with one job) or at least every 0.1 s (with several): when it
    says True, no further record is yielded and the workers are ended.  A worker that dies raises
    WorkerDied after the records in order before its chunk.  Leaving the generator early (break,
    an exception) ends the workers too: none is left behind.  Each worker has its own pipe, so a
    worker killed in the middle of sending its results cannot block the others or the parent.
    """
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    sess = session if session is not None else GameSession.open(spec.game_path, spec.params)
    if jobs == 1 or len(runs) <= 1:
        for r in runs:
            if stop is not None and stop():
                return
            yield play_run(sess, spec, r)
        return
    n = len(runs)
    chunk = max(1, min(25, n // (jobs * 4) or 1))
    starts = list(range(runs.start, runs.stop, chunk))
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    workers: list[_Worker] = []
    with collector_spared() as spare:
        try:
            for _ in range(min(jobs, len(starts))):
                mine, theirs = ctx.Pipe()
                proc = ctx.Process(target=_worker_main, args=(theirs, sess.source, dict(sess.params), os.getpid()),
                                   daemon=True)
                proc.start()
                theirs.close()
                workers.append(_Worker(proc, mine))
            done: dict[int, list[RunRecord]] = {}
            submitted = 0
            window = jobs * 4  # chunks sent or finished out of order, at most

            def in_flight() -> int:
                return sum(len(w.tasks) for w in workers)

            next_start = runs.start
            while next_start < runs.stop:
                for w in workers:
                    # two chunks each: the next one waits in the pipe while the parent writes files
                    while len(w.tasks) < 2 and submitted < len(starts) and len(done) + in_flight() < window:
                        a = starts[submitted]
                        w.tasks.append(a)
                        submitted += 1
                        with contextlib.suppress(OSError):  # if it died, its sentinel says so below
                            w.conn.send((spec, list(range(a, min(runs.stop, a + chunk)))))
                ready = set(mp_wait([w.conn for w in workers if w.tasks]
                                    + [w.proc.sentinel for w in workers], timeout=0.1))
                for w in workers:
                    died = False
                    if w.tasks and w.conn in ready:
                        try:
                            kind, value = w.conn.recv()
                        except (EOFError, OSError):  # killed while sending: the message is cut
                            died = True
                        else:
                            if kind == "bug":
                                raise RuntimeError(f"a worker process failed:\n{value}")
                            if kind == "user":
                                raise RecycleError(value)
                            done[w.tasks.pop(0)] = value
                            spare()
                            continue
                    if died or w.proc.sentinel in ready:
                        w.proc.join(1)
                        yield from finished_before_loss(done, next_start, stop)
                        what = (f" while playing runs {w.tasks[0]}..{min(runs.stop, w.tasks[0] + chunk) - 1}"
                                if w.tasks else "")
                        raise WorkerDied(f"error: a worker process died ({_death(w.proc)}){what}")
                next_start, stopped = yield from in_order(done, next_start, stop)
                if stopped or (stop is not None and stop()):
                    return
        finally:
            _end_workers(workers)


@contextlib.contextmanager
def collector_spared() -> Iterator[Callable[[], None]]:
    """For the parent of a batch: `spare()`, called as each chunk of records arrives, moves every object
    so far out of reach of the cyclic garbage collector (gc.freeze); they are put back when the batch ends.

    `recycle stats` and `tournament` keep the records of a batch (so do callers of run_batch), and
    each full collection of CPython walks every kept one again: on the shortest games that was
    most of the parent's CPU time, taken from the workers' cores (Kuhn poker, 50,000 games kept, 2
    workers: 0.55 s of the parent's 0.76 s, the batch 1.6x as fast as one worker instead of 1.9x).
    Records hold no reference cycles, so sparing them costs nothing (those dropped, as `recycle run`
    drops them once tallied, are freed as usual); cyclic garbage made meanwhile is collected once
    the batch ends.
    """
    frozen_before = gc.get_freeze_count()
    try:
        yield gc.freeze
    finally:
        if not frozen_before:  # someone else's frozen objects stay frozen
            gc.unfreeze()


def in_order(done: dict[int, list[RunRecord]], start: int,
             stop: Callable[[], bool] | None) -> Generator[RunRecord, None, tuple[int, bool]]:
    """Yield the records of the chunks done in run order from `start` (each chunk's records keyed
    by its first run), asking `stop()` before each; returns (the next chunk's first run, stopped)."""
    while start in done:
        recs = done.pop(start)
        for rec in recs:
            if stop is not None and stop():
                return start, True
            yield rec
        start += len(recs)
    return start, False


def finished_before_loss(done: dict[int, list[RunRecord]], start: int,
                         stop: Callable[[], bool] | None) -> Generator[RunRecord, None, None]:
    """The records finished in order from `start`, given as a batch stops because a chunk after
    them was lost (a dead worker): what finished before it is kept."""
    while start in done and (stop is None or not stop()):
        recs = done.pop(start)
        yield from recs
        start += len(recs)


def _death(proc: BaseProcess) -> str:
    code = proc.exitcode
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}" if code is not None else "ended unexpectedly"


def _end_workers(workers: list[_Worker]) -> None:
    """End the workers now (SIGTERM, then SIGKILL after 5 s) and reap them: none is left behind."""
    for w in workers:
        if w.proc.is_alive():
            w.proc.terminate()
    deadline = time.monotonic() + 5
    for w in workers:
        w.proc.join(max(0.0, deadline - time.monotonic()))
        if w.proc.is_alive():
            w.proc.kill()
            w.proc.join(1)
        w.conn.close()


def run_batch(spec: BatchSpec, n: int, jobs: int = 1, progress: Callable[[int], None] | None = None,
              session: GameSession | None = None) -> list[RunRecord]:
    """Play runs 0..n-1, in `jobs` processes; records come back in run order.

    `session` is the game opened for this spec (opened from `spec.game_path` when not given).
    """
    if n < 0:
        raise UsageError("the number of games must be at least 0")
    records: list[RunRecord] = []
    for rec in iter_batch(spec, range(n), jobs, session):
        records.append(rec)
        if progress:
            progress(1)
    return records


def new_seed() -> int:
    """A fresh batch seed from the OS (printed and recorded by the commands)."""
    return secrets.randbits(32)
