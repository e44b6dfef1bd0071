#!/usr/bin/env bash
# The guard rails (issue 21): two release builds side by side in one run: the
# 5,000-file batch (--model none and the fake model, --jobs 2) against Python's
# `srt` and `cp -r`, library SRT read + write (caption-bench copy) against
# Python's `srt`, and diff -r of the two builds' captions (reports excluded).
# usage: bench-guard-rails.sh BASE_BIN_DIR NEW_BIN_DIR   (each holding release
# caption-assistant and caption-bench; corpus in $CAPBENCH_DATA, peers from
# ../shared/bench/setup.sh)
set -euo pipefail
B=$1; M=$2
BENCH=$(cd "$(dirname "$0")/../../shared/bench" && pwd)
D=${CAPBENCH_DATA:-/dev/shm/capbench-data}; O=/dev/shm/guard-out
VENV=${CAPBENCH_VENV:-$HOME/.cache/capbench-venv}
PY=$VENV/bin/python
[ -d "$D/batch" ] || python3 $BENCH/gen_corpus.py "$D" >/dev/null
rm -rf "$O"; mkdir -p "$O"
echo "load at start: $(uptime)"
hyperfine -N -w 1 -r 5 --export-markdown "$O/batch.md" \
  -p "rm -rf $O/x" \
  -n "python srt" "$PY $BENCH/peer_py.py srt-batch $D/batch $O/x" \
  -n "base none j2" "$B/caption-assistant $D/batch -o $O/x --model none --quiet --jobs 2" \
  -n "new none j2" "$M/caption-assistant $D/batch -o $O/x --model none --quiet --jobs 2" \
  -n "base fake j2" "$B/caption-assistant $D/batch -o $O/x -test-fake-assistant --quiet --jobs 2" \
  -n "new fake j2" "$M/caption-assistant $D/batch -o $O/x -test-fake-assistant --quiet --jobs 2" \
  -n "cp -r" "cp -r $D/batch $O/x" 2>&1 | grep -v "^ *Range\|Warning"
cat "$O/batch.md"
hyperfine -N -w 1 -r 5 --export-markdown "$O/lib.md" \
  -n "python srt large.srt" "$PY $BENCH/peer_py.py srt $D/large.srt $O/py.srt" \
  -n "base caption-bench copy" "$B/caption-bench copy $D/large.srt $O/b.srt" \
  -n "new caption-bench copy" "$M/caption-bench copy $D/large.srt $O/m.srt" 2>&1 | grep -v "^ *Range\|Warning"
cat "$O/lib.md"
echo "== outputs: base vs main, captions only (reports/sidecars excluded)"
for mode in "-test-fake-assistant" "--model none" "--model none --to srt" "--model none --to vtt" "--model none --to ttml"; do
  rm -rf "$O/b" "$O/m"
  $B/caption-assistant $D/batch -o $O/b $mode --quiet --jobs 2 || true
  $M/caption-assistant $D/batch -o $O/m $mode --quiet --jobs 2 || true
  n=$(diff -rq -x '*.json' -x 'report*' -x review "$O/b" "$O/m" | wc -l || true)
  echo "$mode: $(find $O/m -type f | wc -l) files; differing captions: $n"
done
for f in large.srt large_crlf.srt large.vtt large.ttml; do
  rm -rf "$O/b" "$O/m"
  $B/caption-assistant $D/$f -o $O/b -test-fake-assistant --quiet || true
  $M/caption-assistant $D/$f -o $O/m -test-fake-assistant --quiet || true
  echo "$f fake: differing captions: $(diff -rq -x '*.json' -x 'report*' -x review "$O/b" "$O/m" | wc -l || true)"
done
echo "load at end: $(uptime)"
rm -rf "$O/x" "$O/b" "$O/m"
