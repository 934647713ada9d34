"""Whether a server's rate holds up as it ages: one writer sends plain messages in a closed loop
(each after the last one's ack) to one Parlor server, `--durability normal` so the disk does not
set the pace, and prints the acks per second of every 10 s and the server's CPU so far.

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


async def main(seconds):
    server = ParlorServer(tempfile.mkdtemp(prefix="parlor-long-run-"), durability="normal").start()
    alice = None
    try:
        tokens = await parlor_driver.sign_up(server.port, ["alice", "bob"])
        conversation = await parlor_driver.create_conversation(server.port, tokens["alice"], None, ["bob"])
        alice = parlor_driver.ParlorMember(server, "alice", tokens["alice"], 0)
        alice.conversation = conversation
        acks = asyncio.Queue()
        alice.on_frame = lambda member, frame, at: acks.put_nowait(1) if '"type":"ack"' in frame else None
        await alice.connect()
        start = window = time.monotonic()
        count = total = 0
        while time.monotonic() - start < seconds:
            if server.process.poll() is not None:
                print(f"the server exited ({server.process.returncode}) after {total:,} messages", flush=True)
                return 1
            alice.send_text("x")
            try:
                await asyncio.wait_for(acks.get(), 10)
            except asyncio.TimeoutError:
                print(f"no ack within 10 s after {total:,} messages", flush=True)
                return 1
            count += 1
            total += 1
            if time.monotonic() - window >= 10:
                print(f"{time.monotonic() - start:5.0f} s: {count / (time.monotonic() - window):7,.0f} acks/s, "
                      f"{total:,} in all, server CPU {server.cpu_seconds():.1f} s", flush=True)
                window = time.monotonic()
                count = 0
        return 0
    finally:
        if alice is not None:
            await alice.close()
        server.stop()


if __name__ == "__main__":
    sys.exit(asyncio.run(main(float(sys.argv[1]) if len(sys.argv) > 1 else 120)))
