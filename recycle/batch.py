"""Batches of seeded games: seeds, player lineups, process pools, tidy CSVs, summaries.

A batch has one seed S; run i plays with game_seed = derive(S, "game", i) and the
players' streams are derived from that (flow-and-analytics §0), so the results
do not depend on how many processes ran the batch, and rows are always written
in run order.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import secrets
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Callable, Iterable, Optional

import attrs

from .engine.algorithms import derive
from .errors import UsageError

PLAYER_CODES = {"random": "R", "r": "R"}


def parse_lineup(text: Optional[str], n_players: int) -> list[str]:
    """`random,random` or `RR` (one code per seat) -> codes; default all random."""
    from .players import registry

    if not text:
        return ["R"] * n_players
    parts = [p.strip() for p in text.split(",")] if ("," in text or text.lower() in registry.NAMES) else list(text)
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


@attrs.define
class RunRecord:
    """What one run produced: its §3.2 record, its decisions and (optionally) its transcript lines."""

    run: int
    game_seed: int
    end_reason: str
    decisions: int
    forced: int
    turns: int
    moves: int
    scores: Optional[list]
    ranks: Optional[list]
    shares: Optional[list]
    winners: list
    error: Optional[str]
    decision_rows: list  # (player, branching, chosen)
    lineup: list
    transcript: Optional[list] = None
    ms: float = 0.0
    # §3.5 AI estimates, one dict per decision of a searching player, in decision order
    # (recycle.players.estimates); None when the batch did not record them
    estimates: Optional[list] = None


@attrs.frozen
class BatchSpec:
    """Everything a worker needs to play runs of a batch (picklable)."""

    game_path: str
    params: dict
    lineup: tuple
    seed: int
    max_decisions: int = 2000
    max_idle_steps: int = 10000
    transcript_level: str = "none"  # none | decisions | full
    ai_budget: Optional[int] = None  # budget of the searching players (None: their defaults)
    estimates: bool = False  # record the §3.5 estimates of searching players
    rotate: bool = False  # run i gives seat s the kind lineup[(s - i) mod n] (§3.1)


_WORKER: dict = {}


def _session(spec: BatchSpec):
    """The loaded game of this process for a spec (loaded once per process)."""
    key = (spec.game_path, tuple(sorted(spec.params.items())))
    sess = _WORKER.get(key)
    if sess is None:
        from .session import GameSession

        sess = GameSession.open(spec.game_path, spec.params)
        _WORKER.clear()
        _WORKER[key] = sess
    return sess


def run_lineup(spec: BatchSpec, run: int) -> list[str]:
    """The lineup of run `run`: the spec's, or rotated one seat per run (§3.1)."""
    lineup = list(spec.lineup)
    if spec.rotate and lineup:
        n = len(lineup)
        lineup = [lineup[(s - run) % n] for s in range(n)]
    return lineup


def play_run(spec: BatchSpec, run: int) -> RunRecord:
    """Play run `run` of the batch."""
    from .players import registry

    sess = _session(spec)
    game_seed = derive(spec.seed, "game", run)
    lineup = run_lineup(spec, run)
    searching = any(c in registry.SEARCHING for c in lineup)
    if not searching and not spec.rotate:
        return sess.play(game_seed, lineup, run=run, batch_seed=spec.seed,
                         max_decisions=spec.max_decisions, max_idle_steps=spec.max_idle_steps,
                         level=spec.transcript_level)
    players = [registry.make(c, budget=spec.ai_budget, record_estimates=spec.estimates) for c in lineup]
    rec = sess.play(game_seed, lineup, run=run, batch_seed=spec.seed, max_decisions=spec.max_decisions,
                    max_idle_steps=spec.max_idle_steps, level=spec.transcript_level, players=players)
    if spec.estimates:
        ests = [e for pl in players for e in getattr(pl, "estimates", None) or ()]
        rec.estimates = sorted(ests, key=lambda e: e["decision"])
    if searching and rec.transcript:
        # the AI settings affect play: the header's params record them (§5.2)
        head = json.loads(rec.transcript[0])
        head["params"]["ai_budget"] = {c: pl.budget for c, pl in zip(lineup, players) if c in registry.SEARCHING}
        from .session import dumps

        rec.transcript[0] = dumps(head)
    return rec


def _play_chunk(args) -> list[RunRecord]:
    spec, runs = args
    return [play_run(spec, r) for r in runs]


def run_batch(spec: BatchSpec, n: int, jobs: int = 1, progress: Optional[Callable[[int], None]] = None) -> list[RunRecord]:
    """Play runs 0..n-1, in `jobs` processes; records come back in run order."""
    if n < 0:
        raise UsageError("the number of games must be at least 0")
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    records: list[RunRecord] = []
    if jobs == 1 or n <= 1:
        for r in range(n):
            records.append(play_run(spec, r))
            if progress:
                progress(1)
        return records
    chunk = max(1, min(25, n // (jobs * 4) or 1))
    chunks = [(spec, list(range(i, min(n, i + chunk)))) for i in range(0, n, chunk)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for recs in pool.map(_play_chunk, chunks):
            records.extend(recs)
            if progress:
                progress(len(recs))
    records.sort(key=lambda r: r.run)
    return records


def new_seed() -> int:
    """A fresh batch seed from the OS (printed and recorded by the commands)."""
    return secrets.randbits(32)


# ------------------------------------------------------------------ tidy files


def _cell(v) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, (list, tuple)):
        return ";".join(_cell(x) for x in v)
    return str(v)


def _write_csv(path: Path, header: list[str], rows: Iterable[list]) -> None:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    for row in rows:
        w.writerow([_cell(v) for v in row])
    path.write_text(buf.getvalue(), encoding="utf-8")


KEY_COLUMNS = ["game", "players", "lineup", "run"]


def write_core_files(out: Path, game: str, records: list[RunRecord], direction: str, summary: dict) -> list[str]:
    """games.csv, decisions.csv, results.csv, transcripts/ and summary.json, directly in `out`."""
    out.mkdir(parents=True, exist_ok=True)
    files = []

    def key(r: RunRecord):
        return [game, len(r.lineup), "".join(r.lineup), r.run]

    _write_csv(out / "games.csv", KEY_COLUMNS + ["game_seed", "end_reason", "decisions", "forced", "turns", "moves", "tie_first", "winners", "scores", "error"],
               (key(r) + [r.game_seed, r.end_reason, r.decisions, r.forced, r.turns, r.moves,
                          (len(r.winners) > 1) if r.scores is not None else None, r.winners, r.scores, r.error] for r in records))
    files.append("games.csv")
    _write_csv(out / "decisions.csv", KEY_COLUMNS + ["decision", "player", "kind", "branching", "chosen"],
               (key(r) + [i + 1, p, r.lineup[p] if p < len(r.lineup) else "", b, c]
                for r in records for i, (p, b, c) in enumerate(r.decision_rows)))
    files.append("decisions.csv")
    _write_csv(out / "results.csv", KEY_COLUMNS + ["seat", "kind", "score", "rank", "win_share", "direction"],
               (key(r) + [s, r.lineup[s], r.scores[s], r.ranks[s], r.shares[s], direction]
                for r in records if r.scores is not None and r.ranks is not None for s in range(len(r.lineup))))
    files.append("results.csv")
    tdir = out / "transcripts"
    for r in records:
        if r.transcript:
            tdir.mkdir(exist_ok=True)
            (tdir / f"run-{r.run:04d}.jsonl").write_text("".join(line + "\n" for line in r.transcript), encoding="utf-8")
            files.append(f"transcripts/run-{r.run:04d}.jsonl")
    summary = dict(summary)
    summary["files"] = files + ["summary.json"]
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return summary["files"]


def file_sha256(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def cpu_count() -> int:
    return os.cpu_count() or 1
