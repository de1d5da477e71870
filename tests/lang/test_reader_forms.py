"""The reader's forms, built from Lark's tokens with a stack, against the forms of the grammar's own LALR
parser (grammars/recycle.lark): the same forms with the same spans on every corpus and shipped game and on
damaged and generated texts (recycle/lang/reader.py)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lark import Token

from recycle.errors import LoadError
from recycle.lang import reader
from recycle.lang.sexprs import SList
from recycle.lang.source import SourceFile
from support import GAMES, corpus_files

LARK = reader.grammar()


def _lark_forms(text: str, src: SourceFile) -> list:
    """The forms Lark's parser builds of a text, as the reader built them before: the stray `)` after the
    game (a warning) left out."""
    errors: list = []
    toks, depth = [], 0
    for t in LARK.lex(text):
        depth += 1 if t.type == "LPAR" else -1 if t.type == "RPAR" else 0
        if depth < 0:
            break
        toks.append(t)
    ip = LARK.parse_interactive("")
    for t in toks:
        ip.feed_token(t)

    def convert(node):
        if isinstance(node, Token):
            return reader._classify(node, src, errors)
        first, last = node.children[0], node.children[-1]
        return SList(tuple(convert(c) for c in node.children[1:-1]),
                     src.span(first.line, first.column, last.end_line, last.end_column))

    return [convert(c) for c in ip.feed_eof().children]


def _spans(x) -> list:
    """Every span in a form, in order (forms compare equal without their spans)."""
    out = [x.span]
    if isinstance(x, SList):
        for y in x.items:
            out.extend(_spans(y))
    return out


GAME_FILES = [*corpus_files(), *sorted(GAMES.glob("*.gdl"))]


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: p.name)
def test_forms_are_those_of_the_grammars_parser(path):
    src = SourceFile.read(path)
    forms, _ = reader.read_sexprs(src)
    theirs = _lark_forms(src.text, src)
    assert forms == theirs
    assert [s for f in forms for s in _spans(f)] == [s for f in theirs for s in _spans(f)]


DAMAGED = ["", "(x)", ";; comment\n(x)", "(a 'B c)", "(x \"a\" y)", "(1..3)", "(A,B:C)", "\t(\r\n x)\r\n",
           "(a)\n\n  ;; z\n (b)", "((a) (b (c (d))) ())", "(game (stage player (do ((inc (game sto X) 1)))))))"]


def _same_forms(text: str) -> None:
    src = SourceFile(text, "t.gdl")
    try:
        forms, _ = reader.read_sexprs(src)
    except LoadError:
        return  # not a text the forms are built of (unbalanced, a lexical error): the reader's errors are tested elsewhere
    theirs = _lark_forms(text, src)
    assert forms == theirs
    assert [s for f in forms for s in _spans(f)] == [s for f in theirs for s in _spans(f)]


@pytest.mark.parametrize("text", DAMAGED)
def test_small_texts_give_the_parsers_forms(text):
    _same_forms(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="() \n\t'\"AZaz09.,:=<>+-*%^", max_size=60))
def test_any_balanced_text_gives_the_parsers_forms(text):
    _same_forms(text)


def test_lexing_stops_at_the_error_limit():
    with pytest.raises(LoadError) as info:
        reader.tokenize(SourceFile("(" + "!" * 30 + ")", "bad.gdl"))
    assert len(info.value.diagnostics) == reader.MAX_LEXICAL_ERRORS
