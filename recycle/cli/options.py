"""Command-line option types and the options shared by several commands."""
from __future__ import annotations

import argparse
import errno
import os
import stat
import sys
from pathlib import Path

from ..analysis.flow import CATEGORY_NAMES
from ..engine.watchdog import DEFAULT_MAX_STEP_TIME, check_seconds
from ..errors import UsageError, cut_text
from ..lang.xam import DIALECTS

SEED_HELP = ("batch seed S (default: drawn from the OS and printed); run i plays with game seed "
             "derive(S, 'game', i) and seat s draws from derive(game_seed, 'seat', s), so results do not "
             "depend on --jobs")


def param(text: str) -> tuple[str, str]:
    """An argparse type: NAME=VALUE, a declared variable of the game and its value."""
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    name, value = text.split("=", 1)
    name = name.strip().lstrip("'")
    if not name.isalpha() or not name.isupper():
        raise argparse.ArgumentTypeError("parameter names are uppercase declared variables (e.g. NUMP=3), "
                                         f"got {name!r}")
    return name, value.strip()


def whole(minimum: int, what: str, maximum: int | None = None, limit: str = ""):
    """An argparse type: a whole number of at least `minimum` (and at most `maximum`, the limit named `limit`)."""

    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            if text.strip().isdigit():  # more digits than Python turns into a number (sys.get_int_max_str_digits)
                raise argparse.ArgumentTypeError(f"{what}: {cut_text(text.strip(), 20)} has {len(text.strip()):,} "
                                                 "digits, more than a number here may have") from None
            raise argparse.ArgumentTypeError(f"{what}: expected a whole number, got {cut_text(text, 60)!r}") from None
        if v < minimum:
            raise argparse.ArgumentTypeError(f"{what}: expected a number of at least {minimum}, got {v}")
        if maximum is not None and v > maximum:
            raise argparse.ArgumentTypeError(f"{what}: {v} is more than {maximum:,}, the limit ({limit}, "
                                             "docs/limits.md)")
        return v

    return parse


positive = whole(1, "a count")

# The memory ceiling of each process of a command that plays games, in MB (docs/limits.md).
DEFAULT_MAX_MEMORY_MB = 4096


def cpu_count() -> int:
    """The CPUs this process may run on (its affinity where the OS tells it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def jobs(text: str) -> int:
    """An argparse type: --jobs N, at least 1 and capped at the CPU count (with a note saying so)."""
    n = positive(text)
    cpus = cpu_count()
    if n > cpus:
        print(f"note: --jobs {n} capped at {cpus}, the number of CPUs (more workers would only compete for them)",
              file=sys.stderr)
        return cpus
    return n
count = whole(0, "a count")
seed_number = whole(0, "a seed")
# The games of one batch (-n of run, stats and flow): far more than any batch plays (a thousand games a second
# would take thirty years), and within what a range of runs can count (10**23 games raised OverflowError).
MAX_BATCH_GAMES = 10**12
batch_games = whole(0, "a count", MAX_BATCH_GAMES, "MAX_BATCH_GAMES")
flow_games = whole(1, "a count", MAX_BATCH_GAMES, "MAX_BATCH_GAMES")


def add_game_argument(p: argparse.ArgumentParser) -> None:
    """GAME: a path or a shipped game's name, and how to read it (--dialect)."""
    p.add_argument("game", metavar="GAME", help="a game file, or the name of a shipped game (see `recycle games`)")
    add_dialect_option(p)


DIALECT_HELP = ("how to read the game file: auto (the default) reads the modern language and switches to the "
                "older CardStockXam dialect only when the file holds a form that exists only there; xam reads "
                "CardStockXam; modern never switches (docs/language.md, \"Older dialect (CardStockXam)\")")


def add_dialect_option(p: argparse.ArgumentParser, default: str | None = "auto", more: str = "") -> None:
    """--dialect auto|modern|xam, for every command that reads a game file."""
    p.add_argument("--dialect", choices=DIALECTS, default=default, help=DIALECT_HELP + more)


def add_param_option(p: argparse.ArgumentParser) -> None:
    """--param NAME=VALUE, repeatable."""
    p.add_argument("--param", action="append", type=param, default=[], metavar="NAME=VALUE",
                   help="override a declared value of the game (repeatable)")


def add_limit_options(p: argparse.ArgumentParser, per_game: bool = True) -> None:
    """--max-decisions and --max-steps."""
    p.add_argument("--max-decisions", type=positive,
                   help=f"decision limit{' per game' if per_game else ''} (default: the game's (limits …), else 2000)")
    p.add_argument("--max-steps", type=positive,
                   help="step limit between decisions (default: the game's (limits …), else 10000)")
    p.add_argument("--max-step-time", type=step_seconds, metavar="SECONDS",
                   help=f"CPU time one step may take before the game stops with a run-time error of class limit "
                        f"(a loop that never ends; default {DEFAULT_MAX_STEP_TIME:g}, at most a day)")


def step_seconds(text: str) -> float:
    """An argparse type: --max-step-time SECONDS, more than 0 and at most a day (engine.watchdog)."""
    try:
        return check_seconds(text, "a step's CPU time")
    except UsageError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_memory_option(p: argparse.ArgumentParser) -> None:
    """--max-memory MB: the address-space ceiling of the command and of each worker (0: none)."""
    p.add_argument("--max-memory", type=count, default=DEFAULT_MAX_MEMORY_MB, metavar="MB",
                   help=f"memory ceiling of this process and of each worker, in MB (default {DEFAULT_MAX_MEMORY_MB}; "
                        "0 for none)")


def add_backend_options(p: argparse.ArgumentParser) -> None:
    """--backend local|ray and --address (docs/scaling.md)."""
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="where the games are played: local worker processes (default), or a Ray cluster "
                        "(the extra [ray]; results identical to --jobs 1)")
    p.add_argument("--address", metavar="ADDR",
                   help="with --backend ray: join the Ray cluster at ADDR (e.g. 10.0.0.1:6379, or auto) instead "
                        "of starting a local one with --jobs CPUs")


def shard(text: str) -> tuple[int, int]:
    """An argparse type: I/K with 0 <= I < K."""
    i, sep, k = text.partition("/")
    if not sep or not i.strip().isdigit() or not k.strip().isdigit() or not 0 <= int(i) < int(k):
        raise argparse.ArgumentTypeError(f"{text!r}: give I/K with 0 <= I < K, e.g. 0/4")
    return int(i), int(k)


def add_batch_options(p: argparse.ArgumentParser, default_n: int) -> None:
    """The options of every command that plays a batch: run, stats."""
    add_game_argument(p)
    p.add_argument("-n", "--games", dest="n", type=batch_games, default=default_n,
                   help=f"number of games (default {default_n})")
    p.add_argument("--seed", type=seed_number, help=SEED_HELP)
    p.add_argument("--players", help="one kind per seat, e.g. random,random or RR, or a Python class "
                                     "module.path:ClassName, e.g. R,mybots:Greedy (default: all random)")
    add_param_option(p)
    p.add_argument("--jobs", type=jobs, default=1,
                   help="worker processes, at most the number of CPUs (results identical to --jobs 1)")
    add_backend_options(p)
    add_limit_options(p)
    p.add_argument("--max-options", type=positive, metavar="N",
                   help="option limit of one decision (default: the game's (limits …), else 100,000)")
    add_memory_option(p)
    p.add_argument("--out", type=Path,
                   help="write games.csv, decisions.csv, results.csv, transcripts/ and summary.json here")
    p.add_argument("--transcripts", choices=("none", "decisions", "full"), default="decisions",
                   help="transcript level written with --out (default decisions)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")



def formats(allowed, what: str):
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


def graph_formats() -> set[str]:
    return set(GRAPH_FORMATS)


def share(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {text!r}") from None
    if not 0.0 <= v <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {v}")
    return v


def declared_categories(text: str) -> list[str]:
    known = {c.lower(): c for c in (*CATEGORY_NAMES, "Deduction")}
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


MAX_MOVE_TIME = 86_400.0  # a day per decision: a larger limit (1e308) is a search that never stops


def seconds(text: str) -> float:
    """An argparse type: a time in seconds, more than 0 and at most MAX_MOVE_TIME."""
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not v > 0 or v != v or v == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number of seconds more than 0, got {text}")
    if v > MAX_MOVE_TIME:
        raise argparse.ArgumentTypeError(f"{text} seconds is more than {MAX_MOVE_TIME:,.0f}, a day, the limit of "
                                         "one decision (MAX_MOVE_TIME, docs/limits.md)")
    return v


BUDGET_HELP = ("budget of the searching players: playouts per option for F (default 10), iterations per "
               "decision for M and P (default 200)")
MOVE_TIME_HELP = ("time limit per decision of the searching players, in seconds (e.g. 0.1): a search stops "
                  "there and plays its best move so far; with no --ai-budget the budget is unbounded. "
                  "Timed games depend on the machine's speed: they are not reproducible from the seed")


def add_ai_options(p: argparse.ArgumentParser, budget: bool = True) -> None:
    """--ai-budget (unless the command has its own) and --move-time, for the commands that seat AI players."""
    if budget:
        p.add_argument("--ai-budget", type=positive, metavar="N", help=BUDGET_HELP)
    p.add_argument("--move-time", type=seconds, metavar="SECONDS", help=MOVE_TIME_HELP)


# Write ends of FIFOs opened by refuse_unread_fifo, held until the process ends: closing one would tell the
# reader that the output ended before it was written.
_HELD_FIFOS: list[int] = []


def refuse_unread_fifo(path: Path, flag: str) -> None:
    """Refuse an output file that is a FIFO no process reads: writing to it would wait forever.

    A FIFO with a reader (`-o >(gzip > page.gz)`, `-o /dev/stdout | less`) is a legitimate output and
    is kept open here, so that the reader waits for the file's text instead of seeing its end."""
    try:
        if not stat.S_ISFIFO(os.stat(path).st_mode):
            return
        _HELD_FIFOS.append(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
    except OSError as e:
        if e.errno == errno.ENXIO:  # a FIFO whose other end no process has open
            raise UsageError(f"{flag} {path}: a FIFO that no process reads; writing to it would wait forever") \
                from None
        # any other refusal comes, worded by the system, when the file is written
