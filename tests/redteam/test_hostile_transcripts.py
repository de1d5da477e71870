"""Red team: `recycle replay` of crafted transcripts (issue 13), each run as a subprocess under time,
memory and file-size limits (tests/support/sandbox.py).

A transcript never chooses the file opened: the game comes from --game, or from a path inside the
transcript's folder (no absolute path, no `..`, no symbolic link leading out), or is a shipped game
by name; its digest is checked before any further line is read; a malformed transcript is one
`error:` line and status 2, never a traceback; nothing is written; no line of a file that is not
the game is ever printed, with or without --force; messages do not depend on the folder used.
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import shutil
from pathlib import Path

import pytest

from recycle.cli import main
from support import FIXTURES
from support.sandbox import run_cli

PASSWD = Path("/etc/passwd")
SECRET = "root:x:0:0"  # the first line of /etc/passwd on every Linux


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> tuple[Path, list[str]]:
    """deal_n.gdl and one full transcript of it, recorded in process (the subprocess cases only read it)."""
    root = tmp_path_factory.mktemp("recorded")
    shutil.copy(FIXTURES / "games" / "deal_n.gdl", root / "deal_n.gdl")
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["run", str(root / "deal_n.gdl"), "-n", "1", "--seed", "4", "--out", str(root / "out"),
                     "--transcripts", "full", "--json"]) == 0
    return root / "deal_n.gdl", (root / "out" / "transcripts" / "run-0000.jsonl").read_text("utf-8").splitlines()


def case(tmp_path: Path, recorded, *, head: dict | None = None, lines: list[str] | None = None,
         data: bytes | None = None, game_beside: bool = False) -> Path:
    """tmp_path/case/t.jsonl: the recorded transcript with header fields replaced, or other lines or bytes."""
    game, text = recorded
    folder = tmp_path / "case"
    folder.mkdir(exist_ok=True)
    if game_beside:
        shutil.copy(game, folder / "deal_n.gdl")
    if data is None:
        if lines is None:
            lines = [json.dumps({**json.loads(text[0]), **(head or {})}), *text[1:]]
        data = "".join(line + "\n" for line in lines).encode("utf-8")
    (folder / "t.jsonl").write_bytes(data)
    return folder


def replay(folder: Path, *args, watch: Path | None = None):
    res = run_cli(["replay", "t.jsonl", *args], cwd=folder, watch=watch or folder.parent)
    assert res.written == [], res.written
    assert SECRET not in res.out + res.err, "a line of /etc/passwd was printed"
    return res


# ------------------------------------------------------------------ the game file the header names


@pytest.mark.parametrize("force", [(), ("--force",)], ids=["plain", "force"])
def test_header_naming_etc_passwd_is_refused(tmp_path, recorded, force):
    folder = case(tmp_path, recorded, head={"file": "/etc/passwd", "game": "/etc/passwd"})
    replay(folder, *force).assert_refused(2, "t.jsonl", "'/etc/passwd'", "not a path inside", "--game")


@pytest.mark.parametrize("force", [(), ("--force",)], ids=["plain", "force"])
def test_game_flag_naming_etc_passwd_never_prints_it(tmp_path, recorded, force):
    """The user may name any file with --game; it is not the game, and none of its lines is shown."""
    folder = case(tmp_path, recorded)
    res = replay(folder, "--game", PASSWD, *force)
    res.assert_refused(2, "passwd: ")
    assert "not the game file the transcript was written with" in res.err or "changed" in res.err
    assert "/etc" not in res.err  # files are named by their names only


@pytest.mark.parametrize("name", ["../deal_n.gdl", "../../../../../../etc/passwd", "sub/../../deal_n.gdl",
                                  "./deal_n.gdl", "C:deal_n.gdl", "sub\\..\\..\\deal_n.gdl", "deal_n.gdl\u0000x"])
def test_path_traversal_in_the_header_is_refused(tmp_path, recorded, name):
    """Even when `..` leads to the very game (same digest), the header cannot leave its folder."""
    shutil.copy(recorded[0], tmp_path / "deal_n.gdl")
    folder = case(tmp_path, recorded, head={"file": name})
    replay(folder).assert_refused(2, "not a path inside the transcript's folder", "--game")


@pytest.mark.parametrize("target", ["outside_game", "passwd"])
@pytest.mark.parametrize("force", [(), ("--force",)], ids=["plain", "force"])
def test_symlinked_game_leading_out_of_the_folder_is_refused(tmp_path, recorded, target, force):
    outside = tmp_path / "outside.gdl"
    shutil.copy(recorded[0], outside)
    folder = case(tmp_path, recorded)
    os.symlink(outside if target == "outside_game" else PASSWD, folder / "deal_n.gdl")
    replay(folder, *force).assert_refused(2, "deal_n.gdl beside the transcript leads outside its folder")


def test_symlink_inside_the_folder_is_followed(tmp_path, recorded):
    folder = case(tmp_path, recorded)
    shutil.copy(recorded[0], folder / "real.gdl")
    os.symlink("real.gdl", folder / "deal_n.gdl")
    res = replay(folder)
    assert res.code == 0 and "replay ok: 6 decisions reproduced" in res.err, res.err  # N = 3 cards each


def test_symlink_loop_is_a_clear_error(tmp_path, recorded):
    folder = case(tmp_path, recorded)
    os.symlink("deal_n.gdl", folder / "deal_n.gdl")
    replay(folder).assert_refused(2, "deal_n.gdl")


def test_header_game_name_is_never_a_path(tmp_path, recorded):
    """Without a file beside the transcript, only a shipped game of that name is looked for."""
    folder = case(tmp_path, recorded, head={"file": "none.gdl", "game": str(recorded[0])})
    replay(folder).assert_refused(2, "none.gdl was not found next to the transcript", "--game")


def test_a_file_that_is_not_the_game_is_never_shown_even_with_force(tmp_path, recorded):
    """A text file beside the transcript with the header's name: its digest differs, it does not load."""
    folder = case(tmp_path, recorded)
    (folder / "deal_n.gdl").write_text("root:x:0:0:root:/root:/bin/bash\n(oops\n", "utf-8")
    for force in ((), ("--force",)):
        res = replay(folder, *force)
        res.assert_refused(2, "deal_n.gdl: ")
        assert ("not the game file" in res.err) if force else ("changed" in res.err or "not the game" in res.err)


@pytest.mark.parametrize("kind", ["fifo", "directory", "dev_zero"])
def test_game_that_is_not_a_regular_file(tmp_path, recorded, kind):
    folder = case(tmp_path, recorded)
    args: tuple = ()
    if kind == "fifo":
        os.mkfifo(folder / "deal_n.gdl")
    elif kind == "directory":
        (folder / "deal_n.gdl").mkdir()
    else:
        args = ("--game", "/dev/zero")
    res = replay(folder, *args)
    res.assert_refused(2, "not a regular file" if kind != "directory" else "deal_n.gdl")


def test_digest_is_checked_before_the_rest_is_read(tmp_path, recorded):
    """A changed game is reported even when the lines after the header are junk."""
    game, text = recorded
    folder = case(tmp_path, recorded, lines=[text[0], "\u0000garbage{{{"], game_beside=True)
    (folder / "deal_n.gdl").write_text(game.read_text("utf-8") + "\n;; edited\n", "utf-8")
    replay(folder).assert_refused(2, "deal_n.gdl: the game file changed", "--force")


# ------------------------------------------------------------------ malformed transcripts


def _lines(recorded, how: str) -> list[str] | bytes:
    _game, text = recorded
    head = json.loads(text[0])
    first = next(i for i, line in enumerate(text) if json.loads(line)["type"] == "decision")
    dec = json.loads(text[first])

    def with_head(**kw):
        return [json.dumps({**head, **kw}), *text[1:]]

    def with_decision(**kw):
        return [*text[:first], json.dumps({**dec, **kw}), *text[first + 1:]]

    return {
        "bad-json": [*text[:3], text[3][:-4], *text[4:]],
        "not-an-object": [text[0], "[1, 2, 3]", *text[1:]],
        "seed-a-string": with_head(seed="7"),
        "seed-negative": with_head(seed=-1),
        "seed-huge": with_head(seed=2 ** 70),
        "players-zero": with_head(players=0),
        "players-a-list": with_head(players=[2]),
        "no-sha256": [json.dumps({k: v for k, v in head.items() if k != "sha256"}), *text[1:]],
        "sha256-not-hex": with_head(sha256="zz" * 32),
        "other-format": with_head(format="other-transcript"),
        "version-2": with_head(version=2),
        "version-a-string": with_head(version="1"),
        "lineup-wrong-length": with_head(lineup=["R"]),
        "lineup-not-strings": with_head(lineup=[1, 2]),
        "batch-without-run": with_head(batch={"seed": 4}),
        "level-unknown": with_head(level="everything"),
        "declares-nested": with_head(params={"declares": {"N": {"x": [1]}}}),
        "max-decisions-zero": with_head(params={"declares": {}, "max_decisions": 0}),
        "choice-out-of-range": with_decision(choice=dec["options"]),
        "choice-negative": with_decision(choice=-1),
        "choice-a-float": with_decision(choice=0.0),
        "options-zero": with_decision(options=0),
        "seat-a-string": with_decision(seat="0"),
        "no-type": [*text[:2], json.dumps({"seat": 0}), *text[2:]],
        "second-header": [*text[:2], text[0], *text[2:]],
        "no-header": text[1:],
        "empty": [],
        "blank-lines-only": ["", "   ", ""],
        "deeply-nested": [text[0], "[" * 100_000 + "]" * 100_000],
        "huge-integer": [text[0], '{"type":"decision","seat":' + "9" * 5000 + "}"],
        "binary-junk": bytes(range(256)) * 64,
        "not-utf8": text[0].encode() + b"\n\xff\xfe\xfd\n",
        "nul-bytes": b"\x00" * 10_000,
        "huge-header": with_head(game="G" * 100_000),
    }[how]


MALFORMED = {  # case -> words of the one error line
    "bad-json": ["t.jsonl:4:", "invalid JSON"],
    "not-an-object": ["t.jsonl:2:", "JSON object"],
    "seed-a-string": ["t.jsonl:1:", "'seed'"],
    "seed-negative": ["'seed'"],
    "seed-huge": ["'seed'"],
    "players-zero": ["'players'"],
    "players-a-list": ["'players'"],
    "no-sha256": ["'sha256'"],
    "sha256-not-hex": ["'sha256'"],
    "other-format": ["not a recycle transcript"],
    "version-2": ["version 2 is not supported"],
    "version-a-string": ["'version'"],
    "lineup-wrong-length": ["lineup names 1 players, not 2"],
    "lineup-not-strings": ["'lineup'"],
    "batch-without-run": ["'batch'"],
    "level-unknown": ["'level'"],
    "declares-nested": ["params are not valid"],
    "max-decisions-zero": ["params are not valid"],
    "choice-out-of-range": ["not an option index"],
    "choice-negative": ["not an option index"],
    "choice-a-float": ["not an option index"],
    "options-zero": ["integer seat and option count"],
    "seat-a-string": ["integer seat and option count"],
    "no-type": ["t.jsonl:3:", "no \"type\""],
    "second-header": ["t.jsonl:3:", "a second header"],
    "no-header": ["not a recycle transcript"],
    "empty": ["not a recycle transcript"],
    "blank-lines-only": ["not a recycle transcript"],
    "deeply-nested": ["t.jsonl:2:", "nested too deeply"],
    "huge-integer": ["t.jsonl:2:", "too large"],
    "binary-junk": ["t.jsonl:1:", "not a transcript line"],
    "not-utf8": ["t.jsonl:2:", "not UTF-8"],
    "nul-bytes": ["t.jsonl:1:", "invalid JSON"],
    "huge-header": ["t.jsonl:1:", "longer than 65536 bytes"],
}


@pytest.mark.parametrize("how", sorted(MALFORMED))
def test_malformed_transcript_is_one_clear_error(tmp_path, recorded, how):
    made = _lines(recorded, how)
    folder = (case(tmp_path, recorded, data=made, game_beside=True) if isinstance(made, bytes)
              else case(tmp_path, recorded, lines=made, game_beside=True))
    res = replay(folder)
    res.assert_refused(2, "error: ", *MALFORMED[how])
    assert "\x1b" not in res.err and "\x00" not in res.err


def test_huge_line_is_refused_without_reading_it_whole(tmp_path, recorded):
    """A 40 MB line (no newline) under a 3 GB address-space limit: refused at 16 MiB, quickly."""
    _game, text = recorded
    folder = case(tmp_path, recorded, lines=text[:3], game_beside=True)
    with open(folder / "t.jsonl", "ab") as f:
        f.write(b'{"type":"move","card":"' + b"x" * (40 * 1024 * 1024))
    replay(folder).assert_refused(2, "t.jsonl:4:", "longer than 16777216 bytes")


def test_millions_of_small_lines_are_refused(tmp_path, recorded):
    """1.2 million minimal lines (15 MB) would be gigabytes of objects: refused at the line cap."""
    _game, text = recorded
    folder = case(tmp_path, recorded, lines=text[:3], game_beside=True)
    with open(folder / "t.jsonl", "ab") as f:
        f.write(b'{"type":"x"}\n' * 1_200_000)
    replay(folder).assert_refused(2, "t.jsonl:1000001:", "more than 1000000 lines")


@pytest.mark.parametrize("cut", ["mid-line", "no-end"])
def test_truncated_transcript(tmp_path, recorded, cut):
    _game, text = recorded
    data = "".join(line + "\n" for line in text).encode()
    if cut == "mid-line":
        folder = case(tmp_path, recorded, data=data[: len(data) // 2], game_beside=True)
        replay(folder).assert_refused(2, "invalid JSON")
    else:
        folder = case(tmp_path, recorded, lines=text[: len(text) // 2], game_beside=True)
        replay(folder).assert_refused(1, "replay diverged at transcript line")


def test_transcript_that_is_not_a_regular_file(tmp_path, recorded):
    folder = tmp_path / "case"
    folder.mkdir()
    os.mkfifo(folder / "t.jsonl")
    replay(folder).assert_refused(2, "t.jsonl: not a regular file")
    os.unlink(folder / "t.jsonl")
    (folder / "t.jsonl").mkdir()
    replay(folder).assert_refused(2, "t.jsonl: is a directory")


def test_terminal_escapes_in_the_header_never_reach_the_terminal(tmp_path, recorded):
    folder = case(tmp_path, recorded, head={"game": "evil\x1b[2J\x1b]0;title\x07"}, game_beside=True)
    res = replay(folder)
    assert res.code == 0, res.err
    assert "\x1b" not in res.out + res.err and "\x07" not in res.out
    assert res.out.startswith("RECYCLE transcript v1 — evil\\x1b[2J\\x1b]0;title\\x07 (deal_n.gdl")


# ------------------------------------------------------------------ the same words from any folder


def test_replay_from_another_path_gives_the_same_output(tmp_path):
    """risky.gdl ends in a run-time error whose text names the game file: recorded from one folder,
    replayed from two others (relative and absolute paths), the outputs are identical."""
    rec = tmp_path / "rec"
    rec.mkdir()
    shutil.copy(FIXTURES / "games" / "risky.gdl", rec / "risky.gdl")
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["run", str(rec / "risky.gdl"), "-n", "6", "--seed", "3", "--out", str(rec / "out"),
                     "--transcripts", "full", "--json"]) == 1  # 1: some games end in an error
    errors = [p for p in sorted((rec / "out" / "transcripts").iterdir()) if '"reason":"error"' in p.read_text()]
    assert errors, "seed 3 gives no game ending in an error"
    outputs = set()
    for where in ("a", "b/c"):
        folder = tmp_path / where
        folder.mkdir(parents=True)
        shutil.copy(rec / "risky.gdl", folder / "risky.gdl")
        shutil.copy(errors[0], folder / "t.jsonl")
        broken = folder / "broken.jsonl"
        broken.write_text(errors[0].read_text().replace('"choice":0', '"choice":7', 1))
        for arg in ("t.jsonl", folder / "t.jsonl", "broken.jsonl", broken):
            res = run_cli(["replay", arg], cwd=folder)
            outputs.add((str(arg).endswith("broken.jsonl"), res.code, res.out, res.err))
    assert len(outputs) == 2, outputs  # one for the good transcript, one for the broken one
    good = next(o for o in outputs if not o[0])
    assert good[1] == 0 and "end     error after" in good[2] and "risky.gdl:25:4: error[no-card]" in good[2]
    # the transcript's own words (recorded in `rec`), never the folders replayed from
    assert str(tmp_path / "a") not in good[2] + good[3] and str(tmp_path / "b") not in good[2] + good[3]


def test_the_recorded_game_that_no_longer_loads_is_named_by_its_name(tmp_path, recorded):
    """The digest matches, so it is the game: its own errors are shown, naming the file without its folder."""
    broken = b";; a broken game\n(game (setup (create players 2))\n"
    folder = case(tmp_path, recorded, head={"sha256": hashlib.sha256(broken).hexdigest()})
    (folder / "deal_n.gdl").write_bytes(broken)
    res = replay(folder)
    assert res.code == 1 and "Traceback" not in res.err
    assert res.err.startswith("deal_n.gdl:2:") and str(tmp_path) not in res.err, res.err
