"""`recycle merge OUT SHARD_DIR...`: the K shard folders of `recycle run --shard I/K` made into the one folder
a single `recycle run` of the whole batch writes, byte for byte (summary.json's timing aside; docs/scaling.md).

A shard holds the contiguous block of runs I*N//K .. (I+1)*N//K - 1 with their global run numbers, so the
tables of the whole batch are the shards' tables one after the other (one header), the transcripts are
the shards' files, and the summary is computed again from the records every shard keeps
(shard-records.jsonl).  Shards are refused unless they are all there, once each, complete, and of the
same batch: same game file (SHA-256), --param, players, seed, -n, limits and transcript level; and unless
each table has the size its records make (a table cut short would lack games).

Shards of `recycle stats --shard I/K` (summary.json of format recycle-analytics) are merged into the folder
of a stats batch stopped after its last game, which `recycle stats --resume` then finishes without playing
again: summary, CSVs, heuristics, flows and plots computed from the merged records and the game file.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path

from ..analysis.tally import RunTally
from ..errors import UsageError, cut_text
from ..run.output import OutFolder, OutputError
from ..run.tables import (
    HEADERS,
    RECORDS,
    STATE,
    TABLES,
    TRANSCRIPT_RE,
    csv_text,
    is_count,
    journal_records,
    load_json,
    table_rows,
    transcript_name,
)
from . import stats
from .batches import WHAT, out_folder
from .run import SHARD_RECORDS


def register(sub) -> None:
    """Add `merge` to the CLI's subcommands."""
    m = sub.add_parser("merge", help="combine the shard folders of `recycle run`/`recycle stats --shard I/K` into one",
                       description="Combine the K folders written by `recycle run --shard I/K --out DIR` (I = 0 .. "
                       "K-1, same game, seed, -n and options) into OUT: exactly the files one `recycle run` of all "
                       "the games writes (summary.json's timing aside). Missing, duplicate, incomplete or "
                       "mismatched shards are refused. Shards of `recycle stats --shard I/K` give the folder of one "
                       "`recycle stats` (its summary, tables, heuristics, flows and plots computed from the merged "
                       "records and the game file); run and stats shards cannot be mixed.")
    m.add_argument("out", type=out_folder, metavar="OUT", help="the merged folder (new or empty)")
    m.add_argument("shards", type=Path, nargs="+", metavar="SHARD_DIR", help="the shard folders, in any order")
    m.set_defaults(func=cmd_merge)


def _shard_doc(d: Path) -> dict:
    """summary.json of a finished shard folder (a UsageError naming the folder otherwise)."""
    if not d.is_dir():
        raise UsageError(f"{d}: not a folder")
    try:
        doc = load_json((d / "summary.json").read_text("utf-8"))
    except FileNotFoundError:
        raise UsageError(f"{d}: no summary.json (not the folder of a `recycle run --shard`)") from None
    except ValueError:
        raise UsageError(f"{d}/summary.json: damaged (not JSON)") from None
    if not isinstance(doc, dict) or doc.get("format") not in ("recycle-run", "recycle-analytics"):
        raise UsageError(f"{d}: not the folder of a `recycle run` or `recycle stats`")
    command = "run" if doc["format"] == "recycle-run" else "stats"
    if not isinstance(doc.get("shard"), dict):
        raise UsageError(f"{d}: the folder of a whole `recycle {command}`, not of a shard (--shard I/K)")
    if doc.get("complete") is not True:
        raise UsageError(f"{d}: shard {doc['shard'].get('index')} is not complete ({doc.get('games_kept')} games "
                         f"kept); finish it with `recycle {command} … --shard I/K --resume`")
    for where, ok in _SHAPE + (_STATS_SHAPE if command == "stats" else _RUN_SHAPE):
        value: object = doc
        for key in where.split("."):
            value = value.get(key) if isinstance(value, dict) else None
        if not ok(value):
            shown = cut_text(json.dumps(value), 40)
            raise UsageError(f"{d}/summary.json: damaged ({where} is {shown}): not as `recycle {command} --shard` "
                             "wrote it")
    return doc


# What merging reads of each shard's summary.json, and what a shard writes there: a folder edited by hand
# is refused naming the field, before anything is merged.
_SHAPE = (
    ("version", lambda v: v == 1),
    ("game", lambda v: isinstance(v, str)),
    ("players", lambda v: is_count(v) and v > 0),
    ("lineup", lambda v: isinstance(v, list) and all(isinstance(c, str) for c in v)),
    ("seed", is_count),
    ("games_kept", is_count),
    ("games_asked", is_count),
    ("timing.wall_s", lambda v: type(v) in (int, float) and v >= 0),
    ("shard.index", is_count),
    ("shard.of", lambda v: is_count(v) and v > 0),
    ("shard.identity", lambda v: isinstance(v, dict)),
    ("shard.runs", lambda v: isinstance(v, list) and len(v) == 2 and all(is_count(x) for x in v) and v[0] <= v[1]),
)
_RUN_SHAPE = (("summary.file", lambda v: isinstance(v, str)),)
_STATS_SHAPE = (
    ("shard.options", lambda v: isinstance(v, dict)),
    ("shard.game_file", lambda v: isinstance(v, str)),
    ("timing.jobs", lambda v: is_count(v) and v > 0),
)


def check_shards(dirs: list[Path], docs: list[dict]) -> list[int]:
    """The order of the shards (by index), after checking they are all there, once each, of the same batch."""
    first = docs[0]["shard"]
    kinds = {doc["shard"].get("command", "run") for doc in docs}
    if len(kinds) > 1:
        raise UsageError("these folders mix shards of `recycle run` and of `recycle stats`: merge each batch apart")
    k = first["of"]
    seen: dict[int, Path] = {}
    for d, doc in zip(dirs, docs, strict=True):
        sh = doc["shard"]
        if sh["of"] != k:
            raise UsageError(f"{dirs[0]} is a shard of {k} and {d} a shard of {sh['of']}: not the same split")
        ident, ref = dict(sh["identity"]), dict(first["identity"])
        ident.pop("shard", None)
        ref.pop("shard", None)
        # a stats shard also keeps the options its derived files depend on (--bootstrap, --plot-format, ...)
        ident.update({"--" + k.replace("_", "-"): v for k, v in sh.get("options", {}).items()})
        ref.update({"--" + k.replace("_", "-"): v for k, v in first.get("options", {}).items()})
        for key in sorted(ref.keys() | ident.keys()):
            if ref.get(key) != ident.get(key):
                shown = "" if key == "game_sha256" else f" ({ref.get(key)!r} and {ident.get(key)!r})"
                raise UsageError(f"{dirs[0]} and {d} are shards of different runs: different "
                                 f"{WHAT.get(key, key)}{shown}")
        if doc.get("interpreter") != docs[0].get("interpreter"):  # another version may play other games
            raise UsageError(f"{dirs[0]} and {d} are shards of different versions of recycle "
                             f"({docs[0].get('interpreter')!r} and {doc.get('interpreter')!r}): play them again "
                             "with one version")
        i = sh["index"]
        if i in seen:
            raise UsageError(f"shard {i} of {k} is given twice: {seen[i]} and {d}")
        seen[i] = d
    missing = [i for i in range(k) if i not in seen]
    if missing:
        raise UsageError(f"missing shard{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))} of {k}: "
                         f"have {', '.join(f'{i} ({seen[i]})' for i in sorted(seen))}")
    return [next(j for j, doc in enumerate(docs) if doc["shard"]["index"] == i) for i in range(k)]


def cmd_merge(args: argparse.Namespace) -> int:
    dirs: list[Path] = list(args.shards)
    docs = [_shard_doc(d) for d in dirs]
    order = check_shards(dirs, docs)
    dirs, docs = [dirs[j] for j in order], [docs[j] for j in order]
    if args.out.exists() and (not args.out.is_dir() or any(args.out.iterdir())):
        raise UsageError(f"merge: {args.out} is not a new or empty folder")
    if docs[0]["shard"].get("command") == "stats":
        code = merge_stats(args.out, dirs, docs)
        print(f"merged {len(docs)} stats shards ({sum(d['games_kept'] for d in docs)} games) into {args.out}/",
              file=sys.stderr)
        return code
    head = docs[0]
    # the summary is tallied record by record, the shards in run order: memory does not grow with the batch
    tally = RunTally(head["players"])
    for d, doc in zip(dirs, docs, strict=True):
        sizes = TableSizes(head["game"], doc)
        for rec in _records(d, doc):
            tally.add(rec)
            sizes.add(rec)
        sizes.check(d)
    summ = head["summary"]
    elapsed = sum(doc["timing"]["wall_s"] for doc in docs)  # the time the shards took together, one after the other
    summary = tally.summary(head["game"], summ["file"], head["lineup"], head["seed"], elapsed, summ.get("direction"))
    files = list(TABLES)
    try:
        with OutFolder.open(args.out) as out:
            for name in TABLES:
                out.write_atomic(name, table_parts(dirs, name))
            transcripts = copy_transcripts(out, dirs)
            files += [f"transcripts/{transcript_name(r)}" for r in transcripts]
            doc = {k: v for k, v in head.items() if k != "shard"}
            doc.update({"complete": True, "games_kept": tally.games,
                        "summary": {k: v for k, v in summary.items()
                                    if k not in ("elapsed_s", "games_per_s", "decisions_per_s")},
                        "timing": {"wall_s": elapsed, "games_per_s": summary["games_per_s"],
                                   "decisions_per_s": summary["decisions_per_s"], "jobs": head["timing"]["jobs"],
                                   "shards": len(docs)},
                        "files": [*files, "summary.json"]})
            out.write_atomic("summary.json", json.dumps(doc, indent=2) + "\n", sync=True)
    except (OSError, OutputError) as e:
        raise UsageError(f"merge: cannot write {args.out} ({getattr(e, 'strerror', None) or e})") from None
    print(f"merged {len(docs)} shards ({tally.games} games) into {args.out}/", file=sys.stderr)
    return 0


def table_parts(dirs: list[Path], name: str) -> Iterator[bytes]:
    """The shards' tables `name` one after the other, read a megabyte at a time (tables of a big batch
    need not fit in memory)."""
    for k, d in enumerate(dirs):
        with OutFolder.open(d, create=False) as src, src.open_read(name) as f:
            if k:
                f.readline()  # every shard's table opens with the same header: the first one keeps it
            while chunk := f.read(1 << 20):
                yield chunk


def merge_stats(out_dir: Path, dirs: list[Path], docs: list[dict]) -> int:
    """Shards of `recycle stats`: their tables, transcripts and records make the folder of a stats batch
    stopped after its last game (with its resume journal), which `recycle stats --resume` then finishes
    without playing a game: the summary, tables, heuristics, flows and plots are computed from the merged
    records and the game file exactly as one uninterrupted `recycle stats` computes them."""
    head = docs[0]
    for d, doc in zip(dirs, docs, strict=True):  # every record read before anything is written
        table_sizes = TableSizes(head["game"], doc)
        for rec in _records(d, doc):
            table_sizes.add(rec)
        table_sizes.check(d)
    sizes: dict[str, int] = {}
    try:
        with OutFolder.open(out_dir) as out:
            for name in (*TABLES, RECORDS):
                sizes[name] = 0
                out.write_atomic(name, _joined(dirs, name, sizes))
            copy_transcripts(out, dirs)
            ident = {k: v for k, v in head["shard"]["identity"].items() if k != "shard"}
            games = sum(doc["games_kept"] for doc in docs)
            state = {"format": "recycle-resume", "version": 1, "identity": ident, "games_asked": head["games_asked"],
                     "games_kept": games, "elapsed_s": sum(doc["timing"]["wall_s"] for doc in docs), "sizes": sizes}
            out.write_atomic(STATE, json.dumps(state, indent=1) + "\n", sync=True)
    except (OSError, OutputError) as e:
        raise UsageError(f"merge: cannot write {out_dir} ({getattr(e, 'strerror', None) or e})") from None
    opts = head["shard"]["options"]
    parser = argparse.ArgumentParser(prog="recycle")
    stats.register(parser.add_subparsers())
    ns = parser.parse_args(["stats", head["shard"]["game_file"]])  # the defaults of every other option
    for key, value in {**opts, "out": out_dir, "resume": True, "jobs": head["timing"]["jobs"], "quiet": True}.items():
        setattr(ns, key, tuple(value) if key.endswith("_formats") else value)
    return stats.cmd_stats(ns)


def _joined(dirs: list[Path], name: str, sizes: dict[str, int]) -> Iterator[bytes]:
    """The shards' table `name` (or their records journals, for RECORDS) one after the other, a megabyte at
    a time, counting its bytes into sizes[name]: a big batch's files need not fit in memory."""
    for k, d in enumerate(dirs):
        with OutFolder.open(d, create=False) as src, src.open_read(SHARD_RECORDS if name == RECORDS else name) as f:
            if name != RECORDS:
                head = f.readline()
                if not head.endswith(b"\n"):
                    raise UsageError(f"{d}/{name}: damaged (not even a header line)")
                if k == 0:  # every shard's table opens with the same header: the first one keeps it
                    sizes[name] += len(head)
                    yield head
            while chunk := f.read(1 << 20):
                sizes[name] += len(chunk)
                yield chunk


class TableSizes:
    """The sizes of a shard's tables as its records make them: a table cut short or edited by hand (the tables
    are copied as they are) is refused, naming it, instead of making a merged folder that lacks games."""

    def __init__(self, game: str, doc: dict) -> None:
        self.game = game
        # "max" or "min" (a stats shard does not say which): both three letters, and only sizes are compared
        self.direction = (doc.get("summary") or {}).get("direction") or "max"
        self.games = 0
        self.sizes = {name: len(csv_text([HEADERS[name]]).encode("utf-8")) for name in TABLES}

    def add(self, rec) -> None:
        self.games += 1
        for name, rows in table_rows(self.game, rec, self.direction).items():
            self.sizes[name] += len(csv_text(rows).encode("utf-8"))

    def check(self, d: Path) -> None:
        for name, want in self.sizes.items():
            try:
                got = (d / name).stat().st_size
            except OSError as e:
                raise UsageError(f"{d}/{name}: cannot be read ({e.strerror or e})") from None
            if got != want:
                raise UsageError(f"{d}/{name}: damaged ({got:,} bytes, where the records of its {self.games} games "
                                 f"make {want:,}): play the shard again")


def _records(d: Path, doc: dict) -> Iterator:
    """The records a shard keeps, checked as they are read (a UsageError naming the shard otherwise)."""
    a, b = doc["shard"]["runs"]
    try:
        with OutFolder.open(d, create=False) as src:
            yield from journal_records(src, SHARD_RECORDS, range(a, b))
    except (OutputError, OSError) as e:
        detail = str(e).removeprefix(f"{d / SHARD_RECORDS}: ")
        raise UsageError(f"{d / SHARD_RECORDS}: does not hold runs {a}..{b - 1} of shard {doc['shard']['index']} "
                         f"({detail})") from None


def copy_transcripts(out: OutFolder, dirs: list[Path]) -> list[int]:
    """Copy the shards' transcripts into the merged folder; returns their runs, shard by shard."""
    copied: list[int] = []
    for d in dirs:
        if (d / "transcripts").is_dir():
            with OutFolder.open(d, create=False) as src, src.subfolder("transcripts", create=False) as tsrc:
                runs = sorted(int(m.group(1)) for n in tsrc.names() if (m := TRANSCRIPT_RE.fullmatch(n)))
                if runs:
                    with out.subfolder("transcripts") as tdst:
                        for r in runs:
                            tdst.write_atomic(transcript_name(r), tsrc.read_bytes(transcript_name(r)))
                copied += runs
    return copied
