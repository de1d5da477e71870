"""The streams of engine.streams are those of random.Random: the same state, draws and shuffles (issue 16)."""
from __future__ import annotations

import enum
import random

from recycle.engine import streams
from recycle.engine.algorithms import derive
from recycle.engine.streams import new_stream, shuffle

# edge seeds: zero, one, the ends of derive's range, past it, negative (C seeding uses the absolute value)
EDGE_SEEDS = [0, 1, 2, 2**32 - 1, 2**32, 2**63, 2**64 - 1, 2**64, 2**200 + 12345, -1, -(2**64 - 1), -987654321]
SEEDS = EDGE_SEEDS + [derive(99, "game", i) for i in range(150)] + [derive(99, "seat", i) for i in range(50)]


def test_a_new_stream_is_a_random_random_in_the_same_state():
    for seed in SEEDS:
        r, ref = new_stream(seed), random.Random(seed)
        assert r.__class__ is random.Random
        assert r.getstate() == ref.getstate()
        assert [r.getrandbits(k) for k in (1, 3, 7, 32, 64)] == [ref.getrandbits(k) for k in (1, 3, 7, 32, 64)]
        assert (r.random(), r.gauss(0, 1), r.randrange(10**9)) == (ref.random(), ref.gauss(0, 1), ref.randrange(10**9))
        assert r.getstate() == ref.getstate()


def test_seeds_that_are_not_plain_ints_follow_random_seed():
    class Seat(enum.IntEnum):
        NORTH = 3

    for seed in [True, False, Seat.NORTH, "abc", b"xyz", 2.5]:
        assert new_stream(seed).getstate() == random.Random(seed).getstate()  # type: ignore[arg-type]


def test_streams_do_not_share_state():
    a, b = new_stream(5), new_stream(5)
    a.getrandbits(32)
    assert a.getstate() != b.getstate()
    assert b.getstate() == random.Random(5).getstate()


def test_shuffle_is_random_shuffle():
    assert streams.SAME_DRAW  # CPython's Random: the inlined path is the one tested
    sizes = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 31, 32, 33, 52, 104, 300]
    for seed in SEEDS[:60]:
        r, ref = new_stream(seed), random.Random(seed)
        for n in sizes:
            x, y = list(range(n)), list(range(n))
            shuffle(r, x)
            ref.shuffle(y)
            assert x == y, (seed, n)
        assert r.getstate() == ref.getstate()  # the same bits consumed


def test_shuffle_keeps_the_elements_of_any_list():
    x = ["a", "b", "a", None, 7]
    shuffle(new_stream(3), x)
    assert sorted(map(str, x)) == sorted(map(str, ["a", "b", "a", None, 7]))


def test_a_stream_of_another_class_shuffles_by_its_own_method():
    class Counting(random.Random):
        bits = 0

        def getrandbits(self, k):
            self.bits += k
            return super().getrandbits(k)

    r, ref = Counting(11), random.Random(11)
    x, y = list(range(20)), list(range(20))
    shuffle(r, x)
    ref.shuffle(y)
    assert x == y
    assert r.bits > 0  # the draws went through the subclass

