#!/usr/bin/env python3
# usage: gen-big-srt.py LARGE_SRT OUT MEGABYTES
# Writes an SRT of about TARGET_MB megabytes: the cue texts of large.srt in turn, numbered and timed in order.
import sys
src, out, target = sys.argv[1], sys.argv[2], int(sys.argv[3]) * 1_000_000
texts = []
for block in open(src, encoding="utf-8").read().split("\n\n"):
    lines = block.split("\n")
    if len(lines) >= 3: texts.append("\n".join(lines[2:]))
def ts(ms):
    h, ms = divmod(ms, 3_600_000); m, ms = divmod(ms, 60_000); s, ms = divmod(ms, 1000)
    return "%02d:%02d:%02d,%03d" % (h, m, s, ms)
size = 0; i = 0
with open(out, "w", encoding="utf-8", newline="\n") as f:
    buf = []
    while size < target:
        t = i * 2000
        b = "%d\n%s --> %s\n%s\n\n" % (i + 1, ts(t), ts(t + 1500), texts[i % len(texts)])
        buf.append(b); size += len(b.encode()); i += 1
        if len(buf) >= 10000: f.write("".join(buf)); buf = []
    f.write("".join(buf))
print(out, i, "cues", size, "bytes")
