"""``make test-stress``: find the flaky tests before CI does.

Runs the browser and multi-process tests (marked ``slow`` or ``resilience``)
several times in a row while ``stress-ng --cpu N`` (Debian's ``stress-ng``)
keeps every core busy, then lists each test that failed at least once, with
how often and its first error line. A test that only fails under load is a
test that waits for time, or for an event that may already have passed:
docs/testing.md says how to wait instead.

    python -m tests.stress [--repeats 3] [--load 2] [--marks "slow or resilience"]
                           [--workers 2] [-- extra pytest arguments]

Each repetition is one ``pytest`` run with a JUnit report under
``var/stress/<stamp>/run-<k>.xml`` (its own test folders, Redis and servers as
``make test`` makes them). Exit status: 0 when no test failed in any
repetition, 1 when one did, 2 when the load cannot be made.
``DATABASE_URL=postgres://...`` runs them on PostgreSQL, as .ci/run's pass 2.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def failures(report: Path) -> dict[str, str]:
    """``{test id: first line of its error}`` for each failed or errored test case
    in the JUnit ``report`` (empty when the run wrote none)."""
    if not report.exists():
        return {"(the run wrote no report)": "pytest did not finish"}
    out = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        for kind in ("failure", "error"):
            found = case.find(kind)
            if found is not None:
                name = f"{case.get('classname', '').replace('.', '/')}.py::{case.get('name')}"
                message = (found.get("message") or found.text or "").strip().splitlines()
                out[name] = f"{kind}: {message[0][:200] if message else ''}"
    return out


def start_load(cpus: int) -> subprocess.Popen | None:
    if cpus <= 0:
        return None
    stress = shutil.which("stress-ng")
    if stress is None:
        sys.exit("stress-ng is not installed: apt-get install stress-ng (Debian), or --load 0 for no load")
    return subprocess.Popen([stress, "--cpu", str(cpus), "--quiet"], start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def stop_load(proc: subprocess.Popen | None) -> None:
    if proc is not None and proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.stress", description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3, help="runs of the selection (default 3)")
    parser.add_argument("--load", type=int, default=os.cpu_count() or 2,
                        help="stress-ng CPU workers beside the tests (default: one per core; 0: none)")
    parser.add_argument("--marks", default="slow or resilience", help="pytest -m expression")
    parser.add_argument("--workers", default=os.environ.get("PYTEST_WORKERS", "2"),
                        help="pytest-xdist workers")
    parser.add_argument("pytest_args", nargs="*", help="more pytest arguments (after --)")
    args = parser.parse_args(argv)

    out_dir = ROOT / "var" / "stress" / time.strftime("%Y%m%d-%H%M%S")
    out_dir.mkdir(parents=True, exist_ok=True)
    failed: dict[str, list[int]] = defaultdict(list)
    first_error: dict[str, str] = {}
    durations = []
    load = start_load(args.load)
    try:
        for k in range(1, args.repeats + 1):
            report = out_dir / f"run-{k}.xml"
            cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", args.marks,
                   f"--junitxml={report}", *([] if args.workers == "0" else ["-n", args.workers]),
                   *args.pytest_args]
            print(f"== stress run {k}/{args.repeats} under stress-ng --cpu {args.load}: {' '.join(cmd[1:])}",
                  flush=True)
            started = time.monotonic()
            with open(out_dir / f"run-{k}.log", "wb") as log:
                subprocess.run(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, check=False)
            durations.append(time.monotonic() - started)
            found = failures(report)
            for name, message in found.items():
                failed[name].append(k)
                first_error.setdefault(name, message)
            listed = "".join(f"\n   FAILED {n}" for n in found)
            print(f"   {durations[-1]:.0f} s, {len(found)} failed{listed}", flush=True)
    finally:
        stop_load(load)

    print(f"== {args.repeats} runs in {sum(durations):.0f} s ({', '.join(f'{d:.0f}' for d in durations)} s); "
          f"reports and logs in {out_dir.relative_to(ROOT)}")
    if not failed:
        print("No test failed in any run.")
        return 0
    print(f"{len(failed)} test(s) failed at least once:")
    for name, runs in sorted(failed.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        print(f"  {len(runs)}/{args.repeats}  {name}\n        {first_error[name]}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
