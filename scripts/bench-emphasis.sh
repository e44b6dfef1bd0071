#!/usr/bin/env bash
# Keyword emphasis, two builds side by side (issue 24: the one word rule's cost).
# Runs `caption-bench measure-keywords FILE N` of each build in turn, ROUNDS
# times (base and new alternating, so both see the same load), and prints,
# per file and keyword count, the emphasis seconds (min / median) of each
# build, the occurrences each found, and the change of the minimum.
#
#   bash scripts/bench-emphasis.sh BASE_CAPTION_BENCH NEW_CAPTION_BENCH CORPUS_DIR [ROUNDS] [FILES] [COUNTS]
#
# CORPUS_DIR is made by `python3 scripts/gen-corpus.py DIR`; FILES defaults to
# "large.srt large.vtt large.ttml", COUNTS to "1 3 10 100", ROUNDS to 7.
#
# With INSTRUCTIONS=1, counts the instructions spent inside KeywordEmphasis.apply
# instead (valgrind --tool=callgrind, one run each: exact, whatever the load);
# use the 20,000-cue files (`gen-corpus.py DIR --subset 20000`: sub20000.srt …).
set -euo pipefail
BASE=$1 NEW=$2 CORPUS=$3 ROUNDS=${4:-7}
FILES=${5:-"large.srt large.vtt large.ttml"}
COUNTS=${6:-"1 3 10 100"}
if [ -n "${INSTRUCTIONS:-}" ]; then
    echo "| file | keywords | base instructions | new instructions | change |"
    echo "|---|---|---|---|---|"
    count() {
        valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect='*KeywordEmphasis*apply*' \
            "$1" measure-keywords "$2" "$3" 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
    }
    for file in $FILES; do
        for n in $COUNTS; do
            b=$(count "$BASE" "$CORPUS/$file" "$n"); w=$(count "$NEW" "$CORPUS/$file" "$n")
            python3 -c "import sys; b, w = int(sys.argv[1]), int(sys.argv[2]); print(f'| $file | $n | {b:,} | {w:,} | {100 * (w / b - 1):+.0f} % |')" "$b" "$w"
        done
    done
    exit 0
fi
echo "load: $(uptime)"
echo "| file | keywords | occurrences base / new | base min / median s | new min / median s | change (min) |"
echo "|---|---|---|---|---|---|"
for file in $FILES; do
    for n in $COUNTS; do
        base_times=() new_times=() base_occ="" new_occ=""
        for ((r = 0; r < ROUNDS; r++)); do
            read -r _ _ occ s _ < <("$BASE" measure-keywords "$CORPUS/$file" "$n")
            base_times+=("$s"); base_occ=$occ
            read -r _ _ occ s _ < <("$NEW" measure-keywords "$CORPUS/$file" "$n")
            new_times+=("$s"); new_occ=$occ
        done
        python3 - "$file" "$n" "$base_occ" "$new_occ" "${base_times[*]}" "${new_times[*]}" <<'PY'
import statistics, sys
file, n, bo, no, b, w = sys.argv[1:]
b = [float(x) for x in b.split()]; w = [float(x) for x in w.split()]
print(f"| {file} | {n} | {bo} / {no} | {min(b):.4f} / {statistics.median(b):.4f} | {min(w):.4f} / {statistics.median(w):.4f} | {100 * (min(w) / min(b) - 1):+.0f} % |")
PY
    done
done
echo "load: $(uptime)"
