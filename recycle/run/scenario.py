"""Constructed positions: put chosen cards in chosen piles and evaluate a game's own rules there.

Test vectors of a game ("this collection scores 46", "this board has 244
legal captures") are checked against the game file itself, not a Python
re-implementation: a Scenario starts from a fresh game after its setup and
first items, lets a test arrange the cards, and then asks the compiled
program for options, scores and the final ranking.

    sc = Scenario.open("games/block_rummy.gdl", seed=1)
    sc.clear()                                   # every card back to where setup put them
    sc.place(sc.card(RANK="FIVE", SUIT="HEARTS"), 0, "iloc", "HAND")
    assert sc.scores() == [5, 0]
"""
from __future__ import annotations

import random

from ..compiler import load_program
from ..engine.ops import p_move, p_rekind, p_set
from ..engine.state import KIND_WORDS, RUNNING, WAITING
from ..engine.watchdog import ensure

KIND_CODE = {w: i for i, w in enumerate(KIND_WORDS)}


class Scenario:
    """A game state to arrange by hand, with the program that judges it."""

    def __init__(self, prog, st):
        self.prog = prog
        self.st = st
        self.home = {c: st.where[c] for c in range(len(st.where))}

    @classmethod
    def open(cls, path, params: dict | None = None, seed: int = 0, fresh: bool = True) -> Scenario:
        """Load a game; `fresh` stops right after setup (no item run), else at the first decision."""
        prog = load_program(path, params)
        ensure()  # a fresh scenario runs its rules without new_game, which starts the step-time watchdog
        st = prog.template.clone() if fresh else prog.new_game(seed)
        if fresh:
            st.rng = random.Random(seed)
            st.seed = seed
            st.max_decisions, st.max_steps = prog.max_decisions, prog.max_steps
        sc = cls(prog, st)
        return sc

    # ------------------------------------------------------------ cards and piles

    def cards(self, **attrs) -> list[int]:
        """Card ids whose attributes include all of `attrs` (e.g. RANK="FIVE", SUIT="HEARTS")."""
        catt = self.st.catt
        return [c for c in range(len(self.st.where)) if all(catt[c].get(k) == v for k, v in attrs.items())]

    def card(self, **attrs) -> int:
        """The one card with these attributes (ValueError when there is none or several)."""
        found = self.cards(**attrs)
        if len(found) != 1:
            raise ValueError(f"{len(found)} cards match {attrs}")
        return found[0]

    def pile(self, owner, kind: str, name: str, index: int = 0) -> int:
        """The pile id of (owner, kind, name, index); owner is "game" or a player number."""
        code = 0 if owner == "game" else 1 + int(owner)
        return self.prog.pile_id(self.st, code, KIND_CODE[kind], name, index)

    def contents(self, owner, kind: str, name: str, index: int = 0) -> list[int]:
        return list(self.st.piles[self.pile(owner, kind, name, index)])

    def place(self, card: int, owner, kind: str, name: str, index: int = 0, at: int = -1) -> None:
        """Move a card (wherever it is) into a pile, on top unless `at` gives an index."""
        st = self.st
        a = st.where[card]
        i = st.piles[a].index(card)
        p_move(st, card, a, i, self.pile(owner, kind, name, index), at)

    def move_all(self, owner, kind: str, name: str, index: int = 0, to=("game", "hloc", "OUT", 0)) -> None:
        """Empty a pile into another (by default a hidden pile out of play)."""
        src = self.pile(owner, kind, name, index)
        for c in list(self.st.piles[src]):
            self.place(c, *to)

    def clear(self) -> None:
        """Every card back to the pile setup put it in."""
        for c, pid in self.home.items():
            if self.st.where[c] != pid:
                a = self.st.where[c]
                p_move(self.st, c, a, self.st.piles[a].index(c), pid, -1)

    def owner(self, owner):
        """A storage owner: "game", a player number, ("team", t), ("card", c) or a location tuple
        (owner, kind, name[, index]) such as (0, "vloc", "GRID", 7) or ("game", "vloc", "GRID", 7)."""
        if owner == "game":
            return 0
        if isinstance(owner, int):
            return 1 + owner
        if owner[0] == "team":
            return 1 + self.prog.n_players + owner[1]
        if owner[0] == "card":
            return ("C", owner[1])
        return ("L", self.pile(*owner))

    def set(self, owner, kind: str, name: str, value) -> None:
        """Set a storage cell (`sto`, `str`, `ply`; a player for `ply` as its number, None for no
        player). A card's `str` cell named like one of its attributes overrides it, as in the game."""
        st, prog = self.st, self.prog
        code = self.owner(owner)
        p_set(st, prog.slot_id(st, code, kind, name), value)
        if kind == "str" and isinstance(code, tuple) and code[0] == "C":
            c = code[1]
            printed = prog.kinds[st.cmeta.base[c]]
            if name in printed:
                att = dict(printed)
                for a in printed:
                    sl = prog.slot_ids.get((code, "str", a))
                    if sl is not None and sl < len(st.vals) and st.vals[sl] != "":
                        att[a] = st.vals[sl]
                p_rekind(st, c, prog.kind_id(att), prog.kinds)

    def get(self, owner, kind: str, name: str):
        """The value of a storage cell (its default when it was never set)."""
        return self.st.vals[self.prog.slot_id(self.st, self.owner(owner), kind, name)]

    # ------------------------------------------------------------ judging

    def scores(self) -> list:
        """The game's own scoring rule evaluated for every player in this state."""
        return list(self.prog.score_fn(self.st))

    def keys(self):
        """The tie-break keys of every player (E5), or None when the scoring has no tiebreak."""
        fn = self.prog.keys_fn
        return None if fn is None else [list(k) for k in fn(self.st)]

    def outcome(self):
        """The GameResult (scores, ranks with tie-breaks, shares, winners) if the game ended here."""
        st = self.st.clone()
        self.prog.finish(st)
        return self.prog.result(st)

    def run(self) -> None:
        """Run the game's items from where it stands to the next decision point or the end."""
        if self.st.status == RUNNING:
            self.prog.run(self.st)

    def options(self) -> list:
        """The options of the pending decision, rebuilt for the state as it is arranged now."""
        if self.st.status == WAITING:
            self.st.status = RUNNING  # re-enter the pending choice: its options are built afresh
            self.prog.run(self.st)
        return self.prog.options(self.st)

    def describe(self) -> list[list[str]]:
        """The options of the pending decision, as action texts."""
        return [self.prog.describe(self.st, o) for o in self.options()]
