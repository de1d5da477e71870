"""Extension E6: every `declare` is a parameter — the Python API, the command line, load-time checks."""
from __future__ import annotations

import json

import pytest

from recycle.cli import main
from recycle.compiler import compile_game, load_program
from recycle.engine.play import play_game
from recycle.errors import LoadError, UsageError
from recycle.lang import load_game, parse_game
from recycle.players.random_player import RandomPlayer

GAME = """;; A parameterised game: players, board size, hand size.
(game
 (declare 2 'PLAYERS)
 (declare 3 'SIZE)
 (declare (* 'SIZE 'SIZE) 'CELLS)
 (declare (A, B) 'LETTERS)
 (setup (create players 'PLAYERS)
  (create board (game vloc GRID) (square 'SIZE 'SIZE))
  (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE)) (COPY (A, B)))))
 (do ((set (game sto CELLS) 'CELLS) (set (game sto LETTERS) (size 'LETTERS))
      (shuffle (game iloc STOCK)) (all (cells (game vloc GRID)) 'X (move (top (game iloc STOCK)) (top 'X)))))
 (stage player (end (all (cells (game vloc GRID)) 'X (== (size 'X) 0)))
  (choice ((any (filter (cells (game vloc GRID)) 'X (> (size 'X) 0)) 'X (move (top 'X) (top ((current player) vloc WON)))))))
 (scoring max (size ((current player) vloc WON))))
"""


@pytest.fixture
def game_file(tmp_path):
    p = tmp_path / "param.gdl"
    p.write_text(GAME)
    return p


def test_defaults(game_file):
    prog = load_program(game_file)
    st = prog.new_game(1)
    assert prog.n_players == 2 and prog.value(st, "game", "sto", "CELLS") == 9 and prog.value(st, "game", "sto", "LETTERS") == 2


def test_overrides_through_the_python_api(game_file):
    prog = load_program(game_file, {"PLAYERS": 1, "SIZE": 4, "LETTERS": ["X", "Y", "Z"]})
    st = prog.new_game(1)
    assert prog.n_players == 1 and prog.declared["SIZE"] == 4
    assert prog.value(st, "game", "sto", "CELLS") == 16  # later declares see the override
    assert prog.value(st, "game", "sto", "LETTERS") == 3
    r = play_game(prog, 3, [RandomPlayer()])
    assert r.outcome == "completed" and r.scores == [16] and r.n_decisions == 16 and r.ranks == [1]
    # parameters given as text (as on the command line) are read as the declared type
    prog = compile_game(parse_game(GAME, params={"PLAYERS": "3"}), {"PLAYERS": "3", "LETTERS": "(C, D)"})
    assert prog.n_players == 3 and prog.declared["LETTERS"] == ("C", "D")


def test_overridden_values_are_checked_at_load_time(game_file):
    with pytest.raises(LoadError) as info:
        load_game(game_file, {"PLAYERS": 0})
    d = info.value.diagnostics[0]
    assert (d.cls, d.span.line, d.span.column) == ("setup", 7, 9) and "at least one player" in d.message
    with pytest.raises(LoadError) as info:
        load_game(game_file, {"SIZE": 0})
    d = info.value.diagnostics[0]
    assert (d.cls, d.span.line) == ("setup", 8) and "(square 0 0)" in d.message
    with pytest.raises(UsageError, match="unknown parameter 'NOPE'"):
        load_program(game_file, {"NOPE": 1})
    with pytest.raises(UsageError, match="parameter PLAYERS: expected an integer"):
        load_program(game_file, {"PLAYERS": "many"})


def test_command_line_params(game_file, capsys):
    assert main(["run", str(game_file), "-n", "3", "--seed", "1", "--param", "PLAYERS=1", "--json", "-q"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["players"] == ["R"] and out["completed"] == 3 and out["mean_scores"] == [9.0]
    assert main(["run", str(game_file), "-n", "2", "--seed", "1", "--param", "PLAYERS=3", "--param", "SIZE=4",
                 "--json", "-q"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["players"] == ["R", "R", "R"] and out["completed"] == 2 and sum(out["mean_scores"]) == 16
    code = main(["run", str(game_file), "-n", "1", "--param", "PLAYERS=0", "-q"])
    err = capsys.readouterr().err
    assert code != 0 and "at least one player" in err


def test_players_parameter_end_to_end(game_file, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["run", str(game_file), "-n", "2", "--seed", "5", "--param", "PLAYERS=1", "--out", str(out),
                 "--transcripts", "full", "-q"]) == 0
    capsys.readouterr()
    t = sorted((out / "transcripts").glob("*.jsonl"))[0]
    head = json.loads(t.read_text().splitlines()[0])
    assert head["players"] == 1 and head["params"]["declares"] in ({"PLAYERS": 1}, {"PLAYERS": "1"})
    assert main(["replay", str(t), "--game", str(game_file)]) == 0


def test_parameters_given_only_to_the_compiler_meet_the_aggregate_bounds():
    game = parse_game(GAME)  # checked with its own values: 3 × 3
    with pytest.raises(UsageError, match=r"^<string>:8:3: the boards up to this one hold 100,489 cells.*MAX_BOARD_CELLS"):
        compile_game(game, {"SIZE": "317"})  # 100,489 cells: the board alone passes the bound
    many = parse_game(GAME.replace("(declare (A, B) 'LETTERS)", "(declare (A, B) 'LETTERS) " + " ".join(
        f"(declare (range 1..2) 'R{c})" for c in "ABCDEFGHIJK")))
    with pytest.raises(UsageError, match=r"up to .RK, .*MAX_CONST_ELEMENTS"):
        compile_game(many, {f"R{c}": "1..99999" for c in "ABCDEFGHIJK"})
