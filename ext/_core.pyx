# cython: language_level=3
"""kingsolve._core: the native double-dummy search core.

One extension module built from this file and its parts:

- ``ks_types.pxd`` shared C types (contract rules, table entries, solver state),
- ``moves.pxi``    legal plays, move classes (rank equivalence) and ordering,
- ``bounds.pxi``   quick bounds on the points still to be won,
- ``tt.pxi``       the transposition table (partition search over rank-compressed keys),
- ``search.pxi``   the zero-window search and the bound-narrowing driver,
- ``maxn.pxi``     each for himself (max^n): every seat's points, :class:`EachSearch`,

and the Python-visible :class:`Search` below, which validates every input at
the boundary and releases the GIL for each solve.
"""
from libc.stdlib cimport abs
from cpython.exc cimport PyErr_Occurred
from ks_types cimport *

include "moves.pxi"
include "bounds.pxi"
include "tt.pxi"
include "search.pxi"

DEF_TT_LOG2 = 20
ORDER_ORACLE = bool(KS_ORDER_ORACLE)   # Search.order_oracle compiled in (a benchmark's build)
DUCK_TT_SHIFT = 2      # the duck solver's table is this many powers of two smaller
DUCK_MIXED_SUITS = 2  # ... and wanted when at least this many suits mix cards of different points
DUCK_CARDS = 5         # duck_test is tried with at most this many cards a hand
DUCK_GRADED_CARDS = 5  # duck_graded likewise (ru4 erajlash: fewest nodes at 5 of 3 to 8, all
                       # fewer than without it; benchmarks/README.md)
SHORT_HAND_TRICKS = SHORT_HAND  # deals of at most this many tricks are short (their own table chains,
                                # duck solvers); the Python side sizes its tables by it (solver.long_deal)
ks_init_cpu()
cdef u64 VALID_CARDS = 0x1FFF1FFF1FFF1FFF


# ---------------------------------------------------------------- driver --

cdef int child_value(Solver* s, int c, int guess, bint use_guess) noexcept nogil:
    # Exact value for the side after the seat to move plays c.
    cdef int gain, old, v, seat = seat_to_move(s)
    cdef u64 mark
    old = play_card(s, seat, c, &gain, &mark)
    v = gain + solve_value(s, guess - gain, use_guess)
    undo_card(s, seat, c, old)
    return v


cdef bint child_reaches(Solver* s, int c, int target) noexcept nogil:
    # Zero-window test on the position after c: side wins >= target?
    cdef int gain, old, seat = seat_to_move(s)
    cdef bint ok
    cdef u64 mark
    old = play_card(s, seat, c, &gain, &mark)
    ok = can_reach(s, target - gain)
    undo_card(s, seat, c, old)
    return ok


cdef int card_values_c(Solver* s, int* cards, int* values) noexcept nogil:
    # Value of every legal card of the seat to move (equivalent cards share one search).
    cdef int seat = seat_to_move(s)
    cdef int reps[MAX_MOVES]
    cdef u64 groups[MAX_MOVES]
    cdef int nm, i, c, v, k = 0, guess
    cdef u64 g
    guess = solve_value(s, 0, False)
    nm = move_classes(s, legal_plays(s, seat), live_cards(s), reps, groups)
    for i in range(nm):
        if s.stop:
            return 0
        v = child_value(s, reps[i], guess, True)
        g = groups[i]
        while g:
            c = ks_ctz(g)
            g &= g - 1
            cards[k] = c
            values[k] = v
            k += 1
    return k


cdef int line_c(Solver* s, int* out) noexcept nogil:
    # An optimal line to the end: at every step the seat to move plays the first
    # card (in search order) that keeps the value; returns the number of cards.
    cdef int reps[MAX_MOVES]
    cdef u64 groups[MAX_MOVES]
    cdef int k = 0, v, seat, nm, i, c, gain, chosen, first, dummy
    cdef bint maximize
    cdef TTKey key
    cdef u64 mark
    v = solve_value(s, 0, False)
    while not s.stop:
        seat = seat_to_move(s)
        if s.hands[seat] == 0:
            break
        maximize = (s.side >> seat) & 1
        first = -1
        if s.np == 0:
            tt_make_key(s, s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3], &key)
            tt_lookup(s, &key, VAL_INF, &dummy, &mark, &first)
        nm = move_classes(s, legal_plays(s, seat), live_cards(s), reps, groups)
        if nm > 1:
            order_moves(s, seat, nm, reps, groups, first)
        chosen = reps[nm - 1]
        if nm > 1:
            for i in range(nm):
                c = reps[i]
                if maximize:
                    if child_reaches(s, c, v):
                        chosen = c
                        break
                else:
                    if not child_reaches(s, c, v + 1):
                        chosen = c
                        break
        play_card(s, seat, chosen, &gain, &mark)
        v -= gain
        out[k] = chosen
        k += 1
    return k


cdef size_t POPULATE_MAX = <size_t>32 << 20


cdef Solver* solver_alloc(int tt_log2) noexcept:
    # A solver with an empty table of about 2**tt_log2 entries, or NULL.
    # tt_log2 sizes the table: 2**(tt_log2-1) signature slots (96 bytes each)
    # with 2**(tt_log2-1) chunks of CHUNK entries (128 bytes each), and
    # 2**(tt_log2-1) entries by exact position (56 bytes each).
    # A table of POPULATE_MAX bytes or less (the short deals' default size,
    # and their duck solvers') is committed whole at once (see mem.h), cheaply
    # (benchmarks/README.md); a larger one, which a search may never fill, page by page.
    cdef Solver* s = <Solver*>calloc(1, sizeof(Solver))
    cdef int i, populate
    if s == NULL:
        return NULL
    s.tt_log2 = tt_log2
    s.exact_log2 = tt_log2
    s.max_tt_log2 = 0                  # a fixed size (Search sets how far it may grow)
    s.slot_bucket_mask = ((<u64>1) << (tt_log2 - 3)) - 1
    s.n_chunks = 1 << (tt_log2 - 1)
    s.free_chunk = -1
    s.exact_bucket_mask = ((<u64>1) << (tt_log2 - 3)) - 1
    populate = slots_size(s) + chunks_size(s) + exact_size(s) <= POPULATE_MAX
    s.slots = <TTSlot*>ks_table_alloc(slots_size(s), populate)
    s.chunks = <TTChunk*>ks_table_alloc(chunks_size(s), populate)
    s.exact = <TTEntry*>ks_table_alloc(exact_size(s), populate)
    if s.slots == NULL or s.chunks == NULL or s.exact == NULL:
        solver_free(s)
        return NULL
    s.gen = 1
    s.side = -1
    s.single = -1
    s.use_exact = False
    s.max_chain = SHORT_CHAIN
    s.duck = NULL
    for i in range(MAX_SEATS):
        s.ducks[i] = NULL
    return s


cdef void solver_free(Solver* s) noexcept:
    # its table (ks_table_free ignores NULL) and the solver
    if s != NULL:
        ks_table_free(s.slots, slots_size(s))
        ks_table_free(s.chunks, chunks_size(s))
        ks_table_free(s.exact, exact_size(s))
        free(s.order_memo)
        free(s)


cdef int set_rules(Rules* r, int n_seats, int trump, bint inverted, total, list cp, list tp,
                   lr, df) except -1:
    # The contract as data into r (the arguments are checked by Search.configure).
    cdef int i2, c, su, k
    r.n = n_seats
    r.trump = trump
    r.inverted = 1 if inverted else 0
    r.sign = 1 if total >= 0 else -1
    r.n_tricks = len(tp)
    r.point_cards = 0
    for i2 in range(64):
        r.card_points[i2] = cp[i2]
        if cp[i2] != 0:
            r.point_cards |= (<u64>1) << i2
    for i2 in range(MAX_TRICKS):
        r.trick_points[i2] = tp[i2] if i2 < len(tp) else 0
    r.tp_pos[0] = 0
    r.tp_neg[0] = 0
    r.tp_neg_count[0] = 0
    for i2 in range(MAX_TRICKS):
        r.tp_neg_count[i2 + 1] = r.tp_neg_count[i2] + (1 if r.trick_points[i2] < 0 else 0)
        r.tp_pos[i2 + 1] = r.tp_pos[i2] + (r.trick_points[i2] if r.trick_points[i2] > 0 else 0)
        r.tp_neg[i2 + 1] = r.tp_neg[i2] + (r.trick_points[i2] if r.trick_points[i2] < 0 else 0)
    r.lead_restricted = lr
    r.discard_forced = df
    # Ordering scale: the points of an average trick (at least one), in
    # move_score's units of 1/64 point, over LEAD_REPLIES_PER_TRICK replies.
    k = (sum(abs(x) for x in cp) + sum(abs(x) for x in tp)) // max(len(tp), 1)
    r.lead_weight = max(k, 1) * 64 // LEAD_REPLIES_PER_TRICK
    # Attribute classes: cards alike in points and restrictions; plain cards are class 0.
    classes = {(0, 0, 0): 0}
    for i2 in range(64):
        r.class_mask[i2] = 0
    for i2 in range(64):
        attr = (cp[i2], (lr >> i2) & 1, (df >> i2) & 1)
        if attr not in classes:
            classes[attr] = len(classes)
        k = classes[attr]
        r.card_class[i2] = k
        r.class_mask[k] |= (<u64>1) << i2
    r.n_classes = len(classes)
    for su in range(4):
        r.suit_nib[su] = 0
        r.suit_classes[su] = 0
        for k in range(13):
            if r.card_class[16 * su + k] < 16:
                r.suit_nib[su] |= (<u64>r.card_class[16 * su + k]) << (4 * k)
                r.suit_classes[su] |= 1 << r.card_class[16 * su + k]
    for c in range(64):
        su = c >> 4
        if r.inverted:
            r.stronger[c] = (((<u64>1) << c) - 1) & suit_bits(su) & VALID_CARDS
        else:
            r.stronger[c] = ~((((<u64>1) << c) << 1) - 1) & suit_bits(su) & VALID_CARDS
    return 0


# --------------------------------------------------------------- Python API --

cdef list _int_list(obj, str what):
    try:
        return [int(x) for x in obj]
    except (TypeError, ValueError) as err:
        raise ValueError(f"{what} must be a sequence of integers, got {obj!r}") from err


cdef int _as_int32(object x, str what) except? -1:
    if not (-(1 << 31) <= x < (1 << 31)):
        raise ValueError(f"{what} value {x} does not fit in 32 bits")
    return <int>x


cdef class Search:
    """Double-dummy search for King-like contracts given as data.

    ``configure()`` sets the contract, then ``value``/``card_values``/``line``
    answer queries.  The transposition table is kept across queries with the
    same contract and side.  One Search must not be used by two threads at once
    (make one per thread); every solve runs without the GIL.
    """
    cdef Solver* s
    cdef int tt_log2                   # the table's size when made ...
    cdef int max_tt_log2               # ... and the most it may double to in a long search (tt_grow)
    cdef bint configured
    cdef bint busy
    cdef object _config
    cdef object _duck_config           # the duck solvers' rules (see _set_duck), or None
    cdef int duck_game                 # the contract is the duck game (or the trick game) at this many
                                       # points a trick, solved by the duck solvers (see _set_duck), or 0
    cdef int64_t _n0                   # the answering solver's nodes before the query (see _answerer)
    cdef object _proven                # (lo, hi) the last value query proved (see proven), or None
    cdef public double deadline        # each query stops at this time.monotonic() (0: no limit)
    cdef Solver* _running              # the solver answering a value query now (see proving), or NULL
    cdef int _running_scale

    def __cinit__(self, int tt_log2=DEF_TT_LOG2, max_tt_log2=None):
        if not (4 <= tt_log2 <= 30):
            raise ValueError(f"tt_log2 must be in 4..30, got {tt_log2}")
        cdef int grow_to = tt_log2 if max_tt_log2 is None else max_tt_log2
        if not (tt_log2 <= grow_to <= 30):
            raise ValueError(f"max_tt_log2 must be in {tt_log2}..30, got {grow_to}")
        self.tt_log2 = tt_log2
        self.max_tt_log2 = grow_to
        self.s = solver_alloc(tt_log2)
        if self.s == NULL:
            raise MemoryError(f"cannot allocate a table of 2**{tt_log2} entries")
        self.s.max_tt_log2 = grow_to if grow_to > tt_log2 else 0
        self.configured = False
        self.busy = False
        self._config = None
        self._duck_config = None
        self._proven = None

    def __init__(self, int tt_log2=DEF_TT_LOG2, max_tt_log2=None):
        pass

    def __dealloc__(self):
        cdef int i
        if self.s != NULL:
            for i in range(MAX_SEATS):
                solver_free(self.s.ducks[i])
            solver_free(self.s)
            self.s = NULL

    def configure(self, int n_seats, int trump, bint inverted, card_points, trick_points,
                  lead_restricted, discard_forced):
        """Set the contract (see the module docs); clears the table when anything changes."""
        if n_seats not in (3, 4):
            raise ValueError(f"n_seats must be 3 or 4, got {n_seats}")
        if not (-1 <= trump <= 3):
            raise ValueError(f"trump must be -1 (none) or a suit 0..3, got {trump}")
        cp = _int_list(card_points, "card_points")
        tp = _int_list(trick_points, "trick_points")
        if len(cp) != 64:
            raise ValueError(f"card_points must have 64 entries, got {len(cp)}")
        if not (1 <= len(tp) <= MAX_TRICKS):
            raise ValueError(f"trick_points must have 1..{MAX_TRICKS} entries, got {len(tp)}")
        lr = int(lead_restricted)
        df = int(discard_forced)
        for what, m in (("lead_restricted", lr), ("discard_forced", df)):
            if not (0 <= m < (1 << 64)):
                raise ValueError(f"{what} must be a 64-bit mask, got {m!r}")
        lr &= VALID_CARDS
        df &= VALID_CARDS
        total = 0
        for i in range(64):
            _as_int32(cp[i], "card_points")
            if (VALID_CARDS >> i) & 1 == 0:
                cp[i] = 0
            total += cp[i] * 4
        for x in tp:
            _as_int32(x, "trick_points")
            total += x * n_seats
        if sum(abs(x) for x in cp) + sum(abs(x) for x in tp) >= (1 << 28):
            raise ValueError("card_points and trick_points are too large (sum must stay below 2**28)")
        config = (n_seats, trump, bool(inverted), tuple(cp), tuple(tp), lr, df)
        if config == self._config:
            return
        self._acquire()
        try:
            set_rules(&self.s.r, n_seats, trump, inverted, total, cp, tp, lr, df)
            self._set_duck(n_seats, trump, inverted, cp, tp, lr, df)
            self._config = config
            self.configured = True
            tt_new_generation(self.s)
        finally:
            self.busy = False

    cdef int _set_duck(self, int n_seats, int trump, bint inverted, list cp, list tp, lr,
                       df) except -1:
        # The duck solvers (see duck_test in search.pxi), for a lone seat's "takes
        # nothing more" bound: wanted when some points are negative (else that
        # bound never cuts) and some suit mixes cards of different points.  The
        # duck table's signatures leave the points out; it gains where this
        # table's split a suit by its card classes (measured: where no suit is
        # mixed, e.g. every trick or every heart costs the same, it spent more
        # nodes than it saved).
        # Each lone seat has its own duck solver (made in _load when first
        # wanted).  Its table holds only what the duck contract's rules decide
        # (seats, trump, rank order, tricks, lead and discard restrictions), not
        # this contract's points, so it is kept across contracts with the same
        # duck rules (no-boys and no-girls; every seat of a table in turn).
        # Other contracts use the same solvers:
        # - A contract that is the duck game itself, every trick costing the
        #   same and no card (no-tricks), is solved by them outright, so that
        #   their tables are warm for the duck tests of the contracts after it
        #   (fewer duck nodes for no-boys and no-girls on ru4 tables,
        #   no-tricks's own unchanged).  In short deals only: in
        #   king52 their smaller table made no-tricks itself dearer.
        #   So is the trick game, every trick worth the same (plus-tricks, a
        #   lone seat's trump game), for the trick tests below (fewer ru4
        #   plus-boys nodes).
        # - Where no card counts but some tricks cost (no-last-two), the duck
        #   tests are asked in short deals, of the table the contracts before
        #   it warmed (far fewer ru4 no-last-two nodes, a few more on ua3; in
        #   king52 more).
        # - In a positive game where some cards are worth points, and every
        #   trick too (plus-erajlash) or some suits mix cards of different
        #   points (plus-boys, plus-girls), they are trick solvers, every trick
        #   worth 1: can the lone seat win another trick (wins_a_trick)?  Where
        #   the points lie in one suit (plus-hearts, plus-king) that cost more
        #   than it saved (on ru4 tables; the figures of this list are in
        #   benchmarks/README.md).
        cdef Solver* s = self.s
        cdef int i
        mixed = sum(len({cp[su * 16 + i] for i in range(13)}) > 1 for su in range(4))
        self.duck_game = 0
        s.duck_cards = 0
        s.duck_graded = 0
        s.trick_test = False
        if (len(tp) <= SHORT_HAND and all(x == 0 for x in cp) and all(x == tp[0] for x in tp)
                and tp[0] != 0):
            self.duck_game = abs(tp[0])
            self._use_duck_rules((n_seats, trump, bool(inverted), len(tp), lr, df, 1 if tp[0] > 0 else -1))
            return 0
        if not any(x < 0 for x in cp) and not any(x < 0 for x in tp):
            if any(x > 0 for x in cp) and (all(x > 0 for x in tp) or mixed >= DUCK_MIXED_SUITS):
                s.trick_test = True
                self._use_duck_rules((n_seats, trump, bool(inverted), len(tp), lr, df, 1))
            return 0
        if mixed < DUCK_MIXED_SUITS and not (len(tp) <= SHORT_HAND and all(x == 0 for x in cp)):
            return 0
        s.duck_graded = DUCK_GRADED_CARDS if any(x < 0 for x in cp) and any(x < 0 for x in tp) else 0
        s.duck_cards = DUCK_CARDS
        self._use_duck_rules((n_seats, trump, bool(inverted), len(tp), lr, df, -1))
        return 0

    cdef int _use_duck_rules(self, tuple config) except -1:
        # The duck solvers play by `config` from now on; when it changes, their
        # tables start empty.
        cdef int i
        if config != self._duck_config:
            self._duck_config = config
            for i in range(MAX_SEATS):
                if self.s.ducks[i] != NULL:
                    self._duck_rules(self.s.ducks[i], i)
        return 0

    cdef int _duck_rules(self, Solver* d, int seat) except -1:
        # Give duck solver d (of lone seat `seat`) the current duck rules and an
        # empty table: every trick costs 1 (sign -1) or is worth 1 (sign 1).
        n_seats, trump, inverted, n_tricks, lr, df, sign = self._duck_config
        set_rules(&d.r, n_seats, trump, inverted, sign * n_tricks * n_seats, [0] * 64, [sign] * n_tricks,
                  lr, df)
        tt_new_generation(d)
        d.side = 1 << seat
        d.single = seat
        return 0

    cdef int _acquire(self) except -1:
        # Claim the solver for one call (checked and set with no Python code in
        # between, so under the GIL two threads cannot both succeed).
        if self.busy:
            raise RuntimeError("Search is in use by another thread")
        self.busy = True
        return 0

    cdef int _load(self, hands, int leader, trick, int trick_index, int side) except -1:
        # Validate a query, claim the solver and load the query into its state.
        # On success the caller owns the solver and must reset self.busy.
        if not self.configured:
            raise ValueError("configure() must be called before a query")
        cdef Rules* r = &self.s.r
        cdef int n = r.n
        hs = _int_list(hands, "hands")
        tr = _int_list(trick, "trick")
        if len(hs) != n:
            raise ValueError(f"hands must have {n} masks (one per seat), got {len(hs)}")
        if not (0 <= leader < n):
            raise ValueError(f"leader must be a seat 0..{n - 1}, got {leader}")
        if len(tr) > n - 1:
            raise ValueError(f"trick has {len(tr)} cards, at most {n - 1} allowed")
        if not (0 < side < (1 << n)):
            raise ValueError(f"side must be a nonzero mask of seats 0..{n - 1}, got {side}")
        seen = 0
        for i, h in enumerate(hs):
            if not (0 <= h < (1 << 64)) or (h & ~VALID_CARDS):
                raise ValueError(f"hand of seat {i} holds invalid cards: {h:#x}")
            if h & seen:
                raise ValueError(f"hand of seat {i} shares cards with another hand: {h & seen:#x}")
            seen |= h
        for c in tr:
            if not (0 <= c < 64) or not ((VALID_CARDS >> c) & 1):
                raise ValueError(f"trick holds an invalid card {c}")
            if (seen >> c) & 1:
                raise ValueError(f"trick card {c} is also in a hand or repeated in the trick")
            seen |= 1 << c
        to_move = (leader + len(tr)) % n
        remaining = bin(hs[to_move]).count("1")
        if remaining == 0 and tr:
            raise ValueError(f"seat {to_move} must play to the trick but holds no cards")
        for i in range(n):
            played = (i - leader) % n < len(tr)
            want = remaining - (1 if played else 0)
            got = bin(hs[i]).count("1")
            if got != want:
                raise ValueError(f"seat {i} holds {got} cards, expected {want} "
                                 f"(leader {leader}, {len(tr)} cards in the trick)")
        if trick_index < 0 or trick_index + remaining > r.n_tricks:
            raise ValueError(f"trick_index {trick_index} with {remaining} tricks left exceeds "
                             f"the {r.n_tricks} trick_points")
        if ABORT_ALL:
            # searches are being stopped: a new one stops before it starts
            # (a run of short queries would never reach a poll)
            raise KeyboardInterrupt("search stopped (abort_searches)")
        cdef Solver* s = self.s
        cdef int i2
        cdef u64 hm[MAX_SEATS]
        cdef int tm[MAX_SEATS]
        for i2 in range(MAX_SEATS):
            hm[i2] = hs[i2] if i2 < n else 0
            tm[i2] = tr[i2] if i2 < len(tr) else 0
        self._acquire()
        for i2 in range(MAX_SEATS):
            s.hands[i2] = hm[i2]
        count_lens(s)
        s.leader = leader
        s.np = len(tr)
        s.trick_index = trick_index
        s.trick = s.tstack[trick_index]
        for i2 in range(MAX_SEATS):
            s.trick[i2] = tm[i2]
        live_points(s)
        trick_prefix(s)
        deep = remaining + trick_index > SHORT_HAND
        if deep != s.use_exact:
            # the table is organised for short or for long deals: start afresh
            tt_new_generation(s)
            s.use_exact = deep
            s.max_chain = MAX_CHAIN if deep else SHORT_CHAIN
        if side != s.side:
            tt_new_generation(s)
            s.side = side
            s.single = -1
            for i2 in range(n):
                if side == (1 << i2):
                    s.single = i2
        s.duck = NULL
        if (s.duck_cards > 0 or s.trick_test or self.duck_game) and s.single >= 0:
            if s.ducks[s.single] == NULL:
                s.ducks[s.single] = solver_alloc(max(4, self.tt_log2 - DUCK_TT_SHIFT))
                if s.ducks[s.single] == NULL:
                    self.busy = False
                    raise MemoryError("cannot allocate the duck table")
                if self.max_tt_log2 > self.tt_log2:
                    s.ducks[s.single].max_tt_log2 = max(4, self.max_tt_log2 - DUCK_TT_SHIFT)
                elif not deep and self.tt_log2 - DUCK_TT_SHIFT >= 4:
                    # A table of a fixed size, made for a short deal: its duck
                    # tables start smaller and may grow to its own size when a
                    # run of queries fills them (a long deal's fixed size, the
                    # CLI's --tt-size, stays the bound it was on memory).  One table's cells never do (the
                    # ru4 / ua3 guard's nodes are unchanged), but a solver kept
                    # for hundreds of sampled deals does, and advise took
                    # fewer nodes so where a duck or trick solver answers
                    # (benchmarks/README.md)
                    s.ducks[s.single].max_tt_log2 = self.tt_log2
                self._duck_rules(s.ducks[s.single], s.single)
            s.duck = s.ducks[s.single]
            if s.order_memo != NULL and s.duck.order_memo == NULL:
                # debug (order_oracle): the duck game keeps a memo of its own
                s.duck.order_memo = <u64*>calloc(s.order_memo_mask + 1, sizeof(u64))
                if s.duck.order_memo != NULL:
                    s.duck.order_memo_mask = s.order_memo_mask
            s.duck.stop = 0
            s.duck.poll_in = POLL_NODES
            s.duck.deadline = self.deadline
            s.duck.timed_out = 0
        s.stop = 0
        s.poll_in = POLL_NODES
        s.deadline = self.deadline
        s.timed_out = 0
        return 0

    cdef Solver* _answerer(self) noexcept:
        # The solver that answers the query just loaded: this one, or, for a
        # lone seat in the duck game (see _set_duck), its duck solver, given
        # the position (its values are then in tricks: times duck_game points).
        cdef Solver* s = self.s
        cdef Solver* q = s
        if self.duck_game and s.duck != NULL:
            q = s.duck
            copy_position(q, s)
        self._n0 = q.nodes
        return q

    cdef void _answered(self, Solver* q) noexcept:
        # After the query: the duck solver's nodes and stop go to this solver.
        if q != self.s:
            self.s.nodes += q.nodes - self._n0
            if q.stop:
                self.s.stop = 1
                self.s.timed_out |= q.timed_out

    cdef int _check_stop(self) except -1:
        # After a query: if the search was abandoned, raise what stopped it --
        # the KeyboardInterrupt poll_stop left pending, TimeoutError for the
        # time limit (deadline), or KeyboardInterrupt for abort_searches.
        if not self.s.stop:
            return 0
        self.s.stop = 0
        if PyErr_Occurred() != NULL:
            return -1
        if self.s.timed_out:
            raise TimeoutError("search stopped (time limit)")
        raise KeyboardInterrupt("search stopped (abort_searches)")

    def value(self, hands, int leader, trick, int trick_index, int side, guess=None):
        """Points the side's seats win from this position to the end (side max, others min).

        ``guess``, if given, is where the search starts narrowing (a good guess
        saves probes; any integer gives the same value)."""
        cdef int v, g = 0
        cdef bint use_guess = guess is not None
        if use_guess:
            g = _as_int32(int(guess), "guess")
        cdef int scale = 1
        cdef Solver* q
        self._proven = None
        self._load(hands, leader, trick, trick_index, side)
        try:
            q = self._answerer()
            if q != self.s:
                scale = self.duck_game
                g = g // scale
            self._running_scale = scale
            q.proven_lo = 1                # nothing proven yet (an empty interval) until the driver starts
            q.proven_hi = 0
            self._running = q
            with nogil:
                v = solve_value(q, g, use_guess)
            self._running = NULL
            self._proven = (q.proven_lo * scale, q.proven_hi * scale)
            self._answered(q)
            self._check_stop()
        finally:
            self._running = NULL
            self.busy = False
        return v * scale

    @property
    def proving(self):
        """(low, high): what the ``value`` query running now (in another
        thread) has proven so far, or None when none is running.  Read while
        the search writes it: each end is one the driver has proven."""
        cdef Solver* q = self._running
        if q == NULL:
            return None
        lo = q.proven_lo
        hi = q.proven_hi
        if lo > hi:
            return None
        return (lo * self._running_scale, hi * self._running_scale)

    @property
    def proven(self):
        """(low, high): what the last ``value`` query proved of the side's
        points -- the value twice once it returned; when it was stopped
        (KeyboardInterrupt), the interval its finished probes had narrowed
        the value to.  None before any, or if it stopped before searching."""
        return self._proven

    def reaches(self, hands, int leader, trick, int trick_index, int side, int target):
        """Can the side win at least `target` points from this position? (One
        zero-window search: cheaper than the exact value when only that is asked.)"""
        cdef bint ok
        cdef Solver* q
        _as_int32(target, "target")
        self._load(hands, leader, trick, trick_index, side)
        try:
            q = self._answerer()
            if q != self.s:
                # in tricks, rounded up (C division truncates towards zero)
                if target > 0:
                    target = (target + self.duck_game - 1) // self.duck_game
                else:
                    target = -((-target) // self.duck_game)
            with nogil:
                ok = can_reach(q, target)
            self._answered(q)
            self._check_stop()
        finally:
            self.busy = False
        return ok

    def card_values(self, hands, int leader, trick, int trick_index, int side):
        """[(card, value for the side)] for every legal card of the seat to move."""
        cdef int cards[16]
        cdef int values[16]
        cdef int k = 0, scale = 1
        cdef Solver* q
        self._load(hands, leader, trick, trick_index, side)
        try:
            if self.s.hands[(self.s.leader + self.s.np) % self.s.r.n] != 0:
                q = self._answerer()
                if q != self.s:
                    scale = self.duck_game
                with nogil:
                    k = card_values_c(q, cards, values)
                self._answered(q)
                self._check_stop()
        finally:
            self.busy = False
        return sorted((cards[i], values[i] * scale) for i in range(k))

    def line(self, hands, int leader, trick, int trick_index, int side):
        """An optimal sequence of cards to the end of the deal."""
        cdef int out[64]
        cdef int k
        cdef int leader0, np0, ti0
        cdef u64 h0[4]
        self._load(hands, leader, trick, trick_index, side)
        leader0 = self.s.leader
        np0 = self.s.np
        ti0 = self.s.trick_index
        for i in range(4):
            h0[i] = self.s.hands[i]
        cdef Solver* q
        try:
            q = self._answerer()
            with nogil:
                k = line_c(q, out)
            self._answered(q)
            self._check_stop()
        finally:
            for i in range(4):
                self.s.hands[i] = h0[i]
            count_lens(self.s)
            self.s.leader = leader0
            self.s.np = np0
            self.s.trick_index = ti0
            self.s.trick = self.s.tstack[ti0]
            live_points(self.s)
            trick_prefix(self.s)
            self.busy = False
        return [out[i] for i in range(k)]

    def clear(self):
        """Empty the transposition table."""
        cdef int i
        self._acquire()
        tt_new_generation(self.s)
        for i in range(MAX_SEATS):
            if self.s.ducks[i] != NULL:
                tt_new_generation(self.s.ducks[i])
        self.busy = False

    def reset_stats(self):
        self.s.nodes = 0
        self.s.trick_nodes = 0
        self.s.tt_hits = 0
        self.s.tt_probes = 0
        self.s.tt_full = 0
        self.s.tt_swept = 0
        self.s.tt_grown = 0
        self.s.tt_replaced = 0
        self.s.tt_evicted = 0
        for i in range(2):
            self.s.duck_at[i][0] = 0
            self.s.duck_at[i][1] = 0
        self.s.graded_cuts = 0

    @property
    def nodes(self):
        return self.s.nodes

    @property
    def trick_nodes(self):
        # positions at the start of a trick the search reached (one per last
        # card of a trick played): what DDS counts as its nodes
        return self.s.trick_nodes

    @property
    def tt_hits(self):
        return self.s.tt_hits

    @property
    def tt_probes(self):
        return self.s.tt_probes

    @property
    def tt_evicted(self):
        """Signatures evicted from the table to make room (since reset_stats)."""
        return self.s.tt_evicted

    @property
    def tt_full(self):
        """Times the chunks ran out (since reset_stats): each time the signatures
        of the smallest subtrees are freed (counted in tt_swept), or, when that
        frees nothing, the whole table is emptied."""
        return self.s.tt_full

    @property
    def tt_swept(self):
        """Times the table freed the signatures of its smallest subtrees to make
        room (since reset_stats; see tt_sweep in tt.pxi)."""
        return self.s.tt_swept

    @property
    def cut_stats(self):
        # debug: per position in the trick, (cutoffs on the first move, on a later move, all-nodes)
        return [tuple(self.s.cut_at[k][j] for j in range(3)) for k in range(self.s.r.n)]

    def order_oracle(self, int log2=0):
        """Debug: how much of a search is the cost of its move order.  With
        log2 > 0 the search keeps a memo (2**log2 entries) of the card that
        cut off at each position it searched, by exact position, and tries
        that card first whenever it meets the position again (a lone seat's
        duck solver keeps a memo of its own, made with it).  A query
        answered again after ``clear()`` (the tables emptied, the memos
        kept) then searches each position it met before with a refuting move
        first: repeated, that converges on the search with a perfect move
        order along the refutations found (benchmarks/bench_ordering.py).
        0: no memo (the default).  The values never depend on it.  Only in
        a core built with ``KINGSOLVE_ORDER_ORACLE=1`` (see ``ORDER_ORACLE``):
        the product's search does not consult the memo at all."""
        cdef int i
        cdef Solver* d
        if log2 > 0 and not KS_ORDER_ORACLE:
            raise RuntimeError("order_oracle: this core was built without it; rebuild with "
                               "KINGSOLVE_ORDER_ORACLE=1 python setup.py build_ext --inplace --force")
        self._acquire()
        try:
            for i in range(MAX_SEATS + 1):
                d = self.s if i == MAX_SEATS else self.s.ducks[i]
                if d != NULL:
                    free(d.order_memo)
                    d.order_memo = NULL
                    d.order_memo_mask = 0
            if log2 > 0:
                if not 10 <= log2 <= 30:
                    raise ValueError(f"order_oracle: 2**{log2} entries is out of range (2**10 .. 2**30)")
                self.s.order_memo = <u64*>calloc((<size_t>1) << log2, sizeof(u64))
                if self.s.order_memo == NULL:
                    raise MemoryError(f"cannot allocate an order memo of 2**{log2} entries")
                self.s.order_memo_mask = ((<u64>1) << log2) - 1
        finally:
            self.busy = False

    @property
    def graded_cuts(self):
        # debug: tests settled by the lone seat's graded duck bound (duck_graded)
        return self.s.graded_cuts

    @property
    def duck_tables_log2(self):
        """The size of each seat's duck table now (as table_log2), 0 where none was made."""
        return tuple(self.s.ducks[i].tt_log2 if self.s.ducks[i] != NULL else 0 for i in range(MAX_SEATS))

    @property
    def duck_stats(self):
        # debug: ((duck tests that failed, their nodes), (that succeeded, their nodes))
        return tuple((self.s.duck_at[k][0], self.s.duck_at[k][1]) for k in range(2))

    @property
    def tt_log2(self):
        """The table's size when made: 2**tt_log2 entries."""
        return self.tt_log2

    @property
    def max_tt_log2(self):
        """How far the table may grow in a long search: its slots and chunks to
        2**(max_tt_log2-1) each, its index by exact position to twice that
        (tt_log2: it never grows)."""
        return self.max_tt_log2

    @property
    def table_log2(self):
        """The table's size now: 2**(table_log2-1) signature slots and chunks of
        entries (they double when a long search fills them, up to max_tt_log2)."""
        return self.s.tt_log2

    @property
    def exact_log2(self):
        """The size of the index by exact position now: 2**(exact_log2-1) entries
        (it doubles when a long search overwrites its entries, up to max_tt_log2 + 1)."""
        return self.s.exact_log2

    @property
    def table_bytes(self):
        """The main table's memory now, in bytes (its duck tables not counted)."""
        return slots_size(self.s) + chunks_size(self.s) + exact_size(self.s)

    @property
    def tt_grown(self):
        """Times the table's slots and chunks, or its index by exact position, doubled
        (since reset_stats; see tt_grow and tt_grow_exact in tt.pxi)."""
        return self.s.tt_grown

    @property
    def tt_replaced(self):
        """Entries of the exact-position index overwritten by another position (since reset_stats)."""
        return self.s.tt_replaced

    def check_table(self):
        """Debug: (signatures, exact entries) in the main table, after checking
        that each sits in the bucket its hash picks, and each exact entry's
        slot still holds its signature (what tt_grow relies on when it moves
        them); AssertionError if not."""
        cdef Solver* s = self.s
        cdef size_t i, n = (s.slot_bucket_mask + 1) * BUCKET, ne = (s.exact_bucket_mask + 1) * BUCKET
        cdef TTEntry* e
        cdef int slots = 0, entries = 0
        for i in range(n):
            if s.slots[i].gen == s.gen:
                slots += 1
                assert (tt_slot_hash(s.slots + i) & s.slot_bucket_mask) == i // BUCKET, "slot in a wrong bucket"
        for i in range(ne):
            e = s.exact + i
            if not tt_exact_live(s, e):
                continue                # empty, or retired: its signature has left the slot
            entries += 1
            assert (tt_exact_hash(tt_slot_hash(s.slots + e.slot), e.key[0], e.key[1], e.key[2])
                    & s.exact_bucket_mask) == i // BUCKET, "exact entry in a wrong bucket"
        return slots, entries

    def grow_table(self):
        """Debug: double the main table's slots and chunks and its index by
        exact position now, as a long search does when it fills them (within
        max_tt_log2); True if either grew."""
        if self.busy:
            raise RuntimeError("this Search is busy in another thread")
        cdef bint a = tt_grow(self.s)
        cdef bint b = tt_grow_exact(self.s)
        return a or b


def abort_searches(bint stop=True):
    """Make every search running in this process stop within a few
    milliseconds and raise KeyboardInterrupt (stop=True), until called
    with stop=False.  For worker threads, which never see Ctrl-C themselves:
    the main thread calls it when interrupted.  The tables keep only what
    was proved before the stop."""
    global ABORT_ALL
    ABORT_ALL = 1 if stop else 0


# Each for himself (max^n): EachSearch, beside the coalition search above.
include "maxn.pxi"
