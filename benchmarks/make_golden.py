"""Write tests/golden/bridge_dds.json: random bridge deals solved by DDS (endplay).

    python benchmarks/make_golden.py

40 deals of 8-card hands from the 32-card deck and 20 full 13-card deals, with
fixed seeds (benchmarks/common.py).  For each deal and its trump: the tricks the
side on lead takes with each seat on lead ("tricks_by_leader", seat order N E S W,
each counted for the leader's partnership).
"""
from __future__ import annotations

import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from common import bridge_deals, dds_tricks, to_pbn  # noqa: E402

OUT = pathlib.Path(__file__).parent.parent / "tests" / "golden" / "bridge_dds.json"


def main() -> None:
    cases = []
    for name, count, per_hand in (("golden_bridge8", 40, 8), ("golden_bridge13", 20, 13)):
        for hands, leader, trump in bridge_deals(name, count, per_hand):
            cases.append({
                "pbn": to_pbn(hands),
                "cards": per_hand,
                "trump": "NT" if trump < 0 else "SHDC"[trump],
                "tricks_by_leader": [dds_tricks(hands, lead, trump) for lead in range(4)],
            })
    doc = {
        "about": "Double-dummy tricks for the partnership on lead, by DDS via endplay "
                 "(benchmarks/make_golden.py); seats N E S W = 0 1 2 3.",
        "cases": cases,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    body = ",\n  ".join(json.dumps(c) for c in cases)
    OUT.write_text(f'{{"about": {json.dumps(doc["about"])},\n "cases": [\n  {body}\n ]\n}}\n')
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
