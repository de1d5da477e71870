"""Play every shipped game and variant in every player count it allows, N seeded games each.

    python bench/shipped.py [-n 100] [--seed 1] [--jobs 2] [--json]

A game "passes" when all its games end normally: no run-time error and no limit reached.
Exits 1 if any game fails.  Player counts come from the `Players:` line of each file's
opening comment (e.g. "2-4 (default 3)", "1 or 2", "2"); games with a PLAYERS parameter are
played at every count, the others at their fixed count.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from recycle.lang import library
from recycle.run.batch import BatchSpec, run_batch
from recycle.run.session import GameSession


def player_counts(players: str) -> list[int]:
    """Every count a `Players:` text allows: ranges (2-4, 2–6) and lists (1 or 2, 2, 3)."""
    text = players.split("(")[0]
    counts: set[int] = set()
    for lo, hi in re.findall(r"(\d+)\s*[-–]\s*(\d+)", text):
        counts.update(range(int(lo), int(hi) + 1))
    counts.update(int(x) for x in re.findall(r"\d+", re.sub(r"\d+\s*[-–]\s*\d+", "", text)))
    return sorted(counts)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=100, help="games per game file and player count")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rows = []
    for name, path in library.shipped().items():
        info = library.info(name, path)
        sess = GameSession.open(path)
        has_param = any(d.var == "PLAYERS" for d in sess.prog.game.declares)
        counts = player_counts(info.players) if has_param else [sess.n_players]
        for n in counts or [sess.n_players]:
            params = {"PLAYERS": str(n)} if has_param else {}
            spec = BatchSpec(str(path), params, ("R",) * n, args.seed)
            t0 = time.perf_counter()
            recs = run_batch(spec, args.n, jobs=args.jobs)
            dt = time.perf_counter() - t0
            reasons: dict = {}
            for r in recs:
                reasons[r.end_reason] = reasons.get(r.end_reason, 0) + 1
            rows.append({"game": name, "players": n, "games": len(recs), "reasons": reasons,
                         "mean_decisions": sum(r.decisions for r in recs) / max(1, len(recs)),
                         "games_per_s": len(recs) / dt if dt else None,
                         "ok": reasons == {"normal": len(recs)}})
            if not args.json:
                mark = "ok  " if rows[-1]["ok"] else "FAIL"
                print(f"{mark} {name:32} {n} players  {reasons}  "
                      f"{rows[-1]['mean_decisions']:.1f} decisions/game  {rows[-1]['games_per_s']:.1f} games/s",
                      flush=True)
    if args.json:
        print(json.dumps(rows, indent=2))
    bad = [r for r in rows if not r["ok"]]
    if not args.json:
        print(f"{len(rows) - len(bad)} of {len(rows)} (game, player count) batches ended normally in every game")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
