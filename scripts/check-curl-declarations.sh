#!/usr/bin/env bash
# Sources/CLibCurl/curl_api.h declares the part of libcurl's interface we use,
# so that a build needs no curl headers. This checks it against curl.h where
# curl.h is installed (libcurl4-openssl-dev): every constant's value, the
# structures' sizes and field offsets, and every function's signature.
# Names marked "newer" (later than the installed libcurl) are skipped.
#
#   scripts/check-curl-declarations.sh     exit 0: same; 1: differs; 77: no curl.h here
set -euo pipefail
cd "$(dirname "$0")/.."
API=Sources/CLibCurl/curl_api.h
CFLAGS=$(pkg-config --cflags libcurl 2>/dev/null) || { echo "check-curl-declarations: no curl.h here (libcurl4-openssl-dev): skipped" >&2; exit 77; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

python3 - "$API" "$WORK" <<'PY'
import re, sys
api, work = sys.argv[1], sys.argv[2]
text = open(api).read()
lines = text.splitlines()
names = []
for line in lines:
    if "newer" in line:
        continue
    m = re.match(r"\s+((?:CURL|curl)[A-Z0-9_a-z]*)\s*=", line) or re.match(r"#define\s+(CURL[A-Z0-9_]*)\s", line)
    if m and not m.group(1).startswith("CA_"):
        names.append(m.group(1))
layout = ["sizeof(curl_off_t)", "sizeof(CURLcode)", "sizeof(CURLMcode)", "sizeof(CURLoption)", "sizeof(CURLINFO)",
          "sizeof(CURLMsg)", "offsetof(CURLMsg, easy_handle)", "offsetof(CURLMsg, data)",
          "sizeof(struct curl_slist)", "offsetof(struct curl_slist, next)",
          "sizeof(struct curl_waitfd)", "offsetof(struct curl_waitfd, events)", "offsetof(struct curl_waitfd, revents)"]
body = "\n".join(f'    printf("%s %lld\\n", "{n}", (long long)({n}));' for n in names + layout)
program = "#include <stdio.h>\n#include <stddef.h>\n#include HEADER\nint main(void) {\n" + body + "\n    return 0;\n}\n"
open(f"{work}/values.c", "w").write(program)
# Each function, as our header spells it, must be the type of curl.h's.
protos = re.findall(r"^([A-Za-z][^;#/]*?\b(curl_[a-z_]+)\s*\(([^;]*)\));", text, re.M)
checks = []
for whole, name, args in protos:
    ret = whole[:whole.index(name)].strip()
    args = " ".join(args.split())
    checks.append(f"{ret} (*check_{name})({args}) = {name};")
open(f"{work}/functions.c", "w").write("#include <curl/curl.h>\n" + "\n".join(checks) + "\n")
print(f"check-curl-declarations: {len(names)} constants, {len(layout)} layout figures, {len(checks)} functions", file=sys.stderr)
PY

cc -o "$WORK/ours" -DHEADER='"'"$PWD/$API"'"' "$WORK/values.c"
# shellcheck disable=SC2086
cc -o "$WORK/theirs" -DHEADER='<curl/curl.h>' $CFLAGS "$WORK/values.c"
"$WORK/ours" >"$WORK/ours.txt"
"$WORK/theirs" >"$WORK/theirs.txt"
diff "$WORK/theirs.txt" "$WORK/ours.txt" >&2 || { echo "check-curl-declarations: FAILED: $API differs from curl.h (<) above" >&2; exit 1; }
# shellcheck disable=SC2086
cc -c -Werror -Werror=incompatible-pointer-types -o "$WORK/functions.o" $CFLAGS "$WORK/functions.c" ||
    { echo "check-curl-declarations: FAILED: a function's signature in $API differs from curl.h's" >&2; exit 1; }
echo "check-curl-declarations: OK: $API agrees with curl.h $(pkg-config --modversion libcurl)" >&2
