"""Layer one of loading: game text -> S-expressions (lists and atoms) with positions.

Lark reads the surface grammar in grammars/recycle.lark: its lexer makes the tokens.  Before the
forms are built, the token stream is checked for balanced parentheses so that a missing
`)` is reported at the `(` left open, and stray `)` after the game become a
warning (language spec §2.7).  The grammar's only rule is a list of atoms, so the forms of a
balanced stream are built with a stack, as the grammar's LALR parser would build them but
without its parse tree (tests/lang/test_reader_forms.py compares the two on every game).
"""
from __future__ import annotations

import difflib
import functools
import re
from importlib import resources
from pathlib import Path

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters

from ..errors import Diagnostic, InternalError, LoadError, Span
from .check import check_game, judge_trial
from .check.definitions import MAX_EXPANDED_FORMS
from .consts import MAX_CONST_ELEMENTS
from .decks import MAX_DESCRIBED_CARDS
from .sexprs import MAX_DEPTH, Atom, SList
from .source import SourceFile
from .values import MAX_INT_DIGITS
from .words import EXTENSION_KEYWORDS, KEYWORDS, UNSUPPORTED_WORDS

MAX_LEXICAL_ERRORS = 20  # reading stops after this many (docs/limits.md)


@functools.lru_cache(maxsize=1)
def grammar_text() -> str:
    """The Lark grammar, from the installed package or the source tree."""
    try:
        return resources.files("recycle.grammars").joinpath("recycle.lark").read_text("utf-8")
    except (ModuleNotFoundError, FileNotFoundError, OSError):
        here = Path(__file__).resolve().parent.parent.parent / "grammars" / "recycle.lark"
        return here.read_text("utf-8")


@functools.lru_cache(maxsize=1)
def grammar() -> Lark:
    """The surface grammar: its lexer reads every file; its LALR parser is the statement the forms are
    built to (the tests' oracle)."""
    return Lark(grammar_text(), parser="lalr", propagate_positions=True, maybe_placeholders=False)

_WORD_OK = {
    "NAME": re.compile(r"[A-Z]+\Z"),
    "VAR": re.compile(r"'[A-Z]+\Z"),
    "INT": re.compile(r"[0-9]+\Z"),
}


def _lexical_message(ch: str) -> str:
    if ch == ";":
        return "a single `;` is not allowed: comments start with `;;`"
    if ch == ".":
        return "a single `.` is not allowed: ranges are written A..B"
    if ch in "=!/":
        return f"`{ch}` alone is not an operator (did you mean `==`, `!=` or `//`?)"
    if ch == "'":
        return "`'` must be followed by an uppercase variable name, e.g. 'P"
    if ch == '"':
        return ("quoted text must close on the same line; RECYCLE quotes only the base game of "
                "(extends \"…\"): names are bare uppercase words")
    if not ch.isascii():
        return f"character {ch!r} (U+{ord(ch):04X}) is not allowed outside comments"
    return f"character {ch!r} is not allowed outside comments"


def _at(src: SourceFile, tok: Token) -> Span:
    """The span of a token's first character."""
    # Token types its positions Optional; the lexer sets them on every token it makes.
    assert tok.line is not None and tok.column is not None
    return src.span(tok.line, tok.column)


def _classify(tok: Token, src: SourceFile, errors: list) -> Atom:
    line, column, end_line, end_column = tok.line, tok.column, tok.end_line, tok.end_column
    assert line is not None and column is not None and end_line is not None and end_column is not None  # as in _at
    span = src.span(line, column, end_line, end_column)
    text = str(tok)
    t = tok.type
    if t != "WORD":
        return Atom(t, text, span)
    for kind, rx in _WORD_OK.items():
        if rx.match(text):
            digits = len(text.lstrip("0"))
            if kind == "INT" and digits > MAX_INT_DIGITS:
                errors.append(src.diag("error", "limit", f"this integer has {digits:,} digits, more than "
                                       f"{MAX_INT_DIGITS}, the integer limit (MAX_INT_DIGITS, fixed; docs/limits.md)",
                                       span))
                return Atom(kind, "0", span)
            return Atom(kind, text, span)
    if text.islower() and text.isalpha():
        if text in KEYWORDS or text in EXTENSION_KEYWORDS:
            return Atom("KEYWORD", text, span)
        if text in UNSUPPORTED_WORDS:
            errors.append(src.diag("error", "unsupported", UNSUPPORTED_WORDS[text], span))
        else:
            hint = f" (names are uppercase: {text.upper()})" if len(text) > 1 else ""
            close = difflib.get_close_matches(text, sorted(KEYWORDS | EXTENSION_KEYWORDS), n=1, cutoff=0.8)
            if close:
                hint = f" (did you mean `{close[0]}`?)"
            errors.append(src.diag("error", "lexical", f"unknown keyword `{text}`{hint}", span))
        return Atom("KEYWORD", text, span)
    body = text[1:] if text.startswith("'") else text
    if text.startswith("'"):
        why = f"malformed variable `{text}`: a variable is ' followed by uppercase letters only"
    elif any(c.isdigit() for c in body) and any(c.isalpha() for c in body):
        why = f"malformed word `{text}`: names cannot mix letters and digits (write e.g. (game vloc LOC 4))"
    else:
        why = f"malformed word `{text}`: names are all uppercase, keywords all lowercase"
    errors.append(src.diag("error", "lexical", why, span))
    return Atom("NAME", text, span)


def tokenize(src: SourceFile) -> list[Token]:
    """All tokens of the file (Lark's lexer); a character that cannot start a token is a lexical error."""
    toks: list[Token] = []
    errors: list[Diagnostic] = []
    text = src.text
    pos = 0
    lexer = grammar()
    while True:
        try:
            for tok in lexer.lex(text if pos == 0 else _blank_prefix(text, pos)):
                toks.append(tok)
            break
        except UnexpectedCharacters as e:
            span = src.span(e.line, e.column)
            bad = e.pos_in_stream
            assert bad is not None  # Optional in UnexpectedInput; the lexer's error always has it
            ch = text[bad] if bad < len(text) else "?"
            errors.append(src.diag("error", "lexical", _lexical_message(ch), span))
            if len(errors) >= MAX_LEXICAL_ERRORS:
                break
            # Resume after the bad character, keeping positions by blanking
            # the text before it (lines and columns stay true).
            pos = bad + 1
            toks = [t for t in toks if t.start_pos is not None and t.start_pos < bad]
    if errors:
        raise LoadError(errors)
    return toks


def _blank_prefix(text: str, pos: int) -> str:
    return re.sub(r"[^\n]", " ", text[:pos]) + text[pos:]


_GLUED = re.compile(r"('[A-Z]+)([a-z]+)\Z")


def _unglue(toks: list[Token], src: SourceFile, warnings: list[Diagnostic]) -> list[Token]:
    """A variable glued to a keyword, as in ('OPvloc LOC), read as CardStock's lexer reads it: two
    tokens ('OP and vloc), with a warning that shows the space to add."""
    out: list[Token] = []
    for tok in toks:
        m = _GLUED.match(str(tok)) if tok.type == "WORD" else None
        if m is None or not (m[2] in KEYWORDS or m[2] in EXTENSION_KEYWORDS):
            out.append(tok)
            continue
        var, word = m[1], m[2]
        assert tok.start_pos is not None and tok.line is not None and tok.column is not None
        cut = len(var)
        out.append(Token("WORD", var, tok.start_pos, tok.line, tok.column, tok.line, tok.column + cut,
                         tok.start_pos + cut))
        out.append(Token("WORD", word, tok.start_pos + cut, tok.line, tok.column + cut, tok.end_line,
                         tok.end_column, tok.end_pos))
        warnings.append(src.diag("warning", "glued", f"`{tok}` is read as two words, {var} {word}: write a space "
                                 f"between them ({var} {word})", _at(src, tok)))
    return out


def read_sexprs(src: SourceFile) -> tuple[list, list[Diagnostic]]:
    """Parse the file into top-level S-expressions; returns (forms, warnings)."""
    toks = tokenize(src)
    warnings: list[Diagnostic] = []
    errors: list[Diagnostic] = []
    toks = _unglue(toks, src, warnings)
    # Balance check on the token stream, so that a missing `)` is reported at
    # the `(` it leaves open and a stray `)` at the `)` itself.
    stack: list[Token] = []
    cut = None
    closed_top = 0
    for i, tok in enumerate(toks):
        if tok.type == "LPAR":
            stack.append(tok)
            if len(stack) > MAX_DEPTH:
                errors.append(src.diag("error", "limit", f"forms nest more than {MAX_DEPTH} parentheses deep here, "
                                       "the nesting limit (MAX_DEPTH, fixed; docs/limits.md)", _at(src, tok)))
                raise LoadError(errors, warnings)
        elif tok.type == "RPAR":
            if stack:
                stack.pop()
                if not stack:
                    closed_top += 1
            else:
                rest = toks[i:]
                if closed_top and all(t.type == "RPAR" for t in rest):
                    warnings.append(
                        src.diag(
                            "warning",
                            "trailing-paren",
                            f"{len(rest)} stray `)` after the game form, ignored",
                            _at(src, tok),
                        )
                    )
                    cut = i
                else:
                    errors.append(
                        src.diag("error", "syntax", "unexpected `)`: no `(` is open here", _at(src, tok))
                    )
                break
    if stack:
        open_tok = stack[-1]
        guess = likeliest_unclosed(toks, src) if len(stack) == 1 else None
        unfinished = guess is None or toks[guess] is open_tok
        if guess is None or unfinished:
            message = "this `(` is never closed" + (f" ({len(stack)} `(` left open in all)" if len(stack) > 1 else "")
        else:
            open_tok = toks[guess]
            message = ("a `)` is missing in this form: judging by where a `)` makes the game check and by "
                       "indentation, this `(` is the one never closed (counting alone would blame the outermost form)")
        errors.append(src.diag("error", "syntax", message, _at(src, open_tok)))
        if unfinished and not errors[:-1]:
            errors.extend(_errors_of_complete_forms(toks, src))
            errors.sort(key=lambda d: (d.span.line, d.span.column))
    if errors:
        raise LoadError(errors, warnings)
    if cut is not None:
        toks = toks[:cut]
    forms, errs = _build(toks, src)
    if errs:
        raise LoadError(errs, warnings)
    return forms, warnings


def _build(toks: list[Token], src: SourceFile) -> tuple[list, list[Diagnostic]]:
    """Turn the checked tokens into SLists and Atoms.

    The surface grammar (grammars/recycle.lark) is only lists of atoms, and the tokens are known to
    balance, so a stack of open lists builds exactly the forms Lark's parser would, in one pass
    without a parse tree: on a megabyte of small forms the LALR parse and its tree took three
    quarters of `recycle check`."""
    errors: list[Diagnostic] = []
    stack: list[list] = [[]]
    opens: list[Token] = []
    for tok in toks:
        t = tok.type
        if t == "LPAR":
            stack.append([])
            opens.append(tok)
        elif t == "RPAR":
            if not opens:  # pragma: no cover - read_sexprs stops at a `)` with no `(` open
                raise InternalError("the reader built forms from tokens that do not balance")
            first, items = opens.pop(), stack.pop()
            assert first.line is not None and first.column is not None  # as in _at
            assert tok.end_line is not None and tok.end_column is not None
            stack[-1].append(SList(tuple(items), src.span(first.line, first.column, tok.end_line, tok.end_column)))
        else:
            stack[-1].append(_classify(tok, src, errors))
    if opens:  # pragma: no cover - read_sexprs reports a `(` left open before building
        raise InternalError("the reader built forms from tokens that do not balance")
    return stack[0], errors


# -- Where a missing `)` belongs ----------------------------------------------------------------
# When one `)` is missing, counting alone blames the outermost form, usually (game …) itself.  The
# reader instead tries the places where the `)` could go and keeps the one the game fits best:
# first the fewest load-time errors (the checker judges each trial, so a form left with too many
# or too few items, or an action where a condition belongs, counts against its place), then the
# layout (a `)` added at the end of the right line makes the lines that start in one column equally
# deep), then the earliest place.  Places are tried line by line, the lines the layout likes best
# first, until one without errors is found and no line as well laid out is left, or the budget runs out.
#
# The budget counts work, not time: each trial costs the tokens it rebuilds and checks, plus the forms
# its uses of definitions expand (each use is checked anew, so a few lines can expand to
# MAX_EXPANDED_FORMS on every trial), plus, for a trial that checks clean, the constants it works out:
# the cards of its decks and the elements of its declared lists (a few declares of long ranges make up
# to MAX_CONST_ELEMENTS).  A trial starts only while the work spent and the dearest trial so far fit
# in WORK, so the search does at most WORK, and at most one trial's extra work (MOST_EXTRA) more when
# one trial costs more than any before it.

TRIALS = 600  # checks tried at most for one missing `)`: under 2 s on the largest corpus game (3,000 tokens)
WORK = 2_000_000  # tokens read, forms expanded and constants made over all trials: a larger game gets fewer trials
# The most work a trial can do beyond its tokens: the limits on expansions, declared lists and described cards.
MOST_EXTRA = MAX_EXPANDED_FORMS + MAX_CONST_ELEMENTS + MAX_DESCRIBED_CARDS


def _line_costs(toks: list[Token]) -> tuple[list[int], list[int]]:
    """(first token index of each line, cost of adding a `)` on that line): how many pairs of lines
    that start in the same column of one block would still differ in depth."""
    starts: list[tuple[int, int, int]] = []  # (token index, depth, column) of each line's first token
    depth = 0
    line = None
    for i, t in enumerate(toks):
        if t.line != line:
            assert t.column is not None
            starts.append((i, depth, t.column))
            line = t.line
        depth += 1 if t.type == "LPAR" else -1 if t.type == "RPAR" else 0
    n = len(starts)
    # Consecutive lines of one block that start in the same column should be equally deep; a `)`
    # added on line k makes every later line one level shallower.  diff accumulates how each k
    # changes the count of pairs that disagree.
    diff = [0] * (n + 1)
    last_at: dict[int, int] = {}
    for j, (_, d, c) in enumerate(starts):
        prev = last_at.get(c)
        for col in [col for col in last_at if col > c]:
            del last_at[col]
        last_at[c] = j
        if prev is not None:
            delta = d - starts[prev][1]
            change = int(delta != 1) - int(delta != 0)
            diff[prev] += change
            diff[j] -= change
    costs, run = [], 0
    for k in range(n):
        run += diff[k]
        costs.append(run)
    return [s[0] for s in starts], costs


def _with_paren(toks: list[Token], atoms: dict[int, Atom], spans: dict[int, Span], at: int | None) -> list:
    """The top-level forms of the tokens with a `)` added before token `at` (None: every form left open
    closed at the end)."""
    stack: list[list] = [[]]
    opens: list[int] = []

    def close() -> None:
        items = stack.pop()
        stack[-1].append(SList(tuple(items), spans[opens.pop()]))

    for i, t in enumerate(toks):
        if i == at:
            close()
        if t.type == "LPAR":
            stack.append([])
            opens.append(i)
        elif t.type == "RPAR":
            close()
        else:
            stack[-1].append(atoms[i])
    if at == len(toks):
        close()
    while at is None and len(stack) > 1:
        close()
    return stack[0]


def _pieces(toks: list[Token], src: SourceFile) -> tuple[dict[int, Atom], dict[int, Span]]:
    """The atom of every word and the span of every `(`, by token index, to build forms from."""
    ignored: list[Diagnostic] = []  # a word's lexical errors are reported when the file is read whole
    atoms = {i: _classify(t, src, ignored) for i, t in enumerate(toks) if t.type not in ("LPAR", "RPAR")}
    spans = {i: _at(src, t) for i, t in enumerate(toks) if t.type == "LPAR"}
    return atoms, spans


def _errors_of_complete_forms(toks: list[Token], src: SourceFile) -> list[Diagnostic]:
    """The load-time errors of a file that stops short, inside the forms it does close.

    The forms left open are closed at the end and the game is checked; only errors inside a form
    the file closes itself are kept (a form cut short has too few items, or misses its scoring, for
    no fault of its own).  A variant is left alone: its base would have to be read too."""
    if any(str(t) == "extends" for t in toks):
        return []
    atoms, spans = _pieces(toks, src)
    try:
        _, errors, _ = check_game(src, _with_paren(toks, atoms, spans, None), [], {})
    except Exception:  # the file is already in error: a check that cannot finish adds nothing
        return []
    complete: list[tuple[tuple[int, int], tuple[int, int]]] = []
    stack: list[Token] = []
    for t in toks:
        if t.type == "LPAR":
            stack.append(t)
        elif t.type == "RPAR" and stack:
            o = stack.pop()
            complete.append(((o.line, o.column), (t.line, t.column)))  # type: ignore[arg-type]
    return [d for d in errors if d.span.file == src.filename and
            any(a <= (d.span.line, d.span.column) <= b for a, b in complete)]


def _innermost_closed_by_run(toks: list[Token], end: int) -> int | None:
    """The `(` matched by the first `)` of the run of `)` ending just before token `end`, if any."""
    r = end
    while r > 0 and toks[r - 1].type == "RPAR":
        r -= 1
    if r == end:
        return None
    depth = 1
    for m in range(r - 1, -1, -1):
        if toks[m].type == "RPAR":
            depth += 1
        elif toks[m].type == "LPAR":
            depth -= 1
            if depth == 0:
                return m
    return None


def likeliest_unclosed(toks: list[Token], src: SourceFile) -> int | None:
    """Index of the `(` most likely missing its `)` in a token stream one `)` short, or None."""
    atoms, spans = _pieces(toks, src)
    starts, costs = _line_costs(toks)
    order = sorted(range(len(starts)), key=lambda k: (costs[k], k))
    best: tuple[tuple[int, int, int, int], int] | None = None
    trials = spent = 0
    dearest = len(toks)  # the work of the dearest trial so far, and what the next one is assumed to cost

    def room() -> bool:
        return trials < TRIALS and spent + dearest <= WORK

    for k in order:
        if not room() or (best is not None and best[0][0] == 0 and costs[k] > best[0][1]):
            break
        end = starts[k + 1] if k + 1 < len(starts) else len(toks)
        # A `)` anywhere in a run of `)` gives the same forms: it is tried after the run only.
        for at in range(starts[k] + 1, end + 1):
            if (at < len(toks) and toks[at].type == "RPAR") or toks[at - 1].type == "LPAR":
                continue
            if not room():
                break
            try:
                score, extra = judge_trial(src, _with_paren(toks, atoms, spans, at))
            except Exception:  # a trial the checker cannot judge is simply a bad place
                score, extra = len(toks), MOST_EXTRA  # its work unknown: the most it could be
            trials += 1
            spent += len(toks) + extra
            dearest = max(dearest, len(toks) + extra)
            key = (score, costs[k], int(at >= 2 and toks[at - 2].type == "LPAR"), at)
            if best is None or key < best[0]:
                best = (key, at)
    if best is None or best[1] == len(toks):
        return None  # at the end of the file: the form left open is the one never closed
    at = best[1]
    # The `)` goes before token `at`.  After a run of `)` it may belong to any form the run closes,
    # or to the one left open: the innermost of them lies inside all.
    inner = _innermost_closed_by_run(toks, at)
    if inner is not None:
        return inner
    opened: list[int] = []
    for i in range(at):
        if toks[i].type == "LPAR":
            opened.append(i)
        elif toks[i].type == "RPAR" and opened:
            opened.pop()
    return opened[-1] if opened else None
