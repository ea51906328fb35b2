# Shared C types of the kingsolve search core (one extension: kingsolve._core).
#
# A card is a bit index suit*16 + (rank-2); a set of cards is a uint64 mask.
# Nothing here holds a Python object: the whole search runs without the GIL.
from libc.stdint cimport uint64_t, uint32_t, int32_t, int64_t, uint8_t

ctypedef uint64_t u64

cdef extern from "bits.h" nogil:
    int ks_popcount(u64 x)
    int ks_ctz(u64 x)
    int ks_msb(u64 x)
    u64 ks_pext(u64 x, u64 m)
    void ks_init_cpu()

# Limits.
cdef enum:
    MAX_SEATS = 4          # seats at the table
    MAX_TRICKS = 13        # tricks in a layout
    MAX_MOVES = 16         # move classes of one seat (a hand holds at most 13 cards)
    MAX_CLASSES = 15       # attribute classes usable in a compressed TT key (ids 0..14)
    VAL_INF = 1000000000   # larger than any reachable point total
    NO_MOVE = 255          # "no best move" in a table entry
    BISECT_SPAN = 8        # the driver bisects while the value interval is wider than this


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


cdef struct TTEntry:               # 72 bytes
    u64 key[MAX_SEATS]             # 32: per-seat owner bits of the rank-compressed position
    u64 meta                       # 8: leader, trick index, per-suit width/mode/class
    u64 cls[2]                     # 16: class of each live card of the mixed suits, 4 bits a card
    int32_t lo                     # 4: lower bound on the side's points from this trick on
    int32_t hi                     # 4: upper bound on the side's points from this trick on
    uint8_t best                   # 1: best lead, suit*16 + position in the key's suit, or NO_MOVE
    uint8_t gen                    # 1: table generation; an entry of another generation is empty
    uint8_t ncards                 # 1: cards left (replacement priority: keep bigger subtrees)
    uint8_t pad[5]                 # 5: alignment


cdef struct Solver:
    Rules r                        # the contract as data
    TTEntry* tt                    # the transposition table, 4-entry buckets
    u64 tt_buckets_mask            # number of buckets - 1
    int tt_shift                   # 64 - log2(buckets): hash to bucket index
    uint8_t gen                    # current table generation
    int side                       # bitmask of the maximising seats
    u64 hands[MAX_SEATS]           # cards still held by each seat
    int leader                     # seat that led (or leads) the current trick
    int np                         # cards already played to the current trick
    int tstack[MAX_TRICKS + 1][MAX_SEATS]  # cards of each trick by trick index, leader first
    int* trick                     # tstack[trick_index]: the current trick
    int trick_index                # index of the current trick in trick_points
    int64_t nodes                  # search nodes (cards played), cumulative
    int64_t tt_hits                # table probes that found the position
    int64_t tt_probes              # table probes
    int64_t cut_at[MAX_SEATS][3]   # debug: cutoffs by position in trick: on 1st move, later, none
