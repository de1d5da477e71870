"""One loaded, compiled game and the plays of it: records, transcripts, replay.

This is the layer the commands use: it turns the engine's GameResult and event
stream into the per-run records of flow-and-analytics §3.2 and the transcript
lines of §5.2, and replays a transcript exactly (§5.3).
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Optional

from . import __version__
from .batch import RunRecord
from .errors import RecycleError, UsageError
from .players import registry


def dumps(obj) -> str:
    """One transcript line (§5.1): compact, keys in insertion order, UTF-8."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


class _Recorder:
    """Counts moves and turns of the real game and keeps its events at level `full`."""

    __slots__ = ("keep", "events", "moves", "turns", "wants_text")

    def __init__(self, keep: bool):
        self.keep = keep
        self.wants_text = keep
        self.events: list = []
        self.moves = 0
        self.turns = 0

    def event(self, d: dict) -> None:
        t = d["type"]
        if t == "move":
            self.moves += 1
        elif t == "turn":
            self.turns += 1
        if self.keep or t == "decision" or t == "end":
            self.events.append(d)


class _ReplayScript:
    """The recorded decisions of a transcript, checked one by one as the replay reaches them (§5.3 step 3)."""

    def __init__(self, decisions: list, linenos: list, end_line: int):
        self.decisions, self.linenos, self.end_line = decisions, linenos, end_line
        self.pos = 0

    def next(self, prog, st) -> int:
        seat, n = prog.chooser(st), len(prog.options(st))
        if self.pos >= len(self.decisions):
            raise ReplayMismatch(self.end_line, f"the game to end after {len(self.decisions)} decisions",
                                 f"decision {len(self.decisions) + 1} for seat {seat} with {n} options")
        d = self.decisions[self.pos]
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


class ReplayMismatch(RecycleError):
    """A replayed game diverged from its transcript (§5.3)."""

    def __init__(self, line: int, expected, actual):
        super().__init__(f"replay diverged at transcript line {line}: expected {expected}, got {actual}")
        self.line, self.expected, self.actual = line, expected, actual


class GameSession:
    """A game file loaded and compiled once, with the parameters it was opened with."""

    def __init__(self, path: Path, prog, params: dict, sha256: str):
        self.path = Path(path)
        self.prog = prog
        self.params = dict(params)
        self.sha256 = sha256

    @classmethod
    def open(cls, path, params: Optional[dict] = None) -> "GameSession":
        """Load (LoadError), compile (UsageError for bad parameters) and keep the file's sha256."""
        from .batch import file_sha256
        from .compile import load_program

        prog = load_program(path, params or None)
        return cls(Path(path), prog, params or {}, file_sha256(path))

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def n_players(self) -> int:
        return self.prog.n_players

    def header(self, game_seed: int, lineup: list, run: Optional[int], batch_seed: Optional[int],
               level: str, max_decisions: int, max_idle_steps: int) -> dict:
        return {
            "type": "header", "format": "recycle-transcript", "version": 1,
            "game": self.name, "file": self.path.name, "sha256": self.sha256,
            "interpreter": __version__, "players": self.n_players, "lineup": list(lineup),
            # Overridden declares as the typed values the game saw (--param gives strings).
            "params": {"declares": {k: self.prog.declared.get(k, v) for k, v in self.params.items()},
                       "max_decisions": max_decisions, "max_idle_steps": max_idle_steps},
            "seed": game_seed,
            "batch": {"seed": batch_seed, "run": run} if batch_seed is not None else None,
            "level": level,
        }

    def play(self, game_seed: int, lineup: list, run: int = 0, batch_seed: Optional[int] = None,
             max_decisions: int = 2000, max_idle_steps: int = 10000, level: str = "none",
             players: Optional[list] = None) -> RunRecord:
        """Play one game; `level` none|decisions|full decides the transcript kept in the record."""
        from .engine.core import play_game

        if players is None:
            players = [registry.make(c) for c in lineup]
        rec = _Recorder(level == "full")
        t0 = time.perf_counter()
        result = play_game(self.prog, game_seed, players, max_decisions, max_idle_steps, rec)
        ms = (time.perf_counter() - t0) * 1000.0
        transcript = None
        if level != "none":
            transcript = [dumps(self.header(game_seed, lineup, run, batch_seed, level, max_decisions, max_idle_steps))]
            for ev in rec.events:
                if level == "decisions" and ev["type"] == "decision":
                    ev = {k: v for k, v in ev.items() if k != "text"}
                transcript.append(dumps(ev))
        rows = [(d.chooser, d.branching, d.chosen) for d in result.decisions]
        error = result.error.text if result.error else None
        return RunRecord(
            run=run, game_seed=game_seed, end_reason=result.end_reason, decisions=result.n_decisions,
            forced=sum(1 for _, b, _ in rows if b == 1), turns=rec.turns, moves=rec.moves,
            scores=result.scores, ranks=result.ranks, shares=result.shares, winners=result.winners or [],
            error=error, decision_rows=rows, lineup=list(lineup), transcript=transcript, ms=ms,
        )


# ------------------------------------------------------------------ replay


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _read_transcript(path) -> tuple[list[dict], list[int]]:
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
    for obj, i in zip(lines[1:], linenos[1:]):
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
    return _read_transcript(path)[0]


def replay(path, game_path=None, verify: bool = True, force: bool = False, warn=print) -> tuple[list[dict], list[str]]:
    """Replay a transcript exactly (§5.3); returns (regenerated full event lines, warnings).

    Raises UsageError when the transcript is malformed or the game file is missing or changed
    (unless force), and ReplayMismatch when the replay diverges from the recorded decisions or end.
    Line numbers in errors are those of the transcript file (1-based).
    """
    from .batch import file_sha256

    lines, linenos = _read_transcript(path)
    head = lines[0]
    if game_path:
        gp = Path(game_path)
        if not gp.is_file():
            raise UsageError(f"--game {game_path}: no such game file")
    else:
        gp = Path(path).parent / head["file"]
        if not gp.is_file():
            from . import library

            try:
                gp = library.resolve(str(head.get("game", "")))
            except UsageError:
                raise UsageError(f"the game file {head['file']} was not found next to the transcript; "
                                 "give it with --game") from None
    warnings = []
    digest = file_sha256(gp)
    if digest != head["sha256"]:
        msg = f"{gp}: the game file changed since the transcript was written (sha256 {digest[:12]}… != {head['sha256'][:12]}…)"
        if not force:
            raise UsageError(msg + "; use --force to replay anyway")
        warnings.append(msg)
    params = head.get("params") or {}
    sess = GameSession.open(gp, params.get("declares") or None)
    if head["players"] != sess.n_players:
        raise UsageError(f"{path}: the transcript is for {head['players']} players, but {gp} has {sess.n_players}")
    lineup = head.get("lineup") or ["S"] * sess.n_players
    if len(lineup) != sess.n_players:
        raise UsageError(f"{path}: the header's lineup names {len(lineup)} players, but the game has {sess.n_players}")
    dec_idx = [k for k, l in enumerate(lines) if l.get("type") == "decision"]
    end_idx = next((k for k, l in enumerate(lines) if l.get("type") == "end"), None)
    end_line = linenos[end_idx] if end_idx is not None else linenos[-1] + 1
    script = _ReplayScript([lines[k] for k in dec_idx], [linenos[k] for k in dec_idx], end_line)
    players = [_SeatScript(script, code) for code in lineup]
    batch = head.get("batch") or {}
    rec = sess.play(head["seed"], lineup, run=batch.get("run", 0), batch_seed=batch.get("seed"),
                    max_decisions=params.get("max_decisions", 2000), max_idle_steps=params.get("max_idle_steps", 10000),
                    level="full", players=players)
    regenerated = [json.loads(l) for l in rec.transcript]
    if script.pos < len(dec_idx):
        k = dec_idx[script.pos]
        raise ReplayMismatch(linenos[k], f"decision {script.pos + 1} for seat {lines[k]['seat']}",
                             f"the game to end ({rec.end_reason}) after {rec.decisions} decisions")
    if verify:
        got_end = next((l for l in regenerated if l.get("type") == "end"), None)
        if end_idx is None:
            raise ReplayMismatch(end_line, "an end line (the transcript has none)", got_end)
        if lines[end_idx] != got_end:
            raise ReplayMismatch(end_line, lines[end_idx], got_end)
        if head.get("level") == "full":
            for a, b, i in zip(lines[1:], regenerated[1:], linenos[1:]):
                if a != b:
                    raise ReplayMismatch(i, a, b)
            if len(lines) != len(regenerated):
                raise ReplayMismatch(linenos[min(len(lines), len(regenerated)) - 1] + 1,
                                     f"{len(lines)} lines", f"{len(regenerated)} lines")
    regenerated[0] = head
    return regenerated, warnings


# ------------------------------------------------------------------ text rendering (§5.4)


def _loc(l) -> str:
    owner, kw, name, index = l
    return f"{owner} {kw} {name}" + (f" {index}" if index else "")


def render_text(lines: list[dict], cards: Optional[dict] = None) -> str:
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
            out.append(f"RECYCLE transcript v{ev['version']} — {ev['game']} ({ev['file']}, sha256 {ev['sha256'][:4]}…), "
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
            out.append(f"swap    {_loc(ev['a'])} <-> {_loc(ev['b'])} ({len(ev['a_to_b'])} <-> {len(ev['b_to_a'])} cards)")
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
        elif t == "end":
            if ev["reason"] == "error":
                out.append(f"end     error after {ev['decisions']} decisions: {ev['error']}")
            else:
                scores = ev["scores"] or []
                ranks = ev["ranks"] or []
                parts = ", ".join(f"p{s + 1} {sc} ({r})" for s, (sc, r) in enumerate(zip(scores, ranks)))
                winners = [f"p{s + 1}" for s, r in enumerate(ranks) if r == 1]
                w = ("winner " if len(winners) == 1 else "winners ") + ", ".join(winners) if winners else ""
                out.append(f"end     {ev['reason']} after {ev['decisions']} decisions ({ev['direction']}): {parts}; {w}")
    return "\n".join(out)
