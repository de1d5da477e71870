"""The end event and the result play_game returns are built from one GameResult
(engine.program.end_event, rec.final): each has lists of its own, so editing one leaves the other as it was."""
from __future__ import annotations

import copy

from recycle.compiler.driver import compile_loaded
from recycle.engine.play import play_game
from recycle.engine.recording import ListRecorder
from recycle.lang.load import load_game
from recycle.players.random_player import RandomPlayer
from support import GAMES


def _played():
    # gin rummy to one point is a match of a hand or two: its end event has `hands` too
    prog = compile_loaded(load_game(GAMES / "gin_rummy.gdl", {"TARGET": "1"}), {"TARGET": "1"})
    rec = ListRecorder()
    res = play_game(prog, 34, [RandomPlayer(), RandomPlayer()], recorder=rec)
    end = rec[-1]
    assert end["type"] == "end" and end["hands"], end
    return res, end


def test_editing_the_end_event_leaves_the_result_alone():
    res, end = _played()
    kept = copy.deepcopy((res.scores, res.ranks, res.shares, res.hands))
    assert [end["scores"], end["ranks"], end["win_share"], end["hands"]] == list(kept)
    end["scores"].append(99)
    end["ranks"][0] = 42
    end["win_share"].clear()
    end["hands"][0].append(7)
    end["hands"].append([1])
    assert (res.scores, res.ranks, res.shares, res.hands) == kept


def test_editing_the_result_leaves_the_end_event_alone():
    res, end = _played()
    kept = copy.deepcopy(end)
    res.scores.append(99)
    res.ranks[0] = 42
    res.shares.clear()
    res.hands[0].append(7)
    res.hands.append([1])
    assert end == kept
