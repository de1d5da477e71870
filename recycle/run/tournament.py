"""Tournaments: every table of players, seats rotated, played in parallel, seeded and resumable.

Schedule (`schedule`).  With m players for a game of k seats:

- k = 2: every pairing of two players is a table;
- k > 2 and m >= k: every set of k players (itertools.combinations, in the order given) is a
  table, so every player meets every other;
- m < k: one table, the players repeated in order to fill the seats (R,M on four seats: R M R M).

Each table plays `games` games, rounded up to a multiple of k so that rotation is complete:
game j of a table seats the table's players shifted by j mod k (seat s gets table[(s - j) mod
k]), so each player sits each seat equally often.  Tables are played in order, and games are
numbered 0, 1, … over the whole tournament: game g plays with game seed derive(S, "game", g)
and its seats' streams derived from that, exactly as run g of `recycle run --seed S`, so the
results do not depend on `--jobs`.

Files (`--out DIR`): `tournament.json` (the settings, written first), `games.csv` (tidy: one row
per game and seat, appended when a game finishes, in game order), and after the last game
`standings.csv` and `standings.png`.  `--resume` reads the settings back, keeps the complete
games of games.csv (a torn last line is dropped), plays the missing games and appends them:
the files are then byte for byte those of an uninterrupted tournament.
"""
from __future__ import annotations

import csv
import io
import itertools
import json
import math
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import attrs

from ..engine.watchdog import DEFAULT_MAX_STEP_TIME, max_step_time
from ..errors import UsageError
from ..version import __version__
from . import batch
from .batch import BatchSpec, play_run
from .raybatch import Backend, iter_ray
from .records import RunRecord
from .session import GameSession

GAMES_COLUMNS = ("game", "table", "rotation", "game_seed", "seat", "player", "score", "rank", "win_share",
                 "end_reason", "decisions")
STANDINGS_COLUMNS = ("rank", "player", "games", "wins", "win_rate", "ci_low", "ci_high", "mu", "sigma", "ordinal")
SETTINGS = "tournament.json"
# Every game of a tournament is scheduled up front and its result kept for the standings: a million
# games is a few hundred MB, days of play with AI players.
MAX_GAMES = 1_000_000


@attrs.frozen
class Scheduled:
    """One game of the tournament: its number, its table, the rotation and who sits where."""

    game: int
    table: int
    rotation: int
    lineup: tuple[str, ...]


def tables(players: Sequence[str], seats: int) -> list[tuple[str, ...]]:
    """The tables of the module docstring."""
    if len(players) >= seats:
        return [tuple(t) for t in itertools.combinations(players, seats)]
    return [tuple(players[i % len(players)] for i in range(seats))]


def games_per_table(games: int, seats: int) -> int:
    """`games` rounded up to a multiple of the seats (whole rotations)."""
    return -(-games // seats) * seats


def schedule(players: Sequence[str], seats: int, games: int) -> list[Scheduled]:
    """Every game of the tournament, in order; more than MAX_GAMES is refused before any is listed."""
    out: list[Scheduled] = []
    per = games_per_table(games, seats)
    n_tables = math.comb(len(players), seats) if len(players) >= seats else 1
    if n_tables * per > MAX_GAMES:
        raise UsageError(f"a tournament of {n_tables:,} table{'s' if n_tables != 1 else ''} x {per:,} games is "
                         f"{n_tables * per:,} games, more than the {MAX_GAMES:,} a tournament may hold (MAX_GAMES, "
                         "docs/limits.md): lower -n, or play the pairings you need as separate tournaments")
    for t, table in enumerate(tables(players, seats)):
        for j in range(per):
            r = j % seats
            out.append(Scheduled(len(out), t, r, tuple(table[(s - r) % seats] for s in range(seats))))
    return out


# ---------------------------------------------------------------- games.csv


def _num(v) -> str:
    if v is None:
        return ""
    if isinstance(v, float) and v.is_integer():
        return str(int(v)) if abs(v) < 1e15 else repr(v)
    return str(v)


def game_rows(g: Scheduled, rec: RunRecord) -> list[list[str]]:
    """The rows of games.csv for one finished game (one per seat)."""
    rows = []
    for s, p in enumerate(g.lineup):
        rows.append([str(g.game), str(g.table), str(g.rotation), str(rec.game_seed), f"p{s + 1}", p,
                     _num(rec.scores[s]) if rec.scores is not None else "",
                     str(rec.ranks[s]) if rec.ranks is not None else "",
                     repr(float(rec.shares[s])) if rec.shares is not None else "",
                     rec.end_reason, str(rec.decisions)])
    return rows


def csv_text(rows: Sequence[Sequence[str]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerows(rows)
    return buf.getvalue()


def read_games(path: Path, seats: int, players: Sequence[str] = ()) -> dict[int, list[dict]]:
    """The complete games of a games.csv (every seat's row, whole lines): game number -> rows by seat.

    A row that is not as recycle wrote it (a rank, share or player of the wrong kind: damaged or edited by
    hand) leaves its game incomplete, as a torn line does: the game is played again."""
    text = path.read_text("utf-8") if path.exists() else ""
    if text and not text.endswith("\n"):
        text = text[: text.rfind("\n") + 1]  # a torn last line: the game is played again
    by_game: dict[int, list[dict]] = {}
    for row in csv.DictReader(io.StringIO(text)):
        if None in row or any(v is None for v in row.values()):
            continue
        try:
            ok = int(row["rank"]) >= 1 and 0.0 <= float(row["win_share"]) <= 1.0
            game = int(row["game"])
        except ValueError:
            continue
        if ok and (not players or row["player"] in players):
            by_game.setdefault(game, []).append(row)
    return {g: rows for g, rows in by_game.items() if len(rows) == seats}


def write_games(path: Path, games: dict[int, list[dict]]) -> None:
    """games.csv from complete games, in game order (the resumed file: a crash's torn lines dropped)."""
    rows: list[Sequence[str]] = [GAMES_COLUMNS]
    for g in sorted(games):
        rows.extend([r[c] for c in GAMES_COLUMNS] for r in games[g])
    path.write_text(csv_text(rows), "utf-8")


# ---------------------------------------------------------------- playing


def _play_one(args: tuple[BatchSpec, int]) -> RunRecord:
    spec, g = args
    rec = play_run(batch._WORKER["session"], spec, g)
    rec.decision_rows = []  # not needed by the tournament: keep the pipe light
    return rec


def play(sess: GameSession, base: BatchSpec, todo: Sequence[Scheduled], jobs: int = 1,
         backend: Backend | None = None) -> Iterator[RunRecord]:
    """Play the scheduled games, yielding their records in schedule order (in `jobs` processes, or on Ray)."""
    specs = [(attrs.evolve(base, lineup=g.lineup), g.game) for g in todo]
    if backend is not None and backend.kind == "ray":
        yield from iter_ray(specs, sess, jobs, backend.address, memory_mb=backend.memory_mb)
        return
    if jobs == 1 or len(specs) <= 1:
        for spec, g in specs:
            yield play_run(sess, spec, g)
        return
    with ProcessPoolExecutor(max_workers=jobs, initializer=batch._start_worker,
                             initargs=(sess.source, dict(sess.params))) as pool:
        yield from pool.map(_play_one, specs, chunksize=max(1, min(8, len(specs) // (jobs * 8) or 1)))


def _whole(least: int):
    return lambda v: type(v) is int and v >= least


def _or_none(ok):
    return lambda v: v is None or ok(v)


# What --resume reads back from tournament.json, and what a tournament writes there.
_SETTINGS_FIELDS = (
    ("version", lambda v: v == 1),
    ("game", lambda v: isinstance(v, str)), ("game_path", lambda v: isinstance(v, str)),
    ("game_sha256", lambda v: isinstance(v, str)),
    ("players", lambda v: isinstance(v, list) and len(v) >= 2 and len(set(v)) == len(v)
     and all(isinstance(p, str) for p in v)),
    ("seats", _whole(2)), ("games", _whole(1)), ("seed", _whole(0)),
    ("params", lambda v: isinstance(v, dict) and all(isinstance(k, str) for k in v)),
    ("max_decisions", _or_none(_whole(1))), ("max_steps", _or_none(_whole(1))), ("ai_budget", _or_none(_whole(1))),
    ("move_time", _or_none(lambda v: type(v) in (int, float) and 0 < v < float("inf"))),
)
_OPTIONAL = {"max_decisions", "max_steps", "ai_budget", "move_time"}


@attrs.define
class Tournament:
    """A tournament's settings (tournament.json) and what it needs to play."""

    game: str
    game_path: str
    game_sha256: str
    players: list[str]
    seats: int
    games: int  # per table, as asked (rounded up to whole rotations when played)
    seed: int
    params: dict
    max_decisions: int | None = None
    max_steps: int | None = None
    ai_budget: int | None = None
    move_time: float | None = None

    def settings(self) -> dict:
        return {"format": "recycle-tournament", "version": 1, "interpreter": __version__, **attrs.asdict(self)}

    @classmethod
    def from_settings(cls, d: dict) -> Tournament:
        if not isinstance(d, dict) or d.get("format") != "recycle-tournament":
            raise UsageError(f"{SETTINGS} is not a tournament's settings file")
        for name, ok in _SETTINGS_FIELDS:
            if (name not in d and name in _OPTIONAL) or ok(d.get(name)):
                continue
            raise UsageError(f"{SETTINGS}: damaged ({name} is {json.dumps(d.get(name))[:40]}): not as "
                             "`recycle tournament` wrote it")
        names = {f.name for f in attrs.fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})

    def schedule(self) -> list[Scheduled]:
        return schedule(self.players, self.seats, self.games)

    def spec(self) -> BatchSpec:
        step_time = max_step_time()  # the command's --max-step-time, carried to workers that are not forked (Ray's)
        return BatchSpec(self.game_path, dict(self.params), tuple(self.players), self.seed, self.max_decisions,
                         self.max_steps, "none", ai_budget=self.ai_budget, move_time=self.move_time,
                         max_step_time=None if step_time == DEFAULT_MAX_STEP_TIME else step_time)


def run_tournament(sess: GameSession, t: Tournament, out: Path | None, jobs: int = 1, resume: bool = False,
                   progress: Callable[[int], None] | None = None,
                   backend: Backend | None = None) -> dict[int, list[dict]]:
    """Play what is missing and return every game's rows (as games.csv has them), appending to out/games.csv."""
    plan = t.schedule()
    done: dict[int, list[dict]] = {}
    path = out / "games.csv" if out is not None else None
    if out is not None and path is not None:
        if resume:
            done = read_games(path, t.seats, t.players)
            done = {g: rows for g, rows in done.items() if g < len(plan)}
        write_games(path, done)
        (out / SETTINGS).write_text(json.dumps(t.settings(), indent=2) + "\n", "utf-8")
    todo = [g for g in plan if g.game not in done]
    if progress and done:
        progress(len(done))
    fh = path.open("a", encoding="utf-8", newline="") if path is not None else None
    try:
        for g, rec in zip(todo, play(sess, t.spec(), todo, jobs, backend), strict=True):
            rows = game_rows(g, rec)
            if fh is not None:
                fh.write(csv_text(rows))
                fh.flush()
            done[g.game] = [dict(zip(GAMES_COLUMNS, r, strict=True)) for r in rows]
            if progress:
                progress(1)
    finally:
        if fh is not None:
            fh.close()
    if path is not None:
        write_games(path, done)  # in game order whatever was kept from before (the same bytes if it was)
    return done


def rated_games(games: dict[int, list[dict]]) -> list[list[tuple[str, int, float]]]:
    """The games with a result, in order, as (player, rank from 0, win share) per seat."""
    out = []
    for g in sorted(games):
        rows = games[g]
        if any(r["rank"] == "" or r["win_share"] == "" for r in rows):
            continue
        out.append([(r["player"], int(r["rank"]) - 1, float(r["win_share"])) for r in rows])
    return out


def standings_rows(rows) -> list[list[str]]:
    """standings.csv (fixed decimals, so that the file is a function of the results)."""
    def f(v, d=4):
        return "" if v is None else f"{v:.{d}f}"

    out: list[list[str]] = [list(STANDINGS_COLUMNS)]
    for i, s in enumerate(rows):
        out.append([str(i + 1), s.player, str(s.games), f(s.wins, 1), f(s.win_rate), f(s.ci_low), f(s.ci_high),
                    f(s.mu), f(s.sigma), f(s.ordinal)])
    return out


def head_to_head(games: dict[int, list[dict]], players: Sequence[str]) -> dict[tuple[str, str], tuple[float, int]]:
    """For two-seat games: (row player, column player) -> (row's win shares, games between them)."""
    out: dict[tuple[str, str], list] = {}
    for rows in games.values():
        if len(rows) != 2 or any(r["win_share"] == "" for r in rows):
            continue
        a, b = rows
        for x, y in ((a, b), (b, a)):
            cell = out.setdefault((x["player"], y["player"]), [0.0, 0])
            cell[0] += float(x["win_share"])
            cell[1] += 1
    return {k: (v[0], v[1]) for k, v in out.items()}
