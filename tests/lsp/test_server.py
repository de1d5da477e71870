"""`recycle lsp` driven over stdio as an editor drives it: JSON-RPC messages framed by Content-Length.

One server process answers a whole session: initialize, didOpen of a game with an error (the
diagnostic comes back with its range), didChange fixing it (the diagnostics clear), hover on a
form and on a name, completion of location names, go to definition, references, the outline,
formatting (refused for a commented file), shutdown and exit (status 0).
"""
from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from support import REPO

pytest.importorskip("pygls", reason="the lsp extra (pip install 'recycle[lsp]') is not installed")

TIMEOUT = 30.0

BROKEN = """;; a small game for the server
(game
 (define (HAND 'P) ('P iloc HAND))
 (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (A, B, C)))))
 (do ((all player 'P (move (top (game iloc STOCK)) (top (HAND 'P))))))
 (stage player
  (end (== (size (game iloc STOCK)) 0))
  (choice ((any (HAND (current player)) 'C (move 'C (top (game vloc DISCARD)))))))
 (scoring max (sise (HAND (current player)))))
"""
FIXED = BROKEN.replace("sise", "size")


class Client:
    """A minimal LSP client: requests wait for their answer; notifications are kept in order."""

    def __init__(self, cwd: Path, *args: str, path: tuple[Path, ...] = ()):
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, (*path, REPO)))}
        self.proc = subprocess.Popen([sys.executable, "-m", "recycle", "lsp", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd, env=env)
        self.messages: queue.Queue = queue.Queue()
        self.notes: list[dict] = []
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            headers = {}
            while True:
                line = out.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                k, v = line.decode().split(":", 1)
                headers[k.lower()] = v.strip()
            body = out.read(int(headers["content-length"]))
            self.messages.put(json.loads(body))

    def send(self, msg: dict) -> None:
        data = json.dumps({"jsonrpc": "2.0", **msg}).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: dict | None) -> object:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        while True:
            msg = self.messages.get(timeout=TIMEOUT)
            assert msg is not None, "the server closed its output"
            if msg.get("id") == self.next_id and "method" not in msg:
                assert "error" not in msg, msg
                return msg.get("result")
            self._keep(msg)

    def _keep(self, msg: dict) -> None:
        if "method" in msg and "id" in msg:  # a request from the server (e.g. registration): accept it
            self.send({"id": msg["id"], "result": None})
        else:
            self.notes.append(msg)

    def diagnostics(self, uri: str) -> list[dict]:
        """Wait for the next diagnostics published for uri."""
        for i, msg in enumerate(self.notes):
            if msg.get("method") == "textDocument/publishDiagnostics" and msg["params"]["uri"] == uri:
                del self.notes[: i + 1]
                return msg["params"]["diagnostics"]
        while True:
            msg = self.messages.get(timeout=TIMEOUT)
            assert msg is not None, "the server closed its output"
            if msg.get("method") == "textDocument/publishDiagnostics" and msg["params"]["uri"] == uri:
                return msg["params"]["diagnostics"]
            self._keep(msg)


def pos(text: str, needle: str, offset: int = 0) -> dict:
    """The position of the first `needle` in text (plus offset characters)."""
    i = text.index(needle) + offset
    line = text.count("\n", 0, i)
    return {"line": line, "character": i - (text.rfind("\n", 0, i) + 1)}


def test_a_session_over_stdio(tmp_path):
    path = tmp_path / "small.gdl"
    path.write_text(BROKEN, "utf-8")
    uri = path.resolve().as_uri()
    c = Client(tmp_path)
    try:
        init = c.request("initialize", {"processId": os.getpid(), "rootUri": tmp_path.as_uri(), "capabilities": {}})
        caps = init["capabilities"]
        assert caps["hoverProvider"] and caps["definitionProvider"] and caps["documentSymbolProvider"]
        assert caps["completionProvider"] and caps["referencesProvider"] and caps["documentFormattingProvider"]
        c.notify("initialized", {})

        # an error: an unknown keyword, with its range
        c.notify("textDocument/didOpen",
                 {"textDocument": {"uri": uri, "languageId": "recycle", "version": 1, "text": BROKEN}})
        diags = c.diagnostics(uri)
        errors = [d for d in diags if d["severity"] == 1]
        assert len(errors) == 1, diags
        assert "unknown keyword `sise`" in errors[0]["message"]
        assert errors[0]["range"] == {"start": pos(BROKEN, "sise"), "end": pos(BROKEN, "sise", 4)}
        assert errors[0]["source"] == "recycle"

        # the fix: the diagnostics clear
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                            "contentChanges": [{"text": FIXED}]})
        assert [d for d in c.diagnostics(uri) if d["severity"] == 1] == []

        # hover on a form: its signature and the first paragraph of its section of docs/language.md
        h = c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": pos(FIXED, "choice", 2)})
        assert "(choice (CLAUSE+))" in h["contents"]["value"]
        assert "decision point" in h["contents"]["value"] and "§4.7" in h["contents"]["value"]
        # hover on a location name: what it is and who sees it
        h = c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": pos(FIXED, "DISCARD", 1)})
        assert "location" in h["contents"]["value"] and "vloc" in h["contents"]["value"]

        # completion of a location's name after its kind
        text2 = FIXED.replace("(top (game vloc DISCARD))", "(top (game vloc D))")
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3},
                                            "contentChanges": [{"text": text2}]})
        comp = c.request("textDocument/completion",
                         {"textDocument": {"uri": uri}, "position": pos(text2, "(game vloc D)", len("(game vloc "))})
        labels = {i["label"] for i in comp["items"]}
        assert {"STOCK", "HAND", "D"} <= labels
        assert "move" not in labels
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 4},
                                            "contentChanges": [{"text": FIXED}]})

        # go to definition: the use of HAND in scoring -> its define
        use = pos(FIXED, "(HAND (current player)))))", 2)
        d = c.request("textDocument/definition", {"textDocument": {"uri": uri}, "position": use})
        d = d[0] if isinstance(d, list) else d
        assert d["uri"] == uri and d["range"]["start"] == pos(FIXED, "HAND 'P)", 0)
        refs = c.request("textDocument/references", {"textDocument": {"uri": uri}, "position": use,
                                                     "context": {"includeDeclaration": True}})
        assert len(refs) == 4  # the define and three uses

        # the outline: the definition, setup, the stage with its choice, scoring
        syms = c.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
        names = [s["name"] for s in syms]
        assert names == ["(HAND 'P)", "setup", "do", "stage player", "scoring"]
        stage = syms[3]
        assert [s["name"] for s in stage["children"]] == ["choice"]

        # formatting: the canonical printer drops comments, so a commented file is not formatted
        edits = c.request("textDocument/formatting", {"textDocument": {"uri": uri},
                                                      "options": {"tabSize": 1, "insertSpaces": True}})
        assert edits == []
        shown = [n for n in c.notes if n.get("method") == "window/showMessage"]
        assert shown and "comment" in shown[-1]["params"]["message"]

        # a variant: go to definition of a name its base defines opens the base
        vpath = tmp_path / "corner.gdl"
        vtext = '(game (extends "gin_rummy")\n (define (DEADWOOD \'P) (deadwood (HAND \'P) using \'MELDS (game points VALUE))))\n'
        vpath.write_text(vtext, "utf-8")
        vuri = vpath.resolve().as_uri()
        c.notify("textDocument/didOpen",
                 {"textDocument": {"uri": vuri, "languageId": "recycle", "version": 1, "text": vtext}})
        assert c.diagnostics(vuri) == []
        d = c.request("textDocument/definition", {"textDocument": {"uri": vuri}, "position": pos(vtext, "(HAND", 1)})
        d = d[0] if isinstance(d, list) else d
        assert d["uri"].endswith("/gin_rummy.gdl")

        assert c.request("shutdown", None) is None
        c.notify("exit", None)
        assert c.proc.wait(timeout=TIMEOUT) == 0
    finally:
        if c.proc.poll() is None:
            c.proc.kill()
            c.proc.wait()


def test_without_pygls_the_command_names_the_extra(tmp_path):
    """With pygls hidden, `recycle lsp` says which extra to install (exit 2, no traceback)."""
    hide = tmp_path / "hide"
    hide.mkdir()
    (hide / "sitecustomize.py").write_text(
        "import sys\nclass Block:\n    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('pygls', 'lsprotocol'):\n            raise ImportError(name=name)\n"
        "sys.meta_path.insert(0, Block())\n", "utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(hide), str(REPO)])}
    r = subprocess.run([sys.executable, "-m", "recycle", "lsp"], capture_output=True, text=True, env=env,
                       timeout=60, stdin=subprocess.DEVNULL)
    assert r.returncode == 2
    assert "recycle[lsp]" in r.stderr and "pygls" in r.stderr
    assert "Traceback" not in r.stderr


# A game in the older CardStockXam dialect: its award conditions have no colon (docs/language.md §27).
OLD = """(game
 (setup (create players 2)
        (create deck (game iloc STOCK) (deck (RANK (ACE, TWO)) (SUIT (HEARTS, SPADES)))))
 (do ((set (game points VALUE) (((RANK (ACE)) 11) ((RANK TWO) 2)))))
 (stage player
        (end (== (size (game iloc STOCK)) 0))
        (choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))
 (scoring max (sum ((current player) iloc HAND) using (game points VALUE))))
"""


def _old_diagnostics(tmp_path, args: tuple[str, ...], options: object = None) -> tuple[list[dict], list[str]]:
    """The diagnostics of OLD in a server started with args and given options at initialize, and the
    messages it showed."""
    path = tmp_path / "old.gdl"
    path.write_text(OLD, "utf-8")
    uri = path.resolve().as_uri()
    c = Client(tmp_path, *args)
    try:
        init: dict = {"processId": os.getpid(), "rootUri": tmp_path.as_uri(), "capabilities": {}}
        if options is not None:
            init["initializationOptions"] = options
        c.request("initialize", init)
        c.notify("initialized", {})
        c.notify("textDocument/didOpen",
                 {"textDocument": {"uri": uri, "languageId": "recycle", "version": 1, "text": OLD}})
        diags = c.diagnostics(uri)
        assert c.request("shutdown", None) is None
        c.notify("exit", None)
        assert c.proc.wait(timeout=TIMEOUT) == 0
        shown = [n["params"]["message"] for n in c.notes if n.get("method") == "window/showMessage"]
        return [(d["severity"], d["code"]) for d in diags], shown
    finally:
        if c.proc.poll() is None:
            c.proc.kill()


def test_the_dialect_comes_from_the_command_line_and_the_editor_may_replace_it(tmp_path):
    # default auto: the old file is read as xam, with a warning at the form that decided it
    assert _old_diagnostics(tmp_path, ()) == ([(2, "dialect")], [])
    # --dialect modern: the old forms are errors; --dialect xam: read as xam without a word
    diags, _ = _old_diagnostics(tmp_path, ("--dialect", "modern"))
    assert (1, "unsupported") in diags and all(sev == 1 for sev, _ in diags)
    assert _old_diagnostics(tmp_path, ("--dialect", "xam")) == ([], [])
    # the editor's initialization option overrides the command line
    assert _old_diagnostics(tmp_path, ("--dialect", "modern"), {"dialect": "xam"}) == ([], [])
    # an unknown dialect in the options is shown, and the command line's stays
    diags, shown = _old_diagnostics(tmp_path, ("--dialect", "xam"), {"dialect": "ancient", "other": 1})
    assert diags == [] and len(shown) == 1 and "unknown dialect 'ancient'" in shown[0]


# Put on the server's path as sitecustomize: every check takes 2 s more, as a large file with a
# missing `)` can (the reader searches where it goes).
SLOW_CHECKS = """
import time
from recycle.lsp import analysis
_check = analysis.diagnose
def _slow(doc):
    time.sleep(2.0)
    return _check(doc)
analysis.diagnose = _slow
"""


def test_requests_are_answered_while_a_file_is_checked_and_a_stale_check_is_not_published(tmp_path):
    shim = tmp_path / "shim"
    shim.mkdir()
    (shim / "sitecustomize.py").write_text(SLOW_CHECKS, "utf-8")
    path = tmp_path / "small.gdl"
    path.write_text(BROKEN, "utf-8")
    uri = path.resolve().as_uri()
    c = Client(tmp_path, path=(shim,))
    try:
        c.request("initialize", {"processId": os.getpid(), "rootUri": tmp_path.as_uri(), "capabilities": {}})
        c.notify("initialized", {})
        c.notify("textDocument/didOpen",
                 {"textDocument": {"uri": uri, "languageId": "recycle", "version": 1, "text": BROKEN}})
        # asked while the broken text is being checked: answered at once, before its diagnostics
        h = c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": pos(BROKEN, "choice", 2)})
        assert "(choice (CLAUSE+))" in h["contents"]["value"]
        assert not any(n.get("method") == "textDocument/publishDiagnostics" for n in c.notes)
        # fixed (and saved) before that check ends: only the fixed text's diagnostics are published
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                            "contentChanges": [{"text": FIXED}]})
        c.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
        assert [d for d in c.diagnostics(uri) if d["severity"] == 1] == []
        c.request("shutdown", None)
        assert not any(n.get("method") == "textDocument/publishDiagnostics" for n in c.notes)
        c.notify("exit", None)
        assert c.proc.wait(timeout=TIMEOUT) == 0
    finally:
        if c.proc.poll() is None:
            c.proc.kill()


def lsp_fed(data: bytes) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "recycle", "lsp"], input=data, capture_output=True, env=env,
                          timeout=TIMEOUT)


def test_a_message_longer_than_the_limit_is_refused_unread():
    """A Content-Length of 10**14 was allocated whole (out of memory, or gigabytes taken on a big machine)."""
    p = lsp_fed(b"Content-Length: 99999999999999\r\n\r\n{}")
    err = p.stderr.decode()
    assert p.returncode == 2 and "99,999,999,999,999 bytes from the editor is larger than" in err
    assert "MAX_MESSAGE_BYTES" in err and "Traceback" not in err


def test_a_message_that_is_not_json_is_one_line_on_stderr():
    p = lsp_fed(b'Content-Length: 5\r\n\r\n{"a":')
    err = p.stderr.decode()
    assert p.returncode == 0 and "Traceback" not in err
    assert err.strip() == "recycle lsp: Unable to handle message: Expecting value: line 1 column 6 (char 5)"
    assert b"Error in server" in p.stdout  # the editor is told too
