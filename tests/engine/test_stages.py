"""Engine: stages (§5.3–5.6), cycles (§5.2, §7.9), limits (§16.4) and run-time errors (§19.4)."""
from __future__ import annotations

import pytest

from recycle.compiler import compile_game
from recycle.engine.play import play_game
from recycle.errors import InternalError
from recycle.lang import parse_game
from recycle.players.base import ScriptedPlayer
from recycle.players.random_player import RandomPlayer

DECK = "(RANK (A, TWO, THREE))"
SCORING = "(scoring max ((current player) sto SCORE))"


def G(body, players=3, deck=DECK, setup_extra="", scoring=SCORING, declares=""):
    text = (f"(game {declares} (setup (create players {players}) {setup_extra} "
            f"(create deck (game iloc STOCK) (deck {deck}))) {body} {scoring})")
    prog = compile_game(parse_game(text, "t.rcy"))
    prog.test_text = text
    return prog


def pos(prog, fragment, line=1):
    """The position t.rcy:LINE:COL of a fragment of a test game's text (on its line)."""
    lines = prog.test_text.split("\n")
    return f"t.rcy:{line}:{lines[line - 1].index(fragment) + 1}"


def choosers(prog, seed=1, **kw):
    r = play_game(prog, seed, [RandomPlayer() for _ in range(prog.n_players)], **kw)
    return [d.chooser for d in r.decisions], r


PASS = "(choice ((turn pass)))"


# ---------------------------------------------------------------- stage end timing


def test_end_true_on_arrival_runs_zero_passes_and_pops_its_cycle():
    p = G("(stage player (end (== 1 1)) (do ((inc (game sto Y)))))"
          "(do ((cycle current (1 player))))"
          "(stage player (end (== 1 1)) (do ((inc (game sto Y)))))"
          "(do ((set (game sto C) (pid (current player)))))")
    st = p.new_game(1)
    assert st.status == 2
    assert p.value(st, "game", "sto", "Y") == 0
    assert p.value(st, "game", "sto", "C") == 1
    assert st.pcyc == [1, -1]  # only the base cycle is left


def test_condition_true_midway_still_completes_the_pass():
    p = G("(stage player (end (== (game sto X) 1))"
          " (do ((set (game sto X) 1)))"
          + PASS +
          " (do ((inc (game sto Y)))))")
    ch, r = choosers(p)
    assert r.outcome == "completed"
    assert ch == [0]  # the later choice of the same pass still happens
    st = p.new_game(1)
    p.apply(st, 0)
    assert p.value(st, "game", "sto", "Y") == 1


def test_end_condition_sees_the_player_who_just_finished():
    # (current player) in the end test is the one who played the pass
    p = G("(stage player (end (== (pid (current player)) 1)) " + PASS + ")")
    ch, _ = choosers(p)
    assert ch == [0, 1]


def test_first_pass_is_played_by_the_enclosing_current_player():
    p = G("(do ((cycle current (2 player))))"
          "(stage player (end (== (game sto N) 4)) " + PASS + " (do ((inc (game sto N)))))")
    ch, _ = choosers(p)
    assert ch == [2, 0, 1, 2]


# ---------------------------------------------------------------- cycles


def test_cycle_next_queues_for_the_next_advance_only():
    p = G("(stage player (end (== (game sto N) 5)) " + PASS +
          " (do (((== (game sto N) 0) (cycle next (current player))) (inc (game sto N)))))")
    ch, _ = choosers(p)
    assert ch == [0, 0, 1, 2, 0]


def test_later_cycle_next_replaces_the_earlier_one():
    p = G("(stage player (end (== (game sto N) 3)) " + PASS +
          " (do (((== (game sto N) 0) (do ((cycle next (2 player)) (cycle next (1 player))))) (inc (game sto N)))))")
    ch, _ = choosers(p)
    assert ch == [0, 1, 2]


def test_next_player_peeks_at_the_queue_previous_ignores_it():
    p = G("(stage player (end (== (game sto N) 1))"
          " (do ((cycle next (2 player))"
          "      (set (game sto NX) (pid (next player)))"
          "      (set (game sto PV) (pid (previous player)))"
          "      (inc (game sto N)))))")
    st = p.new_game(1)
    assert p.value(st, "game", "sto", "NX") == 2
    assert p.value(st, "game", "sto", "PV") == 2  # (0 - 1) mod 3, the queue is ignored


def test_end_condition_next_player_includes_the_queued_player():
    p = G("(stage player (end (== (pid (next player)) 0)) " + PASS +
          " (do ((cycle next (0 player)))))")
    ch, _ = choosers(p)
    assert ch == [0]


def test_cycle_current_changes_the_chooser_now_and_the_next_advance_starts_from_it():
    p = G("(stage player (end (== (game sto N) 2)) " + PASS +
          " (do ((cycle current (next player)))) " + PASS + " (do ((inc (game sto N)))))")
    ch, _ = choosers(p)
    assert ch == [0, 1, 2, 0]


def test_cycle_current_keeps_the_queue():
    p = G("(stage player (end (== (game sto N) 2)) " + PASS +
          " (do (((== (game sto N) 0) (do ((cycle next (2 player)) (cycle current (1 player))))) (inc (game sto N)))))")
    ch, _ = choosers(p)
    assert ch == [0, 2]


def test_decision_is_attributed_to_the_chooser_even_if_the_option_changes_the_current_player():
    p = G("(stage player (end (== (game sto N) 1)) (choice ((cycle current (2 player)))) " + PASS +
          " (do ((inc (game sto N)))))")
    ch, _ = choosers(p)
    assert ch == [0, 2]


def test_nested_stage_discards_its_queue_and_keeps_the_outer_cycle():
    # outer: 3 players; inner: one pass, which queues player 2 on the INNER cycle and
    # moves the inner current player; neither affects the outer cycle.
    p = G("(stage player (end (== (game sto N) 3))"
          " (stage player (end (== (game sto I) 1))"
          "  (do ((cycle current (1 player)) (cycle next (2 player)) (set (game sto I) 1))))"
          " (do ((set (game sto I) 0) (inc (game sto N)))) " + PASS + ")")
    ch, _ = choosers(p)
    assert ch == [0, 1, 2]


def test_outer_queue_survives_an_inner_stage_and_is_not_inherited():
    # the outer body queues player 2, then runs an inner stage of 2 passes; the inner stage
    # advances normally (0 -> 1), and the outer stage's next pass is played by player 2.
    p = G("(stage player (end (== (game sto N) 2))"
          " (do (((== (game sto N) 0) (cycle next (2 player)))))"
          " (stage player (end (== (game sto I) 2)) " + PASS + " (do ((inc (game sto I)))))"
          " (do ((set (game sto I) 0) (inc (game sto N)))))")
    ch, _ = choosers(p)
    assert ch == [0, 1, 2, 0]


def test_top_level_cycle_current_changes_who_starts_the_next_stage():
    p = G("(do ((cycle current (next player))))"
          "(stage player (end (== (game sto N) 1)) " + PASS + " (do ((inc (game sto N)))))"
          + PASS)
    ch, _ = choosers(p)
    assert ch == [1, 1]


def test_stage_team_rotates_teams_not_players():
    p = G("(stage team (end (== (game sto N) 3))"
          " (do ((inc ((current team) sto VISITS)) (set ((current team) sto SEEN) (pid (current player)))"
          "      (inc (game sto N)))))",
          players=4, setup_extra="(create teams (0, 2) (1, 3))")
    st = p.new_game(1)
    assert [p.value(st, ("team", t), "sto", "VISITS") for t in range(2)] == [2, 1]
    assert [p.value(st, ("team", t), "sto", "SEEN") for t in range(2)] == [0, 0]
    assert st.tcyc == [0]


def test_any_outside_a_choice_runs_for_every_element():
    p = G("(do ((any player 'P (inc ('P sto SCORE) (+ (pid 'P) 1)))"
          "     (any (range 1..4) 'K (inc (game sto S) 'K))))")
    st = p.new_game(1)
    r = p.result(st)
    assert r.scores == [1, 2, 3]
    assert p.value(st, "game", "sto", "S") == 10


def test_loop_iterates_a_snapshot_of_a_pile_the_body_changes():
    p = G("(do ((all (game iloc STOCK) 'C (move 'C (bottom (game vloc OUT))))))")
    st = p.new_game(1)
    assert p.pile(st, "game", "vloc", "OUT") == [2, 1, 0]
    assert p.pile(st, "game", "iloc", "STOCK") == []


# ---------------------------------------------------------------- limits


def test_step_limit_on_a_stage_without_a_choice():
    p = G("(stage player (end (== 1 2)) (do ((inc (game sto X)))))")
    st = p.new_game(1)
    r = p.result(st)
    assert r.outcome == "limit" and r.end_reason == "step_limit"
    assert p.value(st, "game", "sto", "X") == 5000  # 10000 steps: one test + one item per pass
    assert r.limit.which == "steps" and r.limit.steps == 10000
    assert r.limit.position == pos(p, "(== 1 2)")  # the end condition about to run
    assert r.scores == [0, 0, 0] and r.ranks == [1, 1, 1]  # provisional


def test_step_limit_is_configurable_and_reset_by_decisions():
    body = ("(stage player (end (== 1 2)) (do ((inc (game sto X)))) (do ((inc (game sto X))))"
            " ((game sto X) (game sto X)))")
    p = G("(stage player (end (== 1 2)) (do ((inc (game sto X)))) (do ((inc (game sto X))))" + PASS + ")")
    st = p.new_game(1, max_idle_steps=7)
    # per pass: test, do, do, choice; a decision resets the counter
    assert st.status == 1
    for _ in range(10):
        p.apply(st, 0)
    assert st.status == 1
    st2 = p.new_game(1, max_idle_steps=2)
    r = p.result(st2)
    assert r.end_reason == "step_limit" and p.value(st2, "game", "sto", "X") == 1
    del body


def test_decision_limit():
    p = G("(stage player (end (== 1 2)) " + PASS + ")")
    ch, r = choosers(p, max_decisions=7)
    assert r.outcome == "limit" and r.end_reason == "decision_limit"
    assert len(ch) == 7 and r.limit.which == "decisions" and r.limit.decisions == 7
    assert r.limit.position == pos(p, "(choice")
    _, r = choosers(p)
    assert r.n_decisions == 2000 and r.end_reason == "decision_limit"


def test_limit_with_scoring_error_still_reports_limit():
    p = G("(stage player (end (== 1 2)) (do ((inc (game sto X)))))",
          scoring="(scoring max (// 1 (game sto Z)))")
    r = p.result(p.new_game(1))
    assert r.outcome == "limit" and r.scores is None and r.score_error.cls == "arithmetic"


# ---------------------------------------------------------------- run-time errors


def test_no_option_error_names_the_choice():
    p = G("(do ((inc (game sto X)))) (choice (((== 1 2) (turn pass))))")
    r = p.result(p.new_game(1))
    assert r.outcome == "error" and r.end_reason == "error"
    assert r.error.cls == "no-option"
    assert r.error.position == pos(p, "(choice")
    assert "player 0" in r.error.message
    assert r.scores is None and r.ranks is None


def test_no_card_error_with_position_and_stage_context():
    p = G("(stage player (end (== 1 2))\n (do ((move (top (game vloc EMPTY)) (top (game vloc X))))))")
    r = p.result(p.new_game(1))
    assert r.error.cls == "no-card"
    assert r.error.position == pos(p, "(move", 2)
    assert any("stages at " + pos(p, "(stage")[6:] in c for c in r.error.context)


def test_error_while_building_options_has_the_choice_context():
    p = G("(choice ((any (game iloc STOCK) 'C (move (top (game vloc EMPTY)) (top (game vloc X))))"
          " (turn pass)))")
    r = p.result(p.new_game(1))
    assert r.error.cls == "no-card"
    assert r.error.context[0] == "while building the options of the choice at " + pos(p, "(choice")
    assert "while building the options" in r.error.text


def test_error_on_a_path_that_would_never_be_chosen_is_still_an_error():
    p = G("(choice ((turn pass) (set (game sto X) (// 1 0))))")
    r = p.result(p.new_game(1))
    assert r.error.cls == "arithmetic"


def test_errors_in_scoring_are_errors():
    p = G("(do ((inc (game sto X))))", scoring="(scoring max (score (top (game vloc EMPTY)) using (game points P)))")
    r = p.result(p.new_game(1))
    assert r.outcome == "error" and r.error.cls == "no-card"


@pytest.mark.parametrize("expr, cls", [
    ("(// 3 0)", "arithmetic"), ("(% 3 0)", "arithmetic"), ("(^ 2 (- 0 1))", "arithmetic"),
    ("(tri (- 0 1))", "arithmetic"), ("(fib (- 0 1))", "arithmetic"), ("(random 3..1)", "arithmetic"),
    ("(pid (7 player))", "range"), ("(size (top 99 (game iloc STOCK)))", "range"),
    ("(scoremax (game vloc EMPTY) using (game points P))", "empty"),
    ("(size (top (indexed game vloc NONE)))", "empty"),
    ("(pid (owner (top (game iloc STOCK))))", "owner"),
    ("(size (runs all 0 (game iloc STOCK) using (game points P)))", "arithmetic"),
    ("(size (subsets (game iloc BIG)))", "resource"),
    ("(size (game vloc X (- 0 1)))", "range"),
])
def test_runtime_error_classes(expr, cls):
    p = G(f"(do ((set (game sto V) {expr})))", deck="(RANK (A, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, J, Q, K)) (SUIT (H, S))",
          setup_extra="")
    if "BIG" in expr:
        p = G("(do ((repeat 21 (move (top (game iloc STOCK)) (top (game iloc BIG))))"
              f" (set (game sto V) {expr})))",
              deck="(RANK (A, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, J, Q, K)) (SUIT (H, S))")
    r = p.result(p.new_game(1))
    assert r.outcome == "error", r
    assert r.error.cls == cls


def test_internal_errors_are_not_game_outcomes(monkeypatch):
    p = G("(do ((inc (game sto X))))")

    def boom(st):
        raise KeyError("bug")

    p.code[0] = boom
    with pytest.raises(InternalError):
        p.new_game(1)


def test_scripted_player_replays_choices():
    p = G("(stage player (end (== (game sto N) 3)) (choice ((inc (game sto A)) (inc (game sto B)))) "
          "(do ((inc (game sto N)))))")
    sp = ScriptedPlayer([1, 0, 1])
    r = play_game(p, 5, [sp, sp, sp])
    assert r.choices == [1, 0, 1]
