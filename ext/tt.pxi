# Transposition table (included by _core.pyx).
#
# Entries live at trick boundaries only.  The key is the position with each
# suit rank-compressed: the live cards of a suit renumbered 0..k-1, so that
# positions differing only in which cards are gone share an entry.  That is
# exact because play depends only on the order of the live cards and on each
# one's attribute class (card_points, lead_restricted, discard_forced): a suit
# whose live cards share one class is keyed by its count and that class; a
# suit that mixes classes ("mixed", e.g. spades with the queen in no-girls)
# also by the class of every live card in order, 4 bits a card, packed into
# cls[] (128 bits for all mixed suits; a mixed suit that does not fit keeps
# absolute positions).  The stored lo/hi are bounds on the points the side
# wins from that trick on, independent of any search target.
from libc.string cimport memset
from libc.stdlib cimport malloc, calloc, free

cdef enum:
    BUCKET = 4                     # entries per bucket


cdef struct TTKey:
    u64 key[MAX_SEATS]             # per-seat owner bits over the compression mask
    u64 meta                       # leader | trick index << 2 | per-suit fields << 6
    u64 cls[2]                     # classes of the live cards of the mixed suits, in order
    u64 cmask                      # compression mask: the card positions the key spans


cdef inline void tt_make_key(Solver* s, TTKey* k) noexcept nogil:
    cdef Rules* r = &s.r
    cdef u64 rem = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    cdef u64 m = 0, rs, field, seq, x
    cdef u64 meta = (<u64>s.leader) | ((<u64>s.trick_index) << 2)
    cdef int su, cl, i, nb, j, used = 0
    k.cls[0] = 0
    k.cls[1] = 0
    for su in range(4):
        rs = rem & suit_bits(su)
        if rs == 0:
            continue
        cl = r.card_class[ks_ctz(rs)]
        if cl < MAX_CLASSES and (rs & ~r.class_mask[cl]) == 0:
            m |= rs
            field = (<u64>ks_popcount(rs)) | ((<u64>cl) << 4)
        else:
            nb = 4 * ks_popcount(rs)
            if r.n_classes <= 16 and used + nb <= 128:
                seq = 0
                x = rs
                j = 0
                while x:
                    seq |= (<u64>r.card_class[ks_ctz(x)]) << (4 * j)
                    x &= x - 1
                    j += 1
                if used < 64:
                    k.cls[0] |= seq << used
                    if used + nb > 64:
                        k.cls[1] |= seq >> (64 - used)
                else:
                    k.cls[1] |= seq << (used - 64)
                used += nb
                m |= rs
                field = (<u64>ks_popcount(rs)) | ((<u64>MAX_CLASSES) << 4)
            else:
                m |= suit_bits(su)
                field = 13 | (1 << 8)
        meta |= field << (6 + 9 * su)
    k.meta = meta
    k.cmask = m
    for i in range(MAX_SEATS):
        k.key[i] = ks_pext(s.hands[i], m)


cdef inline TTEntry* tt_bucket(Solver* s, TTKey* k) noexcept nogil:
    cdef u64 h = (k.key[0] * <u64>0x9E3779B97F4A7C15ULL
                  + k.key[1] * <u64>0xC2B2AE3D27D4EB4FULL
                  + k.key[2] * <u64>0x165667B19E3779F9ULL
                  + k.key[3] * <u64>0xD6E8FEB86659FD93ULL
                  + k.meta * <u64>0xFF51AFD7ED558CCDULL
                  + k.cls[0] * <u64>0xC4CEB9FE1A85EC53ULL
                  + k.cls[1] * <u64>0x94D049BB133111EBULL)
    h ^= h >> 29
    h *= <u64>0xBF58476D1CE4E5B9ULL
    return s.tt + (h >> s.tt_shift) * BUCKET


cdef inline bint tt_match(Solver* s, TTEntry* e, TTKey* k) noexcept nogil:
    return (e.gen == s.gen and e.meta == k.meta and e.key[0] == k.key[0]
            and e.key[1] == k.key[1] and e.key[2] == k.key[2] and e.key[3] == k.key[3]
            and e.cls[0] == k.cls[0] and e.cls[1] == k.cls[1])


cdef inline TTEntry* tt_probe(Solver* s, TTKey* k) noexcept nogil:
    cdef TTEntry* b = tt_bucket(s, k)
    cdef int i
    s.tt_probes += 1
    for i in range(BUCKET):
        if tt_match(s, b + i, k):
            s.tt_hits += 1
            return b + i
    return NULL


cdef inline int tt_encode_move(TTKey* k, int c) noexcept nogil:
    cdef int su = c >> 4
    cdef u64 ms = k.cmask & suit_bits(su)
    return su * 16 + ks_popcount(ms & (((<u64>1) << c) - 1))


cdef inline int tt_decode_move(TTKey* k, int b) noexcept nogil:
    # The card at position (b & 15) of suit (b >> 4) of the compression mask.
    cdef int su, pos
    cdef u64 ms
    if b == NO_MOVE:
        return -1
    su = b >> 4
    pos = b & 15
    ms = k.cmask & suit_bits(su)
    while pos > 0 and ms:
        ms &= ms - 1
        pos -= 1
    if ms == 0:
        return -1
    return ks_ctz(ms)


cdef inline void tt_store(Solver* s, TTKey* k, int lo, int hi, int best, int ncards) noexcept nogil:
    cdef TTEntry* b = tt_bucket(s, k)
    cdef TTEntry* e = NULL
    cdef TTEntry* victim = NULL
    cdef int i
    for i in range(BUCKET):
        if tt_match(s, b + i, k):
            e = b + i
            break
    if e != NULL:
        if lo > e.lo:
            e.lo = lo
        if hi < e.hi:
            e.hi = hi
        if best >= 0:
            e.best = <uint8_t>tt_encode_move(k, best)
        return
    # Two tiers: slots 0..BUCKET-2 keep the biggest subtrees (a new entry takes the
    # smallest of them only if it is at least as big), the last slot takes the rest.
    for i in range(BUCKET):
        if b[i].gen != s.gen:
            victim = b + i
            break
    if victim == NULL:
        for i in range(BUCKET - 1):
            if victim == NULL or b[i].ncards < victim.ncards:
                victim = b + i
        if victim.ncards > ncards:
            victim = b + (BUCKET - 1)
    victim.key[0] = k.key[0]
    victim.key[1] = k.key[1]
    victim.key[2] = k.key[2]
    victim.key[3] = k.key[3]
    victim.meta = k.meta
    victim.cls[0] = k.cls[0]
    victim.cls[1] = k.cls[1]
    victim.lo = lo
    victim.hi = hi
    victim.best = <uint8_t>(tt_encode_move(k, best) if best >= 0 else NO_MOVE)
    victim.gen = s.gen
    victim.ncards = <uint8_t>ncards


cdef inline void tt_new_generation(Solver* s) noexcept nogil:
    # Empty the table in O(1): entries of an older generation count as empty.
    if s.gen == 255:
        memset(s.tt, 0, (s.tt_buckets_mask + 1) * BUCKET * sizeof(TTEntry))
        s.gen = 1
    else:
        s.gen += 1
