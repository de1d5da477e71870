"""Scaling: games/s of a batch against the number of workers, local process pool and Ray.

    python bench/scaling.py [GAME] [--workers 1,2] [--games N] [--backends local,ray] [--seed S] [--json]

For each backend and worker count it plays the same batch of N games (default 2,000 of
cardstock/KuhnPoker2 from ../shared/corpus, or the GAME file given) with random players, as
`recycle run --jobs W` (local: recycle.run.batch.iter_batch's process pool) or
`recycle run --backend ray --jobs W` (a local Ray cluster started once with the largest W CPUs,
then W actors per measurement: recycle.run.raybatch.iter_ray) does, files aside, and prints
games/s and the speedup over one worker of the same backend.  Worker start-up (fork, or
an actor compiling the game) is part of each measurement; starting the Ray cluster is not
(it is printed on its own).  Records are checked equal to those of one local worker.

The speedup can only be as good as the free cores: the load average and the CPU count are
printed with the figures (the goal of issue 16 is 1.8x from one to two workers).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # time the working tree, installed or not

import attrs  # noqa: E402

from recycle.run.batch import BatchSpec, iter_batch  # noqa: E402
from recycle.run.session import GameSession  # noqa: E402

DEFAULT_GAME = REPO.parent / "shared" / "corpus" / "cardstock" / "KuhnPoker2.rcy"


def _same(a, b) -> bool:
    """Records equal but for their wall time."""
    return [attrs.evolve(r, ms=0.0) for r in a] == [attrs.evolve(r, ms=0.0) for r in b]


def measure(play, n: int) -> tuple[list, float]:
    t0 = time.perf_counter()
    records = list(play())
    return records, time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="games/s against the number of workers, local processes and Ray")
    ap.add_argument("game", nargs="?", type=Path, default=DEFAULT_GAME, help="game file (default Kuhn poker)")
    ap.add_argument("--workers", default="1,2", help="worker counts, comma separated (default 1,2)")
    ap.add_argument("--games", type=int, default=2000, help="games per measurement (default 2000)")
    ap.add_argument("--backends", default="local,ray", help="local, ray or both (default local,ray)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    counts = [int(w) for w in args.workers.split(",")]
    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    sess = GameSession.open(args.game)
    spec = BatchSpec(str(args.game), {}, ("R",) * sess.n_players, args.seed, sess.prog.max_decisions,
                     sess.prog.max_steps, "none")
    runs = range(args.games)
    load_before = os.getloadavg()
    reference = list(iter_batch(spec, runs, 1, sess))
    rows: list[dict] = []
    ray_start = None
    for backend in backends:
        if backend == "ray":
            try:
                import ray

                from recycle.run.raybatch import iter_ray
            except ImportError:
                print("bench/scaling.py: Ray is not installed (pip install 'recycle[ray]'): skipping it",
                      file=sys.stderr)
                continue
            t0 = time.perf_counter()
            ray.init(num_cpus=max(counts), include_dashboard=False, log_to_driver=False, logging_level="ERROR")
            ray_start = time.perf_counter() - t0
        for w in counts:
            if not args.json:
                print(f"{backend}, {w} worker{'s' if w > 1 else ''} …", file=sys.stderr, flush=True)
            if backend == "ray":
                tasks = [(spec, r) for r in runs]
                records, s = measure(lambda w=w, tasks=tasks: iter_ray(tasks, sess, w), args.games)
            else:
                records, s = measure(lambda w=w: iter_batch(spec, runs, w, sess), args.games)
            if not _same(records, reference):
                print(f"bench/scaling.py: {backend} with {w} workers gave other records", file=sys.stderr)
                return 1
            rows.append({"backend": backend, "workers": w, "games": len(records), "seconds": s,
                         "games_per_s": len(records) / s})
        if backend == "ray":
            ray.shutdown()
    for r in rows:
        one = next((x for x in rows if x["backend"] == r["backend"] and x["workers"] == 1), None)
        r["speedup"] = r["games_per_s"] / one["games_per_s"] if one else None
    machine = {"cpus": os.cpu_count(), "load_before": [round(x, 2) for x in load_before],
               "load_after": [round(x, 2) for x in os.getloadavg()]}
    if args.json:
        print(json.dumps({"game": args.game.name, "games": args.games, "machine": machine,
                          "ray_start_s": ray_start, "rows": rows}, indent=2))
        return 0
    print(f"{args.game.name}: {args.games} games per measurement, random players; {machine['cpus']} CPUs, "
          f"load average {machine['load_before'][0]:.2f} before, {machine['load_after'][0]:.2f} after")
    print(f"{'backend':8} {'workers':>7} {'seconds':>8} {'games/s':>9} {'speedup':>8}")
    for r in rows:
        sp = f"{r['speedup']:.2f}x" if r["speedup"] else "—"
        print(f"{r['backend']:8} {r['workers']:>7} {r['seconds']:>8.2f} {r['games_per_s']:>9,.0f} {sp:>8}")
    if ray_start is not None:
        print(f"starting the local Ray cluster took {ray_start:.1f} s (not counted above)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
