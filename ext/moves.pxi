# Move generation and ordering (included by _core.pyx).
#
# Legal plays follow the contract data exactly; equivalent cards (adjacent
# among the live cards of a suit, same hand, same attribute class) are one
# move class, searched once through a representative.

cdef inline int seat_plus(int a, int k, int n) noexcept nogil:
    # (a + k) % n for seats 0 <= a, k < n, without a division (hot paths).
    a += k
    return a - n if a >= n else a


cdef inline int seat_to_move(Solver* s) noexcept nogil:
    return seat_plus(s.leader, s.np, s.r.n)


cdef inline int suit_of(int c) noexcept nogil:
    return c >> 4


cdef inline u64 suit_bits(int s) noexcept nogil:
    return (<u64>0x1FFF) << (16 * s)


cdef inline int strength(Rules* r, int c) noexcept nogil:
    # Relative strength inside a suit: rank, or reversed when inverted.
    return (12 - (c & 15)) if r.inverted else (c & 15)


cdef inline int strongest(Rules* r, u64 x) noexcept nogil:
    # The strongest card of a nonempty set of cards of one suit.
    return ks_ctz(x) if r.inverted else ks_msb(x)


cdef inline int weakest(Rules* r, u64 x) noexcept nogil:
    # The weakest card of a nonempty set of cards of one suit.
    return ks_msb(x) if r.inverted else ks_ctz(x)


cdef inline bint beats(Rules* r, int c, int w) noexcept nogil:
    # Does card c beat the card w currently winning the trick?
    if (c >> 4) == (w >> 4):
        return ((r.stronger[w] >> c) & 1) != 0
    return r.trump >= 0 and (c >> 4) == r.trump


cdef inline u64 live_cards(Solver* s) noexcept nogil:
    # Every card still in play: the hands and the current trick.
    cdef u64 live = s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]
    if s.np:
        live |= s.tcards[s.trick_index][s.np - 1]
    return live


cdef inline u64 legal_plays(Solver* s, int seat) noexcept nogil:
    cdef u64 hand = s.hands[seat]
    cdef u64 m
    if s.np == 0:
        m = hand & ~s.r.lead_restricted
        return m if m else hand
    m = hand & suit_bits(suit_of(s.trick[0]))
    if m:
        return m
    m = hand & s.r.discard_forced
    return m if m else hand


cdef inline int move_classes(Solver* s, u64 legal, u64 live, int* reps, u64* groups) noexcept nogil:
    # Split the legal cards into equivalence classes; the representative is the
    # strongest card of each class (partition search in tt.pxi relies on that:
    # the searched card's cut-off sets then cover the unsearched weaker ones).
    # Returns the number of classes, listed by their lowest card index.
    # A legal card joins the class of the legal card below it when the next
    # live card below it in its suit is legal and of its attribute class.  For
    # the legal cards lc of one attribute class, ((lc << 1) + dead) & lc are
    # exactly those cards: the bit above each card of lc carries through the
    # dead positions (valid cards not live) to the next live card up, or stops
    # on the unused bits above the suit's top rank.  A class is then the legal
    # cards from a card that joins none (bit b) up to the next such card.
    cdef u64 dead = ~live & <u64>0x1FFF1FFF1FFF1FFFULL, x = legal, lc, joins = 0, starts, b, g
    cdef int nm = 0
    while x:
        lc = x & s.r.class_mask[s.r.card_class[ks_ctz(x)]]
        x &= ~lc
        joins |= ((lc << 1) + dead) & lc
    starts = legal & ~joins
    while starts:
        b = starts & (0 - starts)
        starts ^= b
        g = legal & (0 - b) & ((starts & (0 - starts)) - 1)
        groups[nm] = g
        reps[nm] = ks_ctz(b) if s.r.inverted else ks_msb(g)
        nm += 1
    return nm


cdef int sure_winner(Solver* s, int seat, int c, int w_card, int wpos, u64* rel) noexcept nogil:
    # The seat to move (np > 0) plays c: the seat sure to win the trick whatever
    # the later seats play, or -1.  rel gets the winning card (every card from it
    # up keeps its owner, so no later seat holds a stronger one anywhere in the
    # partition; voids and trump holdings are in the lengths).
    cdef Rules* r = &s.r
    cdef int k, L, x = w_card, ws = seat_plus(s.leader, wpos, r.n), lead = s.trick[0] >> 4
    cdef u64 h, f
    if beats(r, c, w_card):
        x = c
        ws = seat
    for k in range(s.np + 1, r.n):
        L = seat_plus(s.leader, k, r.n)
        h = s.hands[L]
        f = h & suit_bits(lead)
        if f:
            if (x >> 4) == lead and (f & r.stronger[x]):
                return -1
        elif r.trump >= 0 and (h & suit_bits(r.trump)):
            if (x >> 4) != r.trump or (h & r.stronger[x]):
                return -1
    rel[0] |= (<u64>1) << x
    return ws


cdef int drop_dominated(Solver* s, int seat, int nm, int* reps, u64* groups, u64 live,
                        u64* rel) noexcept nogil:
    # A card to a trick whose winner is known (always for its last card; for
    # an earlier one when sure_winner says so): of move classes of one suit
    # that follow each other among the live cards (a chain: no other seat's
    # card lies between them), alike but for their points, keep only the one
    # best for the seat's team -- the most points into a trick its team wins,
    # the fewest into one the other team wins.  Exact: the winner is the same
    # whichever of them is played (no live card between), and the
    # positions after playing a or b differ only in which of the two the seat
    # keeps; a and b play alike in every continuation (same rank among the
    # other seats' cards, same restrictions), so for every way the play goes
    # the side's points differ by (pa - pb) * ([side wins this trick] -
    # [side wins the trick the kept card falls in]), whose sign is known here.
    # rel gets the weakest card of each chain that lost a class (the chain is
    # one seat's cards from there up throughout the partition), and the
    # winning card sure_winner rests on.  Measured on ru4 / ua3 tables: fewer
    # nodes with it for the last cards, fewer again with the earlier cards of
    # a known winner too (benchmarks/README.md).  Returns the number of
    # classes kept (reps and groups compacted in place).
    cdef Rules* r = &s.r
    cdef int i, j, k = 0, start = 0, keep, c, w_seat
    cdef int wpos = s.twin[s.trick_index][s.np - 1]
    cdef int w_card = s.trick[wpos]
    cdef bint team_wins
    cdef u64 between
    for i in range(1, nm + 1):
        if i < nm:
            c = ks_ctz(groups[i])
            j = ks_msb(groups[i - 1])
            if (c >> 4) == (j >> 4) and r.card_points[reps[i]] != r.card_points[reps[i - 1]]:
                between = (((<u64>1) << c) - 1) & ~((((<u64>1) << j) << 1) - 1)
                if (live & between) == 0 and (((r.discard_forced >> c) ^ (r.discard_forced >> j)) & 1) == 0 and (
                        (((r.lead_restricted >> c) ^ (r.lead_restricted >> j)) & 1) == 0):
                    continue       # group i extends the chain
        # the chain is groups[start .. i - 1]
        if i - start == 1:
            reps[k] = reps[start]
            groups[k] = groups[start]
            k += 1
        else:
            if s.np == r.n - 1:
                w_seat = seat if beats(r, reps[start], w_card) else seat_plus(s.leader, wpos, r.n)
            else:
                w_seat = sure_winner(s, seat, reps[start], w_card, wpos, rel)
                if w_seat < 0:
                    # the winner is not known yet: the chain stays whole
                    for j in range(start, i):
                        reps[k] = reps[j]
                        groups[k] = groups[j]
                        k += 1
                    start = i
                    continue
            # the chain's weakest card, before the compaction overwrites it
            if r.inverted:
                rel[0] |= (<u64>1) << ks_msb(groups[i - 1])
            else:
                rel[0] |= (<u64>1) << ks_ctz(groups[start])
            team_wins = ((s.side >> w_seat) & 1) == ((s.side >> seat) & 1)
            keep = start
            for j in range(start + 1, i):
                if (r.card_points[reps[j]] > r.card_points[reps[keep]]) == team_wins:
                    keep = j
            reps[k] = reps[keep]
            groups[k] = groups[keep]
            k += 1
        start = i
    return k


cdef struct OrderCtx:              # what every move of one node shares
    int table_pts                  # trick points plus the points of the cards on the table
    int w_seat                     # the trick's winner so far (np > 0)
    int w_card                     # its card
    int lead                       # the led suit (np > 0)
    int suit_w[4]                  # lead_suit_weight of each suit (np == 0)
    int n_later                    # seats still to play to the trick after the seat to move,
    int later[MAX_SEATS]           # in order,
    int later_side[MAX_SEATS]      # and whether each one is a seat of the side


cdef int predict_ducker(Solver* s, int seat, int c, OrderCtx* x) noexcept nogil:
    # Guess who wins an unwanted trick (its points, as far as known, cost the
    # taker) if `seat` plays c now: every later seat stays under the winning
    # card when it can, and when it cannot, wins with its strongest card of the
    # suit; a void seat ruffs only when it must, and then under a winning trump
    # when it can.
    cdef Rules* r = &s.r
    cdef int k, p, w_seat = x.w_seat, w_card = x.w_card, lead = x.lead
    cdef u64 hand, follow, m, tr
    if s.np == 0:
        w_seat = seat
        w_card = c
        lead = c >> 4
    elif beats(r, c, w_card):
        w_seat = seat
        w_card = c
    for k in range(x.n_later):
        p = x.later[k]
        hand = s.hands[p]
        follow = hand & suit_bits(lead)
        if follow:
            if (w_card >> 4) == lead and (follow & ~r.stronger[w_card]) == 0:
                w_card = strongest(r, follow)
                w_seat = p
            continue
        if r.trump < 0:
            continue
        m = hand & r.discard_forced
        if m == 0:
            m = hand
        tr = suit_bits(r.trump)
        if m & ~tr:
            continue
        if (w_card >> 4) == r.trump and (m & ~r.stronger[w_card]):
            continue
        w_card = strongest(r, m)
        w_seat = p
    return w_seat


cdef int predict_winner(Solver* s, int seat, int c, OrderCtx* x) noexcept nogil:
    # Guess who wins the trick if `seat` plays c now: every later seat whose team
    # is not winning beats the current winner when it can (with its strongest card
    # of the led suit, or its lowest trump that beats when void), the others play low.
    # The trick's winner so far and the led suit are x's (any, when c leads).
    cdef Rules* r = &s.r
    cdef int k, p, p_side, cand, q, w_seat = x.w_seat, w_card = x.w_card, lead = x.lead, w_side
    cdef u64 hand, follow, tr, beat, threat
    if s.np == 0:
        w_seat = seat
        w_card = c
        lead = c >> 4
    elif beats(r, c, w_card):
        w_seat = seat
        w_card = c
    w_side = (s.side >> w_seat) & 1
    for k in range(x.n_later):
        p = x.later[k]
        p_side = x.later_side[k]
        hand = s.hands[p]
        follow = hand & suit_bits(lead)
        if p_side == w_side:
            # the winner's teammate plays low, or, when a later opponent
            # could beat the winning card, its strongest card if no later
            # opponent holds a stronger card of the suit; its weakest card
            # may still be stronger than the winning card (a singleton king
            # under the ace)
            if follow and (w_card >> 4) == lead:
                threat = 0
                for q in range(k + 1, x.n_later):
                    if x.later_side[q] != p_side:
                        threat |= s.hands[x.later[q]] & suit_bits(lead)
                cand = strongest(r, follow)
                if (threat & r.stronger[w_card]) and (r.stronger[w_card] >> cand) & 1 and not (
                        threat & r.stronger[cand]):
                    w_card = cand
                    w_seat = p
                    continue
                cand = weakest(r, follow)
                if (r.stronger[w_card] >> cand) & 1:
                    w_card = cand
                    w_seat = p
            continue
        if follow:
            if (w_card >> 4) == lead:
                beat = follow & r.stronger[w_card]
                if beat:
                    w_card = strongest(r, beat)
                    w_seat = p
                    w_side = p_side
            continue
        if r.trump >= 0:
            tr = hand & suit_bits(r.trump)
            if (hand & r.discard_forced) and not (r.discard_forced & tr):
                continue
            if tr:
                if (w_card >> 4) == r.trump:
                    tr &= r.stronger[w_card]
                if tr:
                    # the weakest trump that wins
                    cand = weakest(r, tr)
                    w_card = cand
                    w_seat = p
                    w_side = p_side
    return w_seat


cdef inline int lead_suit_weight(Solver* s, int leader, int su) noexcept nogil:
    # Minus the replies the seats outside the leader's team have to a lead of
    # su, in quarter replies (move_score scales it by Rules.lead_weight / 4).
    # In contracts of wanted tricks, a suit whose top card the leader's team
    # does not hold is also weighed by where the top two cards sit (DDS's
    # notrump lead weights): less when the seat playing last is an opponent
    # holding the top card or the second one and another card of the suit (it
    # sits over the leader's team); more when the next seat holds the top card
    # and the leader's partner the second with another card of the suit (led
    # through the top card, the partner's second wins once the top has gone).
    # Measured on 13-card bridge: each rule took fewer nodes; King tables
    # unchanged (benchmarks/README.md).
    cdef int o, w = 0, k, c1, c2 = -1, h1 = -1, h2 = -1
    cdef int team = s.side if (s.side >> leader) & 1 else ~s.side
    cdef int n = s.r.n
    cdef int last = seat_plus(leader, n - 1, n), nxt = seat_plus(leader, 1, n)
    cdef u64 x
    for o in range(n):
        if (team >> o) & 1:
            continue
        k = ks_popcount(s.hands[o] & suit_bits(su))
        w -= k if k else ks_popcount(s.hands[o]) + 1
    w *= 4
    if s.r.sign <= 0:
        return w
    x = (s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3]) & suit_bits(su)
    c1 = strongest(&s.r, x)
    x &= ~((<u64>1) << c1)
    if x:
        c2 = strongest(&s.r, x)
    for o in range(n):
        if (s.hands[o] >> c1) & 1:
            h1 = o
        if c2 >= 0 and (s.hands[o] >> c2) & 1:
            h2 = o
    if (team >> h1) & 1:
        return w
    if not ((team >> last) & 1) and (h1 == last or h2 == last) and (
            ks_popcount(s.hands[last] & suit_bits(su)) > 1):
        w -= LEAD_TOP_BEHIND if h1 == last else LEAD_SECOND_BEHIND
    elif h1 == nxt and h2 >= 0 and h2 != leader and (team >> h2) & 1 and (
            ks_popcount(s.hands[h2] & suit_bits(su)) > 1):
        w += LEAD_SECOND_PARTNER
    return w


cdef inline bint forces_last_top(Solver* s, int c, int w_card) noexcept nogil:
    # Second-to-last card of a trick the last seat (an opponent) will win:
    # does c, beating the trick so far, make that seat spend its top card of
    # the suit (c beats every other card it holds there)?  DDS's "force out
    # the ace" for the third hand.
    cdef Rules* r = &s.r
    cdef int last = seat_plus(s.leader, r.n - 1, r.n), t1
    cdef u64 x = s.hands[last] & suit_bits(c >> 4)
    if x == 0 or not beats(r, c, w_card):
        return False
    t1 = strongest(r, x)
    if not ((r.stronger[c] >> t1) & 1):
        return False
    x &= ~((<u64>1) << t1)
    return x == 0 or ((r.stronger[strongest(r, x)] >> c) & 1) != 0


cdef int64_t move_score(Solver* s, int seat, int c, OrderCtx* x) noexcept nogil:
    # Heuristic ordering score (higher is tried first).  Exactness never depends on it.
    cdef Rules* r = &s.r
    cdef int np = s.np, wseat, pts, value, st = strength(r, c)
    cdef int my_side = (s.side >> seat) & 1
    cdef bint want, team_wins
    pts = x.table_pts + r.card_points[c]
    want = pts > 0 or (pts == 0 and r.sign > 0)
    # In a trick nobody wants (a penalty contract), the seats behind stay under
    # the winning card where they can (predict_ducker), rather than beat it as
    # in a trick game.  Asked for the cards of a lone seat's opponents that
    # follow to a trick (where they keep the lone seat winning it; with a side
    # of several seats, for every seat following): fewer nodes and
    # instructions on ru4 tables, other layouts and king52 penalty contracts,
    # slightly more on ua3 (benchmarks/README.md).  Also asked for the lone
    # seat's own cards, for leads, or both, it was worse on ru4 or ua3.
    if want or np == 0 or seat == s.single:
        wseat = predict_winner(s, seat, c, x)
    else:
        wseat = predict_ducker(s, seat, c, x)
    team_wins = ((s.side >> wseat) & 1) == my_side
    # The trick's worth to my team as predicted, then the card's rank.  A lead
    # also weighs the replies it leaves the other team (their holdings in the
    # suit, or whole hands when void): fewer replies, a smaller subtree (DDS's
    # suit weight).  LEAD_REPLIES_PER_TRICK replies count as much as an
    # average trick's points (Rules.lead_weight; measured best at 4 on bridge
    # and King deals alike).
    value = pts if (s.side >> wseat) & 1 else 0
    if not my_side:
        value = -value
    value *= 64
    if want:
        st = -st
        if (np == s.r.n - 2 and not team_wins and (c >> 4) == x.lead
                and forces_last_top(s, c, x.w_card)):
            # a lost trick that costs the last seat its top card of the suit
            # (fewer 13-card bridge nodes, King unchanged; benchmarks/README.md)
            value += FORCE_TOP_BONUS
    elif np > 0 and (c >> 4) != x.lead and not team_wins:
        # a discard onto the other team's trick: shed what hurts us most
        value += (-r.card_points[c] if my_side else r.card_points[c]) * 4
    if np == 0:
        return (<int64_t>value + x.suit_w[c >> 4] * r.lead_weight // 4) * 32 + st
    return <int64_t>value * 32 + st


cdef inline void last_seat_scores(Solver* s, int seat, int nm, int* reps, int64_t* score) noexcept nogil:
    # move_score for the trick's last card, where the trick's winner follows
    # from the card itself (predict_winner and predict_ducker have no seat
    # left to guess for): the same scores, without the per-node context and
    # the calls (a large share of a ru4 table's nodes are the last card of a
    # trick; benchmarks/README.md)
    cdef Rules* r = &s.r
    cdef int ti = s.trick_index, np = s.np, i, c, win_side, pts, value, st
    cdef int table_pts = r.trick_points[ti] + s.tpos[ti][np - 1] + s.tneg[ti][np - 1]
    cdef int w_pos = s.twin[ti][np - 1]
    cdef int w_seat = seat_plus(s.leader, w_pos, r.n), w_card = s.trick[w_pos], lead = s.trick[0] >> 4
    cdef int my_side = (s.side >> seat) & 1, w_on_side = (s.side >> w_seat) & 1
    cdef bint want
    for i in range(nm):
        c = reps[i]
        pts = table_pts + r.card_points[c]
        want = pts > 0 or (pts == 0 and r.sign > 0)
        # whether the side wins the trick: the seat's team does when c beats
        # the trick so far
        win_side = my_side if beats(r, c, w_card) else w_on_side
        value = pts if win_side else 0
        if not my_side:
            value = -value
        value *= 64
        st = strength(r, c)
        if want:
            st = -st
        elif (c >> 4) != lead and win_side != my_side:
            value += (-r.card_points[c] if my_side else r.card_points[c]) * 4
        score[i] = <int64_t>value * 32 + st


cdef inline void order_moves(Solver* s, int seat, int nm, int* reps, u64* groups, int first) noexcept nogil:
    # Sort the move classes by score; the class holding `first` (a table move) goes first.
    cdef int64_t score[MAX_MOVES]
    cdef int i, j, k
    cdef OrderCtx x
    if s.np == s.r.n - 1:
        # (no table move: the table holds trick starts only; `first` comes
        # only from the debug order_oracle here)
        last_seat_scores(s, seat, nm, reps, score)
        if first >= 0:
            for i in range(nm):
                if (groups[i] >> first) & 1:
                    score[i] = <int64_t>1 << 60
        sort_moves(nm, reps, groups, score)
        return
    x.table_pts = s.r.trick_points[s.trick_index]
    x.w_seat = x.w_card = x.lead = -1
    x.n_later = 0
    for k in range(s.np + 1, s.r.n):
        j = seat_plus(s.leader, k, s.r.n)
        x.later[x.n_later] = j
        x.later_side[x.n_later] = (s.side >> j) & 1
        x.n_later += 1
    if s.np > 0:
        x.table_pts += s.tpos[s.trick_index][s.np - 1] + s.tneg[s.trick_index][s.np - 1]
        k = s.twin[s.trick_index][s.np - 1]
        x.w_seat = seat_plus(s.leader, k, s.r.n)
        x.w_card = s.trick[k]
        x.lead = s.trick[0] >> 4
    else:
        for k in range(4):
            x.suit_w[k] = lead_suit_weight(s, seat, k) if s.hands[seat] & suit_bits(k) else 0
    for i in range(nm):
        if first >= 0 and (groups[i] >> first) & 1:
            score[i] = <int64_t>1 << 60
        else:
            score[i] = move_score(s, seat, reps[i], &x)
            if s.np == 0 and s.r.sign > 0 and (groups[i] & (groups[i] - 1)):
                # in contracts of wanted tricks, a lead from touching cards
                # (a class of two or more) goes before an equal single card,
                # as DDS weighs sequences (fewer trick nodes on most 13-card
                # bridge sets, on 8-card deals and on King, a few more on one
                # bridge set; benchmarks/README.md)
                score[i] += SEQUENCE_LEAD_BONUS * 32
    sort_moves(nm, reps, groups, score)


cdef inline void sort_moves(int nm, int* reps, u64* groups, int64_t* score) noexcept nogil:
    # Insertion sort by decreasing score, ties in their order (stable).
    cdef int64_t ts
    cdef int i, j, tr
    cdef u64 tg
    for i in range(1, nm):
        ts = score[i]
        tr = reps[i]
        tg = groups[i]
        j = i - 1
        while j >= 0 and score[j] < ts:
            score[j + 1] = score[j]
            reps[j + 1] = reps[j]
            groups[j + 1] = groups[j]
            j -= 1
        score[j + 1] = ts
        reps[j + 1] = tr
        groups[j + 1] = tg
