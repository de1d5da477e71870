"""Extension E4: `(atomic MULTIACTION (require BOOLEAN))` — commit, roll back, option building, sampling, replay."""
from __future__ import annotations

import pickle
import random

import pytest

from recycle.compiler import compile_game, driver, walks
from recycle.engine.play import play_game, samples_atomic
from recycle.engine.recording import ListRecorder
from recycle.errors import LoadError
from recycle.lang import parse_game
from recycle.players.base import ScriptedPlayer
from recycle.players.random_player import RandomPlayer
from recycle.run.replay import replay
from recycle.run.session import GameSession
from support.games import PLACE_GAME, PLACE_STAGE, ROW, load, make_game, run


def sampler(choices=()):
    sp = ScriptedPlayer(list(choices))
    sp.atomic_sampling = True
    return sp


# ---------------------------------------------------------------- atomic do, executed directly


def test_an_atomic_do_commits_when_require_holds_and_rolls_back_otherwise():
    items = ("(do ((atomic (do ((move (top (game iloc STOCK)) (top (game vloc A))) (inc (game sto N)))) (require (== 1 1)))\n"
             "     (atomic (do ((move (top (game iloc STOCK)) (top (game vloc B))) (inc (game sto N)) (shuffle (game vloc A))))\n"
             "             (require (> (size (game vloc B)) 1)))))")
    prog = load(make_game("", items))
    rec = ListRecorder()
    st = prog.new_game(1, recorder=rec)
    assert st.status == 2
    assert len(prog.pile(st, "game", "vloc", "A")) == 1 and prog.pile(st, "game", "vloc", "B") == []
    assert len(prog.pile(st, "game", "iloc", "STOCK")) == 35 and prog.value(st, "game", "sto", "N") == 1
    kinds = [e["type"] for e in rec if e["type"] in ("move", "set", "shuffle")]
    assert kinds == ["move", "set"]  # the rolled-back block left no event


def test_nested_atomic_blocks_roll_back_only_themselves():
    items = ("(do ((atomic (do ((inc (game sto N))\n"
             "                   (atomic (do ((inc (game sto N)) (inc (game sto N)))) (require (== (game sto N) 2)))\n"
             "                   (inc (game sto M))))\n"
             "      (require (== (game sto N) 1)))))")
    prog, st = run(make_game("", items))
    assert prog.value(st, "game", "sto", "N") == 1 and prog.value(st, "game", "sto", "M") == 1


def test_overfilling_a_cell_in_an_atomic_do_is_an_error():
    items = "(do ((atomic (do ((move (top (game iloc STOCK)) (top (game vloc ROW 0))) (move (top (game iloc STOCK)) (top (game vloc ROW 0))))) (require (== 1 1)))))"
    _prog, st = run(make_game(ROW, items))
    assert st.status == 4 and st.error.cls == "capacity"


# ---------------------------------------------------------------- atomic blocks inside a choice


def test_atomic_in_a_choice_keeps_only_paths_whose_require_holds():
    # options: draw two cards into A in order; legal only if the second is higher in the point map
    items = ("(do ((set (game points V) (((RANK : ONE) 1) ((RANK : TWO) 2) ((RANK : THREE) 3)))))\n"
             " (choice ((any (game vloc POOL) 'X (any (game vloc POOL) 'Y\n"
             "   (atomic (do ((move 'X (top (game vloc A))) (move 'Y (top (game vloc A)))))\n"
             "           (require (and (== (size (game vloc A)) 2) (< (score (bottom (game vloc A)) using (game points V))\n"
             "                                                       (score (top (game vloc A)) using (game points V))))))))\n"
             "   (turn pass)))")
    text = make_game("", items, deck="(create deck (game vloc POOL) (deck (RANK (ONE, TWO, THREE))))")
    prog, st = run(text)
    opts = prog.options(st)
    # 3 x 3 paths, X == Y ones put one card twice (size 1): the 3 increasing pairs, plus the pass
    assert len(opts) == 3 + 1
    assert [prog.describe(st, o) for o in opts[:3]] == [
        ["move ONE table vloc POOL -> table vloc A", "move TWO table vloc POOL -> table vloc A"],
        ["move ONE table vloc POOL -> table vloc A", "move THREE table vloc POOL -> table vloc A"],
        ["move TWO table vloc POOL -> table vloc A", "move THREE table vloc POOL -> table vloc A"]]
    assert prog.pile(st, "game", "vloc", "A") == []  # building left no trace
    prog.apply(st, 1)
    assert [prog.card_attrs(st, c)["RANK"] for c in prog.pile(st, "game", "vloc", "A")] == ["ONE", "THREE"]


def test_an_atomic_block_without_a_successful_path_offers_no_option():
    items = "(choice ((atomic (do ((move (top (game iloc STOCK)) (top (game vloc A))))) (require (== 1 2))) (turn pass)))"
    prog, st = run(make_game("", items))
    assert len(prog.options(st)) == 1 and prog.describe(st, prog.options(st)[0]) == ["turn pass"]
    prog, st = run(make_game("", "(choice ((atomic (do ((turn pass))) (require (== 1 2)))))"))
    assert st.status == 4 and st.error.cls == "no-option"


def test_an_overfilling_path_inside_an_atomic_block_is_dropped():
    items = ("(choice ((any (cells (game vloc ROW)) 'X (atomic (do ((move (top (game iloc STOCK)) (top 'X))\n"
             "   (move (top (game iloc STOCK)) (top (game vloc ROW 0))))) (require (== 1 1))))))")
    prog, st = run(make_game(ROW, items))
    assert len(prog.options(st)) == 3  # X = cell 0 would put two cards on it


# ---------------------------------------------------------------- atomic blocks holding a stage or a choice


def test_atomic_stage_enumerates_complete_multi_step_options():
    prog, st = run(PLACE_GAME)
    opts = prog.options(st)
    assert st.status == 1 and prog.chooser(st) == 0
    assert len(opts) == 3 * 4 * 2 * 3  # first card x cell, second card x cell, then stop
    pcyc = list(st.pcyc)
    prog.apply(st, 5)
    assert st.status == 2 and len(prog.pile(st, 0, "iloc", "HAND")) == 1 and list(st.pcyc) == pcyc
    assert sum(len(prog.pile(st, "game", "vloc", "ROW", i)) for i in range(4)) == 2
    assert prog.result(st).n_decisions == 1  # one decision, whatever the inner choices


def test_atomic_choice_item_and_its_options():
    items = ("(atomic (choice ((any (range 1..5) 'K (set (game sto PICK) 'K)))) (require (== (% (game sto PICK) 2) 1)))\n"
             " (do ((inc (game sto DONE))))")
    prog, st = run(make_game("", items))
    assert [prog.describe(st, o) for o in prog.options(st)] == [["set table sto PICK = 1"], ["set table sto PICK = 3"], ["set table sto PICK = 5"]]
    prog.apply(st, 2)
    assert prog.value(st, "game", "sto", "PICK") == 5 and prog.value(st, "game", "sto", "DONE") == 1


def test_an_atomic_item_without_success_is_skipped_and_one_without_choices_applies_at_once():
    items = ("(atomic (choice ((set (game sto X) 1))) (require (== 1 2)))\n"
             " (atomic (stage player (end (>= (game sto Y) 3)) (do ((inc (game sto Y))))) (require (== (game sto Y) 3)))\n"
             " (atomic (stage player (end (>= (game sto Z) 3)) (do ((inc (game sto Z))))) (require (== (game sto Z) 2)))")
    prog = load(make_game("", items))
    rec = ListRecorder()
    st = prog.new_game(1, recorder=rec)
    assert st.status == 2 and prog.result(st).n_decisions == 0
    assert (prog.value(st, "game", "sto", "X"), prog.value(st, "game", "sto", "Y"), prog.value(st, "game", "sto", "Z")) == (0, 3, 0)
    assert [e["value"] for e in rec if e["type"] == "set"] == [1, 2, 3]
    turns = [e["seat"] for e in rec if e["type"] == "turn"]
    assert turns == [1, 0]  # the applied stage's passes: p1, p2, p1 (the rolled-back one left no event)


def test_team_stage_inside_an_atomic_block():
    items = ("(atomic (stage team (end (== (game sto N) 2))\n"
             "  (choice ((inc (game sto N)) ((== ((current team) sto T) 0) (inc ((current team) sto T))))))"
             " (require (== (game sto N) 2)))")
    prog, st = run(make_game("", items))
    # teams 0, 1, 0, 1 … take turns; each pass adds to N or (once per team) to the team's T, until N is 2
    descs = [" ".join(x.split()[1] + x.split()[-1] for x in prog.describe(st, o)) for o in prog.options(st)]
    assert descs == ["table1 table2", "table1 team11 table2", "table1 team11 team01 table2",
                     "team01 table1 table2", "team01 team11 table1 table2"]  # depth first, inner clauses in order
    prog.apply(st, 0)
    assert list(st.tcyc) == [0]


def test_a_stage_that_never_ends_inside_an_atomic_block_is_a_resource_error():
    items = "(atomic (stage player (end (== 1 2)) (choice ((turn pass)))) (require (== 1 1)))"
    _prog, st = run(make_game("", items))
    assert st.status == 4 and st.error.cls == "resource" and "passes" in st.error.message


# ---------------------------------------------------------------- sampling (the random player)


def test_random_players_sample_one_successful_path():
    text = PLACE_GAME
    prog = load(text)
    assert samples_atomic(RandomPlayer()) and not samples_atomic(ScriptedPlayer([])) and samples_atomic(sampler())
    for seed in range(20):
        st = prog.new_game(seed, sampling=[True, True])
        assert len(prog.options(st)) == 1  # the block contributes its one sampled path
        prog.apply(st, 0)
        assert len(prog.pile(st, 0, "iloc", "HAND")) == 1  # and it satisfies require
    # deterministic: the same seed samples the same path
    a, b = prog.new_game(4, sampling=[True, True]), prog.new_game(4, sampling=[True, True])
    assert prog.options(a)[0].ops == prog.options(b)[0].ops
    # and the random player's games replay with a sampling script
    r = play_game(prog, 11, [RandomPlayer(), RandomPlayer()])
    r2 = play_game(prog, 11, [sampler(r.choices), sampler(r.choices)])
    assert r.outcome == r2.outcome == "completed" and r.choices == r2.choices


def test_sampling_gives_up_after_the_bound_and_offers_nothing():
    items = ("(choice ((atomic (choice ((any (range 1..50) 'K (set (game sto PICK) 'K)))) (require (== (game sto PICK) 51)))\n"
             "          (turn pass)))")
    prog = load(make_game("", items))
    st = prog.new_game(1, sampling=[True, True])
    assert [prog.describe(st, o) for o in prog.options(st)] == [["turn pass"]]
    prog.atomic_attempts = 1
    items = "(choice ((atomic (choice ((any (range 1..50) 'K (set (game sto PICK) 'K)))) (require (> (game sto PICK) 0)))))"
    prog = load(make_game("", items))
    st = prog.new_game(1, sampling=[True, True])
    assert len(prog.options(st)) == 1


def sampled_picks(items: str, seeds=range(200)) -> list:
    """The value of (game sto PICK) after the one sampled option of a block, for each seed."""
    prog = load(make_game("", items))
    picks = []
    for seed in seeds:
        st = prog.new_game(seed, sampling=[True, True])
        assert len(prog.options(st)) == 1  # the block's one sampled path
        prog.apply(st, 0)
        picks.append(prog.value(st, "game", "sto", "PICK"))
    return picks


def test_a_sampled_inner_choice_picks_among_its_clauses():
    """§15.4: the clauses in a random order, the first that completes taken; a clause counts once."""
    picks = sampled_picks("(atomic (choice ((any (range 1..9) 'K (set (game sto PICK) 'K)) (set (game sto PICK) 10)))\n"
                          "        (require (== 1 1)))")
    assert set(picks) == set(range(1, 11))  # every path can be sampled
    assert 70 <= picks.count(10) <= 130  # about half the walks take the second clause (not 1 in 10)
    # a clause that does nothing (its condition false) is passed over, never taken
    picks = sampled_picks("(atomic (choice (((== 1 2) (set (game sto PICK) 1)) (set (game sto PICK) 2))) (require (== 1 1)))",
                          range(20))
    assert picks == [2] * 20


def test_a_sampled_any_over_a_filter_is_uniform_among_the_elements_that_pass():
    picks = sampled_picks("(atomic (choice ((any (filter (range 1..20) 'K (> 'K 15)) 'K (set (game sto PICK) 'K))))\n"
                          "        (require (== 1 1)))")
    assert set(picks) == {16, 17, 18, 19, 20} and all(25 <= picks.count(k) <= 55 for k in range(16, 21))


def test_either_if_and_definitions_are_walked_inside_a_sampled_block():
    """§15.4 over the forms of §18–§19: an `either` takes one alternative that can complete, an `if`
    its one branch, a definition's use its body with the arguments bound; what is sampled is a path
    the enumeration also lists."""
    block = ("(atomic (choice ((either ((PUTUPTO 3)\n"
             "                            (if (== 1 2) (PUTUPTO 8) (any (range 9..9) 'K (set (game sto PICK) 'K)))))))\n"
             "        (require (!= (game sto PICK) 2)))")
    text = make_game("", block, declares="(define (PUTUPTO 'N) (any (range 1..'N) 'K (set (game sto PICK) 'K)))")
    prog = load(text)
    st = prog.new_game(1)
    enumerated = {prog.describe(st, o)[0] for o in prog.options(st)}
    assert len(enumerated) == 3  # K=1, K=3 and the `if`'s else branch; K=2 fails `require`
    picks = []
    for seed in range(200):
        st = prog.new_game(seed, sampling=[True, True])
        [opt] = prog.options(st)
        assert prog.describe(st, opt)[0] in enumerated
        prog.apply(st, 0)
        picks.append(prog.value(st, "game", "sto", "PICK"))
    assert set(picks) == {1, 3, 9}
    assert 70 <= picks.count(9) <= 130  # the two alternatives are drawn alike, not 1 in 4 paths


def test_a_named_item_inside_a_block_is_enumerated_and_sampled_with_its_arguments():
    """A definition used as a program item of a block's stage: its choice is a branch point of the block."""
    block = ("(choice ((atomic (stage player (end (> (game sto PICK) 0)) (PICKFROM 2))\n"
             "                  (require (!= (game sto PICK) 3)))))")
    prog = load(make_game("", block, declares="(define (PICKFROM 'N) (choice ((any (range 'N..4) 'K (set (game sto PICK) 'K)))))"))
    st = prog.new_game(1)
    assert sorted(prog.describe(st, o)[-1] for o in prog.options(st)) == [
        "set table sto PICK = 2", "set table sto PICK = 4"]
    for seed in range(20):
        st = prog.new_game(seed, sampling=[True, True])
        [opt] = prog.options(st)
        assert prog.describe(st, opt)[-1] in ("set table sto PICK = 2", "set table sto PICK = 4")


def count_walks(monkeypatch, items: str) -> int:
    """How many random walks failed in the one atomic block of the first decision (each is undone)."""
    calls = []
    real = walks.undo_to
    monkeypatch.setattr(walks, "undo_to", lambda st, mark: (calls.append(mark), real(st, mark)))
    prog = load(make_game("", items))
    prog.new_game(1, sampling=[True, True])
    return len(calls)


def test_a_walk_that_nothing_random_decided_is_not_repeated(monkeypatch):
    """A failing walk without a fork is the block's only walk: one attempt, not 100 (§15.4)."""
    block = "(choice ((atomic (choice ({})) (require {})) (turn pass)))"
    assert count_walks(monkeypatch, block.format("(set (game sto PICK) 1)", "(== 1 2)")) == 1
    # a draw that could change the walk, or a draw from the game's stream, keeps the 100 attempts
    assert count_walks(monkeypatch, block.format("(any (range 1..2) 'K (set (game sto PICK) 'K))", "(== 1 2)")) == 100
    assert count_walks(monkeypatch, block.format("(set (game sto PICK) 1)", "(== (random 1) 2)")) == 100


def test_a_block_met_again_in_what_follows_it_is_sampled_again():
    """The rest of an option after a sampled block may run the same block again (an `all`): each has its walks."""
    items = ("(choice ((all (range 1..2) 'I (atomic (choice ((any (range 1..3) 'K (inc (game sto S) 'K))))\n"
             "                                     (require (!= (random 1) 2))))))")
    prog = load(make_game("", items))
    sums = set()
    for seed in range(30):
        st = prog.new_game(seed, sampling=[True, True])
        assert len(prog.options(st)) == 1
        prog.apply(st, 0)
        sums.add(prog.value(st, "game", "sto", "S"))
    assert sums == {2, 3, 4, 5, 6}


def test_a_move_rejected_after_a_sampled_block_drops_the_path_as_when_enumerating():
    items = ("(choice ((do ((atomic (choice ((set (game sto PICK) 1))) (require (== 1 1)))\n"
             "              (move (top (game iloc STOCK)) (top (game vloc ROW 0)))\n"
             "              (move (top (game iloc STOCK)) (top (game vloc ROW 0)))))\n"
             "          (turn pass)))")
    prog = load(make_game(ROW, items))
    for sampling in (None, [True, True]):
        st = prog.new_game(1, sampling=sampling)
        assert [prog.describe(st, o) for o in prog.options(st)] == [["turn pass"]]


def test_the_game_stream_seen_by_a_walk_gives_the_numbers_it_would_give_directly():
    """During the walks st.rng is a stand-in that notes draws (§15.4); the game's numbers stay the same."""
    watched, direct = walks._WatchedStream(), random.Random(3)
    watched.real = random.Random(3)
    a, b = list(range(20)), list(range(20))
    watched.shuffle(a)
    direct.shuffle(b)
    assert a == b and watched.drawn
    assert [watched.randint(1, 6) for _ in range(20)] == [direct.randint(1, 6) for _ in range(20)]
    assert watched.random() == direct.random() and watched.choice("abcdef") == direct.choice("abcdef")


def test_atomic_games_replay_through_transcripts(tmp_path):

    path = tmp_path / "place.gdl"
    path.write_text(make_game(ROW, "(stage player (end (== (game sto ROUND) 3))\n"
                                   " (do ((inc (game sto ROUND)) (set ((current player) str STOP) NO) (repeat 2 (move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))\n"
                                   " (choice (" + PLACE_STAGE.replace("(== (size ((current player) iloc HAND)) 1)", "(> (size (filter (cells (game vloc ROW)) 'X (> (size 'X) 0))) 0)") + " (turn pass))))",
                              deck="(create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR)) (SUIT (A, B))))"))
    sess = GameSession.open(path)
    for seed in range(5):
        rec = sess.play(seed, ["R", "R"], level="full")
        assert rec.end_reason == "normal", rec.error
        t = tmp_path / f"t{seed}.jsonl"
        t.write_text("\n".join(rec.transcript) + "\n")
        lines, _warnings = replay(t, path)
        assert lines[-1]["type"] == "end"


# ---------------------------------------------------------------- load-time checks


@pytest.mark.parametrize("items,cls,words", [
    ("(do ((atomic (choice ((turn pass))) (require (== 1 1)))))", "placement", "is a decision"),
    ("(do ((atomic (do ((create deck (game vloc X) (deck (RANK (A)))))) (require (== 1 1)))))", "placement", "atomic block"),
    ("(atomic (do ((turn pass))))", "syntax", "takes 3 elements"),
    ("(atomic (do ((turn pass))) (REQUIRE (== 1 1)))", "syntax", "expected (require <condition>)"),
    ("(atomic (move (top (game iloc STOCK)) (top (game vloc X))) (require (== 1 1)))", "syntax", "holds a do, a choice or a stage"),
    ("(atomic (do ((turn pass))) (require 3))", "type", "expected a Boolean"),
])
def test_load_time_atomic_errors(items, cls, words):
    with pytest.raises(LoadError) as info:
        parse_game(make_game("", items))
    d = info.value.diagnostics[0]
    assert d.cls == cls and words in d.message, d.format()
    assert d.span.line == 5


def test_decision_limit_counts_an_atomic_block_once():
    items = "(stage player (end (== 1 2)) (atomic (choice ((inc (game sto N)) (inc (game sto M)))) (require (== 1 1))))"
    prog = compile_game(parse_game(make_game("", items)))
    r = play_game(prog, 1, [RandomPlayer(), RandomPlayer()], max_decisions=7)
    assert r.outcome == "limit" and r.n_decisions == 7


def test_atomic_options_pickle_clone_and_describe_for_a_viewer():
    prog, st = run(PLACE_GAME)
    c = st.clone()
    opts = pickle.loads(pickle.dumps(prog.options(st)))
    assert [o.ops for o in opts] == [o.ops for o in prog.options(st)]
    hidden = prog.describe(st, prog.options(st)[0], viewer=1)
    assert hidden[0] == "move the bottom card of p1 iloc HAND -> table vloc ROW 0"  # a cell, with its index
    prog.apply(st, 7)
    prog.apply(c, 7)
    assert c == st


def test_enumerating_too_many_paths_falls_back_to_sampling(monkeypatch):
    """Past the enumeration budget a decision is built again with its atomic blocks sampled, so a
    player that enumerates (a searching player, Scenario) still gets options, deterministically."""
    monkeypatch.setattr(driver, "ATOMIC_MAX_PATHS", 50)
    src = PLACE_GAME
    prog, st = run(src)
    assert prog.atomic_max_paths == 50
    assert st.status == 1 and len(prog.options(st)) == 1  # one sampled path instead of every path
    sampled = prog.new_game(1, sampling=[True, True])
    assert [o.ops for o in prog.options(sampled)] == [o.ops for o in prog.options(st)]
    prog.atomic_max_paths = 10_000
    full = prog.new_game(1)
    assert len(prog.options(full)) > 1  # within the budget every successful path is an option
