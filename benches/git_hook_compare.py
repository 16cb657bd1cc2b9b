#!/usr/bin/env python3
"""The warm session-start hook with and without the task derived from git (#15),
on a reference repository, interleaved run by run so both see the same load.

    benches/git_hook_compare.py CAIRN CAIRN_SYNTH OUT [RUNS] [NOTES]

Builds, deterministically, in OUT (removed first):
  - a vault of NOTES (default 2,000) notes with `cairn-synth OUT --notes NOTES`;
  - OUT/repos/ledger, the ledger project's repository: about 5,000 commits over
    about 2,000 files on `main` (written with `git fast-import`, dates pinned),
    then a branch `fix/payout-batch-lock-timeouts` with 3 commits of its own
    and 3 changed files in the working tree (staged, unstaged, untracked).
Then runs `cairn index` once (the index and the capped cold pass over the git
history), warms both cases, and times RUNS (default 100) pairs of
`cairn hook session-start --client claude` started in the repository, as a
client starts its hooks, and told so by the hook's JSON: with the derived task,
and with `--no-derive`. Prints medians, the ratio (goal: <= 1.3) and its 95%
interval (a paired bootstrap over the run pairs): on a shared 2-core machine the
ratio of 40-run medians moves by +-0.05 from one run of this script to the next.
Then what deriving adds in milliseconds (wall and CPU), which, unlike the ratio,
does not grow when both hooks get faster, for scale how long `git status`
takes in the same repository, and, from separate runs after the pairs, the
hook's own phases (`CAIRN_TIMINGS=1`: the index open, git's thread, the
answer's select, assemble and render) for both cases.

For figures, build release binaries first:
    cargo build --release -p cairn-cli -p cairn-synth
    benches/git_hook_compare.py target/release/cairn target/release/cairn-synth /tmp/git-bench
"""
import json
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

COMMITS = 5_000
FILES = 2_000
START = 1_704_067_200  # 2024-01-01T00:00:00Z
STEP = 3 * 3600  # a commit every three hours

GIT_ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "Bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "Bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
}


def git(repo, *args, date=None, stdin=None):
    env = dict(GIT_ENV)
    if date is not None:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = f"@{date} +0000"
    subprocess.run(
        ["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args],
        cwd=repo, env=env, input=stdin, check=True,
        stdout=subprocess.DEVNULL,
    )


def path_of(i):
    """File i of the repository: 40 folders of 50 files, under src/ and tests/."""
    top = "src" if i % 5 else "tests"
    return f"{top}/mod{i // 50:02d}/file{i:04d}.rs"


def fast_import_stream():
    """COMMITS commits on main: the first adds every file, each later one changes
    1 to 3 files picked by a fixed linear congruential sequence."""
    out = []
    state = 12345

    def rand():
        nonlocal state
        state = (state * 1103515245 + 12345) % (1 << 31)
        return state

    for c in range(COMMITS):
        when = START + c * STEP
        msg = f"Change {c}".encode()
        out.append(b"commit refs/heads/main\n")
        out.append(f"mark :{c + 1}\n".encode())
        out.append(f"author Bench <bench@example.com> {when} +0000\n".encode())
        out.append(f"committer Bench <bench@example.com> {when} +0000\n".encode())
        out.append(f"data {len(msg)}\n".encode() + msg + b"\n")
        if c:
            out.append(f"from :{c}\n".encode())
        touched = range(FILES) if c == 0 else {rand() % FILES for _ in range(1 + rand() % 3)}
        for i in sorted(touched):
            body = f"// file {i}, version {c}\npub fn f{i}() -> u32 {{ {c} }}\n".encode()
            out.append(f"M 100644 inline {path_of(i)}\n".encode())
            out.append(f"data {len(body)}\n".encode() + body + b"\n")
    return b"".join(out)


def make_repo(repo):
    """The reference repository at `repo` (replacing the synthetic README folder)."""
    if repo.exists():
        shutil.rmtree(repo)
    repo.mkdir(parents=True)
    git(repo, "init", "-q")
    git(repo, "fast-import", "--quiet", stdin=fast_import_stream())
    git(repo, "checkout", "-q", "-f", "main")
    git(repo, "checkout", "-q", "-b", "fix/payout-batch-lock-timeouts")
    when = START + COMMITS * STEP
    for k, (i, subject) in enumerate([
        (7, "Take the payout batch lock with a timeout"),
        (8, "Retry a payout after a lock timeout"),
        (9, "Log lock waits of settlement batches"),
    ]):
        f = repo / path_of(i)
        f.write_text(f.read_text() + f"// {subject}\n")
        git(repo, "commit", "-q", "-am", subject, date=when + k * 60)
    (repo / path_of(10)).write_text("// unstaged change\n")
    (repo / path_of(11)).write_text("// staged change\n")
    git(repo, "add", path_of(11))
    (repo / "src/payout_lock.rs").write_text("// untracked\n")
    # Every file above was written in the same second as the index: all 2,000
    # entries are "racy" (git cannot trust their times and compares contents on
    # every status). A working copy is not like that a second later, once any git
    # command has refreshed the index: do what `git status` does.
    time.sleep(1.1)
    git(repo, "update-index", "-q", "--really-refresh")


def main():
    cairn, synth, out = sys.argv[1], sys.argv[2], Path(sys.argv[3]).resolve()
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 100
    notes = sys.argv[5] if len(sys.argv) > 5 else "2000"
    if out.exists():
        shutil.rmtree(out)
    subprocess.run([synth, str(out), "--notes", notes], check=True, stdout=subprocess.DEVNULL)
    repo = out / "repos/ledger"
    t = time.perf_counter()
    make_repo(repo)
    print(f"reference repository: {COMMITS + 3} commits over {FILES} files "
          f"in {time.perf_counter() - t:.1f} s", file=sys.stderr)
    config = str(out / "cairn.toml")
    index = str(out / "index")
    quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=repo)
    t = time.perf_counter()
    subprocess.run([cairn, "index", "--config", config, "--index-dir", index], check=True)
    print(f"cairn index (notes and git history): {time.perf_counter() - t:.1f} s", file=sys.stderr)
    # cairn trusts its untracked-files cache only for folders last changed more
    # than 2 s (whole seconds) before it walked them; a session starts on a
    # working tree that has settled for longer than that. Wait it out, so that
    # the warm runs below write the cache and the timed runs are warm.
    settled = repo.stat().st_mtime
    for p in repo.rglob("*"):
        if p.is_dir() and ".git" not in p.parts:
            settled = max(settled, p.stat().st_mtime)
    time.sleep(max(0.0, settled + 3.5 - time.time()))
    stdin = json.dumps({"cwd": str(repo), "source": "startup"}).encode()
    base = [cairn, "hook", "session-start", "--client", "claude", "--config", config,
            "--index-dir", index, "--deadline-ms", "5000"]
    cases = {"derive": base, "no-derive": [*base, "--no-derive"]}
    # Check the derived task is really there, then warm both.
    shown = subprocess.run(base, input=stdin, capture_output=True, check=True,
                           cwd=repo).stdout.decode()
    if "derived from git" not in shown:
        sys.exit("the hook's packet has no derived task: check the repository and the config")
    for cmd in cases.values():
        for _ in range(3):
            subprocess.run(cmd, input=stdin, **quiet)
    times = {k: [] for k in cases}
    # CPU time (user + system) of each run too: on a shared machine it moves less
    # with the load than the wall time does.
    cpu = {k: [] for k in cases}
    for _ in range(runs):
        for k, cmd in cases.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            subprocess.run(cmd, input=stdin, **quiet)
            times[k].append((time.perf_counter() - t) * 1000)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            used = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            cpu[k].append(used * 1000)
    med = {k: statistics.median(v) for k, v in times.items()}
    cpu_med = {k: statistics.median(v) for k, v in cpu.items()}
    for k, v in med.items():
        print(f"{k:10s} median {v:7.1f} ms (p90 {sorted(times[k])[int(runs * 0.9) - 1]:.1f}), "
              f"CPU {cpu_med[k]:.1f} ms")
    low, high = paired_interval(times["derive"], times["no-derive"])
    print(f"derive/no-derive: {med['derive'] / med['no-derive']:.2f} (goal <= 1.30; "
          f"95% interval {low:.2f}-{high:.2f} over {runs} run pairs); "
          f"CPU {cpu_med['derive'] / cpu_med['no-derive']:.2f}")
    # What deriving adds, in time: the ratio shrinks when only the derived hook
    # gets faster and grows when both do, this does not.
    added = statistics.median(d - n for d, n in zip(times["derive"], times["no-derive"]))
    print(f"deriving adds {added:.1f} ms (median of the run pairs' differences), "
          f"CPU {cpu_med['derive'] - cpu_med['no-derive']:.1f} ms")
    # For scale, after the pairs: git's own status of the same working tree
    # (without optional locks, so that it leaves the index, and the caches
    # keyed on it, as they were).
    status = ["git", "--no-optional-locks", "status", "--porcelain"]
    for _ in range(3):
        subprocess.run(status, **quiet)
    took = []
    for _ in range(max(10, runs // 2)):
        t = time.perf_counter()
        subprocess.run(status, **quiet)
        took.append((time.perf_counter() - t) * 1000)
    print(f"for scale: `git status --porcelain` in the same repository: median "
          f"{statistics.median(took):.1f} ms; deriving adds "
          f"{added / statistics.median(took):.2f}x that")
    # Where the time goes inside each hook, after the pairs (so that printing
    # it never weighs on them): the phases `CAIRN_TIMINGS=1` prints, medians.
    print_phases(cases, stdin, repo, max(10, runs // 5))


def print_phases(cases, stdin, repo, runs):
    """Median in-process phases of each case over RUNS interleaved runs."""
    env = dict(os.environ, CAIRN_TIMINGS="1")
    phases = {k: {} for k in cases}
    for _ in range(runs):
        for k, cmd in cases.items():
            err = subprocess.run(cmd, input=stdin, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, cwd=repo, env=env).stderr.decode()
            line = next((l for l in err.splitlines() if "timings:" in l), "")
            for name, ms in re.findall(r"([a-z][a-z ()'-]*?) ([0-9.]+) ms", line.split("timings:")[-1]):
                phases[k].setdefault(name.strip(), []).append(float(ms))
    names = list(phases["derive"]) or list(phases["no-derive"])
    print(f"inside the hook (CAIRN_TIMINGS, medians of {runs} runs each, ms):")
    print(f"  {'phase':28s} {'derive':>8s} {'no-derive':>10s}")
    for name in names:
        d, n = (statistics.median(phases[k].get(name, [0.0])) for k in ("derive", "no-derive"))
        print(f"  {name:28s} {d:8.2f} {n:10.2f}")


def paired_interval(a, b, rounds=2000):
    """95% interval of median(a) / median(b), resampling run pairs (seeded)."""
    rng = random.Random(0)
    n = len(a)
    ratios = []
    for _ in range(rounds):
        pick = [rng.randrange(n) for _ in range(n)]
        ratios.append(statistics.median(a[i] for i in pick) / statistics.median(b[i] for i in pick))
    ratios.sort()
    return ratios[int(0.025 * rounds)], ratios[int(0.975 * rounds) - 1]


if __name__ == "__main__":
    main()
