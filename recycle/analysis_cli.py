"""The analysis commands of the CLI: flow and stats (flow-and-analytics §6).

`recycle flow GAME` plays one seeded random rollout (or N with --games) at the
`full` transcript level and draws the card-flow diagram of it (§1) with the
information categories derived from it (§2).

`recycle stats GAME` plays a batch of N seeded games and writes, into one
folder, the tidy CSVs of `recycle run`, the statistics of §3 (summary.json,
branching_by_index.csv, seats.csv), the heuristics an all-random batch gives
(§4), the flow diagrams of run 0 and of the whole batch, and the plots (§3.7).

`recycle stats GAME --heuristics [--ai F|M|P] [--ai-budget N]` plays the three batches of
§3.1 (all random into DIR/random/, the AI against random players rotated into
DIR/ai-vs-random/, all AI into DIR/ai/; -n defaults to 20 per batch there, the AI budget to
the player's own default), writes lead.csv and spread.csv in the AI batches (§3.5, §3.6), and
heuristics.json, heuristics.csv and evaluation.json in DIR with every §4 heuristic computed.

Both reuse the batch machinery of `recycle run` (commands.open_batch,
play_batch, batch.write_core_files): run i of either command with seed S is
the same game, so `flow --seed S` draws run 0 of `stats --seed S`.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

from .commands import SEED_HELP, _note_replaced, _param, _positive, _seed, add_batch_options
from .errors import RecycleError, UsageError

# Above this many games, stats plays the batch at the transcript level the user chose and
# builds the aggregated flow from runs 0 .. FLOW_GAMES-1 only (replayed at level `full`), so
# memory stays bounded (a full transcript is ~50 KB per game).
FLOW_GAMES = 1000

PLOT_FORMATS = ("png", "svg", "pdf")


# ------------------------------------------------------------------ argument types


def _formats(allowed, what: str):
    def parse(text: str) -> tuple[str, ...]:
        out = []
        for part in text.split(","):
            f = part.strip().lower()
            if not f:
                continue
            if f not in allowed:
                raise argparse.ArgumentTypeError(
                    f"unknown {what} format {f!r} (use a comma list of {', '.join(sorted(allowed))})")
            if f not in out:
                out.append(f)
        if not out:
            raise argparse.ArgumentTypeError(f"give at least one {what} format, e.g. svg,png")
        return tuple(out)

    return parse


# Graphviz image formats offered (not `dot` or `json`: flow.dot and flow.json are written anyway)
GRAPH_FORMATS = ("svg", "png", "pdf", "jpg", "jpeg", "gif", "webp", "eps", "ps", "svgz", "tif", "tiff", "bmp")


def _graph_formats():
    return set(GRAPH_FORMATS)


def _share(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {text!r}") from None
    if not 0.0 <= v <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {v}")
    return v


def _declared(text: str) -> list[str]:
    from .visualize.flow import CATEGORY_NAMES

    known = {c.lower(): c for c in CATEGORY_NAMES + ("Deduction",)}
    out = []
    for part in text.split(","):
        p = part.strip()
        if not p:
            continue
        if p.lower() not in known:
            raise argparse.ArgumentTypeError(f"unknown information category {p!r} "
                                             f"(known: {', '.join(known.values())})")
        out.append(known[p.lower()])
    return out


# ------------------------------------------------------------------ registration


def register(sub) -> None:
    """Add flow and stats to the CLI's subcommands."""
    f = sub.add_parser(
        "flow", help="draw the card-flow (information-flow) diagram of one or N seeded games",
        description="Play one seeded game with random players (or N with --games, aggregated) and draw where "
                    "the cards go: one box per location, filled by who can see its cards, one cluster per owner, "
                    "edges coloured by what a move reveals. Writes flow.dot and flow.json always, and flow.svg / "
                    "flow.png when Graphviz's `dot` is installed. Prints the derived information categories. Seeds: "
                    + SEED_HELP + "; --seed S draws run 0 of `recycle stats --seed S`.")
    f.add_argument("game", metavar="GAME", help="a game file, or the name of a shipped game (see `recycle games`)")
    f.add_argument("--seed", type=_seed, help="batch seed S (default: drawn from the OS and printed)")
    f.add_argument("--games", "-n", dest="n", type=_positive, default=1,
                   help="aggregate N games (default 1); games that end in an error are left out")
    f.add_argument("--players", help="one kind per seat, e.g. random,random or RR (default: all random)")
    f.add_argument("--param", action="append", type=_param, default=[], metavar="NAME=VALUE",
                   help="override a declared value of the game (repeatable)")
    f.add_argument("--max-decisions", type=_positive, default=2000, help="decision limit per game (default 2000)")
    f.add_argument("--max-steps", type=_positive, default=10000, help="step limit between decisions (default 10000)")
    f.add_argument("--edge-labels", choices=("none", "count", "runs"), default="none",
                   help="label edges with nothing (default), the card count (mean per game when N > 1) "
                        "or the share of games in which they occurred")
    f.add_argument("--no-legend", action="store_true", help="leave out the legend")
    f.add_argument("--format", dest="formats", type=_formats(_graph_formats(), "image"), default=("svg", "png"),
                   metavar="FMT[,FMT]", help="image formats rendered by Graphviz (default svg,png)")
    f.add_argument("--min-run-share", type=_share, default=0.0, metavar="P",
                   help="drop edges that occurred in fewer than this share of the games (default 0)")
    f.add_argument("--declared", type=_declared, metavar="CATS",
                   help="declared categories, e.g. Hidden,Private: the report says where they agree")
    f.add_argument("--out", type=Path, help="output folder (default ./flow-<game>)")
    f.add_argument("--json", action="store_true",
                   help='print {"categories", "nodes", "edges", "files", ...} as JSON instead of text')
    f.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    f.set_defaults(func=cmd_flow)

    s = sub.add_parser(
        "stats", help="statistics, plots, heuristics and card flow over N seeded games",
        description="Play N seeded games and write into one folder: the tidy CSVs of `recycle run`, summary.json "
                    "(length, branching, win rates with 95% intervals, ties, information categories, timing), "
                    "branching_by_index.csv, seats.csv, heuristics.json/.csv, the card-flow diagrams of run 0 "
                    "(flow.*) and of the batch (flow-aggregate.*), and the plots branching, length, scores and "
                    "winrate. Seeds: " + SEED_HELP + ".")
    add_batch_options(s, 100)
    s.set_defaults(out=None)
    for action in s._actions:  # the folder has a default here, and transcripts are written into it
        if action.dest == "out":
            action.help = ("output folder (default ./stats-<game>); files of an earlier run there are replaced, "
                           "with a note saying which")
        elif action.dest == "json":
            action.help = "print summary.json instead of the text summary"
    s.add_argument("--include-limited", action="store_true",
                   help="count games stopped at a decision or step limit in the outcomes (default: left out)")
    s.add_argument("--plot-format", dest="plot_formats", type=_formats(set(PLOT_FORMATS), "plot"),
                   default=("png", "svg"), metavar="FMT[,FMT]", help="plot formats (default png,svg)")
    s.add_argument("--flow-format", dest="flow_formats", type=_formats(_graph_formats(), "image"),
                   default=("svg", "png"), metavar="FMT[,FMT]", help="flow diagram formats (default svg,png)")
    s.add_argument("--bootstrap", type=_positive, default=1000, metavar="B",
                   help="bootstrap resamples for the 95%% intervals (default 1000)")
    s.add_argument("--declared", type=_declared, metavar="CATS",
                   help="declared information categories, e.g. Hidden,Private,Taken")
    s.add_argument("--rotate", action="store_true",
                   help="shift the lineup one seat per run (run i gives seat s the kind of lineup[(s - i) mod n]), "
                        "to cancel seat advantage when kinds are compared")
    s.add_argument("--heuristics", action="store_true",
                   help="play three batches into DIR/random/, DIR/ai-vs-random/ (one AI against random players, "
                        "rotated) and DIR/ai/ (all AI), and write the game-quality heuristics (heuristics.json, "
                        "heuristics.csv, evaluation.json) computed from them; -n defaults to "
                        f"{HEURISTIC_GAMES} here (each batch)")
    s.add_argument("--ai", metavar="KIND",
                   help="the AI of --heuristics: F (flat Monte Carlo, default), M (IS-MCTS) or P (PIMC)")
    s.add_argument("--ai-budget", type=_positive, metavar="N",
                   help="budget of the searching players: playouts per option for F (default 10), iterations per "
                        "decision for M and P (default 200)")
    for action in s._actions:
        if action.dest == "n":  # 100, or HEURISTIC_GAMES with --heuristics
            action.default = None
            action.help = f"number of games (default 100; {HEURISTIC_GAMES} per batch with --heuristics)"
    s.set_defaults(func=cmd_stats)


# ------------------------------------------------------------------ shared helpers


def _default_out(args, prefix: str, name: str) -> Path:
    out = args.out if args.out is not None else Path(f"{prefix}-{name}")
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out}: exists and is not a directory")
    return out


def _flow_names(stem: str, formats) -> list[str]:
    return [f"{stem}.dot", f"{stem}.json"] + [f"{stem}.{f}" for f in formats]


def _write_flow(fb, stem: Path, formats, **kw) -> list[Path]:
    from .visualize.flow import FlowRenderError

    try:
        return fb.write(stem, formats, **kw)
    except FlowRenderError as e:
        raise RecycleError(f"error: {e}") from None
    except OSError as e:
        raise RecycleError(f"error: cannot write {stem}.*: {e}") from None


def _events(record) -> list[dict]:
    return [json.loads(line) for line in record.transcript]


def _new_flow(sess, spec):
    from .visualize.flow import FlowGraph

    return FlowGraph(title=sess.name, game=sess.name, game_sha256=sess.sha256, players=sess.n_players,
                     lineup="".join(spec.lineup))


def _rel(paths, out: Path) -> list[str]:
    rel = []
    for p in paths:
        try:
            rel.append(Path(p).relative_to(out).as_posix())
        except ValueError:
            rel.append(str(p))
    return rel


def _first_error_text(errors) -> str:
    e = errors[0]
    return f"run {e.run} (game seed {e.game_seed}): {(e.error or 'error').splitlines()[0]}"


# ------------------------------------------------------------------ flow


def cmd_flow(args) -> int:
    from .batch import play_run
    from .commands import open_batch

    wanted_out = args.out
    args.transcripts, args.out = "full", Path(".")  # open_batch keeps transcripts only with an output folder
    sess, spec = open_batch(args)
    args.out = wanted_out
    out = _default_out(args, "flow", sess.name)
    seed_drawn = args.seed is None
    if not args.json:
        print(f"{sess.name}: card flow of {args.n} game{'s' if args.n != 1 else ''}, seed {spec.seed}"
              + (" (drawn; pass --seed to repeat)" if seed_drawn else "") + f", players {' '.join(spec.lineup)}",
              file=sys.stderr)
    fb = _new_flow(sess, spec)
    errors, limited = [], 0
    show = not (args.quiet or args.json) and args.n > 1 and sys.stderr.isatty()
    prog = None
    if show:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        prog = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), transient=True)
        prog.start()
        task = prog.add_task(sess.name, total=args.n)
    try:
        for r in range(args.n):
            rec = play_run(spec, r)
            if rec.end_reason == "error":
                errors.append(rec)
            else:
                limited += rec.end_reason != "normal"
                fb.add_run(_events(rec), seed=rec.game_seed)
            if prog is not None:
                prog.advance(task)
    finally:
        if prog is not None:
            prog.stop()
    if fb.runs == 0:
        raise RecycleError(f"error: no flow to draw: every game ended with an error; first: {_first_error_text(errors)}")
    if errors:
        print(f"note: left out {len(errors)} game{'s' if len(errors) != 1 else ''} that ended with an error; "
              f"first: {_first_error_text(errors)}", file=sys.stderr)

    _note_replaced(out, _flow_names("flow", args.formats))
    files = _write_flow(fb, out / "flow", args.formats, min_run_share=args.min_run_share,
                        legend=not args.no_legend, edge_labels=args.edge_labels)
    G = fb.graph(args.min_run_share)
    info = fb.information(declared=args.declared, min_run_share=args.min_run_share)
    doc = {
        "categories": info["categories"],
        "nodes": G.number_of_nodes(),
        "edges": G.number_of_edges(),
        "files": [str(p) for p in files],
        "game": sess.name,
        "seed": spec.seed,
        "games": args.n,
        "runs": fb.runs,
        "excluded_errors": len(errors),
        "limited": limited,
        "seeds": G.graph["seeds"],
        "information": info,
    }
    if args.json:
        print(json.dumps(doc, indent=2))
        return 0
    print(f"{G.graph['title']}: {doc['nodes']} locations, {doc['edges']} flows"
          + (f" ({len(errors)} game{'s' if len(errors) != 1 else ''} with errors left out)" if errors else ""))
    print(_categories_line(info))
    print("wrote " + ", ".join(str(p) for p in files))
    return 0


def _categories_line(info: dict) -> str:
    cats = info["categories"]
    parts = []
    for c in cats:
        share = info[c].get("run_share")
        parts.append(c + (f" ({share:.0%} of games)" if share is not None and info.get("runs", 1) > 1 and share < 1
                          else ""))
    line = "information: " + (", ".join(parts) if parts else "none derived (perfect information)")
    extra = [k for k in ("memory", "others") if info.get(k)]
    if extra:
        line += "; also " + " and ".join({"memory": "memory piles", "others": "others-only piles"}[k] for k in extra)
    if "Taken" in cats and not info["Taken"].get("taken_by_player"):
        line += "; Taken only by returns to the table"
    return line


# ------------------------------------------------------------------ stats


def _reduce_transcript(lines: list[str], level: str) -> list[str] | None:
    """A `full` transcript cut down to `level` (exactly what playing at that level writes)."""
    from .session import dumps

    if level == "none":
        return None
    if level == "full":
        return lines
    out = []
    for i, line in enumerate(lines):
        ev = json.loads(line)
        t = ev.get("type")
        if i == 0 and t == "header":
            ev["level"] = level
            out.append(dumps(ev))
        elif t == "decision":
            ev.pop("text", None)
            out.append(dumps(ev))
        elif t == "end":
            out.append(line)
    return out


def _has_shuffle_and_choice(game) -> bool:
    """Static §4 gate: the syntax tree holds at least one `shuffle` and at least one `choice`."""
    import attrs

    from . import ast

    found = {"shuffle": False, "choice": False}
    stack, seen = [game], set()
    while stack and not all(found.values()):
        n = stack.pop()
        if isinstance(n, (list, tuple)):
            stack.extend(n)
            continue
        if not isinstance(n, ast.Node) or id(n) in seen:
            continue
        seen.add(id(n))
        if isinstance(n, ast.Shuffle):
            found["shuffle"] = True
        elif isinstance(n, ast.Choice):
            found["choice"] = True
        for f in attrs.fields(type(n)):
            v = getattr(n, f.name)
            if isinstance(v, (ast.Node, list, tuple)):
                stack.append(v)
    return all(found.values())


STATS_FILES = ["games.csv", "decisions.csv", "results.csv", "summary.json", "branching_by_index.csv", "seats.csv",
               "heuristics.json", "heuristics.csv"]


def cmd_stats(args) -> int:
    from . import analytics

    if args.n is None:
        args.n = HEURISTIC_GAMES if args.heuristics else 100
    if args.heuristics:
        return _cmd_stats_heuristics(args)
    if args.ai is not None:
        raise UsageError("--ai chooses the AI of --heuristics; to put AI players in one batch use --players, "
                         "e.g. --players MRRR")

    user_level = args.transcripts
    wanted_out = args.out
    args.out = Path(".")  # so that open_batch keeps the transcript level; the folder is decided below
    args.transcripts = "full" if args.n <= FLOW_GAMES else user_level
    sess, spec = open_batch_ai(args)
    args.out = wanted_out
    out = _default_out(args, "stats", sess.name)
    if not args.json:
        print(f"{sess.name}: {args.n} games, seed {spec.seed}"
              + (" (drawn; pass --seed to repeat)" if args.seed is None else "")
              + f", players {' '.join(spec.lineup)}" + (" rotated" if spec.rotate else "")
              + (f", {args.jobs} jobs" if args.jobs > 1 else ""),
              file=sys.stderr)
    _note_replaced(out, STATS_FILES + ["lead.csv", "spread.csv"] + _flow_names("flow", args.flow_formats)
                   + _flow_names("flow-aggregate", args.flow_formats)
                   + [f"{p}.{f}" for p in _plot_names() for f in args.plot_formats])
    b = _stats_batch(args, sess, spec, out, user_level, flow=True, random_heuristics=True)
    doc, stats, info, heur, files, timing = b["doc"], b["stats"], b["info"], b["heur"], b["files"], b["timing"]

    if args.json:
        print(json.dumps(doc, indent=2))
        return 0
    print(analytics.format_summary(stats, None))
    if info is not None:
        print(_categories_line(info).replace("information:", "Information:", 1)
              + (f" (from {b['flow_runs']} games)" if b["flow_runs"] > 1 else ""))
    if heur is not None:
        fair = next(e for e in heur["heuristics"] if e["name"] == "Fairness")
        if fair["value"] is not None:
            print(f"Fairness {fair['value']:.3f}; AI heuristics not applicable in a plain batch "
                  "(they need a searching player: recycle stats --heuristics); see heuristics.json")
    t = timing
    if t.get("games_per_second"):
        print(f"Time: {t['wall_seconds']:.2f} s ({t['games_per_second']:.1f} games/s)")
    print(f"wrote {len(files) + 1} files into {out}/ (summary.json, CSVs, flow, plots"
          + (", transcripts/" if any(f.startswith("transcripts/") for f in files) else "") + ")")
    return 0


def _plot_names():
    from .visualize import plots

    return plots.PLOTS


def open_batch_ai(args):
    """commands.open_batch plus this command's AI settings: rotation, AI budget, estimates of searching players."""
    import attrs

    from .commands import open_batch
    from .players import registry

    sess, spec = open_batch(args)
    searching = any(c in registry.SEARCHING for c in spec.lineup)
    spec = attrs.evolve(spec, rotate=bool(getattr(args, "rotate", False)),
                        ai_budget=getattr(args, "ai_budget", None), estimates=searching)
    return sess, spec


def _stats_batch(args, sess, spec, out: Path, user_level: str, *, flow: bool, random_heuristics: bool,
                 label: str | None = None) -> dict:
    """Play one batch and write its files into `out` (the body of `recycle stats`): core CSVs, summary.json,
    branching_by_index.csv, seats.csv, lead.csv and spread.csv when the batch has estimates, heuristics files
    of an all-random batch (`random_heuristics`), the flow diagrams (`flow`) and the plots."""
    from . import __version__, analytics
    from .batch import run_batch, write_core_files
    from .commands import play_batch
    from .visualize import plots

    lineup = "".join(spec.lineup)
    all_random = all(c == "R" for c in spec.lineup)

    # play: the batch itself (progress bar, --jobs) ...
    bargs = argparse.Namespace(**{**vars(args), "out": None})
    records, elapsed = play_batch(_Labelled(sess, label), spec, bargs)
    # ... and the full events the flow diagrams need (the batch's own when it was played at `full`)
    fb_all, run0, run0_full = None, None, None
    if flow:
        if spec.transcript_level == "full":
            flow_records = records
        else:
            full = attrs_evolve(spec, transcript_level="full")
            flow_records = run_batch(full, min(args.n, FLOW_GAMES), args.jobs)
            if not args.json:
                print(f"note: flow-aggregate and the information categories use the first {len(flow_records)} "
                      f"of {args.n} games", file=sys.stderr)
        fb_all = _new_flow(sess, spec)
        for rec in flow_records:
            if rec.end_reason != "error":
                fb_all.add_run(_events(rec), seed=rec.game_seed)
        run0 = flow_records[0] if flow_records else None
        run0_full = list(run0.transcript) if run0 is not None else None
        # transcripts as the user asked; run 0, drawn in flow.*, is always kept at `full`
        for rec in records:
            rec.transcript = _reduce_transcript(rec.transcript, user_level) if rec.transcript else None
        if records:
            records[0].transcript = run0_full
        del flow_records

    teams = [list(t) for t in sess.prog.game.setup.teams.teams] if sess.prog.game.setup.teams else None
    stats = analytics.analyze(records, game=sess.name, direction=sess.prog.direction, players=sess.n_players,
                              seed=spec.seed, lineup=lineup, rotate=spec.rotate, teams=teams,
                              include_limited=args.include_limited, bootstrap=args.bootstrap)
    info = fb_all.information(declared=args.declared) if fb_all is not None and fb_all.runs else None
    params = {"declares": spec.params, "games": args.n, "max_decisions": spec.max_decisions,
              "max_idle_steps": spec.max_idle_steps, "include_limited": args.include_limited,
              "bootstrap": args.bootstrap, "transcripts": user_level, "plot_formats": list(args.plot_formats),
              "flow_formats": list(args.flow_formats), "flow_games": fb_all.runs if fb_all is not None else 0}
    if spec.rotate or spec.ai_budget is not None or spec.estimates:
        params["ai_budget"] = spec.ai_budget
    timing = {**analytics.timing_stats(records, elapsed), "jobs": args.jobs}

    def document(files):
        return analytics.summary_document(stats, game_sha256=sess.sha256, players=sess.n_players, lineup=lineup,
                                          rotate=spec.rotate, seed=spec.seed, interpreter=__version__,
                                          params=params, information=info, timing=timing, files=files)

    heur = None
    try:
        files = list(write_core_files(out, sess.name, records, sess.prog.direction, document([])))
        files.remove("summary.json")
        analytics.write_branching_csv(out / "branching_by_index.csv", sess.name, sess.n_players, lineup,
                                      analytics.branching_by_index(records))
        analytics.write_seats_csv(out / "seats.csv", sess.name, sess.n_players, lineup, stats)
        files += ["branching_by_index.csv", "seats.csv"]
        if spec.estimates:
            files += analytics.write_estimate_csvs(out, sess.name, sess.n_players, records)
        if random_heuristics and all_random:
            heur = analytics.heuristics(records, players=sess.n_players, seed=spec.seed,
                                        has_shuffle_and_choice=_has_shuffle_and_choice(sess.prog.game),
                                        include_limited=args.include_limited, bootstrap=args.bootstrap)
            heur["note"] = ("from the all-random batch; MeaningfulMoves, Drama, Decisiveness, Coolness, Security, "
                            "Clarity, Stability and Order are not_applicable here: they need a searching player's "
                            "estimates (recycle stats --heuristics)")
            files += analytics.write_heuristics(out, heur, game=sess.name, players=sess.n_players)
        elif random_heuristics and not args.json:
            print("note: heuristics skipped: they are computed from an all-random batch "
                  "(or with --heuristics)", file=sys.stderr)
        flow_files = []
        if flow and run0 is not None and run0.end_reason != "error":
            fb0 = _new_flow(sess, spec)
            fb0.add_run((json.loads(l) for l in run0_full), seed=run0.game_seed)
            flow_files += _write_flow(fb0, out / "flow", args.flow_formats)
        elif flow and run0 is not None:
            print(f"note: flow.* not drawn: run 0 ended with an error ({_first_error_text([run0])})",
                  file=sys.stderr)
        if fb_all is not None and fb_all.runs:
            # without Graphviz the notice is printed once (by the first diagram), not once per diagram
            formats = args.flow_formats if (shutil.which("dot") or not flow_files) else ()
            flow_files += _write_flow(fb_all, out / "flow-aggregate", formats)
        files += _rel(flow_files, out)
        plot_files, _notes = plots.write_plots(records, out, game=sess.name, players=sess.n_players, seed=spec.seed,
                                               formats=args.plot_formats, include_limited=args.include_limited,
                                               direction=sess.prog.direction, print_notes=not args.json)
        files += _rel(plot_files, out)
        doc = document(files + ["summary.json"])
        (out / "summary.json").write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    except OSError as e:
        raise RecycleError(f"error: cannot write into {out}: {e}") from None
    return {"records": records, "stats": stats, "info": info, "heur": heur, "files": files, "doc": doc,
            "timing": timing, "elapsed": elapsed, "flow_runs": fb_all.runs if fb_all is not None else 0}


def attrs_evolve(spec, **changes):
    import attrs

    return attrs.evolve(spec, **changes)


class _Labelled:
    """A session seen by the progress bar under another name (the batch of --heuristics being played)."""

    def __init__(self, sess, label):
        self._sess, self._label = sess, label

    def __getattr__(self, name):
        if name == "name" and self._label:
            return self._label
        return getattr(self._sess, name)


# ------------------------------------------------------------------ stats --heuristics (§3.1, §4)

HEURISTIC_GAMES = 20  # default -n with --heuristics: three batches, two of them with AI players
HEURISTIC_BATCHES = (("random", "R"), ("ai-vs-random", "A"), ("ai", "M"))


def _cmd_stats_heuristics(args) -> int:
    """Three batches (all random; one AI against random players, rotated; all AI), then the §4 heuristics."""
    import time

    from . import __version__, analytics
    from .players import registry

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
    args.transcripts = "full" if args.n <= FLOW_GAMES else user_level
    sess, spec_r = open_batch_ai(args)
    args.out = wanted_out
    out = _default_out(args, "stats", sess.name)
    n = sess.n_players
    budget = args.ai_budget if args.ai_budget is not None else registry.make(ai).budget
    lineups = {"R": ["R"] * n, "A": [ai] + ["R"] * (n - 1), "M": [ai] * n}
    if not args.json:
        print(f"{sess.name}: --heuristics, 3 batches of {args.n} games, seed {spec_r.seed}"
              + (" (drawn; pass --seed to repeat)" if args.seed is None else "")
              + f", AI {ai} with budget {budget}" + (f", {args.jobs} jobs" if args.jobs > 1 else ""),
              file=sys.stderr)
    _note_replaced(out, ["heuristics.json", "heuristics.csv", "evaluation.json"])
    t0 = time.perf_counter()
    results = {}
    for sub, letter in HEURISTIC_BATCHES:
        lu = lineups[letter]
        if letter == "R":
            spec = attrs_evolve(spec_r, lineup=tuple(lu))
        else:
            spec = attrs_evolve(spec_r, lineup=tuple(lu), rotate=letter == "A", ai_budget=args.ai_budget,
                                estimates=True, transcript_level=user_level)
        if not args.json:
            print(f"batch {sub}: players {' '.join(lu)}" + (" rotated" if spec.rotate else ""), file=sys.stderr)
        _note_replaced(out / sub, STATS_FILES + ["lead.csv", "spread.csv"]
                       + [f"{p}.{f}" for p in _plot_names() for f in args.plot_formats])
        results[letter] = _stats_batch(args, sess, spec, out / sub, user_level, flow=letter == "R",
                                       random_heuristics=False, label=f"{sess.name} {sub}")
    heur = analytics.heuristics(results["R"]["records"], players=n, seed=spec_r.seed,
                                has_shuffle_and_choice=_has_shuffle_and_choice(sess.prog.game),
                                include_limited=args.include_limited, bootstrap=args.bootstrap,
                                ai_records=results["M"]["records"], vs_records=results["A"]["records"], ai_code=ai)
    heur["ai"] = {"kind": ai, "budget": budget}
    heur["batches"] = {letter: {"dir": sub, "lineup": "".join(lineups[letter]), "rotate": letter == "A"}
                       for sub, letter in HEURISTIC_BATCHES}
    names = {"R": "".join(lineups["R"]), "A": "".join(lineups["A"]) + " rotated", "M": "".join(lineups["M"])}
    try:
        files = analytics.write_heuristics(out, heur, game=sess.name, players=n, lineups=names)
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
        print(analytics.format_summary(results[letter]["stats"], None))
    info = results["R"]["info"]
    if info is not None:
        print(_categories_line(info).replace("information:", "Information:", 1))
    print(f"== heuristics ({ai}, budget {budget}) ==")
    print(analytics.format_heuristics(heur))
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
