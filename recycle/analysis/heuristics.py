"""The game-quality heuristics of flow-and-analytics §4: those an all-random batch gives and, from the
estimates of searching players (§3.5, `RunRecord.estimates`), the AI ones (`ai_heuristics`,
`order_heuristic`, lead.csv and spread.csv with `write_estimate_csvs`).

    h = heuristics(records, players=4, seed=42, has_shuffle_and_choice=True)
    write_heuristics(out, h, game="Hearts4", players=4)
"""
from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterable, Sequence
from pathlib import Path

import attrs
import numpy as np

from ..lang import ast
from ..players import estimates as est
from ..run.records import RunRecord
from ..run.tables import KEY_COLUMNS, write_csv
from .runs import LIMIT_REASONS, boot_seed, mean_ci, outcome_runs, winners_of
from .stats import bootstrap_apply, wilson
from .statstally import StatsTally
from .summary import num_text

# §4 table: name -> (weight, status when computable, batch it reads)
HEURISTICS = {
    "Fairness": (0.5, "active", "R"),
    "MeaningfulMoves": (0.5, "active", "M"),
    "Drama": (0.25, "active", "M"),
    "Decisiveness": (0.4, "active", "M"),
    "Coolness": (0.5, "active", "M"),
    "Security": (0.0, "extra", "M"),
    "SeatFairness": (0.0, "extra", "R"),
    "Clarity": (0.0, "extra", "M"),
    "Stability": (0.0, "extra", "M"),
    "NoTies": (0.0, "extra", "R"),
    "GameLength": (0.0, "extra", "R"),
    "Order": (0.0, "extra", "A"),
}
MAX_TOTAL = 2.15
NOT_APPLICABLE_AI = "needs the estimates of a searching player (recycle stats --heuristics)"


# ---------------------------------------------------------------- §4 heuristics


def _triangle(p, f):
    return p / f if p <= f else (1 - p) / (1 - f)


def _game_length_score(mean_l, lmin, lmax):
    if mean_l < lmin:
        return mean_l / lmin
    if mean_l > lmax:
        return lmax / mean_l
    return 1.0


def _entry(name, value=None, lo=None, hi=None, n_runs=0, status=None, note=""):
    weight, default_status, batch = HEURISTICS[name]
    status = status or default_status
    weighted = weight * value if value is not None else None
    return {"name": name, "value": value, "lo": lo, "hi": hi, "weight": weight, "weighted": weighted,
            "n_runs": n_runs, "status": status, "note": note, "batch": batch}


@attrs.frozen
class RandomRuns:
    """What the heuristics of an all-random batch read of its used runs (analysis.runs.outcome_runs), in run
    order: the win shares (runs x seats), the decisions of each run, how many runs were tied for first
    (ties) or did not have exactly one winner (tied), and the decided runs (one winner) and those p1 won."""

    shares: np.ndarray
    lengths: np.ndarray
    ties: int
    tied: int
    decided: int
    decided_p1: int

    @classmethod
    def of(cls, used: Sequence[RunRecord], players: int) -> RandomRuns:
        winners = [winners_of(r) for r in used]
        return cls(np.array([r.known_shares[:players] for r in used], dtype=float).reshape(len(used), players),
                   np.array([r.decisions for r in used], dtype=float),
                   ties=sum(1 for w in winners if len(w) >= 2), tied=sum(1 for w in winners if len(w) != 1),
                   decided=sum(1 for w in winners if len(w) == 1), decided_p1=sum(1 for w in winners if w == [0]))

    @classmethod
    def of_tally(cls, t: StatsTally) -> RandomRuns:
        shares = np.empty((t.used, t.players))
        for s, column in enumerate(t.shares):
            shares[:, s] = np.frombuffer(column, dtype=float)
        return cls(shares, np.frombuffer(t.used_lengths, dtype=float).copy(), ties=t.ties_first, tied=t.tied,
                   decided=t.decided, decided_p1=t.decided_p1)


def heuristics(records: Sequence[RunRecord], *, players: int, seed: int, has_shuffle_and_choice: bool,
               lmin: float = 5, lmax: float = 100, bootstrap: int = 1000, include_limited: bool = False,
               other_batches: Iterable[Sequence[RunRecord]] = (), ai_records: Sequence[RunRecord] | None = None,
               vs_records: Sequence[RunRecord] | None = None, ai_code: str | None = None) -> dict:
    """§4 from the all-random batch R: Fairness, SeatFairness, NoTies, GameLength; and, given the all-AI batch M
    (`ai_records`, with estimates) and the rotated AI-vs-random batch A (`vs_records`, AI kind `ai_code`), the
    AI heuristics; without them those are not_applicable.  Every batch given counts for the reasonable gate."""
    entries = {}
    if ai_records is not None:
        entries.update(ai_heuristics(ai_records, players=players, seed=seed, bootstrap=bootstrap,
                                     include_limited=include_limited))
    if vs_records is not None and ai_code is not None:
        entries["Order"] = order_heuristic(vs_records, ai_code, players=players, include_limited=include_limited)
    all_records = list(records) + [r for batch in other_batches for r in batch]
    all_records += list(ai_records or ()) + list(vs_records or ())
    n_err = sum(1 for r in all_records if r.end_reason == "error")
    n_lim = sum(1 for r in all_records if r.end_reason in LIMIT_REASONS)
    return heuristics_of(RandomRuns.of(outcome_runs(records, include_limited), players), players=players,
                         seed=seed, has_shuffle_and_choice=has_shuffle_and_choice, errors=n_err, limited=n_lim,
                         lmin=lmin, lmax=lmax, bootstrap=bootstrap, include_limited=include_limited,
                         ai_entries=entries)


def tally_heuristics(t: StatsTally, *, seed: int, has_shuffle_and_choice: bool, bootstrap: int = 1000,
                     lmin: float = 5, lmax: float = 100) -> dict:
    """heuristics() of the one all-random batch whose records were added to `t`."""
    return heuristics_of(RandomRuns.of_tally(t), players=t.players, seed=seed,
                         has_shuffle_and_choice=has_shuffle_and_choice, errors=t.reasons["error"],
                         limited=sum(t.reasons[k] for k in LIMIT_REASONS), lmin=lmin, lmax=lmax, bootstrap=bootstrap,
                         include_limited=t.include_limited)


def heuristics_of(runs: RandomRuns, *, players: int, seed: int, has_shuffle_and_choice: bool, errors: int,
                  limited: int, lmin: float = 5, lmax: float = 100, bootstrap: int = 1000,
                  include_limited: bool = False, ai_entries: dict | None = None) -> dict:
    """heuristics() of the all-random batch's used runs `runs`, `errors` and `limited` being the runs of every
    batch that ended with an error or at a limit (the gate), `ai_entries` the AI heuristics computed apart."""
    N = len(runs.lengths)
    entries = {}
    shares = runs.shares
    na_reason = "one seat" if players < 2 else ("no used run" if N == 0 else None)

    # Fairness: triangle of p1's win rate around 1/n, bootstrapped over R's runs
    if na_reason:
        entries["Fairness"] = _entry("Fairness", status="not_applicable", note=na_reason)
        entries["SeatFairness"] = _entry("SeatFairness", status="not_applicable", note=na_reason)
    else:
        f = 1 / players
        p1 = shares[:, 0]
        tri = np.vectorize(lambda p: _triangle(p, f))
        lo, hi = bootstrap_apply(N, boot_seed(seed, "heuristic.Fairness"), lambda idx: tri(p1[idx].mean(axis=1)),
                                 bootstrap)
        # Tied games split their shares, so a batch of draws looks perfectly fair: the note says how many
        # games were tied and p1's win rate over the decided ones (one winner alone), with its interval.
        tied, decided, d1 = runs.tied, runs.decided, runs.decided_p1
        note = f"p1 wins {float(p1.mean()):.3f}, fair share {f:.3f}"
        if tied:
            dlo, dhi = wilson(d1, decided)
            note += (f"; {tied} of {N} games tied or without a winner (shares split)"
                     + (f"; over the {decided} decided games p1 wins {d1 / decided:.3f} "
                        f"[{dlo:.3f}, {dhi:.3f}], fairness {_triangle(d1 / decided, f):.3f}"
                        if decided else "; no decided game"))
        entries["Fairness"] = _entry("Fairness", _triangle(float(p1.mean()), f), lo, hi, N, note=note)
        entries["Fairness"]["tied"] = tied
        entries["Fairness"]["decided"] = (
            {"n": decided, "p1_wins": d1 / decided, "value": _triangle(d1 / decided, f)} if decided else None)

        def seat_fair(w):
            return 1 - np.abs(w - f).sum(axis=-1) / (2 * (1 - f))

        lo, hi = bootstrap_apply(N, boot_seed(seed, "heuristic.SeatFairness"),
                                 lambda idx: seat_fair(shares[idx].mean(axis=1)), bootstrap)
        entries["SeatFairness"] = _entry("SeatFairness", float(seat_fair(shares.mean(axis=0))), lo, hi, N)

    for name in ("MeaningfulMoves", "Drama", "Decisiveness", "Coolness", "Security", "Clarity", "Stability", "Order"):
        entries[name] = _entry(name, status="not_applicable", note=NOT_APPLICABLE_AI)
    entries.update(ai_entries or {})

    if N == 0:
        entries["NoTies"] = _entry("NoTies", status="not_applicable", note="no used run")
        entries["GameLength"] = _entry("GameLength", status="not_applicable", note="no used run")
    else:
        ties = runs.ties
        lo, hi = wilson(N - ties, N)
        entries["NoTies"] = _entry("NoTies", 1 - ties / N, lo, hi, N, note=f"{ties} of {N} runs tied for first")
        L = runs.lengths
        gl = np.vectorize(lambda m: _game_length_score(m, lmin, lmax))
        lo, hi = bootstrap_apply(N, boot_seed(seed, "heuristic.GameLength"), lambda idx: gl(L[idx].mean(axis=1)),
                                 bootstrap)
        entries["GameLength"] = _entry("GameLength", _game_length_score(float(L.mean()), lmin, lmax), lo, hi, N,
                                       note=f"mean L {float(L.mean()):.1f}, bounds [{lmin:g}, {lmax:g}]")

    return verdict([entries[name] for name in HEURISTICS], has_shuffle_and_choice=has_shuffle_and_choice,
                   errors=errors, limited=limited,
                   params={"lmin": lmin, "lmax": lmax, "bootstrap": bootstrap, "include_limited": include_limited})


def verdict(ordered: list[dict], *, has_shuffle_and_choice: bool, errors: int, limited: int, params: dict) -> dict:
    """The heuristics' result: the entries in order, their weighted total, and whether the random batch is
    reasonable enough for the total to count (no errors, no limits, a game with a shuffle and a choice)."""
    total = sum(e["weight"] * e["value"] for e in ordered if e["status"] == "active" and e["value"] is not None)
    reasons = []
    if not has_shuffle_and_choice:
        reasons.append("the game has no shuffle or no choice")
    if errors:
        reasons.append(f"{errors} run{'s' if errors != 1 else ''} ended with an error")
    if limited:
        reasons.append(f"{limited} run{'s' if limited != 1 else ''} stopped at a decision or step limit")
    reasonable = not reasons
    return {
        "heuristics": ordered,
        "total": total if reasonable else 0.0,
        "total_normalized": total / MAX_TOTAL if reasonable else 0.0,
        "total_ungated": total,
        "max_total": MAX_TOTAL,
        "reasonable": reasonable,
        "gate_reasons": reasons,
        "params": params,
    }


# ---------------------------------------------------------------- §3.5 estimates, §4 AI heuristics


def lead_rows(records: Sequence[RunRecord], players: int) -> list[list]:
    """lead.csv rows (key columns first): one per (AI decision, seat k): decision, decider, seat, rank_est
    (ranks[o*][k]), lead (e of k under o*), final_rank."""
    rows = []
    for r in records:
        key = [None, players, "".join(r.lineup), r.run]
        for e in r.estimates or ():
            ld = est.lead(e, players)
            for k in range(players):
                rows.append([*key, e["decision"], e["decider"], k, e["ranks"][e["chosen"]][k], ld[k],
                             r.ranks[k] if r.ranks is not None else None])
    return rows


def spread_rows(records: Sequence[RunRecord], players: int) -> list[list]:
    """spread.csv rows (key columns first): one per AI decision: decision, decider, options, spread_score,
    spread_rank, forced."""
    rows = []
    for r in records:
        key = [None, players, "".join(r.lineup), r.run]
        for e in r.estimates or ():
            sp = est.spread(e, players)
            rows.append([*key, e["decision"], e["decider"], e["options"], sp["spread_score"], sp["spread_rank"],
                         sp["forced"]])
    return rows


def write_estimate_csvs(out: Path, game: str, players: int, records: Sequence[RunRecord]) -> list[str]:
    """lead.csv and spread.csv (§3.6) of a batch whose records carry estimates."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)

    def keyed(rows):
        for row in rows:
            row[0] = game
            yield row

    write_csv(out / "lead.csv", [*KEY_COLUMNS, "decision", "decider", "seat", "rank_est", "lead", "final_rank"],
               keyed(lead_rows(records, players)))
    write_csv(out / "spread.csv", [*KEY_COLUMNS, "decision", "decider", "options", "spread_score", "spread_rank",
                                   "forced"],
              keyed(spread_rows(records, players)))
    return ["lead.csv", "spread.csv"]


def _run_ai_values(r: RunRecord, n: int) -> dict:
    """The per-run values of the §4 AI heuristics (a name is missing when the run has no input for it)."""
    ests = list(r.estimates or ())
    out = {}
    spreads = [est.spread(e, n)["spread_rank"] for e in ests if e["options"] >= 2]
    if spreads:
        out["MeaningfulMoves"] = sum(spreads) / len(spreads)
    clar = [c for c in (est.clarity(e, n) for e in ests) if c is not None]
    if clar:
        out["Clarity"] = sum(clar) / len(clar)
    series = {s: est.self_view(ests, s, n) for s in range(n)}
    tau = (2 * n - 3) / (2 * n - 2)
    drama, decisive, security = [], [], []
    for w in winners_of(r):
        v = series.get(w) or []
        if not v:
            continue
        below = [x for x in v if x < tau]
        drama.append(sum(math.sqrt(tau - x) for x in below) / len(below) if below else 0.0)
        L = len(v)
        j = next((t for t, x in enumerate(v, 1) if x > 0.8), L)
        decisive.append(1 - (L - j) / L)
        security.append(1 - len(below) / L)
    if drama:
        out["Drama"] = sum(drama) / len(drama)
        out["Decisiveness"] = sum(decisive) / len(decisive)
        out["Security"] = sum(security) / len(security)
    pairs = sum(max(0, len(v) - 1) for v in series.values())
    if pairs:
        drops = sum(1 for v in series.values() for a, b in itertools.pairwise(v) if b < a)
        out["Coolness"] = 1 - drops / pairs
    if len(ests) >= 2:
        orders = [est.competition_order(est.lead(e, n)) for e in ests]
        changes = [sum(1 for a, b in zip(p, q, strict=True) if a != b) / n for p, q in itertools.pairwise(orders)]
        out["Stability"] = 1 - sum(changes) / len(changes)
    return out


AI_HEURISTICS = ("MeaningfulMoves", "Drama", "Decisiveness", "Coolness", "Security", "Clarity", "Stability")


def ai_heuristics(records: Sequence[RunRecord], *, players: int, seed: int, bootstrap: int = 1000,
                  include_limited: bool = False) -> dict:
    """§4 heuristics of the all-AI batch M from its estimates: name -> entry (mean over runs, bootstrap CI)."""
    used = outcome_runs(records, include_limited)
    if players < 2:
        return {k: _entry(k, status="not_applicable", note="one seat") for k in AI_HEURISTICS}
    if not used:
        return {k: _entry(k, status="not_applicable", note="no used run") for k in AI_HEURISTICS}
    if not any(r.estimates for r in used):
        return {k: _entry(k, status="not_applicable", note="no AI estimates in the batch") for k in AI_HEURISTICS}
    per_run = [_run_ai_values(r, players) for r in used]
    notes = {"MeaningfulMoves": "runs' mean spread_rank over AI decisions with b >= 2",
             "Drama": f"tau = {(2 * players - 3) / (2 * players - 2):.3f}",
             "Decisiveness": "confidence threshold 0.8",
             "Clarity": "options within 0.1 x spread_rank of the best"}
    out = {}
    for name in AI_HEURISTICS:
        vals = [d[name] for d in per_run if name in d]
        if not vals:
            out[name] = _entry(name, status="not_applicable", note="no run with input for it")
            continue
        ci = mean_ci(vals, seed, f"heuristic.{name}", bootstrap)
        assert ci is not None  # vals is not empty
        out[name] = _entry(name, ci["value"], ci["lo"], ci["hi"], len(vals), note=notes.get(name, ""))
    return out


def order_heuristic(records: Sequence[RunRecord], ai_code: str, *, players: int,
                    include_limited: bool = False) -> dict:
    """§4 Order from the rotated AI-vs-random batch A: (W_AI - 1/n) / (1 - 1/n), Wilson CI mapped the same way."""
    used = outcome_runs(records, include_limited)
    if players < 2:
        return _entry("Order", status="not_applicable", note="one seat")
    occ = [(r, s) for r in used for s in range(players) if s < len(r.lineup) and r.lineup[s] == ai_code]
    if not occ:
        return _entry("Order", status="not_applicable", note="no used run")
    x = sum(r.known_shares[s] for r, s in occ)
    n = len(occ)
    lo, hi = wilson(x, n)
    f = 1 / players
    to = lambda w: (w - f) / (1 - f)  # noqa: E731
    return _entry("Order", to(x / n), to(lo), to(hi), len(used),
                  note=f"{ai_code} wins {x / n:.3f} against random players, fair share {f:.3f}")


HEURISTIC_COLUMNS = ["name", "value", "lo", "hi", "weight", "weighted", "n_runs", "status", "note"]


def write_heuristics(out: Path, result: dict, *, game: str, players: int, lineups: dict | None = None,
                     json_name: str = "heuristics.json") -> list[str]:
    """heuristics.csv (key columns, run empty; lineup of the batch each heuristic reads) and heuristics.json."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    lineups = lineups or {"R": "R" * players}
    write_csv(out / "heuristics.csv", KEY_COLUMNS + HEURISTIC_COLUMNS,
               ([game, players, lineups.get(e["batch"], ""), None] + [e[c] for c in HEURISTIC_COLUMNS]
                for e in result["heuristics"]))
    (out / json_name).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return ["heuristics.csv", json_name]


def format_heuristics(result: dict) -> str:
    """§4 text report: one line per heuristic, the total, the gate line."""
    lines = []
    for e in result["heuristics"]:
        ci = f"[{num_text(e['lo'])}, {num_text(e['hi'])}]" if e["lo"] is not None else " " * 14
        w = f"w={e['weight']:.2f}"
        tail = (f"\u2192 {num_text(e['weighted'])}" if e["status"] == "active" and e["value"] is not None
                else e["status"])
        if e["status"] == "not_applicable":
            tail += f" ({e['note']})"
        lines.append(f"{e['name']:<16}{num_text(e['value'])}  {ci}  {w}  {tail}")
    t = result["total"]
    lines.append(f"Total {t:.3f} / {result['max_total']:g} ({result['total_normalized']:.3f})")
    if result["reasonable"]:
        lines.append("Reasonable: yes (shuffle and choice present, no error or limit runs)")
    else:
        lines.append(f"Reasonable: no; total set to 0 (ungated {result['total_ungated']:.3f}): "
                     + "; ".join(result["gate_reasons"]))
    return "\n".join(lines)


def has_shuffle_and_choice(game: ast.Game) -> bool:
    """Static §4 gate: the syntax tree holds at least one `shuffle` and at least one `choice`."""
    found = {"shuffle": False, "choice": False}
    stack: list[object] = [game]
    seen: set[int] = set()
    while stack and not all(found.values()):
        n = stack.pop()
        if isinstance(n, (list, tuple)):
            stack.extend(n)
            continue
        if not isinstance(n, ast.Node) or id(n) in seen:
            continue
        seen.add(id(n))
        if isinstance(n, ast.Shuffle):
            found["shuffle"] = True
        elif isinstance(n, ast.Choice):
            found["choice"] = True
        for f in attrs.fields(type(n)):
            v = getattr(n, f.name)
            if isinstance(v, (ast.Node, list, tuple)):
                stack.append(v)
    return all(found.values())
