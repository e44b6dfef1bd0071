#!/usr/bin/env bash
# Peak memory of `process` on one huge cue (issue 22, item 9): a single-cue
# SRT, WebVTT and TTML file of each size, with the fake model (emphasis on
# every "rocket" and "launch", an emoji) and with --model none, for each
# binary given, interleaved (A B A B …). Peak RSS from `/usr/bin/time -v`.
#
#   scripts/huge-cue-memory.sh [--sizes "30 300"] [--formats "srt vtt ttml"] NAME=BINARY...
#
# e.g. scripts/huge-cue-memory.sh base=/tmp/base/caption-assistant new=.build/release/caption-assistant
#
# The cue is one line of words (112 bytes repeated), so the fake model's two
# keywords occur about every 28 bytes. Files and outputs go to a temporary
# folder (HUGE_DATA, default under /dev/shm when it exists: they take memory
# there, about 2.2 GB for the 300 MB files and one output), removed after.
set -euo pipefail

sizes="30 300"
formats="srt vtt ttml"
binaries=()
while [ $# -gt 0 ]; do
    case $1 in
        --sizes) sizes=$2; shift 2 ;;
        --formats) formats=$2; shift 2 ;;
        *=*) binaries+=("$1"); shift ;;
        *) echo "huge-cue-memory.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
[ ${#binaries[@]} -gt 0 ] || { echo "usage: scripts/huge-cue-memory.sh [--sizes LIST] [--formats LIST] NAME=BINARY..." >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "huge-cue-memory.sh: /usr/bin/time is missing (Debian package 'time')" >&2; exit 2; }

base=${HUGE_DATA:-$( [ -d /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}")}
dir=$(mktemp -d "$base/huge-cue.XXXXXX")
trap 'rm -rf "$dir"' EXIT

echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) load: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
printf '%-5s %-5s %-6s %-6s %5s %10s %8s %8s %6s %s\n' MB format model binary exit peak_MiB x_cue cpu_s out_MB output_sha
for size in $sizes; do
    for format in $formats; do
        file="$dir/cue.$format"
        python3 - "$file" "$size" "$format" <<'EOF'
import sys
path, size, fmt = sys.argv[1], int(sys.argv[2]) * 1000 * 1000, sys.argv[3]
words = b"the rocket launch went well and the crew waved from the launch tower while engineers watched the rocket climb "
text = (words * (size // len(words) + 1))[:size].rstrip()
head = {"srt": b"1\n00:00:01,000 --> 00:00:02,000\n", "vtt": b"WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n",
        "ttml": b'<?xml version="1.0" encoding="UTF-8"?>\n<tt xmlns="http://www.w3.org/ns/ttml"><body><div>\n<p begin="1s" end="2s">'}[fmt]
tail = b"</p>\n</div></body></tt>\n" if fmt == "ttml" else b"\n"
with open(path, "wb") as f:
    f.write(head); f.write(text); f.write(tail)
EOF
        bytes=$(stat -c %s "$file")
        for model in fake none; do
            flags=(-test-fake-assistant); [ $model = none ] && flags=(--model none)
            for entry in "${binaries[@]}"; do
                name=${entry%%=*}; bin=${entry#*=}
                rm -rf "$dir/out"
                set +e
                /usr/bin/time -v -o "$dir/time.txt" "$bin" "$file" -o "$dir/out" "${flags[@]}" --quiet 2>"$dir/err.txt"
                code=$?
                set -e
                kib=$(sed -n 's/.*Maximum resident set size (kbytes): *//p' "$dir/time.txt")
                user=$(sed -n 's/.*User time (seconds): *//p' "$dir/time.txt")
                sys=$(sed -n 's/.*System time (seconds): *//p' "$dir/time.txt")
                out="$dir/out/cue.$format"
                outmb=$( [ -f "$out" ] && echo "scale=1; $(stat -c %s "$out") / 1000000" | bc || echo -)
                sha=$( [ -f "$out" ] && sha256sum "$out" | cut -c1-12 || echo -)
                printf '%-5s %-5s %-6s %-6s %5s %10s %8s %8s %6s %s\n' "$size" "$format" "$model" "$name" "$code" \
                    "$((kib / 1024))" "$(echo "scale=2; $kib * 1024 / $bytes" | bc)" "$(echo "$user + $sys" | bc)" "$outmb" "$sha"
            done
        done
        rm -f "$file"
    done
done
