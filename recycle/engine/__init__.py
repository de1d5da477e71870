"""The engine stage: game states as plain data and the machine that runs a compiled program on them."""
