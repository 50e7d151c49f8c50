"""Atomic writes, canonical JSON and SHA256SUMS files."""

import hashlib
import io as stdio
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


def test_a_killed_writers_temporary_is_removed_by_the_next_write(tmp_path):
    """Reliability #12: a hard kill between mkstemp and the rename left '.NAME.XXXXXXXX.tmp' beside
    the target forever; the next atomic write of that target removes it (and only such files)."""
    import os
    import time

    from pokerlab.io import write_json_atomic

    stale = tmp_path / ".result.json.k3v_9x2a.tmp"
    stale.write_text("half a result")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    live = tmp_path / ".result.json.abcdefgh.tmp"  # a writer that started after this process did
    live.write_text("being written")
    future = time.time() + 3600
    os.utime(live, (future, future))
    keep = [tmp_path / ".result.json.tmp", tmp_path / ".other.json.k3v_9x2a.tmp", tmp_path / "notes.tmp"]
    for path in keep:
        path.write_text("not ours")
        os.utime(path, (old, old))
    write_json_atomic(tmp_path / "result.json", {"a": 1})
    assert not stale.exists()
    assert live.exists() and all(p.exists() for p in keep)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["result.json", live.name, *(p.name for p in keep)])


def test_a_release_clears_temporaries_from_its_published_folders(tmp_path):
    """Reliability #12: the manifest step removes temporaries of pokerlab's naming from the published
    folders (every writer of a published file has finished by then), so the audit passes."""
    from pokerlab.manifest import audit, publish_release

    chart = tmp_path / "charts" / "cash" / "2max" / "10bb.json"
    chart.parent.mkdir(parents=True)
    chart.write_text('{"inputs": {}}')
    leftover = chart.parent / ".20bb.json.ab_12345.tmp"
    leftover.write_text("killed mid-write")
    publish_release(tmp_path, [chart], ["charts"], {})
    assert not leftover.exists()
    assert audit(tmp_path / "manifest.json")[0] == []


def test_deterministic_npz_bytes_do_not_depend_on_the_time(monkeypatch):
    """numpy.savez_compressed dates every member with the time of writing; this writer's bytes
    depend only on the arrays (two writes a 'day' apart are equal) and numpy.load reads them."""
    import time
    import zipfile

    import numpy as np

    arrays = {"b": np.arange(12, dtype=np.int32).reshape(3, 4), "a": np.array([1.5, -2.0])}
    first = io.deterministic_npz_bytes(arrays)
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + 86400)
    monkeypatch.setattr(time, "localtime", lambda *_: time.struct_time((2031, 5, 6, 7, 8, 9, 0, 1, 0)))
    assert io.deterministic_npz_bytes(dict(reversed(list(arrays.items())))) == first
    with zipfile.ZipFile(stdio.BytesIO(first)) as archive:
        assert [i.filename for i in archive.infolist()] == ["a.npy", "b.npy"]
        assert {i.date_time for i in archive.infolist()} == {io.NPZ_MEMBER_DATE}
    with np.load(stdio.BytesIO(first)) as loaded:
        assert all(np.array_equal(loaded[k], v) and loaded[k].dtype == v.dtype for k, v in arrays.items())


def test_a_frame_is_written_as_csv_or_parquet_by_its_suffix_or_as_asked(tmp_path):
    import pandas as pd

    from pokerlab.io import write_frame

    frame = pd.DataFrame({"class": ["AA", "72o"], "ev_bb": [1.25, -0.5]})
    write_frame(frame, tmp_path / "a.parquet")
    write_frame(frame, tmp_path / "a.csv")
    write_frame(frame, tmp_path / "b.parquet", "csv")
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "a.parquet"), frame)
    assert (tmp_path / "a.csv").read_text() == "class,ev_bb\nAA,1.25\n72o,-0.5\n"  # no index column
    assert (tmp_path / "b.parquet").read_bytes() == (tmp_path / "a.csv").read_bytes()
    with pytest.raises(ValueError, match="table kind 'xlsx'"):
        write_frame(frame, tmp_path / "c.xlsx", "xlsx")
    assert not (tmp_path / "c.xlsx").exists()


def test_streamed_npz_is_read_by_numpy_and_a_failed_stream_leaves_nothing(tmp_path):
    import numpy as np

    from pokerlab.io import write_npz_streamed

    arrays = {"a/b": np.arange(5, dtype=np.int16), "meta": np.frombuffer(b"{}", dtype=np.uint8), "x": np.eye(3)}
    write_npz_streamed(tmp_path / "s.npz", ((name, array) for name, array in arrays.items()))
    with np.load(tmp_path / "s.npz") as data:
        assert sorted(data.files) == sorted(arrays)
        for name, array in arrays.items():
            assert data[name].dtype == array.dtype and np.array_equal(data[name], array)

    def broken():
        yield "a", np.zeros(3)
        raise RuntimeError("killed mid-write")

    with pytest.raises(RuntimeError, match="killed mid-write"):
        write_npz_streamed(tmp_path / "t.npz", broken())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.npz"]


def test_array_records_read_back_into_given_arrays_and_refuse_a_mismatch_or_a_truncated_file(tmp_path):
    import numpy as np

    from pokerlab.io import read_arrays, write_arrays

    arrays = {"regrets0": np.arange(-6, 6, dtype=np.int16), "scales": np.linspace(0, 1, 4, dtype=np.float32),
              "iterations": np.array(7), "grid": np.arange(6.0).reshape(2, 3)}
    write_arrays(tmp_path / "s.state", arrays.items())
    back = read_arrays(tmp_path / "s.state")
    assert list(back) == list(arrays)
    for name, array in arrays.items():
        assert back[name].dtype == array.dtype and back[name].shape == array.shape
        np.testing.assert_array_equal(back[name], array)
    into = {"regrets0": np.zeros(12, np.int16)}
    read = read_arrays(tmp_path / "s.state", into=into)
    assert read["regrets0"] is into["regrets0"]
    np.testing.assert_array_equal(into["regrets0"], arrays["regrets0"])
    with pytest.raises(ValueError, match="s.state: regrets0 is int16 of shape .12,.; expected int32"):
        read_arrays(tmp_path / "s.state", into={"regrets0": np.zeros(12, np.int32)})
    write_arrays(tmp_path / "one.state", [("regrets0", arrays["regrets0"])])
    whole = (tmp_path / "one.state").read_bytes()
    (tmp_path / "cut.state").write_bytes(whole[:-5])  # ends inside regrets0's data
    with pytest.raises(ValueError, match="cut.state: regrets0: the file ends inside the array"):
        read_arrays(tmp_path / "cut.state", into={"regrets0": np.zeros(12, np.int16)})
    (tmp_path / "cut.state").write_bytes(whole[:-30])  # inside the header, read by NumPy
    with pytest.raises(ValueError, match="cut.state: "):
        read_arrays(tmp_path / "cut.state")
