"""One batch of `recycle stats` written into one folder: tidy CSVs, summary.json, flows, heuristics, plots."""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import attrs

from ..analysis.heuristics import has_shuffle_and_choice, tally_heuristics, write_estimate_csvs, write_heuristics
from ..analysis.statfigures import branching_rows, stats_of, timing_of
from ..analysis.statstally import StatsTally
from ..analysis.summary import analyze, summary_document, write_branching_csv, write_seats_csv
from ..errors import RecycleError
from ..players import registry
from ..run.batch import iter_batch, play_run
from ..run.output import STAGING, OutFolder
from ..run.records import RunRecord
from ..run.tables import RECORDS, STATE, BatchTables, load_json
from ..run.transcript import dumps
from ..version import __version__
from ..visualize import plots
from .batches import (
    RUN_FILES,
    check_identity,
    open_batch,
    open_out,
    run_identity,
    stream_batch,
)
from .flow import events_of, first_error_text, flow_names, new_flow, relative, write_flow_files
from .run import SHARD_RECORDS, shard_runs

# Above this many games, stats plays the batch at the transcript level the user chose and
# builds the aggregated flow from runs 0 .. FLOW_GAMES-1 only (replayed at level `full`), so
# memory stays bounded (a full transcript is ~50 KB per game).
FLOW_GAMES = 1000


def playing_level(n: int, user_level: str) -> str:
    """The transcript level a stats batch of n games is played at: `full` while its flow can be built from it."""
    return "full" if n <= FLOW_GAMES else user_level

STATS_FILES = ["games.csv", "decisions.csv", "results.csv", "summary.json", "branching_by_index.csv", "seats.csv",
               "heuristics.json", "heuristics.csv"]




def reduce_transcript(lines: list[str], level: str) -> list[str] | None:
    """A `full` transcript cut down to `level` (exactly what playing at that level writes)."""
    if level == "none":
        return None
    if level == "full":
        return lines
    out = []
    for i, line in enumerate(lines):
        ev = json.loads(line)
        t = ev.get("type")
        if i == 0 and t == "header":
            ev["level"] = level
            out.append(dumps(ev))
        elif t == "decision":
            ev.pop("text", None)
            out.append(dumps(ev))
        elif t == "end":
            out.append(line)
    return out


def plot_names() -> tuple[str, ...]:
    return tuple(plots.PLOTS)


def open_batch_ai(args):
    """commands.open_batch plus this command's AI settings: rotation, AI budget, estimates of searching players."""
    sess, spec = open_batch(args)
    searching = any(c in registry.SEARCHING for c in spec.lineup)
    spec = attrs.evolve(spec, rotate=bool(getattr(args, "rotate", False)),
                        ai_budget=getattr(args, "ai_budget", None), estimates=searching)
    return sess, spec


def stats_own_files(args) -> list[str]:
    """The names `recycle stats` writes at the top of its folder (what --force may remove there)."""
    plot_formats = sorted(set(args.plot_formats) | {"png", "svg", "pdf"})
    flow_formats = sorted(set(args.flow_formats))
    return [*RUN_FILES, *STATS_FILES, SHARD_RECORDS, "lead.csv", "spread.csv", *flow_names("flow", flow_formats),
            *flow_names("flow-aggregate", flow_formats), *(f"{p}.{f}" for p in plot_names() for f in plot_formats)]


def stats_batch(args, sess, spec, out: Path, user_level: str, *, flow: bool, random_heuristics: bool,
                label: str | None = None, command: bool = False,
                opened: tuple[OutFolder, dict | None] | None = None, keep_journal: bool = False) -> dict:
    """Play one batch and write its files into `out` (the body of `recycle stats`): core CSVs, summary.json,
    branching_by_index.csv, seats.csv, lead.csv and spread.csv when the batch has estimates, heuristics files
    of an all-random batch (`random_heuristics`), the flow diagrams (`flow`) and the plots.

    The games are added to the tables and transcripts/ as they finish (recycle.run.tables.BatchTables)
    and to a StatsTally (recycle.analysis.statstally), from which the files computed from the whole batch
    are written at the end: `recycle stats` keeps no record (memory does not grow by whole records; the
    kept games of a resumed batch are read back one at a time), a batch of --heuristics keeps them for the
    heuristics of its three batches.  With `command` (the `recycle stats`
    command itself) the folder is checked as --force/--resume say; otherwise (a batch of --heuristics)
    the caller gives the folder it opened and checked, with the resume state of the batch there (or
    None: a new batch).  A batch stopped by a signal or a dying worker returns {"outcome": ...} with
    nothing but the kept games written.  With `keep_journal` the resume journal stays after the batch
    is complete (--heuristics removes it once all three batches are done: finish_journal).
    """
    lineup = "".join(spec.lineup)
    all_random = all(c == "R" for c in spec.lineup)
    own = stats_own_files(args)
    if command:
        folder, state = open_out(out, args, "stats", own)
    else:
        assert opened is not None
        folder, state = opened
    with ExitStack() as stack:
        if command:  # a folder given by the caller stays open for it
            stack.callback(folder.close)
        ident = batch_identity(sess, spec, args, user_level)
        part = getattr(args, "shard", None) if command else None
        runs = shard_runs(args.n, part)
        if part is not None:
            ident["shard"] = list(part)
        tables = BatchTables(folder, sess.name, sess.prog.direction, ident, args.n,
                             {"format": "recycle-analytics", "version": 1, "game": sess.name, "seed": spec.seed},
                             first=runs.start)
        stack.callback(tables.close)
        try:
            kept: Iterator[RunRecord] = iter(())
            if state is not None:
                check_identity(out, state, ident)
                tables.reopen(state)
                kept = tables.kept_records()  # read one at a time
            else:
                tables.start()
        except OSError as e:
            raise RecycleError(f"error: cannot write into {out}: {e}") from None
        if part is not None:
            return _stats_shard(args, sess, spec, out, folder, tables, sum(1 for _ in kept), user_level, ident,
                                runs)
        return _stats_batch(args, sess, spec, out, folder, tables, kept, user_level, lineup, all_random,
                            flow=flow, random_heuristics=random_heuristics, label=label, keep_journal=keep_journal,
                            keep_records=not command)


def teams_of(sess) -> list[list[int]] | None:
    """The teams of a game that creates teams, as seat lists: the compiler's resolved teams (members
    written from 1 read as seats from 0, language §4.5; players not listed in a team of their own),
    never the numbers as written."""
    return [list(t) for t in sess.prog.teams] if sess.prog.game.setup.teams else None


def _stats_batch(args, sess, spec, out: Path, folder: OutFolder, tables: BatchTables, kept: Iterator[RunRecord],
                 user_level: str, lineup: str, all_random: bool, *, flow: bool, random_heuristics: bool,
                 label: str | None, keep_journal: bool, keep_records: bool) -> dict:
    full_spec = attrs.evolve(spec, transcript_level="full")
    played_full = spec.transcript_level == "full"
    fb_all = new_flow(sess, spec) if flow else None
    run0: RunRecord | None = None  # run 0 at level `full`: drawn in flow.*, its transcript always kept whole
    tally = StatsTally(sess.n_players, args.include_limited, teams_of(sess))
    # lead.csv and spread.csv list every estimate of a searching player: a batch with one keeps them
    # (docs/scaling.md: batches of searching players are thousands of games, not millions)
    estimated: list[RunRecord] = []
    records: list[RunRecord] = []

    def tally_add(rec: RunRecord) -> None:
        tally.add(rec)
        if spec.estimates and not keep_records:
            estimated.append(attrs.evolve(rec, transcript=None, decision_rows=[], sampled=[]))

    n_kept = 0
    for rec in kept:
        tally_add(rec)
        n_kept += 1
        if keep_records:
            records.append(rec)

    def flow_add(rec: RunRecord) -> None:
        if fb_all is not None and rec.end_reason != "error" and rec.run < FLOW_GAMES:
            fb_all.add_run(events_of(rec), seed=rec.game_seed)

    if n_kept:  # resumed: the flow of the kept games is played again (at `full`; their files stay as they are)
        run0 = play_run(sess, full_spec, 0)
        if played_full:
            for rec in iter_batch(full_spec, range(min(n_kept, FLOW_GAMES)), args.jobs, sess):
                flow_add(rec)

    def on_record(rec: RunRecord) -> None:
        nonlocal run0
        if rec.run == 0:
            run0 = (attrs.evolve(rec, transcript=list(rec.transcript or [])) if played_full
                    else play_run(sess, full_spec, 0))
        if played_full:
            flow_add(rec)
            rec.transcript = reduce_transcript(rec.transcript, user_level) if rec.transcript else None
        if rec.run == 0:
            assert run0 is not None and run0.transcript is not None  # played at `full`
            rec.transcript = list(run0.transcript)
        tally_add(rec)

    bargs = argparse.Namespace(**{**vars(args), "out": None})
    outcome = stream_batch(sess, spec, bargs, records if keep_records else n_kept, tables, on_record, label)
    if not outcome.complete:
        return {"outcome": outcome}
    elapsed = outcome.elapsed
    if fb_all is not None and not played_full:
        # one full transcript at a time (about 50 KB a game for Hearts4), not a thousand in a list
        n_flow = min(args.n, FLOW_GAMES)
        for rec in iter_batch(full_spec, range(n_flow), args.jobs, sess):
            flow_add(rec)
        if not args.json:
            print(f"note: flow-aggregate and the information categories use the first {n_flow} "
                  f"of {args.n} games", file=sys.stderr)

    stats = stats_of(tally, game=sess.name, direction=sess.prog.direction, seed=spec.seed, lineup=lineup,
                     rotate=spec.rotate, bootstrap=args.bootstrap)
    info = fb_all.information(declared=args.declared) if fb_all is not None and fb_all.runs else None
    params = {"declares": spec.params, "games": args.n, "max_decisions": spec.max_decisions,
              "max_idle_steps": spec.max_idle_steps, "include_limited": args.include_limited,
              "bootstrap": args.bootstrap, "transcripts": user_level, "plot_formats": list(args.plot_formats),
              "flow_formats": list(args.flow_formats), "flow_games": fb_all.runs if fb_all is not None else 0}
    if spec.rotate or spec.ai_budget is not None or spec.estimates:
        params["ai_budget"] = spec.ai_budget
    timing = {**timing_of(tally, elapsed), "jobs": args.jobs}

    def document(files):
        doc = summary_document(stats, game_sha256=sess.sha256, players=sess.n_players, lineup=lineup,
                               rotate=spec.rotate, seed=spec.seed, interpreter=__version__,
                               params=params, information=info, timing=timing, files=files)
        return {**doc, "complete": True, "games_kept": tally.games, "games_asked": args.n}

    heur = None
    try:
        # The files computed from the whole batch are drawn by libraries that take paths: into a private
        # staging folder first, then moved into `out` one by one (never through a symlink there).
        staging = Path(tempfile.mkdtemp(prefix=STAGING, dir=out))
        try:
            files = tables.files()
            made = []
            write_branching_csv(staging / "branching_by_index.csv", sess.name, sess.n_players, lineup,
                                branching_rows(tally))
            write_seats_csv(staging / "seats.csv", sess.name, sess.n_players, lineup, stats)
            made += ["branching_by_index.csv", "seats.csv"]
            if spec.estimates:
                made += write_estimate_csvs(staging, sess.name, sess.n_players,
                                            outcome.records if keep_records else estimated)
            if random_heuristics and all_random:
                heur = tally_heuristics(tally, seed=spec.seed,
                                        has_shuffle_and_choice=has_shuffle_and_choice(sess.prog.game),
                                        bootstrap=args.bootstrap)
                heur["note"] = ("from the all-random batch; MeaningfulMoves, Drama, Decisiveness, Coolness, "
                                "Security, Clarity, Stability and Order are not_applicable here: they need a "
                                "searching player's estimates (recycle stats --heuristics)")
                made += write_heuristics(staging, heur, game=sess.name, players=sess.n_players)
            elif random_heuristics and not args.json:
                print("note: heuristics skipped: they are computed from an all-random batch "
                      "(or with --heuristics)", file=sys.stderr)
            flow_files = []
            if flow and run0 is not None and run0.end_reason != "error":
                fb0 = new_flow(sess, spec)
                assert run0.transcript is not None  # played at `full`
                fb0.add_run((json.loads(line) for line in run0.transcript), seed=run0.game_seed)
                flow_files += write_flow_files(fb0, staging / "flow", args.flow_formats)
            elif flow and run0 is not None:
                print(f"note: flow.* not drawn: run 0 ended with an error ({first_error_text([run0])})",
                      file=sys.stderr)
            if fb_all is not None and fb_all.runs:
                # without Graphviz the notice is printed once (by the first diagram), not once per diagram
                formats = args.flow_formats if (shutil.which("dot") or not flow_files) else ()
                flow_files += write_flow_files(fb_all, staging / "flow-aggregate", formats)
            made += relative(flow_files, staging)
            plot_files, _notes = plots.write_plots(tally, staging, game=sess.name, players=sess.n_players,
                                                   seed=spec.seed, formats=args.plot_formats,
                                                   include_limited=args.include_limited,
                                                   direction=sess.prog.direction, print_notes=not args.json)
            made += relative(plot_files, staging)
            for name in made:
                folder.publish(staging / name, name)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        files += made
        doc = document([*files, "summary.json"])
        folder.write_atomic("summary.json", json.dumps(doc, indent=2) + "\n", sync=True)
        if not keep_journal:
            tables.finish()
    except OSError as e:
        raise RecycleError(f"error: cannot write into {out}: {e}") from None
    return {"records": outcome.records if keep_records else None, "stats": stats, "info": info, "heur": heur,
            "files": files, "doc": doc,
            "timing": timing, "elapsed": elapsed, "flow_runs": fb_all.runs if fb_all is not None else 0,
            "outcome": outcome}


# The options of `recycle stats` a shard keeps in its summary.json, so that `recycle merge` can compute the
# files of the whole batch as `recycle stats --resume` would (everything else is the batch's identity).
SHARD_OPTIONS = ("n", "seed", "players", "param", "max_decisions", "max_idle_steps", "max_options", "transcripts",
                 "include_limited", "plot_formats", "flow_formats", "bootstrap", "declared", "rotate", "ai_budget",
                 "dialect", "move_time")


def _stats_shard(args, sess, spec, out: Path, folder: OutFolder, tables: BatchTables, kept: int,
                 user_level: str, ident: dict, runs: range) -> dict:
    """Shard I/K of a stats batch: its block of runs into the tables and transcripts (exactly the files the
    whole batch writes for them: run 0's transcript whole, the others at the level asked), its records kept
    (shard-records.jsonl) and summary.json saying which shard it is.  The files computed from the whole
    batch are left to `recycle merge`."""
    full_spec = attrs.evolve(spec, transcript_level="full")

    def on_record(rec: RunRecord) -> None:
        if rec.run == 0 and spec.transcript_level != "full":
            rec.transcript = play_run(sess, full_spec, 0).transcript
        elif rec.run != 0 and rec.transcript:
            rec.transcript = reduce_transcript(rec.transcript, user_level)

    bargs = argparse.Namespace(**{**vars(args), "out": None})
    outcome = stream_batch(sess, spec, bargs, kept, tables, on_record, None, runs=runs)
    if not outcome.complete:
        return {"outcome": outcome}
    options = {**{k: getattr(args, k, None) for k in SHARD_OPTIONS}, "transcripts": user_level}
    doc = {"format": "recycle-analytics", "version": 1, "game": sess.name, "game_sha256": sess.sha256,
           "players": sess.n_players, "lineup": list(spec.lineup), "seed": spec.seed, "interpreter": __version__,
           "complete": True, "games_kept": outcome.games, "games_asked": args.n,
           "timing": {"wall_s": outcome.elapsed, "jobs": args.jobs},
           "files": [*tables.files(), "summary.json", SHARD_RECORDS],
           "shard": {"command": "stats", "index": args.shard[0], "of": args.shard[1], "runs": [runs.start, runs.stop],
                     "identity": ident, "game_file": str(Path(sess.path).resolve()),
                     "options": json.loads(json.dumps(options, default=str))}}
    try:
        folder.write_atomic("summary.json", json.dumps(doc, indent=2) + "\n", sync=True)
        tables.finish(SHARD_RECORDS)
    except OSError as e:
        raise RecycleError(f"error: cannot write into {out}: {e}") from None
    return {"outcome": outcome}


def batch_identity(sess, spec, args, user_level: str) -> dict:
    """What --resume checks for one stats batch (its `.recycle-resume.json`)."""
    return {**run_identity("stats", sess, spec, args.n), "transcripts": user_level}


def done_batch(args, sess, spec, out: Path, folder: OutFolder, state: dict) -> dict | None:
    """A batch of --heuristics that was complete before the stop (its summary.json says so, its journal is
    still there): what stats_batch returned for it, read back, not played again; None when it is not done."""
    if int(state.get("games_kept", -1)) != args.n or not folder.exists("summary.json"):
        return None
    try:
        doc = load_json(folder.read_bytes("summary.json"))
    except ValueError:
        return None
    if not isinstance(doc, dict) or doc.get("complete") is not True:
        return None
    tables = BatchTables(folder, sess.name, sess.prog.direction, state["identity"], args.n, {})
    try:
        records = tables.resume(state)
    finally:
        tables.close()
    stats = analyze(records, game=sess.name, direction=sess.prog.direction, players=sess.n_players,
                    seed=spec.seed, lineup="".join(spec.lineup), rotate=spec.rotate, teams=teams_of(sess),
                    include_limited=args.include_limited, bootstrap=args.bootstrap)
    return {"records": records, "stats": stats, "info": doc.get("information"), "heur": doc.get("heuristics"),
            "files": doc.get("files", []), "doc": doc, "timing": doc.get("timing"),
            "elapsed": float(state.get("elapsed_s", 0.0)), "flow_runs": 0, "outcome": None}


def finish_journal(folder: OutFolder) -> None:
    """Remove a complete batch's resume journal (what BatchTables.finish does, for a batch kept open)."""
    folder.remove(STATE)
    folder.remove(RECORDS)
    folder.sync()
