"""How much a recommendation depends on the assumed opponent: the range-sensitivity experiment.

For each heads-up spot of :data:`SPOTS` (preflop to river), :func:`pokerlab.advice.decide.decide`
runs the default analysis (the villain's range inferred from the chart prior with the ``regular``
model) and five alternatives: the ``nit``, ``calling_station`` and ``maniac`` archetypes (they
change the Bayesian range update and, where actions are valued by equity, the villain's
responses) and an explicit ``tight`` and ``wide`` prior (updated through the same observed
actions with the ``regular`` model). Per spot and alternative:

* ``flips``: the alternative's best action differs from the default recommendation;
* ``regret_bb``: misspecification regret, the alternative's EV of its best action minus its EV
  of the default recommendation (bb; 0 when it does not flip);
* ``material``: the regret exceeds the two valuations' own errors added (each solve's
  exploitability in bb, or two equity standard errors times the pot), so the flip is not noise.

Summary: spots whose recommendation changes under at least one alternative (raw and material),
the mean share of alternatives that flip it, and the largest regret. Everything is a function of
the spots, the bundled priors and ``seed``: no ground-truth opponent exists, so the figures are
model-relative.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from pokerlab.advice.decide import ALTERNATIVES, Situation, decide, parse_history

__all__ = ["SPOTS", "run_sensitivity", "sensitivity_table"]


def _spot(name, hero, hero_pos, villain_pos, preflop, board="", history="") -> Situation:
    return Situation(hero=hero, hero_position=hero_pos, villain_position=villain_pos, preflop=preflop, board=board,
                     history=tuple(parse_history(history)), stack_bb=100.0, name=name)


SPOTS: tuple[Situation, ...] = (
    _spot("preflop: BB defends A8o vs a BTN open", "Ah8c", "BB", "BTN", "FFFRF"),
    _spot("preflop: BTN faces a BB 3-bet with AJo", "AdJc", "BTN", "BB", "FFFRFR"),
    _spot("flop: BTN c-bet, AQ high on K72", "AhQd", "BTN", "BB", "FFFRFC", "Kc7s2d", "flop: villain check"),
    _spot("flop: BB flush draw facing a c-bet", "9h8h", "BB", "BTN", "FFFRFC", "Kh7h2c",
          "flop: hero check, villain bet 0.33"),
    _spot("turn: BTN barrels top pair top kicker", "AsKd", "BTN", "BB", "FFFRFC", "Kc7s2d4h",
          "flop: villain check, hero bet 0.33, villain call; turn: villain check"),
    _spot("turn: BB second pair facing a barrel", "8s7d", "BB", "BTN", "FFFRFC", "Kc7s2d4h",
          "flop: hero check, villain bet 0.33, hero call; turn: hero check, villain bet 0.75"),
    _spot("river: BB bluff-catch with a middle pair", "9d8d", "BB", "BTN", "FFFRFC", "Kc7s2d4h9c",
          "flop: hero check, villain bet 0.33, hero call; turn: hero check, villain check; "
          "river: hero check, villain bet 1"),
    _spot("river: BTN thin value with top pair", "KdTd", "BTN", "BB", "FFFRFC", "Kc7s2d4h9c",
          "flop: villain check, hero bet 0.33, villain call; turn: villain check, hero check; "
          "river: villain check"),
)
"""Eight heads-up 100bb spots from the 6-max tree: two preflop, two flop (equity-valued), two turn
and two river (solver-valued)."""


def run_sensitivity(spots: Sequence[Situation] = SPOTS, alternatives: Sequence[str] = ALTERNATIVES,
                    seed: int = 0, samples: int = 4000) -> dict[str, Any]:
    """The experiment's document: per spot the default report's essentials and per alternative
    its recommendation, EVs, flip, regret and materiality; plus the summary."""
    rows = []
    for k, sit in enumerate(spots):
        report = decide(sit, alternatives=alternatives, seed=seed + k, samples=samples)
        default = report["recommendation"]
        error = report["error_bb"]
        alts = {}
        for alt, a in report["uncertainty"]["range_estimation"].items():
            ev = a["ev_bb"]
            regret = ev[a["recommendation"]] - ev.get(default, float("nan"))
            alts[alt] = {"recommendation": a["recommendation"], "ev_bb": ev, "flips": a["recommendation"] != default,
                         "regret_bb": round(float(regret), 4), "material": bool(regret > error + a["error_bb"]),
                         "villain_effective_combos": a["villain"]["effective_combos"]}
        rows.append({
            "spot": sit.name, "hero": sit.hero, "board": sit.board, "method": report["method"]["kind"],
            "recommendation": default, "ev_bb": report["ev_bb"], "error_bb": round(error, 4),
            "villain": report["villain"], "alternatives": alts,
            "flipped_by": [alt for alt, a in alts.items() if a["flips"]],
            "share_flipped": len([a for a in alts.values() if a["flips"]]) / len(alts),
            "max_regret_bb": max(a["regret_bb"] for a in alts.values()),
        })
    summary = {
        "spots": len(rows),
        "alternatives": list(alternatives),
        "spots_changed": sum(bool(r["flipped_by"]) for r in rows),
        "spots_changed_materially": sum(any(a["material"] for a in r["alternatives"].values()) for r in rows),
        "mean_share_of_alternatives_flipping": round(float(np.mean([r["share_flipped"] for r in rows])), 4),
        "max_regret_bb": max(r["max_regret_bb"] for r in rows),
        "max_regret_spot": max(rows, key=lambda r: r["max_regret_bb"])["spot"],
    }
    return {"experiment": "range sensitivity", "seed": seed, "samples": samples,
            "default": "chart prior + regular model", "summary": summary, "spots": rows,
            "note": "Model-relative: there is no ground-truth opponent. Turn and river spots are valued by the "
                    "postflop solver on the street's subgame; preflop and flop spots by exact (flop) or sampled "
                    "(preflop) equity with a one-response continuation model."}


def sensitivity_table(doc: dict[str, Any]) -> str:
    """A plain-text table: one row per spot, the recommendation per analysis and the regrets."""
    alts = doc["summary"]["alternatives"]
    header = ["spot", "method", "default"] + alts + ["max regret bb"]
    lines = [" | ".join(header), " | ".join("---" for _ in header)]
    for r in doc["spots"]:
        cells = [r["spot"], r["method"], r["recommendation"]]
        for alt in alts:
            a = r["alternatives"][alt]
            mark = "" if not a["flips"] else (f" ({a['regret_bb']:.2f})" if a["material"] else f" ({a['regret_bb']:.2f}, within error)")
            cells.append(a["recommendation"] + mark)
        cells.append(f"{r['max_regret_bb']:.2f}")
        lines.append(" | ".join(cells))
    s = doc["summary"]
    lines.append("")
    lines.append(f"spots whose recommendation changes: {s['spots_changed']} of {s['spots']} "
                 f"({s['spots_changed_materially']} by more than the valuation's error); mean share of alternatives "
                 f"flipping it: {100 * s['mean_share_of_alternatives_flipping']:.0f}%; largest regret "
                 f"{s['max_regret_bb']:.2f} bb ({s['max_regret_spot']})")
    return "\n".join(lines)


def write_sensitivity(out_path, seed: int = 0, samples: int = 4000) -> dict[str, Any]:
    """Run the experiment and write it as canonical JSON atomically (rule ``range_sensitivity``)."""
    from pokerlab.io import write_json_atomic

    doc = run_sensitivity(seed=seed, samples=samples)
    write_json_atomic(out_path, doc)
    return doc
