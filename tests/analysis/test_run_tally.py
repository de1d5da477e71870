"""`recycle run`'s summary tallied game by game (analysis.tally.RunTally) is the plain computation over the
same records (support/summary_oracle.py), byte for byte as JSON (its memory is measured in tests/cli/test_run_memory.py).

The games: deal_n (ties and draws), risky (run-time errors), high_card, block_rummy with a low decision
limit (games stopped at a limit) and rummykruss (sampled atomic decisions counted by float estimates);
then hand-made records for what games rarely give (scores past a float's range, an empty batch,
int and float branching values that are equal).
"""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from recycle.analysis.stats import mean, quantile
from recycle.analysis.tally import CountedValues, RunningSum, RunTally
from recycle.engine.algorithms import competition_ranks
from recycle.run.batch import BatchSpec, run_batch
from recycle.run.records import RunRecord
from recycle.run.session import GameSession
from support import FIXTURES, GAMES
from support.summary_oracle import run_summary

DEAL_N = FIXTURES / "games" / "deal_n.gdl"


def tallied(records, seats: int, **kw) -> dict:
    return RunTally.of(records, seats).summary("G", "g.gdl", ["R"] * seats, 5, 2.5, **kw)


def assert_same_summary(records, seats: int, direction: str | None = "max") -> dict:
    want = run_summary("G", "g.gdl", ["R"] * seats, 5, seats, records, 2.5, direction)
    got = tallied(records, seats, direction=direction)
    assert json.dumps(got, indent=2) == json.dumps(want, indent=2)
    return got


@pytest.mark.parametrize(("game", "n", "params", "limit", "check"), [
    (DEAL_N, 400, {}, None, lambda s: s["ties"]["count"] > 0 and s["outcomes"]["draw"]["count"] > 0),
    (FIXTURES / "games" / "risky.gdl", 300, {}, None, lambda s: s["errors"] > 0 and s["first_errors"]),
    (FIXTURES / "games" / "high_card.gdl", 200, {}, None, lambda s: s["completed"] == 200),
    (GAMES / "block_rummy.gdl", 30, {}, 12, lambda s: s["limit_reached"] > 0 and s["limits_hit"]),
    (GAMES / "rummykruss.gdl", 8, {}, None, lambda s: s["branching"]["estimated"]
     and isinstance(s["branching"]["mean"], float)),
], ids=["deal_n", "risky", "high_card", "block_rummy_limit", "rummykruss_sampled"])
def test_the_tally_of_a_batch_is_run_summary(game, n, params, limit, check):
    sess = GameSession.open(game, params)
    spec = BatchSpec(str(game), params, ("R",) * sess.n_players, 11, max_decisions=limit)
    records = run_batch(spec, n, jobs=1, session=sess)
    s = assert_same_summary(records, sess.n_players, sess.prog.direction)
    assert check(s), s
    # a prefix too (a batch stopped early), and no game at all
    assert_same_summary(records[: n // 3], sess.n_players, sess.prog.direction)
    assert_same_summary([], sess.n_players, sess.prog.direction)


def rec(run: int, scores: list | None, reason: str = "normal", rows=((0, 2, 0), (1, 3, 1)),
        sampled=()) -> RunRecord:
    ranks, shares = competition_ranks(scores, "max") if scores is not None else (None, None)
    return RunRecord(run=run, game_seed=run, end_reason=reason, decisions=len(rows), forced=0, turns=1, moves=1,
                     scores=scores, ranks=ranks, shares=shares,
                     winners=[s for s, r in enumerate(ranks or []) if r == 1],
                     error="error[x]: boom" if reason == "error" else None,
                     decision_rows=[list(r) for r in rows], lineup=["R"] * 3, sampled=[list(x) for x in sampled])


def test_hand_made_batches():
    huge = 10**400
    assert assert_same_summary([rec(i, [huge * (i + 1), i, 0]) for i in range(4)], 3)["mean_scores"][0] \
        == huge * 10 // 4
    # int and float branching values that are equal, sampled estimates, errors with repeated messages
    mixed = [rec(0, [1, 2, 2], rows=[(0, 3, 0), (1, 2, 1)], sampled=[(0, 3.0)]),
             rec(1, [0, 0, 0], rows=[(0, 3, 0), (1, 1, 0)]),
             rec(2, None, "error"), rec(3, [5, 1, 1], "decision_limit", rows=[(0, 4, 0)], sampled=[(0, 7.5)]),
             rec(4, None, "error"), rec(5, [1, 2, 3], rows=[(2, 3, 0), (1, 3, 0)], sampled=[(1, 3.0)])]
    s = assert_same_summary(mixed, 3)
    assert s["branching"]["max"] == 7.5 and s["errors"] == 2 and len(s["first_errors"]) == 1
    assert_same_summary(mixed[:1], 3)
    assert_same_summary([rec(0, None, "error")], 3)


def test_running_sum_is_the_builtin_sum():
    rng = random.Random(16)
    shares = [0.0, 1.0, 0.5, 1 / 3, 0.25, 1 / 6, 1 / 7]
    cases = [[rng.choice(shares) for _ in range(5000)],
             [rng.randint(-10**20, 10**20) for _ in range(300)],
             [rng.randint(0, 9) for _ in range(50)] + [rng.random() * 1e6 for _ in range(500)],
             [1e308, 1e308, -1e308], [], [3, 2.5, 10**20, 0.1]]
    for xs in cases:
        acc = RunningSum()
        for x in xs:
            acc.add(x)
        assert repr(acc.value) == repr(sum(xs))


def test_counted_values_are_the_sorted_list():
    rng = random.Random(7)
    for xs in ([rng.randint(1, 6) for _ in range(999)], [rng.choice([1, 2, 2.5, 1e30]) for _ in range(400)],
               [4], [2, 9]):
        cv, ordered = CountedValues(Counter(xs)), sorted(xs)
        assert len(cv) == len(ordered) and list(cv) == ordered
        assert [cv[i] for i in range(len(xs))] == ordered and cv[-1] == ordered[-1]
        assert repr(cv.mean()) == repr(mean(ordered))
        for q in (0.25, 0.5, 0.9):
            assert repr(quantile(cv, q)) == repr(quantile(ordered, q))
    with pytest.raises(IndexError):
        CountedValues(Counter([1]))[1]
