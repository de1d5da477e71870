"""`recycle games`: the shipped games, with their players and parameters."""
from __future__ import annotations

import argparse
import json
from typing import Any

from rich.console import Console
from rich.table import Table

from ..errors import RecycleError
from ..lang import library
from ..run.session import GameSession


def register(sub) -> None:
    """Add `games` to the CLI's subcommands."""
    g = sub.add_parser("games", help="list the shipped games")
    g.add_argument("--json", action="store_true")
    g.set_defaults(func=cmd_games)



def cmd_games(args: argparse.Namespace) -> int:
    rows: list[dict[str, Any]] = []
    for name, path in library.shipped().items():
        try:
            sess = GameSession.open(path)
        except RecycleError as e:  # a shipped game that does not load is a bug, but listing goes on
            rows.append({"name": name, "title": name, "players": "?", "parameters": {"error": str(e)},
                         "description": "", "path": str(path)})
            continue
        info = library.info(name, path, sess.source.text)
        params = {d.var: sess.prog.declared.get(d.var) for d in sess.prog.game.declares}
        rows.append({"name": name, "title": info.title, "players": info.players or str(sess.n_players),
                     "parameters": params, "description": info.description, "path": str(path)})
    if args.json:
        print(json.dumps(rows, indent=2, default=str))  # a meldrules parameter prints as its text
        return 0
    t = Table(title="shipped games (run one with: recycle run NAME)")
    for col in ("name", "players", "parameters", "description"):
        t.add_column(col)
    for r in rows:
        params_text = ", ".join(f"{k}={v}" for k, v in r["parameters"].items()) or "none"
        t.add_row(r["name"], r["players"], params_text, r["title"])
    Console().print(t)
    return 0
