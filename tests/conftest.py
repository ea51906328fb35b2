"""Shared fixtures.  Puts this directory on ``sys.path`` so that every test
module can ``from strategies import …`` (random deals and small positions)."""
import os
import sys

from hypothesis import HealthCheck, settings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# No per-example deadline (the machine is shared and timings vary); each test
# sets its own max_examples.  HYPOTHESIS_PROFILE=thorough for a long run.
settings.register_profile("kingsolve", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", deadline=None, max_examples=1000,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "kingsolve"))

