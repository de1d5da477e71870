"""A person at the terminal (lineup code `H`) and the `recycle play` command.

At each of its decisions the human player prints what its seat observes (language spec §17:
its own piles with their cards, the public piles, the sizes and card backs of the piles it
cannot see, the storage that is set, whose turn it is) and the options as described to that
seat (§6.9: cards it cannot see are named by their position), numbered from 1.  It reads a
number from its input; anything else is explained and asked again.  `q` (or the end of the
input) quits cleanly: `HumanQuit`, a UsageError, is raised and `recycle play` turns it into
"game abandoned", exit status 0, no traceback.  A decision with a single option is taken
without asking (the option is shown).

`recycle play` (recycle.cli.play) seats this player and narrates every other player's
decision, with `Narrated`, as the human seat may see it.
"""
from __future__ import annotations

import sys
from typing import TextIO

from ..compiler.items import SampledOptions
from ..engine.play import samples_atomic
from ..engine.state import KIND_WORDS
from ..errors import UsageError, cut_text
from .base import Player
from .stepwise import REPLY_CHARS, ListedSteps, StepMenu, WalkedSteps, needs_steps

KIND_IDS = {w: k for k, w in enumerate(KIND_WORDS)}
# The longest reply read at once; a longer line is refused as a whole.
MAX_LINE = 4096
# The most of an overlong line dropped before the input counts as ended: an input that never ends a line
# (`< /dev/zero`) would otherwise be read forever.
MAX_DROPPED = 256 * MAX_LINE
# The most replies read for one decision (a wrong number, an empty line, a step of a built option):
# an input that sends replies that never choose (`yes x | recycle play …`) would otherwise be asked for ever.
MAX_REPLIES = 1000


class HumanQuit(UsageError):
    """The person asked to stop (q, or end of input)."""


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _loc_text(prog, key) -> str:
    """A location of a view (owner, kind word, name, index) as the game names it (Registry.loc_text)."""
    owner, kw, name, index = key
    pid = prog.pile_ids.get((0 if owner == "table" else int(owner[1:]), KIND_IDS[kw], name, index))
    if pid is not None:
        return prog.loc_text(pid)
    return f"{owner} {kw} {name}" + (f" {index}" if index else "")


def render_view(prog, st, seat: int, title: str | None = None) -> str:
    """What `seat` observes, as text: its piles, the table's, the other players', storage, the turn."""
    view = prog.view(st, seat)
    me = f"p{seat + 1}"
    groups: dict[str, list[str]] = {"mine": [], "table": [], "others": []}
    for key, (what, items) in view["piles"].items():
        loc = _loc_text(prog, key)
        if what == "cards":
            # the cards are listed bottom first; the last one is the top of the pile
            body = f"({len(items)}) " + ", ".join(prog.card_text(st, c) for c in items)
            if len(items) > 1:
                body += "  [top: last]"
        else:
            decks: dict[str, int] = {}
            for d in items:
                decks[d] = decks.get(d, 0) + 1
            body = _plural(len(items), "card") + " face down"
            if set(decks) != {"DEFAULT"}:
                body += " (" + ", ".join(f"{k} back x{v}" for k, v in decks.items()) + ")"
        owner = key[0]
        group = "mine" if owner == me else "table" if owner == "table" else "others"
        groups[group].append(f"    {loc}: {body}")
    turn = st.pcyc[-2] if len(st.pcyc) >= 2 else seat
    # an `ask` decision is taken during another player's turn: say whose
    whose = "your turn" if turn in (seat, -1) else f"asked during p{turn + 1}'s turn"
    lines = [title or f"== decision {view['decisions'] + 1}: {me}, {whose} =="]
    for group, title in (("mine", "Your piles"), ("table", "Table"), ("others", "Other players")):
        if groups[group]:
            lines.append(f"  {title}:")
            lines.extend(groups[group])
    if view["storage"]:
        lines.append("  Storage:")
        for (owner, kind, name), v in view["storage"].items():
            lines.append(f"    {owner} {kind} {name} = {_value_text(kind, v)}")
    return "\n".join(lines)


def _value_text(kind: str, v) -> str:
    """A storage value as the game text writes it: players as p1, point maps as ((ATTR : VALUE) POINTS) …."""
    if kind == "ply":
        return "nobody" if v is None else f"p{v + 1}"
    awards = getattr(v, "awards", None)
    if awards is not None:
        return " ".join(f"({' '.join(f'({k} : {x})' for k, x in conds)} {pts})" for conds, pts in awards) or "(empty)"
    return str(v)


def view_changes(prog, st, old: dict, new: dict) -> list[str]:
    """What changed between two views of one seat, as that seat may see it: cards that arrived or left
    piles it sees, sizes of piles it does not see, storage values."""
    out = []
    keys = list(old["piles"]) + [k for k in new["piles"] if k not in old["piles"]]
    for key in sorted(keys):
        a = old["piles"].get(key, ("cards", ()))
        b = new["piles"].get(key, ("cards", ()))
        if a == b:
            continue
        loc = _loc_text(prog, key)
        if a[0] == "cards" and b[0] == "cards":
            gone = [c for c in a[1] if c not in b[1]]
            came = [c for c in b[1] if c not in a[1]]
            parts = [f"+{prog.card_text(st, c)}" for c in came] + [f"-{prog.card_text(st, c)}" for c in gone]
            out.append(f"    {loc}: " + (", ".join(parts) if parts else "reordered"))
        elif len(a[1]) != len(b[1]):
            out.append(f"    {loc}: {len(a[1])} -> {_plural(len(b[1]), 'card')}")
    for key in list(old["storage"]) + [k for k in new["storage"] if k not in old["storage"]]:
        x, y = old["storage"].get(key), new["storage"].get(key)
        if x != y:
            owner, kind, name = key
            out.append(f"    {owner} {kind} {name}: {_value_text(kind, x) if x is not None else '-'} -> "
                       f"{_value_text(kind, y) if y is not None else '-'}")
    return out


def describe_option(prog, st, option, viewer: int | None) -> str:
    """One option's resolved actions as `viewer` may see them, joined by '; '."""
    return "; ".join(prog.describe(st, option, viewer=viewer)) or "(no visible action)"


class HumanPlayer(Player):
    """Asks a person: prints the seat's view and the options, reads a 1-based number (q quits)."""

    code = "H"
    atomic_sampling = False

    def __init__(self, inp: TextIO | None = None, out: TextIO | None = None, ask_forced: bool = False):
        super().__init__()
        self.inp = inp
        self.out = out
        self.ask_forced = ask_forced
        self.built: dict[int, list] = {}  # decision number -> steps of the option built there (stepwise)
        self._replies = 0  # replies read for the decision being asked (MAX_REPLIES)

    def start(self, prog, seat: int, seed: int) -> None:
        super().start(prog, seat, seed)
        self._last = None
        self.built = {}

    def _print(self, text: str = "") -> None:
        out = self.out or sys.stdout
        out.write(text + "\n")
        out.flush()

    def choose(self, prog, st) -> int:
        seat = st.chooser
        opts = st.opts
        self._replies = 0
        self._print()
        view = prog.view(st, seat)
        last = getattr(self, "_last", None)
        if last is not None:
            changes = view_changes(prog, st, last, view)
            if changes:
                self._print("  Since your last decision:")
                for line in changes:
                    self._print(line)
        self._last = view
        self._print(render_view(prog, st, seat))
        if needs_steps(opts):
            return self._build(prog, st, seat)
        descs = [describe_option(prog, st, o, seat) for o in opts]
        if len(opts) == 1 and not self.ask_forced:
            self._print(f"  Only one option, taken: {descs[0]}")
            return 0
        self._print(f"  Options ({len(opts)}):")
        width = len(str(len(opts)))
        for i, d in enumerate(descs, 1):
            self._print(f"    {i:>{width}}. {d}")
        while True:
            text = self._read(f"p{seat + 1}, choose 1-{len(opts)} (q to quit): ")
            if text is None:
                continue
            shown, ask = cut_text(text, REPLY_CHARS), f"type a number from 1 to {len(opts)}, or q to quit"
            try:
                k = int(text)
            except ValueError:
                self._print(f"  {shown!r} is not a number: {ask}")
                continue
            if not 1 <= k <= len(opts):
                self._print(f"  there is no option {shown}: {ask}")
                continue
            return k - 1

    def _build(self, prog, st, seat: int) -> int:
        """A decision too big for one list, built one action at a time (players.stepwise)."""
        opts = st.opts
        if type(opts) is SampledOptions:
            self._print("  This decision has too many options to list: build yours one action at a time.")
            source: ListedSteps | WalkedSteps = WalkedSteps(prog, st, seat)
        else:
            self._print(f"  {len(opts)} options: build yours one action at a time.")
            source = ListedSteps(prog, st, seat)
        i = StepMenu(source, self._print, self._read, seat).run()
        steps = getattr(opts[i], "steps", None)
        if steps is not None:  # kept for rebuilding the game afterwards (`recycle play`'s last view)
            self.built[st.decisions + 1] = steps
        return i

    def _read(self, prompt: str) -> str | None:
        """One stripped line of input after `prompt`; None for an empty line.  q (or the end of the input) quits."""
        out = self.out or sys.stdout
        self._replies += 1
        if self._replies > MAX_REPLIES:
            self._print()
            raise HumanQuit(f"{MAX_REPLIES:,} replies to one decision chose no option: game abandoned "
                            "(MAX_REPLIES, docs/limits.md)")
        out.write(prompt)
        out.flush()
        if (self.inp or sys.stdin) is None:  # started with its stdin closed (`<&-`): there is no input at all
            self._print()
            raise HumanQuit("there is no input (stdin is closed): game abandoned")
        try:
            line = (self.inp or sys.stdin).readline(MAX_LINE)
        except (UnicodeDecodeError, ValueError):  # bytes that are not text, a closed input
            self._print()
            self._print("  that input could not be read as text: type a number, or q to quit")
            return None
        if not line:
            self._print()
            raise HumanQuit("the input ended: game abandoned")
        if len(line) >= MAX_LINE and not line.endswith("\n"):
            rest, dropped = line, len(line)
            while rest and not rest.endswith("\n"):  # drop the rest of the line
                if dropped > MAX_DROPPED:
                    self._print()
                    raise HumanQuit(f"the input sent a line of over {MAX_DROPPED:,} characters without an end: "
                                    "game abandoned")
                rest = (self.inp or sys.stdin).readline(MAX_LINE)
                dropped += len(rest)
            self._print(f"  that line is too long (over {MAX_LINE} characters): type a number, or q to quit")
            return None
        text = line.strip()
        if text.lower() in ("q", "quit", "exit"):
            raise HumanQuit("you quit: game abandoned")
        return text or None


class Narrated(Player):
    """Wraps another player and prints each of its decisions as `viewer` may see it (None: everything)."""

    def __init__(self, inner: Player, viewer: int | None, out: TextIO | None = None):
        super().__init__()
        self.inner = inner
        self.viewer = viewer
        self.out = out
        self.code = getattr(inner, "code", "?")
        self.atomic_sampling = samples_atomic(inner)

    def start(self, prog, seat, seed):
        self.seat = seat
        self.inner.start(prog, seat, seed)

    def choose(self, prog, st) -> int:
        i = self.inner.choose(prog, st)
        n = len(st.opts)
        text = describe_option(prog, st, st.opts[i], self.viewer)
        out = self.out or sys.stdout
        out.write(f"  [{st.decisions + 1}] p{st.chooser + 1} ({self.code}) chose {i + 1} of {n}: {text}\n")
        out.flush()
        return i
