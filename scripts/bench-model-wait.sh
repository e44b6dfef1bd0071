#!/usr/bin/env bash
# What a model run costs on our side (issue 23): caption-assistant's CPU while
# it waits for answers, against servers of different make, and a model-bound
# batch against a stub with a fixed latency. Prints Markdown tables.
#
#   bash scripts/bench-model-wait.sh [BIN ...]
#
# BIN: caption-assistant binaries to compare (default: this tree's release
# build). With several, every measurement runs them one after the other
# (interleaved), so a busy machine weighs on each alike.
#
# 1. CPU during a model wait: one file (Samples/rocket-launch.srt, --jobs 1)
#    whose one request is answered after WAIT seconds (default 5) by
#      http.server   Python's http.server (scripts/model-stub.py)
#      raw           a plain socket server (scripts/model-stub.py --kind raw)
#      llama-cpp-python  the real SmolLM2 server, one thread (with LLAMA=1; the
#                    venv scripts/real-model-e2e.sh makes), answering as fast as it
#                    can, after one untimed run that warms it
#    The row gives wall, user and sys seconds of caption-assistant
#    (/usr/bin/time) and CPU as a share of the wall time.
# 2. A model-bound batch: FILES copies (default 40) of Samples/rocket-launch.srt
#    against the http.server stub answering after LATENCY seconds (default 0.5),
#    --jobs 1 and --jobs 4: wall time against the ideal (files x latency / jobs)
#    and CPU milliseconds per request; then the plain client
#    (scripts/plain-model-client.py) posts the first run's bodies one after
#    another, the least any client can take.
#
# Environment: WAIT, FILES, LATENCY, LLAMA=1.
# A benchmark, not a test: figures are as noisy as the machine (state its load).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
WAIT=${WAIT:-5}
FILES=${FILES:-40}
LATENCY=${LATENCY:-0.5}
if [ $# -gt 0 ]; then BINS=("$@"); else
    swift build -c release --product caption-assistant >&2
    BINS=("$(swift build -c release --show-bin-path)/caption-assistant")
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench-model-wait.XXXXXX")
server_pid=""
stop_server() { if [ -n "$server_pid" ]; then kill -9 "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; server_pid=""; fi; }
trap 'stop_server; rm -rf "$WORK"' EXIT

# start_server KIND LATENCY [LOG]: starts it in the background, sets PORT.
start_server() {
    : >"$WORK/server.out"
    case $1 in
        http.server|raw) python3 scripts/model-stub.py --port 0 --latency "$2" --kind "$1" ${3:+--log "$3"} >"$WORK/server.out" 2>&1 & ;;
    esac
    server_pid=$!
    for _ in $(seq 300); do grep -q '^listening on' "$WORK/server.out" && break; sleep 0.1; done
    PORT=$(awk '/^listening on/ {print $3}' "$WORK/server.out")
    [ -n "$PORT" ] || { echo "the $1 server did not start:" >&2; cat "$WORK/server.out" >&2; exit 1; }
}

# timed BIN ARGS...: runs caption-assistant, sets WALL UTIME STIME from /usr/bin/time.
timed() {
    local bin=$1; shift
    rm -rf "$WORK/out"
    /usr/bin/time -f "%e %U %S" -o "$WORK/time" "$bin" "$@" -o "$WORK/out" --quiet || true
    read -r WALL UTIME STIME < <(tail -1 "$WORK/time")
}

echo "load before: $(uptime)"
echo
echo "### CPU of caption-assistant while the model thinks (one file, --jobs 1)"
echo
echo "| server | binary | wall s | user s | sys s | CPU, % of wall | actions applied |"
echo "|---|---|---|---|---|---|---|"
kinds=(http.server raw)
[ "${LLAMA:-0}" = 1 ] && kinds+=(llama-cpp-python)
for kind in "${kinds[@]}"; do
    extra=()
    if [ "$kind" = llama-cpp-python ]; then
        PY=$(E2E_SETUP_ONLY=1 bash scripts/real-model-e2e.sh | tail -1)
        GGUF=$("$PY" scripts/real_model_e2e.py find-gguf)
        PORT=$("$PY" scripts/real_model_e2e.py free-port)
        "$PY" -m llama_cpp.server --model "$GGUF" --host 127.0.0.1 --port "$PORT" --n_threads 1 >"$WORK/server.out" 2>&1 &
        server_pid=$!
        "$PY" scripts/real_model_e2e.py wait "http://127.0.0.1:$PORT/v1/models" --pid "$server_pid" --timeout 180 >&2
        extra=(--server-kind llama-cpp-python --request-timeout 300)
        # One untimed run first: the server's first answer also loads the model.
        timed "${BINS[0]}" Samples/rocket-launch.srt --endpoint "http://127.0.0.1:$PORT" --jobs 1 "${extra[@]}"
    else
        start_server "$kind" "$WAIT"
    fi
    for bin in "${BINS[@]}"; do
        timed "$bin" Samples/rocket-launch.srt --endpoint "http://127.0.0.1:$PORT" --jobs 1 "${extra[@]}"
        applied=$(jq '[.actions[] | select(.state == "applied")] | length' "$WORK/out/rocket-launch.srt.assistant.json" 2>/dev/null || echo "?")
        awk -v k="$kind" -v b="$bin" -v w="$WALL" -v u="$UTIME" -v s="$STIME" -v a="$applied" \
            'BEGIN { printf "| %s | %s | %.2f | %.2f | %.2f | %.1f %% | %s of 3 |\n", k, b, w, u, s, 100 * (u + s) / w, a }'
    done
    stop_server
done

echo
echo "### A model-bound batch: $FILES files, an answer $LATENCY s after each request (Python http.server stub)"
echo
mkdir -p "$WORK/batch"
for i in $(seq -w 1 "$FILES"); do cp Samples/rocket-launch.srt "$WORK/batch/f$i.srt"; done
start_server http.server "$LATENCY" "$WORK/bodies.jsonl"
echo "| binary | --jobs | files | wall s | ideal s (files x latency / jobs) | wall / ideal | requests | CPU s (user + sys) | CPU ms per request |"
echo "|---|---|---|---|---|---|---|---|---|"
for jobs in 1 4; do
    for bin in "${BINS[@]}"; do
        timed "$bin" "$WORK/batch" --endpoint "http://127.0.0.1:$PORT" --jobs "$jobs"
        requests=$(jq '.totals.model.requests // 0' "$WORK/out/report.json")
        awk -v b="$bin" -v j="$jobs" -v f="$FILES" -v l="$LATENCY" -v w="$WALL" -v u="$UTIME" -v s="$STIME" -v r="$requests" \
            'BEGIN { ideal = f * l / j; printf "| %s | %d | %d | %.2f | %.2f | %.2f | %d | %.2f | %.1f |\n", b, j, f, w, ideal, w / ideal, r, u + s, (r > 0 ? 1000 * (u + s) / r : 0) }'
    done
done
# The yardstick: the first run's request bodies posted again one after another
# (scripts/plain-model-client.py, urllib; its Python start is not counted).
head -n "$FILES" "$WORK/bodies.jsonl" >"$WORK/first.jsonl"
read -r posted took < <(python3 scripts/plain-model-client.py --exchanges "$WORK/first.jsonl" --endpoint "http://127.0.0.1:$PORT")
awk -v f="$FILES" -v l="$LATENCY" -v w="$took" -v r="$posted" \
    'BEGIN { ideal = f * l; printf "| plain client (the same bodies, one after another) | 1 | %d | %.2f | %.2f | %.2f | %d | | |\n", f, w, ideal, w / ideal, r }'
stop_server
echo
echo "load after: $(uptime)"
