"""Solve the deals of tests/golden/bridge_dds.json again by DDS (endplay) and
write the file back.

    python benchmarks/make_golden.py

The deals are the file's own data: 40 deals of 8-card hands from the 32-card
deck and 20 full 13-card deals (drawn once at random; only ever appended: add
a case by its "pbn", "cards" and "trump").  For each deal and its trump: the
tricks the side on lead takes with each seat on lead ("tricks_by_leader", seat
order N E S W, each counted for the leader's partnership), by DDS alone.
"""
from __future__ import annotations

import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from common import dds_tricks, from_pbn, trump_of  # noqa: E402

OUT = pathlib.Path(__file__).parent.parent / "tests" / "golden" / "bridge_dds.json"


def main() -> None:
    cases = []
    for case in json.loads(OUT.read_text())["cases"]:
        hands, trump = from_pbn(case["pbn"]), trump_of(case["trump"])
        cases.append({
            "pbn": case["pbn"],
            "cards": case["cards"],
            "trump": case["trump"],
            "tricks_by_leader": [dds_tricks(hands, lead, trump) for lead in range(4)],
        })
    doc = {
        "about": "Double-dummy tricks for the partnership on lead, by DDS via endplay "
                 "(benchmarks/make_golden.py); seats N E S W = 0 1 2 3.",
        "cases": cases,
    }
    body = ",\n  ".join(json.dumps(c) for c in cases)
    OUT.write_text(f'{{"about": {json.dumps(doc["about"])},\n "cases": [\n  {body}\n ]\n}}\n')
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
