#!/usr/bin/env bash
# CPU seconds of two release builds, interleaved (A, B, A, B, ...), on the
# 5,000-file batch: a `--model none` run, a fake-model run, and `merge` of
# that batch's four shard parts. Prints each run's user and system CPU and
# the medians, with the load before and after.
#
#   scripts/bench-report-cpu.sh BINARY_A BINARY_B [ROUNDS (default 7)]
#
# Environment: CORPUS (default /dev/shm/capbench-data/batch; made by
# ../shared/bench/gen_corpus.py, as BENCHMARKS.md says), WORK (default
# /dev/shm/bench-report-cpu; removed at the end). Outputs are on tmpfs.
set -euo pipefail
A=$(realpath "$1") B=$(realpath "$2") ROUNDS=${3:-7}
CORPUS=${CORPUS:-/dev/shm/capbench-data/batch}
WORK=${WORK:-/dev/shm/bench-report-cpu}
[ -d "$CORPUS" ] || { echo "no corpus at $CORPUS" >&2; exit 66; }
rm -rf "$WORK"; mkdir -p "$WORK"
trap 'rm -rf "$WORK"' EXIT
echo "load before: $(uptime)"
# Each build's own shard parts (the part format is the build's own).
for v in A B; do
    bin=${!v}
    for i in 0 1 2 3; do "$bin" --model none --quiet --shard $i/4 "$CORPUS" -o "$WORK/parts-$v"; done
done
cpu() {  # label binary args...: prints "label user sys"
    local label=$1; shift
    /usr/bin/time -f "$label %U %S" -o "$WORK/t" "$@" >/dev/null 2>&1 || true
    cat "$WORK/t"
}
for ((r = 1; r <= ROUNDS; r++)); do
    for v in A B; do
        bin=${!v}
        rm -rf "$WORK/out"; cpu "$v none" "$bin" --model none --quiet --jobs 1 "$CORPUS" -o "$WORK/out"
        rm -rf "$WORK/out"; cpu "$v fake" "$bin" -test-fake-assistant --quiet --jobs 1 "$CORPUS" -o "$WORK/out"
        rm -f "$WORK/parts-$v/report.json"; cpu "$v merge" "$bin" merge "$WORK/parts-$v" --keep-parts --quiet
    done
done | tee "$WORK/all"
echo "medians (user s, system s) over $ROUNDS runs:"
for what in none fake merge; do
    for v in A B; do
        u=$(grep "^$v $what " "$WORK/all" | awk '{print $3}' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
        s=$(grep "^$v $what " "$WORK/all" | awk '{print $4}' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
        printf "  %-8s user %s  sys %s\n" "$v $what" "$u" "$s"
    done
done
echo "load after: $(uptime)"
