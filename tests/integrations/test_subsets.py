"""The fitted id table of a game whose moves take a subset of a pile (a fishing game's captures): its
compound moves are numbered exactly by their set of cards (docs/integrations.md, "Sizes")."""
from __future__ import annotations

import itertools
import random

import pytest

import recycle
from recycle.integrations.actions import ActionCodec, option_key, set_count, takes_subsets
from recycle.integrations.core import RecycleSession
from support import CORPUS, CORPUS_MISSING
from support.games import make_game

# A small fishing game of our own: each turn a card to the hand and one to the pool, then play a card
# from the hand, alone or taking one to three cards of the pool.
FISHING = make_game(
    "",
    "(do ((repeat 4 (move (top (game iloc STOCK)) (top (game vloc POOL))))\n"
    "     (all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))\n"
    " (stage player\n"
    "  (end (< (size (game iloc STOCK)) 2))\n"
    "  (do ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))\n"
    "       (move (top (game iloc STOCK)) (top (game vloc POOL)))))\n"
    "  (choice ((any ((current player) iloc HAND) 'C (move 'C (top ((current player) vloc TRICK))))\n"
    "           (any ((current player) iloc HAND) 'C\n"
    "            (any (filter (subsets (game vloc POOL)) 'S (and (> (size 'S) 0) (< (size 'S) 4))) 'T\n"
    "             (do ((move 'C (top ((current player) vloc TRICK)))\n"
    "                  (all 'T 'X (move 'X (top ((current player) vloc TAKEN)))))))))))")
SCOPA = CORPUS / "valet" / "Scopa2.rcy"


def _clashes(session: RecycleSession, games: int) -> tuple[int, int]:
    """(decisions, decisions with a clash) over random games of a session."""
    prog, codec = session.prog, session.codec
    decisions = 0
    for seed in range(games):
        st = session.new_state(seed)
        rng = random.Random(seed)
        while not session.is_over(st):
            assert st.opts is not None and st.chooser is not None
            ids = codec.ids_of_keys([option_key(prog, st, o, st.chooser) for o in st.opts])
            assert len(set(ids)) == len(ids)
            decisions += 1
            prog.apply(st, rng.randrange(len(st.opts)))
    return decisions, codec.clashes


def test_a_game_taking_subsets_of_a_pile_gets_a_set_region_and_no_clash(tmp_path):
    path = tmp_path / "fishing.gdl"
    path.write_text(FISHING, "utf-8")
    game = recycle.load(path)
    assert takes_subsets(game.program)
    assert ActionCodec(game.program, action_bits=20).set_size == 0  # an explicit table has no set region
    codec = ActionCodec(game.program)
    # 36 card kinds: C(36,2) + C(36,3) + C(36,4) sets, in place of the four compound ids per card move
    assert codec.set_size == set_count(36) == 630 + 7_140 + 58_905 and codec.per_atom == 0
    assert codec.num_distinct_actions == codec.single_size + codec.set_size + 2**16
    decisions, clashes = _clashes(RecycleSession(path, on_clash="raise"), 12)
    assert decisions >= 100 and clashes == 0
    # numbered by their last card move, as an explicit action_bits numbers them, the same moves clash
    decisions, clashes = _clashes(RecycleSession(path, action_bits=17, on_clash="ignore"), 12)
    assert clashes > 0


def test_a_set_of_card_kinds_has_an_exact_number():
    codec = ActionCodec(recycle.load("block_rummy").program)  # 52 kinds; any codec numbers sets alike
    n = len(codec.kinds)
    ranks = [codec.set_rank([f"move {codec.kinds[i]} p1 iloc HAND -> p1 vloc TAKEN" for i in chosen])
             for k in (2, 3, 4) for chosen in itertools.combinations(range(n), k)]
    assert sorted(ranks) == list(range(set_count(n)))  # one number for each set, none unused
    one = f"move {codec.kinds[0]} p1 iloc HAND -> p1 vloc TAKEN"
    assert codec.set_rank([one, one]) is None  # two cards of one kind: not a set
    assert codec.set_rank([one, "move the top card of p2 iloc HAND -> p1 vloc TAKEN"]) is None  # a hidden card


def test_games_that_take_no_subset_of_a_pile_keep_their_table():
    for name in ("block_rummy", "leap_rummy_wild", "rummy_squared"):  # leap_rummy_wild takes subsets of jokers
        codec = ActionCodec(recycle.load(name).program)
        assert codec.set_size == 0 and codec.per_atom == 4, name


@pytest.mark.skipif(not SCOPA.is_file(), reason=CORPUS_MISSING)
def test_scopa_has_no_clash_with_the_default_table():
    # captures of one card by either of two cards of a rank, and of several cards, clashed with the
    # last-move table (14 of 360 decisions); numbered by their set of cards, none does
    session = RecycleSession(SCOPA, on_clash="raise")
    assert session.codec.set_size == set_count(40) and session.codec.num_distinct_actions == 177_036
    decisions, clashes = _clashes(session, 40)
    assert decisions >= 1_000 and clashes == 0
