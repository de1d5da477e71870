"""Replaying a transcript exactly (flow-and-analytics §5.3): the recorded choices, checked one by one."""
from __future__ import annotations

import json
from pathlib import Path

from ..errors import RecycleError, UsageError
from ..lang import SourceFile, library
from ..lang.source import read_bytes
from .session import GameSession
from .transcript import read_transcript_lines


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


def replay(path, game_path=None, verify: bool = True, force: bool = False, warn=print) -> tuple[list[dict], list[str]]:
    """Replay a transcript exactly (§5.3); returns (regenerated full event lines, warnings).

    Raises UsageError when the transcript is malformed or the game file is missing or changed
    (unless force), and ReplayMismatch when the replay diverges from the recorded decisions or end.
    Line numbers in errors are those of the transcript file (1-based).
    """
    lines, linenos = read_transcript_lines(path)
    head = lines[0]
    if game_path:
        gp = Path(game_path)
        if not gp.is_file():
            raise UsageError(f"--game {game_path}: no such game file")
    else:
        gp = Path(path).parent / head["file"]
        if not gp.is_file():
            try:
                gp = library.resolve(str(head.get("game", "")))
            except UsageError:
                raise UsageError(f"the game file {head['file']} was not found next to the transcript; "
                                 "give it with --game") from None
    warnings = []
    data = read_bytes(gp)
    params = head.get("params") or {}
    # A variant's digest covers the games it builds on: it is known once the file is loaded.
    sess = GameSession.from_source(SourceFile.from_bytes(data, gp), params.get("declares") or None)
    digest = sess.sha256
    if digest != head["sha256"]:
        msg = (f"{gp}: the game file changed since the transcript was written "
               f"(sha256 {digest[:12]}… != {head['sha256'][:12]}…)")
        if not force:
            raise UsageError(msg + "; use --force to replay anyway")
        warnings.append(msg)
    if head["players"] != sess.n_players:
        raise UsageError(f"{path}: the transcript is for {head['players']} players, but {gp} has {sess.n_players}")
    lineup = head.get("lineup") or ["S"] * sess.n_players
    if len(lineup) != sess.n_players:
        raise UsageError(f"{path}: the header's lineup names {len(lineup)} players, but the game has {sess.n_players}")
    dec_idx = [k for k, ev in enumerate(lines) if ev.get("type") == "decision"]
    end_idx = next((k for k, ev in enumerate(lines) if ev.get("type") == "end"), None)
    end_line = linenos[end_idx] if end_idx is not None else linenos[-1] + 1
    script = _ReplayScript([lines[k] for k in dec_idx], [linenos[k] for k in dec_idx], end_line)
    players = [_SeatScript(script, code) for code in lineup]
    batch = head.get("batch") or {}
    rec = sess.play(head["seed"], lineup, run=batch.get("run", 0), batch_seed=batch.get("seed"),
                    max_decisions=params.get("max_decisions", 2000), max_idle_steps=params.get("max_idle_steps", 10000),
                    level="full", players=players)
    assert rec.transcript is not None  # kept at level "full"
    regenerated = [json.loads(text) for text in rec.transcript]
    if script.pos < len(dec_idx):
        k = dec_idx[script.pos]
        raise ReplayMismatch(linenos[k], f"decision {script.pos + 1} for seat {lines[k]['seat']}",
                             f"the game to end ({rec.end_reason}) after {rec.decisions} decisions")
    if verify:
        got_end = next((ev for ev in regenerated if ev.get("type") == "end"), None)
        if end_idx is None:
            raise ReplayMismatch(end_line, "an end line (the transcript has none)", got_end)
        if lines[end_idx] != got_end:
            raise ReplayMismatch(end_line, lines[end_idx], got_end)
        if head.get("level") == "full":
            # the shorter of the two is compared line by line, then the lengths
            for a, b, i in zip(lines[1:], regenerated[1:], linenos[1:], strict=False):
                if a != b:
                    raise ReplayMismatch(i, a, b)
            if len(lines) != len(regenerated):
                raise ReplayMismatch(linenos[min(len(lines), len(regenerated)) - 1] + 1,
                                     f"{len(lines)} lines", f"{len(regenerated)} lines")
    regenerated[0] = head
    return regenerated, warnings
