"""Parlor's benchmarks, side by side with its XMPP peers, Prosody and ejabberd, in one run.
Started by bench/run.

Each scenario runs against every server with the same asyncio client harness (one XMPP code path
for both peers); every figure is reported only after the exactly-once check of the messages it
counts passed.
"""
import argparse
import asyncio
import json
import logging
import os
import platform
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

import app_trip
import cluster
import durable
import fanout
import idle
import long_run
import outside
import wasm
import reads
import report
from servers import PEERS, prioritize

ROOT = Path(__file__).resolve().parents[2]


def options(argv):
    parser = argparse.ArgumentParser(prog="bench/run", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few minutes (shorter steps, 1,000 idle connections)")
    parser.add_argument("--scenarios", default="fanout,latency,idle,app,durable,reads,cluster,outside,wasm,aging",
                        help="comma-separated subset to run")
    parser.add_argument("--peers", default=",".join(PEERS), help=f"the XMPP peers to run beside Parlor (default {','.join(PEERS)})")
    parser.add_argument("--members", type=int, default=100, help="room size (default 100)")
    parser.add_argument("--p99-limit-ms", dest="p99_limit_ms", type=float, default=50.0)
    parser.add_argument("--ladder-start", type=float, default=1000.0, help="first rung, deliveries/s")
    parser.add_argument("--ladder-min", type=float, default=100.0, help="lowest rung when the first one fails")
    parser.add_argument("--ladder-max", type=float, default=2_000_000.0)
    parser.add_argument("--step-seconds", type=float, help="seconds per rung (default 10; quick 3)")
    parser.add_argument("--refine-steps", type=int, help="finer rungs between the last pass and the first failure (default 3; quick 1)")
    parser.add_argument("--latency-seconds", type=float, help="scenario 2's duration (default 30; quick 5)")
    parser.add_argument("--receiver-processes", type=int, default=1,
                        help="XMPP peers: processes reading the members' sockets after they joined (default 1; 0 reads them "
                             "in the harness process); on a machine with more client cores, one per core")
    parser.add_argument("--idle-connections", type=int,
                        help="scenario 3's idle sessions per server (default 10000; quick 1000; 50000 needs a file limit above "
                             "50,000, which bench/run raises where it may)")
    parser.add_argument("--idle-workers", type=int,
                        help="client processes holding the idle sessions (default one per 5,000 sessions, at least 4)")
    parser.add_argument("--app-seconds", type=float, help="scenario 4's duration per variant (default 30; quick 8)")
    parser.add_argument("--app-rate", type=float, default=20.0, help="moves (and plain messages) per second")
    parser.add_argument("--app-pairs", type=int, default=10, help="games played at once")
    parser.add_argument("--outside-apps", type=int, default=100, help="scenario 7: app connections held open")
    parser.add_argument("--durable-seconds", type=float, help="default 15; quick 3")
    parser.add_argument("--writers", type=int, default=64, help="concurrent writers in scenario 5")
    parser.add_argument("--aging-seconds", type=float, help="scenario 9's duration, one writer in a closed loop (default 60; quick 20)")
    parser.add_argument("--cluster-node-cpu", dest="cluster_node_cpu", type=float, default=0.25,
                        help="scenario 6: each node's CPU quota in cores (default 0.25), the same with one node and with two")
    parser.add_argument("--keep", action="store_true", help="keep the temporary data directories")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results"))
    config = parser.parse_args(argv)
    quick = config.quick

    def default(name, full, fast):
        if getattr(config, name) is None:
            setattr(config, name, fast if quick else full)

    default("step_seconds", 10.0, 3.0)
    default("refine_steps", 3, 1)
    default("latency_seconds", 30.0, 5.0)
    default("idle_connections", 10_000, 1_000)
    default("app_seconds", 30.0, 8.0)
    default("durable_seconds", 15.0, 3.0)
    default("aging_seconds", 60.0, 20.0)
    config.warmup = 1.0 if quick else 3.0
    if config.idle_workers is None:
        config.idle_workers = max(4, -(-config.idle_connections // 5000))
    config.scenarios = [s.strip() for s in config.scenarios.split(",") if s.strip()]
    config.peers = [p.strip() for p in config.peers.split(",") if p.strip()]
    unknown = [p for p in config.peers if p not in PEERS]
    if unknown:
        parser.error(f"unknown peers {unknown}; known: {', '.join(PEERS)}")
    return config


logging.getLogger("asyncio").setLevel(logging.CRITICAL)  # slixmpp leaves tasks pending on disconnect


def log(line):
    print(line, flush=True)


def command_output(*command):
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return "?"


def io_stalled_us():
    """Microseconds in which every runnable task waited for the disk (Linux PSI, `io` `full`), or None.

    A run on a disk that stalls (single fdatasync calls of 100 ms and more on a shared VM) fails
    latency rungs at a fraction of a core; the report gives the share of the run spent so."""
    try:
        with open("/proc/pressure/io") as pressure:
            for line in pressure:
                if line.startswith("full"):
                    return int(line.rsplit("total=", 1)[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def machine():
    cpu = "?"
    with open("/proc/cpuinfo") as info:
        for line in info:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    import slixmpp
    import websockets
    return {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": f"{cpu}, {os.cpu_count()} cores", "memory": f"{memory:.0f} GiB", "kernel": platform.release(),
        "load": " ".join(f"{x:.1f}" for x in os.getloadavg()),
        "io_stalled_us": io_stalled_us(),
        "parlor": command_output("git", "-C", str(ROOT), "describe", "--always", "--dirty"),
        "swift": command_output("swift", "--version").splitlines()[0] if command_output("swift", "--version") else "?",
        "prosody": "Prosody " + command_output("dpkg-query", "-W", "-f", "${Version}", "prosody"),
        "lua": command_output("dpkg-query", "-W", "-f", "${Version}", "lua5.4") or "?",
        "ejabberd": "ejabberd " + command_output("dpkg-query", "-W", "-f", "${Version}", "ejabberd"),
        "erlang": command_output("dpkg-query", "-W", "-f", "${Version}", "erlang-base") or "?",
        "sqlite": __import__("sqlite3").sqlite_version,
        "python": platform.python_version(), "slixmpp": slixmpp.__version__, "websockets": websockets.__version__,
    }


async def run(config):
    results = {"machine": machine(), "config": {k: v for k, v in vars(config).items()}, "started": time.time()}
    log(f"Benchmark on {results['machine']['cpu']}, load {results['machine']['load']}")
    work = Path(tempfile.mkdtemp(prefix="parlor-bench-"))
    log(f"Data directories in {work}")
    try:
        if "fanout" in config.scenarios or "latency" in config.scenarios:
            await fanout_and_latency(config, work, results)
        if "idle" in config.scenarios:
            log(f"[3] idle memory at {config.idle_connections} connections, {config.idle_workers} client processes")
            results["idle"] = {}
            for kind in ("parlor", *config.peers):
                results["idle"][kind] = await idle.measure(kind, work / f"idle-{kind}", config.idle_connections, config.idle_workers, log)
        if "app" in config.scenarios:
            log(f"[4] app round trip at {config.app_rate:g} moves/s")
            results["app"] = await app_trip.measure(work / "app", config, log)
        if "durable" in config.scenarios:
            log("[5] durable commit rate")
            results["durable"] = {"fdatasync": durable.fdatasync_rate(work, 3.0 if not config.quick else 1.5)}
            log(f"  disk: {results['durable']['fdatasync']:.0f} fdatasync/s")
            for level in ("full", "normal"):
                results["durable"][level] = await durable.commit_rate(work / "durable", level, config.writers, config.durable_seconds, log)
            floor = durable.sqlite_floor(work / "durable" / "full" / "parlor.sqlite", config.writers, 3.0 if not config.quick else 1.5)
            results["durable"]["floor"] = floor
            log("  SQLite alone, µs of CPU per message (Python's own ~{python_us:.0f} included): {schema[us]:.0f} as Parlor writes them, "
                "{no_search[us]:.0f} without the search index, {append_only[us]:.0f} in one append-only table".format(**floor))
            results["durable"]["peers"] = {}
            for kind in config.peers:
                results["durable"]["peers"][kind] = await durable.peer_commit_rate(
                    kind, work / "durable-peers", config.writers, config.durable_seconds, log)
        if "reads" in config.scenarios:
            log("[8] what a read costs, at the start of a short conversation and at the end of a long one")
            results["reads"] = await reads.measure(work / "reads", log, short=1_000, long=5_000 if config.quick else 20_000,
                                                   reads=300 if config.quick else 1_000)
        if "outside" in config.scenarios:
            log(f"[7] an app outside the server: a Tic-Tac-Toe move at {config.app_rate:g} moves/s, in the server and in its own process")
            results["outside"] = await outside.measure(work, config, log)
        if "wasm" in config.scenarios:
            log(f"[10] an app that is one WebAssembly file: a Dice roll at {config.app_rate:g} rolls/s, run by the server and in its own process")
            results["wasm"] = await wasm.measure(work, config, log)
        if "cluster" in config.scenarios:
            log(f"[6] two nodes on one PostgreSQL against one node, {config.members} members")
            results["cluster"] = await cluster.measure(work, config, log)
        if "aging" in config.scenarios:
            log(f"[9] whether the rate holds as the server ages: one writer in a closed loop for {config.aging_seconds:g} s")
            results["aging"] = await long_run.measure(work / "aging", config.aging_seconds, log)
    finally:
        if not config.keep:
            subprocess.run(["rm", "-rf", str(work)], check=False)
    results["seconds"] = time.time() - results["started"]
    results["machine"]["load_after"] = " ".join(f"{x:.1f}" for x in os.getloadavg())
    before, after = results["machine"].get("io_stalled_us"), io_stalled_us()
    if before is not None and after is not None and results["seconds"] > 0:
        results["machine"]["io_stalled_share"] = (after - before) / 1e6 / results["seconds"]
    path = report.write(results, Path(config.out))
    log(f"Results: {path}")
    return results


async def fanout_and_latency(config, work, results):
    rooms = {kind: fanout.Room(kind, work / f"room-{kind}", config.members, log, receivers=config.receiver_processes)
             for kind in ("parlor", *config.peers)}
    for room in rooms.values():
        await room.start()
    try:
        capacity = {}
        if "fanout" in config.scenarios:
            log(f"[1] fan-out ladder, {config.members} members, p99 <= {config.p99_limit_ms:g} ms")
            results["fanout"] = {}
            for kind, room in rooms.items():
                best, steps = await fanout.ladder(room, config, log)
                results["fanout"][kind] = {"best": best, "steps": steps, "client_limited": fanout.limited_by_client(best, steps)}
                capacity[kind] = best["offered"] if best else 0.0
        if "latency" in config.scenarios:
            if not capacity:
                capacity = {kind: config.ladder_start * 2 for kind in rooms}
            else:
                # Fresh rooms: the ladder drove each server past its limit and left it millions of
                # messages (and a long write-ahead log) that would weigh on the latency run.
                for room in rooms.values():
                    await room.stop()
                rooms = {kind: fanout.Room(kind, work / f"latency-{kind}", config.members, log, receivers=config.receiver_processes)
                         for kind in rooms}
                for room in rooms.values():
                    await room.start()
            rate = min(capacity.values()) / 2 or config.ladder_start / 2
            log(f"[2] delivery latency at {rate:.0f} deliveries/s (half the lowest capacity), in fresh rooms")
            results["latency"] = {"rate": rate}
            for kind, room in rooms.items():
                await room.run(rate, config.warmup)
                step = await room.run(rate, config.latency_seconds)
                log(f"  {kind:8s} {fanout._describe(step)}")
                results["latency"][kind] = step
    finally:
        for room in rooms.values():
            await room.stop()


def main():
    config = options(sys.argv[1:])
    prioritize()
    results = asyncio.run(run(config))
    sys.exit(0 if report.all_checks_passed(results) else 1)


if __name__ == "__main__":
    main()
