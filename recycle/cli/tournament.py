"""`recycle tournament`: players against each other on one game, seats rotated; win rates and ratings.

The schedule, seeds, files and resumption are recycle.run.tournament's; the standings
(win rates with Wilson intervals, OpenSkill ratings) and the plot recycle.analysis.ratings'.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..analysis import ratings
from ..errors import UsageError
from ..lang import library
from ..players import registry
from ..run import tournament as tm
from ..run.batch import new_seed
from ..run.session import GameSession
from ..run.tables import load_json
from ..run.timing import warn_if_long
from .batches import batch_backend
from .options import (
    add_ai_options,
    add_backend_options,
    add_game_argument,
    add_limit_options,
    add_param_option,
    jobs,
    positive,
    seed_number,
)

DEFAULT_GAMES = 20
OUR_FILES = ("games.csv", "standings.csv", "standings.png", tm.SETTINGS)


def register(sub) -> None:
    """Add `tournament` to the CLI's subcommands."""
    t = sub.add_parser(
        "tournament", help="play players against each other, seats rotated; win rates and ratings",
        description="Play every pairing of the players (for games of more than two seats: every set of as many "
                    "players as seats; with fewer players than seats, one table with the players repeated), "
                    "each table -n games with the seats rotated so that every player sits every seat equally "
                    "often (-n is rounded up to a multiple of the seats). Game g plays with seed "
                    "derive(S, 'game', g), as run g of `recycle run --seed S`. Prints win rates with 95%% "
                    "Wilson intervals and OpenSkill (Plackett-Luce) ratings; needs the extra "
                    "recycle[tournament].")
    add_game_argument(t)
    t.add_argument("--players", help="the players, comma separated: kinds (R, F, M, P) or Python classes "
                                     "module.path:ClassName, e.g. R,F,M,P")
    t.add_argument("-n", "--games", dest="n", type=positive,
                   help=f"games per table (default {DEFAULT_GAMES}; rounded up to whole seat rotations)")
    t.add_argument("--seed", type=seed_number, help="tournament seed S (default: drawn from the OS and printed)")
    add_param_option(t)
    add_ai_options(t)
    add_limit_options(t)
    t.add_argument("--jobs", type=jobs, default=1,
                   help="worker processes, at most the number of CPUs (results identical to --jobs 1)")
    add_backend_options(t)
    t.add_argument("--out", type=Path, help="write tournament.json, games.csv (appended game by game), "
                                           "standings.csv and standings.png here")
    t.add_argument("--resume", action="store_true",
                   help="continue the interrupted tournament in --out (its settings come from tournament.json)")
    t.add_argument("--force", action="store_true", help="start afresh in a non-empty --out, replacing its files; "
                                                        "replace an existing --plot FILE")
    t.add_argument("--plot", type=Path, metavar="FILE",
                   help="also write the standings plot here (.png, .svg or .pdf; a new file, see --force)")
    t.add_argument("--json", action="store_true", help="print the standings as JSON instead of the table")
    t.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    t.set_defaults(func=cmd_tournament)


def parse_players(text: str | None) -> list[str]:
    """R,F,M,P (or RFMP) -> codes; names and Python classes allowed; each player at most once."""
    if not text:
        raise UsageError("tournament: give the players with --players, e.g. --players R,F,M,P")
    split = "," in text or ":" in text or text.lower() in registry.NAMES
    parts = [p.strip() for p in text.split(",")] if split else list(text.strip())
    codes = []
    for p in parts:
        if not p:
            continue
        code = registry.code_of(p)
        if code is None:
            raise UsageError(f"unknown player kind {p!r}: known kinds are {registry.describe()}")
        if code in codes:
            raise UsageError(f"--players names {code} twice: a tournament lists each player once")
        codes.append(code)
    if len(codes) < 2:
        raise UsageError("a tournament needs at least two players, e.g. --players R,M")
    if "H" in codes:
        raise UsageError("a tournament plays without humans: leave H out of --players")
    return codes


def _settings(args, sess: GameSession, path: Path) -> tm.Tournament:
    players = parse_players(args.players)
    seed = args.seed if args.seed is not None else new_seed()
    return tm.Tournament(game=sess.name, game_path=str(path), game_sha256=sess.sha256, players=players,
                         seats=sess.n_players, games=args.n or DEFAULT_GAMES, seed=seed, params=dict(args.param),
                         max_decisions=args.max_decisions, max_steps=args.max_steps, ai_budget=args.ai_budget,
                         move_time=args.move_time)


def _resumed(args, out: Path) -> tuple[GameSession, tm.Tournament]:
    f = out / tm.SETTINGS
    if not f.exists():
        raise UsageError(f"--resume: {out} holds no {tm.SETTINGS}: nothing to resume (start without --resume)")
    try:
        doc = load_json(f.read_text("utf-8"))
        t = tm.Tournament.from_settings(doc if isinstance(doc, dict) else {})  # ({}: "not a tournament's settings")
    except (ValueError, TypeError) as e:
        raise UsageError(f"--resume: {f} cannot be read ({e})") from None
    given = {"--players": (args.players and parse_players(args.players), t.players), "-n": (args.n, t.games),
             "--seed": (args.seed, t.seed), "--ai-budget": (args.ai_budget, t.ai_budget),
             "--move-time": (args.move_time, t.move_time), "--param": (dict(args.param) or None, t.params),
             "--max-decisions": (args.max_decisions, t.max_decisions), "--max-steps": (args.max_steps, t.max_steps)}
    for flag, (mine, theirs) in given.items():
        if mine and mine != theirs:
            raise UsageError(f"--resume: {flag} differs from the tournament in {out} ({mine} here, {theirs} there); "
                             "leave it out to continue that tournament")
    path = library.resolve(args.game)
    sess = GameSession.open(path, dict(t.params), args.dialect)
    if sess.n_players != t.seats:
        raise UsageError(f"--resume: {f} says {t.seats} seats, but {sess.name} has {sess.n_players} players")
    parse_players(",".join(t.players))  # kinds this recycle knows (a UsageError naming the unknown one)
    if sess.sha256 != t.game_sha256:
        raise UsageError(f"--resume: {path} is not the game the tournament in {out} was playing "
                         f"({t.game}, sha256 {t.game_sha256[:12]}…): the file changed or another game was named")
    return sess, t


PLOT_FORMATS = ("png", "svg", "pdf")


def _check_plot(plot: Path | None, force: bool) -> None:
    """--plot FILE, refused before a game is played: a file the user keeps is never replaced without --force,
    and a format the plot cannot take would otherwise be found only after the whole tournament."""
    if plot is None:
        return
    if plot.suffix.lower().lstrip(".") not in (*PLOT_FORMATS, ""):
        raise UsageError(f"--plot {plot}: the extension chooses the format: "
                         + ", ".join("." + f for f in PLOT_FORMATS))
    if plot.is_dir():
        raise UsageError(f"--plot {plot}: is a directory; give a file name")
    if os.path.lexists(plot) and not force:
        raise UsageError(f"--plot {plot}: the file exists; not overwritten (use --force to replace it)")


def _check_out(args) -> None:
    _check_plot(args.plot, args.force)
    out = args.out
    if args.resume and out is None:
        raise UsageError("--resume continues the tournament in --out DIR: give --out")
    if args.resume and args.force:
        raise UsageError("--resume and --force contradict each other: resume, or start afresh with --force")
    if out is None:
        return
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out}: exists and is not a directory")
    if not args.resume and out.is_dir() and any(out.iterdir()) and not args.force:
        raise UsageError(f"--out {out} is not empty: --resume continues the tournament there, --force "
                         "starts afresh (replacing its files), or choose another folder")


def _make_out(args) -> None:
    """Clear (--force) or make the --out folder, once the game has loaded and the tournament is scheduled:
    a game that does not load, or a refused schedule, leaves an earlier tournament's files as they were."""
    out = args.out
    if out is None:
        return
    if not args.resume and args.force:
        for name in OUR_FILES:
            (out / name).unlink(missing_ok=True)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UsageError(f"--out {out}: cannot create the folder ({e.strerror or e})") from None


def _fmt(v, d=3) -> str:
    return "—" if v is None else f"{v:.{d}f}"


def print_standings(t: tm.Tournament, rows, games: dict, played: int) -> None:
    con = Console(width=max(100, Console().width))
    tab = Table(title=f"{t.game}: {played} games, {len(tm.tables(t.players, t.seats))} tables, seed {t.seed}")
    for col in ("#", "player", "games", "win rate", "95% CI", "mu", "sigma", "ordinal"):
        tab.add_column(col, justify="left" if col == "player" else "right", no_wrap=True)
    for i, s in enumerate(rows):
        tab.add_row(str(i + 1), s.player, str(s.games), _fmt(s.win_rate), f"{_fmt(s.ci_low)}-{_fmt(s.ci_high)}",
                    _fmt(s.mu, 2), _fmt(s.sigma, 2), _fmt(s.ordinal, 2))
    con.print(tab)
    if t.seats == 2:
        h2h = tm.head_to_head(games, t.players)
        m = Table(title="head to head: win rate of the row player against the column player")
        m.add_column("")
        for p in t.players:
            m.add_column(p, justify="right", no_wrap=True)
        for a in t.players:
            cells = []
            for b in t.players:
                w, n = h2h.get((a, b), (0.0, 0))
                cells.append(_fmt(w / n) if n else "—")
            m.add_row(a, *cells)
        con.print(m)


def cmd_tournament(args: argparse.Namespace) -> int:
    ratings.require_openskill()
    backend = batch_backend(args)
    _check_out(args)
    out = args.out
    if args.resume:
        sess, t = _resumed(args, out)
    else:
        path = library.resolve(args.game)
        sess = GameSession.open(path, dict(args.param), args.dialect)
        if sess.n_players < 2:
            raise UsageError(f"{sess.name} is a one-player game: a tournament needs games of two seats or more "
                             "(compare players with `recycle run` instead)")
        t = _settings(args, sess, path)
    plan = t.schedule()
    _make_out(args)
    if not args.json:
        print(f"{t.game}: tournament of {', '.join(t.players)}, {len(plan)} games "
              f"({tm.games_per_table(t.games, t.seats)} per table), seed {t.seed}"
              + (" (drawn; pass --seed to repeat)" if args.seed is None and not args.resume else "")
              + (f", {args.jobs} jobs" if args.jobs > 1 else ""), file=sys.stderr)
    done = tm.read_games(out / "games.csv", t.seats, t.players) if args.resume and out is not None else {}
    warn_if_long(sess, [g.lineup for g in plan if g.game not in done], t.ai_budget, t.move_time, args.jobs)
    show = not (args.quiet or args.json) and sys.stderr.isatty()
    try:
        if show:
            with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                          TimeRemainingColumn(), transient=True) as bar:
                task = bar.add_task(t.game, total=len(plan))
                games = tm.run_tournament(sess, t, out, args.jobs, args.resume, lambda k: bar.advance(task, k),
                                           backend)
        else:
            games = tm.run_tournament(sess, t, out, args.jobs, args.resume, backend=backend)
    except KeyboardInterrupt:
        # what was kept, and how to go on: games.csv holds every game finished (a torn last line is played again)
        if out is None:
            print(f"interrupted: no --out, so none of the {len(plan)} games is kept", file=sys.stderr)
        else:
            kept = len(tm.read_games(out / "games.csv", t.seats, t.players))
            print(f"interrupted: kept {kept} of {len(plan)} games in {out}/; to finish them, run the same "
                  "command again with --resume", file=sys.stderr)
        return 130
    rows = ratings.standings(t.players, tm.rated_games(games))
    plots = [p for p in (out / "standings.png" if out is not None else None, args.plot) if p is not None]
    if out is not None:
        (out / "standings.csv").write_text(tm.csv_text(tm.standings_rows(rows)), "utf-8")
    for p in plots:
        try:
            ratings.save_standings_plot(rows, p, game=t.game, games=len(plan), seats=t.seats)
        except (OSError, ValueError) as e:
            raise UsageError(f"cannot write the plot {p} ({e})") from None
    if args.json:
        print(json.dumps({"game": t.game, "seed": t.seed, "games": len(plan), "players": t.players,
                          "standings": [dict(zip(tm.STANDINGS_COLUMNS, r, strict=True))
                                        for r in tm.standings_rows(rows)[1:]]}, indent=2))
    else:
        print_standings(t, rows, games, len(plan))
        if out is not None:
            print(f"wrote {out}/games.csv, standings.csv, standings.png, {tm.SETTINGS}")
        if args.plot is not None:
            print(f"wrote {args.plot}")
    return 0
