"""One game file loaded and compiled once, and the plays of it: records and transcripts.

This is the layer the commands use: it turns the engine's GameResult and event stream into
the per-run records of flow-and-analytics §3.2 and the transcript lines of §5.2.
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from ..compiler import compile_loaded
from ..engine.play import play_game
from ..engine.program import Program
from ..engine.watchdog import DEFAULT_MAX_STEP_TIME, max_step_time
from ..lang import SourceFile, load_source
from ..players import registry
from ..version import __version__
from .records import RunRecord
from .transcript import dumps

# The most events of one game a `full` transcript keeps besides its decisions, hands and end (docs/limits.md):
# a rule that runs away writes about five million events a second until the step-time limit stops it (60 s
# by default: gigabytes); the longest shipped games write about ten thousand.  Past it, one `truncated`
# event marks the place; the game plays on and its result is the same as at any other level.
MAX_GAME_EVENTS = 200_000
# Kept past the bound: what replaying the game and reading its result need (bounded by the game's limits).
_ALWAYS = frozenset({"decision", "hand", "end"})


def truncated_event(kept: int) -> dict:
    """The line a `full` transcript holds where its game's events went past MAX_GAME_EVENTS."""
    return {"type": "truncated", "events": kept,
            "message": f"the game's events after its first {kept:,} are left out of this transcript (decisions, "
                       "hands and the end are kept; MAX_GAME_EVENTS, docs/limits.md)"}


class _Recorder:
    """Counts moves and turns of the real game and keeps its events at level `full` (at most MAX_GAME_EVENTS).

    Below `full` only decisions and the end are kept: the engine then counts moves and turns on this
    recorder itself without building their events (`counts_only`, engine.recording.CountingSink), and
    without a transcript it builds no decision or end event either (`wants_decisions`)."""

    __slots__ = ("counts_only", "events", "keep", "moves", "room", "store", "turns", "wants_decisions", "wants_text")

    def __init__(self, keep: bool, store: bool = True):
        self.keep = keep
        self.store = store  # keep decisions and the end (for a transcript); without one, only count
        self.wants_text = keep
        self.counts_only = not keep
        self.wants_decisions = keep or store  # without a transcript, the engine builds no decision or end event
        self.events: list = []
        self.moves = 0
        self.turns = 0
        self.room = MAX_GAME_EVENTS  # events a `full` transcript may still keep (-1: the marker is written)

    def event(self, d: dict) -> None:
        t = d["type"]
        if t == "move":
            self.moves += 1
        elif t == "turn":
            self.turns += 1
        if self.keep:
            if self.room > 0 or t in _ALWAYS:
                self.room -= t not in _ALWAYS
                self.events.append(d)
            elif self.room == 0:
                self.room = -1
                self.events.append(truncated_event(MAX_GAME_EVENTS))
        elif self.store and (t == "decision" or t == "end"):
            self.events.append(d)


class GameSession:
    """A game file loaded and compiled once, with the parameters it was opened with."""

    def __init__(self, path: Path, prog: Program, params: dict, source: SourceFile, sha256: str | None = None):
        self.path = Path(path)
        self.prog = prog
        self.params = dict(params)
        self.source = source  # the text it was compiled from: worker processes compile the same text
        # what transcripts record: the file's digest, or for a variant one over it and the games it builds on
        self.sha256 = sha256 if sha256 is not None else source.sha256

    @classmethod
    def open(cls, path, params: dict | None = None, dialect: str = "auto") -> GameSession:
        """Read the file once, check it (LoadError) and compile it (UsageError for bad parameters);
        dialect is how to read it (auto, modern or xam; recycle/lang/xam.py)."""
        return cls.from_source(SourceFile.read(path, dialect), params)

    @classmethod
    def from_source(cls, source: SourceFile, params: dict | None = None) -> GameSession:
        """Check and compile a game text already read (as worker processes do with the parent's text)."""
        loaded = load_source(source, params or None)
        prog = compile_loaded(loaded, params or None)
        return cls(Path(source.filename), prog, params or {}, source, loaded.sha256)

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def n_players(self) -> int:
        return self.prog.n_players

    def header(self, game_seed: int, lineup: Sequence[str], run: int | None, batch_seed: int | None,
               level: str, max_decisions: int, max_idle_steps: int) -> dict:
        return {
            "type": "header", "format": "recycle-transcript", "version": 1,
            "game": self.name, "file": self.path.name, "sha256": self.sha256,
            "interpreter": __version__, "players": self.n_players, "lineup": list(lineup),
            # Overridden declares as the typed values the game saw (--param gives strings).
            "params": {"declares": {k: self.prog.declared.get(k, v) for k, v in self.params.items()},
                       "max_decisions": max_decisions, "max_idle_steps": max_idle_steps,
                       # a step-time limit other than the default is recorded, so that replay applies it
                       **({"max_step_time": t} if (t := max_step_time()) != DEFAULT_MAX_STEP_TIME else {})},
            "seed": game_seed,
            "batch": {"seed": batch_seed, "run": run} if batch_seed is not None else None,
            "level": level,
            # a dialect chosen on the command line is recorded, so that a replay reads the file the same way
            **({"dialect": self.source.dialect} if self.source.dialect != "auto" else {}),
        }

    def play(self, game_seed: int, lineup: Sequence[str], run: int = 0, batch_seed: int | None = None,
             max_decisions: int | None = None, max_idle_steps: int | None = None, level: str = "none",
             players: list | None = None) -> RunRecord:
        """Play one game; `level` none|decisions|full decides the transcript kept in the record.

        Limits left out (None) are the game's own: its (limits …), else the defaults.
        """
        max_decisions = self.prog.max_decisions if max_decisions is None else max_decisions
        max_idle_steps = self.prog.max_steps if max_idle_steps is None else max_idle_steps
        if players is None:
            players = [registry.make(c) for c in lineup]
        rec = _Recorder(level == "full", level != "none")
        t0 = time.perf_counter()
        result = play_game(self.prog, game_seed, players, max_decisions, max_idle_steps, rec)
        ms = (time.perf_counter() - t0) * 1000.0
        transcript = None
        if level != "none":
            transcript = [dumps(self.header(game_seed, lineup, run, batch_seed, level, max_decisions, max_idle_steps))]
            for ev in rec.events:
                if level == "decisions" and ev["type"] == "decision":
                    ev = {k: v for k, v in ev.items() if k != "text"}
                transcript.append(dumps(ev))
        decs = result.decisions
        rows = [d[1:4] for d in decs]  # (chooser, branching, chosen): a slice of a record is a plain tuple
        ests = [d[5] for d in decs]
        sampled = []
        if ests.count(None) == len(ests):  # every option listed (no sampled decision): forced = one option
            forced = [d[2] for d in decs].count(1)
        else:
            forced = 0
            for k, (d, est) in enumerate(zip(decs, ests, strict=True)):
                if est is None:
                    forced += d[2] == 1
                else:  # a sampled decision listing one option is not forced unless its estimate says so
                    forced += est == 1
                    sampled.append([k, est])
        error = result.error.text if result.error else None
        # by position, in the order of RunRecord's fields (estimates: none here): a third of the keyword call's time
        return RunRecord(run, game_seed, result.end_reason, result.n_decisions, forced, rec.turns, rec.moves,
                         result.scores, result.ranks, result.shares, result.winners or [], error, rows, list(lineup),
                         transcript, ms, None, sampled)
