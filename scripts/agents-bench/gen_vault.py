"""A tiny deterministic vault generator for measuring hook and MCP latency.

    python3 gen_vault.py OUT_DIR NOTES [--seed 7]

Writes OUT_DIR/cairn.toml, OUT_DIR/vault (NOTES notes, about 3 KB each: ~60 MB at 20k)
and OUT_DIR/repos/p00..p09 (repo stand-ins to route from). Ten projects share the
notes; 00-Identity and 30-Workflows hold the developer's notes. Same seed, same bytes.
Only for measuring this branch's integrations; the project's official generator lives
elsewhere.
"""

import os
import random
import sys

WORDS = (
    "ledger payout retry backoff idempotency settlement journal posting balance migration "
    "kafka consumer offset lag schema index vacuum lock deploy rollout canary flag cache "
    "eviction latency budget tracing span metric alert pager incident runbook restore "
    "backup snapshot terraform module cluster node ingress certificate token session "
    "auth oauth scope tenant quota shard replica leader election timeout deadline queue "
    "batch window cutoff reconciliation drift timezone currency rounding decimal invoice"
).split()
TYPES = ["decision", "constraint", "incident", "pattern", "reference", "project", "session"]


def sentence(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def note(rng, title, memory_type, extra=""):
    body = "\n\n".join(" ".join(sentence(rng, rng.randint(8, 16)) for _ in range(4)) for _ in range(6))
    return (
        f"---\ntitle: {title}\nmemory_type: {memory_type}\n"
        f"description: {sentence(rng, 14)}\nupdated: 2026-{rng.randint(1, 11):02d}-{rng.randint(1, 28):02d}\n"
        f"{extra}---\n# {title}\n\n{body}\n"
    )


def main():
    out, count = sys.argv[1], int(sys.argv[2])
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 7
    rng = random.Random(seed)
    vault = os.path.join(out, "vault")
    projects = [f"p{i:02d}" for i in range(10)]
    os.makedirs(os.path.join(vault, "00-Identity"), exist_ok=True)
    os.makedirs(os.path.join(vault, "30-Workflows"), exist_ok=True)
    with open(os.path.join(vault, "00-Identity", "Developer.md"), "w") as f:
        f.write(note(rng, "Developer", "person", "scope: user\npinned: true\n"))
    for i in range(12):
        with open(os.path.join(vault, "00-Identity", f"Preference {i:02d}.md"), "w") as f:
            f.write(note(rng, f"Preference {i:02d} {rng.choice(WORDS)}", "preference"))
    for i in range(8):
        with open(os.path.join(vault, "30-Workflows", f"Workflow {i:02d}.md"), "w") as f:
            f.write(note(rng, f"Workflow {i:02d} {rng.choice(WORDS)}", "workflow"))
    written = 21
    i = 0
    while written < count:
        p = projects[i % len(projects)]
        kind = TYPES[rng.randrange(len(TYPES))]
        folder = os.path.join(vault, "10-Projects", p, kind.capitalize() + "s")
        os.makedirs(folder, exist_ok=True)
        title = f"{p} {kind} {i:05d} {rng.choice(WORDS)} {rng.choice(WORDS)}"
        with open(os.path.join(folder, f"{title}.md"), "w") as f:
            f.write(note(rng, title, kind, f"project_id: {p}\n"))
        written += 1
        i += 1
    lines = [
        '[vault]\nroot = "vault"\n\n[vault.limits]\nmax_files = 200000\n',
        '[developer]\nnote_roots = ["00-Identity", "30-Workflows"]\n',
    ]
    for p in projects:
        os.makedirs(os.path.join(out, "repos", p), exist_ok=True)
        lines.append(
            f'[[projects]]\nid = "{p}"\nname = "Project {p}"\nrepo_paths = ["repos/{p}"]\n'
            f'note_roots = ["10-Projects/{p}"]\n'
        )
    with open(os.path.join(out, "cairn.toml"), "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
