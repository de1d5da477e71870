"""Red team: the command line used by a hostile or careless user (counts past any batch, outputs that are
FIFOs or full devices, JSON nested without end, an input that never ends a line, files the user keeps).
Each case asserts the status, the first line of the message and that no trace is printed."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from recycle.cli import main
from support import FIXTURES
from support.sandbox import run_cli

GAME = FIXTURES / "games" / "deal_n.gdl"


def refused(capsys, argv: list, code: int) -> str:
    """Run `recycle ARGV` in this process; the status must be `code` and stderr one line, no trace."""
    assert main([str(a) for a in argv]) == code
    err = capsys.readouterr().err
    assert "Traceback" not in err and "internal error" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize("command", ["run", "stats", "flow"])
def test_a_game_count_past_any_batch_is_refused_before_playing(tmp_path, capsys, command):
    """-n 10**23 raised OverflowError (a bug, status 70) once the batch started; now a limit, named."""
    first = refused(capsys, [command, GAME, "-n", "9" * 23, "--seed", "1", "-q", "--out", tmp_path / "o"], 2)
    assert first.startswith(f"error: recycle {command}: argument ") and "MAX_BATCH_GAMES" in first
    assert not (tmp_path / "o").exists()


DEEP = "[" * 100_000 + "]" * 100_000  # valid JSON nested past Python's recursion limit


def test_merge_of_a_shard_whose_summary_is_nested_without_end(tmp_path, capsys):
    for i in (0, 1):
        assert main(["run", str(GAME), "-n", "2", "--seed", "1", "-q", "--shard", f"{i}/2",
                     "--out", str(tmp_path / f"s{i}")]) == 0
    capsys.readouterr()
    (tmp_path / "s1" / "summary.json").write_text(DEEP, "utf-8")
    first = refused(capsys, ["merge", tmp_path / "m", tmp_path / "s0", tmp_path / "s1"], 2)
    assert first == f"error: {tmp_path / 's1'}/summary.json: damaged (not JSON)"
    assert not (tmp_path / "m").exists()


def test_resume_of_a_state_nested_without_end(tmp_path, capsys):
    out = tmp_path / "o"
    out.mkdir()
    (out / ".recycle-resume.json").write_text(DEEP, "utf-8")
    first = refused(capsys, ["run", GAME, "-n", "2", "--seed", "1", "-q", "--out", out, "--resume"], 2)
    assert first.startswith(f"error: {out}/.recycle-resume.json: damaged (not JSON)")
    assert (out / ".recycle-resume.json").read_text("utf-8") == DEEP  # the user's folder as it was


def test_tournament_resume_of_settings_nested_without_end(tmp_path, capsys):
    pytest.importorskip("openskill", reason="the tournament extra (openskill) is not installed")
    out = tmp_path / "t"
    out.mkdir()
    (out / "tournament.json").write_text(DEEP, "utf-8")
    first = refused(capsys, ["tournament", GAME, "--players", "R,F", "-q", "--out", out, "--resume"], 2)
    assert first == f"error: --resume: {out}/tournament.json cannot be read (arrays or objects nested too deeply)"


def _transcript(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    res = run_cli(["play", GAME, "--players", "RR", "--seed", "1", "--transcript", "t.jsonl"], cwd=folder)
    assert res.code == 0, res.err
    return folder / "t.jsonl"


@pytest.mark.parametrize(("argv", "flag"), [
    (["play", GAME, "--players", "RR", "--seed", "1", "--transcript", "fifo", "--force"], "--transcript"),
    (["flow", GAME, "-n", "1", "--seed", "1", "-q", "-o", "fifo.svg", "--force"], "-o"),
    (["view", "t.jsonl", "--no-open", "-o", "fifo", "--force"], "-o"),
], ids=["play", "flow", "view"])
def test_an_output_that_is_a_fifo_nobody_reads_is_refused_not_waited_on(tmp_path, argv, flag):
    """Writing into a FIFO with no reader waited forever (--force lets an existing file be replaced)."""
    _transcript(tmp_path)
    name = argv[argv.index(flag) + 1]
    os.mkfifo(tmp_path / name)
    res = run_cli(argv, cwd=tmp_path, timeout=60)
    res.assert_refused(2, f"{flag} {name}: a FIFO that no process reads", max_lines=2)
    assert res.err.strip().splitlines()[-1].startswith(f"error: {flag} {name}: a FIFO that no process reads")


def test_a_fifo_with_a_reader_gets_the_transcript(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    reader = subprocess.Popen(["cat", str(tmp_path / "fifo")], stdout=subprocess.PIPE)
    res = run_cli(["play", GAME, "--players", "RR", "--seed", "1", "--transcript", "fifo", "--force"],
                  cwd=tmp_path, timeout=60)
    got, _ = reader.communicate(timeout=60)
    assert res.code == 0, res.err
    assert got.decode("utf-8").splitlines()[0].startswith('{"type":"header"')


def test_view_onto_a_full_device_is_one_message(tmp_path):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    _transcript(tmp_path)
    res = run_cli(["view", "t.jsonl", "--game", GAME, "--no-open", "-o", "/dev/full", "--force"], cwd=tmp_path,
                  timeout=60)
    res.assert_refused(1, "error: cannot write the page /dev/full: No space left on device")


@pytest.mark.parametrize(("name", "first"), [
    ("mine.png", "error: --plot {p}: the file exists; not overwritten (use --force to replace it)"),
    ("plot.exe", "error: --plot {p}: the extension chooses the format: .png, .svg, .pdf"),
])
def test_tournament_plot_never_replaces_a_file_and_is_checked_before_playing(tmp_path, capsys, name, first):
    """--plot wrote over any file without a word, and a format it cannot draw failed after every game."""
    pytest.importorskip("openskill", reason="the tournament extra (openskill) is not installed")
    plot = tmp_path / name
    if name == "mine.png":
        plot.write_text("the user's own file", "utf-8")
    got = refused(capsys, ["tournament", GAME, "--players", "R,F", "--ai-budget", "1", "-n", "1", "--seed", "1",
                           "-q", "--out", tmp_path / "t", "--plot", plot], 2)
    assert got == first.format(p=plot)
    assert not (tmp_path / "t").exists()  # refused before the tournament started
    if name == "mine.png":
        assert plot.read_text("utf-8") == "the user's own file"
        assert main(["tournament", str(GAME), "--players", "R,F", "--ai-budget", "1", "-n", "1", "--seed", "1",
                     "-q", "--plot", str(plot), "--force"]) == 0
        assert plot.read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize("table", ["games.csv", "decisions.csv", "results.csv"])
@pytest.mark.parametrize("command", ["run", "stats"])
def test_merge_of_a_shard_whose_table_was_cut_short(tmp_path, capsys, command, table):
    """A shard's tables are copied as they are: one cut at a line's end made a merged folder that lacked games
    and said `merged 2 shards (4 games)`."""
    extra = ["--plot-format", "svg", "--flow-format", "svg", "--bootstrap", "20"] if command == "stats" else []
    for i in (0, 1):
        assert main([command, str(GAME), "-n", "4", "--seed", "1", "-q", "--shard", f"{i}/2", *extra,
                     "--out", str(tmp_path / f"s{i}")]) == 0
    capsys.readouterr()
    path = tmp_path / "s1" / table
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:-1]))  # the last row gone, the file still ends a line
    first = refused(capsys, ["merge", tmp_path / "m", tmp_path / "s0", tmp_path / "s1"], 2)
    assert first.startswith(f"error: {path}: damaged ({len(b''.join(lines[:-1])):,} bytes, where the records of "
                            "its 2 games make ")
    assert not (tmp_path / "m").exists()


@pytest.mark.parametrize(("argv", "first"), [
    (["check", ""], "error: check: a PATH is an empty name: give a game file or a folder (. for this one)"),
    (["run", "", "-n", "1"], "error: the game is an empty name: give a game file or a shipped game name"),
    (["flow", ""], "error: the game is an empty name: give a game file or a shipped game name"),
], ids=["check", "run", "flow"])
def test_an_empty_game_name_is_not_the_current_folder(tmp_path, capsys, monkeypatch, argv, first):
    """`recycle check "$GAME"` with GAME unset checked every file of the current folder; run said ": is a
    directory"."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "other.gdl").write_text("(game)", "utf-8")
    assert refused(capsys, argv, 2) == first


def test_a_symlink_loop_as_the_game_is_named_as_such(tmp_path, capsys):
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    first = refused(capsys, ["run", tmp_path / "a", "-n", "1"], 2)
    assert first == f"error: {tmp_path / 'a'}: a symbolic link to no file (it leads nowhere, or around a loop)"


def test_an_interrupted_tournament_says_what_it_kept_and_how_to_go_on(tmp_path, capsys, monkeypatch):
    """Ctrl-C said only "interrupted"; the games finished are in games.csv and --resume plays the rest."""
    pytest.importorskip("openskill", reason="the tournament extra (openskill) is not installed")
    from recycle.run import tournament as tm

    played = tm.play

    def two_then_ctrl_c(*a, **kw):
        for k, rec in enumerate(played(*a, **kw)):
            if k == 2:
                raise KeyboardInterrupt
            yield rec

    monkeypatch.setattr(tm, "play", two_then_ctrl_c)
    out = tmp_path / "t"
    argv = ["tournament", GAME, "--players", "R,F", "--ai-budget", "1", "-n", "3", "--seed", "1", "-q", "--out", out]
    assert main([str(a) for a in argv]) == 130
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.splitlines()[-1] == (f"interrupted: kept 2 of 4 games in {out}/; to finish them, run the same "
                                    "command again with --resume")
    assert len(tm.read_games(out / "games.csv", 2)) == 2
    monkeypatch.setattr(tm, "play", played)
    assert main([str(a) for a in argv] + ["--resume"]) == 0
    assert len(tm.read_games(out / "games.csv", 2)) == 4


def test_a_ray_address_ray_cannot_read_is_one_message(tmp_path):
    """Ray raises ValueError for an address of the wrong form: it reached the user as a bug report."""
    pytest.importorskip("ray", reason="the ray extra is not installed")
    res = run_cli(["run", GAME, "-n", "1", "--seed", "1", "-q", "--backend", "ray", "--address", "x:y:z"],
                  cwd=tmp_path, timeout=60)
    res.assert_refused(2, max_lines=2)
    assert res.err.strip().splitlines()[-1].startswith("error: --address x:y:z: cannot join the Ray cluster (")


@pytest.mark.parametrize("name", ["mine.gdl", "link.gdl"])
def test_new_never_replaces_the_game_it_builds_on(tmp_path, capsys, name):
    """`recycle new mine.gdl --from mine.gdl --force` replaced the user's game by a variant of itself (a
    circle that no longer loads): its text was lost."""
    mine = tmp_path / "mine.gdl"
    text = GAME.read_text("utf-8")
    mine.write_text(text, "utf-8")
    (tmp_path / "link.gdl").symlink_to(mine)
    first = refused(capsys, ["new", tmp_path / name, "--from", mine, "--force"], 2)
    assert first == (f"error: {tmp_path / name}: is the game --from {mine} names; a variant cannot replace the "
                     "game it builds on (give the variant another name)")
    assert mine.read_text("utf-8") == text


def test_a_number_of_more_digits_than_python_reads_is_named_as_such(capsys):
    """--seed of 5,000 nines was "expected a whole number", quoting all 5,000 digits."""
    first = refused(capsys, ["run", GAME, "-n", "1", "--seed", "9" * 5000], 2)
    assert first == ("error: recycle run: argument --seed: a seed: 9999999999999999999… has 5,000 digits, more than "
                     "a number here may have (see `recycle run --help`)")
    assert len(refused(capsys, ["run", GAME, "-n", "x" * 5000], 2)) < 200


@pytest.mark.parametrize(("param", "start"), [
    ("N=" + "x" * 50_000, "error: parameter N: expected an integer, got 'xxxx"),
    ("N=" + "9" * 5_000, "error: parameter N: '9999"),
    ("X" * 50_000 + "=1", "error: unknown parameter 'XXXX"),
], ids=["not-a-number", "too-many-digits", "unknown-name"])
def test_a_param_value_is_quoted_cut_short(capsys, param, start):
    """A --param of 50,000 characters came back whole in its error line."""
    first = refused(capsys, ["run", GAME, "-n", "1", "--param", param], 2)
    assert first.startswith(start) and "…'" in first and len(first) < 300


def test_terminal_escapes_in_file_names_never_reach_the_terminal(tmp_path, capsys):
    """`recycle check games/` printed each file's name as it is: a name holding ESC [2J cleared the screen."""
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "a\x1b[2Jb.gdl").write_text(GAME.read_text("utf-8"), "utf-8")
    (folder / "c\x1b[2Jd.gdl").write_text("(game", "utf-8")
    assert main(["check", str(folder)]) == 1
    out = capsys.readouterr().out
    assert "\x1b" not in out
    assert f"{folder}/a\ufffd[2Jb.gdl: ok" in out.splitlines()
    assert f"{folder}/c\ufffd[2Jd.gdl: 1 error" in out.splitlines()
    first = refused(capsys, ["run", str(tmp_path / "x\x1b[31mred"), "-n", "1"], 2)
    assert "\x1b" not in first and "x\ufffd[31mred: no such file" in first
