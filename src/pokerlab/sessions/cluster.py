"""Hero's hands clustered into proposed sessions by the pause between them.

Hands are sorted by time (then export and hand id); a pause longer than ``gap_minutes``
between one hand and the next starts a new session, whatever table or export either came
from (multi-tabling interleaves tables: they are one session). A proposal carries its start
and end (first and last hand), the hands, the stakes played, the exports involved and the
hand-history net in currency (each hand's result in bb times its big blind's value).
A proposal that overlaps a logged session is marked ``logged``. A hand found in several
exports (the same export stored under two names) counts once (:func:`unique_hands`).
"""

from __future__ import annotations

from datetime import datetime, timedelta


def unique_hands(summaries: list[dict]) -> tuple[list[dict], int]:
    """The export summaries with every hand already in an earlier export (same site and hand
    id, :func:`pokerlab.hands.importer.hand_key`) left out, with its grade rows; and how many
    hands were left out."""
    seen: set[tuple[str, str]] = set()
    out, dropped = [], 0
    for s in summaries:
        hands, repeated = [], set()
        for h in s["hands"]:
            key = tuple(h["key"]) if h.get("key") else None
            if key is not None and key in seen:
                repeated.add(h["id"])
                continue
            if key is not None:
                seen.add(key)
            hands.append(h)
        if repeated:
            s = {**s, "hands": hands}
            if s.get("grade"):
                s["grade"] = {**s["grade"], "rows": [r for r in s["grade"]["rows"] if r["hand_id"] not in repeated]}
        dropped += len(repeated)
        out.append(s)
    return out, dropped


def hero_hands(summaries: list[dict], hero: str, chip_value: float) -> tuple[list[dict], int]:
    """Hero's hands of every export as flat records (time, export, id, stakes, result in bb
    and currency); also the count of hero hands without a time stamp (left out)."""
    out, untimed = [], 0
    for s in summaries:
        for h in s["hands"]:
            if hero not in h["players"]:
                continue
            if not h["time"]:
                untimed += 1
                continue
            k = h["players"].index(hero)
            bb_value = h["bb_chips"] * chip_value
            out.append({"time": datetime.fromisoformat(h["time"]), "export": s["name"], "id": h["id"],
                        "stakes": stake_label(h["stakes"], chip_value), "position": h["positions"][k],
                        "result_bb": h["results_bb"][k], "bb_value": bb_value, "net": h["results_bb"][k] * bb_value})
    out.sort(key=lambda r: (r["time"], r["export"], r["id"]))
    return out, untimed


def stake_label(stakes: str, chip_value: float) -> str:
    """``"50/100"`` at 0.0002 per chip -> ``"0.01/0.02"``; currency text is kept as it is."""
    if chip_value == 1:
        return stakes
    try:
        sb, bb = (float(x) for x in stakes.split("/"))
    except ValueError:
        return stakes
    return f"{round(sb * chip_value, 10):g}/{round(bb * chip_value, 10):g}"


def cluster(hands: list[dict], gap_minutes: float) -> list[dict]:
    """Proposed sessions from time-sorted hero hands (see the module docstring)."""
    gap = timedelta(minutes=gap_minutes)
    groups: list[list[dict]] = []
    for h in hands:
        if groups and h["time"] - groups[-1][-1]["time"] <= gap:
            groups[-1].append(h)
        else:
            groups.append([h])
    out = []
    for g in groups:
        out.append({"start": g[0]["time"].strftime("%Y-%m-%dT%H:%M:%S"), "end": g[-1]["time"].strftime("%Y-%m-%dT%H:%M:%S"),
                    "hands": len(g), "stakes": ";".join(sorted({h["stakes"] for h in g})),
                    "exports": ";".join(sorted({h["export"] for h in g})),
                    "hh_net": round(sum(h["net"] for h in g), 6), "result_bb": round(sum(h["result_bb"] for h in g), 6)})
    return out


def mark_logged(proposals: list[dict], sessions) -> list[dict]:
    """Each proposal with ``logged`` = the id of a logged session its time span overlaps (or None)."""
    out = []
    for p in proposals:
        start, end = datetime.fromisoformat(p["start"]), datetime.fromisoformat(p["end"])
        hit = next((s.id for s in sessions if s.start <= end and start <= s.end), None)
        out.append({**p, "logged": hit})
    return out


PROPOSAL_FIELDS = ("start", "end", "hands", "stakes", "hh_net", "exports")
"""The ledger fields a proposal fills in; the money figures beside them are typed."""


def proposal_fields(proposals: list[dict], number: int, what: str = "proposal") -> dict:
    """The :data:`PROPOSAL_FIELDS` of proposal ``number`` (1-based, as listed) for a new ledger
    row; ``ValueError`` naming ``what`` if there is no such proposal or it overlaps a logged session."""
    if not 1 <= number <= len(proposals):
        raise ValueError(f"{what} {number}: there are {len(proposals)} proposals")
    chosen = proposals[number - 1]
    if chosen["logged"]:
        raise ValueError(f"{what} {number}: overlaps logged session {chosen['logged']}")
    return {k: chosen[k] for k in PROPOSAL_FIELDS}


def hands_in(hands: list[dict], start: datetime, end: datetime) -> list[dict]:
    """The hero hands a logged session covers (its start and end included)."""
    return [h for h in hands if start <= h["time"] <= end]
