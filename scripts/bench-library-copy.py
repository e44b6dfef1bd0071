#!/usr/bin/env python3
"""Library read + write against Python `srt`, interleaved in one run.

    python3 scripts/bench-library-copy.py FILE PYTHON CMD_NAME=BENCH ... [--runs N]

Times `BENCH copy FILE OUT` (caption-bench: the product's read and its atomic
write) for each named build, and Python `srt`'s parse -> compose round trip
(../shared/bench/peer_py.py srt FILE OUT, run with PYTHON, the venv holding
`srt`), one after another in each round so that the machine's load falls on
all alike. Prints, per command, the median and minimum wall time and median
CPU time (user + system of the child), and each build's ratio to Python srt
(median wall and median CPU); the load average before and after.

Example (the guard rail of issue 21: >= 25x):
    python3 scripts/bench-library-copy.py /dev/shm/capbench-data/large.srt \\
        ~/.cache/capbench-venv/bin/python old=/tmp/base/.build/release/caption-bench \\
        new=.build/release/caption-bench --runs 9
"""
import os, statistics, subprocess, sys, time

def timed(cmd):
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace"); proc.stderr.close()
    if status != 0:
        sys.exit(f"failed: {' '.join(cmd)}: {err}")
    return wall, usage.ru_utime + usage.ru_stime

def main():
    args = sys.argv[1:]
    runs = 7
    if "--runs" in args:
        i = args.index("--runs"); runs = int(args[i + 1]); del args[i:i + 2]
    file, python, builds = args[0], args[1], [a.split("=", 1) for a in args[2:]]
    here = os.path.dirname(os.path.abspath(__file__))
    peer = os.environ.get("PEER_PY", os.path.join(here, "..", "..", "shared", "bench", "peer_py.py"))
    out = os.environ.get("OUT", "/dev/shm/bench-library-copy.out")
    cmds = [(name, [bench, "copy", file, out]) for name, bench in builds]
    cmds.append(("python-srt", [python, peer, "srt", file, out]))
    results = {name: [] for name, _ in cmds}
    print("load before:", open("/proc/loadavg").read().strip())
    for _ in range(runs):
        for name, cmd in cmds:
            if os.path.exists(out): os.remove(out)
            results[name].append(timed(cmd))
    if os.path.exists(out): os.remove(out)
    print("load after: ", open("/proc/loadavg").read().strip())
    py_wall = statistics.median(w for w, _ in results["python-srt"])
    py_cpu = statistics.median(c for _, c in results["python-srt"])
    print(f"{'command':<12} {'median s':>9} {'min s':>9} {'CPU s':>9}  vs python srt (wall, CPU)")
    for name, _ in cmds:
        walls = [w for w, _ in results[name]]; cpus = [c for _, c in results[name]]
        w, c = statistics.median(walls), statistics.median(cpus)
        ratio = "" if name == "python-srt" else f"  {py_wall / w:.1f}x, {py_cpu / c:.1f}x"
        print(f"{name:<12} {w:9.3f} {min(walls):9.3f} {c:9.3f}{ratio}")

main()
