"""Card attributes read through a column per attribute in fused code (fusion._column, issue 16): the column
follows the card table when cards are created or their attributes overridden during play."""
from __future__ import annotations

import pytest

from recycle.compiler import driver, fusion
from support.games import make_game, run

CARDS = ("(create deck (game vloc HAND) (deck (RANK (ONE, TWO, THREE)) (SUIT (H))))"
         " (create deck (game vloc HAND) (deck (RANK (WILD)) (SUIT (W))))")
WILD = "(top (game vloc HAND))"
COUNT = "(size (filter (game vloc HAND) 'C (== (cardatt RANK 'C) {})))"


@pytest.fixture(params=["always", "never"])
def fusing(request, monkeypatch):
    monkeypatch.setattr(driver, "FUSE", request.param)
    monkeypatch.setattr(fusion, "MIN_NODES", 1)
    return request.param


def counted(items: str) -> int:
    prog, st = run(make_game(CARDS, items))
    assert st.status == 2, st.error.format() if st.error else st.status
    return prog.value(st, "game", "sto", "N")


def test_one_filter_sees_an_override_made_after_its_first_run(fusing):
    # the same fused filter runs twice: before the wild card is a TWO (one TWO) and after (two)
    items = f"(do ((all (range 1..2) 'I (do ((inc (game sto N) {COUNT.format('TWO')}) (set ({WILD} str RANK) TWO))))))"
    assert counted(items) == 1 + 2


def test_one_filter_sees_the_override_cleared(fusing):
    items = (f"(do ((set ({WILD} str RANK) TWO) (all (range 1..2) 'I (do ((inc (game sto N) {COUNT.format('TWO')})"
             f" (clear ({WILD} str RANK)))))))")
    assert counted(items) == 2 + 1


def test_one_filter_sees_cards_created_after_its_first_run(fusing):
    items = (f"(do ((all (range 1..3) 'I (do ((inc (game sto N) {COUNT.format('ONE')})"
             " (create deck (game vloc HAND) (deck (RANK (ONE)) (SUIT (H)))))))))")
    assert counted(items) == 1 + 2 + 3


def test_a_card_attribute_reads_its_column_when_fused(monkeypatch, fusing):
    sources: list[str] = []
    real = compile
    monkeypatch.setattr(fusion, "compile", lambda src, name, mode: (sources.append(src), real(src, name, mode))[1],
                        raising=False)
    assert counted(f"(do ((set (game sto N) {COUNT.format('THREE')})))") == 1
    text = "\n".join(sources)
    assert ("_column(" in text) == (fusing == "always"), text
    assert ".get('RANK'" not in text, text
