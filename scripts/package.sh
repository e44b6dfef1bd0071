#!/usr/bin/env bash
# The release artifact: caption-assistant-VERSION-linux-ARCH.tar.gz, which runs
# on a Debian or Ubuntu machine without the Swift toolchain.
#
#   scripts/package.sh [--output DIR]     (default DIR: .build/dist)
#
# Builds the one product in release mode with the Swift runtime and Foundation
# linked in (--static-swift-stdlib), in its own build folder (.build/package),
# tells it the commit it is built from (a compiler definition, see
# Sources/CBuildInfo: nothing in the tree is generated or changed), strips it,
# and packs:
#
#   caption-assistant-VERSION-linux-ARCH/
#     bin/caption-assistant
#     INSTALL              how to install it (packaging/INSTALL)
#     RUNTIME-PACKAGES     the Debian packages of the shared libraries it links, and
#                          ca-certificates (what an https:// endpoint is checked against),
#                          one a line: found with ldd and dpkg -S, not typed
#     licenses/            NOTICE (our licence, what the binary holds and under
#                          which licence) and the licence texts it names
#
# Needs, besides the toolchain: libxml2-dev and libssl-dev (as any build; libcurl
# needs only its runtime library, libcurl4, see Sources/CLibCurl), binutils
# (strip, objdump) and dpkg (the package names), so it runs on Debian or Ubuntu.
# Prints the artifact's path last.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OUTPUT=$ROOT/.build/dist
while [ $# -gt 0 ]; do
    case $1 in
        --output) OUTPUT=$2; shift ;;
        *) echo "usage: $0 [--output DIR]" >&2; exit 64 ;;
    esac
    shift
done
die() { echo "package: $*" >&2; exit 1; }

for tool in swift strip objdump ldd dpkg-query tar gzip; do
    command -v "$tool" >/dev/null || die "needs $tool"
done

# The commit: 12 hex digits, and -dirty when the tree differs from it (tracked
# changes or new files that git does not ignore); unknown outside a git checkout.
COMMIT=""
if git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
    COMMIT=$(git -C "$ROOT" rev-parse --short=12 HEAD)
    if [ -n "$(git -C "$ROOT" status --porcelain)" ]; then
        COMMIT=$COMMIT-dirty
        echo "package: warning: the tree has changes that are not committed; the build says commit $COMMIT" >&2
    fi
fi
case $COMMIT in *[!0-9a-z-]*) die "unexpected commit name '$COMMIT'" ;; esac

BUILD=(swift build -c release --product caption-assistant --static-swift-stdlib --scratch-path "$ROOT/.build/package")
if [ -n "$COMMIT" ]; then BUILD+=(-Xcc "-DCAPTION_ASSISTANT_COMMIT=\"$COMMIT\""); fi
echo "package: ${BUILD[*]}" >&2
"${BUILD[@]}" >&2
BIN=$("${BUILD[@]}" --show-bin-path)/caption-assistant

# The version is the one the program prints (CaptionAssistantVersion.current).
VERSION=$("$BIN" version | awk '{print $2}')
[[ $VERSION =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "'$BIN version' printed no version: $("$BIN" version)"
NAME=caption-assistant-$VERSION-linux-$(uname -m)

STAGE=$(mktemp -d "${TMPDIR:-/tmp}/package.XXXXXX")
trap 'rm -rf "$STAGE"' EXIT
DIR=$STAGE/$NAME
mkdir -p "$DIR/bin" "$DIR/licenses"
cp "$BIN" "$DIR/bin/caption-assistant"
strip --strip-all "$DIR/bin/caption-assistant"
chmod 755 "$DIR/bin/caption-assistant"
PACKED=$DIR/bin/caption-assistant

# Nothing of the toolchain may be left to load at run time.
if ldd "$PACKED" | grep -E 'libswift|libFoundation|libdispatch|libBlocksRuntime|not found'; then
    die "the binary still needs the libraries above: they are not Debian's"
fi

# Each library the binary names (DT_NEEDED), where ldd finds it, and the Debian
# package that owns that file. (ldd also lists what those libraries load in turn:
# apt installs those with the packages named here.) On a merged-/usr system
# ldd says /lib/... where dpkg may know /usr/lib/..., so both are asked.
owner() {
    local path=$1 candidate found
    for candidate in "$path" "/usr$path" "${path#/usr}" "$(readlink -f "$path")"; do
        found=$(dpkg-query -S "$candidate" 2>/dev/null | grep -v '^diversion' | sed -n 1p) || continue
        [ -n "$found" ] || continue
        # "libc6:amd64: /lib/x86_64-linux-gnu/libc.so.6", or "pkg1, pkg2: /path" for a shared path.
        tr ',' '\n' <<<"${found%%: /*}" | sed 's/^ *//; s/:.*//'
        return
    done
    return 1
}
LIBRARIES=$(ldd "$PACKED")
for needed in $(objdump -p "$PACKED" | awk '$1 == "NEEDED" {print $2}'); do
    # "libxml2.so.2 => /lib/x86_64-linux-gnu/libxml2.so.2 (0x...)", or "/lib64/ld-linux-x86-64.so.2 (0x...)".
    path=$(awk -v lib="$needed" '($1 == lib && $2 == "=>") {print $3; exit}
        (substr($1, length($1) - length(lib)) == "/" lib) {print $1; exit}' <<<"$LIBRARIES")
    [ -n "$path" ] && [ -e "$path" ] || die "ldd does not find $needed: $(grep -F "$needed" <<<"$LIBRARIES")"
    owner "$path" || die "no Debian package owns $path ($needed)"
done > "$DIR/RUNTIME-PACKAGES.libraries"
# Libraries it opens only when it uses them (dlopen, so they are not DT_NEEDED): libcurl, for
# an HTTP model (Sources/CLibCurl/shim.h). Where the loader finds it, and its package.
for opened in libcurl.so.4; do
    path=$(ldconfig -p | awk -v lib="$opened" '$1 == lib {print $NF; exit}')
    [ -n "$path" ] && [ -e "$path" ] || die "the loader does not find $opened (Debian's libcurl4), which HTTP opens"
    owner "$path" || die "no Debian package owns $path ($opened)"
done >> "$DIR/RUNTIME-PACKAGES.libraries"
# What HTTPS needs at run time besides libraries: the CA certificates libcurl checks a server's
# against (libcurl4 only recommends ca-certificates, which INSTALL's --no-install-recommends skips).
{ cat "$DIR/RUNTIME-PACKAGES.libraries"; echo ca-certificates; } | sort -u > "$DIR/RUNTIME-PACKAGES"
rm -f "$DIR/RUNTIME-PACKAGES.libraries"
[ -s "$DIR/RUNTIME-PACKAGES" ] || die "found no runtime package"

# Licences. The Swift runtime and Foundation: the toolchain's own licence file.
TOOLCHAIN=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")
[ -f "$TOOLCHAIN/share/swift/LICENSE.txt" ] || die "the toolchain's licence is not at $TOOLCHAIN/share/swift/LICENSE.txt"
cp "$TOOLCHAIN/share/swift/LICENSE.txt" "$DIR/licenses/Swift-Apache-2.0-with-Runtime-Library-Exception.txt"
cp LICENSE "$DIR/licenses/CaptionAssistant-LICENSE.txt"
cp packaging/licenses/Unicode-DFS-2016.txt packaging/licenses/ICU-LICENSE.txt "$DIR/licenses/"
SWIFT_VERSION=$(swift --version 2>&1 | head -n 1)
ICU=$(grep -a -o -m 1 'icudt[0-9]*' "$PACKED" | sed -n 1p | tr -dc '0-9')
[ -n "$ICU" ] || die "cannot tell which ICU the binary holds"
CLDR=$(sed -n 's/^\/\/ Generated by .* from Unicode CLDR \([0-9]*\).*/\1/p' Sources/Assistant/Emoji/EmojiTable.swift)
[ -n "$CLDR" ] || die "cannot read the CLDR version from Sources/Assistant/Emoji/EmojiTable.swift"
{
    echo "caption-assistant $("$PACKED" version | cut -d' ' -f2-), built with $SWIFT_VERSION"
    echo
    echo "caption-assistant itself (this program and the CaptionAssistant package it is"
    echo "built from): Apache License 2.0 (CaptionAssistant-LICENSE.txt, the project's"
    echo "LICENSE file)."
    echo
    echo "This binary holds, linked in:"
    echo
    echo "- The Swift standard library and runtime, Foundation, Dispatch and the"
    echo "  other libraries of the Swift toolchain: Apache License 2.0 with the"
    echo "  Runtime Library Exception (Swift-Apache-2.0-with-Runtime-Library-Exception.txt,"
    echo "  the toolchain's own licence file)."
    echo "- ICU $ICU with its data, inside the toolchain's Foundation (swift-foundation-icu):"
    echo "  Unicode License V3, and the notices of the third-party data ICU carries"
    echo "  (the Chinese/Japanese, Lao and Burmese word-break dictionaries, the time"
    echo "  zone database, Google double-conversion): ICU-LICENSE.txt, ICU's LICENSE"
    echo "  file. The toolchain does not ship one; this copy is ICU 78.2's, as Debian's"
    echo "  nodejs package carries it (/usr/share/doc/nodejs/LICENSE), which lists the"
    echo "  same third-party components as the ICU releases before it (ICU $ICU's own"
    echo "  file: https://github.com/unicode-org/icu, tag release-$ICU-*)."
    echo "- The emoji table (Sources/Assistant/Emoji/EmojiTable.swift) and the emoji"
    echo "  annotations of the fallback (Sources/Assistant/Emoji/EmojiAnnotations.swift),"
    echo "  generated from Unicode CLDR $CLDR's annotations (English, German, Spanish,"
    echo "  French, Italian, Japanese, Portuguese): Unicode License Agreement - Data"
    echo "  Files and Software, Unicode-DFS-2016 (Unicode-DFS-2016.txt)."
    echo
    echo "It loads at run time these Debian packages' libraries and CA certificates (RUNTIME-PACKAGES),"
    echo "which are not included; each package's licence is in"
    echo "/usr/share/doc/PACKAGE/copyright where it is installed:"
    echo
    sed 's/^/    /' "$DIR/RUNTIME-PACKAGES"
} > "$DIR/licenses/NOTICE"
# INSTALL, and what this build needs of the system it runs on.
OS=$( (. /etc/os-release && echo "$PRETTY_NAME") 2>/dev/null || uname -sr)
SYMBOLS=$(objdump -T "$PACKED")
GLIBC=$(grep -o 'GLIBC_[0-9.]*' <<<"$SYMBOLS" | sort -Vu | sed -n '$p')
GLIBCXX=$(grep -o 'GLIBCXX_[0-9.]*' <<<"$SYMBOLS" | sort -Vu | sed -n '$p')
SONAMES=$(objdump -p "$PACKED" | awk '$1 == "NEEDED" {printf "%s%s", sep, $2; sep = ", "}')
{
    cat packaging/INSTALL
    echo
    echo "Packed on $OS with $SWIFT_VERSION, from commit ${COMMIT:-unknown}."
    echo "It loads $SONAMES;"
    echo "and uses symbol versions up to ${GLIBC:-?} and ${GLIBCXX:-?}: a system with an"
    echo "older C library (glibc) or C++ library (libstdc++) cannot run it."
} > "$DIR/INSTALL"

# The archive: entries sorted, owned by root, dated at the commit (or now).
mkdir -p "$OUTPUT"
DATE=$(git -C "$ROOT" log -1 --format=%ct 2>/dev/null || date +%s)
ARCHIVE=$(cd "$OUTPUT" && pwd)/$NAME.tar.gz
tar -C "$STAGE" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$DATE" -cf - "$NAME" | gzip -n -9 > "$ARCHIVE.partial"
mv "$ARCHIVE.partial" "$ARCHIVE"
echo "package: binary $(stat -c %s "$PACKED") bytes stripped ($(stat -c %s "$BIN") before), archive $(stat -c %s "$ARCHIVE") bytes; runtime packages: $(tr '\n' ' ' < "$DIR/RUNTIME-PACKAGES")" >&2
echo "$ARCHIVE"
