# Shared settings for every rule.

import json
from pathlib import Path

from pokerlab.icm import DEFAULT_PAYOUTS_PATH
from pokerlab.preflop.spot import depth_label, parse_spot_name, spot_name
from pokerlab.sweep import batched_tables, load_spots, sheet_overrides, solve_resources, solve_settings
from pokerlab.workflow_config import check_config, rerun_command

# What the schema cannot say (a depth whose file name is another depth, ...), before any job.
check_config(config)

# The spots sheet: one row per spot of the sweep, with optional per-spot overrides.
SPOTS = load_spots(config["sweep"]["spots"])
validate(SPOTS, "../schemas/spots.schema.yaml")
SPOT_NAMES = [spot_name(*row[:3]) for row in SPOTS.itertuples(index=False)]
OVERRIDES = sheet_overrides(SPOTS)

# The ICM payout structures (icm.payouts; without it, the library's own default).
PAYOUTS = config.get("icm", {}).get("payouts", str(DEFAULT_PAYOUTS_PATH))


def rerun_command_param(target):
    """The command that re-makes ``target`` with this run's config files (recorded in its outputs)."""
    return rerun_command(target, workflow.overwrite_configfiles, Path.cwd())


def config_digest_param(section):
    """A rule parameter that changes whenever the given config section changes (re-run trigger)."""
    return json.dumps(config[section], sort_keys=True)


def overrides_of(wildcards):
    """The sheet's override cells for the spot named by the wildcards ({} if not in the sheet)."""
    return OVERRIDES.get(spot_name(wildcards.format, wildcards.seats, wildcards.depth), {})
