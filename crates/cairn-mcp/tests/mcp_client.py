"""Drive `cairn mcp` with the official MCP Python SDK (PyPI `mcp`), a client nobody
here wrote.

    python3 mcp_client.py --bin CAIRN --config DEMO/cairn.toml --cwd DEMO/repos/ledger
        test mode (default): initialize, list tools, call each tool, check policy on the
        demo vault's canaries, edit the vault mid-session and see the edit; exit 1 on
        the first failed check. Prints a JSON report on stdout.
    python3 mcp_client.py --bin CAIRN --vault DIR --mode bench --repeat 20
        bench mode: per-call latency of each tool (median and max, milliseconds).

Run by crates/cairn-cli/tests/mcp_python.rs; works with mcp 1.x and 2.x.
"""

import argparse
import asyncio
import json
import os
import statistics
import sys
import time

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

TOOLS = {"memory_wakeup", "memory_search", "memory_get", "memory_explain", "memory_list",
         "memory_write", "memory_pin"}
# (readOnlyHint, destructiveHint, idempotentHint) of the tools that write.
WRITE_HINTS = {"memory_write": (False, True, False), "memory_pin": (False, False, True)}
CANARIES = [
    "CANARY-SECRET-LEDGER-PG4",
    "CANARY-SECRET-HEARTH-7Q2",
    "CANARY-CONFIDENTIAL-LEDGER-NW9",
    "CANARY-CONFIDENTIAL-PEOPLE-3KD",
    "AKIAIOSFODNN7EXAMPLE",
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "CANARY-PW",
    "ghp_Fak3CanaryT0kenForCairnDemoOnly9x2Q7",
    "CANARY-URLPW",
    "FakeCanarySlackTok3nDemo",
    "Production database access",
    "Break-glass access",
]


def field(obj, snake, camel):
    """mcp 2.x exposes snake_case attributes, 1.x camelCase."""
    if hasattr(obj, snake):
        return getattr(obj, snake)
    return getattr(obj, camel, None)


class Failure(Exception):
    pass


def check(cond, message):
    if not cond:
        raise Failure(message)


class Recorder:
    def __init__(self, session):
        self.session = session
        self.transcript = []
        self.latency = {}

    async def call(self, name, args, expect_error=False):
        start = time.perf_counter()
        result = await self.session.call_tool(name, arguments=args)
        ms = (time.perf_counter() - start) * 1000.0
        self.latency.setdefault(name, []).append(ms)
        text = "".join(getattr(c, "text", "") for c in result.content)
        structured = field(result, "structured_content", "structuredContent")
        is_error = bool(field(result, "is_error", "isError"))
        self.transcript.append({"tool": name, "args": args, "text": text, "structured": structured})
        if expect_error:
            check(is_error, f"{name} {args}: expected a tool error, got: {text[:300]}")
        else:
            check(not is_error, f"{name} {args}: tool error: {text[:500]}")
            check(text.strip(), f"{name}: no human-readable text")
            check(structured is not None, f"{name}: no structured content")
        return text, structured


def check_schema(tool):
    schema = field(tool, "input_schema", "inputSchema")
    check(schema.get("type") == "object", f"{tool.name}: schema is not an object")
    required = set(schema.get("required", []))
    for name, prop in schema.get("properties", {}).items():
        types = prop.get("type")
        types = types if isinstance(types, list) else [types]
        check("object" not in types and "$ref" not in prop, f"{tool.name}.{name}: not flat: {prop}")
        if "array" in types:
            items = prop.get("items", {})
            check(items.get("type") == "string", f"{tool.name}.{name}: array of non-strings")
        if name not in required:
            check("null" in types, f"{tool.name}.{name}: optional but not nullable: {prop}")
        check(prop.get("description"), f"{tool.name}.{name}: no description")
    ann = tool.annotations
    check(ann is not None, f"{tool.name}: no annotations")
    ro, destructive, idempotent = WRITE_HINTS.get(tool.name, (True, False, True))
    check(field(ann, "read_only_hint", "readOnlyHint") is ro, f"{tool.name}: readOnlyHint")
    check(field(ann, "destructive_hint", "destructiveHint") is destructive, f"{tool.name}: destructiveHint")
    check(field(ann, "idempotent_hint", "idempotentHint") is idempotent, f"{tool.name}: idempotentHint")
    check(field(ann, "open_world_hint", "openWorldHint") is False, f"{tool.name}: openWorldHint")


async def run_tests(rec, args, init, tools):
    server_info = field(init, "server_info", "serverInfo")
    check(server_info.name == "cairn", f"server name {server_info.name}")
    check(field(init.capabilities, "tools", "tools") is not None, "no tools capability")
    names = {t.name for t in tools}
    check(names == TOOLS, f"tools {sorted(names)}")
    for t in tools:
        check_schema(t)

    ledger = args.cwd
    vault = os.path.join(os.path.dirname(args.config), "vault")

    # memory_wakeup: the briefing as text, the wakeup.v1 packet as structured content.
    text, packet = await rec.call(
        "memory_wakeup",
        {"cwd": ledger, "task": "add retry to payout settlement", "target": "claude"},
    )
    check(text.startswith("<cairn-memory"), f"wakeup text: {text[:200]}")
    check(packet["version"] == "wakeup.v1", "packet version")
    check(packet["identity"]["project"]["id"] == "ledger", "wakeup not routed to ledger")
    decisions = [d["path"] for d in packet["decisions"]]
    check(any("ADR-008" in p for p in decisions), f"ADR-008 not in decisions: {decisions}")
    check(not any("ADR-003" in p for p in decisions), "superseded ADR-003 presented as current")
    # Optional fields sent as null are "not given".
    await rec.call("memory_wakeup", {"cwd": ledger, "task": None, "files": None, "profile": None,
                                     "target": None, "budget": None, "format": "markdown"})
    await rec.call("memory_wakeup", {"cwd": ledger, "target": "nonsense"}, expect_error=True)

    # memory_search, with and without filters.
    text, res = await rec.call("memory_search", {"query": "payout retry backoff", "cwd": ledger})
    paths = [h["path"] for h in res["hits"]]
    check(any("ADR-008" in p for p in paths), f"search misses ADR-008: {paths}")
    _, res = await rec.call("memory_search", {"query": "payout retry", "cwd": ledger, "types": ["incident"]})
    check(res["hits"] and all(h["memory_type"] == "incident" for h in res["hits"]), f"type filter: {res['hits']}")
    _, res = await rec.call("memory_search", {"query": "database access production", "all": True, "limit": 50})
    check(all("Production database access" not in h["title"] for h in res["hits"]), "secret note in search")

    # memory_get: a note, a line range, and the policy cases.
    adr = "10-Projects/ledger/Decisions/ADR-008 Retry payouts with capped exponential backoff.md"
    text, note = await rec.call("memory_get", {"id": adr})
    check("backoff" in text.lower(), "get text")
    text, note = await rec.call("memory_get", {"id": adr, "start_line": 2, "end_line": 4})
    check(len(text.strip("\n").split("\n")) == 3, f"line range gave {text!r}")
    # A secret note is a missing note to an agent, by its path as by its title.
    for name in ["10-Projects/ledger/Production database access.md", "Production database access"]:
        text, _ = await rec.call("memory_get", {"id": name}, expect_error=True)
        check(text == f"no note `{name}` in the vault", f"secret get: {text}")
    text, note = await rec.call("memory_get", {"id": "10-Projects/ledger/Vendor contract - Northwind Payments renewal.md"})
    check(note["withheld"] is True and note["content"] == "", "confidential note not withheld")
    text, note = await rec.call("memory_get", {"id": "Restore Postgres from restic"})
    check(note["redactions"] >= 5, f"credentials not redacted: {note['redactions']}")
    await rec.call("memory_get", {"id": "no such note anywhere"}, expect_error=True)

    # memory_explain.
    text, ex = await rec.call("memory_explain", {"cwd": ledger, "task": "add retry to payout settlement"})
    check(ex["project_id"] == "ledger" and ex["candidates"], "explain")
    # The same text as `cairn explain` (one formatter in the engine).
    check(text.startswith("Routing (repo_path):") and "ledger" in text and "Query terms:" in text,
          f"explain text: {text[:200]}")

    # memory_list.
    text, lst = await rec.call("memory_list", {"cwd": ledger, "scope": "project"})
    titles = [n["title"] for n in lst["notes"]]
    check("Ledger overview" in titles, f"list: {titles}")
    check(lst["hidden"] >= 2, f"list hidden count {lst['hidden']}")
    _, lst = await rec.call("memory_list", {"cwd": ledger, "scope": "developer", "memory_type": "preference"})
    check(lst["notes"] and all(n["memory_type"] == "preference" for n in lst["notes"]), "list type filter")

    # An edit made during the session is visible to the next call.
    new_note = os.path.join(vault, "10-Projects", "ledger", "Decisions", "ADR-009 Settlement file protocol.md")
    with open(new_note, "w", encoding="utf-8") as f:
        f.write("---\ntitle: ADR-009 Quokkafrost settlement ledger\nmemory_type: decision\n---\n"
                "We adopt the quokkafrost protocol for settlement files.\n")
    _, res = await rec.call("memory_search", {"query": "quokkafrost", "cwd": ledger})
    check([h for h in res["hits"] if "ADR-009" in h["path"]], f"new note not seen: {res['hits']}")
    with open(new_note, "w", encoding="utf-8") as f:
        f.write("---\ntitle: ADR-009 Zebrastripe settlement ledger\nmemory_type: decision\n---\n"
                "We adopt the zebrastripe protocol for settlement files.\n")
    _, res = await rec.call("memory_search", {"query": "zebrastripe", "cwd": ledger})
    check([h for h in res["hits"] if "ADR-009" in h["path"]], "edited note not seen")
    _, res = await rec.call("memory_search", {"query": "quokkafrost", "cwd": ledger})
    check(not res["hits"], f"stale text still found: {res['hits']}")
    os.remove(new_note)
    _, res = await rec.call("memory_search", {"query": "zebrastripe", "cwd": ledger})
    check(not res["hits"], "deleted note still found")

    # memory_write / memory_pin: the write path's rules, and the next call sees the note.
    body = "Settlement files are signed with the wombatline key before upload."
    text, out = await rec.call("memory_write", {"slug": "settlement-file-signing", "body": body,
                                                "memory_type": "constraint", "cwd": ledger,
                                                "description": "Sign settlement files", "scope": None})
    check(text.startswith("created "), f"write: {text}")
    _, res = await rec.call("memory_search", {"query": "wombatline", "cwd": ledger})
    check([h for h in res["hits"] if "settlement-file-signing" in h["path"]], f"written note not seen: {res['hits']}")
    text, _ = await rec.call("memory_write", {"slug": "settlement-file-signing", "body": "other",
                                              "cwd": ledger}, expect_error=True)
    check(text.startswith("refused"), f"collision: {text}")
    text, _ = await rec.call("memory_write", {"slug": "leak", "cwd": ledger,
                                              "body": "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},
                             expect_error=True)
    check(text.startswith("refused"), f"secret write: {text}")
    text, _ = await rec.call("memory_pin", {"slug": "settlement-file-signing", "cwd": ledger})
    text, note = await rec.call("memory_get", {"id": "settlement-file-signing"})
    check("pinned: true" in text, f"pin not written: {text}")

    # No output may carry a canary; a refusal may echo what the client itself asked for.
    for t in rec.transcript:
        blob = t["text"] + json.dumps(t["structured"])
        for v in t["args"].values():
            if isinstance(v, str):
                blob = blob.replace(v, "")
        for c in CANARIES:
            check(c not in blob, f"canary leaked by {t['tool']} {t['args']}: {c}")


async def run_bench(rec, args):
    cwd = args.cwd or os.getcwd()
    calls = [
        ("memory_wakeup", {"cwd": cwd, "task": "retry payout settlement backoff"}),
        ("memory_search", {"query": "idempotency retry", "cwd": cwd, "all": True}),
        ("memory_explain", {"cwd": cwd, "task": "retry payout settlement backoff"}),
        ("memory_list", {"cwd": cwd, "limit": 50}),
    ]
    # The first call opens the vault; it is reported separately.
    start = time.perf_counter()
    await rec.call("memory_list", {"cwd": cwd, "limit": 1})
    first = (time.perf_counter() - start) * 1000.0
    rec.latency.clear()
    _, hits = await rec.call("memory_search", {"query": "idempotency retry", "cwd": cwd, "all": True, "limit": 1})
    get_id = hits["hits"][0]["path"] if hits["hits"] else None
    rec.latency.clear()
    for _ in range(args.repeat):
        for name, a in calls:
            await rec.call(name, a)
        if get_id:
            await rec.call("memory_get", {"id": get_id})
    return first


async def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--config")
    ap.add_argument("--vault")
    ap.add_argument("--cwd")
    ap.add_argument("--mode", default="test", choices=["test", "bench"])
    ap.add_argument("--repeat", type=int, default=10)
    args = ap.parse_args()
    source = ["--config", args.config] if args.config else ["--vault", args.vault]
    params = StdioServerParameters(command=args.bin, args=["mcp", *source], cwd=args.cwd or os.getcwd())
    report = {"mode": args.mode}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            start = time.perf_counter()
            init = await session.initialize()
            report["initialize_ms"] = round((time.perf_counter() - start) * 1000.0, 1)
            tools = (await session.list_tools()).tools
            rec = Recorder(session)
            try:
                if args.mode == "test":
                    await run_tests(rec, args, init, tools)
                else:
                    report["first_call_ms"] = round(await run_bench(rec, args), 1)
            except Failure as e:
                report["failure"] = str(e)
            report["calls"] = len(rec.transcript)
            report["latency_ms"] = {
                k: {"median": round(statistics.median(v), 2), "max": round(max(v), 2), "n": len(v)}
                for k, v in sorted(rec.latency.items())
            }
            report["transcript"] = rec.transcript if args.mode == "test" else []
    print(json.dumps(report))
    if "failure" in report:
        print(f"FAILED: {report['failure']}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    asyncio.run(main())
