"""Small, safe file helpers: atomic writes and SHA-256 digests.

Every artifact pokerlab publishes is written to a temporary name in the destination folder and
renamed into place, so an interrupted run never leaves a file that looks finished.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import tempfile
import time
from pathlib import Path
from typing import Any, Iterable, Iterator

_UMASK = os.umask(0)
os.umask(_UMASK)


_STARTED = time.time()
# The temporaries atomic_path makes: mkstemp's '.{name}.' + 8 characters of [a-z0-9_] + '.tmp'
_TEMPORARY = re.compile(r"\.(?P<name>.+)\.[a-z0-9_]{8}\.tmp")


def temporaries(folder: str | os.PathLike, name: str | None = None) -> list[Path]:
    """The temporaries of :func:`atomic_path`'s naming in ``folder`` (only those for the target
    ``name`` if given), sorted."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    found = []
    for entry in folder.iterdir():
        match = _TEMPORARY.fullmatch(entry.name)
        if match and (name is None or match["name"] == name) and not entry.is_dir():
            found.append(entry)
    return sorted(found)


def remove_stale_temporaries(path: str | os.PathLike) -> list[Path]:
    """Remove the temporaries left beside ``path`` by a writer killed before its rename: those of
    this target last modified before this process started (a writer that is still running has
    touched its file since). Returns what was removed."""
    dest = Path(path)
    removed = []
    for tmp in temporaries(dest.parent, dest.name):
        with contextlib.suppress(OSError):
            if tmp.lstat().st_mtime < _STARTED:
                tmp.unlink()
                removed.append(tmp)
    return removed


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; rename it onto ``path`` only if the block succeeds.
    Stale temporaries of the same target (a writer killed mid-write) are removed first."""
    dest = Path(path)
    dest.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(dest)
    fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".tmp", dir=dest.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.chmod(tmp_path, 0o666 & ~_UMASK)  # mkstemp creates 0600; published files follow the umask
        os.replace(tmp_path, dest)
    finally:
        if tmp_path.exists():
            tmp_path.unlink()


def write_bytes_atomic(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically."""
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def write_frame(frame: Any, path: str | os.PathLike, kind: str | None = None) -> None:
    """Write a pandas DataFrame to ``path`` atomically, without its index: ``kind`` ``"csv"`` or
    ``"parquet"`` (None: Parquet for a ``.parquet`` suffix, CSV otherwise)."""
    kind = kind or ("parquet" if Path(path).suffix == ".parquet" else "csv")
    if kind not in ("csv", "parquet"):
        raise ValueError(f"table kind {kind!r}: expected 'csv' or 'parquet'")
    with atomic_path(path) as tmp:
        if kind == "parquet":
            frame.to_parquet(tmp, index=False)
        else:
            frame.to_csv(tmp, index=False)


def dumps_json(obj: Any) -> str:
    """Canonical JSON text: sorted keys, two-space indent, trailing newline (byte-reproducible)."""
    return json.dumps(obj, sort_keys=True, indent=2, ensure_ascii=True, allow_nan=False) + "\n"


def compact_json_bytes(obj: Any) -> bytes:
    """Canonical compact JSON bytes: sorted keys, no spaces, ASCII, a trailing newline (for
    documents with ~10^5-10^6 numbers, where indentation would double the size)."""
    return (json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False) + "\n").encode("ascii")


def write_json_atomic(path: str | os.PathLike, obj: Any) -> None:
    """Write ``obj`` as canonical JSON to ``path`` atomically."""
    write_bytes_atomic(path, dumps_json(obj).encode("ascii"))


def sha256_bytes(data: bytes) -> str:
    """Hex SHA-256 digest of ``data``."""
    return hashlib.sha256(data).hexdigest()


def gzip_bytes(data: bytes) -> bytes:
    """``data`` gzip-compressed with no file name and modification time 0 in the header, so the
    same data gives the same bytes (``gzip -dc`` and any browser's DecompressionStream read it).
    Level 6: on the largest chart (9-max 200bb) 1.6% larger than level 9 in a quarter of the time."""
    import gzip
    import io

    buffer = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, compresslevel=6, mtime=0) as archive:
        archive.write(data)
    return buffer.getvalue()


NPZ_MEMBER_DATE = (1980, 1, 1, 0, 0, 0)
"""The date every member of a :func:`deterministic_npz_bytes` archive carries (the zip format's earliest)."""


def deterministic_npz_bytes(arrays: dict[str, Any], compresslevel: int | None = None) -> bytes:
    """An ``.npz`` archive (readable by ``numpy.load``) of ``arrays``, deflate-compressed (zlib's
    ``compresslevel``, default 6), whose bytes depend only on the arrays: members in name order,
    each dated :data:`NPZ_MEMBER_DATE` with fixed permissions. (``numpy.savez_compressed`` stamps
    every member with the time of writing, so its bytes differ run to run.)"""
    import io
    import zipfile

    import numpy as np

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in sorted(arrays):
            member = io.BytesIO()
            np.lib.format.write_array(member, np.asarray(arrays[name], order="C"), allow_pickle=False)  # keeps 0-d arrays 0-d
            info = zipfile.ZipInfo(f"{name}.npy", date_time=NPZ_MEMBER_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, member.getvalue(), compresslevel=compresslevel)
    return buffer.getvalue()


def write_npz_streamed(path: str | os.PathLike, arrays: Iterable[tuple[str, Any]]) -> None:
    """Write ``(name, array)`` pairs as a NumPy ``.npz`` (uncompressed, zip64), atomically, each array
    as it comes: a generator that makes its arrays one at a time keeps one of them in memory, where
    ``np.savez`` needs them all at once. ``np.load`` reads the file."""
    import zipfile

    import numpy as np

    with atomic_path(path) as tmp, zipfile.ZipFile(tmp, "w", zipfile.ZIP_STORED, allowZip64=True) as out:
        for name, array in arrays:
            with out.open(f"{name}.npy", "w", force_zip64=True) as member:
                np.lib.format.write_array(member, np.asanyarray(array), allow_pickle=False)


def write_arrays(path: str | os.PathLike, arrays: Iterable[tuple[str, Any]]) -> None:
    """Write ``(name, array)`` pairs as one file of NumPy ``.npy`` records, atomically: each array after
    a record of its name (UTF-8 bytes as uint8), written straight from its memory, with no zip
    container and no checksum. The format of large temporary states written once and read once
    (:func:`read_arrays`); files that are kept stay ``.npz``."""
    import numpy as np

    with atomic_path(path) as tmp, open(tmp, "wb") as fh:
        for name, array in arrays:
            np.lib.format.write_array(fh, np.frombuffer(name.encode(), np.uint8), allow_pickle=False)
            np.lib.format.write_array(fh, np.asarray(array), allow_pickle=False)


def read_arrays(path: str | os.PathLike, into: dict[str, Any] | None = None) -> dict[str, Any]:
    """The arrays of :func:`write_arrays`'s file by name. An array named in ``into`` is read straight
    into that C-contiguous array (no second copy in memory), which must have the stored dtype and
    shape, and is returned itself. Raises ValueError naming the file (and the array) on a mismatch or
    a truncated file."""
    import numpy as np

    headers = {(1, 0): np.lib.format.read_array_header_1_0, (2, 0): np.lib.format.read_array_header_2_0}
    into = into or {}
    out: dict[str, Any] = {}
    size = os.path.getsize(path)
    with open(path, "rb") as fh:
        try:
            while fh.tell() < size:
                name = bytes(np.lib.format.read_array(fh, allow_pickle=False)).decode()
                dest = into.get(name)
                if dest is None:
                    out[name] = np.lib.format.read_array(fh, allow_pickle=False)
                    continue
                version = np.lib.format.read_magic(fh)
                if version not in headers:
                    raise ValueError(f"{name}: .npy format version {version} is not read here")
                shape, fortran, dtype = headers[version](fh)
                if fortran or tuple(shape) != dest.shape or dtype != dest.dtype or not dest.flags.c_contiguous:
                    raise ValueError(f"{name} is {dtype} of shape {tuple(shape)}; expected {dest.dtype} of shape "
                                     f"{dest.shape}")
                if fh.readinto(memoryview(dest).cast("B")) != dest.nbytes:
                    raise ValueError(f"{name}: the file ends inside the array")
                out[name] = dest
        except (ValueError, EOFError) as err:
            raise ValueError(f"{path}: {err}") from err
    return out


def sha256_file(path: str | os.PathLike, chunk_bytes: int = 1 << 20) -> str:
    """Hex SHA-256 digest of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(chunk_bytes), b""):
            digest.update(block)
    return digest.hexdigest()


def write_sha256sums(path: str | os.PathLike, files: list[str | os.PathLike], root: str | os.PathLike) -> None:
    """Write a ``sha256sum -c`` compatible list of ``files`` (paths relative to ``root``), sorted."""
    root = Path(root)
    lines = sorted(f"{sha256_file(f)}  {Path(f).resolve().relative_to(root.resolve()).as_posix()}\n" for f in files)
    write_bytes_atomic(path, "".join(lines).encode("ascii"))


def not_a_file(path: str | os.PathLike) -> str:
    """Why ``path``, which is not a regular file, cannot be read as one: ``is a folder, not a
    file``, ``is a device or a pipe, not a file`` (never opened: a pipe would block) or ``does
    not exist``."""
    path = Path(path)
    if path.is_dir():
        return "is a folder, not a file"
    return "is a device or a pipe, not a file" if path.exists() else "does not exist"


def read_text(path: str | os.PathLike, what: str) -> str:
    """A text file's content; ``ValueError`` naming ``what`` and the file if it is missing, a
    folder, unreadable or not UTF-8 text."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"{what} {path}: {not_a_file(path)}")
    try:
        return path.read_text()
    except UnicodeDecodeError:
        raise ValueError(f"{what} {path}: not a text file") from None
    except OSError as exc:
        raise ValueError(f"{what} {path}: cannot be read ({exc.strerror})") from None


def check_writable(path: str | os.PathLike, what: str) -> None:
    """Fail early (``ValueError`` naming ``what`` and the path) if ``path`` cannot be written:
    its folder cannot be created or a file cannot be created in it. Nothing is left behind."""
    dest = Path(path)
    if dest.is_dir():
        raise ValueError(f"{what} {dest}: cannot be written (it is a folder)")
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".tmp", dir=dest.parent)
        os.close(fd)
        os.unlink(tmp)
    except OSError as exc:
        raise ValueError(f"{what} {dest}: cannot be written ({exc.strerror or exc})") from None


def read_json(path: str | os.PathLike, what: str) -> Any:
    """Parse a JSON file; ``ValueError`` naming ``what`` and the file if it is missing or not JSON."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"{what}: {path} {not_a_file(path)}")
    try:
        return json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{what}: {path} is not JSON ({exc})") from None
    except RecursionError:
        raise ValueError(f"{what}: {path} is nested deeper than Python's JSON reader goes") from None
    except OSError as exc:
        raise ValueError(f"{what}: {path} cannot be read ({exc.strerror or exc})") from None


def read_merged_yaml(paths: list[str | os.PathLike], what: str) -> dict[str, Any]:
    """The mappings of ``paths`` merged in turn, as ``snakemake --configfile`` merges config files:
    mappings key by key, anything else replaced by the later file. ``ValueError`` naming ``what`` and the
    file if one is unreadable or not a mapping."""

    def merge(into: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
        out = dict(into)
        for key, value in over.items():
            out[key] = merge(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
        return out

    merged: dict[str, Any] = {}
    for path in paths:
        loaded = read_yaml(path, what)
        if not isinstance(loaded, dict):
            raise ValueError(f"{what} {Path(path).as_posix()}: expected a mapping")
        merged = merge(merged, loaded)
    return merged


def read_yaml(path: str | os.PathLike, what: str) -> Any:
    """Parse a YAML file; ``ValueError`` naming ``what`` and the file if it is unreadable or not YAML."""
    import yaml

    path = Path(path)
    try:
        return yaml.safe_load(path.read_text())
    except yaml.YAMLError as exc:
        raise ValueError(f"{what} {path.name}: not valid YAML ({exc})") from None
    except OSError as exc:
        raise ValueError(f"{what} {path}: cannot be read ({exc.strerror})") from None
