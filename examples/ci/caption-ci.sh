#!/usr/bin/env bash
# Caption checks for a repository's CI, as plain shell: the steps of
# examples/ci/captions.yml (GitHub Actions), one subcommand each, in order.
#
#   examples/ci/caption-ci.sh install   the release archive: unpacked, its
#                                       RUNTIME-PACKAGES installed when missing
#   examples/ci/caption-ci.sh golden    the captions with the fake model, compared
#                                       with the golden copies, byte for byte
#   examples/ci/caption-ci.sh model     check --require-model against the model
#                                       service, the batch with it (--json), and
#                                       the review (kept as an artifact)
#   examples/ci/caption-ci.sh gate      pass only if the model run's --json says
#                                       every file and every action went well
#   examples/ci/caption-ci.sh all       the four, in that order
#
# Settings (environment):
#   CAPTION_ASSISTANT_ARCHIVE   the release archive: a URL or a file (install)
#                               (caption-assistant-VERSION-linux-ARCH.tar.gz,
#                               made by scripts/package.sh)
#   CAPTION_ASSISTANT_HOME      where it is installed (default: .caption-assistant)
#   CAPTIONS                    the caption folder (default: captions)
#   GOLDEN                      the fake model's expected output (default:
#                               captions-golden); UPDATE_GOLDENS=1 writes it
#   RESULTS                     where outputs go (default: caption-results):
#                               fake/, model/ with model/review/, *.json
#   CAPTION_ASSISTANT_ENDPOINT  the model service (OpenAI-compatible), and
#   CAPTION_ASSISTANT_MODEL, CAPTION_ASSISTANT_API_KEY as caption-assistant reads them
#
# Exit status: 0 passed; 1 a check failed; 69 the model service cannot answer
# (caption-assistant's own status under --require-model); 64 bad usage.
set -euo pipefail

HOME_DIR=${CAPTION_ASSISTANT_HOME:-.caption-assistant}
CAPTIONS=${CAPTIONS:-captions}
GOLDEN=${GOLDEN:-captions-golden}
RESULTS=${RESULTS:-caption-results}
BIN=$HOME_DIR/bin/caption-assistant
say() { echo "caption-ci: $*" >&2; }
fail() { say "FAILED: $*"; exit "${2:-1}"; }

install() {
    local archive=${CAPTION_ASSISTANT_ARCHIVE:?set CAPTION_ASSISTANT_ARCHIVE to the release archive (URL or file)}
    local tmp
    tmp=$(mktemp -d)
    case $archive in
        http://*|https://*) curl -fsSL --retry 3 -o "$tmp/archive.tar.gz" "$archive" ;;
        *) cp "$archive" "$tmp/archive.tar.gz" ;;
    esac
    rm -rf "$HOME_DIR"
    mkdir -p "$HOME_DIR/bin"
    tar -xzf "$tmp/archive.tar.gz" -C "$HOME_DIR"
    rm -rf "$tmp"
    local unpacked
    unpacked=$(find "$HOME_DIR" -mindepth 1 -maxdepth 1 -type d -name 'caption-assistant-*')
    [ -x "$unpacked/bin/caption-assistant" ] || fail "the archive holds no bin/caption-assistant"
    # The Debian packages of the libraries it loads: only those not installed yet.
    local missing=() package
    while read -r package; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
    done < "$unpacked/RUNTIME-PACKAGES"
    if [ ${#missing[@]} -gt 0 ]; then
        say "installing ${missing[*]}"
        local sudo=()
        [ "$(id -u)" = 0 ] || sudo=(sudo)
        "${sudo[@]}" apt-get update -q
        DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
    fi
    ln -sf "$(cd "$unpacked" && pwd)/bin/caption-assistant" "$BIN"
    # Later GitHub Actions steps find it on PATH.
    if [ -n "${GITHUB_PATH:-}" ]; then (cd "$HOME_DIR/bin" && pwd) >> "$GITHUB_PATH"; fi
    say "installed: $("$BIN" version)"
}

golden() {
    [ -d "$CAPTIONS" ] || fail "no caption folder $CAPTIONS (set CAPTIONS)" 64
    rm -rf "$RESULTS/fake"
    mkdir -p "$RESULTS"
    local status=0
    "$BIN" "$CAPTIONS" -o "$RESULTS/fake" -test-fake-assistant --quiet || status=$?
    [ $status = 0 ] || fail "the fake-model run exited $status"
    if [ "${UPDATE_GOLDENS:-}" = 1 ]; then
        rm -rf "$GOLDEN"
        cp -R "$RESULTS/fake" "$GOLDEN"
        say "wrote the golden copies in $GOLDEN: look at them, and commit them"
        return
    fi
    [ -d "$GOLDEN" ] || fail "no golden folder $GOLDEN (UPDATE_GOLDENS=1 $0 golden writes it)"
    diff -r "$GOLDEN" "$RESULTS/fake" >&2 ||
        fail "the outputs differ from the golden copies in $GOLDEN (the diff above; UPDATE_GOLDENS=1 $0 golden rewrites them)"
    say "golden: $(find "$RESULTS/fake" -type f | wc -l) files as in $GOLDEN"
}

model() {
    [ -d "$CAPTIONS" ] || fail "no caption folder $CAPTIONS (set CAPTIONS)" 64
    mkdir -p "$RESULTS"
    # Is the model there, and can it answer? Exit 69 when not: no batch is run.
    local status=0
    "$BIN" check --require-model || status=$?
    [ $status = 0 ] || fail "the model service cannot answer (check --require-model exited $status)" "$status"
    rm -rf "$RESULTS/model"
    "$BIN" "$CAPTIONS" -o "$RESULTS/model" --require-model --json > "$RESULTS/model.json" || status=$?
    # The review, whatever happened: the artifact shows what the model wrote, and why an action failed.
    "$BIN" review "$RESULTS/model" >&2 || say "no review: the run wrote no report"
    [ $status = 0 ] || fail "the run with the model exited $status ($RESULTS/model.json)" "$status"
    say "model: $RESULTS/model, review in $RESULTS/model/review/index.html"
}

gate() {
    [ -s "$RESULTS/model.json" ] || fail "no $RESULTS/model.json: run '$0 model' first"
    python3 - "$RESULTS/model.json" <<'PY' || fail "the model run's summary ($RESULTS/model.json) does not pass"
import json, sys
summary = json.load(open(sys.argv[1]))
problems = []
if summary["exitStatus"] != 0: problems.append(f"exit status {summary['exitStatus']}")
if summary["failed"]: problems.append(f"{summary['failed']} files failed")
if summary["modelUnavailable"]: problems.append(f"{summary['modelUnavailable']} files without the model")
if summary["actions"]["failed"]: problems.append(f"{summary['actions']['failed']} actions failed")
if summary["actions"]["disabled"]: problems.append(f"{summary['actions']['disabled']} actions disabled")
for error in summary.get("modelErrors", []): problems.append(f"model error: {json.dumps(error, ensure_ascii=False)}")
# Which file, which action, and why (caption-assistant's own list of what was not applied).
for entry in summary.get("notApplied", []):
    for action in entry.get("actions", []):
        problems.append(f"{entry.get('input')}: {action.get('id')} {action.get('state')}: {action.get('reason')}")
for problem in problems: print(f"caption-ci: {problem}", file=sys.stderr)
print(f"caption-ci: gate: {summary['written']} of {summary['files']} files written, {summary['actions']['applied']} actions applied", file=sys.stderr)
sys.exit(1 if problems else 0)
PY
}

case ${1:-} in
    install) install ;;
    golden) golden ;;
    model) model ;;
    gate) gate ;;
    all) install; golden; model; gate ;;
    *) echo "usage: $0 install|golden|model|gate|all" >&2; exit 64 ;;
esac
