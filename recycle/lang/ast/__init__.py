"""The typed AST of a RECYCLE game: frozen, slotted attrs classes, one per construct.

Every node carries its source span (excluded from equality, so that
`parse(print(ast)) == ast` compares structure only).  Expression nodes whose
meaning depends on operand types (comparisons, filters, variables, selections)
record the static type the checker resolved (language spec §3.5).
"""
from __future__ import annotations

from .expressions import (
    Expr, IntLit, Name, Var, GameOwner, Storage, Arith, IntFn, Random, Size, Sum, Score, ScoreExtreme, Pid,
    CardAtt, Logic, Not, Compare, Quantifier, CardAt, CardExtreme, Actual, Location, Indexed, SetOp, Filter,
    Sort, Slice, RunAtEnd, PileAt, Partition, Subsets, Tuples, Runs, IsRun, Fold, BoardShape, Cells, CellAt,
    Coord, Directions, Neighbors, Ray, Line, Components, Collect, AllOf, Other, Range, NameList, WhoRef,
    WhoById, OwnerOf, TeamOf, TeamAsPlayers, Condition, Award,
)
from .statements import (
    Action, Move, Remember, Forget, Swap, Shuffle, SetValue, SetPoints, IncDec, Cycle, TurnPass, Repeat,
    RepeatAll, ValueNode, Attribute, CreateBoard, Clear, CreateDeck, Guarded, Do, Choice, Loop, Let, Atomic,
    Stage, Declare, CreatePlayers, CreateTeams, Setup, Scoring, Game,
)
from .types import (
    T, ELEMENT, COLLECTIONS, Visibility, Node,
)

__all__ = [
    "Action", "Actual", "AllOf", "Arith", "Atomic", "Attribute", "Award", "BoardShape", "COLLECTIONS", "CardAt",
    "CardAtt", "CardExtreme", "CellAt", "Cells", "Choice", "Clear", "Collect", "Compare", "Components",
    "Condition", "Coord", "CreateBoard", "CreateDeck", "CreatePlayers", "CreateTeams", "Cycle", "Declare",
    "Directions", "Do", "ELEMENT", "Expr", "Filter", "Fold", "Forget", "Game", "GameOwner", "Guarded", "IncDec",
    "Indexed", "IntFn", "IntLit", "IsRun", "Let", "Line", "Location", "Logic", "Loop", "Move", "Name",
    "NameList", "Neighbors", "Node", "Not", "Other", "OwnerOf", "Partition", "Pid", "PileAt", "Quantifier",
    "Random", "Range", "Ray", "Remember", "Repeat", "RepeatAll", "RunAtEnd", "Runs", "Score", "ScoreExtreme",
    "Scoring", "SetOp", "SetPoints", "SetValue", "Setup", "Shuffle", "Size", "Slice", "Sort", "Stage",
    "Storage", "Subsets", "Sum", "Swap", "T", "TeamAsPlayers", "TeamOf", "Tuples", "TurnPass", "ValueNode",
    "Var", "Visibility", "WhoById", "WhoRef",
]
