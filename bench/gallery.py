"""Generate docs/gallery.md: the card-flow diagram and the branching plot of games.

    python bench/gallery.py [--games N] [--seed S] [--jobs J] [--corpus DIR] [--no-corpus] [--screenshot]

For every shipped game (games/*.gdl) and a handful of corpus games it plays N seeded
all-random games (the batch of `recycle stats GAME -n N --seed S`) and writes

    docs/gallery/<name>-flow.svg        the flow diagram of run 0 (= `recycle flow GAME --seed S`)
    docs/gallery/<name>-branching.png   the branching-factor plot of the batch

and one section per game in docs/gallery.md with the information categories derived from
the aggregated flow of the N games (flow-and-analytics §2) and a few batch numbers.  The
images are generated from our own runs; the corpus game files themselves (GPL) are read
from ../shared/corpus and never copied.  Without the corpus only the shipped games are
drawn (with a warning).  The output is deterministic for a given seed and Graphviz version.

With --screenshot it also renders docs/gallery/block_rummy-flow.svg in headless Chromium
and saves the picture, cropped to the diagram, as docs/block_rummy_flow.png (the README's).
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from recycle.analysis.flow import FlowGraph
from recycle.analysis.summary import analyze
from recycle.lang import library
from recycle.run.batch import BatchSpec, run_batch
from recycle.run.session import GameSession
from recycle.visualize import plots
from recycle.visualize.flow import flow_to_dot

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO.parent / "shared" / "corpus"
# valet/Rummy2.rcy is left out: it plays exactly as the shipped block_rummy (same draws, same diagram)
CORPUS_GAMES = ("valet/Cribbage2.rcy", "valet/Goofspiel2.rcy", "cardstock/Hearts4.rcy", "valet/GolfSix4.rcy",
                "cardstock/GoFish4.rcy")
DOCS = REPO / "docs"

CATEGORY_TEXT = {
    "Hidden": "cards nobody sees",
    "Private": "cards only their owner sees",
    "Taken": "face-up cards taken out of sight",
    "Shared": "private cards passed to another owner",
    "Back": "decks with distinguishable backs",
}


def _loc(a: dict) -> str:
    return f"{a['owner']} {a['name']}" + (f" {a['index']}" if a["index"] else "")


def _evidence(G, info: dict, cat: str) -> str:
    """A short human list of where a category shows (a few locations or edges)."""
    c = info[cat]
    if cat in ("Hidden", "Private"):
        names = sorted({_loc(G.nodes[n]) for n in c["evidence"]})
    elif cat in ("Taken", "Shared"):
        names = sorted({f"{_loc(G.nodes[e['from']])} \u2192 {_loc(G.nodes[e['to']])}" for e in c["evidence"]})
    else:
        names = list(c["evidence"])
    more = f", \u2026 ({len(names)} in all)" if len(names) > 4 else ""
    return ", ".join(names[:4]) + more


def draw(path: Path, title: str, slug: str, n: int, seed: int, jobs: int, shown_as: str) -> dict:
    sess = GameSession.open(path)
    spec = BatchSpec(str(path), {}, ("R",) * sess.n_players, seed, 2000, 10000, "full")
    records = run_batch(spec, n, jobs)
    agg = FlowGraph(title=sess.name, game=sess.name, game_sha256=sess.sha256, players=sess.n_players,
                    lineup="R" * sess.n_players)
    for r in records:
        if r.end_reason != "error":
            agg.add_run((json.loads(line) for line in r.transcript), seed=r.game_seed)
    run0 = records[0]
    if run0.end_reason == "error":
        raise SystemExit(f"{path}: run 0 ended with an error: {run0.error}")
    one = FlowGraph(title=sess.name, game=sess.name, game_sha256=sess.sha256, players=sess.n_players,
                    lineup="R" * sess.n_players)
    one.add_run((json.loads(line) for line in run0.transcript), seed=run0.game_seed)
    G1 = one.graph()
    out = DOCS / "gallery"
    out.mkdir(parents=True, exist_ok=True)
    svg = flow_to_dot(G1).pipe(format="svg", engine="dot")
    (out / f"{slug}-flow.svg").write_bytes(svg)
    fig = plots.branching_figure(records, game=sess.name, seed=seed)
    plots.save_figure(fig, out, f"{slug}-branching", ("png",))
    stats = analyze(records, game=sess.name, direction=sess.prog.direction, players=sess.n_players, seed=seed,
                    lineup="R" * sess.n_players, bootstrap=200)
    Ga = agg.graph()
    info = agg.information()
    for r in records:
        r.transcript = None
    return {"title": title, "slug": slug, "name": sess.name, "shown_as": shown_as, "players": sess.n_players,
            "n": n, "seed": seed, "stats": stats, "info": info, "G": Ga, "nodes1": G1.number_of_nodes(),
            "edges1": G1.number_of_edges()}


def section(e: dict) -> str:
    st, info, G = e["stats"], e["info"], e["G"]
    cats = info["categories"]
    cat_line = ", ".join(f"**{c}**" for c in cats) if cats else "none (perfect information)"
    lines = [f"## {e['title']}", "",
             f"`{e['shown_as']}`, {e['players']} players. Derived information categories (from the flow of "
             f"{info['runs']} random games): {cat_line}.", ""]
    for c in cats:
        share = info[c]["run_share"]
        often = "" if share is None or share >= 1 else f" (in {share:.0%} of the games)"
        lines.append(f"- {c}: {CATEGORY_TEXT[c]}{often} \u2014 {_evidence(G, info, c)}")
    if info.get("memory"):
        lines.append("- also memory piles (records of seen cards; no category)")
    le, br = st["length"], st["branching"]
    lines += ["",
              f"{e['n']} games: {le['mean']['value']:.1f} decisions on average (range {le['min']}\u2013{le['max']}), "
              + (f"median branching factor {br['median']:.3g} (estimated: the random player samples "
                 f"{br['sampled_decisions']} of {br['points']} decisions' atomic blocks), "
                 if br.get("estimated") else f"mean branching factor {br['mean']:.2f}, ")
              + f"{br['forced_share']:.0%} of decisions forced.", "",
              f"Flow of one game ({e['nodes1']} locations, {e['edges1']} flows): "
              f"`recycle flow {e['shown_as']} --seed {e['seed']}`", "",
              f"![card flow of {e['name']}](gallery/{e['slug']}-flow.svg)", "",
              f"Branching factor by decision point: `recycle stats {e['shown_as']} -n {e['n']} --seed {e['seed']}` "
              f"(branching.png)", "",
              f"![branching factor of {e['name']}](gallery/{e['slug']}-branching.png)", ""]
    return "\n".join(lines)


CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync")


def screenshot(svg: Path, png: Path, scale: float = 1.5) -> Path:
    """Render an SVG (scaled to a 1200 px wide page) in headless Chromium; crop the white margin."""
    from PIL import Image, ImageChops

    exe = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if exe is None:
        raise SystemExit("--screenshot needs Chromium (apt install chromium)")
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "page.html"
        page.write_text('<!doctype html><html><body style="margin:0;background:white">'
                        f'<img src="{svg.resolve().as_uri()}" style="width:100%;display:block"></body></html>',
                        encoding="utf-8")
        raw = Path(tmp) / "shot.png"
        subprocess.run([exe, *CHROMIUM_FLAGS, f"--user-data-dir={tmp}/profile", f"--screenshot={raw}",
                        "--window-size=1200,2000", f"--force-device-scale-factor={scale}", page.as_uri()],
                       check=True, timeout=120, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        img = Image.open(raw).convert("RGB")
        box = ImageChops.difference(img, Image.new("RGB", img.size, "white")).getbbox()
        if box is None:
            raise SystemExit(f"{raw}: Chromium drew a blank page")
        pad = int(12 * scale)
        box = (max(0, box[0] - pad), max(0, box[1] - pad), min(img.width, box[2] + pad), min(img.height, box[3] + pad))
        img.crop(box).save(png, optimize=True)
    return png


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100, help="games per batch (default 100)")
    ap.add_argument("--seed", type=int, default=1, help="batch seed (default 1)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--no-corpus", action="store_true", help="draw the shipped games only")
    ap.add_argument("--screenshot", action="store_true",
                    help="also save a Chromium screenshot of block_rummy's diagram as docs/block_rummy_flow.png")
    args = ap.parse_args(argv)

    entries = []
    for name, path in library.shipped().items():
        title = library.info(name, path).title
        print(f"drawing {name} ...", file=sys.stderr)
        entries.append(draw(path, f"{title} (shipped)", name, args.games, args.seed, args.jobs, name))
    if not args.no_corpus:
        if not args.corpus.is_dir():
            print(f"warning: {args.corpus} not found: the corpus games are left out of the gallery", file=sys.stderr)
        else:
            for rel in CORPUS_GAMES:
                path = args.corpus / rel
                stem = Path(rel).stem
                print(f"drawing {rel} ...", file=sys.stderr)
                entries.append(draw(path, f"{stem} (corpus: {rel.split('/')[0]})", stem, args.games, args.seed,
                                    args.jobs, f"../shared/corpus/{rel}"))

    head = [
        "# Gallery: card flow and branching",
        "",
        "Generated by `python bench/gallery.py` (do not edit by hand). For each game: the card-flow diagram of "
        "one seeded game with random players, the information categories derived from the aggregated flow of "
        f"{args.games} games, and the branching factor at each decision point over those games.",
        "",
        "How to read a diagram: one box per card location, grouped by owner (`table`, then the seats `p1`, "
        "`p2`, \u2026 from top to bottom); an indexed family of piles or the cells of a board is one box, "
        "`NAME \u00d7n` for n locations; the fill says "
        "who can see the cards there (green public, blue private to the owner, khaki hidden from everyone, grey "
        "dotted a memory pile); a bold outline marks where a deck is created; the legend under each diagram "
        "shows the fills and edges it uses. Edges: black for moves that change "
        "nothing about who sees the card, green for moves to a public pile, red dotted for face-up cards taken "
        "out of sight, blue dashed for private cards passed to another owner. Corpus games are named by their "
        "path under `../shared/corpus`, beside the repository (the game files are not part of it).",
        "",
        "| game | players | categories | mean decisions | mean branching |",
        "|---|---|---|---|---|",
    ]
    for e in entries:
        head.append(f"| [{e['name']}](#{_anchor(e['title'])}) | {e['players']} | "
                    f"{', '.join(e['info']['categories']) or 'none'} | {e['stats']['length']['mean']['value']:.1f} | "
                    f"{e['stats']['branching']['mean']:.2f} |")
    head.append("")
    text = "\n".join(head) + "\n" + "\n".join(section(e) for e in entries)
    (DOCS / "gallery.md").write_text(text.rstrip("\n") + "\n", encoding="utf-8")
    print(f"wrote {DOCS / 'gallery.md'} and {2 * len(entries)} images in {DOCS / 'gallery'}", file=sys.stderr)
    if args.screenshot:
        png = screenshot(DOCS / "gallery" / "block_rummy-flow.svg", DOCS / "block_rummy_flow.png")
        print(f"wrote {png}", file=sys.stderr)
    return 0


def _anchor(title: str) -> str:
    """GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens."""
    out = []
    for ch in title.lower():
        if ch.isalnum() or ch in "-_":
            out.append(ch)
        elif ch == " ":
            out.append("-")
    return "".join(out)


if __name__ == "__main__":
    sys.exit(main())
