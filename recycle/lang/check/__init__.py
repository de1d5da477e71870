"""The typed pass: S-expressions -> checked AST, with every load-time error and warning (language spec §3, §19)."""
from __future__ import annotations

from collections.abc import Mapping

from ...errors import Diagnostic
from .. import ast as A
from ..source import SourceFile
from .base import Fail
from .builder import Builder
from .setup import check_setup, game

__all__ = ["check_game", "judge_trial"]


def check_game(src: SourceFile, forms: list, warnings: list[Diagnostic], params: dict,
               sources: Mapping[str, SourceFile] | None = None) -> tuple[A.Game | None, list[Diagnostic],
                                                                        list[Diagnostic]]:
    """Check the top-level forms of one file (`sources`: the files of the games it builds on): (the game or
    None, errors, warnings); a mistake reached twice (a definition used twice) is reported once."""
    b = Builder(src, sources)
    b.warnings.extend(warnings)
    checked = _check(b, forms, params)
    return checked, _once(b.errors), _once(b.warnings)


def judge_trial(src: SourceFile, forms: list) -> tuple[int, int]:
    """(load-time errors, work beyond the tokens) of forms checked as a game without parameters: how the
    reader judges a place for a missing `)`, and the part of the check's cost that the forms' own size
    does not show: the forms expanded from uses of definitions (each use is checked anew) and, when the
    check gets that far, the constants worked out (the cards of the decks, the elements of the
    declared lists)."""
    b = Builder(src, None)
    _check(b, forms, {})
    return len(_once(b.errors)), b.expanded_forms + b.constant_elements


def _check(b: Builder, forms: list, params: dict) -> A.Game | None:
    try:
        checked = game(b, forms)
    except Fail:
        checked = None
    if checked is not None and not b.errors:
        check_setup(b, checked, params)
    return checked


def _once(diags: list[Diagnostic]) -> list[Diagnostic]:
    seen: set = set()
    out = []
    for d in diags:
        key = (d.span, d.cls, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out
