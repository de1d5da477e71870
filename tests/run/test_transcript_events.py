"""TranscriptFile.events: the lines after the header one at a time, each checked as `rest` checks them
(the reader FlowGraph.add_transcript shares with replay)."""
from __future__ import annotations

import json

import pytest

from recycle.errors import UsageError
from recycle.run.transcript import TranscriptFile

HEADER = {"type": "header", "format": "recycle-transcript", "version": 1, "game": "Toy", "file": "Toy.rcy",
          "sha256": "ab" * 32, "players": 2, "seed": 5}
LINES = [{"type": "turn", "seat": 0}, {"type": "decision", "n": 1, "seat": 0, "options": 2, "choice": 1}]


def _file(tmp_path, *lines):
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(ln) + "\n" for ln in lines), "utf-8")
    return path


def test_events_yields_what_rest_returns_one_line_at_a_time(tmp_path):
    path = _file(tmp_path, HEADER, *LINES)
    with TranscriptFile(path) as tf:
        tf.header()
        seen = [(ev, tf.lineno) for ev in tf.events()]
    with TranscriptFile(path) as tf:
        tf.header()
        lines, linenos = tf.rest()
    assert seen == list(zip(lines, linenos, strict=True)) == [(LINES[0], 2), (LINES[1], 3)]


def test_events_checks_each_line_before_yielding_it(tmp_path):
    bad = {"type": "decision", "n": 2, "seat": 0, "options": 2, "choice": 5}
    with TranscriptFile(_file(tmp_path, HEADER, LINES[0], bad)) as tf:
        tf.header()
        events = tf.events()
        assert next(events) == LINES[0]
        with pytest.raises(UsageError, match=r"^t\.jsonl:3: decision 2: choice 5 is not an option index"):
            next(events)
