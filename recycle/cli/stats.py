"""`recycle stats`: statistics, plots, heuristics and card flow over N seeded games (flow-and-analytics §6).

`recycle stats GAME` plays a batch of N seeded games and writes, into one folder, the tidy CSVs
of `recycle run`, the statistics of §3 (summary.json, branching_by_index.csv, seats.csv), the
heuristics an all-random batch gives (§4), the flow diagrams of run 0 and of the whole batch,
and the plots (§3.7).  With --heuristics it plays the three batches of §3.1 instead
(recycle.cli.heuristics).  Run i with seed S is run i of `recycle run --seed S`.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import attrs

from ..analysis.summary import format_summary
from ..errors import UsageError
from .batches import add_output_options, recorded_seed
from .flow import categories_line, default_out
from .heuristics import HEURISTIC_GAMES, cmd_stats_heuristics
from .options import (
    SEED_HELP,
    add_ai_options,
    add_batch_options,
    declared_categories,
    formats,
    graph_formats,
    positive,
    shard,
    whole,
)
from .statsbatch import open_batch_ai, playing_level, stats_batch

PLOT_FORMATS = ("png", "svg", "pdf")
# Resamples of each bootstrap interval: each one resamples every game, so a batch costs B x games.
MAX_BOOTSTRAP = 100_000


def register(sub) -> None:
    """Add `stats` to the CLI's subcommands."""
    s = sub.add_parser(
        "stats", help="statistics, plots, heuristics and card flow over N seeded games",
        description="Play N seeded games and write into one folder: the tidy CSVs of `recycle run`, summary.json "
                    "(length, branching, win rates with 95% intervals, ties, information categories, timing), "
                    "branching_by_index.csv, seats.csv, heuristics.json/.csv, the card-flow diagrams of run 0 "
                    "(flow.*) and of the batch (flow-aggregate.*), and the plots branching, length, scores and "
                    "winrate. Seeds: " + SEED_HELP + ". Games are added to the tables and transcripts/ as they "
                    "finish: Ctrl-C (exit 130), SIGTERM (exit 143) or a worker that dies (exit 1) keeps them, "
                    "summary.json says the run is not complete, and --resume finishes it, byte for byte as an "
                    "uninterrupted run.")
    add_batch_options(s, 100)
    add_output_options(s, "stats")
    s.set_defaults(out=None)
    for action in s._actions:  # the folder has a default here, and transcripts are written into it
        if action.dest == "out":
            action.help = ("output folder (default ./stats-<game>); it must be empty or new, unless --force "
                           "(this command's files there are replaced) or --resume (an interrupted run there is "
                           "finished)")
        elif action.dest == "json":
            action.help = "print summary.json instead of the text summary"
    s.add_argument("--include-limited", action="store_true",
                   help="count games stopped at a decision or step limit in the outcomes (default: left out)")
    s.add_argument("--plot-format", dest="plot_formats", type=formats(set(PLOT_FORMATS), "plot"),
                   default=("png", "svg"), metavar="FMT[,FMT]", help="plot formats (default png,svg)")
    s.add_argument("--flow-format", dest="flow_formats", type=formats(graph_formats(), "image"),
                   default=("svg", "png"), metavar="FMT[,FMT]", help="flow diagram formats (default svg,png)")
    s.add_argument("--bootstrap", type=whole(1, "resamples", MAX_BOOTSTRAP, "MAX_BOOTSTRAP"), default=1000,
                   metavar="B",
                   help="bootstrap resamples for the 95%% intervals (default 1000)")
    s.add_argument("--declared", type=declared_categories, metavar="CATS",
                   help="declared information categories, e.g. Hidden,Private,Taken")
    s.add_argument("--rotate", action="store_true",
                   help="shift the lineup one seat per run (run i gives seat s the kind of lineup[(s - i) mod n]), "
                        "to cancel seat advantage when kinds are compared")
    s.add_argument("--heuristics", action="store_true",
                   help="play three batches into DIR/random/, DIR/ai-vs-random/ (one AI against random players, "
                        "rotated) and DIR/ai/ (all AI), and write the game-quality heuristics (heuristics.json, "
                        "heuristics.csv, evaluation.json) computed from them; -n defaults to "
                        f"{HEURISTIC_GAMES} here (each batch). The folder rules are the same: a non-empty DIR is "
                        "refused unless --force (its own files in DIR and the batch folders go, nothing else); "
                        "Ctrl-C (130) or SIGTERM (143) keeps the finished games of each batch and evaluation.json "
                        "says it is not complete; --resume finishes them (a complete batch is read back, not "
                        "played again)")
    s.add_argument("--ai", metavar="KIND",
                   help="the AI of --heuristics: F (flat Monte Carlo, default), M (IS-MCTS) or P (PIMC)")
    s.add_argument("--ai-budget", type=positive, metavar="N",
                   help="budget of the searching players: playouts per option for F (default 10), iterations per "
                        "decision for M and P (default 200)")
    add_ai_options(s, budget=False)
    s.add_argument("--shard", type=shard, metavar="I/K",
                   help="play only shard I of K (0 <= I < K), the runs I*N//K .. (I+1)*N//K-1, into a --out folder "
                        "marked as that shard; `recycle merge` combines the K folders into the folder one "
                        "`recycle stats` of the N games would have written (docs/scaling.md)")
    for action in s._actions:
        if action.dest == "n":  # 100, or HEURISTIC_GAMES with --heuristics
            action.default = None
            action.help = f"number of games (default 100; {HEURISTIC_GAMES} per batch with --heuristics)"
    s.set_defaults(func=cmd_stats)


def cmd_stats(args: argparse.Namespace) -> int:
    if args.n is None:
        args.n = HEURISTIC_GAMES if args.heuristics else 100
    if args.heuristics:
        if getattr(args, "shard", None) is not None:
            raise UsageError("--shard is not available with --heuristics (it plays three batches)")
        return cmd_stats_heuristics(args)
    if getattr(args, "shard", None) is not None and args.out is None:
        raise UsageError("--shard writes a shard folder for `recycle merge`: give --out DIR")
    if args.ai is not None:
        raise UsageError("--ai chooses the AI of --heuristics; to put AI players in one batch use --players, "
                         "e.g. --players MRRR")

    user_level = args.transcripts
    wanted_out = args.out
    args.out = Path(".")  # so that open_batch keeps the transcript level; the folder is decided below
    args.transcripts = playing_level(args.n, user_level)
    sess, spec = open_batch_ai(args)
    args.out = wanted_out
    out = default_out(args, "stats", sess.name)
    if args.resume and args.seed is None and (seed := recorded_seed(out)) is not None:
        args.seed = seed
        spec = attrs.evolve(spec, seed=seed)
    if not args.json:
        print(f"{sess.name}: {args.n} games, seed {spec.seed}"
              + (" (drawn; pass --seed to repeat)" if args.seed is None else "")
              + f", players {' '.join(spec.lineup)}" + (" rotated" if spec.rotate else "")
              + (f", {args.jobs} jobs" if args.jobs > 1 else "")
              + ("; resuming" if args.resume else ""),
              file=sys.stderr)
    b = stats_batch(args, sess, spec, out, user_level, flow=True, random_heuristics=True, command=True)
    outcome = b["outcome"]
    if getattr(args, "shard", None) is not None and outcome.complete:
        print(f"wrote shard {args.shard[0]}/{args.shard[1]} into {out}/ (combine the shards with `recycle merge`)",
              file=sys.stderr)
        return 0
    if not outcome.complete:
        print(outcome.stop_line(out, args.n), file=sys.stderr)
        return outcome.exit_code()
    doc, stats, info, heur, files, timing = b["doc"], b["stats"], b["info"], b["heur"], b["files"], b["timing"]

    if args.json:
        print(json.dumps(doc, indent=2))
        return 0
    print(format_summary(stats, None))
    if info is not None:
        print(categories_line(info).replace("information:", "Information:", 1)
              + (f" (from {b['flow_runs']} games)" if b["flow_runs"] > 1 else ""))
    if heur is not None:
        fair = next(e for e in heur["heuristics"] if e["name"] == "Fairness")
        if fair["value"] is not None:
            dec = fair.get("decided")
            ties = ""
            if fair.get("tied"):  # split shares of tied games make fairness look perfect: say so
                ties = (f" with ties split ({fair['tied']} of {fair['n_runs']} games tied; "
                        + (f"{dec['value']:.3f} over the {dec['n']} decided games)" if dec else "no decided game)"))
            print(f"Fairness {fair['value']:.3f}{ties}; AI heuristics not applicable in a plain batch "
                  "(they need a searching player: recycle stats --heuristics); see heuristics.json")
    t = timing
    if t.get("games_per_second"):
        print(f"Time: {t['wall_seconds']:.2f} s ({t['games_per_second']:.1f} games/s)")
    print(f"wrote {len(files) + 1} files into {out}/ (summary.json, CSVs, flow, plots"
          + (", transcripts/" if any(f.startswith("transcripts/") for f in files) else "") + ")")
    return 0
