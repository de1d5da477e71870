"""run/tables.py: the checks of a journal's records are made from RunRecord's fields, and they are the
fields a batch writes into its journal (shard-records.jsonl of `recycle run` and `recycle stats` shards)."""
from __future__ import annotations

import inspect
import json
from pathlib import Path

import pytest

from recycle.cli import main
from recycle.errors import InternalError
from recycle.run import tables
from recycle.run.records import RunRecord
from recycle.run.tables import RECORD_FIELDS, record_from_json, record_json
from support import FIXTURES

DEAL_N = str(FIXTURES / "games" / "deal_n.gdl")


@pytest.fixture(scope="module")
def journals(tmp_path_factory) -> dict[str, Path]:
    """The journal a shard of `recycle run` and of `recycle stats` leaves, a flat Monte Carlo player in
    seat 2 (whose estimates `stats` keeps)."""
    base = tmp_path_factory.mktemp("journals")
    out = {}
    for command in ("run", "stats"):
        folder = base / command
        assert main([command, DEAL_N, "-n", "3", "--seed", "2", "--players", "RF", "--ai-budget", "2",
                     "--shard", "0/1", "--out", str(folder), "-q"]) == 0
        out[command] = folder / "shard-records.jsonl"
    return out


def test_a_field_is_required_exactly_when_the_record_cannot_be_made_without_it():
    params = inspect.signature(RunRecord).parameters
    assert [name for name, _, _ in RECORD_FIELDS] == list(params)
    assert [name for name, required, _ in RECORD_FIELDS if required] == [
        name for name, p in params.items() if p.default is inspect.Parameter.empty]


def test_a_record_field_without_a_check_is_an_internal_error(monkeypatch):
    monkeypatch.delitem(tables._FIELD_CHECKS, "estimates")
    with pytest.raises(InternalError, match=r"no check for \['estimates'\]"):
        tables._record_fields()
    monkeypatch.setitem(tables._FIELD_CHECKS, "estimates", lambda v: True)
    monkeypatch.setitem(tables._FIELD_CHECKS, "gone", lambda v: True)
    with pytest.raises(InternalError, match=r"checks of no field: \['gone'\]"):
        tables._record_fields()


@pytest.mark.parametrize("command", ["run", "stats"])
def test_a_journal_on_disk_holds_exactly_the_checked_fields(journals, command):
    lines = journals[command].read_text("utf-8").splitlines()
    assert len(lines) == 3
    for line in lines:
        doc = json.loads(line)
        assert list(doc) == [name for name, _, _ in RECORD_FIELDS]
        assert [name for name, _, ok in RECORD_FIELDS if not ok(doc[name])] == []
        assert record_json(record_from_json(line)) == line
    # the stats journal keeps the searching seat's estimates: their check has seen real ones
    assert any(json.loads(line)["estimates"] for line in lines) == (command == "stats")
