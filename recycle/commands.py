"""The play commands of the CLI: run, replay, games (check lives in cli.py)."""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from . import library
from .errors import UsageError

SEED_HELP = ("batch seed S (default: drawn from the OS and printed); run i plays with game seed "
             "derive(S, 'game', i) and seat s draws from derive(game_seed, 'seat', s), so results do not "
             "depend on --jobs")


def _param(text: str) -> tuple[str, str]:
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    name, value = text.split("=", 1)
    name = name.strip().lstrip("'")
    if not name.isalpha() or not name.isupper():
        raise argparse.ArgumentTypeError(f"parameter names are uppercase declared variables (e.g. NUMP=3), got {name!r}")
    return name, value.strip()


def _whole(minimum: int, what: str):
    """An argparse type: a whole number of at least `minimum`."""

    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what}: expected a whole number, got {text!r}") from None
        if v < minimum:
            raise argparse.ArgumentTypeError(f"{what}: expected a number of at least {minimum}, got {v}")
        return v

    return parse


_positive = _whole(1, "a count")
_count = _whole(0, "a count")
_seed = _whole(0, "a seed")


def add_batch_options(p: argparse.ArgumentParser, default_n: int) -> None:
    p.add_argument("game", metavar="GAME", help="a game file, or the name of a shipped game (see `recycle games`)")
    p.add_argument("-n", "--games", dest="n", type=_count, default=default_n, help=f"number of games (default {default_n})")
    p.add_argument("--seed", type=_seed, help=SEED_HELP)
    p.add_argument("--players", help="one kind per seat, e.g. random,random or RR (default: all random)")
    p.add_argument("--param", action="append", type=_param, default=[], metavar="NAME=VALUE",
                   help="override a declared value of the game (repeatable)")
    p.add_argument("--jobs", type=_positive, default=1, help="worker processes (results identical to --jobs 1)")
    p.add_argument("--max-decisions", type=_positive, default=2000, help="decision limit per game (default 2000)")
    p.add_argument("--max-steps", type=_positive, default=10000, help="step limit between decisions (default 10000)")
    p.add_argument("--out", type=Path, help="write games.csv, decisions.csv, results.csv, transcripts/ and summary.json here")
    p.add_argument("--transcripts", choices=("none", "decisions", "full"), default="decisions",
                   help="transcript level written with --out (default decisions)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def register(sub) -> None:
    """Add run, replay and games to the CLI's subcommands."""
    r = sub.add_parser("run", help="play N seeded games and summarise them",
                       description="Play N seeded games with the given players and print a summary. " + SEED_HELP + ".")
    add_batch_options(r, 100)
    r.set_defaults(func=cmd_run)

    rp = sub.add_parser("replay", help="replay a transcript exactly and print the game",
                        description="Replay a transcript (.jsonl) with its recorded choices, check that it "
                                    "reproduces, and print a readable account of the game (omniscient view).")
    rp.add_argument("transcript", type=Path, metavar="TRANSCRIPT")
    rp.add_argument("--game", type=Path, help="the game file (default: the header's file next to the transcript, or a shipped game)")
    rp.add_argument("--no-verify", action="store_true", help="do not compare the end and the events with the transcript")
    rp.add_argument("--force", action="store_true", help="replay even if the game file changed (with a warning)")
    rp.add_argument("--json", action="store_true", help="print the regenerated full transcript as JSON lines")
    rp.set_defaults(func=cmd_replay)

    g = sub.add_parser("games", help="list the shipped games")
    g.add_argument("--json", action="store_true")
    g.set_defaults(func=cmd_games)

    from .players import human

    human.register(sub)  # `recycle play`: one interactive game


# ------------------------------------------------------------------ run


def open_batch(args):
    """Resolve the game, open a session (load errors are the user's) and build the batch spec."""
    from .batch import BatchSpec, new_seed, parse_lineup
    from .session import GameSession

    path = library.resolve(args.game)
    params = dict(args.param)
    sess = GameSession.open(path, params)
    lineup = parse_lineup(args.players, sess.n_players)
    seed = args.seed if args.seed is not None else new_seed()
    spec = BatchSpec(str(path), params, tuple(lineup), seed, args.max_decisions, args.max_steps,
                     args.transcripts if args.out else "none")
    return sess, spec


def play_batch(sess, spec, args):
    """Run the batch with a progress bar (unless quiet or JSON); returns (records, elapsed seconds)."""
    from .batch import run_batch

    show = not (args.quiet or args.json) and args.n > 0 and sys.stderr.isatty()
    t0 = time.perf_counter()
    if show:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), transient=True) as prog:
            task = prog.add_task(sess.name, total=args.n)
            records = run_batch(spec, args.n, args.jobs, lambda k: prog.advance(task, k))
    else:
        records = run_batch(spec, args.n, args.jobs)
    return records, time.perf_counter() - t0


def _note_replaced(out: Path, names) -> None:
    """Say which files of an earlier run in `out` are about to be replaced (never silently)."""
    if not out.is_dir():
        return
    clash = [n for n in names if (out / n).exists()]
    old_t = sorted(p.name for p in (out / "transcripts").glob("run-*.jsonl")) if (out / "transcripts").is_dir() else []
    if old_t:
        clash.append(f"transcripts/ ({len(old_t)} file{'s' if len(old_t) != 1 else ''})")
    if clash:
        shown = ", ".join(clash[:8]) + (f" and {len(clash) - 8} more" if len(clash) > 8 else "")
        print(f"note: --out {out}: replacing {shown} from an earlier run", file=sys.stderr)


def _make_out(out: Path) -> None:
    """Create the --out folder before the batch, so that a bad folder does not cost the user the whole run."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out}: exists and is not a directory")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UsageError(f"--out {out}: cannot create the folder ({e.strerror or e})") from None


def run_summary(sess, spec, records, elapsed: float) -> dict:
    """The `recycle run --json` object (and the numbers of the table)."""
    from .stats import mean, quantile, wilson

    n = len(records)
    done = [r for r in records if r.end_reason == "normal"]
    limited = [r for r in records if r.end_reason in ("decision_limit", "step_limit")]
    errors = [r for r in records if r.end_reason == "error"]
    used = [r for r in records if r.end_reason != "error"]
    lengths = sorted(r.decisions for r in used)
    bs = [b for r in used for _, b, _ in r.decision_rows]
    seats = sess.n_players
    wins = [sum(r.shares[s] for r in done) / len(done) if done else None for s in range(seats)]
    wins_ci = [list(wilson(sum(r.shares[s] for r in done), len(done))) for s in range(seats)]
    scored = [r for r in done if r.scores is not None]
    total_dec = sum(r.decisions for r in records)
    return {
        "game": sess.name,
        "file": str(sess.path),
        "players": list(spec.lineup),
        "seed": spec.seed,
        "games": n,
        "completed": len(done),
        "limit_reached": len(limited),
        "errors": len(errors),
        "decisions": {"mean": mean(lengths), "median": quantile(lengths, 0.5) if lengths else None,
                      "max": lengths[-1] if lengths else None},
        "branching": {"mean": mean(bs), "max": max(bs) if bs else None},
        "wins_by_seat": wins,
        "wins_ci95": wins_ci,
        "mean_scores": [mean([r.scores[s] for r in scored]) for s in range(seats)],
        "first_errors": _first_distinct_errors(errors),
        "elapsed_s": elapsed,
        "games_per_s": n / elapsed if elapsed > 0 else None,
        "decisions_per_s": total_dec / elapsed if elapsed > 0 else None,
    }


def _first_distinct_errors(errors, k: int = 5) -> list:
    """The first k distinct error messages, each with the first run (and its game seed) that raised it (§3.2)."""
    out, seen = [], set()
    for r in errors:
        if r.error not in seen:
            seen.add(r.error)
            out.append({"run": r.run, "game_seed": r.game_seed, "error": r.error})
            if len(out) == k:
                break
    return out


def _fmt(v, digits=2) -> str:
    if v is None:
        return "—"
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    return str(v)


def print_run_table(summary: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    con = Console()
    t = Table(title=f"{summary['game']}: {summary['games']} games, seed {summary['seed']}", show_header=False)
    t.add_column(style="bold")
    t.add_column()
    d, b = summary["decisions"], summary["branching"]
    t.add_row("completed / limit / errors", f"{summary['completed']} / {summary['limit_reached']} / {summary['errors']}")
    t.add_row("decisions per game", f"mean {_fmt(d['mean'], 1)}, median {_fmt(d['median'], 1)}, max {_fmt(d['max'])}")
    t.add_row("branching factor", f"mean {_fmt(b['mean'])}, max {_fmt(b['max'])}")
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
    for e in summary["first_errors"]:
        # The message is plain text: `error[no-card]` must not be read as rich markup, nor wrapped.
        con.print(f"[red]error[/red] in run {e['run']} (game seed {e['game_seed']}):", highlight=False)
        con.print(e["error"], markup=False, highlight=False, soft_wrap=True)


def cmd_run(args) -> int:
    from .batch import write_core_files

    sess, spec = open_batch(args)
    if args.out is not None:
        _note_replaced(args.out, ["games.csv", "decisions.csv", "results.csv", "summary.json"])
        _make_out(args.out)
    if not args.json:
        print(f"{sess.name}: {args.n} games, seed {spec.seed}, players {' '.join(spec.lineup)}"
              + (f", {args.jobs} jobs" if args.jobs > 1 else ""), file=sys.stderr)
    records, elapsed = play_batch(sess, spec, args)
    summary = run_summary(sess, spec, records, elapsed)
    if args.out is not None:
        from . import __version__

        full = {
            "format": "recycle-run", "version": 1, "game": sess.name, "game_sha256": sess.sha256,
            "players": sess.n_players, "lineup": list(spec.lineup), "seed": spec.seed, "interpreter": __version__,
            "params": {"declares": spec.params, "max_decisions": spec.max_decisions, "max_idle_steps": spec.max_idle_steps,
                       "games": args.n, "transcripts": spec.transcript_level},
            "summary": {k: v for k, v in summary.items() if k not in ("elapsed_s", "games_per_s", "decisions_per_s")},
            "timing": {"wall_s": elapsed, "games_per_s": summary["games_per_s"], "decisions_per_s": summary["decisions_per_s"],
                       "jobs": args.jobs},
        }
        try:
            write_core_files(args.out, sess.name, records, sess.prog.direction, full)
        except OSError as e:
            raise UsageError(f"--out {args.out}: cannot write the results ({e.strerror or e})") from None
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print_run_table(summary)
        if args.out is not None:
            print(f"wrote {args.out}/games.csv, decisions.csv, results.csv, summary.json"
                  + (", transcripts/" if spec.transcript_level != "none" else ""))
    return 0


# ------------------------------------------------------------------ replay


def cmd_replay(args) -> int:
    from .session import dumps, render_text, replay

    lines, warnings = replay(args.transcript, args.game, verify=not args.no_verify, force=args.force)
    for w in warnings:
        print(f"warning: {w}", file=sys.stderr)
    if args.json:
        for l in lines:
            print(dumps(l))
    else:
        print(render_text(lines))
        print(f"replay ok: {sum(1 for l in lines if l['type'] == 'decision')} decisions reproduced", file=sys.stderr)
    return 0


# ------------------------------------------------------------------ games


def cmd_games(args) -> int:
    from .session import GameSession

    rows = []
    for name, path in library.shipped().items():
        info = library.info(name, path)
        try:
            sess = GameSession.open(path)
            players = info.players or str(sess.n_players)
            params = {d.var: _declared(sess, d.var) for d in sess.prog.game.declares}
        except Exception as e:  # a shipped game that does not load is a bug, but listing goes on
            players, params = "?", {"error": str(e)}
        rows.append({"name": name, "title": info.title, "players": players, "parameters": params,
                     "description": info.description, "path": str(path)})
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    from rich.console import Console
    from rich.table import Table

    t = Table(title="shipped games (run one with: recycle run NAME)")
    for col in ("name", "players", "parameters", "description"):
        t.add_column(col)
    for r in rows:
        params = ", ".join(f"{k}={v}" for k, v in r["parameters"].items()) or "none"
        t.add_row(r["name"], r["players"], params, r["title"])
    Console().print(t)
    return 0


def _declared(sess, var):
    v = sess.prog.declared.get(var) if hasattr(sess.prog, "declared") else None
    return v
