"""What a deck declaration means (language spec §4.7): the attribute tree expanded into cards.

The checker calls `expand_deck` to report a bad tree at load time; the compiled game calls it
to create the cards, so both agree on the cards and their order.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..errors import NOWHERE, Span


class DeckError(ValueError):
    """An invalid attribute tree (§4.7); `span` is the offending node's position."""

    def __init__(self, message: str, span: Span = NOWHERE):
        super().__init__(message)
        self.message = message
        self.span = span


# During expansion a partial card maps KEY -> (value, span of the Attribute that set it).
_Partial = dict[str, tuple[str, Span]]


def _merge(a: _Partial, b: _Partial) -> _Partial:
    """a followed by b's keys; a key in both raises DeckError at b's attribute."""
    m = dict(a)
    for key, vs in b.items():
        if key in m:
            raise DeckError(f"attribute {key} given twice for one card", vs[1])
        m[key] = vs
    return m


def _product(attrs_: Sequence, first: _Partial) -> list[_Partial]:
    """`first` merged with each element of the product of the attributes' lists (first slowest)."""
    acc: list[_Partial] = [first]
    for attr in attrs_:
        part = _expand_attribute(attr)
        acc = [_merge(x, y) for x in acc for y in part]
    return acc


def _expand_attribute(attr) -> list[_Partial]:
    """One dimension's partial cards in order (§4.7 expansion table)."""
    if not attr.values:
        raise DeckError(f"attribute {attr.key} has no values", attr.span)
    out: list[_Partial] = []
    for node in attr.values:
        out.extend(_product(node.attributes, {attr.key: (node.value, attr.span)}))
    return out


# A game holds at most MAX_CARDS cards (docs/limits.md): one deck, setup's decks together, and
# every card created during play.  Every card is a few Python objects of the state.
MAX_CARDS = 100_000


# The deck forms of a game together describe at most MAX_DESCRIBED_CARDS cards (docs/limits.md):
# each is expanded at load (and again when compiled) though it may never run, so thousands of decks
# just under MAX_CARDS in one file would take minutes.
MAX_DESCRIBED_CARDS = 500_000


def too_many_described(n: int) -> str:
    return (f"the deck forms up to this one describe {n:,} cards, more than {MAX_DESCRIBED_CARDS:,}, the limit "
            "of cards a game's decks describe together (MAX_DESCRIBED_CARDS, fixed; docs/limits.md)")


def too_many_cards(n: int, what: str) -> str:
    return (f"{what} {n:,} cards, more than {MAX_CARDS:,}, the card limit of a game "
            "(MAX_CARDS, fixed; docs/limits.md)")


def deck_size(attributes: Sequence) -> int:
    """How many cards expand_deck makes of these attributes, counted without making them."""
    n = 1
    for attr in attributes:
        n *= sum(deck_size(node.attributes) for node in attr.values)
    return n


def expand_deck(attributes: Sequence) -> list[dict[str, str]]:
    """§4.7: the cards' attribute maps in creation order; a repeated KEY in one card raises DeckError.

    A deck of more than MAX_CARDS cards raises DeckError before any card is made.
    """
    n = deck_size(attributes)
    if n > MAX_CARDS:
        raise DeckError(too_many_cards(n, "this deck makes"), attributes[0].span if attributes else NOWHERE)
    return [{k: v for k, (v, _) in card.items()} for card in _product(attributes, {})]
