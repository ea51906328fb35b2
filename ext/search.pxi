# The search (included by _core.pyx): one fail-soft zero-window alpha-beta.
#
# search(s, beta) returns v with: v >= beta  => the side can win at least v;
#                                 v <  beta  => the side wins at most v,
# counting the points from the current position (the current trick included)
# to the end.  The side's seats maximise, every other seat minimises.
#
# rel receives the cards whose ranks the returned bound depends on (see
# tt.pxi): the winner of every trick of the searched tree that beat another
# card of its suit, plus what the cut-offs used.  At a node that cuts off it
# is the cutting child's set; otherwise the union over the children.

from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

cdef extern from "Python.h":
    int PyErr_CheckSignals()

cdef int ABORT_ALL = 0             # set by abort_searches(): every search in the process stops

cdef extern from *:
    """
    /* The debug move-order memo (Search.order_oracle, benchmarks/bench_ordering.py)
       is compiled in only when asked for (KINGSOLVE_ORDER_ORACLE=1 at build time):
       the product's innermost loop does not consult it. */
    #ifndef KS_ORDER_ORACLE
    #define KS_ORDER_ORACLE 0
    #endif
    """
    const bint KS_ORDER_ORACLE


cdef inline double monotonic_now() noexcept nogil:
    # seconds on the clock of Python's time.monotonic() (Linux, macOS)
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef void poll_stop(Solver* s) noexcept nogil:
    # Every POLL_NODES nodes: has the user pressed Ctrl-C (the Python signal
    # handler runs here, in the main thread, and leaves KeyboardInterrupt
    # pending for the caller to raise), were all searches told to stop, or
    # has the query's time limit (s.deadline) passed?  Either way s.stop makes
    # the search unwind without storing anything: poll_in stays 0, so that
    # every node asks here again and returns.  A time limit is a stop like
    # Ctrl-C: the driver keeps what its finished probes proved.
    if not s.stop:
        if ABORT_ALL:
            s.stop = 1
        elif s.deadline > 0 and monotonic_now() >= s.deadline:
            s.stop = 1
            s.timed_out = 1
        else:
            with gil:
                if PyErr_CheckSignals() != 0:
                    s.stop = 1
    s.poll_in = 0 if s.stop else POLL_NODES


cdef inline void trick_result(Solver* s, int* trick, int* winner, int* pts, u64* mark,
                              int* cpos, int* cneg) noexcept nogil:
    # Winner seat and points of a complete trick led by s.leader; mark = the
    # winning card if it beat another card of its suit (its rank decided), else 0;
    # cpos, cneg = the sums of its cards' positive and negative card_points.
    cdef Rules* r = &s.r
    cdef int w = 0, k, p, dp = 0, dn = 0
    cdef u64 cards = 0
    for k in range(r.n):
        p = r.card_points[trick[k]]
        if p > 0:
            dp += p
        else:
            dn += p
        cards |= (<u64>1) << trick[k]
        if k > 0 and beats(r, trick[k], trick[w]):
            w = k
    winner[0] = seat_plus(s.leader, w, r.n)
    pts[0] = r.trick_points[s.trick_index] + dp + dn
    cpos[0] = dp
    cneg[0] = dn
    # by rank: another card of the winner's suit is in the trick
    cards &= suit_bits(trick[w] >> 4)
    mark[0] = ((<u64>1) << trick[w]) if cards & (cards - 1) else 0


cdef int last_trick(Solver* s, u64* rel) noexcept nogil:
    # Everybody holds one card: the value is forced.
    cdef int k, seat, w, p, cpos, cneg
    cdef int n = s.r.n
    cdef int trick[MAX_SEATS]
    for k in range(n):
        seat = seat_plus(s.leader, k, n)
        trick[k] = ks_ctz(s.hands[seat])
    trick_result(s, trick, &w, &p, rel, &cpos, &cneg)
    s.nodes += n
    return p if (s.side >> w) & 1 else 0


cdef inline int min_trick_points(Rules* r, int ti, int nt) noexcept nogil:
    cdef int k, m = r.trick_points[ti]
    for k in range(ti + 1, ti + nt):
        if r.trick_points[k] < m:
            m = r.trick_points[k]
    return m


cdef inline bint sure_tricks_cut(int k_side, int k_opp, int mt, int beta, int total_ub,
                                 int* v, int* need) noexcept nogil:
    # The side (k_side) or the other team (k_opp) surely wins that many tricks,
    # each worth at least mt > 0: does that settle the test against beta?  If
    # so, v = the bound and need = the sure tricks it rests on.
    if k_side and k_side * mt >= beta:
        need[0] = (beta + mt - 1) // mt if beta > 0 else 1
        v[0] = need[0] * mt
        return True
    if k_opp and total_ub - k_opp * mt < beta:
        need[0] = (total_ub - beta) // mt + 1
        v[0] = total_ub - need[0] * mt
        return True
    return False


cdef inline int tricks_to_settle(Rules* r, int ti, int nt, int k, bint won, int bound, int beta,
                                 int* v) noexcept nogil:
    # A team is sure to win k of the nt tricks from ti on.  won: it is the side,
    # and the side's upper bound `bound` (point_bounds, every trick at its best)
    # falls by the penalties of the tricks it must take beyond the positive
    # ones, the least ones first.  Otherwise the side's lower bound `bound`
    # rises by the penalties of the tricks the other team takes beyond the
    # ones costing nothing, the least ones first.  (Card points are bounded on
    # their own: any trick may hold them.)  Returns the fewest of the k tricks
    # that settle the test against beta, with v the bound they give; or 0.
    cdef int tp[MAX_TRICKS]
    cdef int m = 0, i, j, x, free = 0, total = 0
    for i in range(ti, ti + nt):
        x = r.trick_points[i]
        if x > 0 or (x == 0 and not won):
            free += 1
        else:
            # insert -x (a penalty, >= 0) in ascending order
            j = m
            while j > 0 and tp[j - 1] > -x:
                tp[j] = tp[j - 1]
                j -= 1
            tp[j] = -x
            m += 1
    for i in range(1, k + 1):
        if i > free and i - free <= m:
            total += tp[i - free - 1]
        v[0] = bound - total if won else bound + total
        if (v[0] < beta) if won else (v[0] >= beta):
            return i
    return 0


cdef void count_lens(Solver* s) noexcept nogil:
    # s.lens from the hands (after they were set other than by play_card / undo_card).
    cdef int i, su
    s.lens = 0
    for i in range(MAX_SEATS):
        for su in range(4):
            s.lens |= (<u64>ks_popcount(s.hands[i] & suit_bits(su))) << (16 * i + 4 * su)


cdef void trick_prefix(Solver* s) noexcept nogil:
    # s.twin / tcards / tpos / tneg of the current trick from its cards (after
    # they were set other than by play_card).
    cdef int k, c, p, w = 0, ti = s.trick_index
    cdef u64 cm = 0
    cdef int cp = 0, cn = 0
    for k in range(s.np):
        c = s.trick[k]
        p = s.r.card_points[c]
        if p > 0:
            cp += p
        else:
            cn += p
        cm |= (<u64>1) << c
        if k > 0 and beats(&s.r, c, s.trick[w]):
            w = k
        s.twin[ti][k] = w
        s.tcards[ti][k] = cm
        s.tpos[ti][k] = cp
        s.tneg[ti][k] = cn


cdef inline int play_card(Solver* s, int seat, int c, int* gain, u64* mark) noexcept nogil:
    # Play c for `seat`, the seat to move; completes the trick when it is the last card.
    # Returns the previous leader (for undo_card); gain = side's points if the trick
    # closed, mark = its winning card if that won by rank (else 0).
    cdef Rules* r = &s.r
    cdef int n = r.n, k = s.np, ti = s.trick_index
    cdef int old_leader = s.leader, w, pts, p = r.card_points[c], cp, cn
    cdef u64 bit = (<u64>1) << c, cm
    s.hands[seat] &= ~bit
    s.lens -= (<u64>1) << (16 * seat + 4 * (c >> 4))
    s.trick[k] = c
    if k == 0:
        w = 0
        cm = bit
        cp = 0
        cn = 0
    else:
        w = s.twin[ti][k - 1]
        if beats(r, c, s.trick[w]):
            w = k
        cm = s.tcards[ti][k - 1] | bit
        cp = s.tpos[ti][k - 1]
        cn = s.tneg[ti][k - 1]
    if p > 0:
        cp += p
    else:
        cn += p
    s.twin[ti][k] = w
    s.tcards[ti][k] = cm
    s.tpos[ti][k] = cp
    s.tneg[ti][k] = cn
    gain[0] = 0
    mark[0] = 0
    if k + 1 == n:
        # its cards leave the live points (undo_card puts them back)
        s.live_pos -= cp
        s.live_neg -= cn
        pts = r.trick_points[ti] + cp + cn
        # the winner won by rank: another card of its suit is in the trick
        cm &= suit_bits(s.trick[w] >> 4)
        if cm & (cm - 1):
            mark[0] = (<u64>1) << s.trick[w]
        w = seat_plus(old_leader, w, n)
        gain[0] = pts if (s.side >> w) & 1 else 0
        s.leader = w
        s.np = 0
        s.trick_index = ti + 1
        s.trick = s.tstack[ti + 1]
    else:
        s.np = k + 1
    return old_leader


cdef inline void undo_card(Solver* s, int seat, int c, int old_leader) noexcept nogil:
    # Take back the card c that `seat` played (play_card returned old_leader).
    if s.np == 0:
        s.trick_index -= 1
        s.trick = s.tstack[s.trick_index]
        s.np = s.r.n - 1
        s.leader = old_leader
        s.live_pos += s.tpos[s.trick_index][s.np]
        s.live_neg += s.tneg[s.trick_index][s.np]
    else:
        s.np -= 1
    s.hands[seat] |= (<u64>1) << c
    s.lens += (<u64>1) << (16 * seat + 4 * (c >> 4))


cdef void copy_position(Solver* d, Solver* s) noexcept nogil:
    # d takes s's position (hands, leader, trick so far) to answer a query of
    # s's in d's contract, the duck or trick game (no card scores: no live
    # points).
    cdef int i
    for i in range(MAX_SEATS):
        d.hands[i] = s.hands[i]
    d.lens = s.lens
    d.leader = s.leader
    d.np = s.np
    d.trick_index = s.trick_index
    d.trick = d.tstack[d.trick_index]
    for i in range(s.np):
        d.trick[i] = s.trick[i]
    trick_prefix(d)
    d.live_pos = 0
    d.live_neg = 0


cdef int duck_search(Solver* s, int beta, u64* rel) noexcept nogil:
    # The duck solver's fail-soft value of this position (a trick's start)
    # against beta (its nodes counted in s's, and in s's duck statistics).
    cdef Solver* d = s.duck
    cdef int v
    cdef int64_t n0 = d.nodes
    copy_position(d, s)
    v = search(d, beta, rel)
    if d.stop:
        s.stop = 1
        s.timed_out |= d.timed_out
        s.poll_in = 0
    s.nodes += d.nodes - n0
    s.duck_at[v >= beta][0] += 1
    s.duck_at[v >= beta][1] += d.nodes - n0
    return v


cdef int wins_a_trick(Solver* s, u64* rel) noexcept nogil:
    # A lone seat in a positive game (no point left is negative): how many
    # more tricks can it surely win, asked of s.duck, here the trick solver
    # (the same deal where every trick is worth 1 and nothing else counts),
    # against 1: a fail-soft count, >= 1 when it can win one, else 0, when it
    # cannot win another trick and so takes no point more.  Its table is kept
    # like the duck table, and its rel holds here for the same reason (see
    # duck_test).
    return duck_search(s, 1, rel)


cdef bint duck_test(Solver* s, u64* rel) noexcept nogil:
    # Can the side's one seat keep from winning any trick from here?  Asked of
    # s.duck, a solver of the same deal where every trick costs 1 and nothing
    # else counts: its value is >= 0 exactly when the seat can.  Its own table
    # answers that yes/no for every beta, and its signatures leave out the
    # points that split this table's (a suit holding a penalty card).
    # Its rel holds here too: the duck classes of the cards (lead and discard
    # restrictions only) follow from this table's classes, so every position
    # this one's signature and rel cover is covered by the duck entry's.
    return duck_search(s, 0, rel) >= 0


cdef inline void sort_down(int* a, int n) noexcept nogil:
    # a[0..n) in decreasing order (n is small).
    cdef int i, j, x
    for i in range(1, n):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] < x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


cdef bint duck_graded(Solver* s, int beta, int ncards, int* v, u64* rel) noexcept nogil:
    # A lone seat that can hold itself to w more tricks loses at most what w
    # tricks can hold: the w most negative trick points left, and from each
    # seat its w cards of most penalty (one card a seat a trick).  w: the most
    # tricks for which that still reaches beta, asked of the duck solver (see
    # duck_test; the penalties counted are fixed by the signature's classes and
    # counts, so its rel holds for the bound too).  v = minus that loss, for
    # the tricks the seat is held to.
    cdef Rules* r = &s.r
    cdef int ti = s.trick_index, i, j, p, c, w, res
    cdef int tp[MAX_TRICKS]
    cdef int pen[MAX_SEATS][MAX_TRICKS]
    cdef int npen[MAX_SEATS]
    cdef int loss[MAX_TRICKS + 1]
    cdef u64 pc
    for i in range(ncards):
        tp[i] = -r.trick_points[ti + i] if r.trick_points[ti + i] < 0 else 0
    sort_down(tp, ncards)
    for p in range(r.n):
        pc = s.hands[p] & r.point_cards
        j = 0
        while pc:
            c = ks_ctz(pc)
            pc &= pc - 1
            if r.card_points[c] < 0:
                pen[p][j] = -r.card_points[c]
                j += 1
        sort_down(pen[p], j)
        npen[p] = j
    loss[0] = 0
    w = 0
    while w + 1 < ncards:
        loss[w + 1] = loss[w] + tp[w]
        for p in range(r.n):
            if w < npen[p]:
                loss[w + 1] += pen[p][w]
        if -loss[w + 1] < beta:
            break
        w += 1
    if w == 0:
        return False               # (taking no trick more is duck_test's)
    res = duck_search(s, -w, rel)
    if res < -w:
        return False
    s.graded_cuts += 1
    v[0] = -loss[-res]
    return True


cdef bint trump_under_top(Solver* s, int* k_side, int* k_opp, u64* marks) noexcept nogil:
    # The team X opposite the holder of the top trump T1 wins a trick (DDS's
    # later tricks with trumps) when it holds the second-best trump T2 and:
    # (a) T2's holder sits right after T1's, is not on lead and holds another
    # trump; or (b) X also holds the third-best trump T3, in T2's hand or in a
    # hand holding, with T2's, three trumps or more.  marks: T1, T2 (and T3
    # for (b)).
    # (a) Until T2's holder wins a trick it never leads, so T1's holder plays
    # before it in every trick: when T1 falls, T2's holder plays another card
    # (it has one) and T2, now the top trump, wins a trick later (its holder
    # keeps it to the end if need be); a trick T2 can join before that (a
    # trump lead, or a ruff when void) T2 wins, only T1 beating it.  (On lead
    # with T2 and one small trump, T1 playing last captures T2: a test shows
    # it.)  No trump may be lead-restricted or discard-forced.
    # (b) The first trick X plays T2 or T3 to decides, if X plays exactly one
    # of them there: T1 in it beats that card, and the other one is then the
    # top trump and wins a trick when played; T1 gone before, or not in it,
    # the card is the strongest trump of its trick (T2 under T1 alone, T3
    # under T1 and T2, which X still holds) and wins it.  One seat plays one
    # card a trick.  Two seats: X plays no trump from them until one must
    # play a trump (a trump lead, a hand of trumps only, a trump it must play
    # when void); then one of them plays its top card of the two and the
    # other, if it must play a trump too, a smaller one -- one of them has
    # one, none of their three trumps being gone yet.  (Rules only ever force
    # some trump, never a given one.)
    cdef Rules* r = &s.r
    cdef u64 x, tr
    cdef int o, t1, t2, t3, h1 = -1, h2 = -1, h3 = -1
    cdef bint behind
    k_side[0] = 0
    k_opp[0] = 0
    if r.trump < 0:
        return False
    tr = suit_bits(r.trump)
    x = (s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]) & tr
    if ks_popcount(x) < 3:
        return False
    t1 = strongest(r, x)
    x &= ~((<u64>1) << t1)
    t2 = strongest(r, x)
    x &= ~((<u64>1) << t2)
    t3 = strongest(r, x)
    for o in range(r.n):
        if (s.hands[o] >> t1) & 1:
            h1 = o
        if (s.hands[o] >> t2) & 1:
            h2 = o
        if (s.hands[o] >> t3) & 1:
            h3 = o
    if ((s.side >> h1) & 1) == ((s.side >> h2) & 1):
        return False
    marks[0] = ((<u64>1) << t1) | ((<u64>1) << t2)
    behind = (h2 != s.leader and h2 == seat_plus(h1, 1, r.n) and ks_popcount(s.hands[h2] & tr) >= 2
              and ((r.discard_forced | r.lead_restricted) & tr) == 0)
    if not behind:
        if ((s.side >> h3) & 1) != ((s.side >> h2) & 1) or (
                h3 != h2 and ks_popcount((s.hands[h2] | s.hands[h3]) & tr) < 3):
            return False
        marks[0] |= (<u64>1) << t3
    if (s.side >> h2) & 1:
        k_side[0] = 1
    else:
        k_opp[0] = 1
    return True


cdef bint later_tricks(Solver* s, int beta, int total_ub, int mt, int nt, int* v,
                       u64* rel) noexcept nogil:
    # DDS's "later tricks" in a trick game without trumps in play: a team of
    # one or two seats on lead cannot win all nt tricks left when phi, the
    # sum over the suits whose top card it holds of its longest holding in
    # the suit, is below nt.  Asked only when that settles the test: the
    # leader's team is the side and needs every trick, or it is the other
    # team and the side needs just one.
    # Why (induction on nt; the other team B keeps its top cards): a lead of
    # a suit B tops loses to B's top card, which must follow.  A lead of a
    # suit the team tops takes one card from each of its seats holding the
    # suit, so phi drops by one; no suit B tops becomes the team's while B
    # discards other cards than its tops, and phi < nt holds again.  B must
    # discard a top only when one of its seats holds nothing but tops of
    # other suits, one card each: then nt <= 3, and an exhaustive check of
    # every such ending of two and three tricks (3 and 4 seats, every team,
    # every seat of B, by rank order) found the team always loses a trick --
    # except a team of three seats against one, which can let the seat
    # after the squeezed one choose the winner (so that case is left out).
    # Discard-forced cards would take B's choice of discard: none may be live.
    # rel: the top card of each suit B tops where other seats hold the suit
    # (every position of the partition has phi no larger).
    cdef Rules* r = &s.r
    cdef int n = r.n, L = s.leader, o, su, h, k, m, phi = 0
    cdef bint lead_side = (s.side >> L) & 1
    cdef int team = s.side if lead_side else ((1 << n) - 1) & ~s.side
    cdef u64 live = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3], x, mk = 0
    if lead_side:
        if total_ub - mt >= beta:
            return False
    elif mt < beta:
        return False
    if ks_popcount(team) > 2:
        return False
    if r.trump >= 0 and (live & suit_bits(r.trump)):
        return False
    if live & r.discard_forced:
        return False
    for su in range(4):
        x = live & suit_bits(su)
        if x == 0:
            continue
        k = strongest(r, x)
        h = 0
        for o in range(n):
            if (s.hands[o] >> k) & 1:
                h = o
        if (team >> h) & 1:
            m = 0
            for o in range(n):
                if (team >> o) & 1 and ks_popcount(s.hands[o] & x) > m:
                    m = ks_popcount(s.hands[o] & x)
            phi += m
            if phi >= nt:
                return False
        elif x & ~s.hands[h]:
            mk |= (<u64>1) << k
    rel[0] |= mk
    v[0] = total_ub - mt if lead_side else mt
    return True


cdef inline u64 weaker_equivalents(Rules* r, int c, u64 crel, u64 live) noexcept nogil:
    # Cards that would do exactly as well as c, just searched without a
    # cut-off (DDS's "lowest winning rank" move skipping): when c is weaker
    # than every card of its suit that crel (what the result rested on) names,
    # the result holds for every position with the same owners of the cards
    # of the suit from the weakest named one up and the same lengths (tt.pxi).
    # Playing instead another card of the same hand, suit and class weaker
    # than that card gives such a position: the two cards trade places.  So
    # those cards need no search.  The classes of the suit's live cards in
    # order are part of a table signature, so the trade must keep them: only
    # cards with no live card of another class between them and c qualify.
    cdef int su = c >> 4
    cdef u64 sb = suit_bits(su), rs = crel & sb, low, cl, other, x, run
    if rs == 0:
        low = sb
    elif r.inverted:
        low = sb & ~((((<u64>1) << ks_msb(rs)) << 1) - 1)
    else:
        low = sb & (((<u64>1) << ks_ctz(rs)) - 1)
    if not ((low >> c) & 1):
        return 0
    cl = r.class_mask[r.card_class[c]]
    other = live & sb & ~cl
    run = sb
    x = other & (((<u64>1) << c) - 1)
    if x:
        run &= ~((((<u64>1) << ks_msb(x)) << 1) - 1)
    x = other & ~((((<u64>1) << c) << 1) - 1)
    if x:
        run &= ((<u64>1) << ks_ctz(x)) - 1
    return low & cl & run


cdef u64 order_hash(Solver* s) noexcept nogil:
    # Debug (order_oracle): a hash of the exact position, in mid-trick too
    # (every hand, the leader, the trick's cards in order); never 0.
    cdef u64 h = s.hands[0] * <u64>0x9E3779B97F4A7C15ULL
    cdef int k
    h ^= h >> 29
    h += s.hands[1] * <u64>0xC2B2AE3D27D4EB4FULL
    h ^= h >> 31
    h += s.hands[2] * <u64>0x165667B19E3779F9ULL
    h ^= h >> 29
    h += s.hands[3] * <u64>0xD6E8FEB86659FD93ULL
    for k in range(s.np):
        h += (<u64>(s.trick[k] + 1)) << (8 * k)
    h += (<u64>s.leader) << 40
    h ^= h >> 31
    h *= <u64>0xBF58476D1CE4E5B9ULL
    h ^= h >> 29
    return h | 1


cdef int search(Solver* s, int beta, u64* rel) noexcept nogil:
    cdef Rules* r = &s.r
    cdef int n = r.n
    cdef int np = s.np
    cdef int seat = seat_to_move(s)
    cdef bint maximize = (s.side >> seat) & 1
    cdef bint trick_game, no_loss
    cdef int fed
    cdef int reps[MAX_MOVES]
    cdef u64 groups[MAX_MOVES]
    cdef int nm, i, c, v, best, best_card = -1, first = -1
    cdef int lb, ub, gain, old_leader, ncards = 0, total_ub, k_side, k_opp, mt, need, ti
    cdef u64 tops[MAX_TRICKS]
    cdef u64 legal, live, crel, mark, acc = 0, drel, skip = 0, held, pc, dom_rel = 0
    cdef TTKey key
    cdef u64 oh = 0
    rel[0] = 0
    if np == 0:
        if s.hands[seat] == 0:
            return 0
        ncards = ks_popcount(s.hands[seat])
        if ncards == 1:
            return last_trick(s, rel)
        point_bounds(s, &lb, &ub)
        total_ub = ub
        if lb >= beta:
            return lb
        if ub < beta:
            return ub
        no_loss = r.tp_neg_count[s.trick_index + ncards] == r.tp_neg_count[s.trick_index] and (
            s.live_neg == 0)
        held = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
        trick_game = no_loss and (held & r.point_cards) == 0
        if not trick_game:
            # one seat surely wins every trick left: its team gets every point
            # left (in a trick game the quick tricks find this and more)
            i = seat_takes_all(s, held, rel, &fed, &drel)
            if i >= 0:
                return lb + ub if (s.side >> i) & 1 else 0
            if fed >= 0 and (lb == 0 or ub == 0):
                # or the leader may make seat `fed` win every trick left, by leading
                # a suit it holds; when the points left all have one sign that
                # is the leader's team's best outcome: the value is exact
                if (((s.side >> fed) & 1) == ((s.side >> s.leader) & 1)) == (lb == 0):
                    rel[0] = drel
                    return lb + ub if (s.side >> fed) & 1 else 0
        if s.single >= 0 and sure_ducker(s, s.single, beta > 0, rel):
            # the side is one seat that can keep from winning another trick
            # (its points are >= 0 >= beta), or, when beta > 0, that cannot win
            # one (its points are 0 < beta)
            return 0
        if s.single >= 0 and (r.trick_points[s.trick_index] < 0 or s.live_neg < 0):
            # the side is one seat that need not win this trick: it escapes at
            # least the trick's own points and the penalty of its own card in it
            # (every other point it may take is counted in lb at its worst)
            v = lb - (r.trick_points[s.trick_index] if r.trick_points[s.trick_index] < 0 else 0)
            if v < beta and v - s.live_neg >= beta:
                # the most it can escape is its card of most penalty
                pc = s.hands[s.single] & r.point_cards
                i = 0
                while pc:
                    c = ks_ctz(pc)
                    pc &= pc - 1
                    if -r.card_points[c] > i:
                        i = -r.card_points[c]
                if v + i >= beta and loses_this_trick(s, s.single, beta - v, &i, rel):
                    return v + i
            elif v >= beta and loses_this_trick(s, s.single, 0, &i, rel):
                return v
        tt_make_key(s, held, &key)
        if tt_lookup(s, &key, beta, &v, rel, &first):
            return v
        if (s.single >= 0 and ncards >= 2
                and lb - (r.tp_neg[s.trick_index + ncards] - r.tp_neg[s.trick_index]) >= beta):
            # The lone seat need not win the next k tricks either (escaping
            # them all could settle the test; tricks_escaped): need = the
            # fewest that do, two at least (one is loses_this_trick's).
            # Asked only of positions the table does not settle: before the
            # table nearly all its calls failed, and after it the same nodes
            # cost fewer instructions on ru4 and king52 (without it at all:
            # cheaper on ru4, but more king52 nodes; benchmarks/README.md)
            ti = s.trick_index
            need = 2
            while lb - (r.tp_neg[ti + need] - r.tp_neg[ti]) < beta:
                need += 1
            drel = 0
            i = tricks_escaped(s, s.single, ncards, need, &drel)
            if i >= need:
                rel[0] = drel
                return lb - (r.tp_neg[ti + i] - r.tp_neg[ti])
        if s.duck != NULL and s.single >= 0 and beta <= 0 and ncards <= s.duck_cards:
            if duck_test(s, &drel):
                # the lone seat can duck every trick: its points are >= 0 >= beta.
                # In long deals the bound goes to this table too, where the next
                # visit finds it without asking the duck solver again (in
                # king52 far fewer duck tests, and with the table sweep fewer
                # nodes; in short deals the entries crowd out better ones: more
                # ru4 nodes; benchmarks/README.md)
                rel[0] = drel
                if s.use_exact:
                    tt_store(s, &key, 0, VAL_INF, -1, drel, ncards)
                return 0
        if s.duck != NULL and s.single >= 0 and 2 <= ncards <= s.duck_graded:
            # or it can afford a trick or two more, when tricks cost points too
            # (fewer erajlash nodes on ru4 tables, benchmarks/README.md; not in
            # no-boys or no-girls, where the duck tests cost more nodes than
            # they saved)
            if duck_graded(s, beta, ncards, &v, &drel):
                rel[0] = drel
                return v
        if not no_loss and r.trump >= 0 and r.tp_neg_count[s.trick_index + ncards] != r.tp_neg_count[s.trick_index]:
            # A penalty game with trumps: a team sure to win k tricks with its
            # trumps (trump_matching) takes k of the penalties at least
            trump_matchings(s, &k_side, &k_opp, &i, &fed, 1, 1)
            ti = s.trick_index
            need = tricks_to_settle(r, ti, ncards, k_side, True, ub, beta, &v) if k_side else 0
            if need:
                trump_matching(s, i, need, rel)
                return v
            need = tricks_to_settle(r, ti, ncards, k_opp, False, lb, beta, &v) if k_opp else 0
            if need:
                trump_matching(s, fed, need, rel)
                return v
        if no_loss:
            # No point left is negative (a trick game from here on, or one whose
            # cards only add points: plus-erajlash).  The leader's team surely
            # wins the next q tricks (cashing top cards); the holder of the top
            # trumps surely wins one trick with each.  A team's sure tricks bring
            # it at least their trick points and take them from the other team
            # (their cards can only add to that).  Each bound is tried on its
            # own, asking for just the tricks the cut-off needs, so that rel
            # names only the cards those tricks rest on.
            ti = s.trick_index
            need = tricks_needed(r, ti, 0, ncards, (s.side >> s.leader) & 1, beta, total_ub, &v)
            if need <= ncards and quick_tricks(s, need, rel) >= need:
                return v
            mt = min_trick_points(r, ti, ncards)
            if mt > 0:
                # sure trump tricks, first from lengths alone (no mark), then
                # from the top trumps (marking those the count needs)
                trump_lengths(s, &k_side, &k_opp)
                if sure_tricks_cut(k_side, k_opp, mt, beta, total_ub, &v, &need):
                    rel[0] = 0
                    return v
                if (k_side or k_opp) and ruff_beside_length(s):
                    if (s.side >> s.leader) & 1:
                        k_side += 1
                    else:
                        k_opp += 1
                    if sure_tricks_cut(k_side, k_opp, mt, beta, total_ub, &v, &need):
                        rel[0] = 0
                        return v
                trump_winners(s, &k_side, &k_opp, tops)
                if sure_tricks_cut(k_side, k_opp, mt, beta, total_ub, &v, &need):
                    rel[0] = tops[need - 1]
                    return v
                trump_matchings(s, &k_side, &k_opp, &i, &fed, (beta + mt - 1) // mt if beta > 0 else 1,
                                (total_ub - beta) // mt + 1 if total_ub >= beta else 1)
                if sure_tricks_cut(k_side, 0, mt, beta, total_ub, &v, &need):
                    trump_matching(s, i, need, rel)
                    return v
                if sure_tricks_cut(0, k_opp, mt, beta, total_ub, &v, &need):
                    trump_matching(s, fed, need, rel)
                    return v
                if trump_under_top(s, &k_side, &k_opp, &drel):
                    if sure_tricks_cut(k_side, k_opp, mt, beta, total_ub, &v, &need):
                        rel[0] = drel
                        return v
                if later_tricks(s, beta, total_ub, mt, ncards, &v, rel):
                    return v
                if s.trick_test and s.duck != NULL and s.single >= 0 and beta <= mt:
                    # the lone seat needs one trick (each worth mt at least, and
                    # no card costs): can it win one?  (fewer plus-erajlash
                    # nodes on ru4 and ua3 tables; asked for two tricks or more
                    # too, or only with five cards a hand or fewer, it saved
                    # less; benchmarks/README.md)
                    i = wins_a_trick(s, &drel)
                    rel[0] = drel
                    return i * mt
            elif s.trick_test and s.duck != NULL and s.single >= 0:
                # a trick left is worth nothing (in plus-boys and plus-girls
                # every one): a lone seat that cannot win another trick takes
                # no point more (fewer plus-boys and plus-girls nodes on ua3
                # and ru4 tables; asked only with six cards a hand or fewer, or
                # four, it saved less; benchmarks/README.md)
                i = wins_a_trick(s, &drel)
                if i == 0:
                    rel[0] = drel
                    return 0
    elif np == 1:
        ncards = ks_popcount(s.hands[seat])
        ti = s.trick_index
        if r.tp_neg_count[ti + ncards] == r.tp_neg_count[ti] and s.live_neg == 0:
            point_bounds(s, &lb, &ub)
            if second_hand_tricks(s, beta, ub, &v, rel):
                return v
    s.nodes += 1
    s.poll_in -= 1
    if s.poll_in <= 0:
        poll_stop(s)
        if s.stop:
            return 0
    legal = legal_plays(s, seat)
    live = live_cards(s)
    nm = move_classes(s, legal, live, reps, groups)
    if nm > 1 and np > 0 and r.n_classes > 1:
        # of touching cards alike but for their points, only the best for the
        # seat's team is searched when the trick's winner is known (always
        # for its last card)
        nm = drop_dominated(s, seat, nm, reps, groups, live, &dom_rel)
    if KS_ORDER_ORACLE and s.order_memo != NULL and nm > 1:
        # debug: the card that cut off here last time goes first (order_oracle)
        oh = order_hash(s)
        if (s.order_memo[oh & s.order_memo_mask] ^ oh) >> 8 == 0:
            first = <int>(s.order_memo[oh & s.order_memo_mask] & 0xFF)
    if nm > 1:
        order_moves(s, seat, nm, reps, groups, first)
    best = -VAL_INF if maximize else VAL_INF
    for i in range(nm):
        c = reps[i]
        if (skip >> c) & 1:
            continue
        old_leader = play_card(s, seat, c, &gain, &mark)
        if np == n - 1:
            s.trick_nodes += 1
        v = gain + search(s, beta - gain, &crel)
        undo_card(s, seat, c, old_leader)
        crel |= mark
        if (crel >> c) & 1:
            # c stood for its whole group: had a weaker member been played, that
            # one would have won by rank in c's place
            crel |= groups[i]
        if maximize:
            if v > best:
                best = v
                best_card = c
            if v >= beta:
                acc = crel
                s.cut_at[np][0 if i == 0 else 1] += 1
                break
        else:
            if v < best:
                best = v
                best_card = c
            if v < beta:
                acc = crel
                s.cut_at[np][0 if i == 0 else 1] += 1
                break
        acc |= crel
        if i + 1 < nm:
            skip |= weaker_equivalents(r, c, crel, live)
    if KS_ORDER_ORACLE and oh and (best >= beta) == maximize:
        # debug (order_oracle): the card that cut off
        s.order_memo[oh & s.order_memo_mask] = (oh & ~(<u64>0xFF)) | <u64>best_card
    if (best >= beta) != maximize:
        # no cut-off: the classes dropped as dominated count too
        acc |= dom_rel
        if nm > 1:
            s.cut_at[np][2] += 1
    if np == 0:
        if best >= beta:
            tt_store(s, &key, best, VAL_INF, best_card if maximize else -1, acc, ncards)
        else:
            tt_store(s, &key, -VAL_INF, best, -1 if maximize else best_card, acc, ncards)
    rel[0] = acc
    return best


cdef inline bint can_reach(Solver* s, int target) noexcept nogil:
    # The zero-window test: can the side win at least `target` from here?
    cdef u64 rel
    return search(s, target, &rel) >= target


cdef bint floor_probe(Solver* s, int beta, int* lo, int* hi) noexcept nogil:
    # solve_value's probe at beta within an eighth of the time left to the
    # query's deadline: narrows [lo, hi] and returns True, or, stopped by its
    # own share of time, leaves them, resumes the query and returns False.
    # (A stop by Ctrl-C or the deadline itself stays: s.stop.)
    cdef double deadline = s.deadline, now = monotonic_now()
    cdef u64 rel
    cdef int v
    s.deadline = now + (deadline - now) / 8
    v = search(s, beta, &rel)
    s.deadline = deadline
    if s.stop:
        if s.timed_out and monotonic_now() < deadline:
            s.stop = 0                 # only the probe's share ran out
            s.timed_out = 0
            s.poll_in = POLL_NODES
        return False
    if v >= beta:
        lo[0] = v
    else:
        hi[0] = v
    return True


cdef int solve_value(Solver* s, int guess, bint use_guess) noexcept nogil:
    # The bound-narrowing driver on fail-soft zero-window searches: [lo, hi]
    # starts from the quick bounds and closes on the exact value.  Without a
    # guess: the first probe is in the middle, then MTD(f) steps (probe next to
    # the last result) while the interval is narrow, bisection while it is wide
    # (penalty contracts with many point values: fewer probes than walking down
    # in steps).  With a guess: the first probe is at the guess, then probes
    # move away from it in doubling steps (GUESS_STEP, 2 GUESS_STEP, ...) until
    # the value is bracketed (measured on erajlash tables guessed from their
    # components: fewer nodes than bisecting; benchmarks/README.md).
    #
    # A lone seat in a penalty game (no point left is positive: hi <= 0) is
    # the exception.  Proving it can hold its losses to beta means finding one
    # line of its own against every reply of three (or two) seats: a large
    # tree.  Proving it cannot means finding one line of the others against
    # its every card: a small tree, and the fail-soft value it returns is a
    # close upper bound (what the others' line costs it), where a success
    # returns little more than beta.  So its driver comes down from above:
    # every probe is at the upper bound, and only the last one, at the value,
    # succeeds.  A guess (erajlash's, the sum of its parts' values) is mostly
    # below the value (on ua3, benchmarks/README.md): a first probe just above it
    # succeeded there, a whole proof spent, before the walk down from the top.
    # The first probe is halfway from the guess up to the upper bound instead;
    # it mostly fails, cheaply, and the walk starts from its value (fewer
    # nodes on guessed ua3 and ru4 erajlash tables, in total and in the
    # median table; three eighths to three quarters of the way measured
    # alike).  Measured on ru4 / ua3 tables, with guesses and without, and on
    # king52 no-hearts: fewer nodes (benchmarks/README.md).
    # (Positive games of a lone seat keep the bisection: there the failures'
    # values are weak, mostly beta - 1, and walking down from the top took
    # many probes; a bisection biased upwards was no better.)
    #
    # s.proven_lo / proven_hi follow [lo, hi] as the finished probes narrow it
    # (a stopped probe proves nothing): after a stop they say what was known.
    cdef int lo, hi, beta, v, step
    cdef bint floor
    cdef double start
    cdef u64 rel
    point_bounds(s, &lo, &hi)
    s.proven_lo = lo
    s.proven_hi = hi
    if s.single >= 0 and hi <= 0:
        beta = guess + 1 + (hi - guess - 1) // 2 if use_guess and guess < hi else hi
        floor = s.deadline > 0
        start = monotonic_now() if floor else 0
        while lo < hi:
            if beta <= lo:
                beta = lo + 1
            if beta > hi:
                beta = hi
            v = search(s, beta, &rel)
            if s.stop:
                break
            if v >= beta:
                lo = v
            else:
                hi = v
            beta = hi
            s.proven_lo = lo
            s.proven_hi = hi
            if floor and lo < hi and v == hi and monotonic_now() - start > (s.deadline - start) / 2:
                # With a time limit the walk down from above leaves the lower
                # bound where the quick bounds put it until its last probe:
                # once half the time is spent, after each failure, a probe a
                # quarter of the way up from the floor, given an eighth of the
                # time left, raises it (or, if it fails, lowers the ceiling).
                # Once one runs out of its time, no more (the rest goes to the
                # walk).  Asked from the start, they cost the walk its first,
                # cheap probes (king52 no-tricks under a short time limit;
                # benchmarks/README.md).
                floor = floor_probe(s, lo + 1 + (hi - lo - 1) // 4, &lo, &hi)
                if s.stop:
                    break
                s.proven_lo = lo
                s.proven_hi = hi
        return lo
    if not use_guess:
        guess = (lo + hi + 1) // 2
    v = guess
    if use_guess and s.single >= 0 and guess < hi:
        # A lone seat's guess (plus-erajlash's, the sum of its parts' values)
        # is mostly below its value here too: the first probe is a sixteenth
        # of the way from it up to the upper bound (fewer nodes on guessed
        # ua3 and ru4 plus-erajlash tables; a fixed 4 to 6 points measured
        # alike, an eighth helped ua3 more and cost ru4; benchmarks/README.md).
        # After a failure its next probe is at the failure's value, the
        # upper bound, as in MTD(f), rather than a doubling step
        # below it: there the value often is, a success ends the search, and
        # the doubling steps down went past it into successes below the value
        # (plus-erajlash nodes on ru4 / ua3 tables: fewer on three sets of
        # four, slightly more on one; bisecting up after a success instead
        # of doubling measured alike over the four sets, but worse on one;
        # benchmarks/README.md)
        v = guess + (hi - guess) // 16
    step = GUESS_STEP
    while lo < hi:
        beta = v
        if beta <= lo:
            beta = lo + 1
        if beta > hi:
            beta = hi
        v = search(s, beta, &rel)
        if s.stop:
            break
        if v >= beta:
            lo = v
            v = v + 1
            if use_guess:
                # from a guess, widen away from it in doubling steps
                v = lo + step
                step *= 2
        else:
            hi = v
            if use_guess and s.single >= 0:
                # a lone seat's next probe is at the bound the failure gave
                v = hi
            elif use_guess:
                v = hi - step + 1
                step *= 2
        if not use_guess and hi - lo > BISECT_SPAN:
            v = lo + (hi - lo + 1) // 2
        s.proven_lo = lo
        s.proven_hi = hi
    return lo
