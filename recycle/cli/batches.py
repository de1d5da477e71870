"""What the commands that play batches share: opening the game, the output folder (refused when not empty,
--force, --resume), and playing the batch into it game by game with the progress bar, stopping cleanly on
SIGINT/SIGTERM or a dying worker (docs/results.md)."""
from __future__ import annotations

import argparse
import json
import signal
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterable
from contextlib import ExitStack
from pathlib import Path

import attrs
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from ..errors import UsageError
from ..lang import library
from ..run.batch import BatchSpec, WorkerDied, new_seed, parse_lineup
from ..run.output import TEMP_MARK, OutFolder, OutputError
from ..run.raybatch import Backend, iter_runs, require_ray
from ..run.records import RunRecord
from ..run.session import GameSession
from ..run.tables import RECORDS, STATE, TRANSCRIPT_RE, BatchTables, read_state
from ..run.timing import warn_if_long
from .memory import current_ceiling_mb


def batch_backend(args: argparse.Namespace) -> Backend | None:
    """The Ray backend of --backend ray [--address] (checked: Ray must be installed), None for local processes."""
    kind, address = getattr(args, "backend", "local"), getattr(args, "address", None)
    if address is not None and kind != "ray":
        raise UsageError("--address joins a Ray cluster: give it with --backend ray")
    if kind != "ray":
        return None
    require_ray()
    return Backend("ray", address, current_ceiling_mb())


def open_batch(args: argparse.Namespace) -> tuple[GameSession, BatchSpec]:
    """Resolve the game, open a session (load errors are the user's) and build the batch spec."""
    batch_backend(args)  # a missing extra is said before anything is read or played
    path = library.resolve(args.game)
    params = dict(args.param)
    sess = GameSession.open(path, params, args.dialect)
    lineup = parse_lineup(args.players, sess.n_players)
    seed = args.seed if args.seed is not None else new_seed()
    decisions = args.max_decisions if args.max_decisions is not None else sess.prog.max_decisions
    steps = args.max_steps if args.max_steps is not None else sess.prog.max_steps
    spec = BatchSpec(str(path), params, tuple(lineup), seed, decisions, steps, args.transcripts if args.out else "none",
                     ai_budget=getattr(args, "ai_budget", None), move_time=getattr(args, "move_time", None),
                     max_options=getattr(args, "max_options", None), max_step_time=getattr(args, "max_step_time", None))
    return sess, spec


# ---------------------------------------------------------------- game-by-game output, interrupts, resume

RUN_FILES = ("games.csv", "decisions.csv", "results.csv", "summary.json", STATE, RECORDS)


def out_folder(text: str) -> Path:
    """An argparse type for --out: a folder name, never empty (`''` would mean the current folder)."""
    if text == "":
        raise argparse.ArgumentTypeError("give a folder name, not '' (use --out . for the current folder)")
    return Path(text)


def add_output_options(p: argparse.ArgumentParser, command: str) -> None:
    """--resume and --force, and an --out that refuses ''."""
    for action in p._actions:
        if action.dest == "out":
            action.type = out_folder
            action.help = ("write games.csv, decisions.csv, results.csv, transcripts/ and summary.json here, game by "
                           "game as they finish; a new or empty folder (see --force and --resume)")
    own = ("games.csv, decisions.csv, results.csv, summary.json, transcripts/run-*.jsonl" if command == "run" else
           "those of `recycle run`, the statistics files, flow diagrams and plots")
    p.add_argument("--resume", action="store_true",
                   help=f"finish an interrupted `recycle {command}` in the --out folder: the games it kept stay, the "
                        "others are played; the files end byte-identical to an uninterrupted run (the game file, "
                        "--param, --players, -n and limits must be the same; the seed is the one recorded)")
    p.add_argument("--force", action="store_true",
                   help=f"write into a --out folder that is not empty: the files this command writes there ({own})"
                        " are removed first, any other file is left alone; symlinks are removed, never followed")


class Stopped(BaseException):
    """SIGINT or SIGTERM while a game was being played by this process (never caught by the engine)."""


class Stopper:
    """SIGINT and SIGTERM during a batch: remember the signal so that the batch stops between games.

    With one job the game being played is abandoned at once (`may_raise`); writing files never is.
    Stoppers nest (`recycle stats --heuristics` holds one around its three batches): a signal seen
    by the inner one is passed to the outer one, and an inner one entered after a signal stops at once.
    """

    def __init__(self) -> None:
        self.signum: int | None = None
        self.may_raise = False
        self._old: dict = {}
        self._outer: Stopper | None = None

    def __enter__(self) -> Stopper:
        if threading.current_thread() is threading.main_thread():
            for s in (signal.SIGINT, signal.SIGTERM):
                self._old[s] = signal.signal(s, self._handle)
                outer = getattr(self._old[s], "__self__", None)
                if isinstance(outer, Stopper):
                    self._outer = outer
        if self._outer is not None and self._outer.signum is not None:
            self.signum = self._outer.signum
        return self

    def _handle(self, signum, _frame) -> None:
        if self.signum is None:
            self.signum = signum
        if self._outer is not None and self._outer.signum is None:
            self._outer.signum = signum
        if self.may_raise:
            self.may_raise = False
            raise Stopped

    def stopped(self) -> bool:
        return self.signum is not None

    def __exit__(self, *exc) -> None:
        for s, h in self._old.items():
            signal.signal(s, h)


@attrs.define
class Outcome:
    """How a batch ended: how many games were kept and their records (in run order; none when the batch
    keeps no record), the time spent, and why it stopped early."""

    records: list
    elapsed: float
    signum: int | None = None
    died: str | None = None
    games: int = 0

    @property
    def complete(self) -> bool:
        return self.signum is None and self.died is None

    def exit_code(self) -> int:
        if self.signum is not None:
            return 128 + self.signum
        return 0 if self.died is None else 1

    def stop_line(self, out: Path | None, asked: int) -> str:
        """One line: why the batch stopped, what was kept and how to finish it."""
        why = (f"interrupted by {signal.Signals(self.signum).name}" if self.signum is not None
               else (self.died or "stopped").removeprefix("error: "))
        if out is None:
            return f"{why}: {self.games} of {asked} games were played; nothing written (no --out)"
        return (f"{why}: kept {self.games} of {asked} games in {out}/; "
                "to finish them, run the same command again with --resume")


def clear_own_files(folder: OutFolder, own: Iterable[str], transcripts: bool = True) -> int:
    """--force: remove the files this command writes (and its temporary files), never anything else;
    with `transcripts`, also its transcripts/run-*.jsonl."""
    own = set(own)
    removed = 0
    for name in folder.names():
        if name.startswith(".") and TEMP_MARK in name:
            removed += folder.remove_temporary(name)
        elif name in own:
            st = folder.lstat(name)
            if st is not None and stat.S_ISDIR(st.st_mode):
                raise OutputError(f"{folder.path / name} is a folder: remove it yourself (--force removes files only)")
            removed += folder.remove(name)
    st = folder.lstat("transcripts") if transcripts else None
    if st is not None and stat.S_ISDIR(st.st_mode):
        with folder.subfolder("transcripts", create=False) as tdir:
            for name in tdir.names():
                if TRANSCRIPT_RE.fullmatch(name) or (name.startswith(".") and TEMP_MARK in name):
                    removed += tdir.remove(name)
        folder.remove_dir_if_empty("transcripts")
    elif st is not None:  # a file or a symlink named transcripts: the entry itself goes, never its target
        removed += folder.remove("transcripts")
    return removed


def open_out(out: Path, args: argparse.Namespace, command: str, own: Iterable[str],
             clear: Callable[[OutFolder], int] | None = None,
             transcripts: bool = True) -> tuple[OutFolder, dict | None]:
    """The --out folder of a batch, checked: (folder, resume state or None).

    A folder that is not empty is refused unless --force (then this command's files go first: `own`,
    and what `clear` removes) or --resume (then it must hold an interrupted run of this command).
    A command without --resume (`recycle flow`) has no args.resume."""
    resumable = hasattr(args, "resume")
    if not resumable:
        args = argparse.Namespace(**{**vars(args), "resume": False})
    if args.resume and args.force:
        raise UsageError("--resume and --force: choose one (--force starts again, --resume continues)")
    if args.resume and not out.is_dir():
        raise UsageError(f"--resume: {out} is not a folder holding an interrupted run")
    folder = OutFolder.open(out)
    try:
        state = read_state(folder)
        if args.resume:
            if state is None:
                raise UsageError(f"--resume: nothing to resume in {out}/ (no interrupted run of recycle there)")
            if state.get("identity", {}).get("command") != command:
                raise UsageError(f"--resume: {out}/ holds an interrupted `recycle {state['identity'].get('command')}`,"
                                 f" not `recycle {command}`")
            return folder, state
        names = folder.names()
        if names and not args.force:
            shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
            what = "an interrupted run" if state is not None else "files"
            raise UsageError(f"--out {out} is not empty ({what}: {shown}); pass --force to replace the files of "
                             f"`recycle {command}` there (others are kept), "
                             + ("--resume to finish an interrupted run, " if resumable else "")
                             + "or choose another folder")
        if names:
            k = clear_own_files(folder, own, transcripts) + (clear(folder) if clear is not None else 0)
            if k:
                print(f"note: --force: removed {k} file{'s' if k != 1 else ''} of an earlier run from {out}/"
                      + (" (other files kept)" if folder.names() else ""), file=sys.stderr)
        return folder, None
    except BaseException:
        folder.close()
        raise


def run_identity(command: str, sess: GameSession, spec: BatchSpec, n: int) -> dict:
    """What must be the same for --resume to continue a run: everything the kept files depend on."""
    ident = {"command": command, "game": sess.name, "game_sha256": sess.sha256, "params": spec.params,
             "lineup": list(spec.lineup), "seed": spec.seed, "games": n, "max_decisions": spec.max_decisions,
             "max_idle_steps": spec.max_idle_steps, "transcripts": spec.transcript_level, "rotate": spec.rotate,
             "ai_budget": spec.ai_budget, "estimates": spec.estimates, "max_options": spec.max_options}
    if spec.max_step_time is not None:  # (only then: the runs of earlier versions resume as they did)
        ident["max_step_time"] = spec.max_step_time
    return json.loads(json.dumps(ident))


WHAT = {"game_sha256": "game file (its SHA-256 differs)", "params": "--param", "lineup": "--players",
        "seed": "--seed", "games": "-n", "max_decisions": "--max-decisions", "max_idle_steps": "--max-steps",
        "max_options": "--max-options", "max_step_time": "--max-step-time",
        "transcripts": "--transcripts", "rotate": "--rotate", "ai_budget": "--ai-budget", "estimates": "player kinds",
        "ai": "--ai",
        "game": "game", "shard": "--shard"}


def check_identity(out: Path, state: dict, ident: dict) -> None:
    old = state.get("identity", {})
    # a key written only when its option is given (max_step_time) is compared when either run has it
    optional = {k: None for k in ("max_step_time",) if k in old and k not in ident}
    for key, value in {**ident, **optional}.items():
        if old.get(key) != value:
            shown = "" if key == "game_sha256" else f": {old.get(key)!r} there, {value!r} here"
            raise UsageError(f"--resume: the interrupted run in {out}/ was made with a different {WHAT.get(key, key)}"
                             f"{shown}; give the same options, or start again with --force")


def recorded_seed(out: Path | None) -> int | None:
    """The seed of the interrupted run in `out` (None when there is none): --resume without --seed uses it,
    so that a run whose seed was drawn can be finished."""
    if out is None or not out.is_dir():
        return None
    with OutFolder.open(out, create=False) as folder:
        state = read_state(folder)
    seed = state["identity"].get("seed") if state is not None else None
    return seed if isinstance(seed, int) else None


def stream_batch(sess: GameSession, spec: BatchSpec, args: argparse.Namespace, kept: list[RunRecord] | int,
                 tables: BatchTables | None, on_record: Callable[[RunRecord], None] | None = None,
                 label: str | None = None, runs: range | None = None) -> Outcome:
    """Play the runs after `kept` up to args.n, adding each finished game to `tables` in run order and
    committing them from time to time; SIGINT/SIGTERM or a dying worker end it early, keeping every
    game finished in order.  `on_record` sees each record before it is written.  `runs`: the runs of
    this batch (a shard's block), all of 0..args.n-1 by default.

    `kept`: the records of the games an interrupted batch kept, which outcome.records continues; or
    only their number, for a batch that keeps no record (`recycle run`, whose summary `on_record`
    tallies): then each record is dropped once seen and written, and memory does not grow with the batch."""
    runs = range(args.n) if runs is None else runs
    keep = not isinstance(kept, int)
    records = [] if isinstance(kept, int) else list(kept)
    n_kept = kept if isinstance(kept, int) else len(kept)
    todo = range(runs.start + n_kept, runs.stop)
    base = tables.elapsed if tables is not None else 0.0
    warn_if_long(sess, {tuple(spec.lineup): len(todo)}, spec.ai_budget, spec.move_time, args.jobs)
    t0 = time.perf_counter()
    outcome = Outcome(records, base, games=n_kept)
    show = not (args.quiet or args.json) and len(todo) > 0 and sys.stderr.isatty()
    with Stopper() as stopper, ExitStack() as stack:
        advance: Callable[[], None] = lambda: None  # noqa: E731
        if show:
            prog = stack.enter_context(Progress(TextColumn("[bold]{task.description}"), BarColumn(),
                                                MofNCompleteColumn(), TimeRemainingColumn(), transient=True))
            task = prog.add_task(label or sess.name, total=len(runs), completed=n_kept)
            advance = lambda: prog.advance(task, 1)  # noqa: E731
        backend = batch_backend(args)
        it = iter_runs(spec, todo, args.jobs, sess, stop=stopper.stopped, backend=backend)
        try:
            while True:
                stopper.may_raise = args.jobs == 1 and backend is None  # the game is played here
                try:
                    rec = next(it)
                except StopIteration:
                    break
                finally:
                    stopper.may_raise = False
                if on_record is not None:
                    on_record(rec)
                if keep:
                    records.append(rec)
                outcome.games += 1
                if tables is not None:
                    tables.add(rec)
                    rec.transcript = None  # on disk now
                    if tables.due():
                        tables.commit(base + time.perf_counter() - t0)
                advance()
        except Stopped:
            pass
        except WorkerDied as e:
            outcome.died = str(e)
        finally:
            stopper.may_raise = False
            it.close()
        outcome.signum = stopper.signum
        outcome.elapsed = base + time.perf_counter() - t0
        if tables is not None:
            tables.commit(outcome.elapsed)
    return outcome
