"""Rollout speed: games/s and decisions/s with random players, against CardStock and our baseline.

    python bench/rollouts.py [GAME ...] [--seconds S | --games N] [--jobs J] [--seed S]
                             [--corpus DIR] [--json] [--record]

For each benchmark game (default: cardstock/KuhnPoker2, LeducPoker2, Hearts4, GoFish4,
CrazyEights4 and valet/Rummy2; GAME arguments pick some by a part of their name) it measures,
on one core:

* engine: the raw engine, `play_game(prog, seed, [RandomPlayer()…])` with no recorder, the
  program compiled once (what an AI rollout or a tight loop costs);
* run:    the `recycle run` path, `batch.play_run` (GameSession.play with its recorder, which
  counts moves and turns, keeps the decision rows and builds the record), transcripts off; the
  column "run ÷ engine" is their ratio (issue 16 asks for at least 0.8);

each for S seconds (default 5; at least one game) or exactly N games, after one warm-up game.
Games are seeded as in a batch (run i: derive(seed, "game", i)).  The table shows the ratio of
the engine's games/s to CardStock's, recorded on this kind of machine (the reference plays
the same corpus files with random players), and to our own baseline, bench/baseline.json,
which `--record` writes from the current run.  `--jobs J` adds the process-pool scaling:
games/s of `batch.run_batch` with J worker processes, pool start-up included, against the
one-process run path.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # time the working tree, installed or not

from recycle.compiler import load_program  # noqa: E402
from recycle.engine.algorithms import derive  # noqa: E402
from recycle.engine.play import play_game  # noqa: E402
from recycle.players.random_player import RandomPlayer  # noqa: E402
from recycle.run.batch import BatchSpec, play_run, run_batch  # noqa: E402
from recycle.run.session import GameSession  # noqa: E402

DEFAULT_CORPUS = REPO.parent / "shared" / "corpus"
BASELINE = Path(__file__).resolve().parent / "baseline.json"
GAMES = ["cardstock/KuhnPoker2.rcy", "cardstock/LeducPoker2.rcy", "cardstock/Hearts4.rcy",
         "cardstock/GoFish4.rcy", "cardstock/CrazyEights4.rcy", "valet/Rummy2.rcy"]
# CardStock's games/s with random players on this kind of machine (no figure for Rummy2).
CARDSTOCK = {"cardstock/KuhnPoker2.rcy": 1941.0, "cardstock/LeducPoker2.rcy": 1346.0, "cardstock/Hearts4.rcy": 24.9,
             "cardstock/GoFish4.rcy": 8.8, "cardstock/CrazyEights4.rcy": 6.3, "valet/Rummy2.rcy": None}
GOAL = 3.0  # times CardStock


def timed(play_one, seconds: float | None, games: int | None) -> tuple[int, int, float]:
    """Call play_one(i) -> decisions for i = 0, 1, … for `seconds` (or `games` times): (games, decisions, s)."""
    play_one(10**9)  # warm-up (caches, first-call costs), not timed
    n = dec = 0
    t0 = time.perf_counter()
    while True:
        dec += play_one(n)
        n += 1
        elapsed = time.perf_counter() - t0
        if (games is not None and n >= games) or (games is None and elapsed >= seconds):
            return n, dec, elapsed


def bench_game(path: Path, name: str, args) -> dict:
    prog = load_program(path)
    k = prog.n_players
    seed, limit = args.seed, args.max_decisions

    def engine_one(i: int) -> int:
        r = play_game(prog, derive(seed, "game", i), [RandomPlayer() for _ in range(k)], limit)
        return r.n_decisions

    spec = BatchSpec(str(path), {}, ("R",) * k, seed, limit, 10000, "none")
    sess = GameSession.open(path)

    def run_one(i: int) -> int:
        return play_run(sess, spec, i).decisions

    n, dec, s = timed(engine_one, args.seconds, args.games)
    rn, rdec, rs = timed(run_one, args.seconds, args.games)
    row = {"game": name, "players": k, "engine": {"games": n, "decisions": dec, "seconds": s,
                                                  "games_per_s": n / s, "decisions_per_s": dec / s},
           "run": {"games": rn, "decisions": rdec, "seconds": rs, "games_per_s": rn / rs, "decisions_per_s": rdec / rs},
           "decisions_per_game": dec / n, "cardstock_games_per_s": CARDSTOCK.get(name)}
    cs = row["cardstock_games_per_s"]
    row["vs_cardstock"] = row["engine"]["games_per_s"] / cs if cs else None
    row["run_vs_cardstock"] = row["run"]["games_per_s"] / cs if cs else None
    row["run_vs_engine"] = row["run"]["games_per_s"] / row["engine"]["games_per_s"]  # issue 16: at least 0.8
    if args.jobs > 1:
        row["pool"] = bench_pool(spec, args, row["run"]["games_per_s"])
    return row


def bench_pool(spec, args, one_process_gps: float) -> dict:
    """games/s of batch.run_batch with args.jobs processes (pool start-up included)."""
    # without --games: about `seconds` of work for the pool, at least a few chunks per worker
    n = args.games if args.games is not None else max(4 * args.jobs, int(one_process_gps * args.seconds * args.jobs))
    t0 = time.perf_counter()
    records = run_batch(spec, n, args.jobs)
    s = time.perf_counter() - t0
    gps = len(records) / s
    return {"jobs": args.jobs, "games": len(records), "seconds": s, "games_per_s": gps,
            "decisions_per_s": sum(r.decisions for r in records) / s, "speedup": gps / one_process_gps}


def load_baseline() -> dict | None:
    try:
        return json.loads(BASELINE.read_text("utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        return None


def record_baseline(rows: list[dict], args) -> None:
    data = {
        "note": "written by `python bench/rollouts.py --record`; later runs print their ratio to these figures",
        "machine": {"python": platform.python_version(), "implementation": platform.python_implementation(),
                    "system": platform.system(), "machine": platform.machine(), "cpus": os.cpu_count()},
        "settings": {"seconds": args.seconds, "games": args.games, "seed": args.seed,
                     "max_decisions": args.max_decisions},
        "games": {r["game"]: {"engine_games_per_s": round(r["engine"]["games_per_s"], 2),
                              "engine_decisions_per_s": round(r["engine"]["decisions_per_s"], 1),
                              "run_games_per_s": round(r["run"]["games_per_s"], 2),
                              "decisions_per_game": round(r["decisions_per_game"], 2)} for r in rows},
    }
    BASELINE.write_text(json.dumps(data, indent=2) + "\n", "utf-8")


def short(name: str) -> str:
    """cardstock/Hearts4.rcy -> Hearts4; valet/Rummy2.rcy -> valet/Rummy2."""
    folder, _, file = name.partition("/")
    stem = file.rsplit(".", 1)[0]
    return stem if folder == "cardstock" else f"{folder}/{stem}"


def _f(v, digits: int = 1) -> str:
    if v is None:
        return "—"
    return f"{v:,.{digits}f}"


def print_tables(rows: list[dict], baseline: dict | None, args) -> None:
    from rich.console import Console
    from rich.table import Table

    con = Console(width=None if sys.stdout.isatty() else 150)
    how = f"{args.games} games" if args.games is not None else f"{args.seconds:g} s"
    t = Table(title=f"Random-player rollouts on one core ({how} per game and path)")
    cols = ["game", "dec/game", "engine games/s", "engine dec/s", "run games/s", "run dec/s", "run ÷ engine",
            "CardStock games/s", "× CardStock", "× baseline"]
    for c in cols:
        t.add_column(c, justify="left" if c == "game" else "right")
    base = (baseline or {}).get("games", {})
    for r in rows:
        ratio = r["vs_cardstock"]
        ratio_s = ("—" if ratio is None
                   else f"[green]{ratio:.1f}[/green]" if ratio >= GOAL else f"[red]{ratio:.1f}[/red]")
        b = base.get(r["game"], {}).get("engine_games_per_s")
        t.add_row(short(r["game"]), _f(r["decisions_per_game"]), _f(r["engine"]["games_per_s"]),
                  _f(r["engine"]["decisions_per_s"], 0), _f(r["run"]["games_per_s"]),
                  _f(r["run"]["decisions_per_s"], 0), f"{r['run_vs_engine']:.2f}", _f(r["cardstock_games_per_s"]),
                  ratio_s,
                  "—" if not b else f"{r['engine']['games_per_s'] / b:.2f}")
    con.print(t)
    con.print(f"engine: play_game with RandomPlayer, no recorder; run: the `recycle run` path (batch.play_run, "
              f"recorder on, transcripts off). Goal: ≥ {GOAL:g}× CardStock."
              + ("" if baseline else " No bench/baseline.json yet: write one with --record."), highlight=False)
    if args.jobs > 1:
        p = Table(title=f"Process pool: batch.run_batch with {args.jobs} processes (start-up included)")
        for c in ("game", "jobs", "games", "games/s", "dec/s", "speedup vs 1 process"):
            p.add_column(c, justify="left" if c == "game" else "right")
        for r in rows:
            q = r["pool"]
            p.add_row(short(r["game"]), str(q["jobs"]), str(q["games"]), _f(q["games_per_s"]),
                      _f(q["decisions_per_s"], 0), f"{q['speedup']:.2f}")
        con.print(p)
        con.print(f"this machine has {os.cpu_count()} CPUs", highlight=False)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Rollout speed of the engine and of `recycle run`, against CardStock.")
    ap.add_argument("names", nargs="*", metavar="GAME",
                    help="benchmark games to run, by a part of their name (default all)")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--seconds", type=float, default=5.0, help="seconds per game and path (default 5)")
    g.add_argument("--games", type=int, help="play exactly this many games per game and path instead")
    ap.add_argument("--jobs", type=int, default=1, help="also measure batch.run_batch with J processes")
    ap.add_argument("--seed", type=int, default=1, help="batch seed (default 1)")
    ap.add_argument("--max-decisions", type=int, default=2000, help="decision limit (default 2000)")
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="corpus folder (default ../shared/corpus)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--record", action="store_true", help=f"write these figures to {BASELINE.relative_to(REPO)}")
    args = ap.parse_args(argv)
    if args.games is not None:
        args.seconds = None
        if args.games < 1:
            ap.error("--games must be at least 1")
    elif args.seconds <= 0:
        ap.error("--seconds must be positive")
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    names = [n for n in GAMES if not args.names or any(a.lower() in n.lower() for a in args.names)]
    if not names:
        ap.error(f"no benchmark game matches {' '.join(args.names)} (games: {', '.join(GAMES)})")
    missing = [n for n in names if not (args.corpus / n).is_file()]
    if missing:
        print(f"bench/rollouts.py: not found under {args.corpus}: {', '.join(missing)} (use --corpus DIR)",
              file=sys.stderr)
        return 2
    rows = []
    for n in names:
        if not args.json:
            print(f"{n} …", file=sys.stderr, flush=True)
        rows.append(bench_game(args.corpus / n, n, args))
    baseline = load_baseline()
    if baseline:
        for r in rows:
            b = baseline.get("games", {}).get(r["game"], {}).get("engine_games_per_s")
            r["vs_baseline"] = r["engine"]["games_per_s"] / b if b else None
    if args.record:
        record_baseline(rows, args)
    if args.json:
        print(json.dumps({"seconds": args.seconds, "games": args.games, "seed": args.seed, "jobs": args.jobs,
                          "rows": rows}, indent=2))
    else:
        print_tables(rows, baseline, args)
        if args.record:
            print(f"recorded {BASELINE.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
