"""`recycle tournament`: schedule and seat rotation, resumption, ratings, files, refusals.

The game is tests/fixtures/games/high_card.gdl (one decision per player; taking the face-up
NINE wins), where a searching player beats a random one clearly, and an N-seat copy of it.
"""
from __future__ import annotations

import csv
import io
import json
from collections import Counter
from pathlib import Path

import pytest

from recycle.analysis import ratings
from recycle.cli import main
from recycle.errors import UsageError
from recycle.run import tournament as tm
from support import REPO

try:
    import openskill  # noqa: F401
    HAVE_OPENSKILL = True
except ImportError:
    HAVE_OPENSKILL = False
# the ratings need the extra recycle[tournament]; the schedule and the refusals do not
needs_openskill = pytest.mark.skipif(not HAVE_OPENSKILL, reason="openskill absent: pip install 'recycle[tournament]'")

HIGH_CARD = REPO / "tests" / "fixtures" / "games" / "high_card.gdl"


def n_seat_game(tmp_path: Path, n: int) -> str:
    p = tmp_path / f"high_card_{n}.gdl"
    p.write_text(HIGH_CARD.read_text("utf-8").replace("(create players 2)", f"(create players {n})"), "utf-8")
    return str(p)


def rows(path: Path) -> list[dict]:
    return list(csv.DictReader(io.StringIO(path.read_text("utf-8"))))


def tournament(capsys, *argv) -> tuple[int, str, str]:
    rc = main(["tournament", *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err
    return rc, out, err


# ---------------------------------------------------------------- schedule and seat rotation


def test_schedule_two_seats_every_pairing_every_seat_equally():
    plan = tm.schedule(["R", "F", "M", "P"], 2, 5)  # 5 rounds up to 6: whole rotations
    assert {frozenset(g.lineup) for g in plan} == {frozenset(p) for p in
                                                    [("R", "F"), ("R", "M"), ("R", "P"), ("F", "M"), ("F", "P"),
                                                     ("M", "P")]}
    assert len(plan) == 6 * 6 and [g.game for g in plan] == list(range(36))
    seats = Counter((p, s) for g in plan for s, p in enumerate(g.lineup))
    assert set(seats.values()) == {9}  # each player: 3 tables x 6 games, half of them in each seat


def test_schedule_more_seats_every_table_rotated():
    plan = tm.schedule(["R", "F", "M", "P"], 3, 3)
    assert sorted(tm.tables(["R", "F", "M", "P"], 3)) == sorted(
        [("R", "F", "M"), ("R", "F", "P"), ("R", "M", "P"), ("F", "M", "P")])
    per_table = Counter((g.table, p, s) for g in plan for s, p in enumerate(g.lineup))
    assert set(per_table.values()) == {1}  # in a table, each player sits each seat once
    # fewer players than seats: one table, the players repeated, still every seat equally
    plan = tm.schedule(["R", "M"], 4, 4)
    assert plan[0].lineup == ("R", "M", "R", "M") and len(plan) == 4
    seats = Counter((p, s) for g in plan for s, p in enumerate(g.lineup))
    assert set(seats.values()) == {2}


@needs_openskill
def test_games_csv_rotates_seats_for_three_players(tmp_path, capsys):
    out = tmp_path / "t3"
    rc, _, err = tournament(capsys, n_seat_game(tmp_path, 3), "--players", "R,F,M", "-n", "6", "--seed", "5",
                            "--ai-budget", "3", "--out", str(out), "-q")
    assert rc == 0, err
    g = rows(out / "games.csv")
    assert len(g) == 6 * 3  # one table of three, six games, a row per seat
    seats = Counter((r["player"], r["seat"]) for r in g)
    assert seats == {(p, f"p{s}"): 2 for p in "RFM" for s in (1, 2, 3)}


# ---------------------------------------------------------------- files, ratings


@needs_openskill
def test_csv_columns_and_lopsided_ratings(tmp_path, capsys):
    out = tmp_path / "t"
    rc, stdout, err = tournament(capsys, str(HIGH_CARD), "--players", "R,F", "-n", "40", "--seed", "1",
                                 "--ai-budget", "4", "--out", str(out), "-q")
    assert rc == 0, err
    assert sorted(p.name for p in out.iterdir()) == ["games.csv", "standings.csv", "standings.png",
                                                      "tournament.json"]
    g = rows(out / "games.csv")
    assert tuple(g[0]) == tm.GAMES_COLUMNS and len(g) == 80
    assert {r["end_reason"] for r in g} == {"normal"}
    s = rows(out / "standings.csv")
    assert tuple(s[0]) == tm.STANDINGS_COLUMNS
    # the searching player always takes the NINE, the random one half of the time: F first, clearly
    assert [r["player"] for r in s] == ["F", "R"]
    f, r = s
    assert float(f["win_rate"]) > 0.65 and float(f["ci_low"]) > float(r["ci_high"]) - 0.3
    assert float(f["mu"]) > float(r["mu"]) and float(f["ordinal"]) > float(r["ordinal"])
    assert float(f["win_rate"]) + float(r["win_rate"]) == pytest.approx(1.0)
    assert "mu" in stdout and "ordinal" in stdout and "head to head" in stdout
    assert (out / "standings.png").read_bytes()[:4] == b"\x89PNG"


@needs_openskill
def test_json_output_and_jobs_do_not_change_results(tmp_path, capsys):
    common = [str(HIGH_CARD), "--players", "R,F,M", "-n", "4", "--seed", "9", "--ai-budget", "3", "--json", "-q"]
    rc1, one, _ = tournament(capsys, *common)
    rc2, two, _ = tournament(capsys, *common, "--jobs", "2")
    assert rc1 == rc2 == 0
    assert json.loads(one) == json.loads(two)
    assert sorted(r["player"] for r in json.loads(one)["standings"]) == ["F", "M", "R"]


# ---------------------------------------------------------------- resume


@needs_openskill
def test_resume_gives_the_files_of_an_uninterrupted_tournament(tmp_path, capsys, monkeypatch):
    args = [str(HIGH_CARD), "--players", "R,F,M", "-n", "4", "--seed", "2", "--ai-budget", "3", "-q"]
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    assert tournament(capsys, *args, "--out", str(whole))[0] == 0

    real = tm.play_run
    played = []

    def interrupted(sess, spec, g):
        if len(played) == 5:
            raise KeyboardInterrupt
        played.append(g)
        return real(sess, spec, g)

    monkeypatch.setattr(tm, "play_run", interrupted)
    rc, _, err = tournament(capsys, *args, "--out", str(cut))
    assert rc == 130, err
    assert len(rows(cut / "games.csv")) == 5 * 2 and not (cut / "standings.csv").exists()
    with (cut / "games.csv").open("a") as fh:
        fh.write("5,1,1,123,p1,F,9")  # a line torn by the crash: that game is played again
    monkeypatch.setattr(tm, "play_run", real)

    rc, _, err = tournament(capsys, str(HIGH_CARD), "--out", str(cut), "--resume", "-q")
    assert rc == 0, err
    for name in ("games.csv", "standings.csv", "tournament.json", "standings.png"):
        assert (cut / name).read_bytes() == (whole / name).read_bytes(), name


@needs_openskill
def test_resume_refuses_other_settings(tmp_path, capsys):
    out = tmp_path / "t"
    assert tournament(capsys, str(HIGH_CARD), "--players", "R,F", "-n", "2", "--seed", "2", "--ai-budget", "2",
                      "--out", str(out), "-q")[0] == 0
    rc, _, err = tournament(capsys, str(HIGH_CARD), "--players", "R,M", "--out", str(out), "--resume", "-q")
    assert rc == 2 and "--players differs" in err
    rc, _, err = tournament(capsys, str(HIGH_CARD), "--out", str(tmp_path / "none"), "--resume")
    assert rc == 2 and "nothing to resume" in err


@needs_openskill
def test_non_empty_out_needs_force(tmp_path, capsys):
    out = tmp_path / "t"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    args = [str(HIGH_CARD), "--players", "R,F", "-n", "2", "--seed", "1", "--ai-budget", "2", "--out", str(out), "-q"]
    rc, _, err = tournament(capsys, *args)
    assert rc == 2 and "not empty" in err and "--force" in err
    assert tournament(capsys, *args, "--force")[0] == 0
    assert (out / "notes.txt").read_text() == "mine" and (out / "standings.csv").exists()


@needs_openskill
@pytest.mark.parametrize("players,message", [
    ("R", "at least two players"), ("R,R", "twice"), ("R,X", "unknown player kind"), (None, "--players"),
    ("R,H", "without humans")])
def test_bad_players_are_usage_errors(capsys, players, message):
    argv = [str(HIGH_CARD), "-n", "2"] + (["--players", players] if players else [])
    rc, _, err = tournament(capsys, *argv)
    assert rc == 2 and message in err


def test_missing_openskill_names_the_extra(capsys, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_openskill(name, *a, **k):
        if name.startswith("openskill"):
            raise ImportError("No module named 'openskill'")
        return real_import(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", no_openskill)
    rc, _, err = tournament(capsys, str(HIGH_CARD), "--players", "R,F", "-n", "2")
    assert rc == 2 and "recycle[tournament]" in err and "openskill" in err


@needs_openskill
def test_standings_rate_multi_seat_games_by_best_seat():
    # a 3-seat game where R holds two seats: R is rated at its better rank
    rows_ = ratings.standings(["R", "M"], [[("R", 0, 1.0), ("M", 1, 0.0), ("R", 2, 0.0)]] * 5)
    assert [s.player for s in rows_] == ["R", "M"] and rows_[0].wins == 5.0 and rows_[0].games == 5


@needs_openskill
def test_one_seat_games_are_refused(tmp_path, capsys):
    rc, _, err = tournament(capsys, n_seat_game(tmp_path, 1), "--players", "R,F", "-n", "2")
    assert rc == 2 and "one-player game" in err


@needs_openskill
def test_time_limit_and_budget_are_recorded(tmp_path, capsys):
    out = tmp_path / "t"
    rc, _, err = tournament(capsys, str(HIGH_CARD), "--players", "R,M", "-n", "2", "--seed", "4",
                            "--move-time", "0.005", "--out", str(out), "-q")
    assert rc == 0, err
    settings = json.loads((out / "tournament.json").read_text("utf-8"))
    assert settings["move_time"] == 0.005 and settings["ai_budget"] is None and settings["players"] == ["R", "M"]


def test_a_schedule_past_the_game_limit_is_refused_before_it_is_listed():
    """-n 10**12 was a list of a trillion games being built (minutes, then all the memory)."""
    with pytest.raises(UsageError, match="more than the 1,000,000 a tournament may hold"):
        tm.schedule(["R", "F"], 2, 10**12)
    with pytest.raises(UsageError, match="4,060 tables"):  # 30 players, three seats: counted, not listed
        tm.schedule([f"P{i}" for i in range(30)], 3, 300)
    assert len(tm.schedule(["R", "F"], 2, tm.MAX_GAMES)) == tm.MAX_GAMES


@needs_openskill
def test_force_keeps_the_old_tournament_when_the_new_one_cannot_start(tmp_path, capsys):
    """--force replaces the files once the new tournament is ready to play: a game that does not load or a
    refused schedule leaves the earlier tournament as it was."""
    out = tmp_path / "t"
    assert main(["tournament", str(HIGH_CARD), "--players", "R,F", "-n", "2", "--seed", "1", "--ai-budget", "1",
                 "-q", "--out", str(out)]) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    bad = tmp_path / "bad.gdl"
    bad.write_text("(game", "utf-8")
    assert main(["tournament", str(bad), "--players", "R,F", "--out", str(out), "--force"]) == 1
    assert main(["tournament", str(HIGH_CARD), "--players", "R,F", "-n", str(10**12), "--out", str(out),
                 "--force"]) == 2
    assert "more than the 1,000,000" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


@needs_openskill
@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(games="R"), 'games is "R"'),
    (lambda d: d.update(seats=0), "seats is 0"),
    (lambda d: d.update(players=[True, 2]), "players is [true, 2]"),
    (lambda d: d.update(version=None), "version is null"),
    (lambda d: d.update(seats=3), "says 3 seats, but high_card has 2 players"),
    (lambda d: d.update(players=["R", "Q"]), "unknown player kind 'Q'"),
], ids=["games", "seats", "players", "version", "seat-count", "player-kind"])
def test_resume_refuses_settings_edited_by_hand(tmp_path, capsys, change, message):
    out = tmp_path / "t"
    assert tournament(capsys, str(HIGH_CARD), "--players", "R,F", "-n", "2", "--seed", "2", "--ai-budget", "2",
                      "--out", str(out), "-q")[0] == 0
    doc = json.loads((out / tm.SETTINGS).read_text())
    change(doc)
    (out / tm.SETTINGS).write_text(json.dumps(doc))
    rc, _, err = tournament(capsys, str(HIGH_CARD), "--out", str(out), "--resume", "-q")
    assert rc == 2 and message in err and "Traceback" not in err


def test_a_games_row_of_the_wrong_kind_leaves_its_game_to_play_again(tmp_path):
    """A rank, share or player that is not as recycle wrote it is a torn game, not a crash of the standings."""
    path = tmp_path / "games.csv"
    good = [["0", "0", "0", "7", "p1", "R", "1", "1", "1.0", "normal", "1"],
            ["0", "0", "0", "7", "p2", "F", "2", "2", "0.0", "normal", "1"]]
    for bad in (("rank", "x"), ("win_share", "R"), ("win_share", "nan"), ("player", "Q"), ("rank", "0")):
        row = list(good[1])
        row[tm.GAMES_COLUMNS.index(bad[0])] = bad[1]
        path.write_text(tm.csv_text([tm.GAMES_COLUMNS, good[0], row, *[[str(1), *g[1:]] for g in good]]))
        assert sorted(tm.read_games(path, 2, ["R", "F"])) == [1], bad
