"""The reference engine in pure Python: legal plays, tricks, scoring, replay.

Slow and obviously correct; the Cython core (``kingsolve._core``) is tested
against it.  Seats here are 0-based (seat 1 of the score sheet is 0).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from .cards import SUIT_MASKS, bit, card_symbol, cards_of, count, rank_of, suit_of
from .errors import IllegalPlayError, InvalidLayoutError
from .reporting.text import plural
from .variants import DealRules


@dataclass(frozen=True)
class Position:
    """A position: the cards still held, who led the current trick, the cards
    already on the table in it (from the leader on), and its index in the deal."""
    hands: tuple        # n masks
    leader: int         # 0-based seat that led (or leads) the current trick
    trick: tuple = ()   # cards played to the current trick, leader first
    trick_index: int = 0

    @property
    def n_seats(self) -> int:
        return len(self.hands)

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % self.n_seats

    @property
    def tricks_left(self) -> int:
        """Tricks still to finish, the current one included."""
        return count(self.hands[self.leader]) + (1 if self.trick else 0)

    @property
    def finished(self) -> bool:
        return not self.trick and not any(self.hands)


def check_position(rules: DealRules, pos: Position) -> None:
    """Raise InvalidLayoutError unless ``pos`` is a consistent position for ``rules``."""
    n = rules.n_seats
    if len(pos.hands) != n:
        raise InvalidLayoutError(f"{len(pos.hands)} hands for {n} seats")
    if not 0 <= pos.leader < n:
        raise InvalidLayoutError(f"leader {pos.leader + 1} is not a seat of {n}")
    if len(pos.trick) >= n:
        raise InvalidLayoutError(f"{plural(len(pos.trick), 'card')} on the table: a trick has {n}")
    seen = 0
    for c in pos.trick:
        if seen & bit(c):
            raise InvalidLayoutError(f"{card_symbol(c)} is on the table twice")
        seen |= bit(c)
    for h in pos.hands:
        if seen & h:
            raise InvalidLayoutError(f"{card_symbol((seen & h).bit_length() - 1)} is held twice")
        seen |= h
    size = count(pos.hands[pos.leader]) + (1 if pos.trick else 0)
    for k in range(n):
        seat = (pos.leader + k) % n
        want = size - (1 if k < len(pos.trick) else 0)
        if count(pos.hands[seat]) != want:
            raise InvalidLayoutError(
                f"seat {seat + 1} holds {plural(count(pos.hands[seat]), 'card')}, expected {want}")
    if pos.trick_index + pos.tricks_left > rules.n_tricks:
        raise InvalidLayoutError(f"trick {pos.trick_index + 1} with {pos.tricks_left} to play exceeds the deal's {rules.n_tricks} tricks")


def legal_mask(rules: DealRules, pos: Position) -> int:
    """The cards the seat to move may play."""
    hand = pos.hands[pos.to_move]
    if not pos.trick:
        free = hand & ~rules.lead_restricted
        return free if free else hand
    follow = hand & SUIT_MASKS[suit_of(pos.trick[0])]
    if follow:
        return follow
    forced = hand & rules.discard_forced
    return forced if forced else hand


def strength(rules: DealRules, c: int) -> int:
    return 16 - rank_of(c) if rules.inverted else rank_of(c)


def trick_winner(rules: DealRules, leader: int, cards) -> int:
    """The seat that wins a complete trick led by ``leader``."""
    led = suit_of(cards[0])
    best, best_key = 0, None
    for k, c in enumerate(cards):
        s = suit_of(c)
        if rules.trump >= 0 and s == rules.trump:
            key = (2, strength(rules, c))
        elif s == led:
            key = (1, strength(rules, c))
        else:
            continue
        if best_key is None or key > best_key:
            best, best_key = k, key
    return (leader + best) % rules.n_seats



def hands_from_play(rules: DealRules, leader: int, n_seats: int, cards) -> tuple:
    """Each seat's cards (masks) in a play of whole tricks from ``leader`` on:
    who played each card follows from the trick winners."""
    hands = [0] * n_seats
    for t in range(0, len(cards), n_seats):
        trick = cards[t:t + n_seats]
        for k, c in enumerate(trick):
            hands[(leader + k) % n_seats] |= 1 << c
        leader = trick_winner(rules, leader, trick)
    return tuple(hands)

def trick_value(rules: DealRules, cards, trick_index: int) -> int:
    return sum(rules.card_points[c] for c in cards) + rules.trick_points[trick_index]


def points_at_stake(rules: DealRules, pos: Position) -> int:
    """What every seat together still scores from ``pos`` on (at the start of a
    deal: the contract's total), the points each seat starts with included."""
    held = sum(rules.card_points[c] for h in pos.hands for c in cards_of(h)) + sum(rules.card_points[c] for c in pos.trick)
    return held + sum(rules.trick_points[pos.trick_index:]) + rules.seat_base * rules.n_seats


@dataclass(frozen=True)
class Step:
    """The outcome of one play."""
    position: Position       # after the play
    winner: int | None = None   # when the play completed a trick
    points: int = 0              # points of that trick to the winner


def play(rules: DealRules, pos: Position, c: int) -> Step:
    """Play card ``c`` for the seat to move (no legality check: see :func:`check_play`)."""
    seat = pos.to_move
    hands = list(pos.hands)
    hands[seat] &= ~bit(c)
    trick = pos.trick + (c,)
    if len(trick) < rules.n_seats:
        return Step(replace(pos, hands=tuple(hands), trick=trick))
    winner = trick_winner(rules, pos.leader, trick)
    pts = trick_value(rules, trick, pos.trick_index)
    return Step(Position(tuple(hands), winner, (), pos.trick_index + 1), winner, pts)


def check_play(rules: DealRules, pos: Position, c: int) -> None:
    """Raise IllegalPlayError (who, which trick, why) unless ``c`` is legal here."""
    seat = pos.to_move
    hand = pos.hands[seat]
    where = f"trick {pos.trick_index + 1}, seat {seat + 1}"
    if not hand & bit(c):
        raise IllegalPlayError(f"{where}: {card_symbol(c)} is not in the hand", trick=pos.trick_index + 1,
                               seat=seat + 1, card=c, reason="not-held")
    if legal_mask(rules, pos) & bit(c):
        return
    if not pos.trick:
        lr = rules.lead_restricted
        if count(lr) == 1:  # king52's no-King: the K♥ itself
            why = "may not be led unless it is the last card"
        elif lr == SUIT_MASKS[suit_of(c)]:  # no hearts, no King, erajlash: the heart-lead ban
            why = f"may not be led: no {'♠♥♦♣'[suit_of(c)]} lead while holding another suit"
        else:
            why = "may not be led while holding another card"
        raise IllegalPlayError(f"{where}: {card_symbol(c)} {why}",
                               trick=pos.trick_index + 1, seat=seat + 1, card=c, reason="forbidden-lead")
    led = suit_of(pos.trick[0])
    if hand & SUIT_MASKS[led]:
        raise IllegalPlayError(f"{where}: revoke, {card_symbol(c)} played to a {'♠♥♦♣'[led]} lead while holding "
                               f"{'♠♥♦♣'[led]}",
                               trick=pos.trick_index + 1, seat=seat + 1, card=c, reason="revoke")
    forced = hand & rules.discard_forced
    if forced == bit(forced.bit_length() - 1) and count(rules.discard_forced) == 1:
        raise IllegalPlayError(f"{where}: the King of hearts withheld: void in {'♠♥♦♣'[led]}, the ♥K must be "
                               f"discarded, {card_symbol(c)} played instead",
                               trick=pos.trick_index + 1, seat=seat + 1, card=c, reason="king-withheld")
    trumps = "♠♥♦♣"[rules.trump] if rules.trump >= 0 else "a forced card"
    raise IllegalPlayError(f"{where}: void in {'♠♥♦♣'[led]}, must trump ({trumps}), {card_symbol(c)} played instead",
                           trick=pos.trick_index + 1, seat=seat + 1, card=c, reason="must-trump")


@dataclass
class Replay:
    """A played-out sequence: points and tricks per seat, trick by trick."""
    position: Position
    points: list = field(default_factory=list)   # per seat
    tricks: list = field(default_factory=list)   # per seat
    winners: list = field(default_factory=list)  # winner seat of each completed trick
    trick_cards: list = field(default_factory=list)  # cards of each completed trick


def replay(rules: DealRules, pos: Position, cards) -> Replay:
    """Play ``cards`` in order from ``pos``, checking each; IllegalPlayError on the first bad one."""
    n = rules.n_seats
    out = Replay(pos, [0] * n, [0] * n)
    current = list(pos.trick)
    for c in cards:
        check_play(rules, out.position, c)
        step = play(rules, out.position, c)
        current.append(c)
        if step.winner is not None:
            out.points[step.winner] += step.points
            out.tricks[step.winner] += 1
            out.winners.append(step.winner)
            out.trick_cards.append(tuple(current))
            current = []
        out.position = step.position
    return out
