"""The options of a decision as the full walk makes them (every `any` walking its elements, no lazy option,
no shortcut), and a small game to make decisions with: what the engine's faster ways of building options
are compared with."""
from __future__ import annotations

from recycle.compiler import compile_game
from recycle.compiler.options import _walk_clauses
from recycle.engine.ops import undo_to
from recycle.engine.state import WAITING
from recycle.lang import parse_game
from recycle.players.random_player import RandomPlayer

DECK = "(RANK (A, TWO, THREE, FOUR, FIVE)) (SUIT (H, S, C))"
DEAL = "(all player 'P (repeat 4 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))"


def hand_game(choice: str, players: int = 2, declares: str = "", limits: str = ""):
    """A game dealing four cards to each player, then making them choose in turn until every hand is empty."""
    text = (f"(game {declares} {limits} (setup (create players {players}) "
            f"(create deck (game iloc STOCK) (deck {DECK}))) (do ({DEAL})) "
            "(stage player (end (all player 'P (== (size ('P iloc HAND)) 0))) "
            f"(choice ({choice} ((== (size ((current player) iloc HAND)) 0) (turn pass))))) "
            "(scoring max ((current player) sto SCORE)))")
    return compile_game(parse_game(text, "t.rcy"))


def walked(prog, st) -> list[tuple]:
    """The ops of each option of the decision st waits at, every path walked with a continuation of its own."""
    out: list[tuple] = []
    st2 = st.clone()
    st2.log = []

    def k(s, env):  # not the builder's `finish`: every `any` walks its elements, no shortcut applies
        if s.log:
            out.append(tuple(s.log))

    _walk_clauses(prog.decision_sims[st2.pc], st2, st2.env, k, 0)
    undo_to(st2, 0)
    assert st2 == st  # the walk left the state as it was
    return out


def random_decisions(prog, seeds):
    """Every decision of one random game per seed (seat 0's random player choosing for every seat): the state
    waiting at it, given to the caller before the choice is applied; the finished states are not given."""
    for seed in seeds:
        st = prog.new_game(seed)
        rng = RandomPlayer()
        rng.start(prog, 0, seed)
        while st.status == WAITING:
            yield st
            prog.apply(st, rng.choose(prog, st))
        assert st.error is None, st.error.format()
