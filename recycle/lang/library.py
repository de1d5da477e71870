"""The shipped game library (games/*.gdl) and resolution of GAME arguments."""
from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import attrs

from ..errors import UsageError


def games_dir() -> Path:
    """The folder of shipped games: the installed package data, else the source tree."""
    try:
        p = Path(str(resources.files("recycle.games")))
        if any(p.glob("*.gdl")):
            return p
    except (ModuleNotFoundError, TypeError):
        pass
    return Path(__file__).resolve().parent.parent / "games"


def shipped() -> dict[str, Path]:
    """Shipped game names (file stems) -> paths, sorted by name."""
    return {p.stem: p for p in sorted(games_dir().glob("*.gdl"))}


def resolve(game: str) -> Path:
    """A GAME argument: an existing path, or the name of a shipped game."""
    if not game:  # Path("") is the current folder: an unset shell variable ("$GAME") would name it
        raise UsageError("the game is an empty name: give a game file or a shipped game name")
    p = Path(game)
    if p.exists():
        if p.is_dir():
            raise UsageError(f"{game}: is a directory; give a game file or a shipped game name")
        return p
    lib = shipped()
    if game in lib:
        return lib[game]
    stem = Path(game).stem
    if stem in lib and p.suffix in (".gdl", ""):
        return lib[stem]
    if p.is_symlink():
        raise UsageError(f"{game}: a symbolic link to no file (it leads nowhere, or around a loop)")
    names = ", ".join(lib) or "none"
    raise UsageError(f"{game}: no such file, and no shipped game of that name (shipped games: {names})")


@attrs.frozen
class GameInfo:
    name: str
    path: Path
    title: str
    description: str
    players: str
    parameters: str


def info(name: str, path: Path, text: str | None = None) -> GameInfo:
    """Title, one-line description, players and parameters from a game file's opening comment
    (`text`: the file's text when it has been read already)."""
    if text is None:
        text = path.read_text("utf-8")
    lines = []
    for line in text.lstrip("\ufeff").splitlines():
        if not line.startswith(";;"):
            if line.strip():
                break
            continue
        lines.append(line[2:].strip())
    title = lines[0].rstrip(".") if lines else name
    desc = ""
    for line in lines[1:]:
        if line:
            desc = line
            break
    players = parameters = ""
    for line in lines:
        # Only lines that begin with the label count: rule text may say "player: …" too.
        m = re.match(r"(?i)parameters?:\s*(.*)", line)
        if m and not parameters:
            parameters = m.group(1)
        m = re.match(r"(?i)players?:\s*([0-9][^.;]*)", line)
        if m and not players:
            players = m.group(1).strip(" .")
    # A one-line "Parameters: none. Players: 2." carries the players too.
    m = re.search(r"(?i)(?:^|\.\s+)players?:\s*([0-9][^.;]*)", parameters)
    if m:
        players = players or m.group(1).strip(" .")
        parameters = parameters[: m.start()].strip(" .")
    return GameInfo(name, path, title, desc, players, parameters.rstrip(".") or "none")
