#!/usr/bin/env bash
# The issue-8 tables in one run: batch throughput against the peers, a slow
# model, memory as the batch grows, and cost against cues and keywords.
#
#   scripts/bench-scale.sh [--quick] [--with-peers]
#
#   --quick       skip the 1,000,000-cue files and use 1 run where it would use 3
#   --with-peers  afterwards, run scripts/bench-peers.sh (every format case
#                 against Python srt, webvtt-py, pycaption, ttconv and ffmpeg;
#                 pycaption's TTML case alone takes about 90 s)
#
# Environment: SHARED (default ../shared), CAPBENCH_DATA (default
# /dev/shm/capbench-data), SCALE_DATA (default /dev/shm/capbench-scale). Both
# corpora are made with ../shared/bench/gen_corpus.py when missing (same
# arguments, same bytes). Everything is read and written on tmpfs; outputs are
# deleted after each measurement. The Markdown lands in
# capbench-results/scale-<UTC stamp>.md and on standard output.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SHARED=${SHARED:-$ROOT/../shared}
DATA=${CAPBENCH_DATA:-/dev/shm/capbench-data}
SCALE=${SCALE_DATA:-/dev/shm/capbench-scale}
QUICK=0 PEERS=0
for a in "$@"; do
    case $a in
        --quick) QUICK=1 ;;
        --with-peers) PEERS=1 ;;
        *) echo "usage: $0 [--quick] [--with-peers]" >&2; exit 64 ;;
    esac
done
RUNS=$([ $QUICK = 1 ] && echo 1 || echo 3)
SIZES="10000 100000 1000000"; [ $QUICK = 1 ] && SIZES="10000 100000"
# The kit's generator (the corpus BENCHMARKS.md was measured on) when the kit is there, else ours.
GEN="python3 $SHARED/bench/gen_corpus.py"
[ -f "$SHARED/bench/gen_corpus.py" ] || GEN="python3 $ROOT/scripts/gen-corpus.py"

sh "$SHARED/bench/setup.sh" >/dev/null
[ -f "$DATA/MANIFEST.txt" ] || $GEN "$DATA" >/dev/null
for n in $SIZES; do
    [ -f "$SCALE/c$n/MANIFEST.txt" ] || $GEN -n "$n" -m 1 --subset 0 "$SCALE/c$n" >/dev/null
done
[ -f "$SCALE/b10k/MANIFEST.txt" ] || $GEN -n 10 -m 10000 --min-cues 20 --max-cues 60 --subset 0 "$SCALE/b10k" >/dev/null

swift build -c release --product caption-assistant >/dev/null
swift build -c release --product caption-bench >/dev/null
BIN=$ROOT/.build/release/caption-assistant
BENCH=$ROOT/.build/release/caption-bench
WORK=$(mktemp -d /dev/shm/bench-scale.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p capbench-results
OUTMD=$ROOT/capbench-results/scale-$STAMP.md
exec > >(tee "$OUTMD")

# One timed run of a command: prints "wall cpu peakMiB" (GNU time), output deleted after.
timed() {
    local out=$1; shift
    rm -rf "$out"
    /usr/bin/time -f "%e %U %S %M" -o "$WORK/time.txt" "$@" >/dev/null
    rm -rf "$out"
    awk '{printf "%.3f %.3f %.1f\n", $1, $2 + $3, $4 / 1024}' "$WORK/time.txt"
}
# The run with the median wall time of $RUNS.
median_of() {
    local out=$1; shift
    for _ in $(seq "$RUNS"); do timed "$out" "$@"; done | sort -n | awk '{a[NR]=$0} END {print a[int((NR+1)/2)]}'
}

echo "# Issue 8: batch throughput, concurrency and cost growth ($STAMP)"
echo
echo "Machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), $(free -g | awk '/Mem:/ {print $2}') GiB;" \
     "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg); $(swift --version 2>&1 | head -1)."
echo

# 1. Batch throughput, side by side with the peers (hyperfine medians).
echo "## Batch: 5,000 SRT files (47 MB), fake model"
echo
python3 "$SHARED/bench/peers.py" --data "$DATA" --results "$WORK/peers" --only '^batch' \
    --add "batch:ours-jobs1:$BIN process {in} -o {out}.d -test-fake-assistant --quiet --jobs 1" \
    --add "batch:ours-jobs2:$BIN process {in} -o {out}.d -test-fake-assistant --quiet --jobs 2" \
    --add "batch:ours-none-jobs2:$BIN process {in} -o {out}.d --model none --quiet --jobs 2" >"$WORK/peers.log" 2>&1 || true
python3 - "$WORK/peers" <<'EOF'
import glob, json, sys
res = json.load(open(sorted(glob.glob(sys.argv[1] + "/*.json"))[-1]))["results"]
by = {r["tool"]: r for r in res if "median_s" in r}
files, mb = 5000, None
print("| run | median s | min s | CPU s | peak RSS MiB | files/s | MB/s | vs python srt | vs cp -r |")
print("|---|---|---|---|---|---|---|---|---|")
srt = by.get("python-srt", {}).get("median_s")
cp = by.get("cp", {}).get("median_s")
for tool in ["ours-jobs1", "ours-jobs2", "ours-none-jobs2", "python-srt", "cp", "cat"]:
    r = by.get(tool)
    if not r: continue
    m = r["median_s"]; mb = r["input_bytes"] / 1e6
    print("| %s | %.3f | %.3f | %.2f | %.0f | %.0f | %.1f | %s | %s |" % (
        tool, m, r["min_s"], (r["user_s"] or 0) + (r["system_s"] or 0), r["peak_mib"] or 0, files / m, mb / m,
        "%.1f× faster" % (srt / m) if srt and tool != "python-srt" else "",
        "%.1f× cp's time" % (m / cp) if cp and tool not in ("cp", "cat") else ""))
j1, j2 = by.get("ours-jobs1"), by.get("ours-jobs2")
if j1 and j2:
    print()
    print("--jobs 1 → --jobs 2: %.2f× (median wall time)." % (j1["median_s"] / j2["median_s"]))
EOF
echo
# A control for a shared machine: the same work as two independent processes
# (--jobs 1 on each half) shows how much parallelism the box gives right now.
mkdir -p "$WORK/h1" "$WORK/h2"
batch=("$DATA"/batch/*.srt)
half=$(( ${#batch[@]} / 2 ))
cp "${batch[@]:0:$half}" "$WORK/h1/"
cp "${batch[@]:$half}" "$WORK/h2/"
both() { "$BIN" process "$WORK/h1" -o "$WORK/o1" -test-fake-assistant --quiet --jobs 1 & "$BIN" process "$WORK/h2" -o "$WORK/o2" -test-fake-assistant --quiet --jobs 1; wait; }
echo "| same 5,000 files, back to back ($RUNS runs, median) | wall s | CPU s |"
echo "|---|---|---|"
for mode in j1 j2 halves; do
    for _ in $(seq "$RUNS"); do
        rm -rf "$WORK/out" "$WORK/o1" "$WORK/o2"
        case $mode in
            j1) /usr/bin/time -f "%e %U %S" -o "$WORK/time.txt" "$BIN" process "$DATA/batch" -o "$WORK/out" -test-fake-assistant --quiet --jobs 1 ;;
            j2) /usr/bin/time -f "%e %U %S" -o "$WORK/time.txt" "$BIN" process "$DATA/batch" -o "$WORK/out" -test-fake-assistant --quiet --jobs 2 ;;
            halves) export -f both; export BIN WORK; /usr/bin/time -f "%e %U %S" -o "$WORK/time.txt" bash -c both ;;
        esac
        awk '{printf "%.3f %.3f\n", $1, $2 + $3}' "$WORK/time.txt"
    done | sort -n | awk -v m="$mode" '{a[NR]=$0} END {split(a[int((NR+1)/2)], f, " "); printf "| %s | %s | %s |\n", (m == "j1" ? "one process, --jobs 1" : m == "j2" ? "one process, --jobs 2" : "two processes, --jobs 1, half each (the machine'"'"'s own parallelism)"), f[1], f[2]}'
done
rm -rf "$WORK/out" "$WORK/o1" "$WORK/o2" "$WORK/h1" "$WORK/h2"
echo

# 2. A slow model: the fake waits 200 ms per answer (Task.sleep, no thread held).
echo "## Slow model (200 ms per answer) and memory as the batch grows"
echo
mkdir -p "$WORK/b100" "$WORK/b1k" "$WORK/b10k"
small=("$SCALE"/b10k/batch/*.srt)
cp "${small[@]:0:100}" "$WORK/b100/"
cp "${small[@]:0:1000}" "$WORK/b1k/"
cp "${small[@]}" "$WORK/b10k/"
echo "| files | model | --jobs | wall s | CPU s | peak RSS MiB | note |"
echo "|---|---|---|---|---|---|---|"
read -r w c m <<<"$(timed "$WORK/out" "$BIN" process "$WORK/b100" -o "$WORK/out" -test-fake-assistant-delay 200 --quiet --jobs 8)"
echo "| 100 | fake, 200 ms | 8 | $w | $c | $m | waiting alone, one at a time: 20 s; 8 at a time: 2.5 s |"
read -r w c m <<<"$(timed "$WORK/out" "$BIN" process "$WORK/b1k" -o "$WORK/out" -test-fake-assistant-delay 200 --quiet --jobs 64)"
echo "| 1,000 | fake, 200 ms | 64 | $w | $c | $m | 64 at a time: 3.1 s of waiting |"
for n in 1k 10k; do
    read -r w c m <<<"$(median_of "$WORK/out" "$BIN" process "$WORK/b$n" -o "$WORK/out" -test-fake-assistant --quiet --jobs 2)"
    echo "| ${n/k/,000} | fake | 2 | $w | $c | $m | |"
done
echo

# 3. Cost against the number of cues: the whole job (read, transcript, model,
#    emphasis, write, reports) on one file of N cues, one job.
echo "## Cost against cues: one file, the whole job, fake model, --jobs 1"
echo
echo "| cues | format | MB | wall s | CPU s | µs per 1k cues (wall) | peak RSS MiB | RSS / file |"
echo "|---|---|---|---|---|---|---|---|"
for n in $SIZES; do
    for ext in srt vtt ttml; do
        f=$SCALE/c$n/large.$ext
        mb=$(stat -c %s "$f" | awk '{printf "%.1f", $1 / 1e6}')
        read -r w c m <<<"$(median_of "$WORK/out" "$BIN" process "$f" -o "$WORK/out" -test-fake-assistant --quiet --jobs 1)"
        echo "| $n | $ext | $mb | $w | $c | $(awk -v w="$w" -v n="$n" 'BEGIN {printf "%.0f", w * 1e6 / (n / 1000)}') | $m | $(awk -v m="$m" -v b="$mb" 'BEGIN {printf "%.1f×", m * 1.048576 / b}') |"
    done
done
echo

# 4. Cost against the number of keywords (the N most frequent words).
KW=$SCALE/c$( [ $QUICK = 1 ] && echo 100000 || echo 1000000 )/large.srt
echo "## Cost against keywords: emphasis of the N most frequent words, then the write"
echo
"$BENCH" keywords "$KW" 1 10 100 --runs "$RUNS"
echo

if [ $PEERS = 1 ]; then
    echo "## Format peers (scripts/bench-peers.sh, same session)"
    echo
    CAPBENCH_DATA=$DATA scripts/bench-peers.sh >"$WORK/format-peers.log" 2>&1 || true
    sed -n '/^| case/,$p' "$WORK/format-peers.log"
fi
