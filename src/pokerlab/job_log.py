"""What a workflow job logs about itself: its own CPU time, the line written last in its log.

Snakemake's ``benchmark:`` files sample a job's processes and miss much of a short job's CPU, so
every solving job (preflop spots, fit measurements, solved endings) prints :func:`job_cpu_line`
as it ends and the benchmarks read it back with :data:`JOB_CPU`.
"""

from __future__ import annotations

import os
import re

JOB_CPU = re.compile(r"^job cpu_seconds (\S+)$", re.MULTILINE)
"""The line a job writes last in its log (:func:`job_cpu_line`); group 1 is the seconds."""


def job_cpu_line() -> str:
    """The job's own CPU seconds (user + system) since it started, imports included."""
    return f"job cpu_seconds {sum(os.times()[:2]):.3f}"
