"""docs/tutorial.md runs as written: its blocks, in order, in an empty folder.

* ```sh          — every line is a `recycle …` command, run with the CLI; each must exit 0;
* ```text        — right after a sh block: every line appears in what that block printed;
* ```recycle output=FILE — FILE, as the commands before wrote it, is exactly the block;
* ```recycle file=FILE   — the block is written to FILE (the reader's edit).
* ```console      — an interactive session: `$ recycle …`, then what it prints, `...` for lines left
  out; the answers typed at its prompts (`…, q to quit: 1`) are fed to the command, then `q`, and
  every line shown (a prompt without its answer) appears in what it printed.
"""
from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys

from recycle.cli import main
from support import REPO

TUTORIAL = REPO / "docs" / "tutorial.md"
FENCE = re.compile(r"^```(\w+)([^\n]*)\n(.*?)^```", re.S | re.M)


def blocks() -> list[tuple[str, str, str]]:
    return [(m.group(1), m.group(2).strip(), m.group(3)) for m in FENCE.finditer(TUTORIAL.read_text("utf-8"))]


def test_the_tutorial_runs(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    printed = None
    commands = []
    for kind, info, body in blocks():
        if kind == "sh":
            out = []
            for line in body.splitlines():
                if not line.strip():
                    continue
                argv = shlex.split(line)
                assert argv[0] == "recycle", line
                status = main(argv[1:])
                cap = capsys.readouterr()
                assert status == 0, f"{line}: exit {status}\n{cap.err}"
                out.append(cap.out + cap.err)
                commands.append(argv[1])
            printed = "".join(out)
        elif kind == "text":
            assert printed is not None, "a text block follows a sh block"
            for line in body.splitlines():
                assert line in printed, f"{line!r} not in the output:\n{printed}"
            printed = None
        elif kind == "recycle" and info.startswith("output="):
            assert (tmp_path / info[len("output="):]).read_text("utf-8") == body
        elif kind == "recycle" and info.startswith("file="):
            (tmp_path / info[len("file="):]).write_text(body, "utf-8")
        elif kind == "console":
            session(body, tmp_path)
        else:
            raise AssertionError(f"a block the test cannot run: ```{kind} {info}")
    # the steps the title promises: new, check, run, stats, flow
    assert commands == ["new", "check", "check", "run", "stats", "flow"]
    summary = json.loads((tmp_path / "corner_stats" / "summary.json").read_text("utf-8"))
    assert summary["game"] == "corner_gin" and summary["runs"]["normal"] == 4 and summary["errors"] == []
    assert (tmp_path / "corner_flow" / "flow.json").is_file()


PROMPT = re.compile(r"^(p\d+, choose .*: )(\S+)$")


def session(body: str, folder) -> None:
    """Run a ```console block's command with the answers it shows, and find every line it shows."""
    first, *shown = body.splitlines()
    assert first.startswith("$ recycle "), first
    answers = [m.group(2) for line in shown if (m := PROMPT.match(line))]
    done = subprocess.run([sys.executable, "-m", "recycle", *shlex.split(first[len("$ recycle "):])],
                          input="".join(f"{a}\n" for a in [*answers, "q"]), capture_output=True, text=True,
                          cwd=folder, timeout=300)
    printed = done.stdout + done.stderr
    assert "Traceback" not in printed, printed
    for line in shown:
        if line.strip() == "...":
            continue
        m = PROMPT.match(line)
        want = m.group(1).rstrip() if m else line
        assert want in printed, f"{want!r} not in what `{first[2:]}` printed:\n{printed}"


def test_the_mistake_the_tutorial_quotes(tmp_path, monkeypatch, capsys):
    """The tutorial quotes what `check` says of `(ace round)`: that message, exit 1."""
    monkeypatch.chdir(tmp_path)
    text = next(body for kind, info, body in blocks() if info == "file=corner_gin.gdl")
    (tmp_path / "corner_gin.gdl").write_text(text.replace("(ace around)", "(ace round)"), "utf-8")
    quoted = re.search(r"``(corner_gin\.gdl:\d+:\d+: error\[lexical\]: [^\n]*?) ``", TUTORIAL.read_text("utf-8"))
    assert quoted
    assert main(["check", "corner_gin.gdl"]) == 1
    assert quoted.group(1) in capsys.readouterr().out
