"""How long a message takes to leave Parlor as Web Push requests: a group of 101 (one sender,
100 members with Parlor closed, each with one subscribed device), 50 messages sent one at a time;
for each push, the time from the send request leaving the client to the push request reaching a
stand-in push service on loopback (which answers 201 at once). Prints p50 / p99 / max over all
pushes and how many arrived (50 × 100 expected).

    python3 bench/harness/push_delay.py [--binary .build/release/parlor] [--messages 50] [--members 100]

Not a comparison with peers (no other server here sends Web Push); a figure for the notes.
"""
import argparse
import asyncio
import base64
import os
import re
import subprocess
import tempfile
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from parlor_driver import create_conversation, http_json, sign_up


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/parlor")
    parser.add_argument("--messages", type=int, default=50)
    parser.add_argument("--members", type=int, default=100)
    arguments = parser.parse_args()

    arrivals = []  # (path, monotonic ns)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            arrivals.append((self.path, time.monotonic_ns()))
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
            self.send_response(201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    class Service(ThreadingHTTPServer):
        request_queue_size = 512  # the listen backlog: Python's 5 would drop connections, not Parlor

    service = Service(("127.0.0.1", 0), Handler)
    threading.Thread(target=service.serve_forever, daemon=True).start()
    data = tempfile.mkdtemp(prefix="parlor-push-bench-")
    server = subprocess.Popen(
        [arguments.binary, "serve", "--port", "0", "--data-dir", data, "--password-cost", "4", "--log-level", "warning",
         "--sign-ups-per-hour", "0", "--password-attempts-per-minute", "0", "--additions-per-minute", "0", "--messages-per-minute", "0",
         "--push-service-host", "127.0.0.1"], stdout=subprocess.PIPE, text=True)
    try:
        port = None
        for line in server.stdout:
            if found := re.search(r"http://127\.0\.0\.1:(\d+)/", line):
                port = int(found.group(1))
                break
        names = ["sender"] + [f"m{index:03d}" for index in range(arguments.members)]
        tokens = asyncio.run(sign_up(port, names))
        group = asyncio.run(create_conversation(port, tokens["sender"], "Push bench", names[1:]))
        b64u = lambda raw: base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
        for name in names[1:]:
            key = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
            http_json(port, "POST", "/api/me/push", {
                "endpoint": f"http://127.0.0.1:{service.server_address[1]}/{name}",
                "keys": {"p256dh": b64u(key), "auth": b64u(os.urandom(16))}}, tokens[name])
        sent = []
        for index in range(arguments.messages):
            before = len(arrivals)
            start = time.monotonic_ns()
            http_json(port, "POST", f"/api/conversations/{group}/messages", {"id": str(uuid.uuid4()), "text": f"m{index}"}, tokens["sender"])
            deadline = time.monotonic() + 10
            while len(arrivals) < before + arguments.members and time.monotonic() < deadline:
                time.sleep(0.001)
            sent.append((start, arrivals[before:]))
        delays = sorted((at - start) / 1e6 for start, batch in sent for _, at in batch)
        pick = lambda q: delays[min(len(delays) - 1, int(q * len(delays)))]
        expected = arguments.messages * arguments.members
        print(f"{len(delays)} pushes for {arguments.messages} messages × {arguments.members} members ({arguments.binary})"
              + (f": {expected - len(delays)} MISSING" if len(delays) < expected else ""))
        print(f"send → push request at the push service: p50 {pick(0.5):.1f} ms, p99 {pick(0.99):.1f} ms, max {delays[-1]:.1f} ms")
        last = sorted((batch[-1][1] - start) / 1e6 for start, batch in sent if batch)
        print(f"send → the last of a message's {arguments.members} pushes: p50 {last[len(last) // 2]:.1f} ms, max {last[-1]:.1f} ms")
    finally:
        server.terminate()
        service.shutdown()


if __name__ == "__main__":
    main()
