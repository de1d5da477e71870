"""A big decision built one action at a time, for a person at the terminal (`recycle play`).

When a decision has more options than fit on a screen (`SCREEN` lines), or its atomic blocks
have too many complete paths to list (the engine then lists a random sample, §15.4), the human
player does not get a list of every option: it builds its option one action at a time.  Each
step offers the actions that can come next (each leading to at least one legal complete
option, unless marked "unchecked", below), numbered; the person picks one, goes back a step
(`u`), narrows the list with a filter (`/text`), turns pages (`n`, `p`), or stops where the
actions chosen so far are a complete option (`0`).  A step with a single possible action is
taken at once and shown.  More than a screenful of actions is grouped by card and source
("move NINE-RED p1 iloc HAND": then pick the destination), else shown a page at a time.

Two sources give the steps:

* `ListedSteps`: the decision's options are all listed (no sampling): the steps are the
  options' action texts, as the seat sees them, read as a tree.
* `WalkedSteps`: the options were sampled.  The decision's option-building walks
  (Program.decision_sims) run again with a log that only lets through paths whose visible
  actions begin with the ones chosen so far (`_GuidedLog`): every path that strays is
  abandoned at its first different action, as the engine abandons a move that overfills a cell.
  One walk cut one action further lists what can come next; then walks of all those actions
  together, each allowing one more pass of the block's stages than the last, look for one
  complete path through each that passes the block's `require` (or show that none does: the
  action is dropped), without listing every complete path.  An action the step's budget leaves
  undecided is offered marked "unchecked".  The option finally taken is one complete path (its
  ops exactly), added to the decision's options so that `apply` takes it like any other; its
  `steps` (which next action each step took, in walk order) go to the transcript, and
  `rebuild` makes it again from them.

Every option a person can build is a complete legal option of the decision (the dialogue
returns only a complete path), and every legal option can be built: the steps are read from the
options themselves, or from the same walks that make them, and an action is dropped only when
every path through it was walked and none completed.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..compiler.items import SampledOptions
from ..compiler.options import BRANCHES_PER_OPTION, _EnumerationBudget, _OptionLimit, _Reject, _walk_clauses
from ..compiler.walks import ATOMIC_MAX_PASSES
from ..engine.stack import with_room
from ..engine.state import ADV, DCL, FGT, MV, PASS, PCY, REM, SET, SHF, SWC, SWP, Option
from ..engine.watchdog import watch
from ..errors import GameRuntimeError, cut_text

# The most choices one prompt lists: more are grouped (by card and source), else shown a page at a time.
SCREEN = 20
# A reply quoted back to the human is cut to this many characters (a huge number or a pasted page stays
# one line); human.py quotes its replies the same way.
REPLY_CHARS = 40

# The ops that are actions a player sees (engine.describe): a step is one of them.  The others
# (bookkeeping of virtual piles, cycles pushed and popped inside a block, attribute overrides)
# follow the actions they belong to.
VISIBLE = frozenset({MV, REM, FGT, SWP, SWC, SHF, SET, PCY, PASS, DCL})

# The walks of a step, budgets in `any` elements walked: one walk listing the next actions (or
# following a transcript's steps); the search for complete paths through the next actions (all
# its walks together: about 0.2 s in Rummykruss on a quiet two-core machine, when it spends all
# of it); and the complete paths one walk may try.
WALK_BRANCHES = 250_000
CHECK_BRANCHES = 20_000
WALK_MAX_PATHS = 200_000

# The mark of a next action no complete path was found for within the budget (it may be a dead end).
UNCHECKED = "  (unchecked)"
_STRAY = GameRuntimeError("internal", "a path that leaves the actions chosen so far")


def needs_steps(opts) -> bool:
    """Is this decision built step by step rather than chosen from one list?"""
    return type(opts) is SampledOptions or len(opts) > SCREEN


class ListedSteps:
    """The steps of a decision whose options are all listed: the tree of their action texts."""

    def __init__(self, prog, st, viewer: int):
        self.descs = [tuple(prog.describe(st, o, viewer=viewer)) for o in st.opts]

    def steps(self, prefix: tuple) -> tuple[list[tuple[str, object, int | None]], bool]:
        """(the actions that can come next as (text, key, options through it), can the option end here)."""
        n = len(prefix)
        counts: dict[str, int] = {}
        ends = False
        for d in self.descs:
            if d[:n] == prefix:
                if len(d) == n:
                    ends = True
                else:
                    counts[d[n]] = counts.get(d[n], 0) + 1
        return [(t, t, k) for t, k in counts.items()], ends

    def option(self, prefix: tuple) -> int:
        """The index of the option whose actions are exactly `prefix` (the first, if several look alike)."""
        return next(i for i, d in enumerate(self.descs) if d == prefix)


def _key(op: tuple):
    """A dictionary key for an op (a value it sets may be unhashable)."""
    try:
        hash(op)
    except TypeError:
        return repr(op)
    return op


class _GuidedLog(list):
    """The log of one guided walk: it abandons (`_Reject`) every path whose visible actions leave
    `prefix`, every path longer than `bound` visible actions and, when `only` is a set, every path
    whose next action after the prefix is not in it (also later on the path: a key taken out of
    `only` during the walk stops the walk of its paths); it notes the next actions met.

    With a `level` (a number of passes), it also abandons every path that starts more than
    `level` passes of a stage (ADV ops) after the next action, and, in the last pass it may
    start (level 0: the pass of the next action), every path at its first visible action after
    the walk entered an `any` loop in that pass: the last pass may only end the block the short
    way (in Rummykruss: stop and score, not pick yet another tile).  `branches` reads the count
    of `any` elements walked.
    """

    def __init__(self, prefix: tuple, bound: int, only: set | None = None, level: int | None = None,
                 branches: Callable[[], int] = lambda: 0):
        super().__init__()
        self.prefix = prefix
        self.n = len(prefix)
        self.bound = bound
        self.only = only
        self.level = level
        self.branches = branches
        self.adv = 0  # the passes (ADV ops) on the path walked
        self.adv0 = 0  # ... when it took its next action
        self.mark = 0  # the `any` elements walked when the path started its last pass
        self.cut = False  # was a path abandoned for its length (the walk then did not see every path)?
        self.cut_keys: set = set()  # the next actions of the paths abandoned for their length
        self.cur: object = None  # the key of the next action of the path walked (once it has one)
        # key -> (op, the ops of the path up to it) of every action met right after the prefix, in walk order
        self.nexts: dict = {}
        self.seen: list = []  # the visible ops of the path walked so far

    def append(self, op) -> None:
        # the op is logged before anything is abandoned: the walk's undo takes it back exactly
        super().append(op)
        t = op[0]
        if t not in VISIBLE:
            if t == ADV:
                self.adv += 1
                level = self.level
                if level is not None and len(self.seen) > self.n:
                    passes = self.adv - self.adv0
                    if passes == level:
                        self.mark = self.branches()
                    elif passes > level:
                        self._cut()
            return
        seen = self.seen
        k = len(seen)
        seen.append(op)
        n = self.n
        if k < n:
            if op != self.prefix[k]:
                raise _Reject(_STRAY)
        elif k == n:
            key = _key(op)
            self.cur = key
            if key not in self.nexts:
                self.nexts[key] = (op, tuple(self))
            if self.only is not None and key not in self.only:
                raise _Reject(_STRAY)
            self.adv0 = self.adv
            if self.level == 0:
                self.mark = self.branches()
        elif self.only is not None and self.cur not in self.only:
            raise _Reject(_STRAY)
        elif self.level is not None and self.adv - self.adv0 == self.level and self.branches() != self.mark:
            self._cut()
        if k >= self.bound:
            self._cut()

    def _cut(self) -> None:
        self.cut = True
        self.cut_keys.add(self.cur)
        raise _Reject(_STRAY)

    def pop(self, index=-1):
        op = super().pop(index)
        t = op[0]
        if t in VISIBLE:
            self.seen.pop()
        elif t == ADV:
            self.adv -= 1
        return op


class _Done(Exception):
    """Every action looked for has a complete path: the walk stops there."""


class WalkedSteps:
    """The steps of a decision whose atomic blocks were sampled: its option-building walks run again, guided.

    A step first walks every path as far as one action past the actions chosen so far: that
    lists the actions that can come next (and finds the paths that end right there).  Then it
    looks for one complete path through each next action (`_confirm`).  A next action for which
    the budget found no complete path is offered marked "unchecked": following it may lead
    nowhere (then the dialogue says so and offers undo).
    """

    def __init__(self, prog, st, viewer: int):
        self.prog, self.st, self.viewer = prog, st, viewer
        self.sims = prog.decision_sims[st.pc]
        self.paths: dict[tuple, tuple] = {}  # prefix (keys) -> its complete path's ops, when it is an option
        self.cache: dict[tuple, tuple] = {}
        # (keys of its visible actions, ops) of every complete path found: later steps along it need no search
        self.witnesses: list[tuple[tuple, tuple]] = []
        self.order: dict[tuple, list] = {}  # prefix (keys) -> the keys of every next action, in walk order
        # an optional decision's "take none of them" is added after the walks (compiler.items.DECLINE)
        self.decline = next((i for i, o in enumerate(st.opts) if o.ops == ((DCL,),)), None)

    def _walk(self, prefix: tuple, bound: int, budget: int, finish, only: set | None = None,
              level: int | None = None) -> tuple[_GuidedLog, bool]:
        """One guided walk of the decision from its state; (its log, did it stay within `budget` elements)."""
        prog = self.prog
        st = self.st.clone()
        log = _GuidedLog(prefix, bound, only, level, lambda: prog.branches)
        st.log = log
        st.rec = None
        st.sampler = None
        saved = prog.atomic_max_paths, prog.max_options
        prog.branches = 0
        prog.atomic_paths = 0
        prog.atomic_max_paths = WALK_MAX_PATHS
        prog.max_options = max(1, budget // BRANCHES_PER_OPTION)
        try:
            with_room(lambda s: _walk_clauses(self.sims, s, s.env, lambda s2, e2: finish(log), 0), st)
        except (_EnumerationBudget, _OptionLimit):
            return log, False
        finally:
            prog.atomic_max_paths, prog.max_options = saved
        return log, True

    def _confirm(self, prefix: tuple, ops: list) -> dict:
        """For each next action of `ops` (after `prefix`): key -> the ops of a complete path through it, or ()
        if no complete path goes through it; an action the budget left undecided has no entry.

        Iterative deepening over the passes of the block's stages (a Rummykruss turn takes one
        pass per tile, and one more to stop and score): one walk of all the actions still
        undecided together at each level, level L letting a path start L passes after its next
        action, the last of them only to end the block the short way (`_GuidedLog`).  So each
        action's complete paths with the fewest passes are met first, whatever the others cost:
        a depth-first walk without a bound stays in the first paths it meets (in Rummykruss, a
        tile put beside another needs a third one, which needs ...), and a bound on the number of
        actions, raised one at a time, walks again and again the same passes, each costing a
        whole tile's choices, before it reaches the end of one.  Once a complete path goes
        through an action, the walk leaves the rest of its paths; when every action has one, the
        walk stops.  An action none of whose paths was cut, in a walk that finished, leads nowhere.
        """
        n = len(prefix)
        result: dict = {}
        pending = {_key(op) for op in ops}

        def found(log) -> None:
            if len(log.seen) > n and log.cur in pending:
                result[log.cur] = tuple(log)
                pending.discard(log.cur)  # the walk of its other paths stops at their next visible action
                if not pending:
                    raise _Done

        left = CHECK_BRANCHES
        level = 0
        while pending and left > 0 and level <= ATOMIC_MAX_PASSES:
            try:
                log, within = self._walk(prefix, 10**9, left, found, only=pending, level=level)
            except _Done:
                break
            left -= self.prog.branches
            if within:
                for key in [k for k in pending if k not in log.cut_keys]:
                    result[key] = ()  # every path through it was walked: none completes
                    pending.discard(key)
            level += 1
        return result

    def _next(self, prefix: tuple) -> tuple[list[tuple[object, tuple | None, tuple]], tuple | None]:
        """The actions that can come next, each with a complete path through it (None: none found within
        the budget) and the path up to it, and a complete path of exactly `prefix`, if any."""
        n = len(prefix)
        found: dict[object, tuple] = {}
        end: list[tuple] = []

        def finish(log) -> None:
            seen = log.seen
            if len(seen) == n and log and not end:
                end.append(tuple(log))
            elif len(seen) == n + 1:
                found.setdefault(_key(seen[n]), tuple(log))

        log, _ = self._walk(prefix, n + 1, WALK_BRANCHES, finish)
        at = tuple(_key(op) for op in prefix)
        new = dict(found)
        for seen, path in self.witnesses:  # complete paths met before that go on from here
            if len(seen) > n and seen[:n] == at:
                found.setdefault(seen[n], path)
        unknown = [op for key, (op, _) in log.nexts.items() if key not in found]
        if len(log.nexts) > 1 or end:  # a single way on is taken without a choice: no need to check it
            checked = self._confirm(prefix, unknown)
            found.update(checked)
            new.update(checked)
        for path in new.values():
            if path:
                self.witnesses.append((tuple(_key(op) for op in path if op[0] in VISIBLE), path))
        out: list[tuple[object, tuple | None, tuple]] = []
        for key, (op, start) in log.nexts.items():
            got = found.get(key)
            if got != ():  # no complete path goes through this action: not offered
                out.append((op, got, start))
        self.order[at] = list(log.nexts)
        return out, (end[0] if end else None)

    def steps(self, prefix: tuple) -> tuple[list[tuple[str, object, int | None]], bool]:
        at = tuple(_key(op) for op in prefix)
        got = self.cache.get(at)
        if got is None:
            nexts, end = self._next(prefix)
            n = len(prefix)
            items: list[tuple[str, object, int | None]] = []
            for op, path, start in nexts:
                # the action as the seat reads it on the path to it (hidden cards named by their position)
                text = self.prog.describe(self.st, Option(start), viewer=self.viewer)[n]
                checked = path is not None or (len(nexts) == 1 and end is None)
                items.append((text if checked else text + UNCHECKED, op, None))
            if not prefix and self.decline is not None:
                items.append(("pass", "decline", None))
            if end is not None:
                self.paths[at] = end
            got = self.cache[at] = (items, end is not None)
        return got

    def option(self, prefix: tuple) -> int:
        if prefix == ("decline",):
            assert self.decline is not None
            return self.decline
        keys = tuple(_key(op) for op in prefix)
        # what the transcript keeps of the option built: which next action each step took, in walk order
        steps = [self.order[keys[:j]].index(keys[j]) for j in range(len(keys))]
        opts = self.st.opts
        opts.append(BuiltOption(self.paths[keys], steps))  # one more option of this decision: the one built
        return len(opts) - 1

    def follow(self, steps: list) -> tuple | None:
        """The ops of the option built by taking, at each step, the next action of index steps[j] (in walk
        order), as `option` recorded them; None if they build no complete option here."""
        prefix: tuple = ()
        for j in [*steps, None]:
            n = len(prefix)
            end: list = []

            def finish(log, n=n, end=end) -> None:
                if len(log.seen) == n and log and not end:
                    end.append(tuple(log))

            log, within = self._walk(prefix, n + 1, WALK_BRANCHES, finish)
            if j is None:
                return end[0] if end else None
            nexts = list(log.nexts.values())
            if not within or not (isinstance(j, int) and 0 <= j < len(nexts)):
                return None
            prefix = (*prefix, nexts[j][0])
        return None


# The walks run the rules outside Program.run: each step's listing and each rebuilding is timed as one
# engine step, so that rules that run away while a person builds an option end the game with the
# step-time limit (engine.play) instead of hanging the terminal.
watch(WalkedSteps.steps)
watch(WalkedSteps.follow)


class BuiltOption(Option):
    """An option built step by step (one complete path of its decision), with the steps that built it:
    the decision's transcript line records them (`steps`), so that a replay builds it again."""

    __slots__ = ("steps",)

    def __init__(self, ops: tuple, steps: list):
        super().__init__(ops)
        self.steps = steps


def rebuild(prog, st, steps) -> int | None:
    """Add to the pending decision's options the one `steps` built (BuiltOption.steps); its index, or None
    when the steps build no option of this decision."""
    if not isinstance(steps, list) or st.pc not in prog.decision_sims or st.opts is None:
        return None
    ops = WalkedSteps(prog, st, st.chooser).follow(steps)
    if ops is None:
        return None
    st.opts.append(BuiltOption(ops, steps))
    return len(st.opts) - 1


def group_key(text: str) -> str:
    """What a move is grouped by when the next actions overflow a screen: the card and where it comes from."""
    return text.split(" -> ", 1)[0] if " -> " in text else text


class StepMenu:
    """The dialogue that builds one option: steps, groups, pages, a filter and undo; reads through `ask`."""

    def __init__(self, source, say: Callable[[str], None], ask: Callable[[str], str | None], seat: int):
        self.source, self.say, self.ask, self.seat = source, say, ask, seat

    def run(self) -> int:
        prefix: tuple = ()
        texts: list[str] = []
        history: list[tuple[tuple, list[str]]] = []  # (prefix, texts) before each choice the person made
        group: str | None = None
        filt = ""
        page = 0
        while True:
            items, ends = self.source.steps(prefix)
            if not items and ends:
                return self.source.option(prefix)
            if not items:  # only after an unchecked action: it leads to no legal option
                self.say("  This way leads to no legal option: back to your last choice.")
                if history:
                    prefix, texts = history.pop()
                else:
                    prefix, texts = (), []
                continue
            if len(items) == 1 and not ends:
                text, key, _ = items[0]
                self.say(f"  Only one way to go on, taken: {text}")
                prefix, texts = (*prefix, key), [*texts, text]
                continue
            shown = [it for it in items if filt.lower() in it[0].lower()] if filt else items
            groups: dict[str, list] = {}
            for it in shown:
                groups.setdefault(group_key(it[0]), []).append(it)
            by_group = group is None and len(shown) > SCREEN and len(groups) < len(shown)
            if group is not None:
                shown = groups.get(group, [])
            lines: list[tuple[str, tuple[str, Any]]] = []  # (text, what picking it does)
            if by_group:
                for g, members in groups.items():
                    lines.append((f"{g} -> … ({len(members)} destinations)" if len(members) > 1 else members[0][0],
                                  ("group", g) if len(members) > 1 else ("step", members[0])))
            else:
                for it in shown:
                    count = f"  ({it[2]} options)" if it[2] is not None and it[2] > 1 else ""
                    lines.append((it[0] + count, ("step", it)))
            pages = max(1, -(-len(lines) // SCREEN))
            page = min(page, pages - 1)
            if texts:
                self.say("  Your option so far: " + "; ".join(texts))
            where = f" from {group}" if group is not None else ""
            notes = [f"filter {filt!r}"] if filt else []
            if pages > 1:
                notes.append(f"page {page + 1} of {pages}, n/p to turn")
            self.say(f"  Next action{where} ({len(lines)} choices{', ' + ', '.join(notes) if notes else ''}):")
            if ends:
                self.say("     0. stop here: the actions so far are the whole option")
            width = len(str(len(lines)))
            for i in range(page * SCREEN, min(len(lines), (page + 1) * SCREEN)):
                self.say(f"    {i + 1:>{width}}. {lines[i][0]}")
            if not lines and filt:
                self.say("    (nothing matches the filter; / alone clears it)")
            reply = self.ask(self._prompt(len(lines), ends, bool(history) or group is not None))
            if reply is None:
                continue
            low = reply.lower()
            if low == "u":
                if group is not None:
                    group, page = None, 0
                elif history:
                    prefix, texts = history.pop()
                    page, filt = 0, ""
                else:
                    self.say("  nothing to undo: this is the first action")
                continue
            if low in ("n", "p"):
                page = max(0, min(pages - 1, page + (1 if low == "n" else -1)))
                continue
            if reply.startswith("/"):
                filt, page = reply[1:].strip(), 0
                continue
            try:
                k = int(reply)
            except ValueError:
                self.say(f"  {cut_text(reply, REPLY_CHARS)!r} is not understood: {self._help(len(lines), ends)}")
                continue
            if k == 0 and ends:
                return self.source.option(prefix)
            if not 1 <= k <= len(lines):
                self.say(f"  there is no choice {cut_text(reply, REPLY_CHARS)}: {self._help(len(lines), ends)}")
                continue
            what, arg = lines[k - 1][1]
            if what == "group":
                group, page = arg, 0
                continue
            text, key, _ = arg
            history.append((prefix, texts))
            prefix, texts = (*prefix, key), [*texts, text.removesuffix(UNCHECKED)]  # once taken, it is no question
            group, filt, page = None, "", 0

    def _prompt(self, n: int, ends: bool, undo: bool) -> str:
        parts = [f"p{self.seat + 1}, choose 1-{n}" if n else f"p{self.seat + 1}"]
        if ends:
            parts.append("0 to stop here")
        if undo:
            parts.append("u to undo")
        parts.append("/text to filter, q to quit: ")
        return ", ".join(parts)

    @staticmethod
    def _help(n: int, ends: bool) -> str:
        first = f"a number from 1 to {n}" if n else "no number"
        return (first + (", 0 to stop here" if ends else "")
                + ", u to undo, /text to filter, n or p to turn pages, or q to quit")


