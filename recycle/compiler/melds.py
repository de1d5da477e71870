"""Meld forms compiled: the rules made once at compile time, the questions answered by recycle.engine.melds.

A card's meld summary (`CardInfo`: rank position, suit, wild) depends only on its kind, so it is
made once per kind and rules, and kept in `MeldCache`; kinds registered later (attribute
overrides of wild cards) are summarised when first met.
"""
from __future__ import annotations

from ..engine import melds as M
from ..engine.algorithms import ResourceLimit
from ..engine.meld_search import least_deadwood
from ..errors import GameRuntimeError
from ..lang import ast as A
from ..lang.consts import meld_rules
from ..lang.meldrules import MeldRules
from ..lang.printer import brief
from . import references as refs
from .context import Compiler, Form

_err = GameRuntimeError


class MeldCache:
    """CardInfo per (rules, card kind), for one program."""

    def __init__(self, kinds: list):
        self.kinds = kinds
        self.by_rules: dict[MeldRules, dict[int, M.CardInfo]] = {}

    def infos(self, rules: MeldRules, st, cards) -> list[M.CardInfo]:
        table = self.by_rules.get(rules)
        if table is None:
            table = self.by_rules[rules] = {}
        ck = st.ckind
        out = []
        for c in cards:
            k = ck[c]
            info = table.get(k)
            if info is None:
                info = table[k] = M.card_info(rules, self.kinds[k])
            out.append(info)
        return out


def _cache(cx: Compiler) -> MeldCache:
    cache = cx.meld_cache
    if cache is None:
        cache = cx.meld_cache = MeldCache(cx.p.kinds)
    return cache


def e_meldrules(cx: Compiler, n: A.MeldRulesForm, sc):
    rules = meld_rules(n, cx.p.declared)  # constant: the checker made sure of it
    return lambda st, env: rules


def e_meld_test(cx: Compiler, n: A.MeldTest, sc):
    cf = refs.cards(cx, n.pile, sc)
    rf = cx.expr(n.rules, sc)
    test = {"isset": M.is_set, "isrun": M.is_run, "ismeld": M.is_meld}[n.test]
    cache = _cache(cx)

    def meld_test(st, env):
        rules = rf(st, env)
        return test(rules, cache.infos(rules, st, cf(st, env)))
    return meld_test


def e_melds(cx: Compiler, n: A.Melds, sc):
    cf = refs.cards(cx, n.pile, sc)
    rf = cx.expr(n.rules, sc)
    cache = _cache(cx)
    span = n.span

    def melds(st, env):
        rules = rf(st, env)
        cards = list(cf(st, env))
        try:
            found = M.all_melds(rules, cache.infos(rules, st, cards))
        except ResourceLimit as e:
            raise _err("resource", f"{brief(n)}: {e}", span) from None
        return [[cards[i] for i in meld] for meld in found]
    return melds


def e_deadwood(cx: Compiler, n: A.Deadwood, sc):
    cf = refs.cards(cx, n.pile, sc)
    rf = cx.expr(n.rules, sc)
    skf = refs.scores(cx, n.points, sc)
    cache = _cache(cx)
    span = n.span
    want_melds = n.what == "bestmelds"

    def deadwood(st, env):
        rules = rf(st, env)
        cards = list(cf(st, env))
        sk = skf(st, env)
        ck = st.ckind
        try:
            value, chosen = least_deadwood(rules, cache.infos(rules, st, cards), [sk[ck[c]] for c in cards])
        except ResourceLimit as e:
            raise _err("resource", f"{brief(n)}: {e}", span) from None
        if want_melds:
            return [[cards[i] for i in meld] for meld in chosen]
        return value
    return deadwood


def e_fits(cx: Compiler, n: A.Fits, sc):
    cardf = cx.expr(n.card, sc)
    mf = refs.cards(cx, n.meld, sc)
    rf = cx.expr(n.rules, sc)
    cache = _cache(cx)

    def fits(st, env):
        c = cardf(st, env)
        if c is None:
            return False
        rules = rf(st, env)
        [info] = cache.infos(rules, st, (c,))
        return M.fits(rules, info, cache.infos(rules, st, mf(st, env)))
    return fits


FORMS: dict[type, Form] = {
    A.MeldRulesForm: e_meldrules, A.MeldTest: e_meld_test, A.Melds: e_melds, A.Deadwood: e_deadwood, A.Fits: e_fits,
}
