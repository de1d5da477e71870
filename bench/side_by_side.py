"""Side by side in one run: recycle's engine and CLI path against CardStock, OpenSpiel and RLCard.

    python bench/side_by_side.py [GAME ...] [--seconds S] [--rounds R] [--ref TREE] [--seed N]
                                 [--corpus DIR] [--no-peers] [--json]

For each of the five benchmark games (cardstock/KuhnPoker2, LeducPoker2, Hearts4, GoFish4,
CrazyEights4; GAME arguments pick some by a part of their name) it measures, with uniform
random players on one core, each for S seconds of CPU time (default 3) after a warm-up game:

* recycle engine: `play_game(prog, seed, [RandomPlayer()…])`, the program compiled once, no recorder;
* recycle run:    the `recycle run` path, `batch.play_run` (recorder on, transcripts off);
* OpenSpiel (if `pyspiel` imports): the matching game driven from Python, legal actions drawn
  uniformly, chance outcomes by their probabilities; a decision is a player node;
* RLCard (if `rlcard` imports, Leduc only): `env.run` with two `RandomAgent`s; a decision is an
  action in the trajectories.

CardStock's games/s (C# on mono, one core, random players, on this kind of machine) are the
fixed baseline.  The recycle figures are measured in a child process per measurement (one at
a time), so that `--ref TREE` can time another checkout of recycle (for instance the commit
before a change, unpacked with `git archive`) the same way: the two trees are measured
alternately, R rounds each (default 1, the order swapped every round), and the table shows the
ratio after/before.  On a shared machine, read the ratios, not the absolute figures.

The peers' games differ from the corpus files in small rules (RULES below says which); their
figures are for the nearest parameters OpenSpiel offers (PEER_PARAMS).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO.parent / "shared" / "corpus"
GAMES = ["cardstock/KuhnPoker2.rcy", "cardstock/LeducPoker2.rcy", "cardstock/Hearts4.rcy",
         "cardstock/GoFish4.rcy", "cardstock/CrazyEights4.rcy"]
# CardStock's games/s with random players on this kind of machine (the fixed baseline of issue 16).
CARDSTOCK = {"cardstock/KuhnPoker2.rcy": 1941.0, "cardstock/LeducPoker2.rcy": 1346.0, "cardstock/Hearts4.rcy": 24.9,
             "cardstock/GoFish4.rcy": 8.8, "cardstock/CrazyEights4.rcy": 6.3}
# OpenSpiel's game and parameters nearest to each corpus file.
PEER_PARAMS = {
    "cardstock/KuhnPoker2.rcy": ("kuhn_poker", {"players": 2}),
    "cardstock/LeducPoker2.rcy": ("leduc_poker", {"players": 2}),
    "cardstock/Hearts4.rcy": ("hearts", {"pass_cards": False, "no_pts_on_first_trick": False,
                                         "qs_breaks_hearts": False}),
    "cardstock/GoFish4.rcy": ("go_fish", {"players": 4, "initial_cards": 5}),
    "cardstock/CrazyEights4.rcy": ("crazy_eights", {"players": 4, "reshuffle": True}),
}
RLCARD = {"cardstock/LeducPoker2.rcy": "leduc-holdem"}
# How the peers' games differ from the corpus files (with the parameters above).
RULES = {
    "cardstock/KuhnPoker2.rcy": "same rules (ante 1, one bet of 1); OpenSpiel deals by two chance nodes",
    "cardstock/LeducPoker2.rcy": "the corpus allows one bet per round (bet, then call or fold); OpenSpiel and RLCard "
                                 "allow up to two raises per round, so their games have more decisions",
    "cardstock/Hearts4.rcy": "one hand, no passing in both; OpenSpiel has the two of clubs lead the first trick and "
                             "follows the full lead rules (hearts may not lead until broken unless only hearts "
                             "remain), the corpus lets the first player lead any card",
    "cardstock/GoFish4.rcy": "5 cards each, a player asks for a rank they hold in both; OpenSpiel plays until "
                             "every book is made, the corpus ends as soon as the stock or any hand is empty",
    "cardstock/CrazyEights4.rcy": "OpenSpiel draws up to 5 cards before a forced pass and stops after 100 turns "
                                  "(max_turns), scoring penalty points; the corpus draws one card as an option, even "
                                  "with a playable card, and plays until a hand is empty",
}


# ---------------------------------------------------------------- recycle (in a child process)

def worker(tree: str, path: str, seconds: float, seed: int, max_decisions: int) -> dict:
    """Time the engine loop and the run path of the recycle found in `tree` (run in a child process)."""
    sys.path.insert(0, tree)
    from recycle.compiler import load_program
    from recycle.engine.algorithms import derive
    from recycle.engine.play import play_game
    from recycle.players.random_player import RandomPlayer
    from recycle.run.batch import BatchSpec, play_run
    from recycle.run.session import GameSession

    prog = load_program(path)
    k = prog.n_players

    def engine_one(i: int) -> int:
        return play_game(prog, derive(seed, "game", i), [RandomPlayer() for _ in range(k)], max_decisions).n_decisions

    spec = BatchSpec(path, {}, ("R",) * k, seed, max_decisions, 10000, "none")
    sess = GameSession.open(Path(path))

    def run_one(i: int) -> int:
        return play_run(sess, spec, i).decisions

    return {"engine": timed(engine_one, seconds), "run": timed(run_one, seconds)}


def timed(play_one, seconds: float) -> dict:
    """Call play_one(i) -> decisions for i = 0, 1, … for `seconds` of CPU time after one warm-up call: the rates.

    CPU time of this process, not wall time: on a machine shared with other work, the time the
    process waited for a core is not counted.
    """
    play_one(10**9)
    n = dec = 0
    t0 = time.process_time()
    while True:
        dec += play_one(n)
        n += 1
        s = time.process_time() - t0
        if s >= seconds:
            return {"games": n, "decisions": dec, "seconds": s, "games_per_s": n / s, "decisions_per_s": dec / s}


def measure_tree(tree: Path, path: Path, args) -> dict:
    cmd = [sys.executable, __file__, "--worker", str(tree), str(path), "--seconds", str(args.seconds),
           "--seed", str(args.seed)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def mean_rates(samples: list[dict]) -> dict:
    """Total games and decisions over total seconds of several measurements of one path."""
    g = sum(s["games"] for s in samples)
    d = sum(s["decisions"] for s in samples)
    t = sum(s["seconds"] for s in samples)
    return {"games": g, "decisions": d, "seconds": t, "games_per_s": g / t, "decisions_per_s": d / t}


# ---------------------------------------------------------------- peers (in this process)

def openspiel_side(name: str, seconds: float, seed: int) -> dict | None:
    try:
        import pyspiel
    except ImportError:
        return None
    gname, params = PEER_PARAMS[name]
    game = pyspiel.load_game(gname, params)
    rng = random.Random(seed)

    def one() -> int:
        st = game.new_initial_state()
        dec = 0
        while not st.is_terminal():
            if st.is_chance_node():
                outcomes = st.chance_outcomes()
                st.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                dec += 1
                st.apply_action(rng.choice(st.legal_actions()))
        return dec

    r = timed(lambda i: one(), seconds)
    r["game"] = gname
    r["params"] = params
    return r


def rlcard_side(name: str, seconds: float, seed: int) -> dict | None:
    if name not in RLCARD:
        return None
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make(RLCARD[name], config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])

    def one() -> int:
        trajectories, _ = env.run(is_training=False)
        # each trajectory is state, action, state, …, state: one action between two states
        return sum((len(t) - 1) // 2 for t in trajectories)

    r = timed(lambda i: one(), seconds)
    r["game"] = RLCARD[name]
    return r


# ---------------------------------------------------------------- the run and its table

def selected(names: list[str]) -> list[str]:
    """The benchmark games a part of whose name is given (all of them when none is)."""
    return [n for n in GAMES if not names or any(a.lower() in n.lower() for a in names)]


def bench(args) -> dict:
    names = selected(args.names)
    rows = []
    for name in names:
        path = args.corpus / name
        print(f"{name} …", file=sys.stderr, flush=True)
        ours: list[dict] = []
        before: list[dict] = []
        for r in range(args.rounds):
            order = [("after", ours), ("before", before)] if args.ref else [("after", ours)]
            for which, into in (order if r % 2 == 0 else order[::-1]):
                into.append(measure_tree(REPO if which == "after" else args.ref, path, args))
        row: dict = {"game": name, "cardstock_games_per_s": CARDSTOCK[name],
                     "engine": mean_rates([m["engine"] for m in ours]), "run": mean_rates([m["run"] for m in ours])}
        if before:
            row["before"] = {"engine": mean_rates([m["engine"] for m in before]),
                             "run": mean_rates([m["run"] for m in before])}
        if not args.no_peers:
            row["openspiel"] = openspiel_side(name, args.seconds, args.seed)
            row["rlcard"] = rlcard_side(name, args.seconds, args.seed)
        row["rules"] = RULES[name]
        rows.append(row)
    return {"seconds": args.seconds, "rounds": args.rounds, "seed": args.seed, "ref": str(args.ref or ""),
            "load": os.getloadavg() if hasattr(os, "getloadavg") else None, "rows": rows,
            "summary": summary(rows)}


def geomean(xs: list[float]) -> float | None:
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def summary(rows: list[dict]) -> dict:
    vs_cs = [r["engine"]["games_per_s"] / r["cardstock_games_per_s"] for r in rows]
    os_dec = [r["engine"]["decisions_per_s"] / r["openspiel"]["decisions_per_s"] for r in rows if r.get("openspiel")]
    out: dict = {"engine_vs_cardstock_geomean": geomean(vs_cs), "engine_vs_cardstock_min": min(vs_cs, default=None),
                 "decisions_vs_openspiel_geomean": geomean(os_dec) if len(os_dec) == len(rows) else None,
                 "run_vs_engine": {r["game"]: r["run"]["games_per_s"] / r["engine"]["games_per_s"] for r in rows}}
    for r in rows:
        if r.get("rlcard"):
            out["vs_rlcard"] = {"game": r["game"],
                                "games": r["engine"]["games_per_s"] / r["rlcard"]["games_per_s"],
                                "decisions": r["engine"]["decisions_per_s"] / r["rlcard"]["decisions_per_s"]}
    if all("before" in r for r in rows) and rows:
        out["engine_after_vs_before_geomean"] = geomean(
            [r["engine"]["games_per_s"] / r["before"]["engine"]["games_per_s"] for r in rows])
    return out


def short(name: str) -> str:
    return name.split("/")[-1].rsplit(".", 1)[0]


def _f(v: float | None, digits: int = 0) -> str:
    return "—" if v is None else f"{v:,.{digits}f}"


def print_report(res: dict) -> None:
    rows = res["rows"]
    head = ["game", "engine g/s", "engine dec/s", "run g/s", "run/engine", "× CardStock",
            "OpenSpiel g/s", "OpenSpiel dec/s", "dec/s vs OpenSpiel", "RLCard g/s", "RLCard dec/s"]
    lines = [head]
    for r in rows:
        e, o, rl = r["engine"], r.get("openspiel"), r.get("rlcard")
        lines.append([short(r["game"]), _f(e["games_per_s"]), _f(e["decisions_per_s"]), _f(r["run"]["games_per_s"]),
                      f"{r['run']['games_per_s'] / e['games_per_s']:.2f}",
                      f"{e['games_per_s'] / r['cardstock_games_per_s']:.1f}",
                      _f(o and o["games_per_s"]), _f(o and o["decisions_per_s"]),
                      "—" if not o else f"{e['decisions_per_s'] / o['decisions_per_s']:.2f}",
                      _f(rl and rl["games_per_s"]), _f(rl and rl["decisions_per_s"])])
    table(lines)
    s = res["summary"]
    print(f"\nengine × CardStock: geomean {s['engine_vs_cardstock_geomean']:.1f}, "
          f"lowest {s['engine_vs_cardstock_min']:.1f} (goal ≥ 40 and ≥ 25 each)")
    if s.get("decisions_vs_openspiel_geomean") is not None:
        print(f"engine decisions/s ÷ OpenSpiel's: geomean {s['decisions_vs_openspiel_geomean']:.2f} (goal ≥ 0.5)")
    if s.get("vs_rlcard"):
        v = s["vs_rlcard"]
        print(f"{short(v['game'])} ÷ RLCard: games/s {v['games']:.2f}, decisions/s {v['decisions']:.2f} (goal ≥ 1)")
    if any("before" in r for r in rows):
        print(f"\nbefore ({res['ref']}) and after (this tree), measured alternately, {res['rounds']} round(s) each:")
        lines = [["game", "engine before", "engine after", "ratio", "run before", "run after", "ratio"]]
        for r in rows:
            b, a = r["before"], r
            lines.append([short(r["game"]), _f(b["engine"]["games_per_s"]), _f(a["engine"]["games_per_s"]),
                          f"{a['engine']['games_per_s'] / b['engine']['games_per_s']:.2f}",
                          _f(b["run"]["games_per_s"]), _f(a["run"]["games_per_s"]),
                          f"{a['run']['games_per_s'] / b['run']['games_per_s']:.2f}"])
        table(lines)
    if res["load"]:
        print(f"\nload average at the end: {' '.join(f'{x:.2f}' for x in res['load'])} on {os.cpu_count()} CPUs")
    print("\nrules that differ from the corpus files:")
    for r in rows:
        o = r.get("openspiel")
        what = f" (OpenSpiel {o['game']} {o['params']})" if o else ""
        print(f"  {short(r['game'])}{what}: {r['rules']}")


def table(lines: list[list[str]]) -> None:
    widths = [max(len(x[i]) for x in lines) for i in range(len(lines[0]))]
    for j, x in enumerate(lines):
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(x, widths, strict=True))))
        if j == 0:
            print("  ".join("-" * w for w in widths))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("names", nargs="*", metavar="GAME", help="benchmark games by a part of their name (default all)")
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds per game, path and round (default 3)")
    ap.add_argument("--rounds", type=int, default=1, help="measurements of each tree, alternately (default 1)")
    ap.add_argument("--ref", type=Path, help="another recycle tree to time alternately with this one (before/after)")
    ap.add_argument("--seed", type=int, default=1, help="batch seed (default 1)")
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="corpus folder (default ../shared/corpus)")
    ap.add_argument("--no-peers", action="store_true", help="skip OpenSpiel and RLCard")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--worker", nargs=2, metavar=("TREE", "FILE"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(args.worker[0], args.worker[1], args.seconds, args.seed, 2000)))
        return 0
    if args.seconds <= 0 or args.rounds < 1:
        ap.error("--seconds must be positive and --rounds at least 1")
    names = selected(args.names)
    if not names:
        ap.error(f"no benchmark game matches {' '.join(args.names)}: the games are {', '.join(map(short, GAMES))}")
    if args.ref is not None and not (args.ref / "recycle" / "__init__.py").is_file():
        ap.error(f"--ref {args.ref}: not a recycle tree (it has no recycle/ package)")
    missing = [n for n in names if not (args.corpus / n).is_file()]
    if missing:
        ap.error(f"{args.corpus / missing[0]} is not there: the games are read from the CardStock corpus; "
                 "pass its folder with --corpus DIR")
    res = bench(args)
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        print_report(res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
