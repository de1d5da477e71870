"""Whole games: a compiled program played to the end by one player object per seat."""
from __future__ import annotations

from ..errors import RecycleError, UsageError
from . import algorithms as alg
from .program import Program
from .results import GameResult
from .stack import with_room
from .state import WAITING
from .watchdog import StepTimeExceeded

# Lineup codes of players whose decisions sample atomic blocks instead of enumerating them.
SAMPLING_CODES = frozenset({"R"})


def samples_atomic(player) -> bool:
    """Does this player's seat sample atomic blocks (E4)?  The `atomic_sampling` attribute, else its lineup code."""
    v = getattr(player, "atomic_sampling", None)
    if v is None:
        v = getattr(player, "code", None) in SAMPLING_CODES
    return bool(v)


def play_game(prog: Program, seed: int, players, max_decisions: int | None = None,
              max_idle_steps: int | None = None,
              recorder=None) -> GameResult:
    """Play one game with one player object per seat; the result's `.choices` is the transcript core."""
    if prog.has_atomic:  # option building for atomic blocks recurses deep: one stack chunk for the game (stack.py)
        return with_room(lambda _: _play(prog, seed, players, max_decisions, max_idle_steps, recorder), None)
    return _play(prog, seed, players, max_decisions, max_idle_steps, recorder)


def _play(prog: Program, seed: int, players, max_decisions: int | None, max_idle_steps: int | None,
          recorder) -> GameResult:
    players = list(players)
    if len(players) != prog.n_players:
        raise UsageError(f"the game has {prog.n_players} players, but {len(players)} player objects were given")
    sampling = [samples_atomic(pl) for pl in players] if prog.has_atomic else None
    st = prog.new_game(seed, max_decisions, max_idle_steps, recorder, sampling)
    try:  # (costs nothing until raised)
        for s, pl in enumerate(players):
            pl.start(prog, s, alg.derive(seed, "seat", s))
        apply = prog.apply  # (the chosen indices are in st.records: the result's `choices` come from there)
        if recorder is None:
            while st.status == WAITING:
                pl = players[st.chooser]
                i = pl.choose(prog, st)  # (a player's own UsageError, a human quitting say, passes as it is)
                try:
                    apply(st, i)
                except UsageError as e:
                    raise _bad_choice(st.chooser, pl, e) from None
        else:
            while st.status == WAITING:
                pl = players[st.chooser]
                i = pl.choose(prog, st)
                try:
                    apply(st, i, getattr(pl, "code", None))
                except UsageError as e:
                    raise _bad_choice(st.chooser, pl, e) from None
    except StepTimeExceeded as e:
        # the watchdog stopped rules run outside Program.run (a person's option built step by step,
        # players.stepwise), or its exception landed just after a step: the game's limit error all the same
        prog.stop_step(st, e)
    if recorder is not None:
        final = getattr(st.rec, "final", None)
        if final is not None and final[0] == st.status:  # the end event's result: nothing changes after it
            return final[1]
    return prog.result(st)


def _bad_choice(seat: int | None, player, e: UsageError) -> RecycleError:
    """apply() refused what a player chose: the player's failure, named (as players.registry names a
    player class that raises)."""
    who = "a player" if seat is None else f"the player of seat p{seat + 1} ({type(player).__name__})"
    return RecycleError(f"error: {who} chose what is not one of its options: {e}")
