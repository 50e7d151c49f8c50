"""Checks of the workflow's configuration that its JSON Schema cannot express, run when the
workflow loads (``workflow/rules/common.smk``), before any job: each refusal is one
``ValueError`` naming the key (``solve.spots[1].depth``) and what was expected."""

from __future__ import annotations

from typing import Any

from pokerlab.preflop.spot import depth_label


def _depth(value: Any, key: str) -> None:
    try:
        depth_label(value)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"config {key}: {str(exc).removeprefix('depth: ')}") from None


def check_config(config: dict[str, Any]) -> None:
    """Refuse a schema-valid configuration that would fail, or silently change, later."""
    for i, spot in enumerate(config.get("solve", {}).get("spots", [])):
        _depth(spot["depth"], f"solve.spots[{i}].depth")
    for mode in ("headsup", "fourmax"):
        for i, depth in enumerate(config.get("pushfold", {}).get(mode, {}).get("depths", [])):
            _depth(depth, f"pushfold.{mode}.depths[{i}]")
