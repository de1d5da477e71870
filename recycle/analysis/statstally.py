"""`recycle stats`'s figures tallied game by game: what every statistic of the batch needs, without the records.

`StatsTally.add` takes each record in run order and keeps, for each statistic of flow-and-analytics §3 and
the all-random heuristics of §4, exactly what it reads:

- counts (end reasons, outcomes, ties, outright and shared wins, ranks) and running sums in run order
  (`RunningSum`: win shares, forced shares);
- a count of each distinct value where a figure needs the sorted distribution (decisions per game, the
  pooled branching factors and those at each decision index, each seat's and kind's scores: their
  quantiles, sd and extremes; `Values`);
- one 8-byte float per game (`array('d')`) where a statistic resamples or revisits the games in run
  order: the bootstrap intervals (length, run-mean branching, tree size, slope, scores, fairness,
  game length), the violins of the scores plot and the median time of a game;
- the branching plot's points, which it draws one by one: per decision, its branching factor
  (2 bytes while they are whole numbers below 65,536, else 8) and its deciding seat (1 byte).

So the memory of a batch grows by a few hundred bytes per game (docs/scaling.md), not by its records.
`analysis.statfigures` computes the figures from a tally, equal byte for byte to those computed from
the list of records (tests/support/stats_oracle.py).
"""
from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Iterable, Sequence

from ..run.records import RunRecord
from .runs import LIMIT_REASONS, branching_values, outcome_of, outcome_runs, ranks_of, winners_of
from .tally import CountedValues, RunningSum

ERRORS_LISTED = 5
SMALL = 65_535  # branching factors up to this are kept in 2 bytes (array 'H')


class Values(CountedValues):
    """The sorted list of a batch's values as a count of each distinct value (tally.CountedValues), whose
    last item is the last of the equal maxima in run order (an int 3 after a float 3.0), as sorted() keeps it."""

    def __init__(self, counts: Counter, top) -> None:
        super().__init__(counts)
        self.top = top

    def __getitem__(self, i):
        v = super().__getitem__(i)
        return self.top if (i == -1 or i == self.n - 1) and self.top is not None else v


class Distribution:
    """Distinct values with their counts, and the last of the equal maxima."""

    __slots__ = ("counts", "top")

    def __init__(self) -> None:
        self.counts: Counter = Counter()
        self.top = None

    def add(self, v) -> None:
        self.counts[v] += 1
        if self.top is None or v >= self.top:
            self.top = v

    def values(self) -> Values:
        return Values(self.counts, self.top)


class ScoreSeries:
    """The scores of one seat or one player kind over the used runs: their distribution, and per run their
    total (a float, in run order) and, for a kind, how many seats it had."""

    __slots__ = ("big", "counts", "dist", "overflow", "runs", "totals")

    def __init__(self, counted: bool, runs_before: int = 0) -> None:
        self.dist = Distribution()
        self.totals = array("d", bytes(8 * runs_before))
        self.counts: array | None = array("H", bytes(2 * runs_before)) if counted else None
        self.big = False  # a run's total past 1e300: no bootstrap interval
        self.overflow = False  # a run's total past a float's range: no plot of the scores
        self.runs = runs_before

    def add_run(self, scores: Sequence) -> None:
        for v in scores:
            self.dist.add(v)
        total = sum(scores)
        if not abs(total) < 1e300:
            self.big = True
        try:
            self.totals.append(float(total))
        except OverflowError:  # past a float's range: never read (big, overflow)
            self.overflow = True
            self.totals.append(0.0)
        if self.counts is not None:
            self.counts.append(len(scores))
        self.runs += 1


class KindTally:
    """One player kind's occurrences (run, seat) in the used runs."""

    __slots__ = ("n", "order_ok", "outright", "ranks", "score", "shared", "x")

    def __init__(self, runs_before: int) -> None:
        self.n = 0
        self.x = RunningSum()
        self.outright = 0
        self.shared = 0
        self.ranks: Counter = Counter()
        self.order_ok = runs_before == 0  # once alone against random players in every used run
        self.score = ScoreSeries(True, runs_before)


class StatsTally:
    """What `recycle stats` computes from a batch's records, added one record at a time in run order.

    `players` seats; `include_limited`: whether runs stopped at a limit count for outcomes (§3.2);
    `teams`: the seats of each team, if any."""

    @classmethod
    def of(cls, records: Iterable[RunRecord], players: int, include_limited: bool = False,
           teams: Sequence[Sequence[int]] | None = None) -> StatsTally:
        tally = cls(players, include_limited, teams)
        for r in records:
            tally.add(r)
        return tally

    def __init__(self, players: int, include_limited: bool = False,
                 teams: Sequence[Sequence[int]] | None = None) -> None:
        self.players = players
        self.include_limited = include_limited
        self.teams = [list(t) for t in teams] if teams else None
        # every record
        self.games = 0
        self.reasons: Counter = Counter()
        self.outcomes: Counter = Counter()
        self.errors: list[dict] = []
        self._error_texts: set = set()
        self.ms = array("d")
        self.total_decisions = 0
        # runs without an error (length and branching)
        self.length_runs = 0
        self.lengths = Distribution()
        self.length_by_run = array("d")
        self.limited = 0
        self.limited_max: int | None = None
        self.normal_lengths: Counter = Counter()
        self.limited_lengths: Counter = Counter()
        self.forced_share = RunningSum()
        self.forced_share_n = 0
        self.turns = 0
        self.moves = 0
        self.pooled = Distribution()
        self.forced_points = 0
        self.listed_sum = 0
        self.listed_n = 0
        self.listed_max: int | None = None
        self.sampled = 0
        self.run_means = array("d")
        self.trees = array("d")
        self.slopes = array("d")
        self.max_index = 0
        self.by_index: list[Distribution] = []
        self.rows = array("I")                      # decisions of each run (its points in the plot)
        self.point_b: array = array("H")            # branching factor of each decision, in run order
        self.point_seat = array("B" if players <= 255 else "I")
        # runs used for outcomes
        self.used = 0
        self.used_lengths = array("d")
        self.shares = [array("d") for _ in range(players)]
        self.share_sums = [RunningSum() for _ in range(players)]
        self.outright = [0] * players
        self.shared = [0] * players
        self.seat_ranks: list[Counter] = [Counter() for _ in range(players)]
        self.seat_kinds: list[set] = [set() for _ in range(players)]
        self.scores = [ScoreSeries(False) for _ in range(players)]
        self.kinds: dict[str, KindTally] = {}
        self.codes: set = set()                     # kinds of the used runs' seats
        self.first_lineup: list | None = None
        self.fixed_lineup = True
        self.ties_first = 0
        self.ties_any = 0
        self.tied = 0                               # runs without exactly one winner
        self.decided = 0
        self.decided_p1 = 0
        self.team_sums = [RunningSum() for _ in self.teams or ()]

    # ------------------------------------------------------------ adding a record

    def add(self, r: RunRecord) -> None:
        self.games += 1
        self.reasons[r.end_reason] += 1
        self.total_decisions += r.decisions
        self.ms.append(r.ms)
        kind = outcome_of(r)
        if kind is not None:
            self.outcomes[kind] += 1
        if r.end_reason == "error":
            if r.error is not None and r.error not in self._error_texts and len(self.errors) < ERRORS_LISTED:
                self._error_texts.add(r.error)
                self.errors.append({"message": r.error, "run": r.run, "game_seed": r.game_seed})
            return
        self._add_length(r)
        if outcome_runs([r], self.include_limited):
            self._add_outcome(r)

    def _add_length(self, r: RunRecord) -> None:
        self.length_runs += 1
        self.lengths.add(r.decisions)
        self.length_by_run.append(r.decisions)
        if r.end_reason in LIMIT_REASONS:
            self.limited += 1
            if self.limited_max is None or r.decisions > self.limited_max:
                self.limited_max = r.decisions
        (self.normal_lengths if r.end_reason == "normal" else self.limited_lengths)[r.decisions] += 1
        if r.decisions > 0:
            self.forced_share.add(r.forced / r.decisions)
            self.forced_share_n += 1
        self.turns += r.turns
        self.moves += r.moves
        bs = branching_values(r)
        self.sampled += len(r.sampled)
        listed = [b for _p, b, _c in r.decision_rows]
        if listed:
            self.listed_sum += sum(listed)
            top = max(listed)
            if self.listed_max is None or top > self.listed_max:
                self.listed_max = top
        self.listed_n += len(listed)
        while len(self.by_index) < len(bs):
            self.by_index.append(Distribution())
        if r.sampled:  # estimates: an int and a float may be equal, and the last of equal maxima is kept
            for k, x in enumerate(bs):
                self.pooled.add(x)
                self.by_index[k].add(x)
        elif bs:  # whole numbers (the faster way, for the long games): equal ones are alike, but one may
            # equal a float estimate of an earlier game, which it then follows in the sorted values
            self.pooled.counts.update(bs)
            top = max(bs)
            if self.pooled.top is None or top >= self.pooled.top:
                self.pooled.top = top
            for d, x in zip(self.by_index, bs, strict=False):  # (by_index may be longer)
                d.counts[x] += 1
                if d.top is None or x >= d.top:
                    d.top = x
        self.forced_points += bs.count(1)
        if bs:
            self.run_means.append(sum(bs) / len(bs))
            if min(bs) >= 1:
                self.trees.append(sum(map(math.log10, bs)))
        if len(bs) >= 2:
            self.slopes.append(slope(bs))
        self.max_index = max(self.max_index, len(bs))
        self.rows.append(len(bs))
        self._add_points(bs, [p for p, _b, _c in r.decision_rows], not r.sampled)

    def _add_points(self, bs: list, seats: list[int], whole: bool) -> None:
        if self.point_b.typecode == "H" and bs and not (whole and min(bs) >= 0 and max(bs) <= SMALL) and not all(
                type(x) is int and 0 <= x <= SMALL for x in bs):
            self.point_b = array("d", self.point_b)
        self.point_b.extend(bs if self.point_b.typecode == "H" else map(float, bs))
        self.point_seat.extend(seats)

    def _add_outcome(self, r: RunRecord) -> None:
        n = self.players
        self.used += 1
        self.used_lengths.append(r.decisions)
        shares, scores, winners, ranks = r.known_shares, r.known_scores, winners_of(r), ranks_of(r)
        for s in range(n):
            self.shares[s].append(shares[s])
            self.share_sums[s].add(shares[s])
            if winners == [s]:
                self.outright[s] += 1
            if s in winners and len(winners) >= 2:
                self.shared[s] += 1
            self.seat_ranks[s][ranks[s]] += 1
            if s < len(r.lineup):
                self.seat_kinds[s].add(r.lineup[s])
            self.scores[s].add_run([scores[s]])
        codes = r.lineup[:n]
        if self.first_lineup is None:
            self.first_lineup = list(codes)
        elif list(codes) != self.first_lineup:
            self.fixed_lineup = False
        for code in sorted(set(codes) | set(self.kinds)):
            k = self.kinds.get(code)
            if k is None:
                k = self.kinds[code] = KindTally(self.used - 1)
            seats = [s for s in range(n) if s < len(r.lineup) and r.lineup[s] == code]
            for s in seats:
                k.n += 1
                k.x.add(shares[s])
                if winners == [s]:
                    k.outright += 1
                if s in winners and len(winners) >= 2:
                    k.shared += 1
                k.ranks[ranks[s]] += 1
            k.order_ok = k.order_ok and len(seats) == 1 and all(c in (code, "R") for c in codes)
            k.score.add_run([scores[s] for s in seats])
        self.codes.update(codes)
        if len(winners) >= 2:
            self.ties_first += 1
        if len(set(ranks)) < len(ranks):
            self.ties_any += 1
        if len(winners) != 1:
            self.tied += 1
        else:
            self.decided += 1
            if winners == [0]:
                self.decided_p1 += 1
        for t, members in enumerate(self.teams or ()):
            self.team_sums[t].add(sum(shares[s] for s in members))


def slope(bs: Sequence[float]) -> float:
    """Least-squares slope of b against k = 1 .. L (L >= 2)."""
    n = len(bs)
    kbar = (n + 1) / 2
    bbar = sum(bs) / n
    return sum((k - kbar) * (b - bbar) for k, b in enumerate(bs, 1)) / sum((k - kbar) ** 2 for k in range(1, n + 1))
