#!/usr/bin/env bash
# Runs two builds of caption-assistant over the same inputs and compares the
# whole output folders byte for byte (diff -r): the fake model, --model none,
# --model none --fallback local, and each --to, one process each. For a change that must not move an output
# byte (a refactor), every comparison must say "same".
#
#   scripts/compare-outputs.sh OLD_BINARY NEW_BINARY INPUT... 
#
# INPUTs are files or folders (a corpus made by ../shared/bench/gen_corpus.py,
# UITestFixtures/*/input, Tests/CaptionsTests/Fixtures, ...). Outputs go under
# ${WORK:-/dev/shm/compare-outputs} and are removed at the end. Exit status 1
# when any comparison differs. Standard output and error are compared too,
# so the runs use --jobs ${JOBS:-1}: with more, failure lines are printed in
# the order files finish, which differs from run to run.
set -uo pipefail
old=$1 new=$2; shift 2
work=${WORK:-/dev/shm/compare-outputs}
rm -rf "$work"; mkdir -p "$work"
status=0
runs=("fake:-test-fake-assistant" "none:--model none" "fallback:--model none --fallback local")
for to in srt vtt ttml; do runs+=("fake-to-$to:-test-fake-assistant --to $to" "none-to-$to:--model none --to $to"); done
for run in "${runs[@]}"; do
    name=${run%%:*} flags=${run#*:}
    # shellcheck disable=SC2086
    "$old" process "$@" -o "$work/old-$name" $flags --quiet --jobs "${JOBS:-1}" >"$work/old-$name.stdout" 2>"$work/old-$name.stderr"; a=$?
    # shellcheck disable=SC2086
    "$new" process "$@" -o "$work/new-$name" $flags --quiet --jobs "${JOBS:-1}" >"$work/new-$name.stdout" 2>"$work/new-$name.stderr"; b=$?
    files=$(find "$work/new-$name" -type f | wc -l)
    if [ "$a" = "$b" ] && diff -r "$work/old-$name" "$work/new-$name" >/dev/null \
        && cmp -s "$work/old-$name.stderr" "$work/new-$name.stderr" && cmp -s "$work/old-$name.stdout" "$work/new-$name.stdout"; then
        echo "same       $name: $files files, exit $b"
    else
        echo "DIFFERENT  $name: exit $a vs $b"; diff -r "$work/old-$name" "$work/new-$name" | head -20; status=1
    fi
    rm -rf "$work/old-$name" "$work/new-$name"
done
rm -rf "$work"
exit $status
