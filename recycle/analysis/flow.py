"""Card-flow (information-flow) diagrams from transcript events (flow-and-analytics §1, §2).

The builder consumes the event stream of §5.2: the JSON objects of a `full`
transcript, as Python dicts.  It gives the same graph whether it listens to a
live run or reads a transcript, because it sees nothing else.

    fb = FlowGraph(title="Go Fish", game="GoFish4")
    for events in runs:                  # one list of event dicts per run
        fb.add_run(events)               # or fb.add_transcript("run-0000.jsonl")
    G = fb.graph()                       # networkx.DiGraph, attributes below
    info = fb.information()              # §2 categories
    files = fb.write(out / "flow")       # flow.dot, flow.json, flow.svg, flow.png

Events and their effect (§1.1): `create` makes its target a `start` node and
adds the deck name; `move` adds one card to the edge from -> to; `swap` adds
len(a_to_b) to a -> b and len(b_to_a) to b -> a (an empty direction adds
nothing); `remember` adds one card to from -> memory pile (a copy: the source
keeps the card, so its `cards_out` is unchanged).  `header` supplies the
game, its sha256, the player count, the lineup and the run's seed when the
caller gave none.  Every other event type (`forget`, `shuffle`, `set`,
`turn`, `teams`, `decision`, `end`, ...) changes nothing.

Graph attributes
    title        str        diagram title (+ " [<lineup>]" when the lineup is not all R,
                            + " (N games)" when N > 1)
    game         str        game file stem
    game_sha256  str        sha256 of the game file ("" when unknown)
    players      int        number of players
    lineup       str        player-kind codes joined, e.g. "RRRR" ("" when unknown)
    seeds        list[int]  game seed of every merged run, in run order (None when unknown)
    runs         int        number of merged rollouts N
    decks        list[str]  sorted distinct deck names created

Node attributes (node id "<owner>_<CLASS>_<NAME>_<index>", a name only: no rule reads it)
    owner        str        "table", "p1", ... "pN"
    seat         int|None   0-based seat of a player owner, None for the table
    cls          str        VISIBLE, INVISIBLE, HIDDEN, OTHERS, MEMORY
    keyword      str        vloc, iloc, hloc, oloc, mem
    name         str        location name as written
    index        int        index of an indexed location, 0 otherwise
    category     str        public, private, hidden, others, memory (§1.2)
    start        bool       a deck was created here
    decks        list[str]  deck names created here, in creation order, without repeats
    cards_in     int        cards that arrived over all merged runs: moved or swapped in,
                            remembered into (memory copies), and created here
    cards_out    int        cards that left over all merged runs (moved or swapped out)
    runs         int        merged runs in which the node occurred
    order        int        first-seen rank in (run, event number) order

Edge attributes (one edge per (source, destination) pair; self-loops allowed)
    count        int        cards moved along the pair, summed over merged runs
    runs         int        merged runs in which at least one such card moved
    kind         str        plain, taken, shared, revealed (§1.3); private cards gathered back into the
                            table pile where a deck was created (hands returned to the stock) are plain
    into_table   bool       the destination is owned by the table
    ops          list[str]  sorted subset of move, swap, remember that produced it
    order        int        first-seen rank (nodes and edges are ranked separately, from 0)

Information report (§2, `information()`): {"runs", "categories": [true ones, in the
order Hidden, Private, Taken, Shared, Back], "Hidden"/"Private": {"value", "evidence":
[node ids], "run_share"}, "Taken": {..., "evidence": [{"from", "to", "into_table"}],
"taken_by_player"}, "Shared": {..., "evidence": [{"from", "to"}]}, "Back": {...,
"evidence": [deck names]}, "Deduction": {"value": None, ...}, "memory": bool,
"others": bool}; with `declared=` every category also gets "declared" and "agrees".
`run_share` is the share of runs whose own single-run graph satisfies the rule.

`collapse_families(G)` draws each indexed family or board (`MELD 0…n`, `GRID i`) as one node with counts.

DOT (§1.6/§1.7): `flow_to_dot` is a pure function of the graph; its first line is
`// recycle flow: game=… sha256=… players=… runs=N seeds=<first seed>` followed by
"…" when N > 1.  Tooltips write locations the §5.4 way (`p1 iloc HAND 2`).
Files (§1.8): `write_flow` writes <stem>.dot and <stem>.json (node-link) always and
each image format when Graphviz's `dot` runs; without it one warning goes to stderr.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import networkx as nx

from ..errors import cut_text
from ..run.transcript import TranscriptFile, printable

__all__ = [
    "CATEGORY_NAMES", "CATEGORY_ORDER", "CLASS_OF_KEYWORD", "FlowGraph", "build_flow", "collapse_families",
    "edge_kind", "flow_summary", "information", "location_category", "node_id", "seat_of",
]

CLASS_OF_KEYWORD = {"vloc": "VISIBLE", "iloc": "INVISIBLE", "hloc": "HIDDEN", "oloc": "OTHERS", "mem": "MEMORY"}

CATEGORY_ORDER = ("public", "private", "hidden", "others", "memory")

# the §2 categories derived from a flow graph, in report order
CATEGORY_NAMES = ("Hidden", "Private", "Taken", "Shared", "Back")

_OWNER = re.compile(r"p([1-9][0-9]*)\Z")

# ---------------------------------------------------------------- classification


def seat_of(owner: str) -> int | None:
    """0-based seat of a location owner; None for the table; ValueError for anything else."""
    if owner == "table":
        return None
    m = _OWNER.match(owner) if isinstance(owner, str) else None
    if not m:
        raise ValueError(f"flow: location owner {owner!r} is neither 'table' nor a player p1, p2, ...")
    return int(m.group(1)) - 1


def location_category(cls: str, owner: str) -> str:
    """§1.2: the information category of a location from its class and owner."""
    table = owner == "table"
    if cls == "VISIBLE":
        return "public"
    if cls == "OTHERS":
        return "public" if table else "others"
    if cls == "INVISIBLE":
        return "hidden" if table else "private"
    if cls == "HIDDEN":
        return "hidden"
    if cls == "MEMORY":
        return "memory"
    raise ValueError(f"flow: location class {cls!r} cannot own cards")


def edge_kind(src_category: str, src_owner: str, dst_category: str, dst_owner: str) -> str:
    """§1.3: plain, taken, shared or revealed, from the endpoints' categories and owners."""
    kind = "plain"
    if src_category == "public" and dst_category in ("private", "hidden"):
        kind = "taken"
    if src_category == "private" and dst_category in ("private", "hidden") and dst_owner != src_owner:
        kind = "shared"
    if dst_category == "public":
        kind = "revealed"
    return kind


def node_id(owner: str, cls: str, name: str, index: int) -> str:
    """§1.2 node id `<owner>_<CLASS>_<NAME>_<index>` (a name only; never parsed)."""
    return f"{owner}_{cls}_{name}_{index}"


def _location(loc) -> tuple:
    """A §5.2 location array -> normalised key (owner, keyword, name, index)."""
    if not isinstance(loc, (list, tuple)) or len(loc) not in (3, 4):
        raise ValueError(f"flow: a location must be [owner, keyword, name, index], got {loc!r}")
    owner, kw, name = loc[0], loc[1], loc[2]
    index = loc[3] if len(loc) == 4 and loc[3] is not None else 0
    if kw not in CLASS_OF_KEYWORD:
        raise ValueError(f"flow: location {list(loc)!r} has class {kw!r}, which cannot own cards "
                         f"(expected one of {', '.join(CLASS_OF_KEYWORD)})")
    seat_of(owner)
    return (owner, kw, str(name), int(index))


def _location_problem(loc) -> str | None:
    """Why a location read from a file is not one `_location` takes, or None."""
    if not isinstance(loc, list) or len(loc) not in (3, 4):
        return "is not a location [owner, keyword, name, index]"
    owner, kw, name = loc[0], loc[1], loc[2]
    index = loc[3] if len(loc) == 4 else None
    if not (owner == "table" or (isinstance(owner, str) and len(owner) <= _MAX_OWNER and _OWNER.match(owner))):
        return "has an owner that is neither 'table' nor a player p1, p2, …"
    if not (isinstance(kw, str) and kw in CLASS_OF_KEYWORD):
        return f"has a keyword that is not one of {', '.join(CLASS_OF_KEYWORD)}"
    if not isinstance(name, str):
        return "has a name that is not a string"
    if index is not None and not (isinstance(index, int) and not isinstance(index, bool) and index >= 0):
        return "has an index that is not a whole number"
    return None


_MAX_OWNER = 8  # "p" and up to seven digits: far past any player count, short enough to convert at once
_FLOW_LOCATIONS = {"move": ("from", "to"), "remember": ("from", "to"), "swap": ("a", "b"), "create": ("to",)}


def _flow_op(ev: dict, keys: dict) -> tuple | str | None:
    """What add_event reads of a transcript line, checked: the op FlowGraph._apply applies, None for a
    line that changes nothing, or why the line cannot be used (a message).

    An op holds location keys and card counts only, each key shared through `keys` by every op that
    names its location, so a long transcript keeps little in memory while it is checked."""
    t = ev["type"]
    fields = _FLOW_LOCATIONS.get(t)
    if fields is None:
        return None
    locs = []
    for k in fields:
        problem = _location_problem(ev.get(k))
        if problem:
            return f"the {k!r} of this {t} event {problem}: {_short(ev.get(k))}"
        key = _location(ev[k])
        locs.append(keys.setdefault(key, key))
    counts = []
    for k in ("a_to_b", "b_to_a") if t == "swap" else ("cards",) if t == "create" else ():
        cards = ev.get(k)
        if cards is not None and not isinstance(cards, list):
            return f"the {k!r} of this {t} event is not a list of cards: {_short(cards)}"
        counts.append(len(cards or ()))
    if t == "create":
        deck = ev.get("deck", "DEFAULT")
        if not isinstance(deck, str):
            return f"the 'deck' of this create event is not a name: {_short(deck)}"
        return (t, locs[0], keys.setdefault(deck, deck), counts[0])
    return (t, *locs, *counts)


def _short(v) -> str:
    """A value from a file, cut short and with control characters escaped, for a message."""
    return cut_text(printable(repr(v)), 40)


# ---------------------------------------------------------------- builder


class FlowGraph:
    """Accumulates card events of one or more runs into the §1.4 flow graph."""

    def __init__(self, *, title: str | None = None, game: str | None = None,
                 game_sha256: str | None = None, players: int | None = None,
                 lineup: str | Sequence[str] | None = None):
        self.title = title
        self.game = game
        self.game_sha256 = game_sha256
        self.players = players
        self.lineup = "".join(lineup) if isinstance(lineup, (list, tuple)) else lineup
        self.seeds: list = []
        self.runs = 0
        self._nodes: dict[tuple, dict] = {}   # key -> attributes
        self._edges: dict[tuple, dict] = {}   # (src key, dst key) -> attributes
        self._decks: set[str] = set()
        self._node_order = 0
        self._edge_order = 0
        self._open = False
        self._run_nodes: set = set()
        self._run_edges: set = set()
        self._run_decks: set = set()
        self._run_seed: int | None = None
        self.run_flags: list[dict] = []       # per run: which §2 rules its own graph satisfies
        self.files: list[Path] = []

    # -- runs

    def begin_run(self, seed: int | None = None) -> None:
        """Start a new run (closing the open one, if any)."""
        if self._open:
            self.end_run()
        self._open = True
        self._run_nodes, self._run_edges, self._run_decks = set(), set(), set()
        self._run_seed = seed

    def end_run(self) -> None:
        """Close the open run: count node/edge occurrences and record its §2 flags."""
        if not self._open:
            return
        self._open = False
        self.runs += 1
        self.seeds.append(self._run_seed)
        for k in self._run_nodes:
            self._nodes[k]["runs"] += 1
        for k in self._run_edges:
            self._edges[k]["runs"] += 1
        cats = {self._nodes[k]["category"] for k in self._run_nodes}
        kinds = {self._edges[k]["kind"] for k in self._run_edges}
        self.run_flags.append({
            "Hidden": "hidden" in cats, "Private": "private" in cats, "Taken": "taken" in kinds,
            "Shared": "shared" in kinds, "Back": len(self._run_decks) >= 2,
        })

    def add_run(self, events: Iterable[Mapping], seed: int | None = None) -> FlowGraph:
        """Add every event of one complete run (§1.5 aggregation: call once per run)."""
        self.begin_run(seed)
        for ev in events:
            self.add_event(ev)
        self.end_run()
        return self

    def add_transcript(self, path: str | Path) -> FlowGraph:
        """Add the run recorded in a `full` JSON Lines transcript (§5), one event per line.

        The file is read as `recycle replay` reads it, within the same bounds (docs/limits.md); a file
        that is not a transcript, or an event the graph cannot use, is a UsageError naming the file and
        line, and the graph is left as it was."""
        with TranscriptFile(path) as tf:
            head, _ = tf.header()
            # The whole file is checked before the graph changes: a run cut short by a bad line would
            # otherwise be counted as a run.
            ops: list[tuple] = []
            keys: dict = {}
            for ev in tf.events():
                op = _flow_op(ev, keys)
                if isinstance(op, str):
                    raise tf.fail(op)
                if op is not None:
                    ops.append(op)
        self.begin_run()
        self._header(head)
        for op in ops:
            self._apply(op)
        self.end_run()
        return self

    # -- events

    def add_event(self, ev: Mapping) -> None:
        """Apply one §5.2 event (dict) to the open run; a run is opened implicitly."""
        if not self._open:
            self.begin_run()
        t = ev.get("type")
        if t == "move":
            self._flow(_location(ev["from"]), _location(ev["to"]), 1, "move")
        elif t == "swap":
            a, b = _location(ev["a"]), _location(ev["b"])
            self._swap(a, b, len(ev.get("a_to_b") or ()), len(ev.get("b_to_a") or ()))
        elif t == "remember":
            self._flow(_location(ev["from"]), _location(ev["to"]), 1, "remember")
        elif t == "create":
            self._create(_location(ev["to"]), str(ev.get("deck", "DEFAULT")), len(ev.get("cards") or ()))
        elif t == "header":
            self._header(ev)

    def _apply(self, op: tuple) -> None:
        """Apply an op of _flow_op to the open run, as add_event applies the event it came from."""
        kind = op[0]
        if kind == "create":
            self._create(op[1], op[2], op[3])
        elif kind == "swap":
            self._swap(op[1], op[2], op[3], op[4])
        else:  # move, remember
            self._flow(op[1], op[2], 1, kind)

    def _swap(self, a: tuple, b: tuple, a_to_b: int, b_to_a: int) -> None:
        if a_to_b:
            self._flow(a, b, a_to_b, "swap")
        if b_to_a:
            self._flow(b, a, b_to_a, "swap")

    def _create(self, key: tuple, deck: str, cards: int) -> None:
        node = self._node(key)
        node["start"] = True
        if deck not in node["decks"]:
            node["decks"].append(deck)
        node["cards_in"] += cards
        self._decks.add(deck)
        self._run_decks.add(deck)

    def _header(self, ev: Mapping) -> None:
        if self.game is None and ev.get("game") is not None:
            self.game = ev["game"]
        if self.game_sha256 is None and ev.get("sha256") is not None:
            self.game_sha256 = ev["sha256"]
        if self.players is None and ev.get("players") is not None:
            self.players = int(ev["players"])
        if self.lineup is None and ev.get("lineup") is not None:
            lu = ev["lineup"]
            self.lineup = "".join(lu) if isinstance(lu, (list, tuple)) else str(lu)
        if self._run_seed is None and ev.get("seed") is not None:
            self._run_seed = ev["seed"]

    def _node(self, key: tuple) -> dict:
        node = self._nodes.get(key)
        if node is None:
            owner, kw, name, index = key
            cls = CLASS_OF_KEYWORD[kw]
            node = self._nodes[key] = {
                "owner": owner, "seat": seat_of(owner), "cls": cls, "keyword": kw, "name": name,
                "index": index, "category": location_category(cls, owner), "start": False, "decks": [],
                "cards_in": 0, "cards_out": 0, "runs": 0, "order": self._node_order,
            }
            self._node_order += 1
        self._run_nodes.add(key)
        return node

    def _flow(self, src: tuple, dst: tuple, n: int, op: str) -> None:
        s, d = self._node(src), self._node(dst)
        if op != "remember":
            s["cards_out"] += n
        d["cards_in"] += n
        edge = self._edges.get((src, dst))
        if edge is None:
            kind = edge_kind(s["category"], s["owner"], d["category"], d["owner"])
            if kind == "shared" and d["owner"] == "table" and d["start"]:
                # hands gathered back into the pile the deck was created in (the stock, for a new deal)
                # reach nobody: no other owner learns or gets them, so nothing is shared
                kind = "plain"
            edge = self._edges[(src, dst)] = {
                "count": 0, "runs": 0,
                "kind": kind,
                "into_table": d["owner"] == "table", "ops": [], "order": self._edge_order,
            }
            self._edge_order += 1
        edge["count"] += n
        if op not in edge["ops"]:
            edge["ops"] = sorted(edge["ops"] + [op])
        self._run_edges.add((src, dst))

    # -- results

    def graph(self, min_run_share: float = 0.0) -> nx.DiGraph:
        """The §1.4 DiGraph of everything added so far (closes an open run)."""
        if self._open:
            self.end_run()
        n = self.runs
        G: nx.DiGraph = nx.DiGraph()
        title = self.title or self.game or "flow"
        if self.lineup and any(c != "R" for c in self.lineup):
            title += f" [{self.lineup}]"
        if n > 1:
            title += f" ({n} games)"
        players = self.players
        if players is None:
            seats = [a["seat"] for a in self._nodes.values() if a["seat"] is not None]
            players = max(seats) + 1 if seats else 0
        G.graph.update(title=title, game=self.game or "", game_sha256=self.game_sha256 or "",
                       players=players, lineup=self.lineup or "", seeds=list(self.seeds), runs=n,
                       decks=sorted(self._decks))
        keep = [(k, e) for k, e in self._edges.items() if not (n and e["runs"] / n < min_run_share)]
        used = {end for (pair, _e) in keep for end in pair}
        for key, attrs in self._nodes.items():
            if min_run_share > 0 and key not in used and not attrs["start"]:
                continue
            G.add_node(node_id(key[0], attrs["cls"], key[2], key[3]), **_copy(attrs))
        for (src, dst), attrs in keep:
            G.add_edge(node_id(src[0], CLASS_OF_KEYWORD[src[1]], src[2], src[3]),
                       node_id(dst[0], CLASS_OF_KEYWORD[dst[1]], dst[2], dst[3]), **_copy(attrs))
        return G

    def information(self, declared: Iterable[str] | None = None, min_run_share: float = 0.0) -> dict:
        """§2 categories of the aggregated graph, with each rule's run share."""
        return information(self.graph(min_run_share), run_flags=self.run_flags, declared=declared)

    def to_json(self, min_run_share: float = 0.0, declared: Iterable[str] | None = None,
                files: Sequence = ()) -> dict:
        """{"categories": [true §2 categories], "nodes": n, "edges": m, "files": [...], "information": {...}}."""
        G = self.graph(min_run_share)
        info = information(G, run_flags=self.run_flags, declared=declared)
        return flow_summary(G, info, files)


def _copy(attrs: dict) -> dict:
    return {k: (list(v) if isinstance(v, list) else v) for k, v in attrs.items()}


def build_flow(events_by_run: Iterable[Iterable[Mapping]], *, title: str | None = None,
               game: str | None = None, game_sha256: str | None = None, players: int | None = None,
               lineup: str | Sequence[str] | None = None, seeds: Sequence[int] | None = None,
               min_run_share: float = 0.0) -> nx.DiGraph:
    """§1.4/§1.5: merge the event lists of any number of runs into one flow graph."""
    fb = FlowGraph(title=title, game=game, game_sha256=game_sha256, players=players, lineup=lineup)
    for i, events in enumerate(events_by_run):
        fb.add_run(events, seed=seeds[i] if seeds is not None and i < len(seeds) else None)
    return fb.graph(min_run_share)


# ---------------------------------------------------------------- families drawn as one


def _family_kind(kinds: dict[str, int]) -> str:
    """The kind of a merged edge: the one most of its cards took (kinds within a family rarely differ)."""
    return max(kinds.items(), key=lambda kv: (kv[1], kv[0]))[0]


def collapse_families(G: nx.DiGraph) -> nx.DiGraph:
    """G with every indexed family (`MELD 0`, `MELD 1`, …; board cells `GRID i`) of one owner as one node.

    Locations of the same owner, class and name with two or more indices in G become the node
    `<owner>_<CLASS>_<NAME>_family` with `members` (how many), `indices` (sorted) and the summed
    `cards_in`/`cards_out`; `runs` is the most of any member; edges between members become a self-loop
    and parallel edges add their counts.  Every other node keeps its id and gets `members` 1.
    """
    groups: dict[tuple, list[str]] = {}
    for n, a in G.nodes(data=True):
        groups.setdefault((a["owner"], a["cls"], a["name"]), []).append(n)
    target: dict[str, str] = {}
    H: nx.DiGraph = nx.DiGraph()
    H.graph.update(_copy(G.graph))
    for (owner, cls, name), members in groups.items():
        attrs = [G.nodes[m] for m in members]
        if len(members) == 1:
            target[members[0]] = members[0]
            H.add_node(members[0], **_copy(attrs[0]), members=1, indices=[attrs[0]["index"]])
            continue
        fid = f"{owner}_{cls}_{name}_family"
        decks: list[str] = []
        for a in sorted(attrs, key=lambda a: a["order"]):
            decks += [d for d in a["decks"] if d not in decks]
        H.add_node(fid, **{**_copy(attrs[0]), "index": 0, "start": any(a["start"] for a in attrs), "decks": decks,
                           "cards_in": sum(a["cards_in"] for a in attrs),
                           "cards_out": sum(a["cards_out"] for a in attrs),
                           "runs": max(a["runs"] for a in attrs), "order": min(a["order"] for a in attrs),
                           "members": len(members), "indices": sorted(a["index"] for a in attrs)})
        for m in members:
            target[m] = fid
    kinds: dict[tuple[str, str], dict[str, int]] = {}
    for u, v, a in sorted(G.edges(data=True), key=lambda e: e[2]["order"]):
        key = (target[u], target[v])
        e = H.edges[key] if H.has_edge(*key) else None
        if e is None:
            H.add_edge(*key, **_copy(a))
            kinds[key] = {a["kind"]: a["count"]}
            continue
        e["count"] += a["count"]
        e["runs"] = max(e["runs"], a["runs"])
        e["ops"] = sorted(set(e["ops"]) | set(a["ops"]))
        kinds[key][a["kind"]] = kinds[key].get(a["kind"], 0) + a["count"]
        e["kind"] = _family_kind(kinds[key])
    return H


# ---------------------------------------------------------------- §2 categories


def information(G: nx.DiGraph, run_flags: Sequence[Mapping] | None = None,
                declared: Iterable[str] | None = None) -> dict:
    """§2: Hidden, Private, Taken, Shared, Back (+ Deduction null) from a flow graph's attributes."""
    nodes = list(G.nodes(data=True))
    edges = list(G.edges(data=True))
    hidden = [n for n, a in nodes if a["category"] == "hidden"]
    private = [n for n, a in nodes if a["category"] == "private"]
    taken = [(u, v, a) for u, v, a in edges if a["kind"] == "taken"]
    shared = [(u, v) for u, v, a in edges if a["kind"] == "shared"]
    decks = list(G.graph.get("decks", []))
    n_runs = len(run_flags) if run_flags is not None else None

    def share(name):
        if run_flags is None or not n_runs:
            return None
        return sum(1 for f in run_flags if f[name]) / n_runs

    cats = {
        "Hidden": {"value": bool(hidden), "evidence": hidden},
        "Private": {"value": bool(private), "evidence": private},
        "Taken": {"value": bool(taken),
                  "evidence": [{"from": u, "to": v, "into_table": a["into_table"]} for u, v, a in taken],
                  "taken_by_player": any(not a["into_table"] for _u, _v, a in taken)},
        "Shared": {"value": bool(shared), "evidence": [{"from": u, "to": v} for u, v in shared]},
        "Back": {"value": len(decks) >= 2, "evidence": decks},
    }
    for name, c in cats.items():
        c["run_share"] = share(name)
    cats["Deduction"] = {"value": None, "evidence": [], "run_share": None,
                         "note": "not derived from card flow"}
    if declared is not None:
        decl = {d.strip().lower() for d in declared if d and d.strip()}
        for name, c in cats.items():
            c["declared"] = name.lower() in decl
            c["agrees"] = None if c["value"] is None else (c["value"] == c["declared"])
    return {
        "runs": G.graph.get("runs"),
        "categories": [name for name in CATEGORY_NAMES if cats[name]["value"]],
        **cats,
        "memory": any(a["category"] == "memory" for _n, a in nodes),
        "others": any(a["category"] == "others" for _n, a in nodes),
    }


def flow_summary(G: nx.DiGraph, info: dict | None = None, files: Sequence = ()) -> dict:
    """The `flow --json` summary: true categories, node and edge counts, files written."""
    info = info if info is not None else information(G)
    return {"categories": list(info["categories"]), "nodes": G.number_of_nodes(), "edges": G.number_of_edges(),
            "files": [str(f) for f in files], "information": info}
