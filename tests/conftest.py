"""Shared test fixtures: the repository root and the shared game corpus.

The corpus (GPL) is never copied into the repository: tests read it from
../shared/corpus beside the repository and skip, with one clear message, when
it is absent.  Tests that take a `corpus_file` argument run once per corpus
file; tests marked `@pytest.mark.needs_corpus` or using the `needs_corpus`
fixture are skipped without it.
"""
from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus"
CORPUS_MISSING = "../shared/corpus not found: corpus tests need the shared folder beside the repo"
CORPUS_SIZE = 117  # cardstock/ 96 + valet/ 21 (language spec, Appendix B)
GAME_SUFFIXES = (".rcy", ".gdl")  # cardstock/Test-Subset2.gdl is a game file too


def corpus_files(root: Path = CORPUS) -> list[Path]:
    """Every game file of the corpus (cardstock/ and valet/), sorted; [] if the folder is absent."""
    if not root.is_dir():
        return []
    return sorted(p for p in root.glob("*/*") if p.is_file() and p.suffix in GAME_SUFFIXES)


def corpus_id(path: Path) -> str:
    """A corpus file's name relative to the corpus folder, e.g. cardstock/Scopa2.rcy."""
    return path.relative_to(CORPUS).as_posix()


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
