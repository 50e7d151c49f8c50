"""The workflow's configuration contract: the schema accepts the shipped configs and names bad fields."""

import copy
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from snakemake.utils import validate

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = str(ROOT / "config" / "schema.yaml")


def default_config() -> dict:
    return yaml.safe_load((ROOT / "config" / "config.yaml").read_text())


def test_default_config_is_valid():
    validate(default_config(), SCHEMA)


@pytest.mark.parametrize(
    "path, value, fragment",
    [
        (("equity", "mode"), "approximate", "approximate"),
        (("equity", "samples"), 0, "samples"),
        (("equity", "crosscheck", "max_gap_pp"), -1, "max_gap_pp"),
        (("equity", "crosscheck", "pairs"), [["AA", "A1s"]], "A1s"),
        (("equity", "typo_key"), 1, "typo_key"),
    ],
)
def test_bad_config_names_the_field(path, value, fragment):
    cfg = copy.deepcopy(default_config())
    node = cfg
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with pytest.raises(Exception, match=fragment):
        validate(cfg, SCHEMA)


@pytest.mark.snakemake
def test_dry_run_lists_the_equity_stage(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "snakemake", "-n", "--directory", str(ROOT), "--snakefile", str(ROOT / "Snakefile"),
         "--forceall", "results/equity/crosscheck.csv"],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert "equity_table" in out.stdout and "equity_crosscheck" in out.stdout
