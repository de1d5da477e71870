"""`recycle stats --shard I/K` and `recycle merge` of stats shards (issue 16): the K shard folders merged
into exactly the folder one `recycle stats --jobs 1` of the whole batch writes (tables, transcripts,
summary.json, branching/seats CSVs, heuristics, flow diagrams and plots), and merges refused when run and
stats shards are mixed or the shards were made with different options.

The game is tests/fixtures/games/deal_n.gdl (tiny); summary.json is compared without its "timing" block
(wall time, per-game times, games/s: the only thing that differs between two batches of one seed).
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from recycle.cli import main
from recycle.run.tables import transcript_name
from support import REPO, folder_files

DEAL_N = str(REPO / "tests" / "fixtures" / "games" / "deal_n.gdl")
N = 12


def stats(out: Path, *extra: str, seed: str = "5") -> int:
    return main(["stats", DEAL_N, "-n", str(N), "--seed", seed, "-q", "--bootstrap", "50", "--out", str(out),
                 *extra])


@pytest.fixture(scope="module")
def shards(tmp_path_factory) -> tuple[Path, list[Path]]:
    base = tmp_path_factory.mktemp("stats-shards")
    assert stats(base / "whole") == 0
    dirs = [base / f"s{i}" for i in range(3)]
    for i, d in enumerate(dirs):
        assert stats(d, "--shard", f"{i}/3") == 0
    return base / "whole", dirs


def test_a_stats_shard_holds_its_runs_and_leaves_the_batch_files_to_merge(shards):
    _, dirs = shards
    doc = json.loads((dirs[1] / "summary.json").read_text())
    assert doc["format"] == "recycle-analytics" and doc["complete"] is True
    assert doc["shard"]["command"] == "stats" and doc["shard"]["runs"] == [4, 8]
    assert sorted(p.name for p in (dirs[1] / "transcripts").iterdir()) == [transcript_name(r) for r in range(4, 8)]
    assert (dirs[1] / "shard-records.jsonl").is_file()
    assert not (dirs[1] / "seats.csv").exists() and not (dirs[1] / "flow.svg").exists()


def test_merge_gives_the_folder_of_one_stats_batch_byte_for_byte(shards, tmp_path):
    whole, dirs = shards
    out = tmp_path / "merged"
    assert main(["merge", str(out), *map(str, reversed(dirs))]) == 0
    want, got = folder_files(whole), folder_files(out)
    assert sorted(got) == sorted(want)
    assert {"flow.svg", "flow-aggregate.json", "winrate.png", "heuristics.json", "seats.csv"} <= set(got)
    for name in want:
        assert got[name] == want[name], name
    # the timing starts from the shards' time added up (the merge adds only its own few milliseconds)
    timing = json.loads((out / "summary.json").read_text())["timing"]
    shard_s = sum(json.loads((d / "summary.json").read_text())["timing"]["wall_s"] for d in dirs)
    assert shard_s <= timing["wall_seconds"] < shard_s + 5


def test_merge_refuses_mixing_run_and_stats_shards(shards, tmp_path, capsys):
    _, dirs = shards
    run0 = tmp_path / "r0"
    assert main(["run", DEAL_N, "-n", str(N), "--seed", "5", "-q", "--out", str(run0), "--shard", "0/3"]) == 0
    capsys.readouterr()
    assert main(["merge", str(tmp_path / "m"), str(run0), str(dirs[1]), str(dirs[2])]) == 2
    assert "mix shards of `recycle run` and of `recycle stats`" in capsys.readouterr().err
    assert not (tmp_path / "m").exists()


@pytest.mark.parametrize(("extra", "message"), [
    (("--bootstrap", "60"), "different --bootstrap (50 and 60)"),
    (("--plot-format", "svg"), "different --plot-formats"),
])
def test_merge_refuses_stats_shards_made_with_different_options(shards, tmp_path, capsys, extra, message):
    _, dirs = shards
    other = tmp_path / "other"
    args = ["stats", DEAL_N, "-n", str(N), "--seed", "5", "-q", "--out", str(other), "--shard", "2/3"]
    if extra[0] != "--bootstrap":
        args += ["--bootstrap", "50"]
    assert main([*args, *extra]) == 0
    capsys.readouterr()
    assert main(["merge", str(tmp_path / "m"), str(dirs[0]), str(dirs[1]), str(other)]) == 2
    assert message in capsys.readouterr().err


def test_stats_shard_needs_an_out_folder_and_no_heuristics(capsys):
    assert main(["stats", DEAL_N, "-n", "4", "-q", "--shard", "0/2"]) == 2
    assert "give --out DIR" in capsys.readouterr().err
    assert main(["stats", DEAL_N, "-n", "4", "-q", "--shard", "0/2", "--heuristics", "--out", "x"]) == 2
    assert "--heuristics" in capsys.readouterr().err


def test_merge_reads_every_stats_record_before_writing(shards, tmp_path, capsys):
    """A stats shard's records edited by hand are refused by merge itself, naming the shard, before the merged
    folder is made (they reached the statistics of `stats --resume` as a TypeError)."""
    _, dirs = shards
    bad = tmp_path / "bad"
    shutil.copytree(dirs[2], bad)
    lines = (bad / "shard-records.jsonl").read_text().splitlines()
    rec = json.loads(lines[1])
    rec["ranks"] = ["\x00"] * len(rec["lineup"])
    lines[1] = json.dumps(rec)
    (bad / "shard-records.jsonl").write_text("\n".join(lines) + "\n")
    assert main(["merge", str(tmp_path / "m"), str(dirs[0]), str(dirs[1]), str(bad)]) == 2
    err = capsys.readouterr().err
    assert "line 2 is not a record of recycle (field 'ranks' is" in err and "does not hold runs 8..11 of shard 2" in err
    assert not (tmp_path / "m").exists()


def test_a_stats_shard_table_without_its_header_line_is_refused(shards, tmp_path, capsys):
    """The shards' tables and records are copied a megabyte at a time (a big batch's need not fit in memory):
    a table cut before the end of its header line is refused naming it (its size is not the one its records
    make, checked before anything is written), and no partial file stays behind."""
    _, dirs = shards
    bad = tmp_path / "bad"
    shutil.copytree(dirs[1], bad)
    (bad / "decisions.csv").write_bytes(b"game,players")
    out = tmp_path / "m"
    assert main(["merge", str(out), str(dirs[0]), str(bad), str(dirs[2])]) == 2
    assert f"{bad}/decisions.csv: damaged (12 bytes, where the records of its " in capsys.readouterr().err
    assert not out.exists()


def test_stats_with_two_workers_writes_the_folder_of_one(shards, tmp_path):
    """Games played by two worker processes reach the tally in run order: every file is the same."""
    whole, _ = shards
    out = tmp_path / "jobs2"
    assert stats(out, "--jobs", "2") == 0
    want, got = folder_files(whole), folder_files(out)
    assert sorted(got) == sorted(want)
    for name in want:
        assert got[name] == want[name], name
