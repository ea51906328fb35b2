"""What a seat (or an onlooker) knows about where the cards are, and uniform
random deals consistent with it.

A player at the table sees his own hand, the talon (прикуп) where it lies
open, and every card played so far; some plays tell more than the card:

* a seat that did not follow suit is void in it from then on;
* a seat void in the led suit that did not play a card it was forced to
  (the K♥ in no-King, a trump under ``must-trump``) held none of them;
* a card led from the lead-restricted cards (a heart under the heart-lead
  ban of no-hearts, no-King and erajlash; the K♥ under ``king-lead=king``)
  means the leader held nothing else.

:class:`Knowledge` is the result, as data: the cards known to be in each
*holder* (the seats, then a hidden talon — ``ru3 -o talon=hidden`` — as one
more holder), the unknown cards, how many of them each holder has, and which
of them each may have.  :func:`observe` builds it from a seat's hand and the
play; a caller that has worked the constraints out itself (``verify``'s
readings of a garbled record) makes a :class:`Knowledge` directly.

Counting and sampling are exact.  The unknown cards fall into groups by the
set of holders allowed to hold them; cards of one group are interchangeable
for counting, so the number of consistent deals is a sum over how many cards
of each group each holder takes (a dynamic programme over the groups with
each holder's remaining room, in Python integers: no overflow).  A deal is
drawn group by group, each split chosen with probability proportional to the
deals it leaves, then the group's cards shuffled into that split: uniform by
construction, never by rejection.  The same counts give each card's exact
chance to lie in each hand, so "certain" means *in every consistent deal*.

Randomness is reproducible: sample ``i`` of a run with seed ``s`` is drawn
from ``SeedSequence(s, spawn_key=(stream..., i))``, so it is the same whoever
draws it (any ``--jobs``) and whatever the number of samples asked.

Seats are 0-based here.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, lru_cache
from math import comb

import numpy as np

from .cards import SUIT_MASKS, bit, card_symbol, cards_of, count, suit_of
from .engine import Position, check_play, trick_winner, trick_value
from .errors import IllegalPlayError, InvalidLayoutError
from .variants import DealRules, Variant

TALON = "talon"
"""The name of the hidden talon wherever a holder is named (``known`` pairs)."""


# --------------------------------------------------------------------------- random streams

def rng_for(seed: int, *key: int) -> np.random.Generator:
    """The independent random stream ``key`` (e.g. a sample's index) of a run with ``seed``."""
    return np.random.default_rng(np.random.SeedSequence(int(seed), spawn_key=tuple(int(k) for k in key)))


def uniform_below(rng: np.random.Generator, total: int) -> int:
    """A uniform integer in ``[0, total)`` for any Python int ``total`` ≥ 1
    (numpy's own draw stops at 2^63; beyond, whole random bytes are drawn
    and a value ≥ ``total`` is drawn again: exact, two tries on average)."""
    if total < 1:
        raise ValueError("uniform_below needs total >= 1")
    if total <= 1 << 62:
        return int(rng.integers(total))
    bits = total.bit_length()
    nbytes = (bits + 7) // 8
    while True:
        x = int.from_bytes(rng.bytes(nbytes), "little") >> (8 * nbytes - bits)
        if x < total:
            return x


# --------------------------------------------------------------------------- knowledge

@dataclass(frozen=True)
class Knowledge:
    """Where the cards may be, for one onlooker.  Holders are the seats
    (0-based) then, when ``len(known) > n_seats``, a hidden talon.

    ``known[h]``   cards known to be in holder ``h`` now;
    ``unknown``    the cards whose holder is not known;
    ``need[h]``    how many of the unknown cards holder ``h`` has;
    ``allowed[h]`` which of the unknown cards holder ``h`` may have;
    ``reasons[h]`` ``((mask, why), …)``: why cards were ruled out for ``h``.

    A deal is a tuple of masks, one a holder: its known cards and its share
    of the unknown ones."""
    n_seats: int
    known: tuple
    unknown: int
    need: tuple
    allowed: tuple
    reasons: tuple = ()

    @property
    def holders(self) -> int:
        return len(self.need)

    # ----------------------------------------------------------- the groups and the counts
    @cached_property
    def _groups(self) -> tuple:
        # ((holder indices), (cards…)) in the order of each group's lowest card
        groups: dict = {}
        for c in cards_of(self.unknown):
            who = tuple(h for h in range(self.holders) if self.allowed[h] >> c & 1)
            groups.setdefault(who, []).append(c)
        return tuple((who, tuple(cs)) for who, cs in groups.items())

    @cached_property
    def _table(self) -> dict:
        # (group index, room left per holder) -> [(split, ways the split leaves × its multinomial)]
        # for the reachable states, and (index, room) -> deals from there in "_ways".
        return {}

    def _ways(self, i: int, room: tuple) -> int:
        """Deals of groups ``i``.. into ``room`` (every holder filled exactly)."""
        key = (i, room)
        memo = self._table
        if key in memo:
            return memo[key][0]
        groups = self._groups
        if i == len(groups):
            total, options = (1 if not any(room) else 0), ()
        else:
            who, cs = groups[i]
            m = len(cs)
            options = []
            total = 0
            if sum(room[h] for h in who) >= m:
                for split in _splits(m, [room[h] for h in who]):
                    rest = list(room)
                    mult, left = 1, m
                    for h, k in zip(who, split):
                        rest[h] -= k
                        mult *= comb(left, k)
                        left -= k
                    w = self._ways(i + 1, tuple(rest))
                    if w:
                        options.append((split, mult * w))
                        total += mult * w
        memo[key] = (total, tuple(options))
        return total

    @cached_property
    def count(self) -> int:
        """The number of deals consistent with what is known (exact)."""
        if any(x < 0 for x in self.need) or sum(self.need) != count(self.unknown):
            return 0
        for h in range(self.holders):
            if self.allowed[h] & ~self.unknown:
                raise ValueError("allowed cards outside the unknown ones")
        if any(not who for who, _ in self._groups):
            return 0
        return self._ways(0, tuple(self.need))

    @property
    def consistent(self) -> bool:
        return self.count > 0

    # ----------------------------------------------------------- drawing
    def draw(self, rng: np.random.Generator) -> tuple:
        """One deal, uniformly among the consistent ones (ValueError if none)."""
        if not self.count:
            raise ValueError("no deal is consistent with what is known")
        hands = list(self.known)
        room = tuple(self.need)
        for i, (who, cs) in enumerate(self._groups):
            total, options = self._table[(i, room)]
            if len(options) == 1:
                # a forced split: no draw (so a whole-deck deal is one permutation, as it always was)
                split = options[0][0]
            else:
                r = uniform_below(rng, total)
                for split, w in options:
                    if r < w:
                        break
                    r -= w
            order = rng.permutation(len(cs)).tolist()
            at = 0
            rest = list(room)
            for h, k in zip(who, split):
                for j in order[at:at + k]:
                    hands[h] |= 1 << cs[j]
                at += k
                rest[h] -= k
            room = tuple(rest)
        return tuple(hands)

    def sample(self, seed: int, index: int, stream: tuple = ()) -> tuple:
        """Deal number ``index`` of the run with ``seed`` (and ``stream``, a
        tuple of ints that keeps one use's samples apart from another's)."""
        return self.draw(rng_for(seed, *stream, index))

    def samples(self, seed: int, start: int, stop: int, stream: tuple = ()) -> np.ndarray:
        """Deals ``start``..``stop - 1`` as an array (k, holders) of uint64 masks."""
        out = np.empty((max(0, stop - start), self.holders), dtype=np.uint64)
        for j, i in enumerate(range(start, stop)):
            out[j] = self.sample(seed, i, stream)
        return out

    def deals(self):
        """Every consistent deal, one after another (in a fixed order)."""
        if not self.count:
            return
        groups = self._groups
        hands = list(self.known)

        def go(i, room):
            if i == len(groups):
                yield tuple(hands)
                return
            who, cs = groups[i]
            for split, _ in self._table[(i, room)][1]:
                rest = list(room)
                for h, k in zip(who, split):
                    rest[h] -= k
                for parts in _partitions(cs, split):
                    saved = [hands[h] for h in who]
                    for h, part in zip(who, parts):
                        for c in part:
                            hands[h] |= 1 << c
                    yield from go(i + 1, tuple(rest))
                    for h, s in zip(who, saved):
                        hands[h] = s

        yield from go(0, tuple(self.need))

    # ----------------------------------------------------------- marginals
    @cached_property
    def _holder_ways(self) -> list:
        # per group: per holder of the group, the deals (summed over all) times the cards it takes there
        total = self.count
        groups = self._groups
        out = []
        if not total:
            return [(who, [0] * len(who)) for who, _ in groups]
        forward = {tuple(self.need): 1}
        for i, (who, cs) in enumerate(groups):
            acc = [0] * len(who)
            nxt: dict = {}
            for room, f in forward.items():
                entry = self._table.get((i, room))
                if entry is None:
                    self._ways(i, room)
                    entry = self._table[(i, room)]
                for split, w in entry[1]:
                    for j, k in enumerate(split):
                        acc[j] += f * w * k
                    rest = list(room)
                    for h, k in zip(who, split):
                        rest[h] -= k
                    rest = tuple(rest)
                    # the ways to reach `rest` through this split (w counts the groups after, too)
                    nxt[rest] = nxt.get(rest, 0) + f * (w // self._ways(i + 1, rest))
            forward = nxt
            out.append((who, acc))
        return out

    def chance(self, holder: int, card: int) -> Fraction:
        """The exact share of the consistent deals in which ``holder`` has ``card``."""
        if not self.count:
            return Fraction(0)
        if self.known[holder] >> card & 1:
            return Fraction(1)
        if not self.unknown >> card & 1:
            return Fraction(0)
        for (who, cs), (_, acc) in zip(self._groups, self._holder_ways):
            if card in cs:
                if holder not in who:
                    return Fraction(0)
                return Fraction(acc[who.index(holder)], len(cs) * self.count)
        return Fraction(0)  # pragma: no cover - every unknown card is in a group

    def marginals(self) -> np.ndarray:
        """Each card's chance to be in each holder: an array (holders, 64) of floats."""
        out = np.zeros((self.holders, 64))
        for h in range(self.holders):
            for c in cards_of(self.known[h]):
                out[h, c] = 1.0
        if self.count:
            for (who, cs), (_, acc) in zip(self._groups, self._holder_ways):
                for j, h in enumerate(who):
                    out[h, list(cs)] = acc[j] / (len(cs) * self.count)
        return out

    def certain(self) -> tuple:
        """Per holder, the cards it has in every consistent deal (exact)."""
        out = list(self.known)
        if self.count:
            for (who, cs), (_, acc) in zip(self._groups, self._holder_ways):
                for j, h in enumerate(who):
                    if acc[j] == len(cs) * self.count:
                        for c in cs:
                            out[h] |= bit(c)
        return tuple(out)

    def possible(self) -> tuple:
        """Per holder, the cards it has in at least one consistent deal."""
        out = list(self.known)
        if self.count:
            for (who, cs), (_, acc) in zip(self._groups, self._holder_ways):
                for j, h in enumerate(who):
                    if acc[j]:
                        for c in cs:
                            out[h] |= bit(c)
        return tuple(out)

    def why_not(self, holder: int, card: int) -> str | None:
        """Why ``holder`` cannot have ``card`` (a reason recorded), if one was."""
        for mask, why in (self.reasons[holder] if holder < len(self.reasons) else ()):
            if mask >> card & 1:
                return why
        return None


def _splits(total: int, caps: list):
    """Every way to write ``total`` as ``len(caps)`` parts, part k at most ``caps[k]``."""
    if not caps:
        if total == 0:
            yield ()
        return
    rest = sum(caps[1:])
    for k in range(max(0, total - rest), min(total, caps[0]) + 1):
        for tail in _splits(total - k, caps[1:]):
            yield (k,) + tail


def _partitions(cards: tuple, split: tuple):
    """Every way to cut ``cards`` into consecutive parts of the sizes in ``split`` (as sets)."""
    if not split:
        yield ()
        return
    k = split[0]
    for first in itertools.combinations(cards, k):
        rest = tuple(c for c in cards if c not in first)
        for tail in _partitions(rest, split[1:]):
            yield (first,) + tail


def can_deal(unseen: int, need: tuple, forbid) -> bool:
    """Whether ``unseen`` can be dealt at all, ``need[h]`` cards to holder ``h``
    and none in ``forbid[h]``: the cards only the holders of T may have must
    fit in T's room, for every set T (Hall's condition; cheaper than
    counting, for a search that asks at every step)."""
    n = len(need)
    if sum(need) != count(unseen) or min(need) < 0:
        return False
    for t in range(1, 1 << n):
        only, room = unseen, 0
        for s in range(n):
            if t >> s & 1:
                room += need[s]
            else:
                only &= forbid[s]
        if count(only) > room:
            return False
    return True


def from_constraints(n_seats: int, unknown: int, need: tuple, forbidden: tuple, reasons: tuple = (),
                     known: tuple | None = None) -> Knowledge:
    """A :class:`Knowledge` from the unknown cards, each holder's count of them
    and the cards each holder cannot have (``forbidden``, any mask)."""
    holders = len(need)
    return Knowledge(n_seats, tuple(known) if known is not None else (0,) * holders, unknown, tuple(need),
                     tuple(unknown & ~f for f in forbidden), tuple(reasons))


def whole_deck(variant: Variant, hand_size: int | None = None) -> Knowledge:
    """Nothing known: ``hand_size`` cards (default the variant's) to each seat
    from the variant's deck, and the cards left over (the hidden talon, or the
    undealt rest of a shortened deal) to one more holder."""
    hs = variant.hand_size if hand_size is None else int(hand_size)
    return _whole_deck(variant, hs)


@lru_cache(maxsize=16)
def _whole_deck(variant: Variant, hs: int) -> Knowledge:
    n = variant.n_seats
    rest = count(variant.deck) - n * hs
    if not 1 <= hs <= variant.hand_size or rest < 0:
        raise ValueError(f"{variant.id} deals 1..{variant.hand_size} cards a hand, not {hs}")
    need = (hs,) * n + ((rest,) if rest else ())
    return from_constraints(n, variant.deck, need, (0,) * len(need))


def random_deal(variant: Variant, seed: int, index: int, hand_size: int | None = None,
                stream: tuple = ()) -> tuple:
    """Random deal number ``index`` of the run with ``seed``: the seats' hands
    (``hand_size`` cards each) of a uniform deal of the whole deck
    (:func:`whole_deck`), drawn as :meth:`Knowledge.sample` draws.  With one
    group of cards and a forced split it is one permutation of the deck in
    card order, hand ``h`` taking its ``h``-th run of ``hand_size`` cards."""
    return whole_deck(variant, hand_size).sample(seed, index, stream)[:variant.n_seats]


# --------------------------------------------------------------------------- the table as a seat sees it

@dataclass
class Observation:
    """A seat's view of a deal after the cards of ``plays``: the
    :class:`Knowledge` and where the play stands (the leader of the current
    trick, the cards on the table in it, its index), what each seat has
    played, and the points and tricks each took so far."""
    knowledge: Knowledge
    seat: int | None
    leader: int
    trick: tuple
    trick_index: int
    played: tuple
    points: tuple
    tricks: tuple
    rules: DealRules = field(repr=False, default=None)

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % self.knowledge.n_seats

    def position(self, deal: tuple) -> Position:
        """The position now, with the unseen cards lying as in ``deal``."""
        n = self.knowledge.n_seats
        return Position(tuple(int(h) for h in deal[:n]), self.leader, self.trick, self.trick_index)


def _where(trick_index: int, seat: int) -> str:
    return f"trick {trick_index + 1}, seat {seat + 1}"


def observe(variant: Variant, rules: DealRules, *, seat: int | None, hand: int = 0, leader: int = 0,
            plays=(), known=(), partial: bool = False) -> Observation:
    """What ``seat`` knows (``None``: an onlooker who holds no cards) after
    ``plays`` (every card played so far, from the first lead of the deal) —
    holding ``hand`` at the start of the deal, with ``known`` pairs (seat or
    :data:`TALON`, mask) of other cards it has seen in a hand at the start.
    ``partial``: ``hand`` is only part of the seat's hand (a seller who has
    seen his first three cards); the rest of it is dealt like any unseen card.

    ``bid`` asks the same question before any play: its knowledge is
    ``observe(variant, rules, seat=seat, hand=hand, known=known, partial=...)``
    and its deals ``.knowledge.samples(seed, start, stop)[:, :n_seats]``.

    Raises a one-line :class:`InvalidLayoutError` (a card given twice, a hand
    of the wrong size) or :class:`IllegalPlayError` (a play no consistent deal
    allows: its trick, seat and why)."""
    n = variant.n_seats
    size = rules.n_tricks
    deck = variant.deck
    hidden = variant.hidden_talon
    holders = n + (1 if hidden else 0)
    if not 0 <= leader < n:
        raise InvalidLayoutError(f"leader {leader + 1} is not one of 1..{n}")
    start = [0] * holders           # cards known to be in a holder at the start of the deal
    if seat is not None:
        if not 0 <= seat < n:
            raise InvalidLayoutError(f"seat {seat + 1} is not one of 1..{n}")
        _check_in_deck(variant, hand, f"the hand of seat {seat + 1}")
        if count(hand) != size and not (partial and count(hand) < size):
            raise InvalidLayoutError(f"the hand of seat {seat + 1} has {count(hand)} cards; {variant.id} deals {size}")
        start[seat] = hand
    elif hand:
        raise InvalidLayoutError("an onlooker holds no hand")
    seen = hand
    for who, mask in known:
        if who == TALON:
            if not hidden:
                raise InvalidLayoutError(f"{variant.id} has no hidden talon (the talon is known: it is out of the deck)")
            h, where = n, "the hidden talon"
        else:
            if not 0 <= who < n:
                raise InvalidLayoutError(f"known cards for seat {who + 1}: not one of 1..{n}")
            if who == seat:
                raise InvalidLayoutError(f"known cards for seat {who + 1}: that is the seat's own hand")
            h, where = who, f"seat {who + 1}"
        _check_in_deck(variant, mask, f"the known cards of {where}")
        dup = seen & mask
        if dup:
            raise InvalidLayoutError(f"{card_symbol(dup.bit_length() - 1)} is given twice (again for {where})")
        seen |= mask
        start[h] |= mask
    for h in range(holders):
        cap = size if h < n else hidden
        if count(start[h]) > cap:
            what = f"seat {h + 1}" if h < n else "the hidden talon"
            raise InvalidLayoutError(f"{what} would hold {count(start[h])} known cards; it holds {cap}")

    forbid = [0] * holders
    reasons = [[] for _ in range(holders)]
    played = [0] * n
    used = 0
    points, tricks = [0] * n, [0] * n
    trick: list = []
    tidx = 0
    lead = leader
    own = hand                      # the seat's cards still in hand
    for c in plays:
        if tidx >= size:
            raise IllegalPlayError(f"{card_symbol(c)}: the deal has only {size} tricks", trick=size + 1, card=c,
                                   reason="past-the-end")
        who = (lead + len(trick)) % n
        where = _where(tidx, who)

        def bad(why, reason="not-held"):
            return IllegalPlayError(f"{where}: {card_symbol(c)} {why}", trick=tidx + 1, seat=who + 1, card=c,
                                    reason=reason)
        if not deck >> c & 1:
            raise bad("is in the talon" if variant.talon >> c & 1 else f"is not in the deck of {variant.id}")
        if used >> c & 1:
            raise bad("was already played")
        owner = next((h for h in range(holders) if start[h] >> c & 1), None)
        if owner is not None and owner != who:
            held_by = "the hidden talon" if owner == n else f"seat {owner + 1}"
            raise bad(f"cannot be seat {who + 1}'s: it is {held_by}'s")
        if forbid[who] >> c & 1:
            raise bad(f"cannot be seat {who + 1}'s: {_why(reasons[who], c)}")
        if count(played[who]) >= size:
            raise bad("is one card too many", "too-many")
        if who == seat and not partial:
            # the seat's own play: its whole hand is known, the engine judges it
            hands = [0] * n
            hands[who] = own
            check_play(rules, Position(tuple(hands), lead, tuple(trick), tidx), c)
            own &= ~bit(c)
        else:
            new_f, new_r = 0, ""
            if not trick:
                if rules.lead_restricted >> c & 1:
                    new_f = deck & ~rules.lead_restricted
                    new_r = (f"led {card_symbol(c)} at trick {tidx + 1}, so held only "
                             + ("hearts" if count(rules.lead_restricted & deck) > 1 else card_symbol(c)) + " then")
            else:
                led = suit_of(trick[0])
                if suit_of(c) != led:
                    new_f = SUIT_MASKS[led] & deck
                    new_r = f"showed out of {'♠♥♦♣'[led]} at trick {tidx + 1}"
                    if rules.discard_forced and not rules.discard_forced >> c & 1:
                        extra = rules.discard_forced & deck
                        what = ("the " + card_symbol(extra.bit_length() - 1)) if count(extra) == 1 else "a trump"
                        new_f |= extra
                        new_r += f" and did not play {what}"
            if new_f:
                clash = start[who] & ~played[who] & ~bit(c) & new_f
                if clash:
                    raise bad(f"cannot be played: seat {who + 1} then held {card_symbol(clash.bit_length() - 1)} "
                              f"(so it {'could not lead it' if not trick else 'had to follow suit or play the forced card'})",
                              "inconsistent")
                forbid[who] |= new_f
                reasons[who].append((new_f, new_r))
        played[who] |= bit(c)
        used |= bit(c)
        trick.append(c)
        if len(trick) == n:
            w = trick_winner(rules, lead, trick)
            points[w] += trick_value(rules, trick, tidx)
            tricks[w] += 1
            lead, trick, tidx = w, [], tidx + 1

    now = [start[h] & ~used for h in range(holders)]
    unknown = deck & ~used
    for h in range(holders):
        unknown &= ~now[h]
    need = [size - count(played[h]) - count(now[h]) for h in range(n)]
    if hidden:
        need.append(hidden - count(now[n]))
    # cards that another holder is known to have are never unknown; a seat may hold an unknown
    # card unless a play ruled it out (the seat itself, whose hand is known, needs none)
    forbidden = [forbid[h] for h in range(holders)]
    know = from_constraints(n, unknown, tuple(need), tuple(forbidden),
                            tuple(tuple(r) for r in reasons), tuple(now))
    for h in range(n):
        clash = now[h] & forbid[h]
        if clash:  # pragma: no cover - caught at the play that made the rule
            raise IllegalPlayError(f"seat {h + 1} cannot hold {card_symbol(clash.bit_length() - 1)}")
    if not know.count:
        raise IllegalPlayError("no deal is consistent with the play: the cards left cannot make up the hands "
                               "(" + "; ".join(f"seat {h + 1} {r[-1][1]}" for h, r in enumerate(reasons[:n]) if r)
                               + ")", reason="inconsistent")
    return Observation(know, seat, lead, tuple(trick), tidx, tuple(played), tuple(points), tuple(tricks), rules)


def _why(reasons, c) -> str:
    for mask, why in reasons:
        if mask >> c & 1:
            return why
    return "ruled out"


def _check_in_deck(variant: Variant, mask: int, where: str) -> None:
    outside = mask & ~variant.deck
    if outside:
        c = outside.bit_length() - 1
        why = "is in the talon" if variant.talon & bit(c) else "is not in the deck"
        raise InvalidLayoutError(f"{where}: {card_symbol(c)} {why} of {variant.id}")
