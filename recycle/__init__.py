"""recycle: the interpreter and toolkit for RECYCLE, the card-game description language."""

from .version import __version__

__all__ = ["__version__"]
