"""Expression nodes: values, cards, piles and collections, players and teams, boards, point maps."""
from __future__ import annotations

import attrs

from .types import Node, T, Visibility

# ---------------------------------------------------------------- expressions


@attrs.frozen(slots=True)
class Expr(Node):
    pass


@attrs.frozen(slots=True)
class IntLit(Expr):
    value: int


@attrs.frozen(slots=True)
class Name(Expr):
    """A NAME literal: a string."""

    value: str


@attrs.frozen(slots=True)
class Var(Expr):
    name: str
    type: T


@attrs.frozen(slots=True)
class GameOwner(Expr):
    """The keyword `game` as a pile or storage owner."""


@attrs.frozen(slots=True)
class Storage(Expr):
    """`(<owner> sto|str|ply|points <str>)`: an integer, string, player or point-map cell.

    `owner_type` is the static type of the owner (None for `game`): Player and Team as in
    the base language, Pile (a stored location) or Card since extensions E2.
    """

    owner: Expr
    kind: str  # "sto" | "str" | "ply" | "points"
    name: Expr
    owner_type: T | None = attrs.field(default=None, eq=False)  # derived from the owner: not structure


@attrs.frozen(slots=True)
class Arith(Expr):
    """`(+ a b …)`, `(* a b …)`, `(- a b)`, `(// a b)`, `(% a b)`, `(^ a b)`."""

    op: str
    args: tuple[Expr, ...]


@attrs.frozen(slots=True)
class IntFn(Expr):
    """`(tri n)`, `(fib n)`."""

    fn: str
    arg: Expr


@attrs.frozen(slots=True)
class Random(Expr):
    """`(random n)` (lo is None: 0 … n) or `(random a..b)`."""

    lo: Expr | None
    hi: Expr


@attrs.frozen(slots=True)
class Size(Expr):
    coll: Expr


@attrs.frozen(slots=True)
class Sum(Expr):
    pile: Expr
    points: Expr


@attrs.frozen(slots=True)
class Score(Expr):
    card: Expr
    points: Expr


@attrs.frozen(slots=True)
class ScoreExtreme(Expr):
    """`(scoremax P using M)` / `(scoremin P using M)`."""

    which: str  # "scoremax" | "scoremin"
    pile: Expr
    points: Expr


@attrs.frozen(slots=True)
class Pid(Expr):
    player: Expr


@attrs.frozen(slots=True)
class CardAtt(Expr):
    attribute: Expr
    card: Expr


@attrs.frozen(slots=True)
class Logic(Expr):
    """`(and …)`, `(or …)`."""

    op: str
    args: tuple[Expr, ...]


@attrs.frozen(slots=True)
class Not(Expr):
    arg: Expr


@attrs.frozen(slots=True)
class Compare(Expr):
    """`(== x y)` etc.; `type` is the operands' static type."""

    op: str
    left: Expr
    right: Expr
    type: T


@attrs.frozen(slots=True)
class Quantifier(Expr):
    """`(any|all <coll> 'V <bool>)`."""

    quant: str
    coll: Expr
    var: str
    cond: Expr
    elem: T


@attrs.frozen(slots=True)
class CardAt(Expr):
    """`(top P)`, `(bottom P)`, `(<int> P)`: a card reference (also a destination)."""

    pos: str  # "top" | "bottom" | "index"
    pile: Expr
    index: Expr | None = None


@attrs.frozen(slots=True)
class CardExtreme(Expr):
    """`(max P using M)`, `(min P using M)`."""

    which: str
    pile: Expr
    points: Expr


@attrs.frozen(slots=True)
class Actual(Expr):
    """`(actual <card>)`: legacy, the same card."""

    card: Expr


@attrs.frozen(slots=True)
class Location(Expr):
    """`(<powner> <kind> <str> [<int>])`: a stored pile."""

    owner: Expr
    kind: Visibility
    name: Expr
    index: Expr | None = None


@attrs.frozen(slots=True)
class Indexed(Expr):
    """`(indexed <powner> <kind> <str>)`: the non-empty piles of a family."""

    owner: Expr
    kind: Visibility
    name: Expr


@attrs.frozen(slots=True)
class SetOp(Expr):
    """`(union|intersect|disjunction <pile>+)`, or of one collection of piles (`collection`, from the types)."""

    op: str
    args: tuple[Expr, ...]
    collection: bool = attrs.field(default=False, eq=False)


@attrs.frozen(slots=True)
class Filter(Expr):
    coll: Expr
    var: str
    cond: Expr
    type: T


@attrs.frozen(slots=True)
class Sort(Expr):
    pile: Expr
    points: Expr


@attrs.frozen(slots=True)
class Slice(Expr):
    """`(top N P)`, `(bottom N P)`."""

    end: str
    count: Expr
    pile: Expr


@attrs.frozen(slots=True)
class RunAtEnd(Expr):
    """`(run top|bottom N P using M)`."""

    end: str
    count: Expr
    pile: Expr
    points: Expr


@attrs.frozen(slots=True)
class PileAt(Expr):
    """`(top CC)`, `(bottom CC)`, `(<int> CC)`: one pile of a PileCollection."""

    pos: str
    piles: Expr
    index: Expr | None = None


@attrs.frozen(slots=True)
class Partition(Expr):
    attribute: Expr
    args: tuple[Expr, ...]
    collection: bool = attrs.field(default=False, eq=False)  # args is one collection of piles


@attrs.frozen(slots=True)
class Subsets(Expr):
    pile: Expr


@attrs.frozen(slots=True)
class Tuples(Expr):
    count: Expr
    pile: Expr
    points: Expr


@attrs.frozen(slots=True)
class Runs(Expr):
    """`(runs largest|all N P using M [(step K)] [(cyclic M)])`."""

    mode: str
    count: Expr
    pile: Expr
    points: Expr
    step: Expr | None = None
    cyclic: Expr | None = None


@attrs.frozen(slots=True)
class IsRun(Expr):
    """`(isrun COLL using M [(step K)] [(cyclic M)])`: the collection, in its order, is one run."""

    coll: Expr
    points: Expr
    step: Expr | None = None
    cyclic: Expr | None = None
    type: T = T.PILE  # the collection's type: a Pile, or a PileCollection (its piles in order)


@attrs.frozen(slots=True)
class Fold(Expr):
    """`(sum|max|min COLL 'V <int>)`: combine the integer body over the elements (extensions E5)."""

    op: str  # "sum" | "max" | "min"
    coll: Expr
    var: str
    body: Expr
    elem: T


# ---------------------------------------------------------------- boards (extensions E1)


@attrs.frozen(slots=True)
class BoardShape(Node):
    """`(square R C)` or `(hex N1 N2 …)`."""

    shape: str  # "square" | "hex"
    dims: tuple[Expr, ...]


@attrs.frozen(slots=True)
class Cells(Expr):
    """`(cells X)`: every cell of X's board, in index order (a PileCollection)."""

    board: Expr


@attrs.frozen(slots=True)
class CellAt(Expr):
    """`(cell X ROW COL)`: the cell of X's board at these coordinates (a Pile)."""

    board: Expr
    row: Expr
    col: Expr


@attrs.frozen(slots=True)
class Coord(Expr):
    """`(row X)`, `(col X)`: a cell's coordinate (Integer)."""

    axis: str  # "row" | "col"
    cell: Expr


@attrs.frozen(slots=True)
class Directions(Expr):
    """`(directions X)`: the direction names of X's board (a StringCollection)."""

    board: Expr


@attrs.frozen(slots=True)
class Neighbors(Expr):
    """`(neighbors X [DIRS])`: the adjacent cells (a PileCollection)."""

    cell: Expr
    dirs: Expr | None = None


@attrs.frozen(slots=True)
class Ray(Expr):
    """`(ray X D)`: the cells from X (exclusive) in direction D up to the edge."""

    cell: Expr
    direction: Expr


@attrs.frozen(slots=True)
class Line(Expr):
    """`(line X D N)`: N cells from X (inclusive) in direction D, or none if the line leaves the board."""

    cell: Expr
    direction: Expr
    count: Expr


@attrs.frozen(slots=True)
class Components(Expr):
    """`(components CELLS [DIRS])`: the connected groups of the cells (a GroupCollection)."""

    cells: Expr
    dirs: Expr | None = None


@attrs.frozen(slots=True)
class Collect(Expr):
    """`(all <coll> 'V <pile>)`: one pile per element."""

    coll: Expr
    var: str
    pile: Expr
    elem: T


@attrs.frozen(slots=True)
class AllOf(Expr):
    """`player`, `team`: every player / team."""

    what: str  # "player" | "team"


@attrs.frozen(slots=True)
class Other(Expr):
    """`(other player)`, `(other team)`."""

    what: str


@attrs.frozen(slots=True)
class Range(Expr):
    lo: Expr
    hi: Expr


@attrs.frozen(slots=True)
class NameList(Expr):
    names: tuple[str, ...]


@attrs.frozen(slots=True)
class WhoRef(Expr):
    """`(current|next|previous player|team)`."""

    which: str
    what: str


@attrs.frozen(slots=True)
class WhoById(Expr):
    """`(<int> player)`, `(<int> team)`."""

    index: Expr
    what: str


@attrs.frozen(slots=True)
class OwnerOf(Expr):
    card: Expr


@attrs.frozen(slots=True)
class TeamOf(Expr):
    player: Expr


@attrs.frozen(slots=True)
class TeamAsPlayers(Expr):
    """A team where a collection is expected: its members (spec §3.4)."""

    team: Expr


# ---------------------------------------------------------------- point maps


@attrs.frozen(slots=True)
class Condition(Node):
    key: Expr
    value: Expr


@attrs.frozen(slots=True)
class Award(Node):
    conditions: tuple[Condition, ...]
    points: Expr


# ---------------------------------------------------------------- definitions, conditionals, piles


@attrs.frozen(slots=True)
class CallExpr(Expr):
    """`(NAME arg …)` of a definition whose body is a value: the body checked at this use, its parameters bound."""

    name: str
    args: tuple[Expr, ...]
    params: tuple[str, ...]
    body: Expr
    type: T


@attrs.frozen(slots=True)
class IfExpr(Expr):
    """`(if <bool> <value> <value>)`: one of two values, the condition evaluated first."""

    cond: Expr
    then: Expr
    orelse: Expr
    type: T


@attrs.frozen(slots=True)
class CardAsPile(Expr):
    """A card where a pile is expected: the one-card pile holding it (empty when it designates no card)."""

    card: Expr


@attrs.frozen(slots=True)
class PileTest(Expr):
    """`(subset P Q)`: every card of P lies in Q; `(contains P C)`: the card C lies in P."""

    test: str  # "subset" | "contains"
    pile: Expr
    other: Expr


@attrs.frozen(slots=True)
class MatchScore(Expr):
    """`(matchscore <player>)`: the sum of the player's scores over the hands of the match played so far."""

    player: Expr
