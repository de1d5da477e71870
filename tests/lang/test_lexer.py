"""The reader's own lexer and form builder against Lark reading grammars/recycle.lark, the statement of
the surface: the same tokens (types, values, positions), the same forms and the same lexical errors,
on every corpus and shipped game and on damaged texts (recycle/lang/lexer.py)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters

from recycle.errors import LoadError
from recycle.lang import reader
from recycle.lang.lexer import grammar_text, lex
from recycle.lang.sexprs import SList
from recycle.lang.source import SourceFile
from support import GAMES, corpus_files

LARK = Lark(grammar_text(), parser="lalr", propagate_positions=True, maybe_placeholders=False)
FIELDS = ("type", "value", "start_pos", "line", "column", "end_line", "end_column", "end_pos")


def _lark_tokens(text: str) -> tuple[list[tuple], list[tuple[int, int, int]]]:
    """Lark's tokens of the text as tuples, and its bad characters (offset, line, column), resuming after each
    as the reader once did (the text before it blanked, so positions stay true)."""
    toks: list[Token] = []
    bad: list[tuple[int, int, int]] = []
    pos = 0
    while True:
        blanked = text if pos == 0 else "".join(c if c == "\n" else " " for c in text[:pos]) + text[pos:]
        try:
            for t in LARK.lex(blanked):
                toks.append(t)
            break
        except UnexpectedCharacters as e:
            assert e.pos_in_stream is not None
            bad.append((e.pos_in_stream, e.line, e.column))
            pos = e.pos_in_stream + 1
            toks = [t for t in toks if t.start_pos is not None and t.start_pos < e.pos_in_stream]
    return [tuple(getattr(t, f) for f in FIELDS) for t in toks], bad


def _ours(text: str) -> tuple[list[tuple], list[tuple[int, int, int]]]:
    toks, bad = lex(text, 10**9)
    return [tuple(getattr(t, f) for f in FIELDS) for t in toks], bad


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
def test_tokens_and_forms_are_larks(path):
    src = SourceFile.read(path)
    assert _ours(src.text) == _lark_tokens(src.text)
    forms, _ = reader.read_sexprs(src)
    theirs = _lark_forms(src.text, src)
    assert forms == theirs
    assert [s for f in forms for s in _spans(f)] == [s for f in theirs for s in _spans(f)]


DAMAGED = [
    "", "(", ")", "((a) b", "; one", ";; comment\n(x)", "(a 'B c)", "'", "' A", "\"open\n\"", "(x \"a\" y)",
    "a.b", "..", "...", "(1..3)", "//", "/", "==!=<=>=<>+-*%^", "=", "!", "(A,B:C)", "\t(\r\n x)\r\n",
    "é", "(A é B) ü", "\ufeff(x)", "x\x00y", "\u2028(a)", "LOC4 Hand 'Xy 'x 12ab", "(a)\n\n  ;; z\n (b)",
]


@pytest.mark.parametrize("text", DAMAGED)
def test_damaged_texts_lex_as_lark_does(text):
    assert _ours(text) == _lark_tokens(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="(); \n\t'\"AZaz09.,:=!<>/+-*%^é\r", max_size=60))
def test_any_text_lexes_as_lark_does(text):
    assert _ours(text) == _lark_tokens(text)


def test_lexing_stops_at_the_error_limit():
    toks, bad = lex("a " + "! " * 30 + "b", 20)
    assert len(bad) == 20 and [t.value for t in toks] == ["a"]
    with pytest.raises(LoadError) as info:
        reader.tokenize(SourceFile("(" + "!" * 30 + ")", "bad.gdl"))
    assert len(info.value.diagnostics) == reader.MAX_LEXICAL_ERRORS
