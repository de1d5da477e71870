"""Replaying a transcript exactly (flow-and-analytics §5.3): the recorded choices, checked one by one."""
from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from pathlib import Path

import attrs

from ..engine.watchdog import check_seconds, step_time_limit
from ..errors import Diagnostic, LoadError, RecycleError, UsageError, cut_text
from ..lang import SourceFile, library
from ..players.stepwise import rebuild
from .session import GameSession
from .transcript import TranscriptFile, printable

# The largest game file replay reads (docs/limits.md); a larger one is not a game.
MAX_GAME_BYTES = 16 * 1024 * 1024


class _ReplayScript:
    """The recorded decisions of a transcript, checked one by one as the replay reaches them (§5.3 step 3)."""

    def __init__(self, decisions: list, linenos: list, end_line: int, observe=None):
        self.decisions, self.linenos, self.end_line = decisions, linenos, end_line
        self.pos = 0
        self.observe = observe

    def next(self, prog, st) -> int:
        if self.observe is not None:
            self.observe(prog, st)  # the state as the decision is offered, before the recorded choice
        seat, n = prog.chooser(st), len(prog.options(st))
        if self.pos >= len(self.decisions):
            raise ReplayMismatch(self.end_line, f"the game to end after {len(self.decisions)} decisions",
                                 f"decision {len(self.decisions) + 1} for seat {seat} with {n} options")
        d = self.decisions[self.pos]
        # an option a person built step by step (players.stepwise): built again from its steps
        if "steps" in d and n == d["options"] - 1 and rebuild(prog, st, d["steps"]) is not None:
            n += 1
        if d["seat"] != seat or d["options"] != n:
            raise ReplayMismatch(self.linenos[self.pos], f"seat {d['seat']} with {d['options']} options",
                                 f"seat {seat} with {n} options")
        self.pos += 1
        return d["choice"]


class _SeatScript:
    """One seat's view of a shared script, reporting the seat's original lineup code."""

    def __init__(self, script: _ReplayScript, code: str):
        self.script, self.code = script, code

    def start(self, prog, seat, seed):
        pass

    def choose(self, prog, st) -> int:
        return self.script.next(prog, st)


def _cut(v, limit: int = 300) -> str:
    """A value for a message: printable and at most `limit` characters."""
    return cut_text(printable(v if isinstance(v, str) else str(v)), limit)


class ReplayMismatch(RecycleError):
    """A replayed game diverged from its transcript (§5.3)."""

    def __init__(self, line: int, expected, actual):
        super().__init__(f"replay diverged at transcript line {line}: expected {_cut(expected)}, got {_cut(actual)}")
        self.line, self.expected, self.actual = line, expected, actual


# Where a game's text is named in an error text: `DIR/NAME.gdl:LINE:COL`; replays compare the name only.
_PLACE = re.compile(r"(?:[^\s:]*[/\\])?([^\s/\\:]+\.(?:gdl|rcy)):(\d+):(\d+)")


def _unpathed(ev: dict) -> dict:
    """An event with the folders of the game file dropped from its error text (they depend on where it was run)."""
    err = ev.get("error")
    if ev.get("type") == "end" and isinstance(err, str):
        return {**ev, "error": _PLACE.sub(r"\1:\2:\3", err)}
    return ev


def _as_recorded(new: dict, old: dict) -> dict:
    """A regenerated event in the words of the transcript's version, for comparison: transcripts written
    before cards and cells were named as the game names them (docs/results.md, "Names in transcripts")
    have no `owner_name` in their set events and name things otherwise in their decisions' `text`;
    the rest of each event (seat, options, choice, cards, locations, values) is compared as it is."""
    if new.get("type") == "set" and "owner_name" in new and "owner_name" not in old:
        new = {k: v for k, v in new.items() if k != "owner_name"}
    elif new.get("type") == "decision" and "text" in old and new.get("text") != old["text"]:
        new = {**new, "text": old["text"]}
    return new


def _plain_relative(name: str) -> bool:
    """A path written in a header that stays inside the transcript's folder: relative, no `..`, no drive."""
    parts = name.split("/")
    return not (name.startswith("/") or "\\" in name or "\0" in name or ":" in name
                or any(part in ("", ".", "..") for part in parts))


def _game_beside(tf: TranscriptFile, head: dict) -> Path:
    """The game a header names: a file inside the transcript's folder, else a shipped game of that name.

    The header never chooses a file elsewhere: no absolute path, no `..`, no symbolic link leading out.
    """
    name = head["file"]
    shown = _cut(name, 80)
    if not _plain_relative(name):
        raise UsageError(f"{tf.name}: the header names the game file {shown!r}, which is not a path inside the "
                         "transcript's folder; give the game with --game")
    try:
        folder = tf.path.parent.resolve()
        beside = folder / name
        if os.path.lexists(beside):
            real = beside.resolve()  # symbolic links followed, then checked
            if not real.is_relative_to(folder):
                raise UsageError(f"{tf.name}: the game file {shown} beside the transcript leads outside its folder; "
                                 "give the game with --game")
            return real
    except (OSError, RuntimeError) as e:  # a loop of symbolic links, an unreadable folder
        raise UsageError(f"{tf.name}: cannot look for the game file {shown}: {_cut(e, 80)}; "
                         "give it with --game") from None
    game = head["game"]
    lib = library.shipped()
    if game in lib:  # a name, never a path
        return lib[game]
    raise UsageError(f"the game file {shown} was not found next to the transcript; give it with --game")


def _named(d: Diagnostic) -> Diagnostic:
    """A diagnostic naming its file by its name only (no folder: the same words from any folder)."""
    return attrs.evolve(d, span=attrs.evolve(d.span, file=Path(d.span.file).name))


def _read_game(path: Path, shown: str) -> bytes:
    """The bytes of a game file: a regular file (no FIFO, no device) of at most MAX_GAME_BYTES."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise UsageError(f"--game {shown}: no such game file") from None
    except OSError as e:
        raise UsageError(f"{shown}: cannot read the game file: {e.strerror or e}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise UsageError(f"{shown}: not a regular file, not a game file")
    with os.fdopen(fd, "rb") as fh:
        data = fh.read(MAX_GAME_BYTES + 1)
    if len(data) > MAX_GAME_BYTES:
        raise UsageError(f"{shown}: more than {MAX_GAME_BYTES} bytes, not a game file")
    return data


# What `recycle replay` advises when the game file changed since the transcript was written.
CHANGED_HINT = "use --force to replay anyway"


def _open_game(gp: Path, shown: str, head: dict, force: bool, warnings: list, dialect: str = "auto",
               changed_hint: str = CHANGED_HINT) -> GameSession:
    """The session of the transcript's game, its digest checked against the header before any line is read.

    A file whose bytes do not have the recorded digest may still be a variant (whose digest covers its
    bases): it is loaded quietly, and when it does not load it is not the game; its lines are never shown.
    """
    data = _read_game(gp, shown)
    same_bytes = hashlib.sha256(data).hexdigest() == head["sha256"]
    declares = (head.get("params") or {}).get("declares") or None
    try:
        sess = GameSession.from_source(SourceFile.from_bytes(data, gp, dialect), declares)
    except RecycleError as e:
        if same_bytes:  # the very file the transcript was written with: its own errors, files named by name
            if isinstance(e, LoadError):
                raise LoadError(map(_named, e.diagnostics), map(_named, e.warnings)) from None
            raise
        n = len(e.diagnostics)
        what = (f"it does not load ({n} error{'s' if n != 1 else ''})" if n
                else "it does not open with the header's parameters")
        raise UsageError(f"{shown}: not the game file the transcript was written with (its sha256 differs) "
                         f"and {what}") from None
    if sess.sha256 != head["sha256"]:
        msg = (f"{shown}: the game file changed since the transcript was written "
               f"(sha256 {sess.sha256[:12]}… != {head['sha256'][:12]}…)")
        if not force:
            raise UsageError(f"{msg}; {changed_hint}")
        warnings.append(msg)
    return sess


def _step_time(params: dict) -> float | None:
    """The step-time limit the game was played under, as its header records it (None: the default)."""
    t = params.get("max_step_time")
    if isinstance(t, (int, float)) and not isinstance(t, bool):
        try:
            check_seconds(t)
        except UsageError as e:
            raise UsageError(f"the transcript's header is damaged: {e}") from None
        return float(t)
    return None


def replay(path, game_path=None, verify: bool = True, force: bool = False, warn=print,
           observe=None, dialect: str | None = None, changed_hint: str = CHANGED_HINT) -> tuple[list[dict], list[str]]:
    """Replay a transcript exactly (§5.3); returns (regenerated full event lines, warnings).

    The game is `game_path`, else the header's file inside the transcript's folder, else the shipped
    game of the header's name; its digest is checked before any line after the header is read.
    It is read in `dialect`, else the one the header records, else auto (docs/language.md §27).
    Raises UsageError when the transcript is malformed or the game file is missing or changed
    (unless force; `changed_hint` is the advice then, in the words of the calling command), and
    ReplayMismatch when the replay diverges from the recorded decisions or end.
    Line numbers in errors are those of the transcript file (1-based); files are named by their
    names only, so messages do not depend on the folder the replay runs from.
    `observe(prog, state)`, when given, is called at every decision before its recorded choice is
    taken; the state is the live one (clone it to keep it), the same object up to the game's end.
    """
    warnings: list[str] = []
    with TranscriptFile(path) as tf:
        head, hl = tf.header()
        if game_path:
            gp, shown = Path(game_path), _cut(Path(game_path).name, 80)
        else:
            gp = _game_beside(tf, head)
            shown = _cut(head["file"], 80)
        sess = _open_game(gp, shown, head, force, warnings, dialect or head.get("dialect", "auto"), changed_hint)
        rest, rest_nos = tf.rest()
    lines, linenos = [head, *rest], [hl, *rest_nos]
    params = head.get("params") or {}
    if head["players"] != sess.n_players:
        raise UsageError(f"{tf.name}: the transcript is for {head['players']} players, but {shown} has "
                         f"{sess.n_players}")
    lineup = head.get("lineup") or ["S"] * sess.n_players
    dec_idx = [k for k, ev in enumerate(lines) if ev.get("type") == "decision"]
    end_idx = next((k for k, ev in enumerate(lines) if ev.get("type") == "end"), None)
    end_line = linenos[end_idx] if end_idx is not None else linenos[-1] + 1
    script = _ReplayScript([lines[k] for k in dec_idx], [linenos[k] for k in dec_idx], end_line, observe)
    players = [_SeatScript(script, code) for code in lineup]
    batch = head.get("batch") or {}
    if isinstance(params.get("max_options"), int) and params["max_options"] > 0:
        sess.prog.max_options = params["max_options"]  # set by --max-options when the game was played
    with step_time_limit(_step_time(params)):
        rec = sess.play(head["seed"], lineup, run=batch.get("run", 0), batch_seed=batch.get("seed"),
                        max_decisions=params.get("max_decisions", 2000),
                        max_idle_steps=params.get("max_idle_steps", 10000), level="full", players=players)
    assert rec.transcript is not None  # kept at level "full"
    regenerated = [_unpathed(json.loads(text)) for text in rec.transcript]
    if script.pos < len(dec_idx):
        k = dec_idx[script.pos]
        raise ReplayMismatch(linenos[k], f"decision {script.pos + 1} for seat {lines[k]['seat']}",
                             f"the game to end ({rec.end_reason}) after {rec.decisions} decisions")
    if verify:
        got = next((i for i, ev in enumerate(regenerated) if ev.get("type") == "end"), None)
        got_end = regenerated[got] if got is not None else None
        if end_idx is None:
            raise ReplayMismatch(end_line, "an end line (the transcript has none)", got_end)
        if _unpathed(lines[end_idx]) != got_end:
            raise ReplayMismatch(end_line, lines[end_idx], got_end)
        if got is not None:
            regenerated[got] = lines[end_idx]  # the same up to folders: the transcript's own words
        if head.get("level") == "full":
            # the shorter of the two is compared line by line, then the lengths
            for a, b, i in zip(lines[1:], regenerated[1:], linenos[1:], strict=False):
                if _unpathed(a) != _unpathed(_as_recorded(b, a)):
                    raise ReplayMismatch(i, a, b)
            if len(lines) != len(regenerated):
                raise ReplayMismatch(linenos[min(len(lines), len(regenerated)) - 1] + 1,
                                     f"{len(lines)} lines", f"{len(regenerated)} lines")
    regenerated[0] = head
    return regenerated, warnings
