#!/usr/bin/env python3
"""The prompt hook against the session-start hook (#16), interleaved run by run in
one process so both see the same load, on synthetic vaults of 2,000 and 20,000 notes.

    benches/prompt_hook_compare.py CAIRN CAIRN_SYNTH OUT [RUNS] [SIZES]

For each size in SIZES (default "2000,20000"), builds in OUT/<size> (removed first)
a vault with `cairn-synth OUT/<size> --notes <size>`, runs `cairn index` once,
warms both hooks, then times RUNS (default 40) pairs of

  cairn hook session-start --client claude   (payload: cwd = repos/ledger, startup)
  cairn hook prompt --client claude          (payload: the same cwd, a prompt)

with a fresh session id per run (so the prompt hook never skips a note it gave
before) and the session records in OUT/<size>/sessions-cache. The prompts are
titles of notes of the vault (each matches at least one note, so the hook ranks,
assembles and renders: its worst case), cycled through. Prints each hook's median
(p50) and p90 and the ratio prompt/session-start (goal: <= 1.2).

Debug builds are not meaningful; build release binaries first:
    cargo build --release -p cairn-cli -p cairn-synth
    benches/prompt_hook_compare.py target/release/cairn target/release/cairn-synth /tmp/prompt-bench
"""
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path


def titles(vault, limit=20):
    """Up to `limit` note titles of the vault, in path order (deterministic)."""
    found = []
    for p in sorted(vault.rglob("*.md")):
        m = re.search(r"^title:\s*(.+)$", p.read_text(errors="replace"), re.MULTILINE)
        if m:
            found.append(m.group(1).strip().strip("'\""))
        if len(found) >= limit:
            break
    return found or ["how do we retry a failed payout"]


def bench(cairn, synth, out, runs, notes):
    if out.exists():
        shutil.rmtree(out)
    subprocess.run([synth, str(out), "--notes", str(notes)], check=True, stdout=subprocess.DEVNULL)
    config = str(out / "cairn.toml")
    index = str(out / "index")
    cwd = str(out / "repos/ledger")
    env = {**os.environ, "CAIRN_CACHE_DIR": str(out / "sessions-cache")}
    quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    t = time.perf_counter()
    subprocess.run([cairn, "index", "--config", config, "--index-dir", index], check=True, **quiet)
    print(f"{notes} notes: cairn index {time.perf_counter() - t:.1f} s", file=sys.stderr)
    common = ["--config", config, "--index-dir", index, "--deadline-ms", "5000"]
    start = [cairn, "hook", "session-start", "--client", "claude", *common]
    prompt = [cairn, "hook", "prompt", "--client", "claude", *common]
    asks = titles(out / "vault")

    def payloads(i):
        session = f"bench-{notes}-{i}"
        return (
            json.dumps({"cwd": cwd, "session_id": session, "source": "startup"}).encode(),
            json.dumps({"cwd": cwd, "session_id": session, "hook_event_name": "UserPromptSubmit",
                        "prompt": asks[i % len(asks)]}).encode(),
        )

    # Check the prompt hook answers (some notes match), then warm both.
    s, p = payloads(0)
    shown = subprocess.run(prompt, input=p, capture_output=True, env=env).stdout.decode()
    if "additionalContext" not in shown:
        print(f"warning: the prompt hook added nothing for {asks[0]!r}", file=sys.stderr)
    for i in range(3):
        s, p = payloads(-1 - i)
        subprocess.run(start, input=s, **quiet)
        subprocess.run(prompt, input=p, **quiet)
    times = {"session-start": [], "prompt": []}
    answered = 0
    for i in range(runs):
        s, p = payloads(i)
        t = time.perf_counter()
        subprocess.run(start, input=s, **quiet)
        times["session-start"].append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        r = subprocess.run(prompt, input=p, capture_output=True, env=env)
        times["prompt"].append((time.perf_counter() - t) * 1000)
        answered += bool(r.stdout.strip())
    med = {k: statistics.median(v) for k, v in times.items()}
    for k, v in med.items():
        p90 = sorted(times[k])[max(0, int(runs * 0.9) - 1)]
        print(f"{notes:>6} notes  {k:14s} p50 {v:7.1f} ms (p90 {p90:.1f})")
    ratio = med["prompt"] / med["session-start"]
    print(f"{notes:>6} notes  prompt/session-start: {ratio:.2f} (goal <= 1.20); "
          f"the prompt hook added notes in {answered}/{runs} runs")
    return ratio


def main():
    cairn, synth, out = sys.argv[1], sys.argv[2], Path(sys.argv[3]).resolve()
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 40
    sizes = [int(s) for s in (sys.argv[5] if len(sys.argv) > 5 else "2000,20000").split(",")]
    for n in sizes:
        bench(cairn, synth, out / str(n), runs, n)


if __name__ == "__main__":
    main()
