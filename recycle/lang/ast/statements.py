"""Action, clause, item and game nodes: what a game does and how it is laid out."""
from __future__ import annotations

from typing import Any

import attrs

from .expressions import Award, BoardShape, Expr, Location, Storage
from .types import Node, T

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
    amount: Expr | None = None


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
    body: Move | Forget


@attrs.frozen(slots=True)
class ValueNode(Node):
    """One value of an attribute tree and its sub-attributes (spec §4.7)."""

    value: str
    attributes: tuple[Attribute, ...] = ()


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
    capacity: Expr | None = None


@attrs.frozen(slots=True)
class Clear(Action):
    """`(clear <storage>)`: reset a cell to its default (extensions E2)."""

    target: Storage


@attrs.frozen(slots=True)
class CreateDeck(Action):
    deck_name: Expr | None
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


@attrs.frozen(slots=True)
class If(Node):
    """`(if <bool> <clause> [<clause>])`: the condition chooses one branch before either runs."""

    cond: Expr
    then: Node
    orelse: Node | None = None


@attrs.frozen(slots=True)
class Either(Node):
    """`(either (<clause>+))` inside a choice: each clause is a separate alternative (a branch point)."""

    clauses: tuple[Node, ...]


@attrs.frozen(slots=True)
class CallClause(Node):
    """`(NAME arg …)` of a definition used as a clause: its body checked at this use, its parameters bound."""

    name: str
    args: tuple[Expr, ...]
    params: tuple[str, ...]
    body: Node


@attrs.frozen(slots=True)
class CallItem(Node):
    """`(NAME arg …)` of a definition used as a program item."""

    name: str
    args: tuple[Expr, ...]
    params: tuple[str, ...]
    body: Node


@attrs.frozen(slots=True)
class OptionalStep(Node):
    """`(optional (<clause>+))`: a decision offering its options and a pass; skipped when it has no option."""

    clauses: tuple[Node, ...]


@attrs.frozen(slots=True)
class Ask(Node):
    """`(ask <players> 'V <decision>)`: each player in turn makes the decision, whose turn it is unchanged."""

    players: Expr
    var: str
    body: Node  # a Choice or an OptionalStep, possibly inside lets
    type: T = T.PLAYER  # the type of `players`: one Player, or a PlayerCollection


@attrs.frozen(slots=True)
class While(Node):
    """`(while <bool> <item>+)`: the items again and again while the condition holds, the turn unchanged."""

    cond: Expr
    items: tuple[Node, ...]


@attrs.frozen(slots=True)
class Match(Node):
    """`(match (end <bool>) (score <int>) <item>+)`: hand after hand until the condition; each hand's
    score per player is recorded and adds to the player's match score."""

    end: Expr
    score: Expr
    items: tuple[Node, ...]


# ---------------------------------------------------------------- game


@attrs.frozen(slots=True)
class Define(Node):
    """`(define (NAME 'P …) BODY)`: a named, parameterised expression, clause or item, checked where it is used.

    `body` is the form as written (an S-expression): its meaning depends on where it is used.
    """

    name: str
    params: tuple[str, ...]
    body: Any


@attrs.frozen(slots=True)
class Limits(Node):
    """`(limits [(decisions N)] [(steps N)] [(options N)])`: this game's own decision, step and option limits."""

    decisions: Expr | None = None
    steps: Expr | None = None
    options: Expr | None = None


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
    teams: CreateTeams | None
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
    definitions: tuple[Define, ...] = ()
    limits: Limits | None = None
    base: str | None = attrs.field(default=None, eq=False)  # what (extends "…") named: the game is merged
    # "xam" when the text was read in the older CardStockXam dialect: CardStock's own run-time
    # leniencies then apply (language reference §9.1)
    dialect: str = attrs.field(default="modern", eq=False)
