#!/usr/bin/env bash
# Peak memory and time of reading and writing back the hostile giants, in a
# release build: a 50 MB single text line (SRT, WebVTT, TTML), a 50 MB line with no
# timing at all, and a million tiny cues (SRT, WebVTT, TTML).
#
#   scripts/hostile-memory.sh [--keep]
#
# Files are generated into a temporary folder (removed afterwards unless
# --keep). Each is measured in its own process with `/usr/bin/time -v` around
# `caption-bench measure FILE MODE`; prints one row per file and mode.
set -euo pipefail
cd "$(dirname "$0")/.."

keep=0
[ "${1:-}" = "--keep" ] && keep=1

[ -x /usr/bin/time ] || { echo "hostile-memory.sh: /usr/bin/time is missing (Debian package 'time')" >&2; exit 2; }
swift build -c release --product caption-bench >&2
bench=$(swift build -c release --show-bin-path)/caption-bench

dir=$(mktemp -d "${TMPDIR:-/tmp}/hostile-memory.XXXXXX")
[ $keep -eq 1 ] || trap 'rm -rf "$dir"' EXIT

python3 - "$dir" <<'EOF'
import sys, os
d = sys.argv[1]
size = 50 * 1024 * 1024
line = b"a" * size + b"\n"
open(os.path.join(d, "line-50mb.srt"), "wb").write(b"1\n00:00:01,000 --> 00:00:02,000\n" + line)
open(os.path.join(d, "line-50mb.vtt"), "wb").write(b"WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n" + line)
open(os.path.join(d, "line-50mb-no-timing.srt"), "wb").write(line)
open(os.path.join(d, "line-50mb.ttml"), "wb").write(b'<?xml version="1.0" encoding="UTF-8"?>\n<tt xmlns="http://www.w3.org/ns/ttml"><body><div>\n<p begin="1s" end="2s">' + line[:-1] + b"</p>\n</div></body></tt>\n")

def stamp(i, sep):
    s, ms = divmod(i, 1000)
    return "%02d:%02d:%02d%s%03d" % (s // 3600, s // 60 % 60, s % 60, sep, ms)

n = 1_000_000
with open(os.path.join(d, "cues-1m.srt"), "w") as f:
    f.writelines("%d\n%s --> %s\nx\n\n" % (i + 1, stamp(i, ","), stamp(i + 1, ",")) for i in range(n))
with open(os.path.join(d, "cues-1m.vtt"), "w") as f:
    f.write("WEBVTT\n\n")
    f.writelines("%s --> %s\nx\n\n" % (stamp(i, "."), stamp(i + 1, ".")) for i in range(n))
with open(os.path.join(d, "cues-1m.ttml"), "w") as f:
    f.write('<?xml version="1.0" encoding="UTF-8"?>\n<tt xmlns="http://www.w3.org/ns/ttml"><body><div>\n')
    f.writelines('<p begin="%s" end="%s">x</p>\n' % (stamp(i, "."), stamp(i + 1, ".")) for i in range(n))
    f.write("</div></body></tt>\n")
EOF

printf '%-26s %9s %-9s %4s %8s %8s %8s %10s %s\n' file MB mode exit cues read_s write_s peak_MiB note
for f in line-50mb.srt line-50mb.vtt line-50mb.ttml line-50mb-no-timing.srt cues-1m.srt cues-1m.vtt cues-1m.ttml; do
    modes=(roundtrip)
    case $f in cues-*) modes=(roundtrip edit-all) ;; esac
    for mode in "${modes[@]}"; do
        set +e
        /usr/bin/time -v -o "$dir/time.txt" "$bench" measure "$dir/$f" "$mode" >"$dir/out.txt" 2>"$dir/err.txt"
        rc=$?
        set -e
        read -r cues rs ws _ _ <"$dir/out.txt" || true
        kib=$(sed -n 's/.*Maximum resident set size (kbytes): *//p' "$dir/time.txt")
        mb=$(( $(stat -c %s "$dir/$f") / 1048576 ))
        note=$(head -c 120 "$dir/err.txt" | tr '\n' ' ' | sed "s|$dir/||g")
        printf '%-26s %9s %-9s %4s %8s %8.2f %8.2f %10s %s\n' "$f" "$mb" "$mode" "$rc" "${cues:--}" \
            "${rs:-0}" "${ws:-0}" "$((kib / 1024))" "$note"
    done
done
