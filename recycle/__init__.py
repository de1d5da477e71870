"""recycle: the interpreter and toolkit for RECYCLE, the card-game description language."""

__version__ = "0.1.0"
