"""Pure algorithms behind RECYCLE's collection and scoring forms, and the seed derivation.

Cards are small ints (card ids); a pile is a list of card ids, index 0 = bottom, last = top.
Scores and attribute values are computed by the caller and passed as lists parallel to the
cards.  Nothing here touches game state; invalid arguments raise ValueError (or a subclass),
which the interpreter turns into a run-time error with the form's position.  Section numbers
refer to the language spec (language.md).
"""
from __future__ import annotations

import struct
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from hashlib import sha256
from itertools import combinations, product
from operator import index, itemgetter
from typing import Any

from ..errors import UsageError

__all__ = [
    "ResourceLimit",
    "as_int",
    "competition_ranks",
    "derive",
    "disjunction",
    "intersect",
    "isrun",
    "partition",
    "run_at_end",
    "runs",
    "runs_ext",
    "sort_by_score",
    "subsets",
    "tuples",
    "union",
    "whole_number",
]

_first = itemgetter(0)
_first_u64 = struct.Struct(">Q").unpack_from  # int.from_bytes(digest[:8], "big"), without the slice


class ResourceLimit(ValueError):
    """An argument too large for this implementation (e.g. subsets of more than 20 cards)."""


# ---------------------------------------------------------------- pile collections (§9.3, §9.4)


def _score_groups(cards: Sequence[int], scores: Sequence[int]) -> dict[int, list[int]]:
    """Cards grouped by score, each group in pile order (dict in first-appearance order)."""
    groups: dict[int, list[int]] = {}
    for c, s in zip(cards, scores, strict=True):
        g = groups.get(s)
        if g is None:
            groups[s] = [c]
        else:
            g.append(c)
    return groups


def runs(cards: Sequence[int], scores: Sequence[int], n: int, mode: str) -> list[list[int]]:
    """§9.3 `runs largest|all N`: runs of consecutive scores, each ascending by score, in spec order."""
    if n < 1:
        raise ValueError(f"runs needs a length of at least 1, got {n}")
    if mode != "largest" and mode != "all":
        raise ValueError(f"unknown runs mode {mode!r}")
    if not cards:
        return []
    groups = _score_groups(cards, scores)
    values = sorted(groups)
    out: list[list[int]] = []
    nv = len(values)
    i = 0
    while i < nv:
        # the maximal block of consecutive values starting at values[i]
        j = i + 1
        while j < nv and values[j] == values[j - 1] + 1:
            j += 1
        length = j - i
        if length >= n:
            cols = [groups[values[k]] for k in range(i, j)]
            if mode == "largest":
                _emit(cols, out)
            else:
                for start in range(length - n + 1):
                    for end in range(start + n, length + 1):
                        _emit(cols[start:end], out)
        i = j
    return out


def _emit(cols: list[list[int]], out: list[list[int]]) -> None:
    """Append every choice of one card per column, lexicographically (columns in pile order)."""
    for col in cols:
        if len(col) != 1:
            out.extend(map(list, product(*cols)))
            return
    out.append([col[0] for col in cols])


def _check_step(step: int, modulus, negative: bool = False) -> int:
    """The effective step (modulo the cycle), validating `(step K)` and `(cyclic M)`."""
    if step == 0 or (step < 0 and not negative):
        raise ValueError(f"a run step must be at least 1, got {step}")
    if modulus is None:
        return step
    if modulus < 2:
        raise ValueError(f"a cyclic run needs a cycle of at least 2 values, got {modulus}")
    k = step % modulus
    if k == 0:
        raise ValueError(f"step {step} is a multiple of the cycle {modulus}: no two values follow each other")
    return k


def runs_ext(cards: Sequence[int], scores: Sequence[int], n: int, mode: str, step: int = 1,
             modulus=None) -> list[list[int]]:
    """E3 `runs largest|all N … (step K) (cyclic M)`: runs whose successive values differ by K (modulo M).

    Without `cyclic` this is `runs` with a step: blocks are maximal chains v, v+K, v+2K, …
    present in the cards; each run takes one card per value of a contiguous range of a
    block, and every choice of cards is a different run.  With `(cyclic M)` values are
    taken modulo M and chains may wrap.  A chain that closes on itself (every value of a
    whole cycle is present) can be walked round more than once when values have several
    cards; a run never uses a card twice, and of the rotations of a run whose length is a
    multiple of the cycle only the one starting at the cycle's lowest value is kept.

    Order: blocks by their first value (a closed cycle: its lowest value); within a block,
    runs by start position along the block, then by length; then card choices
    lexicographically (cards of one value in pile order).  Each run lists its cards from
    the start of the sequence (the bottom) to its end (the top).
    """
    if n < 1:
        raise ValueError(f"runs needs a length of at least 1, got {n}")
    if mode != "largest" and mode != "all":
        raise ValueError(f"unknown runs mode {mode!r}")
    k = _check_step(step, modulus)
    if modulus is None and k == 1:
        return runs(cards, scores, n, mode)
    if not cards:
        return []
    if modulus is not None:
        scores = [s % modulus for s in scores]
    groups = _score_groups(cards, scores)
    present = set(groups)

    def succ(v):
        return (v + k) % modulus if modulus is not None else v + k

    def pred(v):
        return (v - k) % modulus if modulus is not None else v - k

    blocks = []  # (first value, values along the block, closed cycle?)
    seen: set = set()
    for v in sorted(present):
        if v in seen:
            continue
        start, p, closed = v, pred(v), False
        while p in present:
            if p == v:  # came back round: a closed cycle, started at its lowest value
                closed = True
                start = v
                break
            start = p
            p = pred(p)
        vals, x = [], start
        while x in present and x not in vals:
            vals.append(x)
            x = succ(x)
        seen.update(vals)
        blocks.append((start if not closed else min(vals), vals, closed))
    blocks.sort(key=lambda b: b[0])
    out: list[list[int]] = []
    for _, vals, closed in blocks:
        cols = [groups[v] for v in vals]
        if not closed:
            L = len(vals)
            if n > L:
                continue
            if mode == "largest":
                _emit(cols, out)
            else:
                for a in range(L - n + 1):
                    for b in range(a + n, L + 1):
                        _emit(cols[a:b], out)
            continue
        _closed_runs(vals, cols, n, mode, out)
    return out


def _closed_runs(vals: list, cols: list, n: int, mode: str, out: list) -> None:
    """Runs round a closed cycle of values (see runs_ext)."""
    C = len(vals)
    counts = [len(c) for c in cols]
    total = sum(counts)

    def maxlen(s: int) -> int:
        used = [0] * C
        L = 0
        while total > L:
            i = (s + L) % C
            if used[i] == counts[i]:
                break
            used[i] += 1
            L += 1
        return L

    lens = [maxlen(s) for s in range(C)]
    if mode == "largest":
        top = max(lens)
        if top < n:
            return
        for s in range(C):
            if lens[s] == top and (top % C or s == 0):
                _emit_cyclic(s, top, cols, out)
        return
    for s in range(C):
        for L in range(n, lens[s] + 1):
            if L % C == 0 and s != 0:
                continue
            _emit_cyclic(s, L, cols, out)


def _emit_cyclic(s: int, L: int, cols: list, out: list) -> None:
    """Every choice of distinct cards for the value sequence of length L starting at position s."""
    C = len(cols)
    seq = [(s + i) % C for i in range(L)]
    need: dict = {}
    for i in seq:
        need[i] = need.get(i, 0) + 1
    order = list(need)  # positions in order of first appearance
    for pick in product(*[combinations(cols[i], need[i]) for i in order]):
        it = {i: iter(c) for i, c in zip(order, pick, strict=True)}
        out.append([next(it[i]) for i in seq])


def isrun(cards: Sequence[int], scores: Sequence[int], step: int = 1, modulus=None) -> bool:
    """E3 `isrun`: in the given order, each score is the previous plus K (modulo M); no card twice.

    An empty collection and a single card are runs (add a size condition where it matters).
    The order matters, so the step may be negative: (step (- 0 1)) tests a descending run.
    """
    k = _check_step(step, modulus, True)
    if len(set(cards)) != len(cards):
        return False
    for i in range(1, len(scores)):
        d = scores[i] - scores[i - 1]
        if modulus is None:
            if d != k:
                return False
        elif (d - k) % modulus:
            return False
    return True


def run_at_end(cards: Sequence[int], scores: Sequence[int], n: int, end: str) -> list[int]:
    """§9.4 `run top|bottom N`: the largest qualifying end slice (k ≥ N), ascending by score, or []."""
    if n < 1:
        raise ValueError(f"run needs a length of at least 1, got {n}")
    size = len(cards)
    if n > size:
        return []
    if end == "top":
        idx = range(size - 1, -1, -1)
    elif end == "bottom":
        idx = range(size)
    else:
        raise ValueError(f"unknown run end {end!r}")
    seen: set[int] = set()
    lo = hi = 0
    best = 0
    for k, p in enumerate(idx, start=1):
        s = scores[p]
        if s in seen:  # an equal score breaks this and every longer slice
            break
        seen.add(s)
        if k == 1:
            lo = hi = s
        elif s < lo:
            lo = s
        elif s > hi:
            hi = s
        if k >= n and hi - lo == k - 1:
            best = k
    if not best:
        return []
    sel = range(size - best, size) if end == "top" else range(best)
    return [cards[p] for p in sorted(sel, key=scores.__getitem__)]


def tuples(cards: Sequence[int], scores: Sequence[int], k: int) -> list[list[int]]:
    """§9.3 `tuples K`: equal-score K-combinations, groups by ascending score, positions lexicographic."""
    if k < 1:
        raise ValueError(f"tuples needs a size of at least 1, got {k}")
    groups = _score_groups(cards, scores)
    out: list[list[int]] = []
    for s in sorted(groups):
        g = groups[s]
        if len(g) >= k:
            out.extend(map(list, combinations(g, k)))
    return out


def subsets(cards: Sequence[int], limit: int = 20) -> list[list[int]]:
    """§9.3 `subsets`: all 2^n subsets in binary counting order (bit i = card i), empty first."""
    if len(cards) > limit:
        raise ResourceLimit(f"subsets of {len(cards)} cards exceeds the limit of {limit}")
    out: list[list[int]] = [[]]
    for c in cards:
        out.extend([[*s, c] for s in out])
    return out


def partition(cards: Sequence[int], values: Sequence[str]) -> list[list[int]]:
    """§9.3 `partition`: cards grouped by attribute value, groups by first appearance, scan order kept."""
    groups: dict[str, list[int]] = {}
    for c, v in zip(cards, values, strict=True):
        g = groups.get(v)
        if g is None:
            groups[v] = [c]
        else:
            g.append(c)
    return list(groups.values())


# ---------------------------------------------------------------- pile expressions (§9.2)


def union(piles: Sequence[Sequence[int]]) -> list[int]:
    """§9.2 `union`: concatenation in argument order, duplicates kept."""
    out: list[int] = []
    for p in piles:
        out.extend(p)
    return out


def intersect(piles: Sequence[Sequence[int]]) -> list[int]:
    """§9.2 `intersect`: cards in every argument, once each, in order of first appearance."""
    if not piles:
        return []
    rest = [set(p) for p in piles[1:]]
    out: list[int] = []
    seen: set[int] = set()
    for c in piles[0]:
        if c not in seen:
            seen.add(c)
            for r in rest:
                if c not in r:
                    break
            else:
                out.append(c)
    return out


def disjunction(piles: Sequence[Sequence[int]]) -> list[int]:
    """§9.2 `disjunction`: cards in exactly one argument, once each, in order of first appearance."""
    count: dict[int, int] = {}  # number of arguments holding each card
    for p in piles:
        for c in set(p):
            count[c] = count.get(c, 0) + 1
    out: list[int] = []
    seen: set[int] = set()
    for p in piles:
        for c in p:
            if c not in seen:
                seen.add(c)
                if count[c] == 1:
                    out.append(c)
    return out


def sort_by_score(cards: Sequence[int], scores: Sequence[int]) -> list[int]:
    """§9.2 `sort`: cards by ascending score, stable (ties keep pile order)."""
    return [c for _, c in sorted(zip(scores, cards, strict=True), key=_first)]


# ---------------------------------------------------------------- scoring (§15)


def competition_ranks(scores: Sequence[int], direction: str, keys=None) -> tuple[list[int], list[float]]:
    """§15: (1-based competition ranks, win shares 1/k for the k rank-1 players, else 0).

    `keys` (E5 `tiebreak`): per player a tuple of tie-break values, compared in order after
    the score and in the same direction; players equal on the score and every key tie.
    """
    # the scores, or with tie-break keys (score, *keys) tuples, compared as a whole
    ranked: Sequence[Any] = scores
    if keys is not None:
        ranked = [(s, *tuple(k)) for s, k in zip(scores, keys, strict=True)]
    # a rank is 1 + how many compare better: a bisection of the sorted values in C, not a count per pair
    # in Python (every game's result ranks its scores; issue 16)
    asc = sorted(ranked)
    if direction == "max":
        top = 1 + len(asc)
        ranks = [top - bisect_right(asc, s) for s in ranked]
    elif direction == "min":
        ranks = [1 + bisect_left(asc, s) for s in ranked]
    else:
        raise ValueError(f"unknown scoring direction {direction!r}")
    k = ranks.count(1)
    share = 1.0 / k if k else 0.0
    return ranks, [share if r == 1 else 0.0 for r in ranks]


# ---------------------------------------------------------------- seeds (flow-and-analytics §0)


def derive(*parts: object) -> int:
    """flow-and-analytics §0: first 8 bytes (big-endian) of sha256 of the '/'-joined parts."""
    if len(parts) == 3:
        # the seeds of every game and seat, (seed, "game"|"seat", n), three times a short game: an
        # f-string formats exact ints and strs as str() does, in half the time of join and map
        a, b, c = parts
        if a.__class__ is int and b.__class__ is str and c.__class__ is int:
            return _first_u64(sha256(f"{a}/{b}/{c}".encode()).digest())[0]
    return _first_u64(sha256("/".join(map(str, parts)).encode()).digest())[0]


def as_int(value: object) -> int | None:
    """`value` as an int when it is an integer: an int, a NumPy integer, a 0-d integer array (anything with
    `__index__`), a bool excepted; None for anything else, a float included (never truncated)."""
    if isinstance(value, bool):
        return None
    try:
        return index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def whole_number(value: object, what: str, minimum: int = 0, maximum: int | None = None) -> int:
    """`value` (as_int) as an int of at least `minimum` (and below `maximum`), or a UsageError naming `what`:
    the Python API refuses what the command line refuses, rather than truncating a float or reading a string."""
    v = as_int(value)
    if v is None:
        raise UsageError(f"{what} is a whole number, not {value!r}")
    if v < minimum or (maximum is not None and v >= maximum):
        bound = f"at least {minimum}" if maximum is None else f"in {minimum}..{maximum - 1}"
        raise UsageError(f"{what} must be {bound}, not {v}")
    return v
