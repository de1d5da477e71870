"""Game texts for tests: a complete game around a few clauses, loaded, run, or one expression evaluated.

`make_game` wraps setup clauses and program items into a complete game; `value_of`
evaluates one expression in such a game (bound by a final `let` item, read back from
the state's variable slots), so tests can check the exact value of a query: an int, a
string, a bool, a tuple of cells, ...
"""
from __future__ import annotations

from recycle.compiler import compile_game
from recycle.lang import parse_game
from recycle.lang.printer import to_source

DECK = "(create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE)) (SUIT (S, H, D, C))))"


def make_game(setup: str = "", items: str = "(do ((turn pass)))", players: int = 2, declares: str = "",
              scoring: str = "(scoring max 0)", deck: str = DECK) -> str:
    """A complete game text: declares, setup (players, extra clauses, a 36-card deck), items, scoring."""
    return f"(game {declares}\n (setup (create players {players})\n  {setup}\n  {deck})\n {items}\n {scoring})"


def load(text: str, params=None, check_round_trip: bool = True):
    """Parse (checking parse(print(ast)) == ast) and compile a game text."""
    g = parse_game(text)
    if check_round_trip:
        assert parse_game(to_source(g)) == g
    return compile_game(g, params)


def run(text: str, seed: int = 1, params=None):
    """(program, state) after a new game advanced to its first decision or its end."""
    prog = load(text, params)
    return prog, prog.new_game(seed)


def value_of(expr: str, setup: str = "", before: str = "", players: int = 2, declares: str = "", seed: int = 1):
    """(program, state, value) of an expression evaluated after the `before` items (no decisions)."""
    items = f"{before}\n (let {expr} 'OUT (do ((turn pass))))"
    prog, st = run(make_game(setup, items, players, declares), seed)
    assert st.status == 2, st.error.format() if st.error else st.status  # completed
    return prog, st, st.env[prog.nslots - 1]


def loc(prog, pid) -> tuple:
    """A stored pile's key as (owner, kind, name, index), owner "table" / "p1" …"""
    return tuple(prog.loc_json(pid))


def idx(prog, coll) -> list:
    """The location indices of a collection of stored piles (board cells)."""
    return [prog.pile_key[pid][3] for pid in coll]


# An atomic turn on a board, shared by the compiler's and the stepwise player's tests: p1 holds three
# cards and places exactly two of them on a row of four one-card cells, one at a time, then stops
# (3 x 4 x 2 x 3 = 72 complete paths through the block).
DEAL3 = "(do ((repeat 3 (move (top (game iloc STOCK)) (top ((0 player) iloc HAND))))))"
ROW = "(create board (game vloc ROW) (square 1 4) (capacity 1))"
PLACE_STAGE = """(atomic
  (stage player (end (== ((current player) str STOP) YES))
   (choice (
     (any ((current player) iloc HAND) 'C
      (any (filter (cells (game vloc ROW)) 'X (== (size 'X) 0)) 'X
       (do ((move 'C (top 'X)) (cycle next (current player))))))
     (set ((current player) str STOP) YES))))
  (require (== (size ((current player) iloc HAND)) 1)))"""
PLACE_GAME = make_game(ROW, DEAL3 + "\n " + PLACE_STAGE, deck="(create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE))))")


# Rules that never reach a decision in any time one would wait for, inside one item: each loop is under
# MAX_REPEAT / MAX_RANGE, and the step limit counts items, so only the step-time watchdog stops them.
NESTED_REPEAT = "(repeat 100000 (repeat 100000 (inc (game sto X) 1)))"
NESTED_FOLD = "(set (game sto X) (size (filter (range 1..100000) 'I (> (sum (range 1..100000) 'J (+ 'I 'J)) 0))))"


def runaway_game(action: str = NESTED_REPEAT) -> str:
    """A game whose first item runs `action` (a runaway) before any decision."""
    return make_game(declares="(declare 0 'X)", items=f"(do ({action}))")


# p1 chooses 1 or 2; after a 1 the rules run away, after a 2 the game ends at once: a batch of random
# games mixes runaways and completed games, and a searching player meets the runaway in its playouts.
CHOOSE_RUNAWAY = make_game(declares="(declare 0 'X) (declare 0 'Y)", items=(
    "(choice ((set (game sto X) 1) (set (game sto X) 2)))\n"
    f" (do ((if (== (game sto X) 1) {NESTED_REPEAT.replace('sto X', 'sto Y')})))"))


def definition_name(i: int) -> str:
    """The i-th name of a generated chain of definitions: D, then uppercase letters (DA, DB, …, DAA, …), as
    definition names may hold no digits."""
    s, i = "", i + 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(65 + r) + s
    return "D" + s
