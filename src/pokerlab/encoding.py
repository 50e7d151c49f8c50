"""Compact text encoding of 169-number arrays: one printable character per hand class.

A chart node holds several arrays of 169 numbers (one per class, grid order of
``pokerlab.cards.CLASS_NAMES``). Each is written as a string of exactly 169 characters, so a
whole chart set is small and a node costs no parsing beyond a table look-up.

Alphabet: the 91 printable ASCII characters from ``!`` (0x21) to ``~`` (0x7E) without ``"``
and ``\\`` (the two characters JSON would escape) and ``<`` (so a chart embedded in an HTML
``<script>`` can never close it), in code-point order. Character ``k`` of
:data:`ALPHABET` stands for level ``k`` of :data:`LEVELS` - 1 = 90 steps, so a frequency is
quantised to 1/90 = 1.11 percentage points. One more character, :data:`MISSING` (a space),
marks an undefined value (NaN, e.g. the EV of an action at a node a class never reaches).

Decoding a character ``ch`` of an array encoded over ``[lo, hi]``::

    level = ALPHABET.index(ch)            # 0 .. 90
    value = lo + (hi - lo) * level / 90   # NaN for MISSING

Encoding rounds to the nearest level, so ``|decode(encode(x)) - x| <= (hi - lo) / 180`` (half a
level). Strategies and other probabilities use ``lo = 0, hi = 1`` (the default); arrays with
another range (EVs in bb) are stored with their ``lo``/``hi`` beside the string.

The characters survive JSON unescaped; in a URL they are percent-encoded like any reserved
character and decode back unchanged (``urllib.parse.quote``/``unquote``).
"""

from __future__ import annotations

import math

import numpy as np

ALPHABET = "".join(chr(c) for c in range(0x21, 0x7F) if chr(c) not in '"\\<')
"""Level k is ALPHABET[k]; 91 characters, code-point order."""
LEVELS = len(ALPHABET)
STEPS = LEVELS - 1
MISSING = " "
"""The character of an undefined (NaN) value."""
LENGTH = 169

_CODE = np.frombuffer(ALPHABET.encode("ascii"), dtype=np.uint8)
_LEVEL_OF_BYTE = np.full(256, -1, dtype=np.int16)
_LEVEL_OF_BYTE[_CODE] = np.arange(LEVELS)
_LEVEL_OF_BYTE[ord(MISSING)] = LEVELS  # sentinel for NaN

assert LEVELS == 91 and STEPS == 90


def _check_range(lo: float, hi: float) -> None:
    if not (math.isfinite(lo) and math.isfinite(hi) and hi >= lo):
        raise ValueError(f"encoding range: lo={lo!r}, hi={hi!r} must be finite with hi >= lo")


def encode(values, lo: float = 0.0, hi: float = 1.0) -> str:
    """The 169-character string of ``values`` (169 numbers in ``[lo, hi]``; NaN allowed).

    Values outside ``[lo, hi]`` by more than 1e-9 of the range raise ``ValueError``; those within
    it are clipped (float noise of a probability a hair above 1).
    """
    x = np.asarray(values, dtype=np.float64)
    if x.shape != (LENGTH,):
        raise ValueError(f"encoding: expected {LENGTH} values, got shape {x.shape}")
    return encode_rows(x[None, :], lo, hi)[0]


def encode_rows(rows, lo=0.0, hi=1.0) -> list[str]:
    """:func:`encode` of every row of an ``(n, 169)`` array at once (the chart writer's path:
    a chart has thousands of arrays). ``lo`` and ``hi`` are numbers or ``(n,)`` arrays, one
    range per row; the strings are the ones :func:`encode` gives row by row."""
    x = np.asarray(rows, dtype=np.float64)
    if x.ndim != 2 or x.shape[1] != LENGTH:
        raise ValueError(f"encoding: expected rows of {LENGTH} values, got shape {x.shape}")
    lo = np.broadcast_to(np.asarray(lo, dtype=np.float64), (len(x),))
    hi = np.broadcast_to(np.asarray(hi, dtype=np.float64), (len(x),))
    for row in np.flatnonzero(~(np.isfinite(lo) & np.isfinite(hi) & (hi >= lo))):
        _check_range(float(lo[row]), float(hi[row]))
    span = (hi - lo)[:, None]
    low, high = lo[:, None], hi[:, None]
    nan = np.isnan(x)
    tolerance = 1e-9 * np.maximum(span, 1.0)
    bad = ~nan & ~((x >= low - tolerance) & (x <= high + tolerance))  # also catches +-inf
    if bad.any():
        row = int(np.flatnonzero(bad.any(axis=1))[0])
        finite = x[row][~nan[row]]
        raise ValueError(f"encoding: values {finite.min()!r}..{finite.max()!r} fall outside "
                         f"[{float(lo[row])!r}, {float(hi[row])!r}]")
    clipped = np.clip(np.where(nan, low, x), low, high) - low
    positive = span > 0
    scaled = np.divide(clipped, span, out=np.zeros_like(clipped), where=positive)
    codes = _CODE[np.rint(scaled * STEPS).astype(np.intp)]
    codes[nan] = ord(MISSING)
    text = codes.tobytes().decode("ascii")
    return [text[i:i + LENGTH] for i in range(0, len(text), LENGTH)]


def decode(text: str, lo: float = 0.0, hi: float = 1.0) -> np.ndarray:
    """The 169 float64 values of an encoded string (NaN where it holds :data:`MISSING`)."""
    _check_range(lo, hi)
    if not isinstance(text, str) or len(text) != LENGTH:
        raise ValueError(f"decoding: expected a string of {LENGTH} characters, got {type(text).__name__} of length {len(text) if isinstance(text, str) else '?'}")
    try:
        raw = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    except UnicodeEncodeError as exc:
        raise ValueError(f"decoding: non-ASCII character in {text!r}") from exc
    levels = _LEVEL_OF_BYTE[raw]
    bad = np.flatnonzero(levels < 0)
    if bad.size:
        raise ValueError(f"decoding: character {text[bad[0]]!r} at position {bad[0]} is not in the alphabet")
    out = lo + (hi - lo) * levels.astype(np.float64) / STEPS
    out[levels == LEVELS] = np.nan
    return out


def encode_scaled(values, decimals: int = 5) -> dict:
    """``{"lo", "hi", "codes"}`` for an array of any range (NaN allowed): ``lo``/``hi`` are its
    finite minimum and maximum rounded outward to ``decimals`` places, so the stored numbers
    are short and the half-level bound still holds."""
    x = np.asarray(values, dtype=np.float64)
    if x.shape != (LENGTH,):
        raise ValueError(f"encoding: expected {LENGTH} values, got shape {x.shape}")
    return encode_scaled_rows(x[None, :], decimals)[0]


def encode_scaled_rows(rows, decimals: int = 5) -> list[dict]:
    """:func:`encode_scaled` of every row of an ``(n, 169)`` array at once (the same documents)."""
    x = np.asarray(rows, dtype=np.float64)
    if x.ndim != 2 or x.shape[1] != LENGTH:
        raise ValueError(f"encoding: expected rows of {LENGTH} values, got shape {x.shape}")
    finite = np.isfinite(x)
    some = finite.any(axis=1)
    scale = 10.0**decimals
    low = np.where(finite, x, np.inf).min(axis=1)
    high = np.where(finite, x, -np.inf).max(axis=1)
    # rows without a finite value get [0, 0]; + 0.0 turns -0.0 into 0.0
    lo = np.where(some, np.floor(np.where(some, low, 0.0) * scale) / scale, 0.0) + 0.0
    hi = np.where(some, np.ceil(np.where(some, high, 0.0) * scale) / scale, 0.0) + 0.0
    codes = encode_rows(x, lo, hi)
    return [{"lo": a, "hi": b, "codes": c} for a, b, c in zip(lo.tolist(), hi.tolist(), codes)]


def decode_scaled(doc: dict) -> np.ndarray:
    """The inverse of :func:`encode_scaled`."""
    return decode(doc["codes"], doc["lo"], doc["hi"])
