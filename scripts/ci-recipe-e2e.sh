#!/usr/bin/env bash
# The CI recipe (examples/ci/) run as a user's CI would run it, so it cannot rot:
# its shell version, examples/ci/caption-ci.sh, installs the release archive
# given here, checks the fake model's output against golden copies (the
# reviewed ones of UITestFixtures/fake-folder), runs check --require-model and
# the batch against a stub model server (scripts/model-stub.py), gates on the
# --json summary and writes the review. Then each check must be able to fail:
# a golden byte changed (exit 1), a model service that is not there (exit 69),
# a run whose actions were not applied (exit 1, each named). And the workflow
# (examples/ci/captions.yml) runs the script's steps, in the script's order.
#
#   scripts/ci-recipe-e2e.sh ARCHIVE    (scripts/package.sh makes it; CI passes
#                                        the one scripts/package-e2e.sh built)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
[ $# = 1 ] && [ -f "$1" ] || { echo "usage: $0 ARCHIVE (caption-assistant-VERSION-linux-ARCH.tar.gz)" >&2; exit 64; }
ARCHIVE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
fail() { echo "ci-recipe-e2e: FAILED: $*" >&2; exit 1; }
RECIPE=examples/ci/caption-ci.sh
WORKFLOW=examples/ci/captions.yml

# The workflow's steps are the script's, in the order of its "all".
steps=$(sed -n 's/^ *run: ci\/caption-ci\.sh \([a-z]*\)$/\1/p' "$WORKFLOW" | tr '\n' ' ')
all=$(sed -n 's/^ *all) \(.*\) ;;$/\1/p' "$RECIPE" | tr -d ';' | tr -s ' ' | sed 's/$/ /')
[ -n "$steps" ] && [ "$steps" = "$all" ] || fail "$WORKFLOW runs '$steps', $RECIPE all runs '$all'"
echo "ci-recipe-e2e: OK: $WORKFLOW runs the steps of $RECIPE all: $steps"

WORK=$(mktemp -d /tmp/ci-recipe-e2e.XXXXXX)
STUB_PID=""
trap 'if [ -n "$STUB_PID" ]; then kill "$STUB_PID" 2>/dev/null || true; fi; rm -rf "$WORK"' EXIT
# A user's repository: the recipe where the workflow expects it, captions and their goldens.
REPO=$WORK/repo
mkdir -p "$REPO/ci"
cp "$RECIPE" "$REPO/ci/caption-ci.sh"
cp -R UITestFixtures/fake-folder/input "$REPO/captions"
cp -R UITestFixtures/fake-folder/expected "$REPO/captions-golden"
# The fixture's reports name the input folder "input": the same name here.
mv "$REPO/captions" "$REPO/input"

python3 -u scripts/model-stub.py --port 0 --latency 0 > "$WORK/stub.out" 2>&1 &
STUB_PID=$!
for _ in $(seq 100); do grep -q '^listening on' "$WORK/stub.out" 2>/dev/null && break; sleep 0.1; done
PORT=$(sed -n 's/^listening on \([0-9]*\)$/\1/p' "$WORK/stub.out")
[ -n "$PORT" ] || fail "the stub model server did not start: $(cat "$WORK/stub.out")"

recipe() {
    (cd "$REPO" && env CAPTION_ASSISTANT_ARCHIVE="$ARCHIVE" CAPTION_ASSISTANT_ENDPOINT="http://127.0.0.1:$PORT" \
        CAPTIONS=input GOLDEN=captions-golden ci/caption-ci.sh "$@")
}

start=$SECONDS
recipe all > "$WORK/all.log" 2>&1 || fail "caption-ci.sh all: exit $? ($(cat "$WORK/all.log"))"
R=$REPO/caption-results
[ -s "$R/model/review/index.html" ] || fail "no review in $R/model/review"
grep -q '"applied": 9' "$R/model.json" || fail "the model run did not apply 9 actions: $(cat "$R/model.json")"
echo "ci-recipe-e2e: OK: caption-ci.sh all against a stub server: $(grep -c '' "$WORK/all.log") lines of log, $(find "$R/model/review" -type f | wc -l) review files, in $((SECONDS - start)) s"

# Each check can fail. A golden byte changed:
printf 'X' >> "$REPO/captions-golden/launch/rocket-launch.srt"
status=0; recipe golden > "$WORK/golden.log" 2>&1 || status=$?
[ $status = 1 ] && grep -q 'differ from the golden copies' "$WORK/golden.log" || fail "a changed golden: exit $status ($(cat "$WORK/golden.log"))"
# No model service (the stub stopped): check --require-model's 69, and no batch.
kill "$STUB_PID"; wait "$STUB_PID" 2>/dev/null || true; STUB_PID=""
rm -rf "$R/model"
status=0; recipe model > "$WORK/model.log" 2>&1 || status=$?
[ $status = 69 ] && [ ! -e "$R/model" ] || fail "no model service: exit $status ($(cat "$WORK/model.log"))"
# A run whose actions were not applied (exit 0, without --require-model): the gate
# fails on its --json summary and names each file's actions and why.
(cd "$REPO" && .caption-assistant/bin/caption-assistant input -o caption-results/model --model none --json > caption-results/model.json 2> "$WORK/none.log") ||
    fail "the run without a model exited $?"
status=0; recipe gate > "$WORK/gate.log" 2>&1 || status=$?
[ $status = 1 ] && grep -q '9 actions disabled' "$WORK/gate.log" && grep -q 'launch/rocket-launch.srt: emoji disabled' "$WORK/gate.log" ||
    fail "actions not applied: exit $status ($(cat "$WORK/gate.log"))"
echo "ci-recipe-e2e: OK: a changed golden fails (1), no model service fails (69), a run whose actions were not applied fails the gate (1) and names them"
