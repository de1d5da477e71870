"""The compiler stage: a checked AST -> an engine `Program` of closures, each node compiled once."""
from __future__ import annotations

from .compiler import compile_game, compile_loaded, load_program

__all__ = ["compile_game", "compile_loaded", "load_program"]
