"""Gin Rummy rollout speed: games/gin_rummy.gdl against RLCard's gin rummy, side by side.

    python bench/gin_vs_rlcard.py [--seconds S] [--seed N] [--json]

Both play random players on one core in the same run, each for S seconds (default 5) after a
warm-up game. An RLCard game is one hand (it ends on a knock, gin or a dead hand), so the
comparison is per hand: ours plays whole matches to 100 with the engine (`play_game`, the
program compiled once, no recorder) and counts the hands they hold, drawn hands included.
Our matches/s are printed as well. RLCard comes from the `peers` extra (pip install rlcard).
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

from recycle.compiler import load_program  # noqa: E402
from recycle.engine.algorithms import derive  # noqa: E402
from recycle.engine.play import play_game  # noqa: E402
from recycle.players.random_player import RandomPlayer  # noqa: E402

GIN = REPO / "games" / "gin_rummy.gdl"


def ours(seconds: float, seed: int) -> dict:
    """Random matches for `seconds`: matches, hands and decisions per second."""
    prog = load_program(GIN)
    play_game(prog, derive(seed, "warm-up", 0), [RandomPlayer(), RandomPlayer()])
    matches = hands = decisions = 0
    t0 = time.perf_counter()
    while True:
        r = play_game(prog, derive(seed, "game", matches), [RandomPlayer(), RandomPlayer()])
        assert r.end_reason == "normal", r.end_reason
        matches += 1
        hands += len(r.hands)
        decisions += r.n_decisions
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            break
    return {"matches": matches, "hands": hands, "decisions": decisions, "seconds": elapsed,
            "matches_per_s": matches / elapsed, "hands_per_s": hands / elapsed}


def rlcard_side(seconds: float, seed: int) -> dict:
    """RLCard's gin-rummy env with two random agents for `seconds`: games (hands) per second."""
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("gin-rummy", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    env.run(is_training=False)  # warm-up
    games = 0
    t0 = time.perf_counter()
    while True:
        env.run(is_training=False)
        games += 1
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            break
    return {"games": games, "seconds": elapsed, "games_per_s": games / elapsed}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="time per side (default 5)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core for both sides
    a = ours(args.seconds, args.seed)
    b = rlcard_side(args.seconds, args.seed)
    ratio = a["hands_per_s"] / b["games_per_s"]
    if args.json:
        print(json.dumps({"recycle": a, "rlcard": b, "ratio_hands": ratio}, indent=2))
    else:
        print(f"recycle gin_rummy: {a['hands_per_s']:.1f} hands/s ({a['matches_per_s']:.2f} matches to 100/s, "
              f"{a['decisions'] / a['seconds']:.0f} decisions/s)")
        print(f"RLCard gin-rummy:  {b['games_per_s']:.1f} games/s (one hand each)")
        print(f"ratio (recycle hands/s / RLCard games/s): {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
