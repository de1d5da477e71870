"""The fitted action-id table of every shipped game: the table of docs/integrations.md ("Sizes").

    python bench/action_tables.py            # print the table
    python bench/action_tables.py --write    # and replace it in docs/integrations.md
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import recycle  # noqa: E402
from recycle.integrations.actions import ActionCodec, declared_piles  # noqa: E402

DOC = REPO / "docs" / "integrations.md"
HEADER = ("| game | card kinds | declared piles | single moves A | compound 4A | card sets S | hashed H "
          "| num_distinct_actions |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")


def table() -> str:
    rows = []
    for name in sorted(recycle.shipped_games()):
        prog = recycle.load(name).program
        c = ActionCodec(prog)
        cells = (len(c.kinds), len(declared_piles(prog)), c.single_size, c.single_size * c.per_atom, c.set_size,
                 c.hash_size, c.num_distinct_actions)
        rows.append(f"| {name} | " + " | ".join(f"{v:,}" for v in cells) + " |\n")
    return HEADER + "".join(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="replace the table in docs/integrations.md")
    text = table()
    print(text, end="")
    if ap.parse_args().write:
        doc = DOC.read_text("utf-8")
        start = doc.index("| game | card kinds |")
        end = doc.index("\n\n", start) + 1
        DOC.write_text(doc[:start] + text + doc[end:], "utf-8")


if __name__ == "__main__":
    main()
