"""The workflow's configuration is checked before any job runs: every value that passes the schema
but would fail (or silently change) later is refused with its key named."""

from __future__ import annotations

import copy
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from pokerlab.preflop.spot import Spot, depth_label, spot_name
from pokerlab.sweep import load_spots
from pokerlab.workflow_config import check_config

ROOT = Path(__file__).resolve().parents[1]
CONFIG = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())


@pytest.fixture(autouse=True)
def _in_the_checkout(monkeypatch):
    """The config's paths are relative to the workflow's directory, here the checkout."""
    monkeypatch.chdir(ROOT)


@pytest.mark.parametrize("depth, label", [(10, "10"), (12.5, "12.5"), (100.0, "100"), (0.001 + 2, "2.001"),
                                          (123456, "123456"), (2.00001, "2.00001")])
def test_depth_labels_that_round_trip(depth, label):
    assert depth_label(depth) == label and float(label) == depth


@pytest.mark.parametrize("depth", [12.345678, 100.0001, 1000000, 1e-7 + 5, 2.000001])
def test_depths_whose_name_would_change_them_are_refused(tmp_path, depth):
    """Reliability #1: '{depth:g}' named 12.345678 '12.3457bb', 100.0001 '100bb' (reusing the 100bb
    result) and 1000000 '1e+06bb' (no wildcard matches it)."""
    with pytest.raises(ValueError, match=r"depth: .* would be named"):
        depth_label(depth)
    with pytest.raises(ValueError, match="would be named"):
        Spot("cash", 2, depth)
    with pytest.raises(ValueError, match="would be named"):
        spot_name("cash", 2, depth)
    sheet = tmp_path / "spots.tsv"
    sheet.write_text(f"format\tseats\tdepth\ncash\t2\t10\ncash\t3\t{depth!r}\n")
    with pytest.raises(ValueError, match=re.escape(f"spots sheet spots.tsv line 3: depth {repr(repr(depth))}")):
        load_spots(sheet)


def _config(**changes):
    config = copy.deepcopy(CONFIG)
    for dotted, value in changes.items():
        *path, key = dotted.split(".")
        node = config
        for part in path:
            node = node[int(part)] if part.isdigit() else node[part]
        node[int(key) if key.isdigit() else key] = value
    return config


PRESETS = sorted(p.name for p in (ROOT / "config" / "presets").glob("*.yaml"))


def _preset(name: str | None) -> dict:
    """The default config with the preset ``name`` merged over it by Snakemake's own merge (nested
    sections key by key, as ``--configfile`` does); None: the default alone."""
    from snakemake.utils import update_config

    config = copy.deepcopy(CONFIG)
    if name is not None:
        update_config(config, yaml.safe_load((ROOT / "config" / "presets" / name).read_text()))
    return config


def test_the_presets_are_the_ones_config_readme_describes():
    import re

    described = set(re.findall(r"^\| `presets/([a-z0-9-]+\.yaml)` \| preset \|", (ROOT / "config" / "README.md").read_text(),
                               flags=re.M))
    assert {"quick.yaml", "ci-slurm.yaml", "fit-shipped.yaml", "postflop-model-v2.yaml"} <= set(PRESETS)
    assert described == set(PRESETS)


@pytest.mark.parametrize("name", [None, *PRESETS])
def test_every_preset_merged_over_the_default_passes_the_schema_and_the_checks(name):
    """What the workflow does on load (Snakefile, common.smk): the merged config validated against
    config/schema.yaml by Snakemake, then every file it names read by pokerlab.workflow_config."""
    from snakemake.utils import validate

    config = _preset(name)
    validate(config, str(ROOT / "config" / "schema.yaml"))
    assert _schema_problem(config) is None  # within every bound, no unknown key
    check_config(config)
    load_spots(config["sweep"]["spots"])


def test_the_solved_presets_measure_what_they_name():
    """A preset's solved keys merge over the default's, so each solved preset names its estimator and
    average: the per-class heads-up preset measures the per-class table (the settings digest in that
    table's provenance, measured before either key existed), the pooled heads-up preset the shipped
    table (the default's digest), and the rounds presets average the whole run, which the rounds can do."""
    from pokerlab.solved.settings import SolvedSettings, settings_sha256

    assert settings_sha256(_preset("solved-exchange-hu100.yaml")["solved"]) == \
        "6aac5d851feea7bb634bcc8681e3dc63734cde47295a966fe8fc08b5f42690ab"
    assert settings_sha256(_preset("solved-exchange-hu100-pooled.yaml")["solved"]) == \
        settings_sha256(CONFIG["solved"])
    for name in ("solved-rounds-hu100.yaml", "solved-rounds-6max100.yaml", "solved-exchange-6max100.yaml"):
        settings = SolvedSettings.from_config(_preset(name)["solved"])
        assert (settings.estimator, settings.exchange_average) == ("per_class", "whole_run"), name
    for name in ("solved-exchange-hu100-pooled.yaml", "solved-exchange-6max100-pooled.yaml"):
        settings = SolvedSettings.from_config(_preset(name)["solved"])
        assert (settings.estimator, settings.exchange_average, settings.exchange_iterations) == \
            ("pooled", "second_half", 800), name


def test_a_nested_preset_keeps_the_default_keys_it_does_not_name():
    """postflop-model-v2.yaml names only solve.postflop.model, solved_tables and class_table: the merge
    keeps the default's constants file (a one-level merge would drop it and fail the schema)."""
    postflop = _preset("postflop-model-v2.yaml")["solve"]["postflop"]
    assert postflop == {**CONFIG["solve"]["postflop"], "model": "v2", "solved_tables": None,
                        "class_table": "src/pokerlab/data/postflop-class-table.tsv"}


@pytest.mark.parametrize("changes, key", [
    ({"solve.spots.0.depth": 12.345678}, "solve.spots[0].depth"),
    ({"solve.spots.1.depth": 1000000}, "solve.spots[1].depth"),
    ({"pushfold.headsup.depths": [5, 100.0001]}, "pushfold.headsup.depths[1]"),
    ({"pushfold.fourmax.depths": [8, 1e7]}, "pushfold.fourmax.depths[1]"),
])
def test_config_depths_must_name_themselves(changes, key):
    with pytest.raises(ValueError, match=re.escape(key)):
        check_config(_config(**changes))


@pytest.mark.snakemake
def test_a_workflow_with_such_a_depth_stops_before_any_job(tmp_path):
    for name in ("Snakefile", "workflow", "config", "src"):
        (tmp_path / name).symlink_to(ROOT / name)
    (tmp_path / "s.tsv").write_text("format\tseats\tdepth\ncash\t2\t1000000\n")
    (tmp_path / "c.yaml").write_text(yaml.safe_dump({"sweep": {"spots": "s.tsv"}, "solve": {"spots": []}}))
    snakemake = [sys.executable, "-m", "snakemake"]
    out = subprocess.run(snakemake + ["-n", "release", "--configfile", "c.yaml"], capture_output=True, text=True,
                         cwd=tmp_path, timeout=300)
    assert out.returncode != 0
    assert "spots sheet s.tsv line 2: depth '1000000'" in out.stderr + out.stdout


def test_a_chart_at_another_spots_name_is_not_published(tmp_path):
    """Reliability #1: a manifest never lists a chart under a name that is not its spot's."""
    import json

    from pokerlab.manifest import publish_release

    from pokerlab.io import gzip_bytes

    def chart_bytes(depth):
        return gzip_bytes(json.dumps({"format": "pokerlab-chart/1", "spot": {"format": "cash", "seats": 2, "depth_bb": depth},
                                      "inputs": {}}).encode())

    chart = tmp_path / "charts" / "cash" / "2max" / "100bb.json.gz"
    chart.parent.mkdir(parents=True)
    chart.write_bytes(chart_bytes(100.5))
    with pytest.raises(ValueError, match=re.escape("chart charts/cash/2max/100bb.json.gz: holds the spot charts/cash/2max/100.5bb.json.gz")):
        publish_release(tmp_path, [chart], ["charts"], {})
    assert not (tmp_path / "manifest.json").exists()
    chart.write_bytes(chart_bytes(100.0))
    publish_release(tmp_path, [chart], ["charts"], {})
    assert (tmp_path / "manifest.json").exists()


@pytest.mark.parametrize("changes, message", [
    ({"solve.checkpoints": [1200, 400, 3000]}, "config solve.checkpoints: [1200, 400, 3000] must be strictly increasing"),
    ({"solve.bar_coefficient": float("inf")}, "config solve.bar_coefficient: inf is not a finite number"),
    ({"solve.bar_coefficient": float("nan")}, "config solve.bar_coefficient: nan is not a finite number"),
    ({"solve.postflop.a": float("inf")}, "config solve.postflop.a: inf is not a finite number"),
    ({"solve.postflop.b": float("-inf")}, "config solve.postflop.b: -inf is not a finite number"),
    ({"solve.postflop.c2": float("nan")}, "config solve.postflop.c2: nan is not a finite number"),
    ({"equity.crosscheck.max_gap_pp": float("inf")}, "config equity.crosscheck.max_gap_pp: inf is not a finite number"),
    ({"equity.crosscheck.pairs.1": ["AA", "AAs"]}, "config equity.crosscheck.pairs[1][1]: bad class 'AAs'"),
    ({"equity.crosscheck.pairs.0": ["27s", "AA"]}, "config equity.crosscheck.pairs[0][0]: '27s' is not a class name; did you mean '72s'"),
    ({"pushfold.headsup.fees": "stars"}, "config pushfold.headsup.fees: preset 'stars' is not defined under pushfold.fees"),
    ({"pushfold.fourmax.fees": "nothing"}, "config pushfold.fourmax.fees: preset 'nothing' is not defined"),
    ({"pushfold.headsup_combos.fees": "stars"}, "config pushfold.headsup_combos.fees: preset 'stars' is not defined"),
    ({"pushfold.fees.none.rakeback_bb": 5.0}, "config pushfold.fees.none"),
    ({"kuhn.checkpoints": [1, 10, 200]}, "config kuhn.checkpoints: 200 is above kuhn.iterations (100)"),
    ({"kuhn.checkpoints": [10, 1]}, "config kuhn.checkpoints: [10, 1] must be strictly increasing"),
])
def test_schema_valid_values_that_would_fail_later_are_refused_with_their_key(changes, message):
    """Reliability #6: out-of-order checkpoints, non-finite constants, a class like 'AAs', an undefined
    fee preset, and Kuhn checkpoints beyond the iterations (silently dropped before)."""
    config = _config(**changes)
    if "kuhn.checkpoints" in changes and "200" in message:
        config["kuhn"]["iterations"] = 100
    with pytest.raises(ValueError, match=re.escape(message)):
        check_config(config)


@pytest.mark.snakemake
def test_a_workflow_with_such_a_value_stops_before_any_job(tmp_path):
    """Reliability #6, through the workflow: the dry run names the key."""
    for name in ("Snakefile", "workflow", "config", "src"):
        (tmp_path / name).symlink_to(ROOT / name)
    (tmp_path / "c.yaml").write_text(yaml.safe_dump({"solve": {"checkpoints": [1200, 400]}}))
    out = subprocess.run([sys.executable, "-m", "snakemake", "-n", "release", "--configfile", "c.yaml"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert out.returncode != 0
    assert "config solve.checkpoints: [1200, 400] must be strictly increasing" in out.stderr + out.stdout


@pytest.mark.snakemake
def test_the_rounds_refuse_an_average_they_cannot_take_before_any_job():
    """The rounds measure the chart as they go, on the whole run's average: the default's second_half
    average stops their dry run with the key and the way out; the rounds preset names whole_run."""
    def dry_run(*args):
        return subprocess.run([sys.executable, "-m", "snakemake", "-n", "solved_rounds", *args],
                              capture_output=True, text=True, cwd=ROOT, timeout=300)

    assert CONFIG["solved"]["exchange"]["average"] == "second_half"
    out = dry_run()
    assert out.returncode != 0
    assert "solved.exchange.average: second_half needs the exchange in one process" in out.stderr + out.stdout
    out = dry_run("--configfile", "config/presets/solved-rounds-hu100.yaml")
    assert out.returncode == 0, out.stderr[-2000:]


@pytest.mark.snakemake
def test_each_solved_spot_gets_the_jobs_its_entry_sizes(tmp_path):
    """An entry of solved.spots that sets its own endings and flops gets that many postflop and held-out
    jobs; the other spot keeps the section's."""
    for name in ("Snakefile", "workflow", "config", "src"):
        (tmp_path / name).symlink_to(ROOT / name)
    six = {"format": "cash", "seats": 6, "depth": 100, "endings": {"max_per_spot": 2, "min_reach": 0.01},
           "boards": 1, "heldout_boards": 1, "validation_boards": 2}
    (tmp_path / "c.yaml").write_text(yaml.safe_dump({"solved": {
        "spots": [{"format": "cash", "seats": 2, "depth": 100}, six], "outer_iterations": 1}}))
    out = subprocess.run([sys.executable, "-m", "snakemake", "-n", "--forceall", "solved_tables",
                          "solved_exchange_validation", "--configfile", "c.yaml"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    counts = dict(re.findall(r"^(\w+)\s+(\d+)$", out.stdout, re.M))
    solved = CONFIG["solved"]
    endings, boards = solved["endings"]["max_per_spot"], solved["boards"] + solved["heldout_boards"]
    validation = solved["validation_boards"] or solved["heldout_boards"]
    assert counts["solved_postflop"] == str(endings * boards + 2 * (1 + 1))
    assert counts["solved_exchange_heldout"] == str(endings * validation + 2 * 2)
    assert counts["solved_exchange_solve"] == "2"


@pytest.mark.snakemake
def test_the_release_depends_on_the_verified_equity_table():
    """Reliability #3: `snakemake -n release` of the quick config listed no equity check at all."""
    out = subprocess.run([sys.executable, "-m", "snakemake", "-n", "--forceall", "release", "--configfile",
                          "config/presets/quick.yaml"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    counts = dict(re.findall(r"^(\w+)\s+(\d+)$", out.stdout, re.M))
    assert counts.get("equity_verify") == "1" and counts.get("manifest") == "1"


@pytest.mark.snakemake
def test_a_corrupt_equity_table_stops_the_workflow_before_any_result_is_deleted(tmp_path):
    """Reliability #11: with a corrupt table newer than the results, every solve job was re-run, so
    Snakemake deleted every result.json before the jobs failed; the message did not say how to rebuild."""
    import os
    import time

    for name in ("Snakefile", "workflow", "config", "src"):
        (tmp_path / name).symlink_to(ROOT / name)
    (tmp_path / "s.tsv").write_text("format\tseats\tdepth\ncash\t2\t5\n")
    (tmp_path / "c.yaml").write_text(yaml.safe_dump({"equity": {"mode": "sampled", "samples": 100},
                                                     "sweep": {"spots": "s.tsv"}, "solve": {"spots": []}}))
    result = tmp_path / "results/solves/cash/2max/5bb/result.json"
    result.parent.mkdir(parents=True)
    result.write_text('{"status": "shipped"}\n')
    table = tmp_path / "results/equity/equity_169.npz"
    table.parent.mkdir(parents=True)
    table.write_bytes(b"PK\x03\x04 truncated")
    later = time.time() + 60
    os.utime(table, (later, later))
    out = subprocess.run([sys.executable, "-m", "snakemake", "--cores", "1", "release", "--configfile", "c.yaml"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert out.returncode != 0
    assert result.read_text() == '{"status": "shipped"}\n'
    message = out.stderr + out.stdout
    assert "equity table results/equity/equity_169.npz: unreadable" in message and "delete it and re-run" in message


# --- every file the config names is read and checked when the workflow loads -----------------

GOOD_CONSTANTS = {"constants": {"a": 1.375, "b": -0.02, "c2": 0.0175, "cap": 0.07}}


def _constants_text(**change):
    import json

    doc = copy.deepcopy(GOOD_CONSTANTS)
    for key, value in change.items():
        if value is None:
            del doc["constants"][key]
        else:
            doc["constants"][key] = value
    return json.dumps(doc)  # NaN is written as the bare token NaN, which Python's json reads back


FILE_CASES = {
    "sizing is /etc/passwd": ({"solve.sizing": "/etc/passwd"}, {}, "config solve.sizing: /etc/passwd: "),
    "sizing missing": ({"solve.sizing": "nope.yaml"}, {}, "config solve.sizing: nope.yaml: "),
    "payouts is /etc/passwd": ({"icm": {"payouts": "/etc/passwd"}}, {}, "config icm.payouts: /etc/passwd: "),
    "constants garbage": ({"solve.postflop": {"source": "file", "file": "c.json"}}, {"c.json": "garbage{"},
                          "config solve.postflop.file: c.json: "),
    "constants cap 0.9": ({"solve.postflop": {"source": "file", "file": "c.json"}}, {"c.json": _constants_text(cap=0.9)},
                          "config solve.postflop.file: c.json: postflop model cap: 0.9 must be in [0, 0.5)"),
    "constants a -1": ({"solve.postflop": {"source": "file", "file": "c.json"}}, {"c.json": _constants_text(a=-1)},
                       "config solve.postflop.file: c.json: postflop model a: -1 must be > 0"),
    "constants NaN": ({"solve.postflop": {"source": "file", "file": "c.json"}}, {"c.json": _constants_text(b=float("nan"))},
                      "config solve.postflop.file: c.json: postflop model b: nan is not a finite number"),
    "constants missing key": ({"solve.postflop": {"source": "file", "file": "c.json"}}, {"c.json": _constants_text(c2=None)},
                              "config solve.postflop.file: c.json: "),
    "constants file missing": ({"solve.postflop": {"source": "file", "file": "gone.json"}}, {},
                               "config solve.postflop.file: gone.json: "),
    "class table missing": ({"solve.postflop": {**CONFIG["solve"]["postflop"], "model": "v2", "class_table": "/nope.tsv"}},
                            {}, "config solve.postflop.class_table: /nope.tsv: "),
    "class table missing, model v1": ({"solve.postflop": {**CONFIG["solve"]["postflop"], "class_table": "/nope.tsv"}},
                                      {}, "config solve.postflop.class_table: /nope.tsv: "),
    "class table garbage": ({"solve.postflop": {**CONFIG["solve"]["postflop"], "model": "v2", "class_table": "t.tsv"}},
                            {"t.tsv": "\x00\xff garbage\n1\t2\n"}, "config solve.postflop.class_table: t.tsv: "),
    "solved tables folder missing": ({"solve.postflop": {**CONFIG["solve"]["postflop"], "model": "solved",
                                                         "solved_tables": "nope"}}, {},
                                     "config solve.postflop.solved_tables: 'nope' is not a folder"),
    "solved table garbage": ({"solve.postflop": {**CONFIG["solve"]["postflop"], "model": "solved",
                                                 "solved_tables": "."}}, {"cash-2max-100bb.tsv": "garbage\n"},
                             "config solve.postflop.solved_tables: cash-2max-100bb.tsv: "),
}


def _overlaid(root: Path, overlay: dict, files: dict) -> dict:
    """The default config with ``overlay`` applied (dotted keys replace one value, plain keys a
    section), and ``files`` written in ``root`` (the workflow's directory)."""
    for name, text in files.items():
        (root / name).write_text(text)
    config = _config(**{k: v for k, v in overlay.items() if "." in k})
    config.update({k: v for k, v in overlay.items() if "." not in k})
    return config


@pytest.mark.parametrize("case", FILE_CASES)
def test_a_bad_file_named_by_the_config_is_refused_with_its_key_and_path(tmp_path, monkeypatch, case):
    """Reliability round two, R15: these passed the load and failed inside the solve job."""
    overlay, files, message = FILE_CASES[case]
    for name in ("config", "src"):
        (tmp_path / name).symlink_to(ROOT / name)
    monkeypatch.chdir(tmp_path)  # the workflow reads paths relative to its working directory
    config = _overlaid(tmp_path, overlay, files)
    with pytest.raises(ValueError, match=re.escape(message)):
        check_config(config)


def test_the_files_of_the_shipped_configs_pass():
    check_config(_config(**{"solve.postflop": {**CONFIG["solve"]["postflop"], "model": "v2",
                                              "class_table": "src/pokerlab/data/postflop-class-table.tsv"}}))
    # a class table the fitting run has still to write is not there yet: the workflow makes it first
    check_config(_config(**{"solve.postflop": {**CONFIG["solve"]["postflop"], "model": "v2",
                                              "class_table": "results/fit/class_table.tsv"}}))


@pytest.mark.parametrize("case", ["sizing is /etc/passwd", "constants cap 0.9", "class table missing"])
def test_bad_config_stops_the_workflow_at_load_and_keeps_existing_results(tmp_path, case):
    """R15: with these overlays `snakemake` passed the dry run, ran the solve job, which failed,
    and Snakemake deleted the spot's existing result.json and result.npz."""
    overlay, files, message = FILE_CASES[case]
    for name in ("Snakefile", "workflow", "config", "src"):
        (tmp_path / name).symlink_to(ROOT / name)
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "s.tsv").write_text("format\tseats\tdepth\ncash\t2\t5\n")
    over = {"equity": {"mode": "sampled", "samples": 100}, "sweep": {"spots": "s.tsv"}, "solve": {"spots": []}}
    for key, value in overlay.items():
        section, _, name = key.partition(".")
        over.setdefault(section, {}).update({name: value} if name else value)
    (tmp_path / "c.yaml").write_text(yaml.safe_dump(over))
    target = "results/solves/cash/2max/5bb/result.json"
    kept = {target: '{"status": "shipped"}\n', target.replace(".json", ".npz"): "arrays"}
    for path, text in kept.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    for args in (["-n", "--forceall"], ["--cores", "1", "--forceall"]):
        out = subprocess.run([sys.executable, "-m", "snakemake", *args, target, "--configfile", "c.yaml"],
                             capture_output=True, text=True, cwd=tmp_path, timeout=600)
        assert out.returncode != 0
        assert message in out.stderr + out.stdout
        assert "Select jobs to execute" not in out.stderr + out.stdout  # stopped when the workflow loaded
        for path, text in kept.items():
            assert (tmp_path / path).read_text() == text


# --- unbounded values are refused before the plan is built ----------------------------------


def _schema_problem(config: dict) -> str | None:
    from pokerlab.schema_check import first_problem

    return first_problem(config, yaml.safe_load((ROOT / "config" / "schema.yaml").read_text()), strict=True)


@pytest.mark.parametrize("changes, where", [
    ({"fit.boards": 100_000_000}, "fit/boards"),
    ({"fit.boards": 22_101}, "fit/boards"),
    ({"fit.heldout_boards": 22_101}, "fit/heldout_boards"),
    ({"solve.checkpoints": [400, 10**12]}, "solve/checkpoints/1"),
    ({"solve.bar_coefficient": 0}, "solve/bar_coefficient"),
    ({"fit.max_iterations": 10**12}, "fit/max_iterations"),
    ({"fit.endings_per_spot": 10**9}, "fit/endings_per_spot"),
    ({"pushfold.fourmax.final_samples": 10**15}, "pushfold/fourmax/final_samples"),
    ({"hands.generated": {"hands": 10**12}}, "hands/generated/hands"),
    ({"solved.exchange": {"every": 10, "iterations": 400, "average": "last_tenth"}}, "solved/exchange/average"),
])
def test_the_schema_bounds_every_count_and_the_bar(changes, where):
    """Reliability round two, R16: a bar of 0 can never be met, and counts without a bound let the
    dry run hang or plan tens of thousands of jobs."""
    config = _config(**{k: v for k, v in changes.items() if not k.startswith("hands")})
    if "hands.generated" in changes:
        config["hands"] = {"inputs": [], "generated": changes["hands.generated"]}
    problem = _schema_problem(config)
    assert problem is not None and problem.startswith(where + ":"), problem


@pytest.mark.parametrize("changes, message", [
    ({"boards": 5000}, "fit: 20,004 postflop solves (2 spots x 2 endings x (5000 + 1) boards); at most 5,000"),
    ({"boards": 11_000, "heldout_boards": 100}, "fit.boards + fit.heldout_boards: 11100 boards per ending; at most 11050"),
    ({"boards": 100_000_000}, "fit.boards + fit.heldout_boards: 100000001 boards per ending; at most 11050"),
])
def test_the_fit_refuses_more_solves_than_a_run_can_hold(changes, message):
    from pokerlab.fit.settings import FitSettings

    with pytest.raises(ValueError, match=re.escape(message)):
        FitSettings.from_config({**CONFIG["fit"], **changes})


@pytest.mark.parametrize("cell, message", [
    ("checkpoints\n400,1000000000000", "checkpoints '400,1000000000000' must be strictly increasing positive integers up to 1000000"),
    ("bar_coefficient\n0", "bar_coefficient '0' must be a number > 0 (bb)"),
])
def test_the_sheet_overrides_are_bounded_too(tmp_path, cell, message):
    column, value = cell.split("\n")
    sheet = tmp_path / "s.tsv"
    sheet.write_text(f"format\tseats\tdepth\t{column}\ncash\t2\t10\t{value}\n")
    with pytest.raises(ValueError, match=re.escape(f"spots sheet s.tsv line 2: {message}")):
        load_spots(sheet)


def test_a_huge_fit_stops_the_dry_run_at_once(tmp_path):
    """R16: `fit: {boards: 5000}` planned 20,008 jobs (and `boards: 100000000` made the dry run hang)."""
    for name in ("Snakefile", "workflow", "config", "src"):
        (tmp_path / name).symlink_to(ROOT / name)
    (tmp_path / "c.yaml").write_text(yaml.safe_dump({"fit": {**CONFIG["fit"], "boards": 5000}}))
    out = subprocess.run([sys.executable, "-m", "snakemake", "-n", "results/fit/constants.json", "--configfile", "c.yaml"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert out.returncode != 0
    assert "fit: 20,004 postflop solves" in out.stderr + out.stdout


def test_the_rerun_command_names_config_files_inside_the_working_copy_relative_to_it(tmp_path):
    from pokerlab.workflow_config import rerun_command

    (tmp_path / "config").mkdir()
    assert rerun_command("solved_rounds", [str(tmp_path / "config/a.yaml"), "b.yaml", "/elsewhere/c.yaml"], tmp_path) \
        == "snakemake --cores 2 solved_rounds --configfile config/a.yaml --configfile b.yaml --configfile /elsewhere/c.yaml"
