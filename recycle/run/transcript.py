"""Transcripts (flow-and-analytics §5): one JSON object per line, read back with checks, rendered as text."""
from __future__ import annotations

import json
from pathlib import Path
from typing import TypeGuard

from ..errors import UsageError


def dumps(obj) -> str:
    """One transcript line (§5.1): compact, keys in insertion order, UTF-8."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _is_int(v) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def read_transcript_lines(path) -> tuple[list[dict], list[int]]:
    """The JSON objects of a transcript file and their line numbers; UsageError on a malformed file."""
    p = Path(path)
    try:
        text = p.read_text("utf-8")
    except FileNotFoundError:
        raise UsageError(f"{path}: no such transcript") from None
    except IsADirectoryError:
        raise UsageError(f"{path}: is a directory, not a transcript") from None
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"{path}: cannot read transcript: {e}") from None
    lines, linenos = [], []
    for i, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise UsageError(f"{path}:{i}: not a transcript line (invalid JSON: {e.msg})") from None
        if not isinstance(obj, dict):
            raise UsageError(f"{path}:{i}: not a transcript line (expected a JSON object)")
        lines.append(obj)
        linenos.append(i)
    if not lines or lines[0].get("type") != "header" or lines[0].get("format") != "recycle-transcript":
        raise UsageError(f"{path}: not a recycle transcript (no header line)")
    head, hl = lines[0], linenos[0]
    for key, ok in (("file", lambda v: isinstance(v, str) and v != ""), ("sha256", lambda v: isinstance(v, str)),
                    ("seed", lambda v: _is_int(v) and v >= 0), ("players", lambda v: _is_int(v) and v >= 1),
                    ("lineup", lambda v: v is None or (isinstance(v, list) and all(isinstance(c, str) for c in v))),
                    ("params", lambda v: v is None or isinstance(v, dict)),
                    ("batch", lambda v: v is None or isinstance(v, dict))):
        if (key not in head and key not in ("lineup", "params", "batch")) or not ok(head.get(key)):
            raise UsageError(f"{path}:{hl}: the header has no valid {key!r}")
    params = head.get("params") or {}
    if not isinstance(params.get("declares") or {}, dict) or not all(
            _is_int(params[k]) and params[k] >= 1 for k in ("max_decisions", "max_idle_steps") if k in params):
        raise UsageError(f"{path}:{hl}: the header's params are not valid")
    for obj, i in zip(lines[1:], linenos[1:], strict=True):
        if obj.get("type") != "decision":
            continue
        seat, options, choice = obj.get("seat"), obj.get("options"), obj.get("choice")
        if not (_is_int(seat) and _is_int(options) and options >= 1):
            raise UsageError(f"{path}:{i}: a decision line needs an integer seat and option count")
        if not _is_int(choice) or not 0 <= choice < options:
            raise UsageError(f"{path}:{i}: decision {obj.get('n')}: choice {choice!r} is not an option index "
                             f"(0 … {options - 1})")
    return lines, linenos


def read_transcript(path) -> list[dict]:
    """The JSON objects of a transcript file; raises UsageError on a malformed file."""
    return read_transcript_lines(path)[0]



def _loc(loc) -> str:
    owner, kw, name, index = loc
    return f"{owner} {kw} {name}" + (f" {index}" if index else "")


def render_text(lines: list[dict], cards: dict | None = None) -> str:
    """The readable account of a transcript (§5.4); `cards` maps card ids to their text."""
    cards = dict(cards or {})
    out = []

    def card(c):
        return cards.get(c, c)

    for ev in lines:
        t = ev.get("type")
        if t == "header":
            b = ev.get("batch")
            bt = f" (batch {b['seed']}, run {b['run']})" if b else ""
            out.append(f"RECYCLE transcript v{ev['version']} — {ev['game']} "
                       f"({ev['file']}, sha256 {ev['sha256'][:4]}…), "
                       f"{ev['players']} players [{' '.join(ev['lineup'])}], seed {ev['seed']}{bt}")
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
            out.append(f"set     {ev['owner']} {ev['store']} {ev['key']} = {v}")
        elif t == "decision":
            kind = f" ({ev['kind']})" if ev.get("kind") else ""
            text = f": {ev['text']}" if ev.get("text") else ""
            out.append(f"[{ev['n']}]     p{ev['seat'] + 1}{kind} chose {ev['choice'] + 1} of {ev['options']}{text}")
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
    return "\n".join(out)
