"""Rollout speed of the shipped rummy games: games/s and decisions/s with random players, one core.

    python bench/rummy_games.py [NAME ...] [--seconds S | --games N] [--seed S] [--json]

NAME picks shipped games by name (default: the standard rummy family, gin_rummy, rummy_500,
contract_rummy, tile_rummy, and block_rummy for reference). Each is measured on the raw engine
(`play_game` with random players, the program compiled once) for S seconds (default 5, at least
one game) after one warm-up game; a game missing from games/ is reported and skipped. The peer
comparisons live beside it: bench/gin_vs_rlcard.py (Gin Rummy against RLCard's environment) and
bench/atomic.py (atomic turns against the previous implementation).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # time the working tree, installed or not
sys.path.insert(0, str(Path(__file__).resolve().parent))

from rollouts import timed  # noqa: E402

from recycle.compiler import load_program  # noqa: E402
from recycle.engine.algorithms import derive  # noqa: E402
from recycle.engine.play import play_game  # noqa: E402
from recycle.lang import library  # noqa: E402
from recycle.players.random_player import RandomPlayer  # noqa: E402

WARM_UP = 10**9  # the index `timed` gives its untimed warm-up game
DEFAULT = ["gin_rummy", "rummy_500", "contract_rummy", "tile_rummy", "block_rummy"]


def bench(name: str, path: Path, args) -> dict:
    prog = load_program(path)
    k = prog.n_players
    ends: dict[str, int] = {}

    def one(i: int) -> int:
        r = play_game(prog, derive(args.seed, "game", i), [RandomPlayer() for _ in range(k)])
        if i != WARM_UP:
            ends[r.end_reason] = ends.get(r.end_reason, 0) + 1
        return r.n_decisions

    n, dec, s = timed(one, args.seconds, args.games)
    return {"game": name, "players": k, "games": n, "seconds": round(s, 3), "games_per_s": n / s,
            "decisions_per_game": dec / n, "decisions_per_s": dec / s, "ends": ends}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="shipped game names (default: the rummy family)")
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--games", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    shipped = library.shipped()
    rows = []
    for name in args.names or DEFAULT:
        if name not in shipped:
            print(f"skipped {name}: not a shipped game (see `recycle games`)", file=sys.stderr)
            continue
        rows.append(bench(name, shipped[name], args))
        if not args.json:
            r = rows[-1]
            print(f"{name:20} {r['players']} players  {r['games_per_s']:9.1f} games/s  "
                  f"{r['decisions_per_s']:9.0f} decisions/s  {r['decisions_per_game']:7.1f} decisions/game  "
                  f"ends {r['ends']}", flush=True)
    if args.json:
        print(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
