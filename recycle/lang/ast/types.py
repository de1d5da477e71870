"""The static types of expressions (language spec §3.1), pile kinds (§8.3), and the base of every node."""
from __future__ import annotations

import enum

import attrs

from ...errors import NOWHERE, Span


class T(enum.StrEnum):
    """Static types of expressions (language spec §3.1)."""

    INT = "Integer"
    STR = "String"
    BOOL = "Boolean"
    CARD = "Card"
    PILE = "Pile"
    PILES = "PileCollection"
    PLAYER = "Player"
    TEAM = "Team"
    PLAYERS = "PlayerCollection"
    TEAMS = "TeamCollection"
    STRS = "StringCollection"
    INTS = "IntegerCollection"
    GROUPS = "GroupCollection"  # a collection of PileCollections: `components` (extensions E1)
    POINTS = "PointMap"
    RULES = "MeldRules"  # how cards form melds (meldrules)

    def __str__(self) -> str:  # messages say "a Pile", not "T.PILE"
        return self.value


ELEMENT = {
    T.PILE: T.CARD,
    T.PILES: T.PILE,
    T.PLAYERS: T.PLAYER,
    T.TEAMS: T.TEAM,
    T.STRS: T.STR,
    T.INTS: T.INT,
    T.GROUPS: T.PILES,
}
COLLECTIONS = frozenset(ELEMENT)


class Visibility(enum.StrEnum):
    """Pile kinds and who sees them (language spec §8.3)."""

    VISIBLE = "vloc"
    INVISIBLE = "iloc"
    HIDDEN = "hloc"
    OTHERS = "oloc"
    MEMORY = "mem"


@attrs.frozen(slots=True)
class Node:
    span: Span = attrs.field(default=NOWHERE, eq=False, repr=False, kw_only=True)
