"""The lexicon of RECYCLE: its keywords, the extension keywords, and words it no longer accepts."""
from __future__ import annotations

KEYWORDS = frozenset(
    ["game", "declare", "setup", "create", "players", "teams", "deck", "scoring", "min", "max", "stage", "player",
     "team", "end", "choice", "do", "any", "all", "let", "set", "inc", "dec", "move", "remember", "forget", "swap",
     "shuffle", "turn", "pass", "cycle", "next", "current", "previous", "repeat", "top", "bottom", "actual", "using",
     "owner", "other", "range", "union", "intersect", "disjunction", "filter", "sort", "partition", "subsets", "tuples",
     "runs", "run", "largest", "indexed", "size", "sum", "score", "scoremax", "scoremin", "pid", "tri", "fib", "random",
     "cardatt", "sto", "str", "points", "vloc", "iloc", "hloc", "oloc", "mem", "and", "or", "not"]
)
# Extension keywords (shared/spec/extensions.md); reserved so that the typed
# pass can give them meaning and precise errors.
EXTENSION_KEYWORDS = frozenset(
    ["board", "square", "hex", "capacity", "cells", "cell", "row", "col", "directions", "neighbors", "ray", "line",
     "components", "ply", "clear", "step", "cyclic", "isrun", "atomic", "require", "tiebreak", "override",
     # definitions, conditionals, alternatives, optional and out-of-turn decisions, loops, matches, limits
     "define", "if", "either", "optional", "ask", "while", "match", "matchscore", "limits", "decisions", "steps",
     "options", "extends",
     # piles and melds
     "subset", "contains", "meldrules", "rank", "suit", "ace", "low", "high", "both", "around", "wild", "distinct",
     "isset", "ismeld", "melds", "bestmelds", "deadwood", "fits"]
)
UNSUPPORTED_WORDS = {
    "put": "`put points` is pre-0.5 syntax; use (set (<owner> points NAME) (...))",
    "initialize": "`initialize points` is pre-0.5 syntax; use (set (<owner> points NAME) (...))",
    "comp": "`comp` is pre-0.5 syntax and is not supported",
    "mod": "`mod` is not supported; use `%`",
    "faro": "`shuffle faro` is not supported",
    "new": "`new` as a location name is not supported; use (<owner> <kind> NAME <int>)",
}
