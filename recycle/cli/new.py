"""`recycle new NAME [--from GAME]`: write a new game file that checks and plays at once.

Without --from, a small commented game to change (draw one, discard one, best total wins), its
rules written as definitions so that each is stated once. With --from, a variant,
`(game (extends "GAME") …)`, with a header to fill in and the base's definitions listed in a
comment as the places a variant changes. An existing file is never overwritten unless --force.

No --dialect: `new` loads no game. It writes the modern language only, and reads a --from base only
for the names of its declares and definitions, which the older CardStockXam dialect writes alike; the
commands that load the new file take --dialect (with auto, a modern variant may extend an old base).
"""
from __future__ import annotations

import argparse
import contextlib
import os
import re
import secrets
from pathlib import Path

from ..errors import UsageError
from ..lang import library
from ..lang.reader import read_sexprs
from ..lang.sexprs import Atom, SList
from ..lang.source import SourceFile

TEMPLATE = """\
;; {title}
;;
;; A first game to change: draw a card, throw one away, keep the best hand.
;;
;; Rules
;;   * One deck of twenty cards, ranks one to five in four suits; each player is dealt
;;     HANDSIZE cards.
;;   * On a turn a player draws the top card of the stock, then discards a card of their
;;     choice face up.
;;   * The game ends when the stock is empty: a player scores the values of the cards in
;;     their hand (one to five) and the highest total wins.
;;
;; Parameters: HANDSIZE (default 3), the cards dealt to each player.
;; Players: 2.
(game
 (declare 3 'HANDSIZE)
 ;; Each rule is a definition, stated once, so that a variant can change it in one line.
 (define (HAND 'P) ('P iloc HAND))
 (define (DRAW 'P) (move (top (game iloc STOCK)) (top (HAND 'P))))
 (define (TOTAL 'P) (sum (HAND 'P) using (game points VALUE)))

 (setup
  (create players 2)
  (create deck (game iloc STOCK)
   (deck (RANK (ONE, TWO, THREE, FOUR, FIVE))
         (SUIT (CLUBS, DIAMONDS, HEARTS, SPADES)))))

 ;; Card values for the final count, then the deal.
 (do ((set (game points VALUE)
       (((RANK : ONE) 1) ((RANK : TWO) 2) ((RANK : THREE) 3) ((RANK : FOUR) 4) ((RANK : FIVE) 5)))
      (shuffle (game iloc STOCK))
      (all player 'P (repeat 'HANDSIZE (DRAW 'P)))))

 ;; One pass of the stage is one player's turn: draw, then discard a card of their choice.
 (stage player
  (end (== (size (game iloc STOCK)) 0))
  (do ((DRAW (current player))))
  (choice ((any (HAND (current player)) 'C (move 'C (top (game vloc DISCARD)))))))

 (scoring max (TOTAL (current player))))
"""

VARIANT = """\
;; {title}
;;
;; A variant of {base_title} ({base}): what it changes, in a sentence.
;;
;; Rules
;;   * As {base}, except: (write each rule this variant changes, in plain words).
;;
;; Parameters: as {base}.
;; Players: as {base}.
;;
;; A variant states only what it changes (docs/language.md §24): a (declare V 'X) or a
;; (define (NAME …) BODY) of the base replaced by one of the same name, or its (limits …),
;; (setup …) or (scoring …). {base} declares{declares}
;; and defines{defines}.
(game (extends "{base}")
{first_change}
 )
"""


NO_DIALECT = ("`recycle new` writes the modern language only and loads no game (a --from base is read only for "
              "the names it declares and defines); give --dialect to the commands that load the file, e.g. "
              "`recycle check --dialect xam`")


def register(sub) -> None:
    """Add `new` to the CLI's subcommands."""
    c = sub.add_parser("new", help="write a new game file (a template, or a variant of GAME) that checks and plays")
    c.add_argument("name", metavar="NAME", help="the new file: NAME.gdl, or a path ending in .gdl or .rcy")
    c.add_argument("--from", dest="base", metavar="GAME", help="build on GAME: a shipped game's name or a .gdl file")
    c.add_argument("--force", action="store_true", help="overwrite the file if it exists")
    # Taken only to refuse it with a reason: every other command that names a game reads --dialect.
    c.add_argument("--dialect", metavar="DIALECT", help=f"not taken: {NO_DIALECT}")
    c.set_defaults(func=cmd_new)


def _write(path: Path, text: str) -> None:
    """Write the file whole or not at all: through a temporary file beside it, renamed over it once written
    (a full disk left an empty file that the next try refused to overwrite, and --force lost the old one)."""
    tmp: Path | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
        with open(tmp, "x", encoding="utf-8") as f:  # (the user's umask applies, as to any new file)
            f.write(text)
        os.replace(tmp, path)
    except OSError as e:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise UsageError(f"{path}: cannot write ({e.strerror or e})") from None


def target(name: str) -> Path:
    p = Path(name)
    if not p.name or p.name in (".", "..") or name.endswith(("/", "\\")):  # "", ".", "dir/": no file named
        raise UsageError(f"{name!r}: give the name of the game file to write, e.g. my_game or games/my_game.gdl")
    return p if p.suffix in (".gdl", ".rcy") else p.with_name(p.name + ".gdl")


def _title(path: Path) -> str:
    return " ".join(w.capitalize() for w in re.split(r"[_\-\s]+", path.stem) if w) or "New game"


def _names(path: Path) -> tuple[list[str], list[str]]:
    """The base's declared variables and definitions, as a variant may replace them."""
    forms, _ = read_sexprs(SourceFile.read(path))
    game = forms[0] if forms and isinstance(forms[0], SList) else SList(())
    declares, defines = [], []
    for f in game.items[1:]:
        if not (isinstance(f, SList) and f.items and isinstance(f.head, Atom)):
            continue
        if f.head.text == "declare" and len(f) == 3 and isinstance(f[2], Atom):
            declares.append(f[2].text)
        elif f.head.text == "define" and len(f) == 3:
            head = f[1].head if isinstance(f[1], SList) else f[1]
            if isinstance(head, Atom):
                defines.append(head.text)
    return declares, defines


def _listing(words: list[str]) -> str:
    if not words:
        return " nothing"
    out, line = [], ""
    for w in words:
        if len(line) + len(w) > 70:
            out.append(line)
            line = ""
        line += " " + w
    out.append(line)
    return "\n;; ".join(out)


def variant_text(path: Path, base: str) -> str:
    base_path = library.resolve(base)
    if path.exists() and os.path.samefile(path, base_path):  # even with --force: the base's text would be lost
        raise UsageError(f"{path}: is the game --from {base} names; a variant cannot replace the game it builds "
                         "on (give the variant another name)")
    declares, defines = _names(base_path)
    text = base_path.read_text("utf-8")
    base_title = library.info(base_path.stem, base_path, text).title
    name = Path(base).stem if Path(base).suffix else base
    if Path(base).suffix:  # a file: the variant names it relative to its own folder
        try:
            name = base_path.resolve().relative_to(path.resolve().parent).as_posix()
        except ValueError:
            raise UsageError(f"{base}: a variant's base must be a shipped game or lie in the variant's folder "
                             f"({path.resolve().parent})") from None
    # A first change that keeps the game as it is: the base's first declare, stated again.
    first = ""
    if declares:
        m = re.search(r"^\s*\(declare .*'" + re.escape(declares[0][1:]) + r"\)\s*$", text, re.M)
        if m:
            first = " ;; A first change to make: this declare is the base's, as it stands.\n" + m.group(0).rstrip()
    return VARIANT.format(title=_title(path), base=name, base_title=base_title, declares=_listing(declares),
                          defines=_listing(defines), first_change=first or " ;; (write the changes here)")


def cmd_new(args: argparse.Namespace) -> int:
    if args.dialect is not None:
        raise UsageError(f"--dialect {args.dialect}: {NO_DIALECT}")
    path = target(args.name)
    if path.exists() and not args.force:
        raise UsageError(f"{path}: the file exists; not overwritten (use --force to replace it)")
    text = variant_text(path, args.base) if args.base else TEMPLATE.format(title=_title(path))
    _write(path, text)
    print(f"wrote {path}: check it with `recycle check {path}`, play it with `recycle run {path}`")
    return 0
