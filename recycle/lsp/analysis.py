"""What the language server knows about a game text, without pygls: diagnostics, names, hovers, completions.

The checker (recycle.lang) gives the diagnostics.  Everything else works on a tolerant reading
of the text made here: tokens with their positions and the lists they form, built even when the
file does not load (a `(` left open, an unknown word), so that hovers, completions and the
outline keep working while the designer types.  Positions are 0-based (line, character), as the
Language Server Protocol counts them.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

import attrs

from ..errors import Diagnostic, LoadError
from ..lang import library
from ..lang.load import load_source
from ..lang.printer import to_source
from ..lang.source import SourceFile
from ..lang.words import EXTENSION_KEYWORDS, KEYWORDS
from .formdocs import FORMS

KINDS = ("vloc", "iloc", "hloc", "oloc", "mem")
STORAGE = ("sto", "str", "points", "ply")
SEEN_BY = {"vloc": "everyone", "iloc": "its owner only (nobody when the game owns it)", "hloc": "nobody",
           "oloc": "everyone except its owner (everyone when the game owns it)",
           "mem": "everyone (references to cards lying elsewhere)"}
STORAGE_WHAT = {"sto": "an integer cell", "str": "a string cell", "points": "a point map", "ply": "a player cell"}
TOKEN = re.compile(r'(?P<comment>;;[^\n]*)|(?P<text>"[^"\n]*"?)|(?P<open>\()|(?P<close>\))|(?P<word>[^\s()";]+)'
                   r'|(?P<other>;)')
# Forms that stand at the top of a game, and the forms that begin a program item.
GAME_FORMS = ("declare", "define", "limits", "setup", "scoring", "extends")
ITEM_FORMS = ("stage", "do", "choice", "optional", "ask", "while", "match", "atomic", "any", "all", "let", "if")

BINDERS = ("any", "all", "let", "filter", "sum", "max", "min", "ask")

Pos = tuple[int, int]


@attrs.frozen(slots=True)
class Tok:
    kind: str  # comment, text, open, close, word, other
    text: str
    start: Pos
    end: Pos


@attrs.define(eq=False)
class Node:
    """A parenthesised list as read, tolerant: `close` is None when it is never closed."""

    open: Tok
    items: list  # Tok | Node
    parent: Node | None
    close: Tok | None = None

    @property
    def start(self) -> Pos:
        return self.open.start

    @property
    def end(self) -> Pos:
        if self.close is not None:
            return self.close.end
        return self.items[-1].end if self.items else self.open.end

    @property
    def head(self) -> str | None:
        first = self.items[0] if self.items else None
        return first.text if isinstance(first, Tok) else None

    def word(self, i: int) -> str | None:
        x = self.items[i] if i < len(self.items) else None
        return x.text if isinstance(x, Tok) else None


@attrs.frozen(slots=True)
class Ref:
    """One occurrence of a name: what it names (key), where, and whether it is the place that makes it."""

    key: tuple[str, str]  # ("define", NAME) ("location", NAME) ("storage", NAME) ("var", NAME) ("attribute", NAME)
    tok: Tok
    defining: bool
    detail: str = ""  # the kind of a location or storage, the parameters of a definition


def tokens(text: str) -> list[Tok]:
    out: list[Tok] = []
    line, line_start = 0, 0
    for m in TOKEN.finditer(text):
        while True:  # advance the line count to the match
            nl = text.find("\n", line_start, m.start())
            if nl < 0:
                break
            line, line_start = line + 1, nl + 1
        kind = m.lastgroup or "other"
        s = m.group()
        out.append(Tok(kind, s, (line, m.start() - line_start), (line, m.end() - line_start)))
    return out


def read(toks: list[Tok]) -> list:
    """The top-level elements (tokens and lists), comments left out; unbalanced text is read as far as it goes."""
    top: list = []
    stack: list[Node] = []
    for t in toks:
        if t.kind == "comment":
            continue
        if t.kind == "open":
            node = Node(t, [], stack[-1] if stack else None)
            (stack[-1].items if stack else top).append(node)
            stack.append(node)
        elif t.kind == "close":
            if stack:
                stack.pop().close = t
        else:
            (stack[-1].items if stack else top).append(t)
    return top


def walk(elems: list) -> Iterator[Node]:
    for e in elems:
        if isinstance(e, Node):
            yield e
            yield from walk(e.items)


def _is_name(s: str | None) -> bool:
    return s is not None and s.isalpha() and s.isupper()


class Document:
    """One game text read for the editor: tokens, lists, names and their occurrences."""

    def __init__(self, text: str, path: str | None = None, dialect: str = "auto"):
        self.text = text
        self.path = path
        self.dialect = dialect  # how the checker reads it (docs/language.md §27): the server's --dialect
        self.lines = text.split("\n")
        self.toks = tokens(text)
        self.top = read(self.toks)
        self.refs: list[Ref] = []
        self.base: str | None = None  # the base a variant names
        self.base_tok: Tok | None = None
        self._index()

    # ---- the names of the file ----
    def _index(self) -> None:
        game = next((e for e in self.top if isinstance(e, Node) and e.head == "game"), None)
        for node in walk(self.top):
            h = node.head
            if h == "extends" and node.parent is game and len(node.items) > 1 and isinstance(node.items[1], Tok):
                self.base_tok = node.items[1]
                self.base = node.items[1].text.strip('"')
            elif h == "define" and len(node.items) > 1:
                sig = node.items[1]
                name = sig.items[0] if isinstance(sig, Node) and sig.items else sig
                if isinstance(name, Tok) and _is_name(name.text):
                    params = " ".join(p.text for p in sig.items[1:] if isinstance(p, Tok)) if isinstance(sig, Node) \
                        else ""
                    self.refs.append(Ref(("define", name.text), name, True, params))
            elif h == "declare" and len(node.items) > 2:
                var = node.items[2]
                if isinstance(var, Tok) and var.text.startswith("'"):
                    self.refs.append(Ref(("var", var.text[1:]), var, True))
            elif h == "deck":
                for attr in node.items[1:]:
                    if isinstance(attr, Node) and attr.items and isinstance(attr.items[0], Tok):
                        self.refs.append(Ref(("attribute", attr.items[0].text), attr.items[0], True))
            elif h == "cardatt" and len(node.items) > 1 and isinstance(node.items[1], Tok) \
                    and _is_name(node.items[1].text):
                self.refs.append(Ref(("attribute", node.items[1].text), node.items[1], False))
            kind = node.word(1)
            if kind in KINDS + STORAGE and len(node.items) > 2 and isinstance(node.items[2], Tok) \
                    and _is_name(node.items[2].text):
                what = "location" if kind in KINDS else "storage"
                self.refs.append(Ref((what, node.items[2].text), node.items[2], _creates(node), kind or ""))
            elif h is not None and _is_name(h) and node.word(1) != ":" and not (
                    node.parent is not None and (node.parent.head == "deck" or (node.parent.head == "define"
                                                                              and node.parent.items[1] is node))):
                self.refs.append(Ref(("define", h), node.items[0], False))

    def names(self, what: str) -> list[str]:
        return sorted({r.key[1] for r in self.refs if r.key[0] == what})

    # ---- positions ----
    def offset_tok(self, pos: Pos) -> Tok | None:
        """The token under (or right before) the cursor."""
        for t in self.toks:
            if t.start <= pos <= t.end and t.start[0] == pos[0]:
                if t.end == pos and t.kind in ("open", "close"):
                    continue
                return t
        return None

    def ref_at(self, pos: Pos) -> Ref | None:
        tok = self.offset_tok(pos)
        if tok is None:
            return None
        for r in self.refs:
            if r.tok is tok:
                return r
        if tok.kind == "word" and tok.text.startswith("'"):
            return Ref(("var", tok.text[1:]), tok, False)
        return None

    def enclosing(self, pos: Pos) -> Node | None:
        best = None
        for node in walk(self.top):
            if node.start < pos and (node.close is None or pos <= node.close.start):
                best = node  # walk goes outside in: the last match is the innermost
        return best

    def binder_of(self, tok: Tok) -> Tok | None:
        """Where a variable is bound: a definition's parameter, a binder around it, else a declare."""
        node = self.enclosing(tok.start)
        while node is not None:
            if node.head == "define" and len(node.items) > 1 and isinstance(node.items[1], Node):
                for p in node.items[1].items[1:]:
                    if isinstance(p, Tok) and p.text == tok.text:
                        return p
            # (any COLL 'V …), (let V 'X …), (sum COLL 'V …), (ask PLAYERS 'V …): the variable stands third
            bound = node.items[2] if node.head in BINDERS and len(node.items) > 2 else None
            if isinstance(bound, Tok) and bound.text == tok.text:
                return bound
            node = node.parent
        for r in self.refs:
            if r.key == ("var", tok.text[1:]) and r.defining:
                return r.tok
        return None


def _creates(node: Node) -> bool:
    """A location or storage occurrence that makes it: dealt to by `create deck`, moved or stored to, set."""
    parent = node.parent
    if parent is None:
        return False
    if parent.head == "create":
        return True
    if parent.head in ("set", "inc", "dec") and len(parent.items) > 1 and parent.items[1] is node:
        return True
    up = parent.parent
    return bool(up is not None and up.head in ("move", "remember") and len(up.items) > 2 and up.items[2] is parent)


# ---- diagnostics ----
@attrs.frozen
class Problem:
    """A diagnostic placed in the open file: 0-based range, severity, message (hints appended), class."""

    start: Pos
    end: Pos
    severity: str
    message: str
    cls: str


def diagnose(doc: Document) -> list[Problem]:
    """Every load-time error and warning, placed in the file (a base's mistakes at the `extends`)."""
    name = doc.path or "<string>"
    try:
        loaded = load_source(SourceFile(doc.text, name, dialect=doc.dialect))
        diags, warnings = [], list(loaded.warnings)
    except LoadError as e:
        diags, warnings = e.diagnostics, e.warnings
    return [_place(doc, d, name) for d in [*diags, *warnings]]


def _place(doc: Document, d: Diagnostic, name: str) -> Problem:
    msg = d.message + "".join(f"\n{n}" for n in d.notes)
    sp = d.span
    if sp.file != name and doc.base_tok is not None:
        where = f"{Path(sp.file).name}:{sp.line}:{sp.column}" if sp.line > 0 else Path(sp.file).name
        return Problem(doc.base_tok.start, doc.base_tok.end, d.severity, f"in the base game, {where}: {msg}", d.cls)
    if sp.line <= 0:
        return Problem((0, 0), (0, 0), d.severity, msg, d.cls)
    start = (sp.line - 1, sp.column - 1)
    if sp.end_line > 0:
        end = (sp.end_line - 1, sp.end_column - 1)
    else:
        tok = next((t for t in doc.toks if t.start == start), None)
        end = tok.end if tok is not None and tok.kind != "open" else (start[0], start[1] + 1)
    return Problem(start, end, d.severity, msg, d.cls)


# ---- variants: the files a variant builds on ----
def base_path(doc: Document) -> Path | None:
    """The file a variant's `(extends …)` names, as the loader finds it; None when there is none."""
    if doc.base is None:
        return None
    here = Path(doc.path).parent if doc.path else Path(".")
    rel = PurePosixPath(doc.base)
    if not doc.base or rel.is_absolute() or ".." in rel.parts:
        return None
    if rel.suffix:
        return here / rel
    beside = here / f"{doc.base}.gdl"
    if _is_file(beside):
        return beside
    return library.shipped().get(doc.base)


def _is_file(p: Path) -> bool:
    try:
        return p.is_file()
    except OSError:  # a name the system cannot look up (too long): no such file
        return False


def chain(doc: Document, read_text=None) -> list[Document]:
    """The document and every base it builds on, nearest first (at most 16 deep, no circles)."""
    out = [doc]
    seen = {str(Path(doc.path).resolve())} if doc.path else set()
    while len(out) < 17:
        p = base_path(out[-1])
        if p is None or str(p.resolve()) in seen or not _is_file(p):
            break
        seen.add(str(p.resolve()))
        text = read_text(p) if read_text is not None else p.read_text("utf-8")
        out.append(Document(text, str(p), doc.dialect))
    return out


def definition(docs: list[Document], pos: Pos) -> tuple[Document, Tok] | None:
    """Where the name under the cursor of docs[0] is made: the variant first, then its bases."""
    doc = docs[0]
    ref = doc.ref_at(pos)
    if ref is None:
        return None
    if ref.key[0] == "var":
        b = doc.binder_of(ref.tok)
        if b is not None:
            return doc, b
    for d in docs:
        for r in d.refs:
            if r.key == ref.key and r.defining:
                return d, r.tok
    for d in reversed(docs):  # never made explicitly: its first use, in the file that has it first
        for r in d.refs:
            if r.key == ref.key:
                return d, r.tok
    return None


def references(docs: list[Document], pos: Pos) -> list[tuple[Document, Tok]]:
    ref = docs[0].ref_at(pos)
    if ref is None:
        return []
    if ref.key[0] == "var":
        b = docs[0].binder_of(ref.tok)
        return [(docs[0], t) for t in docs[0].toks if t.text == ref.tok.text and docs[0].binder_of(t) is b]
    return [(d, r.tok) for d in docs for r in d.refs if r.key == ref.key]


# ---- hover ----
def form_hover(word: str) -> str | None:
    if word not in FORMS:
        return None
    sig, sec, para = FORMS[word]
    return f"```recycle\n{sig}\n```\n{para}\n\n*docs/language.md {sec}*"


def hover(docs: list[Document], pos: Pos) -> str | None:
    doc = docs[0]
    tok = doc.offset_tok(pos)
    if tok is None or tok.kind != "word":
        return None
    if tok.text in KEYWORDS or tok.text in EXTENSION_KEYWORDS:
        return form_hover(tok.text)
    ref = doc.ref_at(pos)
    if ref is None:
        return None
    what, name = ref.key
    found = definition(docs, pos)
    where = ""
    if found is not None:
        d, t = found
        fname = Path(d.path).name if d.path and d is not doc else "this file"
        where = f"\n\nmade at {fname}:{t.start[0] + 1}:{t.start[1] + 1}"
    if what == "location":
        kinds = sorted({r.detail for d in docs for r in d.refs if r.key == ref.key})
        seen = "; ".join(f"`{k}`: seen by {SEEN_BY[k]}" for k in kinds)
        return f"**{name}**: a location ({', '.join(kinds)})\n\n{seen}{where}"
    if what == "storage":
        kinds = sorted({r.detail for d in docs for r in d.refs if r.key == ref.key})
        return f"**{name}**: storage, " + ", ".join(f"`{k}` {STORAGE_WHAT[k]}" for k in kinds) + where
    if what == "attribute":
        return f"**{name}**: a card attribute (of the deck){where}"
    if what == "define":
        if found is None:
            return f"**{name}**: not defined in this file or its bases"
        d, t = found
        line = d.lines[t.start[0]].strip()
        comments = _comment_above(d, t.start[0])
        return f"**{name}**: a definition\n```recycle\n{line}\n```" + (f"\n{comments}" if comments else "") + where
    if what == "var":
        if found is None:
            return f"**'{name}**: a variable bound nowhere here"
        d, t = found
        node = d.enclosing(t.start)
        role = "a parameter of a definition" if node is not None and node.parent is not None \
            and node.parent.head == "define" and node.parent.items[1] is node else \
            "a declared value (a parameter of the game)" if node is not None and node.head == "declare" else \
            f"bound by `{node.head}`" if node is not None else "a variable"
        return f"**'{name}**: {role}{where}"
    return None


def _comment_above(doc: Document, line: int) -> str:
    out = []
    i = line - 1
    while i >= 0 and doc.lines[i].strip().startswith(";;"):
        out.append(doc.lines[i].strip()[2:].strip())
        i -= 1
    return " ".join(reversed(out))


# ---- completion ----
@attrs.frozen
class Item:
    label: str
    kind: str  # keyword, function, field, variable, module
    detail: str = ""


def completions(docs: list[Document], pos: Pos) -> list[Item]:
    doc = docs[0]
    line = doc.lines[pos[0]][: pos[1]] if 0 <= pos[0] < len(doc.lines) else ""
    if re.search(r'\(extends\s+"[^"]*$', line):
        return [Item(n, "module", "a shipped game") for n in library.shipped()]
    node = doc.enclosing(pos)
    words = [i for i in (node.items if node is not None else []) if not (isinstance(i, Tok) and i.start >= pos)]
    typing = isinstance(words[-1], Tok) and words[-1].end == pos if words else False
    index = len(words) - (1 if typing else 0)  # the position of the element being written
    names: dict[str, set[str]] = {}
    for d in docs:
        for r in d.refs:
            if r.defining or r.key[0] != "define":
                names.setdefault(r.key[0], set()).add(r.key[1])
    items: list[Item] = []
    if node is not None and index == 2 and node.word(1) in KINDS:
        return [Item(n, "field", "location") for n in sorted(names.get("location", ()))]
    if node is not None and index == 2 and node.word(1) in STORAGE:
        return [Item(n, "field", "storage") for n in sorted(names.get("storage", ()))]
    if node is not None and index == 1 and node.head == "cardatt":
        return [Item(n, "field", "attribute") for n in sorted(names.get("attribute", ()))]
    if node is not None and index == 1 and node.head == "create":
        return [Item(k, "keyword", FORMS[k][0]) for k in ("players", "teams", "deck", "board")]
    owner = node is not None and node.parent is not None and (node.head == "game" or (node.head or "")[:1] == "'")
    if owner and index == 1:  # (game |  ('P |: a location's or a storage's kind
        return [Item(k, "keyword", FORMS[k][0] if k in FORMS else "") for k in (*KINDS, *STORAGE)]
    if index == 0:
        # a form's head: at the top of a game its parts, else every form and the definitions
        parent = node.parent if node is not None else None
        if parent is not None and parent.head == "game":
            heads = [*GAME_FORMS, *ITEM_FORMS]
        else:
            heads = sorted(KEYWORDS | EXTENSION_KEYWORDS)
        items += [Item(k, "keyword", FORMS[k][0] if k in FORMS else "") for k in heads]
        items += [Item(n, "function", "definition") for n in sorted(names.get("define", ()))]
        return items
    items += [Item("'" + n, "variable", "declared") for n in sorted(names.get("var", ()))]
    items += [Item(n, "field", "location or storage") for n in sorted(names.get("location", set())
                                                                       | names.get("storage", set()))]
    items += [Item(k, "keyword", FORMS[k][0] if k in FORMS else "") for k in sorted(KEYWORDS | EXTENSION_KEYWORDS)]
    return items


# ---- outline ----
@attrs.frozen
class Symbol:
    name: str
    kind: str  # stage, define, choice, declare, setup, scoring, limits, item
    start: Pos
    end: Pos
    sel: tuple[Pos, Pos]
    children: tuple[Symbol, ...] = ()


OUTLINE = ("stage", "choice", "define", "declare", "setup", "scoring", "limits", "do", "match", "while", "optional",
           "ask", "atomic")


def symbols(doc: Document) -> list[Symbol]:
    def of(elems: list, depth: int) -> list[Symbol]:
        out = []
        for e in elems:
            if not isinstance(e, Node):
                continue
            h = e.head
            if h in OUTLINE and (depth == 0 or h in ("stage", "choice", "match", "while", "atomic")):
                out.append(Symbol(_title(e), h or "", e.start, e.end, (e.items[0].start, e.items[0].end),
                                  tuple(of(e.items[1:], depth + 1))))
            elif h == "game":
                out.extend(of(e.items[1:], 0))
            elif depth > 0 or h == "define":
                out.extend(of(e.items[1:], depth))
        return out

    return of(doc.top, -1)


def _title(node: Node) -> str:
    h = node.head or ""
    if h == "define":
        sig = node.items[1] if len(node.items) > 1 else None
        if isinstance(sig, Node):
            return "(" + " ".join(t.text for t in sig.items if isinstance(t, Tok)) + ")"
        return sig.text if isinstance(sig, Tok) else "define"
    if h == "declare":
        return f"declare {node.word(2) or ''}".strip()
    if h == "stage":
        return f"stage {node.word(1) or ''}".strip()
    return h


# ---- formatting ----
def format_text(doc: Document) -> tuple[str | None, str]:
    """(the canonical text, "") or (None, why it is not formatted)."""
    if doc.base is not None:
        return None, "a variant is not formatted: the canonical printer prints the merged game, not the changes"
    comments = sum(1 for t in doc.toks if t.kind == "comment")
    if comments:
        return None, (f"not formatted: the canonical printer does not keep comments, and this file has {comments} "
                      "comment line(s)")
    try:
        loaded = load_source(SourceFile(doc.text, doc.path or "<string>", dialect=doc.dialect))
    except LoadError as e:
        return None, f"not formatted: the file does not load ({len(e.diagnostics)} error(s))"
    out = to_source(loaded.game)
    try:
        # the printer writes the modern language whatever the file's dialect
        again = load_source(SourceFile(out, doc.path or "<string>", dialect="modern")).game
    except LoadError:  # pragma: no cover - the printer's own guarantee
        return None, "not formatted: the canonical text does not load back"
    if again != loaded.game:
        return None, "not formatted: the canonical text would not read back as the same game"
    return out, ""
