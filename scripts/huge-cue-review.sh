#!/usr/bin/env bash
# Size of the review page and peak memory of `review` for one huge cue (issue 22, item 9):
# a single-cue SRT of each size, processed once with the fake model (every "rocket" and
# "launch" in bold, an emoji), then reviewed by each binary given, interleaved (A B A B …).
# Peak RSS and CPU from `/usr/bin/time -v`; the page is review/files/00001.html.
#
#   scripts/huge-cue-review.sh [--sizes "30 300"] [--runs N] NAME=BINARY...
#
# e.g. scripts/huge-cue-review.sh base=/tmp/base/caption-assistant new=.build/release/caption-assistant
#
# The cue is the one scripts/huge-cue-memory.sh makes (112 bytes of words repeated). The
# batch is run with the last binary given. Files go to a temporary folder (HUGE_DATA,
# default under /dev/shm when it exists: about 1.2 GB there for the 300 MB file, its output
# and a page), removed after.
set -euo pipefail

sizes="30 300"
runs=1
binaries=()
while [ $# -gt 0 ]; do
    case $1 in
        --sizes) sizes=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        *=*) binaries+=("$1"); shift ;;
        *) echo "huge-cue-review.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
[ ${#binaries[@]} -gt 0 ] || { echo "usage: scripts/huge-cue-review.sh [--sizes LIST] [--runs N] NAME=BINARY..." >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "huge-cue-review.sh: /usr/bin/time is missing (Debian package 'time')" >&2; exit 2; }

base=${HUGE_DATA:-$( [ -d /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}")}
dir=$(mktemp -d "$base/huge-cue-review.XXXXXX")
trap 'rm -rf "$dir"' EXIT
batch=${binaries[${#binaries[@]}-1]#*=}

echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) load: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
printf '%-5s %-6s %5s %10s %8s %8s %10s\n' MB binary exit peak_MiB x_cue cpu_s page_MB
for size in $sizes; do
    file="$dir/cue.srt"
    python3 - "$file" "$size" <<'EOF'
import sys
path, size = sys.argv[1], int(sys.argv[2]) * 1000 * 1000
words = b"the rocket launch went well and the crew waved from the launch tower while engineers watched the rocket climb "
text = (words * (size // len(words) + 1))[:size].rstrip()
with open(path, "wb") as f:
    f.write(b"1\n00:00:01,000 --> 00:00:02,000\n"); f.write(text); f.write(b"\n")
EOF
    bytes=$(stat -c %s "$file")
    rm -rf "$dir/out"
    "$batch" "$file" -o "$dir/out" -test-fake-assistant --quiet
    rm -f "$file"
    for _ in $(seq "$runs"); do
        for entry in "${binaries[@]}"; do
            name=${entry%%=*}; bin=${entry#*=}
            rm -rf "$dir/out/review"
            set +e
            /usr/bin/time -v -o "$dir/time.txt" "$bin" review "$dir/out" --quiet --jobs 1 2>"$dir/err.txt"
            code=$?
            set -e
            kib=$(sed -n 's/.*Maximum resident set size (kbytes): *//p' "$dir/time.txt")
            user=$(sed -n 's/.*User time (seconds): *//p' "$dir/time.txt")
            sys=$(sed -n 's/.*System time (seconds): *//p' "$dir/time.txt")
            page="$dir/out/review/files/00001.html"
            pagemb=$( [ -f "$page" ] && echo "scale=3; $(stat -c %s "$page") / 1000000" | bc || echo -)
            printf '%-5s %-6s %5s %10s %8s %8s %10s\n' "$size" "$name" "$code" "$((kib / 1024))" \
                "$(echo "scale=2; $kib * 1024 / $bytes" | bc)" "$(echo "$user + $sys" | bc)" "$pagemb"
        done
    done
done
