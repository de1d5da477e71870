"""Time least_deadwood (recycle.engine.meld_search) on random rummy hands and print the figures.

    python bench/melds.py [--hands N] [--wild-hands M] [--seed S]

Three batches of seeded random hands, each timed hand by hand with perf_counter (the meld
summaries of the cards are made beforehand, as a caller caching them per card kind would):

    gin-10   N hands of 10 cards from one 52-card deck, no wild cards (Gin Rummy: ace low,
             melds of 3, values A=1, 2-10 face, J/Q/K=10)
    gin-11   N hands of 11 cards, the same rules (a hand just after drawing)
    wild-14  M hands of 12 cards from two decks and 2 jokers (wild), at random positions

For each: mean, median, 99th percentile and maximum time per hand, and "worst": the 20
slowest hands timed again 5 times each, the largest of their best times, which is the cost of
the hardest hand without the machine's noise (a single time can catch a pause of the OS or
the collector).  The garbage collector is frozen after setup so that the benchmark's own
objects are not walked; the figures are those of this machine and this CPython, not a test.
"""
from __future__ import annotations

import argparse
import gc
import platform
import random
import statistics
import time

from recycle.engine.meld_search import least_deadwood
from recycle.engine.melds import CardInfo, MeldRules, card_info

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
RULES = MeldRules("RANK", RANKS, "SUIT", wild=((("RANK", "JOKER"),),))


def deck() -> tuple[list[CardInfo], list[int]]:
    """The 52 cards' summaries and Gin values."""
    cards = [card_info(RULES, {"RANK": r, "SUIT": s}) for s in SUITS for r in RANKS]
    return cards, [min(10, i % 13 + 1) for i in range(52)]


def gin_hands(rng: random.Random, count: int, size: int) -> list[tuple[list[CardInfo], list[int]]]:
    cards, values = deck()
    out = []
    for _ in range(count):
        hand = rng.sample(range(52), size)
        out.append(([cards[c] for c in hand], [values[c] for c in hand]))
    return out


def wild_hands(rng: random.Random, count: int) -> list[tuple[list[CardInfo], list[int]]]:
    cards, values = deck()
    joker = card_info(RULES, {"RANK": "JOKER"})
    out = []
    for _ in range(count):
        hand = [(cards[c % 52], values[c % 52]) for c in rng.sample(range(104), 12)]
        for _ in range(2):
            hand.insert(rng.randint(0, len(hand)), (joker, 0))
        out.append(([c for c, _ in hand], [v for _, v in hand]))
    return out


def time_hand(cards: list[CardInfo], values: list[int]) -> float:
    """Seconds for one hand."""
    t = time.perf_counter()
    least_deadwood(RULES, cards, values)
    return time.perf_counter() - t


def time_hands(hands: list[tuple[list[CardInfo], list[int]]]) -> tuple[list[float], float]:
    """Seconds per hand, and the worst of the slowest hands' best-of-5 times."""
    for cards, values in hands[:50]:  # warm up
        least_deadwood(RULES, cards, values)
    times = [time_hand(cards, values) for cards, values in hands]
    slowest = sorted(range(len(hands)), key=times.__getitem__)[-20:]
    worst = max(min(time_hand(*hands[i]) for _ in range(5)) for i in slowest)
    return times, worst


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=10_000, help="hands per Gin batch (default 10,000)")
    ap.add_argument("--wild-hands", type=int, default=2_000, help="hands of the wild batch (default 2,000)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    batches = {
        "gin-10": gin_hands(rng, args.hands, 10),
        "gin-11": gin_hands(rng, args.hands, 11),
        "wild-14": wild_hands(rng, args.wild_hands),
    }
    gc.collect()
    gc.freeze()
    print(f"least_deadwood, CPython {platform.python_version()} on {platform.machine()}, seed {args.seed}")
    print(f"{'batch':8} {'hands':>6} {'mean µs':>9} {'median µs':>10} {'p99 µs':>8} {'max µs':>8} {'worst µs':>9}")
    for name, hands in batches.items():
        times, worst = time_hands(hands)
        ts = sorted(times)
        p99 = ts[min(len(ts) - 1, int(0.99 * len(ts)))]
        print(f"{name:8} {len(ts):6} {statistics.fmean(ts) * 1e6:9.1f} {statistics.median(ts) * 1e6:10.1f} "
              f"{p99 * 1e6:8.1f} {ts[-1] * 1e6:8.1f} {worst * 1e6:9.1f}")


if __name__ == "__main__":
    main()
