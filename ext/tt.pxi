# Transposition table (included by _core.pyx): partition search over
# rank-compressed positions.
#
# Entries live at trick boundaries only.  A position is rank-compressed: the
# live cards of a suit renumbered 0..k-1, so that positions differing only in
# which cards are gone look alike.  That is exact because play depends only on
# the order of the live cards and on each one's attribute class (card_points,
# lead_restricted, discard_forced): a suit whose live cards share one class is
# described by its count and that class; a suit that mixes classes ("mixed",
# e.g. spades with the queen in no-girls) also by the class of every live card
# in order, 4 bits a card, packed into cls[] (128 bits for all mixed suits; a
# mixed suit that does not fit keeps absolute positions).
#
# On top of that, an entry covers a whole set of positions (Ginsberg's
# partition search, DDS's "winning ranks"): the search reports which cards'
# ranks its result depended on (a card that won a trick over another card of
# its suit, the top cards behind a quick-trick or sure-trump cut-off, the cards
# an entry it used depended on).  The entry then keeps, in each suit, only the
# owners of the live cards at least as strong as the weakest such card; the
# weaker cards of the suit count only by how many each seat holds.  Every
# position with the same leader, trick, suit lengths of every seat, classes and
# owners of those top cards has a value within the stored bounds.  A suit's
# weaker part must be of one class, so a mixed suit keeps at least every card
# above its weakest run of one class.
#
# Layout: a signature (leader, trick, lengths, classes, and the live cards of
# any suit keyed by absolute position) has a slot in `slots` (4-slot buckets;
# a full bucket evicts the signature of the smallest subtree, or its last
# slot).  A signature's newest entries sit in a list of 3-entry chunks (an
# entry that settles a probe moves to its front; when the list is full — 16
# chunks in deals of up to ten cards a hand, 32 in longer ones — its oldest
# chunk is recycled), scanned with each entry's mask.  In the longer deals,
# once a signature's list holds EXACT_FROM chunks, its entries are also
# indexed by their exact position in `exact` (4-entry buckets keeping the
# biggest subtrees), with the mask of their partition, so they are still found
# from their own position once they have left the list.  Only long lists use
# that index: it costs a memory access per store and per failed lookup
# (indexing every entry made 13-card bridge slower; short deals gain nothing
# from it at all), and it pays where lists overflow (King 13-card contracts:
# walking lists of 128 chunks instead was much slower; benchmarks/README.md).
# A slot's version changes when it is given to another signature, which
# retires its exact entries; its
# chunks go to a free list.  When the chunks run out, the signatures of the
# smallest subtrees are freed until half the chunks are free (tt_sweep), so
# that the entries that cost most to find again are kept; only if that frees
# nothing is the whole table emptied (a new generation).  Measured on king52
# no-girls, with tables too small for it and at the default size: fewer
# nodes (benchmarks/README.md).
#
# A table made to grow (max_tt_log2: 13-card hands by default, from 2^20)
# doubles instead, keeping everything: its slots and chunks (tt_grow) when
# the chunks run out or the signatures evicted reach a GROW_PRESSURE-th of the
# slots, its index by exact position (tt_grow_exact) when the entries
# overwritten there reach a GROW_PRESSURE-th of it: the slots and chunks up to
# a table of 2^max_tt_log2 entries, the exact index to twice that
# (EXACT_HEADROOM; 2^22 and 2^23 for 13-card hands: about 700 MB at most).
# The two fill at their own pace (in king52 no-tricks the exact index
# overflowed while the chunks never ran out).  Growing from a fixed 2^20
# took far fewer nodes on king52 penalty contracts, in less memory than
# growing every part alike; 13-card bridge never grows.  Holding the whole
# to 2^22's memory instead let the exact index crowd out the slots: more
# nodes (benchmarks/README.md).
from libc.string cimport memset, memcpy
from libc.stdlib cimport malloc, calloc, free


cdef struct TTKey:
    u64 key[3]                     # owner bits of seats 0..2 over the compression mask
                                   # (seat 3 holds every other live position)
    u64 meta                       # leader | trick index << 2 | per-suit fields << 6
    u64 cls[2]                     # classes of the live cards of the mixed suits, in order
    u64 lens                       # length of each seat's holding of each suit, 4 bits each
    u64 cmask                      # compression mask: the card positions the key spans
    u64 forced                     # cards every entry must keep (mixed and absolute suits)
    u64 absl                       # live cards of the suits keyed by absolute position
    u64 ccnt[CCNT_WORDS]           # per seat, count of each class of the mixed suits, 4 bits each
    u64 hash                       # hash of the signature (meta, lens, cls, absl, ccnt)


cdef inline u64 tt_sig_extra(u64* cls, u64 absl, u64* ccnt) noexcept nogil:
    # The part of a signature's hash from its mixed and absolute suits (zero
    # when it has none: every field is then zero).
    return (cls[0] * <u64>0x165667B19E3779F9ULL + cls[1] * <u64>0xD6E8FEB86659FD93ULL
            + absl * <u64>0x94D049BB133111EBULL + ccnt[0] * <u64>0xD1B54A32D192ED03ULL
            + ccnt[1] * <u64>0xAEF17502108EF2D9ULL + ccnt[2] * <u64>0x9FB21C651E98DF25ULL
            + ccnt[3] * <u64>0xE7037ED1A0B428DBULL)


cdef inline u64 tt_sig_hash(u64 meta, u64 lens, u64 extra) noexcept nogil:
    # A signature's hash (TTKey.hash; tt_grow computes it again from a slot).
    cdef u64 h = meta * <u64>0x9E3779B97F4A7C15ULL + lens * <u64>0xC2B2AE3D27D4EB4FULL + extra
    h ^= h >> 31
    h *= <u64>0xBF58476D1CE4E5B9ULL
    h ^= h >> 29
    return h


cdef inline void tt_make_key(Solver* s, u64 rem, TTKey* k) noexcept nogil:
    # rem: the cards in the hands (at a trick's start, every live card)
    cdef Rules* r = &s.r
    cdef u64 m = 0, rs, field, seq, x, lens = 0, forced = 0, run, absl = 0
    cdef u64 meta = (<u64>s.leader) | ((<u64>s.trick_index) << 2)
    cdef int su, cl, i, nb, j, c, used = 0, nused = 0, nc
    cdef unsigned int present
    k.cls[0] = 0
    k.cls[1] = 0
    for i in range(CCNT_WORDS):
        k.ccnt[i] = 0
    lens = s.lens
    if r.n_classes == 1:
        # every card is of class 0 (plain): each suit is its count of live cards
        for su in range(4):
            meta |= (<u64>ks_popcount(rem & suit_bits(su))) << (6 + 9 * su)
        m = rem
    else:
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
                    if ks_fast_pext():
                        # the class nibbles of the live ranks, packed: one pdep, one pext
                        seq = ks_pext(r.suit_nib[su],
                                      ks_pdep(rs >> (16 * su), <u64>0x1111111111111ULL) * 0xF)
                    else:
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
                    # The weaker cards may stay anonymous when every seat's count of
                    # each class in the suit is part of the signature; if those counts
                    # do not fit, only the weakest run of one class may.
                    present = 0
                    x = r.suit_classes[su]
                    while x:
                        cl = ks_ctz(x)
                        x &= x - 1
                        if rs & r.class_mask[cl]:
                            present |= 1 << cl
                    present &= ~(1 << r.card_class[ks_ctz(rs)])
                    nc = ks_popcount(present) * r.n
                    if nused + nc <= 4 * CCNT_WORDS * 4:
                        while present:
                            cl = ks_ctz(present)
                            present &= present - 1
                            for i in range(r.n):
                                k.ccnt[nused >> 4] |= (<u64>ks_popcount(
                                    s.hands[i] & rs & r.class_mask[cl])) << (4 * (nused & 15))
                                nused += 1
                    else:
                        run = 0
                        x = rs
                        c = weakest(r, x)
                        cl = r.card_class[c]
                        while x:
                            c = weakest(r, x)
                            if r.card_class[c] != cl:
                                break
                            run |= (<u64>1) << c
                            x &= ~((<u64>1) << c)
                        forced |= rs & ~run
                else:
                    m |= suit_bits(su)
                    field = 13 | (1 << 8)
                    forced |= suit_bits(su)
                    absl |= rs
            meta |= field << (6 + 9 * su)
    k.meta = meta
    k.lens = lens
    k.cmask = m
    k.forced = forced
    k.absl = absl
    for i in range(3):
        k.key[i] = ks_pext(s.hands[i], m)
    # (cls, ccnt and absl are all zero unless a suit is mixed or absolute)
    k.hash = tt_sig_hash(meta, lens, tt_sig_extra(k.cls, absl, k.ccnt) if used or nused or absl else 0)


cdef inline bint tt_slot_is(TTSlot* sl, TTKey* k) noexcept nogil:
    return (sl.meta == k.meta and sl.lens == k.lens and sl.cls[0] == k.cls[0]
            and sl.cls[1] == k.cls[1] and sl.absl == k.absl and sl.ccnt[0] == k.ccnt[0]
            and sl.ccnt[1] == k.ccnt[1] and sl.ccnt[2] == k.ccnt[2] and sl.ccnt[3] == k.ccnt[3])


cdef inline TTSlot* tt_find(Solver* s, TTKey* k) noexcept nogil:
    # The slot of the key's signature, or NULL.
    cdef TTSlot* b = s.slots + (k.hash & s.slot_bucket_mask) * BUCKET
    cdef int i
    for i in range(BUCKET):
        if b[i].gen == s.gen and tt_slot_is(b + i, k):
            return b + i
    return NULL


cdef inline void tt_to_front(Solver* s, TTSlot* sl, TTChunk* ch, int j) noexcept nogil:
    # Swap entry j of chunk ch with the first entry of the list.
    cdef TTChunk* h = s.chunks + sl.head
    cdef u64 t0, t1, t2, tm
    cdef int32_t tlo, thi
    cdef uint8_t tb
    if h == ch and j == 0:
        return
    t0 = h.key[0][0]; t1 = h.key[0][1]; t2 = h.key[0][2]; tm = h.mask[0]
    tlo = h.lo[0]; thi = h.hi[0]; tb = h.best[0]
    h.key[0][0] = ch.key[j][0]; h.key[0][1] = ch.key[j][1]; h.key[0][2] = ch.key[j][2]
    h.mask[0] = ch.mask[j]; h.lo[0] = ch.lo[j]; h.hi[0] = ch.hi[j]; h.best[0] = ch.best[j]
    ch.key[j][0] = t0; ch.key[j][1] = t1; ch.key[j][2] = t2; ch.mask[j] = tm
    ch.lo[j] = tlo; ch.hi[j] = thi; ch.best[j] = tb


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


cdef inline bint tt_indexed(Solver* s, TTSlot* sl) noexcept nogil:
    # Are the signature's entries also indexed by exact position (long deals,
    # once its list holds EXACT_FROM chunks)?
    return s.use_exact and sl.nchunks >= EXACT_FROM


cdef inline u64 tt_exact_hash(u64 sig, u64 k0, u64 k1, u64 k2) noexcept nogil:
    # From the signature's hash and the owners (the slot's position is not
    # needed: the bucket can be prefetched as soon as the list is known long).
    cdef u64 h = (sig * <u64>0x9E3779B97F4A7C15ULL + k0 * <u64>0x165667B19E3779F9ULL
                  + k1 * <u64>0xD6E8FEB86659FD93ULL + k2 * <u64>0xFF51AFD7ED558CCDULL)
    h ^= h >> 31
    h *= <u64>0xBF58476D1CE4E5B9ULL
    h ^= h >> 29
    return h


cdef inline TTEntry* tt_exact_find(Solver* s, TTSlot* sl, TTKey* k) noexcept nogil:
    # The entry stored for exactly this position, or NULL.
    cdef int slot = <int>(sl - s.slots), j
    cdef TTEntry* e = s.exact + (tt_exact_hash(k.hash, k.key[0], k.key[1], k.key[2])
                                 & s.exact_bucket_mask) * BUCKET
    for j in range(BUCKET):
        if (e.gen == s.gen and e.slot == slot and e.version == sl.version and e.key[0] == k.key[0]
                and e.key[1] == k.key[1] and e.key[2] == k.key[2]):
            return e
        e += 1
    return NULL


cdef void tt_exact_store(Solver* s, TTSlot* sl, TTKey* k, u64 em, int lo, int hi,
                         uint8_t best) noexcept nogil:
    # Index the entry (em, lo, hi) by this exact position.  An entry already there
    # for the position is tightened if it has the same mask, else replaced.
    cdef int slot = <int>(sl - s.slots), i
    cdef TTEntry* b = s.exact + (tt_exact_hash(k.hash, k.key[0], k.key[1], k.key[2])
                                 & s.exact_bucket_mask) * BUCKET
    cdef TTEntry* v = tt_exact_find(s, sl, k)
    if v != NULL and v.pmask == em:
        if lo > v.lo:
            v.lo = lo
        if hi < v.hi:
            v.hi = hi
        if best != NO_MOVE:
            v.best = best
        return
    if v == NULL:
        for i in range(BUCKET):
            if b[i].gen != s.gen:
                v = b + i
                break
        if v == NULL:
            for i in range(BUCKET - 1):
                if v == NULL or b[i].ncards < v.ncards:
                    v = b + i
            if v.ncards > sl.ncards:
                v = b + (BUCKET - 1)
            s.tt_replaced += 1
            tt_press_exact(s)
    v.key[0] = k.key[0]
    v.key[1] = k.key[1]
    v.key[2] = k.key[2]
    v.pmask = em
    v.slot = slot
    v.version = sl.version
    v.lo = lo
    v.hi = hi
    v.best = best
    v.gen = s.gen
    v.ncards = sl.ncards


cdef inline bint tt_settles(int lo, int hi, u64 m, TTKey* k, int beta, int* value,
                            u64* rel) noexcept nogil:
    # Does the entry (lo, hi) on mask m settle the test against beta?  If so,
    # value = the bound and rel = the cards of the mask, in this position.
    if lo >= beta:
        value[0] = lo
    elif hi < beta:
        value[0] = hi
    else:
        return False
    rel[0] = ks_pdep(m, k.cmask)
    return True


cdef inline bint tt_lookup(Solver* s, TTKey* k, int beta, int* value, u64* rel,
                           int* first) noexcept nogil:
    # Every entry whose partition holds this position: if one settles the test
    # against beta, value = its bound and rel = the cards it depends on (True).
    # Otherwise first = a stored best lead, if any (False).
    cdef TTSlot* sl
    cdef TTChunk* ch
    cdef int ci, j
    cdef u64 m
    cdef bint hit = False
    sl = tt_find(s, k)
    s.tt_probes += 1
    if sl == NULL:
        return False
    if tt_indexed(s, sl):
        # its cache line loads while the list is walked
        ks_prefetch(s.exact + (tt_exact_hash(k.hash, k.key[0], k.key[1], k.key[2])
                               & s.exact_bucket_mask) * BUCKET)
    ci = sl.head
    while ci >= 0:
        ch = s.chunks + ci
        for j in range(ch.n):
            m = ch.mask[j]
            if ((k.key[0] & m) != ch.key[j][0] or (k.key[1] & m) != ch.key[j][1]
                    or (k.key[2] & m) != ch.key[j][2]):
                continue
            if not hit:
                hit = True
                s.tt_hits += 1
            if tt_settles(ch.lo[j], ch.hi[j], m, k, beta, value, rel):
                tt_to_front(s, sl, ch, j)
                return True
            if first[0] < 0 and ch.best[j] != NO_MOVE:
                first[0] = tt_decode_move(k, ch.best[j])
        ci = ch.next
    cdef TTEntry* e = tt_exact_find(s, sl, k) if tt_indexed(s, sl) else NULL
    if e != NULL:
        if not hit:
            s.tt_hits += 1
        if tt_settles(e.lo, e.hi, e.pmask, k, beta, value, rel):
            return True
        if first[0] < 0 and e.best != NO_MOVE:
            first[0] = tt_decode_move(k, e.best)
    return False


cdef inline u64 tt_top_cards(Solver* s, TTKey* k, u64 rel) noexcept nogil:
    # The cards an entry keeps: in each suit, every live card at least as strong
    # as the weakest card in rel, plus the forced ones.
    cdef u64 rem = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    cdef u64 t = k.forced, rs, mk
    cdef int su, c
    for su in range(4):
        rs = rem & suit_bits(su)
        mk = rel & rs
        if mk == 0:
            continue
        if s.r.inverted:
            c = ks_msb(mk)
            t |= rs & (((<u64>2) << c) - 1)
        else:
            c = ks_ctz(mk)
            t |= rs & ~(((<u64>1) << c) - 1)
    return t


cdef void tt_new_generation(Solver* s) noexcept nogil:
    # Empty the table in O(1): slots of an older generation count as empty.
    if s.gen == 65535:
        memset(s.slots, 0, (s.slot_bucket_mask + 1) * BUCKET * sizeof(TTSlot))
        memset(s.exact, 0, (s.exact_bucket_mask + 1) * BUCKET * sizeof(TTEntry))
        s.gen = 1
    else:
        s.gen += 1
    s.chunks_used = 0
    s.free_chunk = -1


cdef bint tt_sweep(Solver* s) noexcept nogil:
    # The chunks have run out: free the signatures of the smallest subtrees
    # (fewest cards left) until at least half the chunks are free, keeping the
    # entries that cost most to find again.  False if that frees nothing (the
    # caller then empties the whole table).
    cdef int64_t per[MAX_TRICKS + 2]
    cdef int64_t total = 0, acc = 0
    cdef size_t i, n_slots = (s.slot_bucket_mask + 1) * BUCKET
    cdef int t, ci
    cdef TTSlot* sl
    for t in range(MAX_TRICKS + 2):
        per[t] = 0
    for i in range(n_slots):
        sl = s.slots + i
        if sl.gen == s.gen and sl.head >= 0:
            per[sl.ncards if sl.ncards <= MAX_TRICKS else MAX_TRICKS + 1] += sl.nchunks
            total += sl.nchunks
    t = -1
    while acc * 2 < total and t < MAX_TRICKS:
        t += 1
        acc += per[t]
    if acc == 0:
        return False
    for i in range(n_slots):
        sl = s.slots + i
        if sl.gen == s.gen and sl.ncards <= t:
            if sl.head >= 0:
                ci = sl.head
                while s.chunks[ci].next >= 0:
                    ci = s.chunks[ci].next
                s.chunks[ci].next = s.free_chunk
                s.free_chunk = sl.head
            sl.gen = 0                 # empty: no generation is 0 (tt_claim renews
                                       # the slot, and its version, when it is given out)
    s.tt_swept += 1
    return True


cdef inline size_t slots_size(Solver* s) noexcept nogil:
    return (s.slot_bucket_mask + 1) * BUCKET * sizeof(TTSlot)


cdef inline size_t chunks_size(Solver* s) noexcept nogil:
    return s.n_chunks * sizeof(TTChunk)


cdef inline size_t exact_size(Solver* s) noexcept nogil:
    return (s.exact_bucket_mask + 1) * BUCKET * sizeof(TTEntry)


cdef inline bint tt_exact_live(Solver* s, TTEntry* e) noexcept nogil:
    # An exact entry of this generation whose slot still holds its signature.
    return e.gen == s.gen and s.slots[e.slot].gen == s.gen and s.slots[e.slot].version == e.version


cdef inline bint may_grow_slots(Solver* s) noexcept nogil:
    # The slots and chunks grow up to 2**(max_tt_log2-1) each ...
    return s.tt_log2 < s.max_tt_log2


cdef inline bint may_grow_exact(Solver* s) noexcept nogil:
    # ... the index by exact position to twice that (EXACT_HEADROOM), in a
    # table that grows at all (max_tt_log2 0: a fixed size, or memory refused)
    return s.max_tt_log2 > 0 and s.exact_log2 < s.max_tt_log2 + EXACT_HEADROOM


cdef inline u64 tt_slot_hash(TTSlot* sl) noexcept nogil:
    # The hash of a slot's signature, as tt_make_key computed it for its key.
    return tt_sig_hash(sl.meta, sl.lens, tt_sig_extra(sl.cls, sl.absl, sl.ccnt))


cdef bint tt_grow(Solver* s) noexcept nogil:
    # Double the signature slots and the chunks (their indices stay) instead of
    # freeing entries, while they are below max_tt_log2 (may_grow_slots):
    # each slot moves to
    # the bucket its hash picks in the larger table (old bucket b splits into
    # new buckets b and b + the old count, so a new bucket never overflows),
    # and the exact entries follow their slots.  False if the memory is not to
    # be had (the table then grows no more); the caller then sweeps as before.
    cdef size_t n_slots = (s.slot_bucket_mask + 1) * BUCKET, n_exact = (s.exact_bucket_mask + 1) * BUCKET
    cdef size_t i, j, old_slots_size = slots_size(s), old_chunks_size = chunks_size(s)
    cdef u64 slot_mask = s.slot_bucket_mask * 2 + 1
    cdef TTSlot* slots
    cdef TTChunk* chunks
    cdef TTSlot* b
    cdef TTEntry* e
    cdef int32_t* moved
    if not may_grow_slots(s):
        return False
    slots = <TTSlot*>ks_table_alloc(old_slots_size * 2, 0)
    chunks = <TTChunk*>ks_table_alloc(old_chunks_size * 2, 0)
    moved = <int32_t*>malloc(n_slots * sizeof(int32_t))
    if slots == NULL or chunks == NULL or moved == NULL:
        ks_table_free(slots, old_slots_size * 2)
        ks_table_free(chunks, old_chunks_size * 2)
        free(moved)
        s.max_tt_log2 = 0              # no more tries
        return False
    for i in range(n_slots):
        moved[i] = -1
        if s.slots[i].gen != s.gen:
            continue
        b = slots + (tt_slot_hash(s.slots + i) & slot_mask) * BUCKET
        for j in range(BUCKET):
            if b[j].gen != s.gen:
                b[j] = s.slots[i]
                moved[i] = <int32_t>((b - slots) + j)
                break
    memcpy(chunks, s.chunks, old_chunks_size)
    for i in range(n_exact):
        e = s.exact + i
        if e.gen != s.gen:
            continue
        if moved[e.slot] < 0 or s.slots[e.slot].version != e.version:
            e.gen = 0                  # its signature had left the slot: retired
        else:
            e.slot = moved[e.slot]
    free(moved)
    ks_table_free(s.slots, old_slots_size)
    ks_table_free(s.chunks, old_chunks_size)
    s.slots = slots
    s.chunks = chunks
    s.slot_bucket_mask = slot_mask
    s.n_chunks *= 2
    s.tt_log2 += 1
    s.tt_grown += 1
    s.slot_pressure = 0
    return True


cdef bint tt_grow_exact(Solver* s) noexcept nogil:
    # Double the index by exact position, while may_grow_exact allows: each
    # entry moves to the bucket its hash picks (as in
    # tt_grow, a new bucket takes the entries of one old bucket only).  False
    # if the memory is not to be had (the table then grows no more).
    cdef size_t n_exact = (s.exact_bucket_mask + 1) * BUCKET, i, j, old_size = exact_size(s)
    cdef u64 exact_mask = s.exact_bucket_mask * 2 + 1
    cdef TTEntry* exact
    cdef TTEntry* e
    cdef TTEntry* eb
    if not may_grow_exact(s):
        return False
    exact = <TTEntry*>ks_table_alloc(old_size * 2, 0)
    if exact == NULL:
        s.max_tt_log2 = 0              # no more tries
        return False
    for i in range(n_exact):
        e = s.exact + i
        if not tt_exact_live(s, e):
            continue
        eb = exact + (tt_exact_hash(tt_slot_hash(s.slots + e.slot), e.key[0], e.key[1], e.key[2])
                      & exact_mask) * BUCKET
        for j in range(BUCKET):
            if eb[j].gen != s.gen:
                eb[j] = e[0]
                break
    ks_table_free(s.exact, old_size)
    s.exact = exact
    s.exact_bucket_mask = exact_mask
    s.exact_log2 += 1
    s.tt_grown += 1
    s.exact_pressure = 0
    return True


cdef inline void tt_press_slots(Solver* s) noexcept nogil:
    # A signature evicted: once that has happened for a GROW_PRESSURE-th of
    # the slots since they last grew, they grow at the next store (tt_grow).
    s.slot_pressure += 1
    if s.slot_pressure > <int64_t>((s.slot_bucket_mask + 1) * BUCKET) // GROW_PRESSURE and may_grow_slots(s):
        s.grow_due |= GROW_SLOTS


cdef inline void tt_press_exact(Solver* s) noexcept nogil:
    # An exact entry overwritten by another position: likewise for the index
    # by exact position (tt_grow_exact).
    s.exact_pressure += 1
    if s.exact_pressure > <int64_t>((s.exact_bucket_mask + 1) * BUCKET) // GROW_PRESSURE and may_grow_exact(s):
        s.grow_due |= GROW_EXACT


cdef TTSlot* tt_claim(Solver* s, TTKey* k, int ncards) noexcept nogil:
    # The slot of the key's signature, given one if needed: an empty slot of its
    # bucket, else the one of the smallest subtree (if not bigger than this
    # one), else the bucket's last.  An evicted signature's chunks are freed.
    cdef TTSlot* b = s.slots + (k.hash & s.slot_bucket_mask) * BUCKET
    cdef TTSlot* sl = tt_find(s, k)
    cdef int i, ci
    if sl != NULL:
        return sl
    for i in range(BUCKET):
        if b[i].gen != s.gen:
            sl = b + i
            break
    if sl == NULL:
        for i in range(BUCKET - 1):
            if sl == NULL or b[i].ncards < sl.ncards:
                sl = b + i
        if sl.ncards > ncards:
            sl = b + (BUCKET - 1)
        s.tt_evicted += 1
        tt_press_slots(s)
        if sl.head >= 0:
            ci = sl.head
            while s.chunks[ci].next >= 0:
                ci = s.chunks[ci].next
            s.chunks[ci].next = s.free_chunk
            s.free_chunk = sl.head
    sl.gen = s.gen
    sl.meta = k.meta
    sl.lens = k.lens
    sl.cls[0] = k.cls[0]
    sl.cls[1] = k.cls[1]
    sl.absl = k.absl
    sl.ccnt[0] = k.ccnt[0]
    sl.ccnt[1] = k.ccnt[1]
    sl.ccnt[2] = k.ccnt[2]
    sl.ccnt[3] = k.ccnt[3]
    sl.head = -1
    sl.nchunks = 0
    sl.ncards = <uint8_t>ncards
    sl.version += 1
    return sl


cdef void tt_store(Solver* s, TTKey* k, int lo, int hi, int best, u64 rel, int ncards) noexcept nogil:
    if s.stop:
        return                     # an abandoned search's bounds are not results
    # Record lo <= value <= hi for every position of the partition that rel defines.
    cdef u64 em = ks_pext(tt_top_cards(s, k, rel), k.cmask)
    cdef u64 e0 = k.key[0] & em, e1 = k.key[1] & em, e2 = k.key[2] & em
    cdef TTSlot* sl
    cdef TTChunk* ch
    cdef int ci, j
    cdef uint8_t b = <uint8_t>(tt_encode_move(k, best) if best >= 0 else NO_MOVE)
    cdef int prev = -1, last = -1
    if s.grow_due:
        # (no slot or chunk pointer is held here: the table may move)
        if s.grow_due & GROW_SLOTS:
            tt_grow(s)
        if s.grow_due & GROW_EXACT:
            tt_grow_exact(s)
        s.grow_due = 0
    sl = tt_claim(s, k, ncards)
    ci = sl.head
    while ci >= 0:
        ch = s.chunks + ci
        for j in range(ch.n):
            if ch.mask[j] == em and ch.key[j][0] == e0 and ch.key[j][1] == e1 and ch.key[j][2] == e2:
                if lo > ch.lo[j]:
                    ch.lo[j] = lo
                if hi < ch.hi[j]:
                    ch.hi[j] = hi
                if best >= 0:
                    ch.best[j] = b
                if tt_indexed(s, sl):
                    tt_exact_store(s, sl, k, em, ch.lo[j], ch.hi[j], ch.best[j])
                return
        prev = last
        last = ci
        ci = ch.next
    if tt_indexed(s, sl):
        tt_exact_store(s, sl, k, em, lo, hi, b)
    if sl.head < 0 or s.chunks[sl.head].n == CHUNK:
        if sl.nchunks >= s.max_chain:
            # the list is full: recycle its oldest chunk as the head (its
            # entries stay findable from their own positions in `exact`)
            if prev >= 0:
                s.chunks[prev].next = -1
            ci = last
        else:
            if s.free_chunk < 0 and s.chunks_used == s.n_chunks:
                if not tt_grow(s):
                    s.tt_full += 1
                    if not tt_sweep(s):
                        tt_new_generation(s)
                # (the slot has moved, or was freed)
                sl = tt_claim(s, k, ncards)
            if s.free_chunk >= 0:
                ci = s.free_chunk
                s.free_chunk = s.chunks[ci].next
            else:
                ci = s.chunks_used
                s.chunks_used += 1
            sl.nchunks += 1
        ch = s.chunks + ci
        ch.n = 0
        ch.next = sl.head if sl.head != ci else -1
        sl.head = ci
    ch = s.chunks + sl.head
    j = ch.n
    ch.n += 1
    ch.key[j][0] = e0
    ch.key[j][1] = e1
    ch.key[j][2] = e2
    ch.mask[j] = em
    ch.lo[j] = lo
    ch.hi[j] = hi
    ch.best[j] = b
