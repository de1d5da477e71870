"""Small statistics used in summaries: Wilson intervals, quantiles, bootstrap (flow-and-analytics §3.8)."""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction

Z95 = 1.959964


def wilson(x: float, n: int) -> tuple[float | None, float | None]:
    """95% Wilson interval for x successes (may be fractional) out of n."""
    if n <= 0:
        return None, None
    p = x / n
    z2 = Z95 * Z95
    centre = p + z2 / (2 * n)
    half = Z95 * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0))
    den = 1 + z2 / n
    # the interval always holds p; at p = 0 or 1 rounding could put a bound a hair past it
    return min(p, max(0.0, (centre - half) / den)), max(p, min(1.0, (centre + half) / den))


def quantile(sorted_xs: Sequence[float], q: float) -> float:
    """Linear-interpolation quantile (numpy's default method) of sorted data."""
    if len(sorted_xs) == 0:  # (a numpy array has no truth value)
        raise ValueError("quantile of no data")
    pos = (len(sorted_xs) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_xs) - 1)
    try:
        return sorted_xs[lo] + (sorted_xs[hi] - sorted_xs[lo]) * (pos - lo)
    except OverflowError:  # integers past a float's range (about 1.8e308): exact, rounded down
        a, b = int(sorted_xs[lo]), int(sorted_xs[hi])
        return a + math.floor((b - a) * Fraction(pos - lo))


# Scores are integers and may pass a float's range (about 1.8e308): then the statistic is
# computed exactly on integers and rounded down, never an OverflowError.


def mean(xs: Sequence[float]) -> float | None:
    if not xs:
        return None
    s = sum(xs)
    try:
        return s / len(xs)
    except OverflowError:
        return int(s) // len(xs)


def sd(xs: Sequence[float]) -> float | None:
    if len(xs) < 2:
        return None
    try:
        m = sum(xs) / len(xs)
        return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))
    except OverflowError:
        n = len(xs)
        ints = [int(x) for x in xs]
        total = sum(ints)
        # (n-1) var = sum x^2 - (sum x)^2 / n, exactly
        return math.isqrt((n * sum(x * x for x in ints) - total * total) // (n * (n - 1)))


def describe(xs: Sequence[float]) -> dict:
    """mean, sd, min, q1, median, q3, max of a sample (None where undefined)."""
    return describe_sorted(sorted(xs))


def describe_sorted(s: Sequence[float]) -> dict:
    """describe() of a sample given sorted (a list, or a count of each value: analysis.statstally.Values)."""
    if not s:
        return {k: None for k in ("mean", "sd", "min", "q1", "median", "q3", "max")}
    return {
        "mean": mean(s), "sd": sd(s), "min": s[0], "q1": quantile(s, 0.25),
        "median": quantile(s, 0.5), "q3": quantile(s, 0.75), "max": s[-1],
    }


def bootstrap_apply(n: int, seed: int, fn: Callable, b: int = 1000) -> tuple:
    """Percentile bootstrap 95% interval of a vectorised statistic over n resampling units.

    `fn` receives an integer array of shape (m, n): each row is one resample (unit indices drawn
    with replacement) and returns m statistic values.  Resamples come from
    numpy.random.default_rng(seed) in row order, in blocks that bound memory; the interval is the
    2.5 and 97.5 percentiles (numpy's linear method).  Fewer than 2 units: (None, None).
    """
    import numpy as np

    if n < 2 or b < 1:
        return None, None
    rng = np.random.default_rng(seed)
    block = max(1, 2_000_000 // n)
    vals = []
    done = 0
    while done < b:
        m = min(block, b - done)
        vals.append(np.asarray(fn(rng.integers(0, n, size=(m, n))), dtype=float))
        done += m
    v = np.concatenate(vals)
    lo, hi = np.quantile(v, [0.025, 0.975])
    return float(lo), float(hi)
