#!/usr/bin/env bash
# Whole-process timings of the persistent index (docs/BENCHMARKS.md, "Persistent index").
#
#   scripts/bench_index.sh WORKDIR [SPOOL_BIN]
#
# Builds release binaries, writes synthetic vaults (cairn-synth, seed 42, ~3 KB notes)
# into WORKDIR, and runs hyperfine (median of several runs) for each case; peak RSS
# comes from /usr/bin/time. SPOOL_BIN (optional) is spool-memory 0.2.4's `spool`.
set -euo pipefail
WORK=${1:?usage: bench_index.sh WORKDIR [SPOOL_BIN]}
SPOOL=${2:-}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cargo build --release -p cairn-cli -p cairn-synth --manifest-path "$ROOT/Cargo.toml" >&2
BIN=${CARGO_TARGET_DIR:-$ROOT/target}/release
CAIRN=$BIN/cairn
SYNTH=$BIN/cairn-synth
mkdir -p "$WORK"
TASK='fix payout retry idempotency'

vault() { # name notes
  [ -d "$WORK/$1/vault" ] || "$SYNTH" "$WORK/$1" --notes "$2" >&2
}
wake() { # name -> command string
  echo "$CAIRN wakeup --config $WORK/$1/cairn.toml --cwd $WORK/$1/repos/ledger --task '$TASK' --format prompt --index-dir $WORK/$1.idx"
}
rss() { # command...
  /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -1
}

for v in v2k:2000 v20k:20000 v100k:100000; do vault "${v%%:*}" "${v##*:}"; done

echo "== cold, 20k (index deleted before each run)"
hyperfine -N --runs 5 --prepare "rm -rf $WORK/v20k.idx" "$(wake v20k)" --export-json "$WORK/cold20k.json"

for v in v2k v20k v100k; do
  eval "$(wake $v)" >/dev/null   # build the index, then settle
  sleep 3
  eval "$(wake $v)" >/dev/null
  echo "== warm, $v"
  hyperfine -N --warmup 3 --runs 20 "$(wake $v)" --export-json "$WORK/warm-$v.json"
  echo "peak RSS (KB): $(rss sh -c "$(wake $v)")"
done

echo "== 20k, 10 notes edited before each run"
echo 1000 > "$WORK/seed"
hyperfine -N --warmup 1 --runs 20 \
  --prepare "sh -c 's=\$(cat $WORK/seed); echo \$((s+1)) > $WORK/seed; $SYNTH $WORK/v20k --edit 10 --seed \$s'" \
  "$(wake v20k)" --export-json "$WORK/edit10.json"

if [ -n "$SPOOL" ]; then
  for v in v2k v20k; do
    # spool refuses vaults over 5,000 files by default: raise its limits.
    sed 's/^root = "vault"$/root = "vault"\n\n[vault.limits]\nmax_files = 500000\nmax_file_bytes = 1048576\nmax_total_bytes = 4294967296\nmax_depth = 32/' \
      "$WORK/$v/cairn.toml" > "$WORK/$v/spool.toml"
    cmd="$SPOOL wakeup --config $WORK/$v/spool.toml --cwd $WORK/$v/repos/ledger --task '$TASK' --profile project --format prompt"
    echo "== spool-memory 0.2.4, $v"
    hyperfine -N --warmup 1 --runs 5 "$cmd" --export-json "$WORK/spool-$v.json"
    echo "peak RSS (KB): $(rss sh -c "$cmd")"
  done
fi
