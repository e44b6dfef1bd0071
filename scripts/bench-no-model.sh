#!/usr/bin/env bash
# Issue 34: the paths without a model, two release builds side by side in one
# run (before and after a change), with the peers. Wall times are hyperfine
# medians; CPU (user + system) and peak RSS are GNU time's, the median of
# RUNS runs. On a shared machine quote the CPU and memory ratios; the wall
# ratios say how busy the machine was (the load is printed at start and end).
#
#   scripts/bench-no-model.sh BASE_BIN_DIR NEW_BIN_DIR
#
# Each BIN_DIR holds a release caption-assistant and caption-bench. Corpus in
# $CAPBENCH_DATA (default /dev/shm/capbench-data, made by
# ../shared/bench/gen_corpus.py when missing), plus s100.srt and s500.srt
# (about 100 MB and 500 MB: large.srt's cue texts in turn, made by
# scripts/gen-big-srt.py when missing). Outputs on tmpfs, removed after each run.
set -euo pipefail
B=$1; N=$2
HERE=$(cd "$(dirname "$0")" && pwd)
BENCH=$(cd "$HERE/../../shared/bench" && pwd)
D=${CAPBENCH_DATA:-/dev/shm/capbench-data}; O=${WORK:-/dev/shm/bench-no-model}
RUNS=${RUNS:-3}
PY=${CAPBENCH_VENV:-$HOME/.cache/capbench-venv}/bin/python
[ -d "$D/batch" ] || python3 "$BENCH/gen_corpus.py" "$D" >/dev/null
for size in 100 500; do
  [ -f "$D/s$size.srt" ] || python3 "$HERE/gen-big-srt.py" "$D/large.srt" "$D/s$size.srt" "$size" >/dev/null
done
rm -rf "$O"; mkdir -p "$O"
echo "load at start: $(uptime)"

# `cpu NAME COMMAND...`: the median of RUNS runs: wall s, CPU s (user + system), peak RSS MiB.
cpu() {
  local name=$1; shift
  for _ in $(seq "$RUNS"); do
    rm -rf "$O/x" "$O/x.srt"
    /usr/bin/time -f '%e %U %S %M' -o "$O/t" "$@" >/dev/null 2>&1 || true
    awk '{printf "%.2f %.2f %.1f\n", $1, $2 + $3, $4 / 1024}' "$O/t"
  done | sort -n -k2 | awk -v n="$name" '{w[NR]=$1; c[NR]=$2; m[NR]=$3} END {i=int((NR+1)/2); printf "| %s | %s | %s | %s |\n", n, w[i], c[i], m[i]}'
  rm -rf "$O/x" "$O/x.srt"
}

echo "== 5,000-file batch (--jobs 2): wall, hyperfine median of 5"
hyperfine -N -w 1 -r 5 --export-markdown "$O/batch.md" -p "rm -rf $O/x" \
  -n "cp -r" "cp -r $D/batch $O/x" \
  -n "base none" "$B/caption-assistant $D/batch -o $O/x --model none --quiet --jobs 2" \
  -n "new none" "$N/caption-assistant $D/batch -o $O/x --model none --quiet --jobs 2" \
  -n "base fallback" "$B/caption-assistant $D/batch -o $O/x --model none --fallback local --quiet --jobs 2" \
  -n "new fallback" "$N/caption-assistant $D/batch -o $O/x --model none --fallback local --quiet --jobs 2" \
  >/dev/null 2>&1 || true
cat "$O/batch.md"
echo
echo "| run | wall s | CPU s | peak RSS MiB |"
echo "|---|---|---|---|"
cpu "cp -r" cp -r "$D/batch" "$O/x"
for which in base new; do
  bin=$B; [ $which = new ] && bin=$N
  cpu "$which --model none" "$bin/caption-assistant" "$D/batch" -o "$O/x" --model none --quiet --jobs 2
  cpu "$which --model none --fallback local" "$bin/caption-assistant" "$D/batch" -o "$O/x" --model none --fallback local --quiet --jobs 2
done

echo
echo "== one file: wall s, CPU s, peak RSS MiB (median of $RUNS)"
echo "| run | wall s | CPU s | peak RSS MiB |"
echo "|---|---|---|---|"
for which in base new; do
  bin=$B; [ $which = new ] && bin=$N
  cpu "$which library copy large.srt" "$bin/caption-bench" copy "$D/large.srt" "$O/x.srt"
  cpu "$which --model none large.srt" "$bin/caption-assistant" "$D/large.srt" -o "$O/x" --model none --quiet
  cpu "$which fake large.srt" "$bin/caption-assistant" "$D/large.srt" -o "$O/x" -test-fake-assistant --quiet
  cpu "$which --model none s100.srt" "$bin/caption-assistant" "$D/s100.srt" -o "$O/x" --model none --quiet
  cpu "$which --fallback local s100.srt" "$bin/caption-assistant" "$D/s100.srt" -o "$O/x" --model none --fallback local --quiet
  cpu "$which --model none s500.srt" "$bin/caption-assistant" "$D/s500.srt" -o "$O/x" --model none --quiet
  cpu "$which fake s500.srt" "$bin/caption-assistant" "$D/s500.srt" -o "$O/x" -test-fake-assistant --quiet
done
if [ -x "$PY" ]; then cpu "python srt large.srt" "$PY" "$BENCH/peer_py.py" srt "$D/large.srt" "$O/x.srt"; fi
if command -v ffmpeg >/dev/null; then cpu "ffmpeg large.srt" ffmpeg -v error -y -i "$D/large.srt" "$O/x.srt"; fi
ls -l "$D/large.srt" "$D/s100.srt" "$D/s500.srt" | awk '{printf "%s: %.1f MB\n", $9, $5 / 1e6}'
echo "load at end: $(uptime)"
rm -rf "$O"
