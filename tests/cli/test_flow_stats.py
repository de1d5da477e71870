"""`recycle flow` and `recycle stats` (flow-and-analytics §1-§3, §6) on real games.

Graph-level checks on corpus games (skipped without ../shared/corpus), the live event
stream against the full transcript, the files `stats` writes, aggregation over
several games, the Graphviz-less path and one-line errors for user mistakes.
"""
from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import graphviz
import pytest

from recycle.analysis.flow import FlowGraph
from recycle.cli import main, statsbatch
from recycle.engine.algorithms import derive
from recycle.engine.play import play_game
from recycle.players import registry
from recycle.run.batch import BatchSpec, play_run
from recycle.run.session import GameSession
from recycle.visualize.flow import flow_to_dot
from support import CORPUS, REPO

BLOCK_RUMMY = REPO / "games" / "block_rummy.gdl"
RISKY = REPO / "tests" / "fixtures" / "games" / "risky.gdl"   # errors at run time on one branch
HAS_DOT = shutil.which("dot") is not None
needs_dot = pytest.mark.skipif(not HAS_DOT, reason="Graphviz 'dot' is not installed")

SUMMARY_KEYS = ["format", "version", "game", "game_sha256", "players", "lineup", "rotate", "seed", "interpreter",
                "params", "direction", "direction_text", "runs", "errors", "length", "branching", "seats", "kinds",
                "ties", "outcomes", "warnings", "teams", "information", "timing", "files"]


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def flow_of(path: Path, n: int, seed: int) -> FlowGraph:
    """The aggregated flow of runs 0..n-1 of the batch with seed `seed`, from full transcripts."""
    sess = GameSession.open(path)
    fb = FlowGraph(title=sess.name, game=sess.name, game_sha256=sess.sha256, players=sess.n_players,
                   lineup="R" * sess.n_players)
    for r in range(n):
        rec = sess.play(derive(seed, "game", r), ["R"] * sess.n_players, run=r, batch_seed=seed, level="full")
        assert rec.end_reason != "error", rec.error
        fb.add_run((json.loads(line) for line in rec.transcript), seed=rec.game_seed)
    return fb


# ---------------------------------------------------------------- §2 categories of real games


@pytest.mark.needs_corpus
@pytest.mark.parametrize("game, expected", [
    ("valet/Rummy2.rcy", {"Hidden", "Private", "Taken"}),
    ("valet/Goofspiel2.rcy", {"Hidden", "Back", "Private"}),
])
def test_categories_of_real_games_from_transcripts(game, expected):
    fb = flow_of(CORPUS / game, 10, seed=2024)
    info = fb.information()
    assert set(info["categories"]) == expected
    assert info["Deduction"]["value"] is None
    G = fb.graph()
    # the rules read the structured attributes: check them against the graph directly
    cats = {a["category"] for _n, a in G.nodes(data=True)}
    kinds = {a["kind"] for _u, _v, a in G.edges(data=True)}
    assert ("hidden" in cats) == ("Hidden" in expected) and ("private" in cats) == ("Private" in expected)
    assert ("taken" in kinds) == ("Taken" in expected) and "shared" not in kinds
    assert (len(G.graph["decks"]) >= 2) == ("Back" in expected)
    # every single game already shows every category of these two games
    for name in expected:
        assert info[name]["run_share"] == 1.0


@pytest.mark.needs_corpus
def test_rummy2_graph_shape():
    G = flow_of(CORPUS / "valet/Rummy2.rcy", 1, seed=7).graph()
    stock = G.nodes["table_INVISIBLE_STOCK_0"]
    assert stock["start"] and stock["category"] == "hidden" and stock["decks"] == ["DEFAULT"]
    assert G.nodes["p1_INVISIBLE_HAND_0"]["category"] == "private"
    taken = [(u, v) for u, v, a in G.edges(data=True) if a["kind"] == "taken"]
    assert taken and all(G.nodes[u]["name"] == "DISCARD" and G.nodes[v]["owner"] != "table" for u, v in taken)
    assert G.edges["table_INVISIBLE_STOCK_0", "p1_INVISIBLE_HAND_0"]["kind"] == "plain"


@pytest.mark.needs_corpus
@pytest.mark.parametrize("game, expected", [
    ("valet/Rummy2.rcy", ["Hidden", "Private", "Taken"]),
    ("valet/Goofspiel2.rcy", ["Hidden", "Private", "Back"]),
])
def test_categories_of_real_games_via_cli(game, expected, tmp_path, capsys):
    code, out, err = run_cli(capsys, "flow", CORPUS / game, "--seed", 2024, "--games", 10, "--json",
                             "--out", tmp_path / "f")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["categories"] == expected          # report order: Hidden, Private, Taken, Shared, Back
    assert doc["nodes"] > 0 and doc["edges"] > 0 and doc["runs"] == 10
    assert set(doc) >= {"categories", "nodes", "edges", "files"}
    assert (tmp_path / "f" / "flow.dot").stat().st_size > 0
    # the CLI draws the same graph as the builder fed with session.play(level="full") events
    fb = flow_of(CORPUS / game, 10, seed=2024)
    G = fb.graph()
    assert (doc["nodes"], doc["edges"]) == (G.number_of_nodes(), G.number_of_edges())
    assert (tmp_path / "f" / "flow.dot").read_text() == flow_to_dot(G).source


# ---------------------------------------------------------------- live stream == transcript


class _Live:
    """A recorder that hands every event of the real game to a flow builder as it happens."""

    def __init__(self, fb: FlowGraph):
        self.fb = fb
        self.n = 0

    def event(self, d):
        self.n += 1
        self.fb.add_event(d)


@pytest.mark.parametrize("game", ["block_rummy", "valet/Goofspiel2.rcy", "valet/Rummy2.rcy"])
def test_live_stream_and_full_transcript_give_the_same_graph(game):
    path = BLOCK_RUMMY if game == "block_rummy" else CORPUS / game
    if not path.exists():
        pytest.skip(f"{path} not found (corpus tests need ../shared/corpus)")
    sess = GameSession.open(path)
    n = sess.n_players
    meta = dict(title=sess.name, game=sess.name, game_sha256=sess.sha256, players=n, lineup="R" * n)
    for seed in (3, 11):
        rec = sess.play(seed, ["R"] * n, level="full")
        from_file = FlowGraph(**meta)
        from_file.add_run((json.loads(line) for line in rec.transcript), seed=seed)

        live = FlowGraph(**meta)
        live.begin_run(seed)
        sink = _Live(live)
        result = play_game(sess.prog, seed, [registry.make("R") for _ in range(n)], recorder=sink)
        live.end_run()
        assert sink.n > 0 and result.n_decisions == rec.decisions

        a, b = from_file.graph(), live.graph()
        assert flow_to_dot(a).source == flow_to_dot(b).source
        assert dict(a.nodes(data=True)) == dict(b.nodes(data=True))
        assert {(u, v): d for u, v, d in a.edges(data=True)} == {(u, v): d for u, v, d in b.edges(data=True)}
        assert from_file.information() == live.information()


# ---------------------------------------------------------------- recycle flow


@needs_dot
def test_flow_writes_files_and_json(tmp_path, capsys):
    out = tmp_path / "f"
    code, stdout, err = run_cli(capsys, "flow", BLOCK_RUMMY, "--seed", 5, "--out", out, "--json")
    assert code == 0, err
    doc = json.loads(stdout)
    assert doc["categories"] == ["Hidden", "Private", "Taken"]
    assert doc["seed"] == 5 and doc["runs"] == 1 and doc["seeds"] == [derive(5, "game", 0)]
    for name in ("flow.dot", "flow.json", "flow.svg", "flow.png"):
        assert (out / name).stat().st_size > 0, name
        assert str(out / name) in doc["files"]
    assert (out / "flow.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<svg" in (out / "flow.svg").read_text()
    # the flow of `flow --seed S` is run 0 of the batch with seed S
    sess = GameSession.open(BLOCK_RUMMY)
    rec = play_run(sess, BatchSpec(str(BLOCK_RUMMY), {}, ("R", "R"), 5, transcript_level="full"), 0)
    fb = FlowGraph(title=sess.name, game=sess.name, game_sha256=sess.sha256, players=2, lineup="RR")
    fb.add_run((json.loads(line) for line in rec.transcript), seed=rec.game_seed)
    assert (out / "flow.dot").read_text() == flow_to_dot(fb.graph()).source
    # a second run into the same folder is refused; with --force it replaces flow's own files
    code, stdout, err = run_cli(capsys, "flow", BLOCK_RUMMY, "--seed", 5, "--out", out)
    assert code == 2 and "is not empty" in err and "--force" in err and stdout == ""
    code, stdout, err = run_cli(capsys, "flow", BLOCK_RUMMY, "--seed", 5, "--out", out, "--force")
    assert code == 0 and "removed 4 files" in err and "block_rummy: " in stdout
    assert "information: Hidden, Private, Taken" in stdout


def test_flow_max_nodes_merges_and_says_so(tmp_path, capsys):
    out = tmp_path / "f"
    code, _stdout, err = run_cli(capsys, "flow", BLOCK_RUMMY, "--seed", 5, "--out", out, "--max-nodes", 3,
                                 "--format", "svg")
    assert code == 0, err
    nodes = json.loads((out / "flow.json").read_text())["nodes"]  # the graph itself keeps every location
    drawn = len({(a["owner"], a["cls"], a["name"]) for a in nodes})  # an indexed family (SET 0…3) is drawn as one
    assert drawn < len(nodes)
    assert f"note: the flow diagram draws the 2 busiest of {drawn} locations; the other {drawn - 2} are merged" in err
    assert f'merged_locations [label="{drawn - 2} more locations"' in (out / "flow.dot").read_text()


def test_flow_aggregates_games(tmp_path, capsys):
    out = tmp_path / "agg"
    code, stdout, err = run_cli(capsys, "flow", BLOCK_RUMMY, "--seed", 9, "--games", 3, "--out", out, "--json",
                                "--format", "svg", "--edge-labels", "count")
    assert code == 0, err
    doc = json.loads(stdout)
    assert doc["runs"] == 3 and doc["games"] == 3 and doc["excluded_errors"] == 0
    assert doc["seeds"] == [derive(9, "game", i) for i in range(3)]
    data = json.loads((out / "flow.json").read_text())
    assert data["graph"]["runs"] == 3 and data["graph"]["title"] == "block_rummy (3 games)"
    # the single-game diagram of the same seed is run 0 of the batch
    code, _o, err = run_cli(capsys, "flow", BLOCK_RUMMY, "--seed", 9, "--out", tmp_path / "one", "--json",
                            "--format", "svg")
    assert code == 0, err
    single = json.loads((tmp_path / "one" / "flow.json").read_text())
    assert single["graph"]["runs"] == 1 and single["graph"]["title"] == "block_rummy"
    fb = flow_of(BLOCK_RUMMY, 3, seed=9)
    G = fb.graph()
    assert (doc["nodes"], doc["edges"]) == (G.number_of_nodes(), G.number_of_edges())
    edges = data.get("edges", data.get("links"))
    counts = {(e["source"], e["target"]): e["count"] for e in edges}
    assert counts == {(u, v): a["count"] for u, v, a in G.edges(data=True)}
    one_edges = single.get("edges", single.get("links"))
    one = {(e["source"], e["target"]): e["count"] for e in one_edges}
    assert set(one) <= set(counts) and all(counts[k] >= one[k] for k in one)
    assert sum(counts.values()) > sum(one.values())
    assert max(e["runs"] for e in edges) == 3
    dot = (out / "flow.dot").read_text()
    assert "runs=3" in dot.splitlines()[0] and "label=" in dot


def test_flow_leaves_out_error_runs(tmp_path, capsys):
    code, stdout, err = run_cli(capsys, "run", RISKY, "-n", 20, "--seed", 3, "--json")
    errors = json.loads(stdout)["errors"]
    assert 0 < errors < 20
    code, stdout, err = run_cli(capsys, "flow", RISKY, "--seed", 3, "--games", 20, "--json", "--out", tmp_path / "f",
                                "--format", "svg")
    assert code == 0, err
    doc = json.loads(stdout)
    assert doc["excluded_errors"] == errors and doc["runs"] == 20 - errors == len(doc["seeds"])
    assert f"left out {errors} games that ended with an error" in err and "error[no-card]" in err
    assert len([line for line in err.splitlines() if line.startswith("note: left out")]) == 1
    # a single game that ends with an error leaves nothing to draw: exit 1, one line, nothing written
    code, stdout, err = run_cli(capsys, "flow", RISKY, "--seed", 3, "--out", tmp_path / "g")
    assert code == 1 and "every game ended with an error" in err and "run 0 (game seed" in err
    assert len(err.strip().splitlines()) == 2 and "Traceback" not in err        # the seed line, then the error
    assert not (tmp_path / "g").exists()


def test_stats_with_error_runs(tmp_path, capsys):
    out = tmp_path / "s"
    code, stdout, err = run_cli(capsys, "stats", RISKY, "-n", 20, "--seed", 3, "--out", out, "--json")
    assert code == 0, err
    doc = json.loads(stdout)
    assert doc["runs"]["error"] > 0 and doc["errors"][0]["run"] == 0
    assert doc["information"]["runs"] == 20 - doc["runs"]["error"]
    assert not (out / "flow.dot").exists() and "flow.* not drawn: run 0 ended with an error" in err
    assert (out / "flow-aggregate.dot").exists() and (out / "summary.json").exists()


def test_flow_default_out_and_drawn_seed(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _stdout, err = run_cli(capsys, "flow", "block_rummy", "--format", "svg")
    assert code == 0, err
    assert (tmp_path / "flow-block_rummy" / "flow.dot").stat().st_size > 0
    assert "(drawn; pass --seed to repeat)" in err


def test_flow_without_graphviz_writes_dot_and_one_notice(tmp_path, capsys, monkeypatch):
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    assert shutil.which("dot") is None
    out = tmp_path / "f"
    code, _stdout, err = run_cli(capsys, "flow", BLOCK_RUMMY, "--seed", 1, "--out", out)
    assert code == 0
    assert err.count("Graphviz 'dot' program not found") == 1
    assert "apt install graphviz" in err
    assert (out / "flow.dot").stat().st_size > 0 and (out / "flow.json").stat().st_size > 0
    assert not (out / "flow.svg").exists() and not (out / "flow.png").exists()
    assert "Traceback" not in err


def test_flow_render_failure_exits_1(tmp_path, capsys, monkeypatch):
    if not HAS_DOT:
        pytest.skip("Graphviz 'dot' is not installed")

    def boom(*a, **kw):
        raise graphviz.CalledProcessError(1, ["dot"], output=b"", stderr=b"Error: syntax error in line 1")

    monkeypatch.setattr(graphviz, "render", boom)
    code, _stdout, err = run_cli(capsys, "flow", BLOCK_RUMMY, "--seed", 1, "--out", tmp_path / "f")
    assert code == 1
    assert "Graphviz failed to render flow.dot" in err and "syntax error" in err
    assert "Traceback" not in err and (tmp_path / "f" / "flow.dot").exists()


@pytest.mark.parametrize("argv, needle", [
    (["flow", "no_such_game"], "no such file"),
    (["flow", "block_rummy", "--bogus"], "unrecognized arguments"),
    (["flow", "block_rummy", "--games", "0"], "at least 1"),
    (["flow", "block_rummy", "--edge-labels", "all"], "invalid choice"),
    (["flow", "block_rummy", "--format", "svg,dot"], "unknown image format 'dot'"),
    (["flow", "block_rummy", "--declared", "Hidden,Secret"], "unknown information category"),
    (["stats", "no_such_game"], "no such file"),
    (["stats", "block_rummy", "-n", "many"], "whole number"),
    (["stats", "block_rummy", "--plot-format", "gif"], "unknown plot format"),
    (["stats", "block_rummy", "--param", "lower=1"], "uppercase"),
])
def test_user_mistakes_exit_2_with_one_line(argv, needle, capsys):
    code, _stdout, err = run_cli(capsys, *argv)
    assert code == 2
    assert needle in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_out_that_is_a_file_exits_2(tmp_path, capsys):
    f = tmp_path / "file"
    f.write_text("keep me")
    for cmd in ("flow", "stats"):
        code, _stdout, err = run_cli(capsys, cmd, BLOCK_RUMMY, "-n", 1, "--out", f)
        assert code == 2 and "not a directory" in err and len(err.strip().splitlines()) == 1
    assert f.read_text() == "keep me"


def test_errors_exit_2_in_a_real_process(tmp_path):
    env = dict(os.environ)
    proc = subprocess.run([sys.executable, "-m", "recycle.cli", "flow", str(tmp_path / "missing.gdl")],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "missing.gdl" in proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""


# ---------------------------------------------------------------- recycle stats


@pytest.fixture(scope="module")
def stats_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("stats") / "block"
    so, se = io.StringIO(), io.StringIO()
    with redirect_stdout(so), redirect_stderr(se):
        code = main(["stats", str(BLOCK_RUMMY), "-n", "200", "--seed", "42", "--out", str(out)])
    return code, out, so.getvalue(), se.getvalue()


STATS_FILES = ["games.csv", "decisions.csv", "results.csv", "summary.json", "branching_by_index.csv", "seats.csv",
               "heuristics.json", "heuristics.csv", "flow.dot", "flow.json", "flow-aggregate.dot",
               "flow-aggregate.json", "transcripts/run-0000.jsonl", "transcripts/run-0199.jsonl"]
PLOT_FILES = [f"{p}.{f}" for p in ("branching", "length", "scores", "winrate") for f in ("png", "svg")]


def test_stats_writes_every_file(stats_run):
    code, out, _stdout, stderr = stats_run
    assert code == 0, stderr
    names = STATS_FILES + PLOT_FILES + (["flow.svg", "flow.png", "flow-aggregate.svg", "flow-aggregate.png"]
                                        if HAS_DOT else [])
    for name in names:
        p = out / name
        assert p.is_file() and p.stat().st_size > 0, name
    for name in PLOT_FILES:
        data = (out / name).read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n") if name.endswith(".png") else b"<svg" in data[:2000], name
    summary = json.loads((out / "summary.json").read_text())
    for f in summary["files"]:
        assert (out / f).is_file(), f
    assert set(names) <= set(summary["files"])
    assert len(list((out / "transcripts").glob("run-*.jsonl"))) == 200


def test_stats_summary_json(stats_run):
    _code, out, _stdout, _stderr = stats_run
    s = json.loads((out / "summary.json").read_text())
    assert [k for k in s if k in SUMMARY_KEYS] == SUMMARY_KEYS      # every key, in the §3.6 order
    assert s["format"] == "recycle-analytics" and s["version"] == 1 and s["game"] == "block_rummy"
    assert s["seed"] == 42 and s["players"] == 2 and s["lineup"] == "RR" and s["rotate"] is False
    assert s["runs"]["requested"] == 200 and s["runs"]["normal"] + s["runs"]["error"] + \
        s["runs"]["decision_limit"] + s["runs"]["step_limit"] == 200
    assert "seed" not in s["params"] and s["params"]["games"] == 200
    for est in (s["length"]["mean"], s["branching"]["run_mean"], s["branching"]["log10_tree"],
                s["branching"]["slope"], s["seats"][0]["win_rate"], s["seats"][1]["score"]["mean"],
                s["ties"]["first"]["rate"]):
        assert set(est) == {"value", "lo", "hi", "n"} and est["lo"] <= est["value"] <= est["hi"]
    assert s["information"]["categories"] == ["Hidden", "Private", "Taken"]
    assert s["information"]["runs"] == 200 - s["runs"]["error"]
    assert set(s["timing"]) >= {"wall_seconds", "games_per_second", "decisions_per_second", "median_ms"}

    def keys(obj, path=""):
        if isinstance(obj, dict):
            for k, v in obj.items():
                yield path + "/" + k
                yield from keys(v, path + "/" + k)
        elif isinstance(obj, list):
            for v in obj:
                yield from keys(v, path)

    timed = [k for k in keys({k: v for k, v in s.items() if k != "timing"})
             if _timing_key(k.rsplit("/", 1)[-1])]
    assert timed == []                                   # timings appear only under "timing"


def _timing_key(name: str) -> bool:
    return (name == "ms" or name.endswith("_ms") or "second" in name or "elapsed" in name or "wall" in name
            or name.startswith("time"))


def test_stats_tables_and_heuristics(stats_run):
    _code, out, _stdout, _stderr = stats_run
    rows = (out / "branching_by_index.csv").read_text().splitlines()
    assert rows[0] == "game,players,lineup,run,decision,n_runs,mean,sd,median,min,max"
    assert rows[1].startswith("block_rummy,2,RR,,1,200,")
    seats = (out / "seats.csv").read_text().splitlines()
    assert seats[0].startswith("game,players,lineup,run,seat,kind,n,win_rate,win_lo,win_hi")
    assert len(seats) == 3
    h = json.loads((out / "heuristics.json").read_text())
    by = {e["name"]: e for e in h["heuristics"]}
    assert by["Fairness"]["status"] == "active" and by["Fairness"]["value"] is not None
    for name in ("MeaningfulMoves", "Drama", "Decisiveness", "Coolness", "Order"):
        assert by[name]["status"] == "not_applicable" and "searching player" in by[name]["note"]
    assert "searching" in h["note"] and h["reasonable"] is True
    assert (out / "heuristics.csv").read_text().startswith("game,players,lineup,run,name,value,lo,hi,weight")


def test_stats_transcripts_and_flow_of_run_0(stats_run):
    _code, out, _stdout, _stderr = stats_run
    first = [json.loads(line) for line in (out / "transcripts/run-0000.jsonl").read_text().splitlines()]
    assert first[0]["level"] == "full" and any(ev["type"] == "move" for ev in first)
    # the other runs are at the requested level (decisions), exactly as playing at that level writes them
    sess = GameSession.open(BLOCK_RUMMY)
    rec = sess.play(derive(42, "game", 7), ["R", "R"], run=7, batch_seed=42, level="decisions")
    assert (out / "transcripts/run-0007.jsonl").read_text() == "".join(line + "\n" for line in rec.transcript)
    # flow.* is run 0's diagram, rebuilt here from its full transcript
    fb = FlowGraph(title=sess.name, game=sess.name, game_sha256=sess.sha256, players=2, lineup="RR")
    fb.add_transcript(out / "transcripts/run-0000.jsonl")
    assert (out / "flow.dot").read_text() == flow_to_dot(fb.graph()).source
    agg = json.loads((out / "flow-aggregate.json").read_text())
    assert agg["graph"]["runs"] == 200 and agg["graph"]["title"] == "block_rummy (200 games)"


def test_stats_text_summary(stats_run):
    _code, _out, stdout, stderr = stats_run
    assert "block_rummy: 200 games, seed 42" in stderr
    for needle in ("Length", "Branching", "p1    R", "p2    R", "Ties for first", "0 at a limit", "0 errors",
                   "Information: Hidden, Private, Taken"):
        assert needle in stdout, needle
    assert "AI heuristics not applicable" in stdout


def test_stats_json_and_refusal_then_force(tmp_path, capsys):
    out = tmp_path / "s"
    code, stdout, err = run_cli(capsys, "stats", BLOCK_RUMMY, "-n", 12, "--seed", 3, "--out", out, "--json",
                                "--plot-format", "svg", "--transcripts", "none", "--bootstrap", 50)
    assert code == 0, err
    doc = json.loads(stdout)
    assert doc == json.loads((out / "summary.json").read_text())
    assert doc["params"]["bootstrap"] == 50 and not (out / "branching.png").exists()
    assert (out / "branching.svg").exists()
    assert sorted(p.name for p in (out / "transcripts").iterdir()) == ["run-0000.jsonl"]   # run 0: always full
    # a second run into the same folder is refused (nothing touched) unless --force, which replaces the files
    code, stdout, err = run_cli(capsys, "stats", BLOCK_RUMMY, "-n", 12, "--seed", 3, "--out", out, "--json")
    assert code == 2 and "is not empty" in err and "--force" in err
    assert (out / "branching.svg").exists()
    code, stdout, err = run_cli(capsys, "stats", BLOCK_RUMMY, "-n", 12, "--seed", 3, "--out", out, "--json",
                                "--force")
    assert code == 0, err
    note = [line for line in err.splitlines() if line.startswith("note: --force")]
    assert len(note) == 1 and "removed" in note[0]
    assert json.loads(stdout)["complete"] is True


def test_stats_without_graphviz_one_notice(tmp_path, capsys, monkeypatch):
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    code, _stdout, err = run_cli(capsys, "stats", BLOCK_RUMMY, "-n", 5, "--seed", 1, "--out", tmp_path / "s")
    assert code == 0
    assert err.count("Graphviz 'dot' program not found") == 1
    assert (tmp_path / "s" / "flow.dot").exists() and (tmp_path / "s" / "flow-aggregate.dot").exists()
    assert (tmp_path / "s" / "branching.png").exists()


def test_stats_large_batches_bound_the_flow(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(statsbatch, "FLOW_GAMES", 4)
    out = tmp_path / "s"
    code, stdout, err = run_cli(capsys, "stats", BLOCK_RUMMY, "-n", 9, "--seed", 2, "--out", out, "--json",
                                "--plot-format", "svg")
    assert code == 0, err
    doc = json.loads(stdout)
    assert doc["information"]["runs"] == 4 and doc["params"]["flow_games"] == 4
    head = json.loads((out / "transcripts/run-0000.jsonl").read_text().splitlines()[0])
    assert head["level"] == "full"
    head = json.loads((out / "transcripts/run-0008.jsonl").read_text().splitlines()[0])
    assert head["level"] == "decisions"
    # the same batch played at full level throughout gives the same statistics
    monkeypatch.setattr(statsbatch, "FLOW_GAMES", 1000)
    code, stdout2, err = run_cli(capsys, "stats", BLOCK_RUMMY, "-n", 9, "--seed", 2, "--out", tmp_path / "t",
                                 "--json", "--plot-format", "svg")
    doc2 = json.loads(stdout2)
    assert doc2["length"] == doc["length"] and doc2["seats"] == doc["seats"]


# Players in teams; each takes a card, the highest wins.
TEAM_GAME = """(game
 (setup
  (create players {n})
  (create teams {teams})
  (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR, FIVE)))))
 (do ((shuffle (game iloc STOCK))
      (set (game points VAL) (((RANK : FIVE) 5) ((RANK : FOUR) 4) ((RANK : THREE) 3) ((RANK : TWO) 2)
                              ((RANK : ONE) 1)))))
 (stage player (end (all player 'P (== (size ('P iloc HAND)) 1)))
  (choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))
 (scoring max (sum ((current player) iloc HAND) using (game points VAL))))
"""


@pytest.mark.parametrize("n, teams, members", [
    (4, "(1, 3) (2, 4)", [[0, 2], [1, 3]]),  # written from 1 (language §4.5): 4 is no seat of four
    (5, "(0, 2) (1, 3)", [[0, 2], [1, 3], [4]]),  # the player not listed is a team of its own
])
def test_stats_reports_the_teams_as_seats(tmp_path, capsys, n, teams, members):
    """Teams written from 1 used to be read as seat numbers: `recycle stats` of Euchre4 or any such game
    ended in a bug report (seat 4 of a 4-seat game)."""
    game = tmp_path / "teams.gdl"
    game.write_text(TEAM_GAME.format(n=n, teams=teams), encoding="utf-8")
    code, stdout, err = run_cli(capsys, "stats", game, "-n", 30, "--seed", 3, "--out", tmp_path / "s", "--json")
    assert code == 0, err
    reported = json.loads(stdout)["teams"]
    assert [t["members"] for t in reported] == members
    assert all(t["n"] == 30 for t in reported)
    # every game has one winner, whose team wins it: the teams' wins add up to the games
    assert sum(t["wins"] for t in reported) == 30
