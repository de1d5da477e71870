"""The tidy files of a batch (flow-and-analytics §3.2, §5): games.csv, decisions.csv, results.csv,
transcripts/ and summary.json, rows always in run order."""
from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from pathlib import Path

from .records import RunRecord


def _cell(v) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, (list, tuple)):
        return ";".join(_cell(x) for x in v)
    return str(v)


def write_csv(path: Path, header: list[str], rows: Iterable[list]) -> None:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    for row in rows:
        w.writerow([_cell(v) for v in row])
    path.write_text(buf.getvalue(), encoding="utf-8")


KEY_COLUMNS = ["game", "players", "lineup", "run"]


def write_core_files(out: Path, game: str, records: list[RunRecord], direction: str, summary: dict) -> list[str]:
    """games.csv, decisions.csv, results.csv, transcripts/ and summary.json, directly in `out`."""
    out.mkdir(parents=True, exist_ok=True)
    files = []

    def key(r: RunRecord):
        return [game, len(r.lineup), "".join(r.lineup), r.run]

    write_csv(out / "games.csv", [*KEY_COLUMNS, "game_seed", "end_reason", "decisions", "forced", "turns", "moves",
                                  "tie_first", "winners", "scores", "error"],
               ([*key(r), r.game_seed, r.end_reason, r.decisions, r.forced, r.turns, r.moves,
                 len(r.winners) > 1 if r.scores is not None else None, r.winners, r.scores, r.error]
                for r in records))
    files.append("games.csv")
    write_csv(out / "decisions.csv", [*KEY_COLUMNS, "decision", "player", "kind", "branching", "chosen"],
               ([*key(r), i + 1, p, r.lineup[p] if p < len(r.lineup) else "", b, c]
                for r in records for i, (p, b, c) in enumerate(r.decision_rows)))
    files.append("decisions.csv")
    write_csv(out / "results.csv", [*KEY_COLUMNS, "seat", "kind", "score", "rank", "win_share", "direction"],
               ([*key(r), s, r.lineup[s], r.scores[s], r.ranks[s], r.known_shares[s], direction]
                for r in records if r.scores is not None and r.ranks is not None for s in range(len(r.lineup))))
    files.append("results.csv")
    tdir = out / "transcripts"
    for r in records:
        if r.transcript:
            tdir.mkdir(exist_ok=True)
            (tdir / f"run-{r.run:04d}.jsonl").write_text("".join(line + "\n" for line in r.transcript),
                                                          encoding="utf-8")
            files.append(f"transcripts/run-{r.run:04d}.jsonl")
    summary = dict(summary)
    summary["files"] = [*files, "summary.json"]
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return summary["files"]
