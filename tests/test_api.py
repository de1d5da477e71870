"""The public Python API (recycle.api): what it refuses, in words, instead of truncating, reading a string as a
seed or showing a seat what it may not see."""
from __future__ import annotations

import numpy as np
import pytest

import recycle
from recycle.errors import UsageError


@pytest.fixture(scope="module")
def game() -> recycle.Game:
    return recycle.load("block_rummy")


@pytest.mark.parametrize("seed, message", [
    ("7", "a seed is a whole number, not '7'"),
    (1.5, "a seed is a whole number, not 1.5"),
    (True, "a seed is a whole number, not True"),
    (-5, "a seed must be at least 0, not -5"),
])
def test_a_seed_is_a_whole_number_as_on_the_command_line(game, seed, message):
    with pytest.raises(UsageError, match=message):
        game.start(seed=seed)
    with pytest.raises(UsageError, match=message):
        game.play([recycle.RandomPlayer(), recycle.RandomPlayer()], seed=seed)


def test_a_numpy_integer_seed_is_that_seed(game):
    assert game.start(seed=np.int64(9)).view(0) == game.start(seed=9).view(0)


@pytest.mark.parametrize("keyword", ["max_decisions", "max_steps"])
@pytest.mark.parametrize("value", [0, -1, "a", 2.5])
def test_limits_are_positive_whole_numbers(game, keyword, value):
    with pytest.raises(UsageError, match=f"^{keyword} (must be at least 1|is a whole number)"):
        game.start(seed=1, **{keyword: value})


def test_play_takes_one_player_per_seat(game):
    with pytest.raises(UsageError, match=r"block_rummy is played by 2 players: give play\(\) a list of 2"):
        game.play([recycle.RandomPlayer()], seed=1)
    with pytest.raises(UsageError, match="not 'RR'"):
        game.play("RR", seed=1)
    # any iterable of the right length, a generator included, is a lineup
    result = game.play((recycle.RandomPlayer() for _ in range(2)), seed=1)
    assert result == game.play([recycle.RandomPlayer(), recycle.RandomPlayer()], seed=1)


@pytest.mark.parametrize("seat", [-1, 2, 9, 0.0, "0"])
def test_a_seat_outside_the_game_sees_nothing(game, seat):
    state = game.start(seed=3)
    # seat -1 used to see the table's hidden piles (the stock): its owner number is 0 = -1 + 1
    with pytest.raises(UsageError, match="seat"):
        state.view(seat)
    with pytest.raises(UsageError, match="seat"):
        state.options(viewer=seat)


def test_a_seat_sees_its_own_hand_and_only_backs_of_the_stock(game):
    view = game.start(seed=3).view(1)
    assert view["seat"] == 1
    kinds = {key: kind for key, (kind, _) in view["piles"].items()}
    assert kinds[("table", "iloc", "STOCK", 0)] == "backs"
    assert "cards" in kinds.values()


@pytest.mark.parametrize("choice", [1.7, "0", None])
def test_an_option_is_an_option_or_its_index(game, choice):
    state = game.start(seed=3)
    with pytest.raises(UsageError, match="an option is chosen by its index"):
        state.apply(choice)
    assert state.decisions == 0
    state.apply(np.int64(0))  # a NumPy integer is an index
    assert state.decisions == 1
