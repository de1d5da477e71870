"""The README's Python example runs as written, and its quick-start commands name real commands."""
from __future__ import annotations

import contextlib
import io
import re

from support import REPO

README = (REPO / "README.md").read_text("utf-8")


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README, re.S)


def test_the_python_example_runs():
    blocks = python_blocks()
    assert blocks, "the README has a Python example"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for block in blocks:
            exec(compile(block, "README.md", "exec"), {})
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("p1 ") and "->" in lines[0]  # the first option of the first decision
    assert re.fullmatch(r"\[\d+, \d+\]", lines[-2])  # the scores
    assert re.fullmatch(r"\[[01](, 1)?\]", lines[-1])  # the winners


def test_the_example_uses_only_the_public_api():
    for block in python_blocks():
        assert re.findall(r"^(?:from|import) (\S+)", block, re.M) == ["recycle"]


def test_quick_start_commands():
    quick = README[README.index("## Quick start"):].split("```sh\n", 1)[1].split("```", 1)[0]
    first, second = [line for line in quick.splitlines() if line.strip()]
    assert "pip install -e '.[dev]'" in first and "recycle run block_rummy" in first
    assert second.strip() == ".venv/bin/python -m pytest"
