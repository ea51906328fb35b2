# Quick bounds (included by _core.pyx): what the side can still win at most
# and must win at least, before any search.

cdef inline void point_bounds(Solver* s, int* lb, int* ub) noexcept nogil:
    # Every point still to be scored (live cards' card_points, the remaining
    # tricks' trick_points) goes to the side or not: the side's total lies
    # between the sum of the negative ones and the sum of the positive ones.
    cdef Rules* r = &s.r
    cdef int seat = (s.leader + s.np) % r.n
    cdef int nt = ks_popcount(s.hands[seat])   # tricks left, the current one included
    cdef int lo, hi, c, p, k
    cdef u64 x
    lo = r.tp_neg[s.trick_index + nt] - r.tp_neg[s.trick_index]
    hi = r.tp_pos[s.trick_index + nt] - r.tp_pos[s.trick_index]
    x = (s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]) & r.point_cards
    while x:
        c = ks_ctz(x)
        x &= x - 1
        p = r.card_points[c]
        if p > 0:
            hi += p
        else:
            lo += p
    for k in range(s.np):
        p = r.card_points[s.trick[k]]
        if p > 0:
            hi += p
        else:
            lo += p
    lb[0] = lo
    ub[0] = hi


cdef int quick_tricks(Solver* s) noexcept nogil:
    # Tricks the leader's team can surely take by cashing the leader's top cards
    # (DDS "quick tricks", simplified).  In a trump game a suit other than trumps
    # counts only as many rounds as every opponent holding trumps can follow.
    # Valid at a trick boundary when no lead restriction applies to the leader.
    cdef Rules* r = &s.r
    cdef int n = r.n, L = s.leader, su, k, o, q = 0, c, len_o
    cdef int team = s.side if (s.side >> L) & 1 else ((1 << n) - 1) & ~s.side
    cdef u64 hand = s.hands[L], others = 0, hs, os, x, trumps = 0
    if hand & r.lead_restricted:
        return 0
    for o in range(n):
        if o != L:
            others |= s.hands[o]
    if r.trump >= 0:
        trumps = suit_bits(r.trump)
    for su in range(4):
        hs = hand & suit_bits(su)
        if hs == 0:
            continue
        os = others & suit_bits(su)
        x = hs | os
        k = 0
        while x:
            c = strongest(r, x)
            if not ((hs >> c) & 1):
                break
            k += 1
            x &= ~((<u64>1) << c)
        if k == 0:
            continue
        if r.trump >= 0 and su != r.trump:
            for o in range(n):
                if not ((team >> o) & 1) and (s.hands[o] & trumps):
                    len_o = ks_popcount(s.hands[o] & suit_bits(su))
                    if len_o < k:
                        k = len_o
        q += k
    return q


cdef inline void trump_winners(Solver* s, int* k_side, int* k_opp) noexcept nogil:
    # Sure tricks from top trumps: the hand holding the strongest live trump wins
    # one trick with it and with each next-strongest trump it also holds (a top
    # trump wins whatever trick it is played to, and it is played by the end).
    cdef Rules* r = &s.r
    cdef u64 tr = 0, x
    cdef int o, c, k = 0, holder = -1
    k_side[0] = 0
    k_opp[0] = 0
    if r.trump < 0:
        return
    for o in range(r.n):
        tr |= s.hands[o]
    x = tr & suit_bits(r.trump)
    while x:
        c = strongest(r, x)
        for o in range(r.n):
            if (s.hands[o] >> c) & 1:
                break
        if holder < 0:
            holder = o
        elif o != holder:
            break
        k += 1
        x &= ~((<u64>1) << c)
    if holder < 0:
        return
    if (s.side >> holder) & 1:
        k_side[0] = k
    else:
        k_opp[0] = k
