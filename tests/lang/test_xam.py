"""The older CardStockXam dialect (recycle/lang/xam.py, docs/language.md §27): each old form read as
the modern form it stands for, detection under --dialect auto, and the dialect travelling with the text.

The snippets are our own small games; the sweep of CardStock's own old files is
tests/conformance/test_xam_sweep.py.
"""
from __future__ import annotations

import pytest

import recycle
from recycle.errors import LoadError
from recycle.lang import SourceFile, load_source, parse_game
from recycle.lang.reader import read_sexprs
from recycle.lang.xam import detect, translate
from recycle.run.batch import BatchSpec, parse_lineup, run_batch
from recycle.run.session import GameSession

DECK = "(create deck (game iloc STOCK) (deck (RANK (ACE, TWO, KING)) (SUIT (HEARTS, SPADES))))"


def game(body: str, declares: str = "", deck: str = DECK) -> str:
    return (f"(game {declares}\n (setup (create players 2)\n  {deck})\n {body}\n"
            " (scoring max ((current player) sto SCORE)))")


def points(awards: str) -> str:
    return game(f"(do ((set (game points VALUE) ({awards}))\n"
                "      (set ((current player) sto SCORE) (sum (game iloc STOCK) using (game points VALUE)))))")


def same_game(old: str, modern: str) -> None:
    """The old text read as xam gives exactly the AST of the modern text read as modern."""
    assert parse_game(old, dialect="xam") == parse_game(modern, dialect="modern")


def warnings_of(text: str, dialect: str = "auto") -> list:
    return list(load_source(SourceFile(text, "t.gdl", dialect=dialect)).warnings)


# -- each translated form -------------------------------------------------------------------------

def test_award_value_in_parentheses_becomes_a_colon_condition():
    same_game(points("((RANK (ACE)) 11) ((RANK (KING)) (SUIT (HEARTS)) 4)"),
              points("((RANK : ACE) 11) ((RANK : KING) (SUIT : HEARTS) 4)"))


def test_award_bare_value_becomes_a_colon_condition():
    same_game(points("((RANK ACE) 11)"), points("((RANK : ACE) 11)"))


def test_award_cardatt_value_keeps_the_cardatt():
    old = points("((SUIT (cardatt SUIT (top (game iloc STOCK)))) 5)")
    same_game(old, points("((SUIT : (cardatt SUIT (top (game iloc STOCK)))) 5)"))


def test_award_wrapped_string_cell_is_unwrapped():
    same_game(points("((SUIT ((game str LEAD))) 5)"), points("((SUIT : (game str LEAD)) 5)"))


def test_award_variable_value():
    def text(condition: str) -> str:
        return game(f"(let ACE 'R (do ((set (game points VALUE) (({condition} 5))))))")
    same_game(text("(RANK 'R)"), text("(RANK : 'R)"))


def test_award_translation_keeps_the_positions_of_the_old_text():
    src = SourceFile(points("((RANK (ACE)) 11)"), "t.gdl", dialect="xam")
    forms, _ = read_sexprs(src)
    setp = translate(forms)[0][2][1][0]  # (game (setup …) (do ((set (game points VALUE) …) …)) …)
    cond = setp[2][0][0]
    assert [str(x) for x in cond.items] == ["RANK", ":", "ACE"]
    line = src.line(4)
    assert line is not None
    assert (cond.span.line, cond.span.column) == (4, line.index("(RANK (ACE))") + 1)


def test_partition_with_the_name_last_is_read_name_first():
    old = game("(do ((set ((current player) sto SCORE) (size (partition (game iloc STOCK) SUIT)))))")
    same_game(old, game("(do ((set ((current player) sto SCORE) (size (partition SUIT (game iloc STOCK))))))"))


def test_partition_of_several_piles_with_a_variable_name_last():
    old = game("(let RANK 'A (do ((set ((current player) sto SCORE) "
               "(size (partition (game iloc STOCK) (game vloc TABLE) 'A))))))")
    modern = game("(let RANK 'A (do ((set ((current player) sto SCORE) "
                  "(size (partition 'A (game iloc STOCK) (game vloc TABLE)))))))")
    same_game(old, modern)


def test_partition_already_modern_is_left_alone_under_xam():
    for pile in ("(game iloc STOCK)", "'P"):  # a pile last, or a name first: both only modern
        text = game(f"(let (game iloc STOCK) 'P (do ((set ((current player) sto SCORE) (size (partition SUIT {pile}))))))")
        assert parse_game(text, dialect="xam") == parse_game(text, dialect="modern")


def test_deck_attribute_values_from_a_declared_name_list():
    old = game("(do ((turn pass)))", declares="(declare (ACE, TWO, KING) 'RANKS)",
               deck="(create deck (game iloc STOCK) (deck (RANK ('RANKS)) (SUIT (HEARTS, SPADES))))")
    modern = game("(do ((turn pass)))", declares="(declare (ACE, TWO, KING) 'RANKS)")
    same_game(old, modern)


def test_deck_attribute_of_an_undeclared_variable_stays_an_error():
    text = game("(do ((turn pass)))", deck="(create deck (game iloc STOCK) (deck (RANK ('NOPE))))")
    with pytest.raises(LoadError) as e:
        parse_game(text, dialect="xam")
    assert e.value.diagnostics[0].cls == "deck" and "'NOPE" in e.value.diagnostics[0].message


def test_translated_games_play():
    text = points("((RANK (ACE)) 11) ((RANK (KING)) 4)")
    sess = GameSession.from_source(SourceFile(text, "t.gdl", dialect="xam"))
    rec = sess.play(1, parse_lineup(None, sess.n_players))
    assert rec.error is None


# -- detection ------------------------------------------------------------------------------------

def test_auto_detects_an_old_award_and_says_where():
    text = points("((RANK (ACE)) 11)")
    ws = warnings_of(text)
    dialect = [w for w in ws if w.cls == "dialect"]
    assert len(dialect) == 1
    assert (dialect[0].span.line, dialect[0].span.column) == (4, text.split("\n")[3].index("(RANK (ACE))") + 1)
    assert "(RANK (ACE))" in dialect[0].message and "--dialect xam" in dialect[0].message
    assert parse_game(text) == parse_game(text, dialect="xam")


def test_auto_detects_an_old_partition_and_a_deck_variable():
    part = game("(do ((set ((current player) sto SCORE) (size (partition (game iloc STOCK) SUIT)))))")
    deck = game("(do ((turn pass)))", declares="(declare (ACE, TWO) 'R)",
                deck="(create deck (game iloc STOCK) (deck (RANK ('R))))")
    for text in (part, deck):
        assert [w.cls for w in warnings_of(text)].count("dialect") == 1
        assert parse_game(text) == parse_game(text, dialect="xam")


def test_explicit_xam_gives_no_dialect_warning():
    assert not [w for w in warnings_of(points("((RANK (ACE)) 11)"), "xam") if w.cls == "dialect"]


def test_modern_files_are_not_detected():
    modern = points("((RANK : ACE) 11)")
    assert detect(read_sexprs(SourceFile(modern))[0]) is None
    assert not [w for w in warnings_of(modern) if w.cls == "dialect"]


def test_a_file_mixing_old_and_modern_forms_stays_modern():
    mixed = points("((RANK : ACE) 11) ((RANK (KING)) 4)")
    assert detect(read_sexprs(SourceFile(mixed))[0]) is None
    with pytest.raises(LoadError) as e:
        parse_game(mixed)
    [d] = e.value.diagnostics
    assert d.cls == "unsupported" and "(RANK (KING)) is CardStockXam award syntax" in d.message
    assert "--dialect xam" in d.message


def test_dialect_modern_forces_the_modern_reading():
    with pytest.raises(LoadError) as e:
        parse_game(points("((RANK (ACE)) 11)"), dialect="modern")
    assert [d.cls for d in e.value.diagnostics] == ["unsupported"]
    with pytest.raises(LoadError) as e:
        parse_game(game("(do ((set ((current player) sto SCORE) (size (partition (game iloc STOCK) SUIT)))))"),
                   dialect="modern")
    assert "name-last" in e.value.diagnostics[0].message and "--dialect xam" in e.value.diagnostics[0].message


def test_an_unknown_dialect_is_refused():
    with pytest.raises(ValueError, match="unknown dialect 'old'"):
        parse_game(points("((RANK : ACE) 11)"), dialect="old")


def test_the_dialect_travels_with_the_text_to_worker_processes():
    text = points("((RANK (ACE)) 11) ((RANK (KING)) 4)")
    sess = GameSession.from_source(SourceFile(text, "t.gdl", dialect="xam"))
    spec = BatchSpec("t.gdl", {}, tuple(parse_lineup(None, sess.n_players)), 5)
    records = run_batch(spec, 4, jobs=2, session=sess)
    assert [r.error for r in records] == [None] * 4


def test_a_variant_of_an_old_base_reads_the_base_as_old(tmp_path):
    base = points("((RANK (ACE)) 11) ((RANK (KING)) 4)").replace("(game ", "(game (declare 2 'N) ", 1)
    (tmp_path / "oldbase.gdl").write_text(base, "utf-8")
    variant = tmp_path / "variant.gdl"
    variant.write_text('(game (extends "oldbase.gdl") (declare 3 \'N))', "utf-8")
    loaded = load_source(SourceFile.read(variant))
    assert [w.cls for w in loaded.warnings].count("dialect") == 1  # detected in the base, where it stands
    assert next(w for w in loaded.warnings if w.cls == "dialect").span.file.endswith("oldbase.gdl")
    with pytest.raises(LoadError) as e:
        load_source(SourceFile.read(variant, "modern"))
    assert {d.cls for d in e.value.diagnostics} == {"unsupported"}


def test_the_python_api_takes_a_dialect(tmp_path):
    path = tmp_path / "mixed.gdl"
    path.write_text(points("((RANK : ACE) 11) ((RANK (KING)) 4)"), "utf-8")
    with pytest.raises(LoadError):
        recycle.load(path)  # auto: a file mixing both dialects is read as modern
    assert recycle.load(path, dialect="xam").players == 2
