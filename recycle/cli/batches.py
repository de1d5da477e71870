"""What the commands that play batches share: opening the game, the progress bar, the output folder."""
from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from ..errors import UsageError
from ..lang import library
from ..run.batch import BatchSpec, new_seed, parse_lineup, run_batch
from ..run.records import RunRecord
from ..run.session import GameSession
from ..run.timing import warn_if_long


def open_batch(args: argparse.Namespace) -> tuple[GameSession, BatchSpec]:
    """Resolve the game, open a session (load errors are the user's) and build the batch spec."""
    path = library.resolve(args.game)
    params = dict(args.param)
    sess = GameSession.open(path, params)
    lineup = parse_lineup(args.players, sess.n_players)
    seed = args.seed if args.seed is not None else new_seed()
    decisions = args.max_decisions if args.max_decisions is not None else sess.prog.max_decisions
    steps = args.max_steps if args.max_steps is not None else sess.prog.max_steps
    spec = BatchSpec(str(path), params, tuple(lineup), seed, decisions, steps, args.transcripts if args.out else "none",
                     ai_budget=getattr(args, "ai_budget", None), move_time=getattr(args, "move_time", None))
    return sess, spec


def play_batch(sess: GameSession, spec: BatchSpec, args: argparse.Namespace,
               label: str | None = None) -> tuple[list[RunRecord], float]:
    """Run the batch with a progress bar (unless quiet or JSON); returns (records, elapsed seconds)."""
    show = not (args.quiet or args.json) and args.n > 0 and sys.stderr.isatty()
    warn_if_long(sess, [spec.lineup] * args.n, spec.ai_budget, spec.move_time, args.jobs)
    t0 = time.perf_counter()
    if show:
        with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), transient=True) as prog:
            task = prog.add_task(label or sess.name, total=args.n)
            records = run_batch(spec, args.n, args.jobs, lambda k: prog.advance(task, k), session=sess)
    else:
        records = run_batch(spec, args.n, args.jobs, session=sess)
    return records, time.perf_counter() - t0


def note_replaced(out: Path, names: Iterable[str]) -> None:
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


def make_out(out: Path) -> None:
    """Create the --out folder before the batch, so that a bad folder does not cost the user the whole run."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out}: exists and is not a directory")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UsageError(f"--out {out}: cannot create the folder ({e.strerror or e})") from None
