"""Stable action ids (recycle.integrations.actions): one id per move, the same in every state where it is legal."""
from __future__ import annotations

import importlib
import random
import re
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor

import pytest

import recycle
from recycle.integrations.actions import ActionCodec, ActionIdClash, ActionIdClashWarning, option_key
from recycle.integrations.core import RecycleSession

# 1,000 random games in all, 250 of each, the first 60 decisions of each game.
GAMES = ("block_rummy", "gin_rummy", "contract_rummy", "leap_rummy")
PER_GAME = 250
MAX_DECISIONS = 60


def _walk(job: tuple[str, int, int]) -> tuple[dict, int, int, list]:
    """Random games of one game: key -> ids seen, decisions, decisions with a collision, problems."""
    name, first, count = job
    s = RecycleSession(name, max_decisions=MAX_DECISIONS)
    prog, codec = s.prog, s.codec
    seen: dict[tuple, set[int]] = defaultdict(set)
    decisions = collided = 0
    problems = []
    for seed in range(first, first + count):
        st = s.new_state(seed)
        rng = random.Random(seed)
        while not s.is_over(st):
            assert st.opts is not None and st.chooser is not None
            keys = codec.distinct_keys([option_key(prog, st, o, st.chooser) for o in st.opts])
            ids = codec.ids_of_keys(keys)
            if len(set(ids)) != len(ids):
                problems.append(f"{name} seed {seed} decision {st.decisions + 1}: two options share an id")
            if not all(0 <= a < codec.num_distinct_actions for a in ids):
                problems.append(f"{name} seed {seed}: an id out of range")
            decisions += 1
            homes = [codec.home(k) for k in keys]
            if len(set(homes)) != len(keys):
                collided += 1
            else:
                for k, a in zip(keys, ids, strict=True):
                    seen[(name, *k)].add(a)  # ids are a game's own: keys of different games are apart
            prog.apply(st, rng.randrange(len(st.opts)))
    return dict(seen), decisions, collided, problems


def test_ids_are_stable_and_distinct_over_1000_random_games():
    jobs = [(name, half * PER_GAME // 2, PER_GAME // 2) for name in GAMES for half in (0, 1)]
    with ProcessPoolExecutor(2) as pool:
        parts = list(pool.map(_walk, jobs))
    seen: dict[tuple, set[int]] = defaultdict(set)
    decisions = collided = 0
    problems: list[str] = []
    for part, d, c, p in parts:
        for k, ids in part.items():
            seen[k] |= ids
        decisions += d
        collided += c
        problems += p
    assert not problems, "\n".join(problems[:10])
    unstable = {k: ids for k, ids in seen.items() if len(ids) > 1}
    assert not unstable, f"moves with several ids: {list(unstable.items())[:5]}"
    assert decisions > 20_000  # the games were really played
    assert len(seen) > 2_000  # and many distinct moves were seen
    # No two legal options of one state share a home id with the tables fitted to these games (docs say so).
    assert collided == 0, f"{collided} of {decisions} decisions had a collision"


def test_single_moves_get_exact_ids_and_the_same_move_twice_gets_distinct_ids():
    game = recycle.load("block_rummy")
    codec = ActionCodec(game.program)
    assert codec.single_size > 0
    # a single move is numbered exactly, not hashed
    key = (f"move {codec.kinds[0]} p1 iloc HAND -> table vloc DISCARD",)
    assert codec.home(key) < codec.single_size
    # two options with one key (identical cards) and a hashed compound option: three distinct ids
    compound = ("move the top card of table iloc STOCK -> p1 iloc HAND", "set table sto X = 1")
    ids = codec.ids_of_keys([key, compound, key])
    assert len(set(ids)) == 3 and ids[0] == codec.home(key) and ids[1] >= codec.single_size


def test_every_session_of_a_game_has_one_layout_and_keys_name_card_kinds():
    # A program registers piles as its games make them (Contract Rummy's melds): a session made after a game
    # was played has the same ids and tensor layout as one made before.
    game = recycle.load("contract_rummy")
    before = RecycleSession(game)
    enc = before.encoder
    declared = set(enc.piles)
    laid = 0.0  # the most cards the tensor's last pile row (the piles made during play) counted
    for seed in range(4):
        st = before.new_state(seed)
        rng = random.Random(seed)
        while not before.is_over(st):
            before.prog.apply(st, rng.randrange(len(st.opts)))
            on_made = sum(len(cards) for pid, cards in enumerate(st.piles) if pid not in declared)
            row = enc.tensor(st, 0)[len(enc.piles) * enc.row:(len(enc.piles) + 1) * enc.row]
            assert row.sum() == on_made
            laid = max(laid, float(row.sum()))
    assert len(game.program.pile_order()) > len(enc.piles) and laid > 0  # piles were made, cards laid on them
    after = RecycleSession(game)
    assert after.num_distinct_actions == before.num_distinct_actions
    assert after.encoder.obs_size == enc.obs_size and after.codec.pile_rank == before.codec.pile_rank
    # Tile Rummy has two of each tile, and a tile laid gets a storage cell (written DECK#SERIAL): the key names
    # the tile by its kind, so laying either of two identical tiles is one move (the second a repeat, #2).
    tiles = RecycleSession("tile_rummy", on_clash="raise")
    for seed in range(30):
        st = tiles.new_state(seed)
        assert st.opts is not None and st.chooser is not None
        keys = [option_key(tiles.prog, st, o, st.chooser) for o in st.opts]
        assert not any("#" in text for key in keys for text in key)
        if len(set(keys)) < len(keys):
            break
    else:
        pytest.fail("no deal of Tile Rummy gave a player two identical tiles to lay")
    tiles.legal(st)  # and no clash


def test_a_full_table_probes_to_the_next_free_id():
    game = recycle.load("block_rummy")
    codec = ActionCodec(game.program, action_bits=8, on_clash="ignore")  # 256 ids: too few for the single moves
    assert codec.single_size == 0 and codec.hash_size == 256
    keys = [(f"set table sto X = {i}",) for i in range(256)]
    assert sorted(codec.ids_of_keys(keys)) == list(range(256))
    assert codec.clashes == 1  # one decision, counted once however many of its options moved


def _many_options(job: tuple[str, int, int]) -> tuple[int, int, dict]:
    """Random games with every clash raised: decisions, the most options of one, key -> ids seen."""
    name, first, count = job
    s = RecycleSession(name, max_decisions=80, on_clash="raise")
    prog, codec = s.prog, s.codec
    decisions = most = 0
    seen: dict[tuple, set[int]] = defaultdict(set)
    for seed in range(first, first + count):
        st = s.new_state(seed)
        rng = random.Random(seed)
        while not s.is_over(st):
            assert st.opts is not None and st.chooser is not None
            keys = codec.distinct_keys([option_key(prog, st, o, st.chooser) for o in st.opts])
            ids = codec.ids_of_keys(keys)  # raises ActionIdClash if two options of this state had one home id
            assert len(set(ids)) == len(ids) == len(st.opts)
            for k, a in zip(keys, ids, strict=True):
                seen[k].add(a)
            decisions += 1
            most = max(most, len(ids))
            prog.apply(st, rng.randrange(len(st.opts)))
    return decisions, most, dict(seen)


def test_games_with_hundreds_of_options_per_decision_get_distinct_stable_ids():
    # Rummy Squared's captures (and double captures) are compound moves numbered by their last card move;
    # Rummykruss declares hundreds of piles (all its options are hashed) and, like Tile Rummy, has two of
    # each tile. No clash may be raised, so every id is its move's home id.
    jobs = [("rummy_squared", 0, 12), ("rummy_squared_double_capture", 0, 12), ("tile_rummy", 0, 12),
            ("rummykruss_open_draft", 0, 12)]
    with ProcessPoolExecutor(2) as pool:
        parts = dict(zip((j[0] for j in jobs), pool.map(_many_options, jobs), strict=True))
    for name, (decisions, _most, seen) in parts.items():
        assert decisions > 200, name
        unstable = {k: ids for k, ids in seen.items() if len(ids) > 1}
        assert not unstable, f"{name}: moves with several ids: {list(unstable.items())[:3]}"
    assert parts["rummy_squared"][1] >= 150 and parts["rummy_squared_double_capture"][1] >= 400
    assert len(parts["rummy_squared"][2]) > 5_000  # thousands of distinct moves, each with one id


def test_a_clash_is_detected_and_names_action_bits():
    game = recycle.load("rummy_squared")
    s = RecycleSession(game, action_bits=10, on_clash="raise")  # 1,024 ids for ~200 options: clashes are sure
    assert s.codec.single_size == 0 and s.num_distinct_actions == 1024
    st = s.new_state(3)
    rng = random.Random(0)
    with pytest.raises(ActionIdClash, match=r"home id \d+: .* action_bits=10: a larger action_bits"):
        for _ in range(20):
            s.legal(st)
            s.prog.apply(st, rng.randrange(len(st.opts)))
    # on_clash="warn" (the default) warns once per game and counts every decision with a clash
    s = RecycleSession(game, action_bits=10)
    st = s.new_state(3)
    with pytest.warns(ActionIdClashWarning, match="action_bits=10") as caught:
        for _ in range(20):
            assert len(set(s.legal(st))) == len(st.opts)  # the ids of one state stay distinct
            s.prog.apply(st, rng.randrange(len(st.opts)))
    assert len(caught) == 1 and s.codec.clashes > 1
    with pytest.raises(ValueError, match="on_clash"):
        ActionCodec(game.program, on_clash="sometimes")


def test_the_default_table_is_fitted_to_the_game():
    # (kinds + 2) × piles² single moves, four times that for compound ones, and 2**16 hashed ids
    block = ActionCodec(recycle.load("block_rummy").program)
    assert block.single_size == 54 * 12 * 12 and block.per_atom == 4
    assert block.num_distinct_actions == 5 * block.single_size + 2**16 < 2**17  # a mask of 102 KB, not 1 MB
    # Rummykruss declares hundreds of piles: no exact regions, 2**16 hashed ids
    kruss = ActionCodec(recycle.load("rummykruss").program)
    assert kruss.single_size == 0 and kruss.num_distinct_actions == 2**16
    # an explicit action_bits is the table's size; a larger one gives more compound ids per atom
    big = ActionCodec(recycle.load("block_rummy").program, action_bits=20)
    assert big.num_distinct_actions == 2**20 and big.per_atom == 64  # 7,776 × 65 ≤ 2**19 < 7,776 × 129
    assert ActionCodec(recycle.load("block_rummy").program, action_bits=15).per_atom == 1
    assert ActionCodec(recycle.load("block_rummy").program, action_bits=14).per_atom == 0


@pytest.mark.parametrize(("module", "library", "extra"), [("openspiel", "pyspiel", "openspiel"),
                                                          ("pettingzoo", "pettingzoo", "pettingzoo")])
def test_an_adapter_without_its_library_names_the_extra(monkeypatch, module, library, extra):
    monkeypatch.setitem(sys.modules, library, None)  # as if the library were not installed
    monkeypatch.delitem(sys.modules, f"recycle.integrations.{module}", raising=False)
    with pytest.raises(ImportError, match=re.escape(f"pip install 'recycle[{extra}]'")):
        importlib.import_module(f"recycle.integrations.{module}")
