"""`recycle merge OUT SHARD_DIR...`: the K shard folders of `recycle run --shard I/K` made into the one folder
a single `recycle run` of the whole batch writes, byte for byte (summary.json's timing aside; docs/scaling.md).

A shard holds the contiguous block of runs I*N//K .. (I+1)*N//K - 1 with their global run numbers, so the
tables of the whole batch are the shards' tables one after the other (one header), the transcripts are
the shards' files, and the summary is computed again from the records every shard keeps
(shard-records.jsonl).  Shards are refused unless they are all there, once each, complete, and of the
same batch: same game file (SHA-256), --param, players, seed, -n, limits and transcript level.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..analysis.summary import run_summary
from ..errors import UsageError
from ..run.output import OutFolder, OutputError
from ..run.tables import TABLES, TRANSCRIPT_RE, record_from_json, transcript_name
from .batches import WHAT, out_folder
from .run import SHARD_RECORDS


def register(sub) -> None:
    """Add `merge` to the CLI's subcommands."""
    m = sub.add_parser("merge", help="combine the shard folders of `recycle run --shard I/K` into one",
                       description="Combine the K folders written by `recycle run --shard I/K --out DIR` (I = 0 .. "
                       "K-1, same game, seed, -n and options) into OUT: exactly the files one `recycle run` of all "
                       "the games writes (summary.json's timing aside). Missing, duplicate, incomplete or "
                       "mismatched shards are refused.")
    m.add_argument("out", type=out_folder, metavar="OUT", help="the merged folder (new or empty)")
    m.add_argument("shards", type=Path, nargs="+", metavar="SHARD_DIR", help="the shard folders, in any order")
    m.set_defaults(func=cmd_merge)


def _shard_doc(d: Path) -> dict:
    """summary.json of a finished shard folder (a UsageError naming the folder otherwise)."""
    if not d.is_dir():
        raise UsageError(f"{d}: not a folder")
    try:
        doc = json.loads((d / "summary.json").read_text("utf-8"))
    except FileNotFoundError:
        raise UsageError(f"{d}: no summary.json (not the folder of a `recycle run --shard`)") from None
    except ValueError:
        raise UsageError(f"{d}/summary.json: damaged (not JSON)") from None
    if not isinstance(doc, dict) or doc.get("format") != "recycle-run":
        raise UsageError(f"{d}: not the folder of a `recycle run`")
    if not isinstance(doc.get("shard"), dict):
        raise UsageError(f"{d}: the folder of a whole `recycle run`, not of a shard (--shard I/K)")
    if doc.get("complete") is not True:
        raise UsageError(f"{d}: shard {doc['shard'].get('index')} is not complete ({doc.get('games_kept')} games "
                         "kept); finish it with `recycle run … --shard I/K --resume`")
    return doc


def check_shards(dirs: list[Path], docs: list[dict]) -> list[int]:
    """The order of the shards (by index), after checking they are all there, once each, of the same batch."""
    first = docs[0]["shard"]
    k = first["of"]
    seen: dict[int, Path] = {}
    for d, doc in zip(dirs, docs, strict=True):
        sh = doc["shard"]
        if sh["of"] != k:
            raise UsageError(f"{dirs[0]} is a shard of {k} and {d} a shard of {sh['of']}: not the same split")
        ident, ref = dict(sh["identity"]), dict(first["identity"])
        ident.pop("shard", None)
        ref.pop("shard", None)
        for key in ref.keys() | ident.keys():
            if ref.get(key) != ident.get(key):
                shown = "" if key == "game_sha256" else f" ({ref.get(key)!r} and {ident.get(key)!r})"
                raise UsageError(f"{dirs[0]} and {d} are shards of different runs: different "
                                 f"{WHAT.get(key, key)}{shown}")
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
    records = []
    for d, doc in zip(dirs, docs, strict=True):
        with OutFolder.open(d, create=False) as src:
            recs = [record_from_json(line) for line in src.read_bytes(SHARD_RECORDS).decode("utf-8").splitlines()]
        a, b = doc["shard"]["runs"]
        if [r.run for r in recs] != list(range(a, b)):
            raise UsageError(f"{d}/{SHARD_RECORDS}: does not hold runs {a}..{b - 1} of shard {doc['shard']['index']}")
        records.extend(recs)
    head = docs[0]
    summ = head["summary"]
    elapsed = sum(doc["timing"]["wall_s"] for doc in docs)  # the time the shards took together, one after the other
    summary = run_summary(head["game"], summ["file"], head["lineup"], head["seed"], head["players"], records,
                          elapsed, summ.get("direction"))
    files = list(TABLES)
    try:
        with OutFolder.open(args.out) as out:
            for name in TABLES:
                parts = []
                for k, d in enumerate(dirs):
                    with OutFolder.open(d, create=False) as src:
                        data = src.read_bytes(name)
                    # every shard's table opens with the same header: the first one keeps it
                    parts.append(data if k == 0 else data[data.index(b"\n") + 1:])
                out.write_atomic(name, b"".join(parts))
            transcripts = []
            for d in dirs:
                if (d / "transcripts").is_dir():
                    with OutFolder.open(d, create=False) as src, src.subfolder("transcripts", create=False) as tsrc:
                        runs = sorted(int(m.group(1)) for n in tsrc.names() if (m := TRANSCRIPT_RE.fullmatch(n)))
                        if runs:
                            with out.subfolder("transcripts") as tdst:
                                for r in runs:
                                    tdst.write_atomic(transcript_name(r), tsrc.read_bytes(transcript_name(r)))
                        transcripts += runs
            files += [f"transcripts/{transcript_name(r)}" for r in transcripts]
            doc = {k: v for k, v in head.items() if k != "shard"}
            doc.update({"complete": True, "games_kept": len(records),
                        "summary": {k: v for k, v in summary.items()
                                    if k not in ("elapsed_s", "games_per_s", "decisions_per_s")},
                        "timing": {"wall_s": elapsed, "games_per_s": summary["games_per_s"],
                                   "decisions_per_s": summary["decisions_per_s"], "jobs": head["timing"]["jobs"],
                                   "shards": len(docs)},
                        "files": [*files, "summary.json"]})
            out.write_atomic("summary.json", json.dumps(doc, indent=2) + "\n", sync=True)
    except (OSError, OutputError) as e:
        raise UsageError(f"merge: cannot write {args.out} ({getattr(e, 'strerror', None) or e})") from None
    print(f"merged {len(docs)} shards ({len(records)} games) into {args.out}/", file=sys.stderr)
    return 0
