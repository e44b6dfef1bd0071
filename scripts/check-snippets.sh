#!/usr/bin/env bash
# Every Swift snippet of the documentation compiles: each ```swift block of
# README.md and of the DocC catalogs (Sources/*/*.docc/*.md) is compiled (to an
# object file, not linked or run) on its own, as a program's main file, against the package's modules as the debug
# build made them (swift build is run first; after swift test it has nothing
# to do). A snippet that stops compiling fails with its file and first line.
#
#   scripts/check-snippets.sh [FILE.md...]     (default: README.md and every catalog)
set -euo pipefail
cd "$(dirname "$0")/.."
files=("$@")
[ ${#files[@]} -gt 0 ] || mapfile -t files < <(printf '%s\n' README.md; find Sources -path '*.docc/*.md' | sort)

swift build --target CaptionAssistant >/dev/null
BIN=$(swift build --show-bin-path)
mapfile -t flags < <(scripts/module-flags.sh "$BIN")
flags+=(-swift-version 6)

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# One folder per snippet, its code in main.swift, and where it came from in origin.
python3 - "$WORK" "${files[@]}" <<'PY'
import os, sys
work, files = sys.argv[1], sys.argv[2:]
count = 0
for path in files:
    lines = open(path, encoding="utf-8").read().split("\n")
    inside, start, code = False, 0, []
    for number, line in enumerate(lines, 1):
        if not inside and line.strip() == "```swift":
            inside, start, code = True, number + 1, []
        elif inside and line.strip() == "```":
            inside = False
            count += 1
            folder = os.path.join(work, f"{count:03d}")
            os.makedirs(folder)
            # Each line where it was, so the compiler's line numbers are the file's.
            open(os.path.join(folder, "main.swift"), "w", encoding="utf-8").write(f'#sourceLocation(file: "{path}", line: {start})\n' + "\n".join(code) + "\n")
            open(os.path.join(folder, "origin"), "w").write(f"{path}:{start}")
        elif inside:
            code.append(line)
    if inside:
        sys.exit(f"{path}:{start}: a ```swift block is not closed")

PY
count=$(find "$WORK" -mindepth 1 -maxdepth 1 -type d | wc -l)
[ "$count" -gt 0 ] || { echo "check-snippets: no Swift snippet found in ${files[*]}" >&2; exit 1; }

# As many compilers at once as there are cores; each snippet's result in its folder.
running=0
for dir in "$WORK"/*/; do
    dir=${dir%/}
    if [ $running -ge "$(nproc)" ]; then wait -n || true; running=$((running - 1)); fi
    { swiftc "${flags[@]}" -c "$dir/main.swift" -o "$dir/main.o" >"$dir/log" 2>&1 || touch "$dir/failed"; } &
    running=$((running + 1))
done
wait
failed=0
for dir in "$WORK"/*/; do
    [ -e "$dir/failed" ] || continue
    echo "check-snippets: the snippet at $(cat "$dir/origin") does not compile:" >&2
    cat "$dir/log" >&2
    failed=$((failed + 1))
done
[ $failed = 0 ] || { echo "check-snippets: FAILED: $failed of $count snippets do not compile" >&2; exit 1; }
echo "check-snippets: OK: $count snippets compile (${files[*]})" >&2
