"""The items of rummy-style turns: optional steps, decisions asked of other players, loops of items, matches.

Each becomes a few ops of the flat program, so that a game stays clonable at any decision:
`ask` keeps its list of players and its position in variable slots; `while` and `match` jump
back to their test; a match records each hand's scores in the state (`st.hands`).
"""
from __future__ import annotations

from ..lang import ast as A
from .context import Compiler, Form, ItemForm
from .items import gen_decision, per_player


def gen_optional(cx: Compiler, n: A.OptionalStep, sc, stages) -> None:
    gen_decision(cx, n.clauses, n.span, sc, stages, "optional step", optional=True)


def gen_ask(cx: Compiler, n: A.Ask, sc, stages) -> None:
    """Each player in order takes the decision with 'V bound to them; the turn stays where it is."""
    p = cx.p
    players = cx.expr(n.players, sc)
    single = n.type == A.T.PLAYER
    todo, pos = cx.new_slot(), cx.new_slot()
    v, sc2 = cx.bind(sc, n.var)
    p_init = cx.emit(None, n.span, stages)
    p_next = cx.emit(None, n.span, stages)
    asked, cx.chooser_slot = cx.chooser_slot, v
    try:
        cx.gen_items((n.body,), sc2, stages)
    finally:
        cx.chooser_slot = asked
    p_back = cx.emit(None, n.span, stages)
    p_exit = p_back + 1
    step = p._step
    span = n.span

    def init(st):
        env = st.env
        who = players(st, env)
        env[todo] = (who,) if single else tuple(who)
        env[pos] = 0
        st.pc = p_next

    def next_player(st):
        if not step(st, span):
            return
        env = st.env
        i = env[pos]
        if i < len(env[todo]):
            env[v] = env[todo][i]
            env[pos] = i + 1
            st.pc = p_next + 1
        else:
            st.pc = p_exit

    def back(st):
        st.pc = p_next

    p.code[p_init] = init
    p.code[p_next] = next_player
    p.code[p_back] = back


def gen_while(cx: Compiler, n: A.While, sc, stages) -> None:
    """The items again and again while the condition holds (tested before each pass, one step each time)."""
    p = cx.p
    cond = cx.expr(n.cond, sc)
    span = n.cond.span
    p_test = cx.emit(None, span, stages)
    cx.gen_items(n.items, sc, stages)
    p_back = cx.emit(None, n.span, stages)
    p_exit = p_back + 1
    body = p_test + 1
    step = p._step

    def test(st):
        if not step(st, span):
            return
        st.pc = body if cond(st, st.env) else p_exit

    def back(st):
        st.pc = p_test

    p.code[p_test] = test
    p.code[p_back] = back


def gen_match(cx: Compiler, n: A.Match, sc, stages) -> None:
    """Hands until the end condition (tested after each hand); each hand's scores recorded in st.hands."""
    p = cx.p
    hand_scores = per_player(cx, cx.expr(n.score, sc), "scoring the hand of")
    end = cx.expr(n.end, sc)
    body = len(p.code)
    cx.gen_items(n.items, sc, stages)
    p_hand = cx.emit(None, n.span, stages)
    p_exit = p_hand + 1
    step = p._step
    span = n.span

    def hand_over(st):
        if not step(st, span):
            return
        scores = tuple(hand_scores(st))
        st.hands.append(scores)
        if st.rec is not None:
            st.rec.raw({"type": "hand", "n": len(st.hands), "scores": list(scores)})
        st.pc = p_exit if end(st, st.env) else body

    p.code[p_hand] = hand_over


def e_matchscore(cx: Compiler, n: A.MatchScore, sc):
    pf = cx.expr(n.player, sc)

    def matchscore(st, env):
        q = pf(st, env)
        return sum(h[q] for h in st.hands)
    return matchscore


FORMS: dict[type, ItemForm] = {A.OptionalStep: gen_optional, A.Ask: gen_ask, A.While: gen_while, A.Match: gen_match}
EXPRESSIONS: dict[type, Form] = {A.MatchScore: e_matchscore}
