"""The Parlor side of the harness: HTTP sign-up and the JSON WebSocket protocol."""
import asyncio
import base64
import http.client
import itertools
import json
import os
import socket
import uuid

import websockets
from websockets.asyncio.client import connect

import receiver
from stats import now_ns
import sys
import pathlib

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))
import parlor_protocol as protocol  # noqa: E402  (docs/protocol.json's names)

PASSWORD = "bench-password"
_request_ids = itertools.count()


def http_json(port, method, path, body=None, token=None):
    """One HTTP request to 127.0.0.1; returns the decoded JSON body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = connection.getresponse()
        data = response.read()
    finally:
        connection.close()
    if response.status >= 300:
        raise RuntimeError(f"{method} {path}: {response.status} {data[:300]!r}")
    return json.loads(data) if data else None


async def sign_up(port, usernames, concurrency=8):
    """Creates the accounts; returns username -> token."""
    tokens = {}
    queue = list(usernames)

    async def worker():
        while queue:
            name = queue.pop()
            body = {"username": name, "displayName": name, "password": PASSWORD}
            session = await asyncio.to_thread(http_json, port, "POST", "/api/auth/signup", body)
            tokens[name] = session["token"]

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return tokens


async def create_conversation(port, token, title, members):
    """POST /api/conversations; returns the conversation id."""
    summary = await asyncio.to_thread(http_json, port, "POST", "/api/conversations", {"title": title, "members": members}, token)
    return summary["id"]


class ParlorMember:
    """One WebSocket connection of one user. Every received frame goes to `on_frame` (and
    benchmark texts of `message` frames to `on_text`)."""

    def __init__(self, server, username, token, index, on_text=None, source=None):
        """`source`: the local address to connect from (idle sessions, see idle.py)."""
        self.server = server
        self.source = source
        self.username = username
        self.token = token
        self.index = index
        self.on_text = on_text
        self.on_frame = None
        self.errors = []
        self.conversation = None
        self.ws = None
        self.reader = None
        self.ready = None

    async def connect(self, timeout=60):
        self.ready = asyncio.get_running_loop().create_future()
        self.ws = await asyncio.wait_for(connect(
            f"ws://127.0.0.1:{self.server.port}/ws", additional_headers={"Authorization": f"Bearer {self.token}"},
            compression=None, max_size=8 * 1024 * 1024, max_queue=None, ping_interval=None,
            **({"local_addr": (self.source, 0)} if self.source else {})), timeout)
        self.reader = asyncio.create_task(self._read())
        await self.ws.send(json.dumps({"type": protocol.Client.hello, "since": {}}, separators=(",", ":")))
        await asyncio.wait_for(asyncio.shield(self.ready), timeout)

    async def _read(self):
        try:
            async for frame in self.ws:
                at = now_ns()
                # Swift's JSONEncoder does not keep key order: look for the type anywhere (nested
                # objects of these frames carry no "type" key).
                if protocol.marker(protocol.Server.message) in frame:
                    if self.on_text is not None:
                        self.on_text(self.index, frame, at)
                elif protocol.marker(protocol.Server.ready) in frame:
                    if not self.ready.done():
                        self.ready.set_result(True)
                elif protocol.marker(protocol.Server.error) in frame:
                    self.errors.append(frame[:300])
                if self.on_frame is not None:
                    self.on_frame(self, frame, at)
        except websockets.ConnectionClosed:
            pass

    def send_text(self, text):
        frame = json.dumps({"type": protocol.Client.sendText, "requestId": str(next(_request_ids)), "conversation": self.conversation,
                            "id": str(uuid.uuid4()).upper(), "text": text})
        return asyncio.ensure_future(self.ws.send(frame))

    async def send(self, payload):
        await self.ws.send(json.dumps(payload))

    async def close(self):
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)


def _frame(opcode, payload):
    """A client frame (FIN set, masked with a fresh key, as RFC 6455 requires of a client)."""
    length = len(payload)
    if length < 126:
        head = bytes((0x80 | opcode, 0x80 | length))
    elif length < 65536:
        head = bytes((0x80 | opcode, 0x80 | 126)) + length.to_bytes(2, "big")
    else:
        head = bytes((0x80 | opcode, 0x80 | 127)) + length.to_bytes(8, "big")
    key = os.urandom(4)
    if not length:
        return head + key
    repeated = (key * (length // 4 + 1))[:length]
    masked = (int.from_bytes(payload, "little") ^ int.from_bytes(repeated, "little")).to_bytes(length, "little")
    return head + key + masked


class RawParlorMember:
    """One WebSocket connection of one user without a WebSocket library, for the fan-out rooms
    (scenarios 1, 2 and 6): a hand-written HTTP/1.1 Upgrade (`Authorization: Bearer`), `hello`,
    and frames read until `ready`; then `hand_over` gives the reading of the socket to a
    receiver process (receiver.ReceiverPool, which walks the frames and scans text payloads for
    the benchmark marker), with the bytes already read past `ready`. This process keeps writing:
    messages as frames built here, and the pongs to the pings the receiver passes back (one
    writer per socket, so frames are never interleaved). `errors`: error frames seen before the
    hand-over (later ones are counted by the pool)."""

    def __init__(self, server, username, token, index):
        self.server = server
        self.username = username
        self.token = token
        self.index = index
        self.errors = []
        self.conversation = None
        self.sock = None
        self.pending = b""    # bytes read past `ready`, for the receiver
        self.unsent = bytearray()  # bytes the socket did not take yet
        self.loop = None
        self.prefix = b""

    async def connect(self, timeout=60):
        await asyncio.wait_for(self._connect(), timeout)

    async def _connect(self):
        self.loop = loop = asyncio.get_running_loop()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock = sock
        await loop.sock_connect(sock, ("127.0.0.1", self.server.port))
        key = base64.b64encode(os.urandom(16)).decode()
        request = (f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{self.server.port}\r\nUpgrade: websocket\r\n"
                   f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                   f"Authorization: Bearer {self.token}\r\n\r\n")
        await loop.sock_sendall(sock, request.encode())
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = await loop.sock_recv(sock, 65536)
            if not chunk:
                raise RuntimeError(f"{self.username}: connection closed during the upgrade")
            data += chunk
        head, data = data.split(b"\r\n\r\n", 1)
        if not head.startswith(b"HTTP/1.1 101"):
            raise RuntimeError(f"{self.username}: upgrade refused: {head[:200]!r}")
        await loop.sock_sendall(sock, _frame(1, json.dumps({"type": protocol.Client.hello, "since": {}}, separators=(",", ":")).encode()))
        while True:
            frame = receiver.frame_at(data, 0)
            if frame is None:
                chunk = await loop.sock_recv(sock, 65536)
                if not chunk:
                    raise RuntimeError(f"{self.username}: connection closed before ready")
                data += chunk
                continue
            opcode, start, stop = frame
            payload, data = data[start:stop], data[stop:]
            if opcode == 9:
                await loop.sock_sendall(sock, _frame(10, payload))
            elif opcode == 8:
                raise RuntimeError(f"{self.username}: closed before ready: {payload[:200]!r}")
            elif protocol.marker(protocol.Server.ready).encode() in payload:
                break
            elif protocol.marker(protocol.Server.error).encode() in payload:
                self.errors.append(payload[:300])
        self.pending = data
        self.prefix = (b'{"type":"' + protocol.Client.sendText.encode() + b'","conversation":' + json.dumps(self.conversation).encode()
                       + b',"requestId":"')

    def hand_over(self, pool):
        pool.add(self.index, self.sock.fileno(), receiver.WEBSOCKET, self.pending)
        self.pending = b""

    def _write(self, data):
        if self.unsent:
            self.unsent += data
            return
        try:
            sent = self.sock.send(data)
        except BlockingIOError:
            sent = 0
        except OSError as error:
            self.errors.append(f"send: {error}")
            return
        if sent < len(data):
            self.unsent += data[sent:]
            self.loop.add_writer(self.sock.fileno(), self._flush)

    def _flush(self):
        try:
            sent = self.sock.send(self.unsent)
        except BlockingIOError:
            return
        except OSError as error:
            self.errors.append(f"send: {error}")
            sent = len(self.unsent)
        del self.unsent[:sent]
        if not self.unsent:
            self.loop.remove_writer(self.sock.fileno())

    def send_text(self, text):
        payload = (self.prefix + str(next(_request_ids)).encode() + b'","id":"' + str(uuid.uuid4()).upper().encode()
                   + b'","text":' + json.dumps(text).encode() + b"}")
        self._write(_frame(1, payload))

    def pong(self, payload):
        self._write(_frame(10, payload))

    async def close(self):
        if self.sock is None:
            return
        if self.unsent:
            self.loop.remove_writer(self.sock.fileno())
            self.unsent.clear()
        try:
            self.sock.send(_frame(8, b"\x03\xe8"))
        except OSError:
            pass
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        self.sock = None
