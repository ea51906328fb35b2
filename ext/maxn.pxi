# Each for himself (included by _core.pyx): the max^n search.
#
# Every seat plays for its own points.  The value of a position is the vector
# of every seat's points from it to the end (the current trick included); the
# seat to move plays a card whose vector gives it the most points, and when
# several such cards give different vectors, the tie-break rule picks one
# (kingsolve.reference.each_choose is the same rule in Python):
#   MX_NEUTRAL      the lowest card (card index order);
#   MX_PESSIMISTIC  the card that leaves the most any other seat takes lowest,
#                   then the lowest card.
# Both depend only on the vectors and on the order of the cards inside a suit,
# which an order-preserving renaming of a suit's live cards keeps.  So the
# search plays one card of each move class (move_classes: equivalent cards
# give the same vector, and the class's lowest card stands for it in the
# tie-break), and the table stores positions with every suit's live cards
# renamed to the lowest ranks, keeping which of them are of which attribute
# class (MxKey).
#
# It reuses the coalition search's position (Solver: hands, trick stack,
# live points), its moves (legal_plays, move_classes, play_card, undo_card)
# and its move ordering (order_moves, asked as if the seat to move were a
# lone side).  It has a table of its own: vectors, at a trick's start only.
#
# Shallow pruning (Korf 1991; Sturtevant for Hearts): the points still to be
# scored are known.  Whatever the seat to move here ends with, the seat that
# moved before it (the parent's mover p, whose best card so far gives it B)
# can take at most pos - v_here from this position, pos being the positive
# points left: the other seats' points together are at least the negative
# points left, all the points sum to what is left.  When that is below B this
# position cannot be p's choice, and its search stops (equal to B, a tie,
# only when the tie-break is sure to go against it) -- under the
# neutral rule a tie with a card above p's best card so far loses anyway, so
# there the search stops at "no more than B" (and, before any card, when the
# positive points left are no more than B: in a penalty contract a seat that
# has found a card taking nothing more skips its higher cards).  Under the
# pessimistic rule a tie at p's best is decided by the most any seat other
# than p gets, and the seat to move here is such a seat: it loses when the
# seat here already has at least that much (mx_loses, ptie).  A position
# cut so at a trick's start is stored as a bound: the seat to move there gets
# at least what it had found (lb_seat), which cuts again at once when the
# position comes back under a parent whose bound it already settles.  In a penalty contract (no positive point
# left) it never cuts: that is the known limit of max^n pruning.

cdef enum:
    MX_NEUTRAL = 0
    MX_PESSIMISTIC = 1
    MX_BUCKET = 4                  # entries a bucket of the vector table
    MX_MAX_LOG2 = 20               # the table grows up to 2^20 entries (80 MB), see mx_grow


cdef struct MxEntry:               # 80 bytes: one position at a trick's start
    u64 key[6]                     # MxKey: the four hands, two planes of classes (renamed ranks)
    int32_t v[MAX_SEATS]           # every seat's points from the position to the end (see lb_seat)
    uint32_t meta                  # leader | trick_index << 2 | 1 << 8 (0: never used)
    uint16_t gen                   # table generation; an entry of another one is empty
    uint8_t ncards                 # cards left (replacement: keep the bigger subtrees)
    signed char lb_seat                 # -1: v is exact; else v[lb_seat] is a lower bound on that seat's points
    uint8_t pad[8]


cdef struct MxCtx:
    Solver* s                      # the position and the contract (see Search)
    MxEntry* table                 # the vector table, MX_BUCKET entries a bucket
    u64 bucket_mask                # buckets - 1
    int log2                       # 2^log2 entries
    int max_log2                   # ... at most (grown by mx_grow)
    int64_t gen_stores             # positions stored in this generation
    uint16_t gen                   # current generation
    int tie_break                  # MX_NEUTRAL or MX_PESSIMISTIC
    bint use_tt                    # techniques, each may be switched off (benchmarks):
    bint use_rank                  #   move classes and renamed ranks in the table
    bint use_prune                 #   shallow pruning
    int renamed[4]                 # per suit: its live cards are renamed (at most 4 classes)
    u64 plane[2][4]                # per suit: the cards whose class's index in the suit has bit 0 / 1
    int64_t nodes                  # cards played by the search
    int64_t tt_probes              # table probes (at a trick's start)
    int64_t tt_hits                # ... that found the position
    int64_t tt_stores              # positions stored
    int64_t cuts                   # searches stopped by shallow pruning
    int64_t bound_cuts             # ... before any card, the positive points left being too few


cdef inline void mx_points_left(Solver* s, int seat, int* pos, int* neg) noexcept nogil:
    # The positive and negative points still to be scored from here (the live
    # cards, the current trick's cards on the table, and the tricks left).
    cdef Rules* r = &s.r
    cdef int nt = ks_popcount(s.hands[seat])   # tricks left, the current one included
    pos[0] = r.tp_pos[s.trick_index + nt] - r.tp_pos[s.trick_index] + s.live_pos
    neg[0] = r.tp_neg[s.trick_index + nt] - r.tp_neg[s.trick_index] + s.live_neg


cdef void mx_rules(MxCtx* m) noexcept nogil:
    # Per suit, from the contract: whether its live cards may be renamed (its
    # cards are of at most four attribute classes) and the two planes that
    # give each card its class's index among the suit's classes.
    cdef Rules* r = &m.s.r
    cdef int su, k, c, idx, ncl
    cdef int ids[16]
    for su in range(4):
        m.plane[0][su] = 0
        m.plane[1][su] = 0
        ncl = 0
        m.renamed[su] = 1
        for k in range(13):
            c = 16 * su + k
            idx = 0
            while idx < ncl and ids[idx] != r.card_class[c]:
                idx += 1
            if idx == ncl:
                if ncl == 4:
                    m.renamed[su] = 0
                    break
                ids[ncl] = r.card_class[c]
                ncl += 1
            if idx & 1:
                m.plane[0][su] |= (<u64>1) << c
            if idx & 2:
                m.plane[1][su] |= (<u64>1) << c


cdef inline void mx_key(MxCtx* m, u64* key) noexcept nogil:
    # The table key of the position (a trick's start): each hand, and the
    # planes of classes, with every renamed suit's live cards moved to the
    # lowest ranks in order (pext over the suit's live cards); the others as
    # they are.
    cdef Solver* s = m.s
    cdef u64 live = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3], lm
    cdef int su, i, sh
    for i in range(6):
        key[i] = 0
    for su in range(4):
        sh = 16 * su
        lm = live & suit_bits(su)
        if lm == 0:
            continue
        if m.use_rank and m.renamed[su]:
            for i in range(MAX_SEATS):
                key[i] |= ks_pext(s.hands[i], lm) << sh
            key[4] |= ks_pext(m.plane[0][su], lm) << sh
            key[5] |= ks_pext(m.plane[1][su], lm) << sh
        else:
            for i in range(MAX_SEATS):
                key[i] |= s.hands[i] & lm


cdef inline u64 mx_hash(u64* key, uint32_t meta) noexcept nogil:
    cdef u64 h = meta * <u64>0x9E3779B97F4A7C15ULL
    cdef int i
    for i in range(6):
        h = (h ^ key[i]) * <u64>0xBF58476D1CE4E5B9ULL
        h ^= h >> 31
    return h


cdef inline MxEntry* mx_probe(MxCtx* m, u64* key, uint32_t meta, bint* found) noexcept nogil:
    # The entry holding the position (found), or the one to overwrite with it.
    cdef MxEntry* b = m.table + (mx_hash(key, meta) & m.bucket_mask) * MX_BUCKET
    cdef MxEntry* victim = b
    cdef MxEntry* e
    cdef int j, i
    cdef bint same
    for j in range(MX_BUCKET):
        e = b + j
        if e.gen != m.gen or e.meta == 0:
            if victim.gen == m.gen and victim.meta != 0:
                victim = e
            continue
        if e.meta == meta:
            same = True
            for i in range(6):
                if e.key[i] != key[i]:
                    same = False
                    break
            if same:
                found[0] = True
                return e
        if victim.gen == m.gen and victim.meta != 0 and e.ncards < victim.ncards:
            victim = e
    found[0] = False
    return victim


cdef bint mx_grow(MxCtx* m) noexcept nogil:
    # The table four times as large, the current generation's entries moved
    # into it.  Returns False (the table unchanged) when memory is short.
    cdef int nl = m.log2 + 2 if m.log2 + 2 <= m.max_log2 else m.max_log2
    cdef MxEntry* old = m.table
    cdef MxEntry* e
    cdef MxEntry* d
    cdef u64 i, n_old = (<u64>1) << m.log2
    cdef bint found
    cdef MxEntry* t = <MxEntry*>ks_table_alloc(sizeof(MxEntry) << nl, False)
    if t == NULL:
        return False
    m.table = t
    m.bucket_mask = ((<u64>1) << (nl - 2)) - 1
    for i in range(n_old):
        e = old + i
        if e.gen == m.gen and e.meta != 0:
            d = mx_probe(m, e.key, e.meta, &found)
            d[0] = e[0]
    ks_table_free(old, sizeof(MxEntry) << m.log2)
    m.log2 = nl
    return True


cdef void mx_store(MxCtx* m, u64* key, uint32_t meta, int lb_seat, int32_t* v) noexcept nogil:
    # Store the position (a trick's start): every seat's points (lb_seat -1),
    # or a lower bound on lb_seat's.  The slot is found again here (the
    # search below may have moved the table): the position's own entry, or
    # the bucket's emptiest.  A table that has taken as many positions as it
    # holds in this generation grows first (the slow whole deals store many
    # positions, and took fewer nodes with the larger table; benchmarks/README.md).
    cdef Solver* s = m.s
    cdef bint found
    cdef MxEntry* e
    cdef int k
    m.gen_stores += 1
    if m.gen_stores > (1 << m.log2) and m.log2 < m.max_log2:
        if mx_grow(m):
            m.gen_stores = 0
    e = mx_probe(m, key, meta, &found)
    for k in range(6):
        e.key[k] = key[k]
    e.meta = meta
    e.gen = m.gen
    e.ncards = <uint8_t>ks_popcount(s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3])
    e.lb_seat = lb_seat
    if lb_seat >= 0:
        e.v[lb_seat] = v[lb_seat]
    else:
        for k in range(MAX_SEATS):
            e.v[k] = v[k] if k < s.r.n else 0


cdef inline bint mx_better(MxCtx* m, int n, int seat, int32_t* v, int v_low, int32_t* best,
                           int best_low) noexcept nogil:
    # Does the card whose vector is v (its lowest card v_low) replace the best
    # so far for the seat to move, by the tie-break rule?
    cdef int k, tv = -VAL_INF, tb = -VAL_INF
    if v[seat] != best[seat]:
        return v[seat] > best[seat]
    if m.tie_break == MX_PESSIMISTIC:
        for k in range(n):
            if k != seat:
                if v[k] > tv:
                    tv = v[k]
                if best[k] > tb:
                    tb = best[k]
        if tv != tb:
            return tv < tb
    return v_low < best_low


cdef inline bint mx_loses(int u, int low, int pbound, int ptie) noexcept nogil:
    # Shallow pruning's test: the parent's mover takes at most u here, and the
    # seat to move here at least low.  Sure to lose to the parent's best so
    # far (pbound to it) when u < pbound, or when u == pbound and a tie is
    # sure to lose: low >= ptie (see mx_search).
    return u < pbound or (u == pbound and low >= ptie)


cdef int mx_search(MxCtx* m, int pseat, int pbound, int ptie, int32_t* out) noexcept nogil:
    # Every seat's points from here to the end into out; returns 1.  With
    # pseat >= 0 (the seat that moved before, which has a card worth pbound
    # to it counted from here), returns 0 as soon as this position is sure
    # not to replace that card as pseat's choice (out is then meaningless):
    # shallow pruning.  pseat takes at most pos - x (x: what the seat to move
    # here takes, at least its best so far): below pbound it loses; equal to
    # it, a tie, lost when x >= ptie.  ptie is -VAL_INF when any tie loses
    # (neutral rule, a card above pseat's best), VAL_INF when a tie is
    # searched in full, and under the pessimistic rule the least x sure to
    # lose the tie: pseat's best leaves the others at most M, a tie wins
    # only with every other seat below M (or at M with a lower card), and
    # the seat here is one of the others.
    cdef Solver* s = m.s
    cdef Rules* r = &s.r
    cdef int n = r.n, seat = seat_to_move(s), nm, i, k, c, old, gain, w, pts, ti, pos, neg
    cdef int reps[MAX_MOVES]
    cdef u64 groups[MAX_MOVES]
    cdef u64 legal, mark
    cdef u64 key[6]
    cdef int32_t cv[MAX_SEATS]
    cdef int32_t best[MAX_SEATS]
    cdef int best_low = 64, cseat, cbound, ctie, top
    cdef bint have = False, found, closed
    cdef uint32_t meta = 0
    cdef MxEntry* e = NULL
    cdef bint stored = False       # the position is one the table stores (a trick's start)
    for k in range(MAX_SEATS):
        out[k] = 0
    if s.hands[seat] == 0 or s.stop:
        return 1
    s.poll_in -= 1
    if s.poll_in <= 0:
        poll_stop(s)
        if s.stop:
            return 1
    mx_points_left(s, seat, &pos, &neg)
    if pos == 0 and neg == 0:
        return 1                   # nothing left to score: every seat 0
    if pseat >= 0 and m.use_prune and mx_loses(pos, neg, pbound, ptie):
        m.bound_cuts += 1
        return 0
    if s.np == 0 and m.use_tt:
        mx_key(m, key)
        meta = <uint32_t>s.leader | (<uint32_t>s.trick_index << 2) | (1 << 8)
        m.tt_probes += 1
        e = mx_probe(m, key, meta, &found)
        stored = True
        if found:
            if e.lb_seat < 0:
                m.tt_hits += 1
                for k in range(n):
                    out[k] = e.v[k]
                return 1
            if (pseat >= 0 and m.use_prune and pseat != e.lb_seat
                    and mx_loses(pos - e.v[e.lb_seat], e.v[e.lb_seat], pbound, ptie)):
                m.tt_hits += 1
                m.bound_cuts += 1
                return 0
    legal = legal_plays(s, seat)
    if m.use_rank:
        nm = move_classes(s, legal, live_cards(s), reps, groups)
    else:
        nm = 0
        while legal:
            groups[nm] = legal & (0 - legal)
            reps[nm] = ks_ctz(legal)
            legal &= legal - 1
            nm += 1
    if nm > 1:
        # the coalition search's ordering, as if the seat to move were a lone side
        s.side = 1 << seat
        s.single = seat
        order_moves(s, seat, nm, reps, groups, -1)
    ti = s.trick_index
    for i in range(nm):
        c = reps[i]
        if (have and m.use_prune and m.tie_break == MX_NEUTRAL and best[seat] >= pos
                and ks_ctz(groups[i]) > best_low):
            # the seat has all it can still get (pos); a higher card ties at best
            m.bound_cuts += 1
            continue
        closed = s.np == n - 1
        old = play_card(s, seat, c, &gain, &mark)
        s.nodes += 1
        m.nodes += 1
        w = 0
        pts = 0
        if closed:
            w = s.leader
            pts = r.trick_points[ti] + s.tpos[ti][n - 1] + s.tneg[ti][n - 1]
        cseat = -1
        cbound = 0
        ctie = VAL_INF
        if have and m.use_prune:
            cseat = seat
            cbound = best[seat] - (pts if closed and w == seat else 0)
            if m.tie_break == MX_NEUTRAL:
                if ks_ctz(groups[i]) > best_low:
                    # a tie would lose to the best so far (a lower card):
                    # only more points count
                    ctie = -VAL_INF
            elif closed and w == seat:
                pass               # the child's mover is this seat: no cut there
            else:
                # pessimistic: a tie loses when another seat (the child's
                # mover, which takes the trick's points when the trick closes
                # here) ends at or above top, the most the best so far leaves
                # any other seat (above it, for a lower card than the best's)
                top = -VAL_INF
                for k in range(n):
                    if k != seat and best[k] > top:
                        top = best[k]
                ctie = top - (pts if closed else 0) + (0 if ks_ctz(groups[i]) > best_low else 1)
        k = mx_search(m, cseat, cbound, ctie, cv)
        undo_card(s, seat, c, old)
        if s.stop:
            return 1
        if not k:
            continue               # sure to give this seat less than its best so far
        if closed:
            cv[w] += pts
        if not have or mx_better(m, n, seat, cv, ks_ctz(groups[i]), best, best_low):
            for k in range(n):
                best[k] = cv[k]
            best_low = ks_ctz(groups[i])
            have = True
            if pseat >= 0 and pseat != seat and m.use_prune and mx_loses(pos - best[seat], best[seat], pbound, ptie):
                m.cuts += 1
                if stored and not s.stop:
                    mx_store(m, key, meta, seat, best)
                return 0
    for k in range(n):
        out[k] = best[k]
    if stored:
        mx_store(m, key, meta, -1, best)
        m.tt_stores += 1
    return 1


cdef int mx_children(MxCtx* m, int* cards, int32_t* vecs) noexcept nogil:
    # The vector after each legal card of the seat to move (equivalent cards
    # share one search); vecs holds MAX_SEATS ints a card.  Returns the cards.
    cdef Solver* s = m.s
    cdef Rules* r = &s.r
    cdef int n = r.n, seat = seat_to_move(s), nm, i, k = 0, j, c, old, gain, w, pts, ti = s.trick_index
    cdef int reps[MAX_MOVES]
    cdef u64 groups[MAX_MOVES]
    cdef u64 mark, g
    cdef int32_t cv[MAX_SEATS]
    cdef bint closed
    nm = move_classes(s, legal_plays(s, seat), live_cards(s), reps, groups)
    for i in range(nm):
        c = reps[i]
        closed = s.np == n - 1
        old = play_card(s, seat, c, &gain, &mark)
        s.nodes += 1
        m.nodes += 1
        w = s.leader
        pts = r.trick_points[ti] + s.tpos[ti][n - 1] + s.tneg[ti][n - 1] if closed else 0
        mx_search(m, -1, 0, VAL_INF, cv)
        undo_card(s, seat, c, old)
        if s.stop:
            return 0
        if closed:
            cv[w] += pts
        g = groups[i]
        while g:
            cards[k] = ks_ctz(g)
            g &= g - 1
            for j in range(MAX_SEATS):
                vecs[k * MAX_SEATS + j] = cv[j]
            k += 1
    return k


MX_TIE_BREAKS = {"neutral": MX_NEUTRAL, "pessimistic": MX_PESSIMISTIC}


cdef class EachSearch:
    """Each for himself (max^n): every seat's points when every seat plays for
    its own score, ties broken by a named rule ("neutral" or "pessimistic";
    see kingsolve.reference.each_choose).  ``configure()`` takes the
    contract as :meth:`Search.configure` does; the vector table is kept
    across queries with the same contract and tie rule.  The table starts
    at 2^tt_log2 entries of 80 bytes and grows (fourfold at a time) up to
    2^max_log2 while a search stores more positions than it
    holds; it does not shrink.  One EachSearch must
    not be used by two threads at once; every search runs without the GIL."""
    cdef Search pos                # the contract and the position (its own table is not used)
    cdef MxCtx m
    cdef object _config

    def __cinit__(self, int tt_log2=18, int max_log2=MX_MAX_LOG2):
        if not (8 <= tt_log2 <= 28):
            raise ValueError(f"tt_log2 must be in 8..28, got {tt_log2}")
        self.pos = Search(4)
        self.m.s = self.pos.s
        self.m.table = <MxEntry*>ks_table_alloc(sizeof(MxEntry) << tt_log2, tt_log2 <= 18)
        if self.m.table == NULL:
            raise MemoryError(f"cannot allocate a vector table of 2**{tt_log2} entries")
        self.m.log2 = tt_log2
        self.m.max_log2 = max(tt_log2, min(max_log2, 28))
        self.m.bucket_mask = ((<u64>1) << (tt_log2 - 2)) - 1
        self.m.gen = 1
        self.m.tie_break = MX_NEUTRAL
        self.m.use_tt = True
        self.m.use_rank = True
        self.m.use_prune = True
        self._config = None

    def __init__(self, int tt_log2=18, int max_log2=MX_MAX_LOG2):
        pass

    def __dealloc__(self):
        if self.m.table != NULL:
            ks_table_free(self.m.table, sizeof(MxEntry) << self.m.log2)
            self.m.table = NULL

    cdef void _new_generation(self) noexcept:
        self.m.gen += 1
        self.m.gen_stores = 0
        if self.m.gen == 0:
            memset(self.m.table, 0, sizeof(MxEntry) << self.m.log2)
            self.m.gen = 1

    def configure(self, int n_seats, int trump, bint inverted, card_points, trick_points,
                  lead_restricted, discard_forced):
        """Set the contract (as Search.configure); clears the table when anything changes."""
        self.pos.configure(n_seats, trump, inverted, card_points, trick_points, lead_restricted,
                           discard_forced)
        if self.pos._config != self._config:
            self._config = self.pos._config
            mx_rules(&self.m)
            self._new_generation()

    def techniques(self, bint table=True, bint rank=True, bint prune=True):
        """Benchmarks: switch the table, rank equivalence (move classes and
        renamed ranks in the table) or shallow pruning off.  The values never
        depend on them; the table starts empty."""
        self.m.use_tt = table
        self.m.use_rank = rank
        self.m.use_prune = prune
        self._new_generation()

    cdef int _begin(self, hands, int leader, trick, int trick_index, str tie_break) except -1:
        if tie_break not in MX_TIE_BREAKS:
            raise ValueError(f"tie_break must be one of {', '.join(MX_TIE_BREAKS)}, got {tie_break!r}")
        if not self.pos.configured:
            raise ValueError("configure() must be called before a query")
        cdef int tb = MX_TIE_BREAKS[tie_break]
        self.pos._load(hands, leader, trick, trick_index, (1 << self.pos.s.r.n) - 1)
        if tb != self.m.tie_break:
            self.m.tie_break = tb
            self._new_generation()
        return 0

    def value(self, hands, int leader, trick, int trick_index, str tie_break="neutral"):
        """Every seat's points from this position to the end (a tuple, one a seat)."""
        cdef int32_t out[MAX_SEATS]
        self._begin(hands, leader, trick, trick_index, tie_break)
        try:
            with nogil:
                mx_search(&self.m, -1, 0, VAL_INF, out)
            self.pos._check_stop()
        finally:
            self.pos.busy = False
        return tuple(out[k] for k in range(self.pos.s.r.n))

    def card_vectors(self, hands, int leader, trick, int trick_index, str tie_break="neutral"):
        """[(card, vector)] for every legal card of the seat to move, in card order."""
        cdef int cards[16]
        cdef int32_t vecs[16 * MAX_SEATS]
        cdef int k = 0, n
        self._begin(hands, leader, trick, trick_index, tie_break)
        n = self.pos.s.r.n
        try:
            if self.pos.s.hands[seat_to_move(self.pos.s)] != 0:
                with nogil:
                    k = mx_children(&self.m, cards, vecs)
            self.pos._check_stop()
        finally:
            self.pos.busy = False
        return sorted((cards[i], tuple(vecs[i * MAX_SEATS + j] for j in range(n))) for i in range(k))

    def clear(self):
        """Empty the vector table."""
        self._new_generation()

    def reset_stats(self):
        self.m.nodes = self.m.tt_probes = self.m.tt_hits = self.m.tt_stores = 0
        self.m.cuts = self.m.bound_cuts = 0

    @property
    def stats(self):
        """Counters since reset_stats: nodes (cards played), table probes, hits
        and stores (and the table's present size, tt_entries), and the searches shallow pruning stopped (after a card,
        and before any card on the positive points left alone)."""
        return {"nodes": self.m.nodes, "tt_probes": self.m.tt_probes, "tt_hits": self.m.tt_hits,
                "tt_stores": self.m.tt_stores, "cuts": self.m.cuts, "bound_cuts": self.m.bound_cuts,
                "tt_entries": 1 << self.m.log2}
