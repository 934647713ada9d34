"""The HTTP API beside the browsers: what a test sets up or checks without clicking (JSON in and
out, as a person signed in with a bearer token, or anonymously)."""

import json
import urllib.request


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
