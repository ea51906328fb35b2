"""Shared test set-up: puts this directory on ``sys.path`` so that every test
module can ``from strategies import …`` (random deals and small positions), and
registers the Hypothesis profiles.

Environment variables the suite reads (CI sets none of them):

- ``HYPOTHESIS_PROFILE=thorough`` — every property test runs ten times as many
  examples (``strategies.examples``);
- ``KINGSOLVE_DDS_SEED=<seed>`` — replays the live comparison with DDS
  (test_core_dds.py) on the deals of a failed run (each run draws a fresh seed
  and names it when it fails);
- ``KINGSOLVE_INDEPENDENT_SEED=<seed>`` — the same for the full deals checked
  against the independent search (test_independent.py).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

# Plain `pytest` in a source checkout (not installed, core built with
# `setup.py build_ext --inplace`) does not see the package: fall back to the
# checkout.  An installed kingsolve (CI: `pip install .`) is never shadowed.
try:
    import kingsolve  # noqa: F401
except ModuleNotFoundError:
    sys.path.insert(1, os.path.dirname(HERE))

# The Hypothesis profiles (strategies.PROFILES): HYPOTHESIS_PROFILE=thorough
# runs every test's examples ten times over (tests set their number of
# examples with strategies.examples, which scales it).
from strategies import register_profiles  # noqa: E402

register_profiles()


class InProcessPool:
    """A stand-in for kingsolve.workers.StoppablePool that runs each task at
    once in this process, so that a spy (monkeypatch) sees what a worker
    process would do."""

    def __init__(self, jobs):
        self.jobs = jobs

    def submit(self, fn, *args):
        import concurrent.futures as cf
        fut = cf.Future()
        fut.set_result(fn(*args))
        return fut

    def stop(self):
        pass

    def shutdown(self):
        pass


import pytest  # noqa: E402


@pytest.fixture
def in_process_pool():
    """:class:`InProcessPool`, the class (to monkeypatch in for StoppablePool)."""
    return InProcessPool
