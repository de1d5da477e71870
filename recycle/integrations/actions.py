"""Stable action ids: one integer per move, the same in every state where that move is legal.

An option of the engine is a list of resolved actions (`recycle.engine.describe.actions`).  Its
**key** is the tuple of those actions' texts as the deciding seat sees them: a card the seat may
see is named by its attribute values (`7-HEARTS`), a card it may not see by its position (`the
top card of table hloc STOCK`), so the key never tells a seat more than it may know and two
states of one information set have the same keys.  The key names card kinds, not physical
cards: with two packs, discarding either seven of hearts is the same move (a card that owns a
storage cell, written `DECK#SERIAL` in transcripts, is named in a key by its kind, or as `a
hidden card` when the seat may not see it).

**Card moves.**  A move of one card is numbered exactly: `atom = (card × P + source) × P +
destination`, where `card` is the card kind's rank among the game's `K` card kinds (sorted
texts; two more ranks stand for the hidden top and bottom card of a pile) and `source`,
`destination` are ranks among the game's `P` declared piles (`declared_piles`: those compiling
the game makes, sorted by key): `A = (K + 2) × P²` atoms.

**Regions.**  The ids of a game lie in `range(num_distinct_actions)`, in three regions:

* **single moves** `[0, A)`: an option that is one card move gets its atom;
* **compound moves** `[A, A + A × C)`: an option of several actions of which one to four are
  card moves, all between declared piles and not a meld (three or more cards to one pile):
  a capture and the move that makes it, a double capture, a draw and what it records.  It gets
  `A + atom × C + blake2b(key) mod C`, where `atom` is its **last** card move (the one that
  says where the option ends: the card dropped on a square, the card taken).  Two such options
  share a home id only if they end with the same card move *and* their keys hash alike mod C;
* **card sets** `[A, A + S)`, in place of the compound region in the fitted table of a game whose
  moves take a subset of a stored pile (`takes_subsets`: fishing games' captures): a compound
  move of 2 … COMPOUND_MOVES cards of distinct kinds gets A plus the exact rank of its set of
  card kinds (`set_rank`), `S = C(K,2) + … + C(K,4)`.  Within one state two options move the same set
  of cards only by moving them between different piles, which a capture does not;
* **hashed** `[A + A × C + S, D)`: any other option (a pass, a set, a meld of three or more cards,
  a card move the game does not declare …) gets its offset `blake2b(key) mod H` in the region.
  Melds are subsets of a hand: no small table numbers them all exactly.

**Sizes.**  By default (`action_bits=None`) the table is fitted to the game: `C = 4`,
`H = 2 ** 16`, so `D = 5A + H` (about a hundred thousand ids for a 52-card game), or with card
sets `C = 0` and `D = A + S + H`, when the exact regions take at most `2 ** 19`; else (a game
with hundreds of piles) there are no exact regions and `D = H = 2 ** 16`.  `action_bits=b` asks
for `D = 2 ** b` ids, without card sets: `C` is the largest power of two (at most 1024) with
`A × (1 + C) ≤ D / 2` (no compound region if there is none), the single region is kept when
`A ≤ D / 2`, the rest is hashed; so a larger table makes clashes rarer in both the compound and
the hashed regions.

**Clashes.**  Two legal options of one state never share an id: the options are taken in key
order and one whose home id is already taken moves to the next free id of the hashed region
(wrapping round).  That option's id then differs from its id in other states, so such a clash
is **detected**: `ActionCodec.clashes` counts the decisions that had one, and `on_clash` says
what else happens: `"warn"` (the default) warns once per codec (one per environment or OpenSpiel
game) with an `ActionIdClashWarning` naming `action_bits`, `"raise"` raises `ActionIdClash` (use
it where every id must be stable), `"ignore"` only counts.  A larger `action_bits` makes clashes
rarer.  Two options with the same key (the same move twice, as two identical cards in one hand)
are one move to a learner: the second and later get the ids of the key extended with `#2`,
`#3` … (not a clash).
"""
from __future__ import annotations

import hashlib
import re
import warnings
from math import comb
from typing import TYPE_CHECKING

from ..engine.describe import actions, card_text
from ..engine.state import MV, WAITING, State
from ..lang import ast as A
from ..lang.consts import walk

if TYPE_CHECKING:
    from ..engine.program import Program

# The fitted table (action_bits=None): compound ids per card-move atom, the hashed region, the most
# ids the exact regions may take (else everything is hashed into FALLBACK_HASH ids).
COMPOUND_PER_ATOM = 4
COMPOUND_MOVES = 4
MAX_PER_ATOM = 1 << 10
FITTED_HASH = 1 << 16
MAX_FITTED = 1 << 19
FALLBACK_HASH = 1 << 16
ON_CLASH = ("warn", "raise", "ignore")
_HIDDEN = {"the top card of": 0, "the bottom card of": 1}


class ActionIdClash(ValueError):
    """Two options of one decision have the same home id (raised with on_clash="raise")."""


class ActionIdClashWarning(UserWarning):
    """Two options of one decision have the same home id: one of them gets another id there."""


def takes_subsets(prog: Program) -> bool:
    """Whether the game's moves may take a subset of a stored pile (`(subsets (game vloc POOL))`, as
    fishing games capture): its fitted table then numbers such moves by their set of cards."""
    game = getattr(prog, "game", None)
    return isinstance(game, A.Node) and any(type(n) is A.Subsets and type(n.pile) is A.Location for n in walk(game))


def set_count(kinds: int) -> int:
    """How many sets of 2 … COMPOUND_MOVES card kinds there are among `kinds`."""
    return sum(comb(kinds, k) for k in range(2, COMPOUND_MOVES + 1))


def declared_piles(prog: Program) -> list[int]:
    """The piles the game declares (made by compiling it), sorted by key.

    A program registers more piles as its games first use them (a meld laid, a pile named by a
    computed index); the ids and tensors are laid out over the declared ones only, so that every
    session of a game has the same layout however much the program has played before."""
    declared = len(prog.template.piles)
    return [pid for pid in prog.pile_order() if pid < declared]


def option_key(prog: Program, st: State, option, viewer: int) -> tuple[str, ...]:
    """The key of an engine option: its actions' texts as `viewer` sees them."""
    # Describing for a viewer replays the option on a copy of the state (to say where hidden cards
    # lie); an option that moves no card out of a pile the viewer cannot see reads the same without.
    hides = any(op[0] == MV and not prog.sees(viewer, op[2]) for op in option.ops_at(st))
    texts = [a.text for a in actions(prog, st, option, viewer if hides else None)]
    if any("#" in t for t in texts):
        texts = [_CARD_OWNER.sub(lambda m: _card_owner(prog, st, m, viewer), t) for t in texts]
    return tuple(texts)


# A card as the owner of a storage cell is written DECK#SERIAL (language §13), which names one physical
# card: two identical tiles would make two keys of one move.  A key names it by its kind instead when the
# viewer may see it, else as "a hidden card" (its serial could tell which card it is).
_CARD_OWNER = re.compile(r"(?<![\w#])([A-Za-z_][\w-]*)#(\d+)\b")


def _card_owner(prog: Program, st: State, m: re.Match, viewer: int) -> str:
    deck, serial = m[1], int(m[2])
    meta = st.cmeta
    for c in range(len(meta.deck)):
        if meta.deck[c] == deck and meta.serial[c] == serial:
            for pid, cards in enumerate(st.piles):
                if c in cards:
                    return card_text(st, c) if prog.sees(viewer, pid) else "a hidden card"
            return "a hidden card"
    return m[0]


class ActionCodec:
    """The stable ids of one compiled game (see the module docstring for the scheme)."""

    def __init__(self, prog: Program, action_bits: int | None = None, on_clash: str = "warn"):
        if action_bits is not None and not 8 <= action_bits <= 30:
            raise ValueError(f"action_bits must be 8 … 30 (or None: fitted to the game), not {action_bits}")
        if on_clash not in ON_CLASH:
            raise ValueError(f"on_clash must be one of {', '.join(ON_CLASH)}, not {on_clash!r}")
        self.prog = prog
        self.action_bits = action_bits
        self.on_clash = on_clash
        self.clashes = 0  # decisions in which two options had the same home id
        tpl = prog.template
        self.kinds = sorted({card_text(tpl, c) for c in range(len(tpl.catt))})
        self.kind_rank = {k: i for i, k in enumerate(self.kinds)}
        order = declared_piles(prog)
        self.pile_rank = {prog.loc_text(pid): r for r, pid in enumerate(order)}
        p = len(order)
        atoms = (len(self.kinds) + len(_HIDDEN)) * p * p
        per_atom = COMPOUND_PER_ATOM
        sets = 0
        if action_bits is None:
            if takes_subsets(prog):  # compound moves numbered by their set of cards, not by their last move
                sets, per_atom = set_count(len(self.kinds)), 0
            exact = atoms * (1 + per_atom) + sets
            if exact > MAX_FITTED:
                atoms = per_atom = sets = 0
            total = atoms * (1 + per_atom) + sets + (FITTED_HASH if atoms else FALLBACK_HASH)
        else:
            total = 1 << action_bits
            # as many compound ids per atom (a power of two, at most MAX_PER_ATOM) as fit in half the table
            per_atom = 0
            while per_atom < MAX_PER_ATOM and 2 * atoms * (1 + max(1, 2 * per_atom)) <= total:
                per_atom = max(1, 2 * per_atom)
            if 2 * atoms > total:
                atoms = 0
        self.single_size = atoms
        self.per_atom = per_atom
        self.set_base = atoms * (1 + per_atom)
        self.set_size = sets
        self.hash_base = self.set_base + sets
        self.num_distinct_actions = total
        self.hash_size = total - self.hash_base

    def home(self, key: tuple[str, ...]) -> int:
        """The id a key gets when nothing else of its state claims it first."""
        if self.single_size:
            if len(key) == 1:
                a = self.atom(key[0])
                if a is not None:
                    return a
            elif self.per_atom or self.set_size:
                moves = [t for t in key if t.startswith("move ") and " -> " in t]
                atoms = [self.atom(t) for t in moves]
                # a compound move: 1 … COMPOUND_MOVES card moves, all between declared piles, not a meld (three
                # or more cards to one pile), not a repeat (#2)
                meld = len(moves) >= 3 and len({t.rsplit(" -> ", 1)[1] for t in moves}) == 1
                if 0 < len(atoms) <= COMPOUND_MOVES and None not in atoms and not meld and not key[-1].startswith("#"):
                    if self.set_size:
                        r = self.set_rank(moves)
                        if r is not None:
                            return self.set_base + r
                    else:
                        last = atoms[-1]
                        assert last is not None
                        return self.single_size + last * self.per_atom + self._digest(key) % self.per_atom
        return self.hash_base + self._digest(key) % self.hash_size

    @staticmethod
    def _digest(key: tuple[str, ...]) -> int:
        return int.from_bytes(hashlib.blake2b("\x1f".join(key).encode(), digest_size=8).digest(), "big")

    def atom(self, text: str) -> int | None:
        """The exact number of a one-card move's text (None for any other action, or an undeclared pile)."""
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

    def set_rank(self, moves: list[str]) -> int | None:
        """The exact number of a set of 2 … COMPOUND_MOVES card kinds moved (the combinatorial number
        system, smaller sets first); None when a card is hidden or two moved cards are of one kind."""
        ranks = sorted(self.kind_rank.get(t[5:].partition(" ")[0], -1) for t in moves)
        k = len(ranks)
        if not 2 <= k <= COMPOUND_MOVES or ranks[0] < 0 or len(set(ranks)) < k:
            return None
        n = len(self.kinds)
        return sum(comb(n, j) for j in range(2, k)) + sum(comb(r, i) for i, r in enumerate(ranks, 1))

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
        if len(keys) > self.hash_size:
            raise ActionIdClash(f"{len(keys)} options in one decision, more than the {self.hash_size} ids of the "
                                f"hashed region: raise action_bits")
        ids: list[int] = [0] * len(keys)
        taken: dict[int, tuple[str, ...]] = {}
        clash: tuple[tuple[str, ...], tuple[str, ...], int] | None = None
        for i in sorted(range(len(keys)), key=keys.__getitem__):
            a = home = self.home(keys[i])
            while a in taken:  # next free id of the hashed region
                a = self.hash_base + (a + 1 - self.hash_base) % self.hash_size
            if a != home and clash is None:
                clash = (taken[home], keys[i], home)
            taken[a] = keys[i]
            ids[i] = a
        if clash is not None:
            self._clashed(*clash)
        return ids

    def _clashed(self, first: tuple[str, ...], second: tuple[str, ...], home: int) -> None:
        """Two options of one decision have the home id `home`: count it, then warn or raise as on_clash says."""
        self.clashes += 1
        if self.on_clash == "ignore" or (self.on_clash == "warn" and self.clashes > 1):
            return
        bits = self.action_bits if self.action_bits is not None else f"None ({self.num_distinct_actions} ids)"
        msg = (f"action id clash: two options of one decision have the home id {home}: "
               f"{'; '.join(first)!r} and {'; '.join(second)!r}, so the second gets another id in this "
               f"decision; action_bits={bits}: a larger action_bits makes clashes rarer")
        if self.on_clash == "raise":
            raise ActionIdClash(msg)
        warnings.warn(msg + " (warned once per codec; ActionCodec.clashes counts them)", ActionIdClashWarning,
                      stacklevel=3)

    def legal(self, st: State) -> list[int]:
        """The ids of the pending decision's options, in the engine's option order ([] unless waiting)."""
        if st.status != WAITING or st.opts is None or st.chooser is None:
            return []
        who = st.chooser
        return self.ids_of_keys([option_key(self.prog, st, o, who) for o in st.opts])
