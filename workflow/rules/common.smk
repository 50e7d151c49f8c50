# Shared settings for every rule.

import json


def config_digest_param(section):
    """A rule parameter that changes whenever the given config section changes (re-run trigger)."""
    return json.dumps(config[section], sort_keys=True)
