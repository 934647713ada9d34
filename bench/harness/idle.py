"""Scenario 3: resident memory per idle connected client.

The server starts fresh with the accounts already stored; its resident memory is read, N
signed-in sessions are opened by several client processes, and after they settle the growth
divided by N is the cost of one idle connection.
"""
import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import parlor_driver
import xmpp_driver
from servers import ParlorServer, ProsodyServer

CLIENT_CORE = os.environ.get("BENCH_CLIENT_CORE", "1")
HERE = Path(__file__).resolve().parent


async def measure(kind, data_dir, count, workers, log, settle=5.0):
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
        server = ProsodyServer(data_dir / "server").start()
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
        started = time.monotonic()
        for first in range(0, count, share):
            processes.append(subprocess.Popen(
                ["taskset", "-c", CLIENT_CORE, sys.executable, str(HERE / "idle_worker.py"), kind, str(server.port), str(path),
                 str(first), str(min(share, count - first))],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=HERE))
        for process in processes:
            line = await asyncio.wait_for(asyncio.to_thread(process.stdout.readline), timeout=600)
            if not line.startswith("READY"):
                raise RuntimeError(f"an idle client process failed: {line.strip() or process.poll()}")
        connect_seconds = time.monotonic() - started
        await asyncio.sleep(settle)
        loaded = server.rss_bytes()
        threads = server.threads()
        result = {"connections": count, "baseline": baseline, "loaded": loaded, "per_connection": (loaded - baseline) / count,
                  "connect_seconds": connect_seconds, "threads": threads}
        log(f"  {kind}: {count} idle sessions in {connect_seconds:.0f} s; RSS {baseline / 2**20:.1f} MiB -> {loaded / 2**20:.1f} MiB, "
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
