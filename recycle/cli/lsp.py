"""`recycle lsp`: the Language Server over stdio, for any editor (needs the `lsp` extra)."""
from __future__ import annotations

import argparse

from ..errors import UsageError
from .options import add_dialect_option


def register(sub) -> None:
    """Add `lsp` to the CLI's subcommands."""
    c = sub.add_parser("lsp", help="run the language server for editors (stdio; needs recycle[lsp])")
    add_dialect_option(c, more=". The editor may replace it: the initialization option {\"dialect\": …} "
                              "(VS Code: the setting recycle.dialect)")
    c.set_defaults(func=cmd_lsp)


def cmd_lsp(args: argparse.Namespace) -> int:
    try:
        from ..lsp.server import serve
    except ImportError as e:
        if e.name and e.name.split(".")[0] in ("pygls", "lsprotocol"):
            raise UsageError("`recycle lsp` needs pygls: install the lsp extra, pip install 'recycle[lsp]'") from None
        raise
    serve(args.dialect)
    return 0
