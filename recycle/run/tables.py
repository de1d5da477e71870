"""The tidy files of a batch (flow-and-analytics §3.2, §5): games.csv, decisions.csv, results.csv,
transcripts/ and summary.json, rows always in run order."""
from __future__ import annotations

import csv
import io
import json
import re
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import attrs

from ..errors import InternalError
from .output import TEMP_MARK, OutFolder, OutputError
from .records import RunRecord


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


def write_csv(path: Path, header: list[str], rows: Iterable[list]) -> None:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    for row in rows:
        w.writerow([_cell(v) for v in row])
    path.write_text(buf.getvalue(), encoding="utf-8")


KEY_COLUMNS = ["game", "players", "lineup", "run"]
GAMES_HEADER = [*KEY_COLUMNS, "game_seed", "end_reason", "decisions", "forced", "turns", "moves", "tie_first",
                "winners", "scores", "error"]
DECISIONS_HEADER = [*KEY_COLUMNS, "decision", "player", "kind", "branching", "chosen"]
RESULTS_HEADER = [*KEY_COLUMNS, "seat", "kind", "score", "rank", "win_share", "direction"]
TABLES = ("games.csv", "decisions.csv", "results.csv")


def _key(game: str, r: RunRecord) -> list:
    return [game, len(r.lineup), "".join(r.lineup), r.run]


def table_rows(game: str, r: RunRecord, direction: str) -> dict[str, list[list]]:
    """The rows one run adds to games.csv, decisions.csv and results.csv."""
    key = _key(game, r)
    return {
        "games.csv": [[*key, r.game_seed, r.end_reason, r.decisions, r.forced, r.turns, r.moves,
                       len(r.winners) > 1 if r.scores is not None else None, r.winners, r.scores, r.error]],
        "decisions.csv": [[*key, i + 1, p, r.lineup[p] if p < len(r.lineup) else "", b, c]
                          for i, (p, b, c) in enumerate(r.decision_rows)],
        "results.csv": ([[*key, s, r.lineup[s], r.scores[s], r.ranks[s], r.known_shares[s], direction]
                         for s in range(len(r.lineup))] if r.scores is not None and r.ranks is not None else []),
    }


HEADERS = {"games.csv": GAMES_HEADER, "decisions.csv": DECISIONS_HEADER, "results.csv": RESULTS_HEADER}


def _cells(row: list) -> list:
    """A row's cells: ints and strings as they are (the csv module writes them as str() would), the rest
    through _cell (the common cells of the tables skip its tests: most rows are all ints and strings)."""
    return [v if type(v) is int or type(v) is str else _cell(v) for v in row]


def csv_text(rows: Iterable[list]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerows(map(_cells, rows))
    return buf.getvalue()


def transcript_name(run: int) -> str:
    return f"run-{run:04d}.jsonl"


def transcript_text(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)


def write_core_files(out: Path, game: str, records: list[RunRecord], direction: str, summary: dict) -> list[str]:
    """games.csv, decisions.csv, results.csv, transcripts/ and summary.json, directly in `out`, in one go
    (each file written whole and moved into place; see BatchTables for the game-by-game writing)."""
    with OutFolder.open(out) as folder:
        files = []
        for name in TABLES:
            folder.write_atomic(name, csv_text([HEADERS[name]])
                                + csv_text(row for r in records for row in table_rows(game, r, direction)[name]))
            files.append(name)
        tdir = None
        for r in records:
            if r.transcript:
                tdir = tdir or folder.subfolder("transcripts")
                tdir.write_atomic(transcript_name(r.run), transcript_text(r.transcript))
                files.append(f"transcripts/{transcript_name(r.run)}")
        if tdir is not None:
            tdir.close()
        summary = dict(summary)
        summary["files"] = [*files, "summary.json"]
        folder.write_atomic("summary.json", json.dumps(summary, indent=2) + "\n")
    return summary["files"]


# ---------------------------------------------------------------- game by game, resumable

STATE = ".recycle-resume.json"       # what was committed: games kept, file sizes, the run's identity
RECORDS = ".recycle-records.jsonl"   # one JSON record per kept game (what the summaries are computed from)
JOURNALED = (*TABLES, RECORDS)
COMMIT_EVERY_S = 0.5
# A commit fsyncs every table: on a slow or busy disk one takes long, and commits are then spaced so
# that they take at most 1/COMMIT_SHARE of the batch's time (a kill loses at most that much more play).
COMMIT_SHARE = 10


def record_json(r: RunRecord) -> str:
    d = attrs.asdict(r, recurse=False)
    d["transcript"] = None
    return json.dumps(d, separators=(",", ":"))


def load_json(data: str | bytes) -> object:
    """json.loads, where arrays nested past Python's recursion limit are a ValueError like any other damage
    (a file edited by hand or hostile must be refused in one message, not crash)."""
    try:
        return json.loads(data)
    except RecursionError:
        raise ValueError("arrays or objects nested too deeply") from None


def record_from_json(line: str) -> RunRecord:
    """A record of the journal; a ValueError naming what is wrong when the line is not one recycle wrote
    (a journal edited by hand or damaged must not reach the statistics)."""
    d = load_json(line)
    if not isinstance(d, dict):
        raise ValueError("not a record")
    for name, required, ok in RECORD_FIELDS:
        if (name not in d and required) or (name in d and not ok(d[name])):
            raise ValueError(f"field {name!r} is {json.dumps(d.get(name))[:40]}")
    n = len(d["lineup"])
    if any(d[k] is not None and len(d[k]) != n for k in ("scores", "ranks", "shares")):
        raise ValueError(f"scores, ranks or shares not one per seat of the lineup ({n})")
    if d["end_reason"] == "normal" and any(d[k] is None for k in ("scores", "ranks", "shares")):
        raise ValueError("a game that ended normally without its scores, ranks or shares")
    try:
        return RunRecord(**d)
    except TypeError as e:  # a field missing or unknown
        raise ValueError(str(e)) from None


def is_count(v: object) -> bool:
    """A count or index as recycle writes it into its files: an int (not a bool) >= 0."""
    return type(v) is int and v >= 0


def _size(v) -> bool:
    """A count of games or bytes: 2**62 and more would overflow the system's sizes."""
    return type(v) is int and 0 <= v < 2**62


def _num(v) -> bool:
    return type(v) in (int, float)


def _list_of(ok):
    return lambda v: isinstance(v, list) and all(ok(x) for x in v)


def _or_none(ok):
    return lambda v: v is None or ok(v)


# What each field of a RunRecord may hold in the journal (its type hint says too little: a rank is a
# count from 1, a decision row three counts, and the journal never holds a transcript).
_FIELD_CHECKS = {
    "run": is_count, "game_seed": is_count, "end_reason": lambda v: isinstance(v, str), "decisions": is_count,
    "forced": is_count, "turns": is_count, "moves": is_count, "scores": _or_none(_list_of(_num)),
    "ranks": _or_none(_list_of(lambda x: is_count(x) and x > 0)), "shares": _or_none(_list_of(_num)),
    "winners": _list_of(is_count), "error": _or_none(lambda v: isinstance(v, str)),
    "decision_rows": _list_of(lambda x: isinstance(x, list) and len(x) == 3 and all(is_count(y) for y in x)),
    "lineup": lambda v: isinstance(v, list) and len(v) > 0 and all(isinstance(c, str) for c in v),
    "transcript": lambda v: v is None, "ms": lambda v: _num(v) and v >= 0,
    "estimates": _or_none(_list_of(lambda x: isinstance(x, dict))),
    "sampled": _list_of(lambda x: isinstance(x, list) and len(x) == 2 and is_count(x[0]) and _num(x[1])),
}


def _record_fields() -> tuple[tuple[str, bool, Callable[[object], bool]], ...]:
    """(name, required, check) of every field of RunRecord in its order, a field being required unless it has
    a default: made from the class, so that a field added to it cannot be left unchecked."""
    fields = attrs.fields(RunRecord)
    unchecked = sorted({f.name for f in fields} - _FIELD_CHECKS.keys())
    stale = sorted(_FIELD_CHECKS.keys() - {f.name for f in fields})
    if unchecked or stale:
        raise InternalError(f"run/tables.py: _FIELD_CHECKS does not match RunRecord (no check for {unchecked}; "
                            f"checks of no field: {stale})")
    return tuple((f.name, f.default is attrs.NOTHING, _FIELD_CHECKS[f.name]) for f in fields)


RECORD_FIELDS = _record_fields()


def journal_records(folder: OutFolder, name: str, runs: range) -> Iterator[RunRecord]:
    """The records of a journal (one JSON record a line), read one line at a time: an OutputError
    unless they are those of `runs`, in order (checked as they are read, and at the end)."""
    n = 0
    with folder.open_read(name) as f:
        for n, line in enumerate(f, 1):
            try:
                r = record_from_json(line.decode("utf-8"))
            except ValueError as e:  # (bad UTF-8 and bad JSON are ValueErrors too)
                raise OutputError(f"{folder.path / name}: line {n} is not a record of recycle ({e})") from None
            if n > len(runs) or r.run != runs[n - 1]:
                break
            yield r
        else:
            if n == len(runs):
                return
    raise OutputError(f"{folder.path / name}: does not hold the {len(runs)} games recorded as kept")


class BatchTables:
    """The files of one batch, written game by game in run order, committed from time to time.

    Rows of a game are buffered and appended at each commit; a transcript is written whole
    (temporary file + rename) as its game is added.  A commit appends and fsyncs the tables and the
    record journal, then replaces STATE (atomically) with the number of games kept and the size of
    each table.  Whatever moment the process dies at (even kill -9), STATE names a consistent
    prefix: resume() cuts each table back to the recorded size (dropping a half-appended row) and
    removes transcripts of games past it, so the finished files are those of an uninterrupted run.
    """

    def __init__(self, folder: OutFolder, game: str, direction: str, identity: dict, games_asked: int,
                 progress_doc: dict, first: int = 0):
        self.folder = folder
        self.game = game
        self.direction = direction
        self.identity = identity
        self.games_asked = games_asked
        self.progress_doc = progress_doc
        self.first = first  # the run of the first game (a shard's first run; 0 for a whole batch)
        self.kept = 0
        self.elapsed = 0.0
        self.sizes: dict[str, int] = {}
        self.buf = {name: io.StringIO() for name in JOURNALED}
        self.writers = {name: csv.writer(self.buf[name], lineterminator="\n") for name in TABLES}
        self.tdir: OutFolder | None = None
        # transcripts are written by one thread while the games go on (creating a file costs about as
        # much as playing a short game); a commit waits for them before it names their games kept
        self._writer: ThreadPoolExecutor | None = None
        self._pending: list[Future] = []
        self.transcripts = 0
        self._last_commit = time.monotonic()
        self._commit_s = 0.0  # how long the last commit took

    def start(self) -> None:
        """A fresh batch: the tables with their headers only, an empty journal, STATE at 0 games."""
        for name in TABLES:
            self.folder.write_atomic(name, csv_text([HEADERS[name]]), sync=True)
        self.folder.write_atomic(RECORDS, b"", sync=True)
        self.sizes = {name: self.folder.lstat(name).st_size for name in JOURNALED}  # type: ignore[union-attr]
        self._write_state()

    def resume(self, state: dict) -> list[RunRecord]:
        """Continue from STATE: cut the files back to what was committed and return the kept records."""
        self.reopen(state)
        return list(self.kept_records())

    def reopen(self, state: dict) -> None:
        """Continue from STATE: cut the files back to what was committed (the kept records: kept_records())."""
        sizes = state["sizes"]
        if (not _size(state.get("games_kept")) or not all(_size(sizes.get(name)) for name in JOURNALED)
                or not (_num(state.get("elapsed_s", 0.0)) and state.get("elapsed_s", 0.0) >= 0)):
            raise OutputError(f"{self.folder.path / STATE}: damaged (games kept, file sizes or time not as recycle "
                              "wrote them); start again with --force")
        self.kept = int(state["games_kept"])
        self.elapsed = float(state.get("elapsed_s", 0.0))
        self.sizes = {name: int(state["sizes"][name]) for name in JOURNALED}
        for name in JOURNALED:
            self.folder.truncate(name, self.sizes[name])
        for name in self.folder.names():
            if name.startswith(".") and TEMP_MARK in name:
                self.folder.remove_temporary(name)
        if self.folder.exists("transcripts"):
            tdir = self.folder.subfolder("transcripts", create=False)
            for name in tdir.names():
                m = TRANSCRIPT_RE.fullmatch(name)
                if (name.startswith(".") and TEMP_MARK in name) or (m and int(m.group(1)) >= self.first + self.kept):
                    tdir.remove(name)
                elif m:
                    self.transcripts += 1
            self.tdir = tdir

    def kept_records(self) -> Iterator[RunRecord]:
        """The records of the games kept by the interrupted batch, in run order, read one at a time."""
        return journal_records(self.folder, RECORDS, range(self.first, self.first + self.kept))

    def add(self, r: RunRecord) -> None:
        """The next game in run order (written now for its transcript, at the next commit for its rows)."""
        if r.run != self.first + self.kept:
            raise ValueError(f"run {r.run} added after {self.kept} games from run {self.first}")
        for name, rows in table_rows(self.game, r, self.direction).items():
            self.writers[name].writerows(map(_cells, rows))
        self.buf[RECORDS].write(record_json(r) + "\n")
        if r.transcript:
            if self.tdir is None:
                self.tdir = self.folder.subfolder("transcripts")
            # written in place, not through a temporary file: until the next commit names this game kept,
            # resume() removes its transcript, so a write cut by a kill is never kept
            if self._writer is None:
                self._writer = ThreadPoolExecutor(1, thread_name_prefix="recycle-transcripts")
            self._pending.append(self._writer.submit(self.tdir.write_new, transcript_name(r.run),
                                                     transcript_text(r.transcript)))
            self.transcripts += 1
        self.kept += 1

    def due(self) -> bool:
        return time.monotonic() - self._last_commit >= max(COMMIT_EVERY_S, COMMIT_SHARE * self._commit_s)

    def commit(self, elapsed: float) -> None:
        """Append the buffered rows (fsynced), then record the new sizes in STATE (atomically)."""
        t0 = time.monotonic()
        self._wait_transcripts()
        for name in JOURNALED:
            data = self.buf[name].getvalue().encode("utf-8")
            if data:
                self.sizes[name] = self.folder.append(name, data, sync=True)
            self.buf[name] = io.StringIO()
            if name in self.writers:
                self.writers[name] = csv.writer(self.buf[name], lineterminator="\n")
        if self.tdir is not None:
            self.tdir.sync()
        self.elapsed = elapsed
        self._write_state()
        self._last_commit = time.monotonic()
        self._commit_s = self._last_commit - t0

    def _write_state(self) -> None:
        state = {"format": "recycle-resume", "version": 1, "identity": self.identity,
                 "games_asked": self.games_asked, "games_kept": self.kept, "elapsed_s": self.elapsed,
                 "sizes": self.sizes}
        self.folder.write_atomic(STATE, json.dumps(state, indent=1) + "\n", sync=True)
        self.folder.sync()
        doc = {**self.progress_doc, "complete": False, "games_kept": self.kept, "games_asked": self.games_asked}
        self.folder.write_atomic("summary.json", json.dumps(doc, indent=2) + "\n")

    def files(self) -> list[str]:
        """The files written, for summary.json (transcripts in run order)."""
        self._wait_transcripts()
        names = list(TABLES)
        if self.tdir is not None:
            runs = sorted(int(m.group(1)) for n in self.tdir.names() if (m := TRANSCRIPT_RE.fullmatch(n)))
            names += [f"transcripts/{transcript_name(r)}" for r in runs]
        return names

    def finish(self, keep_records: str | None = None) -> None:
        """The batch is complete and summary.json written: the resume journal goes (with `keep_records`,
        the records journal stays under that name: a shard's, for `recycle merge`)."""
        self.folder.remove(STATE)
        if keep_records is not None:
            self.folder.rename(RECORDS, keep_records)
        else:
            self.folder.remove(RECORDS)
        self.folder.sync()

    def _wait_transcripts(self) -> None:
        """Every transcript handed to the writer is written (its error, if one failed, raised here)."""
        pending, self._pending = self._pending, []
        for f in pending:
            f.result()

    def close(self) -> None:
        if self._writer is not None:
            self._writer.shutdown(wait=True)
            self._writer = None
        if self.tdir is not None:
            self.tdir.close()


TRANSCRIPT_RE = re.compile(r"run-(\d+)\.jsonl")


def read_state(folder: OutFolder) -> dict | None:
    """The resume state of an interrupted batch in `folder` (None when there is none)."""
    if not folder.exists(STATE):
        return None
    try:
        state = load_json(folder.read_bytes(STATE))
    except ValueError:
        raise OutputError(f"{folder.path / STATE}: damaged (not JSON); start again with --force") from None
    if (not isinstance(state, dict) or state.get("format") != "recycle-resume"
            or not isinstance(state.get("sizes"), dict) or not isinstance(state.get("identity"), dict)):
        raise OutputError(f"{folder.path / STATE}: not a resume state of recycle")
    return state
