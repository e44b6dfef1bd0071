#!/usr/bin/env bash
# The issue-16 figures: sharding's overhead and merging's cost.
#
#   scripts/bench-shards.sh [--no-slurm]
#
# 1. 5,000 SRT files (the benchmark batch), fake model, --jobs 1: one run against
#    4 shards run one after another plus merge (hyperfine, 5 runs each), and the
#    outputs compared with diff -r.
# 2. The same 4 shards as `sbatch --array=0-3 --wait` on a one-node Slurm
#    (scripts/slurm-e2e.sh --input, 3 runs; needs root). --no-slurm skips it.
# 3. merge alone over the parts of 10,000 and 100,000 small files: wall time
#    (hyperfine, --keep-parts so it can repeat) and peak memory (GNU time).
#
# Corpora on tmpfs, made with ../shared/bench/gen_corpus.py when missing:
# C5K (default /dev/shm/wt16-c5k), C100K (default /dev/shm/wt16-c100k).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SHARED=${SHARED:-$ROOT/../shared}
C5K=${C5K:-/dev/shm/wt16-c5k}
C100K=${C100K:-/dev/shm/wt16-c100k}
SLURM=1
[ "${1:-}" = --no-slurm ] && SLURM=0
[ -f "$C5K/MANIFEST.txt" ] || python3 "$SHARED/bench/gen_corpus.py" -n 10 -m 5000 --subset 0 "$C5K" >/dev/null
[ -f "$C100K/MANIFEST.txt" ] || python3 "$SHARED/bench/gen_corpus.py" -n 10 -m 100000 --min-cues 5 --max-cues 15 --subset 0 "$C100K" >/dev/null
swift build -c release --product caption-assistant >/dev/null
BIN=$ROOT/.build/release/caption-assistant
WORK=$(mktemp -d /dev/shm/bench-shards.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
export BIN WORK C5K

echo "# Issue 16: shards and merge ($(date -u +%Y-%m-%dT%H:%MZ))"
echo "Machine: $(nproc) cores, load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "## 1. 5,000 files: one run against 4 shards one after another, then merge"
hyperfine -N -i --runs 10 --warmup 1 --export-markdown "$WORK/h1.md" --export-json "$WORK/h1.json" \
    --prepare "rm -rf $WORK/out" \
    -n "one run" "$BIN process $C5K/batch -o $WORK/out -test-fake-assistant --quiet --jobs 1" \
    -n "4 shards + merge" "bash -c 'for i in 0 1 2 3; do \$BIN process \$C5K/batch -o \$WORK/out -test-fake-assistant --quiet --jobs 1 --shard \$i/4; done; \$BIN merge \$WORK/out --quiet'" \
    >/dev/null
cat "$WORK/h1.md"
python3 - "$WORK/h1.json" <<'PY'
import json, statistics, sys
r = json.load(open(sys.argv[1]))["results"]
one, four = r[0], r[1]
cpu = lambda x: statistics.mean(u + s for u, s in zip(x["user"], x["system"])) if "user" in x and isinstance(x["user"], list) else x["user"] + x["system"]
w1, w4 = statistics.median(one["times"]), statistics.median(four["times"])
c1 = one["user"] + one["system"]; c4 = four["user"] + four["system"]
print()
print("Median wall: one run %.3f s, 4 shards + merge %.3f s: +%.1f %%. Mean CPU (user + system): %.3f s against %.3f s: +%.1f %%." % (w1, w4, 100 * (w4 / w1 - 1), c1, c4, 100 * (c4 / c1 - 1)))
PY
echo
echo "The same with a model that takes 1 ms per answer (-test-fake-assistant-delay 1), 3 runs each:"
hyperfine -N -i --runs 3 --export-markdown "$WORK/h2.md" \
    --prepare "rm -rf $WORK/out" \
    -n "one run, 1 ms model" "$BIN process $C5K/batch -o $WORK/out -test-fake-assistant-delay 1 --quiet --jobs 1" \
    -n "4 shards + merge, 1 ms model" "bash -c 'for i in 0 1 2 3; do \$BIN process \$C5K/batch -o \$WORK/out -test-fake-assistant-delay 1 --quiet --jobs 1 --shard \$i/4; done; \$BIN merge \$WORK/out --quiet'" \
    >/dev/null
cat "$WORK/h2.md"
rm -rf "$WORK/one" "$WORK/four"
"$BIN" process "$C5K/batch" -o "$WORK/one" -test-fake-assistant --quiet --jobs 1 || true
for i in 0 1 2 3; do "$BIN" process "$C5K/batch" -o "$WORK/four" -test-fake-assistant --quiet --jobs 1 --shard $i/4 --json | grep -A4 '"shard"' | tr -d ' \n'; echo; done
"$BIN" merge "$WORK/four" --quiet || true
diff -r "$WORK/one" "$WORK/four" && echo "diff -r: one run and 4 shards + merge are byte for byte the same ($(find "$WORK/one" -type f | wc -l) files)"
rm -rf "$WORK/one" "$WORK/four"
echo

if [ $SLURM = 1 ]; then
    echo "## 2. The same as sbatch --array=0-3 --wait (one node, $(nproc) CPUs, one CPU per task)"
    CAPTION_ASSISTANT=$BIN bash scripts/slurm-e2e.sh --input "$C5K/batch" --runs 3 2>&1 | grep -E '^slurm-e2e: (one run|run|OK)'
    echo
fi

echo "## 3. merge alone: parts of 10,000 and of 100,000 files"
echo "| Command | Mean [s] | Min [s] | Max [s] | Relative |"
echo "|:---|---:|---:|---:|---:|"
mkdir -p "$WORK/c10k"
find "$C100K/batch" -name '*.srt' | sort | awk 'NR <= 10000' | xargs cp -t "$WORK/c10k"
for corpus in "$WORK/c10k" "$C100K/batch"; do
    n=$(find "$corpus" -name '*.srt' | wc -l)
    rm -rf "$WORK/parts"
    for i in 0 1 2 3; do "$BIN" process "$corpus" -o "$WORK/parts" --model none --quiet --jobs 1 --shard $i/4 || true; done
    size=$(du -cb "$WORK"/parts/report.shard-*.json | tail -1 | cut -f1)
    hyperfine -N -i --runs 5 --warmup 1 --export-markdown "$WORK/m.md" -n "merge $n files" "$BIN merge $WORK/parts --keep-parts --quiet" >/dev/null
    tail -n 1 "$WORK/m.md"
    echo
    for _ in 1 2 3; do /usr/bin/time -f "%M" -o "$WORK/peak" "$BIN" merge "$WORK/parts" --keep-parts --quiet || true; cat "$WORK/peak"; done \
        | sort -n | awk -v n="$n" -v s="$size" '{a[NR]=$1} END {printf "merge %d files (parts %.1f MB): peak RSS %.1f MiB (median of 3)\n", n, s / 1e6, a[2] / 1024}'
    rm -rf "$WORK/parts"
done
