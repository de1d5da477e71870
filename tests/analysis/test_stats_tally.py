"""`recycle stats`'s figures tallied game by game (analysis.statstally, analysis.statfigures) are the plain
computation over the list of records (support/stats_oracle.py), byte for byte as JSON: summary.json's
statistics, branching_by_index.csv's rows and the timing figures; and the heuristics of an all-random batch
from the tally are those from its records (heuristics.RandomRuns the same).

The games: deal_n (ties and draws), risky (run-time errors), high_card, block_rummy with a low decision
limit (games stopped at a limit, with and without --include-limited), rummykruss (sampled atomic
decisions counted by float estimates), a rotated lineup of two kinds, teams; then hand-made records for
what games rarely give (scores past a float's range, an empty batch, equal int and float values, a kind
that appears late).
"""
from __future__ import annotations

import json
from array import array

import pytest

from recycle.analysis.heuristics import RandomRuns, heuristics, tally_heuristics
from recycle.analysis.runs import outcome_runs
from recycle.analysis.statfigures import branching_rows, stats_of, timing_of
from recycle.analysis.statstally import StatsTally
from recycle.engine.algorithms import competition_ranks
from recycle.run.batch import BatchSpec, run_batch
from recycle.run.records import RunRecord
from recycle.run.session import GameSession
from support import FIXTURES, GAMES
from support import stats_oracle as oracle

DEAL_N = FIXTURES / "games" / "deal_n.gdl"


def text(obj) -> str:
    return json.dumps(obj, indent=2)


def assert_same(records, players: int, *, lineup: str, rotate: bool = False, teams=None,
                include_limited: bool = False, direction: str = "max") -> dict:
    """Every figure of the tally equals the oracle's; returns the statistics."""
    kw = {"game": "G", "direction": direction, "seed": 5, "lineup": lineup, "rotate": rotate, "bootstrap": 60}
    tally = StatsTally.of(records, players, include_limited, teams)
    got = stats_of(tally, **kw)
    want = oracle.analyze(records, players=players, teams=teams, include_limited=include_limited, **kw)
    assert text(got) == text(want)
    assert text(branching_rows(tally)) == text(oracle.branching_by_index(records))
    assert text(timing_of(tally, 2.5)) == text(oracle.timing_stats(records, 2.5))
    assert text(timing_of(tally)) == text(oracle.timing_stats(records))
    hk = {"players": players, "seed": 5, "has_shuffle_and_choice": True, "bootstrap": 60,
          "include_limited": include_limited}
    # the heuristics read an all-random batch through RandomRuns: the tally's must be the records' own
    runs, of_tally = RandomRuns.of(outcome_runs(records, include_limited), players), RandomRuns.of_tally(tally)
    for field in ("ties", "tied", "decided", "decided_p1"):
        assert getattr(of_tally, field) == getattr(runs, field), field
    assert of_tally.shares.tobytes() == runs.shares.tobytes() and of_tally.lengths.tobytes() == runs.lengths.tobytes()
    want = text(heuristics(records, **hk))
    assert text(tally_heuristics(tally, seed=5, has_shuffle_and_choice=True, bootstrap=60)) == want
    return got


def played(game, n: int, *, lineup=None, limit=None, rotate=False) -> tuple[list[RunRecord], GameSession]:
    sess = GameSession.open(game, {})
    spec = BatchSpec(str(game), {}, tuple(lineup or "R" * sess.n_players), 11, max_decisions=limit, rotate=rotate)
    return run_batch(spec, n, jobs=1, session=sess), sess


@pytest.mark.parametrize(("game", "n", "limit", "check"), [
    (DEAL_N, 150, None, lambda s: s["ties"]["first"]["count"] > 0),
    (FIXTURES / "games" / "risky.gdl", 120, None, lambda s: s["runs"]["error"] > 0 and s["errors"]),
    (FIXTURES / "games" / "high_card.gdl", 100, None, lambda s: s["runs"]["normal"] == 100),
    (GAMES / "block_rummy.gdl", 20, 12, lambda s: s["length"]["limited"] > 0),
    (GAMES / "rummykruss.gdl", 6, None, lambda s: s["branching"]["estimated"]),
], ids=["deal_n", "risky", "high_card", "block_rummy_limit", "rummykruss_sampled"])
def test_the_tally_of_a_batch_is_the_plain_computation(game, n, limit, check):
    records, sess = played(game, n, limit=limit)
    lineup = "R" * sess.n_players
    s = assert_same(records, sess.n_players, lineup=lineup, direction=sess.prog.direction)
    assert check(s), s
    assert_same(records, sess.n_players, lineup=lineup, include_limited=True, direction=sess.prog.direction)
    assert_same(records[: n // 3], sess.n_players, lineup=lineup)
    assert_same([], sess.n_players, lineup=lineup)


def test_kinds_rotation_and_teams_are_the_plain_computation():
    records, sess = played(DEAL_N, 60, lineup="FR", rotate=True)
    s = assert_same(records, sess.n_players, lineup="FR", rotate=True, teams=[[0], [1]])
    assert [k["kind"] for k in s["kinds"]] == ["F", "R"] and s["kinds"][0]["order"] is not None
    assert s["teams"] is not None and s["teams"][0]["n"] == 60


def rec(run: int, scores: list | None, reason: str = "normal", rows=((0, 2, 0), (1, 3, 1)), lineup="RR",
        sampled=(), ms: float = 1.0) -> RunRecord:
    ranks = shares = None
    winners: list[int] = []
    if scores is not None:
        ranks, shares = competition_ranks(scores, "max")
        winners = [s for s, r in enumerate(ranks) if r == 1]
    return RunRecord(run=run, game_seed=run, end_reason=reason, decisions=len(rows), forced=0, turns=2, moves=2,
                     scores=scores, ranks=ranks, shares=shares, winners=winners,
                     error="boom" if reason == "error" else None, decision_rows=[list(r) for r in rows],
                     lineup=list(lineup), ms=ms, sampled=[list(x) for x in sampled])


def test_hand_made_batches_are_the_plain_computation():
    huge = 10**400
    assert_same([rec(i, [huge * (i + 1), i]) for i in range(4)], 2, lineup="RR")
    # equal int and float branching values (a sampled estimate of 3.0 among listed 3s), maxima both ways
    mixed = [rec(0, [1, 2], rows=((0, 3, 0), (1, 3, 0)), sampled=[[1, 3.0]]),
             rec(1, [2, 1], rows=((0, 3, 0), (1, 70000, 0))),
             rec(2, [2, 2], rows=((0, 3, 0),), sampled=[[0, 3.0]]),
             rec(3, None, "error"), rec(4, [0, 0], "decision_limit")]
    assert_same(mixed, 2, lineup="RR")
    # a listed 3 after an estimated 3.0: the sorted values end with the int, in the pool and at index 1
    assert_same([rec(0, [1, 2], rows=((0, 3, 0),), sampled=[[0, 3.0]]), rec(1, [2, 1], rows=((1, 3, 0),))], 2,
                lineup="RR")
    assert_same(mixed, 2, lineup="RR", include_limited=True)
    # a kind that appears only from the third run, and float scores
    late = [rec(0, [1.5, 2]), rec(1, [2, 1]), rec(2, [1, 2.25], lineup="AR"), rec(3, [3, 1], lineup="RA")]
    s = assert_same(late, 2, lineup="RR")
    assert [k["kind"] for k in s["kinds"]] == ["A", "R"] and s["kinds"][0]["order"] is None


def test_the_plot_points_are_kept_small_until_a_value_needs_a_float():
    t = StatsTally.of([rec(0, [1, 2], rows=((0, 3, 0), (1, 65535, 0)))], 2)
    assert t.point_b == array("H", [3, 65535]) and t.point_seat == array("B", [0, 1])
    t.add(rec(1, [1, 2], rows=((1, 70000, 0),)))
    assert t.point_b == array("d", [3.0, 65535.0, 70000.0]) and list(t.rows) == [2, 1]
