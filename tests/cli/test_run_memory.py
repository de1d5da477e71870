"""`recycle run` in bounded memory: its summary is tallied game by game (analysis.tally.RunTally) and no
record is kept once written, yet `--json`, the table and summary.json say exactly what run_summary of
every record says, whichever way the batch was played (--jobs, --resume, --shard and `recycle merge`).
"""
from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

from recycle.cli import batches, main
from recycle.cli.run import print_run_table
from recycle.run.batch import BatchSpec, iter_batch, run_batch
from recycle.run.session import GameSession
from support import FIXTURES, GAMES
from support.memory import traced
from support.summary_oracle import run_summary

DEAL_N = FIXTURES / "games" / "deal_n.gdl"
RISKY = FIXTURES / "games" / "risky.gdl"
TIMING = ("elapsed_s", "games_per_s", "decisions_per_s")


def reference(game: Path, n: int, seed: int, limit: int | None = None) -> dict:
    """run_summary of the batch's records, played apart (elapsed 1.0: the timing is compared apart)."""
    sess = GameSession.open(game)
    lineup = ("R",) * sess.n_players
    records = run_batch(BatchSpec(str(game), {}, lineup, seed, max_decisions=limit), n, session=sess)
    return run_summary(sess.name, str(sess.path), lineup, seed, sess.n_players, records, 1.0, sess.prog.direction)


def untimed(summary: dict) -> str:
    return json.dumps({k: v for k, v in summary.items() if k not in TIMING}, indent=2)


@pytest.mark.parametrize(("game", "n", "extra", "code"), [
    (DEAL_N, 300, ["--jobs", "2"], 0),
    (RISKY, 200, [], 1),
    (GAMES / "block_rummy.gdl", 20, ["--max-decisions", "12"], 0),
], ids=["deal_n_jobs2", "risky_errors", "block_rummy_limit"])
def test_json_table_and_summary_json_are_run_summary_of_every_record(game, n, extra, code, tmp_path, capsys):
    limit = int(extra[1]) if extra[:1] == ["--max-decisions"] else None
    want = reference(game, n, 9, limit)
    assert main(["run", str(game), "-n", str(n), "--seed", "9", "--json", *extra]) == code
    got = json.loads(capsys.readouterr().out)
    assert untimed(got) == untimed(want)
    assert main(["run", str(game), "-n", str(n), "--seed", "9", "--out", str(tmp_path / "o"), *extra]) == code
    table = capsys.readouterr().out
    doc = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert json.dumps(doc["summary"], indent=2) == untimed(want)
    assert doc["games_kept"] == n and doc["complete"] is True
    print_run_table({**want, "games_per_s": doc["timing"]["games_per_s"],
                     "decisions_per_s": doc["timing"]["decisions_per_s"]})
    assert capsys.readouterr().out in table


def test_resumed_and_merged_runs_summarise_every_record(tmp_path, capsys, monkeypatch):
    from recycle.run import batch

    want = untimed(reference(RISKY, 60, 4))
    real = batch.play_run

    def play(sess, spec, r):  # SIGINT as run 25 is played: the run stops, keeping 25 games
        if r == 25:
            os.kill(os.getpid(), signal.SIGINT)
        return real(sess, spec, r)

    argv = ["run", str(RISKY), "-n", "60", "--seed", "4", "-q", "--out"]
    monkeypatch.setattr(batch, "play_run", play)
    assert main([*argv, str(tmp_path / "r")]) == 130
    assert json.loads((tmp_path / "r" / "summary.json").read_text())["games_kept"] == 25
    monkeypatch.undo()
    assert main([*argv, str(tmp_path / "r"), "--resume"]) == 1
    doc = json.loads((tmp_path / "r" / "summary.json").read_text())
    assert json.dumps(doc["summary"], indent=2) == want
    for i in range(3):
        assert main([*argv, str(tmp_path / f"s{i}"), "--shard", f"{i}/3"]) == 1
    assert main(["merge", str(tmp_path / "m"), *(str(tmp_path / f"s{i}") for i in range(3))]) == 0
    doc = json.loads((tmp_path / "m" / "summary.json").read_text())
    assert json.dumps(doc["summary"], indent=2) == want and doc["games_kept"] == 60
    capsys.readouterr()


BOUND = 3_000_000  # bytes: the most `recycle run` of a two-decision game may hold at once, for any -n


def test_memory_does_not_grow_with_the_batch(capsys):
    """20,000 games of a two-decision game played by two workers stay below BOUND at their peak in the
    command's process, which the records of a fifth of that batch, kept in a list, already pass
    (measured here; about 1 KB a record).  With --out the peak is a little higher (the rows of the games
    played since the last commit, half a second of play) and does not grow with the batch either."""
    game = str(DEAL_N)
    argv = ["run", game, "--param", "N=1", "--seed", "1", "--json", "--jobs", "2", "-n"]
    assert main([*argv, "50"]) == 0  # imports and caches outside the measure
    capsys.readouterr()
    codes: list[int] = []
    _, peak = traced(lambda: codes.append(main([*argv, "20000"])))
    summary = json.loads(capsys.readouterr().out)
    assert codes == [0] and summary["games"] == 20_000 and summary["branching"]["decisions"] == 40_000
    assert peak < BOUND, peak
    sess = GameSession.open(DEAL_N, {"N": 1})
    spec = BatchSpec(game, {"N": 1}, ("R", "R"), 1)
    kept: list = []
    held, _ = traced(lambda: kept.extend(iter_batch(spec, range(4_000), 1, sess)))
    assert len(kept) == 4_000 and held > BOUND, held


def test_the_lineups_of_a_batch_are_not_walked_game_by_game(capsys, monkeypatch):
    """The long-run estimate reads a batch's lineup once with its number of games: `-n 10**12` starts
    playing at once (it walked a trillion lineups first)."""
    seen: list = []

    def stop(sess, lineups, *rest):
        seen.append(lineups)
        raise KeyboardInterrupt
    monkeypatch.setattr(batches, "warn_if_long", stop)
    assert main(["run", str(DEAL_N), "-n", str(10**12), "--seed", "1", "--players", "R,R"]) == 130
    assert seen == [{("R", "R"): 10**12}]


def test_a_damaged_journal_is_refused_as_it_is_read(tmp_path, capsys, monkeypatch):
    """The kept records are read back one at a time: one out of order stops --resume and merge with one line."""
    from recycle.run import batch
    from recycle.run.tables import RECORDS

    real = batch.play_run

    def play(sess, spec, r):
        if r == 5:
            os.kill(os.getpid(), signal.SIGINT)
        return real(sess, spec, r)

    argv = ["run", str(DEAL_N), "-n", "8", "--seed", "2", "-q", "--out"]
    monkeypatch.setattr(batch, "play_run", play)
    assert main([*argv, str(tmp_path / "r")]) == 130
    monkeypatch.undo()
    journal = tmp_path / "r" / RECORDS
    journal.write_text(journal.read_text().replace('"run":3,', '"run":7,'))
    assert main([*argv, str(tmp_path / "r"), "--resume"]) == 2
    assert "does not hold the 5 games recorded as kept" in capsys.readouterr().err
    for i in range(2):
        assert main([*argv, str(tmp_path / f"s{i}"), "--shard", f"{i}/2"]) == 0
    shard = tmp_path / "s1" / "shard-records.jsonl"
    shard.write_text(shard.read_text().replace('"run":5,', '"run":1,'))
    assert main(["merge", str(tmp_path / "m"), str(tmp_path / "s0"), str(tmp_path / "s1")]) == 2
    assert "shard-records.jsonl: does not hold runs 4..7 of shard 1" in capsys.readouterr().err
