"""A WebSocket fuzzing client after the Autobahn TestSuite's (`wstest -m fuzzingclient`), in
Python 3 with nothing but the standard library: frames are built by hand (masking, fragmentation,
reserved bits and opcodes, lengths, chopping on the wire), since the point is to send what a
WebSocket library would refuse to.

The grading is Autobahn's own, ported from autobahntestsuite/case/case.py and from the client
side of autobahn-python's WebSocketProtocol (the closing handshake, the timeouts, what the client
answers), with the options wstest's fuzzing client runs with (`failByDrop = False`: a client that
gives up first tries a close frame). A case sets `expected` (the events it may receive, for the
outcomes OK and NON-STRICT) and `expectedClose` (which side should start the closing handshake,
the close codes allowed, whether the close must be clean); when the connection is gone the events
received and the way it closed are graded (`Case.on_connection_lost`).

See README.md in this directory for how the cases are adapted to Parlor.
"""

from __future__ import annotations

import base64
import collections
import hashlib
import os
import select
import socket
import struct
import time

# Case outcomes (case.py).
OK = "OK"
NON_STRICT = "NON-STRICT"
FAILED = "FAILED"
WRONG_CODE = "WRONG CODE"
UNCLEAN = "UNCLEAN"
FAILED_BY_CLIENT = "FAILED BY CLIENT"
INFORMATIONAL = "INFORMATIONAL"

# Close codes (RFC 6455, 7.4.1).
CLOSE_NORMAL = 1000
CLOSE_GOING_AWAY = 1001
CLOSE_PROTOCOL_ERROR = 1002
CLOSE_UNSUPPORTED_DATA = 1003
CLOSE_INVALID_PAYLOAD = 1007
CLOSE_POLICY_VIOLATION = 1008
CLOSE_MESSAGE_TOO_BIG = 1009

# autobahn-python's defaults, as the fuzzing client runs with them.
QUEUED_WRITE_DELAY = 0.00001  # between the chops of a chopped or synced write
CLOSE_HANDSHAKE_TIMEOUT = 1.0  # our close frame unanswered: drop the TCP connection
SERVER_CONNECTION_DROP_TIMEOUT = 1.0  # the closing handshake done: the server should drop the TCP connection
OPEN_TIMEOUT = 10.0

OPEN, CLOSING, CLOSED = "OPEN", "CLOSING", "CLOSED"


def mask_bytes(data: bytes, key: bytes, offset: int = 0) -> bytes:
    """`data` masked with `key` (RFC 6455, 5.3), starting `offset` octets into the payload."""
    if not data:
        return b""
    n = len(data)
    k = key[offset % 4:] + key[:offset % 4]
    keystream = (k * (n // 4 + 1))[:n]
    return (int.from_bytes(data, "big") ^ int.from_bytes(keystream, "big")).to_bytes(n, "big")


def frame_header(opcode: int, length: int, fin: bool = True, rsv: int = 0, masked: bool = True) -> bytes:
    b0 = (0x80 if fin else 0) | ((rsv & 7) << 4) | (opcode & 15)
    m = 0x80 if masked else 0
    if length <= 125:
        return bytes([b0, m | length])
    if length <= 0xFFFF:
        return bytes([b0, m | 126]) + struct.pack("!H", length)
    return bytes([b0, m | 127]) + struct.pack("!Q", length)


def build_frame(opcode: int, payload: bytes = b"", fin: bool = True, rsv: int = 0, mask: bytes | None = None,
                payload_len: int | None = None) -> bytes:
    """One client frame, masked, as autobahn's sendFrame builds it: with `payload_len`, the payload
    is repeated up to that length."""
    if payload_len is not None and payload_len != len(payload):
        if not payload:
            raise ValueError("cannot repeat an empty payload")
        payload = (payload * (payload_len // len(payload) + 1))[:payload_len]
    key = mask if mask is not None else os.urandom(4)
    return frame_header(opcode, len(payload), fin, rsv) + key + mask_bytes(payload, key)


def is_valid_close_code(code: int) -> bool:
    """Whether a close frame may carry `code` (RFC 6455, 7.4; autobahn-python's onCloseFrame)."""
    if code < 1000 or code >= 5000:
        return False
    if code < 3000:
        return code in (1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014)
    return True


def is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8", errors="strict")
        return True
    except UnicodeDecodeError:
        return False


def short(data: bytes, limit: int = 96) -> str:
    """Octets for a report: text when printable ASCII, else hex; long ones cut."""
    cut = data[:limit]
    if all(32 <= b < 127 for b in cut):
        text = cut.decode("ascii")
    else:
        text = "0x" + cut.hex()
    return text + (f"... ({len(data)} octets)" if len(data) > limit else "")


class Protocol:
    """One client connection running one case: the opening handshake (then the endpoint's first
    frame, its welcome), the case's sends and timers, the server's frames, the closing handshake.
    Single-threaded around select(), as Twisted's reactor runs autobahn's."""

    def __init__(self, endpoint, case_class):
        self.endpoint = endpoint
        self.sock: socket.socket | None = None
        self.state = None
        self.connection_was_open = False
        self.closed_by_me = False
        self.failed_by_me = False
        self.dropped_by_me = False
        self.was_clean = False
        self.was_not_clean_reason = None
        self.was_server_connection_drop_timeout = False
        self.was_close_handshake_timeout = False
        self.local_close_code = None
        self.local_close_reason = None
        self.remote_close_code = None
        self.remote_close_reason = None
        self.received_close_frame = False
        self.violations: list[str] = []  # what the server sent that breaks RFC 6455
        self.wirelog: list[str] = []
        self.quiet = False  # no wire log of received frames (the round-trip cases, after their first)
        self.tx_octets = 0
        self._inbuf = bytearray()
        self._message: tuple[int, list[bytes]] | None = None  # (opcode, fragments) being received
        self._outq: collections.deque = collections.deque()  # [memoryview, separate]
        self._write_failed = False
        self._next_write = 0.0
        self._timers: list[tuple[float, int, object]] = []
        self._timer_seq = 0
        self._close_handshake_timer = None
        self._drop_timer = None
        self.started = self.ended = None
        self.case = case_class(self, endpoint)

    # MARK: Running

    def run(self, limit: float = 60.0):
        """Connects, runs the case until the connection is gone, grades it."""
        self._open()
        deadline = time.monotonic() + limit
        while self.state != CLOSED:
            now = time.monotonic()
            if now > deadline:
                self.wirelog.append(f"the case ran longer than {limit} s: dropped")
                self.drop_connection()
                break
            self._fire_timers(now)
            if self.state == CLOSED:
                break
            if self._outq and now >= self._next_write:
                self._pump()
            timeout = deadline - now
            if self._timers:
                timeout = min(timeout, self._timers[0][0] - now)
            if self._outq:
                timeout = min(timeout, max(0.0, self._next_write - now))
            want_write = bool(self._outq) and time.monotonic() >= self._next_write
            try:
                readable, writable, _ = select.select([self.sock], [self.sock] if want_write else [], [], max(0.0, timeout))
            except (OSError, ValueError):
                self._connection_lost("select failed")
                break
            if readable:
                self._read()
            if writable and self.state != CLOSED:
                self._pump()
        self.ended = time.monotonic()
        return self.case

    def _open(self):
        ep = self.endpoint
        self.sock = socket.create_connection((ep.host, ep.port), timeout=OPEN_TIMEOUT)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        key = base64.b64encode(os.urandom(16)).decode()
        headers = [f"GET {ep.path} HTTP/1.1", f"Host: {ep.host}:{ep.port}", "Upgrade: websocket", "Connection: Upgrade",
                   f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13", *ep.headers]
        self.sock.sendall(("\r\n".join(headers) + "\r\n\r\n").encode())
        response = b""
        while b"\r\n\r\n" not in response:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError(f"{ep.path}: the server closed the connection during the opening handshake: {response!r}")
            response += chunk
        head, rest = response.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        if not lines[0].startswith("HTTP/1.1 101"):
            raise ConnectionError(f"{ep.path}: the upgrade was refused: {lines[0]}")
        fields = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            fields[name.strip().lower()] = value.strip()
        accept = base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()).decode()
        if fields.get("sec-websocket-accept") != accept:
            raise ConnectionError(f"{ep.path}: wrong Sec-WebSocket-Accept {fields.get('sec-websocket-accept')!r}")
        if "sec-websocket-extensions" in fields:
            self.violations.append(f"the server agreed to extensions none were offered: {fields['sec-websocket-extensions']}")
        self._inbuf.extend(rest)
        # The endpoint's first frame: its welcome. Read it before the case starts.
        while True:
            frame = self._parse_one()
            if frame is not None:
                break
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError(f"{ep.path}: the connection closed before the welcome frame")
            self._inbuf.extend(chunk)
        fin, opcode, payload = frame
        if opcode != 1 or not fin or not ep.is_welcome(payload):
            raise ConnectionError(f"{ep.path}: the first frame was not the welcome: opcode {opcode}, {short(payload)}")
        self.sock.setblocking(False)
        self.state = OPEN
        self.connection_was_open = True
        self.started = time.monotonic()
        self.case.on_open()
        # Frames that came with the welcome.
        self._process_input()

    # MARK: Sending (autobahn's sendFrame and friends)

    def send_frame(self, opcode, payload=b"", fin=True, rsv=0, mask=None, payload_len=None, chopsize=None, sync=False):
        """A frame as autobahn's fuzzing sendFrame sends it: `chopsize` cuts its octets into
        writes of that size; `sync` writes it on its own. Otherwise consecutive frames go out
        together, as Twisted's transport joins writes made in one reactor turn."""
        self.send_data(build_frame(opcode, payload, fin, rsv, mask, payload_len), sync=sync, chopsize=chopsize)

    def send_data(self, data: bytes, sync=False, chopsize=None, log=True):
        if self.state == CLOSED or self._write_failed:
            return
        self.tx_octets += len(data)
        if log:
            self.wirelog.append(f"TX {len(data)} octets{' in chops of %d' % chopsize if chopsize else ''}{' (sync)' if sync else ''}: {short(data)}")
        view = memoryview(data)
        if chopsize:
            for i in range(0, len(data), chopsize):
                self._outq.append([view[i:i + chopsize], True])
        elif sync:
            self._outq.append([view, True])
        elif self._outq and not self._outq[-1][1]:
            self._outq[-1][0] = memoryview(bytes(self._outq[-1][0]) + data)
        else:
            self._outq.append([view, False])
        # Written by the loop once the case's callback returns: frames sent in one callback go
        # out together (one write), as Twisted writes them in one reactor turn.

    def _pump(self):
        while self._outq and self.sock is not None and not self._write_failed:
            if time.monotonic() < self._next_write:
                return
            item = self._outq[0]
            try:
                n = self.sock.send(item[0])
            except (BlockingIOError, InterruptedError):
                return
            except OSError as error:  # the server closed or reset the connection: read what it sent
                self._write_failed = True
                self._outq.clear()
                self.wirelog.append(f"TX failed: {error.__class__.__name__}")
                return
            if n < len(item[0]):
                item[0] = item[0][n:]
                return
            self._outq.popleft()
            if item[1]:
                self._next_write = time.monotonic() + QUEUED_WRITE_DELAY
                return

    def send_close_frame(self, code=None, reason: bytes | None = None, is_reply=False):
        """autobahn's sendCloseFrame: any code and reason octets, valid or not."""
        if self.state != OPEN:
            return
        payload = b""
        if code is not None:
            payload += struct.pack("!H", code)
        if reason is not None:
            payload += reason
        self.send_frame(opcode=8, payload=payload)
        self.state = CLOSING
        self.closed_by_me = not is_reply
        self.local_close_code = code
        self.local_close_reason = reason
        if self.closed_by_me:
            self._close_handshake_timer = self.call_later(CLOSE_HANDSHAKE_TIMEOUT, self._on_close_handshake_timeout)

    def send_close(self, code=None, reason: str | None = None):
        """autobahn's sendClose: a valid close frame."""
        if code is not None and not (code == 1000 or 3000 <= code <= 4999):
            raise ValueError(f"invalid close code {code}")
        self.send_close_frame(code, reason.encode() if reason is not None else None)

    def fail_connection(self, code=CLOSE_GOING_AWAY, reason=b"going away"):
        """autobahn's failConnection with failByDrop = False, as wstest's fuzzing client runs:
        a close frame first; if one was sent already, the TCP connection is dropped."""
        if self.state == CLOSED:
            return
        self.failed_by_me = True
        if self.state != CLOSING:
            self.send_close_frame(code, reason)
        else:
            self.drop_connection()

    def drop_connection(self):
        if self.state == CLOSED:
            return
        self.dropped_by_me = True
        self._connection_lost("dropped by the client")

    # MARK: Timers (autobahn's killAfter, closeAfter, continueLater)

    def call_later(self, delay, callback):
        self._timer_seq += 1
        entry = (time.monotonic() + delay, self._timer_seq, callback)
        self._timers.append(entry)
        self._timers.sort(key=lambda t: (t[0], t[1]))
        return entry

    def cancel(self, entry):
        if entry in self._timers:
            self._timers.remove(entry)

    def _fire_timers(self, now):
        while self._timers and self._timers[0][0] <= now and self.state != CLOSED:
            _, _, callback = self._timers.pop(0)
            callback()

    def kill_after(self, delay):
        self.wirelog.append(f"kill after {delay} s")
        self.call_later(delay, self._kill)

    def _kill(self):
        if self.state != CLOSED:
            self.wirelog.append("kill: failing the connection")
            self.fail_connection()

    def close_after(self, delay):
        self.wirelog.append(f"close after {delay} s")
        self.call_later(delay, lambda: self.send_close() if self.state != CLOSED else None)

    def continue_later(self, delay, callback, tag=None):
        self.wirelog.append(f"continue after {delay} s ({tag})")
        self.call_later(delay, lambda: callback() if self.state != CLOSED else None)

    def _on_close_handshake_timeout(self):
        if self.state != CLOSED:
            self.was_close_handshake_timeout = True
            self.was_clean = False
            self.was_not_clean_reason = "the server did not answer our close frame in time"
            self.drop_connection()

    def _on_server_connection_drop_timeout(self):
        if self.state != CLOSED:
            self.was_server_connection_drop_timeout = True
            self.was_clean = False
            self.was_not_clean_reason = "the server did not drop the TCP connection after the closing handshake"
            self.drop_connection()

    # MARK: Receiving

    def _read(self):
        try:
            chunk = self.sock.recv(1 << 18)
        except (BlockingIOError, InterruptedError):
            return
        except OSError as error:
            self._connection_lost(f"connection reset ({error.__class__.__name__})")
            return
        if not chunk:
            self._connection_lost("the server closed the TCP connection")
            return
        self._inbuf.extend(chunk)
        self._process_input()

    def _process_input(self):
        while self.state in (OPEN, CLOSING):
            frame = self._parse_one()
            if frame is None:
                return
            self._on_frame(*frame)

    def _parse_one(self):
        """The next whole frame in the input, checked against RFC 6455 for a server's frames;
        None until one is whole."""
        buf = self._inbuf
        if len(buf) < 2:
            return None
        b0, b1 = buf[0], buf[1]
        fin, rsv, opcode, masked, length = bool(b0 & 0x80), (b0 >> 4) & 7, b0 & 15, bool(b1 & 0x80), b1 & 127
        i = 2
        if length == 126:
            if len(buf) < 4:
                return None
            length = struct.unpack("!H", buf[2:4])[0]
            i = 4
        elif length == 127:
            if len(buf) < 10:
                return None
            length = struct.unpack("!Q", buf[2:10])[0]
            i = 10
        key = None
        if masked:
            if len(buf) < i + 4:
                return None
            key = bytes(buf[i:i + 4])
            i += 4
        if len(buf) < i + length:
            return None
        payload = bytes(buf[i:i + length])
        del buf[:i + length]
        if not self.quiet:
            self.wirelog.append(f"RX frame opcode {opcode} fin {int(fin)} rsv {rsv}{' masked' if masked else ''}: {short(payload)}")
        if masked:
            self.violations.append("the server masked a frame (5.1)")
            payload = mask_bytes(payload, key)
        if rsv:
            self.violations.append(f"the server set reserved bits {rsv} with no extension agreed (5.2)")
        if opcode in (3, 4, 5, 6, 7, 11, 12, 13, 14, 15):
            self.violations.append(f"the server sent reserved opcode {opcode} (5.2)")
        if opcode >= 8 and (not fin or length > 125):
            self.violations.append("the server sent a control frame fragmented or over 125 octets (5.5)")
        return fin, opcode, payload

    def _on_frame(self, fin, opcode, payload):
        if opcode in (0, 1, 2):
            if opcode == 0:
                if self._message is None:
                    self.violations.append("the server sent a continuation frame with no message to continue (5.4)")
                    return
                self._message[1].append(payload)
            else:
                if self._message is not None:
                    self.violations.append("the server began a message inside another (5.4)")
                self._message = (opcode, [payload])
            if fin:
                op, parts = self._message
                self._message = None
                data = b"".join(parts)
                if op == 1 and not is_utf8(data):
                    self.violations.append(f"the server sent a text message that is not UTF-8 (8.1): {short(data)}")
                self.case.on_message(data, op == 2)
        elif opcode == 8:
            self._on_close_frame(payload)
        elif opcode == 9:
            self.case.on_ping(payload)
            if self.state == OPEN:
                self.send_frame(opcode=10, payload=payload)
        elif opcode == 10:
            self.case.on_pong(payload)

    def _on_close_frame(self, payload):
        self.received_close_frame = True
        code = reason = None
        if len(payload) == 1:
            self.violations.append("the server sent a close frame with a 1-octet payload (5.5.1)")
        elif len(payload) >= 2:
            code = struct.unpack("!H", payload[:2])[0]
            reason = payload[2:]
            if not is_valid_close_code(code):
                self.violations.append(f"the server sent close code {code}, which a close frame may not carry (7.4)")
            if not is_utf8(reason):
                self.violations.append("the server sent a close reason that is not UTF-8 (5.5.1)")
        self.remote_close_code = code
        self.remote_close_reason = reason
        if self.state == CLOSING:
            # The answer to our close frame.
            self.was_clean = True
            if self._close_handshake_timer:
                self.cancel(self._close_handshake_timer)
            self._drop_timer = self.call_later(SERVER_CONNECTION_DROP_TIMEOUT, self._on_server_connection_drop_timeout)
        elif self.state == OPEN:
            # The server starts the closing handshake: answer (autobahn answers 1000), then the
            # server should drop the TCP connection.
            self.was_clean = True
            self.send_close_frame(CLOSE_NORMAL, is_reply=True)
            self._drop_timer = self.call_later(SERVER_CONNECTION_DROP_TIMEOUT, self._on_server_connection_drop_timeout)

    def _connection_lost(self, why):
        if self.state == CLOSED:
            return
        self.wirelog.append(f"connection lost: {why}")
        if not self.was_clean and self.was_not_clean_reason is None:
            self.was_not_clean_reason = ("the client dropped the TCP connection" if self.dropped_by_me
                                         else "the server dropped the TCP connection without a closing handshake")
        self.state = CLOSED
        self._timers.clear()
        self._outq.clear()
        try:
            self.sock.close()
        except OSError:
            pass
        self.case.on_connection_lost(self.failed_by_me)


class Case:
    """Port of autobahntestsuite's case.py: what a case received, what it expected, and its
    grading when the connection is gone. Subclasses set ID, DESCRIPTION, EXPECTATION (Autobahn's
    words) and ADAPTATION (what this runner changed for Parlor, if anything) and implement
    on_open; `self.p` is the Protocol, `self.ep` the Parlor endpoint."""

    ID = ""
    DESCRIPTION = ""
    EXPECTATION = ""
    ADAPTATION = ""

    def __init__(self, protocol, endpoint):
        self.p = protocol
        self.ep = endpoint
        self.received = []
        self.expected = {}
        self.expected_close = {}
        self.behavior = FAILED
        self.behavior_close = FAILED
        self.result = "Actual events differ from any expected."
        self.result_close = "TCP connection was dropped without close handshake"
        self.report_time = False
        self.suppress_close = False
        self.init()

    def init(self):
        pass

    def on_open(self):
        pass

    def on_message(self, payload: bytes, binary: bool):
        self.received.append(("message", self.ep.normalize(payload) if not binary else ("binary", len(payload)), binary))
        self.finish_when_done()

    def on_ping(self, payload):
        self.received.append(("ping", payload))
        self.finish_when_done()

    def on_pong(self, payload):
        self.received.append(("pong", payload))
        self.finish_when_done()

    def on_connection_lost(self, failed_by_me):
        for outcome, events in self.expected.items():
            if self.received == events:
                self.behavior = outcome
                self.result = "Actual events match at least one expected."
                break
        p = self.p
        if p.connection_was_open:
            if self.expected_close["closedByMe"] != p.closed_by_me:
                self.behavior_close = FAILED
                self.result_close = "The connection was failed by the wrong endpoint"
            elif self.expected_close["requireClean"] and not p.was_clean:
                self.behavior_close = UNCLEAN
                self.result_close = "The spec requires the connection to be failed cleanly here"
            elif p.remote_close_code is not None and p.remote_close_code not in self.expected_close["closeCode"]:
                self.behavior_close = WRONG_CODE
                self.result_close = "The close code should have been %s or empty" % ",".join(map(str, self.expected_close["closeCode"]))
            elif p.dropped_by_me:
                self.behavior_close = FAILED_BY_CLIENT
                self.result_close = "It is preferred that the server close the TCP connection"
            else:
                self.behavior_close = OK
                self.result_close = "Connection was properly closed"
            # For the UTF-8 cases, closing by the wrong endpoint means the case failed: the peer
            # did not detect the invalid UTF-8 at all.
            if self.expected_close.get("closedByWrongEndpointIsFatal") and self.expected_close["closedByMe"] != p.closed_by_me:
                self.behavior = FAILED
        else:
            self.behavior_close = FAILED
            self.result_close = "The WebSocket opening handshake was never completed!"

    def finish_when_done(self):
        # If we match every expected outcome, start the closing handshake when the case says so.
        for events in self.expected.values():
            if self.received != events:
                return
        if self.expected_close["closedByMe"] and not self.suppress_close:
            self.p.send_close(self.expected_close["closeCode"][0])


class Result:
    """A case's grade on one endpoint, with what explains it."""

    def __init__(self, case: Case):
        p = case.p
        self.id = case.ID
        self.behavior = case.behavior
        self.behavior_close = case.behavior_close
        self.duration_ms = int(round(1000 * ((p.ended or 0) - (p.started or 0)))) if p.started else None
        self.grade, self.reason = grade(case)
        self.details = describe(case)


def grade(case: Case) -> tuple[str, str]:
    """One grade from Autobahn's two (the case's events, and how the connection closed), as its
    report colours them: a behaviour or close behaviour FAILED or UNCLEAN fails the case; a
    NON-STRICT behaviour, a close code other than expected (WRONG CODE, "non-strict" in the
    report) or a TCP connection the client had to drop (FAILED BY CLIENT) are NON-STRICT.
    Stricter than Autobahn in two ways, each NON-STRICT at most: a server that fails the connection
    with no close frame at all (RFC 6455 7.1.7 allows it), and, for any case, a frame of the
    server's that breaks RFC 6455 is FAILED."""
    p = case.p
    if p.violations:
        return FAILED, "the server broke RFC 6455: " + "; ".join(dict.fromkeys(p.violations))
    if case.behavior == INFORMATIONAL:
        return INFORMATIONAL, case.result
    if case.behavior not in (OK, NON_STRICT):
        return FAILED, case.result
    if case.behavior_close in (FAILED, UNCLEAN):
        return FAILED, f"{case.result_close} ({p.was_not_clean_reason or 'closed by ' + ('us' if p.closed_by_me else 'the server')})"
    reasons = []
    if case.behavior == NON_STRICT:
        reasons.append(f"received {case.received}, Autobahn's NON-STRICT outcome (OK: {case.expected.get(OK)})")
    if case.behavior_close == WRONG_CODE:
        reasons.append(f"{case.result_close}; it was {p.remote_close_code}")
    elif case.behavior_close == FAILED_BY_CLIENT:
        reasons.append(f"{case.result_close} ({p.was_not_clean_reason})")
    if not case.expected_close.get("closedByMe", True) and not p.received_close_frame:
        reasons.append("the server failed the connection without a close frame")
    if reasons:
        return NON_STRICT, "; ".join(reasons)
    return OK, case.result_close


def describe(case: Case) -> str:
    """What happened, for a failure message: expectations, events, close, and the wire log."""
    p = case.p
    lines = [
        f"case {case.ID}: {case.DESCRIPTION}",
        f"  expectation: {case.EXPECTATION}",
    ]
    if case.ADAPTATION:
        lines.append(f"  adapted: {case.ADAPTATION}")
    lines += [
        f"  behavior {case.behavior}: {case.result}",
        f"  close behavior {case.behavior_close}: {case.result_close}",
        f"  expected: {case.expected}",
        f"  received: {case.received}",
        f"  expected close: {case.expected_close}",
        f"  closedByMe={p.closed_by_me} failedByMe={p.failed_by_me} droppedByMe={p.dropped_by_me} wasClean={p.was_clean} "
        f"({p.was_not_clean_reason}) localCloseCode={p.local_close_code} remoteCloseCode={p.remote_close_code} "
        f"remoteCloseReason={p.remote_close_reason!r}",
    ]
    if p.violations:
        lines.append(f"  violations: {p.violations}")
    log = p.wirelog if len(p.wirelog) <= 40 else p.wirelog[:20] + [f"... {len(p.wirelog) - 40} more ..."] + p.wirelog[-20:]
    lines += ["  wire log:"] + [f"    {entry}" for entry in log]
    return "\n".join(lines)
