"""Tests of the typed pass, recycle/lang/check/: every form of Appendix A becomes the expected AST
node, every load-time error of §19.3 is reported with a helpful message at the innermost
offending form, and the whole corpus loads and survives a print/parse round trip.

Fixtures:

* tests/fixtures/ast/*.txt — snippets and their expected AST (format: tests/fixtures/ast/README.txt);
* tests/fixtures/errors/*.gdl — bad game files, each starting with one or more header lines
  `;; expect: LINE:COL CLASS message-substring` (one per error, in report order).
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recycle.errors import Diagnostic, LoadError
from recycle.lang import ast as A
from recycle.lang import load_game, parse_game
from recycle.lang.lint import CLASSES as LINT_CLASSES
from recycle.lang.printer import to_source
from recycle.lang.sexprs import Atom, SList
from support import TESTS, corpus_files, corpus_id
from support.mutation import mutate

HERE = TESTS
AST_DIR = HERE / "fixtures" / "ast"
ERR_DIR = HERE / "fixtures" / "errors"

# The expected-AST texts are evaluated in a namespace of the AST's own names.
AST_NAMESPACE = {k: v for k, v in vars(A).items() if not k.startswith("_")} | {"SList": SList, "Atom": Atom}

SETUP = "(setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (A, B)))))"
PASS = "(do ((turn pass)))"


# -- AST fixtures -----------------------------------------------------------------------------

# context -> (clause template, how to dig the node out of the clause)
CLAUSE_CONTEXTS = {
    "int": ("(set (game sto OUT) {})", lambda n: n.value),
    "str": ("(set (game str OUT) {})", lambda n: n.value),
    "bool": ("({} (turn pass))", lambda n: n.cond),
    "card": ("(set (game str OUT) (cardatt RANK {}))", lambda n: n.value.card),
    "pile": ("(set (game sto X) (size {}))", lambda n: n.value.coll),
    "coll": ("(set (game sto OUT) (size {}))", lambda n: n.value.coll),
    "player": ("(set (game sto OUT) (pid {}))", lambda n: n.value.player),
    "owner": ("(inc ({} sto OUT))", lambda n: n.target.owner),
    "dest": ("(move (top (game iloc STOCK)) {})", lambda n: n.dest),
    "clause": ("{}", lambda n: n),
    "choice": ("{}", lambda n: n),
}


@attrs.frozen
class AstCase:
    file: str
    line: int
    name: str
    ctx: str
    lets: tuple  # ((var, value text), ...)
    src: str
    expected: str
    defs: tuple = ()  # (define …) forms the wrapper game holds

    @property
    def id(self) -> str:
        return f"{self.file}:{self.line}:{self.name}"


def read_ast_cases(path: Path) -> list[AstCase]:
    """Parse one fixture file of `=== name / ctx: / let: / src: / ast:` cases."""
    cases = []
    lines = path.read_text("utf-8").split("\n")
    i = 0
    while i < len(lines):
        if not lines[i].startswith("=== "):
            i += 1
            continue
        start, name = i + 1, lines[i][4:].strip()
        i += 1
        ctx, lets, defs, src, expected, section = None, [], [], [], [], None
        while i < len(lines) and not lines[i].startswith("=== "):
            ln = lines[i]
            i += 1
            if section == "src" and ln.strip() != "ast:":
                src.append(ln)
                continue
            if ln.startswith("#") or (not ln.strip() and section != "src"):
                continue
            if section == "ast":
                expected.append(ln)
            elif ln.startswith("ctx:"):
                ctx = ln[4:].strip()
            elif ln.startswith("def:"):
                defs.append(ln[4:].strip())
            elif ln.startswith("let:"):
                m = re.fullmatch(r"let:\s*'([A-Z]+)\s+(.+)", ln.strip())
                assert m, f"{path.name}:{i}: bad let line {ln!r}"
                lets.append((m.group(1), m.group(2)))
            elif ln.strip() == "src:":
                section = "src"
            elif ln.strip() == "ast:":
                section = "ast"
            else:
                raise AssertionError(f"{path.name}:{i}: unexpected line {ln!r}")
        assert ctx and src and expected, f"{path.name}:{start}: incomplete case {name!r}"
        cases.append(AstCase(path.name, start, name, ctx, tuple(lets), "\n".join(src).strip(), "\n".join(expected),
                             tuple(defs)))
    return cases


AST_CASES = [c for p in sorted(AST_DIR.glob("*.txt")) for c in read_ast_cases(p)]


def build_in_context(ctx: str, snippet: str, lets=(), defs=()) -> object:
    """Wrap a snippet in a minimal game for its context (with the given definitions), parse it and dig out its node."""
    head = " ".join(defs)
    if ctx in CLAUSE_CONTEXTS:
        template, dig = CLAUSE_CONTEXTS[ctx]
        clause = template.format(snippet)
        for var, value in reversed(lets):
            clause = f"(let {value} '{var} {clause})"
        item = f"(choice ({clause}))" if ctx == "choice" else f"(do ({clause}))"
        game = parse_game(f"(game {head} {SETUP}\n{item}\n(scoring max 0))")
        node = game.items[0].clauses[0]
        for _ in lets:
            assert isinstance(node, A.Let)
            node = node.body
        return dig(node)
    assert not lets, f"let: is only available in expression and clause contexts, not {ctx}"
    if ctx == "item":
        return parse_game(f"(game {head} {SETUP}\n{snippet}\n(scoring max 0))").items[0]
    if ctx == "setup":
        return parse_game(f"(game {snippet}\n{PASS} (scoring max 0))").setup
    if ctx == "declare":
        return parse_game(f"(game {snippet}\n{SETUP} {PASS} (scoring max 0))").declares
    if ctx == "scoring":
        return parse_game(f"(game {SETUP} {PASS}\n{snippet})").scoring
    if ctx == "game":
        return parse_game(snippet)
    raise AssertionError(f"unknown context {ctx!r}")


def test_ast_fixtures_are_present():
    assert len(AST_CASES) >= 150
    contexts = {c.ctx for c in AST_CASES}
    assert contexts == set(CLAUSE_CONTEXTS) | {"item", "setup", "declare", "scoring", "game"}


@pytest.mark.parametrize("case", AST_CASES, ids=[c.id for c in AST_CASES])
def test_ast(case: AstCase):
    expected = eval(case.expected, dict(AST_NAMESPACE))  # our own fixture text, not user input
    try:
        got = build_in_context(case.ctx, case.src, case.lets, case.defs)
    except LoadError as e:
        pytest.fail(f"{case.id}: the snippet does not load:\n{e.format()}")
    assert got == expected, f"{case.id}\n got:      {got!r}\n expected: {expected!r}"


def _node_types(node, seen: set) -> None:
    if isinstance(node, tuple):
        for x in node:
            _node_types(x, seen)
        return
    if not isinstance(node, A.Node):
        return
    seen.add(type(node))
    for f in attrs.fields(type(node)):
        _node_types(getattr(node, f.name), seen)


def test_ast_fixtures_cover_every_node_type():
    """Every concrete node class of recycle.ast appears in some expected AST."""
    seen: set = set()
    for case in AST_CASES:
        _node_types(eval(case.expected, dict(AST_NAMESPACE)), seen)
    abstract = {A.Node, A.Expr, A.Action}
    every = {v for v in vars(A).values() if isinstance(v, type) and issubclass(v, A.Node)} - abstract
    assert every - seen == set()


def test_ast_fixture_snippets_round_trip():
    """Printing a fixture's node and reading it back in the same context gives the node again."""
    for case in AST_CASES:
        node = build_in_context(case.ctx, case.src, case.lets, case.defs)
        text = "\n".join(to_source(d) for d in node) if case.ctx == "declare" else to_source(node)
        assert build_in_context(case.ctx, text, case.lets, case.defs) == node, case.id


# -- error fixtures ---------------------------------------------------------------------------

EXPECT = re.compile(r";; expect: (\d+):(\d+) (\S+) (.+)")
EXPECT_WARNING = re.compile(r";; expect-warning: (\d+):(\d+) (\S+) (.+)")
# A fixture whose header is `;; expect-warning:` lines loads, with exactly those warnings.
WARNING_FILES = sorted(p for p in ERR_DIR.glob("*.gdl") if p.read_bytes().startswith(b";; expect-warning:"))
ERROR_FILES = sorted(p for p in ERR_DIR.glob("*.gdl") if p not in WARNING_FILES)


def expectations(path: Path) -> list[tuple[int, int, str, str]]:
    """The `;; expect:` header lines of an error fixture, in order."""
    out = []
    for line in path.read_bytes().decode("utf-8", "replace").split("\n"):
        m = EXPECT.fullmatch(line.rstrip())
        if not m:
            break
        out.append((int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)))
    return out


def load_errors(path: Path) -> list[Diagnostic]:
    with pytest.raises(LoadError) as info:
        load_game(path)
    assert info.value.diagnostics, "a LoadError must carry at least one diagnostic"
    return info.value.diagnostics


def test_error_fixtures_are_present():
    assert len(ERROR_FILES) >= 30
    for p in ERROR_FILES:
        assert expectations(p), f"{p.name}: the first line must be `;; expect: LINE:COL CLASS message`"


def warning_expectations(path: Path) -> list[tuple[int, int, str, str]]:
    """The `;; expect-warning:` header lines of a warning fixture, in order."""
    out = []
    for line in path.read_text("utf-8").split("\n"):
        m = EXPECT_WARNING.fullmatch(line.rstrip())
        if not m:
            break
        out.append((int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)))
    return out


def test_warning_fixtures_are_present():
    assert len(WARNING_FILES) >= 4


@pytest.mark.parametrize("path", WARNING_FILES, ids=[p.stem for p in WARNING_FILES])
def test_warning_fixture(path: Path):
    got = [(d.span.line, d.span.column, d.cls, d.message) for d in load_game(path).warnings]
    want = warning_expectations(path)
    assert len(got) == len(want), f"{path.name}: expected {len(want)} warning(s), got:\n" + "\n".join(map(str, got))
    for (gl, gc, gcls, gmsg), (wl, wc, wcls, wsub) in zip(got, want, strict=True):
        assert (gl, gc, gcls) == (wl, wc, wcls), f"{path.name}: got {gl}:{gc} {gcls}: {gmsg}"
        assert wsub in gmsg, f"{path.name}: message {gmsg!r} lacks {wsub!r}"


@pytest.mark.parametrize("path", ERROR_FILES, ids=[p.stem for p in ERROR_FILES])
def test_error_fixture(path: Path):
    diags = load_errors(path)
    got = [(d.span.line, d.span.column, d.cls, d.message) for d in diags]
    want = expectations(path)
    assert len(got) == len(want), f"{path.name}: expected {len(want)} error(s), got:\n" + "\n".join(map(str, got))
    for (gl, gc, gcls, gmsg), (wl, wc, wcls, wsub) in zip(got, want, strict=True):
        assert (gl, gc, gcls) == (wl, wc, wcls), f"{path.name}: got {gl}:{gc} {gcls}: {gmsg}"
        assert wsub in gmsg, f"{path.name}: message {gmsg!r} lacks {wsub!r}"
    for d in diags:
        assert d.severity == "error"
        assert d.span.file == str(path)
        formatted = d.format()
        assert formatted.startswith(f"{path}:{d.span.line}:{d.span.column}: error[{d.cls}]: ")
        # RECYCLE terms, not Python internals (enum reprs, class names, tracebacks)
        assert not re.search(r"Traceback|<recycle\.|\b(T|Visibility)\.[A-Z]+|\bNone\b", formatted), formatted


def test_all_errors_of_a_file_are_reported():
    """Three independent mistakes give three diagnostics, in file order (spec §19.1)."""
    text = f"""(game
 {SETUP}
 (do ((set (game sto X) 'UNBOUND)))
 (do (((< (game str X) 3) (turn pass))))
 (do ((move (top (game iloc STOCK)) (top ((current team) vloc TRICK)))))
 (scoring max 0))"""
    with pytest.raises(LoadError) as info:
        parse_game(text)
    diags = info.value.diagnostics
    assert [(d.span.line, d.cls) for d in diags] == [(3, "scope"), (4, "type"), (5, "type")]
    assert "(and 2 more)" in str(info.value)


def test_errors_in_setup_declares_and_items_are_all_reported():
    text = """(game
 (declare (size (game vloc X)) 'N)
 (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (A, B)))))
 (shuffle (game iloc STOCK))
 (do ((cycle next (current team))))
 (scoring max (game str S)))"""
    with pytest.raises(LoadError) as info:
        parse_game(text)
    assert [(d.span.line, d.cls) for d in info.value.diagnostics] == [
        (2, "type"), (4, "placement"), (5, "type"), (6, "type")]


@pytest.mark.parametrize("text", ["", " \n\t\n", ";; only a comment", "\ufeff"], ids=["empty", "blank", "comment", "bom"])
def test_empty_text_is_one_syntax_error(text):
    with pytest.raises(LoadError) as info:
        parse_game(text)
    [d] = info.value.diagnostics
    assert (d.cls, d.span.line, d.span.column) == ("syntax", 1, 1)
    assert "no game" in d.message


@pytest.mark.parametrize("prefix", ["\n", "\n" * 7, "\r\n" * 3, ";; a comment\n\n"], ids=["1", "7", "crlf", "comment"])
def test_prepended_lines_move_the_reported_line(prefix):
    """A type error's line moves with the text above it; its column does not (spec §2.8)."""
    base = (ERR_DIR / "lt_on_string.gdl").read_text("utf-8")
    [d0] = load_errors(ERR_DIR / "lt_on_string.gdl")
    with pytest.raises(LoadError) as info:
        parse_game(prefix + base, "shifted.gdl")
    [d1] = info.value.diagnostics
    assert d1.span.line == d0.span.line + prefix.count("\n")
    assert d1.span.column == d0.span.column
    assert (d1.cls, d1.message) == (d0.cls, d0.message)
    assert d1.source_line.strip().startswith("(do (((< (game str X) 3)")


def test_prepended_spaces_move_the_column():
    text = f"(game {SETUP} (do (((< (game str X) 3) (turn pass)))) (scoring max 0))"
    cols = []
    for pad in ("", "   ", "\t"):
        with pytest.raises(LoadError) as info:
            parse_game(pad + text)
        cols.append(info.value.diagnostics[0].span.column)
    assert cols[1] == cols[0] + 3 and cols[2] == cols[0] + 1  # a tab counts as one column


def test_warnings_are_kept_with_errors():
    """A file with a stray `)` and a type error reports the error and keeps the warning."""
    text = f"(game {SETUP} (do (((< (game str X) 3) (turn pass)))) (scoring max 0)))"
    with pytest.raises(LoadError) as info:
        parse_game(text)
    assert [d.cls for d in info.value.diagnostics] == ["type"]
    assert [w.cls for w in info.value.warnings] == ["trailing-paren"]


def test_load_game_file_problems(tmp_path):
    for path, words in ((tmp_path / "missing.gdl", "no such file"), (tmp_path, "directory")):
        with pytest.raises(LoadError) as info:
            load_game(path)
        [d] = info.value.diagnostics
        assert words in d.message and d.span.file == str(path)


# -- parameters (declare overrides) -----------------------------------------------------------


def test_overridden_player_count_is_checked_like_a_literal():
    text = f"(game (declare 2 'NUMP) (setup (create players 'NUMP) (create teams (0) (1))" \
           f" (create deck (game iloc STOCK) (deck (RANK (A))))) {PASS} (scoring max 0))"
    assert parse_game(text, params={"NUMP": 3}).declares[0].var == "NUMP"
    with pytest.raises(LoadError) as info:
        parse_game(text, params={"NUMP": 0})
    assert [d.cls for d in info.value.diagnostics] == ["setup"]
    with pytest.raises(LoadError) as info:
        parse_game(text, params={"NUMP": 1})  # team 1 is no player: neither 0- nor 1-based
    assert [d.cls for d in info.value.diagnostics] == ["setup"]


# -- corpus -----------------------------------------------------------------------------------

BAD_CORPUS_FILE = "cardstock/ContinuousPairs4.rcy"
TEAMS_ONE_BASED = {f"valet/{n}4.rcy" for n in ("Euchre", "Klaverjassen", "Pitch", "Sueca", "Whist")}
TRAILING_PAREN = {"cardstock/Scopa2.rcy"} | {f"cardstock/StealingBundles{n}.rcy" for n in (2, 3, 4)}
# The probable-mistake warnings of recycle/lang/lint.py the corpus draws, by class; each was looked at
# and is true: e.g. Scarto3's point map names EVIL where its deck says DEVIL, SaneEights4 compares
# a RANK with A where its deck says ACE, the Cheeseheads games add up OPPOSITION and never read it.
CORPUS_LINT = {
    "cardstock/CalamitiesContinuousPairs4.rcy": {"unread": 1},
    "cardstock/CheeseheadPickerBury5.rcy": {"unread": 3},
    "cardstock/Cheeseheads5.rcy": {"unread": 1},
    "cardstock/CheeseheadsLeaster5.rcy": {"unread": 1},
    "cardstock/CheeseheadsPicker5.rcy": {"unread": 3},
    "cardstock/Coloretto4.rcy": {"unread": 1},
    "cardstock/Cribbage2.rcy": {"unread": 1},
    "cardstock/Klaverjassen4.rcy": {"unread": 1},
    "cardstock/Poker5.rcy": {"unread": 1},
    "cardstock/Rummy2.rcy": {"unread": 1, "unwritten": 1},
    "cardstock/SaneEights4.rcy": {"undeclared": 1},
    "cardstock/SheepsheadPicker5.rcy": {"unread": 3},
    "cardstock/Skittgube3.rcy": {"unread": 1, "unwritten": 1},
    "cardstock/Test-Subset2.gdl": {"unread": 1},
    "valet/Blackjack1.rcy": {"unread": 1},
    "valet/Scarto3.rcy": {"undeclared": 1},
}

_loaded: dict = {}


def corpus_load(path: Path):
    """load_game(path), or the LoadError it raises; cached across the corpus tests."""
    if path not in _loaded:
        try:
            _loaded[path] = load_game(path)
        except LoadError as e:
            _loaded[path] = e
    return _loaded[path]


def test_corpus_loads(corpus_file: Path):
    result = corpus_load(corpus_file)
    if corpus_id(corpus_file) == BAD_CORPUS_FILE:
        assert isinstance(result, LoadError), "ContinuousPairs4 uses (top 'PAIRS) as a card: a type error"
        [d] = result.diagnostics
        assert (d.cls, d.span.line, d.span.column) == ("type", 108, 34)
        assert "'PAIRS" in d.message and "collection of piles" in d.message and "bound at 105:85" in d.message
        return
    assert not isinstance(result, LoadError), result.format()
    expected = []
    if corpus_id(corpus_file) in TEAMS_ONE_BASED:
        expected.append("teams-one-based")
    if corpus_id(corpus_file) in TRAILING_PAREN:
        expected.append("trailing-paren")
    assert [w.cls for w in result.warnings if w.cls not in LINT_CLASSES] == expected
    lint = Counter(w.cls for w in result.warnings if w.cls in LINT_CLASSES)
    assert lint == CORPUS_LINT.get(corpus_id(corpus_file), {}), [w.format() for w in result.warnings]
    for w in result.warnings:
        assert w.severity == "warning" and w.span.line >= 1 and w.span.column >= 1


def test_corpus_warning_positions(needs_corpus):
    """The teams warning names (create teams …); the stray-paren warning names the first `)`."""
    for name in sorted(TEAMS_ONE_BASED | TRAILING_PAREN):
        loaded = corpus_load(needs_corpus / name)
        [w] = loaded.warnings
        line = loaded.text.split("\n")[w.span.line - 1]
        rest = line[w.span.column - 1:]
        if w.cls == "teams-one-based":
            assert rest.startswith("(create teams"), (name, rest)
        else:
            assert rest.startswith(")"), (name, rest)
            after = "\n".join([rest[1:], *loaded.text.split("\n")[w.span.line:]])
            assert set(re.sub(r";;[^\n]*", "", after)) <= set(") \t\r\n"), name


def test_corpus_round_trip(corpus_file: Path):
    """parse(print(ast)) == ast, and printing is idempotent."""
    result = corpus_load(corpus_file)
    if isinstance(result, LoadError):
        pytest.skip("does not load (checked by test_corpus_loads)")
    text = to_source(result.game)
    again = parse_game(text, f"printed:{corpus_id(corpus_file)}")
    assert again == result.game
    assert to_source(again) == text
    assert text.endswith("\n") and not text.endswith("\n\n")


# -- robustness: mutated corpus files ---------------------------------------------------------

TOKEN = re.compile(r"\(|\)|'?[A-Za-z0-9]+|\.\.|==|!=|<=|>=|//|\S")
ALPHABET = ["(", ")", "'X", "'P", "top", "12", "0", "..", ",", ":", "game", "all", "any", "move",
            "choice", "do", "player", "team", "vloc", "HAND", "using", "sto", "()", "==", "-",
            "#", "é", ";", '"', "\x00", ".", "=", "Hand", "LOC4", "mod", "put", "'x", "\ufeff"]
_MUTATION_SOURCES = corpus_files()


def tokens_of(text: str) -> list[str]:
    return TOKEN.findall(re.sub(r";;[^\n]*", " ", text))


mutation = st.one_of(
    st.tuples(st.just("delete"), st.integers(0, 10**6)),
    st.tuples(st.just("insert"), st.integers(0, 10**6), st.sampled_from(ALPHABET)),
    st.tuples(st.just("swap"), st.integers(0, 10**6), st.integers(0, 10**6)),
    st.tuples(st.just("truncate"), st.integers(0, 10**6)),
)


@pytest.mark.skipif(not _MUTATION_SOURCES, reason="needs the corpus")
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(source=st.sampled_from(_MUTATION_SOURCES or [Path("none")]), ops=st.lists(mutation, min_size=1, max_size=4),
       sep=st.sampled_from([" ", "\n"]))
def test_mutated_corpus_files_fail_cleanly(source: Path, ops, sep: str):
    """A damaged game either loads or raises LoadError with positioned diagnostics — never
    another exception (a crash would be a bug of the loader, not a game outcome)."""
    text = sep.join(mutate(tokens_of(source.read_text("utf-8-sig")), ops))
    try:
        parse_game(text, "mutated.rcy")
    except LoadError as e:
        assert e.diagnostics
        for d in e.diagnostics:
            assert d.severity == "error" and d.span.line >= 1 and d.span.column >= 1, d
            d.format()


def test_unmutated_tokens_still_load(needs_corpus):
    """The rough tokeniser of the mutation test keeps a file meaningful when nothing is mutated."""
    src = needs_corpus / "valet" / "Agram3.rcy"
    assert parse_game(" ".join(tokens_of(src.read_text("utf-8-sig")))) == load_game(src).game
