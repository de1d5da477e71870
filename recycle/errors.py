"""Diagnostics: the one user-facing error family, with positions and carets."""
from __future__ import annotations

from collections.abc import Iterable

import attrs


@attrs.frozen(slots=True)
class Span:
    """Where a token or form stands in its file (lines and columns from 1)."""

    file: str
    line: int
    column: int
    end_line: int = 0
    end_column: int = 0

    def __str__(self) -> str:
        # a file's name may hold terminal escapes (a folder of games from elsewhere): shown inert, never cut
        file = cut_text(self.file, len(self.file))
        if self.line <= 0:  # a whole-file problem (missing, unreadable)
            return file
        return f"{file}:{self.line}:{self.column}"


NOWHERE = Span("<unknown>", 0, 0)

# At most this many errors of one file are printed, then "… and K more errors" (`recycle check --max-errors`).
MAX_SHOWN_ERRORS = 20
# A message or quoted source line is cut to about this many characters (a one-line file of 60 KB
# must not be printed once per error).
MAX_SHOWN_CHARS = 200


def cut_text(text: str, limit: int = MAX_SHOWN_CHARS) -> str:
    """A text from a file made safe to print: control characters (terminal escapes) as U+FFFD, at most `limit`."""
    if not text.isprintable():
        text = "".join(c if c.isprintable() else "\ufffd" for c in text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _window(src: str, column: int, width: int = MAX_SHOWN_CHARS) -> tuple[str, int]:
    """A source line cut to `width` characters around `column` (1-based), and the column within the cut."""
    src = cut_text(src, len(src))
    if len(src) <= width:
        return src, column
    start = max(0, min(column - 1 - width // 2, len(src) - width))
    cut = src[start: start + width]
    if start > 0:
        cut = "…" + cut[1:]
    if start + width < len(src):
        cut = cut[:-1] + "…"
    return cut, column - start


def format_errors(diagnostics: Iterable[Diagnostic], limit: int | None = MAX_SHOWN_ERRORS,
                  caret: bool = True) -> list[str]:
    """The formatted diagnostics, the first `limit` of them (None: all), then a line "… and K more errors"."""
    diags = list(diagnostics)
    shown = diags if limit is None or limit <= 0 else diags[:limit]
    out = [d.format(caret) for d in shown]
    if len(shown) < len(diags):
        k = len(diags) - len(shown)
        out.append(f"… and {k} more error{'s' if k != 1 else ''} (not shown)")
    return out


@attrs.frozen(slots=True)
class Diagnostic:
    """One error or warning: severity, class (lexical, syntax, type, ...), message, position."""

    severity: str  # "error" | "warning"
    cls: str
    message: str
    span: Span
    source_line: str | None = None
    notes: tuple[str, ...] = ()

    def format(self, caret: bool = True) -> str:
        """Render as `FILE:LINE:COLUMN: severity[class]: message`, the source line and a caret."""
        head = f"{self.span}: {self.severity}[{self.cls}]: {cut_text(self.message, 4 * MAX_SHOWN_CHARS)}"
        lines = [head]
        for note in self.notes:
            lines.append(f"    {cut_text(note, 4 * MAX_SHOWN_CHARS)}")
        if caret and self.source_line is not None and self.span.column > 0:
            src, col = _window(self.source_line.rstrip("\n").replace("\t", " "), self.span.column)
            lines.append(f"    {src}")
            lines.append("    " + " " * (col - 1) + "^")
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {
            "line": self.span.line,
            "column": self.span.column,
            "class": self.cls,
            "message": self.message,
        }


class RecycleError(Exception):
    """Base of every error caused by what a user wrote or asked for (never a bug)."""

    def __init__(self, message: str, diagnostics: Iterable[Diagnostic] = ()):
        super().__init__(message)
        self.diagnostics: list[Diagnostic] = list(diagnostics)

    def format(self) -> str:
        if self.diagnostics:
            return "\n".join(format_errors(self.diagnostics))
        return str(self)


class LoadError(RecycleError):
    """A game file that cannot be loaded: every load-time error found in it."""

    def __init__(self, diagnostics: Iterable[Diagnostic], warnings: Iterable[Diagnostic] = ()):
        diags = list(diagnostics)
        first = diags[0].format(caret=False) if diags else "load error"
        more = f" (and {len(diags) - 1} more)" if len(diags) > 1 else ""
        super().__init__(first + more, diags)
        self.warnings: list[Diagnostic] = list(warnings)


class GameRuntimeError(RecycleError):
    """A run-time error of the game (language spec §19.4): the game stops with outcome `error`."""

    def __init__(self, cls: str, message: str, span: Span = NOWHERE, context: tuple[str, ...] = ()):
        self.cls = cls
        self.span = span
        self.context = context
        self.message = message
        super().__init__(f"{span}: error[{cls}]: {message}")

    def with_context(self, *notes: str) -> GameRuntimeError:
        return GameRuntimeError(self.cls, self.message, self.span, self.context + notes)

    def format(self) -> str:
        return "\n".join([str(self)] + [f"    {c}" for c in self.context])


class UsageError(RecycleError):
    """A bad command-line request: unknown game, bad flag value, missing file."""


class InternalError(Exception):
    """A bug in recycle itself; never a game outcome."""
