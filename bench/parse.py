"""Time loading the whole corpus: the surface layer and, when it exists, the full load.

    python bench/parse.py [--corpus DIR] [--repeat N] [--json]

Each layer reads every game file of the corpus N times; the best of the N passes is
reported (the least disturbed by the rest of the machine).  Lark builds its parser once
before timing starts, so the times are those of a warm loader.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # time the working tree, installed or not

from recycle.errors import RecycleError  # noqa: E402
from recycle.lang.reader import read_sexprs  # noqa: E402
from recycle.lang.source import SourceFile  # noqa: E402

DEFAULT_CORPUS = REPO.parent / "shared" / "corpus"
GAME_SUFFIXES = (".rcy", ".gdl")


def corpus_files(root: Path) -> list[Path]:
    """Every game file under the corpus folder's subfolders, sorted."""
    return sorted(p for p in root.glob("*/*") if p.is_file() and p.suffix in GAME_SUFFIXES)


def surface(path: Path):
    """Layer one: read the file and parse it into S-expressions."""
    return read_sexprs(SourceFile.read(path))


def full_loader() -> tuple[Callable[[Path], object] | None, str]:
    """recycle.lang.load_game if it can be imported (else None), and why not."""
    try:
        from recycle.lang import load_game
    except ImportError as e:
        return None, f"recycle.lang.load_game is not importable ({e})"
    return load_game, ""


def time_layer(load: Callable[[Path], object], files: list[Path], repeat: int) -> dict:
    """Best total time over `repeat` passes, and how many files the loader rejected."""
    load(files[0])  # warm up: builds the parser and fills caches
    best = float("inf")
    rejected: dict[str, str] = {}
    for _ in range(repeat):
        t0 = time.perf_counter()
        for path in files:
            try:
                load(path)
            except RecycleError as e:  # a game the loader rejects still costs its time
                rejected[path.name] = str(e).splitlines()[0]
        best = min(best, time.perf_counter() - t0)
    return {
        "files": len(files),
        "seconds": round(best, 4),
        "ms_per_file": round(1000 * best / len(files), 3),
        "rejected": len(rejected),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Time loading the whole RECYCLE corpus.")
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="corpus folder (default: ../shared/corpus)")
    ap.add_argument("--repeat", type=int, default=3, metavar="N", help="passes per layer; the best is kept (default 3)")
    ap.add_argument("--json", action="store_true", help="print only a one-line JSON summary")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    files = corpus_files(args.corpus) if args.corpus.is_dir() else []
    if not files:
        print(f"bench/parse.py: no corpus at {args.corpus} "
              "(expected cardstock/ and valet/ game files; use --corpus DIR)",
              file=sys.stderr)
        return 2

    layers = {"surface": time_layer(surface, files, args.repeat)}
    load_game, why_not = full_loader()
    if load_game is not None:
        layers["full"] = time_layer(load_game, files, args.repeat)

    if args.json:
        summary = {"corpus": str(args.corpus), "repeat": args.repeat, "layers": layers}
        if load_game is None:
            summary["full"] = why_not
        print(json.dumps(summary, separators=(",", ":")))
        return 0

    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"Loading {len(files)} corpus files (best of {args.repeat})")
    for col in ("layer", "files", "total s", "ms / file", "rejected"):
        table.add_column(col, justify="left" if col == "layer" else "right")
    names = {"surface": "surface (read_sexprs)", "full": "full (load_game)"}
    for key, r in layers.items():
        table.add_row(names[key], str(r["files"]), f"{r['seconds']:.3f}", f"{r['ms_per_file']:.2f}", str(r["rejected"]))
    console = Console()
    console.print(table)
    if load_game is None:
        console.print(f"full load skipped: {why_not}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
