/* The search of tests/independent.py: a plain alpha-beta for one seat of a
 * King deal, as zero-window tests ("can the seat take at least t points from
 * here?").  Shares nothing with the product's core (ext/): the rules it plays
 * by are the few lines of legal(), winner() and the points below, filled in
 * by independent.py from its own contract tables.
 *
 * Memory: a memo by exact position at the start of each trick, holding the
 * interval proven for the value there and the lead that last decided it
 * (move ordering only).  Within one deal a card's owner never changes, so
 * the position is exactly the cards still held and the leader: that is the
 * key, compared whole.  It is a cache of buckets of four: when a bucket is
 * full the entry with the fewest cards left is replaced, which costs work,
 * never a wrong value.  It is allocated once and emptied for a new game or
 * deal by a generation count.  Before the last card of a trick, the memo is
 * asked about every card's next trick start: one that settles it is played
 * without searching the others.  No partition or rank equivalence, no bounds
 * on the points to come, no grouping of cards: every legal card is searched.
 *
 * Built by independent.py with the C compiler that builds the product:
 *     cc -O3 -shared -fPIC independent.c -o independent.so
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;

#define HEARTS 1
#define KING_OF_HEARTS (16 * HEARTS + 13 - 2)

/* One memo entry: the position at the start of a trick.  Within one deal a
 * card's owner never changes, so the position is exactly the set of cards
 * still held and the leader: the key.  Four entries make a bucket (64 bytes,
 * one cache line). */
typedef struct {
    u64 key;          /* cards still held | leader << 61 | 1 << 63; 0: empty */
    int16_t lo, hi;   /* the interval proven for the value here */
    int8_t lead;      /* the lead that last decided it, or -1 */
    uint8_t gen;      /* the game it belongs to (older ones are empty) */
    uint8_t left;     /* cards left: the work it saves */
    uint8_t pad;
} Entry;

#define BUCKET 4

static int n_seats, trump, me, want, no_heart_lead, forced_king, n_tricks;
static int pts[64], power[64], trick_pts[16], tricks_score[17];
static u64 scoring;
static Entry *memo;
static u64 n_buckets, deal[4];
static uint8_t gen;
static long long nodes;

static inline u64 suit_mask(int s) { return (u64)0x1FFF << (16 * s); }
static inline int suit(int c) { return c >> 4; }

/* ---- rules ------------------------------------------------------------- */

static u64 legal(u64 hand, const int *trick, int k) {
    if (k == 0) {
        if (no_heart_lead && (hand & ~suit_mask(HEARTS)))
            return hand & ~suit_mask(HEARTS);
        return hand;
    }
    u64 follow = hand & suit_mask(suit(trick[0]));
    if (follow) return follow;
    if (forced_king && (hand >> KING_OF_HEARTS & 1)) return (u64)1 << KING_OF_HEARTS;
    return hand;
}

/* does card c beat card b (b played earlier in the trick) */
static inline int beats(int c, int b) {
    if (suit(c) == suit(b)) return power[c] > power[b];
    return suit(c) == trump;
}

static int top_of(const int *trick, int k) {
    int best = 0;
    for (int i = 1; i < k; i++)
        if (beats(trick[i], trick[best])) best = i;
    return best;
}

/* ---- memo --------------------------------------------------------------- */

static Entry *find(u64 held, int leader, int make) {
    u64 key = held | (u64)leader << 61 | (u64)1 << 63;
    u64 x = key * 0x9E3779B97F4A7C15ULL;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 32;
    Entry *b = &memo[(x % n_buckets) * BUCKET], *victim = NULL;
    for (int i = 0; i < BUCKET; i++) {
        Entry *e = &b[i];
        if (e->gen == gen && e->key == key) return e;
        /* an empty entry first, else the one that saves the least work */
        if (!victim || (victim->gen == gen && (e->gen != gen || e->left < victim->left))) victim = e;
    }
    if (!make) return NULL;
    victim->key = key;
    victim->gen = gen;
    victim->left = (uint8_t)__builtin_popcountll(held);
    victim->lo = INT16_MIN;
    victim->hi = INT16_MAX;
    victim->lead = -1;
    return victim;
}

/* ---- move ordering (changes the work, never the value) ----------------- */

static int order(u64 cards, const int *trick, int k, int seat, int leader, int hint, int *out) {
    int m = 0, key[16];
    int top = k ? trick[top_of(trick, k)] : -1;
    int mine = k && (leader + top_of(trick, k)) % n_seats == me;
    int played = ((me - leader + n_seats) % n_seats) < k;
    while (cards) {
        int c = __builtin_ctzll(cards);
        cards &= cards - 1;
        int a = 0, b = 0, p;
        if (k == 0) {
            p = want ? 15 - power[c] : power[c];   /* lead high for tricks, low against them */
        } else {
            int w = beats(c, top);
            if (seat == me) {
                if (want) { a = !w; b = w ? 0 : pts[c]; p = power[c]; }
                else { a = w; b = pts[c]; p = 15 - power[c]; }   /* duck high, shed the costliest */
            } else if (mine || !played) {
                if (want) { a = !w; p = power[c]; }               /* beat the seat cheaply */
                else { a = w; b = pts[c]; p = 15 - power[c]; }    /* let it win, loaded */
            } else {
                b = pts[c];                                       /* keep points low, */
                p = want ? power[c] : 15 - power[c];              /* shed the costliest */
            }
        }
        if (c == hint) a = -1;
        int v = a * 65536 + (b + 256) * 32 + p;
        int j = m++;
        while (j > 0 && key[j - 1] > v) { key[j] = key[j - 1]; out[j] = out[j - 1]; j--; }
        key[j] = v;
        out[j] = c;
    }
    return m;
}

/* ---- search -------------------------------------------------------------- */

static int reaches(u64 *h, int leader, int index, int target);
static int known(u64 held, int leader, int index, int target, int *hint);

static int play(u64 *h, int leader, int index, int *trick, int k, int need, int hint, int *decided) {
    if (k == n_seats) {
        int w = (leader + top_of(trick, k)) % n_seats;
        if (w == me) {
            int v = trick_pts[index];
            for (int i = 0; i < n_seats; i++) v += pts[trick[i]];
            need -= v;
        }
        return reaches(h, w, index + 1, need);
    }
    int seat = (leader + k) % n_seats;
    int maximise = seat == me;
    int cards[16];
    int m = order(legal(h[seat], trick, k), trick, k, seat, leader, k == 0 ? hint : -1, cards);
    u64 hand = h[seat];
    if (k == n_seats - 1) {
        /* the last card of the trick: if the memo already settles one
         * card's trick start in this seat's favour, play it */
        u64 held = 0;
        for (int i = 0; i < n_seats; i++) held |= h[i];
        for (int j = 0; j < k; j++) held &= ~((u64)1 << trick[j]);
        for (int i = 0; i < m; i++) {
            int c = cards[i], w, v = 0, hint;
            trick[k] = c;
            w = (leader + top_of(trick, n_seats)) % n_seats;
            if (w == me) {
                v = trick_pts[index];
                for (int j = 0; j < n_seats; j++) v += pts[trick[j]];
            }
            if (known(held & ~((u64)1 << c), w, index + 1, need - v, &hint) == maximise) return maximise;
        }
    }
    for (int i = 0; i < m; i++) {
        int c = cards[i];
        h[seat] = hand & ~((u64)1 << c);
        trick[k] = c;
        int r = play(h, leader, index, trick, k + 1, need, hint, decided);
        h[seat] = hand;
        if (r == maximise) {
            if (k == 0) *decided = c;
            return r;
        }
    }
    return !maximise;
}

/* What is known at a trick start without searching it: 1 (the seat reaches
 * target), 0 (it does not) or -1 (unknown; *hint: the memo's lead or -1). */
static int known(u64 held, int leader, int index, int target, int *hint) {
    *hint = -1;
    if (!held) return target <= 0;
    if (!tricks_score[index] && !(held & scoring)) return target <= 0;   /* nothing left scores */
    Entry *e = find(held, leader, 0);
    if (!e) return -1;
    if (e->lo >= target) return 1;
    if (e->hi < target) return 0;
    *hint = e->lead;
    return -1;
}

static int reaches(u64 *h, int leader, int index, int target) {
    u64 held = 0;
    for (int i = 0; i < n_seats; i++) held |= h[i];
    int hint, r = known(held, leader, index, target, &hint);
    if (r >= 0) return r;
    nodes++;
    int trick[4], decided = -1;
    int ok = play(h, leader, index, trick, 0, target, hint, &decided);
    Entry *e = find(held, leader, 1);   /* again: the search may have replaced it */
    if (ok) { if (target > e->lo) e->lo = target; }
    else { if (target - 1 < e->hi) e->hi = target - 1; }
    if (decided >= 0) e->lead = (int8_t)decided;
    return ok;
}

/* ---- interface ------------------------------------------------------------ */

/* Forget every entry (a new game or deal): entries of older generations
 * count as empty. */
static void forget(void) {
    if (++gen == 0) {
        memset(memo, 0, n_buckets * BUCKET * sizeof(Entry));
        gen = 1;
    }
}

/* Set the game: seats, trump (-1 none), misère, points of each card, points
 * of each trick, the heart-lead ban, the forced K♥ discard, the seat whose
 * value is asked, and the memo's size (2^log2 entries, kept from one game to
 * the next).  -1: no memory; -2: values beyond the memo's 16 bits. */
int ind_setup(int n, int trump_suit, int inverted, const int *card_points, const int *trick_points,
              int tricks, int heart_ban, int king_forced, int seat, int log2) {
    n_seats = n; trump = trump_suit; n_tricks = tricks; no_heart_lead = heart_ban;
    forced_king = king_forced; me = seat;
    long total = 0, range = 0;
    scoring = 0;
    for (int c = 0; c < 64; c++) {
        pts[c] = card_points[c];
        total += pts[c];
        range += labs(pts[c]);
        if (pts[c]) scoring |= (u64)1 << c;
        power[c] = inverted ? 15 - (c & 15) : (c & 15);
    }
    for (int t = 0; t < tricks; t++) {
        trick_pts[t] = trick_points[t];
        total += trick_points[t];
        range += labs(trick_points[t]);
    }
    if (range > 8000) return -2;
    tricks_score[tricks] = 0;
    for (int t = tricks - 1; t >= 0; t--) tricks_score[t] = tricks_score[t + 1] || trick_pts[t];
    want = total > 0;
    u64 buckets = ((u64)1 << log2) / BUCKET;
    if (buckets != n_buckets) {
        free(memo);
        memo = calloc(buckets * BUCKET, sizeof(Entry));
        n_buckets = memo ? buckets : 0;
        if (!memo) return -1;
        gen = 0;
    }
    forget();
    memset(deal, 0, sizeof deal);
    nodes = 0;
    return 0;
}

/* Can the seat take at least ``target`` from the deal ``hands`` with
 * ``leader`` on lead?  The memo is kept while the deal stays the same. */
int ind_reaches(const u64 *hands, int leader, int target) {
    u64 h[4] = {0, 0, 0, 0};
    for (int i = 0; i < n_seats; i++) h[i] = hands[i];
    if (memcmp(h, deal, sizeof h)) {
        forget();
        memcpy(deal, h, sizeof h);
    }
    return reaches(h, leader, 0, target);
}

long long ind_nodes(void) { return nodes; }

void ind_free(void) { free(memo); memo = NULL; n_buckets = 0; }
