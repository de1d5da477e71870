"""Program.decision_sims (the option-building walks of each decision) and the `steps` a decision line records."""
from __future__ import annotations

from recycle.engine.recording import ListRecorder
from recycle.engine.state import Option
from support.games import make_game, run

CHOICE = "(choice ((move (top (game iloc STOCK)) (top ((0 player) iloc HAND))) (turn pass)))"


def test_every_decision_point_keeps_its_walks():
    prog, st = run(make_game("", CHOICE))
    assert st.pc in prog.decision_sims and len(prog.decision_sims[st.pc]) == 2  # one walk per clause


class Built(Option):
    __slots__ = ("steps",)


def test_an_option_with_steps_has_them_recorded_with_its_decision():
    prog, _ = run(make_game("", CHOICE))
    rec = ListRecorder()
    st = prog.new_game(1, recorder=rec)
    o = Built(st.opts[0].ops)
    o.steps = [0]
    st.opts.append(o)
    prog.apply(st, 2)
    d = next(e for e in rec if e["type"] == "decision")
    assert d["options"] == 3 and d["choice"] == 2 and d["steps"] == [0]
    st2 = prog.new_game(1, recorder=(rec2 := ListRecorder()))
    prog.apply(st2, 0)
    assert "steps" not in next(e for e in rec2 if e["type"] == "decision")  # only built options have them
