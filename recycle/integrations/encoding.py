"""What a seat observes, as a string and as a tensor (language spec §17: who sees what).

Both come from `Program.view(state, seat)`: the piles the seat may see with their cards, the
backs of the others, the storage cells that are set and whose turn it is.

**Observation string**: one line per non-empty pile, `p1 iloc HAND: 2-CLUBS 7-HEARTS` (cards
bottom to top) or `table hloc STOCK: 40 hidden`; then one line per storage cell that is set
(`p2 sto POINTS = 12`; point maps are left out); then `to move: p1` (or `over`).

**Observation tensor** (float32, fixed length per game), in this order:

* piles: for each of the game's `P` declared piles (those compiling the game makes, sorted by
  key) a row of `K + 2` numbers: how many cards of each of the `K` card kinds lie there (kinds
  sorted by text; cards the seat may see only), then how many cards lie there that the seat
  may not see, then how many visible cards of kinds made during play (not among the `K`);
  then one more such row, the sum over every pile made during play (melds laid, piles named by
  a computed index), so the layout is the same in every game;
* storage: for each of the game's number cells (sorted by key), its value;
* the observing seat, one-hot over the `N` seats; the seat to move, one-hot (all zero when over).

The **information-state tensor** is the observation tensor followed by the number of decisions
taken so far: the current view, not the whole history (the information-state *string* has the
history; see `RecycleSession.info_string`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..engine.describe import card_text
from ..engine.state import WAITING, PointMap, State
from .actions import declared_piles

if TYPE_CHECKING:
    from ..engine.program import Program


class Encoder:
    """The string and tensor encodings of one compiled game's views."""

    def __init__(self, prog: Program, kinds: list[str]):
        self.prog = prog
        self.kinds = kinds
        self.kind_rank = {k: i for i, k in enumerate(kinds)}
        self.piles = declared_piles(prog)
        self.pile_rank = {pid: r for r, pid in enumerate(self.piles)}
        declared = len(prog.template.vals)  # the cells compiling the game made (as for piles: declared_piles)
        self.cells = sorted((s for s, key in enumerate(prog.slot_key) if key[1] == "sto" and s < declared),
                            key=lambda s: str(prog.slot_key[s]))
        self.n = prog.n_players
        self.row = len(kinds) + 2
        # one row per declared pile, then one for all the piles made during play (melds laid …)
        self.obs_size = (len(self.piles) + 1) * self.row + len(self.cells) + 2 * self.n
        self.info_size = self.obs_size + 1

    def string(self, st: State, seat: int | None) -> str:
        """The observation string of `seat` (see the module docstring); seat None: every card shown."""
        prog = self.prog
        lines = []
        for pid in prog.pile_order():
            if pid >= len(st.piles) or not st.piles[pid]:
                continue
            cards = st.piles[pid]
            what = (" ".join(card_text(st, c) for c in cards) if seat is None or prog.sees(seat, pid)
                    else f"{len(cards)} hidden")
            lines.append(f"{prog.loc_text(pid)}: {what}")
        # The cells that are set, as Program.view lists them (read here directly: st.vals can hold more
        # entries than the game's registered cells, which view() does not expect).
        cells = []
        for s, key in enumerate(prog.slot_key):
            val = st.vals[s] if s < len(st.vals) else prog.slot_default[s]
            if val == prog.slot_default[s] or isinstance(val, PointMap):  # a point map is rules, not position
                continue
            owner, kind, name = key
            cells.append(f"{prog.owner_seen(st, owner, seat)} {kind} {name} = {val}")
        lines += sorted(cells)
        ch = st.chooser if st.status == WAITING else None
        lines.append(f"to move: p{ch + 1}" if ch is not None else "to move: over")
        return "\n".join(lines)

    def tensor(self, st: State, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """The observation tensor of `seat`, written into `out` when given (see the module docstring)."""
        prog = self.prog
        t = np.zeros(self.obs_size, np.float32) if out is None else out
        if out is not None:
            t.fill(0)
        k = len(self.kinds)
        other = len(self.piles)
        for pid in prog.pile_order():
            if pid >= len(st.piles) or not st.piles[pid]:
                continue
            base = self.pile_rank.get(pid, other) * self.row
            if prog.sees(seat, pid):
                for c in st.piles[pid]:
                    i = self.kind_rank.get(card_text(st, c))
                    t[base + (k + 1 if i is None else i)] += 1
            else:
                t[base + k] += len(st.piles[pid])
        base = (other + 1) * self.row
        for j, s in enumerate(self.cells):
            val = st.vals[s] if s < len(st.vals) else 0
            t[base + j] = val if isinstance(val, int) else 0
        base += len(self.cells)
        t[base + seat] = 1
        if st.status == WAITING and st.chooser is not None:
            t[base + self.n + st.chooser] = 1
        return t

    def info_tensor(self, st: State, seat: int) -> np.ndarray:
        """The information-state tensor: the observation tensor, then the number of decisions taken."""
        t = np.zeros(self.info_size, np.float32)
        self.tensor(st, seat, t[: self.obs_size])
        t[self.obs_size] = st.decisions
        return t
