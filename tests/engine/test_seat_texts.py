"""Issue 17: every text given to a seat (its option texts, its view's storage names, its observation
string) names only cards that seat can see, exactly per the visibility rules (§17.2).

Seeded random games of shipped games with hidden cards (and a corpus game with card swaps) are played;
at every decision, for every seat s, the faces of cards lying in piles s cannot see (and that no pile s
sees holds a look-alike of) and the ids (DECK#SERIAL) of those cards must appear in none of s's texts.
"""
from __future__ import annotations

import re

import pytest

from recycle.compiler import load_program
from recycle.engine.describe import card_text
from recycle.engine.play import play_game
from recycle.engine.state import SWC
from recycle.integrations.encoding import Encoder
from recycle.players.random_player import RandomPlayer
from support import CORPUS, GAMES

TOKEN = re.compile(r"[^\s();,]+")


def forbidden(prog, st, s: int) -> set[str]:
    """Names that would reveal a card seat s cannot see: its face (unless a visible card looks alike) and id."""
    hidden, seen = set(), set()
    for pid, cards in enumerate(st.piles):
        for c in cards:
            (seen if prog.sees(s, pid) else hidden).add(c)
    faces_seen = {card_text(st, c) for c in seen}
    out = {card_text(st, c) for c in hidden} - faces_seen
    out |= {f"{st.cmeta.deck[c]}#{st.cmeta.serial[c]}" for c in hidden}
    return out


def seat_texts(prog, enc, st, s: int) -> list[str]:
    """Every text seat s is given at this decision: option texts, storage names of its view, observation."""
    texts = ["; ".join(prog.describe(st, o, viewer=s)) for o in st.opts]
    texts += [f"{owner} {kind} {name}" for (owner, kind, name) in prog.view(st, s)["storage"]]
    texts.append(enc.string(st, s))
    return texts


class Spy(RandomPlayer):
    """A random player that checks, before each choice, every seat's texts against what it may see."""

    def __init__(self, enc, stats: dict):
        super().__init__()
        self.enc, self.stats = enc, stats

    def choose(self, prog, st):
        for s in range(prog.n_players):
            bad = forbidden(prog, st, s)
            for t in seat_texts(prog, self.enc, st, s):
                leaked = bad.intersection(TOKEN.findall(t))
                assert not leaked, f"seat p{s + 1} is told {sorted(leaked)} in {t!r}"
        self.stats["decisions"] += 1
        self.stats["swaps"] += sum(1 for o in st.opts for op in o.ops if op[0] == SWC)
        return super().choose(prog, st)


def play_checked(prog, seeds, max_decisions=300) -> dict:
    enc = Encoder(prog, [])
    stats = {"decisions": 0, "swaps": 0}
    for seed in seeds:
        play_game(prog, seed, [Spy(enc, stats) for _ in range(prog.n_players)], max_decisions=max_decisions)
    return stats


@pytest.mark.parametrize("game", ["block_rummy", "gin_rummy", "contract_rummy", "rummy_500"])
def test_shipped_rummies_name_no_hidden_card(game):
    prog = load_program(GAMES / f"{game}.gdl")
    stats = play_checked(prog, range(4))
    assert stats["decisions"] > 50


@pytest.mark.needs_corpus
def test_corpus_swap_game_names_no_hidden_card():
    path = CORPUS / "valet" / "Schwimmen5.rcy"
    if not path.exists():
        pytest.skip("Schwimmen5 is not in the corpus")
    prog = load_program(path)
    stats = play_checked(prog, range(4))
    assert stats["swaps"] > 0  # the game does offer card swaps, so their texts were checked


def test_hidden_card_storage_owner_is_named_by_place(tmp_path):
    """A card's storage cell is shown to a seat that cannot see the card by where the card lies, not by id."""
    prog = load_program(GAMES / "block_rummy.gdl")
    st = prog.new_game(0)
    for s in range(prog.n_players):
        for pid, cards in enumerate(st.piles):
            if cards and not prog.sees(s, pid):
                c = cards[0]
                text = prog.owner_seen(st, ("C", c), s)
                assert text == f"{st.cmeta.deck[c]} card 0 of {prog.loc_text(pid)}"
                assert "#" not in text
                assert prog.owner_seen(st, ("C", c), None) == f"{st.cmeta.deck[c]}#{st.cmeta.serial[c]}"
                break


def test_card_an_option_draws_then_moves_on_stays_unnamed():
    """A card that an option first brings into view (stock -> hand) and then moves on (hand -> discard) is
    not named to the seat: the option is not taken yet, so its face is still unknown to the seat."""
    from recycle.engine.state import MV, Option

    prog = load_program(GAMES / "block_rummy.gdl")
    st = prog.new_game(0)
    text_of = {prog.loc_text(p): p for p in range(len(st.piles))}
    stock, hand, discard = text_of["table iloc STOCK"], text_of["p1 iloc HAND"], text_of["table vloc DISCARD"]
    c, top, n = st.piles[stock][-1], len(st.piles[stock]) - 1, len(st.piles[hand])
    option = Option(((MV, c, stock, top, hand, n), (MV, c, hand, n, discard, len(st.piles[discard]))))
    texts = prog.describe(st, option, viewer=0)
    assert texts == ["move the top card of table iloc STOCK -> p1 iloc HAND",
                     "move the top card of p1 iloc HAND -> table vloc DISCARD"]
    assert card_text(st, c) in prog.describe(st, option)[1]  # omniscient: named
