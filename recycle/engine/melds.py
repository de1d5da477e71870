"""Rummy melds: what a set, a run and a meld are, and every meld a collection of cards holds.

The algorithms behind the forms `isset`, `isrun … using RULES`, `ismeld`, `fits` and `melds`
(the least-deadwood search behind `bestmelds` and `deadwood` is in `meld_search`).  Nothing
here touches game state: a card is its `CardInfo`, made once per card kind by `card_info`
from the card's effective attributes, and melds are tuples of positions in the caller's
sequence of cards.  Invalid rules raise ValueError; too many melds raise ResourceLimit.

Definitions (n is the number of rank values; a rank is a value's position in `ranks`)
-------------------------------------------------------------------------------------
A card is **wild** if, for some condition of `wild`, every (attribute, value) pair of the
condition matches the card; a wild card's own rank and suit do not matter.  A card that is not
wild is **natural** if its rank attribute holds one of `ranks`; a card that is neither is never
in a meld.  With `suit_attr`, a card's suit is the value of that attribute (a card without it
has the suit None, which matches only None).  Wild cards stand for any missing card; the rules
do not know how many suits there are, so nothing limits how many wild cards a set may take.

- A **set** is at least `min_size` cards, at least one of them natural, every one natural or
  wild, all natural cards of one rank and, with `distinct_suits`, of pairwise distinct suits.
- A **run** is at least `min_size` cards, at least one of them natural, every one natural or
  wild, the natural cards of pairwise distinct ranks and (with `suit_attr`) all of one suit,
  that can be laid, in some order, on a sequence of consecutive positions, one card per
  position, each natural card on its rank's position and each wild card on any free one (a gap
  between natural cards, or an extension at either end).  The positions depend on `ace`, the
  rule for ranks[0]:
    "low"     positions 0 … n-1, rank r at position r (A-2-3 runs, Q-K-A does not);
    "high"    ranks[0] is position n, after ranks[-1] (Q-K-A runs, A-2-3 does not);
    "both"    a run is "low" or "high": ranks[0] ends either end but never both in one run;
    "around"  positions are cyclic, K-A-2 runs; a run has at most n cards.
  In every case a run has at most n cards.  The order in which cards are given never matters.
- A **meld** is a set or a run.
- A card **fits** a meld if the meld with the card added is a meld (the meld itself is not
  checked: a card fits a non-meld that it completes).

`all_melds(rules, cards)` lists every sub-collection of the cards that is a meld, each once,
as the ascending tuple of its positions: first the sets, by rank (in the order of `ranks`);
then the runs, by suit (suits in the order in which they first appear on a natural card of
the input; one group without `suit_attr`); within a rank or a suit, by their position tuples
compared lexicographically (so a meld comes just before its extensions).  A collection that is
both a set and a run (one natural card and wild cards, or one card with `min_size` 1) is listed
once, as a set.  The number of melds grows fast with wild cards and duplicates (with k wild
cards, each natural card alone makes about 2**k melds); past MAX_MELDS (100,000) melds
all_melds raises ResourceLimit rather than build them.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations, pairwise, product
from math import comb

import attrs

from ..lang.meldrules import ACE_RULES, MeldRules
from .algorithms import ResourceLimit

__all__ = [
    "ACE_RULES",
    "MAX_MELDS",
    "CardInfo",
    "MeldRules",
    "ResourceLimit",
    "all_melds",
    "card_info",
    "fits",
    "is_meld",
    "is_run",
    "is_set",
]

MAX_MELDS = 100_000


@attrs.frozen(slots=True)
class CardInfo:
    """What melds need to know of one card: its rank position, its suit and whether it is wild."""

    rank: int | None  # position of the rank value in MeldRules.ranks; None: not a rank value
    suit: str | None  # None without suit_attr, or when the card lacks the attribute
    wild: bool


def card_info(rules: MeldRules, att: Mapping[str, str]) -> CardInfo:
    """The meld summary of a card given by its effective attributes (cache it per card kind)."""
    wild = any(all(att.get(a) == v for a, v in cond) for cond in rules.wild)
    value = att.get(rules.rank_attr)
    rank = rules._rank_index.get(value) if value is not None else None
    suit = att.get(rules.suit_attr) if rules.suit_attr is not None else None
    return CardInfo(rank, suit, wild)


# ---------------------------------------------------------------- single melds


def is_set(rules: MeldRules, cards: Sequence[CardInfo]) -> bool:
    """Whether the cards are a set."""
    if len(cards) < rules.min_size:
        return False
    rank: int | None = None
    suits: set[str | None] = set()
    for c in cards:
        if c.wild:
            continue
        if c.rank is None:
            return False
        if rank is None:
            rank = c.rank
        elif c.rank != rank:
            return False
        if rules.distinct_suits:
            if c.suit in suits:
                return False
            suits.add(c.suit)
    return rank is not None


def is_run(rules: MeldRules, cards: Sequence[CardInfo]) -> bool:
    """Whether the cards are a run."""
    size = len(cards)
    n = len(rules.ranks)
    if size < rules.min_size or size > n:
        return False
    ranks: list[int] = []
    suit: str | None = None
    for c in cards:
        if c.wild:
            continue
        if c.rank is None:
            return False
        if rules.suit_attr is not None:
            if not ranks:
                suit = c.suit
            elif c.suit != suit:
                return False
        ranks.append(c.rank)
    if not ranks or len(set(ranks)) != len(ranks):
        return False
    return _cover(rules.ace, n, ranks) <= size


def is_meld(rules: MeldRules, cards: Sequence[CardInfo]) -> bool:
    """Whether the cards are a meld (a set or a run)."""
    return is_set(rules, cards) or is_run(rules, cards)


def fits(rules: MeldRules, card: CardInfo, meld: Sequence[CardInfo]) -> bool:
    """Whether the meld with the card added is a meld."""
    return is_meld(rules, [*meld, card])


def _cover(ace: str, n: int, ranks: Sequence[int]) -> int:
    """The fewest consecutive positions that hold the given distinct ranks, under the ace rule."""
    if ace == "low":
        return max(ranks) - min(ranks) + 1
    if ace == "high":
        # ranks[0] moves after ranks[-1]: shift every position down by one, cyclically
        shifted = [(r - 1) % n for r in ranks]
        return max(shifted) - min(shifted) + 1
    if ace == "both":
        return min(_cover("low", n, ranks), _cover("high", n, ranks))
    # around: the shortest arc is the circle minus its largest empty gap
    s = sorted(ranks)
    gap = s[0] + n - s[-1] - 1
    for a, b in pairwise(s):
        gap = max(gap, b - a - 1)
    return n - gap


# ---------------------------------------------------------------- every meld of a collection


class _Counter:
    """Counts melds as they are made and raises ResourceLimit past the cap."""

    __slots__ = ("cap", "count")

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.count = 0

    def add(self, k: int) -> None:
        self.count += k
        if self.count > self.cap:
            raise ResourceLimit(f"these cards hold more than {self.cap:,} melds (too many wild or duplicate cards)")


def all_melds(rules: MeldRules, cards: Sequence[CardInfo], cap: int = MAX_MELDS) -> list[tuple[int, ...]]:
    """Every sub-collection of the cards that is a meld, as position tuples, in the documented order."""
    wilds: list[int] = []
    by_rank: dict[int, list[int]] = {}
    by_suit: dict[str | None, list[int]] = {}  # insertion order is the order of first appearance
    suited = rules.suit_attr is not None
    for i, c in enumerate(cards):
        if c.wild:
            wilds.append(i)
        elif c.rank is not None:
            by_rank.setdefault(c.rank, []).append(i)
            by_suit.setdefault(c.suit if suited else None, []).append(i)
    counter = _Counter(cap)
    out: list[tuple[int, ...]] = []
    k = len(wilds)
    for rank in sorted(by_rank):
        pos = by_rank[rank]
        if len(pos) + k < rules.min_size:
            continue
        if rules.distinct_suits:
            suit_groups: dict[str | None, list[int]] = {}
            for i in pos:
                suit_groups.setdefault(cards[i].suit, []).append(i)
            groups = list(suit_groups.values())
        else:
            groups = [[i] for i in pos]
        found: list[tuple[int, ...]] = []
        for naturals in _one_per_group(groups):
            lo = max(0, rules.min_size - len(naturals))
            _with_wilds(naturals, wilds, lo, k, found, counter)
        found.sort()
        out.extend(found)
    n = len(rules.ranks)
    for pos in by_suit.values():
        found = []
        for ranks, cover in _rank_subsets(rules.ace, n, pos, cards, k).items():
            size = len(ranks)
            lo = max(0, cover - size, rules.min_size - size)
            hi = min(k, n - size)
            if lo > hi:
                continue
            columns = [[i for i in pos if cards[i].rank == r] for r in ranks]
            for naturals in product(*columns):
                _with_wilds(naturals, wilds, lo, hi, found, counter)
        found.sort()
        out.extend(found)
    return out


def _one_per_group(groups: list[list[int]]) -> Iterator[tuple[int, ...]]:
    """Every non-empty choice of at most one position from each group."""
    for choice in product(*[[-1, *g] for g in groups]):
        picked = tuple(i for i in choice if i >= 0)
        if picked:
            yield picked


def _with_wilds(naturals: Sequence[int], wilds: list[int], lo: int, hi: int,
                out: list[tuple[int, ...]], counter: _Counter) -> None:
    """Append the natural cards joined with every choice of lo … hi wild cards."""
    if lo > hi:
        return
    counter.add(sum(comb(len(wilds), j) for j in range(lo, hi + 1)))
    if hi == 0:
        out.append(tuple(sorted(naturals)))
        return
    for j in range(lo, hi + 1):
        for ws in combinations(wilds, j):
            out.append(tuple(sorted((*naturals, *ws))))


def _rank_subsets(ace: str, n: int, pos: list[int], cards: Sequence[CardInfo], k: int) -> dict[tuple[int, ...], int]:
    """Sets of at least two distinct ranks present that k wild cards can make a run: ranks -> cover.

    A run with one natural card is also a set, so it is listed with the sets only.
    """
    present = sorted({r for i in pos if (r := cards[i].rank) is not None})
    # each linear placement of the positions: rank -> position, and the ranks a subset may start at
    placements: list[tuple[dict[int, int], list[int]]]
    if ace == "low":
        placements = [({r: r for r in present}, present)]
    elif ace == "high":
        placements = [({r: (r - 1) % n for r in present}, present)]
    elif ace == "both":
        placements = [({r: r for r in present}, present), ({r: (r - 1) % n for r in present}, present)]
    else:
        # around: cut the circle just before each present rank in turn
        placements = [({r: (r - a) % n for r in present}, [a]) for a in present]
    found: dict[tuple[int, ...], int] = {}
    for place, starts in placements:
        line = sorted(present, key=place.__getitem__)
        for first in starts:
            at = line.index(first)
            _extend(line, place, at, [first], k, found)
    return found


def _extend(line: list[int], place: dict[int, int], at: int, chosen: list[int], k: int,
            found: dict[tuple[int, ...], int]) -> None:
    """Grow `chosen` (ranks along `line`, the last at index `at`) while the gaps stay within k wild cards."""
    start = place[chosen[0]]
    for nxt in range(at + 1, len(line)):
        r = line[nxt]
        cover = place[r] - start + 1
        if cover - (len(chosen) + 1) > k:
            break  # positions only grow along the line: later ranks leave bigger gaps
        chosen.append(r)
        key = tuple(sorted(chosen))
        old = found.get(key)
        if old is None or cover < old:
            found[key] = cover
        _extend(line, place, nxt, chosen, k, found)
        chosen.pop()
