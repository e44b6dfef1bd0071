#!/usr/bin/env python3
"""An OpenAI-compatible model stub with a fixed latency (standard library only).

Answers GET /health, GET /v1/models and POST /v1/chat/completions; a chat
completion comes LATENCY seconds after the request was read, with a valid
answer (the transcript's first long word as the keyword, three titles with its longest, an
emoji), so a batch against it costs only the wait. For benchmarks of our side
of a model run (BENCHMARKS.md, scripts/bench-model-wait.sh) and for reproducing
transport problems against servers of different make.

  python3 scripts/model-stub.py --port 8799 --latency 0.5 [--kind http.server|raw] [--log FILE]

--kind http.server: Python's http.server (ThreadingHTTPServer, HTTP/1.0 answers).
--kind raw: a socket server, one thread per connection: reads the whole request,
            sleeps, answers HTTP/1.1 with Content-Length and closes.
--log FILE: appends each chat request as a JSON line {"method", "path",
            "request"}, the logging proxy's form (scripts/real_model_e2e.py), so
            scripts/plain-model-client.py can post the same bodies again.
Prints "listening on PORT" once it accepts connections (port 0: a free one).
"""

import argparse
import http.server
import json
import re
import socket
import sys
import threading
import time

MODELS = json.dumps({"object": "list", "data": [{"id": "stub", "object": "model", "owned_by": "stub"}]}).encode()


def completion(request_body):
    """A chat completion whose content is a valid answer for the prompt in request_body."""
    try:
        messages = json.loads(request_body).get("messages", [])
        prompt = " ".join(m.get("content", "") for m in messages if m.get("role") == "user")
    except (ValueError, AttributeError):
        prompt = ""
    # A word of the transcript block (between <<<TRANSCRIPT and TRANSCRIPT>>>), else of the prompt.
    block = prompt.split("<<<TRANSCRIPT", 1)[-1].split("TRANSCRIPT>>>", 1)[0]
    words = re.findall(r"[A-Za-z]{6,}", block)
    keyword = words[0].lower() if words else "caption"
    # Titles about the transcript, as the decoder requires (one of its words in each: TitleGround);
    # its longest word, which is seldom a stop word ("Tonight" is one).
    name = max(words, key=len).capitalize() if words else "Caption"
    content = json.dumps({"keywords": [keyword],
                          "titles": [f"{name} in Brief", f"A Stub Title on {name}", f"The {name} Story"],
                          "emoji": "🎬"})
    return json.dumps({
        "id": "chatcmpl-stub", "object": "chat.completion", "created": 0, "model": "stub",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": len(prompt) // 4, "completion_tokens": 40, "total_tokens": len(prompt) // 4 + 40},
    }).encode()


LOG = {"path": None, "lock": threading.Lock()}


def answer(method, path, body, latency):
    """(status, body) for a request."""
    if method == "GET" and path == "/health":
        return 200, b'{"status": "ok"}'
    if method == "GET" and path == "/v1/models":
        return 200, MODELS
    if method == "POST" and path == "/v1/chat/completions":
        if LOG["path"]:
            with LOG["lock"], open(LOG["path"], "a", encoding="utf-8") as log:
                log.write(json.dumps({"method": method, "path": path, "request": body.decode("utf-8", "replace")}) + "\n")
        time.sleep(latency)
        return 200, completion(body)
    return 404, b'{"error": {"message": "not found"}}'


def serve_http_server(port, latency):
    class Handler(http.server.BaseHTTPRequestHandler):
        def handle_one(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            status, data = answer(self.command, self.path, body, latency)
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = handle_one
        do_POST = handle_one

        def log_message(self, *_):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    print(f"listening on {server.server_address[1]}", flush=True)
    server.serve_forever()


def serve_raw(port, latency):
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(64)
    print(f"listening on {listener.getsockname()[1]}", flush=True)

    def handle(conn):
        with conn:
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            method, path = lines[0].split(" ")[:2]
            length = 0
            for line in lines[1:]:
                name, _, value = line.partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
                if name.strip().lower() == "expect" and value.strip().lower() == "100-continue":
                    conn.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
            while len(body) < length:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                body += chunk
            status, out = answer(method, path, body, latency)
            conn.sendall(f"HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {len(out)}\r\n"
                         "Connection: close\r\n\r\n".encode() + out)

    while True:
        conn, _ = listener.accept()
        threading.Thread(target=handle, args=(conn,), daemon=True).start()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--latency", type=float, default=0.5, help="seconds before each chat completion is answered")
    parser.add_argument("--kind", choices=["http.server", "raw"], default="http.server")
    parser.add_argument("--log", help="append each chat request here as a JSON line")
    args = parser.parse_args()
    LOG["path"] = args.log
    try:
        (serve_http_server if args.kind == "http.server" else serve_raw)(args.port, args.latency)
    except KeyboardInterrupt:
        sys.exit(0)


if __name__ == "__main__":
    main()
