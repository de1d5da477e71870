"""Card-flow diagrams drawn (flow-and-analytics §1.6-§1.8): a flow graph -> DOT -> Graphviz images.

`flow_to_dot` is a pure function of the graph built by `recycle.analysis.flow`; its first line
is `// recycle flow: game=… sha256=… players=… runs=N seeds=<first seed>` followed by "…"
when N > 1.  Tooltips write locations the §5.4 way (`p1 iloc HAND 2`).  `write_flow` writes
<stem>.dot and <stem>.json (node-link) always and each image format when Graphviz's `dot`
runs; without it one warning goes to stderr.
"""
from __future__ import annotations

import html
import itertools
import json
import re
import shutil
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import graphviz
import networkx as nx

from recycle.analysis.flow import CATEGORY_ORDER, collapse_families, seat_of

__all__ = ["CATEGORY_FILL", "FILE_FORMATS", "MAX_FLOW_NODES", "FlowRenderError", "flow_to_dot", "merged_note",
           "write_flow", "write_flow_file"]

# The diagram draws at most this many locations, the busiest; the others become one node that says
# how many it stands for (a game with thousands of piles would give an unreadable, slow drawing).
MAX_FLOW_NODES = 150
MERGED_ID = "merged_locations"

CATEGORY_FILL = {"public": "lightgreen", "private": "lightblue", "hidden": "khaki", "others": "plum1",
                 "memory": "grey90"}
LEGEND_CATEGORY_LABEL = {"public": "public", "private": "private", "hidden": "hidden", "others": "others only",
                         "memory": "memory"}

# kind -> (color, penwidth, style, legend text); the order is the legend's
KIND_STYLE = {
    "plain": ("black", "1", "solid", "other move"),
    "revealed": ("green4", "3", "solid", "to public"),
    "taken": ("red", "3", "dotted", "taken: public \u2192 private/hidden"),
    "shared": ("blue", "3", "dashed", "shared: private \u2192 other owner's private/hidden"),
}

MISSING_DOT = ("warning: Graphviz 'dot' program not found on PATH; wrote {dot} only.\n"
               "Install Graphviz (apt install graphviz | brew install graphviz | conda install graphviz)\n"
               "or render later with: dot -Tsvg {dot} -o {svg}")



class FlowRenderError(RuntimeError):
    """Graphviz is installed but failed to render the DOT file (its message is kept)."""


# ---------------------------------------------------------------- DOT (§1.6, §1.7)

# Names come from game files: what reaches DOT is made inert. Ids keep to [A-Za-z0-9_] (no quoting, no
# `:port`), texts are quoted with backslashes doubled (no `\N`, `\l`, no escaping the closing quote) and `&`
# written `&amp;` (Graphviz reads entities in every label), never taken for HTML; control characters (line
# breaks that would end a `//` comment) become spaces.
_UNSAFE_ID = re.compile(r"[^A-Za-z0-9_]")


def _dot_id(name: str) -> str:
    """A DOT id for a node or cluster name: itself when plain, else its odd characters written as _uXXXX_."""
    out = _UNSAFE_ID.sub(lambda m: f"_u{ord(m.group()):04x}_", name)
    return out if out and not out[0].isdigit() else "n" + out


def _plain(text) -> str:
    text = str(text)
    return text if text.isprintable() else "".join(c if c.isprintable() else " " for c in text)


def _dot_text(text) -> graphviz.quoting.NoHtml:
    """A label, tooltip or comment text shown as written."""
    return graphviz.nohtml(_plain(text).replace("\\", "\\\\").replace("&", "&amp;"))



def _loc_text(a: Mapping) -> str:
    """`<owner> <keyword> <NAME>[ i]`, the §5.4 way of writing a location."""
    return f"{a['owner']} {a['keyword']} {a['name']}" + (f" {a['index']}" if a["index"] != 0 else "")


def _node_style(category: str, fontname: str, fontsize: str) -> dict:
    return {"shape": "box", "style": "filled,rounded,dotted" if category == "memory" else "filled,rounded",
            "fillcolor": CATEGORY_FILL[category], "color": "black", "fontname": fontname, "fontsize": fontsize}


def _owner_sort(owner: str) -> tuple:
    s = seat_of(owner)
    return (-1 if s is None else s,)


def _drawn(G: nx.DiGraph, collapse: bool) -> nx.DiGraph:
    return collapse_families(G) if collapse else G


def _family_text(a: Mapping) -> str:
    """`table vloc MELD 0…8` for a family node (indices first…last), else the location."""
    idx = a.get("indices") or [a["index"]]
    if a.get("members", 1) == 1:
        return _loc_text(a)
    return f"{a['owner']} {a['keyword']} {a['name']} {idx[0]}\u2026{idx[-1]}"


def flow_to_dot(G: nx.DiGraph, *, legend: bool = True, edge_labels: str = "none",
                fontname: str = "Helvetica", max_nodes: int = MAX_FLOW_NODES,
                collapse: bool = True) -> graphviz.Digraph:
    """§1.6/§1.7: the styled graphviz.Digraph of a flow graph (a pure function of G).

    With collapse (the default) every indexed family and board (`MELD 0…n`, `GRID i`) is one node
    labelled `MELD ×n` (`collapse_families`).  Player clusters stand in seat order, p1 at the top; the legend
    is at the bottom.
    At most max_nodes locations are drawn (0: all); the others join into one node (`merged_note`).
    """
    if edge_labels not in ("none", "count", "runs"):
        raise ValueError(f"edge_labels must be none, count or runs, not {edge_labels!r}")
    G = _drawn(G, collapse)
    g = G.graph
    n_runs = g.get("runs", 0) or 0
    seeds = [s for s in g.get("seeds", []) if s is not None]
    seed_text = (str(seeds[0]) + ("\u2026" if n_runs > 1 else "")) if seeds else "none"
    comment = (f"recycle flow: game={g.get('game', '')} sha256={g.get('game_sha256', '')} "
               f"players={g.get('players', 0)} runs={n_runs} seeds={seed_text}")
    merged = _merged(G, max_nodes)
    if merged:
        comment += f" merged={len(merged)}"
    dot = graphviz.Digraph(comment=_plain(comment))
    dot.attr(label=_dot_text(g.get("title", "")), labelloc="t", fontname=fontname, fontsize="14", overlap="scale")
    dot.attr(newrank="true")  # ranks across clusters: the seats one below the other, the legend at the bottom

    nodes = sorted(((n, a) for n, a in G.nodes(data=True) if n not in merged), key=lambda na: na[1]["order"])
    owners = sorted({a["owner"] for _n, a in nodes}, key=_owner_sort)
    for owner in owners:
        with dot.subgraph(name=_dot_id(f"cluster_{owner}")) as c:
            c.attr(label=_dot_text(owner), labelloc="t", style="filled", fillcolor="ghostwhite", color="black")
            for n, a in nodes:
                if a["owner"] != owner:
                    continue
                attrs = _node_style(a["category"], fontname, "14")
                if a["start"]:
                    attrs["penwidth"] = "3"
                # in an HTML label too Graphviz reads `\N`, `\G`…: backslashes are doubled
                name = html.escape(_plain(a["name"]), quote=False).replace("\\", "\\\\")
                tip = f"{_loc_text(a)}: in {a['cards_in']}, out {a['cards_out']}, {a['runs']}/{n_runs} games"
                if a["start"]:
                    tip += "; decks: " + ", ".join(a["decks"])
                members = a.get("members", 1)
                if members > 1:
                    label = _dot_text(f"{a['name']} \u00d7{members}")
                    tip = (f"{_family_text(a)}: {members} locations drawn as one; in {a['cards_in']}, "
                           f"out {a['cards_out']}, {a['runs']}/{n_runs} games")
                else:
                    label = _dot_text(a["name"]) if a["index"] == 0 else f"<{name}<SUB>{a['index']}</SUB>>"
                c.node(_dot_id(n), label=label, tooltip=_dot_text(tip), **attrs)
    # Seats stand in order, p1 above p2 above …: Graphviz places clusters side by side in an order of its own
    # (p3, p2, p4, p1), so invisible edges rank every location of a seat below every location of the seat before.
    seats = [[_dot_id(n) for n, a in nodes if a["owner"] == owner] for owner in owners if owner != "table"]
    for upper, lower in itertools.pairwise(seats):
        for u in upper:
            for v in lower:
                dot.edge(u, v, style="invis")
    if merged:
        shown = ", ".join(_loc_text(G.nodes[n]) for n in merged[:10]) + (", …" if len(merged) > 10 else "")
        dot.node(MERGED_ID, label=_dot_text(f"{len(merged)} more locations"), shape="box", style="dashed,rounded",
                 fontname=fontname, fontsize="14", tooltip=_dot_text(f"merged (only the {max_nodes} busiest "
                                                                      f"locations are drawn): {shown}"))

    if legend and nodes:
        top = _legend(dot, G, fontname)
        # the legend goes under the diagram, not beside it: every location ranks above its first row
        for n, _a in nodes:
            dot.edge(_dot_id(n), top, style="invis")

    for u, v, a in _edges(G, set(merged)):
        color, pen, style, _text = KIND_STYLE[a["kind"]]
        ends = [_family_text(G.nodes[x]) if x != MERGED_ID else "other locations" for x in (u, v)]
        attrs = {"color": color, "penwidth": pen, "style": style, "arrowhead": "normal",
                 "fontname": fontname, "fontsize": "11",
                 "tooltip": _dot_text(f"{ends[0]} \u2192 {ends[1]}: {a['count']} cards, {a['runs']}/{n_runs} games")}
        if edge_labels == "count":
            attrs["label"] = str(a["count"]) if n_runs <= 1 else f"{a['count'] / n_runs:.1f}"
        elif edge_labels == "runs":
            attrs["label"] = f"{int(100 * a['runs'] / n_runs + 0.5) if n_runs else 0}%"
        dot.edge(u if u == MERGED_ID else _dot_id(u), v if v == MERGED_ID else _dot_id(v), **attrs)
    return dot


def _merged(G: nx.DiGraph, max_nodes: int) -> list[str]:
    """The nodes left out of a drawing of at most max_nodes locations: the least busy, in graph order."""
    if max_nodes <= 0 or G.number_of_nodes() <= max_nodes:
        return []
    busy = sorted(G.nodes(data=True), key=lambda na: (-(na[1]["cards_in"] + na[1]["cards_out"]), na[1]["order"]))
    keep = max(1, max_nodes - 1)  # the merged node counts as one
    return sorted((n for n, _a in busy[keep:]), key=lambda n: G.nodes[n]["order"])


def _edges(G: nx.DiGraph, merged: set) -> list[tuple[str, str, dict]]:
    """The edges to draw, in order; edges to or from merged nodes join into edges of the merged node."""
    out: dict[tuple[str, str], dict] = {}
    for u, v, a in sorted(G.edges(data=True), key=lambda e: e[2]["order"]):
        u2, v2 = (MERGED_ID if u in merged else u), (MERGED_ID if v in merged else v)
        if u2 == v2 == MERGED_ID:
            continue
        e = out.get((u2, v2))
        if e is None:
            out[(u2, v2)] = dict(a) if (u2, v2) == (u, v) else {**a, "kind": "plain"}
        else:
            e["count"] += a["count"]
            e["runs"] = max(e["runs"], a["runs"])
    return [(u, v, a) for (u, v), a in out.items()]


def merged_note(G: nx.DiGraph, max_nodes: int = MAX_FLOW_NODES, collapse: bool = True) -> str | None:
    """One line saying which part of G a drawing merges, or None when it draws every location."""
    G = _drawn(G, collapse)
    merged = _merged(G, max_nodes)
    if not merged:
        return None
    return (f"note: the flow diagram draws the {G.number_of_nodes() - len(merged)} busiest of "
            f"{G.number_of_nodes()} locations; the other {len(merged)} are merged into one node "
            f"({len(merged)} more locations)")


def _legend(dot: graphviz.Digraph, G: nx.DiGraph, fontname: str) -> str:
    """§1.7: a legend cluster with the categories (row 1) and edge kinds (row 2) that occur."""
    cats = {a["category"] for _n, a in G.nodes(data=True)}
    kinds = {a["kind"] for _u, _v, a in G.edges(data=True)}
    any_start = any(a["start"] for _n, a in G.nodes(data=True))
    any_family = any(a.get("members", 1) > 1 for _n, a in G.nodes(data=True))
    with dot.subgraph(name="cluster_legend") as lg:
        lg.attr(label="Legend", style="rounded", color="grey50", fontsize="12", fontname=fontname)
        row1: list[str] = []
        with lg.subgraph() as r1:
            r1.attr(rank="same")
            for cat in CATEGORY_ORDER:
                if cat in cats:
                    nid = f"legend_{cat}"
                    r1.node(nid, label=LEGEND_CATEGORY_LABEL[cat], **_node_style(cat, fontname, "10"))
                    row1.append(nid)
            if any_start:
                attrs = _node_style("public", fontname, "10")
                attrs.update(fillcolor="white", penwidth="3")
                r1.node("legend_start", label="deck created", **attrs)
                row1.append("legend_start")
            if any_family:
                attrs = _node_style("public", fontname, "10")
                attrs.update(fillcolor="white")
                r1.node("legend_family", label="NAME \u00d7n: n indexed piles\nor board cells as one", **attrs)
                row1.append("legend_family")
            for a, b in itertools.pairwise(row1):
                r1.edge(a, b, style="invis")
        row2: list[tuple[str, str]] = []
        with lg.subgraph() as r2:
            r2.attr(rank="same")
            for kind, (color, pen, style, text) in KIND_STYLE.items():
                if kind not in kinds:
                    continue
                a, b = f"legend_{kind}_a", f"legend_{kind}_b"
                r2.node(a, label="", shape="point", width="0.04")
                r2.node(b, label="", shape="point", width="0.04")
                r2.edge(a, b, label=text, color=color, penwidth=pen, style=style, arrowhead="normal",
                        minlen="2", fontname=fontname, fontsize="10")
                row2.append((a, b))
            for (_a1, b1), (a2, _b2) in itertools.pairwise(row2):
                r2.edge(b1, a2, style="invis")
        if row1 and row2:
            lg.edge(row1[0], row2[0][0], style="invis")
    return row1[0] if row1 else row2[0][0]


# ---------------------------------------------------------------- files (§1.8)


def _node_link(G: nx.DiGraph) -> dict:
    try:
        return nx.node_link_data(G, edges="edges")
    except TypeError:  # networkx < 3.4
        return nx.node_link_data(G)


def write_flow(G: nx.DiGraph, stem: str | Path, formats: Sequence[str] = ("svg", "png"), *, legend: bool = True,
               edge_labels: str = "none", fontname: str = "Helvetica", max_nodes: int = MAX_FLOW_NODES,
               collapse: bool = True) -> list[Path]:
    """§1.8: write <stem>.dot and <stem>.json always, and each image format when `dot` is available.

    The drawing shows at most max_nodes locations (`flow_to_dot`), with a note on stderr when it merges.
    """
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    dot = flow_to_dot(G, legend=legend, edge_labels=edge_labels, fontname=fontname, max_nodes=max_nodes,
                      collapse=collapse)
    note = merged_note(G, max_nodes, collapse)
    if note:
        print(note, file=sys.stderr)
    dot_path = stem.with_name(stem.name + ".dot")
    json_path = stem.with_name(stem.name + ".json")
    dot.save(filename=dot_path.name, directory=str(dot_path.parent))
    json_path.write_text(json.dumps(_node_link(G), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    written = [dot_path, json_path]
    formats = [f for f in formats if f]
    if not formats:
        return written
    if shutil.which("dot") is None:
        _warn_no_dot(dot_path)
        return written
    for fmt in formats:
        out = stem.with_name(f"{stem.name}.{fmt}")
        try:
            graphviz.render("dot", fmt, str(dot_path), outfile=str(out), quiet=True)
        except graphviz.ExecutableNotFound:
            _warn_no_dot(dot_path)
            return written
        except graphviz.CalledProcessError as e:
            msg = (e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else str(e.stderr or e)).strip()
            raise FlowRenderError(f"Graphviz failed to render {dot_path.name} as {fmt}: {msg}") from e
        written.append(out)
    return written


# `recycle flow -o FILE`: the file's extension chooses what is written
FILE_FORMATS = ("svg", "png", "pdf", "dot")


def write_flow_file(G: nx.DiGraph, path: str | Path, *, legend: bool = True, edge_labels: str = "none",
                    fontname: str = "Helvetica", max_nodes: int = MAX_FLOW_NODES, collapse: bool = True) -> Path:
    """Write one drawing of G to path, in the format its extension names (.svg, .png, .pdf or .dot).

    A .dot file is the DOT text and needs no Graphviz; the others are rendered by `dot` (FlowRenderError when
    it is missing or fails).  ValueError for any other extension.
    """
    path = Path(path)
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in FILE_FORMATS:
        raise ValueError(f"{path}: cannot tell the format from the extension {path.suffix or '(none)'!r}; "
                         f"use one of {', '.join('.' + f for f in FILE_FORMATS)}")
    dot = flow_to_dot(G, legend=legend, edge_labels=edge_labels, fontname=fontname, max_nodes=max_nodes,
                      collapse=collapse)
    note = merged_note(G, max_nodes, collapse)
    if note:
        print(note, file=sys.stderr)
    if fmt == "dot":
        path.write_text(dot.source, encoding="utf-8")
        return path
    try:
        data = dot.pipe(format=fmt, engine="dot", quiet=True)
    except graphviz.ExecutableNotFound as e:
        raise FlowRenderError(f"Graphviz's 'dot' program is not on PATH: cannot write {path.name}; "
                              f"write {path.with_suffix('.dot').name} instead and render it later") from e
    except graphviz.CalledProcessError as e:
        msg = (e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else str(e.stderr or e)).strip()
        raise FlowRenderError(f"Graphviz failed to render {path.name}: {msg}") from e
    path.write_bytes(data)
    return path


def _warn_no_dot(dot_path: Path) -> None:
    print(MISSING_DOT.format(dot=dot_path.name, svg=dot_path.with_suffix(".svg").name), file=sys.stderr)
