"""The RECYCLE Language Server on pygls: the protocol's side; what the answers say is in analysis.py.

Diagnostics are computed on open and save at once, and on change after a short pause (typing
quickly checks once), in a thread of their own: checking a large file, or one with a missing `)`
whose place the reader searches for, can take a second or two, and hover, completion and the
other requests are answered meanwhile.  A check whose text has changed since is not published
(the newer text's check follows).  A document's reading (tokens, names) is kept until its text
changes.
Files are read in the dialect of `recycle lsp --dialect` (default auto), which the client may
replace with the initialization option `{"dialect": "auto"|"modern"|"xam"}`.
"""
from __future__ import annotations

import asyncio
import logging
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import BinaryIO
from urllib.parse import unquote, urlparse

from lsprotocol import types as L
from pygls.lsp.server import LanguageServer

from ..errors import UsageError
from ..lang.xam import DIALECTS
from ..version import __version__
from . import analysis as An

DEBOUNCE = 0.25  # seconds of quiet after a change before the file is checked
MAX_MESSAGE_BYTES = 64 * 1024 * 1024  # one JSON-RPC message (a game file is at most 1 MB)
MAX_HEADER_BYTES = 64 * 1024  # one header line read at once
SEVERITY = {"error": L.DiagnosticSeverity.Error, "warning": L.DiagnosticSeverity.Warning}
SYMBOL_KIND = {"stage": L.SymbolKind.Class, "define": L.SymbolKind.Function, "choice": L.SymbolKind.Event,
               "declare": L.SymbolKind.Variable, "setup": L.SymbolKind.Constructor, "scoring": L.SymbolKind.Property,
               "limits": L.SymbolKind.Constant}
ITEM_KIND = {"keyword": L.CompletionItemKind.Keyword, "function": L.CompletionItemKind.Function,
             "field": L.CompletionItemKind.Field, "variable": L.CompletionItemKind.Variable,
             "module": L.CompletionItemKind.Module}


def uri_path(uri: str) -> str | None:
    u = urlparse(uri)
    return unquote(u.path) if u.scheme == "file" else None


def path_uri(path: str) -> str:
    return Path(path).resolve().as_uri()


class RecycleServer(LanguageServer):
    def __init__(self, dialect: str = "auto") -> None:
        super().__init__("recycle-lsp", __version__)
        self.dialect = dialect  # how game files are read (docs/language.md §27)
        self.docs: dict[str, tuple[int | None, An.Document]] = {}
        self.pending: dict[str, asyncio.TimerHandle] = {}
        # one checking thread: checks run one at a time, in the order asked (the loader is not
        # made to be run by two threads at once)
        self.checker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="recycle-check")

    def document(self, uri: str) -> An.Document:
        """The reading of an open document, made again only when its text changed."""
        td = self.workspace.get_text_document(uri)
        cached = self.docs.get(uri)
        if cached is not None and cached[0] == td.version and cached[1].text == td.source:
            return cached[1]
        doc = An.Document(td.source, uri_path(uri), self.dialect)
        self.docs[uri] = (td.version, doc)
        return doc

    def chain(self, uri: str) -> list[An.Document]:
        """The document and its bases; a base open in the editor is read as the editor has it."""
        def read_text(p: Path) -> str:
            u = path_uri(str(p))
            if u in self.docs:
                return self.workspace.get_text_document(u).source
            return p.read_text("utf-8")

        return An.chain(self.document(uri), read_text)

    def validate(self, uri: str) -> None:
        """Check the document in the checking thread; its diagnostics are published when done."""
        self.pending.pop(uri, None)
        doc = self.document(uri)
        reading = self.docs[uri]
        done = asyncio.get_running_loop().run_in_executor(self.checker, An.diagnose, doc)
        done.add_done_callback(lambda f: self.publish(uri, reading, f))

    def publish(self, uri: str, reading: tuple, done: asyncio.Future) -> None:
        """Publish a finished check (in the server's loop), unless the text changed or closed since."""
        if self.docs.get(uri) is not reading:
            return
        problems = done.result()  # an exception here is a bug: the server's loop reports it
        diags = [L.Diagnostic(range=_range(p.start, p.end), message=p.message, severity=SEVERITY[p.severity],
                              code=p.cls, source="recycle")
                 for p in problems]
        self.text_document_publish_diagnostics(L.PublishDiagnosticsParams(uri=uri, diagnostics=diags))

    def later(self, uri: str) -> None:
        old = self.pending.pop(uri, None)
        if old is not None:
            old.cancel()
        self.pending[uri] = asyncio.get_running_loop().call_later(DEBOUNCE, self.validate, uri)


def _range(start: An.Pos, end: An.Pos) -> L.Range:
    return L.Range(start=L.Position(line=start[0], character=start[1]),
                   end=L.Position(line=end[0], character=end[1]))


def _location(doc: An.Document, tok: An.Tok) -> L.Location:
    return L.Location(uri=path_uri(doc.path) if doc.path else "untitled:", range=_range(tok.start, tok.end))


def make_server(dialect: str = "auto") -> RecycleServer:
    server = RecycleServer(dialect)

    @server.feature(L.INITIALIZE)
    def initialize(ls: RecycleServer, params: L.InitializeParams) -> None:
        # An editor's setting (VS Code: recycle.dialect) arrives here and overrides --dialect.
        opts = params.initialization_options
        chosen = opts.get("dialect") if isinstance(opts, dict) else None
        if chosen is None:
            return
        if chosen in DIALECTS:
            ls.dialect = chosen
        else:
            ls.window_show_message(L.ShowMessageParams(
                type=L.MessageType.Warning,
                message=f"recycle: unknown dialect {chosen!r} (use one of {', '.join(DIALECTS)}); "
                        f"reading files as {ls.dialect}"))

    @server.feature(L.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: RecycleServer, params: L.DidOpenTextDocumentParams) -> None:
        ls.validate(params.text_document.uri)

    @server.feature(L.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: RecycleServer, params: L.DidChangeTextDocumentParams) -> None:
        ls.later(params.text_document.uri)

    @server.feature(L.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: RecycleServer, params: L.DidSaveTextDocumentParams) -> None:
        ls.validate(params.text_document.uri)

    @server.feature(L.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RecycleServer, params: L.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.docs.pop(uri, None)
        pending = ls.pending.pop(uri, None)
        if pending is not None:
            pending.cancel()
        ls.text_document_publish_diagnostics(L.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(L.TEXT_DOCUMENT_HOVER)
    def hover(ls: RecycleServer, params: L.HoverParams) -> L.Hover | None:
        pos = (params.position.line, params.position.character)
        text = An.hover(ls.chain(params.text_document.uri), pos)
        if text is None:
            return None
        return L.Hover(contents=L.MarkupContent(kind=L.MarkupKind.Markdown, value=text))

    @server.feature(L.TEXT_DOCUMENT_COMPLETION, L.CompletionOptions(trigger_characters=["(", " ", '"', "'"]))
    def completion(ls: RecycleServer, params: L.CompletionParams) -> L.CompletionList:
        pos = (params.position.line, params.position.character)
        items = [L.CompletionItem(label=i.label, kind=ITEM_KIND[i.kind], detail=i.detail or None)
                 for i in An.completions(ls.chain(params.text_document.uri), pos)]
        return L.CompletionList(is_incomplete=False, items=items)

    @server.feature(L.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: RecycleServer, params: L.DefinitionParams) -> L.Location | None:
        pos = (params.position.line, params.position.character)
        found = An.definition(ls.chain(params.text_document.uri), pos)
        return _location(*found) if found is not None else None

    @server.feature(L.TEXT_DOCUMENT_REFERENCES)
    def references(ls: RecycleServer, params: L.ReferenceParams) -> list[L.Location]:
        pos = (params.position.line, params.position.character)
        return [_location(d, t) for d, t in An.references(ls.chain(params.text_document.uri), pos)]

    @server.feature(L.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(ls: RecycleServer, params: L.DocumentSymbolParams) -> list[L.DocumentSymbol]:
        def conv(s: An.Symbol) -> L.DocumentSymbol:
            return L.DocumentSymbol(name=s.name, kind=SYMBOL_KIND.get(s.kind, L.SymbolKind.Namespace),
                                    range=_range(s.start, s.end), selection_range=_range(*s.sel),
                                    children=[conv(c) for c in s.children])

        return [conv(s) for s in An.symbols(ls.document(params.text_document.uri))]

    @server.feature(L.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: RecycleServer, params: L.DocumentFormattingParams) -> list[L.TextEdit]:
        doc = ls.document(params.text_document.uri)
        text, why = An.format_text(doc)
        if text is None:
            ls.window_show_message(L.ShowMessageParams(type=L.MessageType.Warning, message=why))
            return []
        if text == doc.text:
            return []
        end = (len(doc.lines) - 1, len(doc.lines[-1]))
        return [L.TextEdit(range=_range((0, 0), end), new_text=text)]

    return server


class BoundedInput:
    """The editor's end of stdio as the protocol reads it, with the sizes bounded: a message whose
    Content-Length passes MAX_MESSAGE_BYTES is refused before anything of it is read (pygls would
    allocate it whole), which ends the session; a header line is read at most MAX_HEADER_BYTES at a time."""

    def __init__(self, raw: BinaryIO) -> None:
        self.raw = raw
        self.refused: int | None = None

    def readline(self) -> bytes:
        return self.raw.readline(MAX_HEADER_BYTES)

    def read(self, n: int) -> bytes:
        if n > MAX_MESSAGE_BYTES:
            self.refused = n
            return b""  # no body: the protocol loop stops
        return self.raw.read(n)


class _ClientErrors(logging.Formatter):
    """pygls logs a message it cannot decode (the client's bad JSON) with its trace: one line says it."""

    def format(self, record: logging.LogRecord) -> str:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, ValueError):
            return f"recycle lsp: {record.getMessage()}: {exc}"
        return super().format(record)


def serve(dialect: str = "auto", stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_ClientErrors())
    log = logging.getLogger("pygls")
    log.addHandler(handler)
    log.propagate = False
    reader = BoundedInput(stdin or sys.stdin.buffer)
    try:
        make_server(dialect).start_io(reader, stdout)  # type: ignore[arg-type]
    finally:
        log.removeHandler(handler)
        log.propagate = True
    if reader.refused is not None:
        raise UsageError(f"a message of {reader.refused:,} bytes from the editor is larger than "
                         f"{MAX_MESSAGE_BYTES:,} bytes, the limit of one message (MAX_MESSAGE_BYTES, docs/limits.md)")
