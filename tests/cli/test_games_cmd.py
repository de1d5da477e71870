"""`recycle games --json` lists a game whose declares include a meldrules value (regression)."""
from __future__ import annotations

import json

from recycle.cli import main
from recycle.lang import library

MELD_GAME = """;; Meld Game
;;
;; A one-line game that declares a meldrules value.
;;
;; Players: 2.
(game
 (declare (meldrules (rank RANK (A, B, C))) 'MELDS)
 (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (A, B, C)))))
 (do ((set (game sto X) (if (ismeld (game iloc STOCK) using 'MELDS) 1 0))))
 (scoring max (game sto X)))
"""


def test_games_json_lists_a_declared_meldrules(capsys, tmp_path, monkeypatch):
    (tmp_path / "meld_game.gdl").write_text(MELD_GAME, "utf-8")
    monkeypatch.setattr(library, "games_dir", lambda: tmp_path)
    assert main(["games", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in rows] == ["meld_game"]
    assert isinstance(rows[0]["parameters"]["MELDS"], str) and rows[0]["title"] == "Meld Game"
