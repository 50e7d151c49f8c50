"""The release manifest of a published chart set, and its audit.

``manifest.json`` (canonical JSON, in the results folder) lists every published file with its
path (relative to the manifest's folder, ``/``-separated), size in bytes and SHA-256; the
configuration the release depends on and its digest; for every chart, the digests of the inputs it came from;
and the versions of Python and the packages that computed it. ``SHA256SUMS`` beside it lists
the same files plus ``manifest.json`` itself in ``sha256sum -c`` format, so either tool can
check a copy of the release.

:func:`audit` recomputes everything: each listed file's size and digest, the digests in
``SHA256SUMS`` (so an edited manifest is caught too), and walks the published folders for
files that are not listed. Nothing in the manifest depends on time or host, so a rerun of the
same configuration gives the same bytes.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import platform
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, Iterable

from pokerlab.preflop.spot import spot_name
from pokerlab.io import read_json, read_text, sha256_file, temporaries, write_bytes_atomic, write_json_atomic

MANIFEST_FORMAT = "pokerlab-manifest/1"
MANIFEST_NAME = "manifest.json"
SUMS_NAME = "SHA256SUMS"
PACKAGES = ("pokerlab", "numpy", "numba", "scipy", "pandas", "pyarrow", "matplotlib", "jsonschema", "snakemake")


def package_versions(names: Iterable[str] = PACKAGES) -> dict[str, str]:
    """Python's and each installed package's version (``"not installed"`` when absent)."""
    versions = {"python": platform.python_version()}
    for name in names:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def config_sha256(config: dict[str, Any]) -> str:
    """SHA-256 of the configuration as canonical JSON (sorted keys, compact)."""
    return hashlib.sha256(json.dumps(config, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _relative(path: str | os.PathLike, root: Path) -> str:
    rel = Path(os.path.abspath(path)).relative_to(os.path.abspath(root))
    return rel.as_posix()


def build_manifest(root: str | os.PathLike, files: Iterable[str | os.PathLike], published_dirs: Iterable[str],
                   config: dict[str, Any], chart_inputs: dict[str, dict[str, str]] | None = None,
                   packages: dict[str, str] | None = None) -> dict[str, Any]:
    """The manifest of ``files`` (all inside ``root``). ``published_dirs``: folders under
    ``root`` that hold only published files (the audit reports anything else in them).
    ``chart_inputs``: chart path (relative to ``root``) -> its input digests."""
    root = Path(root)
    entries = []
    for f in files:
        rel = _relative(f, root)
        if rel in (MANIFEST_NAME, SUMS_NAME):
            raise ValueError(f"files: {rel} cannot list itself")
        entries.append({"path": rel, "bytes": os.path.getsize(f), "sha256": sha256_file(f)})
    entries.sort(key=lambda e: e["path"])
    paths = [e["path"] for e in entries]
    if len(set(paths)) != len(paths):
        raise ValueError("files: a path is listed twice")
    dirs = sorted(set(published_dirs))
    outside = [p for p in paths if "/" in p and p.split("/", 1)[0] not in dirs]
    if outside:
        raise ValueError(f"files: {outside[0]} is not in a published folder {dirs}")
    return {
        "format": MANIFEST_FORMAT,
        "published_dirs": dirs,
        "files": entries,
        "config": config,
        "config_sha256": config_sha256(config),
        "chart_inputs": dict(sorted((chart_inputs or {}).items())),
        "packages": packages if packages is not None else package_versions(),
    }


def write_release(root: str | os.PathLike, manifest: dict[str, Any]) -> None:
    """Write ``manifest.json`` and ``SHA256SUMS`` (the listed files plus the manifest) in ``root``."""
    root = Path(root)
    write_json_atomic(root / MANIFEST_NAME, manifest)
    lines = [(e["sha256"], e["path"]) for e in manifest["files"]]
    lines.append((sha256_file(root / MANIFEST_NAME), MANIFEST_NAME))
    write_bytes_atomic(root / SUMS_NAME, "".join(f"{d}  {p}\n" for d, p in sorted(lines, key=lambda x: x[1])).encode("ascii"))


@dataclass(frozen=True)
class Problem:
    """One thing the audit found: ``kind`` is ``mismatch``, ``missing`` or ``extra``."""

    kind: str
    path: str
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.kind.upper():8} {self.path}" + (f"  ({self.detail})" if self.detail else "")


def _inside(path: str) -> bool:
    """Whether a release-relative ``path`` stays inside the release: not empty, not absolute, no
    ``..`` part (a listed path is joined to the release folder, never resolved elsewhere)."""
    return bool(path) and not PurePosixPath(path).is_absolute() and ".." not in PurePosixPath(path).parts \
        and "\\" not in path


def _read_sums(path: Path) -> dict[str, str]:
    sums = {}
    for number, line in enumerate(read_text(path, SUMS_NAME).splitlines(), 1):
        digest, sep, name = line.partition("  ")
        if not sep or len(digest) != 64:
            raise ValueError(f"{path.name} line {number}: {line!r} is not '<sha256>  <path>'")
        if not _inside(name):
            raise ValueError(f"{path.name} line {number}: {name!r} is outside the release (absolute or with '..')")
        sums[name] = digest
    return sums


_MANIFEST_KEYS = {"format": str, "published_dirs": list, "files": list, "config": dict, "config_sha256": str}
_ENTRY_KEYS = {"path": str, "bytes": int, "sha256": str}


def _check_manifest_shape(manifest: Any, path: Path) -> None:
    """``ValueError`` naming the manifest file and the first key that is missing or of the wrong type."""
    if not isinstance(manifest, dict):
        raise ValueError(f"manifest {path}: expected a JSON object, got a JSON {type(manifest).__name__}")
    if manifest.get("format") != MANIFEST_FORMAT:
        raise ValueError(f"manifest {path}: format {manifest.get('format')!r} is not {MANIFEST_FORMAT!r}")
    for key, kind in _MANIFEST_KEYS.items():
        if key not in manifest:
            raise ValueError(f"manifest {path}: missing key {key!r}")
        if not isinstance(manifest[key], kind):
            raise ValueError(f"manifest {path}: {key!r} must be a JSON {kind.__name__}")
    for i, entry in enumerate(manifest["files"]):
        if not isinstance(entry, dict) or any(not isinstance(entry.get(k), t) for k, t in _ENTRY_KEYS.items()):
            raise ValueError(f"manifest {path}: files[{i}] must be an object with 'path' (text), 'bytes' (integer) "
                             f"and 'sha256' (text)")
        if not _inside(entry["path"]):
            raise ValueError(f"manifest {path}: files[{i}] path {entry['path']!r} is outside the release "
                             "(absolute or with '..')")
    if not all(isinstance(d, str) for d in manifest["published_dirs"]):
        raise ValueError(f"manifest {path}: 'published_dirs' must be a list of folder names")
    for i, folder in enumerate(manifest["published_dirs"]):
        if not _inside(folder):
            raise ValueError(f"manifest {path}: published_dirs[{i}] {folder!r} is outside the release "
                             "(absolute or with '..')")


def audit(manifest_path: str | os.PathLike = "results/manifest.json") -> tuple[list[Problem], int]:
    """Recompute every digest of a release; return (problems, number of files checked).

    Checked: every file the manifest lists (present, size, SHA-256); every line of
    ``SHA256SUMS`` (including the manifest's own digest) against the files and the manifest;
    and every file in the published folders that the manifest does not list (``extra``).
    """
    manifest_path = Path(manifest_path)
    manifest = read_json(manifest_path, "manifest")
    _check_manifest_shape(manifest, manifest_path)
    root = manifest_path.parent
    problems: list[Problem] = []
    if config_sha256(manifest["config"]) != manifest["config_sha256"]:
        problems.append(Problem("mismatch", MANIFEST_NAME, "config_sha256 is not the digest of its config"))
    listed = {}
    for entry in manifest["files"]:
        path = entry["path"]
        listed[path] = entry["sha256"]
        target = root / path
        if not target.is_file():
            problems.append(Problem("missing", path))
            continue
        size, digest = target.stat().st_size, sha256_file(target)
        if size != entry["bytes"] or digest != entry["sha256"]:
            problems.append(Problem("mismatch", path, f"{size} bytes sha256 {digest[:12]}..., manifest says "
                                                      f"{entry['bytes']} bytes {entry['sha256'][:12]}..."))
    sums_path = root / SUMS_NAME
    if not sums_path.is_file():
        problems.append(Problem("missing", SUMS_NAME))
    else:
        sums = _read_sums(sums_path)
        expected = {**listed, MANIFEST_NAME: sha256_file(manifest_path)}
        for name in sorted(set(sums) | set(expected)):
            if name not in sums:
                problems.append(Problem("missing", name, f"not in {SUMS_NAME}"))
            elif name not in expected:
                problems.append(Problem("extra", name, f"in {SUMS_NAME}, not in the manifest"))
            elif sums[name] != expected[name]:
                problems.append(Problem("mismatch", name, f"{SUMS_NAME} disagrees with "
                                        f"{'the file' if name == MANIFEST_NAME else 'the manifest'}"))
    for folder in manifest["published_dirs"]:
        for dirpath, dirnames, filenames in os.walk(root / folder):
            for name in [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
                # os.walk does not enter a symlinked folder: unless the manifest lists files through
                # it (checked above), the link itself is what is extra
                rel = _relative(Path(dirpath) / name, root)
                if not any(path.startswith(rel + "/") for path in listed):
                    problems.append(Problem("extra", rel, "a symlinked folder in a published folder"))
            for name in filenames:
                rel = _relative(Path(dirpath) / name, root)
                if rel not in listed:
                    problems.append(Problem("extra", rel, "in a published folder, not in the manifest"))
    problems.sort(key=lambda p: (p.path, p.kind))
    return problems, len(listed)


UNPUBLISHED_DIR = "unpublished"


def _move_aside(root: Path, manifest: dict[str, Any]) -> list[str]:
    """Move every file (or symlink) in the published folders that ``manifest`` does not list to
    ``root/unpublished/`` under the same relative path, remove the folders this empties, and say
    so on stderr; return the moved paths (relative to ``root``)."""
    listed = {entry["path"] for entry in manifest["files"]}
    moved = []
    for folder in manifest["published_dirs"]:
        top = root / folder
        for dirpath, dirnames, filenames in os.walk(top, topdown=False):
            links = [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]
            for name in sorted([*filenames, *links]):
                path = Path(dirpath) / name
                rel = _relative(path, root)
                if rel in listed or any(p.startswith(rel + "/") for p in listed):
                    continue
                target = root / UNPUBLISHED_DIR / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                if target.is_dir() and not target.is_symlink():
                    shutil.rmtree(target)
                os.replace(path, target)
                moved.append(rel)
                print(f"release: moved {rel} to {UNPUBLISHED_DIR}/{rel} (not in this release)", file=sys.stderr)
            if Path(dirpath) != top and not os.path.islink(dirpath) and not os.listdir(dirpath):
                os.rmdir(dirpath)
    return sorted(moved)


def prune_published(manifest_path: str | os.PathLike = "results/manifest.json") -> list[str]:
    """Keep the published folders equal to an existing release: move what ``manifest.json`` does not
    list (e.g. a chart made by a one-spot run after the release) to ``unpublished/``. The manifest and
    ``SHA256SUMS`` are not touched. Returns the moved paths."""
    manifest_path = Path(manifest_path)
    manifest = read_json(manifest_path, "manifest")
    _check_manifest_shape(manifest, manifest_path)
    return _move_aside(manifest_path.parent, manifest)


def listed_files(listing_paths: Iterable[str | os.PathLike], root: str | os.PathLike) -> list[str]:
    """The files named by listings (``{"files": [path relative to root, ...]}``, as
    :func:`pokerlab.publish.write_published_spots` writes them), as paths under ``root``."""
    return [str(Path(root) / rel) for listing in listing_paths for rel in read_json(listing, "listing")["files"]]


def publish_release(root: str | os.PathLike, files: Iterable[str | os.PathLike], published_dirs: Iterable[str],
                    config: dict[str, Any], charts_dir: str = "charts") -> dict[str, Any]:
    """Build and write the manifest of ``files``; the input digests of every chart (the
    ``inputs`` of each chart file under ``root/charts_dir``) are copied into it."""
    from pokerlab.charts import CHART_SUFFIX, load_chart

    root = Path(root)
    files = list(files)
    chart_inputs = {}
    for f in files:
        rel = _relative(f, root)
        if rel.startswith(charts_dir + "/") and rel.endswith(CHART_SUFFIX):
            chart = load_chart(f)
            spot = chart.get("spot", {})
            if "depth_bb" in spot:  # a chart must sit at its own spot's name, or the release mixes spots
                expected = f"{charts_dir}/{spot_name(spot['format'], spot['seats'], spot['depth_bb'])}{CHART_SUFFIX}"
                if rel != expected:
                    raise ValueError(f"chart {rel}: holds the spot {expected}, not the one its path names")
            chart_inputs[rel] = chart["inputs"]
    manifest = build_manifest(root, files, published_dirs, config, chart_inputs)
    for folder in manifest["published_dirs"]:  # every writer of a published file has finished by now
        for dirpath, _, _ in os.walk(root / folder):
            for tmp in temporaries(dirpath):
                tmp.unlink()
    _move_aside(root, manifest)
    write_release(root, manifest)
    return manifest
