"""Two `parlor serve` nodes on one PostgreSQL: every client receives every message once, in order.

Run by scripts/test with PARLOR_TEST_POSTGRES_URL pointing at a throwaway cluster and PARLOR_BINARY
at the built `parlor`. Each test gets its own database.
"""
import asyncio
import atexit
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
import uuid

import pytest
import websockets
import sys
import pathlib

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))
import parlor_protocol as protocol  # noqa: E402  (docs/protocol.json's names)

PG_URL = os.environ.get("PARLOR_TEST_POSTGRES_URL")
BINARY = os.environ.get("PARLOR_BINARY", ".build/debug/parlor")


def require_setup():
    if not PG_URL:
        pytest.fail("PARLOR_TEST_POSTGRES_URL is not set: start a cluster with scripts/pg-cluster start DIR (scripts/test does).")
    if not os.path.exists(BINARY):
        pytest.fail(f"{BINARY} is missing: build it with swift build --product parlor.")


@pytest.fixture
def database():
    require_setup()
    name = "cluster_" + uuid.uuid4().hex[:12]
    subprocess.run(["psql", PG_URL, "-qc", f"CREATE DATABASE {name}"], check=True, capture_output=True)
    yield re.sub(r"/[^/?]+(\?|$)", f"/{name}\\1", PG_URL, count=1) if "/" in PG_URL.split("@")[-1] else PG_URL + "/" + name
    subprocess.run(["psql", PG_URL, "-qc", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"], capture_output=True)


class Node:
    """One `parlor serve --postgres` process on a free port."""

    def __init__(self, database_url, port=0, extra=()):
        self.database_url = database_url
        self.data_dir = tempfile.mkdtemp(prefix="parlor-node-")
        # A node may be stopped and started again on its folder: the folder goes when the run ends.
        atexit.register(shutil.rmtree, self.data_dir, True)
        self.port = port
        self.extra = list(extra)
        self.process = None

    def start(self):
        self.process = subprocess.Popen(
            [BINARY, "serve", "--postgres", self.database_url, "--port", str(self.port), "--data-dir", self.data_dir,
             "--password-cost", "4", "--log-level", "warning", "--messages-per-minute", "0", *self.extra],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for line in self.process.stdout:
            match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            if match:
                self.port = int(match.group(1))
                return self
        raise RuntimeError("the node did not start")

    def kill(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def http(self, method, path, body=None, token=None):
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}", method=method,
            data=json.dumps(body).encode() if body is not None else None,
            headers={"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read() or b"null")


class Client:
    """A WebSocket client that records every message it receives for one conversation."""

    def __init__(self, node, token, conversation):
        self.node, self.token, self.conversation = node, token, conversation
        self.received = []  # sequence numbers, in arrival order
        self.texts = {}
        self.others = []  # every other frame about the conversation (reactions, typing), in order
        self.socket = None
        self.reader = None

    async def connect(self):
        self.socket = await websockets.connect(
            f"ws://127.0.0.1:{self.node.port}/ws", additional_headers={"Authorization": f"Bearer {self.token}"})
        since = {self.conversation: self.received[-1] if self.received else 0}
        await self.socket.send(json.dumps({"type": protocol.Client.hello, "since": since}))
        ready = asyncio.get_running_loop().create_future()
        self.reader = asyncio.create_task(self.read(ready))
        await asyncio.wait_for(ready, 10)

    async def read(self, ready):
        try:
            async for raw in self.socket:
                frame = json.loads(raw)
                if frame["type"] == protocol.Server.ready and not ready.done():
                    ready.set_result(True)
                elif frame["type"] == protocol.Server.message and frame["message"]["conversation"] == self.conversation:
                    self.received.append(frame["message"]["sequence"])
                    self.texts[frame["message"]["sequence"]] = frame["message"].get("text")
                elif frame["type"] in (protocol.Server.reactions, protocol.Server.typing, protocol.Server.readReceipt, protocol.Server.conversation) \
                        and frame.get("conversation") == self.conversation:
                    self.others.append(frame)
                elif frame["type"] == protocol.Server.messageChanged and frame["message"]["conversation"] == self.conversation:
                    self.others.append(frame)
        except websockets.ConnectionClosed:
            pass

    async def send(self, text):
        await self.socket.send(json.dumps({
            "type": protocol.Client.sendText, "requestId": text, "conversation": self.conversation, "id": str(uuid.uuid4()).upper(), "text": text}))

    async def close(self):
        if self.socket:
            await self.socket.close()
        if self.reader:
            await self.reader

    async def wait_for(self, count, timeout=20):
        deadline = asyncio.get_running_loop().time() + timeout
        while len(self.received) < count and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)


def setup_conversation(node_a):
    alice = node_a.http("POST", "/api/auth/signup", {"username": "alice", "displayName": "Alice", "password": "password-1"})
    bob = node_a.http("POST", "/api/auth/signup", {"username": "bob", "displayName": "Bob", "password": "password-1"})
    conversation = node_a.http("POST", "/api/conversations", {"members": ["bob"]}, token=alice["token"])
    return alice["token"], bob["token"], conversation["id"]


def assert_exactly_once_in_order(client, total):
    assert client.received == list(range(1, total + 1)), f"got {client.received[:10]}… ({len(client.received)} messages)"


def test_clients_on_two_nodes_receive_every_message_once_in_order_even_while_a_node_restarts(database):
    node_a, node_b = Node(database).start(), Node(database).start()
    try:
        alice_token, bob_token, conversation = setup_conversation(node_a)

        async def scenario():
            alice, bob = Client(node_a, alice_token, conversation), Client(node_b, bob_token, conversation)
            await alice.connect()
            await bob.connect()
            # Only node A commits: node B's client hears of it through the cluster notifications alone.
            for i in range(20):
                await alice.send(f"only-a-{i}")
            await bob.wait_for(20)
            assert_exactly_once_in_order(bob, 20)
            # Concurrent sends through both nodes.
            await asyncio.gather(*[alice.send(f"a{i}") for i in range(40)], *[bob.send(f"b{i}") for i in range(40)])
            await alice.wait_for(100)
            await bob.wait_for(100)
            assert_exactly_once_in_order(alice, 100)
            assert_exactly_once_in_order(bob, 100)
            assert alice.texts == bob.texts

            # Node B goes down hard; Alice keeps sending through node A; B comes back on its port.
            await bob.close()
            node_b.kill()
            for i in range(30):
                await alice.send(f"while-b-down-{i}")
            node_b.start()
            await bob.connect()
            await asyncio.gather(*[alice.send(f"after-{i}") for i in range(10)], *[bob.send(f"b-after-{i}") for i in range(10)])
            await alice.wait_for(150)
            await bob.wait_for(150)
            assert_exactly_once_in_order(alice, 150)
            assert_exactly_once_in_order(bob, 150)
            assert alice.texts == bob.texts
            await alice.close()
            await bob.close()

        asyncio.run(asyncio.wait_for(scenario(), 120))
    finally:
        node_a.stop()
        node_b.stop()


def test_concurrent_sends_through_both_nodes_make_one_gapless_sequence(database):
    node_a, node_b = Node(database).start(), Node(database).start()
    try:
        alice_token, bob_token, conversation = setup_conversation(node_a)

        def post(node, token, text):
            return node.http("POST", f"/api/conversations/{conversation}/messages",
                             {"id": str(uuid.uuid4()).upper(), "text": text}, token=token)["sequence"]

        async def scenario():
            loop = asyncio.get_running_loop()
            calls = [loop.run_in_executor(None, post, node_a, alice_token, f"a{i}") for i in range(60)]
            calls += [loop.run_in_executor(None, post, node_b, bob_token, f"b{i}") for i in range(60)]
            return await asyncio.gather(*calls)

        sequences = asyncio.run(scenario())
        assert sorted(sequences) == list(range(1, 121))
        history = node_b.http("GET", f"/api/conversations/{conversation}/messages?after=0&limit=500", token=bob_token)
        assert [m["sequence"] for m in history] == list(range(1, 121))
    finally:
        node_a.stop()
        node_b.stop()


def test_reactions_edits_receipts_and_typing_cross_nodes(database):
    node_a, node_b = Node(database).start(), Node(database).start()
    try:
        alice_token, bob_token, conversation = setup_conversation(node_a)
        alice_id = node_a.http("GET", "/api/me", token=alice_token)["user"]["id"]

        async def until(condition, what, timeout=15):
            deadline = asyncio.get_running_loop().time() + timeout
            while not condition():
                assert asyncio.get_running_loop().time() < deadline, f"timed out waiting for {what}"
                await asyncio.sleep(0.05)

        async def scenario():
            alice, bob = Client(node_a, alice_token, conversation), Client(node_b, bob_token, conversation)
            await alice.connect()
            await bob.connect()
            await alice.send("hello from node A")
            await bob.wait_for(1)
            message = node_b.http("GET", f"/api/conversations/{conversation}/messages", token=bob_token)[0]["id"]

            # Alice, on node A, reacts: Bob, on node B, sees it; then she takes it off.
            for on in (True, False):
                await alice.socket.send(json.dumps({
                    "type": protocol.Client.react, "conversation": conversation, "message": message, "emoji": "❤️", "on": on}))
                expected = [{"emoji": "❤️", "users": [alice_id]}] if on else []
                await until(lambda: any(f["type"] == protocol.Server.reactions and f["reactions"] == expected for f in bob.others),
                            f"Bob to see the heart {'put' if on else 'taken off'}")
            history = node_b.http("GET", f"/api/conversations/{conversation}/messages", token=bob_token)
            assert "reactions" not in history[0]

            # Alice edits her message on node A: Bob on node B sees the new text.
            await alice.socket.send(json.dumps({"type": protocol.Client.edit, "conversation": conversation, "message": message, "text": "hello, edited"}))
            await until(lambda: any(f["type"] == protocol.Server.messageChanged and f["message"].get("text") == "hello, edited" for f in bob.others),
                        "Bob to see the edit")
            # Bob reads on node B: Alice on node A sees his receipt, and Bob's other tab, on node A,
            # his unread count go to 0 (which also closes his notifications there).
            bobs_other_tab = Client(node_a, bob_token, conversation)
            await bobs_other_tab.connect()
            await bob.socket.send(json.dumps({"type": protocol.Client.read, "conversation": conversation, "sequence": 1}))
            await until(lambda: any(f["type"] == protocol.Server.readReceipt and f["receipt"]["sequence"] == 1 for f in alice.others),
                        "Alice to see Bob's read receipt")
            await until(lambda: any(f["type"] == protocol.Server.conversation and f["conversationInfo"]["unreadCount"] == 0
                                    for f in bobs_other_tab.others), "Bob's tab on node A to see the conversation read")
            await bobs_other_tab.close()

            # Alice types on node A: Bob on node B sees her start and stop; nothing is stored.
            for typing in (True, False):
                await alice.socket.send(json.dumps({"type": protocol.Client.typing, "conversation": conversation, "typing": typing}))
                await until(lambda: any(f["type"] == protocol.Server.typing and f["typing"] == typing and f["userID"] == alice_id for f in bob.others),
                            f"Bob to see Alice {'start' if typing else 'stop'} typing")
            assert not [f for f in alice.others if f["type"] == protocol.Server.typing], "the typist's own tab hears nothing"
            await alice.close()
            await bob.close()

        asyncio.run(asyncio.wait_for(scenario(), 60))
    finally:
        node_a.stop()
        node_b.stop()


def find_button(view, title):
    """The action payload of the button titled `title` in a view tree."""
    if view.get("type") == "button" and view.get("title") == title:
        return view["action"]
    for child in view.get("children", []):
        found = find_button(child, title)
        if found:
            return found
    return None


def offers(node, token, app):
    """Whether `node`'s store offers `app` to the holder of `token`."""
    return any(found["id"] == app for found in node.http("GET", "/api/apps", token=token)["apps"])


def wait_until_offered(nodes, token, app, offered=True):
    """Waits up to 5 s until every node offers `app` (or, with offered=False, none does)."""
    for node in nodes:
        for _ in range(100):
            if offers(node, token, app) == offered:
                break
            time.sleep(0.05)
        assert offers(node, token, app) == offered, f"node on port {node.port} {'does not offer' if offered else 'still offers'} {app}"


async def frames_until(socket, predicate, timeout=15):
    """The first frame on `socket` that `predicate` accepts."""
    async def loop():
        async for raw in socket:
            frame = json.loads(raw)
            if predicate(frame):
                return frame
    return await asyncio.wait_for(loop(), timeout)


async def connect_session(node, token, conversation):
    """A client session on `node`, said hello and ready."""
    socket = await websockets.connect(f"ws://127.0.0.1:{node.port}/ws", additional_headers={"Authorization": f"Bearer {token}"})
    await socket.send(json.dumps({"type": protocol.Client.hello, "since": {conversation: 0}}))
    await frames_until(socket, lambda f: f["type"] == protocol.Server.ready)
    return socket


def test_an_app_message_staged_through_one_node_shows_and_sends_from_a_tab_on_the_other(database):
    node_a, node_b = Node(database).start(), Node(database).start()
    try:
        alice_token, bob_token, conversation = setup_conversation(node_a)
        # Hello, the developers' example, is in the store, not in a new person's drawer.
        node_a.http("POST", "/api/apps/org.parlor.hello/install", token=alice_token)

        async def connect(node, token):
            return await connect_session(node, token, conversation)

        async def scenario():
            tab_a, tab_b = await connect(node_a, alice_token), await connect(node_b, alice_token)
            bob = await connect(node_b, bob_token)
            await tab_a.send(json.dumps({"type": protocol.Client.openApp, "conversation": conversation, "app": "org.parlor.hello"}))
            opened = await frames_until(tab_a, lambda f: f["type"] == protocol.Server.app and f["update"]["isActive"])
            action = find_button(opened["update"]["view"], "Good morning")
            assert action, "the Hello app shows its greetings"
            # Alice's other tab, on node B, follows the app she opened on node A.
            followed = await frames_until(tab_b, lambda f: f["type"] == protocol.Server.app)
            assert followed["update"]["isActive"]
            await tab_a.send(json.dumps({"type": protocol.Client.appEvent, "conversation": conversation, "app": "org.parlor.hello",
                                         "event": {"kind": "action", "action": action}}))
            staged = await frames_until(tab_b, lambda f: f["type"] == protocol.Server.staged and f.get("staged"))
            assert staged["staged"]["app"]["layout"]["caption"] == "Good morning"
            # Sent from the tab on node B: Bob (on node B too) gets it, and both of Alice's tabs see the field cleared.
            await tab_b.send(json.dumps({"type": protocol.Client.sendStaged, "requestId": "s1", "conversation": conversation}))
            ack = await frames_until(tab_b, lambda f: f["type"] == protocol.Server.ack)
            assert ack["message"]["app"]["layout"]["caption"] == "Good morning"
            received = await frames_until(bob, lambda f: f["type"] == protocol.Server.message)
            assert received["message"]["id"] == ack["message"]["id"]
            cleared = await frames_until(tab_a, lambda f: f["type"] == protocol.Server.staged and not f.get("staged"))
            assert cleared["conversation"] == conversation
            for socket in (tab_a, tab_b, bob):
                await socket.close()

        asyncio.run(asyncio.wait_for(scenario(), 60))
    finally:
        node_a.stop()
        node_b.stop()


def test_an_app_added_with_the_command_reaches_both_nodes_and_its_removal_ends_every_connection(database):
    """`parlor apps add --postgres`: both nodes offer the app within seconds and let it dial in
    with its credential (one copy per node, as docs/APPS-PROTOCOL.md §9 says); `parlor apps remove`
    closes the copies on both."""
    nodes = [Node(database).start(), Node(database).start()]
    try:
        manifest = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "dice", "manifest.json")
        added = subprocess.run([BINARY, "apps", "add", manifest, "--postgres", database, "--data-dir", nodes[0].data_dir],
                               capture_output=True, text=True, check=True)
        secret = next(line for line in added.stdout.splitlines() if line.startswith("parlor_app_"))
        alice = nodes[0].http("POST", "/api/auth/signup", {"username": "alice", "displayName": "Alice", "password": "purple-otter-47"})["token"]
        wait_until_offered(nodes, alice, "org.example.dice")

        async def copies():
            sockets = []
            for node in nodes:
                socket = await websockets.connect(
                    f"ws://127.0.0.1:{node.port}/api/apps/connect?protocol=1", additional_headers={"Authorization": f"Bearer {secret}"})
                welcome = json.loads(await asyncio.wait_for(socket.recv(), 10))
                assert welcome == {"type": "welcome", "app": "org.example.dice", "protocol": 1}
                sockets.append(socket)
            subprocess.run([BINARY, "apps", "remove", "org.example.dice", "--postgres", database, "--data-dir", nodes[0].data_dir],
                           capture_output=True, check=True)
            for socket in sockets:
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    await asyncio.wait_for(socket.recv(), 10)
                assert closed.value.rcvd.code == 1008
                assert closed.value.rcvd.reason == "This app was removed from the server."

        asyncio.run(copies())
        assert not offers(nodes[1], alice, "org.example.dice")
    finally:
        for node in nodes:
            node.stop()


async def open_socket(node, token):
    """A `/ws` connection that said hello and got `ready`."""
    socket = await websockets.connect(f"ws://127.0.0.1:{node.port}/ws", additional_headers={"Authorization": f"Bearer {token}"})
    await socket.send(json.dumps({"type": protocol.Client.hello, "since": {}}))
    while json.loads(await asyncio.wait_for(socket.recv(), 10))["type"] != protocol.Server.ready:
        pass
    return socket


async def close_code(socket, timeout):
    """The code the server closes `socket` with within `timeout` seconds, or "still open"."""
    async def drain():
        while True:
            await socket.recv()
    try:
        await asyncio.wait_for(drain(), timeout)
    except websockets.ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else "dropped without a close frame"
    except asyncio.TimeoutError:
        return "still open"


async def answers_ping(socket):
    request = uuid.uuid4().hex
    await socket.send(json.dumps({"type": protocol.Client.ping, "requestId": request}))
    while json.loads(await asyncio.wait_for(socket.recv(), 5)) != {"type": protocol.Server.pong, "requestId": request}:
        pass
    return True


def status_of(node, path, token):
    try:
        node.http("GET", path, token=token)
        return 200
    except urllib.error.HTTPError as error:
        return error.code


# Well under the 15-second session sweep, the backstop that would close them anyway: only the
# node's own close and the other nodes' LISTEN/NOTIFY event are fast enough.
SIGNED_OUT_WITHIN = 4


def test_signing_out_closes_that_sign_ins_sockets_on_both_nodes_and_a_password_change_the_others(database):
    node_a, node_b = Node(database).start(), Node(database).start()
    try:
        credentials = {"username": "alice", "password": "purple-otter-47"}
        node_a.http("POST", "/api/auth/signup", {**credentials, "displayName": "Alice"})
        token_1, token_2, token_3 = (node.http("POST", "/api/auth/signin", credentials)["token"] for node in (node_a, node_b, node_a))

        async def scenario():
            a, b, c = await open_socket(node_a, token_1), await open_socket(node_b, token_1), await open_socket(node_b, token_2)
            d = await open_socket(node_a, token_3)
            node_a.http("POST", "/api/auth/signout", token=token_1)
            assert await asyncio.gather(close_code(a, SIGNED_OUT_WITHIN), close_code(b, SIGNED_OUT_WITHIN)) == [4401, 4401], \
                "token 1's sockets on node A (its own) and node B (through PostgreSQL) close as signed out"
            assert await answers_ping(c), "another sign-in's socket stays"
            assert status_of(node_b, "/api/me", token_1) == 401

            # A password change through node B ends every other sign-in (the sign-up's, token 3's): its
            # socket on node A closes; the socket of the token the change was made with stays.
            ended = node_b.http("POST", "/api/me/password", {"currentPassword": "purple-otter-47", "newPassword": "violet-heron-82"}, token=token_2)
            assert ended == {"ended": 2}
            assert await close_code(d, SIGNED_OUT_WITHIN) == 4401
            assert await answers_ping(c)
            assert (status_of(node_a, "/api/me", token_3), status_of(node_a, "/api/me", token_2)) == (401, 200)

            # Signing out everywhere through node A ends the last one, on node B.
            assert node_a.http("POST", "/api/auth/signout-everywhere", token=token_2) == {"ended": 1}
            assert await close_code(c, SIGNED_OUT_WITHIN) == 4401

        asyncio.run(asyncio.wait_for(scenario(), 60))
    finally:
        node_a.stop()
        node_b.stop()


def tiny_png():
    """An 8×8 PNG of a gradient."""
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + bytes(v for x in range(8) for v in (x * 32, y * 32, 128)) for y in range(8))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 8, 8, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def test_an_image_address_signed_by_one_node_loads_through_the_other(database):
    """The image proxy's key is the cluster's (kept in PostgreSQL): an address node A signed for a
    link card loads through node B; the same address with its signature altered does not."""
    import threading
    import urllib.parse
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    picture = tiny_png()

    class Site(BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path == "/picture.png":
                body, kind = picture, "image/png"
            else:
                body = (f"<!doctype html><html><head><title>A local page</title><meta property='og:image' "
                        f"content='http://127.0.0.1:{self.server.server_port}/picture.png'></head><body>Hi</body></html>").encode()
                kind = "text/html; charset=utf-8"
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    site = ThreadingHTTPServer(("127.0.0.1", 0), Site)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    node_a, node_b = (Node(database, extra=["--image-proxy-private-hosts"]).start() for _ in range(2))
    try:
        token = node_a.http("POST", "/api/auth/signup", {"username": "alice", "displayName": "Alice", "password": "purple-otter-47"})["token"]
        page = f"http://127.0.0.1:{site.server_port}/page.html"
        card = node_a.http("GET", "/api/link-preview?url=" + urllib.parse.quote(page, safe=""), token=token)
        address = card["imageURL"]
        assert re.fullmatch(r"/images/proxy\?url=[^&]+&sig=[0-9a-f]{32}", address), card

        def get(path):
            request = urllib.request.Request(f"http://127.0.0.1:{node_b.port}{path}", headers={"Authorization": f"Bearer {token}"})
            try:
                with urllib.request.urlopen(request, timeout=10) as response:
                    return response.status, response.headers["Content-Type"], response.read()
            except urllib.error.HTTPError as error:
                return error.code, error.headers["Content-Type"], error.read()

        assert get(address) == (200, "image/png", picture), "node B accepts node A's signature"
        altered = address[:-1] + ("0" if address[-1] != "0" else "1")
        status, _, body = get(altered)
        assert (status, json.loads(body)["error"]["code"]) == (403, "unsignedImage")
    finally:
        node_a.stop()
        node_b.stop()
        site.shutdown()
        site.server_close()


class TCPRelay:
    """A TCP relay between a node and PostgreSQL, so a test can take the database away from one
    node (every connection dropped, new ones refused) and give it back, on the same port."""

    def __init__(self, upstream_host, upstream_port):
        import socket
        import threading
        self.socket_module, self.threading = socket, threading
        self.upstream = (upstream_host, upstream_port)
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        self.port = probe.getsockname()[1]
        probe.close()
        self.listener = None
        self.connections = []
        self.stopped = True
        self.lock = threading.Lock()

    def start(self):
        listener = self.socket_module.socket()
        listener.setsockopt(self.socket_module.SOL_SOCKET, self.socket_module.SO_REUSEADDR, 1)
        for attempt in range(50):  # the port of a relay just stopped is free within moments
            try:
                listener.bind(("127.0.0.1", self.port))
                break
            except OSError:
                if attempt == 49:
                    raise
                time.sleep(0.1)
        listener.listen(64)
        self.listener = listener
        with self.lock:
            self.stopped = False
        self.threading.Thread(target=self.accept, args=(listener,), daemon=True).start()
        return self

    def accept(self, listener):
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                server = self.socket_module.create_connection(self.upstream)
            except OSError:
                client.close()
                continue
            with self.lock:
                late = self.stopped
                if not late:
                    self.connections += [client, server]
            if late:  # accepted just as the relay stopped: it must not survive the stop
                for end in (client, server):
                    end.close()
                continue
            for source, target in ((client, server), (server, client)):
                self.threading.Thread(target=self.pump, args=(source, target), daemon=True).start()

    def pump(self, source, target):
        try:
            while data := source.recv(65536):
                target.sendall(data)
        except OSError:
            pass
        for end in (source, target):
            try:
                end.shutdown(self.socket_module.SHUT_RDWR)
            except OSError:
                pass

    def stop(self):
        """Refuses new connections and drops the open ones."""
        # shutdown() wakes the thread blocked in accept(): a socket only closed stays listening
        # (and holds the port) until that accept returns.
        try:
            self.listener.shutdown(self.socket_module.SHUT_RDWR)
        except OSError:
            pass
        self.listener.close()
        with self.lock:
            self.stopped = True
            connections, self.connections = self.connections, []
        for connection in connections:
            try:
                connection.shutdown(self.socket_module.SHUT_RDWR)
            except OSError:
                pass
            connection.close()


def readiness(node):
    """`/readyz`: its status and its one line."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{node.port}/readyz", timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def wait_for_readiness(node, status, timeout=30):
    deadline = time.monotonic() + timeout
    seen = readiness(node)
    while seen[0] != status and time.monotonic() < deadline:
        time.sleep(0.2)
        seen = readiness(node)
    return seen


def test_readyz_turns_503_when_a_nodes_database_goes_away_and_200_when_it_is_back(database):
    """A node whose PostgreSQL is gone says so on /readyz (503 with the reason, within seconds)
    while the other node stays ready; once the database is back, it is ready again."""
    address = re.search(r"@([^:/]+):(\d+)/", database)
    relay = TCPRelay(address.group(1), int(address.group(2))).start()
    relayed = database.replace(f"@{address.group(1)}:{address.group(2)}/", f"@127.0.0.1:{relay.port}/")
    nodes = [Node(relayed).start(), Node(database).start()]
    try:
        assert wait_for_readiness(nodes[0], 200) == (200, "ready\n")
        relay.stop()
        status, reason = wait_for_readiness(nodes[0], 503)
        assert status == 503, f"still {status} {reason!r} after the database went away"
        assert "PostgreSQL" in reason, reason
        assert readiness(nodes[1]) == (200, "ready\n"), "the other node still has its database"
        relay.start()
        assert wait_for_readiness(nodes[0], 200) == (200, "ready\n"), "ready again once the database is back"
    finally:
        for node in nodes:
            node.stop()
        relay.stop()


def test_a_message_is_pushed_once_whichever_node_it_was_sent_through_and_not_while_a_tab_is_open_on_either(database):
    """Web Push on two nodes: each message to someone with Parlor closed reaches their device's push
    service once (from the node it was sent through, not from every node that fans it out), and
    both nodes give browsers the same VAPID key (one in the shared database). While Bob has Parlor
    open on node B, nothing is pushed to him, also for messages sent through node A."""
    import base64
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    received = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            received.append(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
            self.send_response(201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    service = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=service.serve_forever, daemon=True).start()
    extra = ("--push-service-host", "127.0.0.1")
    node_a, node_b = Node(database, extra=extra).start(), Node(database, extra=extra).start()
    try:
        alice_token, bob_token, conversation = setup_conversation(node_a)
        b64u = lambda data: base64.urlsafe_b64encode(data).rstrip(b"=").decode()
        key = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        node_b.http("POST", "/api/me/push", {
            "endpoint": f"http://127.0.0.1:{service.server_address[1]}/bob",
            "keys": {"p256dh": b64u(key), "auth": b64u(os.urandom(16))}}, token=bob_token)
        assert node_a.http("GET", "/api/me/push", token=bob_token)["publicKey"] == node_b.http("GET", "/api/me/push", token=bob_token)["publicKey"]
        for index in range(10):
            node = node_a if index % 2 == 0 else node_b
            node.http("POST", f"/api/conversations/{conversation}/messages", {"id": str(uuid.uuid4()), "text": f"m{index}"}, token=alice_token)
        deadline = time.monotonic() + 15
        while len(received) < 10 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(1.5)  # room for a second push of any of them
        assert len(received) == 10, f"{len(received)} pushes for 10 messages"

        async def while_bob_reads_on_node_b():
            socket = await open_socket(node_b, bob_token)
            await asyncio.sleep(1)  # node B tells the others he is there
            for index in range(4):
                node = node_a if index % 2 == 0 else node_b
                await asyncio.to_thread(node.http, "POST", f"/api/conversations/{conversation}/messages",
                                        {"id": str(uuid.uuid4()), "text": f"seen {index}"}, token=alice_token)
            await asyncio.sleep(1.5)
            await socket.close()
        asyncio.run(while_bob_reads_on_node_b())
        assert len(received) == 10, "no push while Bob has Parlor open on node B, whichever node the message came through"
        time.sleep(1)  # node B tells the others he left
        node_a.http("POST", f"/api/conversations/{conversation}/messages", {"id": str(uuid.uuid4()), "text": "gone"}, token=alice_token)
        deadline = time.monotonic() + 15
        while len(received) < 11 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(received) == 11, "pushed again once his tab is closed"
    finally:
        node_a.stop()
        node_b.stop()
        service.shutdown()


def test_a_webassembly_app_added_on_one_node_answers_on_the_other_is_upgraded_in_place_and_removed(database):
    """`parlor apps add dice.wasm --postgres`: the module is kept in the database, so both running
    nodes run it within seconds with nothing else to start (docs/APPS-WASM.md); Alice rolls through
    node B and Bob, on node A, gets the roll; `parlor apps upgrade` replaces the module on both
    (the new hash listed); `parlor apps remove` takes it off both."""
    nodes = [Node(database).start(), Node(database).start()]
    try:
        folder = tempfile.mkdtemp(prefix="parlor-wasm-")
        atexit.register(shutil.rmtree, folder, True)
        module = os.path.join(folder, "dice.wasm")
        build = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "dice-c", "build")
        subprocess.run([build, module], check=True, capture_output=True)
        store = ["--postgres", database, "--data-dir", nodes[0].data_dir]
        added = subprocess.run([BINARY, "apps", "add", module, *store], capture_output=True, text=True, check=True)
        assert "a WebAssembly app of" in added.stdout, added.stdout
        assert "parlor_app_" not in added.stdout, "a module app has no credential"
        alice_token, bob_token, conversation = setup_conversation(nodes[0])
        wait_until_offered(nodes, alice_token, "org.example.dice")

        async def connect(node, token):
            return await connect_session(node, token, conversation)

        async def roll(alice, bob):
            await alice.send(json.dumps({"type": protocol.Client.openApp, "conversation": conversation, "app": "org.example.dice"}))
            # The first frame may come before the app drew (an app outside the process draws
            # asynchronously): the one with its Roll button.
            opened = await frames_until(alice, lambda f: f["type"] == protocol.Server.app and f["update"]["isActive"]
                                        and find_button(f["update"]["view"], "Roll"))
            titles.append(opened["update"]["view"]["children"][0]["text"])
            action = find_button(opened["update"]["view"], "Roll")
            await alice.send(json.dumps({"type": protocol.Client.appEvent, "conversation": conversation, "app": "org.example.dice",
                                         "event": {"kind": "action", "action": action}}))
            received = await frames_until(bob, lambda f: f["type"] == protocol.Server.message and f["message"].get("app"))
            return received["message"]["app"]["layout"]["caption"]

        titles = []

        async def scenario():
            alice, bob = await connect(nodes[1], alice_token), await connect(nodes[0], bob_token)
            caption = await roll(alice, bob)
            assert re.fullmatch(r".+ rolled [1-6]", caption), caption
            for socket in (alice, bob):
                await socket.close()

        asyncio.run(asyncio.wait_for(scenario(), 60))

        def listed():
            lines = subprocess.run([BINARY, "apps", "list", *store], capture_output=True, text=True, check=True).stdout
            return next(line for line in lines.splitlines() if line.startswith("org.example.dice"))

        first = listed()
        assert "wasm sha256:" in first, first
        # A new version of the same app (another title): an upgrade in place, seen through both nodes.
        rebuilt = os.path.join(folder, "dice-o2.wasm")
        subprocess.run([build, rebuilt], check=True, capture_output=True, env={**os.environ, "DICE_TITLE": "Dice 2"})
        upgraded = subprocess.run([BINARY, "apps", "upgrade", rebuilt, *store], capture_output=True, text=True, check=True)
        assert "Upgraded Dice" in upgraded.stdout, upgraded.stdout
        assert listed() != first, "the new module's hash is listed"
        # The nodes read the registrations every second: the new version draws within a few.
        for _ in range(5):
            asyncio.run(asyncio.wait_for(scenario(), 60))
            if titles[-1] == "Dice 2":
                break
            time.sleep(1)
        assert titles[0] == "Dice" and titles[-1] == "Dice 2", titles

        subprocess.run([BINARY, "apps", "remove", "org.example.dice", *store], capture_output=True, check=True)
        wait_until_offered(nodes, alice_token, "org.example.dice", offered=False)
    finally:
        for node in nodes:
            node.stop()


def test_a_group_photo_and_what_someone_says_about_themselves_reach_a_member_on_the_other_node(database):
    """Set through node A, read through node B at once: a group's photo (the image fetched there by
    a member only), and a person's about in a 1:1 with them, told live to the other's socket."""
    node_a, node_b = Node(database).start(), Node(database).start()
    try:
        alice_token, bob_token, direct = setup_conversation(node_a)
        node_a.http("POST", "/api/auth/signup", {"username": "carol", "displayName": "Carol", "password": "password-1"})
        group = node_a.http("POST", "/api/conversations", {"members": ["bob", "carol"], "title": "Plans"}, token=alice_token)["id"]
        carol_token = node_b.http("POST", "/api/auth/signin", {"username": "carol", "password": "password-1"})["token"]
        outsider = node_b.http("POST", "/api/auth/signup", {"username": "dave", "displayName": "Dave", "password": "password-1"})["token"]

        async def scenario():
            bob = await websockets.connect(f"ws://127.0.0.1:{node_b.port}/ws", additional_headers={"Authorization": f"Bearer {bob_token}"})
            await bob.send(json.dumps({"type": protocol.Client.hello, "since": {}}))
            told = []
            ready = asyncio.get_running_loop().create_future()

            async def read():
                try:
                    async for text in bob:
                        frame = json.loads(text)
                        if frame["type"] == protocol.Server.ready and not ready.done():
                            ready.set_result(True)
                        elif frame["type"] == protocol.Server.conversation and frame.get("conversationInfo"):
                            told.append(frame["conversationInfo"])
                except websockets.ConnectionClosed:
                    pass

            reader = asyncio.create_task(read())
            await asyncio.wait_for(ready, 10)
            request = urllib.request.Request(f"http://127.0.0.1:{node_a.port}/api/blobs", method="POST", data=tiny_png(),
                                             headers={"Content-Type": "image/png", "Authorization": f"Bearer {alice_token}"})
            with urllib.request.urlopen(request, timeout=10) as response:
                photo = json.loads(response.read())
            node_a.http("PATCH", f"/api/conversations/{group}", {"photo": photo["hash"]}, token=alice_token)
            node_a.http("PATCH", "/api/me", {"about": "Out until Monday"}, token=alice_token)
            deadline = asyncio.get_running_loop().time() + 15
            while not (any(c["id"] == group and c.get("photoURL") == photo["url"] for c in told)
                       and any(c["id"] == direct and any(m.get("about") == "Out until Monday" for m in c["members"]) for c in told)):
                assert asyncio.get_running_loop().time() < deadline, f"Bob on node B was not told: {told[-3:]}"
                await asyncio.sleep(0.05)
            await bob.close()
            await reader
            return photo

        photo = asyncio.run(scenario())
        seen = node_b.http("GET", f"/api/conversations/{group}", token=carol_token)
        assert seen["photoURL"] == photo["url"]
        fetched = urllib.request.urlopen(urllib.request.Request(
            f"http://127.0.0.1:{node_b.port}{seen['photoURL']}", headers={"Authorization": f"Bearer {carol_token}"}), timeout=10)
        assert fetched.read() == tiny_png(), "a member fetches the photo through the other node"
        try:
            urllib.request.urlopen(urllib.request.Request(
                f"http://127.0.0.1:{node_b.port}{seen['photoURL']}", headers={"Authorization": f"Bearer {outsider}"}), timeout=10)
            raise AssertionError("someone outside the group fetched its photo")
        except urllib.error.HTTPError as error:
            assert error.code == 404
    finally:
        node_a.stop()
        node_b.stop()

