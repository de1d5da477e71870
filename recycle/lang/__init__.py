"""The language stage: game text -> checked, typed AST (reader, AST nodes, printer, checker).

    loaded = load_game("games/block_rummy.gdl")     # raises LoadError with every diagnostic
    loaded.game                                      # the ast.Game
"""
from __future__ import annotations

from .load import Loaded, load_game, load_source, parse_game, parse_source
from .source import SourceFile, source_hash

__all__ = ["Loaded", "SourceFile", "load_game", "load_source", "parse_game", "parse_source", "source_hash"]
