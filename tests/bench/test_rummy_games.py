"""bench/rummy_games.py runs and reports what it measured (figures are not asserted: timings live in bench/)."""
from __future__ import annotations

import json
import subprocess
import sys

from support import REPO


def test_rummy_games_bench_reports_each_game_and_skips_unknown_names():
    out = subprocess.run([sys.executable, str(REPO / "bench" / "rummy_games.py"), "block_rummy", "no_such_game",
                          "--games", "2", "--json"], capture_output=True, text=True, check=True)
    rows = json.loads(out.stdout)
    assert [r["game"] for r in rows] == ["block_rummy"]
    assert rows[0]["games"] == 2 and rows[0]["ends"] == {"normal": 2} and rows[0]["games_per_s"] > 0
    assert "skipped no_such_game" in out.stderr
