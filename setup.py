"""Build the Cython search core ``kingsolve._core`` from ``ext/_core.pyx``.

``pip install .`` is the whole build: Cython is a build requirement in
pyproject.toml, and no generated C is checked in.  Set KINGSOLVE_DEBUG=1 to
build with bounds checks and assertions on (a debug test run), and
KINGSOLVE_ORDER_ORACLE=1 to compile in the move-order memo of
``benchmarks/bench_ordering.py`` (``Search.order_oracle``), which the product's
search leaves out (add ``--force`` when switching, as the sources are unchanged).
"""
import os
import platform

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("KINGSOLVE_DEBUG", "") not in ("", "0")
ORDER_ORACLE = os.environ.get("KINGSOLVE_ORDER_ORACLE", "") not in ("", "0")

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
}

# popcnt is in every x86-64 CPU since 2008 (x86-64-v2); BMI2 (pext) is chosen at
# run time in ext/bits.h.  KINGSOLVE_NATIVE=1 tunes for the building machine.
ARCH_FLAGS = []
if platform.machine().lower() in ("x86_64", "amd64"):
    ARCH_FLAGS = ["-mpopcnt"]
if os.environ.get("KINGSOLVE_NATIVE", "") not in ("", "0"):
    ARCH_FLAGS = ["-march=native"]

extensions = [
    Extension(
        "kingsolve._core",
        ["ext/_core.pyx"],
        include_dirs=["ext"],
        extra_compile_args=(["-O0", "-g"] if DEBUG else ["-O3"]) + ARCH_FLAGS,
        define_macros=[("KS_ORDER_ORACLE", "1")] if ORDER_ORACLE else [],
    )
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives, include_path=["ext"]))
