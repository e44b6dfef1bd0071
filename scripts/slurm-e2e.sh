#!/usr/bin/env bash
# caption-assistant on a real Slurm: a one-node cluster on this machine runs
# examples/slurm/caption-assistant-array.sbatch as `sbatch --array=0-3 --wait`;
# then `caption-assistant merge`, and `diff -r` against one plain run over the
# same inputs (byte for byte, report.json included).
#
#   scripts/slurm-e2e.sh [--files N] [--input DIR] [--runs N] [--keep]
#
#   --files N   a generated corpus of N caption files besides Samples/ (default 40)
#   --input DIR use DIR as the inputs instead (for benchmarks)
#   --runs N    submit the array N times (a fresh output folder each time), for timing
#   --keep      leave the work folder (its path is printed)
#
# Needs root (slurmd and munged run here). Installs slurm-wlm and munge from
# Debian when they are missing. Writes everything (slurm.conf, state, logs,
# munge key and socket) under a private work folder; the daemons are stopped on
# exit, whatever happens. Uses CAPTION_ASSISTANT, else the debug build (built
# when not up to date).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
FILES=40 KEEP=0 INPUT_DIR="" RUNS=1
while [ $# -gt 0 ]; do
    case $1 in
        --files) FILES=$2; shift ;;
        --input) INPUT_DIR=$2; shift ;;
        --runs) RUNS=$2; shift ;;
        --keep) KEEP=1 ;;
        *) echo "usage: $0 [--files N] [--input DIR] [--runs N] [--keep]" >&2; exit 64 ;;
    esac
    shift
done
[ "$(id -u)" = 0 ] || { echo "slurm-e2e: needs root (it starts slurmd and munged)" >&2; exit 77; }

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y slurm-wlm munge
fi

BIN=${CAPTION_ASSISTANT:-}
if [ -z "$BIN" ]; then
    swift build --product caption-assistant >/dev/null   # up to date after swift test: no work
    BIN=$ROOT/.build/debug/caption-assistant
fi

WORK=$(mktemp -d /tmp/slurm-e2e.XXXXXX)
chmod 755 "$WORK"
HOST=$(hostname -s 2>/dev/null || uname -n | cut -d. -f1)
MUNGE_PID="" CTLD_PID="" SLURMD_PID=""
cleanup() {
    local status=$?
    # Stop the daemons this script started (by their own process ids), then wait for them.
    for pid in $SLURMD_PID $CTLD_PID; do kill "$pid" 2>/dev/null || true; done
    for pid in $SLURMD_PID $CTLD_PID; do
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    done
    if [ -n "$MUNGE_PID" ]; then kill "$MUNGE_PID" 2>/dev/null || true; fi
    if [ $status -ne 0 ]; then
        echo "slurm-e2e: FAILED ($status); logs:" >&2
        for log in "$WORK"/log/*.log "$WORK"/run/*.log; do [ -f "$log" ] && { echo "--- $log" >&2; tail -n 30 "$log" >&2; }; done
    fi
    if [ $KEEP = 1 ]; then echo "slurm-e2e: work folder kept: $WORK" >&2; else rm -rf "$WORK"; fi
    exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkdir -p "$WORK"/{munge,state,spool,log,run,etc}
# munge: a private key (1,024 random bytes, owned by munge, mode 400) and socket.
chown munge:munge "$WORK/munge" 2>/dev/null || true
chmod 700 "$WORK/munge"
dd if=/dev/urandom of="$WORK/munge/munge.key" bs=1024 count=1 status=none
chown munge:munge "$WORK/munge/munge.key"
chmod 400 "$WORK/munge/munge.key"
SOCKET=$WORK/munge/munge.socket
runuser -u munge -- munged --key-file="$WORK/munge/munge.key" --socket="$SOCKET" \
    --pid-file="$WORK/munge/munged.pid" --log-file="$WORK/munge/munged.log" --seed-file="$WORK/munge/munged.seed" --force
for _ in $(seq 50); do [ -s "$WORK/munge/munged.pid" ] && break; sleep 0.1; done
MUNGE_PID=$(cat "$WORK/munge/munged.pid")

cat > "$WORK/etc/slurm.conf" <<CONF
ClusterName=e2e
SlurmctldHost=$HOST
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$SOCKET
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmctldPort=${SLURMCTLD_PORT:-16817}
SlurmdPort=${SLURMD_PORT:-16818}
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/run/slurmctld.pid
SlurmdPidFile=$WORK/run/slurmd.pid
SlurmctldLogFile=$WORK/log/slurmctld.log
SlurmdLogFile=$WORK/log/slurmd.log
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
KillWait=5
Waittime=0
SchedulerType=sched/backfill
NodeName=$HOST CPUs=$(nproc) RealMemory=4000 State=UNKNOWN
PartitionName=e2e Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$WORK/etc/slurm.conf

slurmctld -D -i -f "$SLURM_CONF" >"$WORK/log/slurmctld.out" 2>&1 &
CTLD_PID=$!
slurmd -D -f "$SLURM_CONF" >"$WORK/log/slurmd.out" 2>&1 &
SLURMD_PID=$!
ready=0
for _ in $(seq 100); do
    if sinfo -h -N -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; then ready=1; break; fi
    sleep 0.2
done
[ $ready = 1 ] || { echo "slurm-e2e: the node never became idle: $(sinfo -h -N -o '%N %T %E' 2>&1)" >&2; exit 1; }
echo "slurm-e2e: one-node Slurm up ($HOST, $(nproc) CPUs): $(sinfo -h -o '%P %a %D %T')"

# Inputs: the samples and a generated corpus (three formats, one empty file).
IN=$WORK/in
if [ -n "$INPUT_DIR" ]; then
    IN=$(cd "$INPUT_DIR" && pwd)
else
mkdir -p "$IN/samples" "$IN/gen"
cp Samples/* "$IN/samples/"
python3 - "$IN/gen" "$FILES" <<'PY'
import os, sys
folder, n = sys.argv[1], int(sys.argv[2])
words = ["rocket", "launch", "harbour", "weather", "stadium", "forecast", "station", "engine"]
def t(ms, sep): return "%02d:%02d:%02d%s%03d" % (ms // 3600000, ms // 60000 % 60, ms // 1000 % 60, sep, ms % 1000)
for i in range(n):
    lines = ["Cue %d of clip %d: the %s and the %s again." % (c, i, words[(i + c) % 8], words[(i * 3 + c) % 8]) for c in range(1, 6 + i % 30)]
    sub = os.path.join(folder, "s%d" % (i % 4))
    os.makedirs(sub, exist_ok=True)
    if i % 2:
        body = "WEBVTT\n\n" + "\n".join("%s --> %s\n%s\n" % (t(c * 2000, "."), t(c * 2000 + 1500, "."), l) for c, l in enumerate(lines, 1))
        name = "clip%d.vtt" % i
    else:
        body = "\n".join("%d\n%s --> %s\n%s\n" % (c, t(c * 2000, ","), t(c * 2000 + 1500, ","), l) for c, l in enumerate(lines, 1))
        name = "clip%d.srt" % i
    open(os.path.join(sub, name), "w").write(body)
open(os.path.join(folder, "empty.srt"), "w").close()
PY
fi

ARGS="-test-fake-assistant"
# The reference: one plain run (the generated corpus's empty file makes it exit 1).
set +e
start=$(date +%s.%N)
"$BIN" process "$IN" -o "$WORK/single" $ARGS --quiet --jobs 1
single=$?
end=$(date +%s.%N)
set -e
echo "slurm-e2e: one run, --jobs 1: exit $single after $(awk "BEGIN{printf \"%.2f\", $end - $start}") s"
[ -n "$INPUT_DIR" ] || [ $single = 1 ] || { echo "slurm-e2e: the single run exited $single, not 1" >&2; exit 1; }

for run in $(seq "$RUNS"); do
    # The array job, as CI submits it: four tasks (one CPU each), waiting for all of them.
    rm -rf "$WORK/out" "$WORK/jobs"
    mkdir -p "$WORK/out" "$WORK/jobs"
    start=$(date +%s.%N)
    set +e
    (cd "$WORK/jobs" && INPUT=$IN OUTPUT=$WORK/out CAPTION_ASSISTANT=$BIN CAPTION_ASSISTANT_ARGS=$ARGS \
        sbatch --array=0-3 --wait --export=ALL "$ROOT/examples/slurm/caption-assistant-array.sbatch" >/dev/null)
    submitted=$?
    set -e
    end=$(date +%s.%N)
    # sbatch --wait polls the controller (every few seconds), so its return time is coarse; the
    # last report part's modification time says when the last task really finished.
    last=$(find "$WORK/out" -maxdepth 1 -name 'report.shard-*.json' -printf '%T@\n' | sort -n | tail -n 1)
    echo "slurm-e2e: run $run: sbatch --array=0-3 --wait exited $submitted after $(awk "BEGIN{printf \"%.2f\", $end - $start}") s; the last task finished $(awk "BEGIN{printf \"%.2f\", ${last:-$end} - $start}") s after submission"
    # A task exits 1 when one of its files fails (the empty one); sbatch --wait then exits 1. Every task must have run.
    [ "$(find "$WORK/jobs" -name 'captions-*.log' | wc -l)" = 4 ] || { echo "slurm-e2e: expected 4 task logs" >&2; exit 1; }
    [ $submitted = 0 ] || [ $submitted = 1 ] || { cat "$WORK/jobs"/captions-*.log >&2; exit 1; }
    [ "$(find "$WORK/out" -maxdepth 1 -name 'report.shard-*-of-4.json' | wc -l)" = 4 ] || { echo "slurm-e2e: expected 4 report parts" >&2; exit 1; }

    set +e
    "$BIN" merge "$WORK/out"
    merged=$?
    set -e
    [ $merged = $single ] || { echo "slurm-e2e: merge exited $merged, the single run $single" >&2; exit 1; }
    diff -r "$WORK/single" "$WORK/out"
    echo "slurm-e2e: OK: 4 array tasks + merge == one run, byte for byte ($(find "$WORK/out" -type f | wc -l) files)"
done
