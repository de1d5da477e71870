"""recycle: the interpreter and toolkit for RECYCLE, the card-game description language.

    import recycle

    game = recycle.load("block_rummy")
    state = game.start(seed=1)
    while not state.is_over:
        state.apply(state.options()[0])
    print(state.result().scores)

See `recycle.api` for the whole public API; the packages below it are the pipeline's stages
(docs/architecture.md).
"""
from .api import Action, Game, GameState, Option, Player, load, shipped_games
from .engine.results import GameResult
from .errors import GameRuntimeError, LoadError, RecycleError, UsageError
from .players.random_player import RandomPlayer
from .version import __version__

__all__ = [
    "Action", "Game", "GameResult", "GameRuntimeError", "GameState", "LoadError", "Option", "Player", "RandomPlayer",
    "RecycleError", "UsageError", "__version__", "load", "shipped_games",
]
