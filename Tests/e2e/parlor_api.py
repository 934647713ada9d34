"""The HTTP API beside the browsers: what a test sets up or checks without clicking (JSON in and
out, as a person signed in with a bearer token, or anonymously)."""

import contextlib
import json
import sys
import urllib.request
from pathlib import Path

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import parlor_protocol as protocol  # noqa: E402


def call(base: str, method: str, path: str, body=None, token: str | None = None):
    """The decoded JSON answer (None when empty); an error status raises urllib's HTTPError."""
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read() or b"null")


def sign_in(base: str, username: str, password: str = "parlor-demo") -> str:
    """A bearer token for a demo account."""
    return call(base, "POST", "/api/auth/signin", {"username": username, "password": password})["token"]


@contextlib.asynccontextmanager
async def signed_in_socket(base: str, token: str):
    """A `/ws` connection as the person signed in with `token`, once the server said `ready` to
    its hello: another device of theirs with Parlor open."""
    async with websockets.connect(base.replace("http://", "ws://", 1).rstrip("/") + "/ws",
                                  additional_headers={"Authorization": f"Bearer {token}"}) as socket:
        await socket.send(json.dumps({"type": protocol.Client.hello, "since": {}}))
        while json.loads(await socket.recv())["type"] != protocol.Server.ready:
            pass
        yield socket
