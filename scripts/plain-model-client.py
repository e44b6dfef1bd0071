#!/usr/bin/env python3
"""The plainest client of a model server: posts request bodies one after another.

Reads the chat-completion requests caption-assistant sent (the JSON lines the
logging proxy of scripts/real_model_e2e.py writes: {"method", "path",
"request", ...}), posts each body as it was to ENDPOINT/v1/chat/completions
with urllib, one at a time, and prints one line:

  REQUESTS SECONDS

the number posted and the wall time for all of them. What the model server
needs for the same work, with nothing of ours around it: the yardstick for
caption-assistant's own rate (scripts/bench-model-rate.sh). Standard library only.

  python3 scripts/plain-model-client.py --exchanges exchanges.jsonl --endpoint http://127.0.0.1:8765
"""

import argparse
import json
import time
import urllib.request


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--exchanges", required=True, help="the logging proxy's JSON lines")
    parser.add_argument("--endpoint", required=True, help="the model server's base URL")
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args()
    bodies = []
    with open(args.exchanges, encoding="utf-8") as log:
        for line in log:
            entry = json.loads(line)
            if entry.get("method") == "POST" and entry.get("path", "").endswith("/chat/completions") and entry.get("request"):
                bodies.append(entry["request"].encode("utf-8"))
    url = args.endpoint.rstrip("/") + "/v1/chat/completions"
    start = time.monotonic()
    for body in bodies:
        request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json", "Accept": "application/json"})
        with urllib.request.urlopen(request, timeout=args.timeout) as reply:
            reply.read()
    print(len(bodies), round(time.monotonic() - start, 3))


if __name__ == "__main__":
    main()
