"""The solver facade (kingsolve.solver) against the pure-Python reference
solver, on random small end positions of every variant and contract."""
import os
import random
import sys

import pytest
from hypothesis import given, strategies as st
from strategies import examples, layouts

_core = pytest.importorskip("kingsolve._core")

from kingsolve import reference
from kingsolve.cards import bit, cards_of, count, parse_card
from kingsolve.engine import Position, legal_mask, play
from kingsolve.errors import IllegalPlayError, InvalidLayoutError
from kingsolve.layout import Layout
from kingsolve.solver import Deal, Solver, solve
from kingsolve.variants import VARIANT_IDS, get_variant

SOLVER = Solver(16)


def random_layout(variant, k, rng):
    cards = list(cards_of(variant.deck))
    rng.shuffle(cards)
    n = variant.n_seats
    hands = []
    for s in range(n):
        m = 0
        for c in cards[s * k:(s + 1) * k]:
            m |= bit(c)
        hands.append(m)
    return Layout(tuple(hands))


def contracts(variant):
    for name in variant.contracts:
        for trump in variant.trump_choices(name):
            yield variant.contract(name, trump)


ALL = [(vid, c.name, c.trump) for vid in VARIANT_IDS for c in contracts(get_variant(vid))]


@pytest.mark.parametrize("vid,name,trump", ALL)
def test_every_contract_matches_reference_on_end_positions(vid, name, trump):
    variant = get_variant(vid)
    contract = variant.contract(name, trump)
    rng = random.Random(f"{vid}-{name}-{trump}")
    for _ in range(3):
        k = rng.choice([2, 3])
        layout = random_layout(variant, k, rng)
        leader = rng.randrange(variant.n_seats)
        deal = Deal.from_layout(contract, layout, leader)
        for seat in range(variant.n_seats):
            side = 1 << seat
            want = reference.value(deal.rules, deal.position, side) + deal.rules.seat_base
            assert SOLVER.value(deal, side) == want, (str(layout), leader, seat)


# The contracts whose suits mix cards of different points, on whole deals: a
# lone seat and the other seats together share the deal's points exactly.
# Whole deals, because the table's entries then cover many positions each;
# the first layout is where an entry once covered positions it must not (the
# last seat's dominated cards, drop_dominated in ext/moves.pxi, named only the
# kept card in the chain of one seat's touching cards instead of the chain's
# weakest): ua3 plus-erajlash, seat 1, got 44 and the others 82, of 120 points.
MIXED_POINT_CONTRACTS = ["erajlash", "plus-erajlash", "no-boys", "no-girls", "plus-boys", "plus-girls"]


@pytest.mark.parametrize("vid", ["ru4", "ua3"])
def test_whole_deals_a_lone_seat_and_the_others_share_the_points(vid):
    variant = get_variant(vid)
    n = variant.n_seats
    everyone = (1 << n) - 1
    rng = random.Random(7)
    layouts = [random_layout(variant, variant.hand_size, rng) for _ in range(3)]
    if vid == "ua3":
        layouts.insert(0, Layout.from_str("1:J9.A9.QJ.QT97 KT.JT8.AT9.J8 Q87.KQ7.K87.K"))
    for layout in layouts:
        for name in MIXED_POINT_CONTRACTS:
            contract = variant.contract(name, variant.trump_choices(name)[0])
            deal = Deal.from_layout(contract, layout, 0)
            total = Solver(14).value(deal, everyone)
            for seat in range(n):
                alone = Solver(14).value(deal, 1 << seat)
                others = Solver(14).value(deal, everyone & ~(1 << seat))
                assert alone + others == total, (str(layout), name, seat, alone, others, total)


@pytest.mark.parametrize("vid,name", [("ua3", "no-girls"), ("ru4", "erajlash"), ("king52", "no-tricks")])
def test_a_side_of_every_seat_takes_every_point_without_a_search(vid, name):
    """Every seat on the side: the value is all the points of the deal, known
    before any search (a penalty deal took seconds to search before), and it
    is what the score of the deal adds up to."""
    variant = get_variant(vid)
    contract = variant.contract(name, variant.trump_choices(name)[0])
    layout = random_layout(variant, variant.hand_size, random.Random(3))
    deal = Deal.from_layout(contract, layout, 0)
    rules = deal.rules
    total = sum(rules.card_points[c] for c in cards_of(deal.position.hands[0] | deal.position.hands[1]
                                                        | deal.position.hands[-1] | deal.position.hands[-2]))
    total += sum(rules.trick_points[:variant.hand_size]) + rules.seat_base * variant.n_seats
    solver = Solver(14)
    everyone = (1 << variant.n_seats) - 1
    assert solver.value(deal, everyone) == total
    assert solver.stats["nodes"] == 0


@examples(60)
@given(st.sampled_from(["ru4", "ua3", "ru3", "king52"]), st.data())
def test_card_values_line_and_complement(vid, data):
    """Card values equal the reference's; the line achieves the value; a side
    and its complement share the deal's points exactly (zero-sum between them)."""
    variant = get_variant(vid)
    n = variant.n_seats
    name = data.draw(st.sampled_from(variant.contracts))
    trump = data.draw(st.sampled_from(variant.trump_choices(name)))
    contract = variant.contract(name, trump)
    layout = data.draw(layouts(variant, 3))
    deal = Deal.from_layout(contract, layout, layout.first)
    # maybe move into mid-trick
    for _ in range(data.draw(st.integers(0, n - 1))):
        c = data.draw(st.sampled_from(sorted(cards_of(deal.legal))))
        deal = deal.after(c)[0]
    side = data.draw(st.integers(1, (1 << n) - 2))
    base = deal.rules.seat_base * count(side)
    got = SOLVER.card_values(deal, side)
    want = {c: v + base for c, v in reference.card_values(deal.rules, deal.position, side).items()}
    assert got == want
    value = SOLVER.value(deal, side)
    maximise = bool(side >> deal.position.to_move & 1)
    assert value == (max(want.values()) if maximise else min(want.values()))
    # a first guess, good or bad, changes only the work, never the value
    for guess in (value, value - 1, value + 3, data.draw(st.integers(-400, 400)), -(10 ** 12)):
        SOLVER._search.clear()
        assert SOLVER.value(deal, side, guess) == value, guess
    # the zero-window question agrees with the value on both sides of it
    assert SOLVER.reaches(deal, side, value) and not SOLVER.reaches(deal, side, value + 1)
    assert SOLVER.reaches(deal, side, value - 5) and not SOLVER.reaches(deal, side, value + 5)
    # the line, replayed, gives the value
    line = SOLVER.line(deal, side)
    pts, d = base, deal
    for c in line:
        d, winner, p = d.after(c)
        if winner is not None and side >> winner & 1:
            pts += p
    assert d.position.finished and pts == value
    # side + complement: every point of the remaining play goes to one of them
    other = ((1 << n) - 1) ^ side
    remaining = sum(deal.rules.card_points[c] for h in deal.position.hands for c in cards_of(h))
    remaining += sum(deal.rules.card_points[c] for c in deal.position.trick)
    remaining += sum(deal.rules.trick_points[deal.position.trick_index:])
    total = remaining + deal.rules.seat_base * n
    assert SOLVER.value(deal, side) + SOLVER.value(deal, other) == total


def test_no_hearts_hand_checked():
    # ua3 no-hearts, two cards each, seat 1 leads and holds only hearts (♥A ♥7),
    # so must lead one: whichever it leads, seat 2 (♥K ♥8) can win that trick
    # cheaply or not, but seat 1's ♥A must win a heart trick in the end:
    # seat 1 leads ♥7, seat 2 ducks ♥8?  ♥8 beats ♥7 — seat 2 must win or play ♥K
    # (winning too). Then seat 2 leads and seat 1's ♥A wins the second trick.
    # Seat 3 (♠K ♠8) discards.  Seat 1 takes exactly one trick with 2 hearts: -4.
    contract = get_variant("ua3").contract("no-hearts")
    layout = Layout.from_str("1:.A7.. .K8.. K8...")
    res = solve(layout, contract, leader=0, cards=True, line=True, solver=SOLVER)
    assert [r.value for r in res.results] == [-4, -4, 0]
    assert res.results[0].cards == {parse_card("HA"): -4, parse_card("H7"): -4}


def test_bridge_partnership_tricks():
    # 4 seats, NT, N/S hold the top spades, E/W the top hearts; N leads.
    # With the lead, N/S cash both spades?  N: ♠AK, E: ♥AK, S: ♠QJ, W: ♥QJ.
    # N/S take every spade trick: 2 tricks.
    contract = get_variant("king52").contract("tricks", None)
    layout = Layout.from_str("1:AK... .AK.. QJ... .QJ..")
    assert solve(layout, contract, sides=[0b0101], solver=SOLVER).results[0].value == 2
    # E/W on lead (seat 2) take both: they cash hearts.
    assert solve(layout, contract, leader=1, sides=[0b0101], solver=SOLVER).results[0].value == 0


def test_stats_count_nodes_and_trick_starts():
    """Solver.stats: cumulative counters; trick_nodes (positions at a trick's
    start, DDS's count) are at most the nodes, and grow with another solve."""
    contract = get_variant("king52").contract("tricks", None)
    layout = Layout.from_str("1:A4.K3.2. K5.A2.3. Q6.Q4.4. J7.J5.5.")
    solver = Solver(12)
    solve(layout, contract, sides=[0b0101], solver=solver)
    first = solver.stats
    assert set(first) == {"nodes", "trick_nodes", "tt_probes", "tt_hits"}
    assert 0 < first["trick_nodes"] <= first["nodes"]
    solve(layout, contract, leader=1, sides=[0b0101], solver=solver)
    assert solver.stats["trick_nodes"] > first["trick_nodes"]


def test_mid_trick_input_is_checked():
    contract = get_variant("ua3").contract("no-hearts")
    layout = Layout.from_str("1:.A.. .K8.. K8...")
    # seat 1 has led ♥7 (it held only hearts, so the lead is legal); seat 2 to play
    deal = Deal.from_layout(contract, layout, 0, trick=[parse_card("H7")])
    assert deal.position.to_move == 1
    with pytest.raises(IllegalPlayError):
        deal.after(parse_card("SK"))  # seat 2 does not hold the ♠K
    with pytest.raises(IllegalPlayError):
        # seat 1 may not lead a heart while holding a spade (no-hearts lead ban)
        Deal.from_layout(contract, Layout.from_str("1:7... .K8.. K8..."), 0, trick=[parse_card("H7")])
    with pytest.raises(InvalidLayoutError):
        Deal.from_layout(contract, Layout.from_str("1:.A7.. .K8.. K8..."), 0, trick=[parse_card("HQ")])


def test_bad_side_and_table_size():
    contract = get_variant("ua3").contract("no-hearts")
    deal = Deal.from_layout(contract, Layout.from_str("1:.A7.. .K8.. K8..."), 0)
    with pytest.raises(InvalidLayoutError):
        SOLVER.value(deal, 0)
    with pytest.raises(InvalidLayoutError):
        SOLVER.value(deal, 1 << 3)
    with pytest.raises(ValueError):
        Solver(40)
    with pytest.raises(ValueError, match="largest table size"):
        Solver(18, 17)


def test_table_grows_in_a_long_search_and_keeps_what_it_held():
    """A 13-card search that fills its table doubles it (up to max_tt_log2)
    and goes on with everything the table held: every signature and every
    entry indexed by exact position moves to its bucket in the larger table
    (the slots and chunks grow when they run short, the index by exact
    position when its entries are overwritten).  The values are those of a
    table that was large from the start."""
    layout = Layout.from_str("1:AK9532..QT.KQT76 T84.Q972.J94.A54 QJ.KJT8543.75.J9 76.A6.AK8632.832")
    deal = Deal.from_layout(get_variant("king52").contract("no-hearts"), layout, 0)
    growing = Solver(13, 15)
    assert growing.value(deal, 1) == Solver(20).value(deal, 1) == -40
    # both the slots and chunks and the index by exact position grew twice
    assert (growing.table_log2, growing._search.exact_log2, growing._search.tt_grown) == (15, 15, 4)
    slots, entries = growing._search.check_table()
    assert slots > 1000 and entries > 1000
    assert growing._search.grow_table() is True       # the exact index may reach twice the rest
    assert (growing.table_log2, growing._search.exact_log2) == (15, 16)
    assert growing._search.grow_table() is False      # at its largest
    held = Solver(13, 16)
    held.value(deal, 1)
    before = held._search.check_table()
    assert held._search.grow_table() is True
    assert (held.table_log2, held._search.exact_log2) == (16, 16) and held._search.check_table() == before
    assert held.value(deal, 2) == -200
    # no-tricks overwrites exact entries more than it runs short of slots:
    # the index by exact position grows further than they do
    deal = Deal.from_layout(get_variant("king52").contract("no-tricks"), layout, 0)
    split = Solver(16, 18)
    assert split.value(deal, 1) == Solver(18).value(deal, 1)
    assert (split.table_log2, split._search.exact_log2) == (17, 19)


def test_default_tables_grow_only_for_13_card_hands():
    """Solver() and the CLI's default for 13-card hands start at 2**20 and may
    grow to 2**22; short hands' 2**16 and any size asked for (--tt-size) stay."""
    from kingsolve.solver import solver_for
    assert (Solver()._search.tt_log2, Solver()._search.max_tt_log2) == (20, 22)
    assert (solver_for(13)._search.tt_log2, solver_for(13)._search.max_tt_log2) == (20, 22)
    assert (solver_for(8)._search.tt_log2, solver_for(8)._search.max_tt_log2) == (16, 16)
    assert (solver_for(13, 18)._search.tt_log2, solver_for(13, 18)._search.max_tt_log2) == (18, 18)
    assert solver_for(10, lanes=2)._search.max_tt_log2 == 15


def test_lanes_share_one_memory_budget_for_13_card_hands():
    """issue 31: a king52 table on two lanes passed 1 GB, each lane's table
    growing to 2^22 on its own.  The lanes of a command share what one Solver
    may grow to: a power of two less a lane for each doubling of the lanes,
    never more than the lane's share at the start either; short hands never
    grow; a size given stays fixed."""
    from kingsolve.solver import default_max_tt_log2, default_tt_log2, solver_for
    assert [default_max_tt_log2(13, k) for k in (1, 2, 3, 4, 5, 8)] == [22, 21, 20, 20, 19, 19]
    assert [default_tt_log2(13, k) for k in (1, 2, 4, 8)] == [20, 20, 20, 19]
    assert default_max_tt_log2(8, 2) is None and default_tt_log2(8, 2) == 15
    lane = solver_for(13, lanes=2)._search
    assert (lane.tt_log2, lane.max_tt_log2) == (20, 21)
    assert solver_for(13, 18, lanes=2)._search.max_tt_log2 == 18
    # two lanes grown to their limit hold what one Solver grown to its limit holds
    one, two = solver_for(13)._search, solver_for(13, lanes=2)._search
    while one.grow_table():
        pass
    while two.grow_table():
        pass
    assert 2 * two.table_bytes == one.table_bytes


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="resident memory read from /proc (Linux)")
def test_short_deals_table_is_committed_at_once_and_a_long_one_page_by_page():
    """A table of 32 MB or less (the short deals' default, 2**16: about 9 MB)
    is mapped with all its pages committed (ext/mem.h: a page read before it
    is written would otherwise be faulted twice, the second time flushing the
    TLB of every core that runs one of the process's threads); a larger one
    (13-card hands' 2**20, about 147 MB) is committed as the search touches it."""
    def resident_mb():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2 ** 20

    before = resident_mb()
    small = Solver(16)
    grown = resident_mb() - before
    assert grown >= 8, grown
    before = resident_mb()
    large = Solver(20)
    grown = resident_mb() - before
    assert grown < 16, grown
    del small, large


@pytest.mark.parametrize("vid", ["ru4", "ua3", "king52"])
def test_solve_in_lanes_gives_the_results_of_one_solver(vid):
    """Sides solved two at a time in threads (each lane its own Solver): the
    same values and card values, in the same order, and lines that replay to
    the value, as one Solver taking the sides in turn."""
    variant = get_variant(vid)
    rng = random.Random(f"lanes-{vid}")
    lanes = [Solver(14), Solver(14)]
    for name in ("no-tricks", "no-girls", "trump"):
        contract = variant.contract(name, variant.trump_choices(name)[0])
        layout = random_layout(variant, 4, rng)
        one = solve(layout, contract, leader=1, cards=True, line=True, solver=Solver(14))
        two = solve(layout, contract, leader=1, cards=True, line=True, solver=lanes, jobs=2)
        assert [(r.side, r.value, r.cards) for r in two.results] == [
            (r.side, r.value, r.cards) for r in one.results]
        for r in two.results:
            side = sum(1 << k for k in r.side)
            pts, d = two.deal.rules.seat_base, two.deal
            for c in r.line:
                d, winner, p = d.after(c)
                if winner is not None and side >> winner & 1:
                    pts += p
            assert d.position.finished and pts == r.value
        # sides given explicitly keep their order, a coalition among them
        sides = [0b0101, 0b0010] if variant.n_seats == 4 else [0b011, 0b100]
        got = solve(layout, contract, sides=sides, solver=lanes, jobs=2)
        assert [r.value for r in got.results] == [
            r.value for r in solve(layout, contract, sides=sides, solver=Solver(14)).results]


def test_solve_in_lanes_checks_its_solvers_and_reports_a_lane_error():
    variant = get_variant("ua3")
    layout = random_layout(variant, 3, random.Random(5))
    contract = variant.contract("no-hearts")
    with pytest.raises(ValueError, match="2 lanes need 2 solvers, got 1"):
        solve(layout, contract, solver=[Solver(12)], jobs=2)

    class Broken(Solver):
        def value(self, deal, side, guess=None):
            raise RuntimeError("lane failed")

    # (either lane may take every side before the other starts: both fail)
    with pytest.raises(RuntimeError, match="lane failed"):
        solve(layout, contract, solver=[Broken(12), Broken(12)], jobs=2)


def test_a_solve_in_lanes_stopped_from_elsewhere_keeps_what_finished():
    # abort_searches from another thread (as the CLI does on Ctrl-C) stops
    # both lanes; the seats finished are kept, each stopped seat says what
    # its search had proven (king52 no-girls: seat 4 takes every queen, -200,
    # in milliseconds; seats 1 to 3 take seconds to minutes)
    import threading
    import time
    from kingsolve.errors import SearchInterrupted
    from kingsolve.solver import abort_searches
    variant = get_variant("king52")
    layout = Layout.from_str("1:6.KT7652.AT63.AT AQT9832.4.85.K65 5.J83.KJ72.QJ872 KJ74.AQ9.Q94.943")
    lanes = [Solver(16), Solver(16)]
    out = {}

    def run():
        try:
            solve(layout, variant.contract("no-girls"), sides=[0b1000, 0b0001, 0b0010], solver=lanes, jobs=2)
        except SearchInterrupted as err:
            out["stop"] = err

    t = threading.Thread(target=run)
    t.start()
    while sum(s.stats["nodes"] for s in lanes) < 1_000_000 and t.is_alive():
        time.sleep(0.005)
    abort_searches(True)
    try:
        t.join(30)
    finally:
        abort_searches(False)
    stop = out["stop"]
    assert [(r.side, r.value) for r in stop.finished.results] == [((3,), -200)]
    halted = [stop] + stop.also
    assert [e.side for e in halted] == [(0,), (1,)]
    assert all(-200 <= e.low <= e.high <= 0 for e in halted)
    with pytest.raises(ValueError, match="list of solvers"):
        solve(layout, variant.contract("no-girls"), solver=Solver(12), jobs=2)


def test_the_short_deal_threshold_is_the_cores():
    # issue 32: the 10-card threshold lived in solver.py and in the core; the Python side now reads the core's
    from kingsolve.solver import SHORT_DEAL, default_max_tt_log2, default_tt_log2, long_deal
    assert SHORT_DEAL == _core.SHORT_HAND_TRICKS == 10
    assert not long_deal(SHORT_DEAL) and long_deal(SHORT_DEAL + 1)
    assert default_tt_log2(SHORT_DEAL) == 16 and default_max_tt_log2(SHORT_DEAL) is None
    assert default_tt_log2(13) == 20 and default_max_tt_log2(13) == 22
