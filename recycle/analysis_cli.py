"""The analysis commands of the CLI: flow and stats (flow-and-analytics §6)."""
from __future__ import annotations


def register(sub) -> None:
    """Add flow and stats to the CLI's subcommands."""
