"""A CPU-time limit on one engine step: no rule that loops for ever inside one item can hang recycle.

The step and decision limits count items; a loop *inside* one item (nested `repeat`s each under
MAX_REPEAT, `all` or `sum` over long ranges) is bounded only by time.  Timing each step in the
engine would cost every decision a clock read, so the timing is done from outside instead: a
daemon thread per process wakes every POLL seconds, looks at every thread's Python stack
(`sys._current_frames`), and for each finds the outermost frame of a watched function (an engine
step: `Program.run`, registered by the engine with `watch`; also the walks a person's option is built
by, `players.stepwise`, which run the rules outside `Program.run`).  It remembers that frame object and
the thread's CPU clock when it first saw it; if the same frame is still running after more than
the limit of that thread's CPU time, it raises StepTimeExceeded in that thread
(`PyThreadState_SetAsyncExc`), which `Program.run` turns into the game's run-time error of class
`limit` (`engine.play` does the same for one raised in a player's option building).  The hot path
does no work at all for it: the cost is one stack walk per thread every POLL seconds, and one check
of a flag (`ensure`) that this process has its watchdog, wherever a process can start playing: a new
game, a state unpickled (a worker handed a state), a scenario, and a forked child of a process that
has one (threads do not survive `fork`: the child starts its own at once).

CPU time, not wall time: a person thinking, a slow disk or a loaded machine never trips it.  The
thread clocks are Linux's (a thread's CPU clock from its kernel id, so a thread that has just
ended gives an error, never a crash); elsewhere the process's CPU time stands in for it, which
counts every thread of the process and can only end a busy step sooner.

The same look bounds the undo log of the step's state (`st.log`: every change made while options are built or
an atomic block is tried, kept to be undone): past MAX_LOG_ENTRIES it raises LogLimitExceeded, a kind of
StepTimeExceeded with its own message, so a runaway that logs its changes ends within a look of passing the
bound instead of filling memory until the time limit; the hot path counts nothing for it either.  An
exception that lands in a gc callback or a `__del__` is lost there: a step that has run on for more than
POLL seconds of CPU since its exception was raised gets it again at the next look.

A step that finishes between the last look and the raise would receive the exception after it
left the step.  The watchdog looks again just before raising and just after (taking the exception
back while it is still pending), so that window is a few microseconds once in a limit's worth of CPU
time.  One that still lands outside the step is the game's limit error all the same where games are
played (`engine.play.play_game`, a searching player's playout, `GameState.apply`, the adapters'
`apply`); landing in a searching player's own code after one of its simulated steps, it ends only that
search (`players.montecarlo.SearchPlayer._searched`); landing after a batch's game was played, it makes
`run.batch.play_run` play that game again; anywhere else in a command it is one line (`cli.main`).
"""
from __future__ import annotations

import contextlib
import ctypes
import math
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from types import CodeType, FrameType

from ..errors import UsageError

# The default limit, in CPU seconds of one step.  The largest step of the corpus and the shipped
# games takes well under a second (docs/limits.md); a step of a minute is a loop that never ends.
DEFAULT_MAX_STEP_TIME = 60.0
# The largest limit accepted (a day): a larger one is no limit, and says so by being refused.
MAX_STEP_TIME = 86_400.0
# How often the watchdog looks, in wall seconds; a runaway step is stopped within this after its limit.
POLL = 0.25

MESSAGE = ("the rules ran for more than {limit:g} s of CPU time without reaching a decision (a loop that "
           "never ends?); raise the limit with --max-step-time SECONDS (max_step_time= in the Python API) "
           "or see docs/limits.md")

# The most changes one step may keep in its state's undo log (docs/limits.md).  While options are built and
# inside an atomic block every change is logged, to be undone: rules that loop for ever there grew the log by
# some 3 million entries (430 MB) per CPU second until the step-time limit, 25 GB at its 60 s default.  The
# watchdog reads the log's length when it looks at the step, so the hot path counts nothing.  The longest
# log of the corpus and the shipped games (atomic blocks enumerated and sampled) held 272 entries, a
# Rummykruss turn; a million take about 150 MB.
MAX_LOG_ENTRIES = 1_000_000
LOG_MESSAGE = ("the rules made more than {limit:,} changes in one step, each kept to be undone, while an option "
               "was built or an atomic block tried (a loop that never ends?); that is the most one step may keep "
               "(MAX_LOG_ENTRIES, fixed; docs/limits.md)")


class StepTimeExceeded(BaseException):
    """Raised in a thread whose engine step ran past its CPU-time limit.

    A BaseException, not an Exception: the engine's and players' `except Exception` blocks (a
    player that tries something and falls back, say) must not swallow it; `Program.run` is the
    one place that catches it, and makes it the game's error.
    """


class LogLimitExceeded(StepTimeExceeded):
    """Raised in a thread whose engine step kept more than MAX_LOG_ENTRIES changes in its undo log.

    A kind of StepTimeExceeded: wherever that is handled (a step, a playout, the race's landings), this is
    too, with its own message (`stop_message`).
    """


_codes: set[CodeType] = set()  # the code objects of the watched step functions
_default = DEFAULT_MAX_STEP_TIME  # the limit of threads without their own (set_max_step_time)
_per_thread: dict[int, float] = {}  # thread ident -> its own limit (step_time_limit)
_running = [False]  # this process's watchdog runs (cleared in a forked child: threads do not survive fork)
# In a forked child, the kernel id of the thread that forked (threading keeps its parent's id for it, until
# Python 3.12, unless multiprocessing set it again): ident -> native id, for that thread's CPU clock
_forked_native: dict[int, int] = {}
_lock = threading.Lock()


def watch(fn: Callable) -> None:
    """Time every call of fn (a function that runs one engine step) as a step."""
    _codes.add(fn.__code__)


def check_seconds(value: object, what: str = "max_step_time") -> float:
    """A limit as a float: positive, finite and at most MAX_STEP_TIME; UsageError otherwise."""
    try:
        v = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise UsageError(f"{what}: expected a number of seconds, got {value!r}") from None
    if not (v > 0 and math.isfinite(v)):
        raise UsageError(f"{what}: expected a number of seconds more than 0, got {value}")
    if v > MAX_STEP_TIME:
        raise UsageError(f"{what}: {value} seconds is more than {MAX_STEP_TIME:,.0f}, a day, the limit of "
                         "one step (MAX_STEP_TIME, docs/limits.md)")
    return v


def max_step_time() -> float:
    """The limit of the current thread's steps, in CPU seconds."""
    return _per_thread.get(threading.get_ident(), _default)


def set_max_step_time(seconds: float) -> float:
    """Set the limit of every thread without its own (the command line's `--max-step-time`); the old one."""
    global _default
    old, _default = _default, check_seconds(seconds)
    return old


@contextlib.contextmanager
def step_time_limit(seconds: float | None) -> Iterator[None]:
    """The current thread's steps are limited to `seconds` inside the block (None: the process's limit)."""
    if seconds is None:
        yield
        return
    me = threading.get_ident()
    v = check_seconds(seconds)
    old = _per_thread.get(me)
    _per_thread[me] = v
    try:
        yield
    finally:
        if old is None:
            _per_thread.pop(me, None)
        else:
            _per_thread[me] = old


def message(limit: float) -> str:
    return MESSAGE.format(limit=limit)


def log_message() -> str:
    return LOG_MESSAGE.format(limit=MAX_LOG_ENTRIES)


def stop_message(e: StepTimeExceeded | None = None) -> str:
    """The game's error message for the watchdog's exception e (None: the step-time limit's)."""
    return log_message() if isinstance(e, LogLimitExceeded) else message(max_step_time())


def stopped(error) -> bool:
    """Is this run-time error (a state's `error`) the watchdog's: a step stopped at its CPU-time limit or its
    undo log's bound?"""
    return error is not None and error.cls == "limit" and error.message.startswith(_HEADS)


_HEADS = (MESSAGE[: MESSAGE.index("{")], LOG_MESSAGE[: LOG_MESSAGE.index("{")])


def ensure() -> None:
    """Start this process's watchdog unless it runs (called once per game, never per decision)."""
    if _running[0]:
        return
    with _lock:
        if not _running[0]:
            threading.Thread(target=_loop, name="recycle-watchdog", daemon=True).start()
            _running[0] = True


def _forked() -> None:
    global _lock
    _forked_native.clear()
    _forked_native[threading.get_ident()] = threading.get_native_id()
    was = _running[0]
    _running[0] = False
    _lock = threading.Lock()  # another thread of the parent may have held it at the fork
    if was:
        # the child may go on with a state it inherited (a worker forked mid-game) without a new game of
        # its own: it gets its watchdog now, as its parent had one
        ensure()


def _thread_clock(native_id: int | None) -> Callable[[], float]:
    """The CPU clock of one thread (Linux), else of the whole process."""
    if native_id is not None and sys.platform.startswith("linux"):
        # Linux's clock id of a thread's CPU time (glibc's MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED)):
        # unlike pthread_getcpuclockid it needs no pthread handle, which may dangle once the thread ends
        clock = (~native_id << 3) | 6
        return lambda: time.clock_gettime(clock)
    return time.process_time


def _outermost_step(frame: FrameType | None) -> FrameType | None:
    step = None
    codes = _codes
    while frame is not None:
        if frame.f_code in codes:
            step = frame
        frame = frame.f_back
    return step


def _loop() -> None:
    me = threading.get_ident()
    # thread ident -> (step frame, CPU clock reading when first seen, reading when its exception was raised)
    seen: dict[int, _Seen] = {}
    while True:
        time.sleep(POLL)
        try:
            seen = _look(me, seen)
        except Exception:  # the watchdog must outlive any one look: a failed look is forgotten, the next starts afresh
            seen = {}


_Seen = tuple[FrameType, float, "float | None"]


def _look(me: int, seen: dict[int, _Seen]) -> dict[int, _Seen]:
    frames = sys._current_frames()
    natives = {t.ident: t.native_id for t in threading.enumerate()}
    for ident, native in _forked_native.items():
        natives[ident] = native
    now: dict[int, _Seen] = {}
    for tid, top in frames.items():
        if tid == me:
            continue
        step = _outermost_step(top)
        if step is None:
            continue
        try:
            cpu = _thread_clock(natives.get(tid))()
        except OSError:  # the thread ended since
            continue
        prev = seen.get(tid)
        fired: float | None = None
        if prev is None or prev[0] is not step:
            start = cpu
        else:
            _, start, fired = prev
        if fired is not None:
            if cpu - fired > POLL:
                # The step has run on for more CPU time than a look's interval since its exception was raised
                # (far more than its handler takes): the exception was lost where it landed (raised in a gc
                # callback or a __del__, it is only reported as unraisable, and a runaway that allocates runs
                # the collector thousands of times a second).  The next look raises it again.
                fired = None
        elif cpu - start > _per_thread.get(tid, _default):
            fired = cpu if _fire(tid, step) else None
        elif _logged(step) > MAX_LOG_ENTRIES:
            fired = cpu if _fire(tid, step, LogLimitExceeded) else None
        now[tid] = (step, start, fired)
    del frames
    return now


def _logged(step: FrameType) -> int:
    """The entries of the undo log of the state a step runs (`Program.run`'s `st`); 0 when it keeps none."""
    try:
        log = getattr(step.f_locals.get("st"), "log", None)
    except Exception:  # a look that failed here would be forgotten whole (_loop), the step's CPU clock with it
        return 0
    return len(log) if log.__class__ is list else 0


def _fire(tid: int, step: FrameType, exc: type[StepTimeExceeded] = StepTimeExceeded) -> bool:
    """Raise exc in thread tid if it still runs that step."""
    if _outermost_step(sys._current_frames().get(tid)) is not step:
        return False
    set_exc = ctypes.pythonapi.PyThreadState_SetAsyncExc
    n = set_exc(ctypes.c_ulong(tid), ctypes.py_object(exc))
    if n and _outermost_step(sys._current_frames().get(tid)) is not step:
        # the step ended between the look and the raise: take the exception back if it is still pending
        # (NULL clears it); one already delivered is handled where it lands (engine.play, run.batch)
        set_exc(ctypes.c_ulong(tid), None)
        return False
    return bool(n)


if hasattr(os, "register_at_fork"):  # (POSIX; without fork there is nothing to forget)
    os.register_at_fork(after_in_child=_forked)  # the child starts its own watchdog (see _forked)
