"""One `parlor serve --demo` for the whole run, its two WebSocket endpoints signed in (alice's
bearer token for /ws; an app registered with `parlor apps add` for the app socket), and the table
of every case's grade printed at the end.

PARLOR_BINARY names the built `parlor` (default .build/debug/parlor), its resource bundles beside it.
"""

from __future__ import annotations

import collections
import json
import os
import re
import signal
import subprocess
import tempfile
import shutil
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from parlor_endpoints import AppSocket, BrowserSocket

ROOT = Path(__file__).resolve().parents[2]
BINARY = os.environ.get("PARLOR_BINARY", str(ROOT / ".build" / "debug" / "parlor"))

MANIFEST = {
    "id": "org.parlor.autobahn-conformance",
    "name": "Autobahn Conformance",
    "icon": {"url": "data:image/svg+xml;utf8,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20viewBox='0%200%2010%2010'/%3E"},
    "summary": "Dials in to run the Autobahn TestSuite's cases on the app socket.",
}

# (socket, case id) -> wsfuzz.Result, in the order the cases ran.
RESULTS: dict[tuple[str, str], object] = {}


class Server:
    def __init__(self):
        if not os.path.exists(BINARY):
            pytest.fail(f"{BINARY} is missing: build it with swift build --product parlor (or set PARLOR_BINARY).")
        self.directory = tempfile.mkdtemp(prefix="parlor-conformance-")
        self.data_dir = os.path.join(self.directory, "data")
        self.output = collections.deque(maxlen=200)
        self.process = subprocess.Popen(
            [BINARY, "serve", "--demo", "--port", "0", "--data-dir", self.data_dir, "--password-cost", "4",
             "--messages-per-minute", "0", "--log-level", "warning"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.port = None
        deadline = time.monotonic() + 60
        for line in self.process.stdout:
            self.output.append(line)
            match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            if match:
                self.port = int(match.group(1))
                break
            if time.monotonic() > deadline:
                break
        if self.port is None:
            self.stop()
            pytest.fail("parlor serve did not start:\n" + "".join(self.output))
        # Keep reading its output, or a full pipe would stall its logging.
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        for line in self.process.stdout:
            self.output.append(line)

    def http(self, method, path, body=None, token=None):
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}", method=method, data=json.dumps(body).encode() if body is not None else None,
            headers={"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})})
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"null")

    def sign_in(self, username, password):
        _, body = self.http("POST", "/api/auth/signin", {"username": username, "password": password})
        return body["token"]

    def add_app(self):
        """`parlor apps add` on the running server's data directory; its credential. The server
        picks the app up within a second: wait until its socket's route accepts the credential."""
        manifest = os.path.join(self.directory, "manifest.json")
        with open(manifest, "w") as f:
            json.dump(MANIFEST, f)
        added = subprocess.run([BINARY, "apps", "add", manifest, "--data-dir", self.data_dir],
                               capture_output=True, text=True, timeout=60)
        credential = next((word for word in added.stdout.split() if word.startswith("parlor_app_")), None)
        if added.returncode != 0 or not credential:
            pytest.fail(f"parlor apps add failed ({added.returncode}):\n{added.stdout}{added.stderr}")
        deadline = time.monotonic() + 15
        while True:
            try:
                status, _ = self.http("GET", AppSocket.path, token=credential)
                if status == 200:
                    return credential
            except urllib.error.HTTPError as error:
                if time.monotonic() > deadline:
                    pytest.fail(f"the server did not take the app's credential: {error.code} {error.read()!r}")
            time.sleep(0.1)

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        shutil.rmtree(self.directory, ignore_errors=True)


@pytest.fixture(scope="module")
def parlor():
    """The server and its two endpoints, by name: `ws` and `app`."""
    server = Server()
    try:
        endpoints = {
            "ws": BrowserSocket("127.0.0.1", server.port, server.sign_in("alice", "parlor-demo")),
            "app": AppSocket("127.0.0.1", server.port, server.add_app()),
        }
        yield server, endpoints
    finally:
        server.stop()


@pytest.fixture(scope="session")
def results():
    """Where each case's result goes, for the table at the end."""
    return RESULTS


def pytest_terminal_summary(terminalreporter):
    if not RESULTS:
        return
    write = terminalreporter.write_line
    sockets = ["ws", "app"]
    ids = list(dict.fromkeys(case_id for _, case_id in RESULTS))
    write("")
    write("Autobahn TestSuite fuzzing cases against parlor serve (ws: /ws, the browser socket; app: /api/apps/connect)")
    write(f"{'case':<9}" + "".join(f"{name:<15}" for name in sockets))
    for case_id in ids:
        cells = []
        for name in sockets:
            result = RESULTS.get((name, case_id))
            cell = "-" if result is None else result.grade
            if result is not None and case_id.startswith("9.") and result.duration_ms is not None:
                cell += f" {result.duration_ms}ms"
            cells.append(f"{cell:<15}")
        write(f"{case_id:<9}" + "".join(cells))
    write("")
    write(f"{'group':<7}" + "".join(f"{name:<40}" for name in sockets))
    for group in dict.fromkeys(case_id.split(".")[0] for case_id in ids):
        cells = []
        for name in sockets:
            grades = collections.Counter(r.grade for (s, i), r in RESULTS.items() if s == name and i.split(".")[0] == group)
            cells.append(f"{sum(grades.values())} cases: " + ", ".join(f"{n} {g}" for g, n in sorted(grades.items())))
        write(f"{group:<7}" + "".join(f"{cell:<40}" for cell in cells))
    others = [(key, r) for key, r in RESULTS.items() if r.grade != "OK"]
    if others:
        write("")
        write("Not OK:")
        for (name, case_id), result in others:
            write(f"  {name:<4}{case_id:<9}{result.grade:<14}{result.reason}")
