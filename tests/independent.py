"""An independent double-dummy solver for full King deals (``ru4``, ``ua3``), the
oracle of ``test_independent.py``.

It shares no code with the product: not the search core, not
``kingsolve.reference`` / ``kingsolve.engine`` (the pure-Python engine the
reference solver runs on), not even ``kingsolve.variants``' contract tables.
Its rules are written out again below from the rules of the game (source 000
(Ukrainian) and source 001 (Russian)): the prices of every contract, following
suit, the heart-lead ban, the forced discard of the King of hearts, the trick's
winner (trumps, misère's inverted ranks).  The only thing it has in common with
the product is the card numbering of the hands it is given: card = suit × 16 +
rank − 2, suits ♠ ♥ ♦ ♣ = 0..3, ranks 2..14 (so a ``Layout``'s masks can be
passed as they are).

The search is a plain alpha-beta, as zero-window tests ("can the seat take at
least t points from here?") narrowed to the exact value: the first two at a
guess (the test passes the product's value) and one unit above it, which
prove the value when the guess is right, then bisection.  The guess only
orders the work: the value is what the tests prove.  Its only memory is a
memo by exact position at the start of each trick (the cards still held and
the leader) holding the interval proven for the value there and the lead
that last decided it (move ordering only); before the last card of a trick
it is asked about each card's next trick start (a cut found there saves
searching the others).  No partition or rank-equivalence table, no quick
bounds on the points still to come, no card grouping: every legal card of
every hand is searched.  The one shortcut: once no card left and no trick to
come scores, the value from there is 0.

The search itself is in ``independent.c`` (about 250 lines of plain C, built
here with the C compiler that builds the product): the same search in pure
Python took 0.1 s to 90 s a seat and contract of one ``ru4`` deal.
"""
from __future__ import annotations

import ctypes
import hashlib
import os
import pathlib
import subprocess
import sysconfig
import tempfile
from dataclasses import dataclass
from math import gcd

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
JACK, QUEEN, KING, ACE = 11, 12, 13, 14
SUIT = [0x1FFF << (16 * s) for s in range(4)]


def card_of(suit: int, rank: int) -> int:
    return 16 * suit + rank - 2


KING_OF_HEARTS = card_of(HEARTS, KING)

# Prices of the penalty deals (positive magnitudes), from the sources' tables:
# a trick, a heart, a boy (jack), a girl (queen), each of the last two tricks,
# the King of hearts, and a trick of the trump games / misère.
PRICES = {
    "ru4": dict(trick=2, heart=2, boy=4, girl=4, last_two=8, king=16, game=3),
    # ua3: the King is worth 20 but written as 24 so that the game balances
    "ua3": dict(trick=2, heart=2, boy=5, girl=5, last_two=10, king=24, game=3),
}
SEATS = {"ru4": 4, "ua3": 3}
# ua3's talon: the two black aces lie aside
DECK = {"ru4": [card_of(s, r) for s in range(4) for r in range(7, 15)],
        "ua3": [card_of(s, r) for s in range(4) for r in range(7, 15)
                if (s, r) not in ((SPADES, ACE), (CLUBS, ACE))]}


@dataclass(frozen=True)
class Game:
    """One contract on one table, as the search needs it."""
    n: int                 # seats
    trump: int             # suit, or -1
    inverted: bool         # misère: the ace lowest
    card_points: dict      # card -> points to whoever takes it
    trick_points: tuple    # points of the k-th trick to its winner
    no_heart_lead: bool    # no heart lead while holding another suit
    forced_king: bool      # a seat void in the led suit holding the K♥ must play it


def game(variant: str, name: str, trump: int | None) -> Game:
    """The contract ``name`` (with ``trump``: a suit 0..3 or None) of ``variant``."""
    p = PRICES[variant]
    n = SEATS[variant]
    deck = DECK[variant]
    tricks = len(deck) // n
    sign = 1 if name.startswith("plus-") else -1
    what = name.split("-", 1)[1] if name.startswith(("plus-", "no-")) else name
    per_trick, last_two, points = 0, 0, {}

    def score(pred, price):
        for c in deck:
            if pred(c):
                points[c] = points.get(c, 0) + sign * price

    hearts = lambda c: c // 16 == HEARTS  # noqa: E731
    jacks = lambda c: c % 16 == JACK - 2  # noqa: E731
    queens = lambda c: c % 16 == QUEEN - 2  # noqa: E731
    the_king = lambda c: c == KING_OF_HEARTS  # noqa: E731
    if what == "tricks" and name != "tricks":
        per_trick = sign * p["trick"]
    elif what == "hearts":
        score(hearts, p["heart"])
    elif what == "boys":
        score(jacks, p["boy"])
    elif what == "girls":
        score(queens, p["girl"])
    elif what == "last-two":
        last_two = sign * p["last_two"]
    elif what == "king":
        score(the_king, p["king"])
    elif what == "erajlash":
        per_trick = sign * p["trick"]
        score(hearts, p["heart"])
        score(jacks, p["boy"])
        score(queens, p["girl"])
        last_two = sign * p["last_two"]
        score(the_king, p["king"])
    elif name in ("trump", "misere"):
        per_trick = p["game"]
    elif name == "tricks":
        per_trick = 1
    else:
        raise ValueError(f"no contract {name!r}")
    trick_points = tuple(per_trick + (last_two if k >= tricks - 2 else 0) for k in range(tricks))
    return Game(n=n, trump=-1 if trump is None else trump, inverted=(name == "misere"),
                card_points=points, trick_points=trick_points,
                no_heart_lead=what in ("hearts", "king", "erajlash"),
                forced_king=(name == "no-king"))


def _library():
    """The search (independent.c), compiled on first use with the C compiler
    that builds the product, into a cache directory keyed by its source."""
    global _LIB
    if _LIB is None:
        src = pathlib.Path(__file__).with_suffix(".c")
        text = src.read_bytes()
        out = pathlib.Path(tempfile.gettempdir()) / f"kingsolve-independent-{hashlib.sha1(text).hexdigest()[:12]}.so"
        if not out.exists():
            cc = (sysconfig.get_config_var("CC") or "cc").split()
            tmp = out.with_suffix(f".{os.getpid()}.tmp")
            subprocess.run(cc + ["-O3", "-shared", "-fPIC", str(src), "-o", str(tmp)], check=True)
            os.replace(tmp, out)
        lib = ctypes.CDLL(str(out))
        lib.ind_setup.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_int),
                                  ctypes.POINTER(ctypes.c_int), ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                  ctypes.c_int, ctypes.c_int]
        lib.ind_reaches.argtypes = [ctypes.POINTER(ctypes.c_uint64), ctypes.c_int, ctypes.c_int]
        lib.ind_nodes.restype = ctypes.c_longlong
        _LIB = lib
    return _LIB


_LIB = None
MEMO_LOG2 = 22   # 2^22 entries of 16 bytes: 64 MB a process


def _load(g: Game, seat: int):
    lib = _library()
    points = [g.card_points.get(c, 0) for c in range(64)]
    cp = (ctypes.c_int * 64)(*points)
    tp = (ctypes.c_int * len(g.trick_points))(*g.trick_points)
    if lib.ind_setup(g.n, g.trump, int(g.inverted), cp, tp, len(g.trick_points), int(g.no_heart_lead),
                     int(g.forced_king), seat, MEMO_LOG2) != 0:
        raise MemoryError("independent search: no room for its memo")
    return lib, points


def seat_value(g: Game, hands, leader: int, seat: int, guess: int | None = None) -> tuple[int, int]:
    """What ``seat`` (0-based) alone takes in game ``g`` from a full deal
    dealt as ``hands`` (masks), ``leader`` on lead, against the others
    together; and the trick starts searched.

    The value is found by zero-window tests over the values the contract can
    give (multiples of the gcd of its prices), between every penalty taken
    and every positive point taken.  With a ``guess``, the first test is at
    the guess and the second one unit above it, which prove the value when
    the guess is right (MTD(f)); then, or without a guess, bisection narrows
    what is left to the exact value.  A guess changes the work, never the
    value."""
    lib, points = _load(g, seat)
    h = (ctypes.c_uint64 * 4)(*hands)
    pts = [v for v in points + list(g.trick_points) if v]
    unit = 0
    for v in pts:
        unit = gcd(unit, abs(v))
    lo = sum(v for v in pts if v < 0)
    hi = sum(v for v in pts if v > 0)
    tests = [guess, guess + unit] if guess is not None and guess % unit == 0 else []
    while lo < hi:
        mid = next((t for t in tests if lo < t <= hi), None)
        if mid is None:
            mid = lo + ((hi - lo) // unit + 1) // 2 * unit   # above the midpoint, a multiple of unit
        if lib.ind_reaches(h, leader, mid):
            lo = mid
        else:
            hi = mid - unit
    return lo, lib.ind_nodes()


def normal_form(g: Game) -> tuple[tuple, int]:
    """The game with its points divided by their gcd, and that gcd: two games
    of one normal form (``tricks`` and ``trump`` with one trump: +1 and +3 a
    trick) have values in that ratio, seat by seat, and are searched once."""
    pts = [v for v in g.card_points.values() if v] + [v for v in g.trick_points if v]
    unit = 0
    for v in pts:
        unit = gcd(unit, abs(v))
    unit = unit or 1
    cards = tuple(sorted((c, v // unit) for c, v in g.card_points.items() if v))
    return (g.n, g.trump, g.inverted, cards, tuple(v // unit for v in g.trick_points),
            g.no_heart_lead, g.forced_king), unit


def solve_job(job) -> tuple[int, int]:
    """(value, trick starts searched) of one (variant, contract, trump, hands,
    leader, seat, guess), in normal form units: for a process pool.  The
    guess (the contract's points, or None) is only where the search starts."""
    variant, name, trump, hands, leader, seat, guess = job
    g = game(variant, name, trump)
    _, unit = normal_form(g)
    value, nodes = seat_value(g, hands, leader, seat, guess)
    return value // unit, nodes
