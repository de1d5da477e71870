"""Compiling costs work in proportion to the game: counted in Python calls and compiles, never in
seconds (bench/bigfiles.py times files of a megabyte).  Each test here fails without the fix it names."""
from __future__ import annotations

import gc

from recycle.compiler import codegen, compile_game, driver, fusion_trees
from recycle.lang import ast as A
from recycle.lang import parse_game
from support.costs import nested_game, python_calls
from support.games import make_game


def test_compiling_a_deep_game_costs_per_form_what_a_shallow_one_does():
    # Fusion asks of every expression whether it nests too deep to fuse; measuring its whole depth each
    # time cost a chain of 400 forms 400 × 400 / 2 steps.  Now it looks no deeper than it fuses.
    deep, shallow = parse_game(nested_game(400, 5)), parse_game(nested_game(40, 50))
    assert python_calls(lambda: compile_game(deep)) < 3 * python_calls(lambda: compile_game(shallow))


def test_generated_actions_are_compiled_once_per_distinct_text():
    # 600 `inc` actions in 6 distinct texts (3 amounts, 2 cells): 6 compiles, not 600.
    items = "\n ".join(f"(do ((inc ((current player) sto {'AB'[i % 2]}) {i % 3})))" for i in range(600))
    game = parse_game(make_game(items=items))
    before = codegen.compiles()
    compile_game(game)
    assert codegen.compiles() - before <= 6
    again = codegen.compiles()
    compile_game(game)
    assert codegen.compiles() == again  # a second compile of the game compiles nothing anew


def test_functions_made_from_one_text_keep_their_own_objects():
    a, b = {"K": 1}, {"K": 2}
    codegen.define("def f(st, env):\n    return K\n", "<f>", a)
    codegen.define("def f(st, env):\n    return K\n", "<f>", b)
    assert a["f"] is not b["f"] and (a["f"](None, None), b["f"](None, None)) == (1, 2)


def test_the_collector_is_off_while_a_game_compiles_and_back_on_after(monkeypatch):
    states: list[bool] = []
    build = driver.build

    def recording(cx):
        states.append(gc.isenabled())
        return build(cx)

    monkeypatch.setattr(driver, "build", recording)
    compile_game(parse_game(nested_game(1, 1)))
    assert states == [False] and gc.isenabled()


def test_the_depth_of_each_expression_is_worked_out_once(monkeypatch):
    # Asked at each of the 400 levels of a chain whether it nests more than 60 deep, the walk looks at
    # each node once and once more to finish it, where measuring below each level anew looked at
    # 60 nodes or more per level.
    game = parse_game(nested_game(400, 1))
    chain = [game.items[-1].clauses[0].value]
    while isinstance(chain[-1], A.Arith):
        chain.append(chain[-1].args[-1])
    looked = 0
    subnodes = fusion_trees.subnodes

    def counting(m):
        nonlocal looked
        looked += 1
        return subnodes(m)

    monkeypatch.setattr(fusion_trees, "subnodes", counting)
    heights: dict = {}
    deep = [fusion_trees.deeper_than(x, 60, heights) for x in chain]
    nodes = len(heights)
    assert deep == [i < len(chain) - 60 for i in range(len(chain))]
    assert nodes >= 2 * 400 and looked <= 2 * nodes
