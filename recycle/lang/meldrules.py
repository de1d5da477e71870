"""What `(meldrules …)` means: how a game's cards form melds, checked when the rules are made.

The checker builds these rules at load time (so a bad rule is a positioned error) and the
engine's meld algorithms (recycle.engine.melds) read them; the definitions of sets, runs and
melds are in that module's docstring and in docs/language.md.
"""
from __future__ import annotations

from collections.abc import Iterable

import attrs

ACE_RULES = ("low", "high", "both", "around")
Condition = tuple[tuple[str, str], ...]


def _rank_values(value: Iterable[str]) -> tuple[str, ...]:
    """`ranks` as a tuple; a bare string is refused rather than split into characters."""
    if isinstance(value, str):
        raise ValueError(f"meld ranks must be a sequence of rank values, not the string {value!r}")
    return tuple(value)


def _conditions(value: Iterable[Iterable[tuple[str, str]]]) -> tuple[Condition, ...]:
    """`wild` as a tuple of tuples of (attribute, value) pairs."""
    return tuple(tuple((a, v) for a, v in cond) for cond in value)


@attrs.frozen
class MeldRules:
    """How a game's cards form melds (see the module docstring for the definitions)."""

    rank_attr: str
    ranks: tuple[str, ...] = attrs.field(converter=_rank_values)
    suit_attr: str | None = None
    ace: str = "low"
    wild: tuple[Condition, ...] = attrs.field(default=(), converter=_conditions)
    min_size: int = 3
    distinct_suits: bool = False
    _rank_index: dict[str, int] = attrs.field(init=False, repr=False, eq=False)

    @_rank_index.default
    def _index_ranks(self) -> dict[str, int]:
        return {value: i for i, value in enumerate(self.ranks)}

    def __attrs_post_init__(self) -> None:
        if not self.ranks:
            raise ValueError("meld rules need at least one rank value")
        if len(self._rank_index) != len(self.ranks):
            dup = next(v for i, v in enumerate(self.ranks) if v in self.ranks[:i])
            raise ValueError(f"rank value {dup!r} is listed twice in the meld ranks")
        if self.ace not in ACE_RULES:
            raise ValueError(f"unknown ace rule {self.ace!r}: expected one of {', '.join(ACE_RULES)}")
        if self.min_size < 1:
            raise ValueError(f"the smallest meld must have at least 1 card, got {self.min_size}")
        if any(not cond for cond in self.wild):
            # an empty condition would make every card wild
            raise ValueError("a wild-card condition needs at least one (attribute, value) pair")
        if self.distinct_suits and self.suit_attr is None:
            raise ValueError("sets of distinct suits need the suit attribute (suit_attr)")
