"""Every shipped game plays as recorded: the same transcripts for the same seeds.

tests/fixtures/variants/transcripts.json was recorded (tests/fixtures/variants/record.py) while
the variants were still full copies of their bases; after they were rewritten as differences
(`(game (extends "BASE") …)`), each must still play the same games, seed for seed, at every
player count.  The header's file digest (it names the file's text) and its `declares` (the
parameters passed, e.g. `PLAYERS` for a variant that now takes its player count from its base)
are left out of the comparison; the player count stays in it (the header's `players`).

Re-recorded once since, when the random player's walks through atomic blocks changed (§15.4):
`record.py --against 3eda10e` first showed every rewritten file playing exactly as its full copy
at that revision under the new engine.  Re-recorded a second time, on unchanged games, when the
header's `declares` were left out of the digest (before rummy_squared's variants were rewritten).
"""
from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

RECORD_PY = Path(__file__).resolve().parents[1] / "fixtures" / "variants" / "record.py"
_spec = importlib.util.spec_from_file_location("variants_record", RECORD_PY)
assert _spec is not None and _spec.loader is not None
record = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(record)

STORED: dict[str, str] = json.loads(record.FIXTURE.read_text("utf-8"))


RECORDED = sorted({key.split("/")[0] for key in STORED})


def test_fixture_covers_every_variant_and_its_base_at_every_count():
    # the games recorded before the rewrite; games shipped later have golden transcripts instead
    extends = {name: re.findall(r'\(extends "([^"]+)"', path.read_text("utf-8"))
               for name, path in record.shipped().items()}
    variants = {name for name, found in extends.items() if found}
    bases = {base for found in extends.values() for base in found}
    assert variants and variants | bases <= set(RECORDED), sorted(variants | bases - set(RECORDED))
    for name, path in record.shipped().items():
        if name not in RECORDED:
            continue
        ns, _ = record.counts(name, path)
        for n in ns:
            for seed in record.SEEDS:
                assert f"{name}/{n}/{seed}" in STORED


@pytest.mark.parametrize("name", RECORDED)
def test_same_transcripts_for_the_same_seeds(name):
    path = record.shipped()[name]
    ns, has_param = record.counts(name, path)
    for n in ns:
        for seed in record.SEEDS:
            got = record.digest(path, n, has_param, seed)
            assert got == STORED[f"{name}/{n}/{seed}"], f"{name} with {n} players, seed {seed}"
