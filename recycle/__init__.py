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

# The notebook API (recycle.visualize.notebook) needs matplotlib and graphviz, which playing does not:
# its names are imported on first use.
_NOTEBOOK = ("Batch", "flow_diagram", "run_batch", "view")


def __getattr__(name: str):
    if name in _NOTEBOOK:
        from .visualize import notebook

        return getattr(notebook, name)
    raise AttributeError(f"module 'recycle' has no attribute {name!r}")


__all__ = [
    "Action", "Batch", "Game", "GameResult", "GameRuntimeError", "GameState", "LoadError", "Option", "Player",
    "RandomPlayer", "RecycleError", "UsageError", "__version__", "flow_diagram", "load", "run_batch", "shipped_games",
    "view",
]
