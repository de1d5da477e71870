"""Player kinds by name and lineup code (flow-and-analytics §0: `R` = uniform random).

| code | name | player | budget (`--ai-budget`) |
|---|---|---|---|
| R | random | uniform over the option list | — |
| F | montecarlo | flat Monte Carlo over sampled worlds | playouts per option (default 10) |
| M | mcts | single-observer IS-MCTS | iterations per decision (default 200) |
| P | pimc | PIMC: UCT in sampled worlds, votes combined | iterations per decision (default 200) |
| H | human | a person at the terminal | — |
"""
from __future__ import annotations

from .base import Player
from .human import HumanPlayer
from .mcts import ISMCTSPlayer, PIMCPlayer
from .montecarlo import FlatMonteCarloPlayer, SearchPlayer
from .random_player import RandomPlayer

KINDS: dict[str, type[Player]] = {
    "R": RandomPlayer,
    "F": FlatMonteCarloPlayer,
    "M": ISMCTSPlayer,
    "P": PIMCPlayer,
    "H": HumanPlayer,
}
NAMES: dict[str, str] = {"random": "R", "montecarlo": "F", "mcts": "M", "pimc": "P", "human": "H"}
# Kinds that search and can report the estimates of flow-and-analytics §3.5.
SEARCHERS: dict[str, type[SearchPlayer]] = {"F": FlatMonteCarloPlayer, "M": ISMCTSPlayer, "P": PIMCPlayer}
SEARCHING = frozenset(SEARCHERS)


def code_of(word: str) -> str | None:
    """The lineup code for a player name or code (`random`, `R`), or None."""
    w = word.strip()
    if w in KINDS:
        return w
    return NAMES.get(w.lower())


def make(code: str, budget: int | None = None, record_estimates: bool = False) -> Player:
    """A fresh player object of that kind; `budget` and `record_estimates` apply to searching kinds only."""
    if code in SEARCHING:
        return make_searcher(code, budget, record_estimates)
    return KINDS[code]()


def make_searcher(code: str, budget: int | None = None, record_estimates: bool = False) -> SearchPlayer:
    """A fresh searching player (code in SEARCHING)."""
    return SEARCHERS[code](budget=budget, record_estimates=record_estimates)


def describe() -> str:
    return ", ".join(f"{name} ({code})" for name, code in NAMES.items())
