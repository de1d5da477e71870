"""The game state: plain, slotted, clonable data (design.md "Engine").

A `State` belongs to the `Program` that created it: pile ids, storage slots and
card kinds are small integers from that program's registries.  Nothing in a
state holds a Python frame or generator; the position in the program is one
integer (`pc`), so `clone()` is a handful of list copies.

Representation (see core.py for the registries):

* piles:   list of lists of card ids; index 0 = bottom, last = top.
* where:   card id -> physical pile id holding it.
* vals:    storage slot -> int | str | PointMap.
* pcyc:    player-cycle stack, flattened pairs [current, queued, current, queued, ...];
           queued is -1 when nothing is queued.  Innermost cycle last.
* tcyc:    team-cycle stack, the current team of each cycle (teams are never queued).
* env:     variable slots (each binder has its own slot; declares are constants).
* catt / ckind / cmeta: the card table: attribute map, kind id and (deck, serial)
           per card id.  Shared between clones and copied only when a
           `create deck` runs during play (copy on write).
* log:     None in real play; the undo/redo log while a choice's options are built
           (or while an atomic block runs tentatively).
* rec:     None, or the recorder receiving the events of the real game.
* boards:  the board families built so far (a tuple of family ids; extensions E1).
* keys:    the tie-break keys per player once scored (None without `tiebreak`; E5).
* sampling: None, or per seat whether that seat's decisions build atomic blocks by
           sampling (the random player) rather than by enumeration (E4).
* sampler: while options are built, the sampling stream of this decision (a
           compiler.walks.WalkStream), or None when its atomic blocks are enumerated.
"""
from __future__ import annotations

import random
from typing import Any

from ..errors import UsageError
from .watchdog import ensure

# status codes
RUNNING = 0
WAITING = 1  # at a decision point: options built, waiting for apply()
DONE = 2  # completed normally (scored)
LIMIT = 3  # stopped on a limit (scored provisionally)
ERROR = 4  # stopped on a run-time error (not scored)

STATUS_NAMES = {RUNNING: "running", WAITING: "waiting", DONE: "completed", LIMIT: "limit", ERROR: "error"}

# pile kinds (Visibility order of the spec's table)
VLOC, ILOC, HLOC, OLOC, MEM = 0, 1, 2, 3, 4
KIND_WORDS = ("vloc", "iloc", "hloc", "oloc", "mem")

# log / option op codes.  Every op tuple starts with its code.
#   MV   (MV, card, from_pid, from_index, to_pid, to_index)
#   REM  (REM, card, mem_pid, index)
#   FGT  (FGT, card, mem_pid, index)
#   SWP  (SWP, pid_a, pid_b)                              swap of two piles
#   SWC  (SWC, card_a, pid_a, index_a, card_b, pid_b, index_b)
#   SHF  (SHF, pid, old_order_tuple, new_order_tuple)
#   SET  (SET, slot, old_value, new_value)
#   PCY  (PCY, index_in_pcyc, old, new)                    cycle current / cycle next
#   PASS (PASS,)                                          turn pass
#   VDEL (VDEL, virtual_list, index, card)                 entry removed from a virtual pile
#   OVR  (OVR, card, old_kind, new_kind)                    card attribute override changed (E2)
#   CPU  (CPU, which, values)                               cycle pushed (which 0: player, 1: team)
#   CPO  (CPO, which, values)                               cycle popped
#   ADV  (ADV, which, old_values, new_values)               innermost cycle advanced by a stage (player: (current,
#                                                         queued); team: (current,))
#   DCL  (DCL,)                                          the pass of an optional step: no effect
MV, REM, FGT, SWP, SWC, SHF, SET, PCY, PASS, VDEL, OVR, CPU, CPO, ADV, DCL = range(15)


class PointMap:
    """An evaluated point map (spec §13): awards ((KEY, VALUE), ...), points) and cached scores per card kind."""

    __slots__ = ("awards", "sk")

    def __init__(self, awards: tuple, kinds: list):
        self.awards = awards
        self.sk: list[int] = []
        self.extend(kinds)

    def extend(self, kinds: list) -> list:
        """Compute the scores of card kinds registered since the last call; returns the score list."""
        sk = self.sk
        awards = self.awards
        for k in range(len(sk), len(kinds)):
            att = kinds[k]
            s = 0
            for conds, pts in awards:
                for key, val in conds:
                    if att.get(key, "") != val:
                        break
                else:
                    s += pts
            sk.append(s)
        return sk

    def to_json(self):
        return [[[list(c) for c in conds], pts] for conds, pts in self.awards]

    def __repr__(self) -> str:
        return f"PointMap({self.awards!r})"

    def __eq__(self, other):
        return isinstance(other, PointMap) and other.awards == self.awards

    def __hash__(self):
        return hash(self.awards)

    def __reduce__(self):
        return (_make_pm, (self.awards,))


def _make_pm(awards):
    pm = PointMap.__new__(PointMap)
    pm.awards = awards
    pm.sk = []
    return pm


class CardMeta:
    """Per-card deck name and serial, plus the next serial per deck name (spec §4.8)."""

    __slots__ = ("base", "deck", "next_serial", "serial")

    def __init__(self, deck: list, serial: list, next_serial: dict, base: list | None = None):
        self.deck = deck
        self.serial = serial
        self.next_serial = next_serial
        self.base = base if base is not None else []  # card id -> printed kind (before overrides)

    def copy(self) -> CardMeta:
        return CardMeta(list(self.deck), list(self.serial), dict(self.next_serial), list(self.base))

    def __eq__(self, other):
        return isinstance(other, CardMeta) and ((self.deck, self.serial, self.next_serial)
                                                == (other.deck, other.serial, other.next_serial))


class Option:
    """One option of a decision point: the ops of its path (exact effect) and their description."""

    __slots__ = ("_text", "ops")

    def __init__(self, ops: tuple):
        self.ops = ops
        self._text = None

    @property
    def actions(self) -> tuple:
        """The ops that are actions or effects (everything but bookkeeping of virtual piles)."""
        return tuple(op for op in self.ops if op[0] != VDEL)

    def __repr__(self) -> str:
        return f"Option({self.actions!r})"

    def __reduce__(self):
        # virtual-list entries refer to option-building scratch lists: drop them, they never replay
        return (Option, (self.actions,))

    def ops_at(self, st: State) -> tuple:
        """The ops of this option of the decision `st` is waiting at (for a LazyOption: computed from st if need be)."""
        return self.ops


class LazyOption(Option):
    """An option made without walking its path (compiler.options, "lazy options"): its ops are computed when
    first read, by running the option's plain body from the decision state, and kept.

    `ctx` is shared by the options of one `any`: (a weak reference to the home state, its decision count,
    its pc, the function computing the ops, the (slot, value) pairs of the variables the body reads, the
    loop's variable slot, the plain body, the ops logged on the path before the `any`, which start every
    option's ops and are made again before the body runs); `elem` is this option's element.  The home state is the
    state whose decision built the option; while it waits at that decision the ops are computed from
    it.  After it has moved on, `ops_at(st)` computes them from st, a copy of the home state at the
    decision (a clone a player searched), and `ops` cannot tell which state to use: it raises
    UsageError (player code that kept an option past its decision).  The reference is weak: the home
    state holds its options, which would otherwise hold it in a reference cycle.
    """

    __slots__ = ("_ctx", "_elem", "_ops")

    def __init__(self, ctx: tuple, elem):
        self._ctx = ctx
        self._elem = elem
        self._ops = None

    def _home(self) -> State | None:
        """The home state, if it still waits at the decision that built this option."""
        ctx = self._ctx
        home = ctx[0]()
        if (home is not None and home.decisions == ctx[1] and home.pc == ctx[2] and home.status == WAITING
                and home.log is None):
            return home
        return None

    @property
    def ops(self) -> tuple:  # type: ignore[override]
        ops = self._ops
        if ops is None:
            home = self._home()
            if home is None:
                raise UsageError("the changes of this option were read after its decision was taken (an "
                                 "option belongs to the state that listed it): read them before apply(), or "
                                 "with option.ops_at(state) on a copy of that state")
            ops = self._ops = self._ctx[3](home, self._ctx, self._elem)
        return ops

    def ops_at(self, st: State) -> tuple:
        ops = self._ops
        if ops is None:
            home = self._home()
            if home is None:  # computed from st, not kept: another copy may differ in what its player cannot see
                return self._ctx[3](st, self._ctx, self._elem)
            ops = self._ops = self._ctx[3](home, self._ctx, self._elem)
        return ops

    def take(self, st: State) -> tuple | None:
        """Make this option's changes on st, its home state, and give its ops; None (st unchanged) if st is not
        the home state waiting at the decision, or the ops are known already (then they are replayed)."""
        if self._ops is not None or self._home() is not st:
            return None
        ops = self._ops = self._ctx[3](st, self._ctx, self._elem, True)
        return ops

    def can_take(self, st: State) -> bool:
        """Could `take` make this option's changes on st (st its home, waiting at the decision, its ops unknown)?"""
        return self._ops is None and self._home() is st

    def take_heard(self, st: State) -> tuple:
        """`take` with st's recorder listening, which hears the changes as it would hear their replay; for
        Program.apply, after `can_take(st)` said yes and the decision's own event was told."""
        ops = self._ops = self._ctx[3](st, self._ctx, self._elem, True, True)
        return ops

    def __reduce__(self):
        return (Option, (self.actions,))


class DeferredOption(LazyOption):
    """A LazyOption of a straight decision (compiler.deferred): its element is the option's body, which
    changes only cells and reads only cells it does not change, so that it can run on any state waiting
    at the decision, the home state or a copy of it: Program.apply runs it there, unlogged, when no
    recorder listens (nothing computed, nothing kept)."""

    __slots__ = ()

    @property
    def body(self):
        """The option's changes as a function of (state, environment), run with the state's log."""
        return self._elem


class State:
    """The mutable state of one game (spec §1.3).  Clone with `clone()`; compare with `==`."""

    __slots__ = (
        "__weakref__",  # lazy options refer to the state that built them weakly (LazyOption)
        "boards",
        "catt",
        "chooser",
        "ckind",
        "cmeta",
        "decisions",
        "env",
        "error",
        "hands",
        "keys",
        "limit",
        "log",
        "max_decisions",
        "max_steps",
        "opts",
        "pc",
        "pcyc",
        "piles",
        "rec",
        "records",
        "rng",
        "sampler",
        "sampling",
        "scores",
        "seed",
        "status",
        "steps",
        "tcyc",
        "vals",
        "warnings",
        "where",
    )

    pc: int
    status: int
    piles: list[list[int]]
    where: list[int]
    vals: list[Any]
    pcyc: list[int]
    tcyc: list[int]
    env: list[Any]
    catt: list[dict[str, str]]
    ckind: list[int]
    cmeta: CardMeta
    rng: random.Random | None
    seed: int | None
    decisions: int
    steps: int
    max_decisions: int
    max_steps: int
    opts: list[Option] | None
    chooser: int | None
    records: list[tuple[int, int, int, int, int, float | None]]
    log: list[tuple] | None
    rec: Any  # an EventSink while the real game is recorded
    error: Any  # the GameRuntimeError that stopped the game
    limit: tuple[str, Any] | None
    scores: list[int] | None
    warnings: tuple
    boards: tuple[int, ...]
    keys: list[tuple] | None
    sampling: tuple[bool, ...] | None
    sampler: random.Random | None
    hands: list[tuple[int, ...]]  # each finished hand's score per player, in a match

    def clone(self) -> State:
        """An independent copy (rng state included); the copy carries no recorder."""
        c = State.__new__(State)
        c.pc = self.pc
        c.status = self.status
        c.piles = [p[:] for p in self.piles]
        c.where = self.where[:]
        c.vals = self.vals[:]
        c.pcyc = self.pcyc[:]
        c.tcyc = self.tcyc[:]
        c.env = self.env[:]
        c.catt = self.catt
        c.ckind = self.ckind
        c.cmeta = self.cmeta
        rng = self.rng
        if rng is not None:
            r = random.Random.__new__(random.Random)
            r.setstate(rng.getstate())
            c.rng = r
        else:
            c.rng = None
        c.seed = self.seed
        c.decisions = self.decisions
        c.steps = self.steps
        c.max_decisions = self.max_decisions
        c.max_steps = self.max_steps
        c.opts = self.opts
        c.chooser = self.chooser
        c.records = self.records[:]
        c.log = None
        c.rec = None
        c.error = self.error
        c.limit = self.limit
        c.scores = self.scores
        c.warnings = self.warnings
        c.boards = self.boards
        c.keys = self.keys
        c.sampling = self.sampling
        c.hands = self.hands[:]
        c.sampler = None
        return c

    def __getstate__(self):
        d = {k: getattr(self, k) for k in DATA_SLOTS}
        d["rec"] = None
        d["log"] = None
        d["sampler"] = None
        opts = self.opts
        if opts is not None and opts.__class__ is list and any(o.__class__ is LazyOption for o in opts):
            # a lazy option refers to its home state: pickled with the ops it has in this state
            d["opts"] = [Option(o.ops_at(self)) if o.__class__ is LazyOption else o for o in opts]
        return d

    def __setstate__(self, d):
        # a state unpickled into a process that never started a game (a worker handed states to play on)
        # is the first this process plays: it needs the step-time watchdog new_game would have started
        ensure()
        for k in DATA_SLOTS:
            setattr(self, k, d.get(k))

    def _key(self):
        # piles and cells spring into existence lazily: trailing empty piles / default cells do not count
        piles, vals = self.piles, self.vals
        n = len(piles)
        while n and not piles[n - 1]:
            n -= 1
        m = len(vals)
        while m and (vals[m - 1] is None or vals[m - 1] == 0 or vals[m - 1] == ""
                     or (isinstance(vals[m - 1], PointMap) and not vals[m - 1].awards)):
            m -= 1
        return (self.pc, self.status, piles[:n], self.where, vals[:m], self.pcyc, self.tcyc,
                self.env, self.catt, self.cmeta.deck, self.cmeta.serial, self.decisions, self.steps, self.boards,
                self.hands, self.rng.getstate() if self.rng is not None else None)

    def __eq__(self, other):
        """Equal game situations: piles, storage, cycles, variables, cards, counters and rng state."""
        return isinstance(other, State) and self._key() == other._key()

    # Mutable, so unhashable: a class that defines __eq__ and not __hash__ gets __hash__ = None.

    def __repr__(self) -> str:
        return (f"<State pc={self.pc} status={STATUS_NAMES.get(self.status)} decisions={self.decisions} "
                f"player={self.pcyc[-2] if self.pcyc else None}>")


DATA_SLOTS = tuple(k for k in State.__slots__ if k != "__weakref__")  # what a state is made of (pickling)
