"""Transcripts and descriptions name locations, cells and card storage as the game file does (docs/results.md)."""
from __future__ import annotations

import json

from recycle.engine.recording import ListRecorder
from recycle.run.replay import replay
from recycle.run.transcript import render_text
from support import REPO
from support.games import make_game, run

GAME = make_game("(create board (game vloc ROW) (square 1 3))",
                 "(do ((move (top (game iloc STOCK)) (top (game vloc ROW 0)))"
                 "     (move (top (game iloc STOCK)) (top (game vloc MELD 0)))"
                 "     (move (top (game iloc STOCK)) (top (game vloc PILE)))"
                 "     (set ((top (game vloc ROW 0)) sto MARK) 1)))\n"
                 " (choice ((move (top (game vloc MELD 0)) (top (game vloc MELD 1))) (turn pass)))",
                 deck="(create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR))))")


def test_cells_and_indexed_families_are_named_with_their_index_and_cards_by_their_face():
    prog, st = run(GAME)
    texts = {prog.loc_text(pid) for pid in range(len(prog.pile_key))}
    assert {"table vloc ROW 0", "table vloc MELD 0", "table vloc MELD 1", "table vloc PILE"} <= texts
    assert "table vloc ROW" not in texts and "table vloc MELD" not in texts
    assert prog.describe(st, st.opts[0]) == ["move THREE table vloc MELD 0 -> table vloc MELD 1"]


def test_a_set_on_a_card_keeps_its_id_and_adds_its_name():
    prog, _ = run(GAME)
    rec = ListRecorder()
    prog.new_game(1, recorder=rec)
    (ev,) = [e for e in rec if e["type"] == "set"]
    assert ev["owner"].startswith("DEFAULT#") and ev["owner_name"] == "FOUR"
    assert "set     FOUR sto MARK = 1" in render_text(rec)


def test_render_text_names_member_zero_of_a_family_seen_with_other_indices():
    lines = [{"type": "move", "card": "X", "from": ["table", "vloc", "MELD", 0], "to": ["table", "vloc", "MELD", 1]},
             {"type": "move", "card": "X", "from": ["p1", "iloc", "HAND", 0], "to": ["table", "vloc", "PILE", 0]}]
    assert render_text(lines).splitlines() == ["move    X  table vloc MELD 0 -> table vloc MELD 1",
                                               "move    X  p1 iloc HAND -> table vloc PILE"]


def test_transcripts_written_before_the_names_still_replay(tmp_path):
    # the golden tile_rummy transcript as an older version wrote it: no owner_name, other decision texts
    old = []
    for line in (REPO / "tests" / "golden" / "tile_rummy-seed-1.jsonl").read_text("utf-8").splitlines():
        ev = json.loads(line)
        ev.pop("owner_name", None)
        if ev.get("type") == "decision" and "text" in ev:
            ev["text"] = ev["text"].replace("table vloc MELD 0", "table vloc MELD")
        old.append(json.dumps(ev, ensure_ascii=False, separators=(",", ":")))
    path = tmp_path / "old.jsonl"
    path.write_text("\n".join(old) + "\n", "utf-8")
    lines, _ = replay(path, REPO / "games" / "tile_rummy.gdl")
    assert any("owner_name" in ev for ev in lines)  # the replay speaks the new words


# The same families with names computed at run time ('N ranges over a name list): MELD and RUN are
# written with an index, PILE and HEAP without.
COMPUTED = make_game("", "(do ((all (MELD, RUN) 'N (move (top (game iloc STOCK)) (top (game vloc 'N 0))))"
                         "     (all (PILE, HEAP) 'N (move (top (game iloc STOCK)) (top (game vloc 'N))))))\n"
                         " (choice ((any (MELD, RUN) 'N (move (top (game vloc 'N 0)) (top (game vloc 'N 1))))))",
                     deck="(create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR))))")


def test_a_family_whose_name_is_computed_is_indexed_like_a_literal_one():
    prog, st = run(COMPUTED)
    texts = {prog.loc_text(pid) for pid in range(len(prog.pile_key))}
    assert {"table vloc MELD 0", "table vloc RUN 0", "table vloc PILE", "table vloc HEAP"} <= texts
    assert not texts & {"table vloc MELD", "table vloc RUN", "table vloc PILE 0", "table vloc HEAP 0"}
    assert [prog.describe(st, o) for o in st.opts] == [["move FOUR table vloc MELD 0 -> table vloc MELD 1"],
                                                       ["move THREE table vloc RUN 0 -> table vloc RUN 1"]]
