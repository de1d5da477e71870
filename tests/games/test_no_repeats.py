"""No shipped game file repeats within itself a block of six or more lines.

A rule is stated once (a `define`), so no window of six consecutive lines occurs twice in one
file.  Lines are compared stripped, blank and comment-only lines left out; each file is checked
on its own (a variant is not merged with its base here).
"""
from __future__ import annotations

from pathlib import Path

import pytest

WINDOW = 6
GAMES = Path(__file__).resolve().parents[2] / "games"
SHIPPED = {p.stem: p for p in sorted(GAMES.glob("*.gdl"))}


def normalised(text: str) -> list[str]:
    lines = (line.strip() for line in text.splitlines())
    return [line for line in lines if line and not line.startswith(";")]


def repeated_blocks(text: str, window: int = WINDOW) -> list[tuple[str, ...]]:
    """Every window of `window` normalised lines that occurs more than once."""
    lines = normalised(text)
    seen: set[tuple[str, ...]] = set()
    repeats = []
    for i in range(len(lines) - window + 1):
        block = tuple(lines[i:i + window])
        if block in seen and block not in repeats:
            repeats.append(block)
        seen.add(block)
    return repeats


def test_repeated_blocks_are_found():
    body = "\n".join(f"(line {i})" for i in range(6))
    assert repeated_blocks(body + "\n;; note\n\n" + body) == [tuple(f"(line {i})" for i in range(6))]
    assert repeated_blocks(body + "\n(other)\n" + "\n".join(f"(line {i})" for i in range(5))) == []


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_no_block_of_six_lines_repeats(name):
    text = SHIPPED[name].read_text("utf-8")
    repeats = repeated_blocks(text)
    assert not repeats, f"{name} repeats {len(repeats)} block(s), first:\n" + "\n".join(repeats[0])
