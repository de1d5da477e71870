"""Board geometry (extensions E1): one networkx graph per board shape, and the tables derived from it.

A board is a family of indexed locations (owner, kind, name, i); this module knows
only the shape: cell i's coordinates, the direction names, and which cell lies next
to which in every direction.  The graph is the source of truth (one node per cell,
one edge per (cell, direction) step, labelled with the direction); the neighbour and
ray tables are precomputed from it once, so that queries made millions of times in
rollouts are tuple lookups.

Coordinates are (row, col).  On a square board they are the matrix position; on a
hex board (pointy-top hexes, rows centred on the first row, a row that cannot be
centred exactly shifted half a cell to the right) they are the axial coordinates
(r, q) of seed-games.md §4.3: row = r, col = q, with q counted so that the
left-most cell of the board has q = 0.
"""
from __future__ import annotations

from collections.abc import Sequence

import networkx as nx

SQUARE_DIRS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
SQUARE_DELTA = {  # (drow, dcol)
    "N": (-1, 0), "NE": (-1, 1), "E": (0, 1), "SE": (1, 1),
    "S": (1, 0), "SW": (1, -1), "W": (0, -1), "NW": (-1, -1),
}
HEX_DIRS = ("E", "W", "NE", "NW", "SE", "SW")
HEX_DELTA = {  # (dr, dq) of the axial (q, r) steps E (+1,0), W (-1,0), NE (+1,-1), NW (0,-1), SE (0,+1), SW (-1,+1)
    "E": (0, 1), "W": (0, -1), "NE": (-1, 1), "NW": (-1, 0), "SE": (1, 0), "SW": (1, -1),
}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E", "NE": "SW", "SW": "NE", "NW": "SE", "SE": "NW"}


def hex_coords(rows) -> list[tuple[int, int]]:
    """(r, q) of every cell of a hex board with the given row lengths, row by row, left to right."""
    # Doubled horizontal position of a cell: x2 = 2q + r.  Row 0 starts at x2 = 0; every
    # row is centred on row 0 (same x2 of its middle), shifted one half cell to the
    # right when the parity of r does not allow an exact centring.
    centre = rows[0] - 1
    out: list[tuple[int, int]] = []
    for r, n in enumerate(rows):
        first = centre - (n - 1)
        if (first - r) % 2:
            first += 1
        out.extend((r, (first + 2 * k - r) // 2) for k in range(n))
    qmin = min(q for _, q in out)
    return [(r, q - qmin) for r, q in out]


class Geometry:
    """The shape of one board: cells, directions, the direction-labelled graph and its tables."""

    def __init__(self, shape: str, dims: tuple):
        self.shape = shape
        self.dims = tuple(dims)
        self.dirs: tuple[str, ...]
        if shape == "square":
            rows, cols = dims
            self.coords = [(r, c) for r in range(rows) for c in range(cols)]
            self.dirs = SQUARE_DIRS
            delta = SQUARE_DELTA
        elif shape == "hex":
            self.coords = hex_coords(dims)
            self.dirs = HEX_DIRS
            delta = HEX_DELTA
        else:  # pragma: no cover - the builder admits only these two
            raise ValueError(f"unknown board shape {shape!r}")
        self.n = len(self.coords)
        self.index_of = {rc: i for i, rc in enumerate(self.coords)}
        self.dir_index = {d: k for k, d in enumerate(self.dirs)}
        g: nx.DiGraph[int] = nx.DiGraph(shape=shape, dims=self.dims)
        for i, (r, c) in enumerate(self.coords):
            g.add_node(i, row=r, col=c)
        for i, (r, c) in enumerate(self.coords):
            for d in self.dirs:
                dr, dc = delta[d]
                j = self.index_of.get((r + dr, c + dc))
                if j is not None:
                    g.add_edge(i, j, dir=d)
        self.graph = g
        # nbr[i][k]: the cell next to i in direction k, or -1
        nbr = [[-1] * len(self.dirs) for _ in range(self.n)]
        for i, j, d in g.edges(data="dir"):
            nbr[i][self.dir_index[d]] = j
        self.nbr = [tuple(row) for row in nbr]

    def cell_rays(self, i: int) -> tuple[tuple[int, ...], ...]:
        """For each direction k, the cells from i (exclusive) in direction k up to the edge.

        Made on demand: all rays of a board together hold cells × length of a side entries, which
        for a long board (1 × 20,000) would be hundreds of millions made before any game starts.
        """
        nbr = self.nbr
        per = []
        for k in range(len(self.dirs)):
            out, j = [], nbr[i][k]
            while j >= 0:
                out.append(j)
                j = nbr[j][k]
            per.append(tuple(out))
        return tuple(per)

    def key(self) -> tuple:
        return (self.shape, self.dims)

    def __repr__(self) -> str:
        return f"Geometry({self.shape}, {self.dims})"


class BoardFamily:
    """One board as a family of stored piles: its geometry, cell pile ids, capacity and per-pid tables."""

    __slots__ = (
        "adjacent",
        "cache",
        "capacity",
        "dir_index",
        "dirs",
        "fid",
        "geom",
        "increasing",
        "index_of_pid",
        "kind",
        "name",
        "nb",
        "nb_all",
        "owner",
        "pids",
        "rays",
    )

    def __init__(self, fid: int, geom: Geometry, owner: int, kind: int, name: str, pids: list, capacity: int):
        self.fid = fid
        self.geom = geom
        self.owner, self.kind, self.name = owner, kind, name
        self.pids = tuple(pids)
        self.capacity = capacity
        self.dirs = geom.dirs
        self.dir_index = geom.dir_index
        P = self.pids
        self.nb = [tuple(P[j] if j >= 0 else -1 for j in row) for row in geom.nbr]
        self.nb_all = [tuple(P[j] for j in row if j >= 0) for row in geom.nbr]
        self.rays: list[tuple | None] = [None] * len(P)  # each cell's rays as pile ids, made by ray()
        self.index_of_pid = {pid: i for i, pid in enumerate(P)}
        self.increasing = list(P) == sorted(P)
        self.cache: dict = {}  # direction tuple -> per-cell neighbour tuples (neighbours_in)
        self.adjacent: dict = {}  # direction tuple or None -> cell pid -> neighbour pids (adjacency)

    def ray(self, i: int, k: int) -> tuple:
        """The pile ids from cell i (exclusive) in direction k up to the edge (Geometry.cell_rays)."""
        per = self.rays[i]
        if per is None:
            P = self.pids
            per = self.rays[i] = tuple(tuple(P[j] for j in ray) for ray in self.geom.cell_rays(i))
        return per[k]

    def dir_ids(self, names) -> tuple:
        """Direction indices of a collection of names; raises KeyError(name) for an unknown one."""
        di = self.dir_index
        out = []
        for d in names:
            k = di.get(d)
            if k is None:
                raise KeyError(d)
            out.append(k)
        return tuple(out)

    def neighbours_in(self, names) -> list:
        """Per cell, the neighbour pids in the given directions (in that order); cached per name tuple."""
        key = tuple(names)
        hit = self.cache.get(key)
        if hit is None:
            ks = self.dir_ids(key)
            hit = [tuple(row[k] for k in ks if row[k] >= 0) for row in self.nb]
            self.cache[key] = hit
        return hit

    def components(self, pids, names=None) -> list:
        """Connected groups of the given cells (adjacency in the given directions, taken both ways).

        Each group lists its cells in board-index order (along one axis: the segment from
        end to end, left to right / top to bottom); groups are ordered by their first cell.
        """
        adj = self.adjacency(names)
        order = None if self.increasing else self.index_of_pid.__getitem__  # pid order is index order, usually
        left = set(pids)
        groups = []
        for start in sorted(left, key=order):
            if start not in left:
                continue
            left.remove(start)
            group = [start]
            for p in group:  # the group is its own queue: the loop reaches the cells appended to it
                for q in adj[p]:
                    if q in left:
                        left.remove(q)
                        group.append(q)
            if len(group) > 1:
                group.sort(key=order)
            groups.append(group)
        return groups

    def adjacency(self, names=None) -> dict:
        """Per cell pile id, the ids of its neighbours in the given directions and their opposites; cached."""
        key = None if names is None else tuple(names)
        hit = self.adjacent.get(key)
        if hit is None:
            if names is None:
                ks: Sequence[int] = range(len(self.dirs))
            else:
                dirs = self.geom.dirs
                wanted = set(self.dir_ids(names))
                # adjacency is symmetric: a direction brings its opposite along
                wanted |= {self.dir_index[OPPOSITE[dirs[k]]] for k in wanted if OPPOSITE[dirs[k]] in self.dir_index}
                ks = sorted(wanted)
            P = self.pids
            hit = {P[i]: tuple(P[row[k]] for k in ks if row[k] >= 0) for i, row in enumerate(self.geom.nbr)}
            self.adjacent[key] = hit
        return hit
