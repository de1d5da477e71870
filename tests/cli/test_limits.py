"""Hostile inputs through the `recycle` command, each in a subprocess under a time and memory limit.

Every case of issue 13's "Resources" and "Numbers and nesting" bullets: the command must end
within its time limit, print no Python traceback, and either refuse with one clear message
naming the limit (and a non-zero exit) or report the limit as the outcome of the games.
docs/limits.md lists the limits these cases hit.
"""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from recycle.cli.options import cpu_count
from recycle.lang.sexprs import MAX_DEPTH
from support import REPO
from support.games import definition_name

TIME_LIMIT = 60  # seconds per command: generous on a busy machine, the cases take about one
MEMORY_LIMIT = 2 * 1024**3  # bytes of address space for the child (and its workers)


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def recycle(*argv: str) -> subprocess.CompletedProcess:
    """`python -m recycle ARGV` in a child process with a time and a memory limit."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "recycle", *argv], capture_output=True, text=True,
                          timeout=TIME_LIMIT, env=env, preexec_fn=_limit_memory, cwd=REPO)


def assert_clean(cp: subprocess.CompletedProcess) -> None:
    """No traceback and no internal error, whatever the exit status."""
    assert "Traceback" not in cp.stderr + cp.stdout, cp.stderr[-2000:]
    assert "internal error" not in cp.stderr, cp.stderr[-2000:]
    assert cp.returncode != 70, cp.stderr[-2000:]


def refused(cp: subprocess.CompletedProcess, *words: str) -> str:
    """A clean refusal: non-zero exit, a message (`check` prints to stdout) holding every word; the output."""
    assert_clean(cp)
    assert cp.returncode != 0, cp.stdout[-2000:]
    text = cp.stdout + cp.stderr
    for w in words:
        assert w in text, text[-2000:]
    return text


def game(tmp_path: Path, name: str = "g.gdl", *, declare: str = "1 'X", players: str = "2",
         decks: str = "(create deck (game iloc STOCK) (deck (RANK (A, B))))", items: str = "(do ((turn pass)))",
         score: str = "0", limits: str = "") -> Path:
    """A small game file with one part replaced by a hostile one."""
    p = tmp_path / name
    p.write_text(f"(game\n {limits}\n (declare {declare})\n (setup (create players {players}) {decks})\n"
                 f" {items}\n (scoring max {score}))\n")
    return p


def run_json(path: Path, *extra: str) -> dict:
    cp = recycle("run", str(path), "-n", "2", "--seed", "1", "--json", "-q", *extra)
    assert_clean(cp)
    summary = json.loads(cp.stdout)
    # run exits 1 when games end in a run-time error (and says how many), else 0
    assert cp.returncode == (1 if summary["errors"] else 0), cp.stderr
    return summary


def nested(depth: int) -> str:
    return "(+ 1 " * depth + "0" + ")" * depth


# ------------------------------------------------------------------ nesting


@pytest.mark.parametrize("command", ["check", "run"])
def test_nesting_10000_deep_is_a_positioned_error(tmp_path, command):
    path = game(tmp_path, score=nested(10_000))
    msg = refused(recycle(command, str(path)), "error[limit]", f"more than {MAX_DEPTH} parentheses deep",
                  "docs/limits.md")
    # positioned at the `(` that goes one level too deep: on the scoring line (6), after the first `(`s
    assert f"{path}:6:2505: error[limit]" in msg


def test_nesting_just_under_the_limit_checks_runs_and_prints(tmp_path):
    depth = MAX_DEPTH - 3  # (game (scoring max … : three levels are the game's own
    path = game(tmp_path, score=nested(depth))
    cp = recycle("check", str(path))
    assert_clean(cp)
    assert cp.returncode == 0, cp.stderr
    summary = run_json(path)
    assert summary["mean_scores"] == [depth, depth]


def test_deep_conditions_in_an_atomic_game_run(tmp_path):
    """Fused expressions (atomic games) too deep for Python's parser keep their closures."""
    cond = "(not " * 480 + "(== 1 2)" + ")" * 480
    path = game(tmp_path, items=f"(choice ((atomic (do ((turn pass))) (require {cond})) (turn pass)))")
    assert run_json(path)["completed"] == 2


# ------------------------------------------------------------------ numbers


def test_integer_literal_over_the_digit_limit(tmp_path):
    path = game(tmp_path, declare="9" * 5000 + " 'X")
    refused(recycle("check", str(path)), "error[limit]", "5,000 digits", "MAX_INT_DIGITS")


def test_huge_power_in_a_declare_does_not_hang_check(tmp_path):
    path = game(tmp_path, declare="(^ 10 100000000) 'X")
    refused(recycle("check", str(path)), "(^ 10 100000000)", "more than 300 digits")


def test_huge_product_and_fib_in_declares(tmp_path):
    for i, value in enumerate(["(* " + " ".join(["99999999999999999999"] * 40) + ")", "(fib 100000000)",
                               "(tri (^ 10 200))"]):
        path = game(tmp_path, f"g{i}.gdl", declare=f"{value} 'X")
        refused(recycle("check", str(path)), "more than 300 digits")


def test_huge_power_at_run_time_is_the_games_error(tmp_path):
    path = game(tmp_path, score="(^ (+ 9 1) 100000000)")
    summary = run_json(path)
    assert summary["errors"] == 2
    assert "error[limit]" in summary["first_errors"][0]["error"]
    assert "MAX_INT_DIGITS" in summary["first_errors"][0]["error"]


def test_doubling_a_stored_value_stops_at_the_integer_limit(tmp_path):
    items = "(do ((set (game sto X) 1) (repeat 5000 (set (game sto X) (+ (game sto X) (game sto X))))))"
    summary = run_json(game(tmp_path, items=items, score="(game sto X)"))
    assert summary["errors"] == 2 and "MAX_INT_DIGITS" in summary["first_errors"][0]["error"]


def test_big_scores_are_summarised(tmp_path):
    """Scores near the integer limit (far past a float's 1.8e308 once summed) do not break the summaries."""
    path = game(tmp_path, score="(* (^ 10 299) 9)")
    summary = run_json(path)
    assert summary["completed"] == 2 and summary["mean_scores"][0] == pytest.approx(9e299)
    out = tmp_path / "stats"
    cp = recycle("stats", str(path), "-n", "3", "--seed", "1", "--out", str(out), "-q", "--json")
    assert_clean(cp)
    assert cp.returncode == 0, cp.stderr


def test_param_with_too_many_digits_or_a_huge_range(tmp_path):
    path = game(tmp_path)
    refused(recycle("run", str(path), "--param", "X=" + "7" * 400), "parameter X", "more than 300 digits")
    path = game(tmp_path, "r.gdl", declare="(range 1..3) 'R")
    refused(recycle("run", str(path), "--param", "R=1..10000000000"), "parameter R", "MAX_RANGE")


# ------------------------------------------------------------------ sizes


def test_ten_billion_card_deck_is_refused_at_check(tmp_path):
    attrs = " ".join(f"(K{c} (A, B, C, D, E, F, G, H, I, J))" for c in "ABCDEFGHIJ")
    path = game(tmp_path, decks=f"(create deck (game iloc STOCK) (deck {attrs}))")
    refused(recycle("check", str(path)), "10,000,000,000 cards", "MAX_CARDS")
    path = game(tmp_path, "r.gdl", declare="10000000000 'N",
                decks="(repeat 'N (create deck (game iloc STOCK) (deck (RANK (A, B)))))")
    refused(recycle("check", str(path)), "setup creates 20,000,000,000 cards", "MAX_CARDS")


def test_cards_created_in_play_stop_at_the_card_limit(tmp_path):
    values = ", ".join("V" + c for c in "ABCDEFGHIJ")
    items = (f"(do ((repeat 100 (create deck (game vloc X) (deck (A ({values})) (B ({values})) "
             f"(C ({values})))))))")
    summary = run_json(game(tmp_path, items=items))
    assert summary["errors"] == 2 and "MAX_CARDS" in summary["first_errors"][0]["error"]


@pytest.mark.parametrize("how", ["file", "param"])
def test_a_hundred_thousand_players(tmp_path, how):
    if how == "file":
        path = game(tmp_path, players="100000")
        cp = recycle("check", str(path))
    else:
        path = game(tmp_path, declare="2 'PLAYERS", players="'PLAYERS")
        cp = recycle("run", str(path), "-n", "1", "--param", "PLAYERS=100000")
    refused(cp, "(create players 100000)", "MAX_PLAYERS")


@pytest.mark.parametrize("form", ["(repeat 10000000000 (set (game sto X) 1))",
                                  "(all (range 1..10000000000) 'I (set (game sto X) 'I))"])
def test_huge_repeat_or_range_at_run_time(tmp_path, form):
    summary = run_json(game(tmp_path, items=f"(do ({form}))"))
    assert summary["errors"] == 2
    assert "MAX_REPEAT" in summary["first_errors"][0]["error"] or "MAX_RANGE" in summary["first_errors"][0]["error"]


def test_huge_range_in_a_declare(tmp_path):
    refused(recycle("check", str(game(tmp_path, declare="(range 1..10000000000) 'R"))), "MAX_RANGE")


# ------------------------------------------------------------------ options


def test_nested_any_stops_at_the_option_limit(tmp_path):
    loops = "(any (range 1..1000) 'A (any (range 1..1000) 'B (any (range 1..1000) 'C (set (game sto X) 'C))))"
    summary = run_json(game(tmp_path, items=f"(choice ({loops}))"))
    assert summary["limit_reached"] == 2
    assert summary["limits_hit"] == ["2 games stopped at the option limit (100,000 options at one decision "
                                     "unless the game or --max-options sets another): raise it with "
                                     "--max-options N or (limits (options N)) in the game"]


def test_nested_any_without_options_stops_too(tmp_path):
    loops = "(any (range 1..100000) 'A (any (range 1..100000) 'B (if (== 'A 0) (turn pass))))"
    summary = run_json(game(tmp_path, items=f"(choice ({loops} (turn pass)))", limits="(limits (options 1000))"))
    assert summary["limit_reached"] == 2
    assert "option limit" in summary["limits_hit"][0]


def test_subsets_of_many_cards_stop_at_the_option_limit(tmp_path):
    ranks = ", ".join("R" + c for c in "ABCDEFGHIJKLMNOPQRST")  # 20 cards: 2^20 subsets
    items = "(choice ((any (subsets (game iloc STOCK)) 'S (set (game sto X) (size 'S)))))"
    summary = run_json(game(tmp_path, decks=f"(create deck (game iloc STOCK) (deck (RANK ({ranks}))))",
                            items=items, limits="(limits (options 1000))"))
    assert summary["limit_reached"] == 2


def test_atomic_stage_that_never_ends_is_bounded(tmp_path):
    items = "(atomic (stage player (end (== 1 2)) (choice ((turn pass)))) (require (== 1 1)))"
    path = game(tmp_path, items=items)
    for players in ("RR", "MM"):
        summary = run_json(path, "--players", players)
        assert summary["errors"] == 2 and "500 passes" in summary["first_errors"][0]["error"]


# ------------------------------------------------------------------ files and flags


def test_dev_zero_and_a_fifo_are_refused(tmp_path):
    refused(recycle("check", "/dev/zero"), "not a regular file")
    fifo = tmp_path / "pipe.gdl"
    os.mkfifo(fifo)
    refused(recycle("check", str(fifo)), "not a regular file")
    refused(recycle("run", str(fifo)), "not a regular file")


def test_an_oversized_game_file_is_refused(tmp_path):
    big = tmp_path / "big.gdl"
    big.write_text(";; padding\n" * 200_000)
    refused(recycle("check", str(big)), "larger than 1,000,000 bytes", "MAX_FILE_BYTES")


def test_jobs_are_capped_at_the_cpu_count(tmp_path):
    path = game(tmp_path)
    cp = recycle("run", str(path), "-n", "4", "--seed", "1", "--jobs", "1000", "--json", "-q")
    assert_clean(cp)
    assert cp.returncode == 0, cp.stderr
    assert f"--jobs 1000 capped at {cpu_count()}" in cp.stderr
    assert json.loads(cp.stdout)["games"] == 4


def test_memory_ceiling_reports_a_game_that_needs_more(tmp_path):
    """A game that fills memory under a small --max-memory ends as its own `resource` error."""
    items = "(do ((repeat 100 (create deck (game vloc X) (deck (A (" + ", ".join("V" + c for c in "ABCDEFGHIJ") \
        + ")) (B (" + ", ".join("W" + c for c in "ABCDEFGHIJ") + ")) (C (" \
        + ", ".join("U" + c for c in "ABCDEFGHIJ") + ")))))))"
    path = game(tmp_path, items=items)
    cp = recycle("run", str(path), "-n", "1", "--seed", "1", "--json", "-q", "--max-memory", "1")
    # 1 MB is below what Python itself needs: the command stops at once with the ceiling's message
    refused(cp, "memory ceiling of 1 MB", "--max-memory")


@pytest.mark.parametrize("command", ["check", "run"])
def test_definitions_nesting_or_doubling_past_the_limits(tmp_path, command):

    name = definition_name
    chain = " ".join(f"(define {name(i)} (+ 1 ({name(i + 1)})))" for i in range(3000)) + f" (define {name(3000)} 0)"
    path = game(tmp_path, "chain.gdl", limits=chain, score=f"({name(0)})")
    refused(recycle(command, str(path)), "error[limit]", "once expanded")
    doubling = " ".join(f"(define {name(i)} (+ ({name(i + 1)}) ({name(i + 1)})))" for i in range(60))
    path = game(tmp_path, "doubling.gdl", limits=f"{doubling} (define {name(60)} 1)", score=f"({name(0)})")
    refused(recycle(command, str(path)), "error[limit]", "MAX_EXPANDED_FORMS")


def test_memory_ceiling_is_set_and_inherited_by_workers():
    code = ("import resource, concurrent.futures as cf\n"
            "from recycle.cli.memory import set_memory_ceiling\n"
            "set_memory_ceiling(1000)\n"
            "def soft():\n"
            "    return resource.getrlimit(resource.RLIMIT_AS)[0]\n"
            "if __name__ == '__main__':\n"
            "    with cf.ProcessPoolExecutor(1) as pool:\n"
            "        print(soft(), pool.submit(soft).result())\n")
    cp = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=TIME_LIMIT,
                        env={**os.environ, "PYTHONPATH": str(REPO)}, preexec_fn=_limit_memory)
    assert cp.returncode == 0, cp.stderr
    assert cp.stdout.split() == [str(1000 * 1024 * 1024)] * 2


def test_a_ten_billion_cell_board_is_refused_at_check(tmp_path):
    path = game(tmp_path, items="(do ((create board (game vloc MAT) (square 100000 100000))))")
    refused(recycle("check", str(path)), "10,000,000,000 cells", "MAX_CELLS")


def test_stats_names_the_limit_that_stopped_games(tmp_path):
    path = game(tmp_path, items="(choice ((any (range 1..10) 'A (set (game sto X) 'A))))",
                limits="(limits (options 5))")
    cp = recycle("stats", str(path), "-n", "3", "--seed", "1", "--out", str(tmp_path / "out"), "-q")
    assert_clean(cp)
    assert cp.returncode == 0, cp.stderr
    assert ("3 games stopped at the option limit (100,000 options at one decision unless the game or "
            "--max-options sets another): raise it with --max-options N or (limits (options N)) in the game"
            ) in cp.stdout


def test_tournament_jobs_are_capped_and_huge_ones_do_not_overflow(tmp_path):
    """--jobs 10**20 reached a semaphore as a C int (OverflowError); now capped at the CPUs as in `run`."""
    path = game(tmp_path)
    cp = recycle("tournament", str(path), "--players", "R,F", "-n", "2", "--seed", "1", "--ai-budget", "1",
                 "--jobs", str(10**20), "--json", "-q")
    assert_clean(cp)
    assert cp.returncode == 0 and f"capped at {cpu_count()}" in cp.stderr


@pytest.mark.parametrize(("argv", "words"), [
    (["stats", "{game}", "-n", "2", "--seed", "1", "--bootstrap", str(10**14), "--out", "{tmp}/s"],
     ("--bootstrap", "more than 100,000", "MAX_BOOTSTRAP")),
    (["play", "{game}", "--players", "MR", "--seed", "1", "--move-time", "1e308"],
     ("--move-time", "more than 86,400", "MAX_MOVE_TIME")),
], ids=["bootstrap", "move-time"])
def test_counts_past_their_limit_are_refused_before_any_work(tmp_path, argv, words):
    """A bootstrap of 10**14 resamples ran out of memory after a while; a move time of 1e308 s never ended."""
    path = game(tmp_path)
    cp = recycle(*[a.replace("{game}", str(path)).replace("{tmp}", str(tmp_path)) for a in argv])
    assert cp.returncode == 2
    refused(cp, *words)
    assert not (tmp_path / "s").exists()


def test_thousands_of_large_declares_are_refused_at_the_one_that_passes(tmp_path):
    # 20,000 declares of 99,999 numbers each would build two billion numbers
    declares = "\n ".join(f"(declare (range 1..99999) 'X{chr(65 + i // 676)}{chr(65 + i // 26 % 26)}{chr(65 + i % 26)})"
                          for i in range(17_000))
    path = tmp_path / "g.gdl"
    path.write_text(f"(game\n {declares}\n (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (A, B)))))\n"
                    " (do ((turn pass)))\n (scoring max 0))\n")
    text = refused(recycle("check", str(path)), "MAX_CONST_ELEMENTS")
    assert f"{path}:12:2: error[limit]: the declares build 1,099,989 list elements up to 'XAAK" in text
