"""Transcripts and exact replay (flow-and-analytics §5), and the golden transcripts of tests/golden/.

The golden files are full transcripts of shipped games for fixed seeds (GOLDEN there), written by
tests/golden/regenerate.py.  If a test here fails because the game file, the interpreter
version or the engine changed on purpose, check the difference and regenerate with
`python tests/golden/regenerate.py --force`.
"""
from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import shutil
from pathlib import Path

import pytest

from recycle.cli import main
from recycle.engine.state import DONE
from recycle.errors import UsageError
from recycle.run.replay import ReplayMismatch, replay
from recycle.run.session import GameSession
from recycle.run.transcript import dumps, read_transcript
from support import REPO

FIXTURES = REPO / "tests" / "fixtures" / "games"
GOLDEN_DIR = REPO / "tests" / "golden"
GOLDEN = sorted(GOLDEN_DIR.glob("*-seed-*.jsonl"))  # GAME-seed-SEED.jsonl, two per game of regenerate.GOLDEN


def golden_game(path: Path) -> str:
    return path.name.rsplit("-seed-", 1)[0]
REGENERATE = "python tests/golden/regenerate.py --force"


def record(capsys, out: Path, game, *argv, code: int = 0) -> None:
    """`recycle run … --out`; code 1 when some games end in a run-time error."""
    rc = main(["run", str(game), "--out", str(out), "--json", *argv])
    _, err = capsys.readouterr()
    assert rc == code, err


def fails(capsys, argv, code: int) -> str:
    rc = main(argv)
    out, err = capsys.readouterr()
    assert rc == code, (rc, out, err)
    assert "Traceback" not in err and "internal error" not in err
    return err


def jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def write_jsonl(path: Path, objs) -> Path:
    path.write_text("".join((o if isinstance(o, str) else dumps(o)) + "\n" for o in objs), "utf-8")
    return path


@pytest.fixture(scope="module")
def rummy_run(tmp_path_factory) -> Path:
    """Transcripts of 3 block_rummy games at level `decisions` and 2 at level `full`."""
    root = tmp_path_factory.mktemp("runs")
    for level, n in (("decisions", 3), ("full", 2)):
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(["run", "block_rummy", "-n", str(n), "--seed", "7", "--out", str(root / level),
                         "--transcripts", level, "--json"]) == 0
    return root


# ------------------------------------------------------------------ exact replay


def test_decisions_transcript_replays_exactly(rummy_run):
    for path in sorted((rummy_run / "decisions" / "transcripts").iterdir()):
        lines = jsonl(path)
        regenerated, warnings = replay(path)  # the game is found as the shipped block_rummy
        assert warnings == []
        assert regenerated[0] == lines[0]
        want = [(ev["seat"], ev["options"], ev["choice"]) for ev in lines if ev["type"] == "decision"]
        got = [(ev["seat"], ev["options"], ev["choice"]) for ev in regenerated if ev["type"] == "decision"]
        assert got == want and len(want) > 50
        assert [ev for ev in regenerated if ev["type"] == "end"] == [lines[-1]]


def test_full_transcript_regenerates_identical_lines(rummy_run):
    for path in sorted((rummy_run / "full" / "transcripts").iterdir()):
        text = path.read_text("utf-8").splitlines()
        regenerated, _ = replay(path)
        assert [dumps(ev) for ev in regenerated] == text
        assert any(json.loads(line)["type"] == "move" for line in text)


def test_replay_command_prints_the_game(rummy_run, capsys):
    path = sorted((rummy_run / "full" / "transcripts").iterdir())[0]
    n = sum(1 for ev in jsonl(path) if ev["type"] == "decision")
    assert main(["replay", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("RECYCLE transcript v1 — block_rummy (block_rummy.gdl, sha256 ")
    assert "(batch 7, run 0)" in out.splitlines()[0]
    assert f"end     normal after {n} decisions (min)" in out
    assert f"replay ok: {n} decisions reproduced" in err
    assert main(["replay", str(path), "--json"]) == 0
    assert capsys.readouterr().out == path.read_text("utf-8")


def test_replay_reproduces_a_runtime_error(capsys, tmp_path):
    record(capsys, tmp_path / "out", FIXTURES / "risky.gdl", "-n", "10", "--seed", "3", code=1)
    games = (tmp_path / "out" / "games.csv").read_text().splitlines()[1:]
    run = next(int(g.split(",")[3]) for g in games if ",error," in g)
    path = tmp_path / "out" / "transcripts" / f"run-{run:04d}.jsonl"
    # the fixture is not a shipped game and not beside the transcript: the user must say where it is
    err = fails(capsys, ["replay", str(path)], 2)
    assert "risky.gdl" in err and "--game" in err
    regenerated, _ = replay(path, FIXTURES / "risky.gdl")
    end = regenerated[-1]
    assert end["reason"] == "error" and "risky.gdl:25:4: error[no-card]" in end["error"]
    assert end == jsonl(path)[-1]


# ------------------------------------------------------------------ the game file


@pytest.fixture
def own_game(tmp_path, capsys):
    """A copy of deal_n.gdl in tmp_path, one game of it recorded, and the transcript."""
    game = tmp_path / "deal_n.gdl"
    shutil.copy(FIXTURES / "deal_n.gdl", game)
    record(capsys, tmp_path / "out", game, "-n", "1", "--seed", "4", "--param", "N=4")
    return game, tmp_path / "out" / "transcripts" / "run-0000.jsonl"


def test_transcript_keeps_the_parameters(own_game):
    game, path = own_game
    regenerated, _ = replay(path, game)
    assert sum(1 for ev in regenerated if ev["type"] == "decision") == 8  # N=4 from the header


def test_game_found_beside_the_transcript(own_game, capsys):
    game, path = own_game
    beside = shutil.copy(path, game.parent / "t.jsonl")
    assert main(["replay", str(beside)]) == 0
    assert "replay ok: 8 decisions reproduced" in capsys.readouterr().err


def test_changed_game_file_needs_force(own_game, capsys):
    game, path = own_game
    game.write_text(game.read_text() + "\n;; an edit\n")
    err = fails(capsys, ["replay", str(path), "--game", str(game)], 2)
    assert "changed" in err and "--force" in err and len(err.strip().splitlines()) == 1
    with pytest.raises(UsageError, match="changed"):
        replay(path, game)
    assert main(["replay", str(path), "--game", str(game), "--force"]) == 0
    out, err = capsys.readouterr()
    assert err.startswith("warning: ") and "changed" in err
    assert "end     normal after 8 decisions" in out


def test_missing_game_given_with_game_flag(own_game, capsys):
    _, path = own_game
    err = fails(capsys, ["replay", str(path), "--game", str(path.parent / "nope.gdl")], 2)
    assert "nope.gdl" in err


# ------------------------------------------------------------------ corrupted transcripts


def _corrupt(lines: list[str], how: str) -> list:
    objs = [json.loads(line) for line in lines]
    first = next(i for i, o in enumerate(objs) if o["type"] == "decision" and o["options"] > 1)
    if how == "bad-json":
        return [*lines[:3], lines[3][:-5], *lines[4:]]
    if how == "no-header":
        return lines[1:]
    if how == "empty":
        return []
    if how == "not-an-object":
        return [*lines[:2], "[1, 2]", *lines[2:]]
    if how == "header-without-seed":
        del objs[0]["seed"]
    elif how == "choice-out-of-range":
        objs[first]["choice"] = objs[first]["options"]
    elif how == "negative-choice":
        objs[first]["choice"] = -1
    elif how == "choice-not-a-number":
        objs[first]["choice"] = "2"
    elif how == "no-choice":
        del objs[first]["choice"]
    return objs


@pytest.mark.parametrize("how, words", [
    ("bad-json", [":4:", "invalid JSON"]),
    ("no-header", ["no header"]),
    ("empty", ["no header"]),
    ("not-an-object", [":3:", "JSON object"]),
    ("header-without-seed", [":1:", "'seed'"]),
    ("choice-out-of-range", ["not an option index"]),
    ("negative-choice", ["not an option index"]),
    ("choice-not-a-number", ["not an option index"]),
    ("no-choice", ["not an option index"]),
])
def test_corrupted_transcript_is_a_clear_error(rummy_run, tmp_path, capsys, how, words):
    src = sorted((rummy_run / "decisions" / "transcripts").iterdir())[0]
    bad = write_jsonl(tmp_path / "bad.jsonl", _corrupt(src.read_text().splitlines(), how))
    err = fails(capsys, ["replay", str(bad)], 2)
    assert err.startswith("error: ") and len(err.strip().splitlines()) == 1, err
    for w in words:
        assert w in err, err
    with pytest.raises(UsageError):
        read_transcript(bad)


def test_missing_transcript(capsys, tmp_path):
    err = fails(capsys, ["replay", str(tmp_path / "none.jsonl")], 2)
    assert "no such transcript" in err


# ------------------------------------------------------------------ divergence


def _decision_lines(objs):
    return [i for i, o in enumerate(objs) if o["type"] == "decision"]


def test_mismatch_when_branching_differs(rummy_run, tmp_path, capsys):
    src = sorted((rummy_run / "decisions" / "transcripts").iterdir())[0]
    objs = jsonl(src)
    k = _decision_lines(objs)[10]
    objs[k]["options"] += 1
    bad = write_jsonl(tmp_path / "branching.jsonl", objs)
    with pytest.raises(ReplayMismatch) as e:
        replay(bad)
    assert e.value.line == k + 1
    assert e.value.expected == f"seat {objs[k]['seat']} with {objs[k]['options']} options"
    assert e.value.actual == f"seat {objs[k]['seat']} with {objs[k]['options'] - 1} options"
    err = fails(capsys, ["replay", str(bad)], 1)
    assert f"replay diverged at transcript line {k + 1}" in err


def test_mismatch_when_seat_differs(rummy_run, tmp_path):
    objs = jsonl(sorted((rummy_run / "decisions" / "transcripts").iterdir())[0])
    k = _decision_lines(objs)[3]
    objs[k]["seat"] = 1 - objs[k]["seat"]
    with pytest.raises(ReplayMismatch) as e:
        replay(write_jsonl(tmp_path / "seat.jsonl", objs))
    assert e.value.line == k + 1


def test_mismatch_when_a_choice_is_changed(rummy_run, tmp_path):
    objs = jsonl(sorted((rummy_run / "decisions" / "transcripts").iterdir())[0])
    k = next(i for i in _decision_lines(objs) if objs[i]["options"] > 2)
    objs[k]["choice"] = (objs[k]["choice"] + 1) % objs[k]["options"]
    with pytest.raises(ReplayMismatch) as e:  # the game goes elsewhere: a later decision or the end differs
        replay(write_jsonl(tmp_path / "choice.jsonl", objs))
    assert e.value.line > k + 1


def test_mismatch_when_the_transcript_stops_early(rummy_run, tmp_path):
    objs = jsonl(sorted((rummy_run / "decisions" / "transcripts").iterdir())[0])
    dl = _decision_lines(objs)
    short = objs[: dl[20]]  # 20 decisions, no end line
    with pytest.raises(ReplayMismatch) as e:
        replay(write_jsonl(tmp_path / "short.jsonl", short))
    assert e.value.line == len(short) + 1
    assert "decision 21" in str(e.value)


def test_mismatch_when_the_transcript_goes_on(rummy_run, tmp_path):
    objs = jsonl(sorted((rummy_run / "decisions" / "transcripts").iterdir())[0])
    extra = dict(objs[_decision_lines(objs)[-1]], n=objs[-1]["decisions"] + 1)
    objs.insert(len(objs) - 1, extra)
    with pytest.raises(ReplayMismatch) as e:
        replay(write_jsonl(tmp_path / "long.jsonl", objs))
    assert e.value.line == len(objs) - 1


def test_end_is_verified_unless_no_verify(rummy_run, tmp_path, capsys):
    objs = jsonl(sorted((rummy_run / "decisions" / "transcripts").iterdir())[0])
    objs[-1]["scores"] = [s + 1 for s in objs[-1]["scores"]]
    bad = write_jsonl(tmp_path / "end.jsonl", objs)
    with pytest.raises(ReplayMismatch) as e:
        replay(bad)
    assert e.value.line == len(objs)
    replay(bad, verify=False)
    assert main(["replay", str(bad), "--no-verify"]) == 0
    capsys.readouterr()


def test_full_transcript_events_are_verified(rummy_run, tmp_path):
    objs = jsonl(sorted((rummy_run / "full" / "transcripts").iterdir())[0])
    k = next(i for i, o in enumerate(objs) if o["type"] == "move" and i > 60)
    objs[k]["to"] = ["table", "vloc", "ELSEWHERE", 0]
    with pytest.raises(ReplayMismatch) as e:
        replay(write_jsonl(tmp_path / "move.jsonl", objs))
    assert e.value.line == k + 1


# ------------------------------------------------------------------ golden transcripts (§5.3)


def test_golden_files_exist():
    spec = importlib.util.spec_from_file_location("regenerate", GOLDEN_DIR / "regenerate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    want = {f"{game}-seed-{seed}.jsonl" for game, seeds in module.GOLDEN.items() for seed in seeds}
    assert {p.name for p in GOLDEN} == want, f"expected {sorted(want)} in {GOLDEN_DIR}; run {REGENERATE}"


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.name)
def test_golden_replays_line_by_line(path):
    text = path.read_text("utf-8").splitlines()
    head = json.loads(text[0])
    assert head["level"] == "full" and head["game"] == golden_game(path)
    try:
        regenerated, warnings = replay(path, REPO / "games" / f"{head['game']}.gdl")
    except (UsageError, ReplayMismatch) as e:
        pytest.fail(f"{path.name} no longer replays ({e}); if the change is intended, run {REGENERATE}")
    assert warnings == []
    got = [dumps(ev) for ev in regenerated]
    for i, (want, have) in enumerate(zip(text, got, strict=False), 1):  # then the lengths
        assert have == want, f"{path.name}:{i} differs"
    assert len(got) == len(text)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.name)
def test_golden_same_bytes_when_played_again(path):
    head = json.loads(path.read_text("utf-8").splitlines()[0])
    sess = GameSession.open(REPO / "games" / f"{head['game']}.gdl", head["params"]["declares"] or None)
    rec = sess.play(head["seed"], head["lineup"], level="full")
    data = "".join(line + "\n" for line in rec.transcript).encode("utf-8")
    assert data == path.read_bytes(), f"{path.name} differs from a fresh play of seed {head['seed']}; see {REGENERATE}"


# ------------------------------------------------------------------ the corpus


@pytest.mark.needs_corpus
def test_corpus_game_replays_exactly(corpus_file, tmp_path):
    """One seeded game of every corpus file, recorded at level full, replays to the same lines."""
    if corpus_file.name == "ContinuousPairs4.rcy":
        pytest.skip("cardstock/ContinuousPairs4.rcy has a load-time type error (language spec, Appendix B)")
    sess = GameSession.open(corpus_file)
    rec = sess.play(20240, ["R"] * sess.n_players, run=0, batch_seed=None, level="full")
    path = tmp_path / f"{corpus_file.stem}.jsonl"
    path.write_text("".join(line + "\n" for line in rec.transcript), "utf-8")
    regenerated, warnings = replay(path, corpus_file)
    assert warnings == []
    assert [dumps(ev) for ev in regenerated] == rec.transcript


def test_replay_observes_every_decision_before_its_choice(rummy_run):
    """`observe` sees each decision's state as offered (seat, options), in order, and the live state ends the game."""
    path = sorted((rummy_run / "decisions" / "transcripts").iterdir())[0]
    seen, states = [], []

    def observe(prog, st):
        seen.append((prog.chooser(st), len(prog.options(st)), st.decisions))
        states.append(st)

    replay(path, observe=observe)
    want = [(ev["seat"], ev["options"], ev["n"] - 1) for ev in jsonl(path) if ev["type"] == "decision"]
    assert seen == want and len(seen) > 50
    assert all(s is states[0] for s in states) and states[0].status == DONE and states[0].decisions == len(want)
