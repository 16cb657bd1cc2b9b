#!/usr/bin/env python3
"""Warm `cairn wakeup` of two cairn binaries on one vault, interleaved run by run so
both see the same machine load; prints medians and the ratio (docs/BENCHMARKS.md).

    scripts/compare_wakeup.py OLD_CAIRN NEW_CAIRN VAULT_DIR [RUNS]

VAULT_DIR is a `cairn-synth` output (cairn.toml, vault/, repos/ledger). Each binary
keeps its own index in VAULT_DIR/../idx-<n>; both are built and warmed first.
"""
import statistics, subprocess, sys, time
from pathlib import Path

old, new, vault = sys.argv[1], sys.argv[2], Path(sys.argv[3]).resolve()
runs = int(sys.argv[4]) if len(sys.argv) > 4 else 40
base = ["wakeup", "--config", str(vault / "cairn.toml"), "--cwd", str(vault / "repos/ledger"), "--format", "prompt"]
task = ["--task", "fix payout retry idempotency"]
cases = {}
for i, (name, exe) in enumerate([("old", old), ("new", new)]):
    idx = ["--index-dir", str(vault.parent / f"idx-{i}")]
    cases[f"{name} task"] = [exe, *base, *task, *idx]
    cases[f"{name} no task"] = [exe, *base, *idx]
quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
for cmd in cases.values():
    for _ in range(3):
        subprocess.run(cmd, **quiet)
times = {k: [] for k in cases}
for _ in range(runs):
    for k, cmd in cases.items():
        t = time.perf_counter()
        subprocess.run(cmd, **quiet)
        times[k].append((time.perf_counter() - t) * 1000)
med = {k: statistics.median(v) for k, v in times.items()}
for k, v in med.items():
    print(f"{k:12s} median {v:7.1f} ms")
print(f"new/old: task {med['new task'] / med['old task']:.2f}, no task {med['new no task'] / med['old no task']:.2f}")
