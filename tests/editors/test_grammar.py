"""The TextMate grammar of editors/vscode on every shipped game and every corpus file: every region it
opens closes, every character outside blanks is matched by a rule (none is left unscoped or marked
invalid), and forms, names, variables, numbers and comments get their scopes.  The keyword lists of the
grammar are those of recycle/lang/words.py.  The tokenizer is tests/support/textmate.py."""
from __future__ import annotations

import json
import re

import pytest

from recycle.lang.words import EXTENSION_KEYWORDS, KEYWORDS
from support import CORPUS, CORPUS_MISSING, GAMES, REPO, corpus_files, corpus_id
from support.textmate import Grammar

EDITOR = REPO / "editors" / "vscode"
GRAMMAR = json.loads((EDITOR / "syntaxes" / "recycle.tmLanguage.json").read_text("utf-8"))
TM = Grammar(GRAMMAR)
SHIPPED = sorted(GAMES.glob("*.gdl"))


def scope_of(text: str, tokens, needle: str, offset: int = 0) -> tuple[str, ...]:
    i = text.index(needle) + offset
    line = text.count("\n", 0, i)
    col = i - (text.rfind("\n", 0, i) + 1)
    return next(t.scopes for t in tokens if t.line == line and t.start <= col < t.end)


def check_file(text: str, allowed: str = "invalid.deprecated") -> list:
    """The tokens of a text whose regions all close and whose characters all match a rule (`allowed`: the
    `invalid.*` scopes accepted, e.g. the stray `)` after a game that the language reads with a warning)."""
    tokens, still_open = TM.tokenize(text)
    assert still_open == [], f"{len(still_open)} region(s) never closed"
    lines = text.split("\n")
    bad = [(t.line + 1, t.start + 1, lines[t.line][t.start:t.end]) for t in tokens
           if (not t.matched and lines[t.line][t.start:t.end].strip()) or any(s.startswith("invalid") and not s.startswith(allowed) for s in t.scopes)]
    assert bad == [], f"characters no rule matches (line, column, text): {bad[:5]}"
    return tokens


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_shipped_game(path):
    text = path.read_text("utf-8")
    tokens = check_file(text, allowed="none")
    names = {s for t in tokens for s in t.scopes}
    for scope in ("comment.line.double-semicolon.recycle", "keyword.control.recycle",
                  "punctuation.section.list.begin.recycle"):
        assert scope in names, scope


def test_numbers_and_variables_in_the_shipped_games():
    seen = {s for p in SHIPPED for t in check_file(p.read_text("utf-8")) for s in t.scopes}
    assert {"constant.numeric.integer.recycle", "variable.other.recycle", "entity.name.function.recycle",
            "support.function.recycle", "storage.type.recycle", "constant.other.name.recycle", "keyword.operator.recycle"} <= seen


def test_the_scopes_of_each_kind_of_word():
    text = (GAMES / "gin_rummy.gdl").read_text("utf-8")
    tokens = check_file(text)
    assert scope_of(text, tokens, ";; Gin Rummy")[-1] == "comment.line.double-semicolon.recycle"
    assert scope_of(text, tokens, "(stage", 1)[-1] == "keyword.control.recycle"
    assert scope_of(text, tokens, "(move", 1)[-1] == "support.function.recycle"
    deck = "(create deck (game iloc STOCK)"
    assert scope_of(text, tokens, deck, len("(create deck (game "))[-1] == "storage.type.recycle"
    assert scope_of(text, tokens, deck, len("(create deck (game iloc "))[-1] == "constant.other.name.recycle"
    assert scope_of(text, tokens, "'TARGET")[-1] == "variable.other.recycle"
    assert scope_of(text, tokens, "100 'TARGET")[-1] == "constant.numeric.integer.recycle"
    assert scope_of(text, tokens, "(define (HAND", 9)[-1] == "entity.name.function.recycle"
    assert scope_of(text, tokens, "(define DEALER", 8)[-1] == "entity.name.function.recycle"
    assert scope_of(text, tokens, "(== ", 1)[-1] == "keyword.operator.recycle"
    # nested lists: the scope of the innermost list, inside its parents'
    assert scope_of(text, tokens, "(top (game vloc DISCARD))", 6).count("meta.list.recycle") >= 4
    variant = '(game (extends "gin_rummy"))\n'
    assert scope_of(variant, check_file(variant), '"gin')[-1] == "string.quoted.double.recycle"


def test_mistakes_are_marked():
    tokens, still_open = TM.tokenize("(game (setup\n")
    assert len(still_open) == 2
    tokens, _ = TM.tokenize("(game ; x)")
    assert any("invalid.illegal.recycle" in t.scopes for t in tokens)
    tokens, _ = TM.tokenize("(game))")
    assert tokens[-1].scopes[-1] == "invalid.deprecated.stray-paren.recycle"


def test_the_keyword_lists_are_the_language_s():
    atoms = GRAMMAR["repository"]["atom"]["patterns"]
    words = set()
    for p in atoms:
        m = re.fullmatch(r"\\b\(\?:(.*)\)\\b", p["match"])
        if m:
            words |= set(m.group(1).split("|"))
    assert words == KEYWORDS | EXTENSION_KEYWORDS


def test_every_corpus_file():
    files = corpus_files()
    if not files:
        pytest.skip(CORPUS_MISSING)
    failures = {}
    for path in files:
        try:
            check_file(path.read_text("utf-8-sig"))
        except AssertionError as e:
            failures[corpus_id(path)] = str(e).split("\n")[0]
    assert failures == {}, f"{len(failures)} of {len(files)} corpus files under {CORPUS}"


def test_the_vscode_extension_uses_the_grammar_and_the_server():
    pkg = json.loads((EDITOR / "package.json").read_text("utf-8"))
    lang = pkg["contributes"]["languages"][0]
    assert lang["extensions"] == [".gdl", ".rcy"]
    grammar = pkg["contributes"]["grammars"][0]
    assert grammar["scopeName"] == GRAMMAR["scopeName"] and (EDITOR / grammar["path"]).is_file()
    assert (EDITOR / lang["configuration"]).is_file() and (EDITOR / pkg["main"]).is_file()
    assert pkg["contributes"]["configuration"]["properties"]["recycle.server.command"]["default"] == ["recycle", "lsp"]
    assert "LanguageClient" in (EDITOR / "extension.js").read_text("utf-8")
