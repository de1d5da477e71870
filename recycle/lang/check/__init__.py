"""The typed pass: S-expressions -> checked AST, with every load-time error and warning (language spec §3, §19)."""
from __future__ import annotations

from ...errors import Diagnostic
from .. import ast as A
from ..source import SourceFile
from .base import Fail
from .builder import Builder
from .setup import check_setup, game

__all__ = ["check_game"]


def check_game(src: SourceFile, forms: list, warnings: list[Diagnostic],
               params: dict) -> tuple[A.Game | None, list[Diagnostic], list[Diagnostic]]:
    """Check the top-level forms of one file: (the game or None, errors, warnings)."""
    b = Builder(src)
    b.warnings.extend(warnings)
    try:
        checked = game(b, forms)
    except Fail:
        checked = None
    if checked is not None and not b.errors:
        check_setup(b, checked, params)
    return checked, b.errors, b.warnings
