"""Test support: where the repository, the fixtures and the shared corpus are, and the corpus files.

The corpus (GPL) is never copied into the repository: tests read it from ../shared/corpus beside
the repository and skip, with one clear message, when it is absent.
"""
from __future__ import annotations

import json
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
TESTS = REPO / "tests"
FIXTURES = TESTS / "fixtures"
GOLDEN = TESTS / "golden"
GAMES = REPO / "games"
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


# Corpus files that do not load (language spec, Appendix B): samples leave them out.
CORPUS_DOES_NOT_LOAD = frozenset({"cardstock/ContinuousPairs4.rcy"})


def corpus_sample(n: int, seed: int = 15) -> list[Path]:
    """A fixed sample of `n` loadable corpus files (the same on every machine); [] if the corpus is absent."""
    import random

    files = [p for p in corpus_files() if corpus_id(p) not in CORPUS_DOES_NOT_LOAD]
    return sorted(random.Random(seed).sample(files, min(n, len(files))))


def folder_files(d: Path) -> dict[str, bytes]:
    """Every file of an output folder by its relative path, summary.json without its timing block (the
    one part of a run's folder that differs between backends, shards and worker counts)."""
    out = {}
    for p in sorted(d.rglob("*")):
        if p.is_file():
            rel = p.relative_to(d).as_posix()
            data = p.read_bytes()
            if rel == "summary.json":
                doc = json.loads(data)
                doc.pop("timing")
                data = json.dumps(doc, indent=1).encode()
            out[rel] = data
    return out
