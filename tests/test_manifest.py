"""Release manifest and audit: sha256sum-compatible sums; a flipped byte, a deleted chart and an
extra file are each reported by name and make the audit fail."""

import hashlib
import json
import shutil
import subprocess
import sys

import pytest

from pokerlab.cli import main
from pokerlab.manifest import audit, build_manifest, write_release

PACKAGES = {"python": "3", "pokerlab": "0"}


@pytest.fixture
def release(tmp_path):
    root = tmp_path / "results"
    files = {
        "charts/cash/2max/10bb.json": b'{"a":1}\n',
        "charts/cash/6max/100bb.json": b'{"b":2}\n',
        "summary.csv": b"format,seats\ncash,2\n",
    }
    for rel, data in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    (root / "solves").mkdir()
    (root / "solves" / "unpublished.json").write_text("{}")  # outside the published folders
    manifest = build_manifest(root, [root / rel for rel in files], ["charts"], {"x": 1},
                              {"charts/cash/2max/10bb.json": {"result_sha256": "0" * 64}}, packages=PACKAGES)
    write_release(root, manifest)
    return root, files


def test_manifest_lists_paths_sizes_and_independent_digests(release):
    root, files = release
    manifest = json.loads((root / "manifest.json").read_text())
    assert [e["path"] for e in manifest["files"]] == sorted(files)
    for entry in manifest["files"]:
        data = files[entry["path"]]
        assert entry["bytes"] == len(data) and entry["sha256"] == hashlib.sha256(data).hexdigest()
    assert manifest["config"] == {"x": 1} and manifest["config_sha256"] == hashlib.sha256(b'{"x":1}').hexdigest()


def test_sha256sums_passes_sha256sum_check(release):
    root, files = release
    if shutil.which("sha256sum") is None:
        pytest.skip("sha256sum not installed")
    out = subprocess.run(["sha256sum", "-c", "SHA256SUMS"], cwd=root, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.count(": OK") == len(files) + 1  # the files and manifest.json


def test_clean_release_audits_ok(release, capsys):
    root, files = release
    problems, checked = audit(root / "manifest.json")
    assert problems == [] and checked == len(files)
    assert main(["audit", str(root / "manifest.json")]) == 0
    assert "audit OK" in capsys.readouterr().out


def test_flipped_byte_is_a_mismatch(release, capsys):
    root, _ = release
    chart = root / "charts/cash/6max/100bb.json"
    data = bytearray(chart.read_bytes())
    data[2] ^= 0x01
    chart.write_bytes(bytes(data))
    problems, _ = audit(root / "manifest.json")
    assert [(p.kind, p.path) for p in problems] == [("mismatch", "charts/cash/6max/100bb.json")]
    assert main(["audit", str(root / "manifest.json")]) == 1
    assert "MISMATCH charts/cash/6max/100bb.json" in capsys.readouterr().out


def test_deleted_chart_is_missing(release):
    root, _ = release
    (root / "charts/cash/2max/10bb.json").unlink()
    problems, _ = audit(root / "manifest.json")
    assert [(p.kind, p.path) for p in problems] == [("missing", "charts/cash/2max/10bb.json")]


def test_extra_file_in_a_published_folder_is_reported(release, capsys):
    root, _ = release
    (root / "charts/mtt/9max").mkdir(parents=True)
    (root / "charts/mtt/9max/20bb.json").write_text("{}")
    problems, _ = audit(root / "manifest.json")
    assert [(p.kind, p.path) for p in problems] == [("extra", "charts/mtt/9max/20bb.json")]
    assert main(["audit", str(root / "manifest.json")]) == 1
    assert "EXTRA    charts/mtt/9max/20bb.json" in capsys.readouterr().out


def test_edited_manifest_is_caught_by_sha256sums(release):
    root, _ = release
    manifest = json.loads((root / "manifest.json").read_text())
    manifest["config"] = {"x": 2}
    (root / "manifest.json").write_text(json.dumps(manifest))
    problems, _ = audit(root / "manifest.json")
    assert [(p.kind, p.path) for p in problems] == [("mismatch", "manifest.json")] * 2  # digest and SHA256SUMS
    assert "config_sha256" in problems[0].detail + problems[1].detail


def test_missing_manifest_is_a_clear_error(tmp_path, capsys):
    assert main(["audit", str(tmp_path / "nope.json")]) == 2
    assert "nope.json does not exist" in capsys.readouterr().err


def test_cli_entry_point_exits_non_zero(release):
    root, _ = release
    (root / "summary.csv").unlink()
    out = subprocess.run([sys.executable, "-m", "pokerlab.cli", "audit", str(root / "manifest.json")],
                         capture_output=True, text=True)
    assert out.returncode == 1 and "MISSING  summary.csv" in out.stdout


def test_a_file_outside_the_published_folders_is_refused(tmp_path):
    (tmp_path / "solves").mkdir()
    (tmp_path / "solves" / "r.json").write_text("{}")
    with pytest.raises(ValueError, match="solves/r.json"):
        build_manifest(tmp_path, [tmp_path / "solves" / "r.json"], ["charts"], {}, packages=PACKAGES)


def test_an_extra_symlinked_folder_is_reported(release, tmp_path, capsys):
    """Reliability #13: os.walk does not enter a symlinked folder, so its files were never seen."""
    root, _ = release
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "old.json").write_text("{}")
    (root / "charts" / "cash" / "linked").symlink_to(outside, target_is_directory=True)
    (root / "charts" / "empty_link").symlink_to(tmp_path / "missing_target")
    problems, _ = audit(root / "manifest.json")
    assert [(p.kind, p.path) for p in problems] == [("extra", "charts/cash/linked"), ("extra", "charts/empty_link")]
    assert main(["audit", str(root / "manifest.json")]) == 1
    assert "EXTRA    charts/cash/linked" in capsys.readouterr().out


def test_a_release_moves_aside_what_it_does_not_list(tmp_path, capsys):
    """Reliability #4: charts of a larger sheet or of a one-spot run stayed in the published folders,
    and the audit failed a correct release; the release now moves them to unpublished/ and says so."""
    from pokerlab.manifest import prune_published, publish_release

    root = tmp_path / "results"
    keep = root / "charts" / "cash" / "2max" / "10bb.json"
    stale = [root / "charts" / "cash" / "6max" / "100bb.json", root / "viewer" / "cash" / "6max" / "100bb.html"]
    for path in [keep, *stale]:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text('{"inputs": {}}' if path.suffix == ".json" else "<html>")
    (root / "solves").mkdir()
    (root / "solves" / "result.json").write_text("{}")  # not a published folder: untouched
    publish_release(root, [keep], ["charts", "viewer"], {})
    for path in stale:
        moved = root / "unpublished" / path.relative_to(root)
        assert not path.exists() and moved.read_text() == ('{"inputs": {}}' if path.suffix == ".json" else "<html>")
    assert not (root / "charts" / "cash" / "6max").exists()  # emptied folders go too
    assert (root / "solves" / "result.json").exists() and keep.exists()
    err = capsys.readouterr().err
    assert "moved charts/cash/6max/100bb.json to unpublished/charts/cash/6max/100bb.json" in err
    assert audit(root / "manifest.json")[0] == []
    # a one-spot run after the release: `release` prunes again from the manifest, without rewriting it
    adhoc = root / "charts" / "mtt" / "2max" / "20bb.json"
    adhoc.parent.mkdir(parents=True)
    adhoc.write_text("{}")
    assert [p.path for p in audit(root / "manifest.json")[0]] == ["charts/mtt/2max/20bb.json"]
    before = (root / "manifest.json").read_bytes()
    assert prune_published(root / "manifest.json") == ["charts/mtt/2max/20bb.json"]
    assert audit(root / "manifest.json")[0] == [] and (root / "manifest.json").read_bytes() == before
