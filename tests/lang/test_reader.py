"""Unit tests of the surface layer, recycle/lang/reader.py: language spec §2 (lexical structure) and
the lexical and parenthesis diagnostics of §19.

Snippets with an expected diagnostic live in tests/fixtures/lex/*.rcy; each one starts with
header comments `;; expect: LINE:COL CLASS message-substring` (one per expected error, in
order), `;; warn: LINE:COL CLASS message-substring` (one per expected warning) or
`;; expect: ok`.
"""
from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recycle.errors import Diagnostic, LoadError
from recycle.lang.reader import read_sexprs
from recycle.lang.sexprs import Atom, SList
from recycle.lang.source import SourceFile
from recycle.lang.words import KEYWORDS
from support import CORPUS, CORPUS_SIZE, FIXTURES, corpus_files, corpus_id

LEX = FIXTURES / "lex"
FIXTURE_FILES = sorted(LEX.glob("*.rcy"))

# The four corpus files with one stray `)` after the game form (spec §2.7, Appendix B).
TRAILING_PAREN_FILES = {
    "cardstock/Scopa2.rcy",
    "cardstock/StealingBundles2.rcy",
    "cardstock/StealingBundles3.rcy",
    "cardstock/StealingBundles4.rcy",
}

# Spec §2.5, verbatim.
SPEC_KEYWORDS = ["game", "declare", "setup", "create", "players", "teams", "deck", "scoring", "min", "max", "stage", "player", "team", "end", "choice", "do", "any", "all", "let", "set", "inc", "dec", "move", "remember", "forget", "swap", "shuffle", "turn", "pass", "cycle", "next", "current", "previous", "repeat", "top", "bottom", "actual", "using", "owner", "other", "range", "union", "intersect", "disjunction", "filter", "sort", "partition", "subsets", "tuples", "runs", "run", "largest", "indexed", "size", "sum", "score", "scoremax", "scoremin", "pid", "tri", "fib", "random", "cardatt", "sto", "str", "points", "vloc", "iloc", "hloc", "oloc", "mem", "and", "or", "not"]
UNSUPPORTED = ["put", "initialize", "comp", "mod", "faro", "new"]


# -- helpers ------------------------------------------------------------------------------


def read(text: str, filename: str = "<test>"):
    """(forms, warnings) of a text."""
    return read_sexprs(SourceFile(text, filename))


def load_errors(src: str | SourceFile) -> list[Diagnostic]:
    """The diagnostics of the LoadError that reading must raise."""
    if isinstance(src, str):
        src = SourceFile(src, "<test>")
    with pytest.raises(LoadError) as info:
        read_sexprs(src)
    assert info.value.diagnostics, "a LoadError must carry at least one diagnostic"
    return info.value.diagnostics


def where(d: Diagnostic) -> tuple[int, int, str]:
    return (d.span.line, d.span.column, d.cls)


def flat(forms) -> list[str]:
    """The token sequence of forms: `(`, `)` and `KIND text` for every atom."""
    out: list[str] = []
    for x in forms:
        if isinstance(x, SList):
            out.append("(")
            out.extend(flat(x.items))
            out.append(")")
        else:
            out.append(f"{x.kind} {x.text}")
    return out


def plain(x):
    """An S-expression as nested tuples of (kind, text) pairs, without positions."""
    if isinstance(x, SList):
        return tuple(plain(i) for i in x.items)
    return (x.kind, x.text)


def check_positions(forms, src: SourceFile) -> int:
    """Assert every atom's span points at its text and every list's span at its `(`; count them."""
    n = 0
    stack = list(forms)
    while stack:
        x = stack.pop()
        line = src.line(x.span.line)
        assert line is not None, f"{x} has a line outside the file: {x.span}"
        at = line[x.span.column - 1 :]
        if isinstance(x, SList):
            assert at.startswith("("), f"form {x} at {x.span} does not start at a `(`: {at[:20]!r}"
            stack.extend(x.items)
        else:
            assert at.startswith(x.text), f"atom {x.text!r} at {x.span} points at {at[:20]!r}"
        n += 1
    return n


def offset_of(text: str, line: int, column: int) -> int:
    """The string index of a (line, column) position of a text (both from 1)."""
    lines = text.split("\n")
    return sum(len(s) + 1 for s in lines[: line - 1]) + column - 1


# -- glued tokens (spec §2.6) ---------------------------------------------------------------

GLUED = [
    ("(range 1..6)", ["(", "KEYWORD range", "INT 1", "DOTDOT ..", "INT 6", ")"]),
    ("(random 0..'ACECOUNT)", ["(", "KEYWORD random", "INT 0", "DOTDOT ..", "VAR 'ACECOUNT", ")"]),
    (
        "(SUIT: (game str TRUMP))",
        ["(", "NAME SUIT", "COLON :", "(", "KEYWORD game", "KEYWORD str", "NAME TRUMP", ")", ")"],
    ),
    (
        "(top((current player) iloc HAND))",
        ["(", "KEYWORD top", "(", "(", "KEYWORD current", "KEYWORD player", ")",
         "KEYWORD iloc", "NAME HAND", ")", ")"],
    ),
    ("((A)))", ["(", "(", "NAME A", ")", ")"]),  # the last `)` is a trailing-paren warning
    ("(THREE,FOUR)", ["(", "NAME THREE", "COMMA ,", "NAME FOUR", ")"]),
    ("(==(game sto A)1)", ["(", "OP ==", "(", "KEYWORD game", "KEYWORD sto", "NAME A", ")", "INT 1", ")"]),
    ("(<=1 2)", ["(", "OP <=", "INT 1", "INT 2", ")"]),
]


@pytest.mark.parametrize("text, tokens", GLUED, ids=[t for t, _ in GLUED])
def test_glued_tokens_split_as_spec_says(text, tokens):
    forms, _ = read(text)
    assert flat(forms) == tokens


def test_glued_tokens_have_their_own_columns():
    (form,), _ = read("(range 1..6)")
    assert [(a.text, a.span.line, a.span.column) for a in form.items] == [
        ("range", 1, 2), ("1", 1, 8), ("..", 1, 9), ("6", 1, 11)
    ]
    (form,), _ = read("(top((current player) iloc HAND))")
    inner = form.items[1]
    assert (inner.span.line, inner.span.column) == (1, 5)
    assert (inner.items[0].span.column, inner.items[0].items[0].span.column) == (6, 7)


def test_double_slash_is_an_operator_not_a_comment():
    forms, warnings = read("(// 7 2) //X")
    assert warnings == []
    assert flat(forms) == ["(", "OP //", "INT 7", "INT 2", ")", "OP //", "NAME X"]


@pytest.mark.parametrize("op", ["==", "!=", "<=", ">=", "<", ">", "+", "-", "*", "//", "%", "^"])
def test_every_operator_is_one_token(op):
    (form,), _ = read(f"({op} 1 2)")
    assert (form.items[0].kind, form.items[0].text) == ("OP", op)


# -- words (spec §2.4, §2.5) ----------------------------------------------------------------


@pytest.mark.parametrize(
    "word, kind, value",
    [
        ("HAND", "NAME", "HAND"),
        ("TWENTYFIVE", "NAME", "TWENTYFIVE"),
        ("'P", "VAR", "P"),
        ("'ACECOUNT", "VAR", "ACECOUNT"),
        ("0", "INT", 0),
        ("007", "INT", 7),
        ("400", "INT", 400),
        ("scoremax", "KEYWORD", "scoremax"),
    ],
)
def test_words_are_classified_as_a_whole(word, kind, value):
    (form,), _ = read(f"({word})")
    (atom,) = form.items
    assert (atom.kind, atom.value) == (kind, value)


def test_keyword_list_matches_the_spec():
    assert set(SPEC_KEYWORDS) <= KEYWORDS


@pytest.mark.parametrize("word", SPEC_KEYWORDS)
def test_every_spec_keyword_reads_as_a_keyword(word):
    (form,), warnings = read(f"({word})")
    assert warnings == []
    assert (form.items[0].kind, form.items[0].text) == ("KEYWORD", word)


@pytest.mark.parametrize("word", UNSUPPORTED)
def test_pre_05_words_are_unsupported_not_unknown(word):
    (d,) = load_errors(f"(game\n  ({word} X))")
    assert where(d) == (2, 4, "unsupported")
    assert d.severity == "error"


def test_two_words_separated_by_space_are_two_tokens():
    forms, _ = read("(TRICK PILE)")
    assert flat(forms) == ["(", "NAME TRICK", "NAME PILE", ")"]


# -- characters, whitespace, comments, BOM (spec §2.1, §2.2, §2.8) ----------------------------


def test_bom_is_ignored_and_not_counted_in_columns():
    (d,) = load_errors("\ufeff(A ;)")
    assert where(d) == (1, 4, "lexical")
    (form,), _ = read("\ufeff(game)")
    assert (form.span.column, form.items[0].span.column) == (1, 2)


def test_bom_in_a_file_is_ignored(tmp_path):
    path = tmp_path / "bom.rcy"
    path.write_bytes(b"\xef\xbb\xbf(A ;)")
    (d,) = load_errors(SourceFile.read(path))
    assert where(d) == (1, 4, "lexical")
    assert d.span.file == str(path)


def test_bom_anywhere_else_is_a_lexical_error():
    (d,) = load_errors("(A)\n \ufeff")
    assert where(d) == (2, 2, "lexical")
    assert "U+FEFF" in d.message


def test_a_tab_counts_one_column():
    (d,) = load_errors("\t\t;")
    assert where(d) == (1, 3, "lexical")
    (d,) = load_errors("(A\t\tLOC4)")
    assert where(d) == (1, 5, "lexical")
    (form,), _ = read("\t(game)")
    assert (form.span.column, form.items[0].span.column) == (2, 3)


def test_carriage_returns_are_whitespace():
    forms, _ = read("(game\r\n  (A)\r\n)\r\n")
    assert plain(forms[0]) == (("KEYWORD", "game"), (("NAME", "A"),))
    assert (forms[0].items[1].span.line, forms[0].items[1].span.column) == (2, 3)


@pytest.mark.parametrize(
    "text",
    ["(game) ;; the end", "(game)\n;; the end", "(game)\n;;", "(game) ;;; three ;;; semicolons"],
)
def test_comment_on_the_last_line_needs_no_newline(text):
    forms, warnings = read(text)
    assert [plain(f) for f in forms] == [(("KEYWORD", "game"),)]
    assert warnings == []


def test_anything_goes_inside_a_comment():
    text = "(game ;; ) ( ' é “quoted” ; . = ! / \t LOC4 Hand foo put\n)"
    forms, warnings = read(text)
    assert [plain(f) for f in forms] == [(("KEYWORD", "game"),)]
    assert warnings == []


@pytest.mark.parametrize(
    "ch", ["é", "♥", "\u00a0", "\x0c", "\x0b", "_", '"', "#", "@", "[", "{", "&", "|", "?", "$"]
)
def test_characters_outside_the_allowed_set_are_lexical_errors(ch):
    (d,) = load_errors(f"(A\n  B{ch}C)")
    assert where(d) == (2, 4, "lexical")


def test_all_lexical_errors_of_a_file_are_reported():
    errs = load_errors("(A ; B . C)\n(LOC4 Hand 'x)")
    assert [where(d) for d in errs] == [(1, 4, "lexical"), (1, 8, "lexical")]
    errs = load_errors("(LOC4 Hand 'x foo)")
    assert [where(d) for d in errs] == [(1, 2, "lexical"), (1, 7, "lexical"), (1, 12, "lexical"), (1, 15, "lexical")]


def test_error_carries_its_source_line_and_a_caret():
    (d,) = load_errors("(game\n  (A ; B))")
    assert d.source_line == "  (A ; B))"
    assert d.format().splitlines()[-2:] == ["      (A ; B))", " " * 9 + "^"]
    assert d.format().startswith("<test>:2:6: error[lexical]: ")


# -- empty files ----------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "   \n\t\r\n", ";; only a comment", ";; one\n;; two\n", "\ufeff"])
def test_empty_file_has_no_forms(text):
    assert read(text) == ([], [])


def test_empty_file_on_disk_has_no_forms(tmp_path):
    path = tmp_path / "empty.rcy"
    path.write_bytes(b"")
    assert read_sexprs(SourceFile.read(path)) == ([], [])


# -- bytes that are not RECYCLE text -------------------------------------------------------


def test_binary_junk_that_is_valid_utf8_is_lexical(tmp_path):
    path = tmp_path / "junk.rcy"
    path.write_bytes(b"\x00\x01(\x02)\x1b")
    errs = load_errors(SourceFile.read(path))
    assert [where(d) for d in errs] == [(1, 1, "lexical"), (1, 2, "lexical"), (1, 4, "lexical"), (1, 6, "lexical")]


def test_binary_junk_that_is_not_utf8_is_lexical(tmp_path):
    path = tmp_path / "image.rcy"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    (d,) = load_errors_from_path(path)
    assert where(d) == (1, 1, "lexical")
    assert "UTF-8" in d.message


@pytest.mark.parametrize(
    "data, line, column",
    [
        (b";; caf\xe9 au lait\n(game)", 1, 7),  # Latin-1 text, even inside a comment
        (b"(A)\n;; \xc3\xa9\xc3\xa9 \xff", 2, 7),  # columns count code points, not bytes
        (b"\xef\xbb\xbf(\xc3\xa9 \xe9)", 1, 4),  # and do not count the BOM
    ],
)
def test_non_utf8_bytes_are_lexical_at_their_position(tmp_path, data, line, column):
    path = tmp_path / "latin1.rcy"
    path.write_bytes(data)
    (d,) = load_errors_from_path(path)
    assert where(d) == (line, column, "lexical")


def load_errors_from_path(path: Path) -> list[Diagnostic]:
    """The diagnostics of the LoadError that reading a file must raise (reading or parsing)."""
    with pytest.raises(LoadError) as info:
        read_sexprs(SourceFile.read(path))
    return info.value.diagnostics


# -- parentheses (spec §2.7) ------------------------------------------------------------------


def test_unclosed_paren_is_reported_at_the_open_paren():
    d, *rest = load_errors("(game\n  (A)\n  (B)")
    assert where(d) == (1, 1, "syntax")
    assert "never closed" in d.message
    # the forms the file does close are checked too: (A) stands where (setup …) belongs
    assert [where(r) for r in rest] == [(2, 3, "syntax")] and "expected (setup" in rest[0].message


def test_unexpected_close_paren_before_anything_is_open():
    (d,) = load_errors("  )\n(game)")
    assert where(d) == (1, 3, "syntax")
    assert "unexpected `)`" in d.message


def test_unexpected_close_paren_in_the_middle():
    (d,) = load_errors("(game\n (A)))\n (B))")
    assert where(d) == (2, 6, "syntax")
    assert "unexpected `)`" in d.message


def test_stray_close_parens_after_the_game_are_one_warning_at_the_first():
    forms, warnings = read("(game (A))\n ) ;; comment )\n\n   )\n")
    assert [plain(f) for f in forms] == [(("KEYWORD", "game"), (("NAME", "A"),))]
    (w,) = warnings
    assert (w.severity, *where(w)) == ("warning", 2, 2, "trailing-paren")
    assert "2 stray" in w.message


def test_parens_inside_comments_do_not_count():
    forms, warnings = read("(game ;; ((((\n (A) ;; )))\n)")
    assert (len(forms), warnings) == (1, [])


# -- fixture files ----------------------------------------------------------------------------

EXPECT_LINE = re.compile(r";;\s*(expect|warn):\s*(.*?)\s*$")
EXPECT_BODY = re.compile(r"(\d+):(\d+)\s+([a-z-]+)\s+(.+)")


def fixture_expectations(path: Path) -> tuple[list, list]:
    """The (line, column, class, substring) errors and warnings declared in a fixture's header."""
    errors, warnings, ok = [], [], False
    for raw in path.read_bytes().decode("utf-8", errors="replace").split("\n"):
        if not raw.startswith(";;"):
            break
        m = EXPECT_LINE.match(raw)
        if not m:
            continue
        if m[2] == "ok":
            ok = True
            continue
        body = EXPECT_BODY.fullmatch(m[2])
        assert body, f"{path.name}: malformed header line {raw!r}"
        entry = (int(body[1]), int(body[2]), body[3], body[4])
        (errors if m[1] == "expect" else warnings).append(entry)
    assert ok or errors or warnings, f"{path.name}: no `;; expect:` or `;; warn:` header"
    assert not (ok and (errors or warnings)), f"{path.name}: `ok` with other expectations"
    return errors, warnings


def diagnostics_of(src: SourceFile) -> tuple[list[Diagnostic], list[Diagnostic]]:
    """(errors, warnings) of reading a source; errors is [] when it reads."""
    try:
        _, warnings = read_sexprs(src)
        return [], warnings
    except LoadError as e:
        return e.diagnostics, e.warnings


def test_fixture_folder_is_populated():
    assert len(FIXTURE_FILES) >= 20, f"expected the lexical fixtures in {LEX}"


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=[p.name for p in FIXTURE_FILES])
def test_lex_fixture(path: Path):
    want_errors, want_warnings = fixture_expectations(path)
    src = SourceFile.read(path)
    got_errors, got_warnings = diagnostics_of(src)
    for want, got, severity in ((want_errors, got_errors, "error"), (want_warnings, got_warnings, "warning")):
        assert [where(d) for d in got] == [w[:3] for w in want], [d.format() for d in got]
        for (_, _, _, sub), d in zip(want, got, strict=True):
            assert sub in d.message, f"{d.format()}\n  should mention {sub!r}"
            assert d.severity == severity
            assert d.span.file == str(path)
            assert d.source_line == src.line(d.span.line)
    if not want_errors:
        forms, _ = read_sexprs(src)
        assert len(forms) == 1 and forms[0].head == Atom("KEYWORD", "game", None)
        check_positions(forms, src)


def test_glued_fixture_reads_its_glued_tokens():
    (game,), _ = read_sexprs(SourceFile.read(LEX / "glued_tokens.rcy"))
    tokens = flat([game])
    for seq in (["INT 1", "DOTDOT ..", "INT 6"], ["INT 0", "DOTDOT ..", "VAR 'ACECOUNT"],
                ["NAME SUIT", "COLON :", "("], ["KEYWORD top", "(", "(", "KEYWORD current"], ["(", "OP //"]):
        assert any(tokens[i : i + len(seq)] == seq for i in range(len(tokens))), seq


# -- positions move with the text (the hy test) -----------------------------------------------

SHIFTS = [1, 3, 40]
SHIFTABLE = [p for p in FIXTURE_FILES if any(fixture_expectations(p))]


@pytest.mark.parametrize("n", SHIFTS)
@pytest.mark.parametrize("path", SHIFTABLE, ids=[p.name for p in SHIFTABLE])
def test_blank_lines_shift_fixture_diagnostics(path: Path, n: int):
    src = SourceFile.read(path)
    base_errors, base_warnings = diagnostics_of(src)
    moved_errors, moved_warnings = diagnostics_of(SourceFile("\n" * n + src.text, src.filename))
    base = base_errors + base_warnings
    moved = moved_errors + moved_warnings
    assert base, "the fixture must produce a diagnostic"
    assert [(d.span.line + n, d.span.column, d.cls, d.message) for d in base] == [
        (d.span.line, d.span.column, d.cls, d.message) for d in moved
    ]


@pytest.mark.needs_corpus
@pytest.mark.parametrize("n", SHIFTS)
def test_blank_lines_shift_corpus_warning(n: int):
    src = SourceFile.read(CORPUS / "cardstock" / "Scopa2.rcy")
    _, (w,) = read_sexprs(src)
    _, (moved,) = read_sexprs(SourceFile("\n" * n + src.text, src.filename))
    assert (moved.span.line, moved.span.column) == (w.span.line + n, w.span.column)
    assert moved.source_line == w.source_line == src.line(w.span.line)


@pytest.mark.needs_corpus
@pytest.mark.parametrize("n", SHIFTS)
@pytest.mark.parametrize("name", ["cardstock/GoFish2.rcy", "valet/Rummy2.rcy"])  # GoFish2 has a BOM
def test_blank_lines_shift_corpus_error(name: str, n: int):
    src = SourceFile.read(CORPUS / name)
    (game,), _ = read_sexprs(src)
    # A lone `;` glued before `(game`: a lexical error exactly where the game form starts.
    i = offset_of(src.text, game.span.line, game.span.column)
    broken = src.text[:i] + ";" + src.text[i:]
    (d,) = load_errors(SourceFile(broken, name))
    assert where(d) == (game.span.line, game.span.column, "lexical")
    (moved,) = load_errors(SourceFile("\n" * n + broken, name))
    assert where(moved) == (game.span.line + n, game.span.column, "lexical")


# -- the corpus -----------------------------------------------------------------------------


@pytest.mark.needs_corpus
def test_corpus_has_all_its_files():
    files = corpus_files()
    assert len(files) == CORPUS_SIZE
    assert sum(corpus_id(p).startswith("cardstock/") for p in files) == 96
    assert sum(corpus_id(p).startswith("valet/") for p in files) == 21


def test_corpus_file_reads_to_one_game_form(corpus_file: Path):
    src = SourceFile.read(corpus_file)
    forms, warnings = read_sexprs(src)
    assert len(forms) == 1, f"{len(forms)} top-level forms"
    (game,) = forms
    assert isinstance(game, SList) and isinstance(game.head, Atom)
    assert (game.head.kind, game.head.text) == ("KEYWORD", "game")
    if corpus_id(corpus_file) in TRAILING_PAREN_FILES:
        (w,) = warnings
        assert (w.severity, w.cls) == ("warning", "trailing-paren")
        assert "1 stray" in w.message
        assert src.line(w.span.line)[w.span.column - 1] == ")"
        assert (w.span.line, w.span.column) > (game.span.end_line, game.span.end_column - 1)
    else:
        assert warnings == []
    assert check_positions(forms, src) > 10


@pytest.mark.needs_corpus
def test_exactly_four_corpus_files_have_a_trailing_paren():
    with_warnings = {}
    for path in corpus_files():
        _, warnings = read_sexprs(SourceFile.read(path))
        if warnings:
            with_warnings[corpus_id(path)] = [d.cls for d in warnings]
    assert with_warnings == {name: ["trailing-paren"] for name in TRAILING_PAREN_FILES}


# -- property: any S-expression, written with any spacing, reads back ----------------------

_atoms = st.one_of(
    st.from_regex(r"[A-Z]{1,8}", fullmatch=True).map(lambda s: ("NAME", s)),
    st.from_regex(r"'[A-Z]{1,8}", fullmatch=True).map(lambda s: ("VAR", s)),
    st.from_regex(r"[0-9]{1,5}", fullmatch=True).map(lambda s: ("INT", s)),
    st.sampled_from(sorted(KEYWORDS)).map(lambda s: ("KEYWORD", s)),
    st.sampled_from(["==", "!=", "<=", ">=", "<", ">", "+", "-", "*", "//", "%", "^"]).map(lambda s: ("OP", s)),
    st.sampled_from([("COMMA", ","), ("COLON", ":"), ("DOTDOT", "..")]),
)
_trees = st.recursive(_atoms, lambda kids: st.lists(kids, max_size=5).map(tuple), max_leaves=40)
_forms = st.lists(st.lists(_trees, max_size=5).map(tuple), min_size=1, max_size=3)
_separators = st.lists(
    st.sampled_from([" ", "  ", "\t", "\n", "\r\n", " ;; a comment ( ' é\n", "\n\n;;\n"]), min_size=1, max_size=6
)


def _render(tree, seps) -> str:
    if tree and isinstance(tree[0], str):  # an atom (kind, text)
        return tree[1]
    out = ""
    for i, x in enumerate(tree):
        out += (next(seps) if i else "") + _render(x, seps)
    return "(" + out + ")"


@settings(max_examples=150, deadline=None)
@given(_forms, _separators)
def test_any_sexpression_reads_back_with_true_positions(forms, separators):
    seps = itertools.cycle(separators)
    text = "".join(next(seps) + _render(f, seps) for f in forms)
    src = SourceFile(text, "<hypothesis>")
    got, warnings = read_sexprs(src)
    assert warnings == []
    assert [plain(f) for f in got] == list(forms)
    check_positions(got, src)


def test_variable_glued_to_keyword_reads_as_two_words():
    (game,), (w,) = read_sexprs(SourceFile("(game ('OPvloc LOC))", "g.gdl"))
    loc = game[1]
    assert [(a.kind, a.text) for a in loc.items] == [("VAR", "'OP"), ("KEYWORD", "vloc"), ("NAME", "LOC")]
    assert (loc[0].span.column, loc[1].span.column) == (8, 11)
    assert w.cls == "glued" and "('OP vloc)" in w.message
