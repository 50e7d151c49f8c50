"""The 169-character encoding: round trip within half a level, an alphabet safe in JSON and URLs."""

import json
import math
import string
import urllib.parse

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerlab.encoding import (ALPHABET, LEVELS, MISSING, decode, decode_scaled, encode, encode_rows, encode_scaled,
                               encode_scaled_rows)

floats01 = st.lists(st.floats(0.0, 1.0, allow_nan=False), min_size=169, max_size=169)


def test_alphabet_is_91_distinct_printable_characters_in_order():
    assert len(ALPHABET) == LEVELS == 91 and len(set(ALPHABET)) == 91
    assert all(ch in string.printable and not ch.isspace() for ch in ALPHABET)
    assert list(ALPHABET) == sorted(ALPHABET) and '"' not in ALPHABET and "\\" not in ALPHABET and "<" not in ALPHABET
    assert MISSING not in ALPHABET


def test_every_character_survives_json_unescaped_and_a_url_round_trip():
    text = ALPHABET + MISSING
    assert json.dumps(text) == '"' + text + '"'  # nothing escaped
    assert json.loads(json.dumps({"codes": text}))["codes"] == text
    assert urllib.parse.unquote(urllib.parse.quote(text, safe="")) == text
    query = urllib.parse.urlencode({"s": text})
    assert urllib.parse.parse_qs(query)["s"] == [text]


def test_known_values():
    x = np.zeros(169)
    x[0], x[1], x[2], x[3] = 1.0, 0.5, 1 / 90, 0.0056  # 0.0056 * 90 = 0.504 -> level 1
    s = encode(x)
    assert s[0] == "~" and s[1] == ALPHABET[45] and s[2] == "#" and s[3] == "#" and s[4:] == "!" * 165
    assert decode(s)[:3].tolist() == [1.0, 0.5, 1 / 90]


@settings(max_examples=200, deadline=None)
@given(floats01)
def test_round_trip_within_half_a_level(values):
    x = np.array(values)
    assert np.abs(decode(encode(x)) - x).max() <= 0.5 / 90 + 1e-12


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(-300, 300, allow_nan=False), min_size=169, max_size=169))
def test_scaled_round_trip_within_half_a_level(values):
    x = np.array(values)
    doc = encode_scaled(x)
    assert doc["lo"] <= x.min() and doc["hi"] >= x.max()
    half = (doc["hi"] - doc["lo"]) / 180
    assert np.abs(decode_scaled(doc) - x).max() <= half + 1e-9


def test_nan_is_the_missing_character():
    x = np.full(169, 0.25)
    x[7] = np.nan
    s = encode(x)
    assert s[7] == MISSING
    back = decode(s)
    assert np.isnan(back[7]) and np.isnan(back).sum() == 1


def test_constant_array_scaled():
    doc = encode_scaled(np.full(169, -0.5))
    assert doc["lo"] == doc["hi"] == -0.5 and np.all(decode_scaled(doc) == -0.5)


@pytest.mark.parametrize(
    "bad, fragment",
    [(np.zeros(168), "169"), (np.full(169, 1.5), "outside"), (np.full(169, -0.1), "outside")],
)
def test_bad_arrays_are_refused(bad, fragment):
    with pytest.raises(ValueError, match=fragment):
        encode(bad)


@pytest.mark.parametrize("text, fragment", [("!" * 168, "169"), ("!" * 168 + '"', "position 168"), ("!" * 168 + "é", "ASCII")])
def test_bad_strings_are_refused(text, fragment):
    with pytest.raises(ValueError, match=fragment):
        decode(text)


def _reference_codes(row, lo, hi):
    """Level by level in plain Python, the module's rule written out: nearest level, NaN missing."""
    out = []
    for v in row:
        if math.isnan(v):
            out.append(MISSING)
        else:
            out.append(ALPHABET[round((min(max(v, lo), hi) - lo) / (hi - lo) * 90) if hi > lo else 0])
    return "".join(out)


def test_bulk_encoding_matches_a_plain_python_reference_row_by_row():
    """The chart writer encodes thousands of rows at once, each with its own range: every row
    equals the level-by-level reference, and encode_scaled_rows gives each row's outward-rounded
    range (a row without a finite value gets [0, 0])."""
    rng = np.random.default_rng(7)
    rows = rng.uniform(-3.0, 5.0, size=(40, 169))
    rows[rng.uniform(size=rows.shape) < 0.1] = np.nan
    rows[3] = np.nan
    rows[5] = 1.25  # constant row: zero span
    lo = np.nanmin(np.where(np.isnan(rows), np.inf, rows), axis=1)
    lo[3] = 0.0
    hi = np.where(np.isnan(rows), -np.inf, rows).max(axis=1)
    hi[3] = 0.0
    assert encode_rows(rows, lo, hi) == [_reference_codes(r, a, b) for r, a, b in zip(rows.tolist(), lo, hi)]
    docs = encode_scaled_rows(rows, decimals=3)
    for row, doc in zip(rows.tolist(), docs):
        finite = [v for v in row if not math.isnan(v)]
        want_lo = math.floor(min(finite) * 1000) / 1000 if finite else 0.0
        want_hi = math.ceil(max(finite) * 1000) / 1000 if finite else 0.0
        assert (doc["lo"], doc["hi"]) == (want_lo, want_hi)
        assert doc["codes"] == _reference_codes(row, want_lo, want_hi)
    with pytest.raises(ValueError, match="fall outside"):
        encode_rows(rows[:2], 0.0, 1.0)
