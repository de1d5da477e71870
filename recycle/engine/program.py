"""The compiled program and the machine that runs it (design.md "Engine").

`recycle.compiler.compile_game` turns a checked AST into a `Program`: its registries (piles,
storage cells, card kinds), a flat list of `code` ops (one closure per program item, stage
test, stage advance, ...), the scoring closure and a template state produced by running
`setup` once.

    st = prog.new_game(seed)        # declares + setup done, advanced to the first decision or the end
    prog.is_terminal(st)            # or st.status
    prog.chooser(st)                # seat to decide (None unless waiting)
    prog.options(st)                # list[Option], cached per decision
    prog.apply(st, i)               # take option i; advances to the next decision or the end
    prog.result(st)                 # GameResult
    prog.describe(st, option)       # list of resolved action texts (§6.9)
    prog.view(st, p)                # what seat p observes (§17)
    prog.determinize(st, p, rng)    # a state sampled from p's information set (§17.4)
"""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..errors import NOWHERE, GameRuntimeError, InternalError, Span, UsageError, cut_text
from . import algorithms as alg
from . import describe as _describe
from . import visibility as _visibility
from .ops import REDO
from .recording import EventSink
from .registry import Registry
from .results import DecisionRecord, ErrorInfo, GameResult, LimitInfo
from .state import DONE, ERROR, LIMIT, RUNNING, WAITING, DeferredOption, LazyOption, Option, State
from .streams import new_stream
from .watchdog import StepTimeExceeded, ensure, stop_message, watch

# How many random paths the random player tries through an atomic block before the
# block contributes no option (extensions E4; docs/language.md, "atomic").
ATOMIC_ATTEMPTS = 100
# The default limits (language spec §16.4): decisions per game, and steps between two decisions.
DEFAULT_MAX_DECISIONS = 2000
DEFAULT_MAX_STEPS = 10000
# At most this many options at one decision (docs/limits.md): nested `any` loops and `subsets`
# multiply, and every option is kept in memory until the choice is made.
DEFAULT_MAX_OPTIONS = 100_000



def option_index(i: object, n: int) -> int:
    """The index of a chosen option given as another integer type (numpy's, say); anything else (a
    string, a float, a bool, an option object) is a player's mistake, refused in words, not a TypeError."""
    k = alg.as_int(i)
    if k is not None:
        return k
    raise UsageError(f"apply(): an option is chosen by its index, an int in 0..{n - 1}, not {cut_text(repr(i), 60)} "
                     f"(a {type(i).__name__})")


class Program(Registry):
    """A compiled game: registries, code, scoring and the template state.  Create with compile_game()."""

    def __init__(self, game: Any, filename: str = "<string>", warnings=()):
        super().__init__()
        self.game = game
        self.filename = filename
        self.warnings = tuple(warnings)
        self.params: dict = {}
        self.declared: dict = {}
        self.n_teams = 0
        self.teams: list[tuple] = []
        self.team_of: list[int] = []
        self.direction = "max"
        # code
        self.code: list = []
        self.code_span: list = []  # pc -> Span of the item / condition
        self.code_stages: list = []  # pc -> tuple of enclosing stage spans, innermost first
        self.choice_span: dict = {}
        self.choice_span_text: dict[int, str] = {}  # pc -> str(choice_span[pc]), filled as results are made
        # pc -> the option-building walks of the decision there (compiler.options), for players that
        # build an option step by step (players.stepwise) instead of choosing from the list
        self.decision_sims: dict = {}
        # Both set by compile_game before the program is handed out: no None to check at each game.
        self.score_fn: Callable[[State], list[int]]
        self.template: State
        self.setup_events: list = []  # (deck, pid, cards) of setup, for recorders
        self.nslots = 0
        self.source_hash: str | None = None
        # The limits a game plays under unless its caller gives others: the game file's (limits …), else these.
        self.max_decisions = DEFAULT_MAX_DECISIONS
        self.max_steps = DEFAULT_MAX_STEPS
        self.max_options = DEFAULT_MAX_OPTIONS  # per decision; the game's (limits (options N)) or Program users
        # while a decision without atomic blocks is built: its `finish` continuation and its option list, for
        # the `any` loops and guards that do finish's work where a path ends there (compiler.options: add_lazy,
        # walk_straight)
        self.lazy_finish: Callable | None = None
        self.lazy_opts: list | None = None
        self.lazy_anys = 0  # `any` loops compiled to make lazy options
        self.branches = 0  # `any` elements walked by the decision being built (compiler.options.BRANCHES_PER_OPTION)
        self.keys_fn: Callable[[State], list[tuple]] | None = None  # tie-break keys per player (E5)
        self.has_atomic = False
        self.atomic_attempts = ATOMIC_ATTEMPTS
        self.atomic_paths = 0  # complete paths walked by the decision being built
        self.atomic_max_paths = 50_000  # then the decision samples its atomic blocks (compiler.driver.ATOMIC_MAX_PATHS)

    # ------------------------------------------------------------ playing

    def new_game(self, seed: int, max_decisions: int | None = None, max_idle_steps: int | None = None,
                 recorder=None, sampling=None) -> State:
        """A fresh game (declares and setup done) advanced to its first decision point or its end.

        `sampling`: per seat, True when that seat's decisions sample atomic blocks (the random
        player) instead of enumerating them (extensions E4); None: every seat enumerates.
        """
        ensure()  # this process's step-time watchdog (engine.watchdog): one check per game
        st = self.template.clone()
        st.rng = new_stream(seed)
        st.seed = seed
        st.max_decisions = max_decisions if max_decisions is not None else self.max_decisions
        st.max_steps = max_idle_steps if max_idle_steps is not None else self.max_steps
        st.sampling = tuple(bool(x) for x in sampling) if sampling is not None and any(sampling) else None
        if recorder is not None:
            sink = EventSink(self, recorder)
            st.rec = sink
            sink.teams(self.teams)
            for deck, pid, cards in self.setup_events:
                sink.create(st, deck, pid, cards)
        self.run(st)
        return st

    def is_terminal(self, st: State) -> bool:
        return st.status >= DONE

    def chooser(self, st: State) -> int | None:
        return st.chooser if st.status == WAITING else None

    def options(self, st: State) -> list[Option]:
        """The options of the pending decision (empty when the game is over)."""
        opts = st.opts
        return opts if st.status == WAITING and opts is not None else []

    def apply(self, st: State, i: int, kind: str | None = None) -> None:
        """Take option i of the pending decision; run to the next decision point or the end."""
        opts, chooser = st.opts, st.chooser
        # a waiting state always has its options and chooser: the None tests only narrow the types
        if st.status != WAITING or opts is None or chooser is None:
            raise UsageError("apply(): the game is not waiting for a decision")
        if i.__class__ is not int:
            i = option_index(i, len(opts))
        if not (0 <= i < len(opts)):
            raise UsageError(f"apply(): option {i} out of range 0..{len(opts) - 1}")
        o = opts[i]
        made = None
        ops: tuple = ()
        body = heard = None
        if o.__class__ is DeferredOption:
            # its body assigns cells only, from cells it does not assign: run where the ops would be
            # replayed, it makes the same changes and a recorder hears the same events (no ops computed)
            body = o.body
        elif o.__class__ is not LazyOption:
            ops = o.ops
        elif st.rec is None:
            # the option's changes made while its ops are computed: not undone and replayed (nothing of
            # the state the lines below change is read by them)
            made = o.take(st)
            ops = made if made is not None else o.ops_at(st)  # (else computed now, before the state changes)
        elif o.can_take(st):
            heard = o  # taken where it would be replayed, after the decision's event, the recorder listening
        else:
            ops = o.ops_at(st)
        n = st.decisions + 1
        # a decision whose atomic blocks were sampled lists one walk per block: its estimated number
        # of complete paths is kept too (compiler.items.SampledOptions)
        st.records.append((n, chooser, len(opts), i, st.pc,
                           None if opts.__class__ is list else getattr(opts, "estimate", None)))
        st.decisions = n
        st.steps = 0
        rec = st.rec
        if rec is not None and rec.decisions:
            ev = {"type": "decision", "n": n, "seat": chooser, "kind": kind, "options": len(opts), "choice": i}
            if rec.text:
                ev["text"] = "; ".join(self.describe(st, opts[i]))
            steps = getattr(opts[i], "steps", None)
            if steps is not None:  # an option a person built step by step (players.stepwise): how to build it again
                ev["steps"] = steps
            rec.raw(ev)
        if made is None:
            redo = REDO
            try:
                if body is not None:
                    body(st, st.env)
                elif heard is not None:
                    heard.take_heard(st)
                else:
                    for op in ops:
                        redo[op[0]](st, op)
            except Exception as e:  # replaying a built option cannot fail (nor making a deferred one)
                raise InternalError(f"replaying option {i} failed: {e!r}") from e
        st.opts = None
        st.pc += 1
        st.status = RUNNING
        self.run(st)

    def run(self, st: State) -> None:
        """Execute code ops until a decision point, the end, a limit or a run-time error."""
        code = self.code
        try:
            while st.status == RUNNING:
                code[st.pc](st)
        except GameRuntimeError as e:
            self._error(st, e)
        except RecursionError:
            self._error(st, GameRuntimeError("resource", "the game nests too deeply for this implementation",
                                             self.code_span[st.pc]))
        except MemoryError:
            self._error(st, GameRuntimeError("resource", "out of memory: the game needs more than the memory "
                                             "ceiling of the process (--max-memory, docs/limits.md)",
                                             self.code_span[st.pc]))
        except StepTimeExceeded as e:  # raised in this thread by the watchdog: past its CPU time or undo log bound
            self._error(st, GameRuntimeError("limit", stop_message(e), self.code_span[st.pc]))
        except (InternalError, UsageError):
            raise
        except Exception as e:
            raise InternalError(f"internal error at {self.code_span[st.pc]}: {e!r}") from e

    def stop_step(self, st: State, e: StepTimeExceeded | None = None) -> None:
        """End a game the watchdog stopped outside `run` (a person's option being built, players.stepwise;
        or its exception `e` landing just after a step): the same run-time error of class `limit`, at the
        item the game stands at.  A game already over keeps its end."""
        if st.status < DONE:
            self._error(st, GameRuntimeError("limit", stop_message(e), self.code_span[st.pc]))

    def _context(self, st: State) -> str:
        stages = self.code_stages[st.pc]
        s = f"decision {st.decisions + (1 if st.pc in self.choice_span else 0)}, current player {st.pcyc[-2]}"
        if stages:
            s += ", stages at " + " < ".join(f"{sp.line}:{sp.column}" for sp in stages)
        return s

    def _error(self, st: State, e: GameRuntimeError) -> None:
        st.log = None
        st.error = e.with_context(self._context(st))
        st.status = ERROR
        st.opts = None
        if st.rec is not None:
            end_event(self, st)

    def _step(self, st: State, span: Span) -> bool:
        """Count one step of the game at span: False (and the game ended at the step limit) if one too many.

        The hottest ops (a `do` item, a stage's test, a decision) inline these lines instead.
        """
        s = st.steps + 1
        if s > st.max_steps:
            self._limit(st, "steps", span)
            return False
        st.steps = s
        return True

    def _limit(self, st: State, which: str, span: Span) -> None:
        st.limit = (which, span)
        st.status = LIMIT
        try:
            st.scores = self.score_fn(st)
            st.keys = self.keys_fn(st) if self.keys_fn is not None else None
        except GameRuntimeError as e:
            st.scores = None
            st.error = e.with_context("while scoring provisionally after the limit")
        if st.rec is not None:
            end_event(self, st)

    def finish(self, st: State) -> None:
        """The END op: score every player (§15)."""
        st.scores = self.score_fn(st)
        if self.keys_fn is not None:
            st.keys = self.keys_fn(st)
        st.status = DONE
        if st.rec is not None:
            end_event(self, st)

    # ------------------------------------------------------------ results

    def result(self, st: State) -> GameResult:
        """The GameResult of a finished game (or of the game so far)."""
        texts = self.choice_span_text
        new, DR = tuple.__new__, DecisionRecord  # one record per decision: no constructor call on this hot path
        recs = st.records
        records = [new(DR, (n, ch, b, i, texts.get(pc) or self._span_text(pc), est)) for n, ch, b, i, pc, est in recs]
        status = st.status
        scores = ranks = shares = winners = None
        limit = error = score_error = None
        if status == DONE:  # every game that ends normally: first and with the fewest tests
            outcome, reason = "completed", "normal"
        elif status == ERROR:
            outcome, reason = "error", "error"
            e = st.error
            error = ErrorInfo(e.cls, e.message, str(e.span), tuple(e.context), e.format())
        elif status == LIMIT:
            outcome = "limit"
            assert st.limit is not None  # set with the LIMIT status (_limit)
            which, span = st.limit
            reason = {"decisions": "decision_limit", "options": "option_limit"}.get(which, "step_limit")
            limit = LimitInfo(which, st.decisions, st.steps, str(span))
            if st.error is not None:
                e = st.error
                score_error = ErrorInfo(e.cls, e.message, str(e.span), tuple(e.context), e.format())
        else:
            outcome, reason = "running", "running"
        if status != ERROR and st.scores is not None:
            scores = list(st.scores)
            ranks, shares = alg.competition_ranks(scores, self.direction, st.keys)
            winners = [p for p, r in enumerate(ranks) if r == 1]
        hands = st.hands
        return GameResult(outcome, reason, st.seed, self.direction, records, scores, ranks, shares, winners,
                          limit, error, self.warnings, [r[3] for r in recs], score_error,
                          [list(h) for h in hands] if hands else [])

    def _span_text(self, pc: int) -> str:
        """The position of the decision at pc as text, kept for the next records of that decision."""
        text = self.choice_span_text[pc] = str(self.choice_span.get(pc, NOWHERE))
        return text

    # ------------------------------------------------------------ descriptions and visibility

    def card_text(self, st: State, c: int) -> str:
        """A card as its attribute values joined by '-', prefixed by '<deck>:' unless the deck is DEFAULT."""
        return _describe.card_text(st, c)

    def describe(self, st: State, option: Option, viewer: int | None = None) -> list[str]:
        """The resolved actions of an option, in order; with `viewer`, cards that player cannot see are hidden."""
        return _describe.describe(self, st, option, viewer)

    def sees(self, p: int, pid: int) -> bool:
        """Does player p see the content of pile pid (§17.2)?"""
        return _visibility.sees(self, p, pid)

    def view(self, st: State, p: int) -> dict:
        """What player p observes (§17.1); see visibility.view."""
        return _visibility.view(self, st, p)

    def pile_order(self) -> list:
        """Pile ids sorted by key (deterministic whatever order piles were registered in)."""
        return _visibility.pile_order(self)

    def determinize(self, st: State, p: int, rng: random.Random) -> State:
        """A state from p's information set (§17.4); see visibility.determinize."""
        return _visibility.determinize(self, st, p, rng)


def end_event(prog: Program, st: State) -> None:
    """A recorded game's end: its result kept for play_game (rec.final) and, when the recorder wants it, the
    `end` event told."""
    r = prog.result(st)
    rec = st.rec
    rec.final = (st.status, r)  # play_game returns this instead of building it again
    if not rec.decisions:
        return
    # The event gets lists of its own: a recorder that edits them must not change the result
    # play_game returns (rec.final), nor the caller's edits of that result the recorded event.
    ev = {"type": "end", "reason": r.end_reason, "decisions": r.n_decisions, "direction": prog.direction,
          "scores": _copy(r.scores), "ranks": _copy(r.ranks), "win_share": _copy(r.shares),
          "error": r.error.text if r.error else None}
    if r.hands:  # a match: the scores above are the match's, these each hand's
        ev["hands"] = [list(h) for h in r.hands]
    rec.raw(ev)


def _copy(xs: list | None) -> list | None:
    return None if xs is None else list(xs)


watch(Program.run)  # each call is one engine step, timed by engine.watchdog
