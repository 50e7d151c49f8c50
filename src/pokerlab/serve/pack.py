"""A pack: a set of postflop solves, written once as NodeDocuments and addressed by its digest.

Layout of a pack directory::

    pack.json                      # format, campaign, stamp, tier, pack_sha256, the spots
    spots/<family_id>.json         # {"family_id", "documents": {node_path: NodeDocument}} (compact JSON):
                                   # the root street's decisions
    spots/<family_id>/<card>.json  # tier "tree": the same for every node after the first dealt
                                   # card <card> (e.g. spots/turn_x/Td.json holds root.check.check.Td...)

Tiers: ``root`` holds the root street's decisions (the nodes reached before any card is
dealt); ``tree`` holds every decision of the solved tree, every dealt card included (a dealt
card is a ``node_path`` segment: ``root.check.check.Td.bet_50``). A spot's entry in
``pack.json`` lists its node paths (``nodes``), its files (``file`` for the root street,
``parts`` for each first dealt card) with their SHA-256, and ``deals``: for each action that
ends a street, the cards that can come (``{"root.check.check": ["As", ...]}``).

The documents in a spot file lack ``meta.campaign``, ``meta.stamp`` and ``meta.pack_sha256``:
those come from ``pack.json`` when a document is read (:meth:`Pack.document`), because the
digest covers the spot files. ``pack_sha256`` is the SHA-256 of ``pack.json``'s canonical JSON
without its ``pack_sha256`` and ``stamp`` fields; that JSON lists every spot file's SHA-256, so
the digest addresses the whole content. ``stamp`` defaults to the digest's first 16 hex digits.
A pack is immutable: :func:`write_pack` refuses a directory that already holds files, and a
reader checks each spot file against its listed digest before serving from it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pokerlab.io import compact_json_bytes, write_bytes_atomic

PACK_FORMAT = "pokerlab-pack/1"
PACK_NAME = "pack.json"
FAMILY_RE = re.compile(r"^[A-Za-z0-9_.-]{1,100}$")
PACK_FIELDS_FROM_INDEX = ("campaign", "stamp", "pack_sha256")
CARD_SEGMENT_RE = re.compile(r"^[AKQJT98765432][shdc]$")
TIERS = ("root", "tree")


def first_deal(node_path: str) -> str | None:
    """The first dealt card named in ``node_path`` (``Td`` in ``root.check.check.Td.bet_50``), or None."""
    return next((seg for seg in node_path.split(".") if CARD_SEGMENT_RE.match(seg)), None)


@dataclass(frozen=True)
class PackSpot:
    """One solved spot, ready to be written into a pack."""

    family_id: str
    board: str
    street: str
    documents: dict[str, dict[str, Any]]  # node_path -> document (without the pack's meta fields)
    deals: dict[str, list[str]] = dataclasses.field(default_factory=dict)  # chance path -> cards that can come
    tier: str = "root"
    lazy: tuple[dict[str, Any], bytes] | None = None  # (spot record, strategy sums): later streets on request


def default_family_id(spot) -> str:
    """``river_KsTh7d4c2s_p10_s20``: street, board (canonical), root pot and stack in chips."""
    from pokerlab.postflop.game import STREET_NAMES
    from pokerlab.serve.documents import canonical_board

    return f"{STREET_NAMES[spot.street]}_{canonical_board(spot.board)}_p{spot.pot:g}_s{spot.stack:g}"


def solve_settings(solver, target_pct_pot: float) -> dict[str, Any]:
    """What a document's ``meta.settings`` records of a solve (chips, not bb)."""
    spot = solver.spot
    return {
        "pot_chips": spot.pot,
        "stack_chips": spot.stack,
        "bet_tree": dataclasses.asdict(spot.bet_tree),
        "target_pct_pot": target_pct_pot,
        "iterations": solver.iterations,
        "dcfr": list(solver.dcfr),
    }


def pack_spot(solver, target_pct_pot: float, family_id: str | None = None, bb_chips: float = 1.0,
              tier: str = "root", lazy: bool | None = None) -> PackSpot:
    """The documents of a solved :class:`~pokerlab.postflop.solver.PostflopSolver` (the root
    street, or with ``tier="tree"`` every node), each checked against the schema (``ValueError``
    naming the field, e.g. a range weight above 1). With ``lazy`` (tree tier) only the root
    street's documents are written; the spot and the solver's strategy sums are stored instead of
    the rest, which a reader builds on request (:mod:`pokerlab.serve.lazy`; the solver must have
    been built with ``isomorphism=False``). ``lazy=None``: lazy for a flop spot (whose later
    streets are most of the tree), eager for a turn or river spot."""
    from pokerlab.postflop.game import STREET_NAMES
    from pokerlab.serve.documents import canonical_board, postflop_documents, validate_document

    family_id = family_id or default_family_id(solver.spot)
    if not FAMILY_RE.match(family_id):
        raise ValueError(f"family_id: {family_id!r} must be 1-100 characters of letters, digits, '_', '.', '-'")
    deals: dict[str, list[str]] = {}
    lazy = (solver.spot.street == 0 if lazy is None else lazy) and tier == "tree"
    if tier == "tree" and not np.array_equal(solver.iso_card, np.tile(np.arange(52), (53, 1))):
        raise ValueError("pack: the tree tier reads every deal, but this solve stores one deal per suit-isomorphism "
                         "class; solve with PostflopSolver(..., isomorphism=False) or write the root tier")
    settings = solve_settings(solver, target_pct_pot)
    docs = postflop_documents(solver, family_id, settings, bb_chips, tier, deals, root_street_only=lazy)
    stored = None
    if lazy:
        from pokerlab.serve.lazy import spot_record

        stored = (spot_record(solver, family_id, json.loads(json.dumps(settings)), bb_chips), solver.strategy_sums())
    placeholder = {"campaign": "check", "stamp": "check", "pack_sha256": "0" * 64}
    for doc in docs.values():  # each document is checked against the schema before it is written
        validate_document({**doc, "meta": {**doc["meta"], **placeholder}})
    return PackSpot(family_id, canonical_board(solver.spot.board), STREET_NAMES[solver.spot.street], docs,
                    deals if tier == "tree" else {}, tier, stored)


def replace_root_pack(solver, target_pct_pot: float, out_dir: str | os.PathLike, campaign: str) -> dict[str, Any]:
    """Write a solve as a root-tier pack (the root street's documents) into ``out_dir``,
    replacing a pack already there: written beside it first, then swapped in, so a reader never
    sees half a pack. Root tier only: a wide flop's tree tier runs to hundreds of thousands of
    documents. Returns the pack's index."""
    import shutil

    out = Path(out_dir)
    tmp = out.with_name(out.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    index = write_pack(tmp, [pack_spot(solver, target_pct_pot, tier="root")], campaign=campaign)
    shutil.rmtree(out, ignore_errors=True)
    os.replace(tmp, out)
    return index


def _digest(index: dict[str, Any]) -> str:
    body = {k: v for k, v in index.items() if k not in ("pack_sha256", "stamp")}
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _path_key(path: str) -> tuple:
    return (path.count("."), path)


def check_pack_target(out_dir: str | os.PathLike, label: str = "pack") -> None:
    """``ValueError`` (naming ``label``) unless ``out_dir`` is new or an empty directory: a pack is
    written once. Callers check before a long solve, :func:`write_pack` again before writing."""
    out = Path(out_dir)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ValueError(f"{label}: {out} already exists and is not empty; a pack is written once")


def write_pack(out_dir: str | os.PathLike, spots: list[PackSpot], campaign: str = "pokerlab",
               stamp: str | None = None, tier: str | None = None) -> dict[str, Any]:
    """Write a pack of ``spots`` into the new (or empty) directory ``out_dir``; return its index.
    ``tier`` defaults to the spots' own (they must agree)."""
    out = Path(out_dir)
    check_pack_target(out)
    if not spots:
        raise ValueError("pack: no spots to write")
    names = [s.family_id for s in spots]
    if len(set(names)) != len(names):
        raise ValueError(f"pack: family ids must be unique, got {sorted(names)}")
    tiers = {s.tier for s in spots}
    tier = tier or (tiers.pop() if len(tiers) == 1 else None)
    if tier not in TIERS:
        raise ValueError(f"pack: tier must be one of {TIERS} and shared by every spot, got {tier or sorted(tiers)}")
    entries = []
    for spot in sorted(spots, key=lambda s: s.family_id):
        groups: dict[str | None, dict[str, Any]] = {}
        for path in sorted(spot.documents, key=_path_key):
            groups.setdefault(first_deal(path), {})[path] = spot.documents[path]
        files = {}
        for card in sorted(groups, key=lambda c: c or ""):
            rel = f"spots/{spot.family_id}.json" if card is None else f"spots/{spot.family_id}/{card}.json"
            data = compact_json_bytes({"family_id": spot.family_id, "documents": groups[card]})
            write_bytes_atomic(out / rel, data)
            files[card] = {"file": rel, "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
        if None not in files:
            raise ValueError(f"pack: spot {spot.family_id} has no root-street document")
        entry = {"family_id": spot.family_id, "board": spot.board, "street": spot.street, **files.pop(None),
                 "nodes": sorted(spot.documents, key=_path_key)}
        if files:
            entry["parts"] = files
        if spot.deals:
            entry["deals"] = {k: spot.deals[k] for k in sorted(spot.deals, key=_path_key)}
        if spot.lazy is not None:
            record, state = spot.lazy
            rel = f"spots/{spot.family_id}.state.f32"
            write_bytes_atomic(out / rel, state)
            entry["lazy"] = {"file": rel, "sha256": hashlib.sha256(state).hexdigest(), "bytes": len(state),
                             "record": record}
        entries.append(entry)
    index = {"format": PACK_FORMAT, "campaign": campaign, "tier": tier, "spots": entries}
    index["pack_sha256"] = _digest(index)
    index["stamp"] = stamp or index["pack_sha256"][:16]
    write_bytes_atomic(out / PACK_NAME, compact_json_bytes(index))
    return index


class Pack:
    """A pack read from disk: its index, and documents read (and digest-checked) on demand."""

    def __init__(self, root: str | os.PathLike):
        self.root = Path(root)
        path = self.root / PACK_NAME
        try:
            index = json.loads(path.read_bytes())
        except (OSError, json.JSONDecodeError) as exc:
            raise ValueError(f"pack: cannot read {path}: {exc}") from None
        if not isinstance(index, dict) or index.get("format") != PACK_FORMAT:
            raise ValueError(f"pack: {path} is not a {PACK_FORMAT} index")
        if _digest(index) != index.get("pack_sha256"):
            raise ValueError(f"pack: {path}: pack_sha256 does not match its content")
        self.index = index
        self.spots = {s["family_id"]: s for s in index["spots"]}
        self._loaded: dict[tuple, dict[str, Any]] = {}
        self._node_sets = {f: set(s["nodes"]) for f, s in self.spots.items()}
        self._lazy: dict[str, Any] = {}
        self._lazy_lock = threading.Lock()

    @property
    def sha256(self) -> str:
        return self.index["pack_sha256"]

    def _read(self, rel: str) -> bytes:
        try:
            return (self.root / rel).read_bytes()
        except OSError as exc:
            raise ValueError(f"pack {self.sha256[:16]}: cannot read {rel} ({exc.strerror})") from None

    def _spot(self, family_id: str, card: str | None = None) -> dict[str, Any]:
        """The documents of one spot file: the root street's, or those after first dealt ``card``."""
        key = (family_id, card)
        with self._lazy_lock:  # the server reads from several threads
            return self._load_spot(key)

    def _load_spot(self, key: tuple) -> dict[str, Any]:
        family_id, card = key
        if key not in self._loaded:
            entry = self.spots[family_id]
            part = entry if card is None else entry.get("parts", {})[card]
            data = self._read(part["file"])
            if hashlib.sha256(data).hexdigest() != part["sha256"]:
                raise ValueError(f"pack {self.sha256[:16]}: {part['file']} does not match its listed SHA-256")
            if len(self._loaded) >= 8:  # a tree-tier spot has one file per first dealt card: keep a few
                self._loaded.pop(next(iter(self._loaded)))
            self._loaded[key] = json.loads(data)["documents"]
        return self._loaded[key]

    def lazy_spot(self, family_id: str):
        """The :class:`~pokerlab.serve.lazy.LazySpot` of a spot stored lazily (None otherwise)."""
        entry = self.spots[family_id].get("lazy")
        if entry is None:
            return None
        with self._lazy_lock:  # one rebuild per spot, whichever thread asks first
            if family_id not in self._lazy:
                from pokerlab.serve.lazy import LazySpot

                data = self._read(entry["file"])
                if hashlib.sha256(data).hexdigest() != entry["sha256"]:
                    raise ValueError(f"pack {self.sha256[:16]}: {entry['file']} does not match its listed SHA-256")
                self._lazy[family_id] = LazySpot(entry["record"], data)
            return self._lazy[family_id]

    def has_node(self, family_id: str, node_path: str) -> bool:
        """True if the spot serves a document at ``node_path`` (stored, or built on request)."""
        if node_path in self._node_sets[family_id]:
            return True
        lazy = first_deal(node_path) is not None and self.lazy_spot(family_id)
        return bool(lazy) and lazy.has(node_path)

    def street(self, family_id: str, after: str) -> dict[str, Any]:
        """Node paths and deals of the street that begins after the dealt card ending ``after``;
        ``KeyError`` if there is no such street."""
        lazy = self.lazy_spot(family_id)
        if lazy is not None:
            return lazy.street(after)
        entry, prefix = self.spots[family_id], after + "."
        if not CARD_SEGMENT_RE.match(after.rsplit(".", 1)[-1]) or after not in self._node_sets[family_id]:
            raise KeyError(after)
        later = lambda p: p.startswith(prefix) and first_deal(p[len(prefix):]) is None  # noqa: E731
        return {"nodes": [after] + [p for p in entry["nodes"] if later(p)],
                "deals": {k: v for k, v in entry.get("deals", {}).items() if later(k)}}

    def document(self, family_id: str, node_path: str) -> dict[str, Any]:
        """The full document (pack meta filled in); ``KeyError`` if the spot or node is unknown."""
        if node_path in self._node_sets[family_id] or self.spots[family_id].get("lazy") is None:
            doc = dict(self._spot(family_id, first_deal(node_path))[node_path])
        else:
            doc = self.lazy_spot(family_id).document(node_path)
        doc["meta"] = {**doc["meta"], **{k: self.index[k] for k in PACK_FIELDS_FROM_INDEX}}
        return doc
