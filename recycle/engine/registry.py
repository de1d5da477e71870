"""What a compiled game has names for: piles, storage cells, card kinds, point maps and boards.

The compiler registers every location, cell and card kind it meets as a small integer; states
hold those integers, and the registry turns them back into what the game file calls them.
"""
from __future__ import annotations

import bisect

from ..errors import UsageError
from .boards import BoardFamily, Geometry
from .state import KIND_WORDS, PointMap, State

PM_CACHE_LIMIT = 20000

# The owner code of a storage cell: 0 the game, 1 + p player p, 1 + n_players + t team t, or
# ("L", pile id) for a location's cells and ("C", card id) for a card's (extensions E2).
Owner = int | tuple[str, int]


class Registry:
    """The registries of one compiled game (piles, storage, card kinds, point maps, boards)."""

    def __init__(self) -> None:
        self.n_players = 0
        # piles
        self.pile_ids: dict = {}
        self.pile_key: list = []  # pid -> (owner_code, kind, name, index)
        self.pile_kind: list = []
        self.pile_owner: list = []  # pid -> owner code (0 game, 1 + p player)
        self.families: dict = {}  # (owner, kind, name) -> [sorted indices, pids]
        # (kind, name) of the families the game writes with an index (`(game vloc MELD 'I)`), set when it
        # is compiled, or for a name computed at run time when the game reaches it (indexed_pile_id):
        # their member 0 is written `MELD 0`, not `MELD` (loc_text)
        self.indexed_names: set = set()
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
        # boards (extensions E1)
        self.pile_cap: list = []  # pid -> capacity of the cell (0: unlimited)
        self.geometries: dict = {}  # (shape, dims) -> Geometry
        self.board_families: list = []  # fid -> BoardFamily
        self.board_ids: dict = {}  # (owner, kind, name) -> BoardFamily
        self.cell_of: dict = {}  # pid -> (BoardFamily, cell index)

    # ------------------------------------------------------------ registries

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

    def indexed_pile_id(self, st: State, owner: int, kind: int, name: str, index: int) -> int:
        """pile_id for a location written with an index whose name is computed at run time
        (`(game vloc 'N 'I)`): its family counts as indexed, as a literal name's does from compile time,
        from the first time the game reaches it (before any transcript names that pile)."""
        key = (kind, name)
        if key not in self.indexed_names:
            self.indexed_names.add(key)
        return self.pile_id(st, owner, kind, name, index)

    def loc_json(self, pid: int) -> list:
        return list(self._loc_json[pid])

    def loc_text(self, pid: int) -> str:
        """A location as the game file writes it: `table vloc GRID 0` for a board's cell or a member of an
        indexed family (index 0 included), `p1 iloc HAND` for a pile without an index."""
        owner, kw, name, index = self._loc_json[pid]
        if index or pid in self.cell_of or (self.pile_kind[pid], name) in self.indexed_names:
            return f"{owner} {kw} {name} {index}"
        return f"{owner} {kw} {name}"

    def register_slot(self, owner: Owner, kind: str, name: str) -> int:
        key = (owner, kind, name)
        s = self.slot_ids.get(key)
        if s is not None:
            return s
        s = len(self.slot_key)
        self.slot_ids[key] = s
        self.slot_key.append(key)
        self.slot_default.append(0 if kind == "sto" else "" if kind == "str" else None if kind == "ply"
                                 else self.empty_pm)
        return s

    def slot_id(self, st: State, owner: Owner, kind: str, name: str) -> int:
        s = self.slot_ids.get((owner, kind, name))
        if s is None:
            s = self.register_slot(owner, kind, name)
        vals = st.vals
        if s >= len(vals):
            vals.extend(self.slot_default[len(vals):s + 1])
        return s

    def owner_text(self, st: State, owner) -> str:
        """A storage owner as transcripts identify it: "table", "p1", "team0", a location "table vloc GRID 3",
        a card by its id "DEFAULT#5" (two cards may look alike)."""
        if owner.__class__ is int:
            return self.owner_json(owner)
        if owner[0] == "L":
            return self.loc_text(owner[1])
        c = owner[1]
        return f"{st.cmeta.deck[c]}#{st.cmeta.serial[c]}"

    def hidden_card_text(self, st: State, c: int) -> str:
        """A card a seat cannot see, named by where it lies ("DEFAULT card 3 of p2 iloc HAND"): never by its
        id, whose serial identifies one physical card and so its face (issue 17)."""
        pid = st.where[c]
        return f"{st.cmeta.deck[c]} card {st.piles[pid].index(c)} of {self.loc_text(pid)}"

    def owner_seen(self, st: State, owner, viewer: int | None = None) -> str:
        """A storage owner as seat `viewer` may be told it: as owner_text, but a card the viewer cannot see
        by where it lies (hidden_card_text); viewer None: omniscient, owner_text."""
        if viewer is None or owner.__class__ is int or owner[0] == "L":
            return self.owner_text(st, owner)
        c = owner[1]
        if not self.sees(viewer, st.where[c]):  # type: ignore[attr-defined]
            return self.hidden_card_text(st, c)
        return self.owner_text(st, owner)

    def owner_name(self, st: State, owner, viewer: int | None = None) -> str:
        """A storage owner as the game names it: as owner_text, but a card by its attributes ("RED-ONE",
        "RED:ONE" outside the DEFAULT deck), unless `viewer` cannot see where the card lies
        (then by where it lies, hidden_card_text)."""
        if owner.__class__ is int or owner[0] == "L":
            return self.owner_text(st, owner)
        c = owner[1]
        if viewer is not None and not self.sees(viewer, st.where[c]):  # type: ignore[attr-defined]
            return self.hidden_card_text(st, c)
        s = "-".join(st.catt[c].values())
        deck = st.cmeta.deck[c]
        return s if deck == "DEFAULT" else f"{deck}:{s}"

    # ------------------------------------------------------------ boards (extensions E1)

    def geometry(self, shape: str, dims: tuple) -> Geometry:
        key = (shape, tuple(dims))
        g = self.geometries.get(key)
        if g is None:
            g = self.geometries[key] = Geometry(shape, tuple(dims))
        return g

    def board_family(self, geom: Geometry, owner: int, kind: int, name: str, capacity: int) -> BoardFamily:
        """The board family (owner, kind, name) with this geometry, registering its cells (UsageError on a clash)."""
        key = (owner, kind, name)
        fam = self.board_ids.get(key)
        if fam is not None:
            if fam.geom is not geom or fam.capacity != capacity:
                raise UsageError(f"the board {self.owner_json(owner)} {KIND_WORDS[kind]} {name} is created with two "
                                 f"different shapes or capacities ({fam.geom.shape} {fam.geom.dims} and "
                                 f"{geom.shape} {geom.dims})")
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

    def _owner_code(self, owner) -> Owner:
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
        """A storage cell (kind sto/str/ply/points).

        owner is "game", a player id, ("team", t), ("L", pile id) or ("C", card).
        """
        s = self.slot_ids.get((self._owner_code(owner), kind, name))
        if s is None:
            return 0 if kind == "sto" else "" if kind == "str" else None if kind == "ply" else self.empty_pm
        return st.vals[s] if s < len(st.vals) else self.slot_default[s]

    def card_attrs(self, st: State, c: int) -> dict:
        return dict(st.catt[c])

    def card_id(self, st: State, c: int) -> tuple:
        """A card's identity (deck name, serial) (§4.8)."""
        return st.cmeta.deck[c], st.cmeta.serial[c]
