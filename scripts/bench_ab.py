#!/usr/bin/env python3
"""Two cairn binaries side by side on the persistent index's warm path
(docs/BENCHMARKS.md, "Checksums on the warm path").

    scripts/bench_ab.py WORKDIR BEFORE AFTER [RUNS]

WORKDIR holds cairn-synth vaults named v2k and v20k (as scripts/bench_index.sh
writes them) and a cairn-synth binary at WORKDIR/cairn-synth for the edit case.
Each binary keeps its own index folder. Runs of the two binaries are
interleaved (alternating which goes first) and each run's wall time and CPU time
(user + system, from getrusage) are recorded: on a loaded machine the CPU time is
the figure to compare. Prints medians.
"""

import resource
import statistics
import subprocess
import sys
import time

TASK = "fix payout retry idempotency"


def command(binary, work, vault, name):
    return [
        binary, "wakeup",
        "--config", f"{work}/{vault}/cairn.toml",
        "--cwd", f"{work}/{vault}/repos/ledger",
        "--task", TASK, "--format", "prompt",
        "--index-dir", f"{work}/{vault}.{name}.idx",
    ]


def run(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        sys.exit(r.stderr.decode())
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall * 1000, cpu * 1000


def compare(label, binaries, cmds, runs, prepare=None):
    wall = {n: [] for n in binaries}
    cpu = {n: [] for n in binaries}
    names = list(binaries)
    for i in range(runs):
        if prepare:
            prepare(i)
        for n in names if i % 2 == 0 else names[::-1]:
            w, c = run(cmds[n])
            wall[n].append(w)
            cpu[n].append(c)
    for n in names:
        print(
            f"{label} {n}: cpu median {statistics.median(cpu[n]):.1f} ms, "
            f"wall median {statistics.median(wall[n]):.1f} ms (n={runs})",
            flush=True,
        )


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    work, before, after = sys.argv[1:4]
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 21
    binaries = {"before": before, "after": after}
    for vault in ["v2k", "v20k"]:
        cmds = {n: command(b, work, vault, n) for n, b in binaries.items()}
        for c in cmds.values():  # build, let the files settle, settle the index
            run(c)
            time.sleep(3)
            run(c)
        compare(f"{vault} warm", binaries, cmds, runs)

    def edit(i):
        subprocess.run(
            [f"{work}/cairn-synth", f"{work}/v20k", "--edit", "10", "--seed", str(5000 + i)],
            check=True, stdout=subprocess.DEVNULL,
        )

    cmds = {n: command(b, work, "v20k", n) for n, b in binaries.items()}
    compare("v20k 10 edits", binaries, cmds, max(runs * 2 // 3, 1), prepare=edit)


if __name__ == "__main__":
    main()
