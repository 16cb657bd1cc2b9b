"""Session-start hook latency: runs the real hook like a client does (payload on stdin,
wall time to exit) and reports which build answered.

    python3 bench_hook.py BIN CONFIG CWD [--runs 15] [--deadline-ms 600] [--client claude]
"""

import json
import statistics
import subprocess
import sys
import time


def main():
    bin_, config, cwd = sys.argv[1:4]
    opt = lambda name, default: sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default
    runs = int(opt("--runs", "15"))
    deadline = opt("--deadline-ms", "600")
    client = opt("--client", "claude")
    payload = json.dumps({"session_id": "bench", "cwd": cwd, "hook_event_name": "SessionStart", "source": "startup"})
    times, paths, chars = [], {}, []
    for _ in range(runs):
        start = time.perf_counter()
        out = subprocess.run(
            [bin_, "hook", "session-start", "--client", client, "--config", config, "--deadline-ms", deadline],
            input=payload.encode(), capture_output=True,
        )
        times.append((time.perf_counter() - start) * 1000.0)
        assert out.returncode == 0, out.stderr
        env = json.loads(out.stdout)
        ctx = env["hookSpecificOutput"]["additionalContext"] if "hookSpecificOutput" in env else env["additional_context"]
        path = "full" if ctx.startswith("<cairn-memory") else "quick" if ctx.startswith("(cairn:") else "notice"
        paths[path] = paths.get(path, 0) + 1
        chars.append(len(ctx))
    print(json.dumps({
        "runs": runs, "deadline_ms": int(deadline),
        "median_ms": round(statistics.median(times), 1), "max_ms": round(max(times), 1),
        "answered_by": paths, "context_chars": statistics.median(chars),
    }))


if __name__ == "__main__":
    main()
