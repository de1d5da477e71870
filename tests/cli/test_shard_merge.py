"""`recycle run --shard I/K` and `recycle merge` (issue 16): K shard folders merged into exactly the folder
one `recycle run` of the whole batch writes, and merges refused when a shard is missing, given twice,
unfinished or of another batch.

The game is tests/fixtures/games/deal_n.gdl (tiny); the folders are compared file by file, summary.json
without its "timing" (wall time, games/s: the only thing that differs between two runs of one seed).
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from recycle.cli import main
from recycle.cli.run import shard_runs
from recycle.version import __version__
from support import REPO, folder_files

DEAL_N = str(REPO / "tests" / "fixtures" / "games" / "deal_n.gdl")
N = 40


def run(out: Path, *extra: str, seed: str = "11", n: int = N) -> int:
    return main(["run", DEAL_N, "-n", str(n), "--seed", seed, "-q", "--out", str(out), *extra])


@pytest.fixture(scope="module")
def shards(tmp_path_factory) -> tuple[Path, list[Path]]:
    """The folder of one run of N games (--jobs 1), and the 3 shards of the same batch."""
    base = tmp_path_factory.mktemp("shards")
    assert run(base / "whole") == 0
    dirs = [base / f"shard{i}" for i in range(3)]
    for i, d in enumerate(dirs):
        assert run(d, "--shard", f"{i}/3") == 0
    return base / "whole", dirs


def test_shards_are_contiguous_blocks_covering_every_run_once():
    for n, k in ((40, 3), (7, 7), (5, 8), (1000, 6)):
        blocks = [shard_runs(n, (i, k)) for i in range(k)]
        assert [r for b in blocks for r in b] == list(range(n))
    assert shard_runs(40, (1, 3)) == range(13, 26)
    assert shard_runs(40, None) == range(40)


def test_a_shard_folder_holds_its_runs_with_their_global_numbers(shards):
    _, dirs = shards
    doc = json.loads((dirs[1] / "summary.json").read_text())
    assert doc["shard"]["index"] == 1 and doc["shard"]["of"] == 3 and doc["shard"]["runs"] == [13, 26]
    assert doc["games_kept"] == 13 and doc["games_asked"] == N and doc["complete"] is True
    rows = (dirs[1] / "games.csv").read_text().splitlines()
    assert rows[0].startswith("game,players,lineup,run,")
    assert [int(r.split(",")[3]) for r in rows[1:]] == list(range(13, 26))
    assert sorted(p.name for p in (dirs[1] / "transcripts").iterdir()) == [f"run-{r:04d}.jsonl" for r in range(13, 26)]
    assert len((dirs[1] / "shard-records.jsonl").read_text().splitlines()) == 13


def test_merge_gives_the_folder_of_one_run_byte_for_byte(shards, tmp_path, capsys):
    whole, dirs = shards
    merged = tmp_path / "merged"
    assert main(["merge", str(merged), str(dirs[2]), str(dirs[0]), str(dirs[1])]) == 0  # any order
    assert "merged 3 shards (40 games)" in capsys.readouterr().err
    want, got = folder_files(whole), folder_files(merged)
    assert sorted(got) == sorted(want)
    assert len(want) == 3 + 1 + N  # the tables, summary.json, one transcript per game
    for name in want:
        assert got[name] == want[name], name


def test_merge_matches_a_run_with_several_jobs_and_a_sharded_resume(tmp_path, monkeypatch):
    """Shards played with --jobs 2, one of them interrupted and resumed, still merge into the one-job folder."""
    from recycle.run import batch

    whole = tmp_path / "whole"
    assert run(whole, n=30) == 0
    a, b = tmp_path / "a", tmp_path / "b"
    assert run(a, "--shard", "0/2", "--jobs", "2", n=30) == 0
    real = batch.play_run

    def play(sess, spec, r):
        if r == 20:
            raise KeyboardInterrupt  # as Ctrl-C would, in the middle of shard 1
        return real(sess, spec, r)

    monkeypatch.setattr(batch, "play_run", play)
    assert run(b, "--shard", "1/2", n=30) != 0
    assert json.loads((b / "summary.json").read_text())["complete"] is False
    monkeypatch.setattr(batch, "play_run", real)
    assert run(b, "--shard", "1/2", "--resume", n=30) == 0
    assert main(["merge", str(tmp_path / "m"), str(a), str(b)]) == 0
    assert folder_files(tmp_path / "m") == folder_files(whole)


@pytest.mark.parametrize(("which", "message"), [
    (lambda d, o: [d[0], d[1]], "missing shard 2 of 3"),
    (lambda d, o: [d[0], d[1], d[1], d[2]], "shard 1 of 3 is given twice"),
    (lambda d, o: [d[0], d[1], o["seed"]], "shards of different runs: different --seed (11 and 12)"),
    (lambda d, o: [d[0], d[1], o["n"]], "shards of different runs: different -n (40 and 41)"),
    (lambda d, o: [d[0], d[1], o["param"]], "shards of different runs: different --param"),
    (lambda d, o: [d[0], d[1], o["k"]], "a shard of 3 and"),
    (lambda d, o: [d[0], d[1], d[2], o["whole"]], "the folder of a whole `recycle run`, not of a shard"),
    (lambda d, o: [d[0], d[1], o["missing"]], "no summary.json"),
])
def test_merge_refuses_shards_that_do_not_make_one_batch(shards, tmp_path_factory, capsys, which, message):
    whole, dirs = shards
    base = tmp_path_factory.getbasetemp() / "others"
    others = {"seed": base / "seed", "n": base / "n", "param": base / "param", "k": base / "k", "whole": whole,
              "missing": base / "empty"}
    if not base.exists():
        assert run(others["seed"], "--shard", "2/3", seed="12") == 0
        assert run(others["n"], "--shard", "2/3", n=N + 1) == 0
        assert run(others["param"], "--shard", "2/3", "--param", "N=2") == 0
        assert run(others["k"], "--shard", "2/4") == 0
        others["missing"].mkdir()
        capsys.readouterr()
    out = tmp_path_factory.mktemp("merged") / "out"
    assert main(["merge", str(out), *map(str, which(dirs, others))]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not out.exists()


def test_merge_refuses_an_unfinished_shard_and_a_used_folder(shards, tmp_path, capsys):
    _, dirs = shards
    doc = json.loads((dirs[2] / "summary.json").read_text())
    half = tmp_path / "half"
    half.mkdir()
    (half / "summary.json").write_text(json.dumps({**doc, "complete": False, "games_kept": 4}))
    assert main(["merge", str(tmp_path / "m"), str(dirs[0]), str(dirs[1]), str(half)]) == 2
    assert "shard 2 is not complete (4 games kept)" in capsys.readouterr().err
    used = tmp_path / "used"
    used.mkdir()
    (used / "notes.txt").write_text("mine")
    assert main(["merge", str(used), *map(str, dirs)]) == 2
    assert "is not a new or empty folder" in capsys.readouterr().err
    assert [p.name for p in used.iterdir()] == ["notes.txt"]


def test_shard_needs_an_out_folder_and_a_valid_index(capsys):
    assert main(["run", DEAL_N, "-n", "4", "--shard", "0/2"]) == 2
    assert "--shard writes a shard folder" in capsys.readouterr().err
    for bad in ("2/2", "1", "a/b", "-1/3"):
        assert main(["run", DEAL_N, "-n", "4", f"--shard={bad}", "--out", "x"]) == 2
        assert "give I/K with 0 <= I < K" in capsys.readouterr().err


def test_more_shards_than_games_leaves_empty_shards_that_merge_too(tmp_path):
    assert run(tmp_path / "whole", n=2) == 0
    dirs = [tmp_path / f"s{i}" for i in range(3)]
    for i, d in enumerate(dirs):
        assert run(d, "--shard", f"{i}/3", n=2) == 0
    assert json.loads((dirs[0] / "summary.json").read_text())["shard"]["runs"] == [0, 0]  # no game
    assert main(["merge", str(tmp_path / "m"), *map(str, dirs)]) == 0
    assert folder_files(tmp_path / "m") == folder_files(tmp_path / "whole")


def edited(shard: Path, to: Path, change) -> Path:
    """A copy of a shard folder whose summary.json went through `change` (a hand edit)."""
    shutil.copytree(shard, to)
    doc = json.loads((to / "summary.json").read_text())
    change(doc)
    (to / "summary.json").write_text(json.dumps(doc))
    return to


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.pop("summary"), "summary.file is null"),
    (lambda d: d.update(version=4), "version is 4"),
    (lambda d: d.update(players=1.5), "players is 1.5"),
    (lambda d: d["timing"].update(wall_s="t.gdl"), 'timing.wall_s is "t.gdl"'),
    (lambda d: d["shard"].pop("of"), "shard.of is null"),
    (lambda d: d["shard"].update(runs=[26, 13]), "shard.runs is [26, 13]"),
    (lambda d: d.update(interpreter="9.9"), "different versions of recycle ('0.1.0' and '9.9')"),
    (lambda d: d.update(players="x" * 500), 'players is "xxx'),
], ids=["no-summary", "version", "players", "wall_s", "of", "runs", "interpreter", "long"])
def test_merge_refuses_a_shard_summary_edited_by_hand(shards, tmp_path, capsys, change, message):
    """Each field merge reads is checked first: one line naming it, never a KeyError or TypeError."""
    _, dirs = shards
    bad = edited(dirs[1], tmp_path / "bad", change)
    message = message.replace("0.1.0", __version__)
    assert main(["merge", str(tmp_path / "m"), str(dirs[0]), str(bad), str(dirs[2])]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert len(err) < 300  # a long value is cut short
    assert not (tmp_path / "m").exists()


@pytest.mark.parametrize(("line", "message"), [
    ('{"run": 13', "line 1 is not a record of recycle"),
    ("[1, 2]", "not a record"),
    ('{"run": 13, "decisions": ""}', "field 'game_seed' is null"),
], ids=["torn", "list", "types"])
def test_merge_refuses_shard_records_edited_by_hand(shards, tmp_path, capsys, line, message):
    _, dirs = shards
    bad = tmp_path / "bad"
    shutil.copytree(dirs[1], bad)
    (bad / "shard-records.jsonl").write_text(line + "\n")
    assert main(["merge", str(tmp_path / "m"), str(dirs[0]), str(bad), str(dirs[2])]) == 2
    err = capsys.readouterr().err
    assert message in err and "does not hold runs 13..25 of shard 1" in err and "Traceback" not in err
