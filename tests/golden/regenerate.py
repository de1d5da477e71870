"""Regenerate the golden transcripts of the shipped games (flow-and-analytics §5.3).

    python tests/golden/regenerate.py [--force] [GAME ...]

Each golden file is the `full` transcript of one seeded game with random players:
tests/golden/<game>-seed-<S>.jsonl.  tests/run/test_replay.py replays every golden file and
requires identity line by line, and plays the seed again requiring the same bytes; so a
golden file changes only when the game file, the interpreter version or the engine's
behaviour changes.  Regenerate deliberately, after checking that the change is intended
(`git diff tests/golden` shows what moved): existing files are not overwritten without
--force.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO))  # the working tree, installed or not

from recycle.run.session import GameSession  # noqa: E402

GOLDEN = {"block_rummy": (1, 2024), "contract_rummy": (1, 2024), "gin_rummy": (20, 34),
          "rummy_500": (1, 2024),
          "tile_rummy": (1, 2024)}  # shipped game -> fixed game seeds
# A random Gin Rummy match to 100 runs to tens of thousands of decisions (random players seldom
# knock): its golden games are matches to 1 point, the first hand somebody scores, with seeds
# whose games are short enough to read (194 and 91 decisions).
PARAMS: dict[str, dict[str, str]] = {"gin_rummy": {"TARGET": "1"}}
LINEUP = ("R", "R", "R", "R", "R")  # cut to the game's number of players


def golden_path(game: str, seed: int) -> Path:
    return HERE / f"{game}-seed-{seed}.jsonl"


def transcript_bytes(game: str, seed: int) -> bytes:
    """The full transcript of one game of a shipped game with seed `seed` (all random players)."""
    sess = GameSession.open(REPO / "games" / f"{game}.gdl", PARAMS.get(game))  # this tree's file
    rec = sess.play(seed, list(LINEUP[: sess.n_players]), level="full")
    return "".join(line + "\n" for line in rec.transcript).encode("utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Regenerate the golden transcripts in tests/golden/.")
    ap.add_argument("--force", action="store_true", help="overwrite golden files that exist")
    ap.add_argument("games", nargs="*", help="only these games (default: every game of GOLDEN)")
    args = ap.parse_args(argv)
    unknown = [g for g in args.games if g not in GOLDEN]
    if unknown:
        print(f"not in GOLDEN: {', '.join(unknown)}", file=sys.stderr)
        return 2
    targets = [(g, s, golden_path(g, s)) for g, seeds in GOLDEN.items() for s in seeds
               if not args.games or g in args.games]
    existing = [p for _, _, p in targets if p.exists()]
    if existing and not args.force:
        print("refusing to overwrite " + ", ".join(p.name for p in existing)
              + " (they are the reference the tests check against); use --force", file=sys.stderr)
        return 1
    for game, seed, path in targets:
        data = transcript_bytes(game, seed)
        old = path.read_bytes() if path.exists() else None
        path.write_bytes(data)
        state = "new" if old is None else ("unchanged" if old == data else "CHANGED")
        print(f"{path.relative_to(REPO)}: {len(data.splitlines())} lines ({state})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
