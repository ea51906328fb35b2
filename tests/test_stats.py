"""`kingsolve stats`: seeded deals, streaming and resuming output files, an
interrupted run, local processes and a Dask cluster giving the same rows,
and the summary's numbers recomputed from the rows."""
import json
import os

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

pytest.importorskip("kingsolve._core")

from kingsolve import reference
from kingsolve.cards import bit
from kingsolve.cli import main
from kingsolve.layout import Layout
from kingsolve.solver import Deal
from kingsolve.stats import (
    COLUMNS, StatsFileError, deal_layout, make_spec, run_stats, summarise,
)
from kingsolve.table import parse_contracts
from kingsolve.variants import KING_OF_HEARTS, get_variant

UA3 = get_variant("ua3")
CONTRACTS = "no-king,no-tricks,trump:H"


def spec(seed=11, hand_size=3, leader="1", contracts=CONTRACTS, variant=UA3):
    return make_spec(variant, (), parse_contracts(variant, contracts), seed=seed, hand_size=hand_size,
                     leader=leader, tt_log2=14)


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_deal_k_depends_only_on_seed_and_k():
    s = spec()
    a = [str(deal_layout(s, k)) for k in range(6)]
    assert a == [str(deal_layout(s, k)) for k in range(6)]
    assert [str(deal_layout(s, k)) for k in (5, 2)] == [a[5], a[2]]
    assert len(set(a)) == 6
    assert str(deal_layout(spec(seed=12), 0)) != a[0]
    lay = deal_layout(spec(hand_size=10), 0)  # a full ua3 deal: 30 cards, the talon ♠A ♣A out
    assert [h.bit_count() for h in lay.hands] == [10, 10, 10]
    assert lay.cards == UA3.deck


def test_rows_are_the_reference_values():
    s = spec(leader="rotate", hand_size=2)
    r = run_stats(s, 4)
    assert list(r.frame.columns) == COLUMNS
    assert len(r.frame) == 4 * 3 * 3  # deals × (no-king, no-tricks, trump ♥) × seats
    for row in r.frame.itertuples():
        lay = Layout.from_str(row.layout)
        assert row.leader == row.deal % 3 + 1
        c = UA3.contract(row.contract, row.trump or "default")
        deal = Deal.from_layout(c, lay, row.leader - 1)
        assert row.value == reference.value(deal.rules, deal.position, 1 << (row.seat - 1))
        assert row.position == (row.seat - row.leader) % 3 + 1


def test_jobs_do_not_change_the_rows():
    s = spec(hand_size=4)
    one = run_stats(s, 8, jobs=1).frame
    two = run_stats(s, 8, jobs=2, chunk_size=1).frame
    pd.testing.assert_frame_equal(one, two)


def test_resume_continues_without_duplicates_or_gaps(tmp_path):
    out = tmp_path / "run.csv"
    first = run_stats(spec(), 5, out=out)
    assert first.computed == 5
    with pytest.raises(StatsFileError, match="exists: give --resume"):
        run_stats(spec(), 9, out=out)
    second = run_stats(spec(), 9, out=out, resume=True)
    assert (second.resumed, second.computed) == (5, 4)
    fresh = run_stats(spec(), 9, out=tmp_path / "fresh.csv")
    assert (tmp_path / "run.csv").read_text() == (tmp_path / "fresh.csv").read_text()
    pd.testing.assert_frame_equal(second.frame, fresh.frame)


def test_interrupt_keeps_finished_chunks_and_resume_finishes(tmp_path):
    out = tmp_path / "run.csv"
    calls = []

    def stop_after_two(n):
        calls.append(n)
        if len(calls) == 2:
            raise KeyboardInterrupt

    r = run_stats(spec(), 10, out=out, chunk_size=2, progress=stop_after_two)
    assert r.interrupted and r.deals_done == 4
    on_disk = pd.read_csv(out, keep_default_na=False)
    assert sorted(on_disk["deal"].unique()) == [0, 1, 2, 3]
    done = run_stats(spec(), 10, out=out, resume=True)
    assert (done.resumed, done.computed, done.interrupted) == (4, 6, False)
    fresh = run_stats(spec(), 10)
    pd.testing.assert_frame_equal(done.frame, fresh.frame)


def test_a_line_cut_off_mid_write_is_dropped_on_resume(tmp_path):
    out = tmp_path / "run.csv"
    run_stats(spec(), 3, out=out)
    text = out.read_text()
    lines = text.splitlines(keepends=True)
    # Deal 2 loses its last rows, and the very last line is cut in half.
    out.write_text("".join(lines[:-4]) + lines[-4][:20])
    r = run_stats(spec(), 3, out=out, resume=True)
    assert r.dropped_partial and (r.resumed, r.computed) == (2, 1)
    assert out.read_text() == text


@pytest.mark.parametrize("other,message", [
    (dict(seed=99), "written with seed 11, this run has seed 99"),
    (dict(hand_size=4), "written with hand_size 3, this run has hand_size 4"),
    (dict(contracts="no-king"), "other contracts"),
    (dict(leader="2"), "deal 0 was led by seat 1"),
])
def test_resume_refuses_another_run(tmp_path, other, message):
    out = tmp_path / "run.csv"
    run_stats(spec(), 2, out=out)
    with pytest.raises(StatsFileError, match=message):
        run_stats(spec(**other), 4, out=out, resume=True)


def test_parquet_dataset_resumes(tmp_path):
    pytest.importorskip("pyarrow")
    out = tmp_path / "run.parquet"
    run_stats(spec(), 3, out=out, chunk_size=2)
    assert sorted(os.listdir(out)) == ["part-00000000-00000001.parquet", "part-00000002-00000002.parquet"]
    r = run_stats(spec(), 6, out=out, resume=True)
    assert (r.resumed, r.computed) == (3, 3)
    pd.testing.assert_frame_equal(r.frame, run_stats(spec(), 6).frame)
    assert sorted(pd.read_parquet(out)["deal"].unique()) == list(range(6))


def test_dask_cluster_gives_the_local_rows():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        remote = run_stats(spec(hand_size=4), 6, scheduler=cluster.scheduler_address, chunk_size=2)
        args = ["stats", "-V", "ua3", "-C", CONTRACTS, "--deals", 6, "--seed", 11, "--hand-size", 4, "-F", "json"]
        via_cli = run(*args, "--scheduler", cluster.scheduler_address, "--chunk-size", 3)
    pd.testing.assert_frame_equal(remote.frame, run_stats(spec(hand_size=4), 6).frame)
    assert via_cli.exit_code == 0, via_cli.output
    assert json.loads(via_cli.output) == json.loads(run(*args).output)


def test_summary_numbers_from_the_rows():
    r = run_stats(spec(hand_size=5, seed=5), 12)
    s = summarise(r)
    df = r.frame
    nk = df[df["contract"] == "no-king"]
    holders = nk[[bool(Layout.from_str(f"1:{h} ... ...").hands[0] & bit(KING_OF_HEARTS)) for h in nk["hand"]]]
    assert s.king["no-king"]["deals"] == len(holders)
    assert s.king["no-king"]["holder_hits"] == int((holders["value"] < 0).sum())
    nt = df[df["contract"] == "no-tricks"]
    lead, rest = nt[nt["position"] == 1]["value"].mean(), nt[nt["position"] > 1]["value"].mean()
    assert s.lead_worth["no-tricks"] == pytest.approx(lead - rest)
    assert s.means.loc["trump:H", 3] == pytest.approx(df[(df["trump"] == "H") & (df["seat"] == 3)]["value"].mean())
    assert sum(s.distribution["no-tricks"][1].values()) == 12
    second = nt[nt["position"] == 2]["value"]
    # Quantiles are values that occurred (the inverted CDF), not interpolations.
    assert s.by_position.loc[("no-tricks", 2), "median"] == np.quantile(second, 0.5, method="inverted_cdf")
    assert s.by_position.loc[("no-tricks", 2), "p90"] == np.quantile(second, 0.9, method="inverted_cdf")
    assert set(s.by_position["median"]) | set(s.by_position["p90"]) <= set(df["value"])


def test_cli_text_json_and_plot(tmp_path):
    png = tmp_path / "s.png"
    r = run("stats", "-V", "ua3", "-C", CONTRACTS, "--deals", 6, "--seed", 5, "--hand-size", 3, "--plot", png)
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0] == "kingsolve stats: ua3, seed 5, 6 deals (of 6 asked), 3 cards a hand, seat 1 leads"
    assert "no-king: of the " in r.output and "the holder of the ♥K can be forced to take it in" in r.output
    assert png.read_bytes()[:4] == b"\x89PNG"
    r = run("stats", "-V", "ua3", "-C", "no-tricks", "--deals", 6, "--seed", 5, "--hand-size", 3, "-F", "json")
    obj = json.loads(r.output)
    assert (obj["seed"], obj["deals"], obj["hand_size"]) == (5, 6, 3)
    assert [c["contract"] for c in obj["contracts"]] == ["no-tricks"]
    assert sum(obj["contracts"][0]["distribution"]["1"].values()) == 6


def test_cli_resume_takes_the_seed_from_the_file(tmp_path):
    out = tmp_path / "r.csv"
    args = ["stats", "-V", "ua3", "-C", "no-tricks", "--hand-size", 3, "--out", out]
    assert run(*args, "--deals", 3, "--seed", 8).exit_code == 0
    r = run(*args, "--deals", 5, "--resume")
    assert r.exit_code == 0, r.output
    assert "seed 8, 5 deals" in r.output and "resumed: 3 deals were already in" in r.output


@pytest.mark.parametrize("args,message", [
    (["--resume"], "--resume needs --out FILE"),
    (["-C", "minus"], "ua3 has no contract 'minus'"),
    (["--hand-size", 11], "--hand-size 11: ua3 deals 1..10 cards a hand"),
    (["--leader", "4"], "--leader '4': a seat 1..3 or 'rotate'"),
    (["--out", "x.txt"], "write FILE.csv or FILE.parquet"),
])
def test_cli_bad_options_exit_2(args, message):
    r = run("stats", "-V", "ua3", "--deals", 1, *args)
    assert r.exit_code == 2
    assert message in r.output and len(r.output.strip().splitlines()) == 1


def test_help():
    r = run("stats", "--help")
    assert r.exit_code == 0
    assert "Double-dummy statistics over random deals." in r.output
    for opt in ("--contracts", "--deals", "--seed", "--jobs", "--out", "--resume", "--plot", "--scheduler"):
        assert opt in r.output


# --- issue 35: say what is measured; issue 29: lazy work, -j 0, Parquet; issue 32: one sizing policy ---------

def test_quantiles_only_on_attained_values():
    from kingsolve.stats import attained_quantile
    # Only 0, 8 and 16 occur: an interpolating p90 says +0.8, a score no seat can make.
    values = [0] * 90 + [8] * 5 + [16] * 5
    assert np.quantile(values, 0.9) == pytest.approx(0.8)
    assert attained_quantile(values, 0.9) == 0 and attained_quantile(values, 0.95) == 8
    # A minus deal (002): only 325 - 75k occurs.
    values = [325 - 75 * k for k in (0, 1, 1, 2, 3, 3, 4)]
    for q in (0.1, 0.25, 0.5, 0.75, 0.9):
        assert (325 - attained_quantile(values, q)) % 75 == 0


def test_every_mean_and_lead_worth_has_its_standard_error():
    r = run_stats(spec(hand_size=4, seed=3, contracts="no-tricks,no-king"), 20)
    s = summarise(r)
    df = r.frame
    third = df[(df["contract"] == "no-tricks") & (df["position"] == 3)]["value"]
    assert s.mean_se.loc["no-tricks", 3] == pytest.approx(third.std(ddof=1) / np.sqrt(len(third)))
    assert s.counts.loc["no-tricks", 3] == 20
    nt = df[df["contract"] == "no-tricks"]
    per_deal = (nt[nt["position"] == 1].set_index("deal")["value"]
                - nt[nt["position"] > 1].groupby("deal")["value"].mean())
    assert s.lead_worth["no-tricks"] == pytest.approx(per_deal.mean())
    assert s.lead_worth_se["no-tricks"] == pytest.approx(per_deal.std(ddof=1) / np.sqrt(20))
    text = run("stats", "-V", "ua3", "-C", "no-tricks", "--deals", 20, "--seed", 3, "--hand-size", 4).output
    assert "each value is one seat's points playing alone against all the other seats together" in text
    assert "need not add up to a deal's total" in text
    row = next(l for l in text.splitlines() if l.startswith("no-tricks"))
    assert f"{s.means.loc['no-tricks', 1]:+.2f}±{s.mean_se.loc['no-tricks', 1]:.2f}~" in row   # ~: too few deals
    assert "~ fewer than 30 deals: too few to rely on" in text


def test_king_share_interval_denominator_and_too_few_flag():
    from kingsolve.stats import wilson_interval
    lo, hi = wilson_interval(4, 5)
    assert lo == pytest.approx(0.3755, abs=1e-3) and hi == pytest.approx(0.9638, abs=1e-3)
    r = run("stats", "-V", "ua3", "-C", "no-king", "--deals", 10, "--seed", 2, "--hand-size", 3, "-F", "json")
    obj = json.loads(r.output)
    k = obj["king_holder"]["no-king"]
    assert k["of_deals"] == 10 and k["deals"] < 10 and k["few_deals"] is True
    text = run("stats", "-V", "ua3", "-C", "no-king", "--deals", 10, "--seed", 2, "--hand-size", 3).output
    line = next(l for l in text.splitlines() if l.startswith("no-king:"))
    assert f"of the {k['deals']} deals where the ♥K was dealt (of 10; with 3 cards a hand" in line
    assert "95% interval" in line and "too few deals to rely on" in line


def test_tricks_rows_only_when_asked():
    base = ["stats", "-V", "ru4", "--deals", 1, "--seed", 1, "--hand-size", 1, "-F", "json"]
    names = [c["contract"] for c in json.loads(run(*base).output)["contracts"]]
    assert "tricks" not in names and "trump" in names and "plus-tricks" in names
    names = [c["contract"] for c in json.loads(run(*base, "-C", "tricks:NT,no-king").output)["contracts"]]
    assert names == ["tricks", "no-king"]


def test_summaries_carry_hand_size_leader_and_options():
    args = ["stats", "-V", "ua3", "-o", "king-points=20", "-C", "no-king", "--deals", 2, "--seed", 4,
            "--hand-size", 2, "--leader", "rotate"]
    lines = run(*args, "-F", "csv").output.splitlines()
    head = lines[0].split(",")
    assert head[:6] == ["variant", "options", "seed", "deals", "hand_size", "leader"]
    assert lines[1].split(",")[:6] == ["ua3", "king-points=20", "4", "2", "2", "rotate"]
    assert {"n", "mean", "mean_se", "lead_worth", "lead_worth_se", "few_deals"} <= set(head)
    obj = json.loads(run(*args, "-F", "json").output)
    assert (obj["hand_size"], obj["leader"], obj["options"]) == (2, "rotate", ["king-points=20"])


def test_jobs_0_means_every_core():
    args = ["stats", "-V", "ua3", "-C", "no-tricks", "--deals", 4, "--seed", 9, "--hand-size", 3, "-F", "json"]
    r = run(*args, "-j", 0)
    assert r.exit_code == 0, r.output
    assert json.loads(r.output) == json.loads(run(*args).output)


def test_parquet_without_pyarrow_refused_before_any_work(monkeypatch, tmp_path):
    import kingsolve.stats as stats_mod
    monkeypatch.setattr(stats_mod, "parquet_engine", lambda: None)
    monkeypatch.setattr(stats_mod, "solve_deals", lambda *a: pytest.fail("solved a deal"))
    r = run("stats", "-V", "ua3", "--deals", 3, "--out", tmp_path / "x.parquet")
    assert r.exit_code == 2 and "needs pyarrow" in r.output and len(r.output.strip().splitlines()) == 1
    assert not (tmp_path / "x.parquet").exists()
    assert "dataset DIRECTORY" in " ".join(run("stats", "--help").output.split())


@pytest.mark.parametrize("jobs", [1, 2])
def test_ten_billion_deals_are_made_lazily_and_ctrl_c_reports(jobs):
    # Before: a list of every deal (and every chunk, and a future for each) was built up front.
    calls = []

    def stop_after_two(n):
        calls.append(n)
        if len(calls) == 2:
            raise KeyboardInterrupt

    import tracemalloc
    tracemalloc.start()
    try:
        r = run_stats(spec(hand_size=2), 10_000_000_000, jobs=jobs, chunk_size=2, progress=stop_after_two)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert r.interrupted and r.deals_done >= 4 and r.deals_done % 2 == 0
    assert r.frame["deal"].max() < 100
    assert peak < 50_000_000      # this process: no list of the deals, the chunks or their futures


def test_solvers_sized_as_solve_sizes_them(monkeypatch):
    import kingsolve.solver as solver_mod
    from kingsolve.stats import solve_deals
    seen = []
    real = solver_mod.solver_for

    def spy(hand_size, tt_log2=None, lanes=1):
        seen.append((hand_size, tt_log2))
        return real(hand_size, tt_log2, lanes)

    monkeypatch.setattr(solver_mod, "solver_for", spy)
    k52 = get_variant("king52")
    for tt in (None, 12):
        s = make_spec(k52, (), parse_contracts(k52, "no-king"), seed=1, hand_size=2, tt_log2=tt)
        solve_deals(s, [0])
    assert seen == [(2, None), (2, 12)]


def test_solver_is_passed_not_kept_in_the_process(monkeypatch):
    # issue 32: stats kept its Solver in a thread-local; now the caller passes it (one for a run of one
    # process, one a chunk in a worker), as bid does
    import kingsolve.solver as solver_mod
    import kingsolve.stats as stats_mod
    from kingsolve.solver import solver_for
    assert not hasattr(stats_mod, "_local") and not hasattr(stats_mod, "_solver")
    s = spec(hand_size=2)
    mine = solver_for(2, 14)
    made = []
    real = solver_mod.solver_for
    monkeypatch.setattr(solver_mod, "solver_for", lambda *a, **k: made.append(a) or real(*a, **k))
    rows = stats_mod.solve_deals(s, [0, 1], mine)
    assert made == [] and len(rows) == 2 * s.rows_per_deal
    assert rows == stats_mod.solve_deals(s, [0, 1])
    assert len(made) == 1
    made.clear()
    run_stats(s, 6, chunk_size=2)            # three chunks in this process: one Solver for the run
    assert len(made) == 1


def test_king52_full_hands_warn_of_their_cost(monkeypatch):
    import kingsolve.cli.stats as cli_stats
    from kingsolve.errors import InvalidRulesError

    def refuse(*a, **k):
        raise InvalidRulesError("not run in the test")

    monkeypatch.setattr(cli_stats, "run_stats", refuse)
    r = run("stats", "-V", "king52", "-C", "no-king", "--deals", 3)
    assert "warning: king52 with 13 cards a hand" in r.stderr and "12 searches" in r.stderr
    r = run("stats", "-V", "king52", "-C", "no-king", "--deals", 3, "--hand-size", 8)
    assert "warning" not in r.stderr


def test_worker_processes_share_the_memory_budget(monkeypatch, in_process_pool):
    # issue 31 §4: with --jobs J each worker's Solver is one of J solving at once, so its table may grow
    # to its share only (solver_for's lanes), as table -j's threads do
    import kingsolve.solver as solver_mod
    import kingsolve.workers as workers_mod
    seen = []
    real = solver_mod.solver_for

    def spy(hand_size, tt_log2=None, lanes=1):
        seen.append(lanes)
        return real(hand_size, tt_log2, lanes)

    monkeypatch.setattr(solver_mod, "solver_for", spy)
    monkeypatch.setattr(workers_mod, "StoppablePool", in_process_pool)
    run_stats(spec(hand_size=2), 4, jobs=3, chunk_size=2)
    assert seen and set(seen) == {3}
    assert solver_mod.default_max_tt_log2(13, 3) < solver_mod.default_max_tt_log2(13, 1)


def test_a_chunk_is_one_deal_for_13_card_hands(monkeypatch):
    # a king52 deal's table takes minutes: one deal a chunk, so each is written, counted and kept at once
    # (a trump game here, seconds in all); short hands keep chunks of several deals
    import kingsolve.stats as S
    sizes = []
    real = S.solve_deals

    def spy(spec, chunk, *rest):
        sizes.append(len(chunk))
        return real(spec, chunk, *rest)
    monkeypatch.setattr(S, "solve_deals", spy)
    k52 = get_variant("king52")
    run_stats(make_spec(k52, (), parse_contracts(k52, "trump:S"), seed=3), 3)
    assert sizes == [1, 1, 1]
    sizes.clear()
    run_stats(spec(), 40)
    assert sizes == [10] * 4
