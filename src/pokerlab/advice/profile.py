"""A villain's archetype chosen from its measured statistics in hand-history files.

:func:`villain_profile` imports the hands (:func:`pokerlab.hands.importer.import_paths`, any
supported format), measures the named player's

* **VPIP** and **PFR**: the raw rates (count / opportunities, in %) of the statistics of
  :mod:`pokerlab.hands.stats`, with their Beta-posterior credible intervals;
* **aggression factor** (AF): postflop bets and raises divided by postflop calls, counted from
  the player's actions after the flop (checks and folds left out). With bets or raises but no
  call the factor is the number of bets and raises (as if one call had been seen);

and picks the archetype with :func:`pokerlab.ranges.likelihood.archetype_from_stats` (the
nearest of the four illustrative reference profiles). The choice is as good as the sample:
the report carries the hand count and the intervals, and the archetypes nearest to the
intervals' ends, so an unstable choice shows.
"""

from __future__ import annotations

import os
from typing import Any, Iterable

from pokerlab.ranges.likelihood import archetype_from_stats

__all__ = ["villain_profile", "aggression_factor"]


def aggression_factor(hands, player: str) -> tuple[float, int, int]:
    """(AF, postflop bets and raises, postflop calls) of ``player`` over ``hands``; ``ValueError``
    when the player made none of them (the factor is not measured)."""
    aggressive = calls = 0
    for hand in hands:
        if player not in hand.players:
            continue
        seat = hand.players.index(player)
        for act in hand.actions:
            if act.street > 0 and act.player == seat:
                aggressive += act.kind in ("B", "R")
                calls += act.kind == "C"
    if aggressive + calls == 0:
        raise ValueError(f"villain: {player!r} made no postflop bet, raise or call in these hands; the aggression "
                         f"factor is not measured (choose --model instead)")
    return (aggressive / calls if calls else float(aggressive)), aggressive, calls


def villain_profile(paths: "Iterable[str | os.PathLike] | list", player: str) -> dict[str, Any]:
    """The measured statistics of ``player`` in the hand files (or folders) ``paths`` (or a list
    of already imported :class:`~pokerlab.hands.model.Hand`) and the archetype they choose."""
    from pokerlab.hands.importer import import_paths
    from pokerlab.hands.stats import stats_document

    items = list(paths)
    if items and all(hasattr(h, "actions") for h in items):
        hands, source = items, "hands"
    else:
        result = import_paths(items)
        hands, source = result.hands, [str(p) for p in items]
    mine = [h for h in hands if player in h.players]
    if not mine:
        names = sorted({p for h in hands for p in h.players})
        shown = ", ".join(names[:12]) + (" ..." if len(names) > 12 else "")
        raise ValueError(f"villain: no hand of {player!r} among {len(hands)} imported hands (players: {shown or 'none'})")
    doc = stats_document(mine, players=[player])["players"].get(player, {})
    if "vpip" not in doc:
        raise ValueError(f"villain: {player!r} made no preflop decision in {len(mine)} hands; VPIP is not measured")
    vpip, pfr = doc["vpip"], doc["pfr"]
    rate = lambda e: 100.0 * e["count"] / e["opportunities"]  # noqa: E731
    af, aggressive, calls = aggression_factor(mine, player)
    chosen = archetype_from_stats(rate(vpip), rate(pfr), af)
    # the archetype at the credible intervals' ends (PFR kept at or below VPIP)
    ends = {}
    for end in ("lower", "upper"):
        v, p = 100.0 * vpip[end], 100.0 * pfr[end]
        ends[end] = archetype_from_stats(v, min(p, v), af).name
    return {
        "player": player, "source": source, "hands": len(mine),
        "vpip_pct": round(rate(vpip), 2), "vpip": vpip,
        "pfr_pct": round(rate(pfr), 2), "pfr": pfr,
        "aggression_factor": round(af, 4), "postflop_bets_raises": aggressive, "postflop_calls": calls,
        "archetype": chosen.name,
        "archetype_at_interval_ends": ends,
        "stable": ends["lower"] == ends["upper"] == chosen.name,
    }
