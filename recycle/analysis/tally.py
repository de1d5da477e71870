"""`recycle run`'s summary tallied game by game, in memory that does not grow with the number of games.

`RunTally.add` takes each record in run order and keeps only what the summary needs: counts (of end
reasons, outcomes, ties, decided wins by seat), running sums, and a count of each distinct value for
the figures that need the whole distribution (decisions per game and branching: their medians,
maxima and means).  `RunTally.summary` then gives exactly what the plain computation over the whole
list of records gives (tests/support/summary_oracle.py), byte for byte once written as JSON
(tests/analysis/test_run_tally.py): the same float
additions in the same order, through `RunningSum` (a sum in run order) and `CountedValues` (a sum in
sorted order).  So a batch of ten million games needs no more memory than one of a thousand.
"""
from __future__ import annotations

import math
import sys
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from itertools import accumulate, chain, repeat

from ..run.records import RunRecord
from .runs import (
    LIMIT_REASONS,
    branching_values,
    direction_text,
    interval,
    limit_lines_of,
    outcome_block_of,
    outcome_of,
    winners_of,
)
from .stats import quantile, wilson

# From Python 3.12, sum() of floats carries a running correction (Neumaier's compensated sum);
# before, it adds left to right.  RunningSum does what the sum() of the running Python does.
COMPENSATED = sys.version_info >= (3, 12)


class RunningSum:
    """sum(xs) of values given one at a time, equal to the builtin sum() of the whole sequence.

    Integers add exactly until the first float; from there floats add as sum() adds them (with
    Python 3.12's correction term), and integers are converted and added as sum() adds them."""

    __slots__ = ("c", "floating", "total")

    def __init__(self) -> None:
        self.total: int | float = 0
        self.c = 0.0
        self.floating = False

    def add(self, x) -> None:
        if not self.floating:
            self.total = self.total + x
            self.floating = type(self.total) is float
        elif COMPENSATED and type(x) is float:
            t = self.total + x
            if abs(self.total) >= abs(x):
                self.c += (self.total - t) + x
            else:
                self.c += (x - t) + self.total
            self.total = t
        else:
            self.total = self.total + x

    def extend(self, xs: Sequence) -> None:
        """add() each of xs in turn (integers alone, while no float came: their sum at once, as exact)."""
        if not self.floating:
            s = sum(xs)
            if type(s) is int:
                self.total += s
                return
        for x in xs:
            self.add(x)

    @property
    def value(self) -> int | float:
        if self.floating and self.c and math.isfinite(self.c):
            return self.total + self.c
        return self.total


class CountedValues(Sequence):
    """The sorted list of a batch's values, held as a count of each distinct value: len, indexing
    (for analysis.stats.quantile) and iteration give what the sorted list gives.

    Equal values count as one (an int 3 and a float 3.0 among branching values): the sorted list
    holds them in run order, which changes no figure computed here (sums of integers below 2**53
    are exact whichever of the two is added first; `last_max` keeps the maximum the list ends with)."""

    def __init__(self, counts: Counter) -> None:
        self.keys = sorted(counts)
        self.counts = [counts[k] for k in self.keys]
        self.ends = list(accumulate(self.counts))  # the end of each value's run of copies
        self.n = self.ends[-1] if self.ends else 0

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):
        if isinstance(i, slice):
            raise TypeError("CountedValues: no slices")
        if i < 0:
            i += self.n
        if not 0 <= i < self.n:
            raise IndexError(i)
        return self.keys[bisect_right(self.ends, i)]  # the first value whose run of copies reaches past i

    def __iter__(self) -> Iterator:
        return chain.from_iterable(map(repeat, self.keys, self.counts))

    def total(self) -> int | float:
        """sum() of the sorted list (integers alone: exactly, without walking every copy)."""
        if all(type(k) is int for k in self.keys):
            return sum(k * c for k, c in zip(self.keys, self.counts, strict=True))
        return sum(self)

    def mean(self) -> float | None:
        """analysis.stats.mean of the sorted list."""
        if not self.n:
            return None
        s = self.total()
        try:
            return s / self.n
        except OverflowError:
            return int(s) // self.n


def decided_wins_of(n: int, wins: Sequence[int]) -> dict:
    """Win rates by seat over the n decided games (one winner alone), 95% Wilson intervals: fairness
    with ties left out, where the split shares of tied games would make a drawn batch look fair."""
    rates = []
    for x in wins:
        lo, hi = wilson(x, n)
        rates.append(interval(x / n, lo, hi, n) if n else None)
    return {"games": n, "wins_by_seat": rates}


class RunTally:
    """What the `recycle run` summary needs of a batch's records, added one record at a time in run order."""

    @classmethod
    def of(cls, records: Iterable[RunRecord], seats: int) -> RunTally:
        """The tally of `records` (in run order): for summaries of records held by the caller."""
        tally = cls(seats)
        for r in records:
            tally.add(r)
        return tally

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.games = 0
        self.reasons: Counter = Counter()      # end reason -> games
        self.outcomes: Counter = Counter()     # analysis.runs.outcome_of -> games (errors left out)
        self.lengths: Counter = Counter()      # decisions per game -> games (runs without an error)
        self.branching: Counter = Counter()    # branching value -> decisions (runs without an error)
        self.branching_max = None              # the maximum the sorted branching values end with
        self.listed = RunningSum()             # options listed per decision, in run order
        self.listed_n = 0
        self.listed_max: int | None = None
        self.sampled = 0
        self.ties = 0
        self.decided = 0
        self.decided_wins = [0] * seats
        self.shares = [RunningSum() for _ in range(seats)]   # win shares of the normal runs
        self.scores = [RunningSum() for _ in range(seats)]   # scores of the normal runs with scores
        self.scored = 0
        self.total_decisions = 0
        self.first_errors: list[dict] = []
        self._error_texts: set = set()

    def add(self, r: RunRecord) -> None:
        self.games += 1
        self.reasons[r.end_reason] += 1
        self.total_decisions += r.decisions
        kind = outcome_of(r)
        if kind is not None:
            self.outcomes[kind] += 1
        if r.end_reason == "error":
            if len(self.first_errors) < 5 and r.error not in self._error_texts:
                self._error_texts.add(r.error)
                self.first_errors.append({"run": r.run, "game_seed": r.game_seed, "error": r.error})
            return
        self.lengths[r.decisions] += 1
        listed = [b for _p, b, _c in r.decision_rows]
        if listed:
            values = branching_values(r) if r.sampled else listed
            self.branching.update(values)
            # the sorted values end with the last of the equal maxima (an int 3 after a float 3.0)
            top = max(values) if not r.sampled else None
            for b in values if top is None else (top,):
                if self.branching_max is None or b >= self.branching_max:
                    self.branching_max = b
            self.listed.extend(listed)
            top = max(listed)  # max() keeps the first of equal maxima
            if self.listed_max is None or top > self.listed_max:
                self.listed_max = top
        self.listed_n += len(listed)
        self.sampled += len(r.sampled)
        if r.end_reason != "normal":
            return
        for s, sum_ in enumerate(self.shares):
            sum_.add(r.known_shares[s])
        if r.scores is not None:
            self.scored += 1
            for s, sum_ in enumerate(self.scores):
                sum_.add(r.scores[s])
            winners = winners_of(r)
            if len(winners) >= 2:
                self.ties += 1
            elif kind == "decided":  # one winner
                self.decided += 1
                self.decided_wins[winners[0]] += 1

    def summary(self, name: str, path: str, lineup: Sequence[str], seed: int, elapsed: float,
                direction: str | None = None) -> dict:
        """The `recycle run --json` object of the records added (and the numbers of its table)."""
        n, done = self.games, self.reasons["normal"]
        lengths, bs = CountedValues(self.lengths), CountedValues(self.branching)
        tlo, thi = wilson(self.ties, done)
        outcomes = outcome_block_of(self.outcomes)
        shares = [s.value for s in self.shares]
        return {
            "game": name,
            "file": path,
            "players": list(lineup),
            "seed": seed,
            "games": n,
            "completed": done,
            "limit_reached": sum(self.reasons[k] for k in LIMIT_REASONS),
            "errors": self.reasons["error"],
            "decisions": {"mean": lengths.mean(), "median": quantile(lengths, 0.5) if lengths else None,
                          "max": lengths[-1] if lengths else None},
            "branching": {"mean": bs.mean(), "median": quantile(bs, 0.5) if bs else None,
                          "max": self.branching_max,
                          "estimated": self.sampled > 0, "sampled_decisions": self.sampled, "decisions": len(bs),
                          "listed_mean": _mean(self.listed, self.listed_n), "listed_max": self.listed_max},
            "direction": direction,
            "direction_text": direction_text(direction) if direction is not None else None,
            "wins_by_seat": [x / done if done else None for x in shares],
            "wins_ci95": [list(wilson(x, done)) for x in shares],
            "ties": {"count": self.ties, "rate": interval(self.ties / done, tlo, thi, done) if done else None},
            "decided": decided_wins_of(self.decided, self.decided_wins),
            "outcomes": {k: v for k, v in outcomes.items() if k != "warnings"},
            "warnings": outcomes["warnings"],
            "mean_scores": [_mean(s, self.scored) for s in self.scores],
            "first_errors": list(self.first_errors),
            "limits_hit": limit_lines_of(self.reasons),
            "elapsed_s": elapsed,
            "games_per_s": n / elapsed if elapsed > 0 else None,
            "decisions_per_s": self.total_decisions / elapsed if elapsed > 0 else None,
        }


def _mean(s: RunningSum, n: int) -> float | None:
    """analysis.stats.mean of the n values summed in `s`."""
    if not n:
        return None
    try:
        return s.value / n
    except OverflowError:
        return int(s.value) // n
