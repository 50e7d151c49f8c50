"""NodeDocument v1: the serving contract's JSON for one strategy node, postflop and preflop.

One document describes one decision: who acts, the pot and the stack behind, the actions
with their sizes, each combo's reach, the actor's strategy and EV per action, and the 13x13
``grid169`` derived from them. The per-combo data are the truth; ``grid169`` is computed
here from them (:func:`grid169`) and clients read it as derived data.

Conventions (the same for both kinds of document)
    * Cards ``AKQJT98765432`` x ``shdc``; a combo id writes the higher card first, a pair's
      suits ordered ``s > h > d > c`` (``pokerlab.cards.COMBO_IDS``). A postflop board id is
      its cards sorted from the highest (``AsKh2d``).
    * Every chip amount is in big blinds (bb); ``meta.bb_chips`` is the divisor used.
    * Every per-combo or per-class array (``strategy``, ``evs``, ``grid169[].strategy``,
      ``grid169[].ev``) is aligned index for index with ``actions``.
    * EVs are the actor's expected chips at the end of the hand minus its stack at this node
      (chips it already put in are sunk): a fold is worth 0, and at a postflop node the two
      players' node EVs add up to ``pot_bb``.
    * Strategies sum to 1 per combo (within 1e-6); numbers are rounded to
      :data:`STRATEGY_DECIMALS` / :data:`EV_DECIMALS` places before ``grid169`` is derived, so
      ``grid169`` is exactly the reach-weighted mean of the numbers in the document.

Postflop (:func:`postflop_documents`): one per decision of the solved tree's root street (tier
``root``) or of the whole tree (tier ``tree``): ``node_path`` ``root``, then the action ids and,
after a deal, the dealt card's id, joined by ``.`` (``root.bet_50.call``, ``root.check.check.Td.bet_50``);
after a deal ``board`` includes the dealt cards and ``street`` is the new street.
Preflop (:func:`preflop_document`): one per decision node of a published chart; what differs
from the postflop contract, and why, is listed in ``pokerlab/data/schemas/node-document-preflop.schema.json``.
JSON Schemas: ``pokerlab/data/schemas/node-document.schema.json`` and the preflop variant;
:func:`validate_document` checks either.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from pokerlab import __version__
from pokerlab.cards import CLASS_COMBOS, CLASS_NAMES, COMBO_CLASS, COMBO_IDS, card_str
from pokerlab.data import data_path
from pokerlab.encoding import decode, decode_scaled
from pokerlab.preflop.tree import recorded_tree

SCHEMA_VERSION = 1
STRATEGY_DECIMALS = 7
EV_DECIMALS = 5
SCHEMA_DIR = data_path("schemas/node-document.schema.json").parent
POSTFLOP_SCHEMA = "node-document.schema.json"
PREFLOP_SCHEMA = "node-document-preflop.schema.json"
PREFLOP_KIND = {"F": "fold", "C": "call", "R": "raise", "S": "raise", "A": "allin"}  # S: a second raise size
_COMBO_NUMBER = {cid: i for i, cid in enumerate(COMBO_IDS)}


def canonical_board(cards) -> str:
    """The board id: cards from the highest index down (rank first, then ``s > h > d > c``)."""
    return "".join(card_str(c) for c in sorted((int(c) for c in cards), reverse=True))


def _round(values, decimals: int) -> list[float]:
    return [round(float(v), decimals) + 0.0 for v in values]


# --- grid169 -----------------------------------------------------------------------------------


def grid169(weights: dict[str, float], strategy: dict[str, list[float]],
            evs: dict[str, list[float | None]], n_actions: int) -> list[dict[str, Any]]:
    """The 169 cells (row-major, ranks A..2) aggregated from per-combo data.

    ``weight`` is the sum of the actor's reach over the class's combos present in ``weights``;
    ``strategy`` and ``ev`` are the reach-weighted means of the combos' arrays (a combo absent
    from ``strategy`` counts for nothing; an EV of ``None`` - undefined - must carry weight 0).
    A class of weight 0 gets zero-filled arrays.
    """
    live = [c for c, w in weights.items() if w > 0 and c in strategy]
    undefined = next((c for c in live if any(v is None for v in evs[c])), None)
    if undefined is not None:
        raise ValueError(f"evs: combo {undefined} has weight {weights[undefined]} but an undefined EV")
    cls = COMBO_CLASS[[_COMBO_NUMBER[c] for c in live]].astype(np.intp)
    w = np.array([weights[c] for c in live], dtype=np.float64)
    strat = np.array([strategy[c] for c in live], dtype=np.float64).reshape(len(live), n_actions)
    ev = np.array([evs[c] for c in live], dtype=np.float64).reshape(len(live), n_actions)
    total = np.bincount(cls, weights=w, minlength=169)
    safe = np.where(total > 0, total, 1.0)
    mean_s = np.stack([np.bincount(cls, weights=w * strat[:, a], minlength=169) for a in range(n_actions)], axis=1)
    mean_e = np.stack([np.bincount(cls, weights=w * ev[:, a], minlength=169) for a in range(n_actions)], axis=1)
    mean_s = np.where(total[:, None] > 0, mean_s / safe[:, None], 0.0)
    mean_e = np.where(total[:, None] > 0, mean_e / safe[:, None], 0.0)
    return [{"class": name, "row": k // 13, "col": k % 13, "weight": round(float(total[k]), 9) + 0.0,
             "strategy": _round(mean_s[k], STRATEGY_DECIMALS), "ev": _round(mean_e[k], EV_DECIMALS)}
            for k, name in enumerate(CLASS_NAMES)]


# --- postflop ----------------------------------------------------------------------------------


def postflop_action(label: str, pot: float, behind_actor: float, bb_chips: float) -> dict[str, Any]:
    """A tree label (``CHECK``, ``CALL``, ``FOLD``, ``BET x``, ``RAISE x``; ``x`` chips added) as a
    contract action. Sizes are fractions of ``pot``, the pot at the node; a bet or raise of
    the actor's whole remaining stack ``behind_actor`` is ``allin``."""
    word, _, amount = label.partition(" ")
    if word in ("CHECK", "FOLD"):
        return {"id": word.lower(), "kind": word.lower()}
    if word == "CALL":
        return {"id": "call", "kind": "call"}  # the amount is filled by the caller (to-call)
    chips = float(amount)
    fraction = chips / pot
    if abs(chips - behind_actor) <= 1e-9 * max(1.0, behind_actor):
        return {"id": "allin", "kind": "allin", "amount_bb": round(chips / bb_chips, 6),
                "fraction_pot": round(fraction, 6)}
    kind = word.lower()
    return {"id": f"{kind}_{round(100 * fraction)}", "kind": kind, "amount_bb": round(chips / bb_chips, 6),
            "fraction_pot": round(fraction, 6)}


def _postflop_actions(readout, stack: float, bb_chips: float) -> list[dict[str, Any]]:
    actor = readout.actor
    behind_actor = stack - readout.invest[actor]
    actions = []
    for label in readout.actions:
        action = postflop_action(label, readout.pot, behind_actor, bb_chips)
        if action["kind"] == "call":
            to_call = readout.invest[1 - actor] - readout.invest[actor]
            action["amount_bb"] = round(to_call / bb_chips, 6)
        actions.append(action)
    ids = [a["id"] for a in actions]
    if len(set(ids)) != len(ids):
        raise ValueError(f"actions: two sizes at one node round to the same id {ids}; use sizes further apart")
    return actions


def card_segment(card: int) -> str:
    """A dealt card as a ``node_path`` segment: the card id (``Td``), which no action id can be."""
    return card_str(int(card))


def postflop_documents(solver, family_id: str, settings: dict[str, Any], bb_chips: float = 1.0,
                       tier: str = "root", deals: dict[str, list[str]] | None = None,
                       root_street_only: bool = False) -> dict[str, dict]:
    """``node_path -> document`` (without ``meta.pack_sha256``/``campaign``/``stamp``, which the
    pack adds) of a solved ``PostflopSolver``: every decision of the root street (``tier``
    ``root``) or of the whole tree, every dealt card included (``tree``; the solver must keep a
    strategy for every deal, i.e. be solved with ``isomorphism=False`` unless the board and
    ranges have no suit symmetry). Paths: ``root``, then action ids and, after a deal, the dealt
    card, joined by ``.``: ``root.check.check.Td.bet_50``. ``deals``, if given, receives
    ``chance path -> cards that can come`` (``root.check.check -> ["Ac", ...]``).
    ``root_street_only``: tier-``tree`` documents of the root street alone (a lazy pack builds
    the rest on request, :mod:`pokerlab.serve.lazy`)."""
    from pokerlab.postflop.nodes import root_street_nodes, tree_nodes

    if not bb_chips > 0:
        raise ValueError(f"bb_chips: {bb_chips!r} must be a positive number of chips per big blind")
    if tier not in ("root", "tree"):
        raise ValueError(f"tier: {tier!r} must be 'root' (the root street) or 'tree' (every node)")
    spot = solver.spot
    exploitability_chips = solver.exploitability()
    hands = [[COMBO_IDS[int(c)] for c in h] for h in solver.hands]
    docs: dict[str, dict] = {}
    path_of: dict[tuple, str] = {(): "root"}
    readouts = tree_nodes(solver) if tier == "tree" and not root_street_only else root_street_nodes(solver)
    for r in readouts:
        docs[path_of[r.line]] = postflop_document(solver, r, family_id, settings, bb_chips, hands,
                                                  exploitability_chips, path_of, tier, deals)
    return docs


def postflop_document(solver, r, family_id, settings, bb_chips, hands, exploitability_chips, path_of, tier,
                      deals=None) -> dict[str, Any]:
    """The document of one read-out ``r`` (:class:`pokerlab.postflop.nodes.NodeReadout`);
    registers its children's paths in ``path_of`` (keyed by read-out line)."""
    from pokerlab.postflop.game import PLAYER_NAMES, STREET_NAMES

    spot = solver.spot
    actions = _postflop_actions(r, spot.stack, bb_chips)
    path = path_of[r.line]
    for k, action in enumerate(actions):
        path_of[r.line + (k,)] = child = f"{path}.{action['id']}"
        if k in r.deals:
            used = set(spot.board) | set(r.dealt)
            for c in range(52):
                if c not in used:
                    path_of[r.line + (k, f"c{c}")] = f"{child}.{card_segment(c)}"
            if deals is not None:
                deals[child] = [card_segment(c) for c in sorted(set(range(52)) - used, reverse=True)]
    live = r.live if r.live is not None else tuple(np.ones(len(h), bool) for h in hands)
    actor_hands = [(i, cid) for i, cid in enumerate(hands[r.actor]) if live[r.actor][i]]
    strategy = {cid: _round(r.strategy[:, i], STRATEGY_DECIMALS) for i, cid in actor_hands}
    evs = {cid: _round(r.action_ev[:, i] / bb_chips, EV_DECIMALS) for i, cid in actor_hands}
    evs_current = {cid: round(float(np.dot(r.strategy[:, i], r.action_ev[:, i])) / bb_chips, EV_DECIMALS) + 0.0
                   for i, cid in actor_hands}
    ranges = {name: {cid: round(float(w), 9) + 0.0 for cid, w, ok in zip(hands[p], r.reach[p], live[p]) if ok}
              for p, name in enumerate(PLAYER_NAMES)}
    return {
        "schema_version": SCHEMA_VERSION,
        "family_id": family_id,
        "board": canonical_board(tuple(spot.board) + tuple(r.dealt)),
        "node_path": path,
        "street": STREET_NAMES[spot.street + len(r.dealt)],
        "actor": PLAYER_NAMES[r.actor],
        "pot_bb": round(r.pot / bb_chips, 6),
        "effective_stack_bb": round(r.behind / bb_chips, 6),
        "actions": actions,
        "ranges": ranges,
        "strategy": strategy,
        "evs": evs,
        "evs_current": evs_current,
        "grid169": grid169(ranges[PLAYER_NAMES[r.actor]], strategy, evs, len(actions)),
        "exploitability": {
            "exploitability_bb": round(exploitability_chips / bb_chips, 9),
            "exploitability_pct_pot": round(100.0 * exploitability_chips / spot.pot, 6),
            "oop_ev_bb": round(r.node_ev[0] / bb_chips, 6),
            "ip_ev_bb": round(r.node_ev[1] / bb_chips, 6),
        },
        "meta": {
            "tier": tier,
            "solver": f"pokerlab {__version__} postflop DCFR",
            "settings": settings,
            "bb_chips": bb_chips,
            "ip_weights_uniform": False,
        },
    }


# --- preflop -----------------------------------------------------------------------------------


def preflop_node_path(node_id: str) -> str:
    """The chart's node id as a ``node_path``: ``root`` for the first decision (``""``)."""
    return node_id or "root"


def preflop_node_id(node_path: str) -> str:
    """The inverse of :func:`preflop_node_path`; ``ValueError`` for a malformed path."""
    if node_path == "root":
        return ""
    if not node_path or any(ch not in "FCRSA" for ch in node_path):
        raise ValueError(f"node_path: {node_path!r} is not 'root' or a string of the actions F, C, R, S, A")
    return node_path


def _preflop_actions(tree, node_id: str, codes: list[str]) -> list[dict[str, Any]]:
    node = tree.node(node_id)
    seat = node.actor
    actions = []
    for code in codes:
        child = tree.node(node_id + code)
        amount = child.contrib[seat] - node.contrib[seat]
        fraction = amount / node.pot
        if code == "F":
            actions.append({"id": "fold", "kind": "fold", "code": code})
        elif code == "C":
            kind = "check" if amount <= 1e-9 else "call"
            action = {"id": kind, "kind": kind, "code": code}
            if kind == "call":
                action["amount_bb"] = round(amount, 6)
            actions.append(action)
        else:
            kind = PREFLOP_KIND[code]
            ident = "allin" if code == "A" else f"raise_{round(100 * fraction)}"
            actions.append({"id": ident, "kind": kind, "code": code, "amount_bb": round(amount, 6),
                            "fraction_pot": round(fraction, 6), "raise_to_bb": round(tree.live_contrib(child, seat), 6)})
    return actions


def preflop_document(chart: dict[str, Any], node_id: str, tree=None,
                     provenance: dict[str, Any] | None = None) -> dict[str, Any]:
    """The document of decision ``node_id`` of a published chart (``pokerlab-chart/1``).

    Class-level data are expanded to combos: each combo carries its class's strategy (the
    chart's 1/90 levels renormalised to sum to 1) and EVs (bb, shifted from the start of the
    hand to this node by adding the chips the actor has already put in; ``null`` where the
    chart has none because the class never arrives), and ``ranges.actor`` gives each combo the
    probability that the actor holds it when the node is reached (the chart's arrive-with
    distribution, its 1/90 levels renormalised to sum to 1, split evenly over the class's combos). ``provenance``: the ``meta`` fields
    the caller knows (pack digest, campaign, stamp, manifest).
    """
    from pokerlab.charts import find_node

    tree = tree if tree is not None else recorded_tree(chart)
    node = find_node(chart, node_id)
    tnode = tree.node(node_id)
    codes = list(node["actions"])
    actions = _preflop_actions(tree, node_id, codes)
    ids = {n["id"] for n in chart["nodes"]}
    for a in actions:
        a["next"] = preflop_node_path(node_id + a["code"]) if node_id + a["code"] in ids else None
    seat = tnode.actor
    sunk = tnode.contrib[seat]
    freq = np.stack([decode(node["strategy"][c]) for c in codes])  # (actions, 169)
    totals = freq.sum(axis=0)
    if np.any(totals <= 0):
        k = int(np.flatnonzero(totals <= 0)[0])
        raise ValueError(f"chart node {node_id!r}: class {CLASS_NAMES[k]} has no action with a positive frequency")
    freq = freq / totals
    ev = np.stack([decode_scaled(node["ev_bb"][c]) + sunk for c in codes])
    arrive = decode_scaled(node["arrive_with"])
    arrive[np.isnan(ev).any(axis=0)] = 0.0  # quantisation noise: the chart has no EV, the class does not arrive
    if not arrive.sum() > 0:
        raise ValueError(f"chart node {node_id!r}: arrive_with decodes to zero for every class")
    arrive = arrive / arrive.sum()  # the 1/90 levels, renormalised to a distribution
    class_strategy = [_round(freq[:, k], STRATEGY_DECIMALS) for k in range(169)]
    class_ev = [[None if np.isnan(v) else round(float(v), EV_DECIMALS) + 0.0 for v in ev[:, k]] for k in range(169)]
    strategy, evs, reach = {}, {}, {}
    for combo, cid in enumerate(COMBO_IDS):
        k = int(COMBO_CLASS[combo])
        strategy[cid] = class_strategy[k]
        evs[cid] = class_ev[k]
        share = float(arrive[k]) / len(CLASS_COMBOS[k])
        reach[cid] = round(share, 12) + 0.0
    spot, solve = chart["spot"], chart["solve"]
    positions = spot["positions"]
    root_pot = tree.node("").pot
    meta = {
        "tier": "chart",
        "solver": f"pokerlab {chart['code_version']} preflop CFR+",
        "settings": {"spot": spot, "sizing": chart["sizing"], "solve": chart["settings"],
                     "iterations": solve["iterations"]},
        "bb_chips": 1,
        "ip_weights_uniform": False,
        "inputs": chart["inputs"],
        **(provenance or {}),
    }
    return {
        "schema_version": SCHEMA_VERSION,
        "family_id": f"{spot['format']}/{spot['seats']}max/{float(spot['depth_bb']):g}bb",
        "board": None,
        "node_path": preflop_node_path(node_id),
        "node_id": node_id,
        "street": "preflop",
        "actor": positions[seat],
        "pot_bb": round(tnode.pot, 6),
        "effective_stack_bb": round(tnode.behind, 6),
        "actions": actions,
        "reach": node["reach"],
        "capped": node["capped"],
        "model_share": solve["model_share"],
        "ranges": {"actor": reach},
        "strategy": strategy,
        "evs": evs,
        "grid169": grid169(reach, strategy, evs, len(actions)),
        "exploitability": {
            "exploitability_bb": solve["exploitability_bb"],
            "exploitability_pct_pot": round(100.0 * solve["exploitability_bb"] / root_pot, 6),
            "per_seat_bb": solve["exploitability_per_seat"],
            "bar_bb": solve["bar_bb"],
            "seat_ev_bb": solve["seat_ev_bb"],
        },
        "meta": meta,
    }


def preflop_node_list(chart: dict[str, Any], tree=None) -> list[dict[str, Any]]:
    """Every decision node of a chart: path, actor, actions (with sizes), reach, capped."""
    tree = tree if tree is not None else recorded_tree(chart)
    ids = {n["id"] for n in chart["nodes"]}
    positions = chart["spot"]["positions"]
    out = []
    for node in chart["nodes"]:
        actions = _preflop_actions(tree, node["id"], list(node["actions"]))
        for a in actions:
            child = node["id"] + a["code"]
            a["next"] = preflop_node_path(child) if child in ids else None
            a["share"] = node["shares"][a["code"]]
        out.append({"node_path": preflop_node_path(node["id"]), "actor": positions[tree.node(node["id"]).actor],
                    "reach": node["reach"], "capped": node["capped"], "actions": actions})
    return out


# --- percentile order --------------------------------------------------------------------------


def strength_order(win: np.ndarray, tie: np.ndarray) -> dict[str, Any]:
    """The 169 classes from the strongest, by all-in equity (win + tie/2) against one random
    hand at class level (opponent classes weighted by their combo prior, no card removal);
    ties keep grid order. The web app's percentile chart fills classes in this order; its
    file ``serve/static/strength-order.json`` was made from the exact equity table."""
    from pokerlab.cards import CLASS_PRIOR

    equity = (np.asarray(win) + 0.5 * np.asarray(tie)) @ CLASS_PRIOR
    order = sorted(range(169), key=lambda k: (-round(float(equity[k]), 12), k))
    return {"order": [CLASS_NAMES[k] for k in order], "equity_vs_random": [round(float(equity[k]), 6) for k in order]}


# --- schema ------------------------------------------------------------------------------------


def load_schema(name: str) -> dict[str, Any]:
    return json.loads((SCHEMA_DIR / name).read_text())


def validate_document(doc: dict[str, Any], strict: bool = False) -> None:
    """Raise ``ValueError`` naming the first place ``doc`` breaks its schema (the preflop
    variant for ``street == "preflop"``).

    A document of 1,326 combos takes jsonschema about half a second, so the check runs on a
    compiled validator first (:func:`pokerlab.schema_check.first_problem`; ``strict``: jsonschema
    alone)."""
    from pokerlab.schema_check import first_problem

    name = PREFLOP_SCHEMA if doc.get("street") == "preflop" else POSTFLOP_SCHEMA
    problem = first_problem(doc, load_schema(name), strict=strict)
    if problem is not None:
        raise ValueError(f"node document ({name}): {problem}")
