"""The human terminal player (H) and `recycle play`, driven by scripted input."""
from __future__ import annotations

import io
import json
import sys

import pytest

from recycle.cli import main
from recycle.compiler import compile_game
from recycle.engine.play import play_game
from recycle.lang import parse_game
from recycle.players import registry
from recycle.players.human import MAX_REPLIES, HumanPlayer, HumanQuit, render_view
from support import CORPUS, REPO

BLOCK_RUMMY = REPO / "games" / "block_rummy.gdl"

# p1 sees its hand, a face-up OFFER, a face-down stock and p2's hand face down; backs of two decks.
VIEW_GAME = """
(game
 (setup (create players 2)
  (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR, FIVE, SIX))))
  (create deck (game vloc OFFER) (deck (RANK (NINE))))
  (create deck RED (game iloc RED) (deck (RANK (X)))))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))
      (set (game str NOTE) HELLO)))
 (stage player (end (all player 'P (== (size ('P iloc HAND)) 3)))
  (choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))
           ((> (size (game vloc OFFER)) 0) (move (top (game vloc OFFER)) (top ((current player) iloc HAND)))))))
 (scoring max (size ((current player) iloc HAND))))
"""


@pytest.fixture(scope="module")
def prog():
    return compile_game(parse_game(VIEW_GAME))


def names(prog, st, seat):
    return {prog.card_text(st, c) for c in prog.pile(st, seat, "iloc", "HAND")}


def test_the_view_shows_own_cards_and_hides_the_rest(prog):
    st = prog.new_game(4)
    text = render_view(prog, st, 0)
    mine, theirs = names(prog, st, 0), names(prog, st, 1)
    assert all(c in text for c in mine)
    assert not any(c in text for c in theirs)                      # p2's cards stay hidden
    assert "p2 iloc HAND: 2 cards face down" in text
    assert "table iloc STOCK: 2 cards face down" in text
    assert "table iloc RED: 1 card face down (RED back x1)" in text  # a deck with its own back
    assert "table vloc OFFER: (1) NINE" in text
    assert "table str NOTE = HELLO" in text


def test_scripted_input_is_validated_and_options_are_hidden(prog):
    out = io.StringIO()
    h = HumanPlayer(io.StringIO("\nseven\n0\n3\n2\n"), out)
    r = play_game(prog, 4, [h, registry.make("R")])
    text = out.getvalue()
    assert r.choices[0] == 1                                      # "2" is option 2: take the NINE
    assert "is not a number" in text and "there is no option 0" in text and "there is no option 3" in text
    assert "1. move the top card of table iloc STOCK -> p1 iloc HAND" in text   # hidden card: by position
    assert "2. move NINE table vloc OFFER -> p1 iloc HAND" in text


def test_q_and_end_of_input_quit_cleanly(prog):
    for script in ("q\n", ""):
        with pytest.raises(HumanQuit):
            play_game(prog, 4, [HumanPlayer(io.StringIO(script), io.StringIO()), registry.make("R")])


def test_forced_decisions_are_taken_and_shown(prog):
    st = prog.new_game(4)
    prog.apply(st, 1)  # p1 takes the NINE: p2 has one option left
    out = io.StringIO()
    h = HumanPlayer(io.StringIO(""), out)
    h.start(prog, 1, 0)
    assert h.choose(prog, st) == 0
    assert "Only one option, taken: move the top card of table iloc STOCK" in out.getvalue()


def play_cli(monkeypatch, capsys, stdin: str, *argv):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["play", *map(str, argv)])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_recycle_play_narrates_and_writes_a_transcript(monkeypatch, capsys, tmp_path):
    t = tmp_path / "game.jsonl"
    # block rummy: p1 (H) against a flat Monte Carlo player; a human who always picks the first option
    code, out, err = play_cli(monkeypatch, capsys, "1\n" * 400, BLOCK_RUMMY, "--players", "H,F", "--seed", 3,
                              "--ai-budget", 2, "--transcript", t)
    assert code == 0, err
    assert "block_rummy: 2 players [H F], seed 3; you are p1" in out
    assert "p2 (F) chose" in out and "== decision 1: p1, your turn ==" in out
    assert "Game over after" in out or "Stopped at" in out
    assert "== the end, as p1 sees it ==" in out
    lines = [json.loads(line) for line in t.read_text().splitlines()]
    assert lines[0]["lineup"] == ["H", "F"]
    code = main(["replay", str(t), "--game", str(BLOCK_RUMMY)])
    assert code == 0


def test_recycle_play_quit_is_clean(monkeypatch, capsys):
    code, out, err = play_cli(monkeypatch, capsys, "q\n", BLOCK_RUMMY, "--seed", 1)
    assert code == 0 and "you quit: game abandoned" in out and "Traceback" not in out + err
    code, out, err = play_cli(monkeypatch, capsys, "", BLOCK_RUMMY, "--seed", 1)
    assert code == 0 and "game abandoned" in out


def test_recycle_play_bad_lineup_is_a_usage_error(monkeypatch, capsys):
    code, _out, err = play_cli(monkeypatch, capsys, "", BLOCK_RUMMY, "--players", "H,Z")
    assert code == 2 and "unknown player kind" in err


@pytest.mark.needs_corpus
def test_kuhn_poker_at_the_terminal(monkeypatch, capsys):
    code, out, err = play_cli(monkeypatch, capsys, "2\n2\n", CORPUS / "cardstock" / "KuhnPoker2.rcy",
                              "--players", "H,M", "--seed", 5, "--ai-budget", 20)
    assert code == 0, err
    head, _, tail = out.partition("== the end")
    assert "p2 iloc HAND: 1 card face down" in head and "p1 iloc HAND: (1) J" in head
    assert "p2 vloc REVEAL: (1)" in tail                         # the showdown is shown at the end


# p1 may draw (an optional step: "pass" is offered), then p2 is asked, during p1's turn, whether to take one too.
ASK_GAME = """
(game
 (setup (create players 2)
  (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR, FIVE, SIX)))))
 (stage player (end (== (size (game iloc STOCK)) 0))
  (optional ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))))
  (ask (next player) 'O
   (optional (((> (size (game iloc STOCK)) 0) (move (top (game iloc STOCK)) (top ('O iloc HAND))))))))
 (scoring max (size ((current player) iloc HAND))))
"""


def test_optional_and_ask_decisions_at_the_terminal(monkeypatch, capsys, tmp_path):
    game = tmp_path / "ask.gdl"
    game.write_text(ASK_GAME, "utf-8")
    t = tmp_path / "ask.jsonl"
    # both seats human: p1 passes (option 2), p2, asked during p1's turn, takes (option 1); then always 1
    code, out, err = play_cli(monkeypatch, capsys, "2\n1\n" + "1\n" * 20, game, "--players", "H,H", "--seed", 1,
                              "--transcript", t)
    assert code == 0, err
    first, _, rest = out.partition("p1, choose 1-2")
    assert "== decision 1: p1, your turn ==" in first and "2. pass" in first
    assert "== decision 2: p2, asked during p1's turn ==" in rest
    lines = [json.loads(line) for line in t.read_text().splitlines()]
    decisions = [x for x in lines if x.get("type") == "decision"]
    assert [(d["seat"], d["choice"]) for d in decisions[:2]] == [(0, 1), (1, 0)]
    assert main(["replay", str(t), "--game", str(game)]) == 0


def test_recycle_play_never_overwrites_a_file_with_its_transcript(monkeypatch, capsys, tmp_path):
    """--transcript naming an existing file (the game file itself, say) is refused before a move is played;
    --force replaces it."""
    game = tmp_path / "ask.gdl"
    game.write_text(ASK_GAME, "utf-8")
    for target, says in ((game, "the file exists; not overwritten"), (tmp_path, "is a directory"),
                         (tmp_path / "no" / "t.jsonl", "no folder")):
        code, out, err = play_cli(monkeypatch, capsys, "1\n" * 20, game, "--players", "H,H", "--seed", 1,
                                  "--transcript", target)
        assert (code, says in err, out) == (2, True, "")
    assert game.read_text("utf-8") == ASK_GAME
    t = tmp_path / "t.jsonl"
    t.write_text("mine\n", "utf-8")
    code, _out, err = play_cli(monkeypatch, capsys, "1\n" * 20, game, "--players", "H,H", "--seed", 1,
                               "--transcript", t, "--force")
    assert code == 0, err
    assert t.read_text("utf-8").startswith("{")


def test_a_closed_stdin_quits_cleanly(prog, monkeypatch):
    """`recycle play <&-` starts with sys.stdin None: the game ends as when the input ends."""
    monkeypatch.setattr(sys, "stdin", None)
    with pytest.raises(HumanQuit, match="stdin is closed"):
        play_game(prog, 4, [HumanPlayer(None, io.StringIO()), registry.make("R")])


def test_a_reply_quoted_back_is_printable_and_cut_short(prog):
    # A pasted terminal escape or a page of text comes back as one short, harmless line.
    out = io.StringIO()
    reply = "\x1b[2J" + "x" * 500
    h = HumanPlayer(io.StringIO(f"{reply}\n2\n"), out)
    play_game(prog, 4, [h, registry.make("R")])
    line = next(ln for ln in out.getvalue().splitlines() if "is not a number" in ln)
    assert "\x1b" not in line and "\ufffd[2J" in line
    quoted = line.split("'")[1]
    assert len(quoted) == 40 and quoted.endswith("…")


class _Zeros(io.StringIO):
    """An input that never ends a line (`< /dev/zero`): readline(n) always gives n characters."""

    def readline(self, size=-1):
        return "\0" * (size if size > 0 else 4096)


def test_an_input_that_never_ends_a_line_quits_instead_of_reading_forever(prog):
    out = io.StringIO()
    with pytest.raises(HumanQuit, match=r"^the input sent a line of over 1,048,576 characters without an end: "
                                        r"game abandoned$"):
        play_game(prog, 3, [HumanPlayer(_Zeros(), out), HumanPlayer(_Zeros(), out)])
    assert "choose 1-2" in out.getvalue()


class _Endless(io.StringIO):
    """An input that sends the same wrong reply for ever (`yes x | recycle play …`), counting what is read."""

    def __init__(self, reply: str):
        super().__init__()
        self.reply, self.read = reply, 0

    def readline(self, size=-1):
        self.read += 1
        return self.reply


@pytest.mark.parametrize("reply", ["x\n", "99\n", "\n"])
def test_replies_that_never_choose_quit_after_max_replies(prog, reply):
    out, inp = io.StringIO(), _Endless(reply)
    with pytest.raises(HumanQuit, match=r"^1,000 replies to one decision chose no option: game abandoned "
                                        r"\(MAX_REPLIES, docs/limits.md\)$"):
        play_game(prog, 3, [HumanPlayer(inp, out), HumanPlayer(inp, out)])
    assert inp.read == MAX_REPLIES == 1000


def test_the_reply_count_starts_again_at_each_decision(prog):
    # 999 wrong replies then a choice, decision after decision: never abandoned
    class Patient(io.StringIO):
        def __init__(self):
            super().__init__()
            self.n = 0

        def readline(self, size=-1):
            self.n += 1
            return "1\n" if self.n % MAX_REPLIES == 0 else "x\n"

    inp, out = Patient(), io.StringIO()
    result = play_game(prog, 3, [HumanPlayer(inp, out), HumanPlayer(inp, out)])
    assert result.outcome == "completed" and inp.n >= 2 * MAX_REPLIES
