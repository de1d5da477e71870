"""Meld nodes: the rules by which a game's cards form melds, and the questions asked of them."""
from __future__ import annotations

import attrs

from .expressions import Condition, Expr

# ---------------------------------------------------------------- rules


@attrs.frozen(slots=True)
class MeldRulesForm(Expr):
    """`(meldrules (rank KEY (V, …)) [(suit KEY)] [(ace low|high|both|around)] [(wild COND …)] [(size N)]
    [(distinct)])`: a constant value of type MeldRules."""

    rank: str
    ranks: tuple[str, ...]
    suit: str | None = None
    ace: str = "low"
    wild: tuple[tuple[Condition, ...], ...] = ()
    size: Expr | None = None
    distinct: bool = False


# ---------------------------------------------------------------- questions


@attrs.frozen(slots=True)
class MeldTest(Expr):
    """`(isset|isrun|ismeld P using RULES)`: is the pile, as a whole, a set, a run, a meld."""

    test: str  # "isset" | "isrun" | "ismeld"
    pile: Expr
    rules: Expr


@attrs.frozen(slots=True)
class Melds(Expr):
    """`(melds P using RULES)`: every meld that some of the pile's cards form (a PileCollection)."""

    pile: Expr
    rules: Expr


@attrs.frozen(slots=True)
class Deadwood(Expr):
    """`(deadwood P using RULES VALUES)` (the least value left out of disjoint melds) and
    `(bestmelds P using RULES VALUES)` (the melds that leave it)."""

    what: str  # "deadwood" | "bestmelds"
    pile: Expr
    rules: Expr
    points: Expr


@attrs.frozen(slots=True)
class Fits(Expr):
    """`(fits C M using RULES)`: the meld M with the card C added is a meld (a lay-off)."""

    card: Expr
    meld: Expr
    rules: Expr
