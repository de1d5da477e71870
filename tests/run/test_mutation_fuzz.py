"""Mutated game files, loaded and played: every outcome is a clear error or a game result, never a crash.

Hypothesis damages shipped games and corpus files token by token (deletions, insertions from an
alphabet of the language's own words and hostile characters, swaps, truncations, numbers made
huge) and each damaged text is loaded; when it still loads, it is compiled and played once by
random players under small limits.  Allowed: a LoadError or UsageError (positioned, formatted),
and any game result, including a run-time error of the game; a bug of recycle (an InternalError
or any other exception) fails the test, and so does a case that runs past a generous alarm (a
hang no limit caught).

The budget in CI is MAX_EXAMPLES per run; `pytest --fuzz-examples N` runs longer (or shorter).
"""
from __future__ import annotations

import re
import signal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recycle.compiler import compile_game
from recycle.engine.play import play_game
from recycle.errors import LoadError, UsageError
from recycle.lang import parse_game
from recycle.players.random_player import RandomPlayer
from support import corpus_files
from support.mutation import mutate

REPO = Path(__file__).resolve().parents[2]
MAX_EXAMPLES = 300  # per CI run: a few seconds (most damaged files fail to load, the rest play to 200 decisions)
ALARM_SECONDS = 60  # one case past this is a hang, whatever the machine's load

SOURCES = sorted((REPO / "games").glob("*.gdl")) + corpus_files()[::6]
TOKEN = re.compile(r"\(|\)|'?[A-Za-z0-9_]+|\.\.|==|!=|<=|>=|\S")
WORDS = ["(", ")", "'X", "'P", "top", "bottom", "12", "0", "-1", "..", ",", ":", "game", "all", "any", "move",
         "choice", "do", "player", "vloc", "iloc", "HAND", "sto", "==", "^", "repeat", "range", "atomic", "stage",
         "define", "either", "if", "optional", "while", "match", "limits", "melds", "deadwood", "(current player)",
         "99999999999999999999", "(^ 10 300)", "\x00", "é", ";", '"', "\ufeff", "((((((((", "))))))))"]

mutation = st.one_of(
    st.tuples(st.just("delete"), st.integers(0, 10**6)),
    st.tuples(st.just("insert"), st.integers(0, 10**6), st.sampled_from(WORDS)),
    st.tuples(st.just("swap"), st.integers(0, 10**6), st.integers(0, 10**6)),
    st.tuples(st.just("truncate"), st.integers(0, 10**6)),
    st.tuples(st.just("huge"), st.integers(0, 10**6)),
)


def _alarm(signum, frame):
    raise TimeoutError(f"a mutated game ran past {ALARM_SECONDS} s: a hang no limit caught")


def examples(request) -> int:
    n = request.config.getoption("--fuzz-examples")
    return MAX_EXAMPLES if n is None else n


@pytest.fixture
def budget(request):
    return examples(request)


def test_mutated_games_load_and_play_or_fail_cleanly(budget):
    @settings(max_examples=budget, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(source=st.sampled_from(SOURCES), ops=st.lists(mutation, min_size=1, max_size=4),
           seed=st.integers(0, 2**32 - 1))
    def case(source: Path, ops, seed: int):
        text = " ".join(mutate(TOKEN.findall(re.sub(r";[^\n]*", " ", source.read_text("utf-8-sig"))), ops))
        old = signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(ALARM_SECONDS)
        try:
            try:
                game = parse_game(text, "mutated.gdl")
                prog = compile_game(game)
            except (LoadError, UsageError) as e:
                assert str(e).strip()
                if isinstance(e, LoadError):
                    assert e.diagnostics and all(d.span.line >= 1 for d in e.diagnostics)
                return
            r = play_game(prog, seed, [RandomPlayer() for _ in range(prog.n_players)], max_decisions=200,
                          max_idle_steps=2000)
            assert r.outcome in ("completed", "limit", "error")
            if r.error is not None:
                assert r.error.cls != "internal" and r.error.message, r.error.text
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)

    case()


def test_the_tokeniser_keeps_an_unmutated_game_playable():
    """Without a mutation the rough tokeniser keeps the file a game (so the mutations are what the test tries)."""
    src = REPO / "games" / "gin_rummy.gdl"
    text = " ".join(TOKEN.findall(re.sub(r";[^\n]*", " ", src.read_text("utf-8"))))
    assert parse_game(text) == parse_game(src.read_text("utf-8"), str(src))
