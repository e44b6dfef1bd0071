#!/usr/bin/env bash
# Cost of one caption file at the bottom of a deep folder chain (issue 22,
# item 10): wall time, CPU time and `openat` calls of
# `caption-assistant in -o out --model none --quiet`, for each binary given,
# interleaved (A B A B …) so a loaded machine affects both alike.
#
#   scripts/deep-folders.sh [--depths "1500 3000 4000"] [--runs 3] NAME=BINARY...
#
# e.g. scripts/deep-folders.sh base=/tmp/base/caption-assistant new=.build/release/caption-assistant
#
# Folders are named `d` (2 bytes a level with the slash), so the path passes
# PATH_MAX (4,096 bytes) at depth 2,048. The trees are made in a temporary
# folder (DEEP_DATA, default under /dev/shm when it exists) and removed after.
# Needs /usr/bin/time and strace (for the openat counts; skipped without it).
set -euo pipefail

depths="1500 3000 4000"
runs=3
binaries=()
while [ $# -gt 0 ]; do
    case $1 in
        --depths) depths=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        *=*) binaries+=("$1"); shift ;;
        *) echo "deep-folders.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
[ ${#binaries[@]} -gt 0 ] || { echo "usage: scripts/deep-folders.sh [--depths LIST] [--runs N] NAME=BINARY..." >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "deep-folders.sh: /usr/bin/time is missing (Debian package 'time')" >&2; exit 2; }

base=${DEEP_DATA:-$( [ -d /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}")}
dir=$(mktemp -d "$base/deep-folders.XXXXXX")
trap 'rm -rf "$dir"' EXIT

echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) load: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
printf '%-6s %-8s %8s %8s %8s %10s %s\n' depth binary wall_s cpu_s exit openat note
for depth in $depths; do
    rm -rf "$dir/tree"; mkdir "$dir/tree"
    python3 - "$dir/tree" "$depth" <<'EOF'
import os, sys
top, depth = sys.argv[1], int(sys.argv[2])
fd = os.open(top, os.O_RDONLY)
os.mkdir("in", dir_fd=fd); nxt = os.open("in", os.O_RDONLY, dir_fd=fd); os.close(fd); fd = nxt
for _ in range(depth):
    os.mkdir("d", dir_fd=fd); nxt = os.open("d", os.O_RDONLY, dir_fd=fd); os.close(fd); fd = nxt
f = os.open("deep.srt", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
os.write(f, b"1\n00:00:01,000 --> 00:00:02,000\nHello rocket launch\n")
os.close(f); os.close(fd)
EOF
    declare -A walls=() cpus=()
    for run in $(seq "$runs"); do
        for entry in "${binaries[@]}"; do
            name=${entry%%=*}; bin=${entry#*=}
            rm -rf "$dir/tree/out"
            ( cd "$dir/tree" && /usr/bin/time -f '%e %U %S %x' -o "$dir/time.txt" "$bin" in -o out --model none --quiet ) || true
            read -r wall user sys code < "$dir/time.txt"
            walls[$name]+="$wall "
            cpus[$name]+="$(echo "$user + $sys" | bc) "
            echo "$code" > "$dir/exit-$name"
        done
    done
    for entry in "${binaries[@]}"; do
        name=${entry%%=*}; bin=${entry#*=}
        calls=-
        if command -v strace >/dev/null; then
            rm -rf "$dir/tree/out"
            ( cd "$dir/tree" && strace -f -c -e trace=openat -o "$dir/strace.txt" "$bin" in -o out --model none --quiet ) || true
            calls=$(awk '$NF == "openat" { print $4 }' "$dir/strace.txt")
        fi
        median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
        wall=$(echo "${walls[$name]}" | median)
        cpu=$(echo "${cpus[$name]}" | median)
        printf '%-6s %-8s %8s %8s %8s %10s %s\n' "$depth" "$name" "$wall" "$cpu" "$(cat "$dir/exit-$name")" "$calls" "runs: ${walls[$name]}"
    done
    unset walls cpus
done
