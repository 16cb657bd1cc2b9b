#!/usr/bin/env bash
# Hook and MCP latency on the demo vault and on generated 2k and 20k vaults.
#   cargo build --release -p cairn-cli && scripts/agents-bench/run.sh [BIN]
# Needs python3 with `mcp` (pip install mcp) for the MCP part.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
BIN="$(realpath "${1:-${CARGO_TARGET_DIR:-$root/target}/release/cairn}")"
WORK="$(mktemp -d)"
export XDG_CACHE_HOME="$WORK/cache"   # the persistent index, out of ~/.cache
trap 'rm -rf "$WORK"' EXIT
cp -r "$root/fixtures/demo" "$WORK/demo"
python3 "$here/gen_vault.py" "$WORK/v2k" 2000
python3 "$here/gen_vault.py" "$WORK/v20k" 20000
du -sh "$WORK/v2k/vault" "$WORK/v20k/vault"

for v in demo v2k v20k; do
  cwd="$WORK/$v/repos/$( [ $v = demo ] && echo ledger || echo p03 )"
  echo "== hook, $v (default deadline)"
  python3 "$here/bench_hook.py" "$BIN" "$WORK/$v/cairn.toml" "$cwd" --runs 15
  echo "== hook, $v (deadline 5000 ms: time to the full packet)"
  python3 "$here/bench_hook.py" "$BIN" "$WORK/$v/cairn.toml" "$cwd" --runs 5 --deadline-ms 5000
  echo "== mcp, $v (per call, after the first)"
  python3 "$root/crates/cairn-mcp/tests/mcp_client.py" --bin "$BIN" --config "$WORK/$v/cairn.toml" \
    --cwd "$cwd" --mode bench --repeat 10 | python3 -c 'import json,sys; r=json.load(sys.stdin); r.pop("transcript",None); print(json.dumps(r))'
done
