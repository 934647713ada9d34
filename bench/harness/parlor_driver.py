"""The Parlor side of the harness: HTTP sign-up and the JSON WebSocket protocol."""
import asyncio
import http.client
import itertools
import json
import uuid

import websockets
from websockets.asyncio.client import connect

from stats import now_ns

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
        await self.ws.send('{"type":"hello","since":{}}')
        await asyncio.wait_for(asyncio.shield(self.ready), timeout)

    async def _read(self):
        try:
            async for frame in self.ws:
                at = now_ns()
                # Swift's JSONEncoder does not keep key order: look for the type anywhere (nested
                # objects of these frames carry no "type" key).
                if '"type":"message"' in frame:
                    if self.on_text is not None:
                        self.on_text(self.index, frame, at)
                elif '"type":"ready"' in frame:
                    if not self.ready.done():
                        self.ready.set_result(True)
                elif '"type":"error"' in frame:
                    self.errors.append(frame[:300])
                if self.on_frame is not None:
                    self.on_frame(self, frame, at)
        except websockets.ConnectionClosed:
            pass

    def send_text(self, text):
        frame = json.dumps({"type": "sendText", "requestId": str(next(_request_ids)), "conversation": self.conversation,
                            "id": str(uuid.uuid4()).upper(), "text": text})
        return asyncio.ensure_future(self.ws.send(frame))

    async def send(self, payload):
        await self.ws.send(json.dumps(payload))

    async def close(self):
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)
