# Quick bounds (included by _core.pyx): what the side can still win at most
# and must win at least, before any search.

cdef void live_points(Solver* s) noexcept nogil:
    # live_pos / live_neg from scratch: the cards in hands and on the table.
    cdef u64 x = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    cdef int c, k, p
    for k in range(s.np):
        x |= (<u64>1) << s.trick[k]
    x &= s.r.point_cards
    s.live_pos = 0
    s.live_neg = 0
    while x:
        c = ks_ctz(x)
        x &= x - 1
        p = s.r.card_points[c]
        if p > 0:
            s.live_pos += p
        else:
            s.live_neg += p


cdef inline void point_bounds(Solver* s, int* lb, int* ub) noexcept nogil:
    # Every point still to be scored (live cards' card_points, kept up to date
    # by play_card / undo_card, and the remaining tricks' trick_points) goes to
    # the side or not: the side's total lies between the sum of the negative
    # ones and the sum of the positive ones -- and is all of them when the
    # side is every seat (a penalty deal was slow to search before;
    # benchmarks/README.md).
    cdef Rules* r = &s.r
    cdef int seat = seat_to_move(s)
    cdef int nt = ks_popcount(s.hands[seat])   # tricks left, the current one included
    lb[0] = r.tp_neg[s.trick_index + nt] - r.tp_neg[s.trick_index] + s.live_neg
    ub[0] = r.tp_pos[s.trick_index + nt] - r.tp_pos[s.trick_index] + s.live_pos
    if s.side == (1 << r.n) - 1:
        lb[0] += ub[0]
        ub[0] = lb[0]


cdef inline int tricks_needed(Rules* r, int ti, int first, int nt, bint by_side, int beta,
                              int total_ub, int* bound) noexcept nogil:
    # In a trick game (trick points only, none negative): the fewest of the next
    # tricks, at least `first` and at most nt, that settle the test against
    # beta when the side (by_side) or the other team wins them all: the side's
    # points are then at least their points (by_side), or at most total_ub less
    # them.  Returns nt + 1 if even nt do not; bound = that bound.
    cdef int need = first
    if by_side:
        while need <= nt and r.tp_pos[ti + need] - r.tp_pos[ti] < beta:
            need += 1
    else:
        while need <= nt and total_ub - (r.tp_pos[ti + need] - r.tp_pos[ti]) >= beta:
            need += 1
    if need <= nt:
        bound[0] = (r.tp_pos[ti + need] - r.tp_pos[ti] if by_side
                    else total_ub - (r.tp_pos[ti + need] - r.tp_pos[ti]))
    return need


cdef inline int cashable(Solver* s, int L, int team, int su, u64* rel, u64* low, int* omax_out,
                         bint drawn=False) noexcept nogil:
    # How many tricks seat L can win in a row by leading suit su, its cards from
    # the strongest down, every teammate following with its cards from the
    # strongest down (unblocking).  With l_i, m_i the i-th strongest su card of L
    # and of a teammate M, and c the longest holding of su among the opponents:
    # L wins round i when l_i beats every m_i and the top card of every
    # opponent holding at least i cards of su (each opponent follows every
    # round, so one holding fewer is void by then: a singleton king falls under
    # the ace, and the queen wins round 2).  When that holds for the first c rounds, the
    # opponents are void afterwards, and L's further cards win as long as they
    # beat the teammates' (all of L's length when l_i beats m_i throughout).
    # In a trump game a side suit counts only as many rounds as every opponent
    # holding trumps (and every teammate forced to trump) can follow; with
    # `drawn`, the opponents' trumps are taken as gone (quick_tricks: L first
    # cashes trump rounds enough to draw them).
    # rel gets L's cards l_1..l_j for the rounds whose comparisons the count
    # uses: with them every card from l_j up keeps its owner, which fixes the
    # comparisons (a teammate's m_i is below l_i exactly when it holds fewer
    # than i cards above l_i; an opponent holding at least i cards holds none
    # above l_i; the lengths are in the signature).
    # When the count is the prefix r1 (not L's length) and round r1 + 1 was
    # lost to an opponent's card (omax_out), low gets L's cards below l_r1: L
    # may part with them and still count k (rounds 1..r1 do not look at them),
    # and with omax_out in rel (owners fixed from it up, so L still holds just
    # r1 cards above it) r1 is the same throughout the partition.
    # (Inline: most calls stop at round 1, before the count proper.)
    cdef u64 hs = s.hands[L] & suit_bits(su)
    low[0] = 0
    omax_out[0] = -1
    if hs == 0 or not ((hs >> strongest(&s.r, (s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3])
                                                 & suit_bits(su))) & 1):
        # l_1 must beat every other card of the suit (round 1): nothing to count
        return 0
    return cashable_rounds(s, L, team, su, hs, rel, low, omax_out, drawn)


cdef int cashable_rounds(Solver* s, int L, int team, int su, u64 hs, u64* rel, u64* low,
                         int* omax_out, bint drawn) noexcept nogil:
    # cashable's count once l_1 (the strongest card of hs, L's cards of su)
    # beats every other card of the suit; low and omax_out are preset.
    cdef Rules* r = &s.r
    cdef u64 x, trumps, t
    cdef u64 mx[MAX_SEATS]         # the cards of su of each teammate holding su
    cdef int olen[MAX_SEATS]       # length and top card of su of each opponent holding su
    cdef int otop[MAX_SEATS]
    cdef int k = 0, c, o, j, len_o, k_mark, a, copp = 0, i = 0, r1 = 0, jpair = 0, cm, stop = -1
    cdef int nmx = 0, nopp = 0
    cdef bint prefix = True, pairs = True
    a = ks_popcount(hs)
    for o in range(r.n):
        x = s.hands[o] & suit_bits(su)
        if o == L or x == 0:
            continue
        if (team >> o) & 1:
            mx[nmx] = x
            nmx += 1
        else:
            len_o = ks_popcount(x)
            olen[nopp] = len_o
            otop[nopp] = strongest(r, x)
            nopp += 1
            if len_o > copp:
                copp = len_o
    x = hs
    while x:
        c = strongest(r, x)
        x &= ~((<u64>1) << c)
        i += 1
        for j in range(nmx):
            if mx[j]:
                cm = strongest(r, mx[j])
                mx[j] &= ~((<u64>1) << cm)
                jpair = i
                if (r.stronger[c] >> cm) & 1:
                    pairs = False
        if not pairs:
            break
        if prefix:
            # the top cards that can still be played against l_i
            t = 0
            for j in range(nopp):
                if olen[j] >= i:
                    t |= (<u64>1) << otop[j]
            if (t & r.stronger[c]) == 0:
                r1 = i
            else:
                prefix = False
                stop = strongest(r, t)
    if pairs and r1 >= copp:
        k = a
        k_mark = copp if copp > jpair else jpair
    else:
        k = r1
        k_mark = r1
        if stop >= 0:
            # L's cards below l_r1; r1 stays while the owners of the cards from
            # `stop` (the card that stopped round r1 + 1) up are kept
            low[0] = hs
            for o in range(r1):
                low[0] &= ~((<u64>1) << strongest(r, low[0]))
            omax_out[0] = stop
    if k and r.trump >= 0 and su != r.trump:
        # An opponent holding trumps could ruff once void; any other seat that
        # holds a trump it must play when void (must-trump) would win the trick
        # from its teammate and take the lead away: either way only as many
        # rounds count as each such seat can follow.
        trumps = suit_bits(r.trump)
        for o in range(r.n):
            if o == L:
                continue
            if (s.hands[o] & trumps) and ((not drawn and not ((team >> o) & 1))
                                          or (s.hands[o] & r.discard_forced & trumps)):
                len_o = ks_popcount(s.hands[o] & suit_bits(su))
                if len_o < k:
                    k = len_o
    if k < k_mark:
        k_mark = k
    x = hs
    for o in range(k_mark):
        c = strongest(r, x)
        rel[0] |= (<u64>1) << c
        x &= ~((<u64>1) << c)
    return k


cdef int cash_suits(int* k, u64* m, int must, int need, u64* rel) noexcept nogil:
    # Pick suits (suit `must` first, if >= 0) in order of most tricks until they
    # make `need`; add their cards to rel.  Returns the tricks picked.
    cdef int got = 0, su, best, i
    cdef int used[4]
    for su in range(4):
        used[su] = 0
    if must >= 0:
        used[must] = 1
        got += k[must]
        rel[0] |= m[must]
    for i in range(4):
        if got >= need:
            break
        best = -1
        for su in range(4):
            if not used[su] and k[su] > 0 and (best < 0 or k[su] > k[best]):
                best = su
        if best < 0:
            break
        used[best] = 1
        got += k[best]
        rel[0] |= m[best]
    return got


cdef inline bint no_forced_ruff(Solver* s, int team, int skip, int rounds) noexcept nogil:
    # In a trump game, a teammate void in the led suit whose hand is all
    # trumps must ruff its partner's winner and so takes the lead: a count of
    # tricks in a row that leads from one seat must rule that out.  Every
    # team seat but `skip` (the seat that leads those rounds) that holds a
    # trump must hold at least `rounds` other cards: it plays one card a
    # round, so it always has a card other than a trump to play when void.
    # (Trumps it must play when void, discard_forced ones, are dealt with in
    # cashable.)  Rests on lengths only.
    cdef Rules* r = &s.r
    cdef u64 tr
    cdef int o
    if r.trump < 0:
        return True
    tr = suit_bits(r.trump)
    for o in range(r.n):
        if o != skip and (team >> o) & 1 and (s.hands[o] & tr) and ks_popcount(s.hands[o] & ~tr) < rounds:
            return False
    return True


cdef int team_suit_tricks(Solver* s, int L, int team, u64 outside, int su) noexcept nogil:
    # Tricks L's team surely wins in a row by leading su when no seat outside
    # the team holds su: m = the shortest holding of su among the team's seats
    # that hold it (L included).  In each of the first m rounds every such seat
    # follows with su, the strongest su card wins (no outside seat can follow,
    # and none can ruff: checked below), and its holder, a teammate with at
    # least one su card left, leads su again.  Requires that no outside seat
    # holds a trump (su a side suit), that no void teammate must play a trump
    # (it would take the lead), and that no su card of the team is
    # lead-restricted.  Rests on lengths and classes only: marks nothing.
    # outside: the cards of the seats outside the team.
    cdef Rules* r = &s.r
    cdef int o, m = 99, k
    cdef u64 sb = suit_bits(su), tr
    tr = suit_bits(r.trump) if r.trump >= 0 and su != r.trump else 0
    if (s.hands[L] & sb) == 0 or (outside & (sb | tr)):
        return 0
    for o in range(r.n):
        if not ((team >> o) & 1):
            continue
        k = ks_popcount(s.hands[o] & sb)
        if k:
            if s.hands[o] & sb & r.lead_restricted:
                return 0
            if k < m:
                m = k
        elif s.hands[o] & tr & r.discard_forced:
            return 0
    if tr:
        # a void teammate holding trumps must have a card other than a trump
        # for each round (see no_forced_ruff; teammates holding su follow)
        for o in range(r.n):
            if (team >> o) & 1 and (s.hands[o] & sb) == 0 and (s.hands[o] & tr) and (
                    ks_popcount(s.hands[o] & ~tr) < m):
                m = ks_popcount(s.hands[o] & ~tr)
    return m


cdef inline bint draws_trumps(Solver* s, int team, int rounds) noexcept nogil:
    # Do `rounds` rounds of trumps leave the seats outside the team without a
    # trump (each follows every round while it holds one)?  Rests on lengths.
    cdef int o
    cdef u64 tr = suit_bits(s.r.trump)
    for o in range(s.r.n):
        if not ((team >> o) & 1) and ks_popcount(s.hands[o] & tr) > rounds:
            return False
    return True


cdef int crossing_tricks(Solver* s, int L, int team, int su, int* X, u64* mark) noexcept nogil:
    # Tricks L's team surely wins in a row in suit su when the two strongest
    # cards of su are split between L and one teammate P, both hold at least
    # two cards of su, one of them exactly two, and no opponent holds more
    # than two (DDS's "second best at partner"): max(|L|, |P|) tricks, the
    # long hand X (L when the lengths are equal) on lead after them.
    # Short hand Y = L: it leads its top card (X plays low), then its other
    # card to X's top.  X = L: it leads low to Y's top, Y leads its other card
    # back to X's top.  Either way the two top cards win rounds 1 and 2 (the
    # other top card, if stronger, is its teammate's and not played), the
    # opponents are void after them, and X cashes the rest of su.  Requires:
    # no other teammate holds su (it could win a round and take the lead); in
    # a side suit of a trump game no opponent holds a trump (a void one would
    # ruff); no lead-restricted card with L or P, no discard-forced card with
    # the team (a void teammate must not be made to win a trick; the forced
    # ruffs are checked by the caller with no_forced_ruff).  Rests on the top
    # two cards' owners (mark) and lengths.  Returns 0 when it does not apply.
    cdef Rules* r = &s.r
    cdef u64 sb = suit_bits(su), x, tr
    cdef int o, t1, t2, P, a, b
    x = (s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]) & sb
    if ks_popcount(x) < 4 or not (s.hands[L] & sb):
        return 0
    t1 = strongest(r, x)
    t2 = strongest(r, x & ~((<u64>1) << t1))
    if ((s.hands[L] >> t1) & 1) == ((s.hands[L] >> t2) & 1):
        return 0                         # L holds both or neither
    P = -1
    for o in range(r.n):
        if o != L and (s.hands[o] & (((<u64>1) << t1) | ((<u64>1) << t2))):
            P = o
    if not ((team >> P) & 1) or (s.hands[P] & r.lead_restricted):
        return 0
    a = ks_popcount(s.hands[L] & sb)
    b = ks_popcount(s.hands[P] & sb)
    if a < 2 or b < 2 or (a > 2 and b > 2):
        return 0
    tr = suit_bits(r.trump) if r.trump >= 0 and su != r.trump else 0
    for o in range(r.n):
        if o == L or o == P:
            continue
        if (team >> o) & 1:
            if s.hands[o] & sb:
                return 0
        elif ks_popcount(s.hands[o] & sb) > 2 or (s.hands[o] & tr):
            return 0
    for o in range(r.n):
        if (team >> o) & 1 and (s.hands[o] & r.discard_forced):
            return 0
    X[0] = P if b > a else L
    mark[0] = ((<u64>1) << t1) | ((<u64>1) << t2)
    return a if a >= b else b


cdef int ruff_entry(Solver* s, int L, int team, int need, u64* rel) noexcept nogil:
    # In a trump game: L leads a side suit su in which a teammate P is void
    # and holds a trump, while every opponent holds su or no trump: P ruffs,
    # nobody overruffs (whoever plays after P follows suit or holds no trump;
    # another teammate overruffing keeps the trick in the team), and the team
    # wins the trick (DDS's "partner ruffs" quick trick); P then cashes its own
    # top cards of the other side suits (cashable: the opponents followed su or
    # discarded, which never lowers them; no other void teammate may hold a
    # trump: it could overruff P and lead).  P must not be made to play another
    # card than a trump (discard-forced cards of other suits).  The ruff rests
    # on lengths alone.  Returns the tricks (below `need` with nothing added
    # to rel), or `need` with the marks of the side suits it used.
    cdef Rules* r = &s.r
    cdef u64 tr = suit_bits(r.trump), sb
    cdef int su, P, o, su2, best = 0, q, ruffers = 0
    cdef bint ok
    cdef int k[4]
    cdef u64 m[4]
    cdef u64 low
    cdef int omx
    for P in range(r.n):
        # the teammates that may ruff: holding a trump, no discard-forced side card
        if (P != L and (team >> P) & 1 and (s.hands[P] & tr)
                and (s.hands[P] & r.discard_forced & ~tr) == 0):
            ruffers |= 1 << P
    if ruffers == 0:
        return 0
    for su in range(4):
        if su == r.trump:
            continue
        sb = suit_bits(su)
        if (s.hands[L] & sb) == 0:
            continue
        ok = True
        for o in range(r.n):
            if not ((team >> o) & 1) and (s.hands[o] & sb) == 0 and (s.hands[o] & tr):
                ok = False
                break
        if not ok:
            continue
        for P in range(r.n):
            if not ((ruffers >> P) & 1) or (s.hands[P] & sb):
                continue
            if need <= 1:
                return need
            q = 1
            ok = not (s.hands[P] & r.lead_restricted) and no_forced_ruff(s, team, P, need)
            for o in range(r.n):
                if o != L and o != P and (team >> o) & 1 and (s.hands[o] & sb) == 0 and (s.hands[o] & tr):
                    ok = False       # it might overruff P and take the lead
            if ok:
                for su2 in range(4):
                    m[su2] = 0
                    k[su2] = 0
                    if su2 != su and su2 != r.trump:
                        k[su2] = cashable(s, P, team, su2, &m[su2], &low, &omx)
                        q += k[su2]
                if q >= need:
                    cash_suits(k, m, -1, need - 1, rel)
                    return need
            if q > best:
                best = q
    return best


cdef int quick_tricks(Solver* s, int need, u64* rel) noexcept nogil:
    # Tricks the leader's team can surely take next (DDS "quick tricks", simplified):
    # the leader cashes its top cards suit after suit; or it leads a suit in which a
    # teammate holds the top card, and that teammate cashes its own top cards.
    # Valid at a trick boundary; 0 when the leader or the teammate holds
    # lead-restricted cards.  When at least `need` tricks are found, the cards of
    # just enough suits to make `need` are added to rel and `need` or more is
    # returned; otherwise the count (below `need`) and nothing is added.
    cdef Rules* r = &s.r
    cdef int n = r.n, L = s.leader, su, o, q = 0, qp, e, spare, ql, qbest, x_su
    cdef int team = s.side if (s.side >> L) & 1 else ((1 << n) - 1) & ~s.side
    cdef int k[4]
    cdef int kp[4]
    cdef u64 m[4]
    cdef u64 mp[4]
    cdef u64 low[4]
    cdef int omx[4]
    cdef int spare_low
    cdef u64 outside = 0
    if s.hands[L] & r.lead_restricted:
        return 0
    for o in range(n):
        if not ((team >> o) & 1):
            outside |= s.hands[o]
    for su in range(4):
        if team_suit_tricks(s, L, team, outside, su) >= need:
            return need
    for su in range(4):
        m[su] = 0
        k[su] = cashable(s, L, team, su, &m[su], &low[su], &omx[su])
        q += k[su]
    if q >= need and no_forced_ruff(s, team, L, need):
        return cash_suits(k, m, -1, need, rel)
    if q < need and r.trump >= 0 and k[r.trump] > 0 and draws_trumps(s, team, k[r.trump]):
        # L cashes its trump rounds first: every opponent follows each of them,
        # so none holds a trump afterwards, and L's side suits count in full
        # (an opponent that ran out discarded: shorter holdings only help)
        ql = k[r.trump]
        for su in range(4):
            if su != r.trump:
                mp[su] = 0
                kp[su] = cashable(s, L, team, su, &mp[su], &low[su], &omx[su], True)
                ql += kp[su]
            else:
                mp[su] = m[su]
                kp[su] = k[su]
        if ql >= need and no_forced_ruff(s, team, L, need):
            return cash_suits(kp, mp, r.trump, need, rel)
    qbest = q
    for su in range(4):
        # a suit whose two top cards L and a teammate split (crossing_tricks)
        # first, then the long hand's own top cards in the other suits (the
        # other team hand only discards meanwhile, which never lowers them)
        e = crossing_tricks(s, L, team, su, &o, &mp[su])
        if e == 0:
            continue
        ql = e
        for x_su in range(4):
            if x_su == su:
                continue
            if o == L:
                kp[x_su] = k[x_su]
                mp[x_su] = m[x_su]
            else:
                mp[x_su] = 0
                kp[x_su] = cashable(s, o, team, x_su, &mp[x_su], &low[x_su], &omx[x_su])
            ql += kp[x_su]
        if ql >= need and no_forced_ruff(s, team, o, need):
            kp[su] = e
            return cash_suits(kp, mp, su, need, rel)
        if ql > qbest and ql < need:
            qbest = ql
    if r.trump >= 0:
        ql = ruff_entry(s, L, team, need, rel)
        if ql >= need:
            return need
        if ql > qbest:
            qbest = ql
    for o in range(n):
        if o == L or not ((team >> o) & 1) or (s.hands[o] & r.lead_restricted):
            continue
        qp = 0
        for su in range(4):
            mp[su] = 0
            kp[su] = cashable(s, o, team, su, &mp[su], &low[su], &omx[su])
            qp += kp[su]
        # an entry: a suit the leader holds where the teammate can win the first round
        e = -1
        for su in range(4):
            if (s.hands[L] & suit_bits(su)) and kp[su] > 0:
                e = su
                break
        if e < 0:
            continue
        if not no_forced_ruff(s, team, o, need):
            continue
        if qp >= need:
            return cash_suits(kp, mp, e, need, rel)
        # First the leader cashes up to `spare` of its own tricks (in suits
        # where it holds the top, so where o cashes nothing), then crosses in
        # suit e.  o follows or discards with its cards of the side suits it
        # does not cash (spare of them, no trump: o must not ruff and take the
        # lead; no card of o is discard-forced), so its own
        # tricks stay: its top cards stay on top, the other seats only get
        # shorter (the opponents holding trumps follow the leader's suits, see
        # cashable), and L keeps its card of e.
        spare = 0
        spare_low = 0
        if (s.hands[o] & r.discard_forced) == 0:
            for su in range(4):
                if su == r.trump:
                    continue
                if kp[su] == 0:
                    spare += ks_popcount(s.hands[o] & suit_bits(su))
                else:
                    # o's cards below the opponents' top card of a suit whose
                    # count rests on o's cards above it (see cashable)
                    spare_low += ks_popcount(low[su])
        ql = q if q < spare else spare
        if qp + ql >= need:
            cash_suits(kp, mp, e, qp, rel)
            cash_suits(k, m, -1, need - qp, rel)
            return need
        spare += spare_low
        ql = q if q < spare else spare
        if qp + ql >= need:
            # o also discards cards of low: their count stays on omax's owner
            for su in range(4):
                if su != r.trump and kp[su] > 0 and low[su]:
                    rel[0] |= (<u64>1) << omx[su]
            cash_suits(kp, mp, e, qp, rel)
            cash_suits(k, m, -1, need - qp, rel)
            return need
        if qp + ql > qbest:
            qbest = qp + ql
    # a failed count stays below need (the counts above that failed a
    # condition are no bound)
    return qbest if qbest < need else need - 1


cdef inline void trump_winners(Solver* s, int* k_side, int* k_opp, u64* tops) noexcept nogil:
    # Sure tricks from top trumps.  Let R be the run of strongest live trumps
    # held by one team (the side, or the other seats).  A trick holding a card
    # of R is won by that team: its strongest trump is that card or a stronger
    # one, all of which are in R.  A seat plays its cards of R to different
    # tricks, so the team wins at least max over its seats of |R & hand| tricks
    # (R in one hand: |R|, the top trumps of that hand).  The same holds for
    # every prefix of R; tops[i] = the shortest prefix giving a count of i+1
    # (what that count rests on: the ranks of those trumps).
    cdef Rules* r = &s.r
    cdef u64 tr = 0, x, pre = 0
    cdef int o, c, best = 0, team = -1, t
    cdef int cnt[MAX_SEATS]
    k_side[0] = 0
    k_opp[0] = 0
    if r.trump < 0:
        return
    for o in range(r.n):
        tr |= s.hands[o]
        cnt[o] = 0
    x = tr & suit_bits(r.trump)
    while x:
        c = strongest(r, x)
        for o in range(r.n):
            if (s.hands[o] >> c) & 1:
                break
        t = (s.side >> o) & 1
        if team < 0:
            team = t
        elif t != team:
            break
        pre |= (<u64>1) << c
        cnt[o] += 1
        if cnt[o] > best:
            tops[best] = pre
            best = cnt[o]
        x &= ~((<u64>1) << c)
    if best == 1 and ks_popcount(pre) >= 2 and (
            (r.discard_forced | r.lead_restricted) & suit_bits(r.trump)) == 0:
        # The top two trumps T1, T2 sit in two seats X, Y of the team (a seat
        # holding both would have counted 2).  When X and Y hold three trumps
        # or more between them the team wins two tricks: it only has to keep
        # T1 and T2 out of one trick (the first of them played wins, the other
        # is then the top trump).  Until one is played: on a trump lead the
        # seat of X, Y with fewer trumps plays its top one and the other a
        # smaller trump (it has one, the three trumps being still there); on
        # another lead they play no trump unless a hand is all trumps, and then
        # that seat plays its top one, the other having a card other than its
        # top (equal hand sizes: a single-card hand would leave two trumps).
        # Nothing forces a trump otherwise (no trump is discard-forced or
        # lead-restricted).  Rests on the ranks of T1, T2 and on the lengths.
        x = pre
        c = strongest(r, x)
        x &= ~((<u64>1) << c)
        t = strongest(r, x)
        x = ((<u64>1) << c) | ((<u64>1) << t)
        cnt[0] = 0
        for o in range(r.n):
            if s.hands[o] & x:
                cnt[0] += ks_popcount(s.hands[o] & suit_bits(r.trump))
        if cnt[0] >= 3:
            tops[1] = x
            best = 2
    if team == 1:
        k_side[0] = best
    elif team == 0:
        k_opp[0] = best


cdef inline void trump_lengths(Solver* s, int* l_side, int* l_opp) noexcept nogil:
    # When one team holds every live trump, it wins at least as many tricks as
    # the longest trump holding among its seats: a trick holding a trump is won
    # by a trump (the strongest one in it), so by that team, and a seat plays
    # each of its trumps to a different trick.  It rests on the lengths only
    # (no rank), so it marks no card.  l_side / l_opp: that count for the side
    # or the other team (0 when the trumps are split or gone).
    cdef Rules* r = &s.r
    cdef int o, k, ms = 0, mo = 0
    l_side[0] = 0
    l_opp[0] = 0
    if r.trump < 0:
        return
    for o in range(r.n):
        k = ks_popcount(s.hands[o] & suit_bits(r.trump))
        if k:
            if (s.side >> o) & 1:
                if k > ms:
                    ms = k
            elif k > mo:
                mo = k
    if mo == 0:
        l_side[0] = ms
    elif ms == 0:
        l_opp[0] = mo


cdef inline int trump_matching(Solver* s, int o, int need, u64* mark) noexcept nogil:
    # Sure tricks from seat o's trumps, ranks and lengths together.  Every
    # trump o holds goes to a trick of its own, and that trick is o's team's
    # unless a stronger trump of the other team is in it; each such trump is
    # in one trick only.  So the team loses at most M of the tricks o's
    # trumps go to, M the largest matching of o's trumps with stronger
    # trumps of the other team, and wins at least t - M of them (t: o's
    # trumps).  (Going down the trump suit, an outside trump is matched to the
    # next of o's trumps below it: the largest matching.)  Any rules: it only
    # counts where every card ends up.  It takes in trump_lengths (M = 0) and
    # most of trump_winners (o's trumps above every outside one).
    # Returns t - M.  With need > 0 (at most t - M), mark gets the strongest
    # trump w such that the count is at least need in every position where
    # the trumps from w up have the same owners (rel): above w it matches as
    # here, leaving f outside trumps free, and below w the worst case loses
    # min(b, f + o_b) more of o's b trumps there to the o_b outside ones.
    cdef Rules* r = &s.r
    cdef u64 tr = suit_bits(r.trump), x, out = 0, mine
    cdef int k, c, free_out = 0, matched = 0, t, n_out, a = 0, ob = 0, b
    cdef int team_o = (s.side >> o) & 1
    for k in range(r.n):
        if ((s.side >> k) & 1) != team_o:
            out |= s.hands[k]
    out &= tr
    mine = s.hands[o] & tr
    t = ks_popcount(mine)
    n_out = ks_popcount(out)
    x = out | mine
    while x:
        c = strongest(r, x)
        x &= ~((<u64>1) << c)
        if (out >> c) & 1:
            free_out += 1
            ob += 1
        else:
            a += 1
            if free_out:
                free_out -= 1
                matched += 1
        if need > 0:
            b = t - a
            k = free_out + n_out - ob
            if t - matched - (b if b < k else k) >= need:
                mark[0] = (<u64>1) << c
                return need
    return t - matched


cdef inline void trump_matchings(Solver* s, int* k_side, int* k_opp, int* o_side,
                                 int* o_opp, int need_side, int need_opp) noexcept nogil:
    # trump_matching's count for the best seat of the side (k_side, seat
    # o_side) and of the other team (k_opp, o_opp), counting only seats
    # holding at least need_side / need_opp trumps (a count below that would
    # settle nothing; 0 is left then).
    cdef Rules* r = &s.r
    cdef int o, k, t
    cdef u64 tr, m
    k_side[0] = 0
    k_opp[0] = 0
    if r.trump < 0:
        return
    tr = suit_bits(r.trump)
    for o in range(r.n):
        t = ks_popcount(s.hands[o] & tr)
        if t == 0:
            continue
        if (s.side >> o) & 1:
            if t > k_side[0] and t >= need_side:
                k = trump_matching(s, o, 0, &m)
                if k > k_side[0]:
                    k_side[0] = k
                    o_side[0] = o
        elif t > k_opp[0] and t >= need_opp:
            k = trump_matching(s, o, 0, &m)
            if k > k_opp[0]:
                k_opp[0] = k
                o_opp[0] = o


cdef inline bint ruff_beside_length(Solver* s) noexcept nogil:
    # With every live trump in the leader's team (trump_lengths) and the
    # leader L holding the team's longest trump holding: when L holds a side
    # suit in which a teammate P is void but holds a trump, L leads it and P
    # ruffs, a trick holding no trump of L, so the team wins one more trick
    # than L's trump length (L's trumps go to other tricks, each won by a
    # trump).  P must not be made to play another card (a discard-forced card
    # of another suit), nor L be kept from leading the suit.  Lengths only.
    cdef Rules* r = &s.r
    cdef int L = s.leader, o, su, a
    cdef u64 tr = suit_bits(r.trump), sb
    cdef int team = s.side if (s.side >> L) & 1 else ((1 << r.n) - 1) & ~s.side
    a = ks_popcount(s.hands[L] & tr)
    if a == 0 or (s.hands[L] & r.lead_restricted):
        return False
    for o in range(r.n):
        if (team >> o) & 1:
            if ks_popcount(s.hands[o] & tr) > a:
                return False
        elif s.hands[o] & tr:
            return False
    for su in range(4):
        if su == r.trump:
            continue
        sb = suit_bits(su)
        if (s.hands[L] & sb) == 0:
            continue
        for o in range(r.n):
            if (o != L and (team >> o) & 1 and (s.hands[o] & sb) == 0 and (s.hands[o] & tr)
                    and (s.hands[o] & r.discard_forced & ~tr) == 0):
                return True
    return False


cdef inline u64 below_lowest(u64 x) noexcept nogil:
    # In each suit (a 16-bit lane of a card set): the card positions below
    # x's lowest card of the suit, all 13 when x holds none.  Setting bit 13
    # of every lane before subtracting 1 keeps each borrow inside its lane.
    return ~x & ((x | <u64>0x2000200020002000ULL) - <u64>0x0001000100010001ULL) & (
        <u64>0x1FFF1FFF1FFF1FFFULL)


cdef inline u64 suits_held(u64 x) noexcept nogil:
    # Bit 15 of each suit's lane, set when the card set x holds a card of the
    # suit (13 bits a lane: adding 0x7FFF never carries into the next lane).
    return (x + <u64>0x7FFF7FFF7FFF7FFFULL) & <u64>0x8000800080008000ULL


cdef int seat_takes_all(Solver* s, u64 live, u64* rel, int* fed, u64* fed_rel) noexcept nogil:
    # At a trick's start: a seat X every card of which beats every card of its
    # suit held by the other seats, with no trump elsewhere, wins every trick
    # left whatever anybody plays, when it leads (the card it leads is the
    # strongest of its suit, nobody can ruff, and it leads again with the same
    # holding minus one card) or when it holds every suit the leader holds
    # (it must follow the lead with one of its cards, wins, and leads).  Any
    # contract: every point left goes to X.  Returns X, or -1.  rel: X's
    # weakest card of each suit it holds that others hold too (the owners from
    # there up are X's, by the condition; with the lengths that gives the
    # condition throughout the partition).
    # fed: such a seat X, not on lead, that misses a suit the leader holds
    # but holds another one (the leader may choose to lead it; then X wins
    # every trick left), or -1; fed_rel its marks.  live: the cards in the hands.
    cdef Rules* r = &s.r
    cdef int L = s.leader, X, su
    cdef u64 others, sb, mine, m, held
    cdef u64 lead = s.hands[L], lead_free = s.hands[L] & ~r.lead_restricted
    cdef bint covers, shares
    fed[0] = -1
    for X in range(r.n):
        mine = s.hands[X]
        if mine == 0:
            continue
        others = live & ~mine
        if r.trump >= 0 and (others & suit_bits(r.trump)):
            continue
        # The condition in every suit at once (it rejects almost every seat):
        # no card of the others beats X's weakest card of the suit.  By
        # position in the suit's bits, the others' cards all lie below X's
        # lowest one, or, when inverted (lower positions stronger), X's cards
        # all lie below the others' lowest one.
        if r.inverted:
            if mine & ~below_lowest(others):
                continue
        elif others & ~below_lowest(mine):
            continue
        m = 0
        for su in range(4):
            sb = suit_bits(su)
            if (mine & sb) and (others & sb):
                m |= (<u64>1) << weakest(r, mine & sb)
        if X == L:
            rel[0] = m
            return X
        held = suits_held(mine)
        # X holds every suit the leader holds, or it misses one (the leader
        # could lead it) but holds one the leader may lead
        covers = (suits_held(lead) & ~held) == 0
        shares = (suits_held(lead_free if lead_free else lead) & held) != 0
        if covers:
            rel[0] = m
            return X
        if shares and fed[0] < 0:
            fed[0] = X
            fed_rel[0] = m
    return -1


cdef inline bint ducks_suit(Rules* r, u64 xs, u64 os, int shift) noexcept nogil:
    # With xs and os a seat's and the others' cards of a suit, a_i and b_i
    # their i-th weakest: is a_(i+shift) weaker than b_i for every i up to the
    # shorter length (a ballot condition, going up the suit)?
    # With shift 0 the seat can follow every round of the suit the others lead
    # without winning one: it plays its strongest card below the led card (a
    # card below b_1 exists), and the condition holds again after the round
    # whatever cards of os went (shown case by case on the indices of the led
    # card and of the card played; removing cards of os only helps).
    # With shift 1 it still holds after the seat leads its weakest card (a_1)
    # and any cards of os go.
    cdef int k = ks_popcount(xs), nx = 0, no = 0, c
    cdef u64 a = xs | os
    while nx < k:
        c = weakest(r, a)
        a &= ~((<u64>1) << c)
        if (xs >> c) & 1:
            nx += 1
        else:
            no += 1
            if no + shift <= k and nx < no + shift:
                return False
    return True


cdef bint sure_ducker(Solver* s, int x, bint strict, u64* rel) noexcept nogil:
    # Can seat x keep from winning any trick from here (then its points from
    # here are at least 0), or, if strict, can it not win one whatever it plays
    # (then they are exactly 0)?
    # Strict: x is not on lead, and in every suit it holds all its cards are
    # weaker than every card the others hold of that suit; when void it
    # discards, which never wins while it holds no trumps; so it never gets the
    # lead.  Otherwise: in every suit it follows below the led card as in
    # ducks_suit(r, xs, os, 0); when void it discards its strongest card of
    # some suit (or a card it must discard, if the suit passes ducks_suit
    # without that card too), which never wins while it holds no trumps; the
    # conditions hold again after every trick, so it never gets the lead.  If
    # x is on lead it leads its weakest card of a suit that passes
    # ducks_suit(r, xs, os, 1), below all the others' cards of the suit (one of
    # them must follow), and loses that trick as well.
    # The weakest card of the others in each suit x holds goes to rel: the
    # condition rests on the order of x's cards and the others' cards, fixed by
    # the owners of all the cards from that one up (below it lie only x's cards).
    cdef Rules* r = &s.r
    cdef u64 mine = s.hands[x], others = 0, xs, os, m = 0, f
    cdef int o, su, weakest_other, c
    cdef bint lead_ok = False
    if s.np != 0 or (strict and s.leader == x):
        return False
    if r.trump >= 0 and (mine & suit_bits(r.trump)):
        return False
    for o in range(r.n):
        if o != x:
            others |= s.hands[o]
    for su in range(4):
        xs = mine & suit_bits(su)
        os = others & suit_bits(su)
        if xs == 0 or os == 0:
            continue
        weakest_other = weakest(r, os)
        if strict:
            if (r.stronger[strongest(r, xs)] >> weakest_other) & 1 == 0:
                return False
        else:
            if not ducks_suit(r, xs, os, 0):
                return False
            f = xs & r.discard_forced
            if f:
                if f & (f - 1):
                    return False
                if not ducks_suit(r, xs & ~f, os, 0):
                    return False
            if s.leader == x and not lead_ok:
                c = weakest(r, xs)
                if (not ((r.lead_restricted >> c) & 1) or (mine & ~r.lead_restricted) == 0) and (
                        ducks_suit(r, xs, os, 1)):
                    lead_ok = True
        m |= (<u64>1) << weakest_other
    if s.leader == x and not lead_ok:
        return False
    rel[0] |= m
    return True


cdef bint loses_this_trick(Solver* s, int x, int need, int* esc, u64* rel) noexcept nogil:
    # Can seat x, alone against the others, make sure it does not win the
    # trick about to start (no trump live, so a discard never wins), and with
    # it escape at least `need` of its own cards' penalties?  Then it escapes
    # that trick's points and the penalty of the card it plays to it (a
    # penalty game: "one more trick I need not take").  Each seat holding the
    # suit led must follow it, so a card of x loses when some other seat h
    # holds the suit and every card h holds of it beats that card.
    # Of such cards x plays the one of most penalty (of those, the strongest).
    # On lead: x leads such a card c of some suit (a card it may lead).
    # Not on lead: whatever suit the leader leads (any suit it holds: that
    # covers its lead restrictions), x is void in it and discards (its card
    # of most penalty, among those it must discard if any), or it holds such
    # a card c of the suit and plays it.  The escape is the least over those
    # leads.
    # rel gets c (or each such c): every card of the suit from it up keeps its
    # owner, so x still holds c and h, whose cards all lie above it (the
    # lengths are in the signature), still holds no card below it; and, when
    # need > 0 and a discard counts, the card discarded (its owner, and so its
    # points, kept).  esc: the penalty escaped (at least need; 0 when need <= 0).
    cdef Rules* r = &s.r
    cdef u64 mine = s.hands[x], xs, hs, m = 0, d, safe
    cdef int o, su, c, pen, p, disc = -1, dc = -1, least = VAL_INF, hw
    cdef bint found
    if s.np != 0:
        return False
    if r.trump >= 0 and ((s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]) & suit_bits(r.trump)):
        return False
    for su in range(4):
        xs = mine & suit_bits(su)
        if s.leader != x and (s.hands[s.leader] & suit_bits(su)) == 0:
            continue                   # the leader cannot lead this suit
        if xs == 0:
            if s.leader != x and need > 0:
                # x discards: its card of most penalty
                if disc < 0:
                    d = mine & r.discard_forced
                    if d == 0:
                        d = mine
                    disc = 0
                    while d:
                        c = ks_ctz(d)
                        d &= d - 1
                        if -r.card_points[c] > disc:
                            disc = -r.card_points[c]
                            dc = c
                if disc < least:
                    least = disc
            continue                   # x cannot lead it, or it discards: it does not win
        # the cards of x that lose to every card some other seat holds of the
        # suit: those below hw, the strongest of the others' weakest cards
        hw = -1
        for o in range(r.n):
            if o != x:
                hs = s.hands[o] & suit_bits(su)
                if hs != 0:
                    c = weakest(r, hs)
                    if hw < 0 or beats(r, c, hw):
                        hw = c
        safe = xs & ~r.stronger[hw] if hw >= 0 else 0   # hw is not x's
        if s.leader == x and (mine & ~r.lead_restricted):
            safe &= ~r.lead_restricted
        found = safe != 0
        # x plays the one of most penalty (the strongest of those: it marks
        # the fewest cards)
        c = -1
        pen = -1
        while safe:
            o = ks_ctz(safe)
            safe &= safe - 1
            p = -r.card_points[o] if r.card_points[o] < 0 else 0
            if p > pen or (p == pen and beats(r, o, c)):
                c = o
                pen = p
        if s.leader == x:
            if found and pen >= need:
                rel[0] |= (<u64>1) << c
                esc[0] = pen if need > 0 else 0
                return True
        elif not found:
            return False
        else:
            m |= (<u64>1) << c
            if pen < least:
                least = pen
    if s.leader == x or least < need:
        return False
    esc[0] = 0
    if need > 0:
        esc[0] = least
        if dc >= 0:
            m |= (<u64>1) << dc
    rel[0] |= m
    return True


cdef int tricks_escaped(Solver* s, int x, int nt, int need, u64* rel) noexcept nogil:
    # How many of the next tricks (at most nt) can seat x, alone against the
    # others, make sure it wins none of (no trump live)?  Then it escapes at
    # least those tricks' points.  A suit is k-safe when some other seat h
    # holds k cards or more of it, all beating a_k, x's min(k, length)-th
    # weakest card of the suit: over k tricks h keeps one of them at least
    # (it plays or discards one card a trick), and x, playing its weakest card
    # of the suit led each time and discarding any card when void (one it
    # must discard, if it holds one), has parted with fewer than k cards
    # before each of them, so its weakest card of every suit is a_k or
    # weaker, below h's cards.  The answer is the largest k for which every
    # suit another seat holds is k-safe or void in x's hand (any of them may
    # lead after the first trick); on lead, x also needs a suit at least
    # 1-safe whose weakest card it may lead (it starts with that card).  0 if
    # none, and 0 as soon as the answer is sure to be below need (the fewest
    # tricks the caller can use: most positions fail, and the suits' counts
    # then stop at the first suit that fails).
    # rel gets x's weakest card of each suit the answer looks at: every card
    # of the suit from it up keeps its owner, and so do the counts that make
    # up k (x's cards below h's weakest card, h's length).
    cdef Rules* r = &s.r
    cdef u64 mine = s.hands[x], xs, hs, sb, others = 0, m = 0
    cdef int o, su, k = nt, ks, kh, j, a1, nx
    cdef bint lead_found = False
    if s.np != 0:
        return 0
    if r.trump >= 0 and ((s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]) & suit_bits(r.trump)):
        return 0
    for o in range(r.n):
        if o != x:
            others |= s.hands[o]
    for su in range(4):
        sb = suit_bits(su)
        xs = mine & sb
        if xs == 0 or (others & sb) == 0:
            continue
        ks = 0
        nx = ks_popcount(xs)
        for o in range(r.n):
            if o == x:
                continue
            hs = s.hands[o] & sb
            if hs == 0:
                continue
            # j: x's cards of the suit below h's weakest card
            j = ks_popcount(xs & ~r.stronger[weakest(r, hs)])
            kh = ks_popcount(hs)
            if j < nx and j < kh:
                kh = j
            if kh > ks:
                ks = kh
        if ks < need:
            return 0
        a1 = weakest(r, xs)
        if s.leader == x and not lead_found and (
                not ((r.lead_restricted >> a1) & 1) or (mine & ~r.lead_restricted) == 0):
            lead_found = True
        if ks < k:
            k = ks
        m |= (<u64>1) << a1
    if s.leader == x and not lead_found:
        return 0
    rel[0] |= m
    return k


cdef bint second_hand_tricks(Solver* s, int beta, int total_ub, int* v, u64* rel) noexcept nogil:
    # The second card of a trick, in a trick game from here.  The strongest
    # card c left in the led suit wins the trick when its holder H plays it and
    # nobody can ruff (no trump in play, or every seat after the leader still
    # follows suit): when H is the seat P to play, or a teammate of P playing
    # after it, P's team wins this trick and H leads the next.  So does P when
    # it is void in a side suit led and ruffs (with its weakest trump, P then
    # being H) while every later seat follows: nobody overruffs, whatever the
    # ranks (nothing is marked for that trick).  Then H counts quick tricks
    # (quick_tricks, crossing to a teammate included) on the hands after this
    # trick: P, if it is not H, and every later seat play
    # their weakest card of the suit (the teammates by choice; for the
    # opponents it is the worst case, their top cards and lengths being what
    # the counts look at).  Without trumps a seat void in the suit (P, or a
    # later seat) discards, and its hand is taken as it is now: one card fewer
    # never lowers the counts of H's own top cards (cashable), nor, when it is
    # an opponent's, any quick_tricks count; with P or a later teammate void,
    # H counts its own top cards only.  With trumps every later seat must hold
    # the suit, and so must P unless it ruffs.  Does the current trick plus
    # those tricks settle the test against beta?  If so, v = the bound and rel
    # gets c (the ruffing trump: nothing) and the quick tricks' marks.
    cdef Rules* r = &s.r
    cdef int P = seat_to_move(s), su = s.trick[0] >> 4, c, ti = s.trick_index, nt, need, q = 0, o, x2
    cdef int team = s.side if (s.side >> P) & 1 else ((1 << r.n) - 1) & ~s.side
    cdef int H = -1, L0
    cdef int k[4]
    cdef u64 m[4]
    cdef u64 low
    cdef int omx
    cdef u64 live = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3], x, mark
    cdef u64 saved[MAX_SEATS]
    cdef bint ok = True
    cdef bint trumps_live = r.trump >= 0 and (live & suit_bits(r.trump)) != 0
    x = live & suit_bits(su)
    if trumps_live and su != r.trump and (x & s.hands[P]) == 0 and (s.hands[P] & suit_bits(r.trump)) and (
            s.hands[P] & r.discard_forced) == 0:
        # P ruffs with its weakest trump; when every later seat follows suit
        # nobody overruffs, so P wins the trick whatever the ranks
        c = weakest(r, s.hands[P] & suit_bits(r.trump))
        H = P
        mark = 0
        for o in range(s.np + 1, r.n):
            if (s.hands[seat_plus(s.leader, o, r.n)] & suit_bits(su)) == 0:
                return False
    else:
        if x == 0 or ((x & s.hands[P]) == 0 and trumps_live):
            return False
        c = strongest(r, x)
        if not beats(r, c, s.trick[0]):
            return False
        for o in range(s.np, r.n):
            x2 = seat_plus(s.leader, o, r.n)
            if (s.hands[x2] >> c) & 1:
                H = x2
            elif trumps_live and (s.hands[x2] & suit_bits(su)) == 0:
                return False             # it could ruff (or discard a card we cannot tell)
        if H < 0 or not ((team >> H) & 1):
            return False
        mark = (<u64>1) << c
    nt = ks_popcount(s.hands[P])
    need = tricks_needed(r, ti, 1, nt, team == s.side, beta, total_ub, v)
    if need > nt:
        return False
    if need > 1:
        for o in range(MAX_SEATS):
            saved[o] = s.hands[o]
        s.hands[H] &= ~((<u64>1) << c)
        for o in range(s.np, r.n):
            x2 = seat_plus(s.leader, o, r.n)
            if x2 == H:
                continue
            x = s.hands[x2] & suit_bits(su)
            if x:
                s.hands[x2] &= ~((<u64>1) << weakest(r, x))
            elif (team >> x2) & 1:
                ok = False           # a teammate's discard, not chosen here
        if ok:
            L0 = s.leader
            s.leader = H
            q = quick_tricks(s, need - 1, rel)
            s.leader = L0
        elif not (s.hands[H] & r.lead_restricted):
            # H's own top cards only (cashable): a teammate's discard, whatever
            # it is, never lowers them without trumps
            for x2 in range(4):
                m[x2] = 0
                k[x2] = cashable(s, H, team, x2, &m[x2], &low, &omx)
                q += k[x2]
            if q >= need - 1:
                cash_suits(k, m, -1, need - 1, rel)
        for o in range(MAX_SEATS):
            s.hands[o] = saved[o]
        if q < need - 1:
            return False
    rel[0] |= mark
    return True
