"""Tests of recycle.engine.melds and meld_search: hand-worked cases, properties against brute force, OpenSpiel."""
from __future__ import annotations

import random
from functools import cache
from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recycle.engine.meld_search import least_deadwood
from recycle.engine.melds import (
    ACE_RULES,
    CardInfo,
    MeldRules,
    ResourceLimit,
    all_melds,
    card_info,
    fits,
    is_meld,
    is_run,
    is_set,
)

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER = ((("RANK", "JOKER"),),)


def rules(**kw) -> MeldRules:
    """Standard 52-card rules with jokers wild, overridable."""
    base = {"rank_attr": "RANK", "ranks": RANKS, "suit_attr": "SUIT", "wild": JOKER}
    return MeldRules(**{**base, **kw})


STD = rules()


def cards(text: str, r: MeldRules = STD) -> list[CardInfo]:
    """`"5H 10S *"`: cards by rank and suit letter; `*` is a joker, `?` a card with no rank value."""
    out = []
    for word in text.split():
        if word == "*":
            att = {"RANK": "JOKER"}
        elif word == "?":
            att = {"RANK": "BISHOP", "SUIT": "H"}
        else:
            att = {"RANK": word[:-1], "SUIT": word[-1]}
        out.append(card_info(r, att))
    return out


def one(text: str, r: MeldRules = STD) -> CardInfo:
    (c,) = cards(text, r)
    return c


# ---------------------------------------------------------------- rules and card summaries


class TestRules:
    def test_card_info(self):
        assert card_info(STD, {"RANK": "A", "SUIT": "H"}) == CardInfo(0, "H", False)
        assert card_info(STD, {"RANK": "K", "SUIT": "S"}) == CardInfo(12, "S", False)
        assert card_info(STD, {"RANK": "JOKER"}) == CardInfo(None, None, True)
        assert card_info(STD, {"RANK": "BISHOP", "SUIT": "H"}) == CardInfo(None, "H", False)
        assert card_info(rules(suit_attr=None), {"RANK": "5", "SUIT": "H"}) == CardInfo(4, None, False)

    def test_wild_conditions_need_every_pair(self):
        one_eyed = rules(wild=((("RANK", "J"), ("SUIT", "S")), (("RANK", "J"), ("SUIT", "H"))))
        assert card_info(one_eyed, {"RANK": "J", "SUIT": "S"}).wild
        assert card_info(one_eyed, {"RANK": "J", "SUIT": "H"}).wild
        assert not card_info(one_eyed, {"RANK": "J", "SUIT": "D"}).wild
        assert not card_info(one_eyed, {"RANK": "Q", "SUIT": "S"}).wild

    def test_deuces_wild_keep_their_rank_but_it_does_not_count(self):
        deuces = rules(wild=((("RANK", "2"),),))
        two = card_info(deuces, {"RANK": "2", "SUIT": "H"})
        assert two == CardInfo(1, "H", True)
        assert is_set(deuces, [*cards("9S 9D", deuces), two])
        assert not is_meld(deuces, cards("2H 2S 2D", deuces))  # no natural card

    def test_lists_are_accepted_and_rules_are_hashable(self):
        r = MeldRules("RANK", list(RANKS), wild=[[("RANK", "JOKER")]])
        assert r.ranks == RANKS and r.wild == JOKER
        assert r == rules(suit_attr=None) and hash(r) == hash(rules(suit_attr=None))

    @pytest.mark.parametrize(("kw", "message"), [
        ({"min_size": 0}, "at least 1 card"),
        ({"ace": "middle"}, "unknown ace rule 'middle'"),
        ({"ranks": ()}, "at least one rank"),
        ({"ranks": ("A", "2", "A")}, "'A' is listed twice"),
        ({"ranks": "A23"}, "not the string"),
        ({"wild": ((),)}, "at least one (attribute, value) pair"),
        ({"suit_attr": None, "distinct_suits": True}, "need the suit attribute"),
    ])
    def test_invalid_rules(self, kw, message):
        with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
            rules(**kw)


# ---------------------------------------------------------------- sets


class TestSets:
    def test_plain(self):
        assert is_set(STD, cards("5H 5S 5D"))
        assert is_set(STD, cards("5H 5S 5D 5C"))
        assert not is_set(STD, cards("5H 5S"))  # too small
        assert not is_set(STD, cards("5H 5S 6D"))
        assert not is_set(STD, cards("5H 5S ?"))

    def test_wild_cards(self):
        assert is_set(STD, cards("5H 5S *"))
        assert is_set(STD, cards("5H * *"))
        assert is_set(STD, cards("* 5H * * *"))
        assert not is_set(STD, cards("* * *"))  # no natural card

    def test_two_decks_and_distinct_suits(self):
        assert is_set(STD, cards("5H 5H 5S"))
        distinct = rules(distinct_suits=True)
        assert not is_set(distinct, cards("5H 5H 5S", distinct))
        assert is_set(distinct, cards("5H 5D 5S", distinct))
        # wild cards are not limited by the suits there are: the rules do not know them
        assert is_set(distinct, cards("5H 5D 5S 5C * *", distinct))
        assert not is_set(distinct, cards("5H 5H * *", distinct))


# ---------------------------------------------------------------- runs


class TestRuns:
    def test_plain(self):
        assert is_run(STD, cards("3H 4H 5H"))
        assert is_run(STD, cards("5H 3H 4H 6H"))  # order does not matter
        assert not is_run(STD, cards("3H 4H 5S"))  # one suit
        assert not is_run(STD, cards("3H 4H 6H"))  # a gap
        assert not is_run(STD, cards("3H 4H"))
        assert not is_run(STD, cards("3H 4H 4H 5H"))  # duplicate rank (two decks)
        assert not is_run(STD, cards("3H 4H ?"))
        assert is_run(rules(suit_attr=None), cards("3H 4S 5D"))  # no suit needed

    def test_wild_cards_fill_gaps_and_ends(self):
        assert is_run(STD, cards("3H * 5H"))  # the gap
        assert is_run(STD, cards("3H 4H *"))  # an end
        assert is_run(STD, cards("* 3H 4H * *"))
        assert is_run(STD, cards("3H * * 6H"))  # two gaps
        assert not is_run(STD, cards("3H * 7H"))  # three missing ranks, one wild card
        assert is_run(STD, cards("3H * * 7H *"))
        assert not is_run(STD, cards("3H 3H * *"))  # duplicate natural rank, whatever the wild cards
        assert not is_run(STD, cards("3H 4S *"))  # the wild card does not make the suits agree

    def test_only_wild_cards_and_one_natural(self):
        assert is_run(STD, cards("* * 7H"))
        assert is_run(STD, cards("* AH *"))  # A-2-3
        assert is_run(STD, cards("KH * *"))  # J-Q-K
        assert not is_run(STD, cards("* * *"))

    @pytest.mark.parametrize(("hand", "low", "high", "both", "around"), [
        ("QH KH AH", False, True, True, True),
        ("AH 2H 3H", True, False, True, True),
        ("KH AH 2H", False, False, False, True),
        ("QH KH * 2H", False, False, False, True),
        ("KH * 2H", False, False, False, True),  # the joker is the ace
        ("AH 3H *", True, False, True, True),  # the joker is the 2
        ("QH * AH", False, True, True, True),  # the joker is the king
        ("10H JH QH KH AH", False, True, True, True),
        ("AH * * * * * * * * * * * *", True, True, True, True),  # 13 cards: A-K or 2-A, any
        # every rank: A-K with the ace low, 2-A with the ace high
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", True, True, True, True),
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH *", True, True, True, True),
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH *", False, False, False, False),  # 14 > 13 ranks
        ("* * * * * * * * * * * * * 5H", False, False, False, False),
    ])
    def test_ace_rules(self, hand, low, high, both, around):
        for ace, want in zip(ACE_RULES, (low, high, both, around), strict=True):
            r = rules(ace=ace)
            assert is_run(r, cards(hand, r)) is want, ace

    def test_ace_high_run_of_twelve_without_ace(self):
        # with the ace high, 2 … K is the run of the lowest positions: a wild card may add the ace on top
        r = rules(ace="high")
        assert is_run(r, cards("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH *", r))
        assert not is_run(r, cards("AH 2H 3H", r))


# ---------------------------------------------------------------- melds, min_size, fits


class TestMeldsAndFits:
    def test_is_meld(self):
        assert is_meld(STD, cards("5H 5S 5D"))
        assert is_meld(STD, cards("5H 6H 7H"))
        assert not is_meld(STD, cards("5H 6H 7S"))
        assert not is_meld(STD, [])

    def test_min_size_1(self):
        r = rules(min_size=1)
        assert is_set(r, cards("5H", r)) and is_run(r, cards("5H", r))
        assert not is_meld(r, cards("*", r))
        assert not is_meld(r, cards("?", r))
        assert is_meld(r, cards("5H *", r))

    def test_min_size_2(self):
        r = rules(min_size=2)
        assert is_set(r, cards("5H 5S", r))
        assert is_run(r, cards("5H 6H", r))
        assert is_meld(r, cards("5H *", r))
        assert not is_meld(r, cards("5H", r))
        assert not is_meld(r, cards("5H 7H", r))

    def test_min_size_4(self):
        r = rules(min_size=4)
        assert not is_meld(r, cards("5H 5S 5D", r))
        assert not is_meld(r, cards("3H 4H 5H", r))
        assert is_set(r, cards("5H 5S 5D 5C", r))
        assert is_run(r, cards("3H 4H 5H *", r))
        assert is_run(r, cards("3H 4H 5H 6H", r))

    def test_fits_a_run_at_both_ends(self):
        run = cards("4H 5H 6H")
        assert fits(STD, one("3H"), run)
        assert fits(STD, one("7H"), run)
        assert not fits(STD, one("8H"), run)
        assert not fits(STD, one("7S"), run)
        assert not fits(STD, one("5H"), run)  # a second 5 of hearts (two decks)
        assert fits(STD, one("8H"), cards("4H 5H * 6H"))  # the joker moves to the end

    def test_fits_a_set(self):
        s = cards("5H 5S 5D")
        assert fits(STD, one("5C"), s)
        assert fits(STD, one("5H"), s)
        assert not fits(STD, one("6C"), s)
        distinct = rules(distinct_suits=True)
        assert not fits(distinct, one("5H", distinct), cards("5H 5S 5D", distinct))

    def test_a_wild_card_fits_anything_with_room(self):
        for meld in ("4H 5H 6H", "5H 5S 5D", "QH KH", "9C * *"):
            assert fits(STD, one("*"), cards(meld))
        # … but a run already holding every rank has no room
        assert not fits(STD, one("*"), cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"))

    def test_fits_completes_a_non_meld(self):
        assert fits(STD, one("5D"), cards("5H 5S"))


# ---------------------------------------------------------------- all_melds


class TestAllMelds:
    def test_order_sets_then_runs(self):
        assert all_melds(STD, cards("5H 5S 6H 7H 5D")) == [(0, 1, 4), (0, 2, 3)]

    def test_sets_by_rank_runs_by_suit_of_first_appearance(self):
        hand = cards("9S 7S 3H 4H 5H 8S 9H 9D 7D 7H")
        assert all_melds(STD, hand) == [
            (1, 8, 9),  # the sevens
            (0, 6, 7),  # the nines
            (0, 1, 5),  # spades first: the 9 of spades comes first
            (2, 3, 4),
        ]

    def test_lexicographic_within_a_group_extensions_follow(self):
        hand = cards("3H 4H 5H 6H")
        assert all_melds(STD, hand) == [(0, 1, 2), (0, 1, 2, 3), (1, 2, 3)]
        four = cards("5H 5S 5D 5C")
        assert all_melds(STD, four) == [(0, 1, 2), (0, 1, 2, 3), (0, 1, 3), (0, 2, 3), (1, 2, 3)]

    def test_wild_cards(self):
        assert all_melds(STD, cards("5H * 6H")) == [(0, 1, 2)]  # a run only: 5H * is too small for a set
        assert all_melds(STD, cards("5H * 6H *")) == [
            (0, 1, 3),  # 5 with both jokers: a set (and a run, listed once)
            (1, 2, 3),
            (0, 1, 2),
            (0, 1, 2, 3),
            (0, 2, 3),
        ]

    def test_duplicates(self):
        assert all_melds(STD, cards("5H 5H 6H 7H")) == [(0, 2, 3), (1, 2, 3)]

    def test_dead_cards_and_no_suit(self):
        assert all_melds(STD, cards("? 5H 6H 7H ?")) == [(1, 2, 3)]
        nosuit = rules(suit_attr=None)
        assert all_melds(nosuit, cards("5H 6S 7D", nosuit)) == [(0, 1, 2)]

    def test_around(self):
        r = rules(ace="around")
        assert all_melds(r, cards("KH AH 2H QH", r)) == [(0, 1, 2), (0, 1, 2, 3), (0, 1, 3)]

    def test_too_many(self):
        hand = cards("5H " + "* " * 20)
        with pytest.raises(ResourceLimit, match="more than 100,000 melds"):
            all_melds(STD, hand)
        with pytest.raises(ResourceLimit, match="more than 3 melds"):
            all_melds(STD, cards("3H 4H 5H 6H 7H"), cap=3)
        assert len(all_melds(STD, cards("3H 4H 5H 6H"), cap=3)) == 3


# ---------------------------------------------------------------- least deadwood


def gin_values(hand: list[CardInfo]) -> list[int]:
    return [min(10, c.rank + 1) if c.rank is not None else 25 for c in hand]


class TestLeastDeadwood:
    def test_gin(self):
        hand = cards("3H 4H 5H 5S 5D 5C 9C 9D 9S KH")
        assert least_deadwood(STD, hand, gin_values(hand)) == (10, [(3, 4, 5), (6, 7, 8), (0, 1, 2)])

    def test_shared_card(self):
        # 5H is in the run and in the set: the set of four gives way to the run
        hand = cards("3H 4H 5H 5S 5D 5C")
        assert least_deadwood(STD, hand, gin_values(hand)) == (0, [(3, 4, 5), (0, 1, 2)])
        hand = cards("3H 4H 5H 5S 5D")
        assert least_deadwood(STD, hand, gin_values(hand)) == (7, [(2, 3, 4)])

    def test_no_melds(self):
        hand = cards("3H 8S KD")
        assert least_deadwood(STD, hand, [1, 2, 3]) == (6, [])
        assert least_deadwood(STD, [], []) == (0, [])

    def test_long_run_whole(self):
        hand = cards("3H 4H 5H 6H 7H 8H")
        assert least_deadwood(STD, hand, [1] * 6) == (0, [(0, 1, 2, 3, 4, 5)])

    def test_first_card_in_a_meld_first(self):
        # run 5-6-7 or set of sevens, both leave 2: 5H (the first card) melded wins
        hand = cards("5H 6H 7H 7S 7D")
        assert least_deadwood(STD, hand, [1] * 5) == (2, [(0, 1, 2)])
        hand = cards("7S 7D 5H 6H 7H")
        assert least_deadwood(STD, hand, [1] * 5) == (2, [(0, 1, 4)])

    def test_first_card_melds_in_melds_order(self):
        # 7H is in the set and in the run: the set comes first in all_melds
        hand = cards("7H 5H 6H 7S 7D 9C")
        assert least_deadwood(STD, hand, [1] * 6) == (3, [(0, 3, 4)])

    def test_first_card_in_the_bigger_meld(self):
        # 7H in the run of four or in the set of three, the other cards being of value 0
        hand = cards("7H 5H 6H 7S 7D 8H")
        assert least_deadwood(STD, hand, [1, 0, 0, 0, 0, 0]) == (0, [(0, 1, 2, 5)])
        hand = cards("7H 5H 6H 7S 7D 7C")
        assert least_deadwood(STD, hand, [1, 0, 0, 0, 0, 0]) == (0, [(0, 3, 4, 5)])

    def test_gin_with_a_whole_deck(self):
        deck = cards(" ".join(r + s for s in "SHDC" for r in RANKS))
        random.Random(1).shuffle(deck)
        dead, chosen = least_deadwood(STD, deck, [1] * 52)
        assert dead == 0 and sum(map(len, chosen)) == 52

    def test_wild_cards(self):
        hand = cards("3H * 5H 9S 9D KC")
        # the joker makes the run 3-4-5 (leaving 28) or the set of nines (leaving 18)
        assert least_deadwood(STD, hand, [3, 0, 5, 9, 9, 10]) == (18, [(1, 3, 4)])
        hand = cards("3H * 5H 9S 9D KC *")
        assert least_deadwood(STD, hand, [3, 0, 5, 9, 9, 10, 0]) == (10, [(3, 4, 6), (0, 1, 2)])

    def test_dead_cards_are_deadwood(self):
        hand = cards("? 3H 4H 5H")
        assert least_deadwood(STD, hand, [7, 1, 1, 1]) == (7, [(1, 2, 3)])

    def test_negative_values_stay_out(self):
        hand = cards("3H 4H 5H 6H")
        assert least_deadwood(STD, hand, [-1, 1, 1, 1]) == (-1, [(1, 2, 3)])

    def test_negative_values_and_what_failed_searches_learn(self):
        # found by mutation: the lower bound a failed search remembers must be its least, and
        # negative values lower the bound of a search (here 3S goes with the 2S of value -1)
        r = rules(min_size=2)
        hand = cards("* 2S AH 3S 2S 4S", r)
        assert least_deadwood(r, hand, [-3, -3, 0, 5, -1, -3]) == (-9, [(3, 4)])
        hand = cards("3H 4H 5H 6H 7H")
        assert least_deadwood(STD, hand, [0, 0, 0, 0, -5]) == (-5, [(0, 1, 2, 3)])

    def test_arguments(self):
        with pytest.raises(ValueError, match="one value per card"):
            least_deadwood(STD, cards("3H 4H 5H"), [1, 2])
        hand = cards("3H 4H 5H 5S 5D")  # a search of more than 2 bitmasks
        assert least_deadwood(STD, hand, [1] * 5) == (2, [(0, 1, 2)])
        with pytest.raises(ResourceLimit, match="past 2 positions"):
            least_deadwood(STD, hand, [1] * 5, max_states=2)


# ---------------------------------------------------------------- properties against brute force


@st.composite
def hands(draw, max_cards: int = 8, max_wilds: int = 2, max_ranks: int = 6):
    """Small rules (1 … max_ranks ranks) and a hand of at most max_cards cards, at most max_wilds wild."""
    n = draw(st.integers(1, max_ranks))
    ranks = tuple(f"R{i}" for i in range(n))
    suited = draw(st.booleans())
    # a joker, or a particular card of the rank order (like one-eyed jacks) that keeps its rank
    wild_cond = draw(st.sampled_from([(("RANK", "W"),), (("RANK", "R0"), ("SUIT", "S"))]))
    r = MeldRules("RANK", ranks, "SUIT" if suited else None, ace=draw(st.sampled_from(ACE_RULES)),
                  wild=(wild_cond,), min_size=draw(st.integers(1, 4)),
                  distinct_suits=suited and draw(st.booleans()))
    if draw(st.booleans()):  # any card
        rank_ix, suit = st.integers(0, n - 1), st.sampled_from("SHD")
    else:  # cards close in rank and mostly of one suit, which make melds more often
        low = draw(st.integers(0, n - 1))
        rank_ix, suit = st.integers(low, low + 2).map(lambda i: i % n), st.sampled_from("SSSH")
    natural = st.builds(lambda i, s: {"RANK": ranks[i], "SUIT": s}, rank_ix, suit)
    dead = st.just({"RANK": "X", "SUIT": "H"})
    atts = draw(st.lists(st.one_of(natural, natural, natural, dead), max_size=max_cards))
    infos = []
    for a in atts:
        c = card_info(r, a)
        if c.wild and sum(x.wild for x in infos) == max_wilds:
            c = card_info(r, {**a, "SUIT": "H"})  # a natural card instead: at most max_wilds wild cards
        infos.append(c)
    room = max_wilds - sum(c.wild for c in infos)
    for _ in range(draw(st.integers(0, max(0, min(room, max_cards - len(infos)))))):
        infos.insert(draw(st.integers(0, len(infos))), card_info(r, {"RANK": "W", "SUIT": "S"}))
    return r, infos


def natural_set(r: MeldRules, cs: list[tuple[int, object]]) -> bool:
    return len({rank for rank, _ in cs}) == 1 and (not r.distinct_suits or len({s for _, s in cs}) == len(cs))


def natural_run(r: MeldRules, cs: list[tuple[int, object]]) -> bool:
    n, m = len(r.ranks), len(cs)
    if r.suit_attr is not None and len({s for _, s in cs}) != 1:
        return False
    got = sorted(rank for rank, _ in cs)
    windows = {
        "low": [list(range(a, a + m)) for a in range(n - m + 1)],
        "high": [sorted(x % n for x in range(a, a + m)) for a in range(1, n - m + 2)],
        "around": [sorted(x % n for x in range(a, a + m)) for a in range(n)] if m <= n else [],
    }
    windows["both"] = windows["low"] + windows["high"]
    return got in windows[r.ace]


def brute_is_meld(r: MeldRules, hand: list[CardInfo]) -> bool:
    """Some assignment of a concrete card to each wild card makes the hand a natural set or run."""
    if len(hand) < r.min_size or any(not c.wild and c.rank is None for c in hand):
        return False
    naturals = [(c.rank, c.suit) for c in hand if not c.wild]
    if not naturals:
        return False
    n_wild = len(hand) - len(naturals)
    suits = sorted({s for _, s in naturals if s is not None}) + [f"fresh{i}" for i in range(n_wild)]
    for pick in product(product(range(len(r.ranks)), suits), repeat=n_wild):
        cs = naturals + list(pick)
        if natural_set(r, cs) or natural_run(r, cs):
            return True
    return False


def subsets(hand):
    for size in range(1, len(hand) + 1):
        yield from combinations(range(len(hand)), size)


def meld_kind_key(r: MeldRules, hand: list[CardInfo], meld: tuple[int, ...]) -> tuple:
    """The documented order of all_melds."""
    part = [hand[i] for i in meld]
    if is_set(r, part):
        return (0, next(c.rank for c in part if not c.wild), meld)
    suit_order = list(dict.fromkeys(c.suit for c in hand if not c.wild and c.rank is not None))
    suit = next(c.suit for c in part if not c.wild) if r.suit_attr is not None else None
    return (1, suit_order.index(suit) if r.suit_attr is not None else 0, meld)


class TestProperties:
    @settings(max_examples=300, deadline=None)
    @given(hands(max_cards=6))
    def test_is_meld_is_some_assignment_of_wild_cards(self, rh):
        r, hand = rh
        for s in subsets(hand):
            part = [hand[i] for i in s]
            assert is_meld(r, part) == brute_is_meld(r, part), s
            assert is_meld(r, part) == (is_set(r, part) or is_run(r, part))
            assert fits(r, part[-1], part[:-1]) == is_meld(r, part)

    @settings(max_examples=300, deadline=None)
    @given(hands())
    def test_all_melds_is_every_meld_once_in_order(self, rh):
        r, hand = rh
        got = all_melds(r, hand)
        want = [s for s in subsets(hand) if is_meld(r, [hand[i] for i in s])]
        assert len(got) == len(set(got))
        assert sorted(got) == sorted(want)
        assert got == sorted(got, key=lambda m: meld_kind_key(r, hand, m))

    @settings(max_examples=300, deadline=None)
    @given(hands(), st.data())
    def test_least_deadwood_is_the_brute_force_minimum(self, rh, data):
        r, hand = rh
        values = data.draw(st.lists(st.integers(-2, 12), min_size=len(hand), max_size=len(hand)))
        melds = all_melds(r, hand)
        order = {m: k for k, m in enumerate(melds)}

        def families(left: tuple[int, ...]):
            if not left:
                yield []
                return
            first, rest = left[0], left[1:]
            yield from families(rest)
            for m in melds:
                if m[0] == first and set(m) <= set(left):
                    for f in families(tuple(i for i in rest if i not in m)):
                        yield [m, *f]

        def key(fam):
            dead = sum(v for i, v in enumerate(values) if not any(i in m for m in fam))
            where = {i: order[m] for m in fam for i in m}
            size = {i: len(m) for m in fam for i in m}
            per_card = tuple((0, -size[i], where[i]) if i in where else (1,) for i in range(len(hand)))
            return (dead, per_card)

        best = min(families(tuple(range(len(hand)))), key=key)
        dead, chosen = least_deadwood(r, hand, values)
        assert dead == key(best)[0]
        assert chosen == sorted(best, key=order.__getitem__)
        # and, whatever the brute force says: disjoint melds whose complement is the deadwood
        covered = [i for m in chosen for i in m]
        assert len(covered) == len(set(covered))
        assert all(is_meld(r, [hand[i] for i in m]) for m in chosen)
        assert dead == sum(v for i, v in enumerate(values) if i not in covered)

    @settings(max_examples=300, deadline=None)
    @given(hands(max_cards=12, max_wilds=3, max_ranks=13), st.data())
    def test_least_deadwood_is_the_exhaustive_optimum_on_bigger_hands(self, rh, data):
        """Up to 12 cards against a plain memoised search of every family (the tie rule as a key)."""
        r, hand = rh
        values = data.draw(st.lists(st.sampled_from([-3, -1, 0, 1, 2, 5, 10]), min_size=len(hand), max_size=len(hand)))
        melds = all_melds(r, hand)

        @cache
        def best(left: frozenset[int]) -> tuple[int, tuple, tuple]:
            """(deadwood, per-card key in input order, melds) of the best family of the cards left."""
            if not left:
                return 0, (), ()
            first = min(left)
            dead, key, fam = best(left - {first})
            out = (dead + values[first], ((1,), *key), fam)
            for k, m in enumerate(melds):
                if m[0] == first and left.issuperset(m):
                    dead, key, fam = best(left.difference(m))
                    cand = (dead, ((0, -len(m), k), *key), (m, *fam))
                    out = min(out, cand, key=lambda x: x[:2])
            return out

        dead, _, fam = best(frozenset(range(len(hand))))
        assert least_deadwood(r, hand, values) == (dead, sorted(fam, key=melds.index))


# ---------------------------------------------------------------- agreement with OpenSpiel


def test_min_deadwood_agrees_with_open_spiel():
    """10,000 random 10-card Gin hands: our least deadwood = OpenSpiel's GinRummyUtils.min_deadwood."""
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install recycle[peers])")
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)  # ranks, suits, hand size
    # OpenSpiel's card index is suit * 13 + rank, ranks "A23456789TJQK" from 0, suits "scdh"
    gin_ranks = tuple("A23456789TJQK")
    gin = MeldRules("RANK", gin_ranks, "SUIT")
    deck = [card_info(gin, {"RANK": gin_ranks[c % 13], "SUIT": "scdh"[c // 13]}) for c in range(52)]
    value = [min(10, c % 13 + 1) for c in range(52)]
    for c in range(52):
        assert utils.card_string(c) == gin_ranks[c % 13] + "scdh"[c // 13]
        assert utils.card_value(c) == value[c]
    rng = random.Random(20240611)
    for _ in range(10_000):
        hand = rng.sample(range(52), 10)
        dead, _ = least_deadwood(gin, [deck[c] for c in hand], [value[c] for c in hand])
        assert dead == utils.min_deadwood(hand), [utils.card_string(c) for c in hand]
