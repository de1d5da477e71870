"""Transcripts (flow-and-analytics §5): one JSON object per line, read back with checks, rendered as text."""
from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import TypeGuard

from ..errors import UsageError, cut_text


def dumps(obj) -> str:
    """One transcript line (§5.1): compact, keys in insertion order, UTF-8."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


# Bounds on what a transcript may hold (docs/limits.md): a longer line or file is rejected, never read whole.
MAX_HEADER_BYTES = 64 * 1024
MAX_LINE_BYTES = 16 * 1024 * 1024
MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024
MAX_TRANSCRIPT_LINES = 1_000_000
FORMAT, VERSION = "recycle-transcript", 1
LEVELS = ("decisions", "full")


def _is_int(v) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_param(v) -> bool:
    """A declare's value as a header records it: an int, a bool, a string, or a list of ints or strings."""
    if isinstance(v, list):
        return all(_is_int(x) or isinstance(x, str) for x in v)
    return isinstance(v, (int, str))


def _header_problem(head: dict) -> str | None:
    """What is wrong with a header object (type and format already checked), or None."""
    checks = (
        ("version", lambda v: v == VERSION and _is_int(v)),
        ("game", lambda v: isinstance(v, str)),
        ("file", lambda v: isinstance(v, str) and v != ""),
        ("sha256", lambda v: isinstance(v, str) and len(v) == 64 and all(c in "0123456789abcdef" for c in v)),
        ("seed", lambda v: _is_int(v) and 0 <= v < 2 ** 64),
        ("players", lambda v: _is_int(v) and v >= 1),
        ("lineup", lambda v: v is None or (isinstance(v, list) and all(isinstance(c, str) for c in v))),
        ("params", lambda v: v is None or isinstance(v, dict)),
        ("batch", lambda v: v is None or (isinstance(v, dict) and _is_int(v.get("run")) and v["run"] >= 0
                                          and _is_int(v.get("seed")) and v["seed"] >= 0)),
        ("level", lambda v: v is None or v in LEVELS),
        ("dialect", lambda v: v in ("modern", "xam")),  # how the game file was read, when not auto
    )
    optional = ("lineup", "params", "batch", "level", "dialect")
    for key, ok in checks:
        if key not in head and key in optional:
            continue
        if key == "version" and key in head and _is_int(head[key]) and head[key] != VERSION:
            return f"transcript format version {head[key]} is not supported (this recycle reads version {VERSION})"
        if key not in head or not ok(head[key]):
            return f"the header has no valid {key!r}"
    if head.get("lineup") is not None and len(head["lineup"]) != head["players"]:
        return f"the header's lineup names {len(head['lineup'])} players, not {head['players']}"
    params = head.get("params") or {}
    declares = params.get("declares") or {}
    if not isinstance(declares, dict) or not all(_is_param(v) for v in declares.values()) or not all(
            _is_int(params[k]) and params[k] >= 1 for k in ("max_decisions", "max_idle_steps") if k in params):
        return "the header's params are not valid"
    return None


def _line_problem(obj: dict) -> str | None:
    """What is wrong with a line after the header, or None."""
    t = obj.get("type")
    if not isinstance(t, str):
        return "not a transcript line (no \"type\")"
    if t == "header":
        return "a second header line"
    if t != "decision":
        return None
    seat, options, choice = obj.get("seat"), obj.get("options"), obj.get("choice")
    if not (_is_int(seat) and seat >= 0 and _is_int(options) and options >= 1):
        return "a decision line needs an integer seat and option count"
    if not _is_int(choice) or not 0 <= choice < options:
        n = obj.get("n")
        return (f"decision {n if _is_int(n) else '?'}: choice {_short(choice)} is not an option index "
                f"(0 … {options - 1})")
    return None


def _short(v) -> str:
    """A value from a file, quoted and cut short for a message."""
    return cut_text(printable(repr(v)), 40)


def printable(text: str) -> str:
    """`text` with control characters (terminal escapes included) written as \\xNN or \\uNNNN."""
    return "".join(c if c.isprintable() or c == " " else (f"\\x{ord(c):02x}" if ord(c) < 256 else f"\\u{ord(c):04x}")
                   for c in text)


class TranscriptFile:
    """A transcript read one line at a time, with bounds; errors name the file by its name only.

    The name only (not the path given) keeps every message the same wherever the transcript is read from.
    """

    def __init__(self, path):
        self.path = Path(path)
        self.name = printable(self.path.name)
        self.lineno = 0
        self.read_bytes = 0
        try:
            # non-blocking: opening a FIFO must not wait for a writer; only regular files are read
            fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        except FileNotFoundError:
            raise UsageError(f"{self.name}: no such transcript") from None
        except OSError as e:
            raise UsageError(f"{self.name}: cannot read transcript: {e.strerror or e}") from None
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            os.close(fd)
            raise UsageError(f"{self.name}: is a directory, not a transcript")
        if not stat.S_ISREG(st.st_mode):
            os.close(fd)
            raise UsageError(f"{self.name}: not a regular file, not a transcript")
        if st.st_size > MAX_TRANSCRIPT_BYTES:
            os.close(fd)
            raise UsageError(f"{self.name}: {st.st_size} bytes, more than a transcript may hold "
                             f"({MAX_TRANSCRIPT_BYTES} bytes)")
        self._fh = os.fdopen(fd, "rb")

    def close(self) -> None:
        self._fh.close()

    def __enter__(self) -> TranscriptFile:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def fail(self, message: str, line: int | None = None) -> UsageError:
        return UsageError(f"{self.name}:{self.lineno if line is None else line}: {message}")

    def next_object(self, limit: int = MAX_LINE_BYTES) -> dict | None:
        """The next non-blank line as a JSON object (None at the end of the file)."""
        while True:
            try:
                raw = self._fh.readline(limit + 1)
            except OSError as e:
                raise UsageError(f"{self.name}: cannot read transcript: {e.strerror or e}") from None
            if not raw:
                return None
            self.lineno += 1
            if self.lineno > MAX_TRANSCRIPT_LINES:
                raise self.fail(f"the transcript has more than {MAX_TRANSCRIPT_LINES} lines")
            self.read_bytes += len(raw)
            if self.read_bytes > MAX_TRANSCRIPT_BYTES:
                raise self.fail(f"the transcript is longer than {MAX_TRANSCRIPT_BYTES} bytes")
            if len(raw) > limit:
                raise self.fail(f"not a transcript line (longer than {limit} bytes)")
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise self.fail("not a transcript line (not UTF-8 text)") from None
            if not text.strip():
                continue
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as e:
                raise self.fail(f"not a transcript line (invalid JSON: {e.msg})") from None
            except (ValueError, RecursionError):  # an integer of too many digits, arrays nested too deep
                raise self.fail("not a transcript line (a value too large or nested too deeply)") from None
            if not isinstance(obj, dict):
                raise self.fail("not a transcript line (expected a JSON object)")
            return obj

    def header(self) -> tuple[dict, int]:
        """The header line, checked, and its line number."""
        head = self.next_object(MAX_HEADER_BYTES)
        if head is None or head.get("type") != "header" or head.get("format") != FORMAT:
            raise UsageError(f"{self.name}: not a recycle transcript (no header line)")
        problem = _header_problem(head)
        if problem:
            raise self.fail(problem)
        return head, self.lineno

    def events(self) -> Iterator[dict]:
        """The lines after the header, each checked, one at a time (`lineno` is the line of the last)."""
        while (obj := self.next_object()) is not None:
            problem = _line_problem(obj)
            if problem:
                raise self.fail(problem)
            yield obj

    def rest(self) -> tuple[list[dict], list[int]]:
        """The lines after the header, each checked, and their line numbers."""
        lines, linenos = [], []
        for obj in self.events():
            lines.append(obj)
            linenos.append(self.lineno)
        return lines, linenos


def read_transcript_lines(path) -> tuple[list[dict], list[int]]:
    """The JSON objects of a transcript file and their line numbers; UsageError on a malformed file."""
    with TranscriptFile(path) as tf:
        head, hl = tf.header()
        lines, linenos = tf.rest()
    return [head, *lines], [hl, *linenos]


def read_transcript(path) -> list[dict]:
    """The JSON objects of a transcript file; raises UsageError on a malformed file."""
    return read_transcript_lines(path)[0]


def _loc_named(loc, indexed: frozenset | set = frozenset()) -> str:
    """A location of an event as the game names it: with its index when it has one, or when its family
    is indexed (`indexed`: the families met with an index other than 0), so that `MELD 0` is not `MELD`."""
    owner, kw, name, index = loc
    return f"{owner} {kw} {name}" + (f" {index}" if index or (owner, kw, name) in indexed else "")


def _indexed_families(lines: list[dict]) -> set:
    """The families (owner, kind word, name) some event names with an index other than 0."""
    out = set()
    for ev in lines:
        for k in ("to", "from", "loc", "a", "b"):
            loc = ev.get(k)
            if isinstance(loc, list) and len(loc) == 4 and loc[3]:
                out.add(tuple(loc[:3]))
    return out


def render_text(lines: list[dict], cards: dict | None = None) -> str:
    """The readable account of a transcript (§5.4); `cards` maps card ids to their text."""
    cards = dict(cards or {})
    out = []
    fams = _indexed_families(lines)

    def _loc(loc) -> str:
        return _loc_named(loc, fams)

    def card(c):
        return cards.get(c, c)

    for ev in lines:
        t = ev.get("type")
        if t == "header":
            b = ev.get("batch")
            bt = f" (batch {b['seed']}, run {b['run']})" if b else ""
            out.append(f"RECYCLE transcript v{ev['version']} — {ev['game']} "
                       f"({ev['file']}, sha256 {ev['sha256'][:4]}…), "
                       f"{ev['players']} players [{' '.join(ev.get('lineup') or [])}], seed {ev['seed']}{bt}")
        elif t == "create":
            for c in ev["cards"]:
                vals = "-".join(c["att"].values())
                cards[c["card"]] = vals if ev["deck"] == "DEFAULT" else f"{ev['deck']}:{vals}"
            out.append(f"create  {ev['deck']}: {len(ev['cards'])} cards -> {_loc(ev['to'])}")
        elif t == "shuffle":
            out.append(f"shuffle {_loc(ev['loc'])}")
        elif t == "teams":
            out.append("teams   " + " ".join("{" + ", ".join(f"p{s + 1}" for s in team) + "}" for team in ev["teams"]))
        elif t == "turn":
            out.append(f"turn    p{ev['seat'] + 1}")
        elif t == "move":
            out.append(f"move    {card(ev['card'])}  {_loc(ev['from'])} -> {_loc(ev['to'])}")
        elif t == "swap":
            out.append(f"swap    {_loc(ev['a'])} <-> {_loc(ev['b'])} "
                       f"({len(ev['a_to_b'])} <-> {len(ev['b_to_a'])} cards)")
        elif t == "remember":
            out.append(f"remember {card(ev['card'])}  {_loc(ev['from'])} => {_loc(ev['to'])}")
        elif t == "forget":
            out.append(f"forget  {card(ev['card'])}  {_loc(ev['loc'])}")
        elif t == "set":
            v = ev["value"]
            if isinstance(v, list):
                v = f"point map of {len(v)} awards"
            elif v is None:
                v = "(no player)"  # a cleared `ply` cell
            out.append(f"set     {ev.get('owner_name', ev['owner'])} {ev['store']} {ev['key']} = {v}")
        elif t == "decision":
            kind = f" ({ev['kind']})" if ev.get("kind") else ""
            text = f": {ev['text']}" if ev.get("text") else ""
            out.append(f"[{ev['n']}]     p{ev['seat'] + 1}{kind} chose {ev['choice'] + 1} of {ev['options']}{text}")
        elif t == "truncated":
            out.append(f"…       {ev.get('message') or 'later events left out of this transcript'}")
        elif t == "hand":
            hand = ", ".join(f"p{q + 1} {x}" for q, x in enumerate(ev.get("scores") or []))
            out.append(f"hand    {ev.get('n')} over: {hand}")
        elif t == "end":
            if ev["reason"] == "error":
                out.append(f"end     error after {ev['decisions']} decisions: {ev['error']}")
            else:
                scores = ev["scores"] or []
                ranks = ev["ranks"] or []
                # the lists come from a file: nothing guarantees equal lengths
                parts = ", ".join(f"p{s + 1} {sc} ({r})" for s, (sc, r) in enumerate(zip(scores, ranks, strict=False)))
                winners = [f"p{s + 1}" for s, r in enumerate(ranks) if r == 1]
                w = ("winner " if len(winners) == 1 else "winners ") + ", ".join(winners) if winners else ""
                out.append(f"end     {ev['reason']} after {ev['decisions']} decisions ({ev['direction']}): "
                           f"{parts}; {w}")
    # names and texts come from files: no control character reaches the terminal
    return "\n".join(printable(line) for line in out)
