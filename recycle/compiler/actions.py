"""Actions: the clauses that change the state (move, remember, set, create deck, …)."""
from __future__ import annotations

from ..engine.ops import (
    p_forget,
    p_move,
    p_pass,
    p_pcyc,
    p_rekind,
    p_remember,
    p_set,
    p_shuffle,
    p_swap_cards,
    p_swap_piles,
)
from ..engine.state import MEM, MV, SET, VDEL
from ..errors import GameRuntimeError, InternalError
from ..lang import ast as A
from ..lang import values
from ..lang.ast import T
from ..lang.decks import MAX_CARDS, expand_deck, too_many_cards
from ..lang.printer import brief as show
from . import codegen
from . import references as refs
from .boards import board_text
from .context import Compiler, Form, repeat_count
from .options import _Reject

_err = GameRuntimeError



# The end of both generated moves to a top: card c, taken from pile a at index i, put on top of
# pile b, its place and the change logged (for options being built) and recorded.
_PUT_ON_TOP = ("    d = piles[b]\n"
               "    d.append(c)\n"
               "    st.where[c] = b\n"
               "    if st.log is not None:\n"
               "        st.log.append((MV, c, a, i, b, len(d) - 1))\n"
               "    if st.rec is not None:\n"
               "        st.rec.move(st, c, a, b)\n")

def a_move(cx: Compiler, n: A.Move, sc):
    p = cx.p
    kind = p.pile_kind
    span = n.span
    what = f"(move {show(n.card)} …)"
    src_node = n.card.card if type(n.card) is A.Actual else n.card
    dst_node = n.dest.card if type(n.dest) is A.Actual else n.dest
    dstf = refs.dest(cx, n.dest, sc)
    cap = p.pile_cap if cx.has_capacity else None
    # fast path: (move (top <location>) (top <location>))
    if (cap is None and type(src_node) is A.CardAt and src_node.pos == "top" and type(src_node.pile) is A.Location
            and src_node.pile.kind != A.Visibility.MEMORY and type(dst_node) is A.CardAt
            and dst_node.pos == "top" and type(dst_node.pile) is A.Location
            and dst_node.pile.kind != A.Visibility.MEMORY):
        ns = {"MV": MV, "_err": _err, "_span": span, "_empty": f"{what}: {show(src_node.pile)} is empty"}
        # written for this form (issue 16): the piles' ids as constants or a player's pile in a table
        return _generated("move_top", f"    a = {_pid_src(cx, src_node.pile, sc, ns, '_a')}\n"
                                      "    piles = st.piles\n"
                                      "    pa = piles[a]\n"
                                      "    if not pa:\n"
                                      "        raise _err('no-card', _empty, _span)\n"
                                      f"    b = {_pid_src(cx, dst_node.pile, sc, ns, '_b')}\n"
                                      "    c = pa.pop()\n"
                                      # before the append: a and b may be the same pile (the card stays on top)
                                      "    i = len(pa)\n"
                                      + _PUT_ON_TOP, ns)

    # fast path: (move 'C (top <location>)), the move of an option built for every card of a hand;
    # the same steps as `move` below for a card in a variable and a stored destination's top
    b_var = sc.get(src_node.name) if type(src_node) is A.Var else None
    if (cap is None and b_var is not None and not b_var[0] and type(dst_node) is A.CardAt and dst_node.pos == "top"
            and type(dst_node.pile) is A.Location and dst_node.pile.kind != A.Visibility.MEMORY):
        ns = {"MV": MV, "_err": _err, "_span": span, "_none": f"{what}: {show(src_node)} designates no card"}
        return _generated("move_var_top", f"    c = env[{b_var[1]}]\n"
                                          "    if c is None:\n"
                                          "        raise _err('no-card', _none, _span)\n"
                                          "    piles = st.piles\n"
                                          "    a = st.where[c]\n"
                                          "    pa = piles[a]\n"
                                          "    i = pa.index(c)\n"
                                          f"    b = {_pid_src(cx, dst_node.pile, sc, ns, '_b')}\n"
                                          "    del pa[i]\n"
                                          + _PUT_ON_TOP, ns)

    srcf = refs.card_source(cx, n.card, sc)

    def move(st, env):
        c, pv, i = srcf(st, env)
        if c is None:
            raise _err("no-card", f"{what}: {show(src_node)} designates no card", span)
        if pv is None:
            a = st.where[c]
            i = st.piles[a].index(c)
        elif pv.__class__ is int:
            if kind[pv] == MEM:
                raise _err("pile-kind", f"{what}: cannot move out of a memory pile; use forget", span)
            a = pv
        else:
            a = -1
        b, j = dstf(st, env)
        if b.__class__ is not int:
            raise _err("pile-kind", f"{what}: cannot move into a virtual pile", span)
        if kind[b] == MEM:
            raise _err("pile-kind", f"{what}: cannot move into a memory pile; use remember", span)
        if a == -1:
            del pv[i]
            if st.log is not None:
                st.log.append((VDEL, pv, i, c))
            a = st.where[c]
            i = st.piles[a].index(c)
        if j > 0:
            size = len(st.piles[b]) - (1 if a == b else 0)
            if j > size:
                raise _err("range", f"{what}: destination index {j} is outside 0..{size}", span)
        if cap is not None:
            k = cap[b]
            if k and a != b and len(st.piles[b]) >= k:
                overfill(cx, st, b, k, what, span)
        p_move(st, c, a, i, b, j)
    return move


def overfill(cx: Compiler, st, pid: int, k: int, what: str, span) -> None:
    """A move would put more than k cards on a cell: the path is dropped (options) or it is an error (E1)."""
    e = _err("capacity", f"{what}: the cell ({cx.p.loc_text(pid)}) holds at most {k} card{'s' if k != 1 else ''}", span)
    if st.log is not None:
        raise _Reject(e)
    raise e


def a_remember(cx: Compiler, n: A.Remember, sc):
    p = cx.p
    kind = p.pile_kind
    span = n.span
    what = f"(remember {show(n.card)} …)"
    cf = refs.card(cx, n.card, sc)
    dstf = refs.dest(cx, n.dest, sc)

    def remember(st, env):
        c = cf(st, env)
        if c is None:
            raise _err("no-card", f"{what}: {show(n.card)} designates no card", span)
        m, j = dstf(st, env)
        if m.__class__ is not int or kind[m] != MEM:
            raise _err("pile-kind", f"{what}: remember needs a memory pile (mem) as destination", span)
        if j > len(st.piles[m]):
            raise _err("range", f"{what}: destination index {j} is outside 0..{len(st.piles[m])}", span)
        p_remember(st, c, m, j)
    return remember


def a_forget(cx: Compiler, n: A.Forget, sc):
    p = cx.p
    kind = p.pile_kind
    span = n.span
    ref = n.card.card if type(n.card) is A.Actual else n.card
    if type(ref) is not A.CardAt:
        raise InternalError(f"forget of a non-positional reference at {span}")
    what = f"(forget {show(ref)})"
    pvf = refs.pile(cx, ref.pile, sc)
    pos = ref.pos
    xf = cx.expr(ref.index, sc) if pos == "index" else None

    def forget(st, env):
        m = pvf(st, env)
        if m.__class__ is not int or kind[m] != MEM:
            raise _err("pile-kind", f"{what}: forget works on memory piles (mem) only", span)
        L = len(st.piles[m])
        # xf is None for top and bottom
        i = L - 1 if pos == "top" else 0 if xf is None else xf(st, env)
        if not (0 <= i < L):
            raise _err("no-card", f"{what}: designates no entry "
                       f"({'the pile is empty' if not L else f'index {i} of {L}'})", span)
        p_forget(st, m, i)
    return forget


def a_swap(cx: Compiler, n: A.Swap, sc):
    p = cx.p
    kind = p.pile_kind
    span = n.span
    what = f"(swap {show(n.a)} {show(n.b)})"
    if n.type == T.PILE:
        af = refs.pile(cx, n.a, sc)
        bf = refs.pile(cx, n.b, sc)

        cap = p.pile_cap if cx.has_capacity else None

        def swap_piles(st, env):
            a = af(st, env)
            b = bf(st, env)
            for x in (a, b):
                if x.__class__ is not int:
                    raise _err("pile-kind", f"{what}: cannot swap a virtual pile", span)
                if kind[x] == MEM:
                    raise _err("pile-kind", f"{what}: cannot swap a memory pile", span)
            if cap is not None:
                for x, y in ((a, b), (b, a)):
                    if cap[x] and len(st.piles[y]) > cap[x]:
                        overfill(cx, st, x, cap[x], what, span)
            p_swap_piles(st, a, b)
        return swap_piles
    sa = refs.card_source(cx, n.a, sc)
    sb = refs.card_source(cx, n.b, sc)

    def locate(st, r, node):
        c, pv, i = r
        if c is None:
            raise _err("no-card", f"{what}: {show(node)} designates no card", span)
        if pv.__class__ is int:
            if kind[pv] == MEM:
                raise _err("pile-kind", f"{what}: cannot swap a card by its position in a memory pile", span)
            return c, pv, i
        a = st.where[c]
        return c, a, st.piles[a].index(c)

    def swap_cards(st, env):
        ra = sa(st, env)
        rb = sb(st, env)
        ca, pa, ia = locate(st, ra, n.a)
        cb, pb, ib = locate(st, rb, n.b)
        p_swap_cards(st, ca, pa, ia, cb, pb, ib)
    return swap_cards


def a_shuffle(cx: Compiler, n: A.Shuffle, sc):
    span = n.span
    pf = refs.pile(cx, n.pile, sc)

    def shuffle(st, env):
        pid = pf(st, env)
        if pid.__class__ is not int:
            raise _err("pile-kind", f"(shuffle {show(n.pile)}): cannot shuffle a virtual pile", span)
        p_shuffle(st, pid)
    return shuffle


def a_set(cx: Compiler, n: A.SetValue, sc):
    ss, sf = refs.slot(cx, n.target, sc)
    vc, vv = cx.const(n.value, sc) if n.target.kind != "ply" else (False, None)
    vf = refs.ply_raw(cx, n.value, sc) if n.target.kind == "ply" else None if vc else cx.expr(n.value, sc)
    if n.target.kind == "str" and n.target.owner_type == T.CARD:
        return card_str_setter(cx, n.target, sc, vf if not vc else (lambda st, env: vv))
    ns = {"SET": SET, "GameRuntimeError": GameRuntimeError, "too_big": values.too_big, "_span": n.span,
          "_B": values.INT_BOUND, "_vf": vf, "_v": vv}
    # an integer: sums grow a digit at a time, stored values keep them bounded
    check = ("    if not -_B < v < _B:\n"
             "        raise GameRuntimeError('limit', str(too_big('the value stored')), _span)\n"
             if n.target.kind == "sto" else "")
    # p_set inlined (the most frequent action while options are built), the slot read before the value;
    # written for this form: a constant value and a player's cell need no closure call (issue 16)
    return _generated("set_", f"    slot = {_slot_src(cx, n.target, sc, ss, sf, ns)}\n"
                              f"    v = {'_v' if vc else '_vf(st, env)'}\n"
                              f"{check}"
                              f"    vals = st.vals\n"
                              f"    log = st.log\n"
                              f"    if log is not None:\n"
                              f"        log.append((SET, slot, vals[slot], v))\n"
                              f"    vals[slot] = v\n"
                              f"    if st.rec is not None:\n"
                              f"        st.rec.set(st, slot, v)\n", ns)


def _slot_src(cx: Compiler, target: A.Storage, sc, ss, sf, ns: dict, k: str = "") -> str:
    """The source of a storage cell's slot in a generated action: a constant, a player's slot indexed
    in a table (the current player, a player variable), or else a call of refs.slot's closure.
    `k` ends the names it adds to ns (several actions' lines in one function: deferred.checks)."""
    if ss is not None:
        return str(ss)
    nc, name = cx.const(target.name, sc)
    if nc and target.owner_type not in (T.PILE, T.CARD):
        o = target.owner
        if type(o) is A.WhoRef and o.what == "player":
            ns[f"_tbl{k}"] = tuple(refs.slot_table(cx, target, name)[1:])
            if o.which == "current":
                return f"_tbl{k}[st.pcyc[-2]]"
            if o.which == "previous":  # as expressions.e_whoref
                return f"_tbl{k}[(st.pcyc[-2] - 1) % {cx.n}]"
            return f"_tbl{k}[_q{k} if (_q{k} := st.pcyc[-1]) >= 0 else (st.pcyc[-2] + 1) % {cx.n}]"
        if type(o) is A.Var and o.type == T.PLAYER and not sc[o.name][0]:
            ns[f"_tbl{k}"] = tuple(refs.slot_table(cx, target, name)[1:])
            return f"_tbl{k}[env[{sc[o.name][1]}]]"
    ns[f"_sf{k}"] = sf
    return f"_sf{k}(st, env)"


def _pid_src(cx: Compiler, loc: A.Location, sc, ns: dict, name: str) -> str:
    """The source of a stored location's pile id in a generated action (as _slot_src for a cell)."""
    tbl = refs.location_table(cx, loc, sc)
    if tbl is not None:
        o = loc.owner
        if type(o) is A.GameOwner:
            return str(tbl[0])
        if type(o) is A.WhoRef and o.what == "player" and o.which == "current":
            ns[name] = tuple(tbl[1:])
            return f"{name}[st.pcyc[-2]]"
        if type(o) is A.Var and o.type == T.PLAYER and not sc[o.name][0]:
            ns[name] = tuple(tbl[1:])
            return f"{name}[env[{sc[o.name][1]}]]"
    ns[name] = refs.pile(cx, loc, sc)
    return f"{name}(st, env)"


def _generated(name: str, body: str, ns: dict):
    """A function `name(st, env)` with this body, compiled in the namespace ns."""
    codegen.define(f"def {name}(st, env):\n{body}", f"<{name}>", ns)
    return ns[name]


def a_set_points(cx: Compiler, n: A.SetPoints, sc):
    ss, sf = refs.slot(cx, n.target, sc)
    p = cx.p
    parts = []
    for aw in n.awards:
        conds = []
        for cd in aw.conditions:
            kc, kv = cx.const(cd.key, sc)
            vc, vv = cx.const(cd.value, sc)
            conds.append((kv if kc else cx.expr(cd.key, sc), kc, vv if vc else cx.expr(cd.value, sc), vc))
        pc, pv = cx.const(aw.points, sc)
        parts.append((conds, pv if pc else cx.expr(aw.points, sc), pc))
    build = _point_map_by_inputs(p, parts)

    def set_points(st, env):
        slot = ss if ss is not None else sf(st, env)
        p_set(st, slot, build(st, env))
    return set_points


def _point_map_by_inputs(p, parts):
    """The builder of a point map form: its map cached by the values of its computed keys, values or points.

    A trick's precedence map (`((SUIT : (game str LEAD)) 100) ((RANK : A) 14) …`) is set again every
    trick with one computed value among a dozen constants: the map is looked up by the tuple of the
    computed values, evaluated in the order the awards list them, and the awards tuple built (and
    hashed) only the first time those values are seen.
    """
    exprs: list = []  # the computed parts, in evaluation order (none: a constant map, its key ())
    shape = []  # per award: (conds as (key, key index or -1, value, value index or -1), points, points index or -1)
    for conds, pts, pc in parts:
        cs = []
        for k, kc, v, vc in conds:
            ki = -1 if kc else len(exprs)
            if not kc:
                exprs.append(k)
            vi = -1 if vc else len(exprs)
            if not vc:
                exprs.append(v)
            cs.append((k, ki, v, vi))
        pi = -1 if pc else len(exprs)
        if not pc:
            exprs.append(pts)
        shape.append((cs, pts, pi))
    cache: dict = {}

    def make(key: tuple, x):
        """The map of computed values `key`, remembered under x while the program's own cache keeps it.

        (The program's cache keeps the first map of equal awards: remembering only what it keeps
        gives the same map it would, whatever the lookups before.)"""
        awards = tuple(
            (tuple((k if ki < 0 else key[ki], v if vi < 0 else key[vi]) for k, ki, v, vi in cs),
             pts if pi < 0 else key[pi])
            for cs, pts, pi in shape)
        pm = p.point_map(awards)
        if len(cache) < PM_INPUTS_LIMIT and p.pm_cache.get(awards) is pm:
            cache[x] = pm
        return pm

    if len(exprs) == 1:  # the usual case, one computed value: the value itself is the key
        (f,) = exprs

        def build1(st, env):
            x = f(st, env)
            pm = cache.get(x)
            return pm if pm is not None else make((x,), x)
        return build1

    def build(st, env):
        key = tuple([f(st, env) for f in exprs])
        pm = cache.get(key)
        return pm if pm is not None else make(key, key)
    return build


# The computed inputs of one point-map form remembered with their map (beyond, the map is built each time).
PM_INPUTS_LIMIT = 5000


def a_incdec(cx: Compiler, n: A.IncDec, sc):
    ns = {"SET": SET, "GameRuntimeError": GameRuntimeError, "too_big": values.too_big, "_span": n.span,
          "_op": n.op}
    # as a_set: written for this form, p_set inlined; sums grow a digit at a time, stored values keep
    # them bounded
    return _generated("incdec", incdec_sum(cx, n, sc, ns) +
                      "    if not -_B < v < _B:\n"
                      "        raise GameRuntimeError('limit', str(too_big(f'({_op} … {a})')), _span)\n"
                      "    log = st.log\n"
                      "    if log is not None:\n"
                      "        log.append((SET, slot, old, v))\n"
                      "    vals[slot] = v\n"
                      "    if st.rec is not None:\n"
                      "        st.rec.set(st, slot, v)\n", ns)


def incdec_sum(cx: Compiler, n: A.IncDec, sc, ns: dict, k: str = "") -> str:
    """The lines of `(inc|dec <cell> <amount>)` before its bound test, in a generated function of (st, env):
    they set `slot`, `a`, `vals`, `old` and the sum `v`, each name ended by k, and add what they read to ns
    (`_B` the bound).  The action (a_incdec) goes on to test and store v; a deferred option's check
    (compiler.deferred) only tests it."""
    ss, sf = refs.slot(cx, n.target, sc)
    sign = 1 if n.op == "inc" else -1
    if n.amount is None:
        af = None
        amt = sign
    else:
        c, v = cx.const(n.amount, sc)
        af = None if c else cx.expr(n.amount, sc)
        amt = sign * v if c else 0
    ns.update({"_B": values.INT_BOUND, f"_af{k}": af})
    if af is None:
        a = str(amt)
    elif type(n.amount) is A.Storage and (s_amt := refs.slot(cx, n.amount, sc)[0]) is not None:
        a = f"{'-' if sign < 0 else ''}st.vals[{s_amt}]"  # a game's integer cell: read here, no call
    else:
        a = f"{sign} * _af{k}(st, env)"
    return (f"    slot{k} = {_slot_src(cx, n.target, sc, ss, sf, ns, k)}\n"
            f"    a{k} = {a}\n"
            f"    vals{k} = st.vals\n"
            f"    old{k} = vals{k}[slot{k}]\n"
            f"    v{k} = old{k} + a{k}\n")


def a_clear(cx: Compiler, n: A.Clear, sc):
    t = n.target
    default = {"sto": 0, "str": "", "ply": None, "points": cx.p.empty_pm}[t.kind]
    if t.kind == "str" and t.owner_type == T.CARD:
        return card_str_setter(cx, t, sc, lambda st, env: "")
    ss, sf = refs.slot(cx, t, sc)
    if ss is not None:
        return lambda st, env: p_set(st, ss, default)
    return lambda st, env: p_set(st, sf(st, env), default)


def card_str_setter(cx: Compiler, target: A.Storage, sc, vf):
    """`(set ('C str K) V)` on a card: the cell, and the override of attribute K when the card has one (E2)."""
    p = cx.p
    cf = refs.card(cx, target.owner, sc)
    nc, name = cx.const(target.name, sc)
    nf = None if nc else cx.expr(target.name, sc)
    span = target.span
    kinds = p.kinds
    slot_ids = p.slot_ids

    def set_card_str(st, env):
        c = cf(st, env)
        if c is None:
            raise _err("no-card", f"{show(target)}: {show(target.owner)} designates no card", span)
        key = name if nf is None else nf(st, env)
        p_set(st, p.slot_id(st, ("C", c), "str", key), vf(st, env))
        printed = kinds[st.cmeta.base[c]]
        if key not in printed:
            return
        att = dict(printed)
        vals = st.vals
        for a in printed:
            sl = slot_ids.get((("C", c), "str", a))
            if sl is not None and sl < len(vals) and vals[sl] != "":
                att[a] = vals[sl]
        p_rekind(st, c, p.kind_id(att), kinds)
    return set_card_str


def a_create_board(cx: Compiler, n: A.CreateBoard, sc):
    fams = cx.boards[id(n)]
    loc = n.location
    of = (lambda st, env: 0) if type(loc.owner) is A.GameOwner else refs.owner_code(cx, loc.owner, sc)
    span = n.span

    def create_board(st, env):
        fam = fams[of(st, env)]
        if fam.fid in st.boards:
            raise _err("board", f"the board ({board_text(cx, fam)}) is already built: a board is built once", span)
        st.boards = (*st.boards, fam.fid)
    return create_board


def a_cycle(cx: Compiler, n: A.Cycle, sc):
    tf = cx.expr(n.target, sc)
    off = 2 if n.mode == "current" else 1

    def cycle(st, env):
        v = tf(st, env)
        p_pcyc(st, len(st.pcyc) - off, v)
    return cycle


def a_pass(cx: Compiler, n, sc):
    return lambda st, env: p_pass(st)


def a_create_deck(cx: Compiler, n: A.CreateDeck, sc):
    p = cx.p
    protos = expand_deck(n.attributes)
    kinds = [p.kind_id(a) for a in protos]
    atts = [p.kinds[k] for k in kinds]
    if n.deck_name is None:
        namef = None
        name = "DEFAULT"
    else:
        c, v = cx.const(n.deck_name, sc)
        namef = None if c else cx.expr(n.deck_name, sc)
        name = v
    pf = refs.pile(cx, n.location, sc)
    span = n.span

    def create(st, env):
        deck = name if namef is None else namef(st, env)
        pid = pf(st, env)
        if len(st.catt) + len(kinds) > MAX_CARDS:
            raise _err("limit", too_many_cards(len(st.catt) + len(kinds), "the game would hold"), span)
        if p.pile_kind[pid] == MEM:
            raise _err("pile-kind", "a deck cannot be created in a memory pile", span)
        meta = st.cmeta.copy()
        catt = list(st.catt)
        ckind = list(st.ckind)
        serial = meta.next_serial.get(deck, 0)
        pile = st.piles[pid]
        where = st.where
        new = []
        for k, att in zip(kinds, atts, strict=True):
            c = len(catt)
            catt.append(att)
            ckind.append(k)
            meta.base.append(k)
            meta.deck.append(deck)
            meta.serial.append(serial)
            serial += 1
            pile.append(c)
            where.append(pid)
            new.append(c)
        meta.next_serial[deck] = serial
        st.catt, st.ckind, st.cmeta = catt, ckind, meta
        cap = p.pile_cap[pid]
        if cap and len(pile) > cap:
            raise _err("capacity", f"create deck: the cell ({p.loc_text(pid)}) holds at most {cap} "
                       f"card{'s' if cap != 1 else ''}", span)
        if st.rec is not None:
            st.rec.create(st, deck, pid, new)
    return create


def deck_clause(cx: Compiler, d, sc):
    if type(d) is A.CreateBoard:
        return a_create_board(cx, d, sc)
    if type(d) is A.Repeat:
        cf = repeat_count(cx, d, sc)
        body = deck_clause(cx, d.body, sc)

        def rep(st, env):
            for _ in range(cf(st, env)):
                body(st, env)
        return rep
    return a_create_deck(cx, d, sc)


FORMS: dict[type, Form] = {
    A.Move: a_move, A.Remember: a_remember, A.Forget: a_forget, A.Swap: a_swap, A.Shuffle: a_shuffle,
    A.SetValue: a_set, A.SetPoints: a_set_points, A.IncDec: a_incdec, A.Cycle: a_cycle,
    A.TurnPass: a_pass, A.CreateDeck: a_create_deck, A.CreateBoard: a_create_board, A.Clear: a_clear,
}
