"""CardStock's older game files (CardStockXam/games) read with --dialect xam: at least 75 load and play
20 random games each, the rest fail with positioned errors for the reasons docs/xam.md gives.

The files are GPL and never copied here: they are read from a snapshot of the CardStock repository,
a bare git directory named by RECYCLE_CARDSTOCK_GIT (default /work/.mirror/mgoadric+cardstock/repo).
Without it the tests skip with a message saying so.
"""
from __future__ import annotations

import importlib.util
import re
import shutil

import pytest

from recycle.lang import SourceFile, load_source
from support import CORPUS, REPO

_spec = importlib.util.spec_from_file_location("xam_sweep", REPO / "bench" / "xam_sweep.py")
assert _spec is not None and _spec.loader is not None
xam_sweep = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(xam_sweep)

GIT = xam_sweep.git_dir()
GAMES = 20
POSITIONED = re.compile(r"^\S+\.(gdl|rkt):\d+:\d+: error\[[a-z-]+\]: ")

pytestmark = pytest.mark.skipif(
    not (GIT / "HEAD").is_file() or shutil.which("git") is None,
    reason=f"no CardStock snapshot at {GIT} (a bare git directory; set RECYCLE_CARDSTOCK_GIT) or no git")


@pytest.fixture(scope="module")
def rows():
    return xam_sweep.sweep(GAMES, GIT)


def test_at_least_75_files_load_and_play_20_games(rows):
    plays = [r for r in rows if r["status"] == "plays"]
    assert len(plays) >= 75, [r["file"] for r in rows if r["status"] != "plays"]
    for r in plays:
        assert r["detail"].startswith(f"{GAMES} random games"), r


def test_every_file_that_does_not_play_has_a_positioned_error_and_a_stated_reason(rows):
    failing = {r["file"] for r in rows if r["status"] != "plays"}
    assert failing == set(xam_sweep.WHY), "bench/xam_sweep.py WHY must name exactly the files that do not play"
    for r in rows:
        if r["status"] == "rejected":
            assert POSITIONED.match(r["detail"]), r
        elif r["status"] == "errors in play":
            assert re.search(r"games end in an error: \S+\.gdl:\d+:\d+: error\[", r["detail"]), r


def test_auto_reads_every_playing_file_as_xam_does(rows):
    """Detection: every file that plays with --dialect xam gives the same game with auto (switching by
    itself, or holding no old form at all), and every 0.5 file with an old form is detected."""
    for r in rows:
        if r["status"] != "plays":
            continue
        assert r["auto"] in ("detected", "same"), r
        data = xam_sweep.read_file(GIT, f"{xam_sweep.FOLDER}/{r['file']}")
        xam = load_source(SourceFile.from_bytes(data, r["file"], "xam")).game
        auto = load_source(SourceFile.from_bytes(data, r["file"])).game
        assert auto == xam, r["file"]


# Old files whose modern versions in the shared corpus (cardstock/NAME.rcy) changed nothing but the
# forms the dialects write differently: read as xam, each must give exactly the corpus file's AST.
SAME_AS_CORPUS = [*(f"LAMA{n}" for n in range(2, 7)), *(f"LAMAFull{n}" for n in range(2, 7)),
                  *(f"NinetyEight{n}" for n in range(2, 6)), *(f"Pairs{n}" for n in range(2, 6))]


@pytest.mark.parametrize("name", SAME_AS_CORPUS)
def test_old_file_reads_as_its_modern_version(name):
    modern = CORPUS / "cardstock" / f"{name}.rcy"
    if not modern.is_file():
        pytest.skip(f"{modern} not found: the shared corpus is needed beside the repository")
    data = xam_sweep.read_file(GIT, f"{xam_sweep.FOLDER}/{name}.gdl")
    old = load_source(SourceFile.from_bytes(data, f"{name}.gdl", "xam")).game
    assert old == load_source(SourceFile.read(modern, "modern")).game


def test_the_docs_table_is_current(rows):
    text = (REPO / "docs" / "xam.md").read_text("utf-8")
    assert text == xam_sweep.markdown(rows, GAMES), "docs/xam.md is stale: run python bench/xam_sweep.py --write"
