"""Definitions (docs/language.md §18) and the conditionals and alternatives of §19: what they compute and
how they take part in building options."""
from __future__ import annotations

import pytest

from recycle.errors import LoadError
from recycle.lang import load_game, parse_game
from support.games import make_game, run, value_of

HAND = "(define (HAND 'P) ('P iloc HAND))"
DEAL = "(do ((all player 'P (repeat 3 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))"


def test_a_value_definition_takes_any_argument_its_body_accepts():
    defs = "(define (N 'X) (size 'X)) (define (TWICE 'V) (+ 'V 'V))"
    assert value_of("(N (game iloc STOCK))", declares=defs)[2] == 36
    assert value_of("(N (A, B, C))", declares=defs)[2] == 3  # the same definition on a string collection
    assert value_of("(TWICE (N (game iloc STOCK)))", declares=defs)[2] == 72
    assert value_of("(TWICE 21)", declares=defs)[2] == 42


def test_arguments_are_read_before_the_body_runs_and_once():
    # the argument draws the top card once: both uses of 'C in the body are the same card
    defs = "(define (SAME 'C) (== (cardatt RANK 'C) (cardatt RANK 'C)))"
    assert value_of("(SAME (top (game iloc STOCK)))", declares=defs)[2] is True


def test_a_variable_argument_is_read_where_it_stands_even_when_the_body_binds_its_name():
    # 'N is bound to the slot of the outer 'X (no copy); the body's own 'X is another variable
    defs = "(define (BELOW 'N) (size (filter (range 1..5) 'X (< 'X 'N))))"
    assert value_of("(sum (range 1..3) 'X (BELOW 'X))", declares=defs)[2] == 0 + 1 + 2
    defs = "(define (PUT 'D) (move 'D (top (game vloc DISCARD))))"
    prog, st = run(make_game("", DEAL + " (choice ((any ((current player) iloc HAND) 'C (PUT 'C))))",
                             declares=HAND + " " + defs))
    moved = [o.ops[0] for o in prog.options(st)]
    assert len(moved) == 3 and len(set(map(repr, moved))) == 3


def test_variable_and_constant_arguments_cost_nothing_at_run_time(tmp_path):
    # a use whose arguments are variables or constants compiles to its body: no slot, no binding
    from recycle.compiler.context import Compiler
    from recycle.compiler.params import bind_params
    from recycle.lang import ast as A

    game = load_text(make_game("", "(do ((any (range 1..2) 'X (set (game sto S) (F 'X 7 (size (game iloc STOCK)))))))",
                               declares="(define (F 'A 'B 'C) (+ 'A 'B 'C))"), tmp_path).game

    def uses(n):
        if isinstance(n, A.CallExpr):
            yield n
        for f in getattr(type(n), "__attrs_attrs__", ()):
            v = getattr(n, f.name)
            for x in (v if isinstance(v, tuple) else (v,)):
                if isinstance(x, A.Node):
                    yield from uses(x)

    class Stub:
        nslots = 0
        const = Compiler.const
        new_slot = Compiler.new_slot

        def expr(self, n, sc):
            return lambda st, env: None

    [use] = list(uses(game))
    binds, inner = bind_params(Stub(), use, {"X": (False, 4)})
    assert [s for s, _ in binds] == [0]  # only (size …) is evaluated and bound
    assert inner["A"] == (False, 4) and inner["B"] == (True, 7) and inner["C"] == (False, 0)


def test_a_body_sees_its_parameters_and_the_declares_not_the_variables_of_its_use():
    defs = "(declare 5 'K) (define (PLUSK 'N) (+ 'N 'K))"
    assert value_of("(PLUSK 1)", declares=defs)[2] == 6
    bad = make_game("", "(do ((let 3 'Y (set (game sto X) (LEAK 1)))))", declares="(define (LEAK 'N) (+ 'N 'Y))")
    with pytest.raises(LoadError) as info:
        parse_game(bad)
    d = info.value.diagnostics[0]
    assert d.cls == "scope" and "'Y is not bound" in d.message
    assert any("in (LEAK …) used at" in n for n in d.notes)


def test_a_clause_definition_inside_a_choice_branches_like_the_loop_it_holds():
    defs = HAND + " (define (PLAY 'P) (any (HAND 'P) 'C (move 'C (top (game vloc DISCARD)))))"
    prog, st = run(make_game("", DEAL + " (choice ((PLAY (current player))))", declares=defs))
    assert len(prog.options(st)) == 3
    assert all(len(o.ops) == 1 for o in prog.options(st))


def test_an_item_definition_is_a_decision_where_it_is_used():
    defs = HAND + " (define (DISCARD 'P) (choice ((any (HAND 'P) 'C (move 'C (top (game vloc DISCARD)))))))"
    prog, st = run(make_game("", DEAL + " (DISCARD (current player)) (DISCARD (next player))", declares=defs))
    assert st.chooser == 0 and len(prog.options(st)) == 3
    prog.apply(st, 0)
    assert st.chooser == 0 and len(prog.options(st)) == 3  # (next player)'s hand, still chosen by the current player
    prog.apply(st, 2)
    assert prog.is_terminal(st)
    assert len(prog.pile(st, "game", "vloc", "DISCARD")) == 2


def load_text(text: str, folder):
    (folder / "g.gdl").write_text(text)
    return load_game(folder / "g.gdl")


def test_unused_definitions_are_a_warning(tmp_path):
    g = make_game("", "(do ((turn pass)))", declares="(define (NEVER 'X) (size 'X))")
    loaded = load_text(g, tmp_path)
    assert [(w.cls, w.message) for w in loaded.warnings] == [("unused", "NEVER is defined but never used")]


def test_a_mistake_reached_from_two_uses_is_reported_once():
    bad = make_game("", "(do ((set (game sto X) (BAD 1)) (set (game sto Y) (BAD 2))))",
                    declares="(define (BAD 'N) (+ 'N (game str S)))")
    with pytest.raises(LoadError) as info:
        parse_game(bad)
    assert len(info.value.diagnostics) == 1


# ---------------------------------------------------------------- if and either


def test_if_chooses_one_branch_before_either_runs():
    # With two guarded clauses the first one's move would make the second guard true: both would fire.
    guarded = "(do (((== (size (game vloc A)) 0) (move (top (game iloc STOCK)) (top (game vloc A))))" \
              " ((== (size (game vloc A)) 1) (move (top (game iloc STOCK)) (top (game vloc A))))))"
    exclusive = "(do ((if (== (size (game vloc A)) 0) (move (top (game iloc STOCK)) (top (game vloc A)))" \
                " (move (top (game iloc STOCK)) (top (game vloc A))))))"
    assert value_of("(size (game vloc A))", before=guarded)[2] == 2
    assert value_of("(size (game vloc A))", before=exclusive)[2] == 1


def test_if_as_a_value_and_its_types():
    assert value_of("(if (== 1 2) 3 4)")[2] == 4
    assert value_of("(cardatt RANK (if (== 1 1) (top (game iloc STOCK)) (bottom (game iloc STOCK))))")[2] == "NINE"
    with pytest.raises(LoadError) as info:
        parse_game(make_game("", "(do ((set (game sto X) (if (== 1 1) 3 (game str S)))))"))
    assert "must have one type" in info.value.diagnostics[0].message


def test_either_offers_each_alternative_and_continues_each_path():
    items = ("(choice ((do ((either ((move (top (game iloc STOCK)) (top (game vloc A)))"
             "                       (move (bottom (game iloc STOCK)) (top (game vloc A)))))"
             "             (move (top (game iloc STOCK)) (top (game vloc B)))))))")
    prog, st = run(make_game("", items))
    texts = [prog.describe(st, o) for o in prog.options(st)]
    assert len(texts) == 2
    assert all(len(t) == 2 and t[1].endswith("-> table vloc B") for t in texts)
    assert texts[0][0] != texts[1][0]


def test_the_sequence_warning_names_the_do(tmp_path):
    items = ("(choice ((do ((any (game iloc STOCK) 'C (move 'C (top (game vloc A))))"
             "              (any (game vloc A) 'C (move 'C (top (game vloc B))))))))")
    loaded = load_text(make_game("", items), tmp_path)
    [w] = loaded.warnings
    assert w.cls == "sequence" and "(either (…))" in w.message and w.span.line == 5
