"""docs/errors.md is the gallery generated from the error fixtures: the committed page must be current."""
from __future__ import annotations

import importlib.util

from support import FIXTURES


def _gallery():
    spec = importlib.util.spec_from_file_location("gallery", FIXTURES / "errors" / "gallery.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_errors_page_is_up_to_date():
    g = _gallery()
    assert g.OUT.read_text("utf-8") == g.render(), "run: python tests/fixtures/errors/gallery.py"


def test_every_error_fixture_is_in_the_gallery():
    g = _gallery()
    page = g.OUT.read_text("utf-8")
    for path in sorted((FIXTURES / "errors").glob("*.gdl")):
        assert f"`tests/fixtures/errors/{path.name}`" in page, path.name


def test_fix_lines_are_shown():
    page = _gallery().render()
    assert "**Fix:** " in page
