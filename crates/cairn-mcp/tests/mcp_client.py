"""Drive `cairn mcp` with the official MCP Python SDK (PyPI `mcp`), a client nobody
here wrote.

    python3 mcp_client.py --bin CAIRN --config DEMO/cairn.toml --cwd DEMO/repos/ledger
        test mode (default): initialize, list tools (input and output schemas), call
        each tool (structured content validated against its output schema by the SDK,
        and about as small as the text), page search results, page through and read
        the resources, get the prompts, check policy on the demo vault's canaries
        everywhere, edit the vault mid-session and see the edit; exit 1 on the first
        failed check. Prints a JSON report on stdout.
    python3 mcp_client.py --bin CAIRN --vault DIR --mode bench --repeat 20
        bench mode: per-call latency of each tool (median and max, milliseconds).

Run by crates/cairn-cli/tests/it/mcp_python.rs; works with mcp 1.x and 2.x.
"""

import argparse
import asyncio
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client

TOOLS = {"memory_wakeup", "memory_search", "memory_get", "memory_explain", "memory_list",
         "memory_recent", "memory_write", "memory_pin"}
# Notes added to the vault copy so that resources/list needs more than one page.
PAGING_NOTES = 130
# (readOnlyHint, destructiveHint, idempotentHint) of the tools that write.
WRITE_HINTS = {"memory_write": (False, True, False), "memory_pin": (False, False, True)}
# What the demo vault must never show: one a line, shared with the Rust tests.
CANARIES = [
    line.strip()
    for line in (Path(__file__).resolve().parents[3] / "fixtures/demo/canaries.txt")
    .read_text()
    .splitlines()
    if line.strip()
]
assert len(CANARIES) >= 10, "fixtures/demo/canaries.txt was not read"


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
    out = field(tool, "output_schema", "outputSchema")
    check(out is not None and out.get("type") == "object", f"{tool.name}: no object output schema")
    check("text" in out.get("required", []), f"{tool.name}: output schema lacks a required text")
    ann = tool.annotations
    check(ann is not None, f"{tool.name}: no annotations")
    ro, destructive, idempotent = WRITE_HINTS.get(tool.name, (True, False, True))
    check(field(ann, "read_only_hint", "readOnlyHint") is ro, f"{tool.name}: readOnlyHint")
    check(field(ann, "destructive_hint", "destructiveHint") is destructive, f"{tool.name}: destructiveHint")
    check(field(ann, "idempotent_hint", "idempotentHint") is idempotent, f"{tool.name}: idempotentHint")
    check(field(ann, "open_world_hint", "openWorldHint") is False, f"{tool.name}: openWorldHint")


def size_ratio(text, structured):
    """Bytes of the structured content as JSON over the bytes of the text."""
    return len(json.dumps(structured, ensure_ascii=False, separators=(",", ":")).encode()) / max(1, len(text.encode()))


def resource_text(result):
    return "".join(getattr(c, "text", "") for c in result.contents)


async def run_tests(rec, args, init, tools):
    server_info = field(init, "server_info", "serverInfo")
    check(server_info.name == "cairn", f"server name {server_info.name}")
    caps = init.capabilities
    check(field(caps, "tools", "tools") is not None, "no tools capability")
    resources_cap = field(caps, "resources", "resources")
    prompts_cap = field(caps, "prompts", "prompts")
    check(resources_cap is not None and prompts_cap is not None, "no resources or prompts capability")
    # Exactly what is served: no subscriptions, no change notifications.
    check(not field(resources_cap, "subscribe", "subscribe"), "resources.subscribe declared")
    for cap in (resources_cap, prompts_cap, field(caps, "tools", "tools")):
        check(not field(cap, "list_changed", "listChanged"), "listChanged declared")
    names = {t.name for t in tools}
    check(names == TOOLS, f"tools {sorted(names)}")
    for t in tools:
        check_schema(t)

    ledger = args.cwd
    vault = os.path.join(os.path.dirname(args.config), "vault")

    # memory_wakeup: the briefing as text; structured content repeats it (with the
    # project, the note count and the content hash), about as small as the text.
    text, compact = await rec.call(
        "memory_wakeup",
        {"cwd": ledger, "task": "add retry to payout settlement", "target": "claude"},
    )
    check(text.startswith("<cairn-memory"), f"wakeup text: {text[:200]}")
    check(compact["text"] == text, "structured text is not the text")
    check(set(compact) == {"text", "project_id", "note_count", "content_hash"},
          f"wakeup structured keys {sorted(compact)}")
    check(compact["project_id"] == "ledger" and compact["note_count"] > 3, f"wakeup: {compact['note_count']}")
    ratio = size_ratio(text, compact)
    check(ratio <= 1.2, f"wakeup structured content is {ratio:.2f}x the text")
    # The whole packet only when asked.
    _, full = await rec.call(
        "memory_wakeup",
        {"cwd": ledger, "task": "add retry to payout settlement", "target": "claude", "format": "json"},
    )
    packet = full["packet"]
    check(packet["version"] == "wakeup.v1", "packet version")
    check(packet["content_hash"] == compact["content_hash"], "the packet is the briefing's")
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
    check(any("ADR-008" in i for i in res["ids"]), f"search misses ADR-008: {res['ids']}")
    text, res = await rec.call("memory_search", {"query": "payout retry", "cwd": ledger, "types": ["incident"]})
    hits = [l for l in text.splitlines() if re.match(r"\d+\. ", l)]
    check(res["ids"] and len(hits) == len(res["ids"]) and all("(incident" in l for l in hits),
          f"type filter: {text}")
    # A confidential note shows no tags: a tag filter cannot confirm them.
    contract = "10-Projects/ledger/Vendor contract - Northwind Payments renewal"
    _, res = await rec.call("memory_search", {"query": "Northwind Payments renewal", "all": True})
    check(any(contract in i for i in res["ids"]), f"contract not found by its title: {res['ids']}")
    _, res = await rec.call("memory_search", {"query": "Northwind Payments renewal", "all": True,
                                              "tags": ["vendor"]})
    check(not any(contract in i for i in res["ids"]), f"tag filter confirmed a confidential tag: {res['ids']}")
    text, res = await rec.call("memory_search", {"query": "database access production", "all": True, "limit": 50})
    check("Production database access" not in text, "secret note in search")
    # Paging: two pages of three are the first six of one page of six.
    _, six = await rec.call("memory_search", {"query": "payout retry settlement ledger", "all": True, "limit": 6})
    _, p1 = await rec.call("memory_search", {"query": "payout retry settlement ledger", "all": True, "limit": 3})
    check(p1["more"] is True and p1["next_offset"] == 3, f"first page: {p1['more']} {p1['next_offset']}")
    _, p2 = await rec.call("memory_search", {"query": "payout retry settlement ledger", "all": True, "limit": 3,
                                             "offset": p1["next_offset"]})
    check(p1["ids"] + p2["ids"] == six["ids"] and len(six["ids"]) == 6, "pages differ from one page")
    _, past = await rec.call("memory_search", {"query": "payout retry", "offset": 400, "limit": 5})
    check(past["ids"] == [] and past["more"] is False and past["next_offset"] is None, f"past the end: {past}")

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
    check(note["withheld"] is True and "withheld" in text, "confidential note not withheld")
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
    check("- Ledger overview (" in text, f"list: {text[:500]}")
    check(lst["hidden"] >= 2, f"list hidden count {lst['hidden']}")
    text, lst = await rec.call("memory_list", {"cwd": ledger, "scope": "developer", "memory_type": "preference"})
    lines = [l for l in text.splitlines() if l.startswith("- ")]
    check(lines and len(lines) == lst["count"] and all("(preference" in l for l in lines),
          f"list type filter: {text}")

    # memory_recent: dated notes newest first, the project's and the developer's.
    # "- DATE Title (type) [id]" lines.
    text, recent = await rec.call("memory_recent", {"cwd": ledger, "limit": 5})
    lines = [l for l in text.splitlines() if l.startswith("- ")]
    dates = [l[2:12] for l in lines]
    check(len(dates) == 5 and dates == sorted(dates, reverse=True), f"recent order: {text}")
    check(recent["project_id"] == "ledger" and recent["next_offset"] == 5, f"recent: {recent}")
    check(not any("[10-Projects/atlas" in l for l in lines), "recent not scoped")
    text, later = await rec.call("memory_recent", {"cwd": ledger, "limit": 5, "offset": 5})
    check(not set(l for l in text.splitlines() if l.startswith("- ")) & set(lines), "recent pages overlap")

    await check_resources(rec, args)
    await check_prompts(rec)

    # An edit made during the session is visible to the next call.
    new_note = os.path.join(vault, "10-Projects", "ledger", "Decisions", "ADR-009 Settlement file protocol.md")
    with open(new_note, "w", encoding="utf-8") as f:
        f.write("---\ntitle: ADR-009 Quokkafrost settlement ledger\nmemory_type: decision\n---\n"
                "We adopt the quokkafrost protocol for settlement files.\n")
    _, res = await rec.call("memory_search", {"query": "quokkafrost", "cwd": ledger})
    check([i for i in res["ids"] if "ADR-009" in i], f"new note not seen: {res['ids']}")
    with open(new_note, "w", encoding="utf-8") as f:
        f.write("---\ntitle: ADR-009 Zebrastripe settlement ledger\nmemory_type: decision\n---\n"
                "We adopt the zebrastripe protocol for settlement files.\n")
    _, res = await rec.call("memory_search", {"query": "zebrastripe", "cwd": ledger})
    check([i for i in res["ids"] if "ADR-009" in i], "edited note not seen")
    _, res = await rec.call("memory_search", {"query": "quokkafrost", "cwd": ledger})
    check(not res["ids"], f"stale text still found: {res['ids']}")
    os.remove(new_note)
    _, res = await rec.call("memory_search", {"query": "zebrastripe", "cwd": ledger})
    check(not res["ids"], "deleted note still found")

    # memory_write / memory_pin: the write path's rules, and the next call sees the note.
    body = "Settlement files are signed with the wombatline key before upload."
    text, out = await rec.call("memory_write", {"slug": "settlement-file-signing", "body": body,
                                                "memory_type": "constraint", "cwd": ledger,
                                                "description": "Sign settlement files", "scope": None})
    check(text.startswith("created "), f"write: {text}")
    _, res = await rec.call("memory_search", {"query": "wombatline", "cwd": ledger})
    check([i for i in res["ids"] if "settlement-file-signing" in i], f"written note not seen: {res['ids']}")
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
    # (Resources and prompts are in the transcript too.)
    for t in rec.transcript:
        blob = t["text"] + json.dumps(t["structured"])
        for v in t["args"].values():
            if isinstance(v, str):
                blob = blob.replace(v, "")
        for c in CANARIES:
            check(c not in blob, f"canary leaked by {t['tool']} {t['args']}: {c}")


async def check_resources(rec, args):
    session = rec.session
    templates = (await session.list_resource_templates()).resource_templates
    check([field(t, "uri_template", "uriTemplate") for t in templates] == ["cairn://note/{id}"],
          f"templates: {templates}")
    uris, cursor, pages = [], None, 0
    while True:
        params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
        page = await session.list_resources(params=params)
        pages += 1
        for r in page.resources:
            check(field(r, "mime_type", "mimeType") == "text/markdown", f"mime type of {r.uri}")
            uris.append(str(r.uri))
            rec.transcript.append({"tool": "resources/list", "args": {},
                                   "text": f"{r.uri} {r.name} {r.title} {r.description}", "structured": None})
        cursor = field(page, "next_cursor", "nextCursor")
        if not cursor:
            break
        check(pages < 50, "resources/list never ends")
    check(pages >= 2, f"resources fit one page ({len(uris)}): paging not exercised")
    check(len(uris) == len(set(uris)), "a resource listed twice")
    check(sum("40-Paging/" in u for u in uris) == PAGING_NOTES, "paging notes missing")
    again = await session.list_resources()
    check([str(r.uri) for r in again.resources] == uris[:len(again.resources)], "resources/list order changed")
    adr = [u for u in uris if "ADR-008" in u]
    check(len(adr) == 1, f"ADR-008 resource: {adr}")
    for uri in adr + uris[:20]:
        result = await session.read_resource(uri)
        text = resource_text(result)
        check(text.strip(), f"empty resource {uri}")
        rec.transcript.append({"tool": "resources/read", "args": {}, "text": text, "structured": None})
    check("backoff" in resource_text(await session.read_resource(adr[0])).lower(), "ADR-008 content")
    # Secret, confidential and missing notes: one and the same error.
    messages = set()
    for note_id in ["10-Projects/ledger/Production database access",
                    "10-Projects/hearth/Break-glass access",
                    "10-Projects/ledger/Vendor contract - Northwind Payments renewal",
                    "10-Projects/ledger/No such note at all"]:
        uri = "cairn://note/" + note_id.replace(" ", "%20")
        try:
            await session.read_resource(uri)
            raise Failure(f"read {uri}: expected an error")
        except Failure:
            raise
        except Exception as e:  # McpError
            messages.add(str(e).replace(uri, "URI"))
    check(len(messages) == 1, f"withheld, secret and missing differ: {messages}")


async def check_prompts(rec):
    session = rec.session
    prompts = (await session.list_prompts()).prompts
    check([p.name for p in prompts] == ["wakeup", "recent"], f"prompts: {[p.name for p in prompts]}")
    wakeup = prompts[0]
    check([(a.name, bool(a.required)) for a in wakeup.arguments] == [("task", True), ("files", False)],
          f"wakeup arguments: {wakeup.arguments}")
    got = await session.get_prompt("wakeup", {"task": "add retry to payout settlement"})
    text = "".join(getattr(m.content, "text", "") for m in got.messages)
    check(got.messages[0].role == "user" and "ADR-008" in text, f"wakeup prompt: {text[:300]}")
    rec.transcript.append({"tool": "prompts/get wakeup", "args": {}, "text": text, "structured": None})
    got = await session.get_prompt("recent", {"limit": "3"})
    text = "".join(getattr(m.content, "text", "") for m in got.messages)
    check(len([l for l in text.splitlines() if l.startswith("- ")]) == 3, f"recent prompt: {text}")
    rec.transcript.append({"tool": "prompts/get recent", "args": {}, "text": text, "structured": None})
    try:
        await session.get_prompt("recent", {"limt": "3"})
        raise Failure("a misspelt prompt argument was accepted")
    except Failure:
        raise
    except Exception as e:
        check("limt" in str(e), f"unknown argument error: {e}")


def add_paging_notes(vault):
    folder = os.path.join(vault, "40-Paging")
    os.makedirs(folder, exist_ok=True)
    for i in range(PAGING_NOTES):
        with open(os.path.join(folder, f"Paging note {i:03}.md"), "w", encoding="utf-8") as f:
            f.write(f"---\ntitle: Paging note {i:03}\n---\nFiller about lighthouse keeper number {i}.\n")


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
    get_id = hits["ids"][0] if hits["ids"] else None
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
    if args.mode == "test" and args.config:
        add_paging_notes(os.path.join(os.path.dirname(args.config), "vault"))
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
