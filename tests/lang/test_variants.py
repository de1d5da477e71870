"""Variants (`(game (extends "base") …)`): merging, errors in the right file, confinement, digests."""
from __future__ import annotations

from pathlib import Path

import pytest

from recycle.cli import main
from recycle.errors import LoadError
from recycle.lang import load_game, variants
from recycle.run.session import GameSession

BASE = """;; A base game for variant tests
(game
 (declare 3 'DEAL)
 (define (TAKE 'P) (repeat 'DEAL (move (top (game iloc STOCK)) (top ('P iloc HAND)))))
 (setup (create players 2)
  (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR)) (SUIT (S, H)))))
 (do ((shuffle (game iloc STOCK)) (TAKE (current player))))
 (scoring max (size ((current player) iloc HAND))))
"""


def write(tmp: Path, name: str, text: str) -> Path:
    p = tmp / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, "utf-8")
    return p


def declares(loaded) -> dict:
    return {d.var: d.value for d in loaded.game.declares}


def test_a_variant_replaces_a_declare_where_it_stands(tmp_path):
    write(tmp_path, "base.gdl", BASE)
    v = write(tmp_path, "v.gdl", '(game (extends "base") (declare 1 \'DEAL))')
    loaded = load_game(v)
    assert [d.var for d in loaded.game.declares] == [d.var for d in load_game(tmp_path / "base.gdl").game.declares]
    sess = GameSession.open(v)
    rec = sess.play(1, ["R", "R"])
    assert rec.end_reason == "normal" and max(rec.scores) == 1


def test_a_variant_replaces_a_definition_and_adds_one(tmp_path):
    write(tmp_path, "base.gdl", BASE)
    v = write(tmp_path, "v.gdl", '(game (extends "base.gdl")\n (declare 2 \'TWICE)\n'
                                 ' (define (TAKE \'P) (repeat \'TWICE (move (top (game iloc STOCK)) (top (\'P iloc HAND))))))')
    rec = GameSession.open(v).play(1, ["R", "R"])
    assert max(rec.scores) == 2


def test_a_variant_may_build_on_a_variant_in_a_subfolder(tmp_path):
    write(tmp_path, "bases/base.gdl", BASE)
    write(tmp_path, "bases/mid.gdl", '(game (extends "base") (declare 2 \'DEAL))')
    v = write(tmp_path, "v.gdl", '(game (extends "bases/mid.gdl") (scoring min (size ((current player) iloc HAND))))')
    loaded = load_game(v)
    assert declares(loaded)["DEAL"].value == 2
    assert GameSession.open(v).play(1, ["R", "R"]).end_reason == "normal"


def test_unused_definitions_are_warned_about_in_the_variant_only(tmp_path):
    # the base's HANDSIZE serves only its scoring, which the variant replaces: no warning for it
    write(tmp_path, "base.gdl", BASE.replace("(scoring max (size ((current player) iloc HAND)))",
                                             "(scoring max (HANDSIZE))").replace(
        " (setup", " (define HANDSIZE (size ((current player) iloc HAND)))\n (setup"))
    v = write(tmp_path, "v.gdl", '(game (extends "base")\n (define SPARE 1)\n (scoring max 0))')
    assert [w.message for w in load_game(tmp_path / "base.gdl").warnings] == []
    warnings = load_game(v).warnings
    assert [(w.cls, w.message) for w in warnings] == [("unused", "SPARE is defined but never used")]
    assert warnings[0].span.file == str(v)


def test_the_digest_covers_the_base(tmp_path):
    base = write(tmp_path, "base.gdl", BASE)
    v = write(tmp_path, "v.gdl", '(game (extends "base") (declare 1 \'DEAL))')
    before = load_game(v).sha256
    base.write_text(BASE.replace("'DEAL)", "'DEAL) ;; edited", 1), "utf-8")
    assert load_game(v).sha256 != before


def test_replay_notices_a_changed_base(tmp_path, capsys):
    base = write(tmp_path, "base.gdl", BASE)
    v = write(tmp_path, "v.gdl", '(game (extends "base") (declare 1 \'DEAL))')
    out = tmp_path / "runs"
    assert main(["run", str(v), "-n", "1", "--seed", "3", "--out", str(out), "--transcript", "full"]) == 0
    transcript = next(out.rglob("*.jsonl"))
    assert main(["replay", str(transcript), "--game", str(v)]) == 0
    base.write_text(BASE.replace("(SUIT (S, H))", "(SUIT (S, H, D))"), "utf-8")
    capsys.readouterr()
    assert main(["replay", str(transcript), "--game", str(v)]) != 0
    assert "sha256" in capsys.readouterr().err


def error_of(path: Path) -> str:
    with pytest.raises(LoadError) as e:
        load_game(path)
    return e.value.format()


def test_an_error_in_the_base_points_into_the_base(tmp_path):
    write(tmp_path, "base.gdl", BASE.replace("(size ((current player) iloc HAND))", "(size ((current player) iloc HAND) 3)"))
    v = write(tmp_path, "v.gdl", '(game (extends "base") (declare 1 \'DEAL))')
    msg = error_of(v)
    assert "base.gdl:8:15" in msg and "v.gdl" not in msg.splitlines()[0]


def test_an_error_in_the_variant_points_into_the_variant(tmp_path):
    write(tmp_path, "base.gdl", BASE)
    v = write(tmp_path, "v.gdl", '(game (extends "base")\n (define (TAKE \'P) (move (top (game iloc STOCK)) 7)))')
    msg = error_of(v)
    assert msg.splitlines()[0].startswith(f"{v}:2:"), msg


@pytest.mark.parametrize("name,words", [
    ("/etc/passwd.gdl", "no absolute path"),
    ("../base.gdl", "no absolute path, no .."),
    ("base.txt", "not a game file"),
    ("nosuchgame", "no game 'nosuchgame'"),
    ("missing.gdl", "cannot read the base game"),
])
def test_a_base_must_be_a_game_inside_the_variants_folder(tmp_path, name, words):
    write(tmp_path, "base.txt", BASE)
    v = write(tmp_path, "sub/v.gdl", f'(game (extends "{name}") (declare 1 \'DEAL))')
    msg = error_of(v)
    assert "error[variant]" in msg and words in msg, msg


def test_variants_in_a_circle_are_an_error(tmp_path):
    write(tmp_path, "a.gdl", '(game (extends "b") (declare 1 \'DEAL))')
    b = write(tmp_path, "b.gdl", '(game (extends "a") (declare 2 \'DEAL))')
    assert "in a circle (b.gdl → a.gdl → b.gdl)" in error_of(b)


@pytest.mark.parametrize("change,words", [
    ("(do ((turn pass)))", "items change through the definitions they use"),
    ("(extends \"base\")", "items change through the definitions they use"),
])
def test_a_variant_changes_only_declares_definitions_limits_setup_scoring(tmp_path, change, words):
    write(tmp_path, "base.gdl", BASE)
    v = write(tmp_path, "v.gdl", f'(game (extends "base") {change})')
    assert words in error_of(v)


def test_the_base_is_named_in_quotes(tmp_path):
    v = write(tmp_path, "v.gdl", "(game (extends BASE) (declare 1 'DEAL))")
    assert 'names its base game in quotes' in error_of(v)


def test_a_shipped_game_is_a_base_by_name(tmp_path):
    v = write(tmp_path, "v.gdl", ";; Two-player Rummy Squared\n(game (extends \"rummy_squared\") (declare 2 'PLAYERS))")
    loaded = load_game(v)
    assert declares(loaded)["PLAYERS"].value == 2


def test_check_reports_a_base_error_as_a_user_error(tmp_path, capsys):
    write(tmp_path, "base.gdl", BASE.replace("(create players 2)", "(create players 2 3)"))
    v = write(tmp_path, "v.gdl", '(game (extends "base") (declare 1 \'DEAL))')
    assert main(["check", str(v)]) != 0
    out = capsys.readouterr()
    err = out.out + out.err
    assert "base.gdl:" in err and "Traceback" not in err


@pytest.mark.parametrize("suffix", ["", ".gdl"], ids=["name", "file"])
def test_a_base_name_too_long_for_the_system_is_a_variant_error(tmp_path, suffix):
    """A name past the system's 255 bytes cannot even be looked up: it is no base, said at the extends."""
    name = "b" * 300 + suffix
    path = write(tmp_path, "v.gdl", f'(game (extends "{name}"))\n')
    with pytest.raises(LoadError) as e:
        load_game(path)
    text = e.value.format()
    assert "error[variant]" in text and "v.gdl:1:7" in text


def test_many_changes_merge_in_one_pass_over_the_base(tmp_path, monkeypatch):
    # 3,000 declares of the base and 3,000 of the variant (half replacing, half new), the new ones
    # before setup in order: each change is looked up, never compared with every form of the base
    n = 3000
    names = [f"X{chr(65 + i // 676)}{chr(65 + i // 26 % 26)}{chr(65 + i % 26)}" for i in range(2 * n)]
    base = BASE.replace("(declare 3 'DEAL)", "(declare 3 'DEAL) " + " ".join(f"(declare 1 '{x})" for x in names[:n]))
    write(tmp_path, "base.gdl", base)
    changes = " ".join(f"(declare 2 '{x})" for x in names[n // 2: n + n // 2])
    v = write(tmp_path, "v.gdl", f'(game (extends "base") {changes} (declare 5 \'{names[0]}))')
    keys = []
    real = variants._key
    monkeypatch.setattr(variants, "_key", lambda x: keys.append(x) or real(x))
    loaded = load_game(v)
    assert len(keys) == (n + 5) + (n + 1)  # once per form of the base (its n + 5) and once per change
    values = {d.var: d.value.value for d in loaded.game.declares}
    assert [d.var for d in loaded.game.declares] == ["DEAL", *names[:n + n // 2]]
    assert values[names[0]] == 5 and values[names[n // 2 - 1]] == 1
    assert values[names[n // 2]] == 2 and values[names[n + n // 2 - 1]] == 2


def test_a_game_and_its_bases_together_are_bounded(tmp_path, monkeypatch):
    part = ";; padding\n" * (variants.MAX_SOURCE_BYTES // 4 // 11)  # a quarter of the limit, less a little
    write(tmp_path, "base.gdl", part + BASE)
    write(tmp_path, "mid.gdl", part + "(game (extends \"base\") (declare 1 'DEAL))\n")
    parsed = []
    real = variants.read_sexprs
    monkeypatch.setattr(variants, "read_sexprs", lambda src: parsed.append(src.filename) or real(src))
    assert declares(load_game(write(tmp_path, "v.gdl", part + "(game (extends \"mid\"))\n")))
    parsed.clear()
    v = write(tmp_path, "v.gdl", part + part + "(game (extends \"mid\"))\n")
    with pytest.raises(LoadError) as e:
        load_game(v)
    [d] = e.value.diagnostics
    assert d.cls == "limit" and "MAX_SOURCE_BYTES" in d.message and "up to 'base'" in d.message
    assert d.span.file.endswith("mid.gdl") and d.span.line == part.count("\n") + 1
    assert parsed == [str(tmp_path / "mid.gdl")]  # the base that passes the limit is read, never parsed
