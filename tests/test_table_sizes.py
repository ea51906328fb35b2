"""The size of the transposition table never changes a value (this was the
check benchmarks/bench_core.py made of its King workloads before timing them):
full King deals, every seat, solved with the table the product uses for the
hand size (growing as long searches fill it), a table small enough to run
out of room in every search, and a larger one."""
from __future__ import annotations

import pytest
from hypothesis import given
from strategies import examples, layouts

from kingsolve.solver import Deal, Solver, solver_for
from kingsolve.variants import get_variant

WORKLOADS = [("ru4", "no-hearts"), ("ru4", "erajlash"), ("ua3", "no-hearts"), ("ua3", "no-tricks")]


@pytest.mark.parametrize("vid,name", WORKLOADS)
def test_table_size_never_changes_a_value(vid, name):
    variant = get_variant(vid)
    contract = variant.contract(name)
    solvers = [solver_for(variant.hand_size), Solver(10), Solver(18)]

    @examples(8)
    @given(layouts(variant))
    def check(layout):
        deal = Deal.from_layout(contract, layout, layout.first)
        for seat in range(variant.n_seats):
            values = [s.value(deal, 1 << seat) for s in solvers]
            assert len(set(values)) == 1, (layout, seat, values)

    check()
