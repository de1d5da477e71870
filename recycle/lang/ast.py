"""The typed AST of a RECYCLE game: frozen, slotted attrs classes, one per construct.

Every node carries its source span (excluded from equality, so that
`parse(print(ast)) == ast` compares structure only).  Expression nodes whose
meaning depends on operand types (comparisons, filters, variables, selections)
record the static type the checker resolved (language spec §3.5).
"""
from __future__ import annotations

import enum
from typing import Optional

import attrs

from ..errors import NOWHERE, Span


class T(str, enum.Enum):
    """Static types of expressions (language spec §3.1)."""

    INT = "Integer"
    STR = "String"
    BOOL = "Boolean"
    CARD = "Card"
    PILE = "Pile"
    PILES = "PileCollection"
    PLAYER = "Player"
    TEAM = "Team"
    PLAYERS = "PlayerCollection"
    TEAMS = "TeamCollection"
    STRS = "StringCollection"
    INTS = "IntegerCollection"
    GROUPS = "GroupCollection"  # a collection of PileCollections: `components` (extensions E1)
    POINTS = "PointMap"

    def __str__(self) -> str:  # messages say "a Pile", not "T.PILE"
        return self.value


ELEMENT = {
    T.PILE: T.CARD,
    T.PILES: T.PILE,
    T.PLAYERS: T.PLAYER,
    T.TEAMS: T.TEAM,
    T.STRS: T.STR,
    T.INTS: T.INT,
    T.GROUPS: T.PILES,
}
COLLECTIONS = frozenset(ELEMENT)


class Visibility(str, enum.Enum):
    """Pile kinds and who sees them (language spec §8.3)."""

    VISIBLE = "vloc"
    INVISIBLE = "iloc"
    HIDDEN = "hloc"
    OTHERS = "oloc"
    MEMORY = "mem"


def _span():
    return attrs.field(default=NOWHERE, eq=False, repr=False, kw_only=True)


@attrs.frozen(slots=True)
class Node:
    span: Span = _span()


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
    owner_type: Optional[T] = attrs.field(default=None, eq=False)  # derived from the owner: not structure


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

    lo: Optional[Expr]
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
    index: Optional[Expr] = None


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
    index: Optional[Expr] = None


@attrs.frozen(slots=True)
class Indexed(Expr):
    """`(indexed <powner> <kind> <str>)`: the non-empty piles of a family."""

    owner: Expr
    kind: Visibility
    name: Expr


@attrs.frozen(slots=True)
class SetOp(Expr):
    """`(union|intersect|disjunction <pile>+)` or with one `(all …)` collector."""

    op: str
    args: tuple[Expr, ...]


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
    index: Optional[Expr] = None


@attrs.frozen(slots=True)
class Partition(Expr):
    attribute: Expr
    args: tuple[Expr, ...]


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
    step: Optional[Expr] = None
    cyclic: Optional[Expr] = None


@attrs.frozen(slots=True)
class IsRun(Expr):
    """`(isrun COLL using M [(step K)] [(cyclic M)])`: the collection, in its order, is one run."""

    coll: Expr
    points: Expr
    step: Optional[Expr] = None
    cyclic: Optional[Expr] = None
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
    dirs: Optional[Expr] = None


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
    dirs: Optional[Expr] = None


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


# ---------------------------------------------------------------- actions


@attrs.frozen(slots=True)
class Action(Node):
    pass


@attrs.frozen(slots=True)
class Move(Action):
    card: Expr
    dest: Expr  # CardAt, possibly wrapped in Actual


@attrs.frozen(slots=True)
class Remember(Action):
    card: Expr
    dest: Expr


@attrs.frozen(slots=True)
class Forget(Action):
    card: Expr


@attrs.frozen(slots=True)
class Swap(Action):
    """`(swap A B)` of two piles (type PILE) or two cards (type CARD)."""

    a: Expr
    b: Expr
    type: T


@attrs.frozen(slots=True)
class Shuffle(Action):
    pile: Expr


@attrs.frozen(slots=True)
class SetValue(Action):
    """`(set <storage> <value>)` for an integer or string cell."""

    target: Storage
    value: Expr


@attrs.frozen(slots=True)
class SetPoints(Action):
    target: Storage
    awards: tuple[Award, ...]


@attrs.frozen(slots=True)
class IncDec(Action):
    op: str  # "inc" | "dec"
    target: Storage
    amount: Optional[Expr] = None


@attrs.frozen(slots=True)
class Cycle(Action):
    """`(cycle next|current <target>)`; a bare keyword target is kept as written."""

    mode: str
    target: Expr


@attrs.frozen(slots=True)
class TurnPass(Action):
    pass


@attrs.frozen(slots=True)
class Repeat(Action):
    count: Expr
    body: Node


@attrs.frozen(slots=True)
class RepeatAll(Action):
    body: Node  # Move or Forget


@attrs.frozen(slots=True)
class ValueNode(Node):
    """One value of an attribute tree and its sub-attributes (spec §4.7)."""

    value: str
    attributes: tuple["Attribute", ...] = ()


@attrs.frozen(slots=True)
class Attribute(Node):
    """`(KEY (V1, V2, …))` (flat) or `(KEY (V …) (V …))` (nested)."""

    key: str
    values: tuple[ValueNode, ...]
    flat: bool = True


@attrs.frozen(slots=True)
class CreateBoard(Action):
    """`(create board <location> (square R C)|(hex N …) [(capacity K)])` (extensions E1)."""

    location: Location
    shape: BoardShape
    capacity: Optional[Expr] = None


@attrs.frozen(slots=True)
class Clear(Action):
    """`(clear <storage>)`: reset a cell to its default (extensions E2)."""

    target: Storage


@attrs.frozen(slots=True)
class CreateDeck(Action):
    deck_name: Optional[Expr]
    location: Location
    attributes: tuple[Attribute, ...]


# ---------------------------------------------------------------- clauses and items


@attrs.frozen(slots=True)
class Guarded(Node):
    cond: Expr
    body: Node


@attrs.frozen(slots=True)
class Do(Node):
    clauses: tuple[Node, ...]


@attrs.frozen(slots=True)
class Choice(Node):
    clauses: tuple[Node, ...]


@attrs.frozen(slots=True)
class Loop(Node):
    """`(any|all <coll> 'V <clause>)` as a clause or program item."""

    quant: str
    coll: Expr
    var: str
    body: Node
    elem: T


@attrs.frozen(slots=True)
class Let(Node):
    value: Expr
    var: str
    body: Node
    type: T


@attrs.frozen(slots=True)
class Atomic(Node):
    """`(atomic <do|choice|stage> (require <bool>))`: all or nothing (extensions E4)."""

    body: Node
    require: Expr


@attrs.frozen(slots=True)
class Stage(Node):
    kind: str  # "player" | "team"
    end: Expr
    items: tuple[Node, ...]


# ---------------------------------------------------------------- game


@attrs.frozen(slots=True)
class Declare(Node):
    value: Expr
    var: str
    type: T


@attrs.frozen(slots=True)
class CreatePlayers(Node):
    count: Expr


@attrs.frozen(slots=True)
class CreateTeams(Node):
    teams: tuple[tuple[int, ...], ...]


@attrs.frozen(slots=True)
class Setup(Node):
    players: CreatePlayers
    teams: Optional[CreateTeams]
    decks: tuple[Node, ...]  # CreateDeck, CreateBoard or Repeat(count, CreateDeck|Repeat)


@attrs.frozen(slots=True)
class Scoring(Node):
    direction: str  # "max" | "min"
    expr: Expr
    tiebreaks: tuple[Expr, ...] = ()  # (tiebreak …) keys, compared in order after expr (extensions E5)


@attrs.frozen(slots=True)
class Game(Node):
    declares: tuple[Declare, ...]
    setup: Setup
    items: tuple[Node, ...]
    scoring: Scoring
