"""Big decisions built one action at a time by a person (players.stepwise, `recycle play`)."""
from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys

import pytest

from recycle.cli import main
from recycle.compiler import driver
from recycle.compiler.items import SampledOptions
from recycle.engine.play import play_game
from recycle.players import registry, stepwise
from recycle.players.human import HumanPlayer, HumanQuit
from recycle.players.stepwise import SCREEN, VISIBLE, ListedSteps, StepMenu, WalkedSteps
from support import REPO
from support.games import PLACE_GAME, run


def visible(ops) -> tuple:
    return tuple(op for op in ops if op[0] in VISIBLE)


def sampled_place_game():
    """The placing game with an enumeration budget of 10 paths: its decision is sampled, as Rummykruss's is."""
    prog, st = run(PLACE_GAME)
    full = {visible(o.ops) for o in st.opts}
    assert len(full) == 72
    prog.atomic_max_paths = 10
    st = prog.new_game(1)
    assert type(st.opts) is SampledOptions and len(st.opts) < 72
    return prog, st, full


def test_walked_steps_build_every_legal_option_and_nothing_else():
    prog, st, full = sampled_place_game()
    src = WalkedSteps(prog, st, 0)
    built = set()

    def explore(prefix):
        items, ends = src.steps(prefix)
        if ends:
            built.add(prefix)
        for text, key, _ in items:
            assert "unchecked" not in text  # every next action was shown to lead to a complete option
            explore((*prefix, key))
    explore(())
    assert built == full                 # every legal option reachable, and only those
    # the option taken is one of the decision's complete paths, added to its options
    prefix = sorted(built)[5]
    i = src.option(prefix)
    assert i == len(st.opts) - 1 and visible(st.opts[i].ops) == prefix


def test_walked_steps_offer_only_actions_that_can_complete():
    prog, st, _ = sampled_place_game()
    src = WalkedSteps(prog, st, 0)
    items, ends = src.steps(())
    hand = [prog.card_text(st, c) for c in prog.pile(st, 0, "iloc", "HAND")]
    assert not ends and [t for t, _, _ in items] == [f"move {c} p1 iloc HAND -> table vloc ROW {k}"
                                                     for c in hand for k in range(4)]
    # stopping after one card would leave two in hand: "set … STOP" is not offered, nor the end
    first = items[0][1]
    (cycle,), ends = src.steps((first,))
    assert cycle[0] == "cycle next p1" and not ends   # the block's stage hands the turn on (to p1 again)
    after, ends = src.steps((first, cycle[1]))
    texts = [t for t, _, _ in after]
    assert not ends and not any("STOP" in t for t in texts) and len(texts) == 2 * 3  # 2 cards x 3 free cells


def test_actions_the_budget_cannot_settle_are_offered_unchecked_and_still_lead_to_legal_options(monkeypatch):
    prog, st, full = sampled_place_game()
    monkeypatch.setattr(stepwise, "CHECK_BRANCHES", 1)   # the first walk of the search spends it all
    src = WalkedSteps(prog, st, 0)
    items, ends = src.steps(())
    assert not ends and len(items) == 12 and all(t.endswith("  (unchecked)") for t, _, _ in items)
    built = []

    def explore(prefix):  # depth first until a complete option: an unchecked action may be a dead end
        items, ends = src.steps(prefix)
        if ends:
            built.append(prefix)
            return True
        return any(explore((*prefix, key)) for _, key, _ in items)
    assert explore(()) and built[0] in full


def test_a_built_option_is_played_recorded_and_replayed(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(driver, "ATOMIC_MAX_PATHS", 10)  # the decision is sampled: built step by step
    game = tmp_path / "place.gdl"
    game.write_text(PLACE_GAME, "utf-8")
    t = tmp_path / "place.jsonl"
    # THREE to cell 2, then (u) undo, TWO to cell 3, ONE to cell 0 (second step), then stop
    script = "/THREE\n3\nu\n/TWO\n4\n1\n1\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    assert main(["play", str(game), "--seed", "1", "--transcript", str(t)]) == 0
    out = capsys.readouterr().out
    assert "too many options to list: build yours one action at a time" in out
    assert "Your option so far: move THREE p1 iloc HAND -> table vloc ROW 2" in out
    assert "Your option so far: move TWO p1 iloc HAND -> table vloc ROW 3" in out
    lines = [json.loads(x) for x in t.read_text().splitlines()]
    d = next(x for x in lines if x.get("type") == "decision")
    assert d["choice"] == d["options"] - 1 and d["steps"]   # the built option, and how to build it again
    assert main(["replay", str(t), "--game", str(game), "--json"]) == 0
    events = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    moves = [(e["to"][2], e["to"][3]) for e in events if e["type"] == "move" and e["to"][2] == "ROW"]
    assert moves == [("ROW", 3), ("ROW", 0)]


class FakeSteps:
    """A source of 30 one-action options: three cards, each to one of ten places."""

    def __init__(self):
        self.options = [(f"move CARD{c} p1 iloc HAND -> table vloc SPOT {k}",) for c in range(3) for k in range(10)]

    def steps(self, prefix):
        if prefix:
            return [], True
        return [(o[0], o[0], 1) for o in self.options], False

    def option(self, prefix):
        return self.options.index(prefix)


def menu(source, script: str):
    out: list[str] = []
    replies = iter(script.splitlines())

    def ask(prompt):
        out.append(prompt)
        try:
            return next(replies)
        except StopIteration:
            raise HumanQuit("the input ended") from None
    return StepMenu(source, out.append, ask, 0), out


def numbered_runs(lines) -> list[int]:
    """The lengths of the runs of numbered choice lines printed between two prompts."""
    runs, n = [], 0
    for line in lines:
        if re.match(r"^\s+\d+\. ", line):
            n += 1
        else:
            if n:
                runs.append(n)
            n = 0
    return runs + ([n] if n else [])


def test_more_than_a_screenful_is_grouped_by_card_then_by_destination():
    m, out = menu(FakeSteps(), "2\n7\n")
    assert m.run() == 16   # CARD1 -> SPOT 6
    text = "\n".join(out)
    assert "Next action (3 choices):" in text
    assert "2. move CARD1 p1 iloc HAND -> … (10 destinations)" in text
    assert "Next action from move CARD1 p1 iloc HAND (10 choices):" in text
    assert max(numbered_runs(out)) <= SCREEN


def test_filter_undo_pages_and_bad_replies():
    m, out = menu(FakeSteps(), "/SPOT 1\nu\n/\n2\nu\nzzz\n99999999999999999999999999\n0\n1\n4\n")
    assert m.run() == 3
    text = "\n".join(out)
    assert "(3 choices, filter 'SPOT 1')" in text                    # the filter reaches into the groups
    assert "nothing to undo: this is the first action" in text
    assert "'zzz' is not understood" in text
    assert "there is no choice 99999999999999999999999999" in text
    assert "there is no choice 0" in text                           # no option ends before an action
    assert max(numbered_runs(out)) <= SCREEN


def test_rummy_squared_180_options_are_shown_grouped_by_their_first_action(monkeypatch, capsys):
    # page 2, back to page 1, a first action, undo, the same again, then its second action
    monkeypatch.setattr(sys, "stdin", io.StringIO("n\np\n1\nu\n1\n2\nq\n"))
    assert main(["play", "rummy_squared", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    first = out.index("180 options: build yours one action at a time.")
    shown = out[first:]
    assert "Next action (36 choices, page 1 of 2, n/p to turn):" in shown
    assert "Next action (36 choices, page 2 of 2, n/p to turn):" in shown
    assert "1. move FIVE-HEARTS table vloc GRID 1 -> p1 vloc TAKEN  (3 options)" in shown
    assert shown.count("Your option so far: move FIVE-HEARTS table vloc GRID 1 -> p1 vloc TAKEN") == 2  # undone, redone
    assert "[2] p2 (R) chose" in shown                                   # the option built was played
    assert max(numbered_runs(shown.splitlines())) <= SCREEN
    assert "you quit: game abandoned" in out


def test_listed_steps_reach_every_option_of_a_decision():
    prog, st = run(PLACE_GAME)
    src = ListedSteps(prog, st, 0)
    reached = set()

    def explore(prefix):
        items, ends = src.steps(prefix)
        if ends:
            reached.add(src.option(prefix))
        for _, key, _ in items:
            explore((*prefix, key))
    explore(())
    assert reached == set(range(len(st.opts)))


def test_a_human_player_on_a_big_listed_decision_takes_the_option_built():
    prog, _ = run(PLACE_GAME)
    # first action: ONE to cell 0 (1); second: TWO to cell 1 (1); then stop is the only way on
    out = io.StringIO()
    h = HumanPlayer(io.StringIO("1\n1\n"), out)
    r = play_game(prog, 1, [h, registry.make("R")])
    assert r.choices[0] == 0 and "72 options: build yours one action at a time." in out.getvalue()


def cli(stdin: bytes, *argv, timeout=600):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-m", "recycle", "play", *argv], input=stdin, capture_output=True,
                          timeout=timeout, env=env, cwd=REPO)


def test_hostile_input_gets_a_message_never_a_traceback():
    junk = b"\xff\xfe\x00garbage\n" + b"9" * 5000 + b"\n" + b"-1\n" + b"1" * 100000 + b"\n"
    p = cli(junk, "rummy_squared", "--seed", "1")
    text = p.stdout.decode("utf-8", "replace")
    assert p.returncode == 0 and "Traceback" not in text + p.stderr.decode("utf-8", "replace")
    assert "could not be read as text" in text or "is not understood" in text
    assert "that line is too long" in text
    assert "there is no choice -1" in text
    assert "the input ended: game abandoned" in text


# p1 (seed 1) lays RED-ONE, BLACK-ONE and BLUE-ONE on row 7, columns 3 to 5, a group of ones:
# each tile is picked from the rack, then its row, then its cell (the cells go left to right,
# LASTCELL = 15 x row + column), and the turn ends with its scoring ("set p1 sto SCORE").
KRUSS_SCRIPT = ("2\n" + "".join(f"/{tile}\n1\n/ROW = 7\n1\n/LASTCELL = {cell}\n1\n" + ("/ACTION = MORE\n1\n" if k == 0 else "")
                                for k, (tile, cell) in enumerate([("RED-ONE", 108), ("BLACK-ONE", 109),
                                                                  ("BLUE-ONE", 110)]))
                + "/SCORE\n1\n")


# The steps the transcript records for that turn (which next action each step took, in walk order).
KRUSS_STEPS = [0, 1, 5, 0, 0, 0, 0, 7, 3, 0, 0, 0, 0, 1, 6] + [0] * 10 + [1, 11] + [0] * 17


def test_a_scripted_rummykruss_turn_lays_a_meld_of_three_tiles(tmp_path):
    t = tmp_path / "kruss.jsonl"
    p = cli(KRUSS_SCRIPT.encode(), "rummykruss", "--seed", "1", "--max-decisions", "2", "--transcript", str(t))
    out = p.stdout.decode()
    assert p.returncode == 0, p.stderr.decode()
    assert "This decision has too many options to list" in out
    end = out[out.index("== the end, as p1 sees it =="):]
    for cell, tile in ((108, "RED-ONE"), (109, "BLACK-ONE"), (110, "BLUE-ONE")):
        assert f"table vloc GRID {cell}: (1) {tile}" in end
    assert "p1 6 (rank 1)" in out   # 3 tiles, each touching another: 2 points each
    lines = [json.loads(x) for x in t.read_text().splitlines()]
    d = next(x for x in lines if x.get("type") == "decision")
    assert d["seat"] == 0 and d["choice"] == d["options"] - 1
    assert d["steps"] == KRUSS_STEPS   # the same steps as before the search for complete paths was made faster
    # every action the script takes is shown checked (a complete path through it was found), and
    # the only actions left "(unchecked)" are dead ends after RED-ONE, BLACK-ONE on 108, 109 (a
    # pair needs a third tile on 110, and only BLUE-ONE fits there), which no budget can rule
    # out without walking every placement of the rest of the rack
    picked = re.findall(r"filter '[^']*'\):\n\s+1\. (.*)", out)
    assert len(picked) == 11 and not any("unchecked" in p for p in picked)
    for text in re.findall(r"^\s+\d+\. (.*)  \(unchecked\)$", out, re.M):
        row = re.fullmatch(r"set table sto ROW = (\d+)", text)
        cell = re.fullmatch(r"set table sto LASTCELL = (\d+)", text)
        assert ((row and int(row[1]) > 7) or (cell and int(cell[1]) > 110)
                or (text.startswith("move ") and text.endswith(" p1 iloc RACK -> table vloc HOLD")
                    and "BLUE-ONE" not in text)), text
    r = subprocess.run([sys.executable, "-m", "recycle", "replay", str(t)], capture_output=True, timeout=600,
                       env=dict(os.environ, PYTHONPATH=str(REPO)), cwd=REPO)
    assert r.returncode == 0 and b"replay ok: 2 decisions reproduced" in r.stderr


def test_an_unchecked_action_once_taken_is_listed_in_the_option_so_far_without_its_mark(monkeypatch):
    prog, st, _ = sampled_place_game()
    monkeypatch.setattr(stepwise, "CHECK_BRANCHES", 1)
    m, out = menu(WalkedSteps(prog, st, 0), "1\n")
    with pytest.raises(HumanQuit):
        m.run()
    so_far = [line for line in out if "Your option so far" in line]
    assert so_far and not any("unchecked" in line for line in so_far)
    assert any(line.endswith("  (unchecked)") for line in out)  # the menus still mark what is unsettled
