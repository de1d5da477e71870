"""Items between decisions as generated code (compiler.clause_code, issue 16): the same states, the same
errors at the same points, as the closures of clauses.py give."""
from __future__ import annotations

import pytest

from recycle.compiler import clause_code, items
from recycle.engine.play import play_game
from recycle.players.random_player import RandomPlayer
from support.games import make_game, run

HAND = "((current player) iloc HAND)"
ITEMS = [
    # guards, lets, loops over players and over cards, repeat, repeat all, if with and without else
    f"(do ((repeat 3 (move (top (game iloc STOCK)) (top {HAND})))"
    "     (all player 'P (do ((repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND))))"
    "                         ((> (size ('P iloc HAND)) 2) (inc ('P sto BIG) 1)))))"
    f"     (let (filter {HAND} 'C (== (cardatt RANK 'C) (cardatt RANK (top {HAND})))) 'SAME"
    "       (do (((> (size 'SAME) 0) (do ((inc (game sto N) (size 'SAME)) (set (game str R) FOUND))))"
    "            (all 'SAME 'C (set (game str LAST) (cardatt SUIT 'C))))))"
    "     (if (== (game sto N) 0) (inc (game sto M) 1) (dec (game sto M) 1))"
    "     (if (> (game sto N) 100) (inc (game sto M) 5))"
    f"     (repeat all (move (top {HAND}) (top (game vloc DISCARD))))))",
    # a `let` around a loop whose body moves cards out of the pile it walks
    "(do ((repeat 6 (move (top (game iloc STOCK)) (top (game vloc A))))"
    "     (let (size (game vloc A)) 'K (all (range 1..3) 'I (do ((move (top (game vloc A)) (top (game vloc B)))"
    "       (inc (game sto S) (+ 'I 'K))))))))",
    # deeper than clause_code.MAX_DEPTH: closures below it
    "(do (" + "(all (range 1..1) 'I " * 14 + "(inc (game sto N) 1)" + ")" * 14 + "))",
]


@pytest.fixture
def closures(monkeypatch):
    """Compile items with the closures of clauses.py only."""
    def use_closures():
        monkeypatch.setattr(items, "clause_code", lambda cx, n, sc: cx.clause(n, sc))
    return use_closures


@pytest.mark.parametrize("depth", [clause_code.MAX_DEPTH, 1])
@pytest.mark.parametrize("text", ITEMS)
def test_a_generated_item_leaves_the_state_the_closures_leave(monkeypatch, closures, text, depth):
    monkeypatch.setattr(clause_code, "MAX_DEPTH", depth)
    game = make_game(items=f"{text}\n (do ((turn pass)))")
    made = []
    real = clause_code._Writer.write
    monkeypatch.setattr(clause_code._Writer, "write", lambda self, *a: made.append(1) or real(self, *a))
    prog, st = run(game, seed=3)
    assert st.error is None, st.error.format()
    assert made  # the item was generated
    closures()
    prog2, st2 = run(game, seed=3)
    assert st == st2
    assert [prog.pile(st, 0, "iloc", "HAND"), prog.value(st, "game", "sto", "N")] == \
        [prog2.pile(st2, 0, "iloc", "HAND"), prog2.value(st2, "game", "sto", "N")]


def test_a_run_time_error_comes_at_the_same_point_with_the_same_message(closures):
    text = make_game(items="(do ((inc (game sto N) 1) ((== (game sto N) 1) (let (top (game vloc EMPTY)) 'C"
                           " (move 'C (top (game vloc A)))))))")
    _, st = run(text)
    closures()
    _, st2 = run(text)
    assert st.error is not None and st.error.format() == st2.error.format()
    assert st == st2


def test_a_corpus_like_game_plays_the_same(closures):
    text = make_game(items="(stage player (end (== (size (game iloc STOCK)) 0))"
                           " (choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND))) (turn pass)))"
                           " (do ((let (partition RANK ((current player) iloc HAND)) 'M"
                           "   (all 'M 'X ((== (size 'X) 2) (do ((inc ((current player) sto SCORE) 1)"
                           "     (repeat all (move (top 'X) (top (game vloc DONE))))))))))))",
                     scoring="(scoring max ((current player) sto SCORE))")
    prog = run(text)[0]
    first = [play_game(prog, s, [RandomPlayer(), RandomPlayer()]).scores for s in range(6)]
    closures()
    prog2 = run(text)[0]
    assert [play_game(prog2, s, [RandomPlayer(), RandomPlayer()]).scores for s in range(6)] == first
    assert any(sum(s) > 0 for s in first)  # some pairs were scored
