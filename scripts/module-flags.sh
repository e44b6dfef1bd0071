#!/usr/bin/env bash
# The compiler flags, one a line, that let swiftc or swift-symbolgraph-extract
# import the package's modules as the debug build made them (its Modules folder,
# and the module maps of the C modules they import: libxml2's, libcurl's,
# libhunspell's, libcrypto's, CBuildInfo's). For scripts/check-snippets.sh and scripts/docs.sh.
#
#   scripts/module-flags.sh BIN_PATH     (swift build --show-bin-path)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:?usage: $0 BIN_PATH}
printf '%s\n' -I "$BIN/Modules" -I "$BIN" -I "$PWD/Sources/CLibXML2" -I "$PWD/Sources/CLibCurl" -I "$PWD/Sources/CLibHunspell" \
    -I "$PWD/Sources/CLibCrypto" -I "$BIN/CBuildInfo.build"
for f in $(pkg-config --cflags-only-I libxml-2.0 2>/dev/null || echo -I/usr/include/libxml2); do printf '%s\n' -Xcc "$f"; done
