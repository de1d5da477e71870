"""The compiled program and the machine that runs it (design.md "Engine").

`recycle.compile.compile_game` turns a checked AST into a `Program`: registries
of piles, storage cells and card kinds, a flat list of `code` ops (one closure
per program item, stage test, stage advance, ...), the scoring closure and a
template state produced by running `setup` once.

Public API (see `compile_game` for creating a Program):

    st = prog.new_game(seed)        # declares + setup done, advanced to the first decision or the end
    prog.is_terminal(st)            # or st.status
    prog.chooser(st)                # seat to decide (None unless waiting)
    prog.options(st)                # list[Option], cached per decision
    prog.apply(st, i)               # take option i; advances to the next decision or the end
    prog.result(st)                 # GameResult
    prog.describe(st, option)       # list of resolved action texts (§6.9)
    prog.view(st, p)                # what seat p observes (§17)
    prog.determinize(st, p, rng)    # a state sampled from p's information set (§17.4)
    play_game(prog, seed, players)  # a whole game with player objects -> GameResult (with .choices)
"""
from __future__ import annotations

import bisect
import random
from typing import Callable, Optional

from ..errors import GameRuntimeError, InternalError, NOWHERE, Span, UsageError
from ..results import DecisionRecord, ErrorInfo, GameResult, LimitInfo
from . import algorithms as alg
from .state import (
    ADV, CPO, CPU, DONE, ERROR, FGT, ILOC, KIND_WORDS, LIMIT, MEM, MV, OLOC, OVR, PASS, PCY, REM, RUNNING,
    SET, SHF, SWC, SWP, VDEL, VLOC, WAITING, Option, PointMap, State,
)

PM_CACHE_LIMIT = 20000
# How many random paths the random player tries through an atomic block before the
# block contributes no option (extensions E4; docs/language.md, "atomic").
ATOMIC_ATTEMPTS = 100
# Lineup codes of players whose decisions sample atomic blocks instead of enumerating them.
SAMPLING_CODES = frozenset({"R"})


# ---------------------------------------------------------------- primitives
#
# Every state change goes through these functions: they log the inverse while
# options are being built (st.log is a list) and report events to the recorder
# of the real game (st.rec).  Hot paths in compile.py inline some of them.


def p_move(st: State, c: int, a: int, i: int, b: int, j: int) -> None:
    """Move card c from pile a (index i) to pile b at index j (j < 0: top)."""
    piles = st.piles
    del piles[a][i]
    d = piles[b]
    if j < 0:
        j = len(d)
        d.append(c)
    else:
        d.insert(j, c)
    st.where[c] = b
    if st.log is not None:
        st.log.append((MV, c, a, i, b, j))
    if st.rec is not None:
        st.rec.move(st, c, a, b)


def p_set(st: State, slot: int, v) -> None:
    vals = st.vals
    if st.log is not None:
        st.log.append((SET, slot, vals[slot], v))
    vals[slot] = v
    if st.rec is not None:
        st.rec.set(st, slot, v)


def p_pcyc(st: State, idx: int, v: int) -> None:
    """Set entry idx of the player-cycle stack (len-2: current, len-1: queued)."""
    pc = st.pcyc
    old = pc[idx]
    if st.log is not None:
        st.log.append((PCY, idx, old, v))
    pc[idx] = v
    if st.rec is not None and idx == len(pc) - 2 and old != v:
        st.rec.turn(v)


def p_pass(st: State) -> None:
    if st.log is not None:
        st.log.append((PASS,))


def p_remember(st: State, c: int, m: int, j: int) -> None:
    d = st.piles[m]
    if j < 0:
        j = len(d)
        d.append(c)
    else:
        d.insert(j, c)
    if st.log is not None:
        st.log.append((REM, c, m, j))
    if st.rec is not None:
        st.rec.remember(st, c, m)


def p_forget(st: State, m: int, i: int) -> None:
    c = st.piles[m].pop(i)
    if st.log is not None:
        st.log.append((FGT, c, m, i))
    if st.rec is not None:
        st.rec.forget(st, c, m)


def p_swap_piles(st: State, a: int, b: int) -> None:
    if st.log is not None:
        st.log.append((SWP, a, b))
    if a != b:
        pa, pb = _exchange(st, a, b)
        if st.rec is not None:
            st.rec.swap(st, a, b, pa, pb)


def p_swap_cards(st: State, ca: int, pa: int, ia: int, cb: int, pb: int, ib: int) -> None:
    piles = st.piles
    piles[pa][ia] = cb
    piles[pb][ib] = ca
    st.where[ca] = pb
    st.where[cb] = pa
    if st.log is not None:
        st.log.append((SWC, ca, pa, ia, cb, pb, ib))
    if st.rec is not None and ca != cb:
        st.rec.swap(st, pa, pb, [ca], [cb])


def p_rekind(st: State, c: int, k: int, kinds: list) -> None:
    """Give card c the kind k (its attributes with overrides applied, E2); copy on write, logged."""
    old = st.ckind[c]
    if old == k:
        return
    if st.log is not None:
        st.log.append((OVR, c, old, k, st.catt[c], kinds[k]))
    _set_kind(st, c, k, kinds[k])


def _set_kind(st: State, c: int, k: int, att: dict) -> None:
    ck = list(st.ckind)
    ck[c] = k
    ca = list(st.catt)
    ca[c] = att
    st.ckind, st.catt = ck, ca


def p_push_cycle(st: State, which: int, values: tuple) -> None:
    """Push a player cycle (which 0: values (current, -1)) or a team cycle (which 1: (current,)); logged."""
    (st.pcyc if which == 0 else st.tcyc).extend(values)
    if st.log is not None:
        st.log.append((CPU, which, values))


def p_pop_cycle(st: State, which: int) -> None:
    c = st.pcyc if which == 0 else st.tcyc
    n = 2 if which == 0 else 1
    values = tuple(c[-n:])
    del c[-n:]
    if st.log is not None:
        st.log.append((CPO, which, values))
    if which == 0 and st.rec is not None and c[-2] != values[0]:
        st.rec.turn(c[-2])


def p_advance(st: State, which: int, n: int) -> None:
    """A stage's advance of the innermost cycle (n members), logged: the queued player if any, else the next."""
    if which == 0:
        c = st.pcyc
        old = (c[-2], c[-1])
        new = (old[1] if old[1] >= 0 else (old[0] + 1) % n, -1)
        c[-2], c[-1] = new
    else:
        c = st.tcyc
        old = (c[-1],)
        new = ((old[0] + 1) % n,)
        c[-1] = new[0]
    if st.log is not None:
        st.log.append((ADV, which, old, new))
    if which == 0 and st.rec is not None and new[0] != old[0]:
        st.rec.turn(new[0])


def p_shuffle(st: State, pid: int) -> None:
    p = st.piles[pid]
    old = tuple(p) if st.log is not None else None
    st.rng.shuffle(p)
    if st.log is not None:
        st.log.append((SHF, pid, old, tuple(p)))
    if st.rec is not None:
        st.rec.shuffle(st, pid)


# ---------------------------------------------------------------- undo / redo of logged ops


def _u_mv(st, op):
    _, c, a, i, b, j = op
    del st.piles[b][j]
    st.piles[a].insert(i, c)
    st.where[c] = a


def _u_rem(st, op):
    del st.piles[op[2]][op[3]]


def _u_fgt(st, op):
    st.piles[op[2]].insert(op[3], op[1])


def _exchange(st, a, b):
    """Exchange the contents of piles a and b (a swap is its own inverse); returns the old lists."""
    piles = st.piles
    pa, pb = piles[a], piles[b]
    piles[a], piles[b] = pb, pa
    where = st.where
    for c in pa:
        where[c] = b
    for c in pb:
        where[c] = a
    return pa, pb


def _u_swp(st, op):
    _, a, b = op
    if a != b:
        _exchange(st, a, b)


def _u_swc(st, op):
    _, ca, pa, ia, cb, pb, ib = op
    st.piles[pa][ia] = ca
    st.piles[pb][ib] = cb
    st.where[ca] = pa
    st.where[cb] = pb


def _u_shf(st, op):
    st.piles[op[1]][:] = op[2]


def _u_set(st, op):
    st.vals[op[1]] = op[2]


def _u_pcy(st, op):
    st.pcyc[op[1]] = op[2]


def _u_pass(st, op):
    pass


def _u_vdel(st, op):
    op[1].insert(op[2], op[3])


def _u_ovr(st, op):
    _set_kind(st, op[1], op[2], op[4])


def _u_cpu(st, op):
    c = st.pcyc if op[1] == 0 else st.tcyc
    del c[-len(op[2]):]


def _u_cpo(st, op):
    (st.pcyc if op[1] == 0 else st.tcyc).extend(op[2])


def _u_adv(st, op):
    v = op[2]
    c = st.pcyc if op[1] == 0 else st.tcyc
    c[len(c) - len(v):] = v


UNDO = (_u_mv, _u_rem, _u_fgt, _u_swp, _u_swc, _u_shf, _u_set, _u_pcy, _u_pass, _u_vdel,
        _u_ovr, _u_cpu, _u_cpo, _u_adv)


def undo_to(st: State, mark: int) -> None:
    """Undo logged ops until the log has `mark` entries."""
    log = st.log
    undo = UNDO
    while len(log) > mark:
        op = log.pop()
        undo[op[0]](st, op)


def _r_mv(st, op):
    _, c, a, i, b, j = op
    piles = st.piles
    del piles[a][i]
    piles[b].insert(j, c)
    st.where[c] = b
    if st.rec is not None:
        st.rec.move(st, c, a, b)


def _r_rem(st, op):
    st.piles[op[2]].insert(op[3], op[1])
    if st.rec is not None:
        st.rec.remember(st, op[1], op[2])


def _r_fgt(st, op):
    del st.piles[op[2]][op[3]]
    if st.rec is not None:
        st.rec.forget(st, op[1], op[2])


def _r_swp(st, op):
    _, a, b = op
    if a != b:
        pa, pb = _exchange(st, a, b)
        if st.rec is not None:
            st.rec.swap(st, a, b, pa, pb)


def _r_swc(st, op):
    _, ca, pa, ia, cb, pb, ib = op
    st.piles[pa][ia] = cb
    st.piles[pb][ib] = ca
    st.where[ca] = pb
    st.where[cb] = pa
    if st.rec is not None and ca != cb:
        st.rec.swap(st, pa, pb, [ca], [cb])


def _r_shf(st, op):
    st.piles[op[1]][:] = op[3]
    if st.rec is not None:
        st.rec.shuffle(st, op[1])


def _r_set(st, op):
    st.vals[op[1]] = op[3]
    if st.rec is not None:
        st.rec.set(st, op[1], op[3])


def _r_pcy(st, op):
    _, idx, old, new = op
    st.pcyc[idx] = new
    if st.rec is not None and idx == len(st.pcyc) - 2 and old != new:
        st.rec.turn(new)


def _r_ovr(st, op):
    _set_kind(st, op[1], op[3], op[5])


def _r_cpo(st, op):
    c = st.pcyc if op[1] == 0 else st.tcyc
    del c[-len(op[2]):]
    if op[1] == 0 and st.rec is not None and c[-2] != op[2][0]:
        st.rec.turn(c[-2])


def _r_adv(st, op):
    v = op[3]
    c = st.pcyc if op[1] == 0 else st.tcyc
    c[len(c) - len(v):] = v
    if op[1] == 0 and st.rec is not None and v[0] != op[2][0]:
        st.rec.turn(v[0])


REDO = (_r_mv, _r_rem, _r_fgt, _r_swp, _r_swc, _r_shf, _r_set, _r_pcy, _u_pass, _u_pass,
        _r_ovr, _u_cpo, _r_cpo, _r_adv)


def redo_logged(st: State, op: tuple) -> None:
    """Apply a recorded op again while building options, logging it (its own undo record)."""
    if op[0] == VDEL:
        del op[1][op[2]]
    else:
        REDO[op[0]](st, op)
    st.log.append(op)


# ---------------------------------------------------------------- recording


class ListRecorder(list):
    """A recorder that keeps every event dict in a list."""

    def event(self, d: dict) -> None:
        self.append(d)


class EventSink:
    """Turns engine callbacks into event dicts in the transcript format (flow-and-analytics §5.2)."""

    __slots__ = ("prog", "out", "text")

    def __init__(self, prog: "Program", recorder):
        self.prog = prog
        self.out = recorder.event if hasattr(recorder, "event") else recorder
        # Describing the chosen option costs more than playing it: a recorder
        # that only counts events says so with `wants_text = False`.
        self.text = getattr(recorder, "wants_text", True)

    def card(self, st, c) -> str:
        return f"{st.cmeta.deck[c]}#{st.cmeta.serial[c]}"

    def move(self, st, c, a, b):
        loc = self.prog.loc_json
        self.out({"type": "move", "card": self.card(st, c), "from": loc(a), "to": loc(b)})

    def remember(self, st, c, m):
        loc = self.prog.loc_json
        self.out({"type": "remember", "card": self.card(st, c), "from": loc(st.where[c]), "to": loc(m)})

    def forget(self, st, c, m):
        self.out({"type": "forget", "card": self.card(st, c), "loc": self.prog.loc_json(m)})

    def swap(self, st, a, b, a_to_b, b_to_a):
        loc = self.prog.loc_json
        self.out({"type": "swap", "a": loc(a), "b": loc(b),
                  "a_to_b": [self.card(st, c) for c in a_to_b], "b_to_a": [self.card(st, c) for c in b_to_a]})

    def shuffle(self, st, pid):
        self.out({"type": "shuffle", "loc": self.prog.loc_json(pid)})

    def set(self, st, slot, v):
        owner, kind, name = self.prog.slot_key[slot]
        if isinstance(v, PointMap):
            v = v.to_json()
        elif kind == "ply":
            v = None if v is None else f"p{v + 1}"
        self.out({"type": "set", "owner": self.prog.owner_text(st, owner), "store": kind, "key": name, "value": v})

    def turn(self, p):
        self.out({"type": "turn", "seat": p})

    def create(self, st, deck, pid, cards):
        catt = st.catt
        self.out({"type": "create", "deck": deck, "to": self.prog.loc_json(pid),
                  "cards": [{"card": self.card(st, c), "att": dict(catt[c])} for c in cards]})

    def teams(self, teams):
        self.out({"type": "teams", "teams": [list(t) for t in teams]})

    def raw(self, d: dict):
        self.out(d)


# ---------------------------------------------------------------- the program


class Program:
    """A compiled game: registries, code, scoring and the template state.  Create with compile_game()."""

    def __init__(self, game, filename: str = "<string>", warnings=()):
        self.game = game
        self.filename = filename
        self.warnings = tuple(warnings)
        self.params: dict = {}
        self.declared: dict = {}
        self.n_players = 0
        self.n_teams = 0
        self.teams: list[tuple] = []
        self.team_of: list[int] = []
        self.direction = "max"
        # piles
        self.pile_ids: dict = {}
        self.pile_key: list = []  # pid -> (owner_code, kind, name, index)
        self.pile_kind: list = []
        self.pile_owner: list = []  # pid -> owner code (0 game, 1 + p player)
        self.families: dict = {}  # (owner, kind, name) -> [sorted indices, pids]
        self._loc_json: list = []
        # storage
        self.slot_ids: dict = {}
        self.slot_key: list = []  # slot -> (owner_code, kind, name)
        self.slot_default: list = []
        # cards
        self.kinds: list = []  # kind id -> attribute dict (interned)
        self.kind_ids: dict = {}
        self.pm_cache: dict = {}
        self.empty_pm: PointMap = PointMap((), self.kinds)
        # code
        self.code: list = []
        self.code_span: list = []  # pc -> Span of the item / condition
        self.code_stages: list = []  # pc -> tuple of enclosing stage spans, innermost first
        self.choice_span: dict = {}
        self.score_fn: Optional[Callable] = None
        self.template: Optional[State] = None
        self.setup_events: list = []  # (deck, pid, cards) of setup, for recorders
        self.nslots = 0
        self.source_hash: Optional[str] = None
        # boards (extensions E1)
        self.pile_cap: list = []  # pid -> capacity of the cell (0: unlimited)
        self.geometries: dict = {}  # (shape, dims) -> Geometry
        self.board_families: list = []  # fid -> BoardFamily
        self.board_ids: dict = {}  # (owner, kind, name) -> BoardFamily
        self.cell_of: dict = {}  # pid -> (BoardFamily, cell index)
        self.keys_fn: Optional[Callable] = None  # tie-break keys per player (E5)
        self.has_atomic = False
        self.atomic_attempts = ATOMIC_ATTEMPTS
        self.atomic_paths = 0  # complete paths walked by the decision being built
        self.atomic_max_paths = 50_000  # then the decision samples its atomic blocks (compile.ATOMIC_MAX_PATHS)

    # ------------------------------------------------------------ registries

    def owner_code_player(self, p: int) -> int:
        return 1 + p

    def owner_json(self, code: int) -> str:
        if code == 0:
            return "table"
        if code <= self.n_players:
            return f"p{code}"
        return f"team{code - 1 - self.n_players}"

    def register_pile(self, owner: int, kind: int, name: str, index: int) -> int:
        key = (owner, kind, name, index)
        pid = self.pile_ids.get(key)
        if pid is not None:
            return pid
        pid = len(self.pile_key)
        self.pile_ids[key] = pid
        self.pile_key.append(key)
        self.pile_kind.append(kind)
        self.pile_owner.append(owner)
        self.pile_cap.append(0)
        self._loc_json.append(["table" if owner == 0 else f"p{owner}", KIND_WORDS[kind], name, index])
        fam = self.families.get((owner, kind, name))
        if fam is None:
            fam = self.families[(owner, kind, name)] = [[], []]
        k = bisect.bisect_left(fam[0], index)
        fam[0].insert(k, index)
        fam[1].insert(k, pid)
        return pid

    def family(self, owner: int, kind: int, name: str) -> list:
        """[sorted indices, pids] of a pile family (created empty if new)."""
        fam = self.families.get((owner, kind, name))
        if fam is None:
            fam = self.families[(owner, kind, name)] = [[], []]
        return fam

    def pile_id(self, st: State, owner: int, kind: int, name: str, index: int) -> int:
        """The pile id for a key computed at run time; makes sure the state has the pile."""
        pid = self.pile_ids.get((owner, kind, name, index))
        if pid is None:
            pid = self.register_pile(owner, kind, name, index)
        piles = st.piles
        if pid >= len(piles):
            piles.extend([] for _ in range(pid + 1 - len(piles)))
        return pid

    def loc_json(self, pid: int) -> list:
        return list(self._loc_json[pid])

    def loc_text(self, pid: int) -> str:
        owner, kw, name, index = self._loc_json[pid]
        return f"{owner} {kw} {name}" + (f" {index}" if index else "")

    def register_slot(self, owner: int, kind: str, name: str) -> int:
        key = (owner, kind, name)
        s = self.slot_ids.get(key)
        if s is not None:
            return s
        s = len(self.slot_key)
        self.slot_ids[key] = s
        self.slot_key.append(key)
        self.slot_default.append(0 if kind == "sto" else "" if kind == "str" else None if kind == "ply" else self.empty_pm)
        return s

    def slot_id(self, st: State, owner: int, kind: str, name: str) -> int:
        s = self.slot_ids.get((owner, kind, name))
        if s is None:
            s = self.register_slot(owner, kind, name)
        vals = st.vals
        if s >= len(vals):
            vals.extend(self.slot_default[len(vals):s + 1])
        return s

    def owner_text(self, st: State, owner) -> str:
        """A storage owner as text: "table", "p1", "team0", a location "table vloc GRID 3", a card "DEFAULT#5"."""
        if owner.__class__ is int:
            return self.owner_json(owner)
        if owner[0] == "L":
            return self.loc_text(owner[1])
        c = owner[1]
        return f"{st.cmeta.deck[c]}#{st.cmeta.serial[c]}"

    # ------------------------------------------------------------ boards (extensions E1)

    def geometry(self, shape: str, dims: tuple):
        from .boards import Geometry

        key = (shape, tuple(dims))
        g = self.geometries.get(key)
        if g is None:
            g = self.geometries[key] = Geometry(shape, tuple(dims))
        return g

    def board_family(self, geom, owner: int, kind: int, name: str, capacity: int):
        """The board family (owner, kind, name) with this geometry, registering its cells (UsageError on a clash)."""
        from .boards import BoardFamily

        key = (owner, kind, name)
        fam = self.board_ids.get(key)
        if fam is not None:
            if fam.geom is not geom or fam.capacity != capacity:
                raise UsageError(f"the board {self.owner_json(owner)} {KIND_WORDS[kind]} {name} is created with two "
                                 f"different shapes or capacities ({fam.geom.shape} {fam.geom.dims} and {geom.shape} {geom.dims})")
            return fam
        pids = [self.register_pile(owner, kind, name, i) for i in range(geom.n)]
        fam = BoardFamily(len(self.board_families), geom, owner, kind, name, pids, capacity)
        self.board_families.append(fam)
        self.board_ids[key] = fam
        for i, pid in enumerate(pids):
            self.pile_cap[pid] = capacity
            self.cell_of[pid] = (fam, i)
        return fam

    def kind_id(self, attrs: dict) -> int:
        key = tuple(attrs.items())
        k = self.kind_ids.get(key)
        if k is None:
            k = self.kind_ids[key] = len(self.kinds)
            self.kinds.append(dict(attrs))
        return k

    def point_map(self, awards: tuple) -> PointMap:
        pm = self.pm_cache.get(awards)
        if pm is None:
            pm = PointMap(awards, self.kinds)
            if len(self.pm_cache) < PM_CACHE_LIMIT:
                self.pm_cache[awards] = pm
        return pm

    # ------------------------------------------------------------ inspection (tests, tools)

    def _owner_code(self, owner) -> int:
        if owner is None or owner == "game":
            return 0
        if isinstance(owner, tuple) and owner[0] in ("L", "C"):  # a location ("L", pid) or a card ("C", id)
            return owner
        if isinstance(owner, tuple) and owner[0] == "team":
            return 1 + self.n_players + owner[1]
        if isinstance(owner, tuple) and owner[0] == "player":
            return 1 + owner[1]
        return 1 + int(owner)

    def pile(self, st: State, owner, kind: str, name: str, index: int = 0) -> list:
        """The card ids of a stored pile, bottom first; owner is "game" or a player id."""
        pid = self.pile_ids.get((self._owner_code(owner), KIND_WORDS.index(kind), name, index))
        if pid is None or pid >= len(st.piles):
            return []
        return list(st.piles[pid])

    def value(self, st: State, owner, kind: str, name: str):
        """A storage cell (kind sto/str/ply/points); owner is "game", a player id, ("team", t), ("L", pile id) or ("C", card)."""
        s = self.slot_ids.get((self._owner_code(owner), kind, name))
        if s is None:
            return 0 if kind == "sto" else "" if kind == "str" else None if kind == "ply" else self.empty_pm
        return st.vals[s] if s < len(st.vals) else self.slot_default[s]

    def card_attrs(self, st: State, c: int) -> dict:
        return dict(st.catt[c])

    def card_id(self, st: State, c: int) -> tuple:
        """A card's identity (deck name, serial) (§4.8)."""
        return st.cmeta.deck[c], st.cmeta.serial[c]

    # ------------------------------------------------------------ playing

    def new_game(self, seed: int, max_decisions: int = 2000, max_idle_steps: int = 10000,
                 recorder=None, sampling=None) -> State:
        """A fresh game (declares and setup done) advanced to its first decision point or its end.

        `sampling`: per seat, True when that seat's decisions sample atomic blocks (the random
        player) instead of enumerating them (extensions E4); None: every seat enumerates.
        """
        st = self.template.clone()
        st.rng = random.Random(seed)
        st.seed = seed
        st.max_decisions = max_decisions
        st.max_steps = max_idle_steps
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

    def chooser(self, st: State) -> Optional[int]:
        return st.chooser if st.status == WAITING else None

    def options(self, st: State) -> list:
        """The options of the pending decision (empty when the game is over)."""
        return st.opts if st.status == WAITING else []

    def apply(self, st: State, i: int, kind: Optional[str] = None) -> None:
        """Take option i of the pending decision; run to the next decision point or the end."""
        if st.status != WAITING:
            raise UsageError("apply(): the game is not waiting for a decision")
        opts = st.opts
        if not (0 <= i < len(opts)):
            raise UsageError(f"apply(): option {i} out of range 0..{len(opts) - 1}")
        n = st.decisions + 1
        st.records.append((n, st.chooser, len(opts), i, st.pc))
        st.decisions = n
        st.steps = 0
        ops = opts[i].ops
        rec = st.rec
        if rec is not None:
            ev = {"type": "decision", "n": n, "seat": st.chooser, "kind": kind, "options": len(opts), "choice": i}
            if rec.text:
                ev["text"] = "; ".join(self.describe(st, opts[i]))
            rec.raw(ev)
        redo = REDO
        try:
            for op in ops:
                redo[op[0]](st, op)
        except Exception as e:  # replaying a built option cannot fail
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
        except (InternalError, UsageError):
            raise
        except Exception as e:
            raise InternalError(f"internal error at {self.code_span[st.pc]}: {e!r}") from e

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
            self._end_event(st)

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
            self._end_event(st)

    def _end_event(self, st: State) -> None:
        r = self.result(st)
        st.rec.raw({"type": "end", "reason": r.end_reason, "decisions": r.n_decisions, "direction": self.direction,
                    "scores": r.scores, "ranks": r.ranks, "win_share": r.shares,
                    "error": r.error.text if r.error else None})

    def finish(self, st: State) -> None:
        """The END op: score every player (§15)."""
        st.scores = self.score_fn(st)
        if self.keys_fn is not None:
            st.keys = self.keys_fn(st)
        st.status = DONE
        if st.rec is not None:
            self._end_event(st)

    # ------------------------------------------------------------ results

    def result(self, st: State) -> GameResult:
        """The GameResult of a finished game (or of the game so far)."""
        records = [DecisionRecord(n, ch, b, i, str(self.choice_span.get(pc, NOWHERE)))
                   for n, ch, b, i, pc in st.records]
        status = st.status
        scores = ranks = shares = winners = None
        limit = error = score_error = None
        if status == ERROR:
            outcome, reason = "error", "error"
            e = st.error
            error = ErrorInfo(e.cls, e.message, str(e.span), tuple(e.context), e.format())
        else:
            if status == DONE:
                outcome, reason = "completed", "normal"
            elif status == LIMIT:
                outcome = "limit"
                which, span = st.limit
                reason = "decision_limit" if which == "decisions" else "step_limit"
                limit = LimitInfo(which, st.decisions, st.steps, str(span))
                if st.error is not None:
                    e = st.error
                    score_error = ErrorInfo(e.cls, e.message, str(e.span), tuple(e.context), e.format())
            else:
                outcome, reason = "running", "running"
            if st.scores is not None:
                scores = list(st.scores)
                ranks, shares = alg.competition_ranks(scores, self.direction, st.keys)
                winners = [p for p, r in enumerate(ranks) if r == 1]
        return GameResult(outcome, reason, st.seed, self.direction, records, scores, ranks, shares, winners,
                          limit, error, self.warnings, [r[3] for r in st.records], score_error)

    # ------------------------------------------------------------ descriptions (§6.9)

    def card_text(self, st: State, c: int) -> str:
        """A card as its attribute values joined by '-', prefixed by '<deck>:' unless the deck is DEFAULT."""
        s = "-".join(st.catt[c].values())
        deck = st.cmeta.deck[c]
        return s if deck == "DEFAULT" else f"{deck}:{s}"

    def describe(self, st: State, option: Option, viewer: Optional[int] = None) -> list[str]:
        """The resolved actions of an option, in order; with `viewer`, cards that player cannot see are hidden."""
        out = []
        ghost = None
        if viewer is not None:
            ghost = st.clone()  # replay on a scratch copy to know where hidden cards lie
        for op in option.ops:
            code = op[0]
            if code == MV:
                _, c, a, i, b, j = op
                if ghost is not None and not self.sees(viewer, a):
                    top = i == len(ghost.piles[a]) - 1
                    what = "the top card of" if top else ("the bottom card of" if i == 0 else f"card {i} of")
                    card = f"{what} {self.loc_text(a)}"
                    out.append(f"move {card} -> {self.loc_text(b)}")
                else:
                    out.append(f"move {self.card_text(st, c)} {self.loc_text(a)} -> {self.loc_text(b)}")
            elif code == REM:
                out.append(f"remember {self.card_text(st, op[1])} => {self.loc_text(op[2])}")
            elif code == FGT:
                out.append(f"forget {self.card_text(st, op[1])} from {self.loc_text(op[2])}")
            elif code == SWP:
                out.append(f"swap {self.loc_text(op[1])} <-> {self.loc_text(op[2])}")
            elif code == SWC:
                out.append(f"swap {self.card_text(st, op[1])} ({self.loc_text(op[2])}) <-> "
                           f"{self.card_text(st, op[4])} ({self.loc_text(op[5])})")
            elif code == SHF:
                out.append(f"shuffle {self.loc_text(op[1])}")
            elif code == SET:
                owner, kind, name = self.slot_key[op[1]]
                v = op[3]
                if isinstance(v, PointMap):
                    v = " ".join(f"({' '.join(f'({k} : {x})' for k, x in conds)} {pts})" for conds, pts in v.awards)
                elif kind == "ply":
                    v = "nobody" if v is None else f"p{v + 1}"
                out.append(f"set {self.owner_text(st, owner)} {kind} {name} = {v}")
            elif code == PCY:
                which = "current" if op[1] % 2 == 0 else "next"
                out.append(f"cycle {which} p{op[3] + 1}")
            elif code == PASS:
                out.append("turn pass")
            if ghost is not None and code != VDEL:
                REDO[code](ghost, op)
        return out

    # ------------------------------------------------------------ visibility (§17)

    def sees(self, p: int, pid: int) -> bool:
        """Does player p see the content of pile pid (§17.2)?"""
        kind = self.pile_kind[pid]
        if kind == VLOC or kind == MEM:
            return True
        owner = self.pile_owner[pid]
        if kind == ILOC:
            return owner == p + 1
        if kind == OLOC:
            return owner != p + 1
        return False  # HLOC

    def view(self, st: State, p: int) -> dict:
        """What player p observes (§17.1): for every non-empty stored pile, keyed (owner, kind, name, index) as in
        transcripts, ("cards", ids) if p sees it else ("backs", deck names); storage cells that are set; cycles."""
        piles = {}
        deck = st.cmeta.deck
        for pid in self.pile_order():
            if pid >= len(st.piles):
                continue
            cards = st.piles[pid]
            if not cards:
                continue
            key = tuple(self._loc_json[pid])
            if self.sees(p, pid):
                piles[key] = ("cards", tuple(cards))
            else:
                piles[key] = ("backs", tuple(deck[c] for c in cards))
        storage = {}
        for s, v in enumerate(st.vals):
            if v != self.slot_default[s]:
                owner, kind, name = self.slot_key[s]
                storage[(self.owner_text(st, owner), kind, name)] = v
        return {"seat": p, "piles": piles, "storage": storage, "pcyc": tuple(st.pcyc), "tcyc": tuple(st.tcyc),
                "decisions": st.decisions, "status": st.status,
                "chooser": st.chooser if st.status == WAITING else None,
                "options": len(st.opts) if st.status == WAITING else 0}

    def pile_order(self) -> list:
        """Pile ids sorted by key (deterministic whatever order piles were registered in)."""
        return sorted(range(len(self.pile_key)), key=self.pile_key.__getitem__)

    def determinize(self, st: State, p: int, rng: random.Random) -> State:
        """A state from p's information set (§17.4): unseen cards re-dealt per deck name, a fresh game stream
        drawn from `rng`, and (at a decision point) the options rebuilt in the sampled world."""
        d = st.clone()
        positions: dict = {}  # deck -> list of (pid, index)
        cards: dict = {}
        deck = d.cmeta.deck
        for pid in self.pile_order():
            if pid >= len(d.piles) or self.pile_kind[pid] == MEM or self.sees(p, pid):
                continue
            for i, c in enumerate(d.piles[pid]):
                dk = deck[c]
                positions.setdefault(dk, []).append((pid, i))
                cards.setdefault(dk, []).append(c)
        for dk in sorted(positions):
            # Sorted first: the order the unseen cards were found in depends on where they
            # really are, and the sampled world must depend on the player's view alone.
            cs = sorted(cards[dk])
            rng.shuffle(cs)
            for (pid, i), c in zip(positions[dk], cs):
                d.piles[pid][i] = c
                d.where[c] = pid
        d.rng = random.Random(rng.getrandbits(64))  # future shuffles and draws are hidden too
        if d.status == WAITING:
            d.status = RUNNING
            self.run(d)  # re-enters the pending choice: rebuilds its options
        return d


# ---------------------------------------------------------------- whole games


def samples_atomic(player) -> bool:
    """Does this player's seat sample atomic blocks (E4)?  The `atomic_sampling` attribute, else its lineup code."""
    v = getattr(player, "atomic_sampling", None)
    if v is None:
        v = getattr(player, "code", None) in SAMPLING_CODES
    return bool(v)


def play_game(prog: Program, seed: int, players, max_decisions: int = 2000, max_idle_steps: int = 10000,
              recorder=None) -> GameResult:
    """Play one game with one player object per seat; the result's `.choices` is the transcript core."""
    players = list(players)
    if len(players) != prog.n_players:
        raise UsageError(f"the game has {prog.n_players} players, but {len(players)} player objects were given")
    sampling = [samples_atomic(pl) for pl in players] if prog.has_atomic else None
    st = prog.new_game(seed, max_decisions, max_idle_steps, recorder, sampling)
    for s, pl in enumerate(players):
        pl.start(prog, s, alg.derive(seed, "seat", s))
    choices = []
    apply = prog.apply
    if recorder is None:
        while st.status == WAITING:
            i = players[st.chooser].choose(prog, st)
            choices.append(i)
            apply(st, i)
    else:
        while st.status == WAITING:
            pl = players[st.chooser]
            i = pl.choose(prog, st)
            choices.append(i)
            apply(st, i, getattr(pl, "code", None))
    return prog.result(st)
