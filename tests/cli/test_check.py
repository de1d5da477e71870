"""Tests of `recycle check` (recycle/cli/check.py): exit codes, human and JSON output, directories,
missing files and bad flags — always one clear report, never a traceback."""
from __future__ import annotations

import importlib.metadata
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import recycle
from recycle.cli import main
from recycle.errors import MAX_SHOWN_ERRORS, Diagnostic, Span
from support import FIXTURES

ERRORS = FIXTURES / "errors"

GOOD = """;; a minimal valid game
(game
 (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (A, B)))))
 (do ((shuffle (game iloc STOCK))))
 (scoring max ((current player) sto SCORE)))
"""
BAD = """(game
 (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (A, B)))))
 (do (((< (game str X) 3) (turn pass))))
 (scoring max 0))
"""  # the type error is at 3:11
WARN = GOOD.rstrip() + ")\n"  # one stray `)` after the game: a warning only


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.fixture
def games(tmp_path):
    (tmp_path / "good.gdl").write_text(GOOD, "utf-8")
    (tmp_path / "bad.rcy").write_text(BAD, "utf-8")
    (tmp_path / "warn.gdl").write_text(WARN, "utf-8")
    (tmp_path / "notes.txt").write_text("not a game", "utf-8")
    return tmp_path


def test_ok_file(games, capsys):
    code, out, err = run(capsys, "check", str(games / "good.gdl"))
    assert code == 0
    assert out.strip() == f"{games / 'good.gdl'}: ok"
    assert err == ""


def test_bad_file(games, capsys):
    path = games / "bad.rcy"
    code, out, _err = run(capsys, "check", str(path))
    assert code == 1
    assert f"{path}: 1 error" in out
    assert f"{path}:3:11: error[type]: " in out
    assert "(game str X) is a String" in out
    # the source line and a caret under the offending form
    lines = out.splitlines()
    i = next(k for k, ln in enumerate(lines) if ln.startswith(f"{path}:3:11"))
    assert lines[i + 1].strip() == "(do (((< (game str X) 3) (turn pass))))"
    assert lines[i + 2].index("^") == lines[i + 1].index("(game str X)")


def test_all_errors_of_a_file_are_printed(capsys):
    path = ERRORS / "three_errors.gdl"
    code, out, _ = run(capsys, "check", str(path))
    assert code == 1
    assert f"{path}: 3 errors" in out
    assert re.findall(rf"^{re.escape(str(path))}:(\d+:\d+): error\[(\w+)\]", out, re.M) == [
        ("6:13", "scope"), ("7:24", "type"), ("8:3", "placement")]


def flood(tmp_path, n: int = 300):
    """A one-line game with 3 n unknown keywords: as many errors, each on a very long line."""
    path = tmp_path / "flood.gdl"
    path.write_text("(game (setup (create players 2)) " + "(foo bar baz) " * n + ")", "utf-8")
    return path


def test_errors_of_a_file_are_capped_with_a_count_of_the_rest(tmp_path, capsys):
    path = flood(tmp_path)
    code, out, _ = run(capsys, "check", str(path))
    assert code == 1
    assert f"{path}: 900 errors" in out
    assert len(re.findall(r"error\[lexical\]", out)) == MAX_SHOWN_ERRORS == 20
    assert out.rstrip().endswith("… and 880 more errors (not shown)")
    # the 4 KB source line is quoted as a window around the caret, not whole
    assert max(len(line) for line in out.splitlines()) < 300
    code, out, _ = run(capsys, "check", str(path), "--max-errors", "3")
    assert len(re.findall(r"error\[lexical\]", out)) == 3 and "… and 897 more errors" in out
    code, out, _ = run(capsys, "check", str(path), "--max-errors", "0")
    assert len(re.findall(r"error\[lexical\]", out)) == 900


def test_json_errors_are_capped_too(tmp_path, capsys):
    code, out, _ = run(capsys, "check", str(flood(tmp_path)), "--json")
    assert code == 1
    (entry,) = json.loads(out)
    assert len(entry["errors"]) == 20 and entry["more_errors"] == 880


def test_caret_window_points_at_the_column():
    src = "x" * 1000 + "@" + "y" * 1000
    d = Diagnostic("error", "lexical", "bad \x1b[31m", Span("f.gdl", 1, 1001), src)
    head, quoted, caret = d.format().splitlines()
    assert "\x1b" not in head and "\ufffd" in head  # no terminal escape from a file reaches the screen
    assert quoted[caret.index("^")] == "@" and len(quoted) < 220


def test_warning_only_file_is_ok(games, capsys):
    path = games / "warn.gdl"
    code, out, _ = run(capsys, "check", str(path))
    assert code == 0
    assert f"{path}: ok (1 warning)" in out
    assert "warning[trailing-paren]" in out
    code, out, _ = run(capsys, "check", "--quiet", str(path))
    assert code == 0 and "warning[" not in out


def test_missing_file(games, capsys):
    path = games / "absent.gdl"
    code, out, err = run(capsys, "check", str(path))
    assert code == 1
    assert str(path) in out + err and "no such file" in out + err


def test_missing_file_does_not_hide_other_results(games, capsys):
    code, out, _ = run(capsys, "check", str(games / "absent.gdl"), str(games / "good.gdl"))
    assert code == 1
    assert f"{games / 'good.gdl'}: ok" in out


def test_directory_expands_to_its_game_files(games, capsys):
    code, out, _ = run(capsys, "check", str(games))
    assert code == 1  # bad.rcy
    assert f"{games / 'good.gdl'}: ok" in out
    assert f"{games / 'bad.rcy'}: 1 error" in out
    assert f"{games / 'warn.gdl'}: ok" in out
    assert "notes.txt" not in out
    # sorted, one summary line per game file
    summaries = [ln.split(":")[0] for ln in out.splitlines() if re.match(r"^\S+: (ok|\d+ errors?)", ln)]
    assert summaries == [str(games / n) for n in ("bad.rcy", "good.gdl", "warn.gdl")]


def test_empty_directory_is_a_usage_error(tmp_path, capsys):
    code, out, err = run(capsys, "check", str(tmp_path))
    assert code == 2
    assert out == "" and len(err.strip().splitlines()) == 1 and str(tmp_path) in err


def test_json_output(games, capsys):
    code, out, _err = run(capsys, "check", "--json", str(games / "good.gdl"), str(games / "bad.rcy"),
                         str(games / "warn.gdl"), str(games / "absent.gdl"))
    assert code == 1
    data = json.loads(out)
    assert isinstance(data, list) and len(data) == 4
    for entry in data:
        assert set(entry) == {"file", "ok", "errors", "warnings"}
        assert isinstance(entry["ok"], bool)
        assert entry["ok"] == (entry["errors"] == [])
        for d in entry["errors"] + entry["warnings"]:
            assert {"line", "column", "message"} <= set(d)
            assert isinstance(d["line"], int) and isinstance(d["column"], int) and isinstance(d["message"], str)
    good, bad, warn, absent = data
    assert good == {"file": str(games / "good.gdl"), "ok": True, "errors": [], "warnings": []}
    assert bad["ok"] is False and len(bad["errors"]) == 1
    assert (bad["errors"][0]["line"], bad["errors"][0]["column"], bad["errors"][0]["class"]) == (3, 11, "type")
    assert warn["ok"] is True and [w["class"] for w in warn["warnings"]] == ["trailing-paren"]
    assert absent["ok"] is False and "no such file" in absent["errors"][0]["message"]


def test_json_output_of_a_good_file_is_only_json(games, capsys):
    code, out, _ = run(capsys, "check", "--json", str(games / "good.gdl"))
    assert code == 0
    assert json.loads(out)[0]["ok"] is True


@pytest.mark.parametrize("argv", [["check", "--bogus", "x.gdl"], ["check"], ["chek", "x.gdl"], []],
                         ids=["unknown-flag", "no-path", "unknown-command", "nothing"])
def test_bad_usage(argv, capsys):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err


def console_script() -> str | None:
    """The `recycle` script of the environment running the tests (its bin folder need not be on PATH)."""
    beside = Path(sys.executable).parent / "recycle"
    return str(beside) if beside.is_file() else shutil.which("recycle")


def test_installed_console_script(needs_corpus):
    exe = console_script()
    if exe is None:
        pytest.skip("the recycle console script is not installed")
    game = needs_corpus / "valet" / "Agram3.rcy"
    proc = subprocess.run([exe, "check", str(game)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip() == f"{game}: ok"
    bad = needs_corpus / "cardstock" / "ContinuousPairs4.rcy"
    proc = subprocess.run([exe, "check", "--json", str(bad)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    [entry] = json.loads(proc.stdout)
    assert [(e["line"], e["column"], e["class"]) for e in entry["errors"]] == [(108, 34, "type")]


def test_version_everywhere(capsys):
    """`recycle --version`, `python -m recycle --version` and the package agree with pyproject.toml."""
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out.strip() == f"recycle {recycle.__version__}"
    proc = subprocess.run([sys.executable, "-m", "recycle", "--version"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.strip() == f"recycle {recycle.__version__}"
    meta = importlib.metadata.version("recycle")
    assert meta == recycle.__version__


def test_the_package_is_typed():
    assert (Path(recycle.__file__).parent / "py.typed").is_file()


def test_shipped_game_name_is_accepted(capsys, tmp_path, monkeypatch):
    from recycle.lang import library

    monkeypatch.chdir(tmp_path)  # no file of that name here: the name means the shipped game
    name, path = next(iter(library.shipped().items()))
    code, out, err = run(capsys, "check", name)
    assert code == 0, out + err
    assert out.startswith(f"{path}: ok"), out


def test_strict_makes_warnings_errors(capsys, tmp_path):
    path = tmp_path / "w.gdl"
    path.write_text(WARN, "utf-8")  # loads with one warning (a stray `)`)
    code, out, _ = run(capsys, "check", str(path))
    assert code == 0 and "1 warning" in out
    code, out, _ = run(capsys, "check", "--strict", str(path))
    assert code == 1 and "error[trailing-paren]" in out, out
