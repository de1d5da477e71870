"""`recycle new` (recycle/cli/new.py): the template and the variants it writes check and play 10 random
games; an existing file is never overwritten without --force."""
from __future__ import annotations

import errno
import os

import pytest

from recycle.cli import main
from recycle.lang import load_game
from recycle.run.batch import BatchSpec, run_batch


def play10(path, params=None) -> list:
    spec = BatchSpec(str(path), params or {}, ("R", "R"), seed=18)
    records = run_batch(spec, 10, jobs=1)
    assert [r.error for r in records] == [None] * 10
    assert all(r.end_reason == "normal" for r in records), [r.end_reason for r in records]
    return records


def test_the_template_checks_and_plays(tmp_path, capsys):
    assert main(["new", str(tmp_path / "my_first_game")]) == 0
    path = tmp_path / "my_first_game.gdl"
    assert f"wrote {path}" in capsys.readouterr().out
    text = path.read_text("utf-8")
    assert text.startswith(";; My First Game\n") and "\n;; Players: 2.\n" in text and "Parameters: HANDSIZE" in text
    loaded = load_game(path)
    assert loaded.warnings == ()
    records = play10(path)
    assert all(sum(r.scores) > 0 for r in records)


@pytest.mark.parametrize(("base", "params"), [("gin_rummy", {"TARGET": 1}), ("block_rummy", {})])
def test_a_variant_of_a_shipped_game_checks_and_plays(tmp_path, base, params):
    """A variant names its base, lists what it may change, and restates one declare to start from."""
    path = tmp_path / "mine.gdl"
    assert main(["new", str(path), "--from", base]) == 0
    text = path.read_text("utf-8")
    assert f'(game (extends "{base}")' in text and text.startswith(";; Mine\n")
    loaded = load_game(path)
    assert loaded.game.base == base
    play10(path, params)


def test_a_variant_of_a_local_file(tmp_path):
    main(["new", str(tmp_path / "base")])
    assert main(["new", str(tmp_path / "child"), "--from", str(tmp_path / "base.gdl")]) == 0
    text = (tmp_path / "child.gdl").read_text("utf-8")
    assert '(game (extends "base.gdl")' in text and "(declare 3 'HANDSIZE)" in text
    assert load_game(tmp_path / "child.gdl").game.base == "base.gdl"
    play10(tmp_path / "child.gdl")


def test_never_overwrites_without_force(tmp_path, capsys):
    path = tmp_path / "keep.gdl"
    path.write_text(";; mine\n", "utf-8")
    assert main(["new", str(path)]) == 2
    assert "exists" in capsys.readouterr().err and "--force" not in path.read_text("utf-8")
    assert path.read_text("utf-8") == ";; mine\n"
    assert main(["new", str(path), "--force"]) == 0
    assert path.read_text("utf-8").startswith(";; Keep\n")


def test_an_unknown_base_is_a_usage_error(tmp_path, capsys):
    assert main(["new", str(tmp_path / "x"), "--from", "no_such_game"]) == 2
    assert "no_such_game" in capsys.readouterr().err
    assert not (tmp_path / "x.gdl").exists()


@pytest.mark.parametrize("dialect", ["xam", "auto", "anything"])
def test_dialect_is_refused_with_the_reason(tmp_path, capsys, dialect):
    # `new` loads no game and writes modern text only: --dialect belongs to the commands that load it
    assert main(["new", str(tmp_path / "x"), "--dialect", dialect]) == 2
    err = capsys.readouterr().err
    assert f"--dialect {dialect}: `recycle new` writes the modern language only" in err
    assert "recycle check --dialect xam" in err and "Traceback" not in err
    assert not (tmp_path / "x.gdl").exists()


@pytest.mark.parametrize("name", ["", ".", "..", "sub/"])
def test_a_name_that_is_no_file_name_is_refused(tmp_path, capsys, monkeypatch, name):
    """`recycle new ""` was a ValueError from pathlib; a folder's name is no game file either."""
    monkeypatch.chdir(tmp_path)
    assert main(["new", name]) == 2
    err = capsys.readouterr().err
    assert "give the name of the game file to write" in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_a_file_that_cannot_be_written_is_left_as_it_was(tmp_path, capsys, monkeypatch):
    """A full disk: one line, no empty or half file left (the next try refused to overwrite an empty one),
    and with --force the old file is kept whole."""
    def full(src, dst):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    path = tmp_path / "mine.gdl"
    assert main(["new", str(path)]) == 2
    assert "cannot write (No space left on device)" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
    path.write_text("my own game", "utf-8")
    assert main(["new", str(path), "--force"]) == 2
    assert path.read_text("utf-8") == "my own game" and list(tmp_path.iterdir()) == [path]
    monkeypatch.undo()
    assert main(["new", str(path), "--force"]) == 0 and path.read_text("utf-8").startswith(";; Mine\n")
