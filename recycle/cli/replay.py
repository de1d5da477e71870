"""`recycle replay`: replay a transcript exactly and print the game."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..run.replay import replay
from ..run.transcript import dumps, render_text
from .options import add_dialect_option


def register(sub) -> None:
    """Add `replay` to the CLI's subcommands."""
    rp = sub.add_parser("replay", help="replay a transcript exactly and print the game",
                        description="Replay a transcript (.jsonl) with its recorded choices, check that it "
                                    "reproduces, and print a readable account of the game (omniscient view).")
    rp.add_argument("transcript", type=Path, metavar="TRANSCRIPT")
    rp.add_argument("--game", type=Path,
                    help="the game file (default: the file the header names inside the transcript's folder, "
                         "else the shipped game of the header's name; never a path elsewhere)")
    rp.add_argument("--no-verify", action="store_true",
                    help="do not compare the end and the events with the transcript")
    rp.add_argument("--force", action="store_true",
                    help="replay even if the game file changed (with a warning), as long as it loads as a game")
    rp.add_argument("--json", action="store_true", help="print the regenerated full transcript as JSON lines")
    add_dialect_option(rp, None, "; default: the dialect the transcript's header records, else auto")
    rp.set_defaults(func=cmd_replay)



def cmd_replay(args: argparse.Namespace) -> int:
    lines, warnings = replay(args.transcript, args.game, verify=not args.no_verify, force=args.force,
                             dialect=args.dialect)
    for w in warnings:
        print(f"warning: {w}", file=sys.stderr)
    if args.json:
        for ev in lines:
            print(dumps(ev))
    else:
        print(render_text(lines))
        print(f"replay ok: {sum(1 for ev in lines if ev['type'] == 'decision')} decisions reproduced", file=sys.stderr)
    return 0
