"""References to piles, cards, owners and storage cells, compiled to closures.

Not forms of their own: the helpers that forms use to turn a location, a card reference or
a storage cell into a pile id, a card id or a slot, with the static cases (a constant name
and index, the current player, a bound variable) resolved at compile time.
"""
from __future__ import annotations

from ..errors import GameRuntimeError, InternalError
from ..lang import ast as A
from ..lang.ast import T
from ..lang.printer import brief as show
from .context import KIND_CODE, Compiler

_err = GameRuntimeError


def static_pid(cx: Compiler, n, sc) -> int | None:
    """The pile id of a location whose owner is `game` and whose name and index are constant."""
    if type(n) is not A.Location or type(n.owner) is not A.GameOwner:
        return None
    nc, name = cx.const(n.name, sc)
    if n.index is None:
        ic, idx = True, 0
    else:
        ic, idx = cx.const(n.index, sc)
        if nc:
            cx.p.indexed_names.add((KIND_CODE[n.kind], name))
    if not (nc and ic) or idx < 0:
        return None
    return cx.p.register_pile(0, KIND_CODE[n.kind], name, idx)


def owner_code(cx: Compiler, o, sc):
    """Closure giving the owner code: 0 game, 1 + p player, 1 + n + t team."""
    if type(o) is A.GameOwner:
        return lambda st, env: 0
    t = etype(cx, o)
    f = cx.expr(o, sc)
    if t == T.PLAYER:
        return lambda st, env: f(st, env) + 1
    off = 1 + cx.n
    return lambda st, env: f(st, env) + off


def etype(cx: Compiler, o) -> T:
    t = type(o)
    if t is A.Var:
        return o.type
    if t is A.WhoRef or t is A.WhoById:
        return T.PLAYER if o.what == "player" else T.TEAM
    if t is A.OwnerOf:
        return T.PLAYER
    if t is A.TeamOf:
        return T.TEAM
    if t is A.Storage and o.kind == "ply":
        return T.PLAYER
    raise InternalError(f"cannot tell whether {type(o).__name__} at {o.span} is a player or a team")


def _owner_table_fn(cx: Compiler, o, sc, tbl):
    """Closure tbl[owner code of o], specialised for the common owners."""
    t = type(o)
    if t is A.GameOwner:
        v = tbl[0]
        return v, None
    if t is A.WhoRef and o.what == "player" and o.which == "current":
        return None, lambda st, env: tbl[st.pcyc[-2] + 1]
    if t is A.Var and o.type == T.PLAYER:
        b = sc[o.name]
        if not b[0]:
            s = b[1]
            return None, lambda st, env: tbl[env[s] + 1]
    of = owner_code(cx, o, sc)
    return None, lambda st, env: tbl[of(st, env)]


def location_table(cx: Compiler, n: A.Location, sc) -> list[int] | None:
    """The pile id of a location with a constant name and index per owner code (registered), or None."""
    p = cx.p
    kind = KIND_CODE[n.kind]
    nc, name = cx.const(n.name, sc)
    if n.index is None:
        ic, idx = True, 0
    else:
        ic, idx = cx.const(n.index, sc)
        if nc:  # the game writes this family with an index: its member 0 is named with it (Registry.loc_text)
            p.indexed_names.add((kind, name))
    if nc and ic and idx >= 0:
        return [p.register_pile(o, kind, name, idx) for o in range(cx.n + 1)]
    return None


def location(cx: Compiler, n: A.Location, sc):
    """(static pile id or None, closure or None) for a location expression."""
    tbl = location_table(cx, n, sc)
    if tbl is not None:
        return _owner_table_fn(cx, n.owner, sc, tbl)
    p = cx.p
    kind = KIND_CODE[n.kind]
    of = owner_code(cx, n.owner, sc) if type(n.owner) is not A.GameOwner else None
    nf = cx.expr(n.name, sc)
    xf = cx.expr(n.index, sc) if n.index is not None else None
    span = n.span
    # a computed name written with an index is an indexed family too, known only when reached
    pile_id = p.indexed_pile_id if xf is not None and not cx.const(n.name, sc)[0] else p.pile_id

    def loc(st, env):
        o = 0 if of is None else of(st, env)
        nm = nf(st, env)
        i = 0 if xf is None else xf(st, env)
        if i < 0:
            raise _err("range", f"{show(n)}: negative location index {i}", span)
        return pile_id(st, o, kind, nm, i)
    return None, loc


def ext_owner(cx: Compiler, o, t: T, sc):
    """Closure giving the owner key of a location ("L", pid) or a card ("C", card) (extensions E2)."""
    span = o.span
    if t == T.PILE:
        pf = pile(cx, o, sc)

        def loc_owner(st, env):
            v = pf(st, env)
            if v.__class__ is not int:
                raise _err("pile-kind", f"storage of {show(o)}: a computed (virtual) pile owns no storage", span)
            return ("L", v)
        return loc_owner
    cf = card(cx, o, sc)

    def card_owner(st, env):
        c = cf(st, env)
        if c is None:
            raise _err("no-card", f"storage of {show(o)}: designates no card", span)
        return ("C", c)
    return card_owner


def ext_slot_of(cx: Compiler, n: A.Storage, name: str):
    """(sv, cache) for a pile's or a card's storage cell `name` (E2): `sv(st, owner)` gives its slot.

    `owner` is the owner's value (a pile value, or a card or None); a virtual pile or no card
    is the run-time error of the form.  The slot is registered the first time (`cache` maps an
    owner to its slot), and the state's values extended to hold it.
    """
    p = cx.p
    kind = n.kind
    o = n.owner
    span = o.span
    pile_owned = n.owner_type == T.PILE
    tag = "L" if pile_owned else "C"
    cache: dict[int, int] = {}
    default = p.slot_default

    def sv(st, v):
        if v.__class__ is not int:
            if pile_owned:
                raise _err("pile-kind", f"storage of {show(o)}: a computed (virtual) pile owns no storage", span)
            raise _err("no-card", f"storage of {show(o)}: designates no card", span)
        s = cache.get(v)
        if s is None:
            s = cache[v] = p.register_slot((tag, v), kind, name)
        vals = st.vals
        if s >= len(vals):
            vals.extend(default[len(vals):s + 1])
        return s
    return sv, cache


def slot_table(cx: Compiler, n: A.Storage, name: str) -> list[int]:
    """The slot of a storage cell with the constant name `name` per owner code (registered)."""
    return [cx.p.register_slot(o, n.kind, name) for o in range(1 + cx.n + cx.nt)]


def slot(cx: Compiler, n: A.Storage, sc):
    """(static slot or None, closure or None) for a storage cell."""
    p = cx.p
    kind = n.kind
    nc, name = cx.const(n.name, sc)
    if n.owner_type in (T.PILE, T.CARD):
        if not nc:
            of = ext_owner(cx, n.owner, n.owner_type, sc)
            nf = cx.expr(n.name, sc)
            return None, lambda st, env: p.slot_id(st, of(st, env), kind, nf(st, env))
        vf = pile(cx, n.owner, sc) if n.owner_type == T.PILE else card(cx, n.owner, sc)
        sv, _ = ext_slot_of(cx, n, name)
        return None, lambda st, env: sv(st, vf(st, env))
    if nc:
        tbl = slot_table(cx, n, name)
        o = n.owner
        if type(o) is A.GameOwner:
            return tbl[0], None
        if type(o) is A.WhoRef and o.what == "player" and o.which == "current":
            return None, lambda st, env: tbl[st.pcyc[-2] + 1]
        if type(o) is A.Var:
            b = sc[o.name]
            if not b[0]:
                s = b[1]
                off = 1 if o.type == T.PLAYER else 1 + cx.n
                return None, lambda st, env: tbl[env[s] + off]
        of = owner_code(cx, o, sc)
        return None, lambda st, env: tbl[of(st, env)]
    of = owner_code(cx, n.owner, sc)
    nf = cx.expr(n.name, sc)
    return None, lambda st, env: p.slot_id(st, of(st, env), kind, nf(st, env))


def pile(cx: Compiler, n, sc):
    """Closure giving a pile value: a pile id (stored pile) or a list of card ids (virtual pile)."""
    if type(n) is A.Location:
        s, f = location(cx, n, sc)
        if s is not None:
            return lambda st, env: s
        return f
    return cx.expr(n, sc)


def holds_pile(n) -> bool:
    """Can this Pile-typed expression's value be a stored pile (a pile id) rather than a list of cards?"""
    t = type(n)
    if t is A.Location or t is A.PileAt or t is A.CellAt:
        return True
    return (t is A.Var or t is A.CallExpr or t is A.IfExpr) and n.type == T.PILE


def cards(cx: Compiler, n, sc):
    """Closure giving the card list of a pile expression (read-only; may be the live list)."""
    t = type(n)
    if t is A.Location:
        s, f = location(cx, n, sc)
        if s is not None:
            return lambda st, env: st.piles[s]
        return lambda st, env: st.piles[f(st, env)]
    if t is A.Var or t is A.PileAt or t is A.CellAt or holds_pile(n):
        f = cx.expr(n, sc)

        def cards(st, env):
            v = f(st, env)
            return st.piles[v] if v.__class__ is int else v
        return cards
    return cx.expr(n, sc)  # a freshly computed virtual pile


def iter(cx: Compiler, n, sc):
    """Closure giving the elements of a collection, safe to iterate while the loop body changes the state."""
    if holds_pile(n):
        f = cards(cx, n, sc)
        return lambda st, env: list(f(st, env))
    return coll(cx, n, sc)


def coll(cx: Compiler, n, sc):
    """Closure giving the elements of any collection (cards of a pile, piles, players, …), read-only."""
    if holds_pile(n):
        return cards(cx, n, sc)
    return cx.expr(n, sc)


def card(cx: Compiler, n, sc):
    """Closure giving a card id or None."""
    return cx.expr(n, sc)


def card_source(cx: Compiler, n, sc):
    """Closure giving (card or None, pile value or None, index) for move/swap sources."""
    if type(n) is A.Actual:
        n = n.card
    if type(n) is A.CardAt:
        pvf = pile(cx, n.pile, sc)
        pos = n.pos
        xf = cx.expr(n.index, sc) if pos == "index" else None

        def src(st, env):
            pv = pvf(st, env)
            cards = st.piles[pv] if pv.__class__ is int else pv
            L = len(cards)
            if pos == "top":
                i = L - 1
            elif xf is None:  # pos == "bottom"
                i = 0
            else:
                i = xf(st, env)
            if 0 <= i < L:
                return cards[i], pv, i
            return None, pv, -1
        return src
    cf = card(cx, n, sc)
    return lambda st, env: (cf(st, env), None, -1)


def dest(cx: Compiler, n, sc):
    """Closure giving (pile value, index) of a destination; index -1 means top."""
    if type(n) is A.Actual:
        n = n.card
    if type(n) is not A.CardAt:
        raise InternalError(f"destination is not positional at {n.span}")
    pvf = pile(cx, n.pile, sc)
    if n.pos == "top":
        return lambda st, env: (pvf(st, env), -1)
    if n.pos == "bottom":
        return lambda st, env: (pvf(st, env), 0)
    xf = cx.expr(n.index, sc)
    span = n.span

    def dest(st, env):
        pv = pvf(st, env)
        i = xf(st, env)
        if i < 0:
            raise _err("range", f"destination index {i} is negative", span)
        return pv, i
    return dest


def scores(cx: Compiler, pm_node, sc):
    """Closure giving the per-kind score list of a point-map reference."""
    kinds = cx.p.kinds
    ss, sf = slot(cx, pm_node, sc)
    if ss is not None:
        def sk(st, env):
            pm = st.vals[ss]
            s = pm.sk
            return s if len(s) == len(kinds) else pm.extend(kinds)
    else:
        def sk(st, env):
            pm = st.vals[sf(st, env)]
            s = pm.sk
            return s if len(s) == len(kinds) else pm.extend(kinds)
    return sk


def card_scores(cx: Compiler, pile_node, pm_node, sc):
    """Closure giving a pile's cards and, in the same order, each card's score under a point map
    (`sum`, `sort` and `scoremax`/`scoremin` of a pile `using` points)."""
    cf = cards(cx, pile_node, sc)
    skf = scores(cx, pm_node, sc)

    def card_scores(st, env):
        cs = cf(st, env)
        sk = skf(st, env)
        ck = st.ckind
        return cs, [sk[ck[c]] for c in cs]
    return card_scores


def ply_raw(cx: Compiler, n, sc):
    """A Player expression that may be `no player` (None): an unset ply cell read for ==, != or set (E2)."""
    if type(n) is A.Storage and n.kind == "ply":
        ss, sf = slot(cx, n, sc)
        if ss is not None:
            return lambda st, env: st.vals[ss]
        return lambda st, env: st.vals[sf(st, env)]
    return cx.expr(n, sc)
