"""Game files near the size limit (MAX_FILE_BYTES, 1,000,000 bytes), in several shapes, and how long the
commands take on them.

    python bench/bigfiles.py --write DIR            # write one file per shape into DIR
    python bench/bigfiles.py --time DIR [--cmd check run flow lsp]   # time each command on each file

Each shape repeats one small piece until the file is just under the limit: many `do` items in one
stage, many stages, many definitions and their uses, many declares, many point maps, one `any`
whose body is huge, and many items nested near the nesting limit.  Every file checks clean, so the
whole of loading (and compiling, for run and flow) is timed.  Times are the CPU seconds (user and
system) of one run each, under a 120 s timeout, so that other work on the machine counts little;
they are figures to compare before and after a change, not tests.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LIMIT = 1_000_000
DECK = ("(create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE)) "
        "(SUIT (S, H, D, C))))")


def name(i: int) -> str:
    """The i-th uppercase name: A, B, …, Z, AA, AB, … (names hold no digits)."""
    s, i = "", i + 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(65 + r) + s
    return s


def fill(head: str, piece: Callable[[int], str], tail: str) -> str:
    """head + as many pieces as fit under the limit + tail."""
    parts, size, i = [head], len(head) + len(tail), 0
    while True:
        p = piece(i)
        if size + len(p) >= LIMIT:
            break
        parts.append(p)
        size += len(p)
        i += 1
    parts.append(tail)
    return "".join(parts)


def game(items: str, declares: str = "(declare 0 'X)") -> tuple[str, str]:
    """(text before the repeated pieces, text after): a two-player game around `items`, which the pieces
    continue; X is a variable that is never set, so conditions on it are not constant."""
    return (f"(game {declares}\n (setup (create players 2)\n  {DECK})\n"
            " (do ((all player 'P (repeat 3 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))\n"
            f" {items}", "\n (scoring max ((current player) sto SCORE)))\n")


END = "(end (>= (game sto X) 0))"  # true at once, but not a constant


def do_items() -> str:
    head, tail = game(f"(stage player {END}\n")
    return fill(head, lambda i: f"  (do ((inc ((current player) sto SCORE) {i % 7})))\n", "  )" + tail)


def stages() -> str:
    head, tail = game("")
    return fill(head, lambda i: f" (stage player {END} (do ((inc ((current player) sto SCORE) {i % 7}))))\n", tail)


def definitions() -> str:
    """Definitions come before setup and items: the two halves grow together."""
    head, tail = game("(do (\n")
    defs: list[str] = []
    uses: list[str] = []
    size, i = len(head) + len(tail) + 10, 0
    while True:
        d = f" (define (Q{name(i)} 'P) (inc ('P sto SCORE) {i % 7}))\n"
        u = f"  (Q{name(i)} (current player))\n"
        if size + len(d) + len(u) >= LIMIT:
            break
        defs.append(d)
        uses.append(u)
        size += len(d) + len(u)
        i += 1
    start = "(game (declare 0 'X)\n"
    return start + "".join(defs) + head[len(start):] + "".join(uses) + " ))" + tail


def declares() -> str:
    head, tail = game("")
    body = fill("", lambda i: f" (declare {i} 'V{name(i)})\n", "")
    body = body[: LIMIT - len(head) - len(tail) - 200].rsplit("\n", 1)[0] + "\n"
    # uses every declare, so none is unused: (game sto X) is compared with the last
    last = body.rsplit("'", 1)[1].rstrip(")\n")
    start = "(game (declare 0 'X)\n"
    return start + body + head[len(start):] + f"(do ((set (game sto X) '{last})))" + tail


def point_maps() -> str:
    head, tail = game("(do (\n")
    ranks = ["ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE"]
    return fill(head, lambda i: "  (set (game points P" + name(i) + ") ("
                + " ".join(f"((RANK : {r}) {(i + k) % 10})" for k, r in enumerate(ranks)) + "))\n", " ))" + tail)


def any_body() -> str:
    head, tail = game("(choice ((any ((current player) iloc HAND) 'C (do (\n")
    return fill(head, lambda i: f"  (inc ((current player) sto SCORE) {i % 7})\n", " )))))" + tail)


def deep() -> str:
    head, tail = game("(do (\n")
    n = 480  # under MAX_DEPTH (500) with the game, do and item around it

    def piece(i: int) -> str:
        return "  (set (game sto X) " + "(+ 1 " * n + str(i % 7) + ")" * n + ")\n"

    return fill(head, piece, " ))" + tail)


SHAPES: dict[str, Callable[[], str]] = {
    "do_items": do_items, "stages": stages, "definitions": definitions, "declares": declares,
    "point_maps": point_maps, "any_body": any_body, "deep": deep,
}

LSP = ("import sys; from recycle.lsp.analysis import Document, diagnose; "
       "diagnose(Document(open(sys.argv[1]).read(), sys.argv[1]))")  # the language server's diagnostics
COMMANDS = {"check": ["-m", "recycle", "check"], "run": ["-m", "recycle", "run", "-n", "1"],
            "flow": ["-m", "recycle", "flow", "-n", "1", "--seed", "1", "--out", "flow", "--force"],
            "lsp": ["-c", LSP]}


def write(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for shape, make in SHAPES.items():
        text = make()
        assert len(text.encode()) <= LIMIT, (shape, len(text))
        (folder / f"{shape}.gdl").write_text(text)
        print(f"{shape}: {len(text):,} bytes")


def timed(folder: Path, commands: list[str]) -> None:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    print(f"{'shape':<12}" + "".join(f"{c:>12}" for c in commands))
    for shape in SHAPES:
        path = folder / f"{shape}.gdl"
        row = f"{shape:<12}"
        for c in commands:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            try:
                p = subprocess.run([sys.executable, *COMMANDS[c], str(path)], env=env,
                                   capture_output=True, timeout=120, cwd=folder)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
                took = f"{cpu:.2f}" + ("" if p.returncode == 0 else f"!{p.returncode}")
            except subprocess.TimeoutExpired:
                took = ">120"
            row += f"{took:>12}"
        print(row, flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--write", type=Path, help="write the files into this folder")
    ap.add_argument("--time", type=Path, help="time the commands on the files of this folder")
    ap.add_argument("--cmd", nargs="+", default=list(COMMANDS), choices=list(COMMANDS))
    a = ap.parse_args()
    if a.write:
        write(a.write)
    if a.time:
        timed(a.time, a.cmd)


if __name__ == "__main__":
    main()
