"""The items of rummy-style turns (docs/language.md §20, §21): optional steps, ask, while, match, limits —
how they decide, whom they ask, what they record, and how transcripts and replay handle them."""
from __future__ import annotations

import json

import recycle
from recycle.engine.play import play_game
from recycle.engine.recording import ListRecorder
from recycle.players.base import ScriptedPlayer
from recycle.players.random_player import RandomPlayer
from recycle.run.replay import replay
from recycle.run.session import GameSession
from support.games import make_game, run

DEAL = "(do ((all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))"
TAKE = "(move (top (game iloc STOCK)) (top ((current player) iloc HAND)))"


def test_an_optional_step_offers_its_options_and_a_pass():
    prog, st = run(make_game("", f"(optional ({TAKE}))"))
    opts = prog.options(st)
    assert [prog.describe(st, o)[0].startswith("move") for o in opts] == [True, False]
    assert prog.describe(st, opts[-1]) == ["pass"]
    prog.apply(st, 1)
    assert prog.is_terminal(st) and st.decisions == 1
    assert prog.pile(st, 0, "iloc", "HAND") == []


def test_an_optional_step_without_options_is_skipped_without_a_decision():
    prog, st = run(make_game("", "(optional (((== 1 2) (turn pass))))"))
    assert prog.is_terminal(st) and st.decisions == 0 and st.steps == 1


def test_ask_attributes_the_decision_and_keeps_the_turn():
    items = (DEAL + " (ask (other player) 'O (optional (((> (size ('O iloc HAND)) 0)"
             " (move (top ('O iloc HAND)) (top ((current player) iloc HAND)))))))"
             " (do ((set (game sto CUR) (pid (current player)))))")
    prog = run(make_game("", items, players=3))[0]
    st = prog.new_game(1)
    assert st.chooser == 1 and st.pcyc[-2] == 0  # player 1 decides; it is still player 0's turn
    prog.apply(st, 0)
    assert st.chooser == 2
    prog.apply(st, 1)
    assert prog.is_terminal(st)
    assert prog.value(st, "game", "sto", "CUR") == 0
    assert [len(prog.pile(st, p, "iloc", "HAND")) for p in range(3)] == [3, 1, 2]
    assert [(r.chooser, r.chosen) for r in prog.result(st).decisions] == [(1, 0), (2, 1)]


def test_ask_one_player_inside_a_let():
    items = DEAL + " (ask (next player) 'O (let (size ('O iloc HAND)) 'N (choice ((inc (game sto X) 'N)))))"
    prog, st = run(make_game("", items))
    assert st.chooser == 1
    prog.apply(st, 0)
    assert prog.value(st, "game", "sto", "X") == 2


def test_while_repeats_items_for_the_same_player_and_stops_at_the_step_limit():
    items = f"(while (< (size ((current player) iloc HAND)) 3) (choice ({TAKE})))"
    prog, st = run(make_game("", items))
    for _ in range(3):
        assert st.chooser == 0
        prog.apply(st, 0)
    assert prog.is_terminal(st) and len(prog.pile(st, 0, "iloc", "HAND")) == 3
    endless = run(make_game("", "(while (== 1 1) (do ((inc (game sto X)))))"))[1]
    assert endless.status == 3 and endless.limit[0] == "steps"


MATCH = ("(match (end (any player 'P (>= (matchscore 'P) 5))) (score (size ((current player) iloc HAND)))"
         " (do ((all player 'P (repeat all (move (top ('P iloc HAND)) (top (game iloc STOCK)))))"
         "      (shuffle (game iloc STOCK))))"
         " (choice ((any (range 1..3) 'K (repeat 'K " + TAKE + ")))))")


def test_a_match_records_each_hand_and_ranks_by_the_match_score():
    text = make_game("", MATCH, scoring="(scoring max (matchscore (current player)))")
    prog = run(text)[0]
    rec = ListRecorder()
    r = play_game(prog, 3, [RandomPlayer(), RandomPlayer()], recorder=rec)
    assert r.outcome == "completed" and r.hands
    assert all(h[1] == 0 for h in r.hands)  # only the current player (0) takes cards
    assert r.scores == [sum(h[0] for h in r.hands), 0] and r.scores[0] >= 5
    assert sum(h[0] for h in r.hands[:-1]) < 5  # it stopped at the first hand that reached the target
    hands = [e for e in rec if e["type"] == "hand"]
    assert [e["scores"] for e in hands] == r.hands and [e["n"] for e in hands] == list(range(1, len(r.hands) + 1))
    assert rec[-1]["type"] == "end" and rec[-1]["hands"] == r.hands


def test_a_games_own_limits_and_the_callers_override(tmp_path):
    text = make_game("", "(stage player (end (== 1 2)) (choice ((turn pass))))", declares="(limits (decisions 7))")
    prog = run(text)[0]
    assert play_game(prog, 1, [RandomPlayer(), RandomPlayer()]).n_decisions == 7
    assert play_game(prog, 1, [RandomPlayer(), RandomPlayer()], max_decisions=3).n_decisions == 3
    game = tmp_path / "limited.gdl"
    game.write_text(text)
    sess = GameSession.open(game)
    rec = sess.play(5, ["R", "R"], level="decisions")
    head = json.loads(rec.transcript[0])
    assert head["params"]["max_decisions"] == 7 and rec.decisions == 7


def test_transcripts_of_optional_steps_ask_and_matches_replay(tmp_path):
    items = DEAL + (" (stage player (end (>= (game sto T) 6)) (do ((inc (game sto T))))"
                    " (optional (" + TAKE + "))"
                    " (ask (other player) 'O (optional ((any ('O iloc HAND) 'C (move 'C (top (game vloc D))))))))")
    game = tmp_path / "turns.gdl"
    game.write_text(make_game("", items, players=3))
    sess = GameSession.open(game)
    for seed in range(3):
        rec = sess.play(seed, ["R", "R", "R"], level="full")
        path = tmp_path / f"t{seed}.jsonl"
        path.write_text("".join(line + "\n" for line in rec.transcript))
        lines, warnings = replay(path)
        assert not warnings and sum(1 for ln in lines if ln["type"] == "decision") == rec.decisions
        seats = [json.loads(ln)["seat"] for ln in rec.transcript if '"decision"' in ln]
        assert set(seats) == {0, 1, 2}


def test_api_players_are_asked_too():
    class Declines:
        def start(self, game, seat, seed):
            self.seat = seat

        def choose(self, state):
            assert state.to_move == self.seat
            return len(state.options()) - 1  # the pass

    game_text = make_game("", f"(ask player 'P (optional ({TAKE})))", players=3)
    prog = run(game_text)[0]
    api_game = recycle.Game(prog, __import__("pathlib").Path("asked.gdl"), "x")
    r = api_game.play([Declines(), Declines(), ScriptedPlayer([0])])
    assert [(d.chooser, d.chosen) for d in r.decisions] == [(0, 1), (1, 1), (2, 0)]
