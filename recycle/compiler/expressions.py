"""Expressions on values: literals, variables, storage, arithmetic, scores, logic, players and teams."""
from __future__ import annotations

from ..errors import GameRuntimeError, InternalError
from ..lang import ast as A
from ..lang import values
from ..lang.ast import T
from ..lang.printer import brief as show
from . import references as refs
from .context import Compiler, Form

_err = GameRuntimeError


def e_lit(cx: Compiler, n, sc):
    v = n.value
    return lambda st, env: v


def e_var(cx: Compiler, n: A.Var, sc):
    b = sc.get(n.name)
    if b is None:
        raise InternalError(f"unbound variable '{n.name} at {n.span}")
    if b[0]:
        v = b[1]
        return lambda st, env: v
    s = b[1]
    return lambda st, env: env[s]


def e_storage(cx: Compiler, n: A.Storage, sc):
    ss, sf = refs.slot(cx, n, sc)
    if n.kind == "ply":
        span = n.span
        what = show(n)

        def ply(st, env):
            v = st.vals[ss if ss is not None else sf(st, env)]
            if v is None:
                raise _err("no-player", f"{what} holds no player", span)
            return v
        return ply
    if ss is not None:
        return lambda st, env: st.vals[ss]
    return lambda st, env: st.vals[sf(st, env)]


def e_arith(cx: Compiler, n: A.Arith, sc):
    fs = [cx.expr(a, sc) for a in n.args]
    op = n.op
    span = n.span
    if op == "+":
        if len(fs) == 2:
            a, b = fs
            cb, vb = cx.const(n.args[1], sc)
            if cb:
                return lambda st, env: a(st, env) + vb
            return lambda st, env: a(st, env) + b(st, env)

        def add(st, env):
            s = 0
            for f in fs:
                s += f(st, env)
            return s
        return add
    if op == "*":
        product = values.product

        def mul(st, env):
            r = 1
            for f in fs:
                r = product(r, f(st, env))
            return r
        return _int_checked(mul, span)
    a, b = fs
    if op == "-":
        return lambda st, env: a(st, env) - b(st, env)
    if op == "//" or op == "%":
        fn = values.trunc_div if op == "//" else values.trunc_mod

        def div(st, env):
            x = a(st, env)
            y = b(st, env)
            if y == 0:
                raise _err("arithmetic", f"({op} {x} 0): division by zero", span)
            return fn(x, y)
        return div

    def pw(st, env):
        x = a(st, env)
        y = b(st, env)
        if y < 0:
            raise _err("arithmetic", f"(^ {x} {y}): negative exponent", span)
        return values.power(x, y)
    return _int_checked(pw, span)


def e_intfn(cx: Compiler, n: A.IntFn, sc):
    f = cx.expr(n.arg, sc)
    fn = values.tri if n.fn == "tri" else values.fib
    span = n.span
    name = n.fn

    def intfn(st, env):
        x = f(st, env)
        if x < 0:
            raise _err("arithmetic", f"({name} {x}): negative argument", span)
        return fn(x)
    return _int_checked(intfn, span)


def _int_checked(f, span):
    """f, with the integer limit (values.IntegerLimit) reported as the run-time error `limit` at span."""
    def checked(st, env):
        try:
            return f(st, env)
        except values.IntegerLimit as e:
            raise _err("limit", str(e), span) from None
    return checked


def e_random(cx: Compiler, n: A.Random, sc):
    hf = cx.expr(n.hi, sc)
    lf = cx.expr(n.lo, sc) if n.lo is not None else None
    span = n.span

    def rnd(st, env):
        lo = 0 if lf is None else lf(st, env)
        hi = hf(st, env)
        if lo > hi:
            raise _err("arithmetic", f"{show(n)}: empty range {lo}..{hi}", span)
        return st.rng.randint(lo, hi)
    return rnd


def e_size(cx: Compiler, n: A.Size, sc):
    c = n.coll
    if type(c) is A.Location:
        s, f = refs.location(cx, c, sc)
        if s is not None:
            return lambda st, env: len(st.piles[s])
        return lambda st, env: len(st.piles[f(st, env)])
    f = refs.coll(cx, c, sc)
    return lambda st, env: len(f(st, env))


def e_sum(cx: Compiler, n: A.Sum, sc):
    scored = refs.card_scores(cx, n.pile, n.points, sc)

    def sum_(st, env):
        _, scores = scored(st, env)
        return sum(scores)
    return sum_


def e_score(cx: Compiler, n: A.Score, sc):
    cf = refs.card(cx, n.card, sc)
    skf = refs.scores(cx, n.points, sc)
    span = n.span

    def score(st, env):
        c = cf(st, env)
        if c is None:
            raise _err("no-card", f"(score {show(n.card)} …): designates no card", span)
        return skf(st, env)[st.ckind[c]]
    return score


def e_score_extreme(cx: Compiler, n: A.ScoreExtreme, sc):
    scored = refs.card_scores(cx, n.pile, n.points, sc)
    span = n.span
    fn = max if n.which == "scoremax" else min

    def ext(st, env):
        cards, scores = scored(st, env)
        if not cards:
            raise _err("empty", f"{show(n)}: the pile is empty", span)
        return fn(scores)
    return ext


def e_pid(cx: Compiler, n: A.Pid, sc):
    return cx.expr(n.player, sc)


def cardstock_file(game: A.Game, span) -> bool:
    """A form written in a .rcy file, CardStock's extension, or in a file read in the older
    CardStockXam dialect reads an attribute of no card as CardStock does: "" (language spec §9.1)."""
    return game.dialect == "xam" or str(span.file).endswith(".rcy")


def no_card_attribute(game: A.Game, n: A.CardAtt):
    """What (cardatt A C) gives when C is no card: "" in a CardStock file, else a run-time error."""
    if cardstock_file(game, n.span):
        return lambda: ""
    pile = n.card.pile if isinstance(n.card, A.CardAt) else None
    ask = f"(> (size {show(pile)}) 0)" if pile is not None else "whether there is a card"
    span = n.span
    message = f"{show(n)}: {show(n.card)} designates no card, which has no attributes (ask {ask} first)"

    def no_card():
        raise _err("no-card", message, span)
    return no_card


def e_cardatt(cx: Compiler, n: A.CardAtt, sc):
    cf = refs.card(cx, n.card, sc)
    c, a = cx.const(n.attribute, sc)
    b = sc.get(n.card.name) if type(n.card) is A.Var else None
    none = no_card_attribute(cx.game, n)
    if c and b is not None and not b[0]:
        s = b[1]

        def cardatt_var(st, env):
            x = env[s]
            return none() if x is None else st.catt[x].get(a, "")
        return cardatt_var
    if c:
        def cardatt(st, env):
            x = cf(st, env)
            if x is None:
                return none()
            return st.catt[x].get(a, "")
        return cardatt
    af = cx.expr(n.attribute, sc)

    def cardatt_dyn(st, env):
        name = af(st, env)
        x = cf(st, env)
        if x is None:
            return none()
        return st.catt[x].get(name, "")
    return cardatt_dyn


def e_logic(cx: Compiler, n: A.Logic, sc):
    fs = [cx.expr(a, sc) for a in n.args]
    if n.op == "and":
        if len(fs) == 2:
            a, b = fs
            return lambda st, env: a(st, env) and b(st, env)
        if len(fs) == 3:
            a, b, c = fs
            return lambda st, env: a(st, env) and b(st, env) and c(st, env)

        # explicit loops: all() / any() over a generator take twice as long on this per-evaluation path
        def and_(st, env):
            for f in fs:  # noqa: SIM110
                if not f(st, env):
                    return False
            return True
        return and_
    if len(fs) == 2:
        a, b = fs
        return lambda st, env: a(st, env) or b(st, env)
    if len(fs) == 3:
        a, b, c = fs
        return lambda st, env: a(st, env) or b(st, env) or c(st, env)

    def or_(st, env):
        for f in fs:  # noqa: SIM110
            if f(st, env):
                return True
        return False
    return or_


def e_not(cx: Compiler, n: A.Not, sc):
    f = cx.expr(n.arg, sc)
    return lambda st, env: not f(st, env)


def e_compare(cx: Compiler, n: A.Compare, sc):
    if n.type == T.PILE:
        return _compare_piles(cx, n, sc)
    a = refs.ply_raw(cx, n.left, sc) if n.type == T.PLAYER else cx.expr(n.left, sc)
    op = n.op
    cb, vb = cx.const(n.right, sc)
    if cb:
        if op == "==":
            return lambda st, env: a(st, env) == vb
        if op == "!=":
            return lambda st, env: a(st, env) != vb
        if op == "<":
            return lambda st, env: a(st, env) < vb
        if op == ">":
            return lambda st, env: a(st, env) > vb
        if op == "<=":
            return lambda st, env: a(st, env) <= vb
        return lambda st, env: a(st, env) >= vb
    b = refs.ply_raw(cx, n.right, sc) if n.type == T.PLAYER else cx.expr(n.right, sc)
    if op == "==":
        return lambda st, env: a(st, env) == b(st, env)
    if op == "!=":
        return lambda st, env: a(st, env) != b(st, env)
    if op == "<":
        return lambda st, env: a(st, env) < b(st, env)
    if op == ">":
        return lambda st, env: a(st, env) > b(st, env)
    if op == "<=":
        return lambda st, env: a(st, env) <= b(st, env)
    return lambda st, env: a(st, env) >= b(st, env)


def e_quant(cx: Compiler, n: A.Quantifier, sc):
    cf = refs.coll(cx, n.coll, sc)
    s, sc2 = cx.bind(sc, n.var)
    cond = cx.expr(n.cond, sc2)
    if n.quant == "any":
        def any_(st, env):
            for e in cf(st, env):
                env[s] = e
                if cond(st, env):
                    return True
            return False
        return any_

    def all_(st, env):
        for e in cf(st, env):
            env[s] = e
            if not cond(st, env):
                return False
        return True
    return all_


def e_card_at(cx: Compiler, n: A.CardAt, sc):
    cf = refs.cards(cx, n.pile, sc)
    if n.pos == "top":
        def top(st, env):
            c = cf(st, env)
            return c[-1] if c else None
        return top
    if n.pos == "bottom":
        def bottom(st, env):
            c = cf(st, env)
            return c[0] if c else None
        return bottom
    xf = cx.expr(n.index, sc)

    def at(st, env):
        i = xf(st, env)
        c = cf(st, env)
        return c[i] if 0 <= i < len(c) else None
    return at


def e_card_extreme(cx: Compiler, n: A.CardExtreme, sc):
    cf = refs.cards(cx, n.pile, sc)
    skf = refs.scores(cx, n.points, sc)
    span = n.span
    best_is_max = n.which == "max"

    def extreme(st, env):
        cards = cf(st, env)
        if not cards:
            raise _err("empty", f"{show(n)}: the pile is empty", span)
        sk = skf(st, env)
        ck = st.ckind
        scores = [sk[ck[c]] for c in cards]
        b = max(scores) if best_is_max else min(scores)
        cands = [c for c, s in zip(cards, scores, strict=True) if s == b]
        if len(cands) == 1:
            return cands[0]
        return cands[st.rng.randrange(len(cands))]
    return extreme


def e_actual(cx: Compiler, n: A.Actual, sc):
    return refs.card(cx, n.card, sc)


def e_location(cx: Compiler, n: A.Location, sc):
    return refs.pile(cx, n, sc)


def e_allof(cx: Compiler, n: A.AllOf, sc):
    v = cx.all_p if n.what == "player" else cx.all_t
    return lambda st, env: v


def e_other(cx: Compiler, n: A.Other, sc):
    if n.what == "player":
        tbl = cx.others_p
        return lambda st, env: tbl[st.pcyc[-2]]
    tbl = cx.others_t
    return lambda st, env: tbl[st.tcyc[-1]]


def e_range(cx: Compiler, n: A.Range, sc):
    lf = cx.expr(n.lo, sc)
    hf = cx.expr(n.hi, sc)
    span = n.span
    limit = values.MAX_RANGE

    def range_(st, env):
        lo = lf(st, env)
        hi = hf(st, env)
        if hi - lo >= limit:
            raise _err("limit", values.range_too_long(lo, hi), span)
        return range(lo, hi + 1)
    return range_


def e_namelist(cx: Compiler, n: A.NameList, sc):
    v = tuple(n.names)
    return lambda st, env: v


def e_whoref(cx: Compiler, n: A.WhoRef, sc):
    if n.what == "player":
        N = cx.n
        if n.which == "current":
            return lambda st, env: st.pcyc[-2]
        if n.which == "next":
            def nxt(st, env):
                c = st.pcyc
                q = c[-1]
                return q if q >= 0 else (c[-2] + 1) % N
            return nxt
        return lambda st, env: (st.pcyc[-2] - 1) % N
    NT = cx.nt
    if n.which == "current":
        return lambda st, env: st.tcyc[-1]
    if n.which == "next":
        return lambda st, env: (st.tcyc[-1] + 1) % NT
    return lambda st, env: (st.tcyc[-1] - 1) % NT


def e_whobyid(cx: Compiler, n: A.WhoById, sc):
    f = cx.expr(n.index, sc)
    N = cx.n if n.what == "player" else cx.nt
    what = n.what
    span = n.span

    def who(st, env):
        i = f(st, env)
        if not (0 <= i < N):
            raise _err("range", f"({i} {what}): there is no {what} {i} (ids 0..{N - 1})", span)
        return i
    return who


def e_owner_of(cx: Compiler, n: A.OwnerOf, sc):
    cf = refs.card(cx, n.card, sc)
    owner = cx.p.pile_owner
    span = n.span

    def owner_of(st, env):
        c = cf(st, env)
        if c is None:
            raise _err("no-card", f"(owner {show(n.card)}): designates no card", span)
        o = owner[st.where[c]]
        if o == 0:
            raise _err("owner", f"(owner {show(n.card)}): the card lies on a game pile, which no player owns", span)
        return o - 1
    return owner_of


def e_team_of(cx: Compiler, n: A.TeamOf, sc):
    f = cx.expr(n.player, sc)
    tof = cx.p.team_of
    return lambda st, env: tof[f(st, env)]


def e_team_as_players(cx: Compiler, n: A.TeamAsPlayers, sc):
    f = cx.expr(n.team, sc)
    teams = cx.p.teams
    return lambda st, env: teams[f(st, env)]


def _compare_piles(cx: Compiler, n: A.Compare, sc):
    """`(== P Q)` on piles: the same cards, in any order; `!=` its negation."""
    af = refs.cards(cx, n.left, sc)
    bf = refs.cards(cx, n.right, sc)
    same = n.op == "=="

    def compare(st, env):
        a, b = af(st, env), bf(st, env)
        return (len(a) == len(b) and sorted(a) == sorted(b)) == same
    return compare


def e_if(cx: Compiler, n: A.IfExpr, sc):
    cond = cx.expr(n.cond, sc)
    then = cx.expr(n.then, sc)
    orelse = cx.expr(n.orelse, sc)
    return lambda st, env: then(st, env) if cond(st, env) else orelse(st, env)


def e_card_as_pile(cx: Compiler, n: A.CardAsPile, sc):
    cf = cx.expr(n.card, sc)

    def card_as_pile(st, env):
        c = cf(st, env)
        return [] if c is None else [c]
    return card_as_pile


FORMS: dict[type, Form] = {
    A.IfExpr: e_if, A.CardAsPile: e_card_as_pile,
    A.IntLit: e_lit, A.Name: e_lit, A.Var: e_var, A.Storage: e_storage, A.Arith: e_arith,
    A.IntFn: e_intfn, A.Random: e_random, A.Size: e_size, A.Sum: e_sum, A.Score: e_score,
    A.ScoreExtreme: e_score_extreme, A.Pid: e_pid, A.CardAtt: e_cardatt, A.Logic: e_logic,
    A.Not: e_not, A.Compare: e_compare, A.Quantifier: e_quant, A.CardAt: e_card_at,
    A.CardExtreme: e_card_extreme, A.Actual: e_actual, A.Location: e_location, A.AllOf: e_allof,
    A.Other: e_other, A.Range: e_range, A.NameList: e_namelist, A.WhoRef: e_whoref, A.WhoById: e_whobyid,
    A.OwnerOf: e_owner_of, A.TeamOf: e_team_of, A.TeamAsPlayers: e_team_as_players,
}
