"""`recycle stats --heuristics`: three batches (all random; an AI against random players, rotated; all AI)
and the game-quality heuristics of flow-and-analytics §4 computed from them."""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import attrs

from ..analysis.heuristics import format_heuristics, has_shuffle_and_choice, heuristics, write_heuristics
from ..analysis.summary import format_summary
from ..errors import RecycleError, UsageError
from ..players import registry
from ..version import __version__
from .batches import note_replaced
from .flow import categories_line, default_out
from .statsbatch import STATS_FILES, open_batch_ai, playing_level, plot_names, stats_batch

HEURISTIC_GAMES = 20  # default -n with --heuristics: three batches, two of them with AI players
HEURISTIC_BATCHES = (("random", "R"), ("ai-vs-random", "A"), ("ai", "M"))


def cmd_stats_heuristics(args: argparse.Namespace) -> int:
    """Three batches (all random; one AI against random players, rotated; all AI), then the §4 heuristics."""
    if args.players:
        raise UsageError("--heuristics plays its own lineups (all random; the AI against random players, rotated; "
                         "all AI): leave out --players, and choose the AI with --ai")
    if getattr(args, "rotate", False):
        raise UsageError("--heuristics rotates its AI-vs-random batch itself: leave out --rotate")
    ai = registry.code_of(args.ai or "F")
    if ai not in registry.SEARCHING:
        raise UsageError(f"--ai {args.ai}: the AI must be a searching player that reports estimates "
                         f"(F montecarlo, M mcts, P pimc)")
    user_level = args.transcripts
    wanted_out = args.out
    args.out = Path(".")
    args.transcripts = playing_level(args.n, user_level)
    sess, spec_r = open_batch_ai(args)
    args.out = wanted_out
    out = default_out(args, "stats", sess.name)
    n = sess.n_players
    budget = args.ai_budget if args.ai_budget is not None else registry.make_searcher(ai).budget
    lineups = {"R": ["R"] * n, "A": [ai] + ["R"] * (n - 1), "M": [ai] * n}
    if not args.json:
        print(f"{sess.name}: --heuristics, 3 batches of {args.n} games, seed {spec_r.seed}"
              + (" (drawn; pass --seed to repeat)" if args.seed is None else "")
              + f", AI {ai} with budget {budget}" + (f", {args.jobs} jobs" if args.jobs > 1 else ""),
              file=sys.stderr)
    note_replaced(out, ["heuristics.json", "heuristics.csv", "evaluation.json"])
    t0 = time.perf_counter()
    results = {}
    for sub, letter in HEURISTIC_BATCHES:
        lu = lineups[letter]
        if letter == "R":
            spec = attrs.evolve(spec_r, lineup=tuple(lu))
        else:
            spec = attrs.evolve(spec_r, lineup=tuple(lu), rotate=letter == "A", ai_budget=args.ai_budget,
                                estimates=True, transcript_level=user_level)
        if not args.json:
            print(f"batch {sub}: players {' '.join(lu)}" + (" rotated" if spec.rotate else ""), file=sys.stderr)
        note_replaced(out / sub, STATS_FILES + ["lead.csv", "spread.csv"]
                       + [f"{p}.{f}" for p in plot_names() for f in args.plot_formats])
        results[letter] = stats_batch(args, sess, spec, out / sub, user_level, flow=letter == "R",
                                       random_heuristics=False, label=f"{sess.name} {sub}")
    heur = heuristics(results["R"]["records"], players=n, seed=spec_r.seed,
                                has_shuffle_and_choice=has_shuffle_and_choice(sess.prog.game),
                                include_limited=args.include_limited, bootstrap=args.bootstrap,
                                ai_records=results["M"]["records"], vs_records=results["A"]["records"], ai_code=ai)
    heur["ai"] = {"kind": ai, "budget": budget}
    heur["batches"] = {letter: {"dir": sub, "lineup": "".join(lineups[letter]), "rotate": letter == "A"}
                       for sub, letter in HEURISTIC_BATCHES}
    names = {"R": "".join(lineups["R"]), "A": "".join(lineups["A"]) + " rotated", "M": "".join(lineups["M"])}
    try:
        files = write_heuristics(out, heur, game=sess.name, players=n, lineups=names)
        evaluation = _evaluation(sess, spec_r, args, ai, budget, heur, results, lineups, __version__,
                                 time.perf_counter() - t0)
        (out / "evaluation.json").write_text(json.dumps(evaluation, indent=2) + "\n", encoding="utf-8")
    except OSError as e:
        raise RecycleError(f"error: cannot write into {out}: {e}") from None
    files.append("evaluation.json")
    if args.json:
        print(json.dumps(evaluation, indent=2))
        return 0
    for sub, letter in HEURISTIC_BATCHES:
        print(f"== {sub} ({names[letter]}) ==")
        print(format_summary(results[letter]["stats"], None))
    info = results["R"]["info"]
    if info is not None:
        print(categories_line(info).replace("information:", "Information:", 1))
    print(f"== heuristics ({ai}, budget {budget}) ==")
    print(format_heuristics(heur))
    print(f"Time: {evaluation['timing']['wall_seconds']:.2f} s")
    print(f"wrote {out}/heuristics.json, heuristics.csv, evaluation.json and the batches in "
          + ", ".join(f"{sub}/" for sub, _ in HEURISTIC_BATCHES))
    return 0


def _evaluation(sess, spec, args, ai, budget, heur, results, lineups, version, wall) -> dict:
    """evaluation.json: the game, the AI, the three batches (where, lineup, runs, win rates by kind) and §4."""
    batches = {}
    for sub, letter in HEURISTIC_BATCHES:
        r = results[letter]
        st = r["stats"]
        batches[sub] = {"batch": letter, "dir": sub, "lineup": "".join(lineups[letter]), "rotate": letter == "A",
                        "runs": st["runs"], "seats": [{"seat": s["seat"], "kind": s["kind"], "win_rate": s["win_rate"]}
                                                      for s in st["seats"]],
                        "kinds": [{"kind": k["kind"], "win_rate": k["win_rate"], "order": k["order"]}
                                  for k in st["kinds"]],
                        "ai_decisions": sum(len(rec.estimates or ()) for rec in r["records"]),
                        "timing": r["timing"]}
    return {"format": "recycle-evaluation", "version": 1, "game": sess.name, "game_sha256": sess.sha256,
            "players": sess.n_players, "seed": spec.seed, "interpreter": version,
            "ai": {"kind": ai, "budget": budget},
            "params": {"declares": spec.params, "games": args.n, "max_decisions": spec.max_decisions,
                       "max_idle_steps": spec.max_idle_steps, "include_limited": args.include_limited,
                       "bootstrap": args.bootstrap},
            "batches": batches,
            "heuristics": heur,
            "total": heur["total"], "total_normalized": heur["total_normalized"], "reasonable": heur["reasonable"],
            "timing": {"wall_seconds": wall}}
