"""Python players named on the command line as `module.path:ClassName` (`--players R,mod:Cls`).

A temporary module on sys.path holds the players: one written against the Python API's
protocol (start(game, seat, seed), choose(state) with readable options), one subclassing the
engine's Player, and classes that are not players.  Errors are usage errors (exit 2), one
line, no traceback.
"""
from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import textwrap

import pytest

import recycle
from recycle.cli import main
from recycle.players import registry
from support import REPO

DEAL_N = str(REPO / "tests" / "fixtures" / "games" / "deal_n.gdl")
HIGH_CARD = str(REPO / "tests" / "fixtures" / "games" / "high_card.gdl")  # taking the face-up NINE wins

MODULE = textwrap.dedent('''
    from recycle.players.base import Player

    SEEN = []

    class HighestCard:
        """API protocol: plays the card with the highest value, read from the option's readable actions."""
        code = "HI"

        def start(self, game, seat, seed):
            self.seat = seat

        def choose(self, state):
            options = state.options()
            for o in options:
                a = o.actions[0]
                assert a.kind == "move" and a.source and a.destination
                SEEN.append(o.text)
            order = ["A", "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE"]

            def value(o):  # a card it cannot see (card None) is worth least
                card = o.actions[0].card
                return order.index(card.split("-")[0]) if card else -1

            return max(options, key=value).index

    class LastOption(Player):
        """Engine protocol: a Player subclass."""

        def choose(self, prog, st):
            return len(prog.options(st)) - 1

    class NotAPlayer:
        def choose(self, state):
            return 0

    class NeedsArgs:
        def __init__(self, depth):
            self.depth = depth

        def start(self, game, seat, seed):
            pass

        def choose(self, state):
            return 0

    not_a_class = 3
''')


@pytest.fixture
def players_module(tmp_path, monkeypatch):
    (tmp_path / "my_players_mod.py").write_text(MODULE, "utf-8")
    (tmp_path / "broken_players_mod.py").write_text("raise RuntimeError('oops at import')\n", "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in ("my_players_mod", "broken_players_mod"):
        sys.modules.pop(name, None)


def run_json(capsys, *argv) -> dict:
    rc = main(["run", *argv, "--json", "-q"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    return json.loads(out)


def test_api_player_from_the_command_line_reads_readable_options(players_module, capsys):
    s = run_json(capsys, DEAL_N, "-n", "5", "--seed", "4", "--players", "R,my_players_mod:HighestCard")
    assert s["completed"] == 5
    import my_players_mod

    assert my_players_mod.SEEN and all(t.startswith("move ") and "->" in t for t in my_players_mod.SEEN)
    # first to choose at High Card, it reads the NINE in its options and takes it: it wins every game
    s = run_json(capsys, HIGH_CARD, "-n", "10", "--seed", "4", "--players", "my_players_mod:HighestCard,R")
    assert s["wins_by_seat"] == [1.0, 0.0]


def test_engine_player_subclass_and_one_entry_lineup(players_module, capsys):
    s = run_json(capsys, DEAL_N, "-n", "3", "--seed", "1", "--players", "my_players_mod:LastOption")
    assert s["completed"] == 3
    assert registry.make("my_players_mod:LastOption").code == "my_players_mod:LastOption"


def test_python_players_in_worker_processes(players_module, capsys):
    one = run_json(capsys, DEAL_N, "-n", "6", "--seed", "2", "--players", "my_players_mod:HighestCard,R")
    two = run_json(capsys, DEAL_N, "-n", "6", "--seed", "2", "--players", "my_players_mod:HighestCard,R",
                   "--jobs", "2")
    assert one["wins_by_seat"] == two["wins_by_seat"] and one["mean_scores"] == two["mean_scores"]


def test_tournament_with_a_python_player(players_module, capsys):
    pytest.importorskip("openskill")
    rc = main(["tournament", HIGH_CARD, "--players", "R,my_players_mod:HighestCard", "-n", "10", "--seed", "3",
               "--json", "-q"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert json.loads(out)["standings"][0]["player"] == "my_players_mod:HighestCard"


def test_pythonpath_on_the_command_line(tmp_path):
    (tmp_path / "pp_players_mod.py").write_text(MODULE, "utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), str(tmp_path)]))
    p = subprocess.run([sys.executable, "-m", "recycle", "run", DEAL_N, "-n", "2", "--seed", "1", "--json", "-q",
                        "--players", "R,pp_players_mod:HighestCard"], capture_output=True, text=True, env=env,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["completed"] == 2


@pytest.mark.parametrize("spec,message", [
    ("my_players_mod:", "expected module.path:ClassName"),
    (":Cls", "expected module.path:ClassName"),
    ("my-players:Cls", "expected module.path:ClassName"),
    ("no_such_players_mod:Cls", "cannot import module 'no_such_players_mod'"),
    ("broken_players_mod:Cls", "RuntimeError: oops at import"),
    ("my_players_mod:Missing", "has no 'Missing'"),
    ("my_players_mod:not_a_class", "is not a class"),
    ("my_players_mod:NotAPlayer", "does not implement the player protocol"),
    ("my_players_mod:NeedsArgs", "constructible with no arguments"),
])
def test_bad_specs_are_clear_usage_errors(players_module, capsys, spec, message):
    rc = main(["run", DEAL_N, "-n", "1", "--players", f"R,{spec}"])
    out, err = capsys.readouterr()
    assert rc == 2, (out, err)
    assert message in err and "Traceback" not in err and "internal error" not in err
    assert len(err.strip().splitlines()) == 1


def test_options_are_readable_objects_in_the_api():
    game = recycle.load(DEAL_N)
    state = game.start(seed=3)
    opts = state.options()
    assert len(opts) == 3 and [o.index for o in opts] == [0, 1, 2]
    a = opts[0].actions[0]
    assert isinstance(a, recycle.Action) and a.kind == "move"
    assert a.card and a.source == "p1 iloc HAND" and a.destination == "p1 vloc PLAYED"
    assert opts[0].text == a.text == f"move {a.card} p1 iloc HAND -> p1 vloc PLAYED"


@contextlib.contextmanager
def user_module(tmp_path, monkeypatch, module: str, source: str):
    """The module `module` with this source importable while the block runs (and forgotten after)."""
    (tmp_path / f"{module}.py").write_text(source, "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        yield
    finally:
        sys.modules.pop(module, None)


def test_the_docs_example_player_runs(tmp_path, monkeypatch, capsys):
    doc = (REPO / "docs" / "tournaments.md").read_text("utf-8")
    block = doc.split("```python\n", 1)[1].split("```", 1)[0]
    with user_module(tmp_path, monkeypatch, "docs_greedy_mod", block):
        s = run_json(capsys, HIGH_CARD, "-n", "6", "--seed", "1", "--players", "docs_greedy_mod:Greedy,R")
    assert s["wins_by_seat"] == [1.0, 0.0]  # the NINE is the one card it sees: it takes it and wins


FAILING = textwrap.dedent('''
    from recycle.players.base import Player

    class Boom(Player):
        def choose(self, prog, st):
            raise RuntimeError("boom in choose")

    class BadInit(Player):
        def __init__(self):
            raise ValueError("no init")

    class ApiBoom:
        def start(self, game, seat, seed):
            pass

        def choose(self, state):
            return {}["missing"]
''')


def run_failing(tmp_path, monkeypatch, capsys, source: str, module: str, name: str, jobs: str) -> str:
    """`recycle run` with module:name against a random player, which must fail as the user's error
    (status 1, no trace); its stderr."""
    with user_module(tmp_path, monkeypatch, module, source):
        rc = main(["run", DEAL_N, "-n", "4", "--seed", "1", "--jobs", jobs, "-q", "--players", f"{module}:{name},R"])
    err = capsys.readouterr().err
    assert rc == 1, err
    assert "internal error" not in err and "Traceback" not in err
    return err


@pytest.mark.parametrize(("name", "says", "where"), [("Boom", "RuntimeError: boom in choose", "in choose"),
                                                     ("BadInit", "ValueError: no init", "in __init__"),
                                                     ("ApiBoom", "KeyError: 'missing'", "in choose")])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_python_player_that_fails_is_named_not_reported_as_a_bug(tmp_path, monkeypatch, capsys, name, says,
                                                                   where, jobs):
    """The user's own class raising is their code failing: one line naming the player, the exception and
    where in their file, status 1, in the command and in worker processes alike."""
    err = run_failing(tmp_path, monkeypatch, capsys, FAILING, "failing_players_mod", name, jobs)
    assert f"error: player 'failing_players_mod:{name}' failed: {says}" in err
    assert "failing_players_mod.py:" in err and where in err


CHOOSERS = textwrap.dedent('''
    from recycle.players.base import Player

    class Chooses(Player):
        VALUE = None

        def choose(self, prog, st):
            return self.VALUE

    class Text(Chooses):
        VALUE = "0"

    class Fraction(Chooses):
        VALUE = 0.5

    class Yes(Chooses):
        VALUE = True

    class TooFar(Chooses):
        VALUE = 99

    class Wide(Player):
        def choose(self, prog, st):
            import numpy
            return numpy.int64(0)
''')


@pytest.mark.parametrize(("name", "says"), [("Text", "not '0' (a str)"), ("Fraction", "not 0.5 (a float)"),
                                            ("Yes", "not True (a bool)"), ("TooFar", "option 99 out of range 0..")])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_player_that_chooses_no_option_is_named_not_a_bug(tmp_path, monkeypatch, capsys, name, says, jobs):
    """A choice that is not an option's index (a string, a float, a bool, past the last option) is the
    player's mistake: one line naming its seat and class, status 1, here and in worker processes."""
    err = run_failing(tmp_path, monkeypatch, capsys, CHOOSERS, "choosing_players_mod", name, jobs)
    (line,) = [x for x in err.splitlines() if x.startswith("error:")]
    assert line.startswith(f"error: the player of seat p1 ({name}) chose what is not one of its options: ")
    assert says in line


def test_a_choice_of_another_integer_type_is_its_index(tmp_path, monkeypatch, capsys):
    with user_module(tmp_path, monkeypatch, "choosing_players_mod", CHOOSERS):
        s = run_json(capsys, DEAL_N, "-n", "3", "--seed", "1", "--players", "choosing_players_mod:Wide,R")
    assert s["completed"] == 3
