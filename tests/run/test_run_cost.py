"""The per-game cost of `recycle run` (issue 16): without full transcripts the engine counts moves and
turns on the recorder instead of building an event for each (engine.recording.CountingSink), and the
tables are written through one csv writer per table; the records and files stay what they were.
"""
from __future__ import annotations

import pytest

from recycle.engine.recording import CountingSink, EventSink
from recycle.run.batch import BatchSpec, play_run
from recycle.run.session import GameSession, _Recorder
from recycle.run.tables import BatchTables, csv_text
from support import REPO

GAMES = [REPO / "tests" / "fixtures" / "games" / "deal_n.gdl", REPO / "games" / "block_rummy.gdl",
         REPO / "games" / "rummykruss.gdl"]  # rummykruss: moves inside atomic blocks (replayed events)


def test_a_counting_recorder_gets_the_counting_sink_and_others_the_full_one():
    sess = GameSession.open(GAMES[0])
    assert type(EventSink(sess.prog, _Recorder(keep=False))) is CountingSink
    assert type(EventSink(sess.prog, _Recorder(keep=True))) is EventSink
    assert type(EventSink(sess.prog, [].append)) is EventSink


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_counted_moves_and_turns_are_those_of_the_full_transcript(path):
    sess = GameSession.open(path)
    lineup = ("R",) * sess.n_players
    seen_moves = 0
    for run in range(2):
        full = play_run(sess, BatchSpec(str(path), {}, lineup, 3, transcript_level="full"), run)
        none = play_run(sess, BatchSpec(str(path), {}, lineup, 3, transcript_level="none"), run)
        dec = play_run(sess, BatchSpec(str(path), {}, lineup, 3, transcript_level="decisions"), run)
        events = [line for line in full.transcript if '"type":"move"' in line.replace(" ", "")]
        assert none.moves == dec.moves == full.moves == len(events)
        assert none.turns == dec.turns == full.turns
        assert none.decision_rows == full.decision_rows and none.scores == full.scores
        seen_moves += none.moves
    assert seen_moves > 0


def test_csv_rows_are_written_as_before():
    rows = [["g", 2, "RR", 0, 1.5, True, None, [1, 2], (0.5, 0.25), False, -3, "a,b", 'q"']]
    assert csv_text(rows) == 'g,2,RR,0,1.5,true,,1;2,0.5;0.25,false,-3,"a,b","q"""\n'


def test_commits_are_spaced_when_they_are_slow(tmp_path):
    from recycle.run.output import OutFolder

    with OutFolder.open(tmp_path) as folder:
        t = BatchTables(folder, "g", "max", {}, 10, {})
        t.start()
        t._commit_s = 1.0  # a commit took a second: the next is due after ten
        t._last_commit -= 5.0
        assert not t.due()
        t._last_commit -= 5.0
        assert t.due()



@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_play_game_hands_back_the_result_built_for_the_end_event(path):
    # The end event builds the game result; play_game returns that object instead of building it again,
    # and it equals the one built afresh from the final state.
    from recycle.engine.play import play_game
    from recycle.players import registry

    sess = GameSession.open(path)
    rec = _Recorder(keep=False)
    players = [registry.make("R") for _ in range(sess.n_players)]
    res = play_game(sess.prog, 7, players, recorder=rec)
    assert res.outcome == "completed"
    again = play_game(sess.prog, 7, [registry.make("R") for _ in range(sess.n_players)])
    assert res.scores == again.scores and res.choices == again.choices and res.ranks == again.ranks


def test_without_a_transcript_no_decision_or_end_event_is_built():
    sess = GameSession.open(GAMES[0])
    rec = _Recorder(keep=False, store=False)
    assert not EventSink(sess.prog, rec).decisions and EventSink(sess.prog, _Recorder(keep=False)).decisions
    from recycle.engine.play import play_game
    from recycle.players import registry

    res = play_game(sess.prog, 5, [registry.make("R") for _ in range(sess.n_players)], recorder=rec)
    assert res.n_decisions > 0 and rec.events == []


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_a_record_without_a_transcript_is_the_one_with_it_but_the_transcript(path):
    # the same record fields (forced and sampled decisions included) whether events were built or not
    sess = GameSession.open(path)
    lineup = ("R",) * sess.n_players
    for run in range(3):
        none = play_run(sess, BatchSpec(str(path), {}, lineup, 11, transcript_level="none"), run)
        dec = play_run(sess, BatchSpec(str(path), {}, lineup, 11, transcript_level="decisions"), run)
        assert none.transcript is None and dec.transcript
        none.transcript, none.ms, dec.ms = dec.transcript, 0.0, 0.0
        assert none == dec
        forced = sum(1 for _, b, _ in dec.decision_rows if b == 1)
        assert none.forced == forced or none.sampled


def test_a_record_made_by_position_has_each_value_under_its_name():
    # GameSession.play passes RunRecord's fields by position: each must land under its own name
    from recycle.engine.algorithms import derive

    sess = GameSession.open(GAMES[0])
    lineup = ("R",) * sess.n_players
    r = play_run(sess, BatchSpec(str(GAMES[0]), {}, lineup, 4, transcript_level="decisions"), 2)
    assert (r.run, r.game_seed, r.end_reason, r.lineup) == (2, derive(4, "game", 2), "normal", list(lineup))
    assert r.decisions == len(r.decision_rows) > 0 and r.estimates is None and r.sampled == [] and r.error is None
    assert r.transcript[0].startswith('{"type":"header"') and r.ms > 0
    assert r.winners == [p for p, k in enumerate(r.ranks) if k == 1] and sum(r.shares) == 1
    assert r.forced == sum(1 for _, b, _ in r.decision_rows if b == 1) and r.turns >= 0 and r.moves >= 0
