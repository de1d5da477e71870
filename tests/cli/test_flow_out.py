"""`recycle flow --out` writes like `recycle run` and `recycle stats` (issue 13, docs/results.md): a non-empty
folder is refused unless --force, which removes flow's own files only; files are moved in through the
folder (never through a symlink, never outside it); `--out ''` is a usage error."""
from __future__ import annotations

import errno
import json
import os
import shutil
import signal
from pathlib import Path

from recycle.cli import flow as flow_cli
from recycle.cli import main
from support import REPO

HIGH_CARD = str(REPO / "tests" / "fixtures" / "games" / "high_card.gdl")
HAS_DOT = shutil.which("dot") is not None


def flow(out, *extra: str) -> list[str]:
    return ["flow", HIGH_CARD, "--seed", "4", "--format", "svg", "-q", "--out", str(out), *extra]


def own(out) -> list[str]:
    return ["flow.dot", "flow.json"] + (["flow.svg"] if HAS_DOT else [])


def test_non_empty_out_is_refused_and_force_removes_only_flows_files(tmp_path, capsys):
    out = tmp_path / "f"
    assert main(flow(out)) == 0
    first = {n: (out / n).read_bytes() for n in own(out)}
    assert sorted(p.name for p in out.iterdir()) == sorted(own(out))  # no temporary file or staging folder left
    capsys.readouterr()
    # a second run is refused, naming what is there, and changes nothing
    assert main(flow(out)) == 2
    err = capsys.readouterr().err
    assert "is not empty" in err and "flow.dot" in err and "--force" in err and "--resume" not in err
    assert {n: (out / n).read_bytes() for n in own(out)} == first
    # --force replaces flow's files (an old image format too) and keeps the user's
    (out / "notes.txt").write_text("mine")
    (out / "flow.png").write_bytes(b"an image of an earlier run")
    assert main(flow(out, "--force")) == 0
    err = capsys.readouterr().err
    assert f"removed {len(own(out)) + 1} files" in err
    assert (out / "notes.txt").read_text() == "mine" and not (out / "flow.png").exists()
    assert {n: (out / n).read_bytes() for n in own(out)} == first  # the same seed draws the same files
    assert sorted(p.name for p in out.iterdir()) == sorted([*own(out), "notes.txt"])


def test_empty_out_is_a_usage_error(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["flow", HIGH_CARD, "--seed", "4", "--out", ""]) == 2
    err = capsys.readouterr().err
    assert "give a folder name" in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_force_removes_a_symlink_never_its_target(tmp_path, capsys):
    secret = tmp_path / "secret.txt"
    secret.write_text("precious")
    out = tmp_path / "f"
    out.mkdir()
    (out / "flow.json").symlink_to(secret)
    assert main(flow(out)) == 2  # not empty: refused
    assert main(flow(out, "--force")) == 0
    assert secret.read_text() == "precious"
    assert not (out / "flow.json").is_symlink() and json.loads((out / "flow.json").read_text())["nodes"]


def test_a_symlink_planted_while_drawing_is_refused(tmp_path, monkeypatch, capsys):
    """A link that appears in the folder after the check is never written through: the command stops."""
    secret = tmp_path / "secret.txt"
    secret.write_text("precious")
    out = tmp_path / "f"
    real = flow_cli.write_flow_files

    def draw(*a, **kw):
        (out / "flow.json").symlink_to(secret)
        return real(*a, **kw)

    monkeypatch.setattr(flow_cli, "write_flow_files", draw)
    assert main(flow(out)) == 2
    err = capsys.readouterr().err
    assert "symlink" in err and "Traceback" not in err
    assert secret.read_text() == "precious"
    assert [p.name for p in out.iterdir() if "tmp-recycle" in p.name] == []  # the staging folder is gone


def test_out_may_be_a_symlink_the_user_chose_and_files_stay_inside(tmp_path, capsys):
    real_dir = tmp_path / "real"
    real_dir.mkdir()
    (tmp_path / "link").symlink_to(real_dir, target_is_directory=True)
    assert main(flow(tmp_path / "link", "--json")) == 0
    doc = json.loads(capsys.readouterr().out)
    assert sorted(p.name for p in real_dir.iterdir()) == sorted(own(real_dir))
    assert doc["files"] == [str(tmp_path / "link" / n) for n in own(real_dir)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link", "real"]


def test_output_file_is_never_replaced_silently(tmp_path, capsys):
    """-o FILE: an existing file is refused (it may be the user's) unless --force; -o and --out exclude each other."""
    target = tmp_path / "mine.svg"
    target.write_text("the user's own drawing", "utf-8")
    assert main(["flow", HIGH_CARD, "-n", "3", "--seed", "4", "-o", str(target)]) == 2
    assert "pass --force" in capsys.readouterr().err
    assert target.read_text("utf-8") == "the user's own drawing"
    assert main(["flow", HIGH_CARD, "-n", "3", "--seed", "4", "-o", str(target), "--force"]) == 0
    assert target.read_text("utf-8").lstrip().startswith(("<?xml", "<svg"))
    assert main(["flow", HIGH_CARD, "-n", "3", "--seed", "4", "-o", str(tmp_path / "b.svg"),
                 "--out", str(tmp_path / "d")]) == 2


def test_an_interrupted_flow_draws_the_games_it_finished(tmp_path, capsys, monkeypatch):
    """Ctrl-C during game 4 of 1,000: the game being played is abandoned, the three finished are drawn
    (as `run` and `stats` keep theirs), status 130; interrupted before any game ends, nothing is written."""
    real = flow_cli.play_run

    def interrupted_at(n):
        def play(sess, spec, r):
            if r == n:
                os.kill(os.getpid(), signal.SIGINT)
            return real(sess, spec, r)
        return play

    monkeypatch.setattr(flow_cli, "play_run", interrupted_at(3))
    out = tmp_path / "f"
    assert main(flow(out, "-n", "1000")) == 130
    err = capsys.readouterr().err
    assert "interrupted by SIGINT: drawing the 3 of 1000 games finished" in err
    assert json.loads((out / "flow.json").read_text())["graph"]["runs"] == 3
    monkeypatch.setattr(flow_cli, "play_run", interrupted_at(0))
    out = tmp_path / "g"
    assert main(flow(out, "-n", "1000")) == 130
    assert "no game was finished; nothing written" in capsys.readouterr().err
    assert not out.exists()


def test_a_drawing_that_cannot_be_written_leaves_no_half_file(tmp_path, capsys, monkeypatch):
    """A full disk while flow.dot is written: one line naming the output folder (not the staging folder),
    and no empty flow.dot published as if drawn."""
    def full_disk(graph, stem, formats, **kw):
        Path(f"{stem}.dot").write_text("")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(flow_cli, "write_flow", full_disk)
    out = tmp_path / "f"
    assert main(flow(out)) == 1
    err = capsys.readouterr().err
    assert f"cannot write {out}/flow.*: No space left on device" in err and "staging" not in err
    assert list(out.iterdir()) == []
