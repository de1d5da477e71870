"""Recorders of the real game: the engine's callbacks turned into transcript events (flow-and-analytics §5.2)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .state import PointMap

if TYPE_CHECKING:
    from .registry import Registry


class ListRecorder(list):
    """A recorder that keeps every event dict in a list."""

    def event(self, d: dict) -> None:
        self.append(d)


class EventSink:
    """Turns engine callbacks into event dicts in the transcript format (flow-and-analytics §5.2)."""

    __slots__ = ("decisions", "final", "out", "prog", "text")

    def __new__(cls, prog: Registry, recorder):
        # A recorder that only counts moves and turns (`counts_only = True`) gets a sink that builds no
        # event for them: the `recycle run` path without full transcripts (issue 16).
        if cls is EventSink and getattr(recorder, "counts_only", False):
            return object.__new__(CountingSink)
        return object.__new__(cls)

    def __init__(self, prog: Registry, recorder):
        self.prog = prog
        # The result of the ended game, built once for the end event and handed back by play_game (issue 16).
        self.final = None
        self.out = recorder.event if hasattr(recorder, "event") else recorder
        # Describing the chosen option costs more than playing it: a recorder
        # that only counts events says so with `wants_text = False`.
        self.text = getattr(recorder, "wants_text", True)
        # Decision and end events are built for a recorder unless it says it drops them (`wants_decisions =
        # False`): `recycle run` without transcripts only counts moves and turns (issue 16).
        self.decisions = getattr(recorder, "wants_decisions", True)

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
        ev = {"type": "set", "owner": self.prog.owner_text(st, owner), "store": kind, "key": name, "value": v}
        if owner.__class__ is not int and owner[0] == "C":
            # a card's storage: the owner is the card's id (two cards may look alike), its name the card itself
            ev["owner_name"] = self.prog.owner_name(st, owner)
        self.out(ev)

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



class CountingSink(EventSink):
    """The sink of a recorder with `counts_only`: moves and turns are counted on the recorder itself
    (its `moves` and `turns`), the other state changes are not reported; decisions, ends and raw events
    still reach it as dicts (and a dict of type move or turn, replayed by an atomic block, is the
    recorder's to count)."""

    __slots__ = ("counts",)

    def __init__(self, prog: Registry, recorder):
        super().__init__(prog, recorder)
        self.counts = recorder

    def move(self, st, c, a, b):
        self.counts.moves += 1

    def turn(self, p):
        self.counts.turns += 1

    def remember(self, st, c, m):
        pass

    def forget(self, st, c, m):
        pass

    def swap(self, st, a, b, a_to_b, b_to_a):
        pass

    def shuffle(self, st, pid):
        pass

    def set(self, st, slot, v):
        pass

    def create(self, st, deck, pid, cards):
        pass

    def teams(self, teams):
        pass
