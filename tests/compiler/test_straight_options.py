"""Decisions whose clauses have no branch point (items.straight_option_builder): each clause is
tested and run in a loop of its own instead of the option walk, and must give the options the
walk gives, in the same order: guards that fail, a guard that holds, clauses without a guard."""
from __future__ import annotations

from recycle.compiler import deferred, items
from recycle.compiler.options import _walk_clauses
from support.games import load, make_game
from support.walks import random_decisions

BETS = make_game(items="""(stage player
  (end (>= (game sto TURNS) 6))
  (choice (
    ((< (game sto POT) 3) (inc (game sto POT) 1))
    ((> (game sto POT) 100) (inc (game sto POT) 5))
    (do ((inc (game sto TURNS) 1) (inc ((current player) sto CHIPS) 2)))
    ((> (game sto POT) 100) (inc (game sto POT) 0))
    (inc (game sto POT) 0))))""")


def walked(prog, st) -> list[tuple]:
    """The options of the decision st waits at, as the walk of its clauses builds them."""
    st = st.clone()
    log: list[tuple] = []
    st.log = log
    found: list[tuple] = []

    def finish(s, env):
        if log:
            found.append(tuple(log))
    _walk_clauses(prog.decision_sims[st.pc], st, st.env, finish, 0)
    st.log = None
    return found


def test_straight_clauses_give_the_options_of_the_walk(monkeypatch):
    # every clause run while listing, none deferred (compiler.deferred, tested in test_deferred.py)
    monkeypatch.setattr(deferred, "check_of", lambda cx, clause, sc: None)
    used = []
    real = items.straight_option_builder
    monkeypatch.setattr(items, "straight_option_builder", lambda p, parts: used.append(len(parts)) or real(p, parts))
    prog = load(BETS)
    assert used == [5]
    counts = set()
    for st in random_decisions(prog, range(40)):
        assert [o.ops for o in st.opts] == walked(prog, st)
        counts.add(len(st.opts))
    assert counts == {2, 3}  # with and without the bet the pot still allows
