"""Shared test set-up: puts this directory on ``sys.path`` so that every test
module can ``from strategies import …`` (random deals and small positions), and
registers the Hypothesis profiles."""
import os
import sys

from hypothesis import HealthCheck, settings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

# Plain `pytest` in a source checkout (not installed, core built with
# `setup.py build_ext --inplace`) does not see the package: fall back to the
# checkout.  An installed kingsolve (CI: `pip install .`) is never shadowed.
try:
    import kingsolve  # noqa: F401
except ModuleNotFoundError:
    sys.path.insert(1, os.path.dirname(HERE))

# No per-example deadline (the machine is shared and timings vary).  Tests that
# set their own max_examples keep it; HYPOTHESIS_PROFILE=thorough raises the
# default (100) for the others.
settings.register_profile("kingsolve", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", deadline=None, max_examples=1000,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "kingsolve"))

