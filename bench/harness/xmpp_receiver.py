"""A receiver process of the XMPP side of the harness (xmpp_driver.ReceiverPool).

usage: xmpp_receiver.py CONTROL_FD

Receives sockets of members that joined the room over CONTROL_FD (a Unix SOCK_SEQPACKET socket:
a message of the receiver index with one descriptor), reads them with epoll, and sends back one
`xmpp_driver.RECORD` per benchmark marker found, in batches at most 5 ms old. Stops on `stop`,
when the control socket closes, or when its parent is gone.
"""
import os
import select
import socket
import struct
import sys
import time

from stats import now_ns
from xmpp_driver import RECORD, MarkerScanner


def main():
    control = socket.socket(fileno=int(sys.argv[1]))
    parent = os.getppid()
    poller = select.epoll()
    poller.register(control.fileno(), select.EPOLLIN)
    members = {}  # fd -> (receiver index, scanner, socket)
    out = bytearray()
    pack = RECORD.pack
    flushed = time.monotonic()

    def on_marker(receiver, number, intended, at):
        out.extend(pack(receiver, number, intended, at))

    control_fd = control.fileno()
    poll = poller.poll
    # One buffer for every read: a fresh 256 KiB bytes object per read costs an mmap, an mremap
    # and a munmap (strace), more than the read itself.
    buffer = bytearray(262144)
    running = True
    while running:
        events = poll(0.005 if out else 1.0)
        if not events and os.getppid() != parent:
            break
        for fd, _ in events:
            if fd == control_fd:
                message, fds, _, _ = socket.recv_fds(control, 1024, 16)
                if not message or message == b"stop":
                    running = False
                    break
                (receiver,) = struct.unpack("<H", message[:2])
                for descriptor in fds:
                    member = socket.socket(fileno=descriptor)
                    member.setblocking(False)
                    members[descriptor] = (receiver, MarkerScanner(), member)
                    poller.register(descriptor, select.EPOLLIN)
                continue
            receiver, scanner, member = members[fd]
            try:
                size = member.recv_into(buffer)
            except BlockingIOError:
                continue
            except OSError:
                size = 0
            if not size:
                poller.unregister(fd)
                continue
            if scanner.scan(buffer[:size], receiver, now_ns(), on_marker):
                out.extend(pack(receiver, 0, 0, 0))
        if out:
            now = time.monotonic()
            if len(out) > 32768 or now - flushed >= 0.005:
                try:
                    control.send(out)
                except OSError:
                    break
                out.clear()
                flushed = now
    for _, _, member in members.values():
        member.close()


if __name__ == "__main__":
    main()
