"""`kingsolve table`: the contract × seat grid of one layout, checked against
the pure-Python reference solver and against values worked out by hand."""
import json

import numpy as np
import pytest
from click.testing import CliRunner

pytest.importorskip("kingsolve._core")

from kingsolve import reference
from kingsolve.cards import cards_of
from kingsolve.cli import main
from kingsolve.errors import InvalidRulesError
from kingsolve.layout import Layout
from kingsolve.solver import Deal, Solver
from kingsolve.reference import ReferenceSolver
from kingsolve.table import (_next_cell, all_contracts, contract_label, find_parts, find_same,
                             guesses_from_parts, make_table, parse_contracts, rescale, row_links)
from kingsolve.variants import get_variant

# Three seats, two cards each: seat 1 ♥A7, seat 2 ♥K8, seat 3 ♠K8.
TINY = "1:.A7.. .K8.. K8..."


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def random_layout(variant, hand_size, seed):
    rng = np.random.default_rng(seed)
    deck = list(cards_of(variant.deck))
    order = rng.permutation(len(deck))
    hands = [0] * variant.n_seats
    for i, p in enumerate(order[: variant.n_seats * hand_size]):
        hands[i // hand_size] |= 1 << deck[p]
    return Layout(tuple(hands), 0)


def test_tiny_layout_by_hand():
    # Worked by hand.  no-hearts, seat 1 leads: whatever seat 1 leads, the
    # coalition makes the ♥A win a trick with two hearts in it (-4); seat 2
    # likewise cannot escape taking one trick of two hearts (-4); seat 3
    # holds spades only and discards: 0.  In trump ♥ (+3 a trick) seat 1's ♥A
    # and seat 2's ♥K are each worth one trick; seat 3 has no trump: 0.
    v = get_variant("ua3")
    t = make_table(Layout.from_str(TINY), v, contracts=parse_contracts(v, "no-hearts,trump:H"),
                   solver=ReferenceSolver())
    assert [(r.contract.name, r.values) for r in t.rows] == [("no-hearts", (-4, -4, 0)), ("trump", (3, 3, 0))]


def test_every_contract_and_trump_is_a_row():
    v = get_variant("ua3")
    t = make_table(Layout.from_str(TINY), v, solver=ReferenceSolver())
    labels = [(r.contract.name, r.contract.trump) for r in t.rows]
    expected = [(n, tr) for n in v.contracts for tr in v.trump_choices(n)]
    assert labels == expected
    assert len(labels) == 14 + 4 + 5 + 5  # 7 penalty + 7 mirror, trump ×4, misère ×5, tricks ×5


@pytest.mark.parametrize("vid,hand_size,seed", [("ua3", 3, 1), ("ru4", 2, 2), ("king52", 2, 3), ("ru3", 3, 4)])
def test_native_grid_equals_reference(vid, hand_size, seed):
    """The grid through the native facade, cell by cell, against the minimax oracle."""
    v = get_variant(vid)
    lay = random_layout(v, hand_size, seed)
    leader = seed % v.n_seats
    t = make_table(lay, v, leader=leader, solver=Solver(16))
    assert t.leader == leader
    for row in t.rows:
        deal = Deal.from_layout(row.contract, lay, leader)
        want = tuple(reference.value(deal.rules, deal.position, 1 << k) + deal.rules.seat_base
                     for k in range(v.n_seats))
        assert row.values == want, (str(lay), leader + 1, row.contract)


@pytest.mark.parametrize("vid,hand_size,seed", [("ua3", 3, 5), ("ru4", 3, 6), ("king52", 2, 7)])
def test_threaded_grid_equals_reference(vid, hand_size, seed):
    """jobs > 1: the cells are solved in threads, each with its own Solver; the
    rows come back in order, equal to the oracle's, and progress counts every
    cell once (a rescaled row's all at once)."""
    v = get_variant(vid)
    lay = random_layout(v, hand_size, seed)
    calls = []
    t = make_table(lay, v, leader=1, jobs=3, tt_log2=12, progress=calls.append)
    assert [r.contract for r in t.rows] == all_contracts(v)
    assert sum(calls) == len(t.rows) * v.n_seats and all(k > 0 for k in calls)
    for row in t.rows:
        deal = Deal.from_layout(row.contract, lay, 1)
        want = tuple(reference.value(deal.rules, deal.position, 1 << k) + deal.rules.seat_base
                     for k in range(v.n_seats))
        assert row.values == want, (str(lay), row.contract)
    with pytest.raises(ValueError, match="not both"):
        make_table(lay, v, solver=Solver(12), jobs=2)


def test_a_lane_takes_its_own_seats_first():
    """make_table's threads: lane k of `jobs` takes the ready cells of its own
    seats (seat % jobs == k) first, so that a seat's warm tables serve its next
    rows; among those, rows with parts (erajlash) first; with none of its own
    ready it takes another seat's rather than wait."""
    parts = [None, None, [0, 1]]
    ready = [(0, 0), (0, 1), (0, 2), (0, 3), (2, 3)]
    assert _next_cell(ready, 0, 2, parts) == (0, 0)
    assert _next_cell(ready, 1, 2, parts) == (2, 3)
    assert _next_cell([(0, 0), (0, 2)], 1, 2, parts) == (0, 0)
    assert _next_cell([(1, 2), (2, 0)], 0, 2, parts) == (2, 0)
    assert _next_cell([(0, 1), (1, 2)], 2, 3, parts) == (1, 2)
    assert _next_cell([], 0, 2, parts) is None


def test_threaded_grid_equals_sequential_on_full_hands():
    """Whole 8-card ru4 hands (too big for the oracle): every --jobs gives the same grid."""
    v = get_variant("ru4")
    lay = random_layout(v, 8, 11)
    one = make_table(lay, v, contracts=parse_contracts(v, "no-hearts,no-boys,erajlash,trump:S"))
    two = make_table(lay, v, contracts=parse_contracts(v, "no-hearts,no-boys,erajlash,trump:S"), jobs=2)
    assert [(r.contract, r.values) for r in one.rows] == [(r.contract, r.values) for r in two.rows]


def test_an_error_in_a_lane_reaches_the_caller(monkeypatch):
    """A lane whose search fails stops the table: the error is raised in the
    calling thread (not a hang, not a table with holes), the other lane
    stops taking cells, and rows done before it were reported."""
    import threading

    import kingsolve.solver as solver_mod
    v = get_variant("ru4")
    lay = random_layout(v, 3, 5)
    real = solver_mod.Solver.value
    calls = []

    def value(self, deal, side, guess=None):
        calls.append(threading.current_thread().name)
        if deal.contract.name == "no-girls" and side == 1 << 2:
            raise ValueError("lane failed")
        return real(self, deal, side, guess)

    monkeypatch.setattr(solver_mod.Solver, "value", value)
    rows = []
    before = threading.active_count()
    with pytest.raises(ValueError, match="lane failed"):
        make_table(lay, v, jobs=2, progress=rows.append)
    assert len(calls) < 28 * v.n_seats
    assert threading.current_thread().name not in calls      # every cell ran in a lane
    assert sum(rows) < len(calls)                            # no more cells than finished
    assert threading.active_count() == before                # the lanes were joined


def test_lanes_of_a_short_table_get_smaller_solvers(monkeypatch):
    """Each lane of a table on threads solves a share of the seats: on hands
    of up to ten cards its Solver is 2^15 (2^16 for one thread), on 13-card
    hands 2^20 either way; a tt_log2 given is kept."""
    import kingsolve.solver as solver_mod
    from kingsolve.solver import default_tt_log2
    assert [default_tt_log2(8), default_tt_log2(8, 2), default_tt_log2(13), default_tt_log2(13, 2)] == [16, 15, 20, 20]
    sizes = []

    class Recording(solver_mod.Solver):
        def __init__(self, tt_log2=None, max_tt_log2=None):
            sizes.append(tt_log2)
            super().__init__(tt_log2, max_tt_log2)

    monkeypatch.setattr(solver_mod, "Solver", Recording)
    v = get_variant("ru4")
    lay = random_layout(v, 3, 9)
    one = make_table(lay, v, contracts=parse_contracts(v, "no-boys,trump:S"))
    assert sizes == [16]
    sizes.clear()
    two = make_table(lay, v, contracts=parse_contracts(v, "no-boys,trump:S"), jobs=2)
    assert set(sizes) == {15} and len(sizes) <= 2     # one a lane (a lane may get no cell)
    assert [r.values for r in one.rows] == [r.values for r in two.rows]
    sizes.clear()
    make_table(lay, v, contracts=parse_contracts(v, "no-boys"), jobs=2, tt_log2=12)
    assert set(sizes) == {12}


@pytest.mark.parametrize("vid", ["ru4", "ua3", "ru3"])
def test_erajlash_is_guessed_from_its_parts(vid):
    """erajlash scores every penalty at once (RULES.md), so the table starts its
    search at the sum of the penalty rows' values; its positive mirror likewise.
    Trump games and misère get no guess (their points are no sum of others')."""
    variant = get_variant(vid)
    layout = random_layout(variant, 3, 7)
    solved, by_label = [], {}
    for c in all_contracts(variant):
        rules = Deal.from_layout(c, layout, 0).rules
        values = tuple(range(10 * len(solved), 10 * len(solved) + variant.n_seats))  # any distinct values
        by_label[contract_label(c)] = (rules, values, guesses_from_parts(rules, solved))
        solved.append((rules, values))
    for name, sign in (("erajlash", "no"), ("plus-erajlash", "plus")):
        parts = [label for label in by_label
                 if label.startswith(sign + "-") and label != name]
        assert len(parts) >= 5
        want = tuple(sum(by_label[p][1][k] for p in parts) for k in range(variant.n_seats))
        assert by_label[name][2] == want, (name, parts)
    for label, (_, _, guess) in by_label.items():
        if label not in ("erajlash", "plus-erajlash"):
            assert guess is None, label


@pytest.mark.parametrize("vid", ["ru4", "ua3", "king52"])
def test_same_game_at_another_scale(vid):
    """On full hands, tricks:X (+1 a trick) is trump:X (+3) at a third of the
    points and tricks:NT is plus-tricks (+2) at half (RULES.md §4 and the
    `tricks` row); in king52, minus:NT (325 less 75 a trick) is no-tricks
    (-20 a trick) and tricks:NT is trump:NT.  The table takes their values
    from those rows.  A negative factor is no such game (no-tricks against
    plus-tricks: who maximises changes), nor is misère (ranks inverted)."""
    variant = get_variant(vid)
    chosen = all_contracts(variant)
    rules = [c.deal_rules() for c in chosen]
    labels = [contract_label(c) for c in chosen]
    found = {labels[i]: labels[j] for i, r in enumerate(rules)
             if (j := find_same(r, rules[:i])) is not None}
    want = {f"tricks:{s}": f"trump:{s}" for s in "SHDC"}
    if vid == "king52":
        want.update({"tricks:NT": "trump:NT", "minus:NT": "no-tricks"})
    else:
        want["tricks:NT"] = "plus-tricks"
    assert found == want
    if vid == "king52":
        # 325 less 75 a trick from -20 a trick: 0, 1 and 3 tricks
        assert rescale(rules[labels.index("no-tricks")], (0, -20, -60, 0),
                       rules[labels.index("minus:NT")]) == (325, 250, 100, 325)
        return
    no, plus = labels.index("no-tricks"), labels.index("plus-tricks")
    assert find_same(rules[plus], [rules[no]]) is None
    assert find_same(rules[labels.index("misere:S")], [rules[labels.index("trump:S")]]) is None
    # +3 a trick to +1: 6 and 0 points are 2 and 0 tricks
    i, j = labels.index("tricks:S"), labels.index("trump:S")
    assert rescale(rules[j], (6, 0, 3, 15)[: variant.n_seats], rules[i]) == (2, 0, 1, 5)[: variant.n_seats]


def test_two_card_hands_make_the_last_two_every_trick():
    """With two cards a hand both tricks are the last two: no-last-two (-8
    each) is then no-tricks (-2 each) at four times the points."""
    v = get_variant("ru4")
    rules = {c.name: c.deal_rules(2) for c in all_contracts(v) if c.name in ("no-tricks", "no-last-two")}
    assert find_same(rules["no-last-two"], [rules["no-tricks"]]) == 0
    assert find_same(c := v.contract("no-last-two").deal_rules(), [v.contract("no-tricks").deal_rules()]) is None, c


@pytest.mark.parametrize("vid", ["ru4", "ua3", "ru3", "king52"])
@pytest.mark.parametrize("hand_size", [None, 2])
def test_row_links_are_the_pairwise_parts_and_same_games(vid, hand_size):
    """make_table links its rows in one pass (row_links): the same parts
    (erajlash and plus-erajlash from the six rows before each) and the same
    earlier games as find_parts and find_same row by row, also on two-card
    hands, where no-last-two is no-tricks."""
    variant = get_variant(vid)
    rules = [c.deal_rules(hand_size) if hand_size else c.deal_rules() for c in all_contracts(variant)]
    parts, same = row_links(rules)
    assert parts == [find_parts(r, rules[:i]) for i, r in enumerate(rules)]
    assert same == [find_same(r, rules[:i]) for i, r in enumerate(rules)]
    assert sum(p is not None for p in parts) == (0 if vid == "king52" else 2)
    assert sum(s is not None for s in same) >= 5


class CountingSolver(ReferenceSolver):
    def __init__(self):
        self.calls = 0

    def value(self, deal, side, guess=None):
        self.calls += 1
        return super().value(deal, side, guess)


@pytest.mark.parametrize("jobs", [1, 2])
def test_rows_of_the_same_game_are_not_solved_again(jobs):
    """On two-card hands the five tricks rows of ru4 and both last-two rows
    (see above) cost no search: 21 of 28 rows are solved, and every value
    still equals the oracle's (jobs=2: through the threads)."""
    v = get_variant("ru4")
    lay = random_layout(v, 2, 8)
    if jobs == 1:
        counter = CountingSolver()
        t = make_table(lay, v, solver=counter)
        assert counter.calls == (28 - 7) * v.n_seats
    else:
        t = make_table(lay, v, jobs=2, tt_log2=12)
    assert [r.contract for r in t.rows] == all_contracts(v)
    for row in t.rows:
        deal = Deal.from_layout(row.contract, lay, 0)
        want = tuple(reference.value(deal.rules, deal.position, 1 << k) + deal.rules.seat_base
                     for k in range(v.n_seats))
        assert row.values == want, row.contract


def test_parse_contracts():
    v = get_variant("ru4")
    assert [c.trump for c in parse_contracts(v, "trump")] == [0, 1, 2, 3]
    assert [(c.name, c.trump) for c in parse_contracts(v, "no-king, misere:S")] == [
        ("no-king", None), ("misere", 0)]
    assert len(parse_contracts(v, None)) == len(all_contracts(v))
    with pytest.raises(InvalidRulesError, match="no contract 'minus'"):
        parse_contracts(v, "minus")
    with pytest.raises(InvalidRulesError, match="cannot be played with trump NT"):
        parse_contracts(v, "trump:NT")


def test_cli_text_diagram_and_grid():
    r = run("table", TINY, "-V", "ua3", "--reference", "-C", "no-hearts,trump:H")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == "ua3  1:.A7.. .K8.. K8...  seat 1 leads, 2 tricks"
    assert lines[2].split() == ["seat", "1", "(leads)", "seat", "2", "seat", "3"]
    assert lines[3].split() == ["♠—", "♠—", "♠K8"]
    assert lines[4].split() == ["♥A7", "♥K8", "♥—"]
    assert lines[8].split() == ["contract", "trump", "seat", "1", "seat", "2", "seat", "3"]
    assert lines[9].split() == ["no-hearts", "-4", "-4", "+0"]
    assert lines[10].split() == ["trump", "♥", "+3", "+3", "+0"]


def test_cli_jobs_gives_the_same_table():
    lay = random_layout(get_variant("ua3"), 4, 3)
    outs = [run("table", str(lay), "-V", "ua3", "-F", "json", "-j", j) for j in (1, 2, 0)]
    assert all(r.exit_code == 0 for r in outs), [r.output for r in outs]
    assert outs[0].output == outs[1].output == outs[2].output
    assert len(json.loads(outs[0].output)["rows"]) == len(all_contracts(get_variant("ua3")))


def test_cli_leader_json_csv():
    # Seat 2 leads: no-hearts by hand.  Seat 2 leads ♥8 or ♥K; either way the
    # coalition can hand seat 1 a heart trick (seat 1 must follow), and seat 2
    # alone still cannot avoid a two-heart trick: values -4, -4, 0 again.
    r = run("table", TINY, "-V", "ua3", "--reference", "-C", "no-hearts", "--leader", "II", "-F", "json")
    assert r.exit_code == 0, r.output
    obj = json.loads(r.output)
    assert obj == {"layout": TINY, "variant": "ua3", "leader": 2, "seats": [1, 2, 3],
                   "rows": [{"contract": "no-hearts", "trump": None, "values": [-4, -4, 0],
                             "low": [-4, -4, 0], "high": [-4, -4, 0], "exact": True}]}
    # Trump ♠: seat 3 (♠K8) ruffs the heart lead and then leads a trump: both tricks, +6.
    r = run("table", TINY, "-V", "ua3", "--reference", "-C", "trump:S", "-F", "csv")
    assert r.exit_code == 0, r.output
    assert r.output.splitlines() == [
        "layout,variant,leader,contract,trump,seat1,seat2,seat3,exact,"
        "seat1_low,seat1_high,seat2_low,seat2_high,seat3_low,seat3_high",
        f"{TINY},ua3,1,trump,S,0,0,6,true,0,0,0,0,6,6"]


def test_cli_plot(tmp_path):
    out = tmp_path / "grid.png"
    r = run("table", TINY, "-V", "ua3", "--reference", "-C", "no-hearts,no-king", "--plot", out)
    assert r.exit_code == 0, r.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("args,message", [
    (["1:.A7.. .K8.. K8..X", "-V", "ua3"], "seat 3"),
    (["1:.A7.. .K8.. AK...", "-V", "ua3"], "♠A is in the talon of ua3"),
    ([TINY, "-V", "ru4"], "3 hands, but ru4 has 4 seats"),
    ([TINY, "-V", "ua3", "-C", "no-kings-jacks"], "ua3 has no contract 'no-kings-jacks'"),
    ([TINY, "-V", "ua3", "--leader", "5"], "seat '5' is not one of 1..3"),
])
def test_cli_bad_input_is_one_line_exit_2(args, message):
    r = run("table", *args)
    assert r.exit_code == 2
    assert message in r.output
    assert "Traceback" not in r.output and len(r.output.strip().splitlines()) == 1


def test_help():
    r = run("table", "--help")
    assert r.exit_code == 0
    assert "Every contract (and every trump) × every seat for one layout." in r.output
    for opt in ("--variant", "--leader", "--contracts", "--plot", "--format"):
        assert opt in r.output
