"""Scenario 9, whether a server's rate holds up as it ages: one writer sends plain messages in a
closed loop (each after the last one's ack) to one Parlor server, `--durability normal` so the
disk does not set the pace, and counts the acks of every window (10 s) and the server's CPU per
message in it. The figure: the best of the last two windows against the best of the first two
(one window disturbed by the machine does not decide it); it should hold at 0.8× or more, which
leaves room for a database that grows by some 80,000 messages in a minute (deeper B-trees, more
search index) and catches a collapse like the one below (0.2×). Alone, it prints each window:

    BENCH_PARLOR_BINARY=.build/release/parlor python3 bench/harness/long_run.py 120

Written for a bug it found (2026-12-01): each group commit wrapped the commit observer in two
more reabstraction thunks, so the rate fell from 1,092 to about 220 acks/s within 40,000
messages (`bench/results/long-run-commit-observer-20261201.txt`)."""
import asyncio
import sys
import tempfile
import time

import parlor_driver
from servers import ParlorServer
import pathlib

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))
import parlor_protocol as protocol  # noqa: E402  (docs/protocol.json's names)


async def measure(data_dir, seconds, log):
    """Acks per second of each window over `seconds` (10-s windows, 5-s ones under 40 s; at least
    four), as a dict."""
    window = 10.0 if seconds >= 40 else 5.0
    server = ParlorServer(data_dir, durability="normal").start()
    alice = None
    try:
        tokens = await parlor_driver.sign_up(server.port, ["alice", "bob"])
        conversation = await parlor_driver.create_conversation(server.port, tokens["alice"], None, ["bob"])
        alice = parlor_driver.ParlorMember(server, "alice", tokens["alice"], 0)
        alice.conversation = conversation
        acks = asyncio.Queue()
        alice.on_frame = lambda member, frame, at: acks.put_nowait(1) if protocol.marker(protocol.Server.ack) in frame else None
        await alice.connect()
        start = opened = time.monotonic()
        count = total = 0
        rates, cpu_per_message = [], []
        cpu_at_open = server.cpu_seconds()
        failure = None
        windows = max(4, round(seconds / window))
        while len(rates) < windows:
            if server.process.poll() is not None:
                failure = f"the server exited ({server.process.returncode}) after {total:,} messages"
                break
            alice.send_text("x")
            try:
                await asyncio.wait_for(acks.get(), 10)
            except asyncio.TimeoutError:
                failure = f"no ack within 10 s after {total:,} messages"
                break
            count += 1
            total += 1
            if time.monotonic() - opened >= window:
                cpu = server.cpu_seconds()
                rates.append(count / (time.monotonic() - opened))
                cpu_per_message.append((cpu - cpu_at_open) / count)
                log(f"  {time.monotonic() - start:5.0f} s: {rates[-1]:7,.0f} acks/s, {total:,} in all, "
                    f"server CPU {cpu:.1f} s ({cpu_per_message[-1] * 1e6:,.0f} µs a message)")
                opened, cpu_at_open = time.monotonic(), cpu
                count = 0
        first, last = max(rates[:2], default=0), max(rates[-2:], default=0)
        return {"seconds": seconds, "window": window, "rates": rates, "cpu_per_message": cpu_per_message,
                "messages": total, "server_cpu": server.cpu_seconds(),
                "first": first, "last": last, "ratio": last / first if first else None, "failure": failure}
    finally:
        if alice is not None:
            await alice.close()
        server.stop()


async def main(seconds):
    result = await measure(tempfile.mkdtemp(prefix="parlor-long-run-"), seconds, lambda line: print(line, flush=True))
    if result["failure"]:
        print(result["failure"], flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(float(sys.argv[1]) if len(sys.argv) > 1 else 120)))
