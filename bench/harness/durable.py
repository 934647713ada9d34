"""Scenario 5: durable commits per second, and the disk's raw fdatasync rate beside them.

Writers each send a message, wait for its `ack` (sent only once the message is durable), and
send the next (closed loop), each in their own two-person conversation, so that the figure is
the store's commit rate rather than fan-out. Every message must also come back exactly once.

The XMPP peers have no acknowledgement of durability in the protocol, but both archive a room's
message (mod_muc_mam, mod_mam; an SQLite insert committed with synchronous = FULL) before they
broadcast it, the reflection to the sender included: a writer alone in its own archived room
sends, waits for its message to come back and sends the next, so each reflection stands for
one committed message.
"""
import asyncio
import os
import sqlite3
import time
import uuid
from pathlib import Path

import parlor_driver
import xmpp_driver
from servers import XMPP_SERVERS, ParlorServer
from stats import DeliveryLedger, bench_text, now_ns
import itertools
import sys

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import parlor_protocol as protocol  # noqa: E402  (docs/protocol.json's names)

_numbers = itertools.count(10**8)


def fdatasync_rate(directory, seconds):
    """4 KiB writes each followed by fdatasync, in the directory the databases live in."""
    path = Path(directory) / "fdatasync.probe"
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    block = b"x" * 4096
    try:
        count, started = 0, time.perf_counter()
        while time.perf_counter() - started < seconds:
            os.pwrite(descriptor, block, (count % 256) * 4096)
            os.fdatasync(descriptor)
            count += 1
        return count / (time.perf_counter() - started)
    finally:
        os.close(descriptor)
        path.unlink()


def sqlite_floor(database, writers, seconds):
    """SQLite's own CPU per message for the writes Parlor makes for one, without the server.

    A Python `sqlite3` loop on a copy of the server's database after its FULL run (the same
    schema, search index and conversations), on the harness's core: `writers` messages per
    transaction, the most the closed loop ever lets the group commit take, each with the
    duplicate check, the sequence's update and the insert the group commit runs (no savepoint:
    see `CommitBatcher`), synchronous = FULL. Three shapes: as Parlor writes them, without the
    search index (its trigger dropped), and one append-only table (no per-conversation index at
    all). CPU is this
    thread's, kernel included, and so includes Python's own cost (`python_us`, measured as five
    trivial statements per message)."""
    database = Path(database)
    shapes = {}
    for shape in ("schema", "no_search", "append_only"):
        copy = database.with_name(f"floor-{shape}.sqlite")
        for suffix in ("", "-wal", "-shm"):
            Path(f"{copy}{suffix}").unlink(missing_ok=True)
        with sqlite3.connect(database) as source, sqlite3.connect(copy) as target:
            source.backup(target)
        db = sqlite3.connect(copy, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = FULL")
            conversations = [row[0] for row in db.execute(
                "SELECT id FROM conversations ORDER BY last_activity DESC LIMIT ?", (writers,))]
            if not conversations:
                raise RuntimeError(f"{database} has no conversations to write to")
            if shape == "no_search":
                db.execute("DROP TRIGGER message_search_insert")
            if shape == "append_only":
                db.execute("CREATE TABLE message_log (id INTEGER PRIMARY KEY, conversation_id TEXT NOT NULL, seq INTEGER NOT NULL, "
                           "message_id TEXT NOT NULL, sender_id TEXT NOT NULL, content TEXT NOT NULL, sent_at REAL NOT NULL)")
            sender, sequence, count = str(uuid.uuid4()), 10**6, 0
            cpu, started = time.thread_time(), time.perf_counter()
            while time.perf_counter() - started < seconds:
                db.execute("BEGIN IMMEDIATE")
                for conversation in conversations:
                    message, text, now = str(uuid.uuid4()), bench_text(next(_numbers), now_ns()), time.time()
                    content = '{"text":{"_0":"%s"}}' % text
                    if shape == "append_only":
                        sequence += 1
                        db.execute("INSERT INTO message_log (conversation_id, seq, message_id, sender_id, content, sent_at) "
                                   "VALUES (?, ?, ?, ?, ?, ?)", (conversation, sequence, message, sender, content, now))
                        continue
                    db.execute("SELECT * FROM messages WHERE conversation_id = ? AND id = ?", (conversation, message)).fetchall()
                    seq = db.execute("UPDATE conversations SET last_seq = last_seq + 1, last_activity = ? WHERE id = ? "
                                     "RETURNING last_seq", (now, conversation)).fetchone()[0]
                    db.execute("INSERT INTO messages (conversation_id, seq, id, sender_id, kind, session_id, content, sent_at, "
                               "reply_to, search_text) VALUES (?, ?, ?, ?, 'text', NULL, ?, ?, NULL, ?)",
                               (conversation, seq, message, sender, content, now, text.lower()))
                db.execute("COMMIT")
                count += len(conversations)
            elapsed = time.perf_counter() - started
            shapes[shape] = {"us": (time.thread_time() - cpu) / count * 1e6, "rate": count / elapsed}
        finally:
            db.close()
            for suffix in ("", "-wal", "-shm"):
                Path(f"{copy}{suffix}").unlink(missing_ok=True)
    memory = sqlite3.connect(":memory:")
    cpu = time.thread_time()
    for i in range(20_000):
        for _ in range(5):
            memory.execute("SELECT ?", (i,)).fetchone()
    shapes["python_us"] = (time.thread_time() - cpu) / 20_000 * 1e6
    shapes["batch"] = writers
    return shapes


async def commit_rate(data_dir, durability, writers, seconds, log):
    server = ParlorServer(Path(data_dir) / durability, durability=durability).start()
    members = []
    try:
        names = [f"writer{i}" for i in range(writers)]
        tokens = await parlor_driver.sign_up(server.port, names + ["sink"])
        ledger = DeliveryLedger(1)
        acks = {}

        def on_frame(member, frame, at):
            if protocol.marker(protocol.Server.ack) in frame:
                future = acks.pop(member.username, None)
                if future is not None and not future.done():
                    future.set_result(at)
            elif protocol.marker(protocol.Server.error) in frame:
                future = acks.pop(member.username, None)
                if future is not None and not future.done():
                    future.set_exception(RuntimeError(frame[:300]))

        for i, name in enumerate(names):
            member = parlor_driver.ParlorMember(server, name, tokens[name], i, lambda _, text, at: ledger.on_text(0, text, at))
            member.conversation = await parlor_driver.create_conversation(server.port, tokens[name], None, ["sink"])
            member.on_frame = on_frame
            members.append(member)
        await asyncio.gather(*(m.connect() for m in members))
        loop = asyncio.get_running_loop()
        counts = [0] * writers

        async def writer(member, index, until):
            while time.monotonic() < until:
                number = next(_numbers)
                intended = now_ns()
                ledger.expect(number, intended)
                acks[member.username] = loop.create_future()
                waiter = acks[member.username]
                member.send_text(bench_text(number, intended))
                await asyncio.wait_for(waiter, 30)
                counts[index] += 1

        await asyncio.gather(*(writer(m, i, time.monotonic() + 1.0) for i, m in enumerate(members)))  # warm-up
        warm = sum(counts)
        counts = [0] * writers
        cpu0 = server.cpu_seconds()
        started = time.monotonic()
        await asyncio.gather(*(writer(m, i, started + seconds) for i, m in enumerate(members)))
        elapsed = time.monotonic() - started
        server_cpu = (server.cpu_seconds() - cpu0) / elapsed
        deadline = time.monotonic() + 10
        while not ledger.complete() and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.2)
        rate = sum(counts) / elapsed
        result = {"durability": durability, "rate": rate, "writers": writers, "seconds": elapsed, **ledger.summary(),
                  "exactly_once": ledger.exactly_once(), "server_cpu": server_cpu, "warmup": warm}
        log(f"  parlor {durability}: {rate:.0f} messages/s with {writers} writers, server cpu {server_cpu:.0%}, "
            f"missing {ledger.missing} dup {ledger.duplicates}")
        return result
    finally:
        await asyncio.gather(*(m.close() for m in members), return_exceptions=True)
        server.stop()


async def peer_commit_rate(kind, data_dir, writers, seconds, log):
    """An XMPP peer's closest equivalent: `writers` accounts, each alone in a room of its own
    with the archive on, in a closed loop of send and wait for the reflection."""
    server = XMPP_SERVERS[kind](Path(data_dir) / kind).start()
    members = []
    try:
        names = [f"writer{i}" for i in range(writers)]
        server.add_accounts([(name, xmpp_driver.PASSWORD) for name in names])
        ledger = DeliveryLedger(1)
        waiters = {}

        def on_marker(receiver, number, intended, at):
            ledger.delivered_to(0, number, intended, at)
            waiter = waiters.pop(receiver, None)
            if waiter is not None and not waiter.done():
                waiter.set_result(at)

        members = [xmpp_driver.XmppMember(server, name, i, on_marker) for i, name in enumerate(names)]
        semaphore = asyncio.Semaphore(16)

        async def enter(member):
            async with semaphore:
                await member.connect()
                await member.join(f"durable{member.index}")

        await asyncio.gather(*(enter(m) for m in members))
        loop = asyncio.get_running_loop()
        counts = [0] * writers

        async def writer(member, until):
            while time.monotonic() < until:
                number = next(_numbers)
                intended = now_ns()
                ledger.expect(number, intended)
                waiter = waiters[member.index] = loop.create_future()
                member.send_text(bench_text(number, intended))
                await asyncio.wait_for(waiter, 30)
                counts[member.index] += 1

        await asyncio.gather(*(writer(m, time.monotonic() + 1.0) for m in members))  # warm-up
        warm = sum(counts)
        counts = [0] * writers
        cpu0, client0 = server.cpu_seconds(), time.process_time()
        started = time.monotonic()
        await asyncio.gather(*(writer(m, started + seconds) for m in members))
        elapsed = time.monotonic() - started
        server_cpu = (server.cpu_seconds() - cpu0) / elapsed
        client_cpu = (time.process_time() - client0) / elapsed
        await asyncio.sleep(0.2)
        errors = sum(m.errors for m in members)
        rate = sum(counts) / elapsed
        result = {"kind": kind, "rate": rate, "writers": writers, "seconds": elapsed, **ledger.summary(), "errors": errors,
                  "exactly_once": ledger.exactly_once() and errors == 0, "server_cpu": server_cpu, "client_cpu": client_cpu,
                  "warmup": warm}
        log(f"  {kind} (room messages archived, then reflected): {rate:.0f} messages/s with {writers} writers, "
            f"server cpu {server_cpu:.0%}, client cpu {client_cpu:.0%}, missing {ledger.missing} dup {ledger.duplicates} err {errors}")
        return result
    finally:
        await asyncio.gather(*(m.close() for m in members), return_exceptions=True)
        server.stop()
