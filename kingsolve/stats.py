"""Statistics over random deals (`kingsolve stats`).

Deal ``k`` of a run with seed ``S`` is dealt from its own generator,
``numpy.random.default_rng(SeedSequence(S, spawn_key=(k,)))``, so it is the
same deal whatever the number of jobs, the chunking, the machine (a Dask
cluster) or an interrupted and resumed run.  Every deal is solved double
dummy for every chosen contract and every seat (each seat alone against the
others, the value in signed score-sheet points), one row per deal × contract
× seat.  Rows stream to the output file chunk by chunk (CSV: append and
flush; Parquet: a directory of part files, each written whole), so an
interrupted run keeps what it finished and ``resume`` continues it.

The summary (pandas) answers what players ask: the mean and distribution of
every contract per seat position (1 = on lead), how much being on lead is
worth, and how often the holder of the King of hearts (кинг / кінг) can be
forced to take it in no-King (не брать кинга) — or make sure of it in plus-King.
"""
from __future__ import annotations

import itertools
import math
import os
from dataclasses import dataclass, field

import numpy as np

from .cards import SUIT_LETTERS, bit
from .errors import InvalidRulesError, KingsolveError
from .knowledge import random_deal
from .layout import Layout, format_hand
from .table import contract_label
from .variants import GAME_CONTRACTS, KING_OF_HEARTS, Variant, get_variant
from .workers import range_size, run_units

CHUNK_MOST = 25
"""Deals in a chunk of short hands, at most (a chunk is one task and one write)."""

COLUMNS = ["deal", "seed", "variant", "options", "hand_size", "leader", "layout",
           "contract", "trump", "seat", "position", "hand", "value"]


class StatsFileError(KingsolveError):
    """An output file that cannot be resumed (or would be overwritten)."""


@dataclass(frozen=True)
class StatsSpec:
    """Everything that determines the rows of a run (picklable, for workers)."""
    variant_id: str
    options: tuple          # "key=value" strings as given
    contracts: tuple        # (name, trump or None) pairs, in report order
    seed: int
    hand_size: int
    leader: str             # "1".."N" (a fixed seat) or "rotate" (deal k: seat k mod N + 1)
    tt_log2: int | None = None   # None: the size solve would use (solver_for)

    @property
    def variant(self) -> Variant:
        return get_variant(self.variant_id, self.options)

    @property
    def options_text(self) -> str:
        return " ".join(self.options)

    def leader_of(self, k: int) -> int:
        """0-based leader of deal ``k``."""
        n = self.variant.n_seats
        return k % n if self.leader == "rotate" else int(self.leader) - 1

    @property
    def rows_per_deal(self) -> int:
        return len(self.contracts) * self.variant.n_seats

    def labels(self) -> list[str]:
        v = self.variant
        return [contract_label(v.contract(n, t)) for n, t in self.contracts]


def make_spec(variant: Variant, options, contracts, *, seed: int, hand_size: int | None = None,
              leader: str = "1", tt_log2: int | None = None) -> StatsSpec:
    """Check the run's parameters against the variant and freeze them."""
    hs = variant.hand_size if hand_size is None else int(hand_size)
    if not 1 <= hs <= variant.hand_size:
        raise InvalidRulesError(f"--hand-size {hs}: {variant.id} deals 1..{variant.hand_size} cards a hand")
    lead = str(leader).strip().lower()
    if lead != "rotate":
        if not lead.isdigit() or not 1 <= int(lead) <= variant.n_seats:
            raise InvalidRulesError(f"--leader {leader!r}: a seat 1..{variant.n_seats} or 'rotate'")
    if seed < 0:
        raise InvalidRulesError(f"--seed {seed}: must be 0 or more")
    return StatsSpec(variant.id, tuple(options), tuple((c.name, c.trump) for c in contracts),
                     int(seed), hs, lead, tt_log2)


def deal_layout(spec: StatsSpec, k: int) -> Layout:
    """Random deal number ``k`` (0-based) of the run: ``hand_size`` cards to each
    seat from the variant's deck (the talon, and any undealt cards, out of play),
    dealt by :func:`kingsolve.knowledge.random_deal` — the same deals as the
    shuffle this module made before it (one permutation of the deck a deal)."""
    return Layout(random_deal(spec.variant, spec.seed, k, spec.hand_size), 0)


def make_solver(spec: StatsSpec, lanes: int = 1):
    """A Solver for the run's deals, sized as ``solve`` sizes its own
    (:func:`kingsolve.solver.solver_for`: 13-card hands get a table that
    grows, ``--tt-size`` a fixed one), one of ``lanes`` processes solving at
    once (they share the memory budget)."""
    from .solver import solver_for
    return solver_for(spec.hand_size, spec.tt_log2, lanes)


def solve_deals(spec: StatsSpec, deals, solver=None, lanes: int = 1) -> list[dict]:
    """The rows of deals ``deals`` (indices): deal × contract × seat, with
    ``solver`` (default: a new one, :func:`make_solver`; a Solver is not
    thread-safe, so each caller passes its own).  Runs in a worker (a
    process of the pool, or a Dask worker: one Solver a chunk) or in the
    single process (one Solver for the run); ``lanes``: the processes
    solving at once, for the new Solver's share of memory."""
    from .solver import Deal
    v = spec.variant
    n = v.n_seats
    solver = solver if solver is not None else make_solver(spec, lanes)
    contracts = [v.contract(name, trump) for name, trump in spec.contracts]
    rows = []
    for k in deals:
        lay = deal_layout(spec, k)
        lead = spec.leader_of(k)
        text = str(lay)
        hands = [format_hand(h) for h in lay.hands]
        for c in contracts:
            deal = Deal.from_layout(c, lay, lead)
            trump = c.trump_letter if c.name in GAME_CONTRACTS else ""
            for seat in range(n):
                rows.append({
                    "deal": int(k), "seed": spec.seed, "variant": spec.variant_id, "options": spec.options_text,
                    "hand_size": spec.hand_size, "leader": lead + 1, "layout": text,
                    "contract": c.name, "trump": trump, "seat": seat + 1,
                    "position": (seat - lead) % n + 1, "hand": hands[seat],
                    "value": int(solver.value(deal, 1 << seat)),
                })
    return rows


# --- output files ---------------------------------------------------------------------------------

def _read_csv(path):
    import pandas as pd
    return pd.read_csv(path, keep_default_na=False, dtype={"trump": str, "options": str, "layout": str,
                                                          "hand": str, "contract": str, "variant": str})


class CsvSink:
    """Rows appended to a CSV file, one write and flush per chunk."""

    def __init__(self, path):
        self.path = str(path)

    def exists(self) -> bool:
        return os.path.exists(self.path) and os.path.getsize(self.path) > 0

    def read(self):
        # An interrupted write can leave a partial last line: drop it.
        with open(self.path, "rb") as f:
            data = f.read()
        if data and not data.endswith(b"\n"):
            cut = data.rfind(b"\n") + 1
            with open(self.path, "r+b") as f:
                f.truncate(cut)
        if os.path.getsize(self.path) == 0:
            return None
        df = _read_csv(self.path)
        missing = [c for c in COLUMNS if c not in df.columns]
        if missing:
            raise StatsFileError(f"{self.path}: not a kingsolve stats file (no column {missing[0]!r})")
        return df

    def rewrite(self, df) -> None:
        tmp = self.path + ".tmp"
        df[COLUMNS].to_csv(tmp, index=False)
        os.replace(tmp, self.path)

    def write(self, rows) -> None:
        import csv
        new = not self.exists()
        with open(self.path, "a", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
            if new:
                w.writeheader()
            w.writerows(rows)
            f.flush()
            os.fsync(f.fileno())


class ParquetSink:
    """Rows as a Parquet dataset: a directory with one part file per chunk,
    each written to a hidden temporary name and renamed when complete."""

    def __init__(self, path):
        self.path = str(path)

    def exists(self) -> bool:
        if os.path.isfile(self.path):
            raise StatsFileError(f"{self.path}: a file; Parquet output is a directory of parts")
        return os.path.isdir(self.path) and any(p.endswith(".parquet") for p in os.listdir(self.path))

    def read(self):
        import pandas as pd
        if not self.exists():
            return None
        df = pd.read_parquet(self.path)
        missing = [c for c in COLUMNS if c not in df.columns]
        if missing:
            raise StatsFileError(f"{self.path}: not a kingsolve stats dataset (no column {missing[0]!r})")
        return df

    def _part(self, df, name):
        os.makedirs(self.path, exist_ok=True)
        tmp = os.path.join(self.path, f".{name}.tmp")
        df.to_parquet(tmp, index=False)
        os.replace(tmp, os.path.join(self.path, name))

    def rewrite(self, df) -> None:
        for p in os.listdir(self.path):
            if p.endswith(".parquet"):
                os.remove(os.path.join(self.path, p))
        self._part(df[COLUMNS], "part-00000000.parquet")

    def write(self, rows) -> None:
        import pandas as pd
        df = pd.DataFrame(rows, columns=COLUMNS)
        self._part(df, f"part-{int(df['deal'].min()):08d}-{int(df['deal'].max()):08d}.parquet")


def parquet_engine() -> str | None:
    """The installed library pandas writes Parquet with, or None."""
    import importlib.util
    return next((m for m in ("pyarrow", "fastparquet") if importlib.util.find_spec(m) is not None), None)


def make_sink(path):
    """The output of ``--out``: FILE.csv (one file, appended chunk by chunk) or
    FILE.parquet (a dataset directory of part files); checked here, before any
    deal is solved."""
    p = str(path)
    if p.endswith(".parquet"):
        if parquet_engine() is None:
            raise StatsFileError(f"--out {p}: Parquet output needs pyarrow (pip install pyarrow); "
                                 "or write FILE.csv")
        return ParquetSink(p)
    if p.endswith(".csv"):
        return CsvSink(p)
    raise StatsFileError(f"--out {p!r}: write FILE.csv or FILE.parquet")


def check_resumable(df, spec: StatsSpec, path: str):
    """Raise StatsFileError unless the rows in ``df`` come from the same run
    parameters as ``spec``; return them without incomplete deals, and whether
    any were dropped."""
    def one(col):
        vals = sorted(set(df[col].astype(str)))
        return vals
    for col, want in (("seed", str(spec.seed)), ("variant", spec.variant_id),
                      ("options", spec.options_text), ("hand_size", str(spec.hand_size))):
        got = one(col)
        if got != [want]:
            raise StatsFileError(f"{path}: written with {col} {', '.join(got) or '(none)'}, "
                                 f"this run has {col} {want or '(none)'}")
    have = set(zip(df["contract"], df["trump"].astype(str)))
    want = {(n, "" if n not in GAME_CONTRACTS else ("NT" if t is None else SUIT_LETTERS[t]))
            for n, t in spec.contracts}
    if have != want:
        raise StatsFileError(f"{path}: written for other contracts than --contracts asks "
                             f"({len(have)} in the file, {len(want)} asked)")
    leaders = df.groupby("deal")["leader"].first()
    for k, lead in leaders.items():
        if int(lead) != spec.leader_of(int(k)) + 1:
            raise StatsFileError(f"{path}: deal {k} was led by seat {lead}, this run's --leader "
                                 f"{spec.leader} gives seat {spec.leader_of(int(k)) + 1}")
    sizes = df.groupby("deal").size()
    complete = sizes[sizes == spec.rows_per_deal].index
    kept = df[df["deal"].isin(complete)]
    return kept, len(kept) != len(df)


# --- running ----------------------------------------------------------------------------------------

@dataclass
class StatsRun:
    """A finished (or interrupted) run: all rows of deals < n_deals, in deal order."""
    spec: StatsSpec
    n_deals: int
    frame: object                 # pandas DataFrame
    resumed: int = 0              # deals found in the output file
    computed: int = 0             # deals solved by this run
    interrupted: bool = False
    out: str | None = None
    dropped_partial: bool = False

    @property
    def deals_done(self) -> int:
        return int(self.frame["deal"].nunique()) if len(self.frame) else 0


def chunks_of(indices, size: int):
    """The deal indices in lists of ``size``, made as they are asked for (a
    run of ten billion deals never holds a list of them all)."""
    it = iter(indices)
    while True:
        chunk = list(itertools.islice(it, size))
        if not chunk:
            return
        yield chunk


def _pending(n_deals: int, have: set):
    """Deals ``0 .. n_deals-1`` not in ``have``, lazily."""
    return (k for k in range(n_deals) if k not in have)


def run_stats(spec: StatsSpec, n_deals: int, *, jobs: int = 1, out=None, resume: bool = False,
              scheduler=None, chunk_size: int | None = None, progress=None) -> StatsRun:
    """Solve deals ``0 .. n_deals-1`` (those not already in ``out`` when
    resuming), streaming rows to ``out``.  ``progress(n)`` is called after each
    chunk with the number of deals it held.  Ctrl-C (KeyboardInterrupt) stops
    the run; what finished is written and returned with ``interrupted`` set.
    The work is made as it is handed out, a few chunks a worker ahead, so the
    memory a run needs does not grow with ``n_deals`` (only with the rows
    it has finished)."""
    import pandas as pd
    if n_deals < 1:
        raise InvalidRulesError(f"--deals {n_deals}: at least 1")
    if jobs < 1:
        raise InvalidRulesError(f"--jobs {jobs}: at least 1")
    sink = make_sink(out) if out is not None else None
    done = pd.DataFrame(columns=COLUMNS)
    dropped = False
    if sink is not None and sink.exists():
        if not resume:
            raise StatsFileError(f"{sink.path} exists: give --resume to continue it, or another --out")
        old = sink.read()
        if old is not None and len(old):
            done, dropped = check_resumable(old, spec, sink.path)
            if dropped:
                sink.rewrite(done)
    elif resume and sink is None:
        raise StatsFileError("--resume needs --out FILE (the run to continue)")
    have = set(int(k) for k in done["deal"].unique())
    resumed = sum(1 for k in have if k < n_deals)
    n_todo = n_deals - resumed
    if progress is not None and resumed:
        progress(resumed)
    # one deal a chunk for 13-card hands (a deal's table takes minutes: the
    # progress and Ctrl-C lose nothing), else up to 25, about four a job
    size = chunk_size or range_size(spec.hand_size, n_todo, jobs, most=CHUNK_MOST)
    chunks = chunks_of(_pending(n_deals, have), size)
    new_rows: list = []
    interrupted = False

    def finish(rows):
        if sink is not None:
            sink.write(rows)
        new_rows.extend(rows)

    if scheduler is None and jobs == 1:
        solver = make_solver(spec)
        try:
            for ch in chunks:
                finish(solve_deals(spec, ch, solver))
                if progress is not None:
                    progress(len(ch))
        except KeyboardInterrupt:
            interrupted = True
    else:
        order = _InOrder(finish, progress)
        lanes = 1 if scheduler is not None else jobs     # the processes solving at once on this machine
        try:
            # at most four chunks a worker out or finished but not yet written
            run_units(solve_deals, lambda workers: ((spec, ch, None, lanes) for ch in chunks),
                      lambda i, unit, rows: order.add(i, rows, len(unit[1])),
                      jobs=jobs, scheduler=scheduler, per_worker=4, held=lambda: len(order.ready))
        except KeyboardInterrupt:
            order.flush()
            interrupted = True

    frame = pd.concat([done, pd.DataFrame(new_rows, columns=COLUMNS)], ignore_index=True) if new_rows else done
    frame = frame[frame["deal"].astype(int) < n_deals]
    frame = frame.astype({"deal": "int64", "seed": "int64", "hand_size": "int64", "leader": "int64",
                          "seat": "int64", "position": "int64", "value": "int64"})
    for col in ("variant", "options", "layout", "contract", "trump", "hand"):
        # One dtype whatever the source (rows, CSV or Parquet): plain Python strings.
        frame[col] = pd.Series([str(x) for x in frame[col]], index=frame.index, dtype=object)
    order = {(n, "" if n not in GAME_CONTRACTS else ("NT" if t is None else SUIT_LETTERS[t])): i
             for i, (n, t) in enumerate(spec.contracts)}
    frame = frame.assign(_c=[order[(c, str(t))] for c, t in zip(frame["contract"], frame["trump"])])
    frame = frame.sort_values(["deal", "_c", "seat"]).drop(columns="_c").reset_index(drop=True)
    return StatsRun(spec, n_deals, frame, resumed=resumed, computed=len({r["deal"] for r in new_rows}),
                    interrupted=interrupted, out=None if sink is None else sink.path, dropped_partial=dropped)


class _InOrder:
    """Writes chunk results in chunk order as they arrive (so the file reads
    in deal order); on an interrupt the finished ones are written anyway."""

    def __init__(self, finish, progress):
        self.finish, self.progress = finish, progress
        self.ready, self.next = {}, 0

    def add(self, i, rows, n):
        self.ready[i] = rows
        if self.progress is not None:
            self.progress(n)
        while self.next in self.ready:
            self.finish(self.ready.pop(self.next))
            self.next += 1

    def flush(self):
        for i in sorted(self.ready):
            self.finish(self.ready.pop(i))


# --- summary ------------------------------------------------------------------------------------------

MIN_DEALS = 30
"""Fewer deals than this behind a figure: flagged as too few to rely on."""
QUANTILES = {"p10": 0.10, "p25": 0.25, "median": 0.50, "p75": 0.75, "p90": 0.90}


def attained_quantile(values, q: float) -> float:
    """The ``q`` quantile as a value that occurred (the inverted CDF: the
    smallest value with at least ``q`` of the data at or below it) — never an
    interpolation between two scores, which a seat may be unable to make."""
    return float(np.quantile(np.asarray(values), q, method="inverted_cdf"))


def wilson_interval(hits: int, n: int, z: float = 1.96) -> tuple:
    """The 95% Wilson score interval of a share ``hits / n``."""
    if n == 0:
        return (None, None)
    p = hits / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Summary:
    """What the report shows, as pandas frames and plain numbers.  Every value
    is one seat's points playing alone against all the other seats together
    (double dummy), so the positions' means need not add up to a deal's total."""
    run: StatsRun
    labels: list                      # contract labels in order
    means: object                     # DataFrame: label × position → mean
    quantiles: object                 # DataFrame: label → count mean se std min p10 p25 median p75 p90 max
    distribution: dict                # label → position → {value: count}
    lead_worth: object                # Series: label → mean over deals of (on lead − mean of the others)
    by_position: object = None        # DataFrame: (label, position) → p10 median p90
    king: dict = field(default_factory=dict)   # contract → deals, dealt_in, holder_hits, share, ci95, few_deals
    mean_se: object = None            # DataFrame: label × position → standard error of the mean
    counts: object = None             # DataFrame: label × position → number of values
    lead_worth_se: object = None      # Series: label → standard error of the lead worth

    @property
    def deals(self) -> int:
        return self.run.deals_done

    @property
    def few_deals(self) -> bool:
        return self.deals < MIN_DEALS


def _label(contract, trump) -> str:
    return contract if not trump else f"{contract}:{trump}"


def _se(x):
    return x.std(ddof=1) / math.sqrt(len(x)) if len(x) > 1 else float("nan")


def summarise(run: StatsRun) -> Summary:
    import pandas as pd
    df = run.frame.copy()
    labels = run.spec.labels()
    df["label"] = [_label(c, t) for c, t in zip(df["contract"], df["trump"].astype(str))]
    n = run.spec.variant.n_seats
    if len(df):
        gpos = df.groupby(["label", "position"])["value"]
        means = gpos.mean().unstack().reindex(index=labels, columns=range(1, n + 1))
        mean_se = gpos.agg(_se).unstack().reindex(index=labels, columns=range(1, n + 1))
        counts = gpos.size().unstack().reindex(index=labels, columns=range(1, n + 1))
        g = df.groupby("label")["value"]
        cols = {"count": g.size(), "mean": g.mean(), "se": g.agg(_se), "std": g.std(ddof=0), "min": g.min()}
        cols.update({name: g.agg(lambda x, q=q: attained_quantile(x, q)) for name, q in QUANTILES.items()})
        cols["max"] = g.max()
        quant = pd.DataFrame(cols).reindex(labels)
        dist = {}
        for (label, pos), vals in gpos:
            counts_ = vals.value_counts().sort_index()
            dist.setdefault(label, {})[int(pos)] = {int(v): int(c) for v, c in counts_.items()}
        by_pos = pd.DataFrame({name: gpos.agg(lambda x, q=q: attained_quantile(x, q))
                               for name, q in (("p10", 0.10), ("median", 0.50), ("p90", 0.90))})
        # Lead worth per deal: the leader's value less the mean of the others' in the same deal.
        lead = df[df["position"] == 1].groupby(["label", "deal"])["value"].mean()
        others = df[df["position"] > 1].groupby(["label", "deal"])["value"].mean()
        diff = (lead - others).dropna()
        worth = diff.groupby(level=0).mean().reindex(labels)
        worth_se = diff.groupby(level=0).agg(_se).reindex(labels)
    else:
        means = pd.DataFrame(index=labels, columns=range(1, n + 1), dtype=float)
        mean_se, counts = means.copy(), means.copy()
        quant = pd.DataFrame(index=labels, dtype=float)
        dist, worth, worth_se = {}, pd.Series(index=labels, dtype=float), pd.Series(index=labels, dtype=float)
        by_pos = pd.DataFrame(columns=["p10", "median", "p90"], dtype=float)
    king = {}
    n_deals = run.deals_done
    for name, sign in (("no-king", -1), ("plus-king", 1)):
        sub = df[df["contract"] == name]
        if not len(sub):
            continue
        holders = sub[[bool(_holds_king(h)) for h in sub["hand"]]]
        hits = int(((holders["value"] < 0) if sign < 0 else (holders["value"] > 0)).sum())
        deals = int(len(holders))
        lo, hi = wilson_interval(hits, deals)
        king[name] = {"deals": deals, "dealt_in": deals, "of_deals": n_deals, "holder_hits": hits,
                      "share": (hits / deals) if deals else None, "ci95": [lo, hi],
                      "few_deals": deals < MIN_DEALS, "holder_on_lead": int((holders["position"] == 1).sum())}
    return Summary(run, labels, means, quant, dist, worth, by_position=by_pos, king=king, mean_se=mean_se,
                   counts=counts, lead_worth_se=worth_se)


def _holds_king(hand_pbn: str) -> bool:
    from .layout import parse_hand
    return bool(parse_hand(hand_pbn) & bit(KING_OF_HEARTS)) if hand_pbn else False


def peek_seed(path) -> int | None:
    """The seed an existing output file was written with (for ``--resume``
    without ``--seed``), or None when there is no such file yet."""
    sink = make_sink(path)
    if not sink.exists():
        return None
    df = sink.read()
    if df is None or not len(df):
        return None
    seeds = sorted(set(int(x) for x in df["seed"]))
    if len(seeds) != 1:
        raise StatsFileError(f"{sink.path}: rows of several seeds ({', '.join(map(str, seeds))})")
    return seeds[0]
