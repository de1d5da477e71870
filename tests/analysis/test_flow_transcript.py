"""FlowGraph.add_transcript reads a transcript as `recycle replay` does (recycle/run/transcript.py): within
the bounds of docs/limits.md, and a file it cannot use is one UsageError naming the file and line, with
the graph left as it was."""
from __future__ import annotations

import json
import os

import pytest

from recycle.analysis.flow import FlowGraph
from recycle.errors import RecycleError, UsageError
from recycle.run import transcript

STOCK = ["table", "iloc", "STOCK", 0]
HAND1 = ["p1", "iloc", "HAND", 0]
HAND2 = ["p2", "iloc", "HAND", 0]
HEADER = {"type": "header", "format": "recycle-transcript", "version": 1, "game": "Toy", "file": "Toy.rcy",
          "sha256": "ab" * 32, "interpreter": "0.1.0", "players": 2, "lineup": ["R", "R"], "params": {},
          "seed": 5, "level": "full"}
CREATE = {"type": "create", "deck": "DEFAULT", "to": STOCK,
          "cards": [{"card": f"DEFAULT#{i}", "att": {"RANK": str(i)}} for i in range(3)]}
MOVE = {"type": "move", "card": "DEFAULT#0", "from": STOCK, "to": HAND1}


def _write(tmp_path, *lines, name="run-0000.jsonl"):
    path = tmp_path / name
    path.write_text("".join((ln if isinstance(ln, str) else json.dumps(ln)) + "\n" for ln in lines), "utf-8")
    return path


def _refused(path) -> str:
    fb = FlowGraph()
    with pytest.raises(UsageError) as info:
        fb.add_transcript(path)
    assert isinstance(info.value, RecycleError)
    # nothing of the refused file is in the graph, and it still takes a good run afterwards
    assert fb.runs == 0 and fb.graph().number_of_nodes() == 0
    good = _write(path.parent, HEADER, CREATE, MOVE, name="good.jsonl")
    fb.add_transcript(good)
    assert fb.runs == 1 and fb.graph().number_of_edges() == 1
    return str(info.value)


def test_a_good_transcript_gives_the_graph_of_its_events(tmp_path):
    swap = {"type": "swap", "a": HAND1, "b": HAND2, "a_to_b": ["DEFAULT#0"], "b_to_a": []}
    both = {"type": "swap", "a": HAND2, "b": ["p2", "vloc", "TABLE"], "a_to_b": ["DEFAULT#0"],
            "b_to_a": ["DEFAULT#1", "DEFAULT#2"]}
    extra = {"type": "create", "deck": "EXTRA", "to": STOCK, "cards": [{"card": "EXTRA#0", "att": {}}]}
    seen = {"type": "remember", "card": "DEFAULT#1", "from": HAND2, "to": ["table", "mem", "SEEN", None]}
    events = [HEADER, CREATE, extra, MOVE, swap, both, seen, MOVE, {"type": "turn", "seat": 0}]
    live = FlowGraph().add_run(events)
    read = FlowGraph().add_transcript(_write(tmp_path, *events))
    assert read.graph().nodes(data=True) == live.graph().nodes(data=True)
    assert list(read.graph().edges(data=True)) == list(live.graph().edges(data=True))
    assert read.graph().graph == live.graph().graph and read.graph().graph["seeds"] == [5]


def test_an_oversized_line_is_refused_without_reading_it_whole(tmp_path):
    path = tmp_path / "big.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(HEADER) + "\n")
        f.write('{"type":"turn","pad":"' + "x" * transcript.MAX_LINE_BYTES + '"}\n')
    msg = _refused(path)
    assert msg == f"big.jsonl:2: not a transcript line (longer than {transcript.MAX_LINE_BYTES} bytes)"


def test_a_file_past_the_size_bound_is_refused_before_reading(tmp_path):
    path = tmp_path / "huge.jsonl"
    with open(path, "wb") as f:  # sparse: no disk is spent on it
        f.truncate(transcript.MAX_TRANSCRIPT_BYTES + 1)
    assert "more than a transcript may hold" in _refused(path)


def test_too_many_events_are_refused(tmp_path, monkeypatch):
    # the real bound is a million lines; a smaller one shows the API reads through it
    monkeypatch.setattr(transcript, "MAX_TRANSCRIPT_LINES", 50)
    path = _write(tmp_path, HEADER, CREATE, *[MOVE] * 49)
    assert _refused(path) == "run-0000.jsonl:51: the transcript has more than 50 lines"


@pytest.mark.parametrize("line, message", [
    ("{not json", "run-0000.jsonl:2: not a transcript line (invalid JSON: "),
    ("[" * 100_000 + "]" * 100_000, "run-0000.jsonl:2: not a transcript line (a value too large or nested too deeply)"),
    ('{"seat": 1}', 'run-0000.jsonl:2: not a transcript line (no "type")'),
    ("[1, 2]", "run-0000.jsonl:2: not a transcript line (expected a JSON object)"),
    (json.dumps(HEADER), "run-0000.jsonl:2: a second header line"),
])
def test_a_malformed_event_is_refused(tmp_path, line, message):
    assert _refused(_write(tmp_path, HEADER, line, MOVE)).startswith(message)


def test_a_file_without_a_header_is_refused(tmp_path):
    assert _refused(_write(tmp_path, CREATE, MOVE)) == "run-0000.jsonl: not a recycle transcript (no header line)"


@pytest.mark.parametrize("event, message", [
    ({"type": "move", "from": STOCK}, "the 'to' of this move event is not a location"),
    ({"type": "move", "from": 5, "to": HAND1}, "the 'from' of this move event is not a location"),
    ({"type": "move", "from": STOCK, "to": ["p1", ["iloc"], "HAND", 0]}, "has a keyword that is not one of"),
    ({"type": "move", "from": STOCK, "to": ["p1", "card", "HAND", 0]}, "has a keyword that is not one of"),
    ({"type": "move", "from": STOCK, "to": ["p" + "9" * 5000, "iloc", "HAND", 0]}, "has an owner that is neither"),
    ({"type": "move", "from": STOCK, "to": [{}, "iloc", "HAND", 0]}, "has an owner that is neither"),
    ({"type": "move", "from": STOCK, "to": ["p1", "iloc", 7, 0]}, "has a name that is not a string"),
    ({"type": "move", "from": STOCK, "to": ["p1", "iloc", "HAND", "x"]}, "has an index that is not a whole number"),
    ({"type": "move", "from": STOCK, "to": ["p1", "iloc", "HAND", True]}, "has an index that is not a whole number"),
    ({"type": "remember", "from": STOCK, "to": {"a": 1}}, "the 'to' of this remember event is not a location"),
    ({"type": "swap", "a": HAND1, "b": HAND2, "a_to_b": 5}, "the 'a_to_b' of this swap event is not a list of cards: 5"),
    ({"type": "create", "to": STOCK, "cards": "abc"}, "the 'cards' of this create event is not a list of cards"),
    ({"type": "create", "to": STOCK, "deck": {"x": 1}, "cards": []}, "the 'deck' of this create event is not a name"),
])
def test_an_event_with_fields_of_the_wrong_type_is_refused(tmp_path, event, message):
    msg = _refused(_write(tmp_path, HEADER, CREATE, event, MOVE))
    assert msg.startswith("run-0000.jsonl:3: ") and message in msg
    assert len(msg) < 300  # a hostile value is cut short in the message


def test_a_transcript_that_is_not_a_regular_file_is_refused(tmp_path):
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    assert _refused(fifo) == "pipe.jsonl: not a regular file, not a transcript"
    assert _refused(tmp_path / "missing.jsonl") == "missing.jsonl: no such transcript"
