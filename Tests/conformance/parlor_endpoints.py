"""Parlor's two WebSocket endpoints as the conformance cases see them: where to connect, how the
connection begins (the `welcome` frame), the largest message each takes, and — since Parlor does
not echo — the text message it answers, standing in for Autobahn's echoed one.

- The browser socket, `/ws` (docs/PROTOCOL.md): the answered frame is the application ping,
  `{"type":"ping","requestId":ID,"pad":PAD}`, answered `{"type":"pong","requestId":ID}`.
- The app dial-in socket, `/api/apps/connect?protocol=1` (docs/APPS-PROTOCOL.md): no frame an app
  sends is echoed, and an unknown frame's `error` names nothing; a `containerGet` naming no open
  call is answered by an `error` frame carrying the read's id (§3.1–3.2), so
  `{"type":"containerGet","id":ID,"call":"none","key":PAD}` is answered
  `{"type":"error","code":"invalidValue","message":…,"id":ID}`.

PAD fills the message up to the size the Autobahn case sends, or carries the case's own UTF-8
octets verbatim (cases 6.*). A text message too short to hold the answered frame (Autobahn's empty
ones, 9.7's 16 octets) is sent as Autobahn sends it, and the answer expected is the endpoint's
`error` frame for a text frame it cannot read (`malformedFrame`); a binary message is answered by
the same `error` frame (both endpoints speak JSON text only) and the connection stays open.
"""

from __future__ import annotations

import json
import sys
import pathlib

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))
import parlor_protocol as protocol  # noqa: E402  (docs/protocol.json's names)

# Every text message that is not a JSON frame of the endpoint's protocol, and every binary one,
# is answered with this (the connection stays open).
MALFORMED = ("error", "malformedFrame", None)


class Endpoint:
    name = ""
    path = ""
    # The largest message the endpoint takes (a longer one is closed with 1009).
    max_message_bytes = 0
    # The largest frame the server's decoder reads at all (SwiftNIO's maxFrameSize; 1009 past it).
    max_frame_bytes = 1 << 20
    # Messages the endpoint takes in any one second before closing with 1008, if it limits them.
    max_messages_per_second = None
    # A request id is a JSON string written as is: no quote, backslash or control character.
    _head = b""
    _tail = b'"}'

    def __init__(self, host, port, credential):
        self.host, self.port = host, port
        self.headers = [f"Authorization: Bearer {credential}"]

    def answerable(self, request_id: str, size: int | None = None, pad: bytes = b"", fill: bytes = b"*") -> bytes:
        """The answered text message: `pad` as its padding, then `fill` repeated until the
        message is `size` octets (when it is not already)."""
        head = self._head.replace(b"{ID}", request_id.encode())
        message = head + pad + self._tail
        if size is not None and len(message) < size:
            need = size - len(message)
            message = head + pad + (fill * (need // len(fill) + 1))[:need] + self._tail
        return message

    def minimum(self, request_id: str) -> int:
        return len(self.answerable(request_id))

    def can_carry(self, octets: bytes) -> bool:
        """Whether `octets` can stand verbatim inside a JSON string: no quote, backslash or
        control character (JSON would need them escaped, which would change the octets)."""
        return not any(b < 0x20 or b in (0x22, 0x5C) for b in octets)

    def answer(self, request_id: str):
        raise NotImplementedError

    def is_welcome(self, payload: bytes) -> bool:
        try:
            return json.loads(payload).get("type") == "welcome"  # both protocols start with one
        except ValueError:
            return False

    def normalize(self, payload: bytes):
        raise NotImplementedError

    def __repr__(self):
        return self.name


class BrowserSocket(Endpoint):
    name = "ws"
    path = "/ws"
    max_message_bytes = 64 * 1024  # ServerConfiguration.maxClientMessageBytes
    _head = b'{"type":"' + protocol.Client.ping.encode() + b'","requestId":"{ID}","pad":"'

    def answer(self, request_id):
        return ("pong", request_id)

    def normalize(self, payload):
        try:
            frame = json.loads(payload.decode("utf-8"))
        except ValueError:
            return ("unreadable", payload[:80])
        if not isinstance(frame, dict):
            return ("other", payload[:80])
        if frame.get("type") == protocol.Server.pong and set(frame) == {"type", "requestId"}:
            return ("pong", frame["requestId"])
        if frame.get("type") == protocol.Server.error:
            error = frame.get("error") or {}
            return ("error", error.get("code"), frame.get("requestId"))
        return ("frame", frame.get("type"), payload[:80])


class AppSocket(Endpoint):
    name = "app"
    path = "/api/apps/connect?protocol=1"
    max_message_bytes = 256 * 1024  # AppWire.maxFrameBytes
    max_messages_per_second = 500  # AppWire.maxFramesPerSecond (docs/APPS-PROTOCOL.md §9)
    _head = b'{"type":"containerGet","id":"{ID}","call":"none","key":"'

    def answer(self, request_id):
        return ("error", "invalidValue", request_id)

    def normalize(self, payload):
        try:
            frame = json.loads(payload.decode("utf-8"))
        except ValueError:
            return ("unreadable", payload[:80])
        if not isinstance(frame, dict):
            return ("other", payload[:80])
        if frame.get("type") == "error":  # the app protocol's (docs/APPS-PROTOCOL.md)
            return ("error", frame.get("code"), frame.get("id"))
        return ("frame", frame.get("type"), payload[:80])
