"""Scenario 3: resident memory per idle connected client, and the time to connect them.

The server starts fresh with the accounts already stored; its resident memory is read, N
signed-in sessions are opened by several client processes, and after they settle the growth
divided by N is the cost of one idle connection. Each client process connects from its own
loopback address (127.0.0.1, .2, ...): one source address has only the ephemeral port range
(about 28,000 ports) for connections to one server port, fewer than 50,000 sessions need.
"""
import asyncio
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import parlor_driver
import xmpp_driver
from servers import XMPP_SERVERS, ParlorServer

CLIENT_CORE = os.environ.get("BENCH_CLIENT_CORE", "1")
HERE = Path(__file__).resolve().parent


# Descriptors a server needs beside its sessions (its store, logs, listeners, runtime).
SERVER_SPARE_FILES = 512


def file_limit_problem(count, workers):
    """Why `count` sessions cannot be held under this process's file limit (inherited by the
    servers and the client processes), or None."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if count + SERVER_SPARE_FILES > soft:
        return (f"the file limit is {soft:,} (hard {hard:,}): {count:,} sessions need {count + SERVER_SPARE_FILES:,} "
                f"descriptors in the server; bench/run raises the limit where the system allows it")
    if -(-count // workers) + 64 > hard:
        return f"the file limit is {hard:,}: use more --idle-workers"
    return None


async def measure(kind, data_dir, count, workers, log, settle=5.0):
    problem = file_limit_problem(count, workers)
    if problem:
        log(f"  {kind}: not run: {problem}")
        return {"connections": count, "skipped": problem}
    data_dir = Path(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    names = [f"idle{i}" for i in range(count)]
    started = time.monotonic()
    if kind == "parlor":
        # Accounts are made with synchronous NORMAL (quicker), then the server restarts as usual.
        setup = ParlorServer(data_dir / "server", durability="normal").start()
        try:
            tokens = await parlor_driver.sign_up(setup.port, names, concurrency=16)
        finally:
            setup.stop()
        accounts = [(name, tokens[name]) for name in names]
        server = ParlorServer(data_dir / "server").start()
    else:
        server = XMPP_SERVERS[kind](data_dir / "server").start()
        accounts = [(name, xmpp_driver.PASSWORD) for name in names]
        server.add_accounts(accounts)
    log(f"  {kind}: {count} accounts ready in {time.monotonic() - started:.0f} s")
    path = data_dir / "accounts.json"
    path.write_text(json.dumps(accounts))
    processes = []
    try:
        await asyncio.sleep(2)
        baseline = server.rss_bytes()
        share = -(-count // workers)
        server_cpu0 = server.cpu_seconds()
        started = time.monotonic()
        for number, first in enumerate(range(0, count, share)):
            source = f"127.0.{number // 254}.{number % 254 + 1}"
            processes.append(subprocess.Popen(
                ["taskset", "-c", CLIENT_CORE, sys.executable, str(HERE / "idle_worker.py"), kind, str(server.port), str(path),
                 str(first), str(min(share, count - first)), source],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=HERE))
        for process in processes:
            line = await asyncio.wait_for(asyncio.to_thread(process.stdout.readline), timeout=600)
            if not line.startswith("READY"):
                raise RuntimeError(f"an idle client process failed: {line.strip() or process.poll()}")
        connect_seconds = time.monotonic() - started
        # Who set the pace of connecting: the server's CPU and the client processes' (of a core).
        connect_server_cpu = (server.cpu_seconds() - server_cpu0) / connect_seconds
        connect_client_cpu = sum(xmpp_driver.process_cpu_seconds(p.pid) for p in processes) / connect_seconds
        await asyncio.sleep(settle)
        loaded = server.rss_bytes()
        threads = server.threads()
        result = {"connections": count, "baseline": baseline, "loaded": loaded, "per_connection": (loaded - baseline) / count,
                  "connect_seconds": connect_seconds, "threads": threads, "workers": len(processes),
                  "connect_server_cpu": connect_server_cpu, "connect_client_cpu": connect_client_cpu}
        log(f"  {kind}: {count} idle sessions in {connect_seconds:.0f} s (server cpu {connect_server_cpu:.0%}, "
            f"client cpu {connect_client_cpu:.0%} meanwhile); RSS {baseline / 2**20:.1f} MiB -> {loaded / 2**20:.1f} MiB, "
            f"{result['per_connection'] / 1024:.1f} KiB each")
        return result
    finally:
        for process in processes:
            try:
                process.stdin.close()
            except OSError:
                pass
        for process in processes:
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
        server.stop()
