"""The Prosody side of the harness: slixmpp clients in a multi-user chat room."""
import asyncio
import logging

import slixmpp

from stats import now_ns

DOMAIN = "localhost"
MUC = "conference.localhost"
PASSWORD = "bench-password"

logging.getLogger("slixmpp").setLevel(logging.CRITICAL)


class XmppMember:
    """One account, connected with slixmpp over plain TCP (no TLS), with SASL PLAIN."""

    def __init__(self, server, username, index, on_text=None, muc=True):
        self.server = server
        self.username = username
        self.index = index
        self.on_text = on_text
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
        self.client.add_event_handler("groupchat_message", self._groupchat)
        self.client.add_event_handler("message_error", self._error)
        self.room = None

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
        """Enters the room with no history; the room is created by its first occupant."""
        self.room = f"{room}@{MUC}"
        await self.client.plugin["xep_0045"].join_muc_wait(self.room, self.username, maxstanzas=0, timeout=timeout)

    def send_text(self, text):
        self.client.send_message(mto=self.room, mbody=text, mtype="groupchat")

    def _groupchat(self, message):
        if self.on_text is not None:
            self.on_text(self.index, message["body"], now_ns())

    def _error(self, message):
        self.errors += 1

    async def close(self):
        self.client.disconnect(wait=0)
        await asyncio.sleep(0)


class RawXmppSession:
    """A minimal signed-in session for the idle-connection scenario: the stanzas slixmpp sends to
    sign in (stream, SASL PLAIN, restart, bind, initial presence) and nothing else, because
    10,000 slixmpp clients take minutes to sign in on one core. It then reads and discards."""

    def __init__(self, server, username, index, **_):
        self.server = server
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
        self.reader, self.writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", self.server.port), timeout)
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
