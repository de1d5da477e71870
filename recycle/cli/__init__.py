"""The command-line stage: `recycle check|run|replay|games|play|flow|stats`, a thin layer over the library."""
from __future__ import annotations

from .main import main

__all__ = ["main"]
