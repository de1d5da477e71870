"""The notebook API (recycle.run_batch, flow_diagram, view) and the example notebook of docs/examples/.

The objects must show inline in Jupyter: a summary as HTML, plots and flow diagrams as SVG (and PNG),
the replay viewer as an iframe of its page.  The example notebook is executed with nbclient and
ipykernel (`pip install recycle[notebook]`; skipped with a message when absent), and it is kept
without outputs in the repository.
"""
from __future__ import annotations

import json
import shutil

import pytest

import recycle
from support import REPO

NOTEBOOK = REPO / "docs" / "examples" / "notebook_tour.ipynb"
HAS_DOT = shutil.which("dot") is not None


@pytest.fixture(scope="module")
def batch():
    return recycle.run_batch("block_rummy", 6, seed=3)


def test_batch_summary_plot_flow_and_viewer_show_inline(batch, tmp_path):
    assert len(batch.records) == 6 and all(r.transcript for r in batch.records)
    summary = batch.summary()
    assert summary.stats["runs"]["requested"] == 6
    assert summary._repr_html_().startswith("<pre>block_rummy: 6 runs")
    plot = batch.plot("length")
    assert plot._repr_svg_().lstrip().startswith("<?xml") and "<svg" in plot._repr_svg_()
    assert plot._repr_png_().startswith(b"\x89PNG")
    with pytest.raises(recycle.UsageError, match="no plot 'pie'"):
        batch.plot("pie")
    flow = batch.flow()
    assert flow.graph.graph["runs"] == 6 and "digraph" in flow.dot
    if HAS_DOT:
        assert "<svg" in flow._repr_svg_()
    page = batch.view(0, folder=tmp_path)
    assert (tmp_path / "run-0000.jsonl").is_file()
    assert page._repr_html_().startswith("<iframe srcdoc=")
    assert [g["decisions"] for g in page.data["games"]] == [batch.records[0].decisions]
    assert page.save(tmp_path / "p.html").read_text("utf-8").startswith("<!doctype html>")


@pytest.mark.parametrize("call, message", [
    (lambda: recycle.run_batch("block_rummy", 1.5), "the number of games is a whole number, not 1.5"),
    (lambda: recycle.run_batch("block_rummy", 2, seed="a"), "a seed is a whole number, not 'a'"),
    (lambda: recycle.run_batch("block_rummy", 2, seed=-3), "a seed must be at least 0, not -3"),
    (lambda: recycle.run_batch("block_rummy", 2, jobs=0), "jobs must be at least 1, not 0"),
    (lambda: recycle.flow_diagram("block_rummy", 0), "the number of games must be at least 1, not 0"),
    (lambda: recycle.run_batch("block_rummy", 0).view(), "the batch has no game to save"),
])
def test_the_notebook_api_refuses_bad_numbers_in_words(call, message):
    with pytest.raises(recycle.UsageError, match=message):
        call()


@pytest.mark.parametrize("run, message", [(6, "in 0..5, not 6"), (-1, "in 0..5, not -1"), (1.5, "not 1.5")])
def test_a_game_outside_the_batch_is_refused(batch, tmp_path, run, message):
    with pytest.raises(recycle.UsageError, match=f"a game of the batch (must be|is a whole number).*{message}"):
        batch.save_transcript(run, tmp_path)
    assert not list(tmp_path.iterdir())


def test_saving_a_transcript_never_overwrites_another(batch, tmp_path):
    path = batch.save_transcript(0, tmp_path)
    assert batch.save_transcript(0, tmp_path) == path  # the same game again: the same bytes, allowed
    other = recycle.run_batch("block_rummy", 1, seed=4)
    with pytest.raises(recycle.UsageError, match="exists and is not this game's transcript"):
        other.save_transcript(0, tmp_path)
    assert path.read_text(encoding="utf-8") == "".join(line + "\n" for line in batch.records[0].transcript)


def test_flow_diagram_of_seeded_games():
    flow = recycle.flow_diagram("rummy_squared", 2, seed=1)
    assert flow.graph.graph["runs"] == 2
    assert "GRID" in flow.dot  # the board, one node (collapsed)


def test_example_notebook_is_committed_without_outputs():
    nb = json.loads(NOTEBOOK.read_text("utf-8"))
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert code and all(c["outputs"] == [] and c["execution_count"] is None for c in code)


def test_example_notebook_runs_and_shows_everything_inline(tmp_path):
    nbformat = pytest.importorskip("nbformat", reason="nbformat is not installed (pip install recycle[notebook])")
    nbclient = pytest.importorskip("nbclient", reason="nbclient is not installed (pip install recycle[notebook])")
    pytest.importorskip("ipykernel", reason="ipykernel is not installed (pip install recycle[notebook])")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [[o for o in c.get("outputs", [])] for c in nb.cells if c.cell_type == "code"]
    assert not any(o.output_type == "error" for out in outputs for o in out)
    data = [{k: v for o in out if o.output_type == "execute_result" for k, v in o["data"].items()} for out in outputs]
    game, summary, plot, flow, viewer = data
    assert "block_rummy" in game["text/plain"]
    assert summary["text/html"].startswith("<pre>block_rummy: 20 runs")
    assert "<svg" in plot["image/svg+xml"]
    if HAS_DOT:
        assert "<svg" in flow["image/svg+xml"]
    assert viewer["text/html"].startswith("<iframe srcdoc=")
