"""One batch of `recycle stats` written into one folder: tidy CSVs, summary.json, flows, heuristics, plots."""
from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

import attrs

from ..analysis.heuristics import has_shuffle_and_choice, heuristics, write_estimate_csvs, write_heuristics
from ..analysis.summary import (
    analyze,
    branching_by_index,
    summary_document,
    timing_stats,
    write_branching_csv,
    write_seats_csv,
)
from ..errors import RecycleError
from ..players import registry
from ..run.batch import run_batch
from ..run.tables import write_core_files
from ..run.transcript import dumps
from ..version import __version__
from ..visualize import plots
from .batches import open_batch, play_batch
from .flow import events_of, first_error_text, new_flow, relative, write_flow_files

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


def stats_batch(args, sess, spec, out: Path, user_level: str, *, flow: bool, random_heuristics: bool,
                 label: str | None = None) -> dict:
    """Play one batch and write its files into `out` (the body of `recycle stats`): core CSVs, summary.json,
    branching_by_index.csv, seats.csv, lead.csv and spread.csv when the batch has estimates, heuristics files
    of an all-random batch (`random_heuristics`), the flow diagrams (`flow`) and the plots."""
    lineup = "".join(spec.lineup)
    all_random = all(c == "R" for c in spec.lineup)

    # play: the batch itself (progress bar, --jobs) ...
    bargs = argparse.Namespace(**{**vars(args), "out": None})
    records, elapsed = play_batch(sess, spec, bargs, label)
    # ... and the full events the flow diagrams need (the batch's own when it was played at `full`)
    fb_all, run0, run0_full = None, None, None
    if flow:
        if spec.transcript_level == "full":
            flow_records = records
        else:
            full = attrs.evolve(spec, transcript_level="full")
            flow_records = run_batch(full, min(args.n, FLOW_GAMES), args.jobs, session=sess)
            if not args.json:
                print(f"note: flow-aggregate and the information categories use the first {len(flow_records)} "
                      f"of {args.n} games", file=sys.stderr)
        fb_all = new_flow(sess, spec)
        for rec in flow_records:
            if rec.end_reason != "error":
                fb_all.add_run(events_of(rec), seed=rec.game_seed)
        run0 = flow_records[0] if flow_records else None
        if run0 is not None:
            assert run0.transcript is not None  # played at `full`
            run0_full = list(run0.transcript)
        # transcripts as the user asked; run 0, drawn in flow.*, is always kept at `full`
        for rec in records:
            rec.transcript = reduce_transcript(rec.transcript, user_level) if rec.transcript else None
        if records:
            records[0].transcript = run0_full
        del flow_records

    teams = [list(t) for t in sess.prog.game.setup.teams.teams] if sess.prog.game.setup.teams else None
    stats = analyze(records, game=sess.name, direction=sess.prog.direction, players=sess.n_players,
                              seed=spec.seed, lineup=lineup, rotate=spec.rotate, teams=teams,
                              include_limited=args.include_limited, bootstrap=args.bootstrap)
    info = fb_all.information(declared=args.declared) if fb_all is not None and fb_all.runs else None
    params = {"declares": spec.params, "games": args.n, "max_decisions": spec.max_decisions,
              "max_idle_steps": spec.max_idle_steps, "include_limited": args.include_limited,
              "bootstrap": args.bootstrap, "transcripts": user_level, "plot_formats": list(args.plot_formats),
              "flow_formats": list(args.flow_formats), "flow_games": fb_all.runs if fb_all is not None else 0}
    if spec.rotate or spec.ai_budget is not None or spec.estimates:
        params["ai_budget"] = spec.ai_budget
    timing = {**timing_stats(records, elapsed), "jobs": args.jobs}

    def document(files):
        return summary_document(stats, game_sha256=sess.sha256, players=sess.n_players, lineup=lineup,
                                          rotate=spec.rotate, seed=spec.seed, interpreter=__version__,
                                          params=params, information=info, timing=timing, files=files)

    heur = None
    try:
        files = list(write_core_files(out, sess.name, records, sess.prog.direction, document([])))
        files.remove("summary.json")
        write_branching_csv(out / "branching_by_index.csv", sess.name, sess.n_players, lineup,
                                      branching_by_index(records))
        write_seats_csv(out / "seats.csv", sess.name, sess.n_players, lineup, stats)
        files += ["branching_by_index.csv", "seats.csv"]
        if spec.estimates:
            files += write_estimate_csvs(out, sess.name, sess.n_players, records)
        if random_heuristics and all_random:
            heur = heuristics(records, players=sess.n_players, seed=spec.seed,
                                        has_shuffle_and_choice=has_shuffle_and_choice(sess.prog.game),
                                        include_limited=args.include_limited, bootstrap=args.bootstrap)
            heur["note"] = ("from the all-random batch; MeaningfulMoves, Drama, Decisiveness, Coolness, Security, "
                            "Clarity, Stability and Order are not_applicable here: they need a searching player's "
                            "estimates (recycle stats --heuristics)")
            files += write_heuristics(out, heur, game=sess.name, players=sess.n_players)
        elif random_heuristics and not args.json:
            print("note: heuristics skipped: they are computed from an all-random batch "
                  "(or with --heuristics)", file=sys.stderr)
        flow_files = []
        if flow and run0 is not None and run0.end_reason != "error":
            fb0 = new_flow(sess, spec)
            assert run0_full is not None  # copied with run0
            fb0.add_run((json.loads(line) for line in run0_full), seed=run0.game_seed)
            flow_files += write_flow_files(fb0, out / "flow", args.flow_formats)
        elif flow and run0 is not None:
            print(f"note: flow.* not drawn: run 0 ended with an error ({first_error_text([run0])})",
                  file=sys.stderr)
        if fb_all is not None and fb_all.runs:
            # without Graphviz the notice is printed once (by the first diagram), not once per diagram
            formats = args.flow_formats if (shutil.which("dot") or not flow_files) else ()
            flow_files += write_flow_files(fb_all, out / "flow-aggregate", formats)
        files += relative(flow_files, out)
        plot_files, _notes = plots.write_plots(records, out, game=sess.name, players=sess.n_players, seed=spec.seed,
                                               formats=args.plot_formats, include_limited=args.include_limited,
                                               direction=sess.prog.direction, print_notes=not args.json)
        files += relative(plot_files, out)
        doc = document([*files, "summary.json"])
        (out / "summary.json").write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    except OSError as e:
        raise RecycleError(f"error: cannot write into {out}: {e}") from None
    return {"records": records, "stats": stats, "info": info, "heur": heur, "files": files, "doc": doc,
            "timing": timing, "elapsed": elapsed, "flow_runs": fb_all.runs if fb_all is not None else 0}
