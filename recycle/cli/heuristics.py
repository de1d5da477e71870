"""`recycle stats --heuristics`: three batches (all random; an AI against random players, rotated; all AI)
and the game-quality heuristics of flow-and-analytics §4 computed from them.

The folder rules are those of `recycle stats` (docs/results.md): a non-empty --out is refused unless
--force (which removes only this command's files, in the folder and in its three batch folders) or
--resume.  Each batch is written game by game into its subfolder by statsbatch.stats_batch and keeps
its resume journal until all three are done, so that --resume reads a finished batch back instead of
playing it again, continues the stopped one and plays the others.  SIGINT/SIGTERM or a dying worker
stop it with one line saying what was kept (exit 130/143/1).
"""
from __future__ import annotations

import argparse
import json
import shutil
import signal
import stat
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

import attrs

from ..analysis.heuristics import format_heuristics, has_shuffle_and_choice, heuristics, write_heuristics
from ..analysis.summary import format_summary
from ..errors import RecycleError, UsageError
from ..players import registry
from ..run.output import STAGING, OutFolder, OutputError
from ..run.tables import STATE, read_state
from ..version import __version__
from .batches import Stopper, check_identity, clear_own_files, open_out, recorded_seed
from .flow import categories_line, default_out
from .statsbatch import (
    batch_identity,
    done_batch,
    finish_journal,
    open_batch_ai,
    playing_level,
    stats_batch,
    stats_own_files,
)

HEURISTIC_GAMES = 20  # default -n with --heuristics: three batches, two of them with AI players
HEURISTIC_BATCHES = (("random", "R"), ("ai-vs-random", "A"), ("ai", "M"))
COMMAND = "stats --heuristics"
TOP_FILES = ("heuristics.json", "heuristics.csv", "evaluation.json", STATE)


def clear_batches(folder: OutFolder, own: list[str]) -> int:
    """--force: this command's files in its three batch folders (a folder left empty goes too); a symlink in
    place of a batch folder is removed, never followed."""
    removed = 0
    for sub, _ in HEURISTIC_BATCHES:
        st = folder.lstat(sub)
        if st is None:
            continue
        if stat.S_ISLNK(st.st_mode):
            removed += folder.remove(sub)
        elif not stat.S_ISDIR(st.st_mode):
            raise OutputError(f"{folder.path / sub}: exists and is not a directory (--heuristics writes a batch there)")
        else:
            with folder.subfolder(sub, create=False) as sf:
                removed += clear_own_files(sf, own)
            folder.remove_dir_if_empty(sub)
    return removed


def _progress(sess, seed: int, n: int, kept: dict[str, tuple[int, bool]]) -> dict:
    """evaluation.json while the batches are played or after a stop: what each batch holds."""
    return {"format": "recycle-evaluation", "version": 1, "game": sess.name, "seed": seed, "complete": False,
            "batches": {sub: {"games_kept": kept.get(sub, (0, False))[0], "games_asked": n,
                              "complete": kept.get(sub, (0, False))[1]} for sub, _ in HEURISTIC_BATCHES}}


def _stop_line(why: str, out: Path, n: int, kept: dict[str, tuple[int, bool]]) -> str:
    parts = [f"{sub} {kept[sub][0]} of {n}" if sub in kept else f"{sub} not started" for sub, _ in HEURISTIC_BATCHES]
    return (f"{why}: kept {', '.join(parts)} games in {out}/; "
            "to finish them, run the same command again with --resume")


def cmd_stats_heuristics(args: argparse.Namespace) -> int:
    """Three batches (all random; one AI against random players, rotated; all AI), then the §4 heuristics."""
    if args.players:
        raise UsageError("--heuristics plays its own lineups (all random; the AI against random players, rotated; "
                         "all AI): leave out --players, and choose the AI with --ai")
    if getattr(args, "rotate", False):
        raise UsageError("--heuristics rotates its AI-vs-random batch itself: leave out --rotate")
    ai = registry.code_of(args.ai or "F")
    if ai not in registry.SEARCHING:
        raise UsageError(f"--ai {args.ai}: the AI must be a searching player that reports estimates "
                         f"(F montecarlo, M mcts, P pimc)")
    user_level = args.transcripts
    wanted_out = args.out
    args.out = Path(".")
    args.transcripts = playing_level(args.n, user_level)
    sess, spec_r = open_batch_ai(args)
    args.out = wanted_out
    out = default_out(args, "stats", sess.name)
    if args.resume and args.seed is None and (seed := recorded_seed(out)) is not None:
        args.seed = seed
        spec_r = attrs.evolve(spec_r, seed=seed)
    n = sess.n_players
    budget = args.ai_budget if args.ai_budget is not None else registry.make_searcher(ai).budget
    lineups = {"R": ["R"] * n, "A": [ai] + ["R"] * (n - 1), "M": [ai] * n}
    if not args.json:
        print(f"{sess.name}: --heuristics, 3 batches of {args.n} games, seed {spec_r.seed}"
              + (" (drawn; pass --seed to repeat)" if args.seed is None else "")
              + f", AI {ai} with budget {budget}" + (f", {args.jobs} jobs" if args.jobs > 1 else "")
              + ("; resuming" if args.resume else ""), file=sys.stderr)
    own_sub = stats_own_files(args)
    folder, state = open_out(out, args, COMMAND, TOP_FILES, clear=lambda f: clear_batches(f, own_sub),
                             transcripts=False)
    with ExitStack() as stack:
        stack.callback(folder.close)
        ident = {"command": COMMAND, "game": sess.name, "game_sha256": sess.sha256, "params": spec_r.params,
                 "seed": spec_r.seed, "games": args.n, "max_decisions": spec_r.max_decisions,
                 "max_idle_steps": spec_r.max_idle_steps, "transcripts": user_level, "ai": ai,
                 "ai_budget": args.ai_budget}
        ident = json.loads(json.dumps(ident))
        kept: dict[str, tuple[int, bool]] = {}
        try:
            if state is not None:
                check_identity(out, state, ident)
            else:
                folder.write_atomic(STATE, json.dumps({"format": "recycle-resume", "version": 1, "identity": ident,
                                                       "games_asked": 3 * args.n, "sizes": {}}, indent=1) + "\n",
                                    sync=True)
                folder.write_atomic("evaluation.json", json.dumps(_progress(sess, spec_r.seed, args.n, kept),
                                                                  indent=2) + "\n")
        except OSError as e:
            raise RecycleError(f"error: cannot write into {out}: {e}") from None
        t0 = time.perf_counter()
        results: dict = {}
        subfolders: list[OutFolder] = []
        with Stopper() as stopper:
            why = None
            for sub, letter in HEURISTIC_BATCHES:
                if stopper.stopped():
                    break
                lu = lineups[letter]
                if letter == "R":
                    spec = attrs.evolve(spec_r, lineup=tuple(lu))
                else:
                    spec = attrs.evolve(spec_r, lineup=tuple(lu), rotate=letter == "A", ai_budget=args.ai_budget,
                                        estimates=True, transcript_level=user_level)
                sfolder = folder.subfolder(sub)
                stack.callback(sfolder.close)
                subfolders.append(sfolder)
                sstate = read_state(sfolder) if state is not None else None
                if state is not None and sstate is None:
                    clear_own_files(sfolder, own_sub)  # stopped before the batch had begun: start it again
                done = None
                if sstate is not None:
                    check_identity(out / sub, sstate, batch_identity(sess, spec, args, user_level))
                    done = done_batch(args, sess, spec, out / sub, sfolder, sstate)
                if not args.json:
                    print(f"batch {sub}: players {' '.join(lu)}" + (" rotated" if spec.rotate else "")
                          + ("; complete before the stop, read back" if done is not None
                             else "; resuming" if sstate is not None else ""), file=sys.stderr)
                if done is not None:
                    results[letter] = done
                    kept[sub] = (args.n, True)
                    continue
                r = stats_batch(args, sess, spec, out / sub, user_level, flow=letter == "R", random_heuristics=False,
                                label=f"{sess.name} {sub}", opened=(sfolder, sstate), keep_journal=True)
                outcome = r["outcome"]
                kept[sub] = (len(outcome.records), outcome.complete)
                if not outcome.complete:
                    why = (f"interrupted by {signal.Signals(outcome.signum).name}" if outcome.signum is not None
                           else (outcome.died or "stopped").removeprefix("error: "))
                    code = outcome.exit_code()
                    break
                results[letter] = r
                folder.write_atomic("evaluation.json", json.dumps(_progress(sess, spec_r.seed, args.n, kept),
                                                                  indent=2) + "\n")
            if why is None and stopper.signum is not None:
                why, code = f"interrupted by {signal.Signals(stopper.signum).name}", 128 + stopper.signum
            if why is not None:
                folder.write_atomic("evaluation.json", json.dumps(_progress(sess, spec_r.seed, args.n, kept),
                                                                  indent=2) + "\n")
                print(_stop_line(why, out, args.n, kept), file=sys.stderr)
                return code
        heur = heuristics(results["R"]["records"], players=n, seed=spec_r.seed,
                          has_shuffle_and_choice=has_shuffle_and_choice(sess.prog.game),
                          include_limited=args.include_limited, bootstrap=args.bootstrap,
                          ai_records=results["M"]["records"], vs_records=results["A"]["records"], ai_code=ai)
        heur["ai"] = {"kind": ai, "budget": budget}
        heur["batches"] = {letter: {"dir": sub, "lineup": "".join(lineups[letter]), "rotate": letter == "A"}
                           for sub, letter in HEURISTIC_BATCHES}
        names = {"R": "".join(lineups["R"]), "A": "".join(lineups["A"]) + " rotated", "M": "".join(lineups["M"])}
        try:
            staging = Path(tempfile.mkdtemp(prefix=STAGING, dir=out))
            try:
                files = write_heuristics(staging, heur, game=sess.name, players=n, lineups=names)
                for name in files:
                    folder.publish(staging / name, name)
            finally:
                shutil.rmtree(staging, ignore_errors=True)
            evaluation = _evaluation(sess, spec_r, args, ai, budget, heur, results, lineups, __version__,
                                     time.perf_counter() - t0)
            folder.write_atomic("evaluation.json", json.dumps(evaluation, indent=2) + "\n", sync=True)
            for sfolder in subfolders:  # all three batches are done: their journals, then ours, go
                finish_journal(sfolder)
            folder.remove(STATE)
            folder.sync()
        except OSError as e:
            raise RecycleError(f"error: cannot write into {out}: {e}") from None
    files.append("evaluation.json")
    if args.json:
        print(json.dumps(evaluation, indent=2))
        return 0
    for sub, letter in HEURISTIC_BATCHES:
        print(f"== {sub} ({names[letter]}) ==")
        print(format_summary(results[letter]["stats"], None))
    info = results["R"]["info"]
    if info is not None:
        print(categories_line(info).replace("information:", "Information:", 1))
    print(f"== heuristics ({ai}, budget {budget}) ==")
    print(format_heuristics(heur))
    print(f"Time: {evaluation['timing']['wall_seconds']:.2f} s")
    print(f"wrote {out}/heuristics.json, heuristics.csv, evaluation.json and the batches in "
          + ", ".join(f"{sub}/" for sub, _ in HEURISTIC_BATCHES))
    return 0


def _evaluation(sess, spec, args, ai, budget, heur, results, lineups, version, wall) -> dict:
    """evaluation.json: the game, the AI, the three batches (where, lineup, runs, win rates by kind) and §4."""
    batches = {}
    for sub, letter in HEURISTIC_BATCHES:
        r = results[letter]
        st = r["stats"]
        batches[sub] = {"batch": letter, "dir": sub, "lineup": "".join(lineups[letter]), "rotate": letter == "A",
                        "runs": st["runs"], "seats": [{"seat": s["seat"], "kind": s["kind"], "win_rate": s["win_rate"]}
                                                      for s in st["seats"]],
                        "kinds": [{"kind": k["kind"], "win_rate": k["win_rate"], "order": k["order"]}
                                  for k in st["kinds"]],
                        "ai_decisions": sum(len(rec.estimates or ()) for rec in r["records"]),
                        "timing": r["timing"]}
    return {"format": "recycle-evaluation", "version": 1, "complete": True, "game": sess.name,
            "game_sha256": sess.sha256,
            "players": sess.n_players, "seed": spec.seed, "interpreter": version,
            "ai": {"kind": ai, "budget": budget},
            "params": {"declares": spec.params, "games": args.n, "max_decisions": spec.max_decisions,
                       "max_idle_steps": spec.max_idle_steps, "include_limited": args.include_limited,
                       "bootstrap": args.bootstrap},
            "batches": batches,
            "heuristics": heur,
            "total": heur["total"], "total_normalized": heur["total_normalized"], "reasonable": heur["reasonable"],
            "timing": {"wall_seconds": wall}}
