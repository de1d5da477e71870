# ruff: noqa: E501
"""The hover texts of the forms: generated from docs/language.md by `python -m recycle.lsp.gendocs`.

Do not edit: change docs/language.md and run the script again (a test checks that it is current).
"""
from __future__ import annotations

# keyword -> (signature, section, first paragraph of the section)
FORMS: dict[str, tuple[str, str, str]] = {
    'ace': (
        'ace',
        '§23 Melds',
        "`(meldrules (rank KEY (V1, V2, …)) [(suit KEY)] [(ace low|high|both|around)] [(wild COND …)] [(size N)] [(distinct)])` is a constant value of type MeldRules: how the game's cards form melds. It is usually declared once, `(declare (meldrules …) 'MELDS)`, and given to the meld questions after `using`.",
    ),
    'actual': (
        '(actual C)',
        '§6.3 Card references',
        '`(actual CARD)` — the same card (accepted for old files)',
    ),
    'all': (
        "(all COLL 'V CLAUSE)",
        '§5.8 repeat and repeat all',
        '`(repeat INT ACTION)` runs an action (or a loop) that many times, each time afresh. `(repeat all (move SOURCE DEST))` and `(repeat all (forget SOURCE))` run it once per card the source pile holds when the repeat starts. Moving top to top reverses the order: the three kings dealt below (KING-CLUBS first, so at the bottom of DEALT) end with KING-CLUBS on top of BACK.',
    ),
    'and': (
        '(and …)',
        '§2.1 Words, comments and layout',
        'A file holds one `(game …)` form. Between forms, any whitespace; `;;` starts a comment that runs to the end of the line. The words are:',
    ),
    'any': (
        "(any COLL 'V CLAUSE)",
        '§4.4 Loops',
        "`(all COLL 'V CLAUSE)` runs the clause once per element, in the collection's order; the elements are fixed before the first iteration. Outside a choice, `(any COLL 'V CLAUSE)` does the same: it only branches inside a choice.",
    ),
    'around': (
        'around',
        '§23 Melds',
        "`(meldrules (rank KEY (V1, V2, …)) [(suit KEY)] [(ace low|high|both|around)] [(wild COND …)] [(size N)] [(distinct)])` is a constant value of type MeldRules: how the game's cards form melds. It is usually declared once, `(declare (meldrules …) 'MELDS)`, and given to the meld questions after `using`.",
    ),
    'ask': (
        "(ask PLAYERS 'V DECISION)",
        '§20.2 ask',
        "`(ask PLAYERS 'V DECISION)` makes each player of PLAYERS (one player, or a collection, in order) take DECISION — a `choice` or an `optional` step, possibly inside `let`s — with `'V` bound to them. The decision is attributed to that player (transcripts, the `decisions.csv` seat, the player object asked) but whose turn it is does not change: `(current player)` inside is still the player whose turn it is. This is how an opponent lays off after a knock, how a player claims a discard out of turn, how players in turn order may buy a card.",
    ),
    'atomic': (
        '(atomic do|choice|stage (require B))',
        '§15 Atomic blocks',
        '`(atomic MULTIACTION (require CONDITION))` runs MULTIACTION tentatively and keeps its effect only if CONDITION holds afterwards; otherwise everything it did is undone exactly, as if the block had never started. MULTIACTION is a `do`, a `choice`, or a `stage` (for a turn made of several steps, such as "place tiles one at a time until you say stop").',
    ),
    'bestmelds': (
        '(bestmelds P using R PM)',
        '§23 Melds',
        "`(meldrules (rank KEY (V1, V2, …)) [(suit KEY)] [(ace low|high|both|around)] [(wild COND …)] [(size N)] [(distinct)])` is a constant value of type MeldRules: how the game's cards form melds. It is usually declared once, `(declare (meldrules …) 'MELDS)`, and given to the meld questions after `using`.",
    ),
    'board': (
        '(board …)',
        '§3.5 create board',
        '`(create board LOCATION SHAPE [(capacity K)])` makes the indexed locations of a family into the cells of a board (§12). It may stand in setup or, as an action, in a `do`; a board is built once.',
    ),
    'both': (
        'both',
        '§23 Melds',
        "`(meldrules (rank KEY (V1, V2, …)) [(suit KEY)] [(ace low|high|both|around)] [(wild COND …)] [(size N)] [(distinct)])` is a constant value of type MeldRules: how the game's cards form melds. It is usually declared once, `(declare (meldrules …) 'MELDS)`, and given to the meld questions after `using`.",
    ),
    'bottom': (
        '(bottom P)',
        '§6.3 Card references',
        '`(top P)`, `(bottom P)`, `(I P)` — last, first, or at index I (from 0); none if there is no such card',
    ),
    'capacity': (
        '(capacity K)',
        '§12.4 Capacity',
        '`(capacity K)` limits every cell of the board to K cards. In a choice, an option whose actions would put more than K cards on a cell is not offered; in a `do`, it is a run-time error naming the cell.',
    ),
    'cardatt': (
        '(cardatt A C)',
        '§9.1 Strings',
        'A name is a string; `(OWNER str NAME)` is a string cell; `(cardatt NAME CARD)` is a card\'s value for an attribute (`""` when it has none, or when there is no card). Strings compare exactly.',
    ),
    'cell': (
        '(cell BOARD ROW COL)',
        '§12.2 Coordinates and directions',
        "`(row X)` and `(col X)` are a cell's coordinates, from 0. On a square board they are the matrix row and column. On a hex board they are the axial coordinates (r, q): `row` is r, `col` is q, counted so that the left-most cell of the board has q = 0 — for `(hex 4 5 6 5 4)` row 0 holds q = 2…5 and row 2 holds q = 0…5. `(cell BOARD ROW COL)` is the cell at given coordinates (an error where the board has none). `(cells BOARD)` is every cell in index order; BOARD may be the family's location or any cell of the board. Piles cannot be compared with `==`; to tell cells apart, compare their coordinates.",
    ),
    'cells': (
        '(cells …)',
        '§12 Boards',
        'A board turns a family of indexed locations into a grid of cells with a geometry. A cell is an ordinary stored pile — moves, `top`, `size`, `filter`, visibility, transcripts, the card-flow diagram all work on it — and the board adds spatial queries on top. The geometry of each board is one direction-labelled graph (networkx), built once when the game is compiled, from which the neighbour and ray tables are precomputed.',
    ),
    'choice': (
        '(choice (CLAUSE+))',
        '§4.7 choice',
        "`(choice (CLAUSE+))` is a decision point for the current player. Its options are built by walking every clause on a copy of the state: each `any` loop inside a choice is a branch point (one continuation per element), every action is applied as it is met, so later conditions see earlier effects. A complete path with at least one action is one option; options come in clause order, then element order, depth first. Building the options changes nothing (except the game's random stream); the chosen option's actions then take effect exactly as they were built. A choice with no option stops the game with an error, so games add a fallback such as `(turn pass)`.",
    ),
    'clear': (
        '(clear CELL)',
        '§5.5 set, inc, dec, clear',
        'Storage cells spring into existence with a default: `(OWNER sto NAME)` holds an integer (0), `(OWNER str NAME)` a string (`""`), `(OWNER ply NAME)` a player (none, §13.2) and `(OWNER points NAME)` a point map (§10). `set` stores a value; `(inc CELL [INT])` and `(dec CELL [INT])` add or subtract (1 by default); `(clear CELL)` puts any cell back to its default.',
    ),
    'col': (
        '(col X)',
        '§12.2 Coordinates and directions',
        "`(row X)` and `(col X)` are a cell's coordinates, from 0. On a square board they are the matrix row and column. On a hex board they are the axial coordinates (r, q): `row` is r, `col` is q, counted so that the left-most cell of the board has q = 0 — for `(hex 4 5 6 5 4)` row 0 holds q = 2…5 and row 2 holds q = 0…5. `(cell BOARD ROW COL)` is the cell at given coordinates (an error where the board has none). `(cells BOARD)` is every cell in index order; BOARD may be the family's location or any cell of the board. Piles cannot be compared with `==`; to tell cells apart, compare their coordinates.",
    ),
    'components': (
        '(components CELLS)',
        '§12.5 Components',
        '`(components CELLS)` and `(components CELLS DIRS)` split a PileCollection of cells of one board into connected groups: two cells are connected when one is the neighbour of the other (in a direction of DIRS, taken both ways, when DIRS is given). The result is a GroupCollection: a collection of PileCollections. Each group lists its cells in board-index order and groups come in the order of their first cells; with one axis such as `(E, W)`, every group is a maximal segment read left to right (top to bottom for a column).',
    ),
    'contains': (
        '(contains P C)',
        '§22 Piles, cards and comparisons',
        'empty pile when the reference designates no card).',
    ),
    'create': (
        '(create players N)',
        '§3.3 setup, create players, create teams',
        '`(setup (create players INT) [(create teams (INT, …) …)] CLAUSE+)`. Setup is constant: its counts, names and indices are literals or declared variables. Players are numbered from 0. Each parenthesised team list is one team, numbered from 0 in written order; players not listed get a team each, after the listed ones. (Lists that are valid only as seats counted from 1, like `(1, 3) (2, 4)` for four players, are read that way with a warning.)',
    ),
    'current': (
        '(current player|team)',
        '§11 Players, teams and owners',
        'Piles belong to the game or a player. Storage cells belong to the game, a player, a team, and with the extensions of §13 to a location or a card:',
    ),
    'cycle': (
        '(cycle next TARGET)',
        '§5.6 cycle',
        '`(cycle next TARGET)` queues a player to play the next pass of the innermost stage; `(cycle current TARGET)` makes a player current at once. TARGET is a player expression or one of the words `current`, `next`, `previous`.',
    ),
    'cyclic': (
        '(cyclic M)',
        '§14 Runs with a step and a cycle',
        '`(runs largest|all N P using PM [(step K)] [(cyclic M)])` and `(isrun COLL using PM [(step K)] [(cyclic M)])`:',
    ),
    'deadwood': (
        '(deadwood P using R PM)',
        '§23 Melds',
        "`(meldrules (rank KEY (V1, V2, …)) [(suit KEY)] [(ace low|high|both|around)] [(wild COND …)] [(size N)] [(distinct)])` is a constant value of type MeldRules: how the game's cards form melds. It is usually declared once, `(declare (meldrules …) 'MELDS)`, and given to the meld questions after `using`.",
    ),
    'dec': (
        '(dec CELL [INT])',
        '§5.5 set, inc, dec, clear',
        'Storage cells spring into existence with a default: `(OWNER sto NAME)` holds an integer (0), `(OWNER str NAME)` a string (`""`), `(OWNER ply NAME)` a player (none, §13.2) and `(OWNER points NAME)` a point map (§10). `set` stores a value; `(inc CELL [INT])` and `(dec CELL [INT])` add or subtract (1 by default); `(clear CELL)` puts any cell back to its default.',
    ),
    'decisions': (
        'decisions',
        '§21.2 limits',
        "`(limits (decisions N) (steps N))` (either or both, among the declares) sets the game's own decision limit and step limit (§16.3): what it plays under unless the command line (`--max-decisions`, `--max-steps`) or the Python API says otherwise. Both are constants of at least 1.",
    ),
    'deck': (
        '(deck …)',
        '§3.4 create deck and attribute trees',
        "`(create deck [NAME] LOCATION (deck ATTRIBUTE+))` creates cards on top of a location. An attribute is flat, `(KEY (V1, V2, …))`, or nested, `(KEY (V ATTRIBUTE*) …)`; the deck is the product of the attributes, the first one varying slowest, and the first card created lies at the bottom. The optional name is the deck's back: decks with different names can be told apart face down.",
    ),
    'declare': (
        "(declare V 'X)",
        '§3.2 declare',
        "`(declare VALUE 'NAME)` binds a constant for the whole game: literals, earlier declarations, integer arithmetic, name lists, ranges, comparisons and `and`/`or`/`not` of those. Every declaration is also a parameter of the game (§17).",
    ),
    'define': (
        "(define (NAME 'P …) BODY)",
        '§18 Definitions',
        "`(define (NAME 'P …) BODY)` names a rule once, at the top of the game (among the declares, before `setup`); `(NAME ARG …)` uses it anywhere. BODY is a value, a clause or a program item, and what it is depends on where it is used: a definition used where a value is expected is an expression, where a clause is expected a clause, where an item is expected an item. A definition without parameters is written `(define NAME BODY)` and used as `(NAME)`.",
    ),
    'directions': (
        '(directions BOARD)',
        '§12.2 Coordinates and directions',
        "`(row X)` and `(col X)` are a cell's coordinates, from 0. On a square board they are the matrix row and column. On a hex board they are the axial coordinates (r, q): `row` is r, `col` is q, counted so that the left-most cell of the board has q = 0 — for `(hex 4 5 6 5 4)` row 0 holds q = 2…5 and row 2 holds q = 0…5. `(cell BOARD ROW COL)` is the cell at given coordinates (an error where the board has none). `(cells BOARD)` is every cell in index order; BOARD may be the family's location or any cell of the board. Piles cannot be compared with `==`; to tell cells apart, compare their coordinates.",
    ),
    'disjunction': (
        '(disjunction P+)',
        '§7.1 Piles made by expressions',
        "The set operations also take one collector `(all COLL 'V PILE)` instead of a list of piles.",
    ),
    'distinct': (
        'distinct',
        '§23 Melds',
        "`(meldrules (rank KEY (V1, V2, …)) [(suit KEY)] [(ace low|high|both|around)] [(wild COND …)] [(size N)] [(distinct)])` is a constant value of type MeldRules: how the game's cards form melds. It is usually declared once, `(declare (meldrules …) 'MELDS)`, and given to the meld questions after `using`.",
    ),
    'do': (
        '(do (CLAUSE+))',
        '§4.2 do',
        '`(do (CLAUSE+))` runs its clauses in order, at once. A clause is an action, a guarded clause, a nested `do`, a loop, a `let` or an atomic block.',
    ),
    'either': (
        '(either (CLAUSE+))',
        '§19.2 either',
        '`(either (CLAUSE+))` stands inside a choice (or an optional step, §20.1) and offers its clauses as alternatives: each clause continues the option being built on its own, from the same state, like the elements of an `any` loop. Outside a choice it is a load-time error: there is nothing to choose.',
    ),
    'end': (
        'end',
        '§4.6 stage',
        '`(stage player|team (end CONDITION) ITEM+)` repeats its body, one pass per member of a copy of the innermost player (or team) cycle, until the condition holds. The condition is tested before the first pass and after every complete pass; the cycle advances between passes (to the queued player if one was queued with `cycle next`). When the stage ends its cycle is dropped, so the enclosing cycle is as it was. A `stage team` rotates `(current team)` and leaves the player cycle alone.',
    ),
    'extends': (
        '(extends "BASE")',
        '§24 Variants',
        'A variant states only what it changes: `(game (extends "BASE") CHANGE…)`. BASE is a shipped game\'s name (`"rummykruss"`), a `.gdl` of that name beside the variant, or a path relative to the variant\'s folder (`"bases/mine.gdl"`); it never leaves that folder. The changes:',
    ),
    'fib': (
        '(fib n)',
        '§8 Integers',
        '`(tri n)`, `(fib n)` — n(n+1)/2, Fibonacci',
    ),
    'filter': (
        "(filter COLL 'V CONDITION)",
        '§7.1 Piles made by expressions',
        "The set operations also take one collector `(all COLL 'V PILE)` instead of a list of piles.",
    ),
    'fits': (
        '(fits C M using R)',
        '§23 Melds',
        "`(meldrules (rank KEY (V1, V2, …)) [(suit KEY)] [(ace low|high|both|around)] [(wild COND …)] [(size N)] [(distinct)])` is a constant value of type MeldRules: how the game's cards form melds. It is usually declared once, `(declare (meldrules …) 'MELDS)`, and given to the meld questions after `using`.",
    ),
    'forget': (
        '(forget (top|bottom|I MEMPILE))',
        '§5.2 remember and forget',
        'A memory pile, `(OWNER mem NAME)`, holds references to cards that lie elsewhere. `(remember CARD DESTINATION)` adds a reference; `(forget (top|bottom|I MEMPILE))` removes the entry at that position. Moving a card does not change the memories that refer to it.',
    ),
    'game': (
        '(game …)',
        '§3.1 game',
        '`(game (declare …)* (setup …) ITEM+ (scoring max|min INT [(tiebreak INT+)]))`: declarations, one setup, one or more program items, then the scoring. A complete game:',
    ),
    'hex': (
        '(hex N1 N2 …)',
        '§12.1 Building a board',
        '`(create board LOCATION (square ROWS COLS) [(capacity K)])` or `(create board LOCATION (hex N1 N2 …) [(capacity K)])`:',
    ),
    'high': (
        'high',
        '§23 Melds',
        "`(meldrules (rank KEY (V1, V2, …)) [(suit KEY)] [(ace low|high|both|around)] [(wild COND …)] [(size N)] [(distinct)])` is a constant value of type MeldRules: how the game's cards form melds. It is usually declared once, `(declare (meldrules …) 'MELDS)`, and given to the meld questions after `using`.",
    ),
    'hloc': (
        '(OWNER hloc NAME)',
        '§6.1 Locations',
        '`(OWNER KIND NAME [INT])` names a stored pile; the owner is `game` or a player, the index defaults to 0, and the name and index may be computed. Every stored pile exists, empty, from the start. The kinds say who sees the cards:',
    ),
    'if': (
        '(if B X [Y])',
        '§19.1 if',
        "`(if CONDITION THEN [ELSE])` is a clause: the condition is evaluated once and chooses the branch that runs; the other never runs. Unlike two guarded clauses with opposite conditions, the second branch cannot be triggered by what the first one did. `(if CONDITION VALUE VALUE)` is an expression of the two values' type.",
    ),
    'iloc': (
        '(OWNER iloc NAME)',
        '§6.1 Locations',
        '`(OWNER KIND NAME [INT])` names a stored pile; the owner is `game` or a player, the index defaults to 0, and the name and index may be computed. Every stored pile exists, empty, from the start. The kinds say who sees the cards:',
    ),
    'inc': (
        '(inc CELL [INT])',
        '§5.5 set, inc, dec, clear',
        'Storage cells spring into existence with a default: `(OWNER sto NAME)` holds an integer (0), `(OWNER str NAME)` a string (`""`), `(OWNER ply NAME)` a player (none, §13.2) and `(OWNER points NAME)` a point map (§10). `set` stores a value; `(inc CELL [INT])` and `(dec CELL [INT])` add or subtract (1 by default); `(clear CELL)` puts any cell back to its default.',
    ),
    'indexed': (
        '(indexed OWNER KIND NAME)',
        '§6.2 Indexed families',
        'Locations that share owner, kind and name form a family; `(indexed OWNER KIND NAME)` is the PileCollection of its non-empty members, by index.',
    ),
    'intersect': (
        '(intersect P+)',
        '§7.1 Piles made by expressions',
        "The set operations also take one collector `(all COLL 'V PILE)` instead of a list of piles.",
    ),
    'ismeld': (
        '(ismeld P using R)',
        '§23 Melds',
        "`(meldrules (rank KEY (V1, V2, …)) [(suit KEY)] [(ace low|high|both|around)] [(wild COND …)] [(size N)] [(distinct)])` is a constant value of type MeldRules: how the game's cards form melds. It is usually declared once, `(declare (meldrules …) 'MELDS)`, and given to the meld questions after `using`.",
    ),
    'isrun': (
        '(isrun …)',
        '§9.2 Booleans',
        "`(and …)` and `(or …)` stop at the first operand that decides; `(not B)` negates. `==` and `!=` compare two Integers, Strings, Cards (by identity: two copies of a card differ), Players or Teams; `<`, `>`, `<=`, `>=` compare Integers. `(any COLL 'V B)` and `(all COLL 'V B)` are quantifiers: over nothing, `any` is false and `all` is true. A variable bound to a boolean is a condition.",
    ),
    'isset': (
        '(isset P using R)',
        '§23 Melds',
        "`(meldrules (rank KEY (V1, V2, …)) [(suit KEY)] [(ace low|high|both|around)] [(wild COND …)] [(size N)] [(distinct)])` is a constant value of type MeldRules: how the game's cards form melds. It is usually declared once, `(declare (meldrules …) 'MELDS)`, and given to the meld questions after `using`.",
    ),
    'largest': (
        'largest',
        '§7.2 Collections of piles',
        'A run takes one card per value of a range of consecutive scores; `largest` gives the runs over each whole block of consecutive values (at least N long), `all` every range of at least N values.',
    ),
    'let': (
        "(let V 'X BODY)",
        '§4.5 let',
        "`(let VALUE 'V BODY)` binds `'V` to a value computed once: a location stays a live reference, any other collection is a snapshot. As an item its body may be a `choice`.",
    ),
    'limits': (
        '(limits (decisions N) (steps N))',
        '§16.3 Decision points and limits',
        'Every executed choice (and every atomic block that decides, §15.3) is a decision point, numbered from 1. A game stops with outcome `limit` when a decision is due after `max_decisions` decisions (default 2000), or after `max_idle_steps` steps without a decision (default 10000; a step is one end-condition test or one item other than a decision).',
    ),
    'line': (
        '(line …)',
        '§12 Boards',
        'A board turns a family of indexed locations into a grid of cells with a geometry. A cell is an ordinary stored pile — moves, `top`, `size`, `filter`, visibility, transcripts, the card-flow diagram all work on it — and the board adds spatial queries on top. The geometry of each board is one direction-labelled graph (networkx), built once when the game is compiled, from which the neighbour and ray tables are precomputed.',
    ),
    'low': (
        'low',
        '§23 Melds',
        "`(meldrules (rank KEY (V1, V2, …)) [(suit KEY)] [(ace low|high|both|around)] [(wild COND …)] [(size N)] [(distinct)])` is a constant value of type MeldRules: how the game's cards form melds. It is usually declared once, `(declare (meldrules …) 'MELDS)`, and given to the meld questions after `using`.",
    ),
    'match': (
        '(match (end B) (score INT) ITEM+)',
        '§21.1 match',
        "`(match (end CONDITION) (score INT) ITEM+)` plays hands until the condition holds: its items are one hand; after each hand INT is evaluated for every player (each in turn the current player, as in `scoring`) and recorded as that hand's scores, then the condition is tested. `(matchscore PLAYER)` is the player's total over the hands played so far. Hand scores are kept apart from the match score in every result: each hand is a `hand` event in the transcript, the `end` event lists them (`hands`), and the game's `(scoring …)` — usually `(matchscore (current player))` — ranks the match. A game's own limits (§21.2) are usually needed: a match is long.",
    ),
    'matchscore': (
        '(matchscore PLAYER)',
        '§21.1 match',
        "`(match (end CONDITION) (score INT) ITEM+)` plays hands until the condition holds: its items are one hand; after each hand INT is evaluated for every player (each in turn the current player, as in `scoring`) and recorded as that hand's scores, then the condition is tested. `(matchscore PLAYER)` is the player's total over the hands played so far. Hand scores are kept apart from the match score in every result: each hand is a `hand` event in the transcript, the `end` event lists them (`hands`), and the game's `(scoring …)` — usually `(matchscore (current player))` — ranks the match. A game's own limits (§21.2) are usually needed: a match is long.",
    ),
    'max': (
        '(max P using PM)',
        '§6.3 Card references',
        '`(max P using PM)`, `(min P using PM)` — a card of highest / lowest score; ties drawn at random',
    ),
    'meldrules': (
        '(meldrules …)',
        '§23 Melds',
        "`(meldrules (rank KEY (V1, V2, …)) [(suit KEY)] [(ace low|high|both|around)] [(wild COND …)] [(size N)] [(distinct)])` is a constant value of type MeldRules: how the game's cards form melds. It is usually declared once, `(declare (meldrules …) 'MELDS)`, and given to the meld questions after `using`.",
    ),
    'melds': (
        '(melds P using R)',
        '§23 Melds',
        "`(meldrules (rank KEY (V1, V2, …)) [(suit KEY)] [(ace low|high|both|around)] [(wild COND …)] [(size N)] [(distinct)])` is a constant value of type MeldRules: how the game's cards form melds. It is usually declared once, `(declare (meldrules …) 'MELDS)`, and given to the meld questions after `using`.",
    ),
    'mem': (
        '(OWNER mem NAME)',
        '§6.1 Locations',
        '`(OWNER KIND NAME [INT])` names a stored pile; the owner is `game` or a player, the index defaults to 0, and the name and index may be computed. Every stored pile exists, empty, from the start. The kinds say who sees the cards:',
    ),
    'min': (
        '(min P using PM)',
        '§6.3 Card references',
        '`(max P using PM)`, `(min P using PM)` — a card of highest / lowest score; ties drawn at random',
    ),
    'move': (
        '(move CARD DESTINATION)',
        '§5.1 move',
        '`(move CARD DESTINATION)` takes a card from the pile where it lies and inserts it at a position: `(top P)` after the last card, `(bottom P)` at index 0, `(I P)` so that it ends at index I. The card may be given by position, by a variable, or as the best card of a pile (`max`/`min`); moving it out of a computed pile moves the real card.',
    ),
    'neighbors': (
        '(neighbors …)',
        '§12 Boards',
        'A board turns a family of indexed locations into a grid of cells with a geometry. A cell is an ordinary stored pile — moves, `top`, `size`, `filter`, visibility, transcripts, the card-flow diagram all work on it — and the board adds spatial queries on top. The geometry of each board is one direction-labelled graph (networkx), built once when the game is compiled, from which the neighbour and ray tables are precomputed.',
    ),
    'next': (
        '(next player|team)',
        '§11 Players, teams and owners',
        'Piles belong to the game or a player. Storage cells belong to the game, a player, a team, and with the extensions of §13 to a location or a card:',
    ),
    'not': (
        '(not …)',
        '§15.2 Inside a choice: paths that fail are not options',
        'When an atomic block is part of a choice, its paths are explored like the rest of the choice (depth first, every `any` a branch point) and a path whose condition fails — or that would overfill a cell — is dropped. A block without a successful path contributes no option.',
    ),
    'oloc': (
        '(OWNER oloc NAME)',
        '§6.1 Locations',
        '`(OWNER KIND NAME [INT])` names a stored pile; the owner is `game` or a player, the index defaults to 0, and the name and index may be computed. Every stored pile exists, empty, from the start. The kinds say who sees the cards:',
    ),
    'optional': (
        '(optional (CLAUSE+))',
        '§20.1 optional',
        '`(optional (CLAUSE+))` is a program item: a decision like `choice` whose options are those of its clauses followed by one more, a pass (described as `pass`, it does nothing). When its clauses give no option at all the step is skipped: no decision, nothing happens. "You may lay off" is an optional step; no dummy clause is needed to let the player decline.',
    ),
    'or': (
        '(or …)',
        '§15.3 Blocks holding a choice or a stage: one decision, multi-step options',
        'An atomic block whose MULTIACTION is a `choice` or a `stage` — as a program item, or inside a choice — is a decision whose options are complete paths through the block:',
    ),
    'other': (
        '(other …)',
        '§7.3 Players, teams, strings and integers',
        '`(other player)`, `(other team)` — all but the current one',
    ),
    'override': (
        'override',
        '§13.3 Attribute overrides',
        'When a card has a `str` cell named like one of its attributes, that value replaces the printed one everywhere the attribute is read: `cardatt`, point maps (and through them `sum`, `score`, `sort`, `max`, `runs`, `isrun` …), `partition`, `filter`. This is how a wild card takes a value. The override goes wherever the card goes; `clear` removes it. A cell named like no attribute of the card is plain storage.',
    ),
    'owner': (
        '(owner C)',
        '§11 Players, teams and owners',
        'Piles belong to the game or a player. Storage cells belong to the game, a player, a team, and with the extensions of §13 to a location or a card:',
    ),
    'partition': (
        '(partition NAME P+)',
        '§7.2 Collections of piles',
        'A run takes one card per value of a range of consecutive scores; `largest` gives the runs over each whole block of consecutive values (at least N long), `all` every range of at least N values.',
    ),
    'pass': (
        '(pass …)',
        '§5.7 turn pass',
        '`(turn pass)` does nothing; in a choice it is an option of its own ("do nothing").',
    ),
    'pid': (
        '(pid PLAYER)',
        '§8 Integers',
        "`(size C)`, `(pid PLAYER)`, `(OWNER sto NAME)` — a count, a player's id, a cell",
    ),
    'player': (
        '(player …)',
        '§15.4 The random player samples',
        'Enumerating every path of a block can be far too much (Rummykruss: any number of tiles from a rack of 14 onto 215 cells). So the random player does not enumerate atomic blocks: each time a block is reached while its options are built, it walks one random path through it and tests the condition; it tries up to **100** paths and stops at the first success. The block then contributes that one path as its option, or nothing if every attempt failed. The other options of the choice are built as usual, and the random player picks among them uniformly. A walk goes like this:',
    ),
    'players': (
        '(players …)',
        '§3.3 setup, create players, create teams',
        '`(setup (create players INT) [(create teams (INT, …) …)] CLAUSE+)`. Setup is constant: its counts, names and indices are literals or declared variables. Players are numbered from 0. Each parenthesised team list is one team, numbered from 0 in written order; players not listed get a team each, after the listed ones. (Lists that are valid only as seats counted from 1, like `(1, 3) (2, 4)` for four players, are read that way with a warning.)',
    ),
    'ply': (
        '(ply …)',
        '§13.2 ply storage',
        "`(OWNER ply NAME)` holds a player. Unset, it holds no player: it is equal to no player expression (and equal to another unset `ply` cell), so `(any player 'P (== CELL 'P))` tests whether it is set. `==`, `!=` and copying with `set` accept an unset cell; using it anywhere a real player is needed (an owner, `pid`, `cycle` …) is a run-time error.",
    ),
    'points': (
        '(points …)',
        '§16.3 Decision points and limits',
        'Every executed choice (and every atomic block that decides, §15.3) is a decision point, numbered from 1. A game stops with outcome `limit` when a decision is due after `max_decisions` decisions (default 2000), or after `max_idle_steps` steps without a decision (default 10000; a step is one end-condition test or one item other than a decision).',
    ),
    'previous': (
        '(previous player|team)',
        '§11 Players, teams and owners',
        'Piles belong to the game or a player. Storage cells belong to the game, a player, a team, and with the extensions of §13 to a location or a card:',
    ),
    'random': (
        '(random …)',
        '§15.4 The random player samples',
        'Enumerating every path of a block can be far too much (Rummykruss: any number of tiles from a rack of 14 onto 215 cells). So the random player does not enumerate atomic blocks: each time a block is reached while its options are built, it walks one random path through it and tests the condition; it tries up to **100** paths and stops at the first success. The block then contributes that one path as its option, or nothing if every attempt failed. The other options of the choice are built as usual, and the random player picks among them uniformly. A walk goes like this:',
    ),
    'range': (
        '(range A..B)',
        '§7.3 Players, teams, strings and integers',
        '`(range A..B)` — A to B inclusive, ascending',
    ),
    'rank': (
        'rank',
        '§23 Melds',
        "`(meldrules (rank KEY (V1, V2, …)) [(suit KEY)] [(ace low|high|both|around)] [(wild COND …)] [(size N)] [(distinct)])` is a constant value of type MeldRules: how the game's cards form melds. It is usually declared once, `(declare (meldrules …) 'MELDS)`, and given to the meld questions after `using`.",
    ),
    'ray': (
        '(ray …)',
        '§12 Boards',
        'A board turns a family of indexed locations into a grid of cells with a geometry. A cell is an ordinary stored pile — moves, `top`, `size`, `filter`, visibility, transcripts, the card-flow diagram all work on it — and the board adds spatial queries on top. The geometry of each board is one direction-labelled graph (networkx), built once when the game is compiled, from which the neighbour and ray tables are precomputed.',
    ),
    'remember': (
        '(remember CARD DESTINATION)',
        '§5.2 remember and forget',
        'A memory pile, `(OWNER mem NAME)`, holds references to cards that lie elsewhere. `(remember CARD DESTINATION)` adds a reference; `(forget (top|bottom|I MEMPILE))` removes the entry at that position. Moving a card does not change the memories that refer to it.',
    ),
    'repeat': (
        '(repeat INT ACTION)',
        '§5.8 repeat and repeat all',
        '`(repeat INT ACTION)` runs an action (or a loop) that many times, each time afresh. `(repeat all (move SOURCE DEST))` and `(repeat all (forget SOURCE))` run it once per card the source pile holds when the repeat starts. Moving top to top reverses the order: the three kings dealt below (KING-CLUBS first, so at the bottom of DEALT) end with KING-CLUBS on top of BACK.',
    ),
    'require': (
        'require',
        '§15 Atomic blocks',
        '`(atomic MULTIACTION (require CONDITION))` runs MULTIACTION tentatively and keeps its effect only if CONDITION holds afterwards; otherwise everything it did is undone exactly, as if the block had never started. MULTIACTION is a `do`, a `choice`, or a `stage` (for a turn made of several steps, such as "place tiles one at a time until you say stop").',
    ),
    'row': (
        '(row X)',
        '§12.2 Coordinates and directions',
        "`(row X)` and `(col X)` are a cell's coordinates, from 0. On a square board they are the matrix row and column. On a hex board they are the axial coordinates (r, q): `row` is r, `col` is q, counted so that the left-most cell of the board has q = 0 — for `(hex 4 5 6 5 4)` row 0 holds q = 2…5 and row 2 holds q = 0…5. `(cell BOARD ROW COL)` is the cell at given coordinates (an error where the board has none). `(cells BOARD)` is every cell in index order; BOARD may be the family's location or any cell of the board. Piles cannot be compared with `==`; to tell cells apart, compare their coordinates.",
    ),
    'run': (
        '(run …)',
        '§15.1 A `do` block run directly',
        'Outside a choice, an atomic `do` is not a decision: it runs, the condition is tested, and the block either stands or is rolled back (its transcript events appear only if it stands). Game random numbers drawn inside stay drawn. Blocks may nest; an inner block that fails rolls back only itself.',
    ),
    'runs': (
        '(runs largest|all N P using PM)',
        '§7.2 Collections of piles',
        'A run takes one card per value of a range of consecutive scores; `largest` gives the runs over each whole block of consecutive values (at least N long), `all` every range of at least N values.',
    ),
    'score': (
        '(score CARD using PM)',
        '§8 Integers',
        "`(sum P using PM)`, `(score CARD using PM)` — the total / one card's score under a point map",
    ),
    'scoremax': (
        '(scoremax P using PM)',
        '§8 Integers',
        '`(scoremax P using PM)`, `(scoremin P using PM)` — the highest / lowest score in a non-empty pile',
    ),
    'scoremin': (
        '(scoremin P using PM)',
        '§8 Integers',
        '`(scoremax P using PM)`, `(scoremin P using PM)` — the highest / lowest score in a non-empty pile',
    ),
    'scoring': (
        '(scoring max|min INT [(tiebreak INT+)])',
        '§3.6 scoring',
        '`(scoring max INT)` or `(scoring min INT)`: after the last item, the expression is evaluated once per player, with that player as `(current player)`. With `max` higher is better. See §16 for ranks, shares and `tiebreak`.',
    ),
    'set': (
        '(set …)',
        '§5.5 set, inc, dec, clear',
        'Storage cells spring into existence with a default: `(OWNER sto NAME)` holds an integer (0), `(OWNER str NAME)` a string (`""`), `(OWNER ply NAME)` a player (none, §13.2) and `(OWNER points NAME)` a point map (§10). `set` stores a value; `(inc CELL [INT])` and `(dec CELL [INT])` add or subtract (1 by default); `(clear CELL)` puts any cell back to its default.',
    ),
    'setup': (
        '(setup …)',
        '§3.3 setup, create players, create teams',
        '`(setup (create players INT) [(create teams (INT, …) …)] CLAUSE+)`. Setup is constant: its counts, names and indices are literals or declared variables. Players are numbered from 0. Each parenthesised team list is one team, numbered from 0 in written order; players not listed get a team each, after the listed ones. (Lists that are valid only as seats counted from 1, like `(1, 3) (2, 4)` for four players, are read that way with a warning.)',
    ),
    'shuffle': (
        '(shuffle PILE)',
        '§5.4 shuffle',
        "`(shuffle PILE)` puts a stored pile in a uniformly random order, drawn from the game's stream.",
    ),
    'size': (
        '(size COLL)',
        '§7.4 size',
        '`(size COLL)` counts the elements of any collection.',
    ),
    'sort': (
        '(sort P using PM)',
        '§7.1 Piles made by expressions',
        "The set operations also take one collector `(all COLL 'V PILE)` instead of a list of piles.",
    ),
    'square': (
        '(square R C)',
        '§12.1 Building a board',
        '`(create board LOCATION (square ROWS COLS) [(capacity K)])` or `(create board LOCATION (hex N1 N2 …) [(capacity K)])`:',
    ),
    'stage': (
        '(stage player|team (end B) ITEM+)',
        '§4.6 stage',
        '`(stage player|team (end CONDITION) ITEM+)` repeats its body, one pass per member of a copy of the innermost player (or team) cycle, until the condition holds. The condition is tested before the first pass and after every complete pass; the cycle advances between passes (to the queued player if one was queued with `cycle next`). When the stage ends its cycle is dropped, so the enclosing cycle is as it was. A `stage team` rotates `(current team)` and leaves the player cycle alone.',
    ),
    'step': (
        '(step …)',
        '§15.3 Blocks holding a choice or a stage: one decision, multi-step options',
        'An atomic block whose MULTIACTION is a `choice` or a `stage` — as a program item, or inside a choice — is a decision whose options are complete paths through the block:',
    ),
    'steps': (
        'steps',
        '§21.2 limits',
        "`(limits (decisions N) (steps N))` (either or both, among the declares) sets the game's own decision limit and step limit (§16.3): what it plays under unless the command line (`--max-decisions`, `--max-steps`) or the Python API says otherwise. Both are constants of at least 1.",
    ),
    'sto': (
        '(OWNER sto NAME)',
        '§13 Storage on locations and cards',
        "The owner of a `sto`, `str`, `ply` or `points` cell may also be a stored location (a board cell, any pile; not a computed pile) or a card. A card's cells travel with the card; a location's cells stay with the location. Like every storage, they are public and appear in transcripts as `set` events, the owner written as `table vloc GRID 3` or `DEFAULT#5`.",
    ),
    'str': (
        '(OWNER str NAME)',
        '§13 Storage on locations and cards',
        "The owner of a `sto`, `str`, `ply` or `points` cell may also be a stored location (a board cell, any pile; not a computed pile) or a card. A card's cells travel with the card; a location's cells stay with the location. Like every storage, they are public and appear in transcripts as `set` events, the owner written as `table vloc GRID 3` or `DEFAULT#5`.",
    ),
    'subset': (
        '(subset P Q)',
        '§22 Piles, cards and comparisons',
        'empty pile when the reference designates no card).',
    ),
    'subsets': (
        '(subsets P)',
        '§7.2 Collections of piles',
        'A run takes one card per value of a range of consecutive scores; `largest` gives the runs over each whole block of consecutive values (at least N long), `all` every range of at least N values.',
    ),
    'suit': (
        'suit',
        '§23 Melds',
        "`(meldrules (rank KEY (V1, V2, …)) [(suit KEY)] [(ace low|high|both|around)] [(wild COND …)] [(size N)] [(distinct)])` is a constant value of type MeldRules: how the game's cards form melds. It is usually declared once, `(declare (meldrules …) 'MELDS)`, and given to the meld questions after `using`.",
    ),
    'sum': (
        "(sum COLL 'V INT)",
        '§8 Integers',
        "`(sum P using PM)`, `(score CARD using PM)` — the total / one card's score under a point map",
    ),
    'swap': (
        '(swap PILE PILE)',
        '§5.3 swap',
        "`(swap PILE PILE)` exchanges the contents of two stored piles; `(swap CARD CARD)` exchanges two cards' places.",
    ),
    'team': (
        '(team P)',
        '§7.3 Players, teams, strings and integers',
        '`player`, `team` — every player / team, by id',
    ),
    'teams': (
        '(teams …)',
        '§3.3 setup, create players, create teams',
        '`(setup (create players INT) [(create teams (INT, …) …)] CLAUSE+)`. Setup is constant: its counts, names and indices are literals or declared variables. Players are numbered from 0. Each parenthesised team list is one team, numbered from 0 in written order; players not listed get a team each, after the listed ones. (Lists that are valid only as seats counted from 1, like `(1, 3) (2, 4)` for four players, are read that way with a warning.)',
    ),
    'tiebreak': (
        '(tiebreak …)',
        '§16.2 tiebreak',
        '`(scoring max|min INT (tiebreak INT+))`: the keys are evaluated per player like the score and compared in order after it, in the same direction (negate a key to reverse it). Players equal on the score and on every key tie. Ranks and win shares use the keys; the scores reported are the main scores.',
    ),
    'top': (
        '(top P)',
        '§6.3 Card references',
        '`(top P)`, `(bottom P)`, `(I P)` — last, first, or at index I (from 0); none if there is no such card',
    ),
    'tri': (
        '(tri n)',
        '§8 Integers',
        '`(tri n)`, `(fib n)` — n(n+1)/2, Fibonacci',
    ),
    'tuples': (
        '(tuples N P using PM)',
        '§7.2 Collections of piles',
        'A run takes one card per value of a range of consecutive scores; `largest` gives the runs over each whole block of consecutive values (at least N long), `all` every range of at least N values.',
    ),
    'turn': (
        '(turn pass)',
        '§5.7 turn pass',
        '`(turn pass)` does nothing; in a choice it is an option of its own ("do nothing").',
    ),
    'union': (
        '(union P+)',
        '§7.1 Piles made by expressions',
        "The set operations also take one collector `(all COLL 'V PILE)` instead of a list of piles.",
    ),
    'using': (
        'using',
        '§10 Point maps',
        '`(set (OWNER points NAME) ((CONDITION+ INT)+))` stores a point map: a list of awards, each one or more conditions `(ATTRIBUTE : VALUE)` and an integer. A card scores the sum of the awards whose conditions all hold for it; a card matching none scores 0, and so does every card under a map never set. Attribute names, values and points are evaluated when the map is set. Maps are read by `using` (`sum`, `score`, `scoremax`, `scoremin`, `max`, `min`, `sort`, `tuples`, `runs`, `run`, `isrun`) and cannot be held in variables.',
    ),
    'vloc': (
        '(OWNER vloc NAME)',
        '§6.1 Locations',
        '`(OWNER KIND NAME [INT])` names a stored pile; the owner is `game` or a player, the index defaults to 0, and the name and index may be computed. Every stored pile exists, empty, from the start. The kinds say who sees the cards:',
    ),
    'while': (
        '(while B ITEM+)',
        '§20.3 while',
        '`(while CONDITION ITEM+)` runs its items again and again while the condition holds (tested before each pass), without changing whose turn it is. A turn made of several small decisions — draw, meld any number of melds, lay off, discard — is a `while` around optional steps and choices, ended by the player\'s own choice to stop (a guarded clause offers "stop" only where stopping is legal). Each test counts as a step, so a loop that decides nothing stops at the step limit (§16.3).',
    ),
    'wild': (
        'wild',
        '§23 Melds',
        "`(meldrules (rank KEY (V1, V2, …)) [(suit KEY)] [(ace low|high|both|around)] [(wild COND …)] [(size N)] [(distinct)])` is a constant value of type MeldRules: how the game's cards form melds. It is usually declared once, `(declare (meldrules …) 'MELDS)`, and given to the meld questions after `using`.",
    ),
}
