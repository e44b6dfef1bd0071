#!/usr/bin/env bash
# The real model as users run it (issue 23): one caption-assistant batch over
# the 25 transcripts of scripts/model-bench/transcripts (SmolLM2-135M through
# llama-cpp-python's server, one thread, --jobs 1) against the plain client
# posting the same request bodies one after another (recorded first through
# the logging proxy), in ROUNDS alternating rounds. bench-model-rate.sh
# measures one process per file instead (start-up and the availability check
# paid per file).
#
#   bash scripts/bench-model-batch-rate.sh [BIN] [ROUNDS]   (default: this tree's release build, 2)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
HELPER=scripts/real_model_e2e.py
if [ $# -gt 0 ]; then BIN=$1; else
    swift build -c release --product caption-assistant >&2
    BIN="$(swift build -c release --show-bin-path)/caption-assistant"
fi
ROUNDS=${2:-2}
PY=$(E2E_SETUP_ONLY=1 bash scripts/real-model-e2e.sh | tail -1)
GGUF=$("$PY" "$HELPER" find-gguf)
W=$(mktemp -d "${TMPDIR:-/tmp}/bench-model-batch.XXXXXX")
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$W"; }
trap cleanup EXIT
PORT=$("$PY" "$HELPER" free-port)
"$PY" -m llama_cpp.server --model "$GGUF" --host 127.0.0.1 --port "$PORT" --n_threads 1 >"$W/server.log" 2>&1 &
pids+=($!)
"$PY" "$HELPER" wait "http://127.0.0.1:$PORT/v1/models" --pid "${pids[0]}" --timeout 180 >&2
PROXY_PORT=$("$PY" "$HELPER" free-port)
"$PY" "$HELPER" proxy --listen "$PROXY_PORT" --upstream "http://127.0.0.1:$PORT" --log "$W/bodies.jsonl" &
pids+=($!)
"$PY" "$HELPER" wait "http://127.0.0.1:$PROXY_PORT/v1/models" --pid "${pids[1]}" --timeout 30 >&2
ARGS=(--model http --server-kind llama-cpp-python --request-timeout 300 --jobs 1 --quiet)
"$BIN" scripts/model-bench/transcripts "${ARGS[@]}" -o "$W/recorded" --endpoint "http://127.0.0.1:$PROXY_PORT" || true
echo "load before: $(uptime)" >&2
now() { date +%s.%N; }
echo "| round | ours: seconds, requests | plain client: seconds (Python start included) | rate / plain client's |"
echo "|---|---|---|---|"
for round in $(seq 1 "$ROUNDS"); do
    rm -rf "$W/out"; s=$(now)
    "$BIN" scripts/model-bench/transcripts "${ARGS[@]}" -o "$W/out" --endpoint "http://127.0.0.1:$PORT" || true
    ours=$(awk -v s="$s" -v e="$(now)" 'BEGIN { print e - s }')
    requests=$(jq '.totals.model.requests // 0' "$W/out/report.json")
    s=$(now)
    "$PY" scripts/plain-model-client.py --exchanges "$W/bodies.jsonl" --endpoint "http://127.0.0.1:$PORT" >/dev/null
    plain=$(awk -v s="$s" -v e="$(now)" 'BEGIN { print e - s }')
    awk -v r="$round" -v o="$ours" -v q="$requests" -v p="$plain" 'BEGIN { printf "| %d | %.1f, %d | %.1f | %.3f |\n", r, o, q, p, p / o }'
done
echo "load after: $(uptime)" >&2
