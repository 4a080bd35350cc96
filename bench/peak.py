"""A process's own peak memory, and `python -m bench.peak MODULE ARGS...`, which runs MODULE as
`python -m` would and then writes that peak (MiB) to the file $BENCH_PEAK_FILE.

VmHWM is the peak of the process's current address space. ru_maxrss (wait4, getrusage) carries
the parent's peak over fork and exec: late in a bench run, with the bench process large, it would
report the bench's own peak for every child.
"""

import atexit
import os
import runpy
import sys
from pathlib import Path


def peak_rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM in /proc/self/status")


def _record() -> None:
    Path(os.environ["BENCH_PEAK_FILE"]).write_text(f"{peak_rss_mib():.1f}")


if __name__ == "__main__":
    atexit.register(_record)
    module, sys.argv = sys.argv[1], sys.argv[1:]
    runpy.run_module(module, run_name="__main__", alter_sys=True)
