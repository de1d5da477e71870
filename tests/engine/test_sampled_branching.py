"""A decision whose atomic blocks the random player samples records its estimated number of complete paths."""
from __future__ import annotations

from recycle.engine.play import play_game
from recycle.players.base import ScriptedPlayer
from recycle.players.random_player import RandomPlayer
from support.games import load, make_game

ROW = "(create board (game vloc ROW) (square 1 4) (capacity 1))"
DEAL3 = "(do ((repeat 3 (move (top (game iloc STOCK)) (top ((0 player) iloc HAND))))))"
# one decision of player 0: a card of its hand (3) onto an empty cell of the row (4), 12 complete paths
PLACE = """(atomic (choice ((any ((0 player) iloc HAND) 'C
                   (any (filter (cells (game vloc ROW)) 'X (== (size 'X) 0)) 'X (do ((move 'C (top 'X))))))))
        (require (== 1 1)))"""
GAME = make_game(ROW, f"{DEAL3}\n {PLACE}")


def test_an_enumerating_player_lists_every_path_and_estimates_nothing():
    r = play_game(load(GAME), 3, [ScriptedPlayer([0]), ScriptedPlayer([0])])
    assert [(d.branching, d.estimated) for d in r.decisions] == [(12, None)]
    assert "estimated" not in r.decisions[0].to_dict()


def test_a_sampling_player_records_the_estimated_number_of_paths():
    # the tree is uniform (3 cards, then 4 empty cells), so the product along any walk is exactly 12
    r = play_game(load(GAME), 3, [RandomPlayer(), RandomPlayer()])
    assert [(d.branching, d.estimated) for d in r.decisions] == [(1, 12.0)]
    assert r.decisions[0].to_dict()["estimated"] == 12.0


def test_the_run_record_keeps_the_sampled_decisions(tmp_path):
    from recycle.run.batch import BatchSpec, run_batch

    path = tmp_path / "place.gdl"
    path.write_text(GAME)
    (rec,) = run_batch(BatchSpec(str(path), {}, ("R", "R"), 5), 1)
    assert rec.decision_rows == [(0, 1, 0)] and rec.sampled == [[0, 12.0]]
    assert rec.forced == 0  # one option listed, but twelve paths: not a forced decision
