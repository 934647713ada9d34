"""`parlor serve` behind a reverse proxy process, as docs/OPERATING.md sets it up: the proxy adds
X-Forwarded-For and forwards to Parlor with its own Host; `--trusted-proxy` and `--public-url`
make Parlor count each client by its own address and take the public origin as its pages' own.

Run by scripts/test with PARLOR_BINARY at the built `parlor` (no database needed).
"""
import http.client
import http.server
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading

import pytest

BINARY = os.environ.get("PARLOR_BINARY", ".build/debug/parlor")


class Proxy(http.server.ThreadingHTTPServer):
    """A reverse proxy on a free port of 127.0.0.1. The client it pretends each request comes from
    is the request's `X-Test-Client` header (a real proxy takes the socket's address), appended to
    X-Forwarded-For as nginx's $proxy_add_x_forwarded_for does."""

    daemon_threads = True

    def __init__(self, upstream_port):
        self.upstream_port = upstream_port
        super().__init__(("127.0.0.1", 0), ProxyHandler)
        threading.Thread(target=self.serve_forever, daemon=True).start()


class ProxyHandler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.forward()

    def do_POST(self):
        self.forward()

    def forward(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        headers = {name: value for name, value in self.headers.items()
                   if name.lower() not in ("host", "x-test-client", "connection", "x-forwarded-for")}
        # As nginx's $proxy_add_x_forwarded_for: what the client sent, then the address it came from.
        client = self.headers.get("X-Test-Client", self.client_address[0])
        headers["X-Forwarded-For"] = ", ".join(filter(None, [self.headers.get("X-Forwarded-For"), client]))
        upstream = http.client.HTTPConnection("127.0.0.1", self.server.upstream_port, timeout=10)
        upstream.request(self.command, self.path, body=body or None, headers=headers)
        response = upstream.getresponse()
        data = response.read()
        self.send_response(response.status)
        for name, value in response.getheaders():
            if name.lower() not in ("transfer-encoding", "connection", "content-length"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        upstream.close()

    def log_message(self, *args):
        pass


@pytest.fixture
def parlor_behind_proxy():
    if not os.path.exists(BINARY):
        pytest.fail(f"{BINARY} is missing: build it with swift build --product parlor.")
    # The proxy's port is chosen first: Parlor is told it as its public address.
    proxy = Proxy(upstream_port=0)
    public = f"http://localhost:{proxy.server_address[1]}"
    data_dir = tempfile.mkdtemp(prefix="parlor-proxied-")
    process = subprocess.Popen(
        [BINARY, "serve", "--port", "0", "--data-dir", data_dir, "--password-cost", "4",
         "--log-level", "warning", "--trusted-proxy", "127.0.0.0/8", "--public-url", public,
         "--password-attempts-per-minute", "3"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    # The output is read to its end on a thread, so a full pipe never blocks the server, and
    # the start is waited for with a deadline.
    printed, started = [], threading.Event()

    def read():
        for line in process.stdout:
            printed.append(line)
            match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            if match:
                proxy.upstream_port = int(match.group(1))
            if "through the proxy" in line:
                started.set()

    threading.Thread(target=read, daemon=True).start()
    if not started.wait(60):
        process.kill()
        pytest.fail("parlor serve did not start: " + "".join(printed))
    try:
        yield proxy, public, "".join(printed)
    finally:
        proxy.shutdown()
        process.terminate()
        process.wait(timeout=10)
        shutil.rmtree(data_dir, ignore_errors=True)


def call(proxy, method, path, body=None, client="203.0.113.1", headers=None):
    connection = http.client.HTTPConnection("127.0.0.1", proxy.server_address[1], timeout=10)
    connection.request(method, path, body=json.dumps(body) if body is not None else None,
                       headers={"Content-Type": "application/json", "X-Test-Client": client, **(headers or {})})
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, dict(response.getheaders()), json.loads(data) if data.startswith(b"{") else data


def test_through_a_proxy_each_client_is_counted_by_its_own_address_and_the_public_origin_is_the_pages_own(parlor_behind_proxy):
    proxy, public, printed = parlor_behind_proxy
    assert f"People open it at {public}/" in printed, printed

    status, headers, alice = call(proxy, "POST", "/api/auth/signup",
                                  {"username": "alice", "displayName": "Alice", "password": "purple-otter-47"}, client="198.51.100.1")
    assert status == 201, alice
    assert "Secure" not in headers.get("Set-Cookie", ""), "an http public address gets no Secure cookie"

    # Three password attempts a minute per client address: the fourth from one client is refused,
    # while another client behind the same proxy still gets its own.
    statuses = [call(proxy, "POST", "/api/auth/signin", {"username": "alice", "password": "guess-guess"})[0] for _ in range(3)]
    assert statuses == [401, 401, 401]
    assert call(proxy, "POST", "/api/auth/signin", {"username": "alice", "password": "guess-guess"})[0] == 429
    # An X-Forwarded-For the client sends itself is not believed: the proxy's entry counts.
    forged = call(proxy, "POST", "/api/auth/signin", {"username": "alice", "password": "guess-guess"},
                  headers={"X-Forwarded-For": "192.0.2.77"})
    assert forged[0] == 429, forged
    assert call(proxy, "POST", "/api/auth/signin", {"username": "alice", "password": "purple-otter-47"}, client="192.0.2.9")[0] == 200

    # A page at the public address may post with the cookie; another site may not.
    _, _, bob = call(proxy, "POST", "/api/auth/signup", {"username": "bob", "displayName": "Bob", "password": "amber-heron-58"},
                     client="198.51.100.2")
    _, _, conversation = call(proxy, "POST", "/api/conversations", {"members": ["bob"]}, headers={"Authorization": f"Bearer {alice['token']}"},
                              client="198.51.100.1")
    cookie = {"Cookie": f"parlor_session={alice['token']}"}
    message = {"id": "0B8C7E1A-4C1D-4E55-9D6B-3F1A2B3C4D5E", "text": "through the proxy"}
    path = f"/api/conversations/{conversation['id']}/messages"
    assert call(proxy, "POST", path, message, client="198.51.100.1", headers={**cookie, "Origin": public})[0] == 201
    assert call(proxy, "POST", path, message, client="198.51.100.1", headers={**cookie, "Origin": "http://evil.example"})[0] == 403
