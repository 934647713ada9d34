"""Two builds of Parlor side by side, alternating, in one run: what a change did.

    taskset -c 1 python3 bench/harness/ab.py OLD_BINARY NEW_BINARY [--rounds 2]

(build the old one in a worktree: `git worktree add /tmp/old COMMIT && swift build -c release
--product parlor` there). Each round runs, for the old build and then the new one: a fan-out of
16,000 deliveries/s and a latency run of 4,000/s in fresh 100-member rooms, durable commits with
64 writers (FULL), 500 reads at the end of 5,000 messages, and tic-tac-toe moves against plain
messages. Prints one line per build and round; alternating cancels most of a shared machine's drift.
"""
import argparse
import asyncio
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

import app_trip
import durable
import fanout
import reads
import servers


async def one(binary, label):
    servers.PARLOR = Path(binary)
    work = Path(tempfile.mkdtemp(prefix=f"parlor-ab-{label}-"))
    line = {}
    for rate, seconds, key in ((16_000, 10, "fanout"), (4_000, 30, "latency")):
        room = fanout.Room("parlor", work / key, 100, lambda _: None, receivers=1)
        await room.start()
        try:
            await room.run(rate / 2, 2)
            step = await room.run(rate, seconds)
            line[key] = fanout._describe(step)
        finally:
            await room.stop()
    d = await durable.commit_rate(work / "durable", "full", 64, 10, lambda _: None)
    line["durable"] = f"{d['rate']:.0f}/s, {d['server_cpu'] / d['rate'] * 1e6:.0f} µs CPU each"
    r = await reads.measure(work / "reads", lambda _: None, short=1_000, long=5_000, reads=500)
    line["reads"] = f"{r['long_rate']:.0f}/s, {r['long_cpu'] * 1e6:.0f} µs CPU each"
    a = await app_trip.measure(work / "app", SimpleNamespace(app_pairs=10, app_rate=20.0, app_seconds=15), lambda _: None)
    line["move"] = f"p50 {a['move']['p50']:.1f} p99 {a['move']['p99']:.1f} ms vs plain {a['plain']['p50']:.1f} / {a['plain']['p99']:.1f}"
    return line


async def main():
    parser = argparse.ArgumentParser(prog="bench/harness/ab.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--rounds", type=int, default=2)
    options = parser.parse_args()
    for round_ in range(options.rounds):
        for label, binary in (("old", options.old), ("new", options.new)):
            for key, value in (await one(binary, label)).items():
                print(f"round {round_ + 1} {label} {key}: {value}", flush=True)


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
