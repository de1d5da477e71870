"""Time the language server's diagnostics on a game of about 300 lines (games/rummykruss.gdl).

    python bench/lsp.py [--game PATH] [--repeat N] [--json]

Times what the server does for a change (recycle/lsp/analysis.py, no protocol): the tolerant
reading of the text (Document) and the load-time check (diagnose), each the best of N passes
after one warm-up pass (Lark's parser is built once, as in a running server).  The goal of
issue 18 is diagnostics under 100 ms on the project's machine; this prints the figures and
asserts nothing.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # time the working tree, installed or not

from recycle.lsp import analysis as An  # noqa: E402


def best(fn, repeat: int) -> float:
    fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times) * 1000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", type=Path, default=REPO / "games" / "rummykruss.gdl")
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    text = a.game.read_text("utf-8")
    lines = text.count("\n")
    read_ms = best(lambda: An.Document(text, str(a.game)), a.repeat)
    diag_ms = best(lambda: An.diagnose(An.Document(text, str(a.game))), a.repeat)
    out = {"game": a.game.name, "lines": lines, "read_ms": round(read_ms, 2), "diagnostics_ms": round(diag_ms, 2)}
    if a.json:
        print(json.dumps(out))
    else:
        print(f"{a.game.name}: {lines} lines; reading {read_ms:.1f} ms, diagnostics (reading + check) {diag_ms:.1f} ms"
              f" (best of {a.repeat})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
