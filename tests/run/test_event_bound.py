"""The bound on the events one game's `full` transcript keeps (run/session.py, MAX_GAME_EVENTS): past it,
one `truncated` line marks the place, decisions and the end are still kept, the game's result is the same
as at any other level, replay reproduces the cut transcript, and a replay gathers no more than it."""
from __future__ import annotations

import json

import pytest

from recycle.analysis.flow import FlowGraph
from recycle.cli import main
from recycle.run import session
from recycle.run.batch import BatchSpec, play_run
from recycle.run.session import MAX_GAME_EVENTS, GameSession
from recycle.run.transcript import render_text
from support import REPO
from support.games import CHOOSE_RUNAWAY

DEAL_N = REPO / "tests" / "fixtures" / "games" / "deal_n.gdl"
KEPT = ("decision", "hand", "end")


def lines_of(rec) -> list[dict]:
    return [json.loads(x) for x in rec.transcript]


@pytest.fixture
def small_bound(monkeypatch):
    monkeypatch.setattr(session, "MAX_GAME_EVENTS", 20)
    return 20


def test_a_long_transcript_is_cut_with_a_marker_and_keeps_its_decisions_and_end(small_bound):
    sess = GameSession.open(DEAL_N)
    full = sess.play(3, ["R", "R"], level="full")
    lines = lines_of(full)
    marks = [k for k, ev in enumerate(lines) if ev["type"] == "truncated"]
    assert len(marks) == 1
    k = marks[0]
    assert sum(ev["type"] not in KEPT for ev in lines[1:k]) == small_bound  # the first events, then the marker
    assert lines[k]["events"] == small_bound and "MAX_GAME_EVENTS" in lines[k]["message"]
    assert all(ev["type"] in KEPT for ev in lines[k + 1:])  # past the mark: decisions and the end only
    decisions = sess.play(3, ["R", "R"], level="decisions")
    untold = [{k: v for k, v in ev.items() if k != "text"} for ev in lines if ev["type"] in KEPT]
    assert untold == lines_of(decisions)[1:]  # every decision and the end, as the decisions level keeps them
    # the result does not depend on the level: the same moves and turns counted, the same end
    assert (full.moves, full.turns, full.scores, full.decision_rows) == (
        decisions.moves, decisions.turns, decisions.scores, decisions.decision_rows)
    assert lines[k]["message"] in render_text(lines)
    graph = FlowGraph().add_run(lines)  # the flow of a cut game: the moves kept, the marker passed over
    assert sum(e["count"] for e in graph._edges.values()) == sum(ev["type"] == "move" for ev in lines) > 0


def test_replay_reproduces_a_cut_transcript(small_bound, tmp_path, capsys):
    sess = GameSession.open(DEAL_N)
    spec = BatchSpec(str(DEAL_N), {}, ("R", "R"), 5, transcript_level="full")
    rec = play_run(sess, spec, 1)
    assert any(json.loads(x)["type"] == "truncated" for x in rec.transcript)
    path = tmp_path / "run-0001.jsonl"
    path.write_text("".join(x + "\n" for x in rec.transcript))
    assert main(["replay", str(path), "--game", str(DEAL_N), "--json"]) == 0  # checked line by line
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [ev["type"] for ev in out] == [json.loads(x)["type"] for x in rec.transcript]


def runaway_records(tmp_path, level: str):
    game = tmp_path / "g.gdl"
    game.write_text(CHOOSE_RUNAWAY)
    sess = GameSession.open(game)
    spec = BatchSpec(str(game), {}, ("R", "R"), 3, transcript_level=level, max_step_time=0.3)
    return game, [play_run(sess, spec, r) for r in range(4)]


def test_a_runaway_step_at_the_full_level_keeps_at_most_the_bound(tmp_path):
    # the runaway sets a cell about five million times a second until the step-time limit stops it
    _, recs = runaway_records(tmp_path, "full")
    stopped = [r for r in recs if r.end_reason == "error"]
    assert stopped and all(len(r.transcript) <= MAX_GAME_EVENTS + 10 for r in stopped)
    for r in stopped:
        lines = lines_of(r)
        assert [ev["type"] for ev in lines[-2:]] == ["truncated", "end"] and "CPU time" in lines[-1]["error"]


def test_replay_of_a_runaway_gathers_at_most_the_bound(tmp_path, capsys):
    # a transcript kept at the decisions level replays at the full level: the runaway's events are cut
    game, recs = runaway_records(tmp_path, "decisions")
    r = next(r for r in recs if r.end_reason == "error")
    path = tmp_path / "run.jsonl"
    path.write_text("".join(x + "\n" for x in r.transcript))
    assert main(["replay", str(path), "--game", str(game), "--json"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) <= MAX_GAME_EVENTS + 10
    events = [json.loads(x) for x in out[-2:]]
    assert [ev["type"] for ev in events] == ["truncated", "end"] and "CPU time" in events[-1]["error"]
