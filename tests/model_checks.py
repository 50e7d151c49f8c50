"""A check shared by the serving tests: a served body read through its typed model."""

from __future__ import annotations

import json


def round_trips(model, body: bytes) -> None:
    """``body`` (JSON bytes as served) is accepted by ``model`` and read back unchanged: the model
    neither drops, adds nor alters a field (numbers compared by value: 1 == 1.0)."""
    parsed = model.model_validate_json(body)
    assert parsed.model_dump(mode="json", by_alias=True, exclude_unset=True) == json.loads(body), model.__name__
