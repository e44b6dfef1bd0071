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
# shares a word with the transcript.
#
#   bash scripts/model-bench.sh [LABEL]
#
# Environment: CAPTION_ASSISTANT_BIN (default: swift build it), BENCH_WORK_DIR,
# BENCH_VERBOSE=1 (one line per file), BENCH_ARGS (more caption-assistant flags).
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
: >"$WORK/exchanges.jsonl"
"$PY" "$HELPER" proxy --listen "$PROXY_PORT" --upstream "http://127.0.0.1:$PORT" --log "$WORK/exchanges.jsonl" &
pids+=($!)
"$PY" "$HELPER" wait "http://127.0.0.1:$PROXY_PORT/v1/models" --pid "${pids[1]}" --timeout 30
rm -rf "$WORK/out"
set +e
# shellcheck disable=SC2086
"$BIN" scripts/model-bench/transcripts -o "$WORK/out" --model http --endpoint "http://127.0.0.1:$PROXY_PORT" \
    --server-kind llama-cpp-python --request-timeout 300 --jobs 1 ${BENCH_ARGS:-} >&2
status=$?
set -e
echo "caption-assistant exited $status; outputs in $WORK" >&2
kill -0 "${pids[0]}" 2>/dev/null || { echo "the model server died; log:" >&2; tail -20 "$WORK/server.log" >&2; exit 1; }
echo "| build | all actions applied | keywords | titles | emoji | titles copied (from a caption line, or the prompt's example) | transport failures | requests/file | prompt / completion tokens per file | model s/file |"
echo "|---|---|---|---|---|---|---|---|---|---|"
"$PY" "$HELPER" bench "$WORK/out/report.json" --exchanges "$WORK/exchanges.jsonl" \
    --captions scripts/model-bench/transcripts --label "$LABEL" ${BENCH_VERBOSE:+--verbose}
