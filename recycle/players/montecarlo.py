"""The flat Monte-Carlo player (lineup code `F`) and the search helpers the MCTS players share.

Algorithm (one decision of seat p, b options, budget k):

1. Key every real option as p may see it (`option_key`): card identities p cannot see are
   masked, so the keys are the same in every world p cannot tell apart (§6.9, §17.5).
2. Repeat k times: sample a world from p's information set (`sample_world`: the engine's
   determinisation, §17.4, made a function of p's view alone), match the real options to
   the world's rebuilt options by key (`match_options`), and for every option apply it to a
   clone of that world and finish the game with uniform random moves (`playout`).  All
   options of one round share the world (common random numbers).
3. For each option: `value[o]` = mean final score of p (negated for `min` games),
   `ranks[o][k]` = mean final competition rank of every seat k, and the mean reward of p
   (its normalised rank with ties at their mean position: 1 first, 0 last, ½ for a tie of
   two).  Pick the option with the highest mean reward, then the highest value, then the
   lowest index.

The player never reads a card p cannot see: worlds come from `sample_world`, which depends
only on p's view (the engine sorts the unseen cards before re-dealing them), and the real
state is used only through p's masked option keys.  A playout stops at the game's own limits
or after `max_playout_decisions` more decisions, whichever comes first; a playout stopped at a
limit counts with its provisional scores (its outcome is reported in `last_stats`, never a
hang); one stopped by a run-time error counts as reward 0 for every seat and is left out of
value and ranks.

Forced decisions (one option) cost no search, unless estimates are being recorded
(flow-and-analytics §3.5: "with recording on they also evaluate forced decisions"), in which
case the one option gets k playouts.

Budget: `playouts` per option (default 10; `--ai-budget` sets it).  Reproducible: all
randomness comes from the seat's own stream (`Player.start`).

Time limit (`move_time`, seconds; `--move-time`): every searching player also stops a search
when the clock passes `move_time` after the decision began, and returns the best option found
so far (at least one round or iteration is always done, so a tiny limit still gives a searched
move).  With a time limit and no budget the budget is unbounded: the search runs until the
time is up.  A timed search depends on the machine's speed, so timed games are not
reproducible from their seed (the budget alone keeps them so).  After each decision
`last_iterations` (rounds for F, iterations for M and P) and `last_elapsed` (seconds) say how
much searching was done; `clock` is the module's clock (`time.perf_counter`; tests replace it).

Runaway playouts: a playout whose step the step-time watchdog stopped (engine.watchdog: the rules ran
past `--max-step-time` of CPU without reaching a decision) costs that limit, 60 s by default.  A search
that meets one finishes trying each option once (F: the round; M, P: until each root option has had an
iteration) and stops there, so a decision costs at most one limit per option that runs away instead of
one per playout; those options score nothing (an error), so the search avoids them when another
option ends.  `runaways` counts such playouts (stopped at the step-time limit or at the undo log bound).

The watchdog's exception can also land just after a simulated step ended, in the search's own code (its
rare race): that ends the search where it is and the player picks from what it has; `cut` counts such
searches (`SearchPlayer._searched`).  Landing before the search's first simulated step, it is the real
game's step that ran past its limit: the real game ends with the `limit` error, as before.
"""
from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Sequence

from ..engine.algorithms import competition_ranks
from ..engine.state import DONE, FGT, LIMIT, MV, OVR, REM, SET, SHF, SWC, VDEL, WAITING
from ..engine.watchdog import StepTimeExceeded, stopped
from .base import Player

DEFAULT_PLAYOUTS = 10
UNBOUNDED = sys.maxsize  # the budget of a player with a time limit and no budget
# A playout stops after this many further decisions (the game's own limits still apply).
MAX_PLAYOUT_DECISIONS = 1000


# ---------------------------------------------------------------- the clock of timed searches


def clock() -> float:
    """Seconds, for time limits (a function of this module so that tests can replace it)."""
    return time.perf_counter()


# ---------------------------------------------------------------- worlds and option keys


def sample_world(prog, st, seat: int, rng: random.Random):
    """A state from `seat`'s information set, a function of its view and of `rng` only.

    The engine's `determinize` sorts the unseen cards before re-dealing them, so two states
    `seat` cannot tell apart give the same world for the same `rng`.
    """
    rng_real = st.rng
    st.rng = None  # the game stream is hidden and replaced by determinize: do not copy it
    try:
        c = st.clone()
    finally:
        st.rng = rng_real
    return prog.determinize(c, seat, rng)


def option_key(prog, st, option, viewer: int) -> tuple:
    """The option as `viewer` can tell it apart: its ops with every card `viewer` cannot see in `st` masked,
    and shuffle permutations left out (they come from the hidden game stream)."""
    where, sees = st.where, prog.sees
    out = []
    for op in option.ops_at(st):
        code = op[0]
        if code == MV:
            c = op[1]
            out.append((MV, c if sees(viewer, where[c]) else -1, *op[2:]))
        elif code == SHF:
            out.append((SHF, op[1]))
        elif code == SET:
            v = op[3]
            try:
                hash(v)
            except TypeError:
                v = repr(v)
            out.append((SET, op[1], v))
        elif code in (REM, FGT):
            c = op[1]
            out.append((code, c if sees(viewer, where[c]) else -1, *op[2:]))
        elif code == SWC:
            ca, cb = op[1], op[4]
            out.append((SWC, ca if sees(viewer, where[ca]) else -1, op[2], op[3],
                        cb if sees(viewer, where[cb]) else -1, op[5], op[6]))
        elif code == OVR:
            c = op[1]
            out.append((OVR, c if sees(viewer, where[c]) else -1, op[3]))
        elif code == VDEL:
            continue
        else:
            out.append(op)
    return tuple(out)


def option_keys(prog, st, viewer: int) -> list:
    """The keys of every option of the pending decision, in order."""
    return [option_key(prog, st, o, viewer) for o in st.opts]


def match_options(real_keys: Sequence[tuple], world_keys: Sequence[tuple]) -> list:
    """For each real option, the index of the same option in a sampled world (or None).

    Equal keys are matched in order (an option listed twice is two options, §16.2).  An
    option whose key is missing falls back on the same index when the world has as many
    options (its description then depends on hidden cards); otherwise it is unavailable.
    """
    if len(real_keys) == len(world_keys) and all(a == b for a, b in zip(real_keys, world_keys, strict=True)):
        return list(range(len(real_keys)))
    slots: dict = {}
    for j, k in enumerate(world_keys):
        slots.setdefault(k, []).append(j)
    pos: dict = {}
    out = []
    same_len = len(real_keys) == len(world_keys)
    for i, k in enumerate(real_keys):
        js = slots.get(k)
        n = pos.get(k, 0)
        if js is not None and n < len(js):
            out.append(js[n])
            pos[k] = n + 1
        else:
            out.append(i if same_len else None)
    return out


# ---------------------------------------------------------------- playouts and outcomes


def playout(prog, s, rng: random.Random, max_decisions: int = MAX_PLAYOUT_DECISIONS) -> None:
    """Finish the game in `s` (a clone) with uniform random choices drawn from `rng`."""
    if s.decisions + max_decisions < s.max_decisions:
        s.max_decisions = s.decisions + max_decisions
    apply, randrange = prog.apply, rng.randrange
    try:  # (costs nothing until raised)
        while s.status == WAITING:
            apply(s, randrange(len(s.opts)))
    except StepTimeExceeded as e:
        # the watchdog's exception landed just after one of the playout's steps ended (its rare race): the
        # playout's runaway, not the real game's
        prog.stop_step(s, e)


def outcome(prog, s) -> tuple | None:
    """(scores, competition ranks, rewards) of a finished or limited state; None after a run-time error.

    The reward of a seat is its normalised position with ties at their mean position:
    (n - position) / (n - 1), 1 for n = 1.
    """
    if s.status == DONE or (s.status == LIMIT and s.scores is not None):
        scores = s.scores
        ranks, _ = competition_ranks(scores, prog.direction, s.keys)
        n = len(ranks)
        if n == 1:
            return scores, ranks, [1.0]
        tie: dict[int, int] = {}
        for r in ranks:
            tie[r] = tie.get(r, 0) + 1
        d = n - 1
        rewards = [(n - (r + (tie[r] - 1) / 2)) / d for r in ranks]
        return scores, ranks, rewards
    return None


class OptionStats:
    """Running sums for one option: reward of the decider, its score (higher is better) and every seat's rank."""

    __slots__ = ("n", "ranks", "reward", "scored", "value")

    def __init__(self, seats: int):
        self.n = 0  # playouts (errors included)
        self.reward = 0.0
        self.scored = 0  # playouts with scores
        self.value = 0.0
        self.ranks = [0.0] * seats

    def add(self, out, decider: int, sign: int) -> None:
        self.n += 1
        if out is None:
            return
        scores, ranks, rewards = out
        self.reward += rewards[decider]
        self.scored += 1
        self.value += sign * scores[decider]
        rs = self.ranks
        for k, r in enumerate(ranks):
            rs[k] += r

    def mean_reward(self) -> float:
        return self.reward / self.n if self.n else 0.0

    def mean_value(self) -> float | None:
        return self.value / self.scored if self.scored else None

    def mean_ranks(self) -> list | None:
        return [r / self.scored for r in self.ranks] if self.scored else None


def estimate_record(st, seat: int, chosen: int, stats: Sequence[OptionStats], n_seats: int, **extra) -> dict:
    """The §3.5 estimate of one decision: value[o] and ranks[o][k] for every option (options without a
    scored simulation get the mean over the others, or the middle rank when there is none)."""
    values = [s.mean_value() for s in stats]
    ranks = [s.mean_ranks() for s in stats]
    known_v = [v for v in values if v is not None]
    known_r = [r for r in ranks if r is not None]
    fill_v = sum(known_v) / len(known_v) if known_v else 0.0
    fill_r = ([sum(r[k] for r in known_r) / len(known_r) for k in range(n_seats)] if known_r
              else [(1 + n_seats) / 2] * n_seats)
    return {"decision": st.decisions + 1, "decider": seat, "options": len(stats), "chosen": chosen,
            "value": [fill_v if v is None else v for v in values],
            "ranks": [list(fill_r) if r is None else r for r in ranks],
            "samples": [s.n for s in stats], **extra}


class SearchPlayer(Player):
    """Common ground of the searching players: a budget, estimate recording, counters."""

    code = "?"
    atomic_sampling = False  # searching players enumerate atomic blocks (E4)

    def __init__(self, budget: int | None = None, record_estimates: bool = False,
                 max_playout_decisions: int = MAX_PLAYOUT_DECISIONS, move_time: float | None = None):
        super().__init__()
        if move_time is not None and not move_time > 0:
            raise ValueError("the time limit per move must be more than 0 seconds")
        self.move_time = move_time
        if budget is None:
            budget = UNBOUNDED if move_time is not None else self.default_budget
        self.budget = budget
        if self.budget < 1:
            raise ValueError("the AI budget must be at least 1")
        self.last_iterations = 0  # rounds (F) or iterations (M, P) of the last search
        self.last_elapsed = 0.0  # seconds the last search took
        self.record_estimates = record_estimates
        self.max_playout_decisions = max_playout_decisions
        self.estimates: list = []
        self.searched = 0  # decisions searched
        self.simulations = 0  # playouts run (in total)
        self.limited = 0  # playouts that stopped at a limit
        self.errors = 0  # playouts that stopped on a run-time error
        self.runaways = 0  # of those, playouts the step-time watchdog stopped (engine.watchdog)
        self.cut = 0  # searches ended by the watchdog's exception landing just after a simulated step (_searched)
        self._runaway = False  # a playout of the current search ran away: finish the round and stop
        self._simulating = False  # the current search has begun its simulated steps (_searched)
        self._iterations = 0  # rounds or iterations the current search has begun

    default_budget = 1

    def start(self, prog, seat: int, seed: int) -> None:
        super().start(prog, seat, seed)
        self.estimates = []

    def _deadline(self) -> float | None:
        """When the search begun now must stop (None: no time limit); also starts `last_elapsed`."""
        self._t0 = clock()
        self._runaway = False
        return None if self.move_time is None else self._t0 + self.move_time

    def _done(self, iterations: int) -> None:
        self.last_iterations = iterations
        self.last_elapsed = clock() - self._t0

    def _searched(self, search: Callable[[], object], pick: Callable[[], int]) -> int:
        """search(), then pick() (the choice made from its statistics: it runs no step and changes nothing it
        reads), with the watchdog's late exception ending only the search.

        That exception (engine.watchdog's rare race) lands just after the step that ran past its limit has
        ended, wherever the thread is: here, in the search's own code, outside any step and outside
        `playout`'s handler.  Once the search has begun its simulated steps, the step was one of them: the
        search ends where it is, the player picks from what it has, as when a time limit cuts it, and `cut`
        counts it.  Before (`_simulating` still False), it was the real game's step, which ran past its limit
        just before the player was asked: the exception goes on and ends the real game with the `limit`
        error, as it always did.  A pick it lands in is made again (the estimates of one pick are kept)."""
        mark = len(self.estimates)
        self._iterations = 0
        self._simulating = False  # (set by the search as it samples its first world)
        try:  # (costs nothing until raised)
            search()
            return pick()
        except StepTimeExceeded:
            if not self._simulating:
                raise
        self.cut += 1
        del self.estimates[mark:]
        return pick()

    def _count(self, s, out) -> None:
        self.simulations += 1
        if out is None:
            self.errors += 1
            if stopped(s.error):
                self.runaways += 1
                self._runaway = True
        elif s.status == LIMIT:
            self.limited += 1


# ---------------------------------------------------------------- flat Monte Carlo


class FlatMonteCarloPlayer(SearchPlayer):
    """Flat Monte Carlo over sampled worlds: `budget` random playouts per option (see the module docstring)."""

    code = "F"
    default_budget = DEFAULT_PLAYOUTS

    def choose(self, prog, st) -> int:
        b = len(st.opts)
        if b == 1 and not self.record_estimates:
            return 0
        stats = [OptionStats(prog.n_players) for _ in range(b)]

        def pick() -> int:
            self._done(self._iterations)
            best = max(range(b), key=lambda i: (stats[i].mean_reward(),
                                                stats[i].mean_value() if stats[i].scored else float("-inf"), -i))
            if self.record_estimates:
                self.estimates.append(estimate_record(st, st.chooser, best, stats, prog.n_players, player="F"))
            return best
        return self._searched(lambda: self.evaluate(prog, st, self.budget, stats), pick)

    def evaluate(self, prog, st, k: int, stats: list | None = None) -> list:
        """k rounds: one sampled world per round, one random playout per option in it; the OptionStats per option
        (added to `stats` when given)."""
        seat = st.chooser
        n = prog.n_players
        sign = -1 if prog.direction == "min" else 1
        real = option_keys(prog, st, seat)
        if stats is None:
            stats = [OptionStats(n) for _ in real]
        rng, limit = self.rng, self.max_playout_decisions
        self.searched += 1
        deadline = self._deadline()
        done = 0
        for _ in range(k):
            if done and (self._runaway or (deadline is not None and clock() >= deadline)):
                break  # (after a runaway, every option has had its playout in this round: see the docstring)
            done += 1
            self._iterations = done
            self._simulating = True
            w = sample_world(prog, st, seat, rng)
            if w.status != WAITING or w.chooser != seat:
                continue  # the sampled world cannot take this decision (e.g. no option there)
            idx = match_options(real, option_keys(prog, w, seat))
            for i, j in enumerate(idx):
                if j is None:
                    continue
                s = w.clone()
                prog.apply(s, j)
                playout(prog, s, rng, limit)
                out = outcome(prog, s)
                self._count(s, out)
                stats[i].add(out, seat, sign)
        self._done(done)
        return stats
