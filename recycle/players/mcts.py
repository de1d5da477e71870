"""Monte-Carlo tree search players: IS-MCTS (lineup code `M`) and PIMC (code `P`).

Both search from the decider's information set only: every world they look at comes from
`montecarlo.sample_world` (the engine's determinisation, §17.4, made a function of the
decider's view), and the real options are matched to each world's options by the keys the
decider can tell apart (`montecarlo.option_key`).

**`M`: single-observer IS-MCTS** (Cowling, Powley & Whitehouse 2012).  One tree for the
decision; every iteration samples a fresh world, descends the tree with UCB1 restricted to
the options available in that world (each child counts how often it was available, and
that count replaces the parent's visits in the exploration term), adds one node, finishes
the game with uniform random moves and backs up the reward of every seat.  A node's option
is keyed by what the player moving there can tell apart (cards that player cannot see are
masked), so an opponent's "draw the top card of the stock" is one edge whatever the card
is, while "play 7-HEARTS" and "play 8-HEARTS" are two.  Selection at a node uses the
reward of the seat to move there, so the search is correct for any number of players.

**`P`: PIMC** (perfect-information Monte Carlo).  `worlds` sampled worlds (default
`min(8, budget // 25)`, at least 1), each searched by plain UCT with `budget / worlds`
iterations as if it were the true state (nodes keyed by option index, the world fixed,
including its future shuffles); the roots' visits and sums are added up per real option and
the most visited option wins ("votes").

Why both: IS-MCTS is the default because it shares statistics between worlds and does not
suffer PIMC's strategy fusion (PIMC plans as if it could play differently in worlds it
cannot tell apart, and never values hiding or gathering information).  PIMC is kept as `P`
because it is the classic baseline, cheaper per iteration (no keys below the root), and
strong in games where hidden information matters little; comparing M and P on a game is
itself informative.

Reward: the normalised final position of a seat with ties at their mean position (1 first,
0 last, ½ for a two-way tie; `montecarlo.outcome`); a run-time error in a simulation gives 0
to every seat.  UCB1 constant `c` = 0.7.  The final choice is the most visited root option
(ties: higher mean reward, then lower index).  Budget: `iterations` per decision (default
200; `--ai-budget`), raised to the number of options when estimates are recorded so that
every option is evaluated.  Forced decisions cost no search unless estimates are recorded,
in which case the one option is evaluated with max(1, budget // 10) playouts.  Estimates
(§3.5) come from the root's children: value[o] (the decider's mean score, negated for `min`
games) and ranks[o][k] over the simulations that went through o.
"""
from __future__ import annotations

import math

from ..engine.state import WAITING
from . import montecarlo as _mc
from .montecarlo import (
    MAX_PLAYOUT_DECISIONS,
    OptionStats,
    SearchPlayer,
    estimate_record,
    match_options,
    option_key,
    option_keys,
    outcome,
    playout,
    sample_world,
)

DEFAULT_ITERATIONS = 200
UCB_C = 0.7


class _Node:
    """A tree node: children by option key, visit and availability counts, reward sums per seat."""

    __slots__ = ("avail", "children", "n", "w")

    def __init__(self, seats: int):
        self.children: dict = {}
        self.n = 0
        self.avail = 0
        self.w = [0.0] * seats


def _ucb_pick(children: list, mover: int, parent_n: int, c: float, use_avail: bool):
    """The child with the highest UCB1 score for `mover` (ties: the first)."""
    best, best_u = None, -1.0
    for i, ch in children:
        n = ch.n
        total = ch.avail if use_avail else parent_n
        u = ch.w[mover] / n + c * math.sqrt(math.log(max(total, 1)) / n)
        if u > best_u:
            best, best_u = (i, ch), u
    return best


class ISMCTSPlayer(SearchPlayer):
    """Single-observer information-set MCTS (see the module docstring); `budget` = iterations per decision."""

    code = "M"
    default_budget = DEFAULT_ITERATIONS

    def __init__(self, budget: int | None = None, record_estimates: bool = False,
                 max_playout_decisions: int = MAX_PLAYOUT_DECISIONS, c: float = UCB_C,
                 move_time: float | None = None):
        super().__init__(budget, record_estimates, max_playout_decisions, move_time)
        self.c = c

    def choose(self, prog, st) -> int:
        b = len(st.opts)
        if b == 1:
            if self.record_estimates:
                self._forced_estimate(prog, st)
            return 0
        seat = st.chooser
        n = prog.n_players
        sign = -1 if prog.direction == "min" else 1
        real = option_keys(prog, st, seat)
        roots = [OptionStats(n) for _ in range(b)]  # §3.5 sums per real option
        children = [_Node(n) for _ in range(b)]  # root children, by real option index
        self.searched += 1
        iterations = max(self.budget, b) if self.record_estimates else self.budget
        deadline = self._deadline()

        def pick() -> int:
            self._done(self._iterations)
            self._gather(children)
            best = max(range(b), key=lambda i: (children[i].n, roots[i].mean_reward(), -i))
            if self.record_estimates:
                self.estimates.append(estimate_record(st, seat, best, roots, n, player=self.code,
                                                      visits=[ch.n for ch in children]))
            return best
        return self._searched(
            lambda: self._search(prog, st, seat, real, roots, children, iterations, sign, deadline), pick)

    # ------------------------------------------------------------ one search

    def _search(self, prog, st, seat, real, roots, children, iterations, sign, deadline=None) -> int:
        """Run the iterations (until `deadline` when one is given, at least one); how many ran."""
        rng, c, limit = self.rng, self.c, self.max_playout_decisions
        n = prog.n_players
        apply = prog.apply
        clock = _mc.clock
        done = 0
        for _ in range(iterations):
            if deadline is not None and done and clock() >= deadline:
                break
            if self._runaway and done >= len(real):  # each root option had its iteration (montecarlo's docstring)
                break
            done += 1
            self._iterations = done
            self._simulating = True
            w = sample_world(prog, st, seat, rng)
            if w.status != WAITING or w.chooser != seat:
                continue
            if w.decisions + limit < w.max_decisions:
                w.max_decisions = w.decisions + limit  # the tree walk and the playout together
            idx = match_options(real, option_keys(prog, w, seat))
            avail = [(i, children[i]) for i, j in enumerate(idx) if j is not None]
            if not avail:
                continue
            for _, ch in avail:
                ch.avail += 1
            fresh = [p for p in avail if p[1].n == 0]
            i, node = rng.choice(fresh) if fresh else _ucb_pick(avail, seat, 0, c, True)
            apply(w, idx[i])
            path = [node]
            expanded = not fresh
            # descend while the tree has this position, adding one node
            while expanded and w.status == WAITING:
                mover = w.chooser
                opts = w.opts
                if len(opts) == 1:
                    ch = node.children.get(0)
                    if ch is None:
                        ch = node.children[0] = _Node(n)  # a forced move is no expansion: keep descending
                    ch.avail += 1
                    apply(w, 0)
                    node = ch
                    path.append(node)
                    continue
                keyed: dict = {}
                for j, o in enumerate(opts):
                    keyed.setdefault(option_key(prog, w, o, mover), j)
                kids = node.children
                avail_n = []
                new = []
                for key, j in keyed.items():
                    ch = kids.get(key)
                    if ch is None:
                        new.append((key, j))
                    else:
                        ch.avail += 1
                        avail_n.append((j, ch))
                if new:
                    key, j = new[rng.randrange(len(new))]
                    ch = kids[key] = _Node(n)
                    ch.avail += 1
                    expanded = False
                else:
                    j, ch = _ucb_pick(avail_n, mover, 0, c, True)
                apply(w, j)
                node = ch
                path.append(node)
            roots[i].add(self._finish(prog, w, path, rng, limit), seat, sign)
        return done

    def _gather(self, children: list) -> None:
        """Bring the root children's counts together before the pick (IS-MCTS counts in them directly)."""

    def _finish(self, prog, w, path, rng, limit):
        """End one iteration: play the world out, then back the rewards up the visited nodes."""
        if w.status == WAITING:
            playout(prog, w, rng, limit)
        out = outcome(prog, w)
        self._count(w, out)
        rewards = out[2] if out is not None else [0.0] * prog.n_players
        for nd in path:
            nd.n += 1
            ws = nd.w
            for k, r in enumerate(rewards):
                ws[k] += r
        return out

    def _forced_estimate(self, prog, st) -> None:
        """Estimates for a forced decision (recording on): a few playouts of the one option."""
        seat = st.chooser
        stats = OptionStats(prog.n_players)

        def pick() -> int:
            self.estimates.append(estimate_record(st, seat, 0, [stats], prog.n_players, player=self.code,
                                                  visits=[stats.n]))
            return 0
        self._searched(lambda: self._playouts(prog, st, seat, stats), pick)

    def _playouts(self, prog, st, seat, stats) -> None:
        sign = -1 if prog.direction == "min" else 1
        real = option_keys(prog, st, seat)
        self._runaway = False
        for _ in range(max(1, self.budget // 10)):
            if self._runaway:  # the one option runs away: once is enough (montecarlo's docstring)
                break
            self._simulating = True
            w = sample_world(prog, st, seat, self.rng)
            if w.status != WAITING or w.chooser != seat:
                continue
            j = match_options(real, option_keys(prog, w, seat))[0]
            if j is None:
                continue
            prog.apply(w, j)
            playout(prog, w, self.rng, self.max_playout_decisions)
            out = outcome(prog, w)
            self._count(w, out)
            stats.add(out, seat, sign)


class PIMCPlayer(ISMCTSPlayer):
    """Perfect-information Monte Carlo: UCT in each of `worlds` sampled worlds, root visits added up (votes)."""

    code = "P"

    def __init__(self, budget: int | None = None, record_estimates: bool = False,
                 max_playout_decisions: int = MAX_PLAYOUT_DECISIONS, c: float = UCB_C,
                 worlds: int | None = None, move_time: float | None = None):
        super().__init__(budget, record_estimates, max_playout_decisions, c, move_time)
        self.worlds = worlds
        self._tops: list[list[_Node]] = []  # the root children of each world of the current search

    def _search(self, prog, st, seat, real, roots, children, iterations, sign, deadline=None) -> int:
        """As IS-MCTS's; with a deadline, world wi of m stops at start + (wi + 1) / m of the time."""
        rng, c, limit = self.rng, self.c, self.max_playout_decisions
        n = prog.n_players
        apply = prog.apply
        clock = _mc.clock
        m = self.worlds or max(1, min(8, iterations // 25))
        b = len(real)
        done = 0
        start = clock()
        tops = self._tops = []  # each world's root children, added up by _gather
        for wi in range(m):
            stop = None if deadline is None else start + (deadline - start) * (wi + 1) / m
            self._simulating = True
            base = sample_world(prog, st, seat, rng)
            if base.status != WAITING or base.chooser != seat:
                continue
            if base.decisions + limit < base.max_decisions:
                base.max_decisions = base.decisions + limit
            idx = match_options(real, option_keys(prog, base, seat))
            avail = [i for i, j in enumerate(idx) if j is not None]
            if not avail:
                continue
            share = iterations // m + (1 if wi < iterations % m else 0)
            top = [_Node(n) for _ in range(b)]  # this world's root children
            tops.append(top)
            for visits in range(share):  # visits: the iterations of this world so far
                if stop is not None and visits and clock() >= stop:
                    break
                if self._runaway and visits >= len(avail):  # each option had its iteration in this world
                    break
                done += 1
                self._iterations = done
                w = base.clone()
                fresh = [i for i in avail if top[i].n == 0]
                if fresh:
                    i = fresh[rng.randrange(len(fresh))]
                    node = top[i]
                else:
                    i, node = _ucb_pick([(i, top[i]) for i in avail], seat, visits, c, False)
                apply(w, idx[i])
                path = [node]
                expanded = not fresh
                while expanded and w.status == WAITING:
                    j = None
                    kids = node.children
                    nopt = len(w.opts)
                    if nopt == 1:
                        j = 0
                        ch = kids.get(0)
                        if ch is None:
                            ch = kids[0] = _Node(n)  # a forced move is no expansion: keep descending
                    elif len(kids) < nopt:
                        untried = [x for x in range(nopt) if x not in kids]
                        j = untried[rng.randrange(len(untried))]
                        ch = kids[j] = _Node(n)
                        expanded = False
                    else:
                        j, ch = _ucb_pick(list(kids.items()), w.chooser, node.n, c, False)
                    apply(w, j)
                    node = ch
                    path.append(node)
                roots[i].add(self._finish(prog, w, path, rng, limit), seat, sign)
            if self._runaway:  # no further world: each would meet the runaway again
                break
        return done

    def _gather(self, children: list) -> None:
        """Each root child: its visits and sums over the worlds searched (assigned, not added: a pick made again
        after the watchdog's late exception gathers the same)."""
        tops = self._tops
        for i, ch in enumerate(children):
            visits, sums = 0, [0.0] * len(ch.w)
            for top in tops:
                t = top[i]
                visits += t.n
                for k, x in enumerate(t.w):
                    sums[k] += x
            ch.n = ch.avail = visits
            ch.w = sums
