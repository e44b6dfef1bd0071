#!/usr/bin/env bash
# Files per minute with the real model (issue 23): caption-assistant over the
# 25 transcripts of scripts/model-bench/transcripts (SmolLM2-135M through
# llama-cpp-python's server, one thread) against the plainest client posting
# the same request bodies one after another (scripts/plain-model-client.py).
# The ratio of the two rates is what our side costs a model-bound run.
#
#   bash scripts/bench-model-rate.sh [BIN ...]
#   bash scripts/bench-model-rate.sh --batch [ROUNDS] [BIN]
#
# BIN: caption-assistant binaries (default: this tree's release build).
#
# --batch: as users run it: one caption-assistant batch over the 25 files
# (--jobs 1) against the plain client posting the bodies that batch sent
# (recorded first through the proxy), one after another, Python's start-up
# included; ROUNDS (default 2) alternating rounds, one table row each.
# Without it:
#
# 1. Recording (not timed; it also warms the server): the first BIN runs on each
#    file alone through the logging proxy (scripts/real_model_e2e.py proxy),
#    which keeps that file's request bodies (the repair request too, if any).
# 2. Timed, file by file, straight to the server: in step i each BIN processes
#    a file of its own (one process per file: its start, the availability
#    check, reading and writing are all counted) and the plain client posts
#    the bodies of another (only its posting is timed). The files are
#    staggered (BIN k and the plain client take file i + k*OFFSET), so every
#    file is done once by each client, no request follows the same prompt
#    (llama-cpp-python would reuse the previous prompt's evaluation), and a
#    busy machine weighs on every client within each step alike; the order of
#    the clients within a step rotates. BENCH_LOG=FILE keeps one line per turn
#    (step, client, file, requests, seconds).
# Prints a Markdown table: seconds summed over the 25 files, files per
# minute, and each rate against the plain client's.
# The environment is the one scripts/real-model-e2e.sh makes (and reuses).
# A benchmark, not a CI test: it takes minutes, and times are as noisy as the machine.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
HELPER="$ROOT/scripts/real_model_e2e.py"
BATCH=0 ROUNDS=2
if [ "${1:-}" = --batch ]; then
    BATCH=1; shift
    if [[ "${1:-}" =~ ^[0-9]+$ ]]; then ROUNDS=$1; shift; fi
fi
if [ $# -gt 0 ]; then BINS=("$@"); else
    swift build -c release --product caption-assistant >&2
    BINS=("$(swift build -c release --show-bin-path)/caption-assistant")
fi
PY=$(E2E_SETUP_ONLY=1 bash scripts/real-model-e2e.sh | tail -1)
GGUF=$("$PY" "$HELPER" find-gguf)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/bench-model-rate.XXXXXX")
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT
PORT=$("$PY" "$HELPER" free-port)
"$PY" -m llama_cpp.server --model "$GGUF" --host 127.0.0.1 --port "$PORT" --n_threads 1 >"$WORK/server.log" 2>&1 &
pids+=($!)
"$PY" "$HELPER" wait "http://127.0.0.1:$PORT/v1/models" --pid "${pids[0]}" --timeout 180 >&2
PROXY_PORT=$("$PY" "$HELPER" free-port)
"$PY" "$HELPER" proxy --listen "$PROXY_PORT" --upstream "http://127.0.0.1:$PORT" --log "$WORK/probe.jsonl" &
pids+=($!)
"$PY" "$HELPER" wait "http://127.0.0.1:$PROXY_PORT/v1/models" --pid "${pids[1]}" --timeout 30 >&2
ARGS=(--model http --server-kind llama-cpp-python --request-timeout 300 --jobs 1 --quiet)
if [ "$BATCH" = 1 ]; then
    SET=scripts/model-bench/transcripts
    "${BINS[0]}" "$SET" "${ARGS[@]}" -o "$WORK/recorded" --endpoint "http://127.0.0.1:$PROXY_PORT" || true
    echo "load before: $(uptime)" >&2
    now() { date +%s.%N; }
    echo "| round | ours: seconds, requests | plain client: seconds (Python start included) | rate / plain client's |"
    echo "|---|---|---|---|"
    for round in $(seq 1 "$ROUNDS"); do
        rm -rf "$WORK/out"; s=$(now)
        "${BINS[0]}" "$SET" "${ARGS[@]}" -o "$WORK/out" --endpoint "http://127.0.0.1:$PORT" || true
        ours=$(awk -v s="$s" -v e="$(now)" 'BEGIN { print e - s }')
        requests=$(jq '.totals.model.requests // 0' "$WORK/out/report.json")
        s=$(now)
        "$PY" scripts/plain-model-client.py --exchanges "$WORK/probe.jsonl" --endpoint "http://127.0.0.1:$PORT" >/dev/null
        plain=$(awk -v s="$s" -v e="$(now)" 'BEGIN { print e - s }')
        awk -v r="$round" -v o="$ours" -v q="$requests" -v p="$plain" 'BEGIN { printf "| %d | %.1f, %d | %.1f | %.3f |\n", r, o, q, p, p / o }'
    done
    echo "load after: $(uptime)" >&2
    exit 0
fi

mapfile -t FILES < <(find scripts/model-bench/transcripts -type f | LC_ALL=C sort)
N=${#FILES[@]}
OFFSET=$(( N / (${#BINS[@]} + 1) ))
# The proxy logs to one file; each file's exchanges are moved out after its run.
record() { "${BINS[0]}" "$1" "${ARGS[@]}" -o "$WORK/recorded" --endpoint "http://127.0.0.1:$PROXY_PORT" || true; }

echo "load before: $(uptime)" >&2
for i in "${!FILES[@]}"; do
    : >"$WORK/probe.jsonl"
    record "${FILES[$i]}"
    mv "$WORK/probe.jsonl" "$WORK/bodies-$i.jsonl"
    : >"$WORK/probe.jsonl"
done

# One client's turn in step i: client c is a BIN's index, or "plain".
turn() {
    local i=$1 c=$2 file start end took posted
    if [ "$c" = plain ]; then
        j=$(( (i + ${#BINS[@]} * OFFSET) % N ))
        read -r posted took < <("$PY" scripts/plain-model-client.py --exchanges "$WORK/bodies-$j.jsonl" --endpoint "http://127.0.0.1:$PORT")
        file=${FILES[$j]}
    else
        file=${FILES[$(( (i + c * OFFSET) % N ))]}
        rm -rf "$WORK/out"
        start=$(date +%s.%N)
        "${BINS[$c]}" "$file" "${ARGS[@]}" -o "$WORK/out" --endpoint "http://127.0.0.1:$PORT" || true
        end=$(date +%s.%N)
        took=$(awk -v s="$start" -v e="$end" 'BEGIN { print e - s }')
        posted=$(jq '.totals.model.requests // 0' "$WORK/out/report.json")
    fi
    seconds[$c]=$(awk -v a="${seconds[$c]:-0}" -v t="$took" 'BEGIN { print a + t }')
    requests[$c]=$(( ${requests[$c]:-0} + posted ))
    printf '%s\t%s\t%s\t%s\t%s\n' "$i" "$c" "$(basename "$file")" "$posted" "$took" >>"${BENCH_LOG:-/dev/null}"
}

# Every client's turn in every step; the order within a step rotates, so no
# client always comes first.
declare -A seconds requests
clients=("${!BINS[@]}" plain)
for i in $(seq 0 $((N - 1))); do
    for r in "${!clients[@]}"; do
        turn "$i" "${clients[$(( (r + i) % ${#clients[@]} ))]}"
    done
done

echo "| client | files | requests | seconds (sum over the files) | files per minute | rate / plain client's |"
echo "|---|---|---|---|---|---|"
for k in "${!BINS[@]}"; do
    awk -v b="${BINS[$k]}" -v n="$N" -v r="${requests[$k]}" -v s="${seconds[$k]}" -v p="${seconds[plain]}" \
        'BEGIN { printf "| %s | %d | %d | %.1f | %.2f | %.3f |\n", b, n, r, s, 60 * n / s, p / s }'
done
awk -v n="$N" -v r="${requests[plain]}" -v p="${seconds[plain]}" \
    'BEGIN { printf "| plain client (urllib, the recorded bodies) | %d | %d | %.1f | %.2f | 1 |\n", n, r, p, 60 * n / p }'
echo "load after: $(uptime)" >&2
