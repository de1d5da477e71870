"""Who sees what (language spec §17): a player's view of a state and worlds sampled from it."""
from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .state import ILOC, MEM, OLOC, RUNNING, VLOC, WAITING, State

if TYPE_CHECKING:
    from .program import Program


def sees(prog: Program, p: int, pid: int) -> bool:
    """Does player p see the content of pile pid (§17.2)?"""
    kind = prog.pile_kind[pid]
    if kind in (VLOC, MEM):
        return True
    owner = prog.pile_owner[pid]
    if kind == ILOC:
        return owner == p + 1
    if kind == OLOC:
        return owner != p + 1
    return False  # HLOC


def view(prog: Program, st: State, p: int) -> dict:
    """What player p observes (§17.1): for every non-empty stored pile, keyed (owner, kind, name, index) as in
    transcripts, ("cards", ids) if p sees it else ("backs", deck names); storage cells that are set; cycles."""
    piles = {}
    deck = st.cmeta.deck
    for pid in pile_order(prog):
        if pid >= len(st.piles):
            continue
        cards = st.piles[pid]
        if not cards:
            continue
        key = tuple(prog._loc_json[pid])
        if sees(prog, p, pid):
            piles[key] = ("cards", tuple(cards))
        else:
            piles[key] = ("backs", tuple(deck[c] for c in cards))
    storage = {}
    for s, v in enumerate(st.vals):
        if v != prog.slot_default[s]:
            owner, kind, name = prog.slot_key[s]
            storage[(prog.owner_seen(st, owner, p), kind, name)] = v  # no hidden card's id
    opts = st.opts if st.status == WAITING else None
    return {"seat": p, "piles": piles, "storage": storage, "pcyc": tuple(st.pcyc), "tcyc": tuple(st.tcyc),
            "decisions": st.decisions, "status": st.status,
            "chooser": st.chooser if st.status == WAITING else None,
            "options": len(opts) if opts is not None else 0}


def pile_order(prog: Program) -> list:
    """Pile ids sorted by key (deterministic whatever order piles were registered in)."""
    return sorted(range(len(prog.pile_key)), key=prog.pile_key.__getitem__)


def determinize(prog: Program, st: State, p: int, rng: random.Random) -> State:
    """A state from p's information set (§17.4): unseen cards re-dealt per deck name, a fresh game stream
    drawn from `rng`, and (at a decision point) the options rebuilt in the sampled world."""
    d = st.clone()
    positions: dict = {}  # deck -> list of (pid, index)
    cards: dict = {}
    deck = d.cmeta.deck
    for pid in pile_order(prog):
        if pid >= len(d.piles) or prog.pile_kind[pid] == MEM or sees(prog, p, pid):
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
        for (pid, i), c in zip(positions[dk], cs, strict=True):
            d.piles[pid][i] = c
            d.where[c] = pid
    d.rng = random.Random(rng.getrandbits(64))  # future shuffles and draws are hidden too
    if d.status == WAITING:
        d.status = RUNNING
        prog.run(d)  # re-enters the pending choice: rebuilds its options
    return d
