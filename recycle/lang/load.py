"""Loading a game: text -> S-expressions -> checked AST, every load-time error collected (language spec §19)."""
from __future__ import annotations

from pathlib import Path

import attrs

from ..errors import Diagnostic, LoadError
from . import ast as A
from .check import check_game
from .reader import read_sexprs
from .source import SourceFile, source_hash


@attrs.frozen
class Loaded:
    """A checked game: its AST, warnings, the hash of its text, its file name, text and file digest."""

    game: A.Game
    warnings: tuple[Diagnostic, ...]
    source_hash: str
    filename: str
    text: str
    sha256: str  # hex digest of the file's bytes, as transcripts record it


def parse_source(src: SourceFile, params: dict | None = None) -> tuple[A.Game, list[Diagnostic]]:
    """Parse and check one source file; raises LoadError with every error found."""
    forms, warnings = read_sexprs(src)
    game, errors, warnings = check_game(src, forms, warnings, params or {})
    if errors or game is None:
        raise LoadError(sorted(errors, key=lambda d: (d.span.line, d.span.column)), warnings)
    return game, warnings


def parse_game(text: str, filename: str = "<string>", params: dict | None = None) -> A.Game:
    """The typed AST of a game text (raises LoadError)."""
    return parse_source(SourceFile(text, filename), params)[0]


def load_source(src: SourceFile, params: dict | None = None) -> Loaded:
    """Parse and check a source already read; raises LoadError."""
    game, warnings = parse_source(src, params)
    return Loaded(game, tuple(warnings), source_hash(src.text), src.filename, src.text, src.sha256)


def load_game(path: str | Path, params: dict | None = None) -> Loaded:
    """Read (once), parse and check a game file; raises LoadError (file problems included)."""
    return load_source(SourceFile.read(path), params)
