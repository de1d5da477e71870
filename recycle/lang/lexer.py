"""The tokens of a game text, as the terminals of grammars/recycle.lark define them.

The surface grammar is only parenthesised lists of atoms, so the reader needs no parser: one regular
expression with a group per terminal finds every token in a single pass over the text, where Lark's
lexer took about a second per megabyte.  The tokens have the same types, values and
positions as Lark's own lexer's (tests/lang/test_lexer.py compares the two on the corpus and on
damaged texts), so the grammar file stays the one statement of the surface.
"""
from __future__ import annotations

import functools
import re
from importlib import resources
from pathlib import Path


class Token:
    """One token: its terminal (`type`), its text (`value`, also its str) and where it stands: offsets
    from 0, lines and columns from 1, ends just past its last character.  The attributes of Lark's
    tokens, in a plain class: a Lark token costs half again as much to make."""

    __slots__ = ("column", "end_column", "end_line", "end_pos", "line", "start_pos", "type", "value")

    def __init__(self, type: str, value: str, start_pos: int, line: int, column: int, end_line: int,
                 end_column: int, end_pos: int):
        self.type = type
        self.value = value
        self.start_pos = start_pos
        self.line = line
        self.column = column
        self.end_line = end_line
        self.end_column = end_column
        self.end_pos = end_pos

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {self.value!r}, {self.line}:{self.column})"

# The terminals of grammars/recycle.lark, in an order where the first alternative that matches is
# the one Lark's longest-match lexer takes (no two terminals start alike, and OP lists `//` before
# `/`-less singles); WS and COMMENT are matched to be skipped, BAD is any character no token starts with.
_TOKEN = re.compile(r"""
    (?P<WS>[ \t\r\n]+)
  | (?P<COMMENT>;;[^\n]*)
  | (?P<LPAR>\()
  | (?P<RPAR>\))
  | (?P<COMMA>,)
  | (?P<COLON>:)
  | (?P<DOTDOT>\.\.)
  | (?P<OP>==|!=|<=|>=|//|<|>|\+|-|\*|%|\^)
  | (?P<WORD>'?[A-Za-z0-9]+)
  | (?P<TEXT>"[^"\n]*")
  | (?P<BAD>.)
""", re.VERBOSE | re.DOTALL)


@functools.lru_cache(maxsize=1)
def grammar_text() -> str:
    """The Lark grammar of the surface, from the installed package or the source tree."""
    try:
        return resources.files("recycle.grammars").joinpath("recycle.lark").read_text("utf-8")
    except (ModuleNotFoundError, FileNotFoundError, OSError):
        here = Path(__file__).resolve().parent.parent.parent / "grammars" / "recycle.lark"
        return here.read_text("utf-8")


def lex(text: str, max_errors: int) -> tuple[list[Token], list[tuple[int, int, int]]]:
    """(tokens, bad characters as (offset, line, column)): every token of the text, skipping each
    character no token starts with, up to `max_errors` of them (then the tokens stop there)."""
    toks: list[Token] = []
    bad: list[tuple[int, int, int]] = []
    line, line_start = 1, 0  # the line of the next token and the offset where that line starts
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        assert kind is not None  # every alternative of _TOKEN is a named group
        start = m.start()
        if kind == "WS":
            end = m.end()
            newlines = text.count("\n", start, end)
            if newlines:
                line += newlines
                line_start = text.rfind("\n", start, end) + 1
        elif kind == "COMMENT":
            continue
        elif kind == "BAD":
            bad.append((start, line, start - line_start + 1))
            if len(bad) >= max_errors:
                break
        else:
            value = m.group()
            column = start - line_start + 1
            end = m.end()
            toks.append(Token(kind, value, start, line, column, line, column + len(value), end))
    return toks, bad
