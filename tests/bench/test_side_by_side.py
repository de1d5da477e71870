"""bench/side_by_side.py runs and reports what it measured (figures are not asserted: timings live in bench/)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from support import REPO

CORPUS = REPO.parent / "shared" / "corpus"


@pytest.mark.skipif(not (CORPUS / "cardstock" / "KuhnPoker2.rcy").is_file(), reason="needs the corpus")
def test_side_by_side_measures_both_trees_and_the_peers_it_finds():
    out = subprocess.run([sys.executable, str(REPO / "bench" / "side_by_side.py"), "Kuhn", "--seconds", "0.05",
                          "--ref", str(REPO), "--corpus", str(CORPUS), "--json"],
                         capture_output=True, text=True, check=True)
    res = json.loads(out.stdout)
    [row] = res["rows"]
    assert row["game"] == "cardstock/KuhnPoker2.rcy" and row["cardstock_games_per_s"] == 1941.0
    for path in (row["engine"], row["run"], row["before"]["engine"], row["before"]["run"]):
        assert path["games"] >= 1 and path["decisions"] >= path["games"] and path["games_per_s"] > 0
    s = res["summary"]
    assert s["engine_vs_cardstock_min"] == pytest.approx(row["engine"]["games_per_s"] / 1941.0)
    assert "engine_after_vs_before_geomean" in s and "rules" in row
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        assert row["openspiel"] is None
    else:
        assert row["openspiel"]["game"] == "kuhn_poker" and row["openspiel"]["decisions"] >= 2 * row["openspiel"]["games"]
    assert row["rlcard"] is None  # RLCard is asked for Leduc only


@pytest.mark.parametrize(("args", "message"), [
    (["Kuhn", "--corpus", "/nonexistent"], "KuhnPoker2.rcy is not there"),
    (["Zzz"], "no benchmark game matches Zzz: the games are KuhnPoker2, LeducPoker2"),
    (["Kuhn", "--ref", str(REPO / "docs")], "not a recycle tree"),
], ids=["corpus", "name", "ref"])
def test_side_by_side_refuses_what_it_cannot_measure_in_one_line(args, message):
    out = subprocess.run([sys.executable, str(REPO / "bench" / "side_by_side.py"), *args],
                         capture_output=True, text=True)
    assert out.returncode == 2 and message in out.stderr and "Traceback" not in out.stderr
