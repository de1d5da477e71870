"""Stable action ids: one integer per move, the same in every state where that move is legal.

An option of the engine is a list of resolved actions (`recycle.engine.describe.actions`).  Its
**key** is the tuple of those actions' texts as the deciding seat sees them: a card the seat may
see is named by its attribute values (`7-HEARTS`), a card it may not see by its position (`the
top card of table hloc STOCK`), so the key never tells a seat more than it may know and two
states of one information set have the same keys.  The key names card kinds, not physical
cards: with two packs, discarding either seven of hearts is the same move.

The ids of a game lie in `range(num_distinct_actions)`, `num_distinct_actions = 2 ** action_bits`
(default 20 bits), in two regions:

* **single moves** `[0, S)`: an option whose only action moves one card gets the exact id
  `(card × P + source) × P + destination`, where `card` is the card kind's rank among the game's
  card kinds (sorted texts; two more ranks stand for the hidden top and bottom card of a pile)
  and `source`, `destination` are ranks among the game's `P` piles (sorted by key).  `S` is
  `(kinds + 2) × P²`; when that is more than half the table, the region is empty and every
  option is hashed.
* **hashed** `[S, D)`: any other option (several actions, a swap, a set, a pass …) gets
  `S + blake2b(key) mod (D − S)`.

Collisions.  Two legal options of one state never share an id: the options are taken in key
order and an option whose id is already taken moves to the next free id of the hashed region
(wrapping round).  So a move's id is its home id in every state except one where another legal
option landed on the same home id first: with the default table that happens in a few decisions
in 10,000 of the shipped games (tests/integrations/test_actions.py measures it); a larger
`action_bits` makes it rarer.  Two options with the same key (the same move twice, as two
identical cards in one hand) are one move to a learner: the second and later get the ids of the
key extended with `#2`, `#3` ….
"""
from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from ..engine.describe import actions, card_text
from ..engine.state import MV, WAITING, State

if TYPE_CHECKING:
    from ..engine.program import Program

DEFAULT_ACTION_BITS = 20
_HIDDEN = {"the top card of": 0, "the bottom card of": 1}


def option_key(prog: Program, st: State, option, viewer: int) -> tuple[str, ...]:
    """The key of an engine option: its actions' texts as `viewer` sees them."""
    # Describing for a viewer replays the option on a copy of the state (to say where hidden cards
    # lie); an option that moves no card out of a pile the viewer cannot see reads the same without.
    hides = any(op[0] == MV and not prog.sees(viewer, op[2]) for op in option.ops)
    return tuple(a.text for a in actions(prog, st, option, viewer if hides else None))


class ActionCodec:
    """The stable ids of one compiled game (see the module docstring for the scheme)."""

    def __init__(self, prog: Program, action_bits: int = DEFAULT_ACTION_BITS):
        if not 8 <= action_bits <= 30:
            raise ValueError(f"action_bits must be 8 … 30, not {action_bits}")
        self.prog = prog
        tpl = prog.template
        self.kinds = sorted({card_text(tpl, c) for c in range(len(tpl.catt))})
        self.kind_rank = {k: i for i, k in enumerate(self.kinds)}
        order = prog.pile_order()
        self.pile_rank = {prog.loc_text(pid): r for r, pid in enumerate(order)}
        self.num_distinct_actions = 1 << action_bits
        p = len(order)
        single = (len(self.kinds) + len(_HIDDEN)) * p * p
        self.single_size = single if 2 * single <= self.num_distinct_actions else 0
        self.hash_size = self.num_distinct_actions - self.single_size

    def home(self, key: tuple[str, ...]) -> int:
        """The id a key gets when nothing else of its state claims it first."""
        if self.single_size and len(key) == 1:
            i = self._single(key[0])
            if i is not None:
                return i
        return self._hashed(key)

    def _hashed(self, key: tuple[str, ...]) -> int:
        h = hashlib.blake2b("\x1f".join(key).encode(), digest_size=8).digest()
        return self.single_size + int.from_bytes(h, "big") % self.hash_size

    def _single(self, text: str) -> int | None:
        if not text.startswith("move ") or " -> " not in text:
            return None
        head, dst = text[5:].rsplit(" -> ", 1)
        d = self.pile_rank.get(dst)
        if d is None:
            return None
        card = None
        for words, slot in _HIDDEN.items():
            if head.startswith(words + " "):
                card, src = len(self.kinds) + slot, head[len(words) + 1:]
                break
        else:
            # "<card> <source>": the card text has no spaces, location texts do
            kind, _, src = head.partition(" ")
            card = self.kind_rank.get(kind)
        s = self.pile_rank.get(src)
        if card is None or s is None:
            return None
        p = len(self.pile_rank)
        return (card * p + s) * p + d

    @staticmethod
    def distinct_keys(keys: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
        """The keys made distinct: the second and later options of one key get `#2`, `#3` … appended."""
        seen: dict[tuple[str, ...], int] = {}
        out = []
        for k in keys:
            n = seen.get(k, 0) + 1
            seen[k] = n
            out.append(k if n == 1 else (*k, f"#{n}"))
        return out

    def ids_of_keys(self, keys: list[tuple[str, ...]]) -> list[int]:
        """The ids of one state's options (given by key, in option order): distinct, as documented."""
        keys = self.distinct_keys(keys)
        ids: list[int] = [0] * len(keys)
        taken: set[int] = set()
        for i in sorted(range(len(keys)), key=keys.__getitem__):
            a = self.home(keys[i])
            while a in taken:  # next free id of the hashed region
                a = self.single_size + (a + 1 - self.single_size) % self.hash_size
            taken.add(a)
            ids[i] = a
        return ids

    def legal(self, st: State) -> list[int]:
        """The ids of the pending decision's options, in the engine's option order ([] unless waiting)."""
        if st.status != WAITING or st.opts is None or st.chooser is None:
            return []
        who = st.chooser
        return self.ids_of_keys([option_key(self.prog, st, o, who) for o in st.opts])
