"""Shortcuts of the option walk (issue 16) give the options the full walk gives, in the same order: a clause
without a branch point run by the option builder itself (items.plain_option_builder), an `any` whose body has
no branch point appending its options itself when it ends the path (options.walk_straight), an empty `any`
ending the path (no option without changes before it, one with them), a guard that fails there (the same),
and a `let` with a guard right inside (options.s_let)."""
from __future__ import annotations

import pytest

from recycle.compiler import options
from recycle.engine.state import WAITING
from recycle.players.random_player import RandomPlayer
from support.walks import hand_game, walked

HAND = "((current player) iloc HAND)"
NONE_LEFT = "(filter ((current player) iloc HAND) 'X (> (size (game vloc DISCARD)) 100))"

CHOICES = {
    # straight clauses (guarded or not) between clauses that branch
    "mixed": f"((> (size (game vloc DISCARD)) 2) (inc (game sto N) 1)) (any {HAND} 'C (move 'C (top (game vloc DISCARD))))"
             f" (inc (game sto M) 1) ((> (size (game vloc DISCARD)) 100) (inc (game sto M) 2))",
    # an `any` with a body that is not plain (not lazy) and has no branch point: after changes, guarded or not
    "after changes": f"(do ((inc (game sto P) 1) (any {HAND} 'C (do ((move 'C (top (game vloc DISCARD)))"
                     f" (inc (game sto N) 1))))))",
    "guarded body": f"(do ((inc (game sto P) 1) (any {HAND} 'C ((== (cardatt SUIT 'C) H) (do ((move 'C (top (game "
                    f"vloc DISCARD))) (inc (game sto N) 1)))))))",
    "guarded body alone": f"(any {HAND} 'C ((== (cardatt SUIT 'C) H) (do ((move 'C (top (game vloc DISCARD)))"
                          f" (inc (game sto N) 1))))) (move (top {HAND}) (top (game vloc DISCARD)))",
    # an empty `any` ends the path: the changes before it are an option, nothing is none
    "empty any": f"(do ((inc (game sto P) 1) (any {NONE_LEFT} 'C (move 'C (top (game vloc DISCARD))))))"
                 f" (any {NONE_LEFT} 'C (move 'C (top (game vloc DISCARD))))",
    # a guard around a branch point, false at times: alone (no option), after changes (their option)
    "guarded any": f"((> (size (game vloc DISCARD)) 3) (any {HAND} 'C (do ((move 'C (top (game vloc DISCARD)))"
                   f" (inc (game sto N) 1))))) ((> (size {HAND}) 0) (do ((move (top {HAND}) (top (game vloc DISCARD)))"
                   f" ((> (size (game vloc DISCARD)) 5) (any {HAND} 'C (do ((move 'C (top (game vloc DISCARD)))"
                   " (inc (game sto N) 1))))))))",
    # a `let` with a guard inside, true for some ranks, false for others
    "let guard": "(any 'RANKS 'R (let (filter ((current player) iloc HAND) 'MR (== (cardatt RANK 'MR) 'R)) 'MINE "
                 "((> (size 'MINE) 0) (any (other player) 'OP (do ((set ('OP str WHO) CHOSEN) "
                 "(inc (game sto N) 1) (move (top ((current player) iloc HAND)) (top (game vloc DISCARD)))))))))",
}


def game(choice: str):
    return hand_game(choice, players=3, declares="(declare (A, TWO, THREE, FOUR, FIVE) 'RANKS)")


@pytest.mark.parametrize("name", CHOICES)
def test_the_options_are_those_of_the_walk(monkeypatch, name):
    calls = []
    real = options.walk_straight
    monkeypatch.setattr(options, "walk_straight", lambda *a: calls.append(1) or real(*a))
    prog = game(CHOICES[name])
    counts = set()
    for seed in range(12):
        st = prog.new_game(seed, max_decisions=25)  # some choices never empty the hands
        rng = RandomPlayer()
        rng.start(prog, 0, seed)
        while st.status == WAITING:
            assert [o.ops_at(st) for o in st.opts] == walked(prog, st)
            counts.add(len(st.opts))
            prog.apply(st, rng.choose(prog, st))
        assert st.error is None, st.error.format()
    # decisions with different numbers of options were compared (the empty `any` always gives one)
    assert len(counts) > 1 or (name == "empty any" and counts == {1}), counts
    assert bool(calls) == (name != "empty any")  # a single card, or a body that is not plain, is walked here


def test_an_empty_any_after_changes_is_one_option_and_alone_none():
    prog = game(CHOICES["empty any"])
    st = prog.new_game(1)
    # the `do` gives its increment alone; the bare empty `any` nothing; the pass is not allowed yet
    assert [[op[0] for op in o.ops] for o in st.opts] == [[6]]
