"""A game file can never read or write files, run programs or reach the network (issue: nothing escapes).

The language has no form that names a file (but `(extends …)`, resolved at load inside the
variant's folder), a program or an address; this test holds the implementation to it.  In a fresh
interpreter every shipped game is read, then CPython's audit hooks (PEP 578) watch while each is
parsed from its text, compiled and played by random players: no file may be opened, no process
started, no socket made.  Compiling may `exec` the Python that fusion generates (our own code,
from the checked AST), which is allowed.
"""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from support import REPO

SCRIPT = textwrap.dedent("""
    import json, sys
    from pathlib import Path
    from recycle.compiler import compile_game
    from recycle.engine.play import play_game
    from recycle.lang import parse_game
    from recycle.players.random_player import RandomPlayer

    from recycle.lang import load_game

    paths = sorted(Path(sys.argv[1]).glob("*.gdl"))
    texts = {p.name: p.read_text("utf-8") for p in paths if "(extends" not in p.read_text("utf-8")}
    # a variant reads its base, a file, at load and on purpose: it is loaded before the watch
    variants = {p.name: load_game(p).game for p in paths if p.name not in texts}

    def play_all():
        for name, text in texts.items():
            prog = compile_game(parse_game(text, name))
            play_game(prog, 7, [RandomPlayer() for _ in range(prog.n_players)], max_decisions=300)
        for name, game in variants.items():
            prog = compile_game(game)
            play_game(prog, 7, [RandomPlayer() for _ in range(prog.n_players)], max_decisions=300)

    play_all()  # every module the games need is imported now, before the watch starts
    WATCHED = ("open", "os.", "subprocess.", "socket.", "shutil.", "pty.", "ctypes.", "urllib.", "http.",
               "ftplib.", "smtplib.", "webbrowser.")
    seen = []

    def hook(event, args):
        if event.startswith(WATCHED) and event not in ("os.listdir",):
            seen.append([event, repr(args)[:200]])

    sys.addaudithook(hook)
    play_all()
    print(json.dumps({"games": len(texts) + len(variants), "events": seen}))
""")


def test_playing_the_shipped_games_opens_no_file_starts_no_process_and_makes_no_socket():
    r = subprocess.run([sys.executable, "-c", SCRIPT, str(REPO / "games")], capture_output=True, text=True,
                       cwd=REPO, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["games"] >= 30
    assert out["events"] == []


def test_the_watch_sees_what_it_should():
    """The same hook does see a file opened (so the empty list above means something)."""
    probe = SCRIPT.replace("play_all()\nprint", "play_all()\nopen(sys.argv[1] + '/../README.md').close()\nprint")
    assert probe != SCRIPT
    r = subprocess.run([sys.executable, "-c", probe, str(REPO / "games")], capture_output=True, text=True,
                       cwd=REPO, timeout=600)
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert [e[0] for e in out["events"]] == ["open"]
