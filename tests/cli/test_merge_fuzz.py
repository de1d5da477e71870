"""`recycle merge` and `recycle run --resume` on folders edited by hand, as a property: whatever one field of
a shard's summary.json, one record of its journal or the resume state is changed to, the command refuses
with one line or does its work, never a trace (the fields had KeyErrors and TypeErrors before)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recycle.cli import main
from recycle.run import batch
from recycle.run.tables import STATE
from support import REPO

DEAL_N = str(REPO / "tests" / "fixtures" / "games" / "deal_n.gdl")
EXAMPLES = 25  # a few seconds

VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.integers(2**63, 2**70),
                   st.floats(allow_nan=True), st.text(max_size=5), st.lists(st.integers(0, 3), max_size=3),
                   st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


def paths(doc, prefix=()) -> list[tuple]:
    """Every place in a JSON document (keys of objects, indexes of lists)."""
    out = [prefix] if prefix else []
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    for k, v in items:
        out += paths(v, (*prefix, k))
    return out


def edit(doc, where: tuple, value, drop: bool):
    *parents, last = where
    for k in parents:
        doc = doc[k]
    if drop:
        del doc[last]
    else:
        doc[last] = value


def ran_cleanly(capsys, argv: list[str]) -> None:
    code = main(argv)
    err = capsys.readouterr().err
    assert code in (0, 1, 2), err
    assert "Traceback" not in err and "internal error" not in err, err


def test_merge_of_a_shard_edited_by_hand(tmp_path_factory, capsys):
    base = tmp_path_factory.mktemp("fuzz-shards")
    dirs = [base / f"s{i}" for i in range(2)]
    for i, d in enumerate(dirs):
        assert main(["run", DEAL_N, "-n", "6", "--seed", "3", "-q", "--out", str(d), "--shard", f"{i}/2"]) == 0
    summary = json.loads((dirs[1] / "summary.json").read_text())
    records = [json.loads(x) for x in (dirs[1] / "shard-records.jsonl").read_text().splitlines()]
    spots = [("summary", p) for p in paths(summary)] + [("records", p) for p in paths(records)]
    capsys.readouterr()

    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(spot=st.sampled_from(spots), value=VALUES, drop=st.booleans())
    def merge_edited(spot, value, drop):
        work = Path(base / "work")
        shutil.rmtree(work, ignore_errors=True)
        shutil.copytree(dirs[1], work / "bad")
        which, where = spot
        doc = json.loads(json.dumps(summary if which == "summary" else records))
        edit(doc, where, value, drop)
        if which == "summary":
            (work / "bad" / "summary.json").write_text(json.dumps(doc))
        else:
            (work / "bad" / "shard-records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in doc))
        ran_cleanly(capsys, ["merge", str(work / "out"), str(dirs[0]), str(work / "bad")])

    merge_edited()


def test_resume_of_a_state_edited_by_hand(tmp_path_factory, capsys, monkeypatch):
    base = tmp_path_factory.mktemp("fuzz-resume")
    real = batch.play_run

    def stop_at_3(sess, spec, r):
        if r == 3:
            raise KeyboardInterrupt
        return real(sess, spec, r)

    monkeypatch.setattr(batch, "play_run", stop_at_3)
    argv = ["run", DEAL_N, "-n", "6", "--seed", "3", "-q", "--out"]
    assert main([*argv, str(base / "cut")]) == 130
    monkeypatch.undo()
    state = json.loads((base / "cut" / STATE).read_text())
    capsys.readouterr()

    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(where=st.sampled_from(paths(state)), value=VALUES, drop=st.booleans())
    def resume_edited(where, value, drop):
        work = base / "work"
        shutil.rmtree(work, ignore_errors=True)
        shutil.copytree(base / "cut", work)
        doc = json.loads(json.dumps(state))
        edit(doc, where, value, drop)
        (work / STATE).write_text(json.dumps(doc))
        ran_cleanly(capsys, [*argv, str(work), "--resume"])

    resume_edited()
