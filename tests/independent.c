/* The search of tests/independent.py: a plain alpha-beta for one seat of a
 * King deal, as zero-window tests ("can the seat take at least t points from
 * here?").  Shares nothing with the product's core (ext/): the rules it plays
 * by are the few lines of legal(), winner() and the points below, filled in
 * by independent.py from its own contract tables.
 *
 * Memory: a memo by exact position at the start of each trick (every hand
 * and the leader), holding the interval proven for the value there and the
 * lead that last decided it (move ordering only).  It is a cache: when its
 * probe run is full an entry of the run is replaced, which costs work, never
 * a wrong value (keys are compared whole).  No partition or rank
 * equivalence, no bounds on the points to come, no grouping of cards: every
 * legal card is searched.
 *
 * Built by independent.py with the C compiler that builds the product:
 *     cc -O2 -shared -fPIC independent.c -o independent.so
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;

#define HEARTS 1
#define KING_OF_HEARTS (16 * HEARTS + 13 - 2)
#define PROBE 8

typedef struct {
    u64 hands[4];
    int32_t lo, hi;
    int8_t leader;   /* -1: empty */
    int8_t lead;     /* the lead that last decided it, or -1 */
} Entry;

static int n_seats, trump, me, want, no_heart_lead, forced_king, n_tricks;
static int pts[64], power[64], trick_pts[16], tricks_score[17];
static u64 scoring;
static Entry *memo;
static u64 memo_mask;
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

static u64 hash_of(const u64 *h, int leader) {
    u64 x = (u64)leader * 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < n_seats; i++) {
        x ^= h[i] + 0x9E3779B97F4A7C15ULL + (x << 6) + (x >> 2);
        x *= 0xBF58476D1CE4E5B9ULL;
        x ^= x >> 31;
    }
    return x;
}

static int same(const Entry *e, const u64 *h, int leader) {
    if (e->leader != leader) return 0;
    for (int i = 0; i < n_seats; i++)
        if (e->hands[i] != h[i]) return 0;
    return 1;
}

static Entry *find(const u64 *h, int leader, int make) {
    u64 i = hash_of(h, leader) & memo_mask;
    Entry *e = NULL;
    for (int p = 0; p < PROBE; p++) {
        e = &memo[(i + p) & memo_mask];
        if (e->leader < 0) break;            /* the end of the run: not there */
        if (same(e, h, leader)) return e;
        e = NULL;
    }
    if (!make) return NULL;
    if (!e) e = &memo[(i + (u64)(nodes % PROBE)) & memo_mask];   /* a full run: replace one */
    memcpy(e->hands, h, sizeof(u64) * n_seats);
    e->leader = (int8_t)leader;
    e->lo = -(1 << 30);
    e->hi = 1 << 30;
    e->lead = -1;
    return e;
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

static int reaches(u64 *h, int leader, int index, int target) {
    if (!h[leader]) return target <= 0;
    if (!tricks_score[index]) {
        u64 held = 0;
        for (int i = 0; i < n_seats; i++) held |= h[i];
        if (!(held & scoring)) return target <= 0;   /* nothing left that scores */
    }
    Entry *e = find(h, leader, 0);
    int hint = -1;
    if (e) {
        if (e->lo >= target) return 1;
        if (e->hi < target) return 0;
        hint = e->lead;
    }
    nodes++;
    int trick[4], decided = -1;
    int ok = play(h, leader, index, trick, 0, target, hint, &decided);
    e = find(h, leader, 1);   /* again: the search may have moved it */
    if (ok) { if (target > e->lo) e->lo = target; }
    else { if (target - 1 < e->hi) e->hi = target - 1; }
    if (decided >= 0) e->lead = (int8_t)decided;
    return ok;
}

/* ---- interface ------------------------------------------------------------ */

/* Set the game: seats, trump (-1 none), misère, points of each card, points
 * of each trick, the heart-lead ban, the forced K♥ discard, the seat whose
 * value is asked, and the memo's size (2^log2 entries). */
int ind_setup(int n, int trump_suit, int inverted, const int *card_points, const int *trick_points,
              int tricks, int heart_ban, int king_forced, int seat, int log2) {
    n_seats = n; trump = trump_suit; n_tricks = tricks; no_heart_lead = heart_ban;
    forced_king = king_forced; me = seat;
    long total = 0;
    scoring = 0;
    for (int c = 0; c < 64; c++) {
        pts[c] = card_points[c];
        total += pts[c];
        if (pts[c]) scoring |= (u64)1 << c;
        power[c] = inverted ? 15 - (c & 15) : (c & 15);
    }
    for (int t = 0; t < tricks; t++) { trick_pts[t] = trick_points[t]; total += trick_points[t]; }
    tricks_score[tricks] = 0;
    for (int t = tricks - 1; t >= 0; t--) tricks_score[t] = tricks_score[t + 1] || trick_pts[t];
    want = total > 0;
    u64 size = (u64)1 << log2;
    free(memo);
    memo = malloc(size * sizeof(Entry));
    if (!memo) return -1;
    for (u64 i = 0; i < size; i++) memo[i].leader = -1;
    memo_mask = size - 1;
    nodes = 0;
    return 0;
}

int ind_reaches(const u64 *hands, int leader, int target) {
    u64 h[4] = {0, 0, 0, 0};
    for (int i = 0; i < n_seats; i++) h[i] = hands[i];
    return reaches(h, leader, 0, target);
}

long long ind_nodes(void) { return nodes; }

void ind_free(void) { free(memo); memo = NULL; }
