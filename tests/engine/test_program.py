"""Engine API: determinism, clones, pickling, recording, views, determinisation, and the corpus sweep."""
from __future__ import annotations

import pickle
import random
import re

import numpy as np
import pytest

from recycle.compiler import compile_game
from recycle.engine.algorithms import derive
from recycle.engine.play import play_game
from recycle.engine.recording import ListRecorder
from recycle.errors import UsageError
from recycle.lang import load_game, parse_game
from recycle.players.base import ScriptedPlayer
from recycle.players.random_player import RandomPlayer

SMALL = """
(game (setup (create players 3) (create deck (game iloc STOCK) (deck (RANK (A, TWO, THREE, FOUR)) (SUIT (H, S)))))
 (do ((shuffle (game iloc STOCK)) (all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
 (stage player (end (all player 'P (== (size ('P iloc HAND)) 0)))
  (choice ((any ((current player) iloc HAND) 'C (do ((move 'C (top ((current player) vloc TABLE)))
             (remember 'C (top (game mem SEEN))) (inc ((current player) sto SCORE))))))))
 (do ((swap ((0 player) vloc TABLE) ((1 player) vloc TABLE)) (forget (top (game mem SEEN)))))
 (scoring max (size ((current player) vloc TABLE))))
"""


def rnd(n):
    return [RandomPlayer() for _ in range(n)]


def test_same_seed_same_game_different_seeds_differ():
    p = compile_game(parse_game(SMALL))
    a = play_game(p, 11, rnd(3))
    b = play_game(p, 11, rnd(3))
    assert a.choices == b.choices and a.scores == b.scores and a.decisions == b.decisions
    outcomes = {tuple(play_game(p, s, rnd(3)).choices) for s in range(20)}
    assert len(outcomes) > 1


def test_players_use_their_seat_streams_only():
    p = compile_game(parse_game(SMALL))
    seed = 5
    r = play_game(p, seed, rnd(3))
    # replaying the choices with a script (no player randomness) gives the same game
    sp = ScriptedPlayer(r.choices)
    r2 = play_game(p, seed, [sp, sp, sp])
    assert r2.scores == r.scores and [d.branching for d in r2.decisions] == [d.branching for d in r.decisions]
    # the random player's stream is derive(game_seed, "seat", s)
    st = p.new_game(seed)
    rng = random.Random(derive(seed, "seat", 0))
    assert r.choices[0] == rng.randrange(len(p.options(st)))


def test_clone_is_independent_and_equal():
    p = compile_game(parse_game(SMALL))
    st = p.new_game(3)
    c = st.clone()
    assert c == st and c.rec is None
    p.apply(c, 0)
    assert c != st
    d = st.clone()
    p.apply(d, 0)
    assert d == c  # same rng state, same choice: same future


def test_clone_at_every_decision_replays_identically():
    p = compile_game(parse_game(SMALL))
    st = p.new_game(9)
    while st.status == 1:
        c = st.clone()
        p.apply(st, 0)
        p.apply(c, 0)
        assert c == st


def test_pickle_roundtrip():
    p = compile_game(parse_game(SMALL))
    st = p.new_game(4)
    s2 = pickle.loads(pickle.dumps(st))
    assert s2 == st
    p.apply(s2, 1)
    p.apply(st, 1)
    assert s2 == st
    opts = pickle.loads(pickle.dumps(p.options(st)))
    assert [o.ops for o in opts] == [o.ops for o in p.options(st)]


def test_recorder_sees_only_the_real_game():
    p = compile_game(parse_game(SMALL))
    rec = ListRecorder()
    r = play_game(p, 2, rnd(3), recorder=rec)
    types = [e["type"] for e in rec]
    assert types[0] == "teams" and types[1] == "create" and types[2] == "shuffle"
    assert types[-1] == "end" and rec[-1]["reason"] == "normal" and rec[-1]["scores"] == r.scores
    assert types.count("decision") == r.n_decisions == 6
    moves = [e for e in rec if e["type"] == "move"]
    assert len(moves) == 6 + 6  # deal + play: option building left no trace
    assert moves[0]["from"] == ["table", "iloc", "STOCK", 0] and moves[0]["to"] == ["p1", "iloc", "HAND", 0]
    assert moves[0]["card"].startswith("DEFAULT#")
    assert sum(e["type"] == "remember" for e in rec) == 6
    assert sum(e["type"] == "forget" for e in rec) == 1
    swap = next(e for e in rec if e["type"] == "swap")
    assert swap["a"] == ["p1", "vloc", "TABLE", 0] and len(swap["a_to_b"]) == 2
    turns = [e["seat"] for e in rec if e["type"] == "turn"]
    assert turns == [1, 2, 0, 1, 2, 0]  # the last one: the stage ends, the base cycle is innermost again
    dec = next(e for e in rec if e["type"] == "decision")
    assert list(dec) == ["type", "n", "seat", "kind", "options", "choice", "text"] and dec["kind"] == "R"
    assert dec["text"].startswith("move ")
    sets = [e for e in rec if e["type"] == "set"]
    assert sets[0]["owner"] == "p1" and sets[0]["store"] == "sto" and sets[0]["key"] == "SCORE"
    # recording changes nothing
    r2 = play_game(p, 2, rnd(3))
    assert r2.choices == r.choices and r2.scores == r.scores


def test_view_hides_what_a_player_cannot_see():
    p = compile_game(parse_game(SMALL))
    st = p.new_game(1)
    v0 = p.view(st, 0)
    hand0 = ("p1", "iloc", "HAND", 0)
    hand1 = ("p2", "iloc", "HAND", 0)
    assert v0["piles"][hand0][0] == "cards" and v0["piles"][hand1][0] == "backs"
    assert v0["piles"][hand1][1] == ("DEFAULT", "DEFAULT")
    stock = ("table", "iloc", "STOCK", 0)
    assert v0["piles"][stock][0] == "backs"


def test_determinize_keeps_the_view_and_the_card_multiset():
    p = compile_game(parse_game(SMALL))
    rng = random.Random(1)
    for seed in range(10):
        st = p.new_game(seed)
        for _ in range(seed % 4):
            p.apply(st, 0)
        for seat in range(3):
            d = p.determinize(st, seat, rng)
            assert p.view(d, seat)["piles"] == p.view(st, seat)["piles"]
            assert sorted(c for pile in d.piles for c in pile if True) == sorted(c for pile in st.piles for c in pile)
            for pid, pile in enumerate(d.piles):
                if p.pile_kind[pid] != 4:
                    assert all(d.where[c] == pid for c in pile)
            assert len(p.options(d)) == len(p.options(st))  # hand sizes are public here


def test_determinize_actually_resamples_hidden_cards():
    p = compile_game(parse_game(SMALL))
    st = p.new_game(0)
    rng = random.Random(2)
    hands = {tuple(p.pile(p.determinize(st, 0, rng), 1, "iloc", "HAND")) for _ in range(30)}
    assert len(hands) > 1


def test_apply_outside_a_decision_is_a_usage_error():
    p = compile_game(parse_game(SMALL))
    st = p.new_game(0)
    with pytest.raises(UsageError):
        p.apply(st, 99)
    while st.status == 1:
        p.apply(st, 0)
    with pytest.raises(UsageError):
        p.apply(st, 0)
    assert p.is_terminal(st) and p.options(st) == [] and p.chooser(st) is None


def test_apply_takes_integer_indices_only():
    """An index of another integer type is taken; a string, a float or a bool is refused in words."""
    p = compile_game(parse_game(SMALL))
    st, twin = p.new_game(0), p.new_game(0)
    for bad, shown in (("0", "'0' (a str)"), (0.0, "0.0 (a float)"), (True, "True (a bool)"), ([0], "[0] (a list)")):
        with pytest.raises(UsageError, match=re.escape(f"an int in 0..{len(p.options(st)) - 1}, not {shown}")):
            p.apply(st, bad)
    p.apply(st, np.int64(1))
    p.apply(twin, 1)
    assert p.result(st).choices == p.result(twin).choices == [1]


def test_play_game_checks_the_number_of_players():
    p = compile_game(parse_game(SMALL))
    with pytest.raises(UsageError):
        play_game(p, 1, rnd(2))


# ---------------------------------------------------------------- the corpus


@pytest.mark.needs_corpus
def test_corpus_smoke(corpus_file):
    """Every corpus game (except the one with a load-time type error) plays 3 seeded random games without an error."""
    if corpus_file.name == "ContinuousPairs4.rcy":
        pytest.skip("cardstock/ContinuousPairs4.rcy has a load-time type error (language spec, Appendix B)")
    loaded = load_game(corpus_file)
    prog = compile_game(loaded.game, warnings=loaded.warnings)
    for i in range(3):
        r = play_game(prog, derive(1, "game", i), rnd(prog.n_players))
        assert r.outcome in ("completed", "limit"), r.error.text if r.error else r
        if r.outcome == "completed":
            assert r.scores is not None and len(r.ranks) == prog.n_players and abs(sum(r.shares) - 1) < 1e-9


def test_decision_records_name_the_choice_where_it_is_written():
    """Each record's span text is that of its decision (kept per decision across games: same text each time)."""
    p = compile_game(parse_game(SMALL))
    [span] = p.choice_span.values()
    for seed in (3, 4):
        r = play_game(p, seed, rnd(3))
        assert r.decisions and {d.position for d in r.decisions} == {str(span)}


def test_a_player_never_started_draws_from_seed_zero_and_start_reseeds_it():
    """A player's stream is made when first used (seeding costs as much as a short game): Random(0) until `start`."""
    pl = RandomPlayer()
    zero = random.Random(0)
    assert [pl.rng.random() for _ in range(3)] == [zero.random() for _ in range(3)]
    pl.start(None, 1, 99)
    assert pl.rng.random() == random.Random(99).random()
    pl.rng = random.Random(5)  # a stream set by hand is the one used
    assert pl.rng.random() == random.Random(5).random()
