"""Differential test against CardStock: the same corpus games, random players, compared distributions.

    python bench/differential.py [--games N] [--only NAME ...] [--budget SECONDS] [--jobs J]
                                 [--cache DIR] [--render-only]
    python bench/differential.py --dir bench/novel [GAME ...] [--out STEM] [same options]

Not run in CI: it needs mono and a CardStock build (shared/tools/cardstock/build.sh, which this
script runs; it is quick when the build is up to date).  For every corpus game (cardstock/ and
valet/) it plays N seeded random games (default 500) in each interpreter:

* CardStock, through bench/differential_driver.cs (our own small driver, compiled here against
  the built CardStock.dll): game i reseeds CardStock's random source with a mix of (1, i).  One process at
  a time, with a wall-time budget per game file; what a budget leaves unplayed is played by the
  next run (the results are cached as JSON lines, one file per game, so reruns are cheap and a
  run can be interrupted and resumed).
* recycle, through play_game with RandomPlayer, game i with seed derive(2024, "diff", i).  Cached
  too, keyed by a digest of the recycle sources and the game file, so a change to the interpreter
  replays exactly the games it may change.

A game takes part when both interpreters load it and finish most games without an error.  Per
game it compares, over the games without an error: decisions per game and turns per game (a turn
= a maximal run of decisions by one seat) with the two-sided Mann-Whitney U test, and the winner
(the seat with the unique top score, or "tie") with a chi-square test of the 2 x k table.  The
p-values of all tests are adjusted together with Holm's method; a difference is significant when
its adjusted p-value is below 0.01.  Ties are scored the same way on both sides on purpose:
CardStock breaks a tie on the top score by seat number (spec: Differences from CardStock, row
44), which would otherwise show up as a difference in win rates that is only a convention.

Writes docs/differential.json (the figures) and docs/differential.md (the table, with the
explanation of every significant difference from EXPLAINED below); `--render-only` rewrites the
page from the JSON file.

Games from outside the corpus (`--dir FOLDER`, every .rcy/.gdl file in it, and/or game files
given as arguments) are compared the same way, with the same caches and statistics, but written
to a page of their own (docs/differential-novel.json and .md, or `--out STEM`), whose Holm
correction covers only its own games; each is named `FOLDER/STEM` after its folder's name.

scipy is needed for the tests (an optional dependency of the bench).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # the working tree, installed or not

DEFAULT_CORPUS = REPO.parent / "shared" / "corpus"
CARDSTOCK_TOOLS = REPO.parent / "shared" / "tools" / "cardstock"
DRIVER_SOURCE = Path(__file__).resolve().parent / "differential_driver.cs"
OUT_JSON = REPO / "docs" / "differential.json"
OUT_MD = REPO / "docs" / "differential.md"
OUT_OTHER = REPO / "docs" / "differential-novel"  # + .json / .md: games given by --dir or as paths
GAME_SUFFIXES = (".rcy", ".gdl")
ALPHA = 0.01
OUR_SEED = 2024
MAX_DECISIONS = 2000  # both sides: our default limit (spec §16.3), passed to the driver as its cut-off
METRICS = ("decisions", "turns", "winner")
DRIVER_VERSION = "mixed-seeds"  # part of CardStock's cache names: change it when the driver's games change

# Every significant difference, explained: "intended" (a documented difference, see
# docs/language.md "Differences from CardStock") or "fixed" (a bug of ours, fixed since).
_ROW1 = ("intended (docs/language.md §28, row 1): the asked player hands over every card of the rank here; "
         "CardStock's `(repeat all (move (top 'THEIRRANK) …))` over a `let`-bound filter moves one card")
_ROW2 = ("intended (docs/language.md §28, row 2): the Ambassador exchange binds 'C in two `any` one after the "
         "other; CardStock does not keep the two bindings apart and in about two exchanges of three discards the "
         "same card twice, so that player keeps three influence cards and games last longer")
_ROW3 = ("intended (docs/language.md §28, row 3): `(runs all 3 HAND …)` offers every run once here, in CardStock "
         "only the runs that end at the top of a block, some of them twice, so other melds are made; with the "
         "run melds taken out of the game the two interpreters agree (150 games each: 1922.4 and 1914.2 "
         "decisions per game, p = 0.54)")
EXPLAINED: dict[str, str] = {
    "cardstock/Rummy2": _ROW3 + ".",
    "cardstock/GoFish2": _ROW1 + " (with one card moved, our interpreter gives 69.4 decisions per game).",
    "cardstock/GoFish4": _ROW1 + ".",
    "valet/GoFish4": _ROW1 + ".",
    "novel/MaxTies3": ("intended (spec §18, row 26; docs/language.md §28, row 4): `max` and `min` over a point map "
                       "that ties most cards break the tie uniformly here, in CardStock the last tied card of the "
                       "union (the last seat's) wins half the time, so seat 2 takes 58% of the games there (28% "
                       "here); with a point map without ties (every rank and suit scored apart) the two interpreters "
                       "agree (600 games each: winner p = 0.64)."),
    "novel/RepeatInc2": ("intended (spec §18, row 13; docs/language.md §28, row 5): `(repeat 3 (inc X 1))` adds 3 "
                         "here, 1 in CardStock (its N copies are built, each reading X, before any runs), and "
                         "`(repeat N (dec Y 1))` takes N here, 1 there; with those two written as one `inc` and one "
                         "guarded `dec`, our interpreter gives CardStock's winners (1,500 games: 30.1 / 51.5 / 18.5% "
                         "against CardStock's 30.1 / 50.7 / 19.2%, p = 0.86)."),
    "novel/ArriveEnded3": ("intended (spec §18, row 12; docs/language.md §28, row 7): the inner stage's end holds on "
                           "arrival in the second pass; CardStock pushes its cycle and never pops it, so when the "
                           "first stage ends it pops that stale cycle instead of its own, and the second stage starts "
                           "with seat 1 there, with seat 0 (the base cycle's) here: every game's seats of decisions "
                           "are 0012200 then 12012 in CardStock, 01201 here. With `(do ((cycle current next)))` "
                           "between the stages our interpreter plays CardStock's order in every game and the winners "
                           "agree (600 games each, p = 0.35)."),
    "novel/SeatLoop3": ("intended (spec §18, row 19; docs/language.md §28, row 6): an option runs "
                        "`(all player 'P (… (cycle current 'P)))`, and the last seat it visits becomes current; `all` "
                        "inside a choice visits the players in reverse order in CardStock, so another seat is current "
                        "and turns run differently (9.8 turns per game there, 9.6 here). Moved out of the choice (the "
                        "option sets a flag, a `do` after it runs the same `all`), the two interpreters agree (1,500 "
                        "games each: 9.9 and 9.9 turns, p = 0.27)."),
    "novel/LetChoice2": ("Intended (spec §18, row 17): a `let` program item whose body is a "
                         "`choice` is not implemented in CardStock (NotImplementedException in ProcessMultiaction); "
                         "LetBind2 binds the same names inside the choice and the two interpreters agree."),
    "cardstock/Coup4": _ROW2 + " (changed to discard one card twice in every exchange, our interpreter gives "
                       "57.0 decisions per game; without the exchange the two interpreters agree: "
                       "42.7 and 43.0 decisions per game over 300 games each).",
}

# What writing the games of bench/novel/ showed besides the table: forms one interpreter rejects (rendered on the
# page of games outside the corpus).
NOVEL_NOTES: list[str] = [
    "CardStock's grammar (0.5.10) takes no variable as an operand of a team or player comparison: "
    "`(== (team 'P) 'T)` is a syntax error there, a comparison of two teams here (spec §12.2; not a row of "
    "spec §18). `TeamRace4` writes `(all team 'T (any 'T 'P …))` instead.",
    "CardStock's grammar takes no boolean variable where a condition stands: `(let (> (size …) 2) 'BIG ('BIG "
    "(inc …)))` is a syntax error there, a guarded clause here (spec §12.3: a boolean variable may be used "
    "wherever a boolean is expected; not a row of spec §18). Bind the integer instead: `(let (size …) 'N ((> 'N 2) "
    "…))`, as `LetBind2` does.",
    "`(+ a b c)` and `(cycle next (2 player))` are syntax errors in CardStock (spec §18, row 48: n-ary `+` and "
    "player expressions as `cycle` targets are not in its grammar); the games nest `+` and cycle to variables.",
    "`(all ((current player) iloc HAND) 'C (move 'C (top (game vloc OUT))))`, a loop over a stored pile that "
    "its body empties, crashes CardStock (InvalidOperationException: Collection was modified) as spec §18 row "
    "15 says; here it moves every card (the loop walks a snapshot). A one-off probe showed it; the games "
    "use `repeat all` for that, as the corpus does.",
    "Run-time errors the spec defines stop the game in both interpreters alike, as drafts of three games showed "
    "(the games now guard against them): a `move` from an empty pile while the options of a choice are built "
    "(`MaxTies3`; CardStock: InvalidOperationException after \"Moving from empty\", here `no-card`), the owner "
    "of the `max` of an empty union (`CycleNested3`; here `empty`) and a choice left without options "
    "(`LetBind2`; here `no-option`; spec §19.4).",
]

# The leads of issue 14 (a first screen of 200 games per interpreter, mean decisions per game): what it
# saw, and why a lead that is not significant here is not (the figures come from the table).
LEADS: dict[str, str] = {
    "cardstock/GoFish2": "15% fewer decisions here",
    "cardstock/NinetyEight2": "10% fewer decisions here",
    "cardstock/Coup4": "9% fewer decisions here",
    "cardstock/CrazyEights4": "9% fewer decisions here; the count has a long tail (games up to the "
                              "2,000-decision cut-off on both sides), so means of a few hundred games move a lot",
    "cardstock/PageOne3": "8% more decisions here; the count has a long tail",
    "cardstock/Rummy2": "8% more decisions here; most games are cut off at 2,000 decisions on both sides, and "
                        "what differs comes from `runs all` (docs/language.md §28, row 3: with the run melds "
                        "taken out of the game the two interpreters agree)",
}


# ---------------------------------------------------------------- statistics (pure, unit-tested)

def turns_of(choosers: list[int]) -> int:
    """Number of turns in a game: maximal runs of consecutive decisions by the same seat."""
    return sum(1 for i, s in enumerate(choosers) if i == 0 or choosers[i - 1] != s)


def winner_of(scores: list[int] | None, maximise: bool) -> str:
    """The seat with the unique best score ("0", "1", ...), or "tie" (or "none" without scores)."""
    if not scores:
        return "none"
    best = max(scores) if maximise else min(scores)
    top = [i for i, s in enumerate(scores) if s == best]
    return str(top[0]) if len(top) == 1 else "tie"


def mann_whitney(a: list[float], b: list[float]) -> float:
    """Two-sided Mann-Whitney U p-value; 1.0 when both samples hold one and the same value."""
    from scipy import stats
    if not a or not b:
        return math.nan
    if len(set(a) | set(b)) == 1:
        return 1.0
    return float(stats.mannwhitneyu(a, b, alternative="two-sided").pvalue)


def chi_square(a: list[str], b: list[str]) -> float:
    """p-value of the chi-square test of homogeneity of two categorical samples (2 x k table).

    Categories seen in neither sample are dropped; one category left means no difference (1.0).
    """
    from scipy import stats
    if not a or not b:
        return math.nan
    cats = sorted(set(a) | set(b))
    if len(cats) == 1:
        return 1.0
    table = [[a.count(c) for c in cats], [b.count(c) for c in cats]]
    return float(stats.chi2_contingency(table, correction=False).pvalue)


def holm(pvalues: list[float]) -> list[float]:
    """Holm's step-down adjustment of a family of p-values (NaN entries stay NaN and do not count)."""
    idx = sorted((i for i, p in enumerate(pvalues) if not math.isnan(p)), key=lambda i: pvalues[i])
    m = len(idx)
    out = [math.nan] * len(pvalues)
    running = 0.0
    for rank, i in enumerate(idx):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        out[i] = running
    return out


def summarise(records: list[dict]) -> dict:
    """The per-game samples of one interpreter's records (games ending in an error left out)."""
    ok = [r for r in records if r["end"] != "error"]
    ends: dict[str, int] = {}
    for r in records:
        ends[r["end"]] = ends.get(r["end"], 0) + 1
    return {
        "games": len(records),
        "ends": dict(sorted(ends.items())),
        "decisions": [r["decisions"] for r in ok],
        "turns": [turns_of(r["choosers"]) for r in ok],
        "options": [sum(r["options"]) / len(r["options"]) if r["options"] else 0.0 for r in ok],
        "winner": [winner_of(r["scores"], r["max"]) for r in ok],
    }


def _mean(xs: list[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def compare(cardstock: list[dict], ours: list[dict]) -> dict:
    """Figures and raw p-values of one game: means, win rates per seat, p per metric."""
    cs, us = summarise(cardstock), summarise(ours)
    seats = sorted({w for w in cs["winner"] + us["winner"] if w.isdigit()}, key=int)
    row = {"n_cardstock": cs["games"], "n_ours": us["games"], "ends_cardstock": cs["ends"], "ends_ours": us["ends"]}
    for m in ("decisions", "turns", "options"):
        row[f"{m}_cardstock"] = _mean(cs[m])
        row[f"{m}_ours"] = _mean(us[m])
    for side, s in (("cardstock", cs), ("ours", us)):
        n = len(s["winner"]) or 1
        row[f"wins_{side}"] = {w: s["winner"].count(w) / n for w in [*seats, "tie"]}
    row["p"] = {"decisions": mann_whitney(cs["decisions"], us["decisions"]),
                "turns": mann_whitney(cs["turns"], us["turns"]),
                "winner": chi_square(cs["winner"], us["winner"])}
    return row


def adjust(rows: dict[str, dict]) -> None:
    """Holm-adjust the p-values of every metric of every game together; mark significant ones."""
    keys = [(g, m) for g in sorted(rows) for m in METRICS]
    adj = holm([rows[g]["p"][m] for g, m in keys])
    for (g, m), q in zip(keys, adj, strict=True):
        rows[g].setdefault("p_adj", {})[m] = q
    for g in rows:
        rows[g]["significant"] = [m for m in METRICS if rows[g]["p_adj"][m] < ALPHA]


# ---------------------------------------------------------------- rendering (pure, unit-tested)

def _f(v, digits=1) -> str:
    return "—" if v is None else f"{v:.{digits}f}"


def _rel(a, b) -> str:
    if a is None or b is None or a == 0:
        return "—"
    return f"{100 * (b - a) / a:+.1f}%"


def _p(q: float) -> str:
    if math.isnan(q):
        return "—"
    return "<1e-6" if q < 1e-6 else f"{q:.2g}" if q < 0.01 else f"{q:.2f}"


def _wins(w: dict) -> str:
    return " / ".join(f"{100 * w[k]:.0f}" for k in w)


def render(data: dict, explained: dict[str, str] | None = None, corpus: bool = True) -> str:
    """docs/differential.md from the figures of docs/differential.json.

    `corpus` False: the page of games from outside the corpus (its own title, no leads of issue 14).
    """
    explained = EXPLAINED if explained is None else explained
    what = "corpus" if corpus else "novel"
    rows, skipped = data["rows"], data.get("skipped", {})
    sig = [g for g in sorted(rows) if rows[g]["significant"]]
    short = [g for g in sorted(rows) if rows[g]["n_cardstock"] < data["games"]]
    out = [
        "# Differential test against CardStock" + ("" if corpus else ": games outside the corpus"),
        "",
        f"Generated by `python bench/differential.py{'' if corpus else ' --dir …'}` (do not edit by hand; "
        "not run in CI: it needs mono and a CardStock build, see the script's docstring). Each "
        f"{'corpus game' if corpus else 'game given to it (not from the corpus)'} that both interpreters run "
        "is played with uniform random players in CardStock (the reference interpreter) and in `recycle`, "
        f"up to {data['games']} seeded games each (the `N` columns give the games played; fewer when "
        "CardStock's time budget ran out), with a cut-off at "
        f"{data['max_decisions']} decisions on both sides.",
        "",
        "Columns: mean `decisions` per game and mean `turns` per game (a turn is a run of decisions by one "
        "seat), CardStock → recycle with the relative difference; `wins` are the per-seat shares of games "
        "won alone, then the share of games with a tie on the top score, in percent (CardStock / recycle). "
        "`p` columns: p-values of the two-sided Mann-Whitney U test (decisions, turns) and of the chi-square "
        "test of the winner distribution, Holm-adjusted over all "
        f"{3 * len(rows)} tests; **bold** marks a difference significant at {ALPHA}. Games that ended in "
        "an error are left out of the figures (their counts are in the notes).",
        "",
        f"**Summary:** {len(rows)} games compared, {len(sig)} with a significant difference"
        + (f" ({', '.join(sig)})" if sig else "") + f"; {len(skipped)} {what} files not compared."
        + (" CardStock's time budget left " + ", ".join(f"`{g}` at N = {rows[g]['n_cardstock']}" for g in short)
           + "." if short else ""),
        "",
        "| game | N CardStock | N recycle | decisions | p | turns | p | wins (CardStock) | wins (recycle) | p |",
        "|---|---:|---:|---|---:|---|---:|---|---|---:|",
    ]
    for g in sorted(rows):
        r = rows[g]

        def cell(text, m, r=r):
            return f"**{text}**" if m in r["significant"] else text

        dec, trn = (f"{_f(r[m + '_cardstock'])} → {_f(r[m + '_ours'])} ({_rel(r[m + '_cardstock'], r[m + '_ours'])})"
                    for m in ("decisions", "turns"))
        out.append(f"| `{g}` | {r['n_cardstock']} | {r['n_ours']} | {cell(dec, 'decisions')} | "
                   f"{cell(_p(r['p_adj']['decisions']), 'decisions')} | {cell(trn, 'turns')} | "
                   f"{cell(_p(r['p_adj']['turns']), 'turns')} | {_wins(r['wins_cardstock'])} | "
                   f"{_wins(r['wins_ours'])} | {cell(_p(r['p_adj']['winner']), 'winner')} |")
    out += ["", "## Significant differences", ""]
    if not sig:
        out.append("None.")
    for g in sig:
        why = explained.get(g, "**not yet explained.**")
        out.append(f"- `{g}` ({', '.join(rows[g]['significant'])}): {why}")
    if not corpus and NOVEL_NOTES:
        out += ["", "## Found while writing the games", ""] + [f"- {note}" for note in NOVEL_NOTES]
    leads = [g for g in sorted(LEADS) if g in rows] if corpus else []
    if leads:
        out += ["", "## The leads of issue 14", "",
                "A first screen (200 games each, mean decisions per game) pointed at these games; here is what "
                "the test makes of them.", ""]
        for g in leads:
            r = rows[g]
            verdict = ("significant: explained above" if "decisions" in r["significant"] else
                       f"not significant (p = {_p(r['p']['decisions'])} before Holm's correction, "
                       f"{_p(r['p_adj']['decisions'])} after)")
            out.append(f"- `{g}`: the screen saw {LEADS[g]}. With N = {r['n_cardstock']}: "
                       f"{_f(r['decisions_cardstock'])} → {_f(r['decisions_ours'])} "
                       f"({_rel(r['decisions_cardstock'], r['decisions_ours'])}), {verdict}.")
    odd = [g for g in sorted(rows)
           if set(rows[g]["ends_cardstock"]) - {"normal"} or set(rows[g]["ends_ours"]) - {"normal"}]
    if odd:
        out += ["", "## Games that did not all end normally", "",
                "`limit`: cut off at the decision limit; `stuck`: ended by CardStock's guard of 200 steps "
                "without a decision; `step_limit`: ended by ours; `error`: a run-time error.", ""]
        for g in odd:
            out.append(f"- `{g}`: CardStock {_ends(rows[g]['ends_cardstock'])}; recycle {_ends(rows[g]['ends_ours'])}")
    if skipped:
        out += ["", f"## {what.capitalize()} files not compared", ""]
        if corpus:
            out += ["Most `valet/` files use forms that CardStock's grammar does not read (the Valet additions).", ""]
        for g in sorted(skipped):
            why = skipped[g].replace(str(DEFAULT_CORPUS) + "/", "").replace(str(REPO) + "/", "")
            # a file of the other page is explained here (the corpus page explains only its compared games)
            out.append(f"- `{g}`: {why}" + (f" {explained[g]}" if g in explained and not corpus else ""))
    return "\n".join(out) + "\n"


def _ends(ends: dict) -> str:
    return ", ".join(f"{v} {k}" for k, v in ends.items())


# ---------------------------------------------------------------- running the interpreters

def corpus_files(root: Path) -> list[Path]:
    return sorted(p for p in root.glob("*/*") if p.is_file() and p.suffix in GAME_SUFFIXES)


def named_files(dirs: list[Path], paths: list[Path]) -> dict[str, Path]:
    """Games from outside the corpus, by name `FOLDER/STEM`: each folder's game files, then the paths.

    A missing folder or file, or a file that is not a game file, is a user error (ValueError).
    """
    files: list[Path] = []
    for d in dirs:
        if not d.is_dir():
            raise ValueError(f"--dir {d}: not a folder")
        found = sorted(p for p in d.iterdir() if p.is_file() and p.suffix in GAME_SUFFIXES)
        if not found:
            raise ValueError(f"--dir {d}: no {' or '.join(GAME_SUFFIXES)} file in it")
        files += found
    for p in paths:
        if not p.is_file() or p.suffix not in GAME_SUFFIXES:
            raise ValueError(f"{p}: not a {' or '.join(GAME_SUFFIXES)} file")
        files.append(p)
    named: dict[str, Path] = {}
    for p in files:
        name = f"{p.resolve().parent.name}/{p.stem}"
        if named.get(name, p).resolve() != p.resolve():
            raise ValueError(f"{p}: two games named {name}")
        named[name] = p
    return named


def build_driver(tmp: Path) -> Path:
    """Build CardStock (idempotent) and our driver; the driver's path."""
    env = dict(os.environ, CARDSTOCK_GIT=os.environ.get("CARDSTOCK_GIT", "/work/.mirror/mgoadric+cardstock/repo"),
               ANTLR_GIT=os.environ.get("ANTLR_GIT", "/work/.mirror/antlr+antlr4/repo"), TMPDIR=str(tmp))
    subprocess.run(["bash", str(CARDSTOCK_TOOLS / "build.sh")], env=env, check=True, capture_output=True)
    bin_dir = tmp / "cardstock-build" / "bin"
    exe = bin_dir / "differential-driver.exe"
    if not exe.exists() or exe.stat().st_mtime < DRIVER_SOURCE.stat().st_mtime:
        subprocess.run(["mcs", "-langversion:7.2", "-optimize+", "-nologo", "-target:exe",
                        f"-r:{bin_dir / 'Antlr4.Runtime.Standard.dll'}", f"-r:{bin_dir / 'CardStock.dll'}",
                        f"-out:{exe}", str(DRIVER_SOURCE)], check=True)
    return exe


def _read_cache(path: Path) -> list[dict]:
    if not path.exists():
        return []
    recs = []
    for line in path.read_text("utf-8").splitlines():
        try:
            recs.append(json.loads(line))
        except json.JSONDecodeError:
            break  # a line cut by an interruption: replay from there
    return recs


_CARDSTOCK_STDERR: dict[str, str] = {}  # CardStock's last complaint per game file, for the notes


def run_cardstock(exe: Path, game: Path, cache: Path, n: int, budget: float) -> list[dict]:
    """CardStock's records of runs 0..n-1, playing the missing ones within `budget` seconds."""
    recs = _read_cache(cache)
    if len(recs) < n:
        cache.parent.mkdir(parents=True, exist_ok=True)
        with cache.open("w", encoding="utf-8") as f:  # rewrite the valid prefix, then append
            for r in recs:
                f.write(json.dumps(r) + "\n")
        try:
            proc = subprocess.run(["mono", str(exe), str(game.resolve()), str(len(recs)), str(n - len(recs)),
                                   "--seed", "1", "--limit", str(MAX_DECISIONS), "--budget", str(budget)],
                                  capture_output=True, text=True, timeout=budget + 120,
                                  cwd=exe.parent)  # CardStock writes a stray transcript stub in its cwd
            lines = proc.stdout
            if proc.stderr.strip():
                _CARDSTOCK_STDERR[str(game)] = proc.stderr.strip().splitlines()[-1]
        except subprocess.TimeoutExpired as e:  # one game longer than the budget: keep what finished
            lines = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        new = [json.loads(x) for x in lines.splitlines() if x.startswith("{") and x.endswith("}")]
        with cache.open("a", encoding="utf-8") as f:
            for r in new:
                f.write(json.dumps(r) + "\n")
        recs += new
    return recs[:n]


def _source_digest() -> str:
    h = hashlib.sha256()
    for p in sorted((REPO / "recycle").rglob("*.py")):
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def _play_ours(args: tuple) -> dict:
    path, run = args
    from recycle.compiler import load_program
    from recycle.engine.algorithms import derive
    from recycle.engine.play import play_game
    from recycle.players.random_player import RandomPlayer
    prog = _PROGRAMS.get(path)
    if prog is None:
        prog = _PROGRAMS[path] = load_program(Path(path))
    try:
        r = play_game(prog, derive(OUR_SEED, "diff", run), [RandomPlayer() for _ in range(prog.n_players)],
                      MAX_DECISIONS)
    except Exception as e:  # a host failure counts as an error
        return {"run": run, "end": "error", "decisions": 0, "choosers": [], "options": [], "scores": [],
                "max": True, "error": repr(e)}
    end = {"normal": "normal", "decision_limit": "limit", "error": "error"}.get(r.end_reason, r.end_reason)
    return {"run": run, "end": end, "decisions": r.n_decisions, "choosers": [d.chooser for d in r.decisions],
            "options": [d.branching for d in r.decisions], "scores": r.scores or [], "max": r.direction == "max",
            "error": r.error.text.splitlines()[0] if r.error else None}


_PROGRAMS: dict = {}


def run_ours(game: Path, cache: Path, n: int, jobs: int) -> list[dict]:
    """Our records of runs 0..n-1 (cached under a digest of the interpreter and the game file)."""
    recs = _read_cache(cache)
    if len(recs) < n:
        todo = [(str(game), i) for i in range(len(recs), n)]
        if jobs > 1:
            from multiprocessing import Pool
            with Pool(jobs) as pool:
                new = pool.map(_play_ours, todo, chunksize=8)
        else:
            new = [_play_ours(t) for t in todo]
        cache.parent.mkdir(parents=True, exist_ok=True)
        with cache.open("a", encoding="utf-8") as f:
            for r in new:
                f.write(json.dumps(r) + "\n")
        recs += new
    return recs[:n]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Compare random games in CardStock and recycle: the corpus, "
                                             "or the games of --dir folders and of the paths given.")
    ap.add_argument("paths", nargs="*", type=Path, help="game files outside the corpus (own page)")
    ap.add_argument("--dir", type=Path, action="append", default=[], dest="dirs",
                    help="a folder of game files outside the corpus (own page; may be repeated)")
    ap.add_argument("--out", type=Path, default=None,
                    help=f"page of --dir/paths: STEM.json and STEM.md (default {OUT_OTHER.relative_to(REPO)})")
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--games", type=int, default=500, help="games per file and interpreter (default 500)")
    ap.add_argument("--only", nargs="*", default=None, help="names (e.g. cardstock/GoFish2) to (re)play")
    ap.add_argument("--budget", type=float, default=120.0, help="CardStock wall seconds per file and run")
    ap.add_argument("--jobs", type=int, default=1, help="processes for our games")
    ap.add_argument("--cache", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "recycle-differential")
    ap.add_argument("--render-only", action="store_true", help="rewrite the page from its JSON file")
    args = ap.parse_args(argv)
    corpus = not args.dirs and not args.paths
    if args.out is not None and corpus:
        ap.error("--out names the page of --dir or game paths; the corpus page is docs/differential.md")
    if args.games < 1:
        ap.error("--games must be at least 1")
    stem = args.out if args.out is not None else OUT_OTHER
    out_json, out_md = (OUT_JSON, OUT_MD) if corpus else (stem.with_suffix(".json"), stem.with_suffix(".md"))
    try:
        files = ({p.relative_to(args.corpus).with_suffix("").as_posix(): p for p in corpus_files(args.corpus)}
                 if corpus else named_files(args.dirs, args.paths))
    except ValueError as e:
        ap.error(str(e))
    if args.render_only:
        if not out_json.exists():
            ap.error(f"{out_json}: no figures to render (run without --render-only first)")
        out_md.write_text(render(json.loads(out_json.read_text("utf-8")), corpus=corpus), "utf-8")
        return 0
    tmp = Path(os.environ.get("TMPDIR", "/tmp"))
    if not (CARDSTOCK_TOOLS / "build.sh").exists():
        ap.error(f"{CARDSTOCK_TOOLS}: the CardStock harness (build.sh) is not there: the shared folder "
                 "must be beside the repository")
    exe = build_driver(tmp)
    data = json.loads(out_json.read_text("utf-8")) if out_json.exists() else {"rows": {}, "skipped": {}}
    if not corpus and args.only is None:  # the page is exactly the games asked for: forget removed ones
        for part in ("rows", "skipped"):
            data[part] = {g: v for g, v in data[part].items() if g in files}
    data.update(games=args.games, max_decisions=MAX_DECISIONS)
    for name, path in files.items():
        if args.only is not None and name not in args.only:
            continue
        compare_file(name, path, data, exe, args)
        adjust(data["rows"])
        out_json.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", "utf-8")
    adjust(data["rows"])
    out_json.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", "utf-8")
    out_md.write_text(render(data, corpus=corpus), "utf-8")
    print(f"wrote {out_json} and {out_md}: {len(data['rows'])} games")
    return 0


def compare_file(name: str, path: Path, data: dict, exe: Path, args: argparse.Namespace) -> None:
    """Play one game file in both interpreters (or note why not) into data's rows or skipped."""
    from recycle.compiler import load_program
    from recycle.errors import LoadError
    data["rows"].pop(name, None)
    data["skipped"].pop(name, None)
    file_digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    try:
        load_program(path)
    except LoadError as e:
        data["skipped"][name] = "recycle does not load it: " + str(e).splitlines()[0]
        print(f"{name}: skipped ({data['skipped'][name]})", flush=True)
        return
    t0 = time.perf_counter()
    stem = f"{name.replace('/', '__')}-{file_digest}"
    cs = run_cardstock(exe, path, args.cache / "cardstock" / f"{stem}-{DRIVER_VERSION}.jsonl", args.games,
                       args.budget)
    t1 = time.perf_counter()
    if not cs or sum(r["end"] == "error" for r in cs) > len(cs) / 2:
        first = next((r.get("error") for r in cs if r.get("error")),
                     _CARDSTOCK_STDERR.get(str(path), "no game finished"))
        data["skipped"][name] = f"CardStock does not run it: {first}"
        print(f"{name}: skipped ({data['skipped'][name]})", flush=True)
        return
    ours = run_ours(path, args.cache / "ours" / f"{stem}-{_source_digest()}.jsonl", len(cs), args.jobs)
    t2 = time.perf_counter()
    row = compare(cs, ours)
    data["rows"][name] = row
    print(f"{name}: N {len(cs)}/{len(ours)} decisions {_f(row['decisions_cardstock'])} vs "
          f"{_f(row['decisions_ours'])}, turns {_f(row['turns_cardstock'])} vs {_f(row['turns_ours'])} "
          f"p {row['p']} ({t1 - t0:.0f}+{t2 - t1:.0f} s)", flush=True)


if __name__ == "__main__":
    sys.exit(main())
