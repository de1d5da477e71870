"""Lazy options (compiler.options, "lazy options"): an `any` whose body is plain makes its options without
walking them, and their ops, computed when read, are those walking them gives."""
from __future__ import annotations

import pickle

import pytest

from recycle.engine.play import play_game
from recycle.engine.recording import ListRecorder
from recycle.engine.state import VDEL, WAITING, LazyOption, Option
from recycle.errors import UsageError
from recycle.integrations.actions import option_key
from recycle.players.montecarlo import option_key as mc_key
from recycle.players.random_player import RandomPlayer
from support.walks import hand_game, walked

G = hand_game


PLAIN = "(any ((current player) iloc HAND) 'C (do ((move 'C (top (game vloc DISCARD))) " \
        "(set (game str LAST) (cardatt SUIT (top (game vloc DISCARD)))))))"


def test_plain_any_makes_lazy_options_with_the_walked_ops():
    p = G(PLAIN + " (turn pass)")
    st = p.new_game(1)
    opts = p.options(st)
    assert [type(o) for o in opts] == [LazyOption] * 4 + [Option]
    assert [o.ops for o in opts] == walked(p, st)
    assert [op[0] for op in opts[0].ops] == [0, 6]  # MV then SET


def test_guarded_plain_body_is_lazy_and_its_guard_still_filters():
    p = G("(any ((current player) iloc HAND) 'C ((== (cardatt SUIT 'C) H) (move 'C (top (game vloc DISCARD)))))")
    st = p.new_game(1)
    opts = p.options(st)
    hearts = [c for c in p.pile(st, 0, "iloc", "HAND") if st.catt[c]["SUIT"] == "H"]
    assert len(opts) == len(hearts) == 1 and all(type(o) is LazyOption for o in opts)
    assert [o.ops for o in opts] == walked(p, st)


def test_nested_any_at_the_start_of_a_path_is_lazy():
    # Go Fish: the inner `any` of players, under a guard and a `let`, is reached with nothing logged
    p = G("(any 'RANKS 'R (let (filter ((current player) iloc HAND) 'MR (== (cardatt RANK 'MR) 'R)) 'MINE "
          "((> (size 'MINE) 0) (any (other player) 'OP (do ((set ('OP str WHO) CHOSEN) (set (game str RANK) 'R)))))))",
          players=3, declares="(declare (A, TWO, THREE, FOUR, FIVE) 'RANKS)")
    st = p.new_game(1)
    opts = p.options(st)
    assert len(opts) == 2 * 2 and all(type(o) is LazyOption for o in opts)
    assert [o.ops for o in opts] == walked(p, st)
    assert {o.ops[1][3] for o in opts} == {"FOUR", "FIVE"}  # the rank of each option's path


# Crazy Eights: play an eight, then name a suit; the inner `any` comes after the move, and ends the path
EIGHT = ("(any (filter ((current player) iloc HAND) 'X (== (cardatt SUIT 'X) H)) 'C "
         "(do ((move 'C (top (game vloc DISCARD))) (any 'SUITS 'S (set (game str LAST) 'S)))))")
SUITS = "(declare (H, S, C) 'SUITS)"


def test_any_after_a_change_is_lazy_and_its_ops_start_with_the_change():
    p = G(EIGHT + " (any ((current player) iloc HAND) 'C (move 'C (top (game vloc DISCARD))))", declares=SUITS)
    st = p.new_game(1)
    opts = p.options(st)
    hearts = [c for c in p.pile(st, 0, "iloc", "HAND") if st.catt[c]["SUIT"] == "H"]
    assert hearts and len(opts) == 3 * len(hearts) + 4
    assert all(type(o) is LazyOption for o in opts)
    assert [o.ops for o in opts] == walked(p, st)
    assert [op[0] for op in opts[0].ops] == [0, 6]  # the move on the path, then the `set` of the lazy body
    before = st.clone()
    assert opts[1].ops_at(st) == opts[1].ops and st == before  # computing them left the state as it was


def test_a_change_before_the_any_on_a_virtual_pile_is_walked():
    # the move out of a filtered collection logs an entry removed from a scratch list: not made again lazily
    p = G("(let (filter ((current player) iloc HAND) 'Y (== (cardatt SUIT 'Y) H)) 'X ((> (size 'X) 0) "
          "(do ((move (top 'X) (top (game vloc DISCARD))) (any 'SUITS 'S (set (game str LAST) 'S))))))"
          " (turn pass)", declares=SUITS)
    st = p.new_game(1)
    opts = p.options(st)
    assert len(opts) == 4 and all(type(o) is Option for o in opts)
    assert [o.ops for o in opts] == walked(p, st)
    assert all(o.ops[0][0] == VDEL for o in opts[:3])


@pytest.mark.parametrize("choice", [
    # one element: a lazy option would not pay (options.LAZY_MIN_ELEMENTS)
    "(any (filter ((current player) iloc HAND) 'X (== (cardatt RANK 'X) FOUR)) 'C (move 'C (top (game vloc DISCARD))))",
    # an action that may fail (an empty pile) or may overflow
    "(any ((current player) iloc HAND) 'C (do ((move 'C (top (game vloc DISCARD))) "
    "(move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))",
    "(any ((current player) iloc HAND) 'C (do ((move 'C (top (game vloc DISCARD))) (inc (game sto N) 1))))",
    # a guard inside the body: evaluated after a change
    "(any ((current player) iloc HAND) 'C (do ((move 'C (top (game vloc DISCARD))) "
    "((== (game str LAST) X) (set (game str LAST) Y)))))",
    # a `set` of the top card's attribute after a move elsewhere: that pile may be empty
    "(any ((current player) iloc HAND) 'C (do ((move 'C (top (game vloc DISCARD))) "
    "(set (game str LAST) (cardatt SUIT (top (game vloc OTHER)))))))",
])
def test_other_bodies_are_walked(choice):
    p = G(choice)
    st = p.new_game(1)
    opts = p.options(st)
    assert opts and all(type(o) is Option for o in opts)


def test_the_option_limit_is_the_same():
    p = G(PLAIN, limits="(limits (options 3))")
    st = p.new_game(1)
    assert st.status != WAITING and st.limit is not None and st.limit[0] == "options"
    p = G(PLAIN, limits="(limits (options 4))")
    assert len(p.options(p.new_game(1))) == 4


def test_a_guard_that_fails_fails_while_the_options_are_built():
    p = G("(any ((current player) iloc HAND) 'C ((== (// 1 0) 1) (move 'C (top (game vloc DISCARD)))))")
    st = p.new_game(1)
    assert st.error is not None and "building the options" in st.error.format()


def test_ops_after_the_decision_was_taken():
    p = G(PLAIN)
    st = p.new_game(1)
    searched = st.clone()  # a copy a player searches, sharing the options
    expected = walked(p, st)
    p.apply(st, 0)
    o = searched.opts[2]
    with pytest.raises(UsageError, match=r"read after its decision was taken .*ops_at\(state\)"):
        o.ops  # noqa: B018 - the home state moved on: which state to compute from?
    assert o.ops_at(searched) == expected[2]
    # describe, action ids and the Monte Carlo players read the ops from the state they are given
    assert p.describe(searched, o) == p.describe(searched, Option(expected[2]))
    assert option_key(p, searched, o, 0) == option_key(p, searched, Option(expected[2]), 0)
    assert mc_key(p, searched, o, 1) == mc_key(p, searched, Option(expected[2]), 1)
    p.apply(searched, 2)
    fresh = p.new_game(1)
    p.apply(fresh, 2)
    assert searched == fresh


def test_pickled_waiting_state_keeps_its_options():
    p = G(PLAIN)
    st = p.new_game(1)
    copy = pickle.loads(pickle.dumps(st))
    assert [o.ops for o in copy.opts] == [o.ops for o in st.opts]
    assert all(type(o) is Option for o in copy.opts)


def test_played_games_are_the_same_as_walked_ones():
    """Every decision of random games: the lazy options' ops are the walked ones."""
    check_played(G(PLAIN + " (any ((current player) iloc HAND) 'C ((== (cardatt RANK 'C) A) (turn pass)))"))
    check_played(G(EIGHT + " (any ((current player) iloc HAND) 'C (move 'C (top (game vloc DISCARD))))",
                   declares=SUITS))


def check_played(p) -> None:
    lazy = 0
    for seed in range(5):
        st = p.new_game(seed)
        players = [RandomPlayer() for _ in range(2)]
        for s, pl in enumerate(players):
            pl.start(p, s, seed + s)
        while st.status == WAITING:
            lazy += sum(type(o) is LazyOption for o in st.opts)
            assert [o.ops for o in st.opts] == walked(p, st)
            p.apply(st, players[st.chooser].choose(p, st))
        assert st.error is None
    assert lazy > 20
    r = play_game(p, 3, [RandomPlayer(), RandomPlayer()])
    assert r.outcome == "completed"


@pytest.mark.parametrize("choice", [PLAIN, EIGHT + " (turn pass)"])
def test_taking_a_lazy_option_at_home_makes_the_state_its_replay_makes(monkeypatch, choice):
    # Program.apply makes the chosen option's changes while computing its ops (LazyOption.take): no undo, no
    # replay; on a copy of the state (not the option's home) the ops are computed, then replayed
    taken = []
    real = LazyOption.take
    monkeypatch.setattr(LazyOption, "take", lambda o, st: (taken.append(r := real(o, st)), r)[1])
    p = G(choice, declares=SUITS)
    lazy = [i for i, o in enumerate(p.options(p.new_game(1))) if type(o) is LazyOption]
    for i in lazy:
        st = p.new_game(1)
        copy = st.clone()
        expected = walked(p, st)[i]
        taken.clear()
        p.apply(st, i)
        assert taken == [expected]  # made at home
        p.apply(copy, i)
        assert taken == [expected, None]  # not the home of its options: replayed
        assert st == copy
    assert len(lazy) >= 3


@pytest.mark.parametrize("choice", [PLAIN, EIGHT + " (turn pass)"])
def test_taken_with_a_recorder_the_recorder_hears_what_the_replay_tells_it(monkeypatch, choice):
    # with a recorder, Program.apply makes a lazy option at home with the recorder listening (take_heard);
    # the events and results must be those of computing its ops and replaying them
    p = G(choice, declares=SUITS)

    def played():
        out = []
        for seed in range(6):
            rec = ListRecorder()
            r = play_game(p, seed, [RandomPlayer(), RandomPlayer()], recorder=rec)
            out.append((r, list(rec)))
        return out
    heard = []
    real = LazyOption.take_heard
    monkeypatch.setattr(LazyOption, "take_heard", lambda o, st: (heard.append(1), real(o, st))[1])
    taken = played()
    assert len(heard) > 10
    monkeypatch.setattr(LazyOption, "can_take", lambda o, st: False)  # computed, then replayed
    assert played() == taken
    assert any(e.get("type") == "move" for _, events in taken for e in events)
