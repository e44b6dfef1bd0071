#!/usr/bin/env bash
# The release archive on a machine without Swift. scripts/package.sh builds it;
# it is unpacked and installed under an odd prefix (spaces, non-ASCII) and run
# from another folder with the toolchain's folder (/opt/swift) hidden under an
# empty one in a private mount namespace (unshare -m), with a PATH that does
# not name it. Byte for byte against the normal build (the debug one that
# `swift run` and `swift test` use), files, standard output and error, and exit
# status:
#
#   - the README's main job:  caption-assistant Samples -o out
#   - the fake-model job:     caption-assistant Samples -o out -test-fake-assistant
#   - --help and check
#   - HTTP (through Debian's libcurl, Sources/CLibCurl): check, and a
#     job with every action applied, through a stub OpenAI-compatible server on
#     127.0.0.1 (that job's captions and report totals; its sidecars record
#     milliseconds)
#
#   - HTTPS on a slim machine: RUNTIME-PACKAGES names ca-certificates; with the CA
#     folder (/etc/ssl/certs) hidden too, an https:// endpoint is noCABundle (remedy:
#     install ca-certificates), and to the plain stub it is notTLS
#
# and: `version` names the commit packed; packing left the tree as it was; a
# missing library (libxml2 hidden as well) fails with the loader's message and
# exit status 127; examples/container/Containerfile installs exactly the
# archive's RUNTIME-PACKAGES (ldd, dpkg -S) and its ADD and link name the
# archive's real paths.
#
#   scripts/package-e2e.sh [--output DIR]
#
#   --output DIR  keep the archive, and its unpacked folder, in DIR (CI hands
#                 the unpacked binary to scripts/slurm-e2e.sh); default: a
#                 temporary folder, removed
#
# Needs root (mount namespaces). CAPTION_ASSISTANT_REFERENCE: the
# normal build to compare with (default: the debug build, built when not up to
# date).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUTPUT=""
while [ $# -gt 0 ]; do
    case $1 in
        --output) OUTPUT=$2; shift ;;
        *) echo "usage: $0 [--output DIR]" >&2; exit 64 ;;
    esac
    shift
done
[ "$(id -u)" = 0 ] || { echo "package-e2e: needs root (a mount namespace hides the toolchain)" >&2; exit 77; }
fail() { echo "package-e2e: FAILED: $*" >&2; exit 1; }
elapsed() { awk "BEGIN{printf \"%.1f\", $(date +%s.%N) - $1}"; }

WORK=$(mktemp -d /tmp/package-e2e.XXXXXX)
STUB_PID=""
trap 'if [ -n "$STUB_PID" ]; then kill "$STUB_PID" 2>/dev/null || true; fi; rm -rf "$WORK"' EXIT
DIST=${OUTPUT:-$WORK/dist}
mkdir -p "$DIST"

# The toolchain: the folder above usr/bin/swift (/opt/swift). It must be a folder
# of its own, or hiding it would hide the system too.
TOOLCHAIN=$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")")
case $TOOLCHAIN in /|/usr|/usr/local) fail "the toolchain is in $TOOLCHAIN, not a folder of its own that can be hidden" ;; esac

# The normal build, to compare with.
REF=${CAPTION_ASSISTANT_REFERENCE:-}
if [ -z "$REF" ]; then
    swift build --product caption-assistant >/dev/null   # up to date after swift test: no work
    REF=$(swift build --show-bin-path)/caption-assistant
fi

# Pack, and check that packing changed nothing in the tree.
before=$(git status --porcelain)
start=$(date +%s.%N)
ARCHIVE=$(scripts/package.sh --output "$DIST")
echo "package-e2e: scripts/package.sh took $(elapsed "$start") s: $ARCHIVE ($(stat -c %s "$ARCHIVE") bytes)"
[ "$(git status --porcelain)" = "$before" ] || fail "packing changed the tree: $(git status --porcelain)"
NAME=$(basename "$ARCHIVE" .tar.gz)
VERSION=$(sed -n 's/^caption-assistant-\([0-9]*\.[0-9]*\.[0-9]*\)-linux-[a-z0-9_]*$/\1/p' <<<"$NAME")
[ -n "$VERSION" ] || fail "the archive's name $NAME is not caption-assistant-VERSION-linux-ARCH"

# Unpack it as a user would: into an odd prefix, and install the binary from there.
PREFIX="$WORK/odd prefix/ünï cödé"
mkdir -p "$PREFIX/opt"
tar -xzf "$ARCHIVE" -C "$PREFIX/opt"
UNPACKED=$PREFIX/opt/$NAME
[ "$(ls "$UNPACKED")" = "$(printf '%s\n' INSTALL RUNTIME-PACKAGES bin licenses)" ] || fail "the archive holds $(ls "$UNPACKED")"
for f in NOTICE CaptionAssistant-LICENSE.txt Swift-Apache-2.0-with-Runtime-Library-Exception.txt ICU-LICENSE.txt Unicode-DFS-2016.txt; do
    [ -s "$UNPACKED/licenses/$f" ] || fail "licenses/$f is missing"
done
cmp -s LICENSE "$UNPACKED/licenses/CaptionAssistant-LICENSE.txt" || fail "licenses/CaptionAssistant-LICENSE.txt is not the project's LICENSE"
grep -q 'CaptionAssistant-LICENSE.txt' "$UNPACKED/licenses/NOTICE" || fail "licenses/NOTICE does not name the project's licence"
grep -q 'Runtime Library Exception' "$UNPACKED/licenses/Swift-Apache-2.0-with-Runtime-Library-Exception.txt" || fail "the Swift licence has no Runtime Library Exception"
install -D -m 755 "$UNPACKED/bin/caption-assistant" "$PREFIX/bin/caption-assistant"
if [ -n "$OUTPUT" ]; then rm -rf "${OUTPUT:?}/$NAME"; tar -xzf "$ARCHIVE" -C "$OUTPUT"; fi

# Run a command with the toolchain hidden (an empty folder bound over it, in a
# mount namespace of its own) and a PATH that holds the installed binary and the system's.
EMPTY=$WORK/empty
mkdir -p "$EMPTY"
hidden() {
    unshare -m -- sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' hide "$EMPTY" "$TOOLCHAIN" \
        env PATH="$PREFIX/bin:/usr/local/bin:/usr/bin:/bin" "$@"
}
hidden sh -c '[ -z "$(ls -A "$1")" ] && ! command -v swift >/dev/null' check "$TOOLCHAIN" || fail "the toolchain is still visible"
# (-v in ldd's output would show a libswift*.so; package.sh already refuses one.)

# VERSION and commit: the packed binary says the commit it was packed from.
COMMIT=$(git rev-parse --short=12 HEAD)
[ -z "$before" ] || COMMIT=$COMMIT-dirty
said=$(cd "$WORK" && hidden caption-assistant version)
[ "$said" = "caption-assistant $VERSION (commit $COMMIT)" ] || fail "version says '$said', not $VERSION (commit $COMMIT)"
echo "package-e2e: $said (toolchain hidden)"

# Each job in two folders of its own (the same relative command line): the normal
# build as usual, the packed one hidden, installed under the odd prefix.
compare() {
    local name=$1; shift
    local ref=$WORK/ref-$name run=$WORK/run-$name ref_status=0 run_status=0
    mkdir -p "$ref" "$run"
    cp -R Samples "$ref/"
    cp -R Samples "$run/"
    (cd "$ref" && "$REF" "$@" >stdout 2>stderr) || ref_status=$?
    (cd "$run" && hidden caption-assistant "$@" >stdout 2>stderr) || run_status=$?
    [ $ref_status = $run_status ] || fail "$name: the packed binary exited $run_status, the normal build $ref_status ($(cat "$run/stderr"))"
    diff -r "$ref" "$run" || fail "$name: the outputs differ"
    echo "package-e2e: OK: $name (exit $run_status): $(find "$run" -type f | wc -l) files byte for byte"
}
compare main Samples -o out
compare fake Samples -o out -test-fake-assistant
[ "$(find "$WORK/run-fake/out" -name '*.assistant.json' | wc -l)" = "$(ls Samples | wc -l)" ] || fail "the fake job wrote no sidecar per sample"
grep -q '"state": "applied"' "$WORK/run-fake/out/report.json" || fail "the fake job applied nothing"
compare help --help
compare check check

# HTTP, which the packed binary does through Debian's libcurl (Sources/CLibCurl,
# linked by its soname): the stub OpenAI-compatible server scripts/model-stub.py on 127.0.0.1
# (the CI recipe's: its models, and an answer about each transcript). `check` against it, byte for byte; then a job whose every action
# must be applied (its sidecars record milliseconds, so it is not compared).
python3 -u scripts/model-stub.py --port 0 --latency 0 >"$WORK/stub.out" 2>&1 &
STUB_PID=$!
for _ in $(seq 100); do grep -q '^listening on' "$WORK/stub.out" 2>/dev/null && break; sleep 0.1; done
STUB_PORT=$(sed -n 's/^listening on \([0-9]*\)$/\1/p' "$WORK/stub.out")
[ -n "$STUB_PORT" ] || fail "the stub model server did not start: $(cat "$WORK/stub.out")"
ENDPOINT=http://127.0.0.1:$STUB_PORT
compare http-check check --endpoint "$ENDPOINT"
mkdir -p "$WORK/ref-http" "$WORK/run-http"
cp -R Samples "$WORK/ref-http/"
cp -R Samples "$WORK/run-http/"
(cd "$WORK/ref-http" && "$REF" Samples -o out --endpoint "$ENDPOINT" --require-model --quiet) || fail "the normal build's job through the stub server failed"
(cd "$WORK/run-http" && hidden caption-assistant Samples -o out --endpoint "$ENDPOINT" --require-model --quiet) || fail "the packed binary's job through the stub server failed"
diff -r -x '*.json' "$WORK/ref-http" "$WORK/run-http" || fail "http: the captions differ"
python3 - "$WORK/ref-http/out/report.json" "$WORK/run-http/out/report.json" <<'PY' || fail "http: the reports' totals differ, or an action was not applied"
import json, sys
ref, run = (json.load(open(path))["totals"] for path in sys.argv[1:])
requests = run.pop("model")["requests"]; ref.pop("model")
assert ref == run and run["actions"]["applied"] == 3 * run["files"] and requests == run["files"], (ref, run, requests)
PY
echo "package-e2e: OK: http: check, and a job with every action applied, through a stub server on $ENDPOINT"

# HTTPS on a slim machine (issue 31): RUNTIME-PACKAGES names ca-certificates (libcurl only
# recommends it, and INSTALL installs without recommends); with the CA folder hidden under an
# empty one in a private mount namespace, as on a machine without it, an https:// endpoint is
# noCABundle with the remedy to install it, never "unknown". The stub speaks plain HTTP, which is
# what the same check says with the CA certificates there (notTLS): each its own reason, exit 69.
grep -qx ca-certificates "$UNPACKED/RUNTIME-PACKAGES" || fail "RUNTIME-PACKAGES does not name ca-certificates: $(cat "$UNPACKED/RUNTIME-PACKAGES")"
mkdir -p "$WORK/no-ca"
HTTPS_ENDPOINT=https://127.0.0.1:$STUB_PORT
status=0
hidden unshare -m -- sh -c 'mount --bind "$1" /etc/ssl/certs && shift && exec "$@"' no-ca "$WORK/no-ca" \
    caption-assistant check --json --endpoint "$HTTPS_ENDPOINT" >"$WORK/no-ca.json" 2>&1 || status=$?
[ $status = 69 ] && grep -q '"reason": "noCABundle"' "$WORK/no-ca.json" && grep -q 'apt-get install ca-certificates' "$WORK/no-ca.json" ||
    fail "https with the CA folder hidden: exit $status, $(cat "$WORK/no-ca.json")"
status=0
(cd "$WORK" && hidden caption-assistant check --json --endpoint "$HTTPS_ENDPOINT") >"$WORK/not-tls.json" 2>&1 || status=$?
[ $status = 69 ] && grep -q '"reason": "notTLS"' "$WORK/not-tls.json" || fail "https to a plain server: exit $status, $(cat "$WORK/not-tls.json")"
echo "package-e2e: OK: https: RUNTIME-PACKAGES names ca-certificates; without CA certificates noCABundle, to a plain server notTLS (exit 69)"

# A missing library: libxml2 taken away (its folder's other entries are kept, by
# links to a second view of it) says what is missing, before the program starts.
LIBDIR=$(dirname "$(readlink -f "$(ldd "$UNPACKED/bin/caption-assistant" | awk '$1 == "libxml2.so.2" {print $3}')")")
mkdir -p "$WORK/libs-all" "$WORK/libs-some"
find "$LIBDIR" -mindepth 1 -maxdepth 1 ! -name 'libxml2.so*' -printf "$WORK/libs-all/%f\0" | xargs -0 ln -s -t "$WORK/libs-some"
status=0
unshare -m -- sh -c 'mount --bind "$1" "$2" && mount --bind "$3" "$1" && exec "$4" version' missing \
    "$LIBDIR" "$WORK/libs-all" "$WORK/libs-some" "$PREFIX/bin/caption-assistant" >"$WORK/missing.out" 2>&1 || status=$?
[ $status = 127 ] && grep -q 'error while loading shared libraries: libxml2.so.2: cannot open shared object file' "$WORK/missing.out" ||
    fail "without libxml2: exit $status, $(cat "$WORK/missing.out")"
echo "package-e2e: OK: without libxml2 (exit $status): $(cat "$WORK/missing.out")"

# The Containerfile against the real archive: the library packages it installs
# (its first apt-get install) are RUNTIME-PACKAGES, and its ADD and link, with
# VERSION set, name this archive and the binary in it.
CONTAINERFILE=examples/container/Containerfile
JOINED=$(sed -e ':a' -e '/\\$/{N;s/\\\n//;ba' -e '}' "$CONTAINERFILE")
installed=$(grep -o 'apt-get install -y --no-install-recommends [^&]*' <<<"$JOINED" | sed -n 1p | cut -d' ' -f5- | tr -s ' ' '\n' | sed '/^$/d' | sort)
diff <(echo "$installed") "$UNPACKED/RUNTIME-PACKAGES" >&2 ||
    fail "$CONTAINERFILE installs other packages (<) than the binary's libraries belong to (> RUNTIME-PACKAGES)"
add=$(awk '$1 == "ADD" {print $2, $3}' "$CONTAINERFILE" | sed "s/\${VERSION}/$VERSION/g")
[ "${add% *}" = "$NAME.tar.gz" ] || fail "$CONTAINERFILE adds ${add% *}, the archive is $NAME.tar.gz"
target=$(grep -o 'ln -s [^ ]*' "$CONTAINERFILE" | cut -d' ' -f3 | sed "s/\${VERSION}/$VERSION/g")
[ -x "$PREFIX/opt/${target#"${add#* }"}" ] || fail "$CONTAINERFILE links $target, which the archive unpacked in ${add#* } does not hold"
echo "package-e2e: OK: $CONTAINERFILE installs $(tr '\n' ' ' <<<"$installed")(RUNTIME-PACKAGES), adds $NAME.tar.gz, links $target"
echo "package-e2e: OK"
