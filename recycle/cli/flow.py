"""`recycle flow`: the card-flow diagram of one or N seeded games, and what the commands drawing flows share.

`recycle flow GAME` plays one seeded random rollout (or N with --games) at the `full` transcript
level and draws the card-flow diagram of it (flow-and-analytics §1) with the information
categories derived from it (§2).  Run i with seed S is run i of `recycle stats --seed S`.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import sys
import tempfile
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from ..analysis.flow import FlowGraph
from ..errors import RecycleError, UsageError
from ..run.batch import play_run
from ..run.output import STAGING, OutFolder
from ..visualize.flow import FILE_FORMATS, FlowRenderError, write_flow, write_flow_file
from .batches import Stopped, Stopper, open_batch, open_out, out_folder
from .options import (
    SEED_HELP,
    add_game_argument,
    add_limit_options,
    add_param_option,
    declared_categories,
    flow_games,
    formats,
    graph_formats,
    refuse_unread_fifo,
    seed_number,
    share,
)


def register(sub) -> None:
    """Add `flow` to the CLI's subcommands."""
    f = sub.add_parser(
        "flow", help="draw the card-flow (information-flow) diagram of one or N seeded games",
        description="Play one seeded game with random players (or N with --games, aggregated) and draw where "
                    "the cards go: one box per location, filled by who can see its cards, one cluster per owner, "
                    "edges coloured by what a move reveals. Writes flow.dot and flow.json always, and flow.svg / "
                    "flow.png when Graphviz's `dot` is installed, into a new or empty folder (--force to replace "
                    "its earlier files). Prints the derived information categories. Seeds: "
                    + SEED_HELP + "; --seed S draws run 0 of `recycle stats --seed S`.")
    add_game_argument(f)
    f.add_argument("--seed", type=seed_number, help="batch seed S (default: drawn from the OS and printed)")
    f.add_argument("--games", "-n", dest="n", type=flow_games, default=1,
                   help="aggregate N games (default 1); games that end in an error are left out")
    f.add_argument("--players", help="one kind per seat, e.g. random,random or RR (default: all random)")
    add_param_option(f)
    add_limit_options(f)
    f.add_argument("--edge-labels", choices=("none", "count", "runs"), default="none",
                   help="label edges with nothing (default), the card count (mean per game when N > 1) "
                        "or the share of games in which they occurred")
    f.add_argument("--no-legend", action="store_true", help="leave out the legend")
    f.add_argument("--format", dest="formats", type=formats(graph_formats(), "image"), default=("svg", "png"),
                   metavar="FMT[,FMT]", help="image formats rendered by Graphviz (default svg,png)")
    f.add_argument("--min-run-share", type=share, default=0.0, metavar="P",
                   help="drop edges that occurred in fewer than this share of the games (default 0)")
    f.add_argument("--declared", type=declared_categories, metavar="CATS",
                   help="declared categories, e.g. Hidden,Private: the report says where they agree")
    f.add_argument("--max-nodes", type=int, metavar="N",
                   help="draw at most N locations, the busiest; the others become one node saying how many "
                        "(default 150, MAX_FLOW_NODES of recycle.visualize.flow; 0: all)")
    f.add_argument("--out", type=out_folder,
                   help="output folder (default ./flow-<game>): a new or empty folder, see --force; files are "
                        "written to a temporary name and moved in, never through a symlink")
    f.add_argument("--force", action="store_true",
                   help="write into a --out folder that is not empty: the files `recycle flow` writes there "
                        "(flow.dot, flow.json, flow.<image format>) are removed first, any other file is left "
                        "alone; symlinks are removed, never followed")
    f.add_argument("-o", "--output", type=Path, metavar="FILE",
                   help="write only the diagram, to FILE, in the format its extension names: "
                        + ", ".join("." + x for x in FILE_FORMATS) + " (instead of the --out folder); "
                        "an existing FILE is replaced only with --force")
    f.add_argument("--json", action="store_true",
                   help='print {"categories", "nodes", "edges", "files", ...} as JSON instead of text')
    f.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    f.set_defaults(func=cmd_flow)


def default_out(args, prefix: str, name: str) -> Path:
    out = args.out if args.out is not None else Path(f"{prefix}-{name}")
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out}: exists and is not a directory")
    return out


def flow_names(stem: str, formats) -> list[str]:
    return [f"{stem}.dot", f"{stem}.json"] + [f"{stem}.{f}" for f in formats]


def write_flow_files(fb: FlowGraph, stem: Path, formats, min_run_share: float = 0.0, **kw) -> list[Path]:
    """Draw a flow graph into <stem>.*; a Graphviz failure or an unwritable folder is the user's error."""
    try:
        return write_flow(fb.graph(min_run_share), stem, formats, **kw)
    except FlowRenderError as e:
        raise RecycleError(f"error: {e}") from None
    except OSError as e:
        raise Unwritten(f"error: cannot write {stem}.*: {e.strerror or e}", e.strerror or str(e)) from None


class Unwritten(RecycleError):
    """Writing a drawing failed (a full disk): what was half written is not kept."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


def write_flow_output(fb: FlowGraph, path: Path, min_run_share: float = 0.0, **kw) -> Path:
    """`-o FILE`: the one drawing, in the format of FILE's extension."""
    try:
        if path.parent != Path(""):
            path.parent.mkdir(parents=True, exist_ok=True)
        return write_flow_file(fb.graph(min_run_share), path, **kw)
    except FlowRenderError as e:
        raise RecycleError(f"error: {e}") from None
    except OSError as e:
        raise RecycleError(f"error: cannot write {path}: {e}") from None


def events_of(record) -> list[dict]:
    return [json.loads(line) for line in record.transcript]


def new_flow(sess, spec):
    return FlowGraph(title=sess.name, game=sess.name, game_sha256=sess.sha256, players=sess.n_players,
                     lineup="".join(spec.lineup))


def relative(paths, out: Path) -> list[str]:
    rel = []
    for p in paths:
        try:
            rel.append(Path(p).relative_to(out).as_posix())
        except ValueError:
            rel.append(str(p))
    return rel


def first_error_text(errors) -> str:
    e = errors[0]
    return f"run {e.run} (game seed {e.game_seed}): {(e.error or 'error').splitlines()[0]}"


def cmd_flow(args: argparse.Namespace) -> int:
    wanted_out = args.out
    args.transcripts, args.out = "full", Path(".")  # open_batch keeps transcripts only with an output folder
    sess, spec = open_batch(args)
    args.out = wanted_out
    if args.output is not None:
        if args.output.suffix.lower().lstrip(".") not in FILE_FORMATS:
            raise UsageError(f"-o {args.output}: the extension chooses the format: "
                             + ", ".join("." + x for x in FILE_FORMATS))
        if args.out is not None:
            raise UsageError("-o FILE writes one drawing; --out DIR writes the folder of files: give one of them")
        if os.path.lexists(args.output) and not args.force:
            raise UsageError(f"-o {args.output}: the file exists; pass --force to replace it")
        refuse_unread_fifo(args.output, "-o")
        return _flow(args, sess, spec, args.output.parent, [])
    out = default_out(args, "flow", sess.name)
    # An existing folder is checked before the games are played (a non-empty one is refused unless --force,
    # docs/results.md); a new one is made only when there is something to draw.
    opened = [open_folder(args, out)] if os.path.lexists(out) else []
    try:
        return _flow(args, sess, spec, out, opened)
    finally:
        for folder in opened:
            folder.close()


def open_folder(args: argparse.Namespace, out: Path) -> OutFolder:
    return open_out(out, args, "flow", flow_names("flow", sorted(graph_formats())), transcripts=False)[0]


def _flow(args: argparse.Namespace, sess, spec, out: Path, opened: list[OutFolder]) -> int:
    seed_drawn = args.seed is None
    if not args.json:
        print(f"{sess.name}: card flow of {args.n} game{'s' if args.n != 1 else ''}, seed {spec.seed}"
              + (" (drawn; pass --seed to repeat)" if seed_drawn else "") + f", players {' '.join(spec.lineup)}",
              file=sys.stderr)
    fb = new_flow(sess, spec)
    errors, limited = [], 0
    show = not (args.quiet or args.json) and args.n > 1 and sys.stderr.isatty()
    prog = None
    if show:
        prog = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), transient=True)
        prog.start()
        task = prog.add_task(sess.name, total=args.n)
    played = 0
    # Ctrl-C or SIGTERM abandons the game being played; the games finished before it are drawn.
    with Stopper() as stopper:
        try:
            for r in range(args.n):
                stopper.may_raise = True
                rec = play_run(sess, spec, r)
                stopper.may_raise = False
                played += 1
                if rec.end_reason == "error":
                    errors.append(rec)
                else:
                    limited += rec.end_reason != "normal"
                    fb.add_run(events_of(rec), seed=rec.game_seed)
                if prog is not None:
                    prog.advance(task)
                if stopper.stopped():
                    break
        except Stopped:
            pass
        finally:
            stopper.may_raise = False
            if prog is not None:
                prog.stop()
    if stopper.signum is not None:
        name = signal.Signals(stopper.signum).name
        if fb.runs == 0:
            print(f"interrupted by {name}: no game was finished; nothing written", file=sys.stderr)
            return 128 + stopper.signum
        print(f"interrupted by {name}: drawing the {played} of {args.n} games finished", file=sys.stderr)
    if fb.runs == 0:
        raise RecycleError(f"error: no flow to draw: every game ended with an error; first: {first_error_text(errors)}")
    if errors:
        print(f"note: left out {len(errors)} game{'s' if len(errors) != 1 else ''} that ended with an error; "
              f"first: {first_error_text(errors)}", file=sys.stderr)

    if args.output is not None:
        files = [write_flow_output(fb, args.output, args.min_run_share, legend=not args.no_legend,
                                   edge_labels=args.edge_labels,
                                   **({} if args.max_nodes is None else {"max_nodes": args.max_nodes}))]
    else:
        # Graphviz writes by path: into a private staging folder inside `out`, then each file is moved in
        # (atomic rename through the folder's descriptor, never onto a symlink).
        if not opened:
            opened.append(open_folder(args, out))
        folder = opened[0]
        staging = Path(tempfile.mkdtemp(prefix=STAGING, dir=out))
        try:
            try:
                made = write_flow_files(fb, staging / "flow", args.formats, min_run_share=args.min_run_share,
                                        legend=not args.no_legend, edge_labels=args.edge_labels,
                                        **({} if args.max_nodes is None else {"max_nodes": args.max_nodes}))
            except Unwritten as e:  # a file may be half written: none is kept
                raise RecycleError(f"error: cannot write {out}/flow.*: {e.reason}") from None
            except RecycleError:  # Graphviz failed: what was written before (flow.dot, flow.json) is kept
                for name in sorted(os.listdir(staging)):
                    folder.publish(staging / name, name)
                raise
            for p in made:
                folder.publish(p, p.name)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        files = [out / p.name for p in made]
    G = fb.graph(args.min_run_share)
    info = fb.information(declared=args.declared, min_run_share=args.min_run_share)
    doc = {
        "categories": info["categories"],
        "nodes": G.number_of_nodes(),
        "edges": G.number_of_edges(),
        "files": [str(p) for p in files],
        "game": sess.name,
        "seed": spec.seed,
        "games": played,
        "runs": fb.runs,
        "excluded_errors": len(errors),
        "limited": limited,
        "seeds": G.graph["seeds"],
        "information": info,
    }
    code = 0 if stopper.signum is None else 128 + stopper.signum
    if args.json:
        print(json.dumps(doc, indent=2))
        return code
    print(f"{G.graph['title']}: {doc['nodes']} locations, {doc['edges']} flows"
          + (f" ({len(errors)} game{'s' if len(errors) != 1 else ''} with errors left out)" if errors else ""))
    print(categories_line(info))
    print("wrote " + ", ".join(str(p) for p in files))
    return code


def categories_line(info: dict) -> str:
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
