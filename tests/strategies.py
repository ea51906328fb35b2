"""Shared test helpers: random deals and small positions of every variant.

Other test modules import these (``from strategies import …``; ``conftest.py``
puts this directory on ``sys.path``), so the names and signatures below are
kept stable:

- ``VARIANT_CONFIGS`` — every variant with every option setting the tests cover;
- ``all_contracts(variant)`` — every contract of a variant with every trump choice;
- ``random_hands`` / ``random_layout`` — a seeded random deal (``random.Random``);
- ``layouts(variant, hand_size)`` — a Hypothesis strategy for such deals;
- ``small_positions(...)`` — a Hypothesis strategy for small positions, possibly
  in the middle of a trick, as :class:`SmallPosition`;
- ``random_playout(rules, position, rng)`` — random legal play to the end;
- ``examples(n)`` — the settings of a test that runs ``n`` examples, scaled by
  the Hypothesis profile (``HYPOTHESIS_PROFILE=thorough`` runs ten times as
  many); every test that sets its number of examples sets it so;
- ``rngs()`` — a Hypothesis-backed ``random.Random`` for tests that build a
  case from many random choices: each choice is drawn by Hypothesis, so a
  failing case shrinks (a drawn integer seed would not).
"""
from __future__ import annotations

import os
import random
from dataclasses import dataclass

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from kingsolve.cards import bit, cards_of
from kingsolve.engine import Position, Replay, legal_mask, play, replay
from kingsolve.layout import Layout
from kingsolve.variants import VARIANT_IDS, Contract, DealRules, get_variant

# Hypothesis profiles (HYPOTHESIS_PROFILE, loaded by conftest.py): how many
# times its examples every test runs.  No per-example deadline (the machine is
# shared and timings vary).
PROFILES = {"kingsolve": 1, "thorough": 10}
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "kingsolve")
if PROFILE not in PROFILES:
    raise ValueError(f"HYPOTHESIS_PROFILE={PROFILE!r}: choose one of {', '.join(PROFILES)}")
EXAMPLES_FACTOR = PROFILES[PROFILE]


def register_profiles() -> None:
    """Register the profiles (a test without its own number of examples runs
    Hypothesis' 100 times the factor) and load the one asked for."""
    for name, factor in PROFILES.items():
        settings.register_profile(name, deadline=None, max_examples=100 * factor,
                                  suppress_health_check=[HealthCheck.too_slow])
    settings.load_profile(PROFILE)


def examples(n: int, **kw) -> settings:
    """Settings for a test of ``n`` examples in the default profile, ``n`` ×
    the profile's factor in others (``kw``: any other setting)."""
    return settings(max_examples=n * EXAMPLES_FACTOR, **kw)


def rngs():
    """A ``random.Random`` whose every choice Hypothesis draws (and shrinks)."""
    return st.randoms(use_true_random=False)


# Every variant with the option settings RULES.md names (the defaults first).
VARIANT_CONFIGS = (
    ("ru4", ()),
    ("ru4", ("boys=jacks-kings",)),
    ("ru4", ("king-lead=king",)),
    ("ru4", ("must-trump",)),
    ("ru4", ("erajlash-forced-king",)),
    ("ua3", ()),
    ("ua3", ("king-points=20",)),
    ("ua3", ("must-trump",)),
    ("ru3", ()),                      # talon S7 C7: the black sevens removed
    ("ru3", ("talon=hidden",)),       # all 32 cards, two dealt face down
    ("king52", ()),
    ("king52", ("must-trump",)),
    ("king52", ("forced-king=on", "king-lead=hearts")),
)


def config_id(config) -> str:
    vid, options = config
    return vid + "".join(f"[{o}]" for o in options)


def all_contracts(variant) -> list[Contract]:
    """Every contract of ``variant`` with every trump it may be played with."""
    return [variant.contract(name, trump)
            for name in variant.contracts for trump in variant.trump_choices(name)]


def random_hands(variant, rng: random.Random, hand_size: int | None = None) -> tuple:
    """Hands (masks, by 0-based seat) of ``hand_size`` cards each (a full deal
    by default) dealt from the variant's deck; the rest is out of play (the
    talon, hidden or known, or cards already played)."""
    k = variant.hand_size if hand_size is None else hand_size
    cards = list(cards_of(variant.deck))
    rng.shuffle(cards)
    return tuple(_mask(cards[s * k:(s + 1) * k]) for s in range(variant.n_seats))


def random_layout(variant, rng: random.Random, hand_size: int | None = None, first: int = 0) -> Layout:
    return Layout(random_hands(variant, rng, hand_size), first)


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= bit(c)
    return m


@st.composite
def layouts(draw, variant, hand_size: int | None = None, first=None) -> Layout:
    """A random deal of ``variant`` (``hand_size`` cards each, full by default;
    ``first`` drawn at random unless given)."""
    k = variant.hand_size if hand_size is None else hand_size
    n = variant.n_seats
    cards = draw(st.permutations(sorted(cards_of(variant.deck))))
    f = draw(st.integers(0, n - 1)) if first is None else first
    return Layout(tuple(_mask(cards[s * k:(s + 1) * k]) for s in range(n)), f)


@dataclass(frozen=True)
class SmallPosition:
    """A small position of a contract: the deal's rules bound to its length,
    the position (maybe mid-trick), and the layout it was dealt from."""
    contract: Contract
    rules: DealRules
    position: Position
    layout: Layout

    def __repr__(self):  # readable in Hypothesis' falsifying examples
        p = self.position
        return (f"SmallPosition({self.contract!r}, layout={str(self.layout)!r}, leader={p.leader + 1}, "
                f"trick={[c for c in p.trick]!r})")


@st.composite
def small_positions(draw, variant_ids=VARIANT_IDS, max_cards: int = 3, mid_trick: bool = True,
                    contract_names=None) -> SmallPosition:
    """A position of 1..``max_cards`` cards a hand, any contract and trump of
    any of ``variant_ids`` (default options), any leader, and — with
    ``mid_trick`` — some legal cards already on the table."""
    variant = get_variant(draw(st.sampled_from(list(variant_ids))))
    choices = [c for c in all_contracts(variant) if contract_names is None or c.name in contract_names]
    contract = draw(st.sampled_from(choices))
    k = draw(st.integers(1, max_cards))
    layout = draw(layouts(variant, k))
    rules = contract.deal_rules(k)
    pos = Position(layout.hands, layout.first)
    if mid_trick:
        for _ in range(draw(st.integers(0, variant.n_seats - 1))):
            legal = sorted(cards_of(legal_mask(rules, pos)))
            c = draw(st.sampled_from(legal))
            pos = Position(tuple(h & ~bit(c) if i == pos.to_move else h for i, h in enumerate(pos.hands)),
                           pos.leader, pos.trick + (c,), pos.trick_index)
    return SmallPosition(contract, rules, pos, layout)


def random_playout(rules: DealRules, pos: Position, rng: random.Random) -> Replay:
    """Play random legal cards from ``pos`` to the end of the deal (checked by
    :func:`kingsolve.engine.replay`, so an engine that offers an illegal card fails)."""
    cards = []
    p = pos
    while not p.finished:
        c = rng.choice(sorted(cards_of(legal_mask(rules, p))))
        cards.append(c)
        p = play(rules, p, c).position
    return replay(rules, pos, cards)
