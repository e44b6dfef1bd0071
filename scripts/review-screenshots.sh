#!/usr/bin/env bash
# Remakes the review screenshots the README shows (docs/review-*.png) from a
# fixed batch, so they show what `caption-assistant review` makes today:
#   docs/review-index.png  the index of a batch with the fake model
#                          (Samples/ plus an empty, a binary and a refused TTML file)
#   docs/review-file.png   one file's page of that batch
#   docs/review-off.png    a file's page with no model (this platform has no
#                          on-device model: the reason row), phone width, dark
#
#   scripts/review-screenshots.sh      (CAPTION_ASSISTANT_BIN, CHROMIUM to choose)
#
# Needs headless Chromium (Debian's `chromium`) and an emoji font (`fonts-noto-color-emoji`). The pages are local files;
# Chromium runs with a throw-away profile and no network use by the pages.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${CAPTION_ASSISTANT_BIN:-}
if [ -z "$BIN" ]; then swift build --product caption-assistant >&2; BIN=$(swift build --show-bin-path)/caption-assistant; fi
CHROME=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}
[ -n "$CHROME" ] || { echo "review-screenshots: no chromium (apt-get install chromium)" >&2; exit 2; }
W=$(mktemp -d "${TMPDIR:-/tmp}/review-shots.XXXXXX")
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/input/season1" "$W/input/season2"
cp Samples/rocket-launch.srt Samples/risotto-night.vtt "$W/input/season1/"
cp Samples/tide-pools.ttml "$W/input/season2/"
: > "$W/input/season1/empty.srt"
printf 'WEBVTT\n\n\x00\x01\x02\xff binary' > "$W/input/season1/binary.vtt"
cat > "$W/input/season2/entities.ttml" <<'XML'
<?xml version="1.0"?>
<!DOCTYPE tt [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>
<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="00:00:01.000" end="00:00:02.000">&b;</p></div></body></tt>
XML
(cd "$W" && "$BIN" input -o out -test-fake-assistant --quiet) || true   # three files fail on purpose
(cd "$W" && "$BIN" input/season1/rocket-launch.srt -o off --quiet) || true   # no model on this platform
"$BIN" review "$W/out" >/dev/null 2>&1
"$BIN" review "$W/off" >/dev/null 2>&1
shot() {  # shot OUT.png PAGE WIDTH HEIGHT [chromium flags]
  local out=$1 page=$2 width=$3 height=$4; shift 4
  timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$W/profile" \
    --window-size="$width,$height" "$@" --screenshot="$PWD/$out" "file://$page" >/dev/null 2>&1
  echo "review-screenshots: $out"
}
first_page() { ls "$1"/review/files/*.html | head -1; }
shot docs/review-index.png "$W/out/review/index.html" 1200 900
page=$(grep -l "rocket-launch.srt" "$W"/out/review/files/*.html | head -1)
shot docs/review-file.png "$page" 1100 820
shot docs/review-off.png "$(first_page "$W/off")" 390 844 --force-dark-mode
