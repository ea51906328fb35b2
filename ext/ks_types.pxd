# Shared C types of the kingsolve search core (one extension: kingsolve._core).
#
# A card is a bit index suit*16 + (rank-2); a set of cards is a uint64 mask.
# Nothing here holds a Python object: the whole search runs without the GIL.
from libc.stdint cimport uint64_t, uint32_t, int32_t, int64_t, uint8_t, uint16_t

ctypedef uint64_t u64

cdef extern from "bits.h" nogil:
    int ks_popcount(u64 x)
    int ks_ctz(u64 x)
    int ks_msb(u64 x)
    void ks_prefetch(const void* p)
    u64 ks_pext(u64 x, u64 m)
    u64 ks_pdep(u64 x, u64 m)
    void ks_init_cpu()
    int ks_fast_pext()             # pext/pdep are one instruction on this CPU

cdef extern from "mem.h" nogil:
    void* ks_table_alloc(size_t size, int populate)
    void ks_table_free(void* p, size_t size)

# Limits.
cdef enum:
    MAX_SEATS = 4          # seats at the table
    MAX_TRICKS = 13        # tricks in a layout
    MAX_MOVES = 16         # move classes of one seat (a hand holds at most 13 cards)
    MAX_CLASSES = 15       # attribute classes usable in a compressed TT key (ids 0..14)
    VAL_INF = 1000000000   # larger than any reachable point total
    NO_MOVE = 255          # "no best move" in a table entry
    BISECT_SPAN = 8        # the driver bisects while the value interval is wider than this
    LEAD_REPLIES_PER_TRICK = 4  # see Rules.lead_weight
    LEAD_TOP_BEHIND = 4    # lead_suit_weight's adjustments, in quarter replies
    LEAD_SECOND_BEHIND = 2
    LEAD_SECOND_PARTNER = 8
    GROW_PRESSURE = 16     # a table that may grow does so once a 16th of its exact entries have been
                           # overwritten (king52: a 4th took more nodes, a 64th hardly fewer;
                           # benchmarks/README.md)
    GROW_SLOTS = 1         # Solver.grow_due: the slots and chunks (tt_grow) ...
    GROW_EXACT = 2         # ... the index by exact position (tt_grow_exact)
    EXACT_HEADROOM = 1     # the exact index may grow to twice the entries of the rest (king52
                           # no-tricks: far fewer nodes for some more memory; benchmarks/README.md)
    GUESS_STEP = 4         # the driver's first step away from a given guess
    POLL_NODES = 65536     # nodes between two checks for Ctrl-C (see poll_stop)
    FORCE_TOP_BONUS = 32   # move_score: a card that forces out the last seat's top card
                           # (half a one-point trick: ahead of other losing cards only)
    SEQUENCE_LEAD_BONUS = 4  # order_moves: a lead from touching cards, in move_score's
                             # value units (a sixteenth of a one-point trick)


cdef struct Rules:
    int n                          # seats at the table, 3 or 4
    int trump                      # trump suit 0..3, or -1 for none
    int inverted                   # 1 when ranks are inverted (misère: ace lowest)
    int sign                       # +1 if the contract's points are mostly positive, -1 if penalties
    int n_tricks                   # len(trick_points)
    int32_t card_points[64]        # points to the winner of the trick holding this card
    int32_t trick_points[MAX_TRICKS]  # points to the winner of trick k (from the first trick)
    int32_t tp_pos[MAX_TRICKS + 1]    # prefix sums of max(trick_points, 0)
    int32_t tp_neg[MAX_TRICKS + 1]    # prefix sums of min(trick_points, 0)
    int32_t tp_neg_count[MAX_TRICKS + 1]  # prefix counts of negative trick_points
    u64 point_cards                # cards with nonzero card_points
    u64 lead_restricted            # may be led only when the leader holds nothing else
    u64 discard_forced             # a void follower holding any of these must play one
    uint8_t card_class[64]         # attribute class (points, restrictions) of each card; 0 = plain
    u64 class_mask[64]             # the cards of each attribute class
    int n_classes                  # attribute classes in use
    u64 stronger[64]               # cards of the same suit that beat this card
    u64 suit_nib[4]                # class of each rank of a suit, 4 bits a rank (rank 2 lowest)
    uint32_t suit_classes[4]       # the classes (below 16) of the cards of each suit, one bit each
    int lead_weight                # move ordering: a lead's worth per reply it leaves the other team


cdef enum:
    CHUNK = 3                      # table entries per chunk
    CCNT_WORDS = 4                 # words of per-seat class counts in a signature
    MAX_CHAIN = 32                 # chunks of a signature's newest entries, long deals (the oldest recycled)
    SHORT_CHAIN = 16               # the same for hands of up to SHORT_HAND cards (8: more ru4 nodes; benchmarks/README.md)
    SHORT_HAND = 10
    EXACT_FROM = 16                # long deals: a signature's entries are also indexed by exact
                                   # position once its list holds this many chunks
    BUCKET = 4                     # signature slots, or exact entries, per bucket


cdef struct TTSlot:                # 96 bytes: one signature (what all its entries share)
    u64 meta                       # leader, trick index, per-suit width/mode/class
    u64 lens                       # length of every seat's holding in every suit, 4 bits each
    u64 cls[2]                     # class of each live card of the mixed suits, 4 bits a card
    u64 absl                       # live cards of the suits keyed by absolute position
    u64 ccnt[CCNT_WORDS]           # per seat, count of each class of the mixed suits, 4 bits each
    uint32_t version               # changes whenever the slot is given to another signature
    int32_t head                   # first chunk of its newest entries, or -1
    uint16_t gen                   # table generation; a slot of another generation is empty
    uint8_t nchunks                # chunks in the list (at most MAX_CHAIN)
    uint8_t ncards                 # cards left (replacement priority: keep bigger subtrees)


cdef struct TTEntry:               # 56 bytes: the entry found by the exact position
    u64 key[3]                     # owner bits of seats 0..2 on every live position
    u64 pmask                      # the mask of the partition the bounds hold for
    int32_t slot                   # its signature's slot ...
    uint32_t version               # ... and the slot's version when it was stored
    int32_t lo                     # lower bound on the side's points from this trick on
    int32_t hi                     # upper bound on the side's points from this trick on
    uint8_t best                   # best lead, or NO_MOVE
    uint16_t gen                   # table generation; an entry of another generation is empty
    uint8_t ncards                 # cards left (replacement priority: keep bigger subtrees)


cdef struct TTChunk:               # 128 bytes: up to CHUNK entries of one signature
    u64 key[CHUNK][3]              # owner bits of seats 0..2 on the entry's mask (seat 3 is implied)
    u64 mask[CHUNK]                # the compressed card positions the entry depends on
    int32_t lo[CHUNK]              # lower bound on the side's points from this trick on
    int32_t hi[CHUNK]              # upper bound on the side's points from this trick on
    uint8_t best[CHUNK]            # best lead, suit*16 + position in the key's suit, or NO_MOVE
    uint8_t n                      # entries in use
    int32_t next                   # next (older) chunk of the same signature, or -1


cdef struct Solver:
    Rules r                        # the contract as data
    TTSlot* slots                  # the transposition table: signatures in BUCKET-slot buckets ...
    u64 slot_bucket_mask           # number of slot buckets - 1
    TTChunk* chunks                # ... and the chunks of entries they point to
    int n_chunks                   # chunks allocated
    int chunks_used                # chunks taken from the pool in this generation
    int free_chunk                 # first chunk of the free list (from evicted signatures), or -1
    TTEntry* exact                 # entries by exact position, in BUCKET-entry buckets
    u64 exact_bucket_mask          # number of exact buckets - 1
    int tt_log2                    # the table's size now: 2**(tt_log2-1) slots and chunks ...
    int exact_log2                 # ... and 2**(exact_log2-1) exact entries
    int max_tt_log2                # each of which may double (tt_grow, tt_grow_exact): tt_log2 up to
                                   # this, exact_log2 up to this + EXACT_HEADROOM (0: never, a fixed
                                   # size or memory refused)
    uint16_t gen                   # current table generation
    int side                       # bitmask of the maximising seats
    int single                     # the side's seat when the side is one seat, else -1
    int max_chain                  # chunks a signature keeps (SHORT_CHAIN or MAX_CHAIN)
    bint use_exact                 # index entries by exact position too (long deals only)
    u64 hands[MAX_SEATS]           # cards still held by each seat
    u64 lens                       # each seat's length in each suit, 4 bits each (bit 16*seat + 4*suit),
                                   # kept by play_card / undo_card (count_lens after any other change)
    int leader                     # seat that led (or leads) the current trick
    int live_pos                   # sum of the positive card_points of the cards not in a closed trick
    int live_neg                   # the same for the negative ones
    int np                         # cards already played to the current trick
    int tstack[MAX_TRICKS + 1][MAX_SEATS]  # cards of each trick by trick index, leader first
    # The trick so far, by trick index and cards played (k + 1 after its card k),
    # kept by play_card (trick_prefix after any other change): the position of
    # the card winning so far, the cards, and their positive and negative points
    int twin[MAX_TRICKS + 1][MAX_SEATS]
    u64 tcards[MAX_TRICKS + 1][MAX_SEATS]
    int tpos[MAX_TRICKS + 1][MAX_SEATS]
    int tneg[MAX_TRICKS + 1][MAX_SEATS]
    int* trick                     # tstack[trick_index]: the current trick
    int trick_index                # index of the current trick in trick_points
    int64_t nodes                  # search nodes (cards played), cumulative
    int64_t trick_nodes            # positions at a trick's start reached by the search (DDS's "nodes")
    int64_t tt_hits                # table probes that found the position
    int64_t tt_probes              # table probes
    int64_t tt_evicted             # signatures evicted to make room for another
    int64_t tt_full                # times the chunks ran out and the table could not grow (see tt_sweep)
    int64_t tt_swept               # ... and the smaller subtrees' signatures were freed
    int64_t tt_grown               # times the slots and chunks, or the exact index, doubled
    int64_t tt_replaced            # exact entries of this generation overwritten by another position
    int64_t slot_pressure          # signatures evicted since the slots last grew
    int64_t exact_pressure         # exact entries overwritten since the exact index last grew
    int grow_due                   # GROW_SLOTS | GROW_EXACT: what pressure says should grow at the next store
    int64_t cut_at[MAX_SEATS][3]   # debug: cutoffs by position in trick: on 1st move, later, none
    u64* order_memo                # debug (Search.order_oracle): the card that cut off at each position
    u64 order_memo_mask            # searched, by a hash of the exact position; or NULL
    Solver* duck                   # the same deal under "every trick costs 1" (see duck_test), or, in
                                   # a positive game, "every trick is worth 1" (the trick solver, see
                                   # wins_a_trick); or NULL: ducks[single], the table of the side's one seat
    Solver* ducks[MAX_SEATS]       # a duck solver per lone seat (allocated when first wanted)
    int duck_cards                 # duck_test is tried with at most this many cards a hand
    int duck_graded                # duck_graded likewise (0: not tried; it is where tricks and
                                   # cards both cost points)
    bint trick_test                # a lone seat in a positive game asks its trick solver whether it
                                   # can win another trick (wins_a_trick)
    int64_t duck_at[2][2]          # debug: duck tests that failed / succeeded, and their nodes
    int64_t graded_cuts            # debug: tests settled by duck_graded
    int stop                       # the query is being abandoned (Ctrl-C, abort_searches): the search
                                   # unwinds at once and stores nothing more in the table
    int poll_in                    # nodes left before the next poll_stop
    double deadline                # the query stops (as on Ctrl-C) at this CLOCK_MONOTONIC time in
                                   # seconds (Python's time.monotonic()); 0: no time limit
    int timed_out                  # ... and it was the deadline that stopped it
    int proven_lo                  # solve_value: the interval its finished probes have proven
    int proven_hi                  # (the value itself once it returns; what was known if stopped)
