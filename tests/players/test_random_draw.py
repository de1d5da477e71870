"""The random player draws its index as random.Random.randrange does (issue 16: the draw inlined)."""
from __future__ import annotations

import random

import pytest

from recycle.players import random_player
from recycle.players.random_player import RandomPlayer


class _Opts:
    def __init__(self, n):
        self.opts = [None] * n


def test_the_inlined_draw_is_the_one_random_random_makes():
    assert random_player._SAME_DRAW  # CPython's Random: the fast path is the one taken
    pl = RandomPlayer()
    pl.start(None, 0, 12345)
    ref = random.Random(12345)
    for n in [1, 2, 3, 4, 5, 7, 8, 9, 13, 16, 17, 52, 100, 1000, 4097] * 20:
        assert pl.choose(None, _Opts(n)) == ref.randrange(n)
    assert pl.rng.getstate() == ref.getstate()  # the same bits consumed, the stream in step


def test_no_option_fails_as_randrange_does():
    pl = RandomPlayer()
    pl.start(None, 0, 1)
    with pytest.raises(ValueError):
        pl.choose(None, _Opts(0))
