"""Flow diagrams readable at a glance: families and boards as one node, seats in order, a legend, no
category that does not apply, `recycle flow -o FILE` by extension, and every shipped game's diagram at
most 1,600 px wide at its natural size (Graphviz's svg width in pt x 96/72)."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from recycle.analysis.flow import FlowGraph, collapse_families
from recycle.cli import main
from recycle.run.batch import BatchSpec, run_batch
from recycle.run.session import GameSession
from recycle.visualize.flow import flow_to_dot, write_flow_file
from support import REPO

GAMES = sorted((REPO / "games").glob("*.gdl"))
MAX_WIDTH_PX = 1600
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz dot not installed")


def game_flow(name: str, seed: int = 1) -> FlowGraph:
    """The flow of run 0 of the all-random batch with this seed (the gallery's game)."""
    path = REPO / "games" / f"{name}.gdl"
    sess = GameSession.open(path)
    spec = BatchSpec(str(path), {}, ("R",) * sess.n_players, seed, 2000, 10000, "full")
    rec = run_batch(spec, 1, 1)[0]
    assert rec.end_reason != "error", rec.error
    fb = FlowGraph(title=sess.name, game=sess.name, players=sess.n_players, lineup="R" * sess.n_players)
    fb.add_run((json.loads(line) for line in rec.transcript), seed=rec.game_seed)
    return fb


def svg_of(fb: FlowGraph) -> str:
    return flow_to_dot(fb.graph()).pipe(format="svg", engine="dot").decode()


def svg_width_px(svg: str) -> float:
    m = re.search(r'<svg width="([\d.]+)pt"', svg)
    assert m, svg[:300]
    return float(m.group(1)) * 96 / 72


def cluster_tops(svg: str) -> dict[str, float]:
    """cluster name -> the y of its label text (Graphviz writes y growing downwards)."""
    tops = {}
    for m in re.finditer(r'<g id="clust\d+" class="cluster">\s*<title>cluster_([^<]*)</title>.*?<text[^>]*'
                         r'\by="(-?[\d.]+)"', svg, re.S):
        tops[m.group(1)] = float(m.group(2))
    return tops


def node_lines(src: str, prefix: str) -> list[str]:
    """The node statements (not edges) whose id starts with prefix."""
    return [line for line in src.splitlines() if line.strip().startswith(prefix) and " -> " not in line]


# ---------------------------------------------------------------- families and boards as one node


def loc(owner, kw, name, i=0):
    return [owner, kw, name, i]


def test_collapse_families_sums_counts_and_keeps_single_locations():
    stock, hand, meld = loc("table", "iloc", "STOCK"), loc("p1", "iloc", "HAND"), "MELD"
    events = [{"type": "create", "deck": "D", "to": stock, "cards": [{"card": f"D#{i}"} for i in range(6)]}]
    events += [{"type": "move", "card": "D#0", "from": stock, "to": hand} for _ in range(5)]
    events += [{"type": "move", "card": "D#0", "from": hand, "to": loc("table", "vloc", meld, i)} for i in (0, 1, 2)]
    events += [{"type": "move", "card": "D#0", "from": loc("table", "vloc", meld, 2), "to": loc("table", "vloc", meld, 0)}]
    G = FlowGraph().add_run(events).graph()
    H = collapse_families(G)
    assert sorted(H.nodes) == ["p1_INVISIBLE_HAND_0", "table_INVISIBLE_STOCK_0", "table_VISIBLE_MELD_family"]
    fam = H.nodes["table_VISIBLE_MELD_family"]
    assert (fam["members"], fam["indices"], fam["cards_in"], fam["cards_out"]) == (3, [0, 1, 2], 4, 1)
    assert H.nodes["p1_INVISIBLE_HAND_0"]["members"] == 1
    e = H.edges["p1_INVISIBLE_HAND_0", "table_VISIBLE_MELD_family"]
    assert (e["count"], e["kind"]) == (3, "revealed")
    assert H.edges["table_VISIBLE_MELD_family", "table_VISIBLE_MELD_family"]["count"] == 1  # MELD 2 -> MELD 0
    assert G.number_of_nodes() == 5  # the graph itself keeps every location


def test_rummykruss_board_cells_are_one_node():
    fb = game_flow("rummykruss")
    G = fb.graph()
    cells = [n for n, a in G.nodes(data=True) if a["name"] == "GRID"]
    assert len(cells) > 10
    src = flow_to_dot(G).source
    grid = node_lines(src, "table_VISIBLE_GRID")
    assert len(grid) == 1 and grid[0].strip().startswith("table_VISIBLE_GRID_family [")
    assert f"label=\"GRID ×{len(cells)}\"" in grid[0]
    assert f"{len(cells)} locations drawn as one" in grid[0]
    assert "legend_family" in src


@pytest.mark.parametrize("game", ["contract_rummy", "rummy_500", "block_rummy"])
def test_meld_families_are_one_node(game):
    G = game_flow(game).graph()
    names = {a["name"] for _n, a in G.nodes(data=True) if a["index"] > 0}
    assert names, "the game should use an indexed family"
    src = flow_to_dot(G).source
    for name in names:
        n = sum(1 for _n, a in G.nodes(data=True) if a["name"] == name and a["owner"] == "table")
        lines = node_lines(src, f"table_VISIBLE_{name}_")
        assert len(lines) == 1 and f"label=\"{name} ×{n}\"" in lines[0]


# ---------------------------------------------------------------- seats, categories, legend


@needs_dot
@pytest.mark.parametrize("game", ["contract_rummy", "leap_rummy_suitless", "rummy_runners"])
def test_seats_stand_in_order(game):
    fb = game_flow(game)
    seats = [f"p{i}" for i in range(1, fb.players + 1)]
    tops = cluster_tops(svg_of(fb))
    assert set(seats) <= set(tops)
    ys = [tops[s] for s in seats]
    assert ys == sorted(ys) and len(set(ys)) == len(ys), tops
    assert tops["legend"] > max(ys)  # the legend under the diagram


def test_hands_gathered_into_the_stock_are_not_shared():
    fb = game_flow("contract_rummy")
    info = fb.information()
    assert "Shared" not in info["categories"] and not info["Shared"]["evidence"]
    G = fb.graph()
    assert G.edges["p1_INVISIBLE_HAND_0", "table_INVISIBLE_STOCK_0"]["kind"] == "plain"
    src = flow_to_dot(G).source
    assert "shared:" not in src and "legend_shared" not in src


def test_a_crib_is_still_shared():
    stock, crib = loc("table", "iloc", "STOCK"), loc("table", "iloc", "CRIB")
    hand = loc("p1", "iloc", "HAND")
    events = [{"type": "create", "deck": "D", "to": stock, "cards": [{"card": "D#0"}]},
              {"type": "move", "card": "D#0", "from": stock, "to": hand},
              {"type": "move", "card": "D#0", "from": hand, "to": crib}]
    info = FlowGraph().add_run(events).information()
    assert info["categories"] == ["Hidden", "Private", "Shared"]


@needs_dot
def test_legend_is_drawn_with_what_occurs():
    svg = svg_of(game_flow("block_rummy"))
    assert "<title>cluster_legend</title>" in svg and ">Legend</text>" in svg
    for text in ("public", "private", "hidden", "deck created", "to public"):
        assert f">{text}</text>" in svg
    assert ">others only</text>" not in svg


# ---------------------------------------------------------------- files


@needs_dot
@pytest.mark.parametrize("ext, magic", [("svg", b"<?xml"), ("png", b"\x89PNG"), ("pdf", b"%PDF"),
                                        ("dot", b"// recycle flow:")])
def test_cli_output_file_format_by_extension(tmp_path, capsys, monkeypatch, ext, magic):
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "sub" / f"diagram.{ext.upper() if ext == 'png' else ext}"
    code = main(["flow", str(REPO / "games" / "gin_rummy.gdl"), "--seed", "3", "-o", str(target), "-q"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert target.read_bytes().startswith(magic)
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == [target.name]  # nothing else written
    assert f"wrote {target}" in out


def test_cli_output_unknown_extension_is_a_usage_error(tmp_path, capsys):
    code = main(["flow", str(REPO / "games" / "gin_rummy.gdl"), "--seed", "3", "-o", str(tmp_path / "d.txt")])
    _out, err = capsys.readouterr()
    assert code != 0 and ".svg, .png, .pdf, .dot" in err
    assert not list(tmp_path.iterdir())


def test_write_flow_file_rejects_an_unknown_extension(tmp_path):
    with pytest.raises(ValueError, match="extension"):
        write_flow_file(FlowGraph().graph(), tmp_path / "x.jpeg")


# ---------------------------------------------------------------- size


@needs_dot
@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_every_shipped_diagram_fits_1600_px(path):
    width = svg_width_px(svg_of(game_flow(path.stem)))
    assert width <= MAX_WIDTH_PX, f"{path.stem}: {width:.0f} px wide"


def test_size_check_covers_the_shipped_games():
    assert len(GAMES) >= 30 and Path(REPO / "games" / "rummykruss.gdl") in GAMES


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_gallery_has_every_shipped_game_within_the_width(path):
    """docs/gallery (bench/gallery.py) is regenerated: a diagram per shipped game, each within the width."""
    svg = (REPO / "docs" / "gallery" / f"{path.stem}-flow.svg").read_text(encoding="utf-8")
    assert svg_width_px(svg) <= MAX_WIDTH_PX
    assert "<title>cluster_legend</title>" in svg
    assert f"gallery/{path.stem}-flow.svg" in (REPO / "docs" / "gallery.md").read_text(encoding="utf-8")
