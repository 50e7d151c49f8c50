"""What a sweep run costs: wall, CPU (solve jobs vs everything else), job count and disk per folder.

Runs ``snakemake --cores N TARGET --configfile CONFIG`` in a fresh working folder (the
Snakefile, workflow and config linked in; the equity table copied in when ``--table`` is given,
so the measurement is of the sweep and not of the table) and prints:

* wall seconds of the whole run and CPU seconds of every process it started (user + system,
  from the kernel's accounting of waited-for children);
* CPU seconds of Snakemake's main process (sampled until it exits), of the solve jobs (each
  writes its own CPU seconds, imports included, as the last line of its log: Snakemake's
  ``benchmark:`` files sample the process and missed about half of it) and of everything else
  (the other jobs, and each job's Python start before its script runs), and the number of jobs;
* bytes on disk under each folder of ``results/``, and the release (the files ``manifest.json`` lists,
  with it and ``SHA256SUMS``) apart from everything else (intermediates);
* the load average before and after (other work on the cores inflates the wall time).

    .venv/bin/python benchmarks/sweep_run.py                                  # the quick sheet
    .venv/bin/python benchmarks/sweep_run.py --table results/equity/equity_169.npz --cores 2
    .venv/bin/python benchmarks/sweep_run.py --config config/config.yaml --target all   # the full run
    .venv/bin/python benchmarks/sweep_run.py --config config/config.yaml --target all -- \
        --max-jobs-per-timespan 1000/10s --keep-going                  # as make run passes them
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def folder_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink())


def sample_cpu(process: subprocess.Popen, interval: float = 0.1) -> tuple[float, dict[str, float]]:
    """CPU seconds (user + system) of Snakemake's main ``process`` itself, read from the kernel
    until it exits (a zombie keeps its counters until reaped), and of its job processes by script
    (``.snakemake/scripts/tmpXXXX.solve_spot.py`` counts as ``solve_spot.py``), each job's last
    reading before it ended: a job shorter than ``interval`` is missed, and every job loses what
    it spent after its last reading. Reaps the process."""
    import psutil

    handle = psutil.Process(process.pid)
    main_cpu, job_cpu, job_script = 0.0, {}, {}
    while True:
        try:
            times = handle.cpu_times()
            main_cpu = times.user + times.system
            if handle.status() == psutil.STATUS_ZOMBIE:
                break
            for child in handle.children(recursive=True):
                try:
                    if child.pid not in job_script:
                        script = next((a for a in child.cmdline() if "/.snakemake/scripts/" in a), None)
                        job_script[child.pid] = script.rsplit("/", 1)[1].split(".", 1)[1] if script else "other"
                    times = child.cpu_times()
                    job_cpu[child.pid] = times.user + times.system
                except psutil.Error:
                    continue
        except psutil.Error:
            break
        time.sleep(interval)
    process.wait()
    by_script: dict[str, float] = {}
    for pid, cpu in job_cpu.items():
        by_script[job_script[pid]] = by_script.get(job_script[pid], 0.0) + cpu
    return main_cpu, by_script


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default="config/presets/quick.yaml", help="config merged over config/config.yaml")
    parser.add_argument("--target", default="release", help="Snakemake target (default: release)")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--table", help="an existing equity_169.npz (and its .parquet beside it) to copy in")
    parser.add_argument("--keep", action="store_true", help="keep the working folder and print its path")
    parser.add_argument("snakemake_args", nargs="*", help="more Snakemake options, after --")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="pokerlab-sweep-"))
    for name in ("Snakefile", "workflow", "config", "src"):
        (work / name).symlink_to(ROOT / name)
    if args.table:
        (work / "results/equity").mkdir(parents=True)
        for suffix in (".npz", ".parquet"):
            shutil.copy2(Path(args.table).with_suffix(suffix), work / "results/equity" / f"equity_169{suffix}")
    snakemake = Path(sys.executable).parent / "snakemake"
    command = [str(snakemake), "--cores", str(args.cores), args.target, "--configfile", args.config, *args.snakemake_args]
    if args.table:  # without a record of the copied table's job, Snakemake's code trigger would rebuild it
        command += ["--rerun-triggers", "mtime"]
    load_before = os.getloadavg()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        process = subprocess.Popen(command, cwd=work, stdout=out, stderr=err, text=True)
        main_cpu, sampled = sample_cpu(process)
        wall = time.perf_counter() - start
        out.seek(0), err.seek(0)
        run = subprocess.CompletedProcess(command, process.returncode, out.read(), err.read())
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:
        print(run.stderr[-3000:], file=sys.stderr)
        print(f"snakemake failed with exit code {run.returncode} (working folder {work})", file=sys.stderr)
        return 1
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    jobs = len(re.findall(r"^Finished jobid", run.stderr + run.stdout, re.MULTILINE))
    solve_cpu = 0.0
    solve_jobs = 0
    from pokerlab.job_log import JOB_CPU

    for log in glob.glob(str(work / "logs/solves/*.log")):
        found = JOB_CPU.findall(Path(log).read_text())
        if found:
            solve_cpu += float(found[-1])
            solve_jobs += 1
    print(f"{' '.join(command[1:])} in {work if args.keep else 'a fresh folder'}")
    print(f"wall {wall:.1f} s; CPU {cpu:.1f} s of all processes ({cpu / 3600:.3f} CPU-h); {jobs} jobs")
    print(f"  Snakemake's main process {main_cpu:9.1f} CPU-s ({100 * main_cpu / cpu:.0f}%)")
    print(f"  solve jobs ({solve_jobs}, their logs) {solve_cpu:9.1f} CPU-s ({100 * solve_cpu / cpu:.0f}%)")
    sampled.pop("solve_spot.py", None)
    for script, seconds in sorted(sampled.items(), key=lambda item: -item[1]):
        print(f"  {script:<24} {seconds:9.1f} CPU-s (sampled)")
    rest = cpu - main_cpu - solve_cpu - sum(sampled.values())
    print(f"  unattributed             {rest:9.1f} CPU-s ({100 * rest / cpu:.0f}%: jobs' ends and start-ups between "
          "samples, short jobs)")
    results = work / "results"
    sizes = {p.name: folder_bytes(p) for p in sorted(results.iterdir()) if p.is_dir()}
    files = sum(f.stat().st_size for f in results.iterdir() if f.is_file())
    for name, size in sizes.items():
        print(f"  results/{name + '/':<14} {size / 2**20:10.2f} MiB")
    total = sum(sizes.values()) + files
    print(f"  results/ (files) {files / 2**20:10.2f} MiB; total {total / 2**20:.2f} MiB")
    manifest = results / "manifest.json"
    if manifest.is_file():
        listed = json.loads(manifest.read_text())["files"]
        release = sum(f["bytes"] for f in listed) + manifest.stat().st_size + (results / "SHA256SUMS").stat().st_size
        print(f"  release: {len(listed)} files, {release / 2**20:.2f} MiB; intermediates {(total - release) / 2**20:.2f} MiB")
    print(f"load average before {load_before[0]:.2f}, after {os.getloadavg()[0]:.2f}")
    if not args.keep:
        shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
