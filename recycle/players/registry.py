"""Player kinds by name and lineup code (flow-and-analytics §0: `R` = uniform random)."""
from __future__ import annotations

from typing import Optional

from .base import Player
from .random_player import RandomPlayer

KINDS: dict[str, type] = {"R": RandomPlayer}
NAMES: dict[str, str] = {"random": "R"}


def code_of(word: str) -> Optional[str]:
    """The lineup code for a player name or code (`random`, `R`), or None."""
    w = word.strip()
    if w in KINDS:
        return w
    return NAMES.get(w.lower())


def make(code: str) -> Player:
    """A fresh player object of that kind."""
    return KINDS[code]()


def describe() -> str:
    return ", ".join(f"{name} ({code})" for name, code in NAMES.items())
