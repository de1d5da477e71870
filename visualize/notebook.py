"""The notebook API: games played, counted, drawn and replayed, shown inline in Jupyter.

    import recycle
    batch = recycle.run_batch("block_rummy", 20, seed=1)   # 20 seeded random games, transcripts kept
    batch.summary()          # the statistics of `recycle stats` (HTML)
    batch.plot("length")     # a plot (SVG and PNG)
    batch.flow()             # the card-flow diagram (SVG; needs Graphviz's `dot`)
    batch.view(0)            # the replay viewer of game 0 (an iframe of its page)
    recycle.view("out/transcripts/run-0000.jsonl")         # the viewer of any transcript or folder

IPython looks for `_repr_svg_`, `_repr_png_` and `_repr_html_` on the value of a cell; these
classes give them, and `.svg`, `.dot`, `.figure`, `.save(path)` serve outside a notebook too.
The package root re-exports `run_batch`, `flow_diagram`, `view` and `Batch`, importing this module
on first use (it needs matplotlib and graphviz, which playing a game does not); see docs/examples/.
Counts, seeds and game numbers are checked as `recycle.api` checks them (UsageError in words), and
`save_transcript` never overwrites a file that is not the same game's transcript.
"""
from __future__ import annotations

import html
import io
import json
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path

import networkx as nx
from matplotlib.figure import Figure

from recycle.analysis.flow import FlowGraph
from recycle.analysis.summary import analyze, format_summary
from recycle.api import Game
from recycle.engine.algorithms import whole_number
from recycle.errors import UsageError
from recycle.lang import library
from recycle.run.batch import BatchSpec, parse_lineup
from recycle.run.batch import run_batch as play_batch
from recycle.run.records import RunRecord
from recycle.run.session import GameSession

from . import plots
from .flow import flow_to_dot
from .viewer import ViewerPage, viewer_page

__all__ = ["Batch", "FlowDiagram", "Plot", "Summary", "flow_diagram", "run_batch", "view"]


class FlowDiagram:
    """The card-flow diagram of some games: `.graph` (networkx), `.dot` (Graphviz source), `.svg` (needs `dot`)."""

    def __init__(self, graph: nx.DiGraph, **style):
        self.graph = graph
        self.style = style
        self._svg: str | None = None

    @property
    def dot(self) -> str:
        return flow_to_dot(self.graph, **self.style).source

    @property
    def svg(self) -> str:
        """The drawing as SVG text (Graphviz's `dot` must be installed)."""
        if self._svg is None:
            if shutil.which("dot") is None:
                raise RuntimeError("Graphviz's `dot` is not installed: `.dot` gives the diagram's source")
            self._svg = flow_to_dot(self.graph, **self.style).pipe(format="svg").decode("utf-8")
        return self._svg

    def save(self, path: str | Path) -> Path:
        """Write the diagram: .dot as source, any other extension as SVG text."""
        path = Path(path)
        path.write_text(self.dot if path.suffix == ".dot" else self.svg, encoding="utf-8")
        return path

    def _repr_svg_(self) -> str | None:
        try:
            return self.svg
        except RuntimeError:
            return None  # no Graphviz: the notebook shows the text repr instead

    def __repr__(self) -> str:
        g = self.graph.graph
        return f"<FlowDiagram {g.get('game', '')}: {self.graph.number_of_nodes()} locations, {g.get('runs', 0)} games>"


class Plot:
    """A matplotlib figure shown inline as SVG (and PNG); `.figure` is the Figure itself."""

    def __init__(self, figure: Figure, name: str = ""):
        self.figure = figure
        self.name = name

    def _render(self, fmt: str) -> bytes:
        buf = io.BytesIO()
        self.figure.savefig(buf, format=fmt)
        return buf.getvalue()

    def _repr_svg_(self) -> str:
        return self._render("svg").decode("utf-8")

    def _repr_png_(self) -> bytes:
        return self._render("png")

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        self.figure.savefig(path)
        return path

    def __repr__(self) -> str:
        return f"<Plot {self.name}>"


class Summary:
    """A batch's statistics: `.stats` (the statistics of summary.json) and `.text`, shown as a table."""

    def __init__(self, stats: dict, text: str):
        self.stats = stats
        self.text = text

    def _repr_html_(self) -> str:
        return f"<pre>{html.escape(self.text)}</pre>"

    def __repr__(self) -> str:
        return self.text


def _game_path(game: str | Path | Game) -> Path:
    return game.path if isinstance(game, Game) else library.resolve(str(game))


class Batch:
    """Games played by `run_batch`: `.records` (one RunRecord per game), and views of them for a notebook."""

    def __init__(self, path: Path, session: GameSession, spec: BatchSpec, records: list[RunRecord]):
        self.path, self.session, self.spec, self.records = path, session, spec, records

    @property
    def game(self) -> str:
        return self.session.name

    def summary(self, include_limited: bool = False, bootstrap: int = 200) -> Summary:
        """The statistics of `recycle stats` (summary.json's), shown as its text summary."""
        stats = analyze(self.records, game=self.game, direction=self.session.prog.direction,
                        players=self.session.n_players, seed=self.spec.seed, lineup=self.spec.lineup,
                        include_limited=include_limited, bootstrap=bootstrap)
        return Summary(stats, format_summary(stats))

    def plot(self, name: str = "length") -> Plot:
        """One plot of `recycle stats` (branching, length, scores or winrate), shown inline."""
        makers = {"branching": lambda: plots.branching_figure(self.records, game=self.game, seed=self.spec.seed),
                  "length": lambda: plots.length_figure(self.records, game=self.game),
                  "scores": lambda: plots.scores_figure(self.records, game=self.game,
                                                        players=self.session.n_players,
                                                        direction=self.session.prog.direction),
                  "winrate": lambda: plots.winrate_figure(self.records, game=self.game,
                                                          players=self.session.n_players)}
        if name not in makers:
            raise UsageError(f"no plot {name!r}: one of {', '.join(makers)}")
        return Plot(makers[name](), name)

    def flow(self, **style) -> FlowDiagram:
        """The card-flow diagram of these games (their transcripts), shown inline as SVG."""
        fb = FlowGraph(title=self.game, game=self.game, game_sha256=self.session.sha256,
                       players=self.session.n_players, lineup="".join(self.spec.lineup))
        for rec in self.records:
            if rec.end_reason != "error" and rec.transcript:
                fb.add_run([json.loads(line) for line in rec.transcript], seed=rec.game_seed)
        return FlowDiagram(fb.graph(), **style)

    def save_transcript(self, run: int, folder: str | Path) -> Path:
        """Write game `run`'s transcript into `folder` (made if missing) as run-NNNN.jsonl; its path."""
        if not self.records:
            raise UsageError("the batch has no game to save")
        rec = self.records[whole_number(run, "a game of the batch", 0, len(self.records))]
        if rec.transcript is None:  # run_batch keeps them: a Batch made otherwise may not
            raise UsageError(f"game {run} of the batch kept no transcript")
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"run-{rec.run:04d}.jsonl"
        text = "".join(line + "\n" for line in rec.transcript)
        if path.is_symlink() or (path.exists() and (not path.is_file() or path.read_bytes() != text.encode())):
            # another game's transcript (or anything else) is there: never overwritten silently
            raise UsageError(f"{path} exists and is not this game's transcript: save into another folder")
        path.write_text(text, encoding="utf-8")
        return path

    def view(self, run: int = 0, folder: str | Path | None = None) -> ViewerPage:
        """The replay viewer of game `run`, shown inline (its transcript is written to `folder`, else to a temporary
        folder)."""
        where = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix="recycle-view-"))
        return view(self.save_transcript(run, where), game=self.path)

    def __repr__(self) -> str:
        return f"<recycle.Batch {self.game}: {len(self.records)} games, seed {self.spec.seed}>"


def run_batch(game: str | Path | Game, n: int = 100, *, seed: int = 0, players: str | None = None,
              params: Mapping[str, object] | None = None, jobs: int = 1) -> Batch:
    """Play n seeded games (as `recycle run --seed SEED`, random players unless `players` says), keeping
    their transcripts; `.summary()`, `.plot()`, `.flow()` and `.view()` show them in a notebook."""
    n, seed = whole_number(n, "the number of games"), whole_number(seed, "a seed")
    jobs = whole_number(jobs, "jobs", 1)
    path = _game_path(game)
    values = dict(params or (game.params if isinstance(game, Game) else {}))
    session = GameSession.open(path, values or None)
    spec = BatchSpec(str(path), values, tuple(parse_lineup(players, session.n_players)), seed,
                     transcript_level="full")
    return Batch(path, session, spec, play_batch(spec, n, jobs=jobs, session=session))


def flow_diagram(game: str | Path | Game, n: int = 1, *, seed: int = 0, **style) -> FlowDiagram:
    """The card-flow diagram of n seeded random games (as `recycle flow --seed SEED -n N`), shown inline as SVG."""
    return run_batch(game, whole_number(n, "the number of games", 1), seed=seed).flow(**style)


def view(transcript: str | Path, game: str | Path | None = None, **kw) -> ViewerPage:
    """The replay viewer of a transcript (or a folder of them), shown inline; `.save(path)` writes the page."""
    return viewer_page(Path(transcript), game, **kw)
