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
