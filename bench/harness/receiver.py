"""The receiving side of the harness for every server, and its receiver processes.

usage: receiver.py CONTROL_FD

Once a member has signed in (and, for the XMPP peers, joined the room), the harness hands its
socket (SCM_RIGHTS) to a receiver process, which reads it with epoll into one reused buffer and
scans the raw bytes for the benchmark marker (stats.HEAD_BYTES: the fixed-width head with the
message number and the intended send time); nothing is parsed as XML or JSON. The one framing
step that differs is per protocol:

- XMPP (Prosody, ejabberd): the stream is scanned as it comes (`MarkerScanner`).
- Parlor (WebSocket): the server's unmasked frames are walked header by header
  (`WebSocketScanner`), and only text payloads are scanned; a ping is sent back to the harness,
  which answers it with a masked pong (the harness is the socket's only writer), and a close frame
  ends the member's reading.

The receiver sends back one `RECORD` per marker found, in batches at most 5 ms old, with the
arrival time taken when the read returned. Stops on `stop`, when the control socket closes, or
when its parent is gone.

Control messages, harness -> receiver: `HANDOVER` (receiver index, protocol) and the bytes the
harness had already read past the sign-in, with one descriptor; or `stop`. Receiver -> harness:
b"R" and `RECORD`s, or b"P", the receiver index (`<H`) and a ping's payload.
"""
import asyncio
import os
import select
import socket
import struct
import subprocess
import sys
import time
from pathlib import Path

from stats import HEAD_BYTES, now_ns

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import parlor_protocol as protocol  # noqa: E402  (docs/protocol.json's names)

XMPP, WEBSOCKET = 0, 1
HANDOVER = struct.Struct("<HB")
# What a receiver process reports per marker: receiver index, message number (0: an error
# stanza or frame, or, with an intended time of CLOSED, the server closed the socket), intended
# send time and arrival time (CLOCK_MONOTONIC ns).
RECORD = struct.Struct("<HIqq")
CLOSED = 1
FLUSH_BYTES = 32768  # records are sent once this many bytes wait, or after 5 ms
CHUNK_RECORDS = 2048  # records a message at most (45 KB, well under a socket buffer)
HERE = Path(__file__).resolve().parent
_MARK = b"BENCH "
_XMPP_ERRORS = (b"type='error'", b'type="error"')
_WS_ERROR = protocol.marker(protocol.Server.error).encode()
# Swift's JSONEncoder does not keep key order: the type is looked for anywhere in the frame
# (nested objects of these frames carry no "type" key).
_WS_MESSAGE = protocol.marker(protocol.Server.message).encode()


class MarkerScanner:
    """Finds benchmark markers in an XMPP socket's raw bytes, read by read. A marker is found by
    its fixed-width head (stats.HEAD_BYTES), which carries the message number and the intended
    send time; a head cut by a read boundary is completed by the next read. Also notes error
    stanzas."""

    __slots__ = ("tail",)

    def __init__(self):
        self.tail = b""

    def scan(self, data, receiver, at, on_marker):
        """Calls on_marker(receiver, number, intended, at) per marker; returns whether the bytes
        held an error stanza."""
        if self.tail:
            data = self.tail + data
        find = data.find
        end = len(data)
        position = 0
        while True:
            i = find(_MARK, position)
            if i < 0 or i + HEAD_BYTES > end:
                break
            on_marker(receiver, int(data[i + 6:i + 15]), int(data[i + 16:i + 35]), at)
            position = i + HEAD_BYTES
        self.tail = data[max(position, end - HEAD_BYTES + 1):]
        return _XMPP_ERRORS[0] in data or _XMPP_ERRORS[1] in data


def frame_at(data, position):
    """(opcode, payload start, payload end) of the server's WebSocket frame at `position` in
    `data` (unmasked, RFC 6455: a 2-byte head with the opcode and a 7-bit length, or 126/127 and
    a 16/64-bit length), or None when the frame is not all there yet. A masked frame (the server
    never sends one) reads as opcode -1."""
    end = len(data)
    if end - position < 2:
        return None
    length = data[position + 1]
    if length & 0x80:
        return -1, position, position
    start = position + 2
    if length == 126:
        if end - position < 4:
            return None
        length, start = (data[position + 2] << 8) | data[position + 3], position + 4
    elif length == 127:
        if end - position < 10:
            return None
        length, start = int.from_bytes(data[position + 2:position + 10], "big"), position + 10
    if start + length > end:
        return None
    return data[position] & 0x0F, start, start + length


class WebSocketScanner:
    """Walks the frames of a WebSocket stream from the server (unmasked, RFC 6455): a 2-byte
    head (FIN and opcode; payload length of 7 bits, or 126/127 and a 16/64-bit length), so a
    frame is never misread whatever its payload holds. Only complete frames are looked at; the
    rest of a read waits for the next. Text, binary and continuation payloads of `message` frames
    are scanned for markers (the sender's `ack` carries the message too, and is not a delivery; a
    marker cut across the fragments of one message would be missed, and counted missing by the
    ledger; the server does not fragment these frames); pings go to `on_ping`; a close frame sets
    `closed`."""

    __slots__ = ("tail", "closed")

    def __init__(self):
        self.tail = b""
        self.closed = False

    def scan(self, data, receiver, at, on_marker, on_ping=None):
        """Calls on_marker(receiver, number, intended, at) per marker and on_ping(receiver,
        payload) per ping; returns whether a complete frame held an error."""
        if self.tail:
            data = self.tail + data
        find = data.find
        end = len(data)
        position = 0
        while (frame := frame_at(data, position)) is not None:
            opcode, start, stop = frame
            if opcode < 0:  # a masked frame from the server: a protocol error, not expected
                self.closed = True
                break
            if opcode < 3:  # continuation, text, binary
                i = find(_MARK, start, stop)
                if i >= 0 and find(_WS_MESSAGE, start, stop) < 0:
                    i = -1  # the sender's `ack` carries the message too: only `message` frames count
                while i >= 0 and i + HEAD_BYTES <= stop:
                    on_marker(receiver, int(data[i + 6:i + 15]), int(data[i + 16:i + 35]), at)
                    i = find(_MARK, i + HEAD_BYTES, stop)
            elif opcode == 9:
                if on_ping is not None:
                    on_ping(receiver, bytes(data[start:stop]))
            elif opcode == 8:
                self.closed = True
                position = stop
                break
            position = stop
        self.tail = data[position:] if position < end and not self.closed else b""
        return find(_WS_ERROR, 0, position) >= 0


def main():
    control = socket.socket(fileno=int(sys.argv[1]))
    parent = os.getppid()
    poller = select.epoll()
    poller.register(control.fileno(), select.EPOLLIN)
    members = {}  # fd -> (receiver index, scanner, socket)
    out = bytearray(b"R")
    pack = RECORD.pack
    flushed = time.monotonic()

    def on_marker(receiver, number, intended, at):
        out.extend(pack(receiver, number, intended, at))

    def on_ping(receiver, payload):
        control.send(b"P" + struct.pack("<H", receiver) + payload)

    def flush():
        """Sends the records in messages of at most CHUNK_RECORDS: one poll can read thousands of
        markers, and a single message over the socket's buffer fails (EMSGSIZE), which used to
        stop this receiver in the middle of a rung."""
        for start in range(1, len(out), CHUNK_RECORDS * RECORD.size):
            control.send(b"R" + out[start:start + CHUNK_RECORDS * RECORD.size])
        del out[1:]

    def closed(fd):
        try:
            poller.unregister(fd)
        except (KeyError, OSError):
            pass
        out.extend(pack(members[fd][0], 0, CLOSED, 0))

    def read(fd, data, at):
        receiver, scanner, member = members[fd]
        websocket = scanner.__class__ is WebSocketScanner
        error = scanner.scan(data, receiver, at, on_marker, on_ping) if websocket else scanner.scan(data, receiver, at, on_marker)
        if error:
            out.extend(pack(receiver, 0, 0, 0))
        if websocket and scanner.closed:
            closed(fd)

    control_fd = control.fileno()
    poll = poller.poll
    # One buffer for every read: a fresh 256 KiB bytes object per read costs an mmap, an mremap
    # and a munmap (strace), more than the read itself.
    buffer = bytearray(262144)
    running = True
    while running:
        events = poll(0.005 if len(out) > 1 else 1.0)
        if not events and os.getppid() != parent:
            break
        for fd, _ in events:
            if fd == control_fd:
                message, fds, _, _ = socket.recv_fds(control, 1 << 20, 16)
                if not message or message == b"stop":
                    running = False
                    break
                receiver, protocol = HANDOVER.unpack_from(message)
                for descriptor in fds:
                    member = socket.socket(fileno=descriptor)
                    member.setblocking(False)
                    scanner = WebSocketScanner() if protocol == WEBSOCKET else MarkerScanner()
                    members[descriptor] = (receiver, scanner, member)
                    poller.register(descriptor, select.EPOLLIN)
                    if len(message) > HANDOVER.size:  # what the harness read past the sign-in
                        read(descriptor, bytes(message[HANDOVER.size:]), now_ns())
                continue
            if fd not in members:
                continue
            try:
                size = members[fd][2].recv_into(buffer)
            except BlockingIOError:
                continue
            except OSError:
                size = 0
            if not size:
                closed(fd)
                continue
            read(fd, buffer[:size], now_ns())
        if len(out) > 1 and (len(out) > FLUSH_BYTES or time.monotonic() - flushed >= 0.005):
            try:
                flush()
            except OSError as error:
                print(f"receiver: the harness's socket failed ({error}); stopping", file=sys.stderr)
                break
            flushed = time.monotonic()
    for _, _, member in members.values():
        member.close()


class ReceiverPool:
    """Receiver processes that read the members' sockets once they signed in: each gets sockets
    handed over (SCM_RIGHTS), waits on them with epoll (no asyncio, no parsing), scans the bytes
    and sends back a `RECORD` per marker, in batches, every few milliseconds. The arrival time is
    taken in the receiver process when the read returns, so the batching adds nothing to the
    latencies. The records go to `on_marker` (error stanzas or frames to `on_error`, a socket the
    server closed to `on_close(receiver)`, WebSocket pings to `on_ping(receiver, payload)`) here,
    where the one delivery ledger is kept. Receivers
    inherit this process's CPU affinity and priority; `cpu_seconds` is their CPU time, which counts
    as the client's."""

    def __init__(self, processes, on_marker, on_error, on_ping=None, on_close=None):
        self.on_marker = on_marker
        self.on_error = on_error
        self.on_ping = on_ping
        self.on_close = on_close
        self.loop = asyncio.get_running_loop()
        self.workers = []
        for _ in range(max(1, processes)):
            parent, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            process = subprocess.Popen([sys.executable, str(HERE / "receiver.py"), str(child.fileno())],
                                       pass_fds=[child.fileno()], cwd=HERE, stdin=subprocess.DEVNULL)
            child.close()
            parent.setblocking(False)
            self.loop.add_reader(parent.fileno(), self._read, parent)
            self.workers.append((process, parent))

    def add(self, receiver, fd, protocol=XMPP, pending=b""):
        """Hands over the socket `fd` of member `receiver`; `pending`: bytes already read from it
        that the receiver must scan first."""
        _, control = self.workers[receiver % len(self.workers)]
        control.setblocking(True)
        try:
            socket.send_fds(control, [HANDOVER.pack(receiver, protocol) + pending], [fd])
        finally:
            control.setblocking(False)

    def _read(self, control):
        on_marker, on_error = self.on_marker, self.on_error
        while True:
            try:
                data = control.recv(1 << 20)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                self.loop.remove_reader(control.fileno())
                return
            if data[:1] == b"P":
                if self.on_ping is not None:
                    self.on_ping(struct.unpack_from("<H", data, 1)[0], data[3:])
                continue
            for receiver, number, intended, at in RECORD.iter_unpack(memoryview(data)[1:]):
                if number:
                    on_marker(receiver, number, intended, at)
                elif intended == CLOSED:
                    if self.on_close is not None:
                        self.on_close(receiver)
                else:
                    on_error(receiver)

    def flush(self):
        """Reads what the receivers have sent so far (the event loop does it too)."""
        for _, control in self.workers:
            self._read(control)

    def cpu_seconds(self):
        return [process_cpu_seconds(process.pid) for process, _ in self.workers]

    def close(self):
        for process, control in self.workers:
            try:
                self.loop.remove_reader(control.fileno())
                control.send(b"stop")
            except OSError:
                pass
        for process, control in self.workers:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
            control.close()
        self.workers = []


def process_cpu_seconds(pid):
    """User + system CPU time of a process (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


if __name__ == "__main__":
    main()
