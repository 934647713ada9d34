"""The XMPP side of the harness, one code path for both peers (Prosody and ejabberd): slixmpp
signs in and joins the multi-user chat room; after that the member reads raw bytes.

Parsing every stanza with slixmpp costs the client more CPU per delivery than the peers spend
delivering it (the Prosody ladder once failed with the client's core at 80% and Prosody's at 40%),
so once a member has joined, its socket's bytes are no longer parsed: they are scanned for the
benchmark marker (stats.MARKER's fixed-width head), and messages are sent as pre-built stanzas.
"""
import asyncio
import logging

import slixmpp

from receiver import RECORD, MarkerScanner, ReceiverPool, process_cpu_seconds  # noqa: F401 - used by fanout and idle
from stats import now_ns

DOMAIN = "localhost"
MUC = "conference.localhost"
PASSWORD = "bench-password"

logging.getLogger("slixmpp").setLevel(logging.CRITICAL)


class XmppMember:
    """One account, connected with slixmpp over plain TCP (no TLS), with SASL PLAIN. `on_marker(
    receiver index, message number, intended send time, arrival time)` is called once per
    benchmark marker received, after the member joined a room (before, none are expected)."""

    def __init__(self, server, username, index, on_marker=None, muc=True):
        self.server = server
        self.username = username
        self.index = index
        self.on_marker = on_marker or (lambda *_: None)
        self.errors = 0
        self.client = slixmpp.ClientXMPP(
            f"{username}@{DOMAIN}/bench", PASSWORD, sasl_mech="PLAIN",
            plugin_config={"feature_mechanisms": {"unencrypted_plain": True}})
        self.client.enable_starttls = False
        self.client.enable_direct_tls = False
        self.client.enable_plaintext = True
        self.client.use_ipv6 = False
        self.client.use_aiodns = False
        if muc:
            self.client.register_plugin("xep_0045")
        self.client.add_event_handler("message_error", self._error)
        self.room = None
        self.transport = None
        self.scanner = None
        self.prefix = b""

    async def connect(self, timeout=60):
        started = asyncio.get_running_loop().create_future()
        failed = asyncio.get_running_loop().create_future()
        self.client.add_event_handler("session_start", lambda _: started.done() or started.set_result(True))
        self.client.add_event_handler("failed_auth", lambda _: failed.done() or failed.set_result("authentication failed"))
        self.client.connect("127.0.0.1", self.server.port)
        done, _ = await asyncio.wait([started, failed], timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if started not in done:
            raise RuntimeError(f"{self.username}: {failed.result() if failed in done else 'no session in time'}")
        self.client.send_presence()

    async def join(self, room, timeout=60):
        """Enters the room with no history (the room is created by its first occupant), then
        switches the socket to raw reading."""
        self.room = f"{room}@{MUC}"
        await self.client.plugin["xep_0045"].join_muc_wait(self.room, self.username, maxstanzas=0, timeout=timeout)
        self._go_raw()

    def _go_raw(self):
        """From now on the bytes from the server go to `_scan`, not to slixmpp's XML parser
        (slixmpp's XMLStream is the socket's asyncio protocol: the transport looks the method up
        on each read). Presence of later joins and anything else is skipped unparsed."""
        self.transport = self.client.transport
        self.scanner = MarkerScanner()
        self.client.data_received = self._scan
        self.prefix = f"<message to='{self.room}' type='groupchat'><body>".encode()

    def hand_over(self, pool):
        """Gives the reading of this member's socket to a receiver process of `pool`
        (receiver.ReceiverPool; this process stops reading it and keeps writing to it)."""
        self.transport.pause_reading()
        pool.add(self.index, self.transport.get_extra_info("socket").fileno())

    def _scan(self, data):
        at = now_ns()
        if self.scanner.scan(data, self.index, at, self.on_marker):
            self.errors += 1

    def send_text(self, text):
        if self.transport is not None:
            self.transport.write(self.prefix + text.encode() + b"</body></message>")
        else:
            self.client.send_message(mto=self.room, mbody=text, mtype="groupchat")

    def _error(self, message):
        self.errors += 1

    async def close(self):
        if self.transport is not None:
            try:
                self.transport.write(b"</stream:stream>")
            except Exception:  # noqa: BLE001 - closing anyway
                pass
        self.client.disconnect(wait=0)
        await asyncio.sleep(0)


class RawXmppSession:
    """A minimal signed-in session for the idle-connection scenario: the stanzas slixmpp sends to
    sign in (stream, SASL PLAIN, restart, bind, initial presence) and nothing else, because
    10,000 slixmpp clients take minutes to sign in on one core. It then reads and discards.
    `source`: the local address to connect from."""

    def __init__(self, server, username, index, source=None, **_):
        self.server = server
        self.source = source
        self.username = username
        self.index = index
        self.reader = None
        self.writer = None
        self.drain_task = None

    async def _until(self, marker, timeout):
        data = b""
        while marker not in data:
            chunk = await asyncio.wait_for(self.reader.read(65536), timeout)
            if not chunk:
                raise RuntimeError(f"{self.username}: stream closed while waiting for {marker!r}")
            data += chunk
            if b"<failure" in data or b"type='error'" in data or b'type="error"' in data:
                raise RuntimeError(f"{self.username}: {data[:200]!r}")
        return data

    async def connect(self, timeout=60):
        import base64
        local = {"local_addr": (self.source, 0)} if self.source else {}
        self.reader, self.writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", self.server.port, **local), timeout)
        header = (f"<?xml version='1.0'?><stream:stream to='{DOMAIN}' xmlns='jabber:client' "
                  "xmlns:stream='http://etherx.jabber.org/streams' version='1.0'>").encode()
        self.writer.write(header)
        await self._until(b"</stream:features>", timeout)
        credentials = base64.b64encode(f"\0{self.username}\0{PASSWORD}".encode()).decode()
        self.writer.write(f"<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>{credentials}</auth>".encode())
        await self._until(b"<success", timeout)
        self.writer.write(header)
        await self._until(b"</stream:features>", timeout)
        self.writer.write(b"<iq type='set' id='bind'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><resource>idle</resource></bind></iq>")
        await self._until(b"</iq>", timeout)
        self.writer.write(b"<presence/>")
        await self.writer.drain()
        self.drain_task = asyncio.create_task(self._discard())

    async def _discard(self):
        try:
            while await self.reader.read(65536):
                pass
        except (ConnectionError, asyncio.CancelledError):
            pass

    async def close(self):
        if self.writer is not None:
            try:
                self.writer.write(b"</stream:stream>")
                self.writer.close()
            except ConnectionError:
                pass
        if self.drain_task is not None:
            self.drain_task.cancel()
