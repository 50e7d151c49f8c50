"""Typed models (pydantic) of every JSON body the API answers: the lists, the two NodeDocuments
and the error. The OpenAPI description at ``/openapi.json`` is generated from them and from the
routes (:mod:`pokerlab.serve.app`).

The server does not build its answers through these models: documents are made as plain JSON
by :mod:`pokerlab.serve.documents` and :mod:`pokerlab.serve.pack` and cached as bytes (reading a
preflop document of 1,326 combos through its model and writing it out takes ~5 ms, ten times a
cached answer).
The models are the description, held to the answers by the tests: every document served in the
tests round-trips through its model, and each NodeDocument model has the fields (names, required
ones, no others) of its JSON Schema in ``pokerlab/data/schemas/``, which stays the published contract
(it also states rules a model does not: which action kinds carry an amount).

Units and conventions are those of :mod:`pokerlab.serve.documents`: chips in big blinds (bb),
per-combo and per-class arrays aligned with ``actions``, combo ids higher card first.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

ComboId = Annotated[str, StringConstraints(pattern=r"^[AKQJT98765432][shdc][AKQJT98765432][shdc]$")]
Probability = Annotated[float, Field(ge=0, le=1)]
Sha256 = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]


class ClosedModel(BaseModel):
    """A JSON object with exactly the fields declared (``additionalProperties: false``)."""

    model_config = ConfigDict(extra="forbid")


# --- errors ------------------------------------------------------------------------------------


class ErrorDetail(ClosedModel):
    status: int = Field(description="the HTTP status, repeated")
    message: str = Field(description="what is wrong, naming the chart set, pack, spot, node or file")
    asked: dict[str, str] = Field(description="what the request asked: its path parameters, or its path")


class ErrorBody(ClosedModel):
    """Every error the API answers (4xx and 5xx)."""

    error: ErrorDetail


# --- lists -------------------------------------------------------------------------------------


class ChartSetEntry(ClosedModel):
    id: str = Field(description="{format}/{n}max/{depth}bb, e.g. cash/6max/100bb")
    format: str
    seats: int
    depth_bb: float


class PackSpotEntry(ClosedModel):
    family_id: str
    board: str
    street: str
    nodes: int = Field(description="decision nodes listed for the spot (a lazy pack: those of its first street)")


class PackEntry(ClosedModel):
    id: str = Field(description="the pack's name: packs/{name}, or fit.{format}.{n}max.{depth}bb.eR.bN for a fit solve")
    pack_sha256: Sha256
    campaign: str
    stamp: str
    tier: str
    spots: list[PackSpotEntry]


class SetsList(ClosedModel):
    """The chart sets and packs in the results directory."""

    chart_sets: list[ChartSetEntry] = Field(description="sorted by format, seats, depth")
    packs: list[PackEntry]


class PreflopAction(ClosedModel):
    id: str = Field(pattern=r"^(fold|check|call|allin|raise_[0-9]+)$",
                    description="unique at the node; raise_ followed by the size in % of the pot, rounded")
    kind: Literal["fold", "check", "call", "raise", "allin"]
    code: Literal["F", "C", "R", "S", "A"] = Field(description="the chart's action letter (S: a second raise size)")
    amount_bb: float | None = Field(None, gt=0, description="chips the actor puts in with this action, bb")
    fraction_pot: float | None = Field(None, gt=0, description="amount_bb / pot_bb")
    raise_to_bb: float | None = Field(None, gt=0, description="the actor's live total after a raise or all-in, bb")
    next: str | None = Field(None, description="node_path of the next decision after this action; null if none follows")


class PreflopListAction(PreflopAction):
    share: float = Field(description="the chart's share of deals reaching the node that take this action")


class PreflopNodeEntry(ClosedModel):
    node_path: str
    actor: str
    reach: Probability = Field(description="share of deals reaching the node")
    capped: bool = Field(description="the fold is forced by the three-entrant cap, not chosen")
    actions: list[PreflopListAction]


class ChartNodeList(ClosedModel):
    """Every decision node of a chart set, with its actions and where each leads."""

    chart_set: str
    positions: list[str] = Field(description="seat names from the first to act")
    sha256: Sha256 = Field(description="SHA-256 of the chart file")
    nodes: list[PreflopNodeEntry]


class PackNodeList(ClosedModel):
    """A pack spot's node paths and deals (a lazy pack: those of its first street)."""

    pack: str
    pack_sha256: Sha256
    family_id: str
    board: str
    street: str
    tier: str
    nodes: list[str] = Field(description="node paths, breadth-first; a dealt card is a segment (root.check.check.Td)")
    deals: dict[str, list[str]] = Field(description="for each action ending a street: the cards that can come")
    lazy: bool = Field(description="later streets are listed with ?after= and their documents made on request")


class PackStreetList(ClosedModel):
    """The node paths and deals of the street that begins after ``after`` (a dealt card)."""

    pack: str
    pack_sha256: Sha256
    family_id: str
    after: str
    nodes: list[str]
    deals: dict[str, list[str]]


# --- NodeDocument v1 ---------------------------------------------------------------------------


class Cell(ClosedModel):
    """One of the 169 classes: reach-weighted means of its combos (derived data)."""

    class_: str = Field(alias="class", pattern=r"^[AKQJT98765432]{2}[so]?$")
    row: int = Field(ge=0, le=12)
    col: int = Field(ge=0, le=12)
    weight: float = Field(ge=0, description="the actor's reach summed over the class's combos")
    strategy: list[Probability]
    ev: list[float] = Field(description="bb")


Grid169 = Annotated[list[Cell], Field(min_length=169, max_length=169,
                                      description="row-major, ranks A..2; row<col suited, row>col offsuit")]


class PostflopAction(ClosedModel):
    id: str = Field(pattern=r"^(fold|check|call|allin|(bet|raise)_[0-9]+)$",
                    description="unique in the document; bet_/raise_ followed by the size in % of the pot, rounded")
    kind: Literal["fold", "check", "call", "bet", "raise", "allin"]
    amount_bb: float | None = Field(None, gt=0, description="chips the actor puts in with this action, bb")
    fraction_pot: float | None = Field(None, gt=0, description="amount_bb / pot_bb")


class PostflopRanges(ClosedModel):
    oop: dict[ComboId, Probability]
    ip: dict[ComboId, Probability]


class PostflopExploitability(ClosedModel):
    exploitability_bb: float
    exploitability_pct_pot: float
    oop_ev_bb: float
    ip_ev_bb: float


class PostflopMeta(ClosedModel):
    campaign: str
    stamp: str
    tier: Literal["root", "tree"]
    pack_sha256: Sha256
    solver: str
    settings: dict[str, Any]
    bb_chips: float = Field(gt=0)
    ip_weights_uniform: Literal[False]


class NodeDocument(ClosedModel):
    """One decision of a solved heads-up postflop spot (``node-document.schema.json``)."""

    schema_version: Literal[1]
    family_id: str = Field(pattern=r"^[A-Za-z0-9_.-]+$")
    board: str = Field(pattern=r"^([AKQJT98765432][shdc]){3,5}$")
    node_path: str
    street: Literal["flop", "turn", "river"]
    actor: Literal["oop", "ip"]
    pot_bb: float = Field(gt=0)
    effective_stack_bb: float = Field(ge=0)
    actions: list[PostflopAction] = Field(min_length=1)
    ranges: PostflopRanges
    strategy: dict[ComboId, list[Probability]]
    evs: dict[ComboId, list[float]]
    evs_current: dict[ComboId, float] | None = Field(None, description="strategy-weighted mean of evs per combo, bb")
    grid169: Grid169
    exploitability: PostflopExploitability
    meta: PostflopMeta


class PreflopRanges(ClosedModel):
    actor: dict[ComboId, Probability] = Field(description="the actor's arrive-with distribution over the 1,326 combos")


class PreflopExploitability(ClosedModel):
    exploitability_bb: float = Field(ge=0)
    exploitability_pct_pot: float = Field(ge=0)
    per_seat_bb: dict[str, float]
    bar_bb: float = Field(ge=0)
    seat_ev_bb: dict[str, float]


class ManifestEntry(BaseModel):
    model_config = ConfigDict(extra="allow")

    listed: bool = Field(description="the release manifest lists the chart file with the digest served")
    path: str | None = None
    manifest_sha256: str | None = None


class PreflopMeta(ClosedModel):
    campaign: str
    stamp: str = Field(description="first 16 hex digits of the release manifest's SHA-256, or 'unlisted'")
    tier: Literal["chart"]
    pack_sha256: Sha256 = Field(description="SHA-256 of the chart file")
    solver: str
    settings: dict[str, Any]
    bb_chips: Literal[1]
    ip_weights_uniform: Literal[False]
    inputs: dict[str, Any]
    manifest: ManifestEntry


class PreflopNodeDocument(ClosedModel):
    """One decision node of a published chart (``node-document-preflop.schema.json``)."""

    schema_version: Literal[1]
    family_id: str = Field(pattern=r"^[a-z_]+/[2-9]max/[0-9.]+bb$")
    board: None
    node_path: str
    node_id: str
    street: Literal["preflop"]
    actor: Literal["UTG", "UTG1", "UTG2", "LJ", "HJ", "CO", "BTN", "SB", "BB"]
    pot_bb: float
    effective_stack_bb: float
    actions: list[PreflopAction]
    reach: Probability
    capped: bool
    model_share: Probability
    ranges: PreflopRanges
    strategy: dict[ComboId, list[Probability]]
    evs: dict[ComboId, list[float | None]] = Field(description="bb; null where the chart has none")
    grid169: Grid169
    exploitability: PreflopExploitability
    meta: PreflopMeta
