"""Deferred options (compiler.deferred): a straight decision whose clauses only assign cells lists its
options without running their bodies.  Everything must be as when every body runs while listing: the
options, their order and ops, the games played, the errors (where, which, and the state they leave)
and the option limit."""
from __future__ import annotations

import pickle

import pytest

from recycle.compiler import deferred
from recycle.engine.play import play_game
from recycle.engine.recording import ListRecorder
from recycle.engine.state import WAITING, Option
from recycle.errors import UsageError
from recycle.lang.values import INT_BOUND
from recycle.players.random_player import RandomPlayer
from support.games import load, make_game
from support.walks import random_decisions, walked

# Betting as the corpus's poker games bet: a move cell set to a name, chips and a pot moved by a cell's
# amount, a clause whose guard never holds.
BETS = make_game(items="""(do ((set (game sto RAISE) 2)))
 (stage player
  (end (>= (game sto TURNS) 8))
  (do ((inc (game sto TURNS) 1)))
  (choice (
    ((!= ((previous player) str MOVE) BET) (set ((current player) str MOVE) CHECK))
    ((!= ((previous player) str MOVE) BET) (do ((set ((current player) str MOVE) BET)
        (dec ((current player) sto CHIPS) (game sto RAISE)) (inc (game sto POT) (game sto RAISE)))))
    ((== ((previous player) str MOVE) BET) (do ((set ((current player) str MOVE) FOLD)
        (inc ((previous player) sto CHIPS) (game sto POT)) (set (game sto POT) 0))))
    ((== ((previous player) str MOVE) BET) (do ((set ((current player) str MOVE) CALL)
        (dec ((current player) sto CHIPS) 2) (inc (game sto POT) 2) (inc (game sto RAISE)))))
    ((> (game sto POT) 4) (inc (game sto BONUS) 1))
    ((== 1 2) (set (game str NEVER) SEEN)))))""", scoring="(scoring max ((current player) sto CHIPS))")


def eager(monkeypatch):
    """Compile without deferred options from now on (every clause run while listing)."""
    monkeypatch.setattr(deferred, "check_of", lambda cx, clause, sc: None)


def kinds(opts) -> list[str]:
    return [type(o).__name__ for o in opts]


def test_bets_are_deferred_and_their_ops_are_the_walks():
    prog = load(BETS)
    seen = set()
    for st in random_decisions(prog, range(30)):
        assert [o.ops for o in st.opts] == walked(prog, st)
        seen.add(tuple(kinds(st.opts)))
    assert ("DeferredOption", "DeferredOption") in seen  # check or bet
    assert ("DeferredOption", "DeferredOption", "DeferredOption") in seen  # fold or call, or a bonus


def test_games_are_those_played_without_deferring(monkeypatch):
    def games(prog):
        out = []
        for seed in range(40):
            rec = ListRecorder()
            r = play_game(prog, seed, [RandomPlayer(), RandomPlayer()], recorder=rec if seed % 2 else None)
            out.append((r, list(rec)))
        return out
    deferring = games(load(BETS))
    eager(monkeypatch)
    assert games(load(BETS)) == deferring


BIG = make_game(items="""(do ((set (game sto BIG) 1) (repeat 996 (inc (game sto BIG) (game sto BIG)))))
 (stage player (end (== 1 2)) (choice (
    (set ((current player) str MOVE) CHECK)
    (do ((set ((current player) str MOVE) DOUBLE) (inc (game sto BIG) (game sto BIG)) (inc (game sto POT) 1))))))""")


def test_a_sum_past_the_bound_fails_where_and_as_when_run(monkeypatch):
    # 2**996 < 10**300 <= 2**997: doubling BIG, the second clause's sum is past the bound while listing
    assert 2**996 < INT_BOUND <= 2**997
    prog = load(BIG)
    st = prog.new_game(1)
    assert st.error is not None and st.error.cls == "limit"
    eager(monkeypatch)
    prog2 = load(BIG)
    st2 = prog2.new_game(1)
    assert st2.error is not None
    assert st.error.format() == st2.error.format()
    assert "building the options" in st.error.format()
    assert st == st2  # the same changes made before the failing sum (the move cell set)
    assert st.vals == st2.vals


def test_a_sum_within_the_bound_is_deferred():
    prog = load(BIG.replace("(repeat 996", "(repeat 990"))
    st = prog.new_game(1)
    assert kinds(st.opts) == ["DeferredOption", "DeferredOption"]
    assert [o.ops for o in st.opts] == walked(prog, st)


def test_the_option_limit_is_the_same(monkeypatch):
    text = BETS.replace("(game ", "(game (limits (options 1)) ", 1)
    prog = load(text)
    st = prog.new_game(1)
    eager(monkeypatch)
    prog2 = load(text)
    st2 = prog2.new_game(1)
    assert st.limit is not None and st.limit[0] == "options"
    assert st == st2 and st.vals == st2.vals


@pytest.mark.parametrize("body, why", [
    ("(move (top (game iloc STOCK)) (top ((current player) iloc HAND)))", "moves a card"),
    ("(do ((inc (game sto A) 1) (set (game sto B) (game sto A))))", "reads a cell it assigned"),
    ("(do ((inc (game sto A) 1) (inc (game sto A) 1)))", "assigns a cell twice"),
    ("(do ((inc ((current player) sto A) 1) (inc ((next player) sto A) 1)))", "one name of two players"),
    ("(inc (game sto A) (+ (game sto B) 1))", "an amount computed"),
    ("(set (game str S) (game str T))", "a string read from a cell"),
    ("(set (game sto A) (size (game iloc STOCK)))", "a value computed"),
    ("(inc ((top (game iloc STOCK)) sto A) 1)", "a card's cell"),
    ("(turn pass)", "not an assignment"),
])
def test_what_is_run_while_listing(monkeypatch, body, why):
    got = []
    real = deferred.check_of
    monkeypatch.setattr(deferred, "check_of", lambda cx, clause, sc: (got.append(r := real(cx, clause, sc)), r)[1])
    prog = load(make_game(items=f"(stage player (end (== 1 2)) (choice ({body} (set (game str MOVE) PASS))))"))
    assert got == [None, deferred.ALWAYS], why
    st = prog.new_game(1)
    assert st.status == WAITING, why
    # one clause that cannot be deferred: the decision's options are listed by running every clause
    assert kinds(st.opts) == ["Option", "Option"], why
    assert [o.ops for o in st.opts] == walked(prog, st)


def test_only_sums_are_checked(monkeypatch):
    got = []
    real = deferred.check_of
    monkeypatch.setattr(deferred, "check_of", lambda cx, clause, sc: (got.append(r := real(cx, clause, sc)), r)[1])
    prog = load(make_game(items="(stage player (end (== 1 2)) (choice ((set (game str MOVE) PASS) "
                                "(do ((set (game sto A) 3) (set (game sto B) ((current player) sto C)))) "
                                "(dec ((current player) sto C) (game sto A)))))"))
    assert got[:2] == [deferred.ALWAYS, deferred.ALWAYS]  # a name, a constant, a stored value: cannot fail
    assert callable(got[2])  # a sum is tested against the bound while listing
    st = prog.new_game(1)
    assert got[2](st, st.env) is True
    assert kinds(st.opts) == ["DeferredOption"] * 3
    assert [o.ops for o in st.opts] == walked(prog, st)


def test_on_a_copy_after_the_decision_and_pickled():
    prog = load(BETS)
    st = prog.new_game(2)
    assert kinds(st.opts) == ["DeferredOption", "DeferredOption"]
    expected = walked(prog, st)
    copy = st.clone()  # a copy a player searches, sharing the options
    saved = pickle.loads(pickle.dumps(prog.new_game(2)))
    assert all(type(o) is Option for o in saved.opts) and [o.ops for o in saved.opts] == expected
    prog.apply(st, 1)
    with pytest.raises(UsageError, match=r"read after its decision was taken"):
        copy.opts[0].ops  # noqa: B018 - the home state moved on
    assert copy.opts[1].ops_at(copy) == expected[1]
    prog.apply(copy, 1)  # the body made on the copy
    prog.apply(saved, 1)  # the ops replayed
    assert st == copy == saved
    assert st.vals == copy.vals == saved.vals


RANDOM_GUARDS = make_game(items="""(stage player (end (>= (game sto N) 12)) (choice (
    ((== (random 2) 0) (do ((set (game str MOVE) HEADS) (inc (game sto N) 1))))
    ((== (game sto N) (game sto N)) (inc (game sto N) 1)))))""")


def test_a_guard_that_draws_keeps_the_decision_from_being_deferred(monkeypatch):
    # a failing check lists the options again, guards and all: a guard drawing from the game stream
    # would draw twice; such a decision is listed the old way
    got = []
    real = deferred.plan
    monkeypatch.setattr(deferred, "plan", lambda cx, clauses, sc: (got.append(r := real(cx, clauses, sc)), r)[1])
    prog = load(RANDOM_GUARDS)
    assert got == [None]
    st = prog.new_game(1)
    assert kinds(st.opts) and set(kinds(st.opts)) == {"Option"}
    played = [play_game(prog, seed, [RandomPlayer(), RandomPlayer()]) for seed in range(30)]
    assert {len(r.choices) for r in played} != {0}
    eager(monkeypatch)
    assert [play_game(load(RANDOM_GUARDS), seed, [RandomPlayer(), RandomPlayer()]) for seed in range(30)] == played


def test_equal_pure_guards_of_consecutive_clauses_are_tested_once(monkeypatch):
    got = []
    real = deferred.plan
    monkeypatch.setattr(deferred, "plan", lambda cx, clauses, sc: (got.append(r := real(cx, clauses, sc)), r)[1])
    prog = load(PURE_GUARDS)
    [plan] = got
    keys = [key for _, key in plan]
    assert keys[0] == keys[1] and keys[2] == keys[3] and keys[1] != keys[2]
    st = prog.new_game(1)
    assert kinds(st.opts) == ["DeferredOption"] * 2
    assert [o.ops for o in st.opts] == walked(prog, st)


PURE_GUARDS = make_game(items="""(stage player (end (>= (game sto N) 12)) (choice (
    ((== (game sto N) (game sto N)) (inc (game sto N) 1))
    ((== (game sto N) (game sto N)) (inc (game sto N) 2))
    ((!= (game sto N) (game sto N)) (inc (game sto N) 3))
    ((!= (game sto N) (game sto N)) (inc (game sto N) 4)))))""")
