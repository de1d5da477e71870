"""`recycle run`: play N seeded games, print a summary table, write tidy files with --out."""
from __future__ import annotations

import argparse
import json
import sys

from rich.console import Console
from rich.table import Table

from ..analysis.tally import RunTally
from ..errors import UsageError
from ..run.tables import BatchTables
from ..version import __version__
from .batches import (
    RUN_FILES,
    add_output_options,
    check_identity,
    open_batch,
    open_out,
    recorded_seed,
    run_identity,
    stream_batch,
)
from .options import SEED_HELP, add_ai_options, add_batch_options, shard


def register(sub) -> None:
    """Add `run` to the CLI's subcommands."""
    r = sub.add_parser("run", help="play N seeded games and summarise them",
                       description="Play N seeded games with the given players and print a summary. " + SEED_HELP
                       + ". With --out, each game is added to the files as it finishes (in run order), so Ctrl-C "
                       "(exit 130), SIGTERM (exit 143) or a worker that dies (exit 1) keeps every finished game; "
                       "summary.json says whether the run is complete, and --resume finishes it, byte for byte as "
                       "an uninterrupted run. A --out folder that is not empty is refused unless --force.")
    add_batch_options(r, 100)
    r.add_argument("--shard", type=shard, metavar="I/K",
                   help="play only shard I of K (0 <= I < K), the contiguous block of runs I*N//K .. (I+1)*N//K-1 "
                        "of the N games, into a --out folder marked as that shard; `recycle merge` combines the K "
                        "shard folders into the folder one run of the N games would have written (docs/scaling.md)")
    add_ai_options(r)
    add_output_options(r, "run")
    r.set_defaults(func=cmd_run)


def _fmt(v, digits=2) -> str:
    if v is None:
        return "—"
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    return str(v)


def _num(v) -> str:
    """A branching figure: two decimals, or in scientific notation past a million."""
    if v is None:
        return "—"
    return f"{v:.3g}" if abs(v) >= 1e6 else f"{v:.2f}"


def _rate(obj) -> str:
    """A rate with its 95% interval."""
    return f"{obj['value']:.3f} [{obj['lo']:.3f}, {obj['hi']:.3f}]" if obj["lo"] is not None else f"{obj['value']:.3f}"


def print_run_table(summary: dict) -> None:
    con = Console()
    t = Table(title=f"{summary['game']}: {summary['games']} games, seed {summary['seed']}", show_header=False)
    t.add_column(style="bold")
    t.add_column()
    d, b = summary["decisions"], summary["branching"]
    t.add_row("completed / limit / errors",
              f"{summary['completed']} / {summary['limit_reached']} / {summary['errors']}")
    t.add_row("decisions per game", f"mean {_fmt(d['mean'], 1)}, median {_fmt(d['median'], 1)}, max {_fmt(d['max'])}")
    if b.get("estimated"):
        # sampled atomic blocks list one walk each: their decisions count by the estimated number of paths
        t.add_row("branching factor", f"estimated: median {_num(b['median'])}, mean {_num(b['mean'])}, "
                  f"max {_num(b['max'])} ({b['sampled_decisions']} of {b['decisions']} decisions sampled; "
                  f"options listed: mean {_fmt(b['listed_mean'])}, max {_fmt(b['listed_max'])})")
    else:
        t.add_row("branching factor", f"mean {_fmt(b['mean'])}, max {_fmt(b['max'])}")
    if summary.get("direction_text"):
        t.add_row("scoring", summary["direction_text"])
    tie = summary.get("ties", {}).get("rate")
    if tie is not None:
        t.add_row("ties for first", f"{summary['ties']['count']} ({_rate(tie)})")
    oc = summary.get("outcomes")
    if oc and oc["n"]:
        t.add_row("outcomes", ", ".join(f"{k} {oc[k]['count']}" for k in ("decided", "tie", "draw", "void", "limit")
                                        if oc[k]["count"]))
    t.add_row("speed", f"{_fmt(summary['games_per_s'], 1)} games/s, {_fmt(summary['decisions_per_s'], 0)} decisions/s")
    con.print(t)
    s = Table(title="by seat (completed games; ties split)")
    for col in ("seat", "player", "win rate", "95% CI", "mean score"):
        s.add_column(col, justify="right")
    for i, w in enumerate(summary["wins_by_seat"]):
        lo, hi = summary["wins_ci95"][i]
        s.add_row(f"p{i + 1}", summary["players"][i], _fmt(w, 3), f"[{_fmt(lo, 3)}, {_fmt(hi, 3)}]",
                  _fmt(summary["mean_scores"][i], 2))
    con.print(s)
    dec = summary.get("decided")
    if dec and summary["completed"] and dec["games"] < summary["completed"]:
        # split shares make a batch of ties look fair: the decided games alone say who wins
        rates = ", ".join(f"p{i + 1} {_rate(w)}" for i, w in enumerate(dec["wins_by_seat"]) if w is not None)
        con.print(f"decided games (one winner): {dec['games']} of {summary['completed']}"
                  + (f"; win rate {rates}" if rates else ""), highlight=False)
    for w in summary.get("warnings", []):
        con.print(f"[yellow]warning[/yellow]: {w}", highlight=False)
    for line in summary.get("limits_hit", []):  # which limit stopped games, and how to raise it
        con.print(f"[yellow]limit[/yellow]: {line}", highlight=False)
    for e in summary["first_errors"]:
        # The message is plain text: `error[no-card]` must not be read as rich markup, nor wrapped.
        con.print(f"[red]error[/red] in run {e['run']} (game seed {e['game_seed']}):", highlight=False)
        con.print(e["error"], markup=False, highlight=False, soft_wrap=True)


SHARD_RECORDS = "shard-records.jsonl"  # a shard's records (one JSON object per game), read by `recycle merge`


def shard_runs(n: int, shard: tuple[int, int] | None) -> range:
    """The runs of shard I of K of n games: the contiguous block I*n//K .. (I+1)*n//K - 1 (all runs without one)."""
    if shard is None:
        return range(n)
    i, k = shard
    return range(i * n // k, (i + 1) * n // k)


def cmd_run(args: argparse.Namespace) -> int:
    if args.out is None and (args.resume or args.force):
        raise UsageError("--resume and --force apply to an --out folder: give --out DIR")
    if args.resume and args.seed is None:
        args.seed = recorded_seed(args.out)
    if args.shard is not None and args.out is None:
        raise UsageError("--shard writes a shard folder for `recycle merge`: give --out DIR")
    sess, spec = open_batch(args)
    runs = shard_runs(args.n, args.shard)
    # the summary is tallied game by game and no record is kept: memory does not grow with -n (docs/scaling.md)
    tally = RunTally(sess.n_players)
    folder, tables = None, None
    if args.out is not None:
        folder, state = open_out(args.out, args, "run", (*RUN_FILES, SHARD_RECORDS))
        ident = run_identity("run", sess, spec, args.n)
        if args.shard is not None:
            ident["shard"] = list(args.shard)
        tables = BatchTables(folder, sess.name, sess.prog.direction, ident, args.n,
                             {"format": "recycle-run", "version": 1, "game": sess.name, "seed": spec.seed},
                             first=runs.start)
        try:
            if state is not None:
                check_identity(args.out, state, ident)
                tables.reopen(state)
                for rec in tables.kept_records():
                    tally.add(rec)
            else:
                tables.start()
        except OSError as e:
            raise UsageError(f"--out {args.out}: cannot write the results ({e.strerror or e})") from None
    if not args.json:
        print(f"{sess.name}: {args.n} games"
              + (f" (shard {args.shard[0]}/{args.shard[1]}: runs {runs.start}..{runs.stop - 1})" if args.shard else "")
              + f", seed {spec.seed}, players {' '.join(spec.lineup)}"
              + (f", {args.jobs} jobs" if args.jobs > 1 else "")
              + (f"; resuming after {tally.games} kept games" if args.resume else ""), file=sys.stderr)
    try:
        outcome = stream_batch(sess, spec, args, tally.games, tables, tally.add, runs=runs)
        elapsed = outcome.elapsed
        summary = tally.summary(sess.name, str(sess.path), spec.lineup, spec.seed, elapsed, sess.prog.direction)
        if folder is not None and tables is not None:
            full = {
                "format": "recycle-run", "version": 1, "game": sess.name, "game_sha256": sess.sha256,
                "players": sess.n_players, "lineup": list(spec.lineup), "seed": spec.seed,
                "interpreter": __version__,
                "complete": outcome.complete, "games_kept": outcome.games, "games_asked": args.n,
                "params": {"declares": spec.params, "max_decisions": spec.max_decisions,
                           "max_idle_steps": spec.max_idle_steps, "games": args.n,
                           "transcripts": spec.transcript_level},
                "summary": {k: v for k, v in summary.items()
                            if k not in ("elapsed_s", "games_per_s", "decisions_per_s")},
                "timing": {"wall_s": elapsed, "games_per_s": summary["games_per_s"],
                           "decisions_per_s": summary["decisions_per_s"], "jobs": args.jobs},
                "files": [*tables.files(), "summary.json"],
            }
            if args.shard is not None:
                # what `recycle merge` checks and needs: which runs, of which batch (the records stay too)
                full["files"].append(SHARD_RECORDS)
                full["shard"] = {"index": args.shard[0], "of": args.shard[1], "runs": [runs.start, runs.stop],
                                 "identity": ident}
            folder.write_atomic("summary.json", json.dumps(full, indent=2) + "\n", sync=True)
            if outcome.complete:
                tables.finish(SHARD_RECORDS if args.shard is not None else None)
    except OSError as e:
        raise UsageError(f"--out {args.out}: cannot write the results ({e.strerror or e})") from None
    finally:
        if tables is not None:
            tables.close()
        if folder is not None:
            folder.close()
    if not outcome.complete:
        print(outcome.stop_line(args.out, len(runs)), file=sys.stderr)
        return outcome.exit_code()
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print_run_table(summary)
        if args.out is not None:
            print(f"wrote {args.out}/games.csv, decisions.csv, results.csv, summary.json"
                  + (", transcripts/" if spec.transcript_level != "none" else ""))
    if summary["errors"]:
        # Games that end in a run-time error are a failure of the game file: say so in the exit status.
        print(f"error: {summary['errors']} of {summary['games']} games ended in a run-time error", file=sys.stderr)
        return 1
    return 0
