"""Loading a game: text -> S-expressions -> checked AST, every load-time error collected (language spec §19)."""
from __future__ import annotations

import sys
from pathlib import Path

import attrs

from ..errors import Diagnostic, LoadError
from . import ast as A
from . import variants
from .check import check_game
from .gcpause import collector_paused
from .lint import lint
from .reader import read_sexprs
from .source import SourceFile, source_hash
from .xam import read_dialect

# The checker recurses a few frames per level of nesting; forms nest at most reader.MAX_DEPTH
# deep, so this many frames always suffice (the compiler asks for as many).
RECURSION_ROOM = 20_000


@attrs.frozen
class Loaded:
    """A checked game: its AST, warnings, the hash of its text, its file name, text and file digest."""

    game: A.Game
    warnings: tuple[Diagnostic, ...]
    source_hash: str
    filename: str
    text: str
    sha256: str  # hex digest of the file's bytes (and of its bases', for a variant), as transcripts record it


def _check(src: SourceFile, params: dict | None) -> tuple[A.Game, list[Diagnostic], str]:
    """(the checked game, warnings, digest): read, merge the bases of a variant, check; raises LoadError."""
    with collector_paused():
        return _check_now(src, params)


def _check_now(src: SourceFile, params: dict | None) -> tuple[A.Game, list[Diagnostic], str]:
    if sys.getrecursionlimit() < RECURSION_ROOM:
        sys.setrecursionlimit(RECURSION_ROOM)
    forms, warnings = read_sexprs(src)
    modern = read_dialect(forms, src.dialect, src, warnings)  # the older dialect becomes the modern forms here
    xam, forms = modern is not forms, modern
    expanded = variants.expand(src, forms, warnings)
    game, errors, warnings = check_game(src, expanded.forms, expanded.warnings, params or {}, expanded.sources)
    if errors or game is None:
        own = src.filename
        # the variant's own mistakes first, then those in the files it builds on
        raise LoadError(sorted(errors, key=lambda d: (d.span.file != own, d.span.file, d.span.line, d.span.column)),
                        warnings)
    warnings = [*warnings, *lint(expanded.forms, src, expanded.sources)]
    if expanded.base is not None:
        game = attrs.evolve(game, base=expanded.base)
    if xam:
        game = attrs.evolve(game, dialect="xam")
    return game, warnings, expanded.sha256


def parse_source(src: SourceFile, params: dict | None = None) -> tuple[A.Game, list[Diagnostic]]:
    """Parse and check one source file; raises LoadError with every error found."""
    game, warnings, _ = _check(src, params)
    return game, warnings


def parse_game(text: str, filename: str = "<string>", params: dict | None = None, dialect: str = "auto") -> A.Game:
    """The typed AST of a game text (raises LoadError); dialect is auto, modern or xam."""
    return parse_source(SourceFile(text, filename, dialect=dialect), params)[0]


def load_source(src: SourceFile, params: dict | None = None) -> Loaded:
    """Parse and check a source already read; raises LoadError.  A variant's digest covers its bases too."""
    game, warnings, sha256 = _check(src, params)
    return Loaded(game, tuple(warnings), source_hash(src.text), src.filename, src.text, sha256)


def load_game(path: str | Path, params: dict | None = None, dialect: str = "auto") -> Loaded:
    """Read (once), parse and check a game file; raises LoadError (file problems included)."""
    return load_source(SourceFile.read(path, dialect), params)
