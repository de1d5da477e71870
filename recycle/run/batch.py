"""Batches of seeded games: seeds, player lineups, process pools.

A batch has one seed S; run i plays with game_seed = derive(S, "game", i) and the
players' streams are derived from that (flow-and-analytics §0), so the results
do not depend on how many processes ran the batch, and records always come back
in run order.

The game is read and compiled once per process: the parent's session plays the
runs itself with one job; with several, each worker process compiles the text
the parent read (never the file again) once, when it starts.
"""
from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

import attrs

from ..engine.algorithms import derive
from ..errors import UsageError
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


def run_lineup(spec: BatchSpec, run: int) -> list[str]:
    """The lineup of run `run`: the spec's, or rotated one seat per run (§3.1)."""
    lineup = list(spec.lineup)
    if spec.rotate and lineup:
        n = len(lineup)
        lineup = [lineup[(s - run) % n] for s in range(n)]
    return lineup


def play_run(sess: GameSession, spec: BatchSpec, run: int) -> RunRecord:
    """Play run `run` of the batch on an open session."""
    game_seed = derive(spec.seed, "game", run)
    lineup = run_lineup(spec, run)
    searching = any(c in registry.SEARCHING for c in lineup)
    if not searching and not spec.rotate:
        return sess.play(game_seed, lineup, run=run, batch_seed=spec.seed,
                         max_decisions=spec.max_decisions, max_idle_steps=spec.max_idle_steps,
                         level=spec.transcript_level)
    players = [registry.make(c, budget=spec.ai_budget, record_estimates=spec.estimates, move_time=spec.move_time)
               for c in lineup]
    rec = sess.play(game_seed, lineup, run=run, batch_seed=spec.seed, max_decisions=spec.max_decisions,
                    max_idle_steps=spec.max_idle_steps, level=spec.transcript_level, players=players)
    if spec.estimates:
        ests = [e for pl in players for e in getattr(pl, "estimates", None) or ()]
        rec.estimates = sorted(ests, key=lambda e: e["decision"])
    if searching and rec.transcript:
        # the AI settings affect play: the header's params record them (§5.2)
        head = json.loads(rec.transcript[0])
        head["params"]["ai_budget"] = {c: pl.budget if pl.budget != UNBOUNDED else None  # None: the time decides
                                       for c, pl in zip(lineup, players, strict=True) if isinstance(pl, SearchPlayer)}
        if spec.move_time is not None:
            head["params"]["move_time"] = spec.move_time
        rec.transcript[0] = dumps(head)
    return rec


# The session of a worker process, compiled once by `_start_worker`.
_WORKER: dict[str, GameSession] = {}


def _start_worker(source: SourceFile, params: dict) -> None:
    _WORKER["session"] = GameSession.from_source(source, params)


def _play_chunk(args: tuple[BatchSpec, list[int]]) -> list[RunRecord]:
    spec, runs = args
    sess = _WORKER["session"]
    return [play_run(sess, spec, r) for r in runs]


def run_batch(spec: BatchSpec, n: int, jobs: int = 1, progress: Callable[[int], None] | None = None,
              session: GameSession | None = None) -> list[RunRecord]:
    """Play runs 0..n-1, in `jobs` processes; records come back in run order.

    `session` is the game opened for this spec (opened from `spec.game_path` when not given).
    """
    if n < 0:
        raise UsageError("the number of games must be at least 0")
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    sess = session if session is not None else GameSession.open(spec.game_path, spec.params)
    records: list[RunRecord] = []
    if jobs == 1 or n <= 1:
        for r in range(n):
            records.append(play_run(sess, spec, r))
            if progress:
                progress(1)
        return records
    chunk = max(1, min(25, n // (jobs * 4) or 1))
    chunks = [(spec, list(range(i, min(n, i + chunk)))) for i in range(0, n, chunk)]
    with ProcessPoolExecutor(max_workers=jobs, initializer=_start_worker,
                             initargs=(sess.source, dict(sess.params))) as pool:
        for recs in pool.map(_play_chunk, chunks):
            records.extend(recs)
            if progress:
                progress(len(recs))
    records.sort(key=lambda r: r.run)
    return records


def new_seed() -> int:
    """A fresh batch seed from the OS (printed and recorded by the commands)."""
    return secrets.randbits(32)
