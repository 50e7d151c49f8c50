"""Glue for rule solved_exchange_solve: one spot's exchanging solve, resumed from its state file."""

import sys

import numba

from pokerlab.equity_table import load_equity_table
from pokerlab.job_log import job_cpu_line
from pokerlab.preflop.solve import SolveSettings
from pokerlab.preflop.spot import load_sizing, parse_spot_name
from pokerlab.solved.joint import JointSolve, write_outputs
from pokerlab.solved.settings import SolvedSettings

sys.stderr = open(snakemake.log[0], "a")  # noqa: F821 (snakemake injects it; a resumed job appends)
numba.set_num_threads(min(snakemake.threads, numba.config.NUMBA_NUM_THREADS))  # noqa: F821
i, o, w, config = snakemake.input, snakemake.output, snakemake.wildcards, snakemake.config  # noqa: F821
constants = i.constants[0] if i.constants else None
base = SolveSettings.from_config({**config["solve"], "postflop": snakemake.params.base}, constants)  # noqa: F821
settings = SolvedSettings.from_config(config["solved"])
table = load_equity_table(i.table)
solve = JointSolve(parse_spot_name(f"{w.format}/{w.seats}max/{w.depth}bb"), load_sizing(i.sizing), base, table.win,
                   table.tie, settings, i.endings, i.boards, log=sys.stderr)
if solve.load(snakemake.params.state):  # noqa: F821
    print(f"resumed at iteration {solve.iteration}", file=sys.stderr, flush=True)
solve.run(settings.exchange_iterations, snakemake.params.state)  # noqa: F821
write_outputs(solve, {"command": snakemake.params.command,  # noqa: F821
                      "settings": {k: config["solved"].get(k) for k in sorted(config["solved"]) if k != "spots"}},
              o.table, o.chart, o.report)
print(job_cpu_line(), file=sys.stderr)
