"""(cardatt A C) of no card (language spec §9.1): a run-time error at the cardatt form, except in a
.rcy file, CardStock's extension, where it is "" as in CardStock (whose corpus games rely on it)."""
from __future__ import annotations

import pytest

from recycle.compiler import compile_game
from recycle.engine.algorithms import derive
from recycle.engine.play import play_game
from recycle.lang import parse_game
from recycle.players.random_player import RandomPlayer

# Each case is a program item, placed on line 3 after one space.
HEAD = "(game\n (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (A, B)))))\n"
TAIL = "\n (scoring max 0))\n"
CASES = {
    "value": "(do ((set (game str R) (cardatt RANK (top (game vloc EMPTY))))))",
    "condition": "(do (((== (cardatt RANK (bottom (game vloc EMPTY))) A) (turn pass))))",
    "attribute computed": "(do ((set (game str R) (cardatt (game str WHICH) (top (game vloc EMPTY))))))",
    "in a choice": "(choice (((!= (cardatt RANK (top (game vloc EMPTY))) A) (turn pass)) (turn pass)))",
    "variable": "(let (top (game vloc EMPTY)) 'C (do ((set (game str R) (cardatt RANK 'C)))))",
}


def _play(text: str, filename: str):
    prog = compile_game(parse_game(text, filename))
    return play_game(prog, 1, [RandomPlayer() for _ in range(prog.n_players)])


@pytest.mark.parametrize("item", CASES.values(), ids=list(CASES))
def test_attribute_of_no_card_is_an_error_at_the_cardatt(item):
    column = 2 + item.index("(cardatt")
    r = _play(HEAD + " " + item + TAIL, "nocard.gdl")
    assert r.outcome == "error", r
    e = r.error
    assert e.cls == "no-card"
    text = e.text.splitlines()[0]
    assert text.startswith(f"nocard.gdl:3:{column}: error[no-card]: (cardatt "), text
    assert "designates no card, which has no attributes" in text


@pytest.mark.parametrize("item", CASES.values(), ids=list(CASES))
def test_in_a_cardstock_file_it_is_no_error(item):
    # CardStock's GameIterator returns "" for an attribute of no card; a .rcy file reads as there.
    assert _play(HEAD + " " + item + TAIL, "nocard.rcy").outcome == "completed"


def test_in_a_cardstock_file_it_is_the_empty_string():
    # "" is not writable in RECYCLE: it is what an unset str cell holds, so the two compare equal
    text = (HEAD + " (do (((== (cardatt RANK (top (game vloc EMPTY))) (game str UNSET)) (set (game sto SAME) 1))))\n"
            " (scoring max (game sto SAME)))\n")
    prog = compile_game(parse_game(text, "same.rcy"))
    assert prog.value(prog.new_game(1), "game", "sto", "SAME") == 1


def test_in_a_cardstock_file_two_empty_tops_have_equal_attributes():
    text = (HEAD + " (do (((== (cardatt RANK (top (game vloc A))) (cardatt RANK (top (game vloc B))))"
            " (set (game sto SAME) 1))))\n (scoring max (game sto SAME)))\n")
    prog = compile_game(parse_game(text, "same.rcy"))
    st = prog.new_game(1)
    assert prog.value(st, "game", "sto", "SAME") == 1
    assert _play(text, "same.gdl").outcome == "error"


# The corpus games that read an attribute of the top card of a pile that can be empty, as CardStock
# allows (docs/language.md §9.1): they play without errors as the .rcy files they are, and the same
# text in a .gdl file stops at that cardatt.
RELYING = ["cardstock/Caterpillar2.rcy", "cardstock/Skittgube3.rcy", "cardstock/StealingBundles2.rcy",
           "cardstock/StealingBundles3.rcy", "cardstock/StealingBundles4.rcy", "valet/Skitgubbe3.rcy"]


@pytest.mark.needs_corpus
@pytest.mark.parametrize("name", RELYING)
def test_corpus_games_relying_on_cardstock_play_as_rcy(name, needs_corpus):
    text = (needs_corpus / name).read_text("utf-8-sig")
    errors = {}
    for suffix in (".rcy", ".gdl"):
        prog = compile_game(parse_game(text, name.split("/")[1].replace(".rcy", suffix)))
        results = [play_game(prog, derive(2024, "game", i), [RandomPlayer() for _ in range(prog.n_players)], 2000)
                   for i in range(20)]
        errors[suffix] = [r.error for r in results if r.outcome == "error"]
    assert errors[".rcy"] == []
    assert errors[".gdl"], "the .gdl reading should reach an attribute of no card in 20 games"
    assert all(e.cls == "no-card" and "(cardatt " in e.text for e in errors[".gdl"])


@pytest.mark.parametrize("item", CASES.values(), ids=list(CASES))
def test_in_a_file_read_as_cardstockxam_it_is_no_error(item):
    # the older dialect is CardStock's too: its .gdl files get CardStock's "" (language spec §9.1, §27)
    prog = compile_game(parse_game(HEAD + " " + item + TAIL, "nocard.gdl", dialect="xam"))
    assert prog.game.dialect == "xam"
    assert play_game(prog, 1, [RandomPlayer() for _ in range(prog.n_players)]).outcome == "completed"
