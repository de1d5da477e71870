"""The state changes of the engine: logged primitives, and the undo and redo of their log entries.

Every state change goes through these functions: they log the inverse while options are being
built (`st.log` is a list) and report events to the recorder of the real game (`st.rec`).  Hot
paths in the compiler inline some of them.  The op codes are defined in state.py.
"""
from __future__ import annotations

from .state import ADV, CPO, CPU, FGT, MV, OVR, PASS, PCY, REM, SET, SHF, SWC, SWP, VDEL, State
from .streams import shuffle


def p_move(st: State, c: int, a: int, i: int, b: int, j: int) -> None:
    """Move card c from pile a (index i) to pile b at index j (j < 0: top)."""
    piles = st.piles
    del piles[a][i]
    d = piles[b]
    if j < 0:
        j = len(d)
        d.append(c)
    else:
        d.insert(j, c)
    st.where[c] = b
    if st.log is not None:
        st.log.append((MV, c, a, i, b, j))
    if st.rec is not None:
        st.rec.move(st, c, a, b)


def p_set(st: State, slot: int, v) -> None:
    vals = st.vals
    if st.log is not None:
        st.log.append((SET, slot, vals[slot], v))
    vals[slot] = v
    if st.rec is not None:
        st.rec.set(st, slot, v)


def p_pcyc(st: State, idx: int, v: int) -> None:
    """Set entry idx of the player-cycle stack (len-2: current, len-1: queued)."""
    pc = st.pcyc
    old = pc[idx]
    if st.log is not None:
        st.log.append((PCY, idx, old, v))
    pc[idx] = v
    if st.rec is not None and idx == len(pc) - 2 and old != v:
        st.rec.turn(v)


def p_pass(st: State) -> None:
    if st.log is not None:
        st.log.append((PASS,))


def p_remember(st: State, c: int, m: int, j: int) -> None:
    d = st.piles[m]
    if j < 0:
        j = len(d)
        d.append(c)
    else:
        d.insert(j, c)
    if st.log is not None:
        st.log.append((REM, c, m, j))
    if st.rec is not None:
        st.rec.remember(st, c, m)


def p_forget(st: State, m: int, i: int) -> None:
    c = st.piles[m].pop(i)
    if st.log is not None:
        st.log.append((FGT, c, m, i))
    if st.rec is not None:
        st.rec.forget(st, c, m)


def p_swap_piles(st: State, a: int, b: int) -> None:
    if st.log is not None:
        st.log.append((SWP, a, b))
    if a != b:
        pa, pb = _exchange(st, a, b)
        if st.rec is not None:
            st.rec.swap(st, a, b, pa, pb)


def p_swap_cards(st: State, ca: int, pa: int, ia: int, cb: int, pb: int, ib: int) -> None:
    piles = st.piles
    piles[pa][ia] = cb
    piles[pb][ib] = ca
    st.where[ca] = pb
    st.where[cb] = pa
    if st.log is not None:
        st.log.append((SWC, ca, pa, ia, cb, pb, ib))
    if st.rec is not None and ca != cb:
        st.rec.swap(st, pa, pb, [ca], [cb])


def p_rekind(st: State, c: int, k: int, kinds: list) -> None:
    """Give card c the kind k (its attributes with overrides applied, E2); copy on write, logged."""
    old = st.ckind[c]
    if old == k:
        return
    if st.log is not None:
        st.log.append((OVR, c, old, k, st.catt[c], kinds[k]))
    _set_kind(st, c, k, kinds[k])


def _set_kind(st: State, c: int, k: int, att: dict) -> None:
    ck = list(st.ckind)
    ck[c] = k
    ca = list(st.catt)
    ca[c] = att
    st.ckind, st.catt = ck, ca


def p_push_cycle(st: State, which: int, values: tuple) -> None:
    """Push a player cycle (which 0: values (current, -1)) or a team cycle (which 1: (current,)); logged."""
    (st.pcyc if which == 0 else st.tcyc).extend(values)
    if st.log is not None:
        st.log.append((CPU, which, values))


def p_pop_cycle(st: State, which: int) -> None:
    c = st.pcyc if which == 0 else st.tcyc
    n = 2 if which == 0 else 1
    values = tuple(c[-n:])
    del c[-n:]
    if st.log is not None:
        st.log.append((CPO, which, values))
    if which == 0 and st.rec is not None and c[-2] != values[0]:
        st.rec.turn(c[-2])


def p_advance(st: State, which: int, n: int) -> None:
    """A stage's advance of the innermost cycle (n members), logged: the queued player if any, else the next."""
    old: tuple[int, ...]
    new: tuple[int, ...]
    if which == 0:
        c = st.pcyc
        old = (c[-2], c[-1])
        new = (old[1] if old[1] >= 0 else (old[0] + 1) % n, -1)
        c[-2], c[-1] = new
    else:
        c = st.tcyc
        old = (c[-1],)
        new = ((old[0] + 1) % n,)
        c[-1] = new[0]
    if st.log is not None:
        st.log.append((ADV, which, old, new))
    if which == 0 and st.rec is not None and new[0] != old[0]:
        st.rec.turn(new[0])


def p_shuffle(st: State, pid: int) -> None:
    p = st.piles[pid]
    old = tuple(p) if st.log is not None else None
    rng = st.rng
    assert rng is not None  # only the template state, which setup builds without shuffling, has no rng
    shuffle(rng, p)
    if st.log is not None:
        st.log.append((SHF, pid, old, tuple(p)))
    if st.rec is not None:
        st.rec.shuffle(st, pid)


# ---------------------------------------------------------------- undo / redo of logged ops


def _u_mv(st, op):
    _, c, a, i, b, j = op
    del st.piles[b][j]
    st.piles[a].insert(i, c)
    st.where[c] = a


def _u_rem(st, op):
    del st.piles[op[2]][op[3]]


def _u_fgt(st, op):
    st.piles[op[2]].insert(op[3], op[1])


def _exchange(st, a, b):
    """Exchange the contents of piles a and b (a swap is its own inverse); returns the old lists."""
    piles = st.piles
    pa, pb = piles[a], piles[b]
    piles[a], piles[b] = pb, pa
    where = st.where
    for c in pa:
        where[c] = b
    for c in pb:
        where[c] = a
    return pa, pb


def _u_swp(st, op):
    _, a, b = op
    if a != b:
        _exchange(st, a, b)


def _u_swc(st, op):
    _, ca, pa, ia, cb, pb, ib = op
    st.piles[pa][ia] = ca
    st.piles[pb][ib] = cb
    st.where[ca] = pa
    st.where[cb] = pb


def _u_shf(st, op):
    st.piles[op[1]][:] = op[2]


def _u_set(st, op):
    st.vals[op[1]] = op[2]


def _u_pcy(st, op):
    st.pcyc[op[1]] = op[2]


def _u_pass(st, op):
    pass


def _u_vdel(st, op):
    op[1].insert(op[2], op[3])


def _u_ovr(st, op):
    _set_kind(st, op[1], op[2], op[4])


def _u_cpu(st, op):
    c = st.pcyc if op[1] == 0 else st.tcyc
    del c[-len(op[2]):]


def _u_cpo(st, op):
    (st.pcyc if op[1] == 0 else st.tcyc).extend(op[2])


def _u_adv(st, op):
    v = op[2]
    c = st.pcyc if op[1] == 0 else st.tcyc
    c[len(c) - len(v):] = v


UNDO = (_u_mv, _u_rem, _u_fgt, _u_swp, _u_swc, _u_shf, _u_set, _u_pcy, _u_pass, _u_vdel,
        _u_ovr, _u_cpu, _u_cpo, _u_adv, _u_pass)


def undo_to(st: State, mark: int) -> None:
    """Undo logged ops until the log has `mark` entries."""
    # Called only while options are built, when st.log is a list: no check on this hot path.
    log: list[tuple] = st.log  # type: ignore[assignment]
    undo = UNDO
    while len(log) > mark:
        op = log.pop()
        undo[op[0]](st, op)


def _r_mv(st, op):
    _, c, a, i, b, j = op
    piles = st.piles
    del piles[a][i]
    piles[b].insert(j, c)
    st.where[c] = b
    if st.rec is not None:
        st.rec.move(st, c, a, b)


def _r_rem(st, op):
    st.piles[op[2]].insert(op[3], op[1])
    if st.rec is not None:
        st.rec.remember(st, op[1], op[2])


def _r_fgt(st, op):
    del st.piles[op[2]][op[3]]
    if st.rec is not None:
        st.rec.forget(st, op[1], op[2])


def _r_swp(st, op):
    _, a, b = op
    if a != b:
        pa, pb = _exchange(st, a, b)
        if st.rec is not None:
            st.rec.swap(st, a, b, pa, pb)


def _r_swc(st, op):
    _, ca, pa, ia, cb, pb, ib = op
    st.piles[pa][ia] = cb
    st.piles[pb][ib] = ca
    st.where[ca] = pb
    st.where[cb] = pa
    if st.rec is not None and ca != cb:
        st.rec.swap(st, pa, pb, [ca], [cb])


def _r_shf(st, op):
    st.piles[op[1]][:] = op[3]
    if st.rec is not None:
        st.rec.shuffle(st, op[1])


def _r_set(st, op):
    st.vals[op[1]] = op[3]
    if st.rec is not None:
        st.rec.set(st, op[1], op[3])


def _r_pcy(st, op):
    _, idx, old, new = op
    st.pcyc[idx] = new
    if st.rec is not None and idx == len(st.pcyc) - 2 and old != new:
        st.rec.turn(new)


def _r_ovr(st, op):
    _set_kind(st, op[1], op[3], op[5])


def _r_cpo(st, op):
    c = st.pcyc if op[1] == 0 else st.tcyc
    del c[-len(op[2]):]
    if op[1] == 0 and st.rec is not None and c[-2] != op[2][0]:
        st.rec.turn(c[-2])


def _r_adv(st, op):
    v = op[3]
    c = st.pcyc if op[1] == 0 else st.tcyc
    c[len(c) - len(v):] = v
    if op[1] == 0 and st.rec is not None and v[0] != op[2][0]:
        st.rec.turn(v[0])


REDO = (_r_mv, _r_rem, _r_fgt, _r_swp, _r_swc, _r_shf, _r_set, _r_pcy, _u_pass, _u_pass,
        _r_ovr, _u_cpo, _r_cpo, _r_adv, _u_pass)


def redo_logged(st: State, op: tuple) -> None:
    """Apply a recorded op again while building options, logging it (its own undo record)."""
    if op[0] == VDEL:
        del op[1][op[2]]
    else:
        REDO[op[0]](st, op)
    # Called only while options are built, when st.log is a list: no check on this hot path.
    st.log.append(op)  # type: ignore[union-attr]

