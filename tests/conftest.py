"""Pytest hooks shared by every test: the `needs_corpus` marker and fixture, and `corpus_file` parametrisation.

Tests that take a `corpus_file` argument run once per corpus file; tests marked
`@pytest.mark.needs_corpus` or using the `needs_corpus` fixture are skipped without the corpus.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from support import CORPUS, CORPUS_MISSING, corpus_files, corpus_id


def pytest_addoption(parser):
    parser.addoption("--fuzz-examples", type=int, default=None, metavar="N",
                     help="examples of each mutation fuzz test (default: each test's own CI budget)")


def pytest_configure(config):
    config.addinivalue_line("markers", "needs_corpus: skip the test when ../shared/corpus is absent")


def pytest_runtest_setup(item):
    if item.get_closest_marker("needs_corpus") is not None and not CORPUS.is_dir():
        pytest.skip(CORPUS_MISSING)


def pytest_generate_tests(metafunc):
    """Parametrise a `corpus_file` argument over the corpus (one skipped case if it is absent)."""
    if "corpus_file" in metafunc.fixturenames:
        files = corpus_files()
        if files:
            metafunc.parametrize("corpus_file", files, ids=[corpus_id(p) for p in files])
        else:
            skipped = pytest.param(None, marks=pytest.mark.skip(reason=CORPUS_MISSING))
            metafunc.parametrize("corpus_file", [skipped], ids=["no-corpus"])


@pytest.fixture
def needs_corpus() -> Path:
    """The corpus folder; skips the test when it is absent."""
    if not CORPUS.is_dir():
        pytest.skip(CORPUS_MISSING)
    return CORPUS
