"""Web Push with Parlor closed, against a stand-in push service on loopback that decrypts every
push with an independent implementation (http_ece, RFC 8291 aes128gcm) and checks its VAPID token
(RFC 8292) with `cryptography`: a message to someone with no connection arrives encrypted, with
TTL, Urgency and a Topic per conversation, saying who wrote what; nothing is pushed while the
person is connected; a mute
silences it; "show text" off leaves the text out of the plaintext itself; a push service's 410
removes the subscription, its 429 is waited out as Retry-After asks, one that hangs is given up;
subscriptions are checked (a foreign or plain-HTTP push service, keys of the wrong size), capped
at ten devices, and end with the sign-in that made them. No browser: the service worker's side is
test_pwa.py's."""

import asyncio
import base64
import json
import os
import sys
import threading
import time
import urllib.error
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from parlor_api import call, sign_in, signed_in_socket

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import parlor_protocol as protocol  # noqa: E402

SERVE = pytest.mark.serve_args("--push-service-host", "127.0.0.1", "--push-deadline-seconds", "2")


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64d(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushService:
    """Records each push; `answers[path]` says how to answer: a status, (status, headers), or 'hang'."""

    def __init__(self):
        self.received: list[dict] = []
        self.answers: dict[str, object] = {}
        self.lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with service.lock:
                    service.received.append({"path": self.path, "headers": dict(self.headers), "body": body, "at": time.monotonic()})
                    answer = service.answers.get(self.path, 201)
                if answer == "hang":
                    time.sleep(5)
                    return
                status, headers = answer if isinstance(answer, tuple) else (answer, {})
                if callable(status):
                    status, headers = status()
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def pushes(self, path: str) -> list[dict]:
        with self.lock:
            return [r for r in self.received if r["path"] == path]

    def wait(self, path: str, count: int = 1, timeout: float = 10) -> list[dict]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(got := self.pushes(path)) >= count:
                return got
            time.sleep(0.05)
        raise AssertionError(f"{count} push(es) to {path} expected, {len(self.pushes(path))} came")

    def stop(self):
        self.server.shutdown()


@pytest.fixture
def push_service():
    service = PushService()
    yield service
    service.stop()


class Device:
    """A browser's subscription: its own P-256 key and auth secret, as PushManager makes them."""

    def __init__(self, service: PushService, path: str):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = service.origin + path
        self.path = path
        public = self.key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        self.json = {"endpoint": self.endpoint, "keys": {"p256dh": b64u(public), "auth": b64u(self.auth)}, "device": f"Test {path}"}

    def subscribe(self, base: str, token: str) -> dict:
        return call(base, "POST", "/api/me/push", self.json, token=token)

    def open(self, push: dict) -> dict:
        """The push's plaintext, decrypted as the browser would."""
        return json.loads(http_ece.decrypt(push["body"], private_key=self.key, auth_secret=self.auth, version="aes128gcm"))


def check_vapid(push: dict, origin: str):
    """The Authorization header: an ES256 JWT that its own key (k=) verifies, for this push service."""
    scheme, _, rest = push["headers"]["Authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in rest.split(","))
    header, claims, signature = fields["t"].split(".")
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64d(fields["k"]))
    raw = b64d(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises when it does not verify
    assert json.loads(b64d(header)) == {"typ": "JWT", "alg": "ES256"}
    claims = json.loads(b64d(claims))
    assert claims["aud"] == origin
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600
    assert claims["sub"].startswith(("mailto:", "https:"))
    return fields["k"]


def direct_with(server, token: str, username: str) -> str:
    """Their 1:1 conversation (the server answers with the one they have, or a new one)."""
    return call(server.url, "POST", "/api/conversations", {"members": [username]}, token=token)["id"]


def send(server, token: str, conversation: str, text: str):
    call(server.url, "POST", f"/api/conversations/{conversation}/messages", {"id": str(uuid.uuid4()), "text": text}, token)


def refused(server, path: str, body, token: str) -> tuple[int, dict]:
    try:
        call(server.url, "POST", path, body, token=token)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())
    raise AssertionError(f"POST {path} was accepted: {body}")


@SERVE
def test_a_message_to_someone_with_parlor_closed_is_pushed_encrypted_and_nothing_while_they_are_connected(server, push_service):
    alice, bob = sign_in(server.url, "alice"), sign_in(server.url, "bob")
    phone = Device(push_service, "/bob-phone")
    settings = phone.subscribe(server.url, bob)
    assert [d["device"] for d in settings["devices"]] == ["Test /bob-phone"] and settings["devices"][0]["isThisDevice"]
    direct = direct_with(server, alice, "bob")

    send(server, alice, direct, "Lunch at noon?")
    push = push_service.wait("/bob-phone")[0]
    headers = push["headers"]
    assert headers["Content-Encoding"] == "aes128gcm" and headers["TTL"] == "86400" and headers["Urgency"] == "high"
    assert headers["Topic"] == direct.replace("-", "").lower() and len(headers["Topic"]) == 32
    assert b"Lunch" not in push["body"], "the push service sees only ciphertext"
    opened = phone.open(push)
    assert opened["type"] == "message" and opened["title"] == "Alice" and "Lunch at noon?" in opened["body"]
    assert opened["conversation"].lower() == direct.lower() and opened["url"].endswith(direct)
    key = check_vapid(push, push_service.origin)
    assert key == call(server.url, "GET", "/api/me/push", token=bob)["publicKey"], "signed with the key browsers subscribe with"

    # Bob opens Parlor: while he is connected (his tab shows its own notifications), nothing is
    # pushed; every push shows a notification, so none is sent only to close one.
    async def connected():
        async with signed_in_socket(server.url, bob) as socket:
            last = call(server.url, "GET", f"/api/conversations/{direct}", token=bob)["lastSequence"]
            await socket.send(json.dumps({"type": protocol.Client.read, "conversation": direct, "sequence": last}))
            send(server, alice, direct, "Are you there?")
            await asyncio.sleep(1.5)
    asyncio.run(connected())
    assert len(push_service.pushes("/bob-phone")) == 1, "nothing pushed while he had Parlor open, nor for his read"


@SERVE
def test_mute_text_off_gone_throttled_and_hung_push_services(server, push_service):
    alice, bob, carol = sign_in(server.url, "alice"), sign_in(server.url, "bob"), sign_in(server.url, "carol")
    direct = direct_with(server, alice, "bob")
    phone = Device(push_service, "/bob")
    phone.subscribe(server.url, bob)

    # Muted: nothing. Text off: who wrote, never what, not even encrypted.
    call(server.url, "PUT", f"/api/conversations/{direct}/muted", token=bob)
    send(server, alice, direct, "psst")
    time.sleep(1.5)
    assert not push_service.pushes("/bob"), "a muted conversation pushes nothing"
    call(server.url, "DELETE", f"/api/conversations/{direct}/muted", token=bob)
    assert call(server.url, "PATCH", "/api/me/push", {"showsText": False}, token=bob)["showsText"] is False
    # A secret of letters no id can hold (ids are hex digits: a number such as 4812 can be in one).
    send(server, alice, direct, "The safe word is plum-kiwi")
    opened = phone.open(push_service.wait("/bob")[0])
    assert opened["body"] == "New message" and "plum-kiwi" not in json.dumps(opened)

    # 410: the subscription is removed.
    gone = Device(push_service, "/gone")
    push_service.answers["/gone"] = 410
    gone.subscribe(server.url, carol)
    carol_direct = direct_with(server, alice, "carol")
    send(server, alice, carol_direct, "hello")
    push_service.wait("/gone")
    deadline = time.monotonic() + 5
    while call(server.url, "GET", "/api/me/push", token=carol)["devices"] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not call(server.url, "GET", "/api/me/push", token=carol)["devices"], "a 410 removes the subscription"

    # 429 with Retry-After: 2 — tried again no sooner.
    busy = Device(push_service, "/busy")
    answers = iter([(429, {"Retry-After": "2"}), (201, {})])
    push_service.answers["/busy"] = (lambda: next(answers), {})
    busy.subscribe(server.url, carol)
    send(server, alice, carol_direct, "again")
    first, second = push_service.wait("/busy", 2, timeout=15)[:2]
    assert second["at"] - first["at"] >= 1.9, f"retried after {second['at'] - first['at']:.2f} s"

    # A push service that hangs is given up after the deadline (2 s here), and tried again;
    # the server goes on pushing to others meanwhile.
    push_service.answers["/hang"] = "hang"
    Device(push_service, "/hang").subscribe(server.url, carol)
    send(server, alice, carol_direct, "still there?")
    push_service.wait("/hang", 2, timeout=15)
    send(server, alice, direct, "after the hang")
    assert phone.open(push_service.wait("/bob", 2)[1])["type"] == "message"


@SERVE
def test_subscriptions_are_checked_capped_and_end_with_their_sign_in(server, push_service):
    bob = sign_in(server.url, "bob")
    device = Device(push_service, "/x")
    for endpoint, said in [
        ("https://evil.example/push", "push services of Chrome"),
        ("http://fcm.googleapis.com/fcm/send/x", "HTTPS"),
        ("not a url", "endpoint"),
    ]:
        status, body = refused(server, "/api/me/push", {**device.json, "endpoint": endpoint}, bob)
        assert status == 400 and body["error"]["code"] == "invalidValue" and said in body["error"]["message"], body
    short_key = {**device.json, "keys": {**device.json["keys"], "p256dh": device.json["keys"]["p256dh"][:-4]}}
    assert "65 bytes" in refused(server, "/api/me/push", short_key, bob)[1]["error"]["message"]
    long_auth = {**device.json, "keys": {**device.json["keys"], "auth": b64u(os.urandom(17))}}
    assert "16 bytes" in refused(server, "/api/me/push", long_auth, bob)[1]["error"]["message"]

    for index in range(12):
        Device(push_service, f"/many/{index}").subscribe(server.url, bob)
    devices = call(server.url, "GET", "/api/me/push", token=bob)["devices"]
    assert [d["device"] for d in devices] == [f"Test /many/{i}" for i in range(11, 1, -1)], "the newest ten, newest first"
    gone = call(server.url, "DELETE", f"/api/me/push/{devices[0]['id']}", token=bob)["devices"]
    assert len(gone) == 9

    # A sign-in that ends takes its device's subscription with it.
    other = sign_in(server.url, "bob")
    Device(push_service, "/signed-out").subscribe(server.url, other)
    assert "Test /signed-out" in [d["device"] for d in call(server.url, "GET", "/api/me/push", token=bob)["devices"]]
    call(server.url, "POST", "/api/auth/signout", token=other)
    assert "Test /signed-out" not in [d["device"] for d in call(server.url, "GET", "/api/me/push", token=bob)["devices"]]
