"""Every example of docs/language.md is checked: it loads, it runs, and every value or outcome it states holds.

Example blocks are fenced code blocks whose info string is `recycle <kind>`:

* `recycle context` — the one game every other example runs in (examples go where its
  comment `;; examples run here` stands);
* `recycle expr`    — expressions; an expression followed by `;; => VALUE` must evaluate to
  VALUE (written as described in the document's "Values in examples");
* `recycle clause`  — one clause, run in a `do` item; `;; after EXPR => VALUE` lines check
  expressions afterwards;
* `recycle item`    — one program item; `;; options N` checks the option count of its first
  decision, `;; choose I J …` scripts the decisions, `;; after EXPR => VALUE` as above; without
  a script the item is played by random players;
* `recycle game`    — a whole game; `;; params NAME=VALUE …`, `;; seed N`, `;; choose …`,
  `;; expect options N`, `;; expect scores [..]`, `;; expect ranks [..]`, `;; expect outcome X`;
* `recycle error`   — a whole game, or an item placed in the context, that must fail to load
  with `;; error CLASS` (and optionally `;; message TEXT`, a substring of the message).

Blocks with any other info string (`text`, none) are prose and are not checked.
"""
from __future__ import annotations

import re

import attrs
import pytest

from recycle.compiler import compile_game
from recycle.engine.play import play_game
from recycle.errors import LoadError
from recycle.lang import ast as A
from recycle.lang import parse_game
from recycle.lang.ast import T
from recycle.lang.printer import to_source
from recycle.lang.words import EXTENSION_KEYWORDS, KEYWORDS
from recycle.players.base import ScriptedPlayer
from recycle.players.random_player import RandomPlayer
from support import REPO

DOC = REPO / "docs" / "language.md"
FENCE = re.compile(r"^```recycle (\w+)\n(.*?)^```", re.S | re.M)
MARK = ";; examples run here"


@attrs.frozen
class Block:
    kind: str
    text: str
    line: int

    @property
    def id(self) -> str:
        return f"language.md:{self.line}:{self.kind}"


def blocks() -> list[Block]:
    text = DOC.read_text("utf-8")
    out = []
    for m in FENCE.finditer(text):
        out.append(Block(m.group(1), m.group(2), text.count("\n", 0, m.start()) + 2))
    return out


BLOCKS = blocks()
CONTEXT = next((b.text for b in BLOCKS if b.kind == "context"), None)
KINDS = {"context", "expr", "clause", "item", "game", "error"}


# ---------------------------------------------------------------- values as the document writes them


def _loc(prog, pid) -> str:
    """A stored pile as the game file writes it: named as transcripts name it (Registry.loc_text: a
    board's cell and a member of an indexed family with its index, 0 included), the owner as a form."""
    owner, rest = prog.loc_text(pid).split(" ", 1)
    o = "game" if owner == "table" else f"({int(owner[1:]) - 1} player)"
    return f"({o} {rest})"


def render(prog, st, v, t: T) -> str:
    """A run-time value in the document's notation (see "Values in examples")."""
    if t == T.INT:
        return str(v)
    if t == T.STR:
        return v if v != "" else '""'
    if t == T.BOOL:
        return "true" if v else "false"
    if t == T.CARD:
        return "none" if v is None else prog.card_text(st, v)
    if t == T.PILE:
        if v.__class__ is int:
            return _loc(prog, v)
        return "[" + ", ".join(prog.card_text(st, c) for c in v) + "]"
    if t == T.PLAYER:
        return "none" if v is None else f"({v} player)"
    if t == T.TEAM:
        return f"({v} team)"
    if t == T.STRS:
        return "(" + ", ".join(v) + ")"
    if t in A.ELEMENT:
        return "[" + ", ".join(render(prog, st, x, A.ELEMENT[t]) for x in v) + "]"
    raise AssertionError(f"cannot render a {t}")


def norm(s: str) -> str:
    return " ".join(s.split())


# ---------------------------------------------------------------- running examples in the context


def in_context(items: str) -> str:
    assert CONTEXT is not None and MARK in CONTEXT, "docs/language.md needs a `recycle context` block with the marker"
    return CONTEXT.replace(MARK, items)


def evaluate(prefix_items: str, expr: str, choices=None, params=None):
    """(prog, st, rendered value) of expr after the prefix items (scripted by `choices` if any)."""
    text = in_context(f"{prefix_items}\n (let {expr} 'OUT (do ((turn pass))))")
    game = parse_game(text, params=params)
    let = game.items[-1]
    assert isinstance(let, A.Let)
    prog = compile_game(game, params)
    st = prog.new_game(1)
    for i in choices or ():
        prog.apply(st, i)
    assert st.status == 2, st.error.format() if st.error else f"status {st.status}"
    return prog, st, render(prog, st, st.env[prog.nslots - 1], let.type)


def split_exprs(text: str) -> list[tuple[str, str | None]]:
    """(expression, expected value or None) pairs of an expr block."""
    out = []
    pending = []
    for line in text.split("\n"):
        m = re.search(r";; => (.*)$", line)
        if m:
            pending.append(line[: m.start()])
            out.append(("\n".join(pending).strip(), m.group(1).strip()))
            pending = []
        elif line.strip().startswith(";;"):
            continue
        else:
            pending.append(line)
    rest = "\n".join(pending).strip()
    if rest:
        out.append((rest, None))
    return out


def directives(text: str, word: str) -> list[str]:
    return [m.group(1).strip() for m in re.finditer(rf"^\s*;; {word} (.*)$", text, re.M)]


def afters(text: str) -> list[tuple[str, str]]:
    out = []
    for d in directives(text, "after"):
        expr, _, want = d.rpartition(" => ")
        out.append((expr.strip(), want.strip()))
    return out


def check_round_trip(text: str) -> None:
    g = parse_game(text)
    assert parse_game(to_source(g)) == g


# ---------------------------------------------------------------- the tests


def test_the_document_has_examples_of_every_kind():
    assert DOC.is_file()
    kinds = {b.kind for b in BLOCKS}
    assert kinds == KINDS, kinds ^ KINDS
    assert sum(1 for b in BLOCKS if b.kind == "context") == 1
    examples = sum(len(split_exprs(b.text)) if b.kind == "expr" else 1 + len(afters(b.text)) for b in BLOCKS)
    assert examples >= 200, examples


def test_every_form_keyword_has_an_example():
    """Every keyword of the language (base and extensions) appears in some checked example."""
    code = " ".join(b.text for b in BLOCKS if b.kind != "error")
    words = set(re.findall(r"[a-z]+", re.sub(r";;[^\n]*", "", code)))
    missing = (KEYWORDS | EXTENSION_KEYWORDS) - words - {"override"}  # `override` is reserved, not a form
    assert not missing, sorted(missing)


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.kind != "context"], ids=lambda b: b.id)
def test_example(block: Block):
    text = block.text
    if block.kind == "expr":
        for expr, want in split_exprs(text):
            prog, st, got = evaluate("", expr)
            if want is not None:
                assert norm(got) == norm(want), f"{expr}: got {got}, the document says {want}"
        return
    if block.kind == "clause":
        body = re.sub(r"^\s*;; after .*$", "", text, flags=re.M).strip()
        item = f"(do ({body}))"
        check_round_trip(in_context(item))
        prog, st, _ = evaluate(item, "0")
        for expr, want in afters(text):
            got = evaluate(item, expr)[2]
            assert norm(got) == norm(want), f"after {expr}: got {got}, the document says {want}"
        return
    if block.kind == "item":
        body = re.sub(r"^\s*;; (after|options|choose) .*$", "", text, flags=re.M).strip()
        check_round_trip(in_context(body))
        prog = compile_game(parse_game(in_context(body)))
        opts = directives(text, "options")
        if opts:
            st = prog.new_game(1)
            assert st.status == 1 and len(prog.options(st)) == int(opts[0]), \
                f"options: got {len(prog.options(st)) if st.status == 1 else 'no decision'}, the document says {opts[0]}"
        choose = directives(text, "choose")
        choices = [int(x) for x in choose[0].split()] if choose else None
        if choices is None:
            for seed in range(3):
                r = play_game(prog, seed, [RandomPlayer() for _ in range(prog.n_players)], max_decisions=300)
                assert r.outcome in ("completed", "limit"), r.error.text if r.error else r
        for expr, want in afters(text):
            got = evaluate(body, expr, choices)[2]
            assert norm(got) == norm(want), f"after {expr}: got {got}, the document says {want}"
        return
    if block.kind == "game":
        params = dict(p.split("=", 1) for d in directives(text, "params") for p in d.split())
        check_round_trip(text)
        game = parse_game(text, params=params)
        prog = compile_game(game, params)
        seed = int((directives(text, "seed") or ["1"])[0])
        opts = directives(text, "expect options")
        if opts:
            st = prog.new_game(seed)
            assert len(prog.options(st)) == int(opts[0]), f"options: got {len(prog.options(st))}"
        choose = directives(text, "choose")
        if choose:
            sp = ScriptedPlayer([int(x) for x in choose[0].split()])
            players = [sp] * prog.n_players
        else:
            players = [RandomPlayer() for _ in range(prog.n_players)]
        r = play_game(prog, seed, players)
        want_outcome = (directives(text, "expect outcome") or ["completed"])[0]
        assert r.outcome == want_outcome, r.error.text if r.error else r
        for key, got in (("scores", r.scores), ("ranks", r.ranks), ("shares", r.shares)):
            for want in directives(text, f"expect {key}"):
                assert norm(str(got)) == norm(want), f"{key}: got {got}, the document says {want}"
        return
    if block.kind == "error":
        body = re.sub(r"^\s*;; (error|message) .*$", "", text, flags=re.M).strip()
        src = body if body.startswith("(game") else in_context(body)
        with pytest.raises(LoadError) as info:
            parse_game(src)
        d = info.value.diagnostics[0]
        want_cls = directives(text, "error")
        assert want_cls and d.cls == want_cls[0], d.format()
        for msg in directives(text, "message"):
            assert msg in d.message, d.format()
        return
    raise AssertionError(f"unknown example kind {block.kind!r}")
