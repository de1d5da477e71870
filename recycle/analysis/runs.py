"""Which runs a statistic reads (flow-and-analytics §3.2) and the interval objects statistics report (§3.6).

Length and branching use every run that did not end in `error` (limit runs are used and
counted in `limited`); outcomes and heuristics use the runs that ended `normal` (plus limit
runs with `include_limited`) and have scores.  Every statistic with an interval is
`{"value", "lo", "hi", "n"}`; `None` (JSON null) means not applicable.  Bootstrap intervals
resample runs with the stream `derive(S, "bootstrap", name)`; the names used are listed in
`BOOTSTRAP_NAMES`.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from ..engine.algorithms import derive
from ..run.records import RunRecord
from .stats import bootstrap_apply, wilson

END_REASONS = ("normal", "decision_limit", "step_limit", "option_limit", "error")
LIMIT_REASONS = ("decision_limit", "step_limit", "option_limit")
# What each limit is and how to raise it (docs/limits.md), for the line a run prints about it.
LIMIT_HELP = {
    "decision_limit": "the decision limit (2000 decisions per game unless the game or --max-decisions sets "
                      "another): raise it with --max-decisions N or (limits (decisions N)) in the game",
    "step_limit": "the step limit (10000 steps between two decisions unless the game or --max-steps sets "
                  "another): raise it with --max-steps N or (limits (steps N)) in the game",
    "option_limit": "the option limit (100,000 options at one decision unless the game or --max-options sets "
                    "another): raise it with --max-options N or (limits (options N)) in the game",
}


def limit_lines_of(counts) -> list[str]:
    """One line per limit that stopped games (from a count of games per end reason): how many, which
    limit and how to raise it."""
    return [f"{counts[k]} game{'s' if counts[k] != 1 else ''} stopped at {LIMIT_HELP[k]}"
            for k in LIMIT_REASONS if counts.get(k)]

BOOTSTRAP_NAMES = {
    "length.mean": "mean game length L",
    "branching.run_mean": "mean over runs of the per-run mean branching factor",
    "branching.log10_tree": "mean log10 tree size",
    "branching.slope": "mean least-squares slope of b against k",
    "score.seat<s>": "mean score of seat s (0-based)",
    "score.kind.<code>": "mean score of a player kind",
    "heuristic.<Name>": "a §4 heuristic",
}



def length_runs(records: Sequence[RunRecord]) -> list[RunRecord]:
    """Runs used for length and branching: all but `error`."""
    return [r for r in records if r.end_reason != "error"]


def outcome_runs(records: Sequence[RunRecord], include_limited: bool = False) -> list[RunRecord]:
    """Runs used for outcomes and heuristics: `normal` (and limits if asked) with scores."""
    ok = ("normal",) + (LIMIT_REASONS if include_limited else ())
    return [r for r in records if r.end_reason in ok and r.scores is not None and r.shares is not None]


def interval(value, lo=None, hi=None, n=None) -> dict | None:
    """The §3.6 interval object; None when the value is not applicable."""
    if value is None:
        return None
    return {"value": value, "lo": lo, "hi": hi, "n": n}


def boot_seed(seed, name: str) -> int:
    return derive(seed, "bootstrap", name)


def mean_ci(xs: Sequence[float], seed, name: str, b: int) -> dict | None:
    """Mean with a bootstrap CI over the runs (null when there are none)."""
    if not xs:
        return None
    a = np.asarray(xs, dtype=float)
    lo, hi = bootstrap_apply(len(a), boot_seed(seed, name), lambda idx: a[idx].mean(axis=1), b)
    return interval(float(a.mean()), lo, hi, len(a))


def ranks_of(r: RunRecord) -> list:
    return list(r.ranks) if r.ranks is not None else [1 if s in r.winners else 2 for s in range(len(r.known_scores))]


def winners_of(r: RunRecord) -> list[int]:
    if r.ranks is not None:
        return [s for s, k in enumerate(r.ranks) if k == 1]
    return list(r.winners)


# ---------------------------------------------------------------- honest figures: sampled branching, outcomes


SAMPLED_METHOD = ("a decision whose atomic blocks the random player sampled (language §15.4) lists one walk per "
                  "block; its branching is estimated as the number of its complete paths: over its options, the "
                  "sum of the products of the alternatives met at the forks of each option's walk (Knuth's "
                  "estimator; orderings of the same moves count as different paths)")


def branching_values(r: RunRecord) -> list:
    """Per decision of a run: the options listed, or for a sampled decision its estimated number of paths."""
    est = {int(k): e for k, e in r.sampled}
    return [est.get(k, b) for k, (_p, b, _c) in enumerate(r.decision_rows)]


def direction_text(direction: str) -> str:
    """How a game is won, in words: "higher score wins" (max) or "lower score wins" (min)."""
    return {"max": "higher score wins", "min": "lower score wins"}.get(direction, f"direction {direction}")


def outcome_of(r: RunRecord) -> str | None:
    """How a run ended: void (no winner, or every score 0), draw (every player first), tie (some share
    first), decided (one winner), limit (stopped at a limit); None for an error."""
    if r.end_reason == "error":
        return None
    if r.end_reason in LIMIT_REASONS:
        return "limit"
    if r.scores is None:
        return None
    winners = winners_of(r)
    if not winners or all(s == 0 for s in r.scores):
        return "void"
    if len(r.scores) >= 2 and len(winners) == len(r.scores):
        return "draw"
    return "tie" if len(winners) >= 2 else "decided"


OUTCOME_KINDS = ("decided", "tie", "draw", "void", "limit")
OUTCOME_WORDS = {
    "void": "end void (no winner, or every score 0)",
    "draw": "end in a draw (every player tied for first)",
    "limit": "stop at a limit (their outcome is provisional)",
}


def outcome_block(records: Sequence[RunRecord]) -> dict:
    """Counts and rates (95% Wilson intervals) of each way the games ended, over the runs without an error,
    and the warnings when most of them are void, drawn or stopped at a limit."""
    return outcome_block_of(Counter(k for k in map(outcome_of, records) if k is not None))


def outcome_block_of(counts: Counter) -> dict:
    """outcome_block from the number of runs that ended each way (OUTCOME_KINDS; errors left out)."""
    n = sum(counts.values())
    out: dict = {"n": n}
    for k in OUTCOME_KINDS:
        lo, hi = wilson(counts[k], n)
        out[k] = {"count": counts[k], "rate": interval(counts[k] / n, lo, hi, n) if n else None}
    warnings = []
    for k in ("void", "draw", "limit"):
        if n and counts[k] * 2 > n:
            warnings.append(f"most games {OUTCOME_WORDS[k]}: {counts[k]} of {n} ({counts[k] / n:.0%}); "
                            "the win rates and fairness say little about such a batch")
    bad = counts["void"] + counts["draw"] + counts["limit"]
    if n and not warnings and bad * 2 > n:
        warnings.append(f"most games end void, in a draw or at a limit: {bad} of {n} ({bad / n:.0%}); "
                        "the win rates and fairness say little about such a batch")
    out["warnings"] = warnings
    return out
