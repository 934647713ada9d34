"""Fixtures for Parlor's browser tests: a real `parlor serve` on a free port with its own data
directory, a local feed server for LinkShare, and headless Chromium sessions (one per person,
each with its own profile, so each signs in separately)."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import struct
import subprocess
import tempfile
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from parlor_page import Person

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
TEST_TIME_LIMIT = int(os.environ.get("PARLOR_E2E_TEST_SECONDS", "240"))

# Runs in every page before Parlor's own scripts (through the DevTools protocol, so the page's
# Content-Security-Policy does not apply): lets a test cut the WebSocket, keep it down, and
# notice any alert() a payload might trigger.
TEST_SHIM = r"""
(() => {
  const Native = window.WebSocket;
  const sockets = [];
  let blocked = false;
  class TestWebSocket extends Native {
    constructor(url, protocols) {
      // Blocked: a same-origin address that refuses the upgrade, as a dead network would.
      super(blocked ? String(url).replace(/\/ws$/, '/ws-blocked-by-test') : url, protocols);
      sockets.push(this);
    }
  }
  window.WebSocket = TestWebSocket;
  window.__alerts = [];
  window.alert = (message) => { window.__alerts.push(String(message)); };
  window.__parlorTest = {
    drop(block) {
      blocked = Boolean(block);
      for (const s of sockets) if (s.readyState <= 1) s.close(4001, 'test drop');
    },
    restore() {
      blocked = false;
      window.dispatchEvent(new Event('online'));
    },
    openSockets() { return sockets.filter((s) => s.readyState === 1).length; },
  };
})();
"""


# MARK: Time limit


@pytest.fixture(autouse=True)
def time_limit(request):
    """Fails a test that runs longer than TEST_TIME_LIMIT seconds, so a run always ends."""

    def expired(signum, frame):
        raise TimeoutError(f"{request.node.name} ran longer than {TEST_TIME_LIMIT} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(TEST_TIME_LIMIT)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


# MARK: The feed LinkShare reads


def solid_png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A PNG of one colour."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


# The image the fixture articles name in og:image.
COVER_PNG = solid_png(120, 60, (52, 120, 246))


class FeedServer:
    """A Reddit-format listing at /r/test.json and the articles it links to."""

    DEFAULT_POSTS = [
        {"name": "t3_first", "title": "Parlor ships message apps on Linux", "score": 1234, "number": 1},
        {"name": "t3_second", "title": "Why small apps in conversations matter", "score": 321, "number": 2},
        {"name": "t3_third", "title": "A guide to WebSockets that recover", "score": 42, "number": 3},
    ]

    def __init__(self):
        feed = self
        # What the listing serves; a test may replace it (and must restore DEFAULT_POSTS).
        self.posts = self.DEFAULT_POSTS
        # Seconds the listing takes to answer; a test may set it (and must put it back to 0).
        self.delay = 0.0

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                if self.path.startswith("/r/test.json"):
                    time.sleep(feed.delay)
                    body = json.dumps(feed.listing()).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                elif self.path.startswith("/articles/"):
                    name = self.path.rsplit("/", 1)[-1].split(".")[0]
                    body = (
                        "<!doctype html><html><head><title>Fixture article</title>"
                        "<meta property='og:description' content='An article the end-to-end tests serve.'>"
                        "<meta property='og:image' content='/cover.png'></head>"
                        f"<body><h1 id='headline'>Fixture article {name}</h1>"
                        "<p>Served by the Parlor end-to-end tests.</p></body></html>"
                    ).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "text/html; charset=utf-8")
                elif self.path == "/cover.png":
                    body = COVER_PNG
                    self.send_response(200)
                    self.send_header("Content-Type", "image/png")
                else:
                    body = b"not found"
                    self.send_response(404)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def feed_url(self) -> str:
        return f"{self.base}/r/test.json"

    def article_url(self, number: int) -> str:
        return f"{self.base}/articles/{number}.html"

    def listing(self) -> dict:
        """The posts as a Reddit listing: each post's fields default to an article of this server's,
        and any field a test gives (`title`, `url`, `author`, `thumbnail`…) is sent as given."""
        children = []
        for post in self.posts:
            number = post.get("number", 1)
            data = {
                "name": post["name"], "id": post["name"][3:], "title": post["title"], "score": post.get("score", 1),
                "url": self.article_url(number), "domain": "127.0.0.1", "author": "tester", "num_comments": number * 3,
            }
            data.update({key: value for key, value in post.items() if key not in ("number",)})
            children.append({"kind": "t3", "data": data})
        return {"kind": "Listing", "data": {"children": children}}

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(scope="session")
def feed():
    server = FeedServer()
    yield server
    server.stop()


# MARK: Parlor


def parlor_binary() -> Path:
    path = Path(os.environ.get("PARLOR_BIN", ROOT / ".build" / "debug" / "parlor"))
    if not path.exists():
        pytest.fail(f"{path} is missing: build it with `swift build --product parlor` (scripts/e2e does).")
    return path


class ParlorServer:
    """`parlor serve --demo` on a free port with a fresh data directory. With
    PARLOR_E2E_OUT_OF_PROCESS (comma-separated seed app ids) those apps are hosted outside the
    server and run by `parlor apps run`, each in its own process: the same flows must pass."""

    def __init__(self, feed_url: str, log_path: Path, extra: list[str] | None = None):
        self.data_dir = tempfile.mkdtemp(prefix="parlor-e2e-")
        self.log = open(log_path, "w")
        self.outside = [app for app in os.environ.get("PARLOR_E2E_OUT_OF_PROCESS", "").split(",") if app]
        self.runners: list[subprocess.Popen] = []
        arguments = [
            str(parlor_binary()), "serve", "--demo", "--port", "0", "--data-dir", self.data_dir,
            "--password-cost", "4", "--durability", "normal", "--feed-url", feed_url,
            # Flows post hundreds of messages as one person to set a scene.
            "--messages-per-minute", "0",
        ] + (extra or [])
        for app in self.outside:
            arguments += ["--out-of-process", app]
        self.arguments = arguments
        self.lines: list[str] = []
        self.process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=self.log, text=True, cwd=ROOT)
        self.url = self._wait_for_url()
        self._start_runners(feed_url)

    def pause(self):
        """Stops the server process (SIGTERM), keeping its data directory: `resume` starts it again."""
        self._terminate()

    def _terminate(self):
        """Stops the server process as an operator would (SIGTERM), killing it after 10 s."""
        if self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=5)

    def resume(self):
        """Starts the server again after `pause`, on the same port and data directory."""
        arguments = list(self.arguments)
        arguments[arguments.index("--port") + 1] = self.url.rsplit(":", 1)[1]
        self.lines = []
        self.process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=self.log, text=True, cwd=ROOT)
        self.url = self._wait_for_url()

    def _start_runners(self, feed_url: str):
        """Starts `parlor apps run` for each app the server says runs outside it."""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            commands = [line for line in list(self.lines) if "parlor apps run" in line]
            if len(commands) >= len(self.outside):
                break
            time.sleep(0.05)
        for line in commands:
            secret = Path(re.search(r"PARLOR_APP_SECRET=\$\(cat (\S+)\)", line).group(1)).read_text().strip()
            app = line.rsplit(" ", 1)[-1].strip()
            environment = dict(os.environ, PARLOR_URL=self.url, PARLOR_APP_SECRET=secret)
            runner = subprocess.Popen(
                [str(parlor_binary()), "apps", "run", app, "--feed-url", feed_url],
                env=environment, stdout=subprocess.PIPE, stderr=self.log, text=True, cwd=ROOT)
            self.runners.append(runner)
            # It says so once the server has welcomed it: only then can people open the app.
            line = runner.stdout.readline()
            if "connected" not in line:
                raise RuntimeError(f"parlor apps run {app} did not connect: {line!r}")

    def _wait_for_url(self) -> str:
        found: list[str] = []
        lines = self.lines

        def read():
            for line in self.process.stdout:
                lines.append(line)
                self.log.write(line)
                self.log.flush()
                match = re.search(r"Open (http://127\.0\.0\.1:\d+)/", line)
                if match and not found:
                    found.append(match.group(1))

        threading.Thread(target=read, daemon=True).start()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if found:
                return found[0]
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("parlor serve did not start: " + "".join(lines)[-2000:])

    def stop(self):
        for runner in self.runners:
            runner.kill()
            runner.wait(timeout=5)
        self._terminate()
        self.log.close()
        shutil.rmtree(self.data_dir, ignore_errors=True)


@pytest.fixture
def artifacts(request) -> Path:
    path = ARTIFACTS / request.node.name
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def server(feed, artifacts, request):
    extra = ["--image-proxy-private-hosts"] if request.node.get_closest_marker("private_hosts") else []
    # @pytest.mark.serve_args("--unsend-window-seconds", "4"): a server configured otherwise.
    if marker := request.node.get_closest_marker("serve_args"):
        extra += list(marker.args)
    parlor = ParlorServer(feed.feed_url, artifacts / "server.log", extra)
    yield parlor
    parlor.stop()


# MARK: Browsers


def chromium_options(profile: str, width: int, height: int) -> webdriver.ChromeOptions:
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
    for argument in (
        "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--lang=en-US",
        f"--window-size={width},{height}", f"--user-data-dir={profile}", "--no-first-run",
        "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
        "--disable-backgrounding-occluded-windows", "--force-prefers-reduced-motion",
        # A microphone that plays a beep, allowed without asking: voice messages are recorded for real.
        "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    options.set_capability("unhandledPromptBehavior", "ignore")
    return options


@pytest.fixture
def browsers(server, artifacts):
    """Makes people: `alice = browsers("alice")` opens a separate browser signed in as alice."""
    people: list[Person] = []
    profiles: list[str] = []

    def make(username: str, *, width: int = 1280, height: int = 860, sign_in: bool = True) -> Person:
        profile = tempfile.mkdtemp(prefix=f"parlor-chrome-{username}-")
        profiles.append(profile)
        driver_path = os.environ.get("CHROMEDRIVER", shutil.which("chromedriver") or "/usr/bin/chromedriver")
        driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=chromium_options(profile, width, height))
        driver.set_page_load_timeout(30)
        driver.set_script_timeout(15)
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": TEST_SHIM})
        if width < 600:
            # Headless windows are at least 500 px wide: emulate a phone's screen instead.
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 2, "mobile": True})
        person = Person(driver, server.url, username, artifacts)
        people.append(person)
        if sign_in:
            person.sign_in(username)
        return person

    yield make
    for person in people:
        try:
            person.save_console_log()
        finally:
            person.driver.quit()
    for profile in profiles:
        shutil.rmtree(profile, ignore_errors=True)
    # Broken pages show up here even when the flow passed: uncaught errors or CSP violations.
    problems = [line for person in people for line in person.console_problems]
    assert not problems, "The browser console reported problems:\n" + "\n".join(problems)
