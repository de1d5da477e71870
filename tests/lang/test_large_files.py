"""Loading costs work in proportion to the file: counted in Python calls and objects, never in seconds
(bench/bigfiles.py times files of a megabyte).  Each test here fails without the fix it names."""
from __future__ import annotations

import gc

import pytest

from recycle.lang import lint, load, parse_game, sexprs, xam
from recycle.lang.check import setup
from recycle.lang.consts import walk
from recycle.lang.sexprs import Atom, SList
from support.costs import nested_game, python_calls
from support.games import make_game


def chain(depth: int) -> SList:
    """(+ 1 (+ 1 … 0)) nested `depth` deep, as forms."""
    x: Atom | SList = Atom("INT", "0")
    for _ in range(depth):
        x = SList((Atom("OP", "+"), Atom("INT", "1"), x))
    assert isinstance(x, SList)
    return x


# A generator that yields from itself is resumed once per level above each item it passes on: walking a
# chain of 400 forms took 80,000 resumptions instead of 400.
@pytest.mark.parametrize("walker", [lint._walk, lint._walk_outside_defines, xam._walk], ids=lambda f: f.__name__)
def test_form_walks_resume_once_per_form(walker):
    forms = chain(400)
    seen: list = []
    # the three walks are sexprs.walk with their options: its generator is what resumes
    resumed = python_calls(lambda: seen.extend(walker(forms)), sexprs.walk.__code__)
    assert len(seen) >= 400
    assert resumed == len(seen) + 1  # one resumption per form yielded, one to finish


def test_the_ast_walk_resumes_once_per_node():
    game = parse_game(nested_game(400, 2))
    seen: list = []
    resumed = python_calls(lambda: seen.extend(walk(game)), walk.__code__)
    assert len(seen) > 800
    assert resumed == len(seen) + 1


def test_loading_a_deep_game_costs_per_form_what_a_shallow_one_does():
    # 2,000 nested forms in 5 chains 400 deep, against 2,000 in 50 chains 40 deep: without the walks
    # above, the deep game cost 25 times as many calls per form.
    deep = python_calls(lambda: parse_game(nested_game(400, 5)))
    shallow = python_calls(lambda: parse_game(nested_game(40, 50)))
    assert deep < 2 * shallow


def test_declares_share_one_scope_instead_of_a_copy_each(monkeypatch):
    # Each declare sees the declares above it; a copy of them for each declare made a megabyte of
    # declares (40,000) copy 800 million entries.
    scopes: list = []
    declare = setup.declare

    def recording(b, sx, scope):
        scopes.append(scope)
        return declare(b, sx, scope)

    monkeypatch.setattr(setup, "declare", recording)
    names = [f"'V{chr(65 + i // 26)}{chr(65 + i % 26)}" for i in range(200)]
    game = parse_game(make_game(declares=" ".join(f"(declare {i} {v})" for i, v in enumerate(names))
                                + " (declare (+ 'VAA 'VHR) 'LAST)",
                                items="(do ((set (game sto X) 'LAST)))"))
    assert len(scopes) == 201 and all(s is scopes[0] for s in scopes)
    assert [d.var for d in game.declares] == [v[1:] for v in names] + ["LAST"]


def test_a_declare_sees_only_the_declares_above_it():
    with pytest.raises(load.LoadError) as info:
        parse_game(make_game(declares="(declare 'B 'A) (declare 1 'B)", items="(do ((set (game sto X) 'A)))"))
    assert any("'B" in d.message for d in info.value.diagnostics)


def test_the_collector_is_off_while_a_game_loads_and_back_on_after(monkeypatch):
    states: list[bool] = []
    check = load.check_game

    def recording(*args):
        states.append(gc.isenabled())
        return check(*args)

    monkeypatch.setattr(load, "check_game", recording)
    assert gc.isenabled()
    parse_game(nested_game(1, 1))
    assert states == [False] and gc.isenabled()
    with pytest.raises(load.LoadError):
        parse_game("(game")
    assert gc.isenabled()
