"""The Hypothesis profiles reach every test: ``HYPOTHESIS_PROFILE=thorough``
runs every property test ten times as many examples (strategies.examples),
and no test fixes its own number past the profile."""
from __future__ import annotations

import json
import os
import pathlib
import re
import subprocess
import sys

from strategies import PROFILES

HERE = pathlib.Path(__file__).parent
MODULES = sorted(p.stem for p in HERE.glob("test_*.py"))

# Every Hypothesis test of the modules, with its number of examples.
COUNT = """
import importlib, json, sys
sys.path.insert(0, {here!r})
import conftest
out = {{}}
for name in {modules!r}:
    mod = importlib.import_module(name)
    for attr, fn in vars(mod).items():
        if attr.startswith("test") and hasattr(fn, "hypothesis"):
            out[name + "." + attr] = fn._hypothesis_internal_use_settings.max_examples
print(json.dumps(out))
"""


def examples_per_test(profile: str) -> dict:
    env = dict(os.environ, HYPOTHESIS_PROFILE=profile)
    # run from tests/, not the checkout's root: there `python -c` would import the
    # source tree's kingsolve (no compiled core when the package is installed, as in CI)
    # before the installed one; conftest falls back to the checkout when none is installed
    out = subprocess.run([sys.executable, "-c", COUNT.format(here=str(HERE), modules=MODULES)],
                         env=env, capture_output=True, text=True, cwd=HERE)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.splitlines()[-1])


def test_thorough_profile_multiplies_every_tests_examples():
    default = examples_per_test("kingsolve")
    thorough = examples_per_test("thorough")
    assert len(default) > 20 and default.keys() == thorough.keys()
    factor = PROFILES["thorough"] // PROFILES["kingsolve"]
    assert factor == 10
    assert {k: v * factor for k, v in default.items()} == thorough


def test_no_test_fixes_its_own_number_of_examples():
    # a number of examples is given as strategies.examples(n), which the profile scales
    offenders = [f"{name}.py:{i}" for name in MODULES
                 for i, line in enumerate((HERE / f"{name}.py").read_text().splitlines(), 1)
                 if re.search(r"max_examples\s*=", line) and name != "test_profiles"]
    assert not offenders, offenders
