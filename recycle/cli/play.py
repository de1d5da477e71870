"""`recycle play`: one game at the terminal, human seats against random or AI players."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TextIO

from ..engine.algorithms import derive
from ..engine.play import samples_atomic
from ..errors import UsageError
from ..lang import library
from ..players import registry
from ..players.base import Player
from ..players.human import HumanPlayer, HumanQuit, Narrated, render_view
from ..players.montecarlo import SearchPlayer
from ..players.stepwise import rebuild
from ..run.batch import new_seed, parse_lineup
from ..run.session import GameSession
from ..run.transcript import dumps
from .options import (
    add_ai_options,
    add_game_argument,
    add_limit_options,
    add_param_option,
    positive,
    refuse_unread_fifo,
    seed_number,
)


def register(sub) -> None:
    """Add `play` to the CLI's subcommands."""
    p = sub.add_parser(
        "play", help="play one game at the terminal against AI or random players",
        description="Play one game interactively. Each human seat (H) sees its own cards, the public piles, "
                    "the sizes and backs of what it cannot see and the storage, then picks an option by number "
                    "(q quits). Other players' decisions are narrated as the (first) human seat may see them. "
                    "Player kinds: H human, R random, F flat Monte Carlo, M IS-MCTS, P PIMC. The game seed is "
                    "derive(S, 'game', 0) for --seed S, as in run 0 of `recycle run --seed S`.")
    add_game_argument(p)
    p.add_argument("--players", help="one kind per seat, e.g. H,R,M or HMM, or a Python class module.path:ClassName "
                                     "(default: H then random players)")
    p.add_argument("--seed", type=seed_number, help="seed S (default: drawn from the OS and printed)")
    add_param_option(p)
    p.add_argument("--ai-budget", type=positive, metavar="N",
                   help="budget of the searching players: playouts per option (F), iterations per decision (M, P)")
    add_ai_options(p, budget=False)
    add_limit_options(p, per_game=False)
    p.add_argument("--transcript", metavar="FILE", help="write the game's transcript (decisions level) here")
    p.add_argument("--force", action="store_true", help="with --transcript: overwrite FILE if it exists")
    p.set_defaults(func=cmd_play)


def cmd_play(args, inp: TextIO | None = None, out: TextIO | None = None) -> int:
    """Play one game with the lineup of --players; a human quitting ends it cleanly (status 0)."""
    out = out or sys.stdout
    path = library.resolve(args.game)
    if args.transcript:
        _may_write(Path(args.transcript), args.force)
    sess = GameSession.open(path, dict(args.param), args.dialect)
    n = sess.n_players
    lineup = parse_lineup(args.players, n) if args.players else ["H"] + ["R"] * (n - 1)
    humans = [s for s, c in enumerate(lineup) if c == "H"]
    viewer = humans[0] if humans else None
    seed = args.seed if args.seed is not None else new_seed()
    game_seed = derive(seed, "game", 0)
    players: list[Player] = []
    for c in lineup:
        if c == "H":
            players.append(HumanPlayer(inp, out))
        else:
            players.append(Narrated(registry.make(c, budget=args.ai_budget, move_time=args.move_time), viewer, out))
    out.write(f"{sess.name}: {n} players [{' '.join(lineup)}], seed {seed}"
              + (" (drawn; pass --seed to repeat)" if args.seed is None else "")
              + (f"; you are {', '.join(f'p{s + 1}' for s in humans)}" if humans else "") + "\n")
    out.flush()
    level = "decisions" if args.transcript else "none"
    try:
        rec = sess.play(game_seed, lineup, run=0, batch_seed=seed, max_decisions=args.max_decisions,
                        max_idle_steps=args.max_steps, level=level, players=players)
    except HumanQuit as e:
        out.write(f"{e}\n")
        out.flush()
        return 0
    if viewer is not None and rec.end_reason != "error":
        out.write("\n" + render_view(sess.prog, _final_state(sess.prog, game_seed, rec, players, args), viewer,
                                     title=f"== the end, as p{viewer + 1} sees it ==") + "\n")
    out.write("\n" + _result_text(rec) + "\n")
    if args.transcript:
        searching = {c: pl.inner.budget for c, pl in zip(lineup, players, strict=True)
                     if isinstance(pl, Narrated) and isinstance(pl.inner, SearchPlayer)}
        assert rec.transcript is not None  # kept at the decisions level
        if searching:  # the AI settings affect play: the header's params record them (§5.2), as batches do
            head = json.loads(rec.transcript[0])
            head["params"]["ai_budget"] = searching
            rec.transcript[0] = dumps(head)
        try:
            # "x": a file made while the game was played is not overwritten either
            with open(args.transcript, "w" if args.force else "x", encoding="utf-8") as f:
                f.write("".join(line + "\n" for line in rec.transcript))
        except OSError as e:
            raise UsageError(f"--transcript {args.transcript}: cannot write ({e.strerror or e})") from None
        out.write(f"wrote {args.transcript} (replay it with: recycle replay {args.transcript})\n")
    out.flush()
    return 0


def _may_write(target: Path, force: bool) -> None:
    """Refuse, before a move is played, a transcript file that would overwrite a file (the game file
    itself, say) or that cannot be made: a game played at the terminal is not lost at its end."""
    if target.is_dir():
        raise UsageError(f"--transcript {target}: is a directory; give a file name")
    if target.exists() and not force:
        raise UsageError(f"--transcript {target}: the file exists; not overwritten (use --force to replace it)")
    if not target.parent.is_dir():
        raise UsageError(f"--transcript {target}: no folder {target.parent} to write it in")
    refuse_unread_fifo(target, "--transcript")


def _final_state(prog, game_seed: int, rec, players, args):
    """The game's last state, rebuilt from its seed and its choices (players never draw from the game stream)."""
    sampling = [samples_atomic(pl) for pl in players] if prog.has_atomic else None
    st = prog.new_game(game_seed, args.max_decisions, args.max_steps, None, sampling)
    built = {n: steps for pl in players if isinstance(pl, HumanPlayer) for n, steps in pl.built.items()}
    for _seat, _b, chosen in rec.decision_rows:
        if chosen >= len(prog.options(st)):  # an option the person built step by step: built again
            rebuild(prog, st, built.get(st.decisions + 1))
        prog.apply(st, chosen)
    return st


def _result_text(rec) -> str:
    """The end of a game in one or two lines: reason, scores with ranks, winners."""
    if rec.end_reason == "error":
        return f"The game stopped with an error after {rec.decisions} decisions:\n{rec.error}"
    head = ("Game over" if rec.end_reason == "normal"
            else f"Stopped at the {rec.end_reason.replace('_', ' ')} (provisional result)")
    if rec.scores is None:
        return f"{head} after {rec.decisions} decisions; no scores"
    parts = ", ".join(f"p{s + 1} {sc} (rank {r})" for s, (sc, r) in enumerate(zip(rec.scores, rec.ranks, strict=True)))
    winners = ", ".join(f"p{s + 1}" for s in rec.winners)
    return f"{head} after {rec.decisions} decisions: {parts}. Winner{'s' if len(rec.winners) > 1 else ''}: {winners}"
