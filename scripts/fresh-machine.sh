#!/usr/bin/env bash
# Runs a command as on a fresh Debian machine with the Swift toolchain: what the
# README does not install is hidden in a private mount namespace (unshare -m),
# as scripts/package-e2e.sh hides the toolchain. Today that is libcurl's
# development package (libcurl4-openssl-dev: curl/curl.h, the libcurl.so link,
# libcurl.a, libcurl.pc); libcurl's runtime library (libcurl4) stays.
#
#   scripts/fresh-machine.sh COMMAND [ARG...]
#
# Checks first that the hiding holds (no curl.h for the C compiler, no libcurl
# for pkg-config or for the linker's -lcurl, libcurl.so.4 still loads), then
# runs COMMAND there. Needs root (mount namespaces); exit 77 without.
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 COMMAND [ARG...]" >&2; exit 64; }
[ "$(id -u)" = 0 ] || { echo "fresh-machine: needs root (a mount namespace hides libcurl's headers)" >&2; exit 77; }
fail() { echo "fresh-machine: FAILED: $*" >&2; exit 1; }

LIBDIR=$(dirname "$(readlink -f "$(ldconfig -p | awk '$1 == "libcurl.so.4" && !done {print $NF; done = 1}')")")
[ -e "$LIBDIR/libcurl.so.4" ] || fail "libcurl's runtime library (libcurl.so.4, Debian's libcurl4) is not installed"
WORK=$(mktemp -d /tmp/fresh-machine.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/empty" "$WORK/all" "$WORK/view/pkgconfig"
# The library folder seen again: every entry of it (through a second view of it,
# $WORK/all) but libcurl's development files; pkgconfig/ likewise without libcurl.pc.
find "$LIBDIR" -mindepth 1 -maxdepth 1 ! -name 'libcurl.so' ! -name 'libcurl.a' ! -name 'libcurl.la' ! -name pkgconfig \
    -printf "$WORK/all/%f\0" | xargs -0 ln -s -t "$WORK/view"
if [ -d "$LIBDIR/pkgconfig" ]; then
    find "$LIBDIR/pkgconfig" -mindepth 1 -maxdepth 1 ! -name 'libcurl.pc' -printf "$WORK/all/pkgconfig/%f\0" |
        xargs -0 -r ln -s -t "$WORK/view/pkgconfig"
fi
# The header folders curl/ may be in (Debian: the multiarch one).
HIDE=()
for include in /usr/include/curl "/usr/include/$(basename "$LIBDIR")/curl" /usr/local/include/curl; do
    [ -d "$include" ] && HIDE+=("$include")
done

unshare -m -- bash -c '
    set -e
    empty=$1 all=$2 view=$3 libdir=$4 count=$5; shift 5
    mount --make-rprivate / 2>/dev/null || true
    for dir in "${@:1:$count}"; do mount --bind "$empty" "$dir"; done
    shift "$count"
    mount --bind "$libdir" "$all"
    mount --bind "$view" "$libdir"
    fail() { echo "fresh-machine: FAILED: $*" >&2; exit 1; }
    ! echo "#include <curl/curl.h>" | cc -E -x c - >/dev/null 2>&1 || fail "curl/curl.h is still visible"
    ! pkg-config --exists libcurl 2>/dev/null || fail "pkg-config still finds libcurl"
    ! echo "int main(void){return 0;}" | cc -x c - -o /dev/null -lcurl >/dev/null 2>&1 || fail "the linker still finds -lcurl"
    echo "int main(void){return 0;}" | cc -x c - -o /dev/null -l:libcurl.so.4 >/dev/null 2>&1 || fail "libcurl.so.4 is hidden too"
    echo "fresh-machine: libcurl4-openssl-dev hidden (curl.h, libcurl.so, libcurl.pc); libcurl.so.4 kept" >&2
    exec "$@"
' fresh "$WORK/empty" "$WORK/all" "$WORK/view" "$LIBDIR" "${#HIDE[@]}" "${HIDE[@]}" "$@"
