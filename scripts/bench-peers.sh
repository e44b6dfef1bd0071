#!/usr/bin/env bash
# Times caption-assistant side by side with the peer tools (Python srt, pysrt,
# webvtt-py, pycaption, ttconv, ffmpeg) on the deterministic corpus, in one run,
# with ../shared/bench/peers.py (hyperfine medians, GNU time peak RSS, cue
# counts checked). Usage:
#
#   scripts/bench-peers.sh [--only REGEX] [--runs N] [--slow-runs N]
#
# Environment: SHARED (default ../shared), CAPBENCH_DATA (default
# /dev/shm/capbench-data: the corpus is made there when missing).
# Results land in capbench-results/ (Markdown and JSON).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SHARED=${SHARED:-$ROOT/../shared}
DATA=${CAPBENCH_DATA:-/dev/shm/capbench-data}

sh "$SHARED/bench/setup.sh" >/dev/null
GEN=$SHARED/bench/gen_corpus.py; [ -f "$GEN" ] || GEN=$ROOT/scripts/gen-corpus.py
[ -f "$DATA/MANIFEST.txt" ] || python3 "$GEN" "$DATA"
swift build -c release --product caption-assistant >/dev/null
swift build -c release --product caption-bench >/dev/null
BIN=$ROOT/.build/release/caption-assistant
LIB=$ROOT/.build/release/caption-bench

# Two ways we run: the whole assistant job with the fake model (read,
# transcript, model, keyword emphasis on every cue, emoji, write, reports),
# and with no model (read and write back unchanged: the lossless path).
ours_fake="$BIN process {in} -o {out}.d -test-fake-assistant --quiet --jobs 2"
ours_none="$BIN process {in} -o {out}.d --model none --quiet --jobs 2"
adds=()
for c in srt-rt srt-crlf-rt vtt-rt small-srt-rt small-vtt-rt small-ttml-rt batch; do
    adds+=(--add "$c:ours-fake:$ours_fake" --add "$c:ours-nomodel:$ours_none")
done
adds+=(--add "ttml-rt:ours-fake:$ours_fake" --add "ttml-rt:ours-nomodel:$ours_none")
# The Captions library alone: read, then write (no model, no reports, no hashing).
for c in srt-rt srt-crlf-rt vtt-rt ttml-rt small-srt-rt small-vtt-rt small-ttml-rt; do
    adds+=(--add "$c:ours-library:$LIB copy {in} {out}")
done
adds+=(--add "batch:ours-fake-jobs1:$BIN process {in} -o {out}.d -test-fake-assistant --quiet --jobs 1")

python3 "$SHARED/bench/peers.py" --data "$DATA" --results "$ROOT/capbench-results" \
    --slow-runs 1 "${adds[@]}" "$@"
