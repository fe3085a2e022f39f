#!/usr/bin/env bash
# Times `gateway-migrate plan` on a synthetic repository next to `rg -l '^kind:'` over the same
# tree, and prints a Markdown table row for BENCHMARKS.md: wall time, files/s, MB/s, peak RSS.
#
#   bash bench/run.sh [FILES] [JOBS]       (defaults: 20000 files, 2 jobs)
#
# Needs ripgrep, GNU time and hyperfine (Debian packages); installs them when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
files=${1:-20000}
jobs=${2:-2}
out=bench/out
repo=$out/repo-$files

missing=()
command -v rg >/dev/null || missing+=(ripgrep)
command -v hyperfine >/dev/null || missing+=(hyperfine)
test -x /usr/bin/time || missing+=(time)
if [ ${#missing[@]} -gt 0 ]; then apt-get update -qq && apt-get install -y -qq "${missing[@]}"; fi

[ -d "$repo" ] || python3 bench/gen_repo.py "$repo" --files "$files"
cargo build --release --quiet
bin=target/release/gateway-migrate
bytes=$(find "$repo" -type f -name '*.yaml' -printf '%s\n' | awk '{s+=$1} END {print s}')
nfiles=$(find "$repo" -type f -name '*.yaml' | wc -l)

# Warm the page cache so both tools read from memory.
cat $(find "$repo" -type f | head -100000) >/dev/null

hyperfine --warmup 1 --runs 5 --export-json $out/hyperfine.json \
  -n "rg -l '^kind:'" "rg -l '^kind:' $repo >/dev/null" \
  -n "gateway-migrate plan -j $jobs" "$bin plan -j $jobs --format json $repo >/dev/null || true" >&2

rss_kb() { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -1; }
plan_rss=$(rss_kb sh -c "$bin plan -j $jobs --format json $repo >/dev/null || true")
rg_rss=$(rss_kb rg -l '^kind:' "$repo")

python3 - "$out/hyperfine.json" "$nfiles" "$bytes" "$plan_rss" "$rg_rss" <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))["results"]
nfiles, nbytes, plan_rss, rg_rss = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
rg, plan = res[0]["mean"], res[1]["mean"]
print("| tool | mean wall (s) | files/s | MB/s | peak RSS (MB) |")
print("|---|---|---|---|---|")
for name, t, rss in (("rg -l '^kind:'", rg, rg_rss), (res[1]["command"], plan, plan_rss)):
    print(f"| {name} | {t:.3f} | {nfiles / t:,.0f} | {nbytes / t / 1e6:.1f} | {rss / 1024:.1f} |")
print(f"\nplan / rg = {plan / rg:.2f}x over {nfiles} files, {nbytes / 1e6:.1f} MB")
PY
