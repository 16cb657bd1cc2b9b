#!/usr/bin/env python3
"""Two or more cairn binaries' warm session-start hooks, derived and `--no-derive`,
interleaved in a shuffled order run by run, on the reference that
`git_hook_compare.py` built in OUT (run it first).

    benches/git_hook_ab.py OUT RUNS CAIRN [CAIRN...]

Each binary gets a copy of OUT/index of its own (OUT/index-ab-N), brought up to
date by one `cairn index` with that binary, so that two builds of different
parser or schema versions never rebuild each other's index between runs.
Prints, per binary: the median wall time of each hook, their ratio, the median
of the run pairs' differences (what deriving adds), and the median CPU times.

Two copies of the same binary can differ by a millisecond or two (how the
kernel happens to hold their pages): give each build twice, as two copies, and
compare what repeats.
"""
import json
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    out = Path(sys.argv[1]).resolve()
    runs = int(sys.argv[2])
    binaries = [str(Path(b).resolve()) for b in sys.argv[3:]]
    config = str(out / "cairn.toml")
    repo = out / "repos" / "ledger"
    if not (out / "index").is_dir() or not repo.is_dir():
        sys.exit(f"{out} holds no reference: run benches/git_hook_compare.py first")
    quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=repo)
    indexes = []
    for i, b in enumerate(binaries):
        index = out / f"index-ab-{i}"
        shutil.rmtree(index, ignore_errors=True)
        shutil.copytree(out / "index", index)
        subprocess.run([b, "index", "--config", config, "--index-dir", str(index)],
                       check=True, **quiet)
        indexes.append(str(index))
    stdin = json.dumps({"cwd": str(repo), "source": "startup"}).encode()

    def command(i, derive):
        c = [binaries[i], "hook", "session-start", "--client", "claude", "--config",
             config, "--index-dir", indexes[i], "--deadline-ms", "5000"]
        return c if derive else [*c, "--no-derive"]

    cases = [(i, d) for i in range(len(binaries)) for d in (True, False)]
    for case in cases:
        for _ in range(3):
            subprocess.run(command(*case), input=stdin, **quiet)
    wall = {c: [] for c in cases}
    cpu = {c: [] for c in cases}
    # A fixed seed: the same order of runs for the same arguments.
    rng = random.Random(15)
    for _ in range(runs):
        order = list(cases)
        rng.shuffle(order)
        for case in order:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            subprocess.run(command(*case), input=stdin, **quiet)
            wall[case].append((time.perf_counter() - t) * 1000)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[case].append((after.ru_utime + after.ru_stime
                              - before.ru_utime - before.ru_stime) * 1000)
    for i, b in enumerate(binaries):
        d, n = statistics.median(wall[(i, True)]), statistics.median(wall[(i, False)])
        adds = statistics.median(x - y for x, y in zip(wall[(i, True)], wall[(i, False)]))
        cd, cn = statistics.median(cpu[(i, True)]), statistics.median(cpu[(i, False)])
        print(f"{i}: {b}\n   derived {d:6.1f} ms, --no-derive {n:6.1f} ms, ratio {d / n:.2f}, "
              f"deriving adds {adds:.1f} ms; CPU {cd:.1f} / {cn:.1f} ms")


if __name__ == "__main__":
    main()
