"""Random seeds that a person can retype.

Every command that draws random deals prints its seed with the result so the
run can be repeated (``--seed``).  A fresh seed is drawn here, below 2^32 (at
most ten digits): NumPy's ``SeedSequence`` would otherwise draw 128 bits, a
39-digit number nobody copies by hand.  Any seed the user gives is used as is.
"""
from __future__ import annotations

import secrets

SEED_BITS = 32


def fresh_seed() -> int:
    """A new random seed in 0 .. 2^32 - 1."""
    return secrets.randbits(SEED_BITS)
