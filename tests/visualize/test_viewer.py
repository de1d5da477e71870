"""`recycle view` without a browser: where the page goes, what it holds, what it escapes, and its limits.

The browser test (test_viewer_browser.py) steps the page; here the page's embedded data is read
back as JSON and checked against the engine, and the command's files and refusals are checked.
"""
from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
import webbrowser
from pathlib import Path

import pytest

from recycle.cli import main
from recycle.engine.describe import card_text
from recycle.run.replay import replay
from recycle.visualize import viewer
from support import REPO

GOLDEN = REPO / "tests" / "golden" / "block_rummy-seed-1.jsonl"
DATA = re.compile(r'<script type="application/json" id="recycle-data">(.*?)</script>', re.S)


def page_json(path: Path) -> dict:
    m = DATA.search(path.read_text("utf-8"))
    assert m is not None
    return json.loads(m.group(1))


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Path:
    """Three block_rummy games (`recycle run --out`, transcripts at level decisions)."""
    root = tmp_path_factory.mktemp("runs") / "out"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["run", "block_rummy", "-n", "3", "--seed", "11", "--out", str(root), "--json", "-q"]) == 0
    return root


@pytest.fixture
def golden(tmp_path) -> Path:
    path = tmp_path / GOLDEN.name
    shutil.copy(GOLDEN, path)
    return path


@pytest.fixture
def no_browser(monkeypatch) -> list:
    opened: list = []
    monkeypatch.setattr(webbrowser, "open", lambda url, *a, **k: opened.append(url) or True)
    return opened


def test_view_writes_beside_the_transcript_and_opens_it(golden, capsys, no_browser):
    assert main(["view", str(golden)]) == 0
    page = golden.with_suffix(".html")
    assert page.is_file() and f"wrote {page}" in capsys.readouterr().out
    assert no_browser == [page.resolve().as_uri()]
    text = page.read_text("utf-8")
    # self-contained: no file or address fetched from elsewhere
    assert not re.search(r"<(script|link|img|iframe)[^>]+(src|href)=", text)
    assert "http://" not in text and "https://" not in text
    data = page_json(page)
    (game,) = data["games"]
    assert game["game"] == "block_rummy" and set(game["views"]) == {"all", "p1", "p2"}
    decisions = sum(1 for line in GOLDEN.read_text("utf-8").splitlines() if '"type":"decision"' in line)
    assert game["decisions"] == decisions
    assert all(len(v["frames"]) == decisions + 1 for v in game["views"].values())  # every decision and the end
    assert game["end"]["scores"] == json.loads(GOLDEN.read_text("utf-8").splitlines()[-1])["scores"]


def test_view_refuses_to_overwrite_unless_forced(golden, capsys, no_browser, tmp_path):
    out = tmp_path / "page.html"
    out.write_text("mine", "utf-8")
    assert main(["view", str(golden), "-o", str(out), "--no-open"]) == 2
    assert "exists" in capsys.readouterr().err and out.read_text("utf-8") == "mine"
    assert main(["view", str(golden), "-o", str(out), "--no-open", "--force"]) == 0
    assert out.read_text("utf-8").startswith("<!doctype html>")
    assert no_browser == []  # --no-open


def test_seat_data_holds_only_what_the_engine_lets_that_seat_see(golden, no_browser, tmp_path):
    out = tmp_path / "p2.html"
    assert main(["view", str(golden), "-o", str(out), "--no-open", "--seat", "p2"]) == 0
    (game,) = page_json(out)["games"]
    assert list(game["views"]) == ["p2"]  # no omniscient data set on a one-seat page
    view = game["views"]["p2"]
    states: list = []
    progs: list = []
    replay(golden, observe=lambda prog, st: (states.append(st.clone()), progs.append((prog, st))))
    prog, final = progs[0]
    states.append(final)
    assert len(states) == len(view["frames"])
    seen: set[str] = set()
    hidden = 0
    for st, piles in zip(states, viewer.expand_piles(view), strict=True):
        shown = {}
        for (fam, idx), codes in piles.items():
            f = game["families"][fam]
            shown[(f["owner"], f["kind"], f["name"], idx)] = [view["faces"][c] if c >= 0 else None for c in codes]
        want = {key: [card_text(st, c) for c in cards] if what == "cards" else [None] * len(cards)
                for key, (what, cards) in prog.view(st, 1)["piles"].items()}
        assert shown == want
        seen.update(f for cards in want.values() for f in cards if f)
        hidden += sum(f is None for cards in want.values() for f in cards)
    assert hidden > 1000 and set(view["faces"]) == seen  # no face in p2's data that p2 never sees
    # the stock is face down in p2's view: its faces are nowhere in p2's data before they are seen
    first = viewer.expand_piles(view)[0]
    stock = next(i for i, f in enumerate(game["families"]) if f["owner"] == "table" and f["name"] == "STOCK")
    assert len(first[(stock, 0)]) > 20 and all(c < 0 for c in first[(stock, 0)])
    # the options of the other seat's decisions: only the one taken, as p2 may see it
    choices = [json.loads(line)["choice"] for line in GOLDEN.read_text("utf-8").splitlines() if '"decision"' in line]
    for st, frame in zip(states[:-1], view["frames"], strict=False):
        if frame["chooser"] == 0:  # not how many options p1 had, nor which index it took
            assert frame["options"] is None and frame["chosen"] is None and len(frame["shown"]) == 1
            taken = prog.options(st)[choices.pop(0)]
            assert frame["shown"] == [[None, "; ".join(a.text for a in viewer.actions(prog, st, taken, 1))]]
        else:
            choices.pop(0)
            assert frame["options"] == len(prog.options(st)) and len(frame["shown"]) == min(frame["options"], 40)


def test_everything_from_files_is_escaped(golden, tmp_path, no_browser):
    nasty = tmp_path / "a<script><!--<b>&x.jsonl"  # (a file name cannot hold '/', the data test below does)
    golden.rename(nasty)
    out = tmp_path / "page.html"
    assert main(["view", str(nasty), "-o", str(out), "--no-open"]) == 0
    text = out.read_text("utf-8")
    assert text.count("</script>") == 2  # the data element's and the program's, nothing closed early
    assert "<b>" not in text and "<!--<b>" not in text and "a<script>" not in text
    assert "<title>recycle replay: a&lt;script&gt;&lt;!--&lt;b&gt;&amp;x.jsonl</title>" in text
    assert page_json(out)["games"][0]["name"] == nasty.name
    tricky = {"s": "</script><script>alert(1)</script>&amp;\u2028<!--"}
    encoded = viewer._script_json(tricky)
    assert not set("<>&\u2028") & set(encoded) and json.loads(encoded) == tricky


def test_folder_page_has_a_game_picker_and_reports_its_limits(runs, capsys, no_browser):
    assert main(["view", str(runs), "--no-open"]) == 0
    data = page_json(runs / "viewer.html")
    assert [g["name"] for g in data["games"]] == ["run-0000.jsonl", "run-0001.jsonl", "run-0002.jsonl"]
    assert data["notes"] == []
    # a page holds at most MAX_GAMES games and MAX_FRAMES states: past them it says so (and the command too)
    small = viewer.page_data(viewer.transcripts_in(runs), max_games=2)
    assert len(small["games"]) == 2 and "only the first 2 of 3 transcripts" in small["notes"][0]
    cut = viewer.page_data(viewer.transcripts_in(runs), max_frames=30)
    (game,) = cut["games"]
    assert len(game["views"]["all"]["frames"]) == 29 and game["end"] is None
    assert any("only the first 29 of" in n for n in cut["notes"])
    assert any("left out" in n for n in cut["notes"])


def test_changed_game_file_is_refused(tmp_path, capsys, no_browser):
    src = REPO / "games" / "block_rummy.gdl"
    folder = tmp_path / "g"
    folder.mkdir()
    shutil.copy(src, folder / "block_rummy.gdl")
    shutil.copy(GOLDEN, folder / "t.jsonl")
    (folder / "block_rummy.gdl").write_text(src.read_text("utf-8") + "\n;; changed\n", "utf-8")
    assert main(["view", str(folder / "t.jsonl"), "--no-open"]) == 2
    err = capsys.readouterr().err
    assert "changed since the transcript was written" in err
    # the advice is the viewer's own: its --force overwrites the page, it does not replay another game
    assert "with the game file it was written with (--game FILE)" in err and "replay anyway" not in err
    assert main(["view", str(folder / "t.jsonl"), "--no-open", "--force"]) == 2
    assert not (folder / "t.html").exists()


def test_viewer_page_shows_inline_in_a_notebook(golden):
    page = viewer.viewer_page(golden)
    shown = page._repr_html_()
    assert shown.startswith("<iframe srcdoc=") and "&lt;script" in shown and "<script" not in shown


def test_bad_seat_and_missing_transcripts_are_one_message(golden, tmp_path, capsys, no_browser):
    assert main(["view", str(golden), "--seat", "north", "--no-open"]) == 2
    assert "write a seat as p1, p2" in capsys.readouterr().err
    # a seat the game does not have: refused, not a page with no view at all
    assert main(["view", str(golden), "--seat", "p99", "--no-open", "-o", str(tmp_path / "p99.html")]) == 2
    assert "--seat p99:" in capsys.readouterr().err and not (tmp_path / "p99.html").exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["view", str(empty), "--no-open"]) == 2
    err = capsys.readouterr().err
    assert "no transcripts" in err and "Traceback" not in err
    assert not (empty / "viewer.html").exists()


def test_storage_of_a_hidden_card_is_named_by_place_not_id():
    """Issue 17: the storage table all views share names a card by its id only if every shown seat sees it."""
    from recycle.compiler import load_program
    from visualize import viewer as tree_viewer  # this tree's file (recycle.visualize may map to an install)

    prog = load_program(REPO / "games" / "block_rummy.gdl")
    st = prog.new_game(0)
    pid = next(p for p, cards in enumerate(st.piles) if cards and not prog.sees(0, p) and prog.sees(1, p))
    c = st.piles[pid][0]
    # a card cell the game does not have, added to this program only for the test
    prog.slot_key.append((("C", c), "sto", "MARK"))
    prog.slot_default.append(0)
    st.vals.append(1)
    ident = f"{st.cmeta.deck[c]}#{st.cmeta.serial[c]}"

    def marks(seats):
        return [cv for cv in tree_viewer._storage(prog, st, seats) if cv[0].endswith(" sto MARK")]

    def view_marks(seat):
        return {k: v for k, v in prog.view(st, seat)["storage"].items() if k[2] == "MARK"}

    assert marks([1]) == [[f"{ident} sto MARK", "1"]]  # p2 sees the card: its id
    place = f"{st.cmeta.deck[c]} card 0 of {prog.loc_text(pid)}"
    assert marks([0, 1]) == [[f"{place} sto MARK", "1"]]
    assert view_marks(0) == {(place, "sto", "MARK"): 1}
    assert view_marks(1) == {(ident, "sto", "MARK"): 1}
