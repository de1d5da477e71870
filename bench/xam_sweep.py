"""Sweep CardStock's older game files (CardStockXam/games) read with --dialect xam; write docs/xam.md.

The files are read straight from a snapshot of the CardStock repository (a bare git directory,
RECYCLE_CARDSTOCK_GIT, by default /work/.mirror/mgoadric+cardstock/repo): they are GPL and are
never copied into this repository.  Each file is loaded as CardStockXam and, when it loads,
plays --games seeded random games; the table says which load and play, and why the others fail
(the first error, with its position).

    python bench/xam_sweep.py                 # print the table
    python bench/xam_sweep.py --write         # and write docs/xam.md
    python bench/xam_sweep.py --json          # one JSON list of rows
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from recycle.errors import LoadError, RecycleError  # noqa: E402
from recycle.lang import SourceFile  # noqa: E402
from recycle.lang.reader import read_sexprs  # noqa: E402
from recycle.lang.xam import detect, translate  # noqa: E402
from recycle.run.batch import BatchSpec, parse_lineup, run_batch  # noqa: E402
from recycle.run.session import GameSession  # noqa: E402

DEFAULT_GIT = "/work/.mirror/mgoadric+cardstock/repo"
FOLDER = "CardStockXam/games"
SEED = 14
# Why each file that does not play fails, judged by reading it against the 0.5 grammar
# (CardStockXam/Recycle.g4): none of them is valid in its own grammar, or it fails in both
# interpreters.  The sweep test checks that this list names exactly the files that do not play.
WHY = {
    "AgramClean.rkt": "older than 0.5: lower-case words (`color`, `rank`), `comp` and `(all player)` owners",
    "BustedJunk/BustedWar.gdl": "older than 0.5: `put points` (0.5 writes (set (OWNER points NAME) …))",
    "BustedJunk/GolfOld.rkt": "older than 0.5: `put points` (0.5 writes (set (OWNER points NAME) …))",
    "BustedJunk/War.gdl": "older than 0.5: `put points` (0.5 writes (set (OWNER points NAME) …))",
    "BustedJunk/generated2.gdl": "older than 0.5: `put points`; also `' N` with a space inside variables",
    "BustedJunk/NoThanks.gdl": "one `(` more than `)`: unbalanced in any grammar",
    "BustedJunk/War2.gdl": "one `(` more than `)`: unbalanced in any grammar",
    "BustedJunk/Pairs3.gdl": "lower-case attribute words (`value`): 0.5 names are upper-case letters only",
    "CrazyEights4.gdl": "(set (game sto EIGHTSUIT) (SUIT (HEARTS))): in 0.5 `set` of a `sto` cell takes an "
                        "integer, and no rule of 0.5 sets a string",
    "GoFish2.gdl": "unfinished (its comments say so): a `)` too many closes the game after the deal, leaving the "
                   "stages and the scoring outside it, and `(top 'THEIRRANK (top …))` is misplaced",
    "StealingBundles5.gdl": "valid, but its deal overruns the deck (5 players x 4 cards from the 48 left): a "
                            "move from the empty stock, an error in CardStockXam too (it takes the last card of "
                            "an empty list)",
}


def git_dir() -> Path:
    return Path(os.environ.get("RECYCLE_CARDSTOCK_GIT", DEFAULT_GIT))


def list_files(git: Path) -> list[str]:
    """The game files (.gdl and .rkt) under CardStockXam/games in the snapshot's HEAD."""
    out = subprocess.run(["git", "--git-dir", str(git), "ls-tree", "-r", "-z", "--name-only", "HEAD", FOLDER],
                         capture_output=True, check=True).stdout.decode("utf-8")
    return sorted(p for p in out.split("\0") if p.endswith((".gdl", ".rkt")))


def read_file(git: Path, path: str) -> bytes:
    return subprocess.run(["git", "--git-dir", str(git), "show", f"HEAD:{path}"], capture_output=True,
                          check=True).stdout


def auto_reading(src: SourceFile) -> str:
    """What --dialect auto makes of the file: `detected` (read as xam), `same` (it holds no old form:
    both readings agree) or `modern` (old forms that auto does not switch for), `-` if unreadable."""
    try:
        forms, _ = read_sexprs(src)
    except LoadError:
        return "-"
    if detect(forms) is not None:
        return "detected"
    return "same" if translate(forms) == forms else "modern"


def sweep_one(git: Path, path: str, games: int) -> dict:
    """One row: file, kind (a .rkt file older than the 0.5 grammar, a file of the authors' folder of
    broken experiments BustedJunk/, or a game file of the 0.5 grammar), auto reading, status, detail."""
    name = path.removeprefix(FOLDER + "/")
    kind = "pre-0.5" if path.endswith(".rkt") else "broken-junk" if name.startswith("BustedJunk/") else "xam"
    row: dict = {"file": name, "kind": kind}
    try:
        src = SourceFile.from_bytes(read_file(git, path), name, "xam")
        row["auto"] = auto_reading(src)
        sess = GameSession.from_source(src)
    except LoadError as e:
        first = e.diagnostics[0]
        row.setdefault("auto", "-")
        row.update(status="rejected", errors=len(e.diagnostics), detail=first.format().splitlines()[0])
        return row
    except RecycleError as e:
        row.update(status="rejected", errors=1, detail=str(e).splitlines()[0])
        row.setdefault("auto", "-")
        return row
    spec = BatchSpec(name, {}, tuple(parse_lineup(None, sess.n_players)), SEED)
    records = run_batch(spec, games, session=sess)
    failed = [r for r in records if r.error]
    if failed:
        first = (failed[0].error or "").splitlines()[0]
        row.update(status="errors in play", detail=f"{len(failed)}/{games} games end in an error: {first}")
    else:
        row.update(status="plays", detail=f"{games} random games, {sess.n_players} players")
    return row


def sweep(games: int = 20, git: Path | None = None) -> list[dict]:
    git = git or git_dir()
    return [sweep_one(git, p, games) for p in list_files(git)]


def markdown(rows: list[dict], games: int) -> str:
    plays = [r for r in rows if r["status"] == "plays"]
    xam = [r for r in rows if r["kind"] == "xam"]
    lines = [
        "# The older CardStockXam game files",
        "",
        "<!-- generated by bench/xam_sweep.py --write; do not edit by hand -->",
        "",
        f"Every game file of CardStock's `{FOLDER}/` (the snapshot's HEAD), read with `--dialect xam`",
        f"(docs/language.md, \"Older dialect (CardStockXam)\") and, when it loads, played {games} times by",
        f"random players (seed {SEED}). {len(plays)} of {len(rows)} files load and play "
        f"({sum(r['status'] == 'plays' for r in xam)} of the {len(xam)} files of the 0.5 grammar outside "
        "`BustedJunk/`).",
        "",
        "Kind: `xam` a file of the 0.5 grammar; `broken-junk` a file of the authors' `BustedJunk/` folder of",
        "abandoned experiments; `pre-0.5` a `.rkt` file older than that grammar. Auto: what `--dialect auto`",
        "(the default) makes of the file: `detected` it switches to CardStockXam by itself, `same` the file",
        "holds no old form and both readings agree, `-` the file cannot be read. Status: `plays` it loads",
        "and every game ends without an error; `rejected` it does not load, and the detail is the first",
        "error (file:line:col, class, message: `recycle check --dialect xam` shows them all with carets);",
        "`errors in play` it loads but games end in a run-time error, the first of which is shown.",
        "",
        "| File | Kind | Auto | Status | Detail |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        detail = r["detail"].replace("|", "\\|")
        if r["file"] in WHY:
            detail = f"{WHY[r['file']]}. First error: {detail}"
        lines.append(f"| {r['file']} | {r['kind']} | {r['auto']} | {r['status']} | {detail} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="random games per file (default 20)")
    ap.add_argument("--write", action="store_true", help="write docs/xam.md")
    ap.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = ap.parse_args(argv)
    git = git_dir()
    if not git.is_dir():
        print(f"no CardStock snapshot at {git} (set RECYCLE_CARDSTOCK_GIT)", file=sys.stderr)
        return 1
    rows = sweep(args.games, git)
    text = markdown(rows, args.games)
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        print(text, end="")
    if args.write:
        (REPO / "docs" / "xam.md").write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
