#!/usr/bin/env bash
# The measured success rate of the real model (issue 13): runs caption-assistant
# with SmolLM2-135M (llama-cpp-python's server, one thread) over the transcripts
# in scripts/model-bench/transcripts/ and prints one Markdown table row: the
# share of all actions applied and of each action, the share of titles that are
# a caption line (or part of one), transport failures, requests, prompt /
# completion tokens and model seconds per file (from a logging proxy, so any
# build can be measured the same way); then a row of quality per action (issue
# 24): titles copied, answers with repeated keywords, keywords that are stop
# words of the transcript's language, emoji whose CLDR name (from EmojiTable)
# shares a word with the transcript; then issue 30's figures: titles refused
# by each rule (placeholder, JSON, label, punctuation, letters, words,
# mid-clause, repeat), titles applied that those rules refuse, keywords that
# are speaker labels or descriptions, failed requests, requests and tokens
# per file. With BENCH_BEFORE_BIN, an earlier build runs first over the same
# transcripts and server: before and after in one run.
#
#   BENCH_BEFORE_BIN=/path/to/old/caption-assistant bash scripts/model-bench.sh [LABEL]
#
# Environment: CAPTION_ASSISTANT_BIN (default: swift build it), BENCH_WORK_DIR,
# BENCH_VERBOSE=1 (one line per file), BENCH_ARGS (more caption-assistant flags),
# BENCH_SERVER_KIND (default auto: the README's recipe), BENCH_JOBS (default 1).
# The environment is the one scripts/real-model-e2e.sh makes (and reuses).
# A benchmark, not a CI test: it takes minutes, and times are as noisy as the machine.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
LABEL=${1:-run}
HELPER="$ROOT/scripts/real_model_e2e.py"
PY=$(E2E_SETUP_ONLY=1 bash scripts/real-model-e2e.sh | tail -1)
GGUF=$("$PY" "$HELPER" find-gguf)
WORK=${BENCH_WORK_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/caption-bench.XXXXXX")}
mkdir -p "$WORK"
if [ -n "${CAPTION_ASSISTANT_BIN:-}" ]; then
    BIN=$CAPTION_ASSISTANT_BIN
else
    swift build -c release --product caption-assistant >&2
    BIN="$(swift build -c release --show-bin-path)/caption-assistant"
fi
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT
PORT=$("$PY" "$HELPER" free-port)
"$PY" -m llama_cpp.server --model "$GGUF" --host 127.0.0.1 --port "$PORT" --n_threads 1 >"$WORK/server.log" 2>&1 &
pids+=($!)
"$PY" "$HELPER" wait "http://127.0.0.1:$PORT/v1/models" --pid "${pids[0]}" --timeout 180 || { tail -20 "$WORK/server.log" >&2; exit 1; }
PROXY_PORT=$("$PY" "$HELPER" free-port)
# Each build runs over the same transcripts against the same server, one after
# the other: BENCH_BEFORE_BIN (a build from before a change, labelled
# "before") first when given, then the build measured (labelled LABEL).
runs=()
[ -n "${BENCH_BEFORE_BIN:-}" ] && runs+=("before=$BENCH_BEFORE_BIN")
runs+=("$LABEL=$BIN")
for run in "${runs[@]}"; do
    label=${run%%=*}
    bin=${run#*=}
    out="$WORK/out-$label"
    exchanges="$WORK/exchanges-$label.jsonl"
    rm -rf "$out"
    : >"$exchanges"
    "$PY" "$HELPER" proxy --listen "$PROXY_PORT" --upstream "http://127.0.0.1:$PORT" --log "$exchanges" &
    proxy_pid=$!
    pids+=("$proxy_pid")
    "$PY" "$HELPER" wait "http://127.0.0.1:$PROXY_PORT/v1/models" --pid "$proxy_pid" --timeout 30
    : >"$exchanges"   # the wait's own request is not the build's
    set +e
    # shellcheck disable=SC2086
    "$bin" scripts/model-bench/transcripts -o "$out" --model http --endpoint "http://127.0.0.1:$PROXY_PORT" \
        --server-kind "${BENCH_SERVER_KIND:-auto}" --request-timeout 300 --jobs "${BENCH_JOBS:-1}" ${BENCH_ARGS:-} >&2
    status=$?
    set -e
    kill "$proxy_pid" 2>/dev/null || true
    wait "$proxy_pid" 2>/dev/null || true
    echo "$label: caption-assistant exited $status; outputs in $out" >&2
    kill -0 "${pids[0]}" 2>/dev/null || { echo "the model server died; log:" >&2; tail -20 "$WORK/server.log" >&2; exit 1; }
    echo "| build | all actions applied | keywords | titles | emoji | titles copied (from a caption line, or the prompt's example) | transport failures | requests/file | prompt / completion tokens per file | model s/file |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    "$PY" "$HELPER" bench "$out/report.json" --exchanges "$exchanges" \
        --captions scripts/model-bench/transcripts --label "$label" ${BENCH_VERBOSE:+--verbose}
    echo
done
