"""Atomic writes, canonical JSON and SHA256SUMS files."""

import hashlib
import os
import stat
import subprocess

import pytest

from pokerlab import io


def test_failed_write_leaves_nothing_behind(tmp_path):
    dest = tmp_path / "out" / "result.json"
    with pytest.raises(RuntimeError):
        with io.atomic_path(dest) as tmp:
            tmp.write_text("half")
            raise RuntimeError("interrupted")
    assert not dest.exists()
    assert list((tmp_path / "out").iterdir()) == []


def test_write_replaces_atomically_with_umask_permissions(tmp_path):
    dest = tmp_path / "a.json"
    dest.write_text("old")
    io.write_json_atomic(dest, {"b": 1, "a": [1.5, 2]})
    assert dest.read_text() == '{\n  "a": [\n    1.5,\n    2\n  ],\n  "b": 1\n}\n'
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(dest.stat().st_mode) == 0o666 & ~umask


def test_canonical_json_refuses_nan():
    with pytest.raises(ValueError):
        io.dumps_json({"x": float("nan")})


def test_sha256sums_is_checkable_by_sha256sum(tmp_path):
    files = []
    for name, data in (("b.txt", b"beta\n"), ("sub/a.bin", bytes(range(256)))):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        files.append(path)
    io.write_sha256sums(tmp_path / "SHA256SUMS", files, tmp_path)
    lines = (tmp_path / "SHA256SUMS").read_text().splitlines()
    assert lines == sorted(lines)
    assert f"{hashlib.sha256(b'beta' + bytes([10])).hexdigest()}  b.txt" in lines
    check = subprocess.run(["sha256sum", "-c", "SHA256SUMS"], cwd=tmp_path, capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    (tmp_path / "b.txt").write_bytes(b"Beta\n")
    assert subprocess.run(["sha256sum", "-c", "SHA256SUMS"], cwd=tmp_path, capture_output=True).returncode != 0


def test_readers_name_the_file_and_what_it_is(tmp_path):
    with pytest.raises(ValueError, match=r"chart: .*missing\.json does not exist"):
        io.read_json(tmp_path / "missing.json", "chart")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ValueError, match=r"manifest: .*bad\.json is not JSON"):
        io.read_json(bad, "manifest")
    bad_yaml = tmp_path / "sizing.yaml"
    bad_yaml.write_text("bands: [unclosed")
    with pytest.raises(ValueError, match="sizing file sizing.yaml: not valid YAML"):
        io.read_yaml(bad_yaml, "sizing file")
    with pytest.raises(ValueError, match="payouts file .*nowhere.yaml: cannot be read"):
        io.read_yaml(tmp_path / "nowhere.yaml", "payouts file")
