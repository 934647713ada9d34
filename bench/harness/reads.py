"""Scenario 8: what a read costs, in a short conversation and in a long one.

A `read` frame moves the reader's mark; the server starts the countdown of expiring messages it
newly covers, stores the mark, and sends the reader's tabs the conversation's unread count. None
of that may grow with the conversation's length: the same 1,000 reads, each moving the mark by
one message, are timed at the start of a conversation of 1,000 messages and at the end of one of
20,000, in the same server. The figure is reads per second in each, and their ratio (1.0 when a
read costs the same whatever the length). Each read is answered by the reader's `conversation`
frame, which the harness counts; the server's CPU per read is reported beside it.
"""
import asyncio
import time
from pathlib import Path

import parlor_driver
from servers import ParlorServer
import sys

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import parlor_protocol as protocol  # noqa: E402  (docs/protocol.json's names)

WRITERS = 8


async def populate(members, conversation, count):
    """`count` text messages in `conversation`, from the writers at once; waits for every ack."""
    share = -(-count // len(members))
    acked = asyncio.Queue()

    def on_frame(member, frame, at):
        if protocol.marker(protocol.Server.ack) in frame or protocol.marker(protocol.Server.error) in frame:
            acked.put_nowait(protocol.marker(protocol.Server.error) in frame)

    for member in members:
        member.on_frame = on_frame
        member.conversation = conversation
    sent = 0
    for member in members:
        for _ in range(min(share, count - sent)):
            member.send_text("filler message for the read benchmark")
            sent += 1
    errors = 0
    for _ in range(sent):
        errors += await asyncio.wait_for(acked.get(), 120)
    if errors:
        raise RuntimeError(f"{errors} filler messages were refused")


async def timed_reads(reader, server, conversation, first, count):
    """Moves the reader's mark from `first` to `first + count - 1`, one message at a time,
    pipelined; returns (reads/s, server CPU seconds per read)."""
    answered = asyncio.Queue()

    def on_frame(member, frame, at):
        if protocol.marker(protocol.Server.conversation) in frame:
            answered.put_nowait(at)
        elif protocol.marker(protocol.Server.error) in frame:
            answered.put_nowait(None)

    reader.on_frame = on_frame
    cpu0 = server.cpu_seconds()
    started = time.monotonic()
    for sequence in range(first, first + count):
        await reader.send({"type": protocol.Client.read, "conversation": conversation, "sequence": sequence})
    failures = 0
    for _ in range(count):
        failures += (await asyncio.wait_for(answered.get(), 120)) is None
    elapsed = time.monotonic() - started
    if failures:
        raise RuntimeError(f"{failures} reads were refused")
    return count / elapsed, (server.cpu_seconds() - cpu0) / count


async def measure(data_dir, log, short=1_000, long=20_000, reads=1_000):
    server = ParlorServer(Path(data_dir) / "reads").start()
    members = []
    try:
        names = ["reader"] + [f"filler{i}" for i in range(WRITERS)]
        tokens = await parlor_driver.sign_up(server.port, names)
        short_id = await parlor_driver.create_conversation(server.port, tokens["reader"], "short", names[1:])
        long_id = await parlor_driver.create_conversation(server.port, tokens["reader"], "long", names[1:])
        writers = [parlor_driver.ParlorMember(server, name, tokens[name], i) for i, name in enumerate(names[1:])]
        reader = parlor_driver.ParlorMember(server, "reader", tokens["reader"], 0)
        members = writers + [reader]
        await asyncio.gather(*(m.connect() for m in members))
        started = time.monotonic()
        await populate(writers, short_id, short)
        await populate(writers, long_id, long)
        log(f"  {short + long} messages written in {time.monotonic() - started:.0f} s")
        # The long conversation's reads start near its end: one read covers what comes before.
        await timed_reads(reader, server, long_id, long - reads, 1)
        short_rate, short_cpu = await timed_reads(reader, server, short_id, 1, reads)
        long_rate, long_cpu = await timed_reads(reader, server, long_id, long - reads + 1, reads)
        log(f"  {reads} reads at the start of {short:,} messages: {short_rate:.0f}/s, {short_cpu * 1e6:.0f} µs of server CPU each")
        log(f"  {reads} reads at the end of {long:,} messages: {long_rate:.0f}/s, {long_cpu * 1e6:.0f} µs of server CPU each")
        return {"short": short, "long": long, "reads": reads, "short_rate": short_rate, "long_rate": long_rate,
                "short_cpu": short_cpu, "long_cpu": long_cpu, "ratio": long_rate / short_rate}
    finally:
        await asyncio.gather(*(m.close() for m in members), return_exceptions=True)
        server.stop()
