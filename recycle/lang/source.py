"""Where game text comes from: a file read once, as text, with its name for positions and its hashes."""
from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from ..errors import Diagnostic, LoadError, Span


def source_hash(text: str) -> str:
    """The `sha256:<hex>` of a game text (UTF-8), as `Loaded.source_hash` reports it."""
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def _file_error(path: str | Path, message: str) -> LoadError:
    return LoadError([Diagnostic("error", "file", message, Span(str(path), 0, 0))])


# The largest game file read (docs/limits.md): the largest shipped game is about 17 KB.
MAX_FILE_BYTES = 1_000_000


def read_bytes(path: str | Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a game file; a missing, unreadable, special or oversized file is a LoadError naming it.

    Only regular files are opened for reading (a FIFO would block, /dev/zero never ends), and
    at most `limit` bytes are read whatever the file claims its size is.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                if stat.S_ISDIR(os.fstat(fd).st_mode):
                    raise _file_error(path, "is a directory, not a game file")
                raise _file_error(path, "is not a regular file (a device, FIFO or socket): "
                                  "game files are read only from regular files")
            with os.fdopen(fd, "rb", closefd=False) as f:
                data = f.read(limit + 1)
        finally:
            os.close(fd)
    except FileNotFoundError:
        raise _file_error(path, "no such file") from None
    except IsADirectoryError:
        raise _file_error(path, "is a directory, not a game file") from None
    except OSError as e:
        raise _file_error(path, f"cannot read: {e.strerror or e}") from None
    if len(data) > limit:
        raise _file_error(path, f"is larger than {limit:,} bytes, the limit of a game file "
                          "(MAX_FILE_BYTES, docs/limits.md)")
    return data


class SourceFile:
    """The text of one game file, with its name for positions, its lines for carets and its hashes.

    `sha256` is the hex digest of the bytes the text came from (the file as stored, byte-order
    mark included), the digest transcripts record; a text made in memory hashes its UTF-8 form.
    """

    def __init__(self, text: str, filename: str = "<string>", sha256: str | None = None, dialect: str = "auto"):
        # how to read it: "auto", "modern" or "xam" (recycle/lang/xam.py); it travels with the text
        # to the worker processes that compile the same text
        self.dialect = dialect
        self.sha256 = sha256 if sha256 is not None else hashlib.sha256(text.encode("utf-8")).hexdigest()
        if text.startswith("\ufeff"):
            text = text[1:]
        self.text = text
        self.filename = filename
        self.lines = text.split("\n")

    @classmethod
    def read(cls, path: str | Path, dialect: str = "auto") -> SourceFile:
        """Read a game file once; a missing, unreadable or non-UTF-8 file is a LoadError with its position."""
        return cls.from_bytes(read_bytes(path), path, dialect)

    @classmethod
    def from_bytes(cls, data: bytes, path: str | Path, dialect: str = "auto") -> SourceFile:
        """The text of a game file's bytes; bytes that are not UTF-8 are a LoadError with their position."""
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            # Columns count code points and skip the byte-order mark (§2.8);
            # the bytes before e.start are valid UTF-8 by definition.
            line = data[: e.start].count(b"\n") + 1
            line_start = data.rfind(b"\n", 0, e.start) + 1
            prefix = data[line_start : e.start].decode("utf-8")
            if line_start == 0:
                prefix = prefix.removeprefix("\ufeff")
            col = len(prefix) + 1
            raise LoadError(
                [Diagnostic("error", "lexical", "the file is not UTF-8 text", Span(str(path), line, col))]
            ) from None
        return cls(text, str(path), hashlib.sha256(data).hexdigest(), dialect)

    def line(self, n: int) -> str | None:
        return self.lines[n - 1] if 1 <= n <= len(self.lines) else None

    def span(self, line: int, column: int, end_line: int = 0, end_column: int = 0) -> Span:
        return Span(self.filename, line, column, end_line, end_column)

    def diag(self, severity: str, cls: str, message: str, span: Span, notes: Iterable[str] = ()) -> Diagnostic:
        return Diagnostic(severity, cls, message, span, self.line(span.line), tuple(notes))
