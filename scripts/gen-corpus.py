#!/usr/bin/env python3
"""Deterministic caption corpus for caption-bench and the benchmark scripts (stdlib only).

Writes, under OUT (default ./capbench-data):

  large.srt, large_crlf.srt, large.vtt, large.ttml   N cues (-n, default 200000),
                   the same cues in each format (CRLF line endings in large_crlf.srt)
  subK.srt/.vtt/.ttml   the first K cues (--subset, default 2000; 0: none)
  batch/NNNNN.srt  M small SRT files (-m, default 5000) of --min-cues..--max-cues
                   cues; about 1 in 4 with CRLF, about 1 in 50 with a UTF-8 BOM
  MANIFEST.txt     size and SHA-256 of every file, and one hash of them all

The same arguments give the same bytes on every run and machine (Python 3.8+).
It takes the same arguments and writes the same layout as the benchmark kit's
gen_corpus.py that BENCHMARKS.md's tables were measured on, but its text is its
own (so its bytes differ): figures from the two are close, not equal.
"""

import argparse
import hashlib
import os
import random
import sys

WORDS = ("the rocket launch is ready we have to go now listen to me morning station "
         "river captain doctor window tomorrow dragon castle kitchen garden engine "
         "signal thunder market bridge winter summer music voice ocean island "
         "pilot letter secret answer careful promise nobody stranger café déjà naïve "
         "Zoë Björn over there come on what happened thank you I'm sorry").split()
SOUNDS = ("[door slams]", "[laughs]", "[music playing]", "\u266a \u266a", "[thunder]")
ENDS = (".", ".", ".", "?", "!", "\u2026")


def cue_lines(rng):
    """1-2 lines, each a list of (text, style) with style None, 'i' or 'b'."""
    if rng.random() < 0.03:
        return [[(rng.choice(SOUNDS), None)]]
    words = [rng.choice(WORDS) for _ in range(rng.randint(5, 15))]
    if rng.random() < 0.005 and len(words) > 3:
        words[2] = "&"
    words[0] = words[0][:1].upper() + words[0][1:]
    text = " ".join(words) + rng.choice(ENDS)
    texts = [text]
    if len(text) > 42:
        mid = text.rfind(" ", 0, len(text) // 2 + 1)
        if mid > 0:
            texts = [text[:mid], text[mid + 1:]]
    r = rng.random()
    style = "i" if r < 0.08 else "b" if r < 0.11 else None
    return [[(t, style)] for t in texts]


def make_cues(rng, n, start=0):
    slot = max(1, min(3000, (99 * 3600 * 1000 - start) // max(n, 1)))
    out = []
    for k in range(n):
        st = start + k * slot + rng.randrange(0, max(1, slot // 20))
        out.append((st, st + rng.randrange(slot * 55 // 100, slot * 90 // 100 + 1), cue_lines(rng)))
    return out


def ts(ms, sep):
    h, ms = divmod(ms, 3600000)
    m, ms = divmod(ms, 60000)
    s, ms = divmod(ms, 1000)
    return "%02d:%02d:%02d%s%03d" % (h, m, s, sep, ms)


def esc(t):
    return t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def line(segs, escape, wrap):
    return "".join(escape(t) if s is None else wrap[s] % escape(t) for t, s in segs)


TAGS = {"i": "<i>%s</i>", "b": "<b>%s</b>"}
SPANS = {"i": '<span tts:fontStyle="italic">%s</span>', "b": '<span tts:fontWeight="bold">%s</span>'}


def srt(cues, eol="\n"):
    return "".join("%d%s%s --> %s%s%s%s%s" % (i, eol, ts(a, ","), ts(b, ","), eol,
                   eol.join(line(l, str, TAGS) for l in ls), eol, eol)
                   for i, (a, b, ls) in enumerate(cues, 1))


def vtt(cues):
    return "WEBVTT\n\n" + "".join("%d\n%s --> %s\n%s\n\n" % (i, ts(a, "."), ts(b, "."),
                                  "\n".join(line(l, esc, TAGS) for l in ls))
                                  for i, (a, b, ls) in enumerate(cues, 1))


def ttml(cues):
    head = ('<?xml version="1.0" encoding="UTF-8"?>\n<tt xmlns="http://www.w3.org/ns/ttml" '
            'xmlns:tts="http://www.w3.org/ns/ttml#styling" xml:lang="en">\n  <head>\n    <styling>\n'
            '      <style xml:id="s1" tts:color="white" tts:textAlign="center"/>\n    </styling>\n'
            '  </head>\n  <body style="s1">\n    <div>\n')
    body = "".join('      <p xml:id="c%d" begin="%s" end="%s">%s</p>\n' % (i, ts(a, "."), ts(b, "."),
                   "<br/>".join(line(l, esc, SPANS) for l in ls)) for i, (a, b, ls) in enumerate(cues, 1))
    return head + body + "    </div>\n  </body>\n</tt>\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", nargs="?", default="capbench-data")
    ap.add_argument("-n", "--cues", type=int, default=200_000)
    ap.add_argument("-m", "--files", type=int, default=5_000)
    ap.add_argument("--min-cues", type=int, default=20)
    ap.add_argument("--max-cues", type=int, default=200)
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--subset", type=int, default=2000)
    a = ap.parse_args(argv)
    bdir = os.path.join(a.out, "batch")
    os.makedirs(bdir, exist_ok=True)
    manifest = []

    def write(name, text, bom=False):
        data = (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8")
        with open(os.path.join(a.out, name), "wb") as f:
            f.write(data)
        manifest.append("%s\t%d\t%s\n" % (name, len(data), hashlib.sha256(data).hexdigest()))

    cues = make_cues(random.Random("large/%d" % a.seed), a.cues)
    text = srt(cues)
    write("large.srt", text)
    write("large_crlf.srt", text.replace("\n", "\r\n"))
    write("large.vtt", vtt(cues))
    write("large.ttml", ttml(cues))
    if 0 < a.subset < a.cues:
        sub = cues[:a.subset]
        for ext, render in (("srt", srt), ("vtt", vtt), ("ttml", ttml)):
            write("sub%d.%s" % (a.subset, ext), render(sub))
    width = max(5, len(str(a.files)))
    keep = {"%0*d.srt" % (width, i) for i in range(1, a.files + 1)}
    for name in os.listdir(bdir):
        if name.endswith(".srt") and name not in keep:
            os.remove(os.path.join(bdir, name))
    rng = random.Random("batch/%d" % a.seed)
    for i in range(1, a.files + 1):
        n = rng.randint(a.min_cues, a.max_cues)
        start = rng.randrange(0, 600_000)
        crlf, bom = rng.random() < 0.25, rng.random() < 0.02
        write("batch/%0*d.srt" % (width, i), srt(make_cues(rng, n, start), "\r\n" if crlf else "\n"), bom)
    total = hashlib.sha256("".join(manifest).encode()).hexdigest()
    with open(os.path.join(a.out, "MANIFEST.txt"), "w", newline="\n") as f:
        f.write("# scripts/gen-corpus.py seed=%d cues=%d files=%d min=%d max=%d corpus-sha256=%s\n"
                % (a.seed, a.cues, a.files, a.min_cues, a.max_cues, total))
        f.writelines(manifest)
    print("corpus in %s: %d cues in large.*, %d files in batch/, corpus-sha256 %s" % (a.out, a.cues, a.files, total))
    return 0


if __name__ == "__main__":
    sys.exit(main())
