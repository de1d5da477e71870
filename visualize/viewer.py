"""The web replay viewer (`recycle view`): one self-contained HTML page that steps through recorded games.

A transcript is replayed through the engine (recycle.run.replay, with its rules for finding the
game: `--game`, else the file the header names beside the transcript, else the shipped game of
that name, its sha256 checked).  At every decision the state is kept; the page then holds, per
game, one data set per view:

* `all`, the omniscient view: every pile's cards, every option of every decision, and the score
  the game would have if it ended there;
* `p1`, `p2`, …: what that seat observes, computed with the engine's own visibility code
  (recycle.engine.visibility.view): the faces of the piles it sees, only the deck names (backs)
  of the others, the storage, the options of its own decisions and, at the others' decisions,
  the option taken as that seat may see it (recycle.engine.describe with that seat as viewer).
  A seat's data set never holds a face that the seat cannot see: cards are written as indices
  into the view's own table of faces, and a hidden card as its deck alone, never by identity.

The data is embedded as JSON in a `<script type="application/json">` element (every `<`, `>`
and `&` escaped, so no text of a game file can close the element) and drawn by the page's own
script with `textContent` only.  The page needs no server and no network.

Limits (docs/viewer.md): a page holds at most MAX_GAMES games and MAX_FRAMES states in all; a
game past that is cut at the limit and the page and the caller are told.  A decision lists at
most MAX_OPTIONS_SHOWN options (the one taken always among them), each at most MAX_OPTION_TEXT
characters.
"""
from __future__ import annotations

import html
import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from recycle.engine.describe import actions, card_text
from recycle.engine.program import Program
from recycle.engine.state import KIND_WORDS, PointMap, State
from recycle.errors import RecycleError, UsageError
from recycle.run.replay import replay

MAX_GAMES = 50  # transcripts on one page (a folder with more: the first MAX_GAMES by name)
MAX_FRAMES = 5000  # states on one page, over all its games
MAX_OPTIONS_SHOWN = 40  # options listed at one decision (the one taken is always listed)
MAX_OPTION_TEXT = 600  # characters of one option's text
TEMPLATE = Path(__file__).with_name("viewer_template.html")

__all__ = ["MAX_FRAMES", "MAX_GAMES", "MAX_OPTIONS_SHOWN", "ViewerPage", "expand_piles", "game_data", "page_data",
           "render_html",
           "transcripts_in", "viewer_page", "write_viewer"]


def _cut(text: str, limit: int = MAX_OPTION_TEXT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _value_text(prog: Program, kind: str, v: Any) -> str:
    """A storage value as the game file would write it."""
    if isinstance(v, PointMap):
        return " ".join(f"({' '.join(f'({k} : {x})' for k, x in conds)} {pts})" for conds, pts in v.awards)
    if kind == "ply":
        return "nobody" if v is None else f"p{v + 1}"
    return str(v)


class _View:
    """One view's data set: its own table of faces and decks, and its frames."""

    def __init__(self) -> None:
        self.faces: list[str] = []
        self.face_ids: dict[str, int] = {}
        self.decks: list[str] = []
        self.deck_ids: dict[str, int] = {}
        self.frames: list[dict] = []
        self.last: dict = {}  # the piles of the previous state: a frame holds what changed since

    def face(self, text: str) -> int:
        i = self.face_ids.get(text)
        if i is None:
            i = self.face_ids[text] = len(self.faces)
            self.faces.append(text)
        return i

    def back(self, deck: str) -> int:
        """A face-down card: -1 - (index of its deck)."""
        i = self.deck_ids.get(deck)
        if i is None:
            i = self.deck_ids[deck] = len(self.decks)
            self.decks.append(deck)
        return -1 - i

    def data(self) -> dict:
        return {"faces": self.faces, "decks": self.decks, "frames": self.frames}


def _changed(view: _View, piles: list) -> list:
    """The piles of a state that differ from the view's previous state ([fam, index, []] for one emptied):
    a page stores the first state whole and then only what changed (expand_piles undoes it)."""
    now = {(f, i): codes for f, i, codes in piles}
    before, view.last = view.last, now
    out = [[f, i, codes] for (f, i), codes in now.items() if before.get((f, i)) != codes]
    out.extend([f, i, []] for (f, i) in before if (f, i) not in now)
    return out


def expand_piles(view: dict) -> list[dict]:
    """Per state of a view's data, {(family, index): [card codes]} of its non-empty piles (the page's own reading)."""
    out: list[dict] = []
    now: dict[tuple[int, int], list[int]] = {}
    for frame in view["frames"]:
        now = dict(now)
        for f, i, codes in frame["piles"]:
            if codes:
                now[(f, i)] = codes
            else:
                now.pop((f, i), None)
        out.append(now)
    return out


def _families(prog: Program) -> tuple[list[dict], dict, list[dict]]:
    """The locations of the game (families of piles, table first, then seats in order) and its boards."""
    boards: list[dict] = []
    board_of: dict[tuple, int] = {}
    for fam in prog.board_families:
        key = (prog.owner_json(fam.owner), KIND_WORDS[fam.kind], fam.name)
        board_of[key] = len(boards)
        boards.append({"shape": fam.geom.shape, "dims": list(fam.geom.dims),
                       "cells": [list(rc) for rc in fam.geom.coords]})
    keys = sorted({tuple(prog._loc_json[pid][:3]) for pid in range(len(prog.pile_key))},
                  key=lambda k: (k[0] != "table", int(k[0][1:]) if k[0][1:].isdigit() else 0, k[0], k[1], k[2]))
    fams = [{"owner": o, "kind": k, "name": n, "board": board_of.get((o, k, n))} for o, k, n in keys]
    index = {k: i for i, k in enumerate(keys)}
    return fams, index, boards


def _options(prog: Program, st: State, chosen: int, viewer: int | None, all_of_them: bool) -> list:
    """[[index, text], …] of a decision's options as `viewer` sees them (None: omniscient)."""
    opts = prog.options(st)
    if all_of_them:
        shown = list(range(min(len(opts), MAX_OPTIONS_SHOWN)))
        if 0 <= chosen < len(opts) and chosen not in shown:
            shown[-1] = chosen
    else:
        shown = [chosen] if 0 <= chosen < len(opts) else []
    return [[i, _cut("; ".join(a.text for a in actions(prog, st, opts[i], viewer)))] for i in shown]


def _storage(prog: Program, st: State, seats: list[int]) -> list:
    """[[cell, value], …] of the storage cells that are set (storage is seen by every seat, §17.1).

    One table serves every view, so a card owning a cell is named by its id (DECK#SERIAL, which
    identifies the card) only if every seat shown sees it; else by where it lies (issue 17)."""
    out = []
    for s, v in enumerate(st.vals):
        if v != prog.slot_default[s]:
            owner, kind, name = prog.slot_key[s]
            who = prog.owner_text(st, owner)
            for seat in seats:
                seen = prog.owner_seen(st, owner, seat)
                if seen != who:
                    who = seen
                    break
            out.append([f"{who} {kind} {name}", _value_text(prog, kind, v)])
    out.sort()
    return out


def _score_now(prog: Program, st: State) -> list | None:
    """The scores the game would have if it ended here (omniscient view only: they may use hidden cards)."""
    if st.scores is not None:
        return list(st.scores)
    try:
        return list(prog.score_fn(st.clone()))
    except (RecycleError, ArithmeticError, LookupError, TypeError, ValueError):
        return None


def _frame_piles(prog: Program, st: State, fam_index: dict, view: _View, seat: int | None) -> list:
    """[[family, index, [card codes]], …] of the non-empty piles, as `seat` sees them (None: all faces)."""
    out = []
    if seat is None:
        for pid in prog.pile_order():
            if pid < len(st.piles) and st.piles[pid]:
                o, k, n, i = prog._loc_json[pid]
                out.append([fam_index[(o, k, n)], i, [view.face(card_text(st, c)) for c in st.piles[pid]]])
        return out
    for (o, k, n, i), (what, cards) in prog.view(st, seat)["piles"].items():
        # a hidden card is written as its deck alone: no identity, no face
        codes = [view.face(card_text(st, c)) for c in cards] if what == "cards" else [view.back(d) for d in cards]
        out.append([fam_index[(o, k, n)], i, codes])
    return out


def game_data(path: str | Path, game_path: str | Path | None = None, *, max_frames: int = MAX_FRAMES,
              seats: Sequence[int] | None = None, omniscient: bool = True) -> tuple[dict, list[str]]:
    """The viewer's data of one transcript and notes (limits reached); raises what replay raises.

    `seats`: the seats whose views are included (default every seat); `omniscient`: include the
    view of everything.  At most `max_frames` states are kept (the decisions after are still replayed).
    """
    path = Path(path)
    kept: list[State] = []
    live: list[State] = []
    progs: list[Program] = []
    total = [0]

    def observe(prog: Program, st: State) -> None:
        if not live:
            live.append(st)
            progs.append(prog)
        total[0] += 1
        if len(kept) < max_frames:
            kept.append(st.clone())

    # the viewer's --force overwrites its page: it cannot step through a game other than the recorded one
    lines, _warnings = replay(path, game_path, observe=observe,
                              changed_hint="view it with the game file it was written with (--game FILE)")
    head = lines[0]
    end = next((ev for ev in lines if ev.get("type") == "end"), None)
    choices = [ev["choice"] for ev in lines if ev.get("type") == "decision"]
    notes: list[str] = []
    if not live:
        raise UsageError(f"{path.name}: the game ended before its first decision: nothing to step through")
    final = live[0]
    states = kept if len(kept) < max_frames else kept[:max_frames - 1]
    if len(states) < total[0]:
        notes.append(f"{path.name}: only the first {len(states)} of {total[0]} decisions are shown "
                     f"(at most {max_frames} states on one page)")
    states = [*states, final] if len(states) == total[0] else states
    prog = progs[0]
    fams, fam_index, boards = _families(prog)
    n = prog.n_players
    if seats is not None and any(not 0 <= s < n for s in seats):  # a page with no view at all, else
        raise UsageError(f"--seat p{max(seats) + 1}: {path.name} is a game of {n} seats (p1 to p{n})")
    seat_list = list(range(n)) if seats is None else sorted(set(seats))
    views: dict[str, _View] = {}
    if omniscient:
        views["all"] = _View()
    for s in seat_list:
        views[f"p{s + 1}"] = _View()
    storage: list[list[int]] = []
    cell_ids: dict[tuple, int] = {}
    for k, st in enumerate(states):
        is_final = st is final
        chooser = None if is_final else prog.chooser(st)
        chosen = -1 if is_final else choices[k]
        n_opts = 0 if is_final else len(prog.options(st))
        # storage is seen by every seat (§17.1): one list per state for all views, of entries of one table
        storage.append([cell_ids.setdefault(tuple(cv), len(cell_ids)) for cv in _storage(prog, st, seat_list)])
        for name, view in views.items():
            seat = None if name == "all" else int(name[1:]) - 1
            frame: dict = {"piles": _changed(view, _frame_piles(prog, st, fam_index, view, seat)),
                           "chooser": chooser, "options": n_opts, "chosen": chosen, "decisions": st.decisions}
            if not is_final:
                frame["shown"] = _options(prog, st, chosen, seat, seat is None or seat == chooser)
                if seat is not None and seat != chooser:
                    # how many options another seat had, and the index of its choice, may depend on
                    # cards this seat cannot see: only what the option taken did, as this seat sees it
                    frame["options"] = frame["chosen"] = None
                    frame["shown"] = [[None, text] for _, text in frame["shown"]]
            if seat is None:
                frame["scores"] = _score_now(prog, st)
            views[name].frames.append(frame)
    used = {pile[0] for v in views.values() for f in v.frames for pile in f["piles"] if pile[2]}
    for i, fam in enumerate(fams):  # a location that never holds a card in this game is not drawn
        fam["used"] = i in used or fam["board"] is not None
    data = {"name": path.name, "game": head.get("game"), "players": n, "seed": str(head.get("seed")),
            "lineup": head.get("lineup"), "direction": prog.direction, "families": fams, "boards": boards,
            "end": end if end is not None and states[-1] is final else None, "decisions": total[0],
            "notes": notes, "storage": storage, "cells": [list(cv) for cv in cell_ids],
            "views": {name: v.data() for name, v in views.items()}}
    return data, notes


def transcripts_in(folder: Path) -> list[Path]:
    """The transcripts of a folder (or of its transcripts/ folder, as `recycle run --out` writes), by name."""
    files = sorted(p for p in folder.glob("*.jsonl") if p.is_file())
    if not files and (folder / "transcripts").is_dir():
        files = sorted(p for p in (folder / "transcripts").glob("*.jsonl") if p.is_file())
    return files


def page_data(paths: Iterable[Path], game_path: str | Path | None = None, *, title: str = "recycle replay",
              max_games: int = MAX_GAMES, max_frames: int = MAX_FRAMES, seats: Sequence[int] | None = None,
              omniscient: bool = True, warn: Callable[[str], None] | None = None) -> dict:
    """The data of a page of several transcripts (a game picker); notes say which limits were reached."""
    paths = list(paths)
    notes: list[str] = []
    if len(paths) > max_games:
        notes.append(f"only the first {max_games} of {len(paths)} transcripts are shown (at most {max_games} "
                     "games on one page)")
        paths = paths[:max_games]
    games = []
    left = max_frames
    for p in paths:
        if left <= 1:
            notes.append(f"{p.name} and the transcripts after it are left out (at most {max_frames} states on "
                         "one page)")
            break
        g, n = game_data(p, game_path, max_frames=left, seats=seats, omniscient=omniscient)
        games.append(g)
        notes.extend(n)
        left -= max(len(v["frames"]) for v in g["views"].values()) if g["views"] else 0
    if warn is not None:
        for note in notes:
            warn(note)
    return {"title": title, "games": games, "notes": notes}


def _script_json(data: dict) -> str:
    """JSON safe inside a <script> element: no `<`, `>` or `&` (so no `</script>` or `<!--`), no line separators."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for ch, esc in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"),
                    ("\u2029", "\\u2029")):
        text = text.replace(ch, esc)
    return text


def render_html(data: dict) -> str:
    """The whole page: the template with the title and the data filled in."""
    template = TEMPLATE.read_text(encoding="utf-8")
    return (template.replace("__TITLE__", html.escape(str(data.get("title", "recycle replay"))))
            .replace("__DATA__", _script_json(data)))


class ViewerPage:
    """A replay-viewer page: `.html` is the page; shown inline in Jupyter (an iframe of the page)."""

    def __init__(self, data: dict, height: int = 640):
        self.data = data
        self.height = height
        self.html = render_html(data)

    @property
    def notes(self) -> list[str]:
        return list(self.data.get("notes", []))

    def save(self, path: str | Path, force: bool = False) -> Path:
        path = Path(path)
        if path.exists() and not force:
            raise UsageError(f"{path.name} exists; use --force (force=True) to overwrite it")
        path.write_text(self.html, encoding="utf-8")
        return path

    def _repr_html_(self) -> str:
        return (f'<iframe srcdoc="{html.escape(self.html, quote=True)}" style="width:100%;height:{self.height}px;'
                'border:1px solid #ccc" sandbox="allow-scripts"></iframe>')


def viewer_page(source: str | Path, game_path: str | Path | None = None, **kw: Any) -> ViewerPage:
    """The viewer page of a transcript or of a folder of transcripts."""
    source = Path(source)
    if source.is_dir():
        paths = transcripts_in(source)
        if not paths:
            raise UsageError(f"{source.name}: no transcripts (*.jsonl) in this folder or in its transcripts/ folder")
        title = f"recycle replay: {source.name}"
    else:
        paths = [source]
        title = f"recycle replay: {source.name}"
    return ViewerPage(page_data(paths, game_path, title=title, **kw))


def default_output(source: Path) -> Path:
    """Where `recycle view` writes when no -o is given: beside the transcript, or inside the folder."""
    return source / "viewer.html" if source.is_dir() else source.with_suffix(".html")


def write_viewer(source: str | Path, out: str | Path | None = None, *, game_path: str | Path | None = None,
                 force: bool = False, **kw: Any) -> tuple[Path, list[str]]:
    """Write the viewer page of a transcript or folder; (the file written, notes). Refuses to overwrite unless force."""
    source = Path(source)
    target = Path(out) if out is not None else default_output(source)
    if target.exists() and not force:
        raise UsageError(f"{target}: exists; use --force to overwrite it")
    page = viewer_page(source, game_path, **kw)
    page.save(target, force=True)
    return target, page.notes
