"""Atomic blocks: random-player rollouts of Rummykruss and its variants, this tree against a baseline, in one run.

    python bench/atomic.py [GAME ...] [--baseline REV] [--games N] [--depths D ...] [--seed S] [--json]

For each game (default: rummykruss and its seven variants; GAME arguments pick some by a part of
their name) it times `recycle.load(path).play([RandomPlayer(), RandomPlayer()], seed=…)`, the
rollout of the random player, with the recycle of the working tree and with the recycle of
revision REV (default BASELINE_REV, the commit before the atomic-speed work), and prints the
games/s of both and their ratio.  Each tree plays its own game files, in subprocesses of this
Python: REV is unpacked with `git archive` into a temporary folder put first on sys.path; nothing
in the repository changes.  (The variants were since rewritten as differences from their bases,
in forms REV cannot read; tests/games/test_variants.py shows each plays exactly as its full copy.)

Why several call depths: CPython keeps frames in 16 KB chunks and frees a chunk when the frame
that opened it returns, so a hot loop whose calls straddle a chunk boundary pays an mmap and a
munmap per call (recycle/engine/stack.py).  The deep recursion of atomic blocks made the speed of
the same games depend on how deep the caller's stack happened to be by a factor of three or
more.  So every measurement plays its games from each of the stack depths D (extra frames under
the call, default 0, 4, …, 44), N games at each depth (default 2, different seeds everywhere:
run i of a game is seeded derive(seed, "game", i)), and reports the total: the speed a caller at
a random depth sees.  The fastest and slowest depth are shown too.

The two trees run in two long-lived worker processes, asked in turn for each depth (the order
alternating), and time CPU seconds (user and system) rather than the wall clock, so that other
work on the machine weighs on both alike and little on either.  Each worker loads a game once and
plays one warm-up game first.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BASELINE_REV = "5981746"  # main when the atomic-speed branch started
GAMES = ["rummykruss", "rummykruss_adjacency", "rummykruss_colorless", "rummykruss_open_draft",
         "rummykruss_rearrange", "rummykruss_strict", "rummykruss_turn_cap", "rummykruss_turn_scoring"]
DEPTHS = list(range(0, 48, 4))


# ---------------------------------------------------------------- the worker (a subprocess per tree)


def at_depth(depth: int, fn):
    """fn() called with `depth` more frames under it."""
    if depth > 0:
        return at_depth(depth - 1, fn)
    return fn()


def worker(root: str) -> None:
    """Serve timing requests on stdin with the recycle found in `root`, one JSON line each way.

    A request {"path", "depth", "runs", "seed"} plays the runs of that game at that depth and
    answers the CPU seconds they took (user and system, this process only: other work on the
    machine slows the wall clock, not this).  The first request of a game also loads it and plays
    one warm-up game.
    """
    sys.path.insert(0, root)
    import recycle
    from recycle.engine.algorithms import derive

    print(json.dumps({"recycle": recycle.__file__}), flush=True)
    games: dict = {}
    for line in sys.stdin:
        req = json.loads(line)
        path, seed = str(Path(root) / "games" / f"{req['game']}.gdl"), req["seed"]
        if path not in games:
            games[path] = recycle.load(path)
            games[path].play([recycle.RandomPlayer(), recycle.RandomPlayer()], seed=derive(seed, "warm-up"))
        game = games[path]

        def play(runs=req["runs"], game=game, seed=seed) -> None:
            for i in runs:
                game.play([recycle.RandomPlayer(), recycle.RandomPlayer()], seed=derive(seed, "game", i))

        t0 = time.process_time()
        at_depth(req["depth"], play)
        print(json.dumps({"seconds": time.process_time() - t0}), flush=True)


class Tree:
    """A worker process timing games with one tree's recycle."""

    def __init__(self, root: Path):
        self.proc = subprocess.Popen([sys.executable, __file__, "--worker", str(root)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        self.recycle = self._answer()["recycle"]

    def _answer(self) -> dict:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"the worker for {self.proc.args[-1]} stopped")
        return json.loads(line)

    def time(self, game: str, depth: int, runs: list[int], seed: int) -> float:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"game": game, "depth": depth, "runs": runs, "seed": seed}) + "\n")
        self.proc.stdin.flush()
        return self._answer()["seconds"]

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


# ---------------------------------------------------------------- the driver


def unpack(rev: str, into: Path) -> None:
    """The recycle package, grammars and games of revision `rev`, unpacked into `into`."""
    data = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", rev, "recycle", "grammars", "games"],
                          check=True, capture_output=True).stdout
    tar = into / "src.tar"
    tar.write_bytes(data)
    with tarfile.open(tar) as t:
        t.extractall(into, filter="data")
    tar.unlink()


def bench(games: list[str], args) -> tuple[list[dict], dict]:
    """Per game: CPU seconds per depth for the baseline and the current tree, measured alternately."""
    with tempfile.TemporaryDirectory(prefix="recycle-baseline-") as tmp:
        unpack(args.baseline, Path(tmp))
        base, cur = Tree(Path(tmp)), Tree(REPO)
        try:
            out = []
            run = 0
            for game in games:
                b, c = [], []
                for k, d in enumerate(args.depths):
                    runs = list(range(run, run + args.games))
                    run += args.games
                    # alternate which tree goes first, so that drifts of the machine hit both alike
                    first, second = ((base, b), (cur, c)) if k % 2 == 0 else ((cur, c), (base, b))
                    for tree, acc in (first, second):
                        acc.append(tree.time(game, d, runs, args.seed))
                out.append({"base": b, "cur": c})
            return out, {"baseline": base.recycle, "current": cur.recycle}
        finally:
            base.close()
            cur.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Rummykruss random rollouts: this tree against a baseline revision.")
    ap.add_argument("names", nargs="*", metavar="GAME", help="games by name or a part of it (default all 8)")
    ap.add_argument("--baseline", default=BASELINE_REV, metavar="REV",
                    help=f"the revision to compare with (default {BASELINE_REV})")
    ap.add_argument("--games", type=int, default=2, help="games per stack depth (default 2)")
    ap.add_argument("--depths", type=int, nargs="+", default=DEPTHS, help="extra stack depths (default 0 4 … 44)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the runs (default 1)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--worker", metavar="ROOT", help=argparse.SUPPRESS)  # internal: a timing subprocess
    args = ap.parse_args(argv)
    if args.worker is not None:
        worker(args.worker)
        return 0
    if args.games < 1 or any(d < 0 for d in args.depths):
        ap.error("--games must be at least 1 and depths at least 0")
    names = [g for g in GAMES if not args.names or g in args.names]
    names = names or [g for g in GAMES if any(a in g for a in args.names)]
    if not names:
        ap.error(f"no game matches {args.names}")
    times, trees = bench(names, args)
    n = args.games * len(args.depths)
    rows = []
    for name, t in zip(names, times, strict=True):
        rows.append({"game": name, "games": n,
                     "baseline_games_per_s": n / sum(t["base"]), "games_per_s": n / sum(t["cur"]),
                     "baseline_ms_per_game_by_depth": [1e3 * s / args.games for s in t["base"]],
                     "ms_per_game_by_depth": [1e3 * s / args.games for s in t["cur"]],
                     "ratio": sum(t["base"]) / sum(t["cur"])})
    total = sum(sum(t["base"]) for t in times) / sum(sum(t["cur"]) for t in times)
    if args.json:
        print(json.dumps({"baseline": args.baseline, "depths": args.depths, "games_per_depth": args.games,
                          "rows": rows, "ratio_of_total_time": total, "recycle": trees}, indent=2))
        return 0
    print(f"Random rollouts of two RandomPlayers, games/s (CPU time, one core): this tree against {args.baseline};")
    print(f"{args.games} games at each of the stack depths {' '.join(map(str, args.depths))}; "
          "ms/game of the fastest and the slowest depth in brackets")
    print(f"{'game':24s} {'baseline':>9s} {'(ms/game)':>13s} {'now':>8s} {'(ms/game)':>11s} {'ratio':>7s}")
    for r in rows:
        bd, cd = r["baseline_ms_per_game_by_depth"], r["ms_per_game_by_depth"]
        print(f"{r['game']:24s} {r['baseline_games_per_s']:9.2f} {f'({min(bd):.0f}-{max(bd):.0f})':>13s} "
              f"{r['games_per_s']:8.2f} {f'({min(cd):.0f}-{max(cd):.0f})':>11s} {r['ratio']:6.1f}×")
    print(f"{'all':24s} {'':9s} {'':13s} {'':8s} {'':11s} {total:6.1f}×  (ratio of the total times)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
