"""Variants: a game file that builds on another, `(game (extends "base") <changes>…)`, states only what differs.

The base is a shipped game's name (`"rummykruss"`), a `.gdl` of that name beside the variant,
or a path relative to the variant's folder (`"bases/mygame.gdl"`); it can never leave that
folder (no absolute path, no `..`) nor be anything but a game file. A variant may change:

* `(declare V 'X)`      replaces the base's declare of 'X where it stands (or adds a new one);
* `(define (NAME …) B)` replaces the base's definition of NAME where it stands (or adds one);
* `(limits …)`, `(setup …)`, `(scoring …)` replace the base's.

Program items change through the definitions they use, so a base written with definitions for
its rules lets variants change any rule. The forms are merged as read (S-expressions), each
keeping the position in the file it comes from, so every error points into the file that holds
the mistake; the merged game is then checked as one. A base may itself be a variant.
"""
from __future__ import annotations

import hashlib
from pathlib import Path, PurePosixPath
from typing import Any

import attrs

from ..errors import Diagnostic, LoadError
from . import library
from .reader import read_sexprs
from .sexprs import Atom, SList
from .source import MAX_FILE_BYTES, SourceFile, read_bytes
from .xam import read_dialect

GAME_SUFFIXES = (".gdl", ".rcy")
CHANGES = ("declare", "define", "limits", "setup", "scoring")
MAX_DEPTH = 16  # variants of variants, at most this deep
# A game and its bases hold at most MAX_SOURCE_BYTES together (docs/limits.md), as one file may:
# each is read and parsed, so sixteen bases of MAX_FILE_BYTES would take minutes to load.
MAX_SOURCE_BYTES = MAX_FILE_BYTES


@attrs.frozen
class Expanded:
    """The forms of a game with its bases merged in, the files they came from, and the combined digest."""

    forms: list
    warnings: list[Diagnostic]
    sources: dict[str, SourceFile]  # every base file read, by name (the variant's own is not included)
    base: str | None  # the base as the variant names it
    sha256: str  # the variant's own digest, or one over it and every base's when it has bases


def expand(src: SourceFile, forms: list, warnings: list[Diagnostic]) -> Expanded:
    """The forms of `src` with `(extends …)` resolved and merged; raises LoadError for a bad base."""
    return _expand(src, forms, warnings, [Path(src.filename).resolve()] if src.filename != "<string>" else [],
                   len(src.text.encode("utf-8")))


def _expand(src: SourceFile, forms: list, warnings: list[Diagnostic], chain: list[Path], read: int) -> Expanded:
    """`read`: the bytes of the files of the chain so far, this one's included."""
    game = forms[0] if forms else None
    ext = _extends(game)
    if ext is None:
        return Expanded(forms, warnings, {}, None, src.sha256)
    if len(ext) != 2 or not (isinstance(ext[1], Atom) and ext[1].kind == "TEXT"):
        raise _error(src, ext, 'a variant names its base game in quotes: (extends "rummykruss") '
                               'or (extends "mybase.gdl")')
    name = ext[1].value
    path = _resolve(src, ext, name)
    if path.resolve() in chain:
        circle = " → ".join(p.name for p in [*chain, path])
        raise _error(src, ext, f"the variants build on each other in a circle ({circle})")
    if len(chain) >= MAX_DEPTH:
        raise _error(src, ext, f"variants of variants go more than {MAX_DEPTH} deep")
    try:
        data = read_bytes(path)
        base_src = SourceFile.from_bytes(data, path, src.dialect)  # with auto, each file is judged on its own
    except LoadError as e:
        raise _error(src, ext, f"cannot read the base game {name!r}: {e.diagnostics[0].message}") from None
    read += len(data)
    if read > MAX_SOURCE_BYTES:
        raise LoadError([src.diag("error", "limit", f"this game and its bases up to {name!r} hold {read:,} bytes, "
                                  f"more than {MAX_SOURCE_BYTES:,}, the limit of a game's source with its bases "
                                  "(MAX_SOURCE_BYTES, fixed; docs/limits.md)", ext.span)])
    base_forms, base_warnings = read_sexprs(base_src)
    base_forms = read_dialect(base_forms, base_src.dialect, base_src, base_warnings)
    base = _expand(base_src, base_forms, base_warnings, [*chain, path.resolve()], read)
    merged = _merge(src, game, base.forms[0] if base.forms else None, base_src)
    sources = {base_src.filename: base_src, **base.sources}
    sha = hashlib.sha256((src.sha256 + base.sha256).encode()).hexdigest()
    return Expanded([merged, *forms[1:]], [*base.warnings, *warnings], sources, name, sha)


def _extends(game) -> SList | None:
    """The `(extends …)` form of a game, if its first element is one."""
    if not (isinstance(game, SList) and len(game) > 1 and isinstance(game[1], SList) and game[1].items):
        return None
    head = game[1].head
    return game[1] if isinstance(head, Atom) and head.kind == "KEYWORD" and head.text == "extends" else None


def _resolve(src: SourceFile, at: SList, name: str) -> Path:
    """The base file: a path beside the variant, or a shipped game's name; never outside the variant's folder."""
    here = Path(src.filename).parent if src.filename != "<string>" else Path(".")
    rel = PurePosixPath(name)
    if not name or rel.is_absolute() or "\\" in name or ".." in rel.parts:
        raise _error(src, at, f"the base game {name!r} must be a shipped game's name or a path inside the "
                              "variant's folder (no absolute path, no ..)")
    if rel.suffix:
        if rel.suffix not in GAME_SUFFIXES:
            raise _error(src, at, f"the base game {name!r} is not a game file (.gdl or .rcy)")
        return here / rel
    beside = here / f"{name}.gdl"
    try:
        found = beside.is_file()
    except OSError:  # a name the system cannot look up (too long): no such file beside the variant
        found = False
    if found:
        return beside
    shipped = library.shipped()
    if name in shipped:
        return shipped[name]
    raise _error(src, at, f"no game {name!r}: neither {beside} nor a shipped game (see `recycle games`)")


def _merge(src: SourceFile, game: Any, base: Any, base_src: SourceFile) -> SList:
    """The base's game form with the variant's changes applied."""
    if not (isinstance(base, SList) and base.items and isinstance(base.head, Atom) and base.head.text == "game"):
        raise _error(src, game[1], f"the base game {base_src.filename} holds no (game …) form")
    elems = list(base.items[1:])
    # Each change finds what it replaces through these indexes, not by a scan of the base: thousands
    # of changes against a base of thousands of forms would otherwise take minutes.
    first: dict = {}  # (head, key) -> index of the first element of the base with them
    for i, e in enumerate(elems):
        first.setdefault((_head(e), _key(e)), i)
    added: list = []  # new declares, definitions and limits, in order, to stand just before setup
    added_at: dict = {}
    for change in game.items[2:]:
        w = _head(change)
        if w not in CHANGES:
            raise _error(src, change, "a variant changes only the base's declares, definitions, limits, setup and "
                                      "scoring; items change through the definitions they use")
        hk = (w, _key(change))
        if hk in first:
            elems[first[hk]] = change
        elif hk in added_at:
            added[added_at[hk]] = change
        elif w in ("declare", "define", "limits"):
            added_at[hk] = len(added)
            added.append(change)
        else:
            raise _error(src, change, f"the base game has no ({w} …) to replace")
    at = next((i for i, e in enumerate(elems) if _head(e) == "setup"), len(elems))
    return SList((game.head, *elems[:at], *added, *elems[at:]), game.span)


def _head(x) -> str | None:
    if isinstance(x, SList) and x.items and isinstance(x.head, Atom) and x.head.kind == "KEYWORD":
        return x.head.text
    return None


def _key(x: SList):
    """What a change replaces: the variable of a declare, the name of a definition; one of the others."""
    w = _head(x)
    if w == "declare" and len(x) == 3 and isinstance(x[2], Atom):
        return x[2].text
    if w == "define" and len(x) == 3:
        head = x[1].head if isinstance(x[1], SList) and x[1].items else x[1]
        return head.text if isinstance(head, Atom) else None
    return None


def _error(src: SourceFile, at, message: str) -> LoadError:
    return LoadError([src.diag("error", "variant", message, at.span)])
