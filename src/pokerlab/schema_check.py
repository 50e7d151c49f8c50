"""Checking a document against a JSON Schema (Draft 2020-12), fast.

jsonschema walks a large document slowly: the nine-handed 200bb chart (~7,000 nodes) takes it
about 7 CPU seconds, two thirds of making the chart. When fastjsonschema is installed (the
``test`` extra, which ``make`` installs) the document is first checked by its compiled
validator (0.2 s for that chart); only a document it does not pass (or every document with
``strict``) goes to jsonschema, which decides and names the first problem. A compiled validator
may only short-cut a pass, so the verdict is always jsonschema's wherever they could disagree.
"""

from __future__ import annotations

import json
from typing import Any, Callable

_COMPILED: dict[str, Callable[[Any], Any] | None] = {}
_VALIDATORS: dict[str, Any] = {}


def _compiled(key: str, schema: dict[str, Any]) -> Callable[[Any], Any] | None:
    if key not in _COMPILED:
        try:
            import fastjsonschema
        except ImportError:
            _COMPILED[key] = None
        else:
            _COMPILED[key] = fastjsonschema.compile(schema)
    return _COMPILED[key]


def first_problem(doc: Any, schema: dict[str, Any], strict: bool = False) -> str | None:
    """None if ``doc`` satisfies ``schema``, else ``"where: message"`` of jsonschema's best match
    (``where``: the ``/``-joined path in the document, ``(document)`` at its top). The validators
    of a schema are built once per process (cached by the schema's canonical JSON)."""
    key = json.dumps(schema, sort_keys=True)
    fast = None if strict else _compiled(key, schema)
    if fast is not None:
        try:
            fast(doc)
            return None
        except Exception:  # noqa: BLE001 - any failure: jsonschema decides and gives the message
            pass
    import jsonschema

    if key not in _VALIDATORS:
        _VALIDATORS[key] = jsonschema.Draft202012Validator(schema)
    error = jsonschema.exceptions.best_match(_VALIDATORS[key].iter_errors(doc))
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path) or "(document)"
    return f"{where}: {error.message[:300]}"
