"""Least deadwood: the disjoint melds of a hand that leave out the least value (Gin Rummy's count).

Given cards, their `MeldRules` and an integer value per card, `least_deadwood` chooses a
family of pairwise disjoint melds among `all_melds(rules, cards)` minimising the deadwood,
the total value of the cards in no chosen meld, and returns (deadwood, melds), the melds in
`all_melds` order.  Values may be any integers (a card of negative value is better left out).

Ties: of two families with the same deadwood, the first card (in input order) that they treat
differently decides.  A card in a meld beats a card left out; of two melds, the one with more
cards wins, then the one that comes first in `all_melds`.  So a long run is kept whole rather
than cut in two, and earlier cards are melded in preference to later ones of the same value.

The search is a depth-first branch and bound over bitmasks of the undecided cards.  The first
undecided card is put in one of the candidate melds whose first card it is and whose other
cards are all undecided (bigger melds first, then in `all_melds` order), or else left out;
this is the order of the tie rule, so the first family found with a given deadwood is the one
the rule picks, and a later one replaces it only if strictly better.  A branch is searched
only for a deadwood below the best so far (its budget); every bitmask's exact least deadwood
is remembered, and so is the lower bound learnt when a budget could not be met.  A lower bound
of any bitmask is the sum of its negative values (0 with non-negative values, so a hand going
gin stops the search at once).  Cards in no meld are left out before the search.  Past
MAX_STATES (1,000,000) remembered bitmasks least_deadwood raises ResourceLimit (all_melds
raises it first past its own cap of melds).
"""
from __future__ import annotations

from collections.abc import Sequence

from recycle.engine.algorithms import ResourceLimit
from recycle.engine.melds import MAX_MELDS, CardInfo, MeldRules, all_melds

__all__ = ["MAX_STATES", "least_deadwood"]

MAX_STATES = 1_000_000


def least_deadwood(rules: MeldRules, cards: Sequence[CardInfo], values: Sequence[int],
                   cap: int = MAX_MELDS, max_states: int = MAX_STATES) -> tuple[int, list[tuple[int, ...]]]:
    """The least deadwood of the cards and the disjoint melds that achieve it (ties as documented)."""
    if len(values) != len(cards):
        raise ValueError(f"least_deadwood needs one value per card: {len(cards)} cards, {len(values)} values")
    melds = all_melds(rules, cards, cap)
    total = sum(values)
    if not melds:
        return total, []
    # Only cards in some meld are searched, renumbered 0 … m-1 in input order, so that bit i of
    # a mask is the i-th of them and the lowest set bit is the first undecided card.
    used = sorted({i for meld in melds for i in meld})
    bit = {card: b for b, card in enumerate(used)}
    weight = [values[i] for i in used]
    masks = [sum(1 << bit[i] for i in meld) for meld in melds]
    # The choices for a first card, in order of preference: its melds, bigger first, then leaving it out.
    starting: list[list[tuple[int, int]]] = [[] for _ in used]  # first card -> (mask, meld order)
    for order, mask in enumerate(masks):
        starting[(mask & -mask).bit_length() - 1].append((mask, order))
    for options in starting:
        options.sort(key=lambda option: (-option[0].bit_count(), option[1]))
    negative = [min(w, 0) for w in weight]
    any_negative = any(negative)
    left_out = -1
    exact: dict[int, tuple[int, int]] = {}  # mask -> (least deadwood, best choice for its first card)
    lower: dict[int, int] = {}  # mask -> a lower bound of its least deadwood, from a failed search

    def floor(mask: int) -> int:
        """A lower bound of the deadwood of the cards of mask: their negative values."""
        if not any_negative:
            return 0
        total = 0
        while mask:
            low = mask & -mask
            total += negative[low.bit_length() - 1]
            mask ^= low
        return total

    def solve(mask: int, budget: int) -> int:
        """The least deadwood of mask if it is below budget (then it is in `exact`), else a lower bound >= budget."""
        hit = exact.get(mask)
        if hit is not None:
            return hit[0]
        bound = lower.get(mask)
        if bound is not None and bound >= budget:
            return bound
        least = floor(mask)
        if least >= budget:
            return least
        low = (mask & -mask).bit_length() - 1
        best, choice, found = budget, left_out, False
        failed: int | None = None  # the least of the lower bounds returned by failed choices
        for m, order in starting[low]:
            if mask & m == m:
                rest = mask ^ m
                v = solve(rest, best) if rest else 0
                # only a strictly better family replaces the best: earlier choices win ties
                if v < best:
                    best, choice, found = v, order, True
                elif failed is None or v < failed:
                    failed = v
        w = weight[low]
        rest = mask & (mask - 1)
        v = (solve(rest, best - w) if rest else 0) + w
        if v < best:
            best, choice, found = v, left_out, True
        if len(exact) + len(lower) >= max_states:
            raise ResourceLimit(f"the least-deadwood search went past {max_states:,} positions")
        if found:
            exact[mask] = (best, choice)
            return best
        # every choice failed, so every bound is >= budget and so is their least
        bound = v if failed is None or v < failed else failed
        lower[mask] = bound
        return bound

    full = (1 << len(used)) - 1
    # no family leaves out more than every positive value: with this budget the answer is exact
    dead = solve(full, sum(w for w in weight if w > 0) + 1)
    chosen: list[int] = []
    mask = full
    while mask:
        choice = exact[mask][1]
        if choice == left_out:
            mask &= mask - 1
        else:
            chosen.append(choice)
            mask ^= masks[choice]
    unused = total - sum(weight)
    return dead + unused, [melds[order] for order in sorted(chosen)]
