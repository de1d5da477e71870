"""The replay viewer (`recycle view`) in a real headless browser: Playwright driving the system's Chromium.

For a board game (rummy_squared), a card game with hidden hands (block_rummy, a golden transcript)
and an atomic-turn game (rummykruss), the page is stepped from the first state to the last with
the arrow key, in every view, and at every step the cards the page shows are read back from the
page itself and compared:

* in the omniscient view, with what the transcript says: its create, move, remember and forget
  lines folded up to that decision give every location's cards (as a multiset: a shuffle line does
  not say the new order);
* in each seat's view, with the engine's own visibility for that seat (recycle.engine.visibility
  through Program.view) in the same state: the same faces in the same order where the seat sees a
  pile, backs of the same decks where it does not; so the page never shows that seat a card it
  cannot see.

The page must load and be stepped with no console error.  Skipped, with a message, when Playwright
(`pip install recycle[viewer-test]`) or Chromium (`apt install chromium`) is absent.
"""
from __future__ import annotations

import contextlib
import io
import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from recycle.cli import main
from recycle.engine.describe import card_text
from recycle.run.replay import replay
from support import REPO

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed "
                                                              "(pip install recycle[viewer-test]); the viewer's browser "
                                                              "test is skipped")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (apt install chromium); the "
                                                          "viewer's browser test is skipped")

READ_PAGE = """() => {
  const piles = {};
  document.querySelectorAll('#table [data-loc]').forEach((p) => {
    const cards = Array.from(p.querySelectorAll('.card')).map(
      (c) => c.classList.contains('back') ? '?' + c.dataset.deck : c.dataset.face);
    if (cards.length) piles[p.dataset.loc] = cards;
  });
  const taken = document.querySelector('#options li.taken');
  return {step: Number(document.body.dataset.step), view: document.body.dataset.view, piles: piles,
          taken: taken ? Number(taken.dataset.option) : null};
}"""


def loc_text(loc) -> str:
    return " ".join(str(x) for x in loc)


def transcript_piles(path: Path) -> tuple[list[dict], list[int]]:
    """Per decision (and at the end) the cards (`DECK#serial`) of every location as the transcript's lines say,
    and the choices taken."""
    piles: dict[str, list[str]] = {}
    states, choices = [], []
    for line in path.read_text("utf-8").splitlines():
        ev = json.loads(line)
        kind = ev["type"]
        if kind == "create":
            piles.setdefault(loc_text(ev["to"]), []).extend(c["card"] for c in ev["cards"])
        elif kind == "move":
            piles[loc_text(ev["from"])].remove(ev["card"])
            piles.setdefault(loc_text(ev["to"]), []).append(ev["card"])
        elif kind == "remember":
            piles.setdefault(loc_text(ev["to"]), []).append(ev["card"])
        elif kind == "forget":
            piles[loc_text(ev["loc"])].remove(ev["card"])
        elif kind == "swap":
            a, b = loc_text(ev["a"]), loc_text(ev["b"])
            piles[a], piles[b] = piles.get(b, []), piles.get(a, [])
        elif kind in ("decision", "end"):
            states.append({k: list(v) for k, v in piles.items() if v})
            if kind == "decision":
                choices.append(ev["choice"])
        assert kind != "hand", "a game of several hands: fold its lines otherwise"
    return states, choices


def engine_states(path: Path):
    """The program and the states of a replay: one per decision, as offered, and the final one."""
    states, progs, final = [], [], []

    def observe(prog, st):
        states.append(st.clone())
        progs.append(prog)
        final.append(st)

    replay(path, observe=observe)
    return progs[0], [*states, final[0]]


def faces_named(st, placed: dict) -> dict:
    """The transcript's cards (`DECK#serial`) as faces, with the attributes the cards have in state st
    (a wild tile given a colour and a number shows them: the transcript has no line for that)."""
    ids = {f"{d}#{n}": c for c, (d, n) in enumerate(zip(st.cmeta.deck, st.cmeta.serial, strict=True))}
    return {loc: Counter(card_text(st, ids[card]) for card in cards) for loc, cards in placed.items()}


def seat_view(prog, st, seat: int) -> dict:
    """What Program.view says the seat sees in st, written as the page writes cards (`?DECK` face down)."""
    return {loc_text(key): [card_text(st, c) for c in cards] if what == "cards" else [f"?{d}" for d in cards]
            for key, (what, cards) in prog.view(st, seat)["piles"].items()}


@pytest.fixture(scope="module")
def transcripts(tmp_path_factory) -> dict[str, Path]:
    """A board game, a card game with hidden hands and an atomic-turn game, at transcript level full."""
    root = tmp_path_factory.mktemp("viewer")
    out = {}
    for game, seed in (("rummy_squared", 3), ("rummykruss", 5)):
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(["run", game, "-n", "1", "--seed", str(seed), "--out", str(root / game),
                         "--transcripts", "full", "--json", "-q"]) == 0
        out[game] = root / game / "transcripts" / "run-0000.jsonl"
    golden = root / "block_rummy-seed-1.jsonl"
    shutil.copy(REPO / "tests" / "golden" / "block_rummy-seed-1.jsonl", golden)
    out["block_rummy"] = golden
    return out


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


def open_page(browser, transcript: Path, capsys):
    page_file = transcript.with_suffix(".html")
    assert main(["view", str(transcript), "--no-open", "--force", "-o", str(page_file)]) == 0
    capsys.readouterr()
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: errors.append(f"network request {r.url}") if not r.url.startswith("file:") else None)
    page.goto(page_file.resolve().as_uri())
    return page, errors


@pytest.mark.parametrize("game", ["rummy_squared", "block_rummy", "rummykruss"])
def test_stepping_shows_the_transcripts_cards_and_each_seat_only_what_it_sees(game, transcripts, browser, capsys):
    path = transcripts[game]
    placed, choices = transcript_piles(path)
    prog, states = engine_states(path)
    assert len(states) == len(placed)
    want_all = [faces_named(st, p) for st, p in zip(states, placed, strict=True)]
    want_seat = {seat: [seat_view(prog, st, seat) for st in states] for seat in range(prog.n_players)}
    page, errors = open_page(browser, path, capsys)
    try:
        views = page.eval_on_selector_all("#view option", "os => os.map(o => o.value)")
        assert views == ["all", *[f"p{s + 1}" for s in sorted(want_seat)]]
        hidden_seen = 0
        for view in views:
            page.select_option("#view", view)
            page.evaluate("document.activeElement.blur()")  # the picker keeps the arrow keys while focused
            page.keyboard.press("Home")
            expected = want_all if view == "all" else want_seat[int(view[1:]) - 1]
            for k, want in enumerate(expected):
                got = page.evaluate(READ_PAGE)
                assert got["step"] == k and got["view"] == view
                if view == "all":
                    assert {loc: Counter(cards) for loc, cards in got["piles"].items()} == want, (view, k)
                    assert got["taken"] == (choices[k] if k < len(choices) else None)
                else:
                    assert got["piles"] == want, (view, k)
                    hidden_seen += sum(c.startswith("?") for cards in want.values() for c in cards)
                page.keyboard.press("ArrowRight")
            assert page.evaluate(READ_PAGE)["step"] == len(expected) - 1  # stepping stops at the end
            page.click("#prev")
            assert page.evaluate(READ_PAGE)["step"] == len(expected) - 2
        if game == "block_rummy":
            assert hidden_seen > 1000  # the hands and the stock were face down, and the check covered them
        assert errors == []
    finally:
        page.close()


def test_board_and_hex_board_are_drawn_as_boards(transcripts, browser, capsys, tmp_path):
    page, errors = open_page(browser, transcripts["rummy_squared"], capsys)
    try:
        # a square board: one grid cell per cell of the board (6 x 6 in rummy_squared)
        assert page.eval_on_selector_all(".board.square", "bs => bs.length") == 1
        assert page.eval_on_selector_all(".board.square .cell", "cs => cs.length") == 36
        rows = page.eval_on_selector_all(".board.square .cell", "cs => new Set(cs.map(c => c.style.gridRow)).size")
        assert rows == 6
    finally:
        page.close()
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["run", "rummy_runners", "-n", "1", "--seed", "2", "--out", str(tmp_path / "runners"), "-q"]) == 0
    page, errors2 = open_page(browser, tmp_path / "runners" / "transcripts" / "run-0000.jsonl", capsys)
    try:
        cells = page.eval_on_selector_all(".board.hex .cell", "cs => cs.map(c => [c.offsetLeft, c.offsetTop])")
        assert len(cells) > 10
        # hexes: rows at a few heights, and rows offset by half a cell (not one square grid)
        lefts = {x for x, _ in cells}
        tops = sorted({y for _, y in cells})
        assert len(tops) >= 3 and len(lefts) > len(cells) // len(tops)
    finally:
        page.close()
    assert errors == [] and errors2 == []


def test_folder_page_game_picker_slider_and_keys(transcripts, browser, capsys, tmp_path):
    folder = tmp_path / "two"
    folder.mkdir()
    shutil.copy(transcripts["rummy_squared"], folder / "a.jsonl")
    shutil.copy(REPO / "tests" / "golden" / "block_rummy-seed-2024.jsonl", folder / "b.jsonl")
    assert main(["view", str(folder), "--no-open"]) == 0
    capsys.readouterr()
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        page.goto((folder / "viewer.html").resolve().as_uri())
        assert page.eval_on_selector_all("#game option", "os => os.map(o => o.textContent)") == [
            "a.jsonl (rummy_squared)", "b.jsonl (block_rummy)"]
        assert "rummy_squared" in page.text_content("#title")
        page.select_option("#game", "1")
        assert "block_rummy" in page.text_content("#title") and page.evaluate(READ_PAGE)["step"] == 0
        # the slider jumps; End and Home go to the ends; the last state says the game is over
        page.eval_on_selector("#step", "e => { e.value = '40'; e.dispatchEvent(new Event('input')); }")
        assert page.evaluate(READ_PAGE)["step"] == 40
        page.evaluate("document.activeElement.blur()")
        page.keyboard.press("End")
        n = sum(1 for line in (folder / "b.jsonl").read_text("utf-8").splitlines() if '"type":"decision"' in line)
        assert page.evaluate(READ_PAGE)["step"] == n and "Game over (normal)" in page.text_content("#decision")
        page.keyboard.press("Home")
        assert page.evaluate(READ_PAGE)["step"] == 0
        assert errors == []
    finally:
        page.close()
