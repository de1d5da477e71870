"""Render a card-flow SVG in headless Chromium and check that the picture is really drawn.

Skipped, with a message, when Chromium is not installed (CI does not install it).  The SVG is
docs/gallery/block_rummy-flow.svg when present, else one written by `recycle flow` (which needs
Graphviz).  It is shown in a page 1200 px wide; the screenshot must have the window's size and
must show the fills of the three information categories of Block Rummy, the red `taken` edges
and the dark text of the labels, not a blank or error page.
"""
from __future__ import annotations

import shutil
import subprocess

import matplotlib.image as mpimg
import numpy as np
import pytest

from recycle.cli import main
from support import REPO

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
GALLERY_SVG = REPO / "docs" / "gallery" / "block_rummy-flow.svg"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WIDTH, HEIGHT = 1200, 900

# Graphviz X11 colour names of the §1.2 fills and the `taken` edge, as 0-255 RGB
FILLS = {"public (lightgreen)": (144, 238, 144), "private (lightblue)": (173, 216, 230),
         "hidden (khaki)": (240, 230, 140), "taken edge (red)": (255, 0, 0)}

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (apt install chromium); "
                                                          "the browser rendering test is skipped")


def flow_svg(tmp_path, capsys):
    if GALLERY_SVG.is_file():
        return GALLERY_SVG
    if shutil.which("dot") is None:
        pytest.skip("no docs/gallery SVG and no Graphviz 'dot' to write one")
    assert main(["flow", "block_rummy", "--seed", "1", "--format", "svg", "--out", str(tmp_path / "f")]) == 0
    capsys.readouterr()
    return tmp_path / "f" / "flow.svg"


def screenshot(page_uri: str, tmp_path) -> np.ndarray:
    png = tmp_path / "shot.png"
    proc = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", f"--screenshot={png}",
                           f"--window-size={WIDTH},{HEIGHT}", page_uri],
                          capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert png.is_file() and png.stat().st_size > 0, proc.stderr[-2000:]
    img = mpimg.imread(png)                      # floats in [0, 1], H x W x (3 or 4)
    return np.round(img[..., :3] * 255).astype(int)


def near(img: np.ndarray, rgb, tol: int = 6) -> int:
    return int((np.abs(img - np.array(rgb)).max(axis=-1) <= tol).sum())


def test_flow_svg_renders_in_chromium(tmp_path, capsys):
    svg = flow_svg(tmp_path, capsys)
    assert "<svg" in svg.read_text(encoding="utf-8")
    page = tmp_path / "page.html"
    page.write_text('<!doctype html><html><body style="margin:0;background:white">'
                    f'<img src="{svg.resolve().as_uri()}" style="width:100%;display:block"></body></html>',
                    encoding="utf-8")
    img = screenshot(page.as_uri(), tmp_path)
    assert img.shape == (HEIGHT, WIDTH, 3)
    colours = {tuple(c) for c in img.reshape(-1, 3)[::7]}
    assert len(colours) > 20, "the screenshot is (nearly) blank"
    for what, rgb in FILLS.items():
        assert near(img, rgb) > 100, f"no {what} pixels: the diagram was not drawn as expected"
    assert near(img, (0, 0, 0), tol=60) > 500        # outlines and label text
    # the drawing fills the width of the page (the image was scaled to 1200 px), not one corner
    ink = np.where((img < 200).any(axis=-1))
    assert ink[1].min() < 100 and ink[1].max() > WIDTH - 100


def test_svg_opened_directly(tmp_path, capsys):
    """The SVG file itself, opened as a page (its natural size; the window crops it)."""
    svg = flow_svg(tmp_path, capsys)
    img = screenshot(svg.resolve().as_uri(), tmp_path)
    assert img.shape == (HEIGHT, WIDTH, 3)
    assert len({tuple(c) for c in img.reshape(-1, 3)[::7]}) > 20
    assert near(img, FILLS["private (lightblue)"]) > 100
