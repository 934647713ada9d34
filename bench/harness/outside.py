"""Scenario 7: apps outside the server. A Tic-Tac-Toe move with the app in its own process
against the same move with the app in the server, in one run; and what 100 connected app
processes cost the server (memory and CPU while idle)."""
import asyncio
import time

import websockets

import app_trip
from servers import ParlorServer

APP = "org.parlor.tictactoe"


async def measure(work, config, log):
    log("  in the server:")
    inside = await app_trip.measure(work / "outside-in", config, log)
    log("  in its own process:")
    outside = await app_trip.measure(work / "outside-out", config, log, outside=True)
    connected = await connected_apps(work / "outside-idle", config.outside_apps, log)
    return {"inside": inside, "outside": outside, "connected": connected}


async def connected_apps(data_dir, count, log):
    """The server's memory and CPU with `count` app connections open and idle (copies of one
    app: each is an app process's connection as the server sees it)."""
    server = ParlorServer(data_dir, outside=[APP]).start()
    # The runner the server started is one connection; the others are opened here.
    secret = server.credentials[APP]
    sockets = []
    try:
        await asyncio.sleep(2)
        baseline = server.rss_bytes()
        url = f"ws://127.0.0.1:{server.port}/api/apps/connect?protocol=1"
        for _ in range(count):
            socket = await websockets.connect(url, additional_headers={"Authorization": f"Bearer {secret}"}, max_size=None)
            await socket.recv()  # welcome
            sockets.append(socket)
        await asyncio.sleep(5)
        loaded = server.rss_bytes()
        cpu_before, wall_before = server.cpu_seconds(), time.monotonic()
        await asyncio.sleep(10)
        cpu = (server.cpu_seconds() - cpu_before) / (time.monotonic() - wall_before)
        result = {"apps": count, "baseline": baseline, "loaded": loaded, "per_app": (loaded - baseline) / count, "idle_cpu": cpu}
        log(f"  {count} connected apps: RSS {baseline / 2**20:.1f} → {loaded / 2**20:.1f} MiB "
            f"({result['per_app'] / 1024:.1f} KiB each), idle CPU {cpu * 100:.2f}% of a core")
        return result
    finally:
        await asyncio.gather(*(socket.close() for socket in sockets), return_exceptions=True)
        server.stop()
