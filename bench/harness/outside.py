"""Scenario 7: apps outside the server. A Tic-Tac-Toe move with the app in its own process
against the same move with the app in the server, in one run; and what 100 connected app
processes cost the server (memory and CPU while idle)."""
import asyncio
import json
import subprocess
import time

import websockets

import app_trip
from servers import PARLOR, ParlorServer, ROOT

async def measure(work, config, log):
    log("  in the server:")
    inside = await app_trip.measure(work / "outside-in", config, log)
    log("  in its own process:")
    outside = await app_trip.measure(work / "outside-out", config, log, outside=True)
    log("  as one WebAssembly file (its Embedded Swift port, examples/tictactoe-wasm):")
    module = work / "tictactoe.wasm"
    subprocess.run([str(PARLOR), "apps", "build", str(ROOT / "examples" / "tictactoe-wasm"), "-o", str(module)],
                   capture_output=True, text=True, check=True)
    wasm = await app_trip.measure(work / "outside-wasm", config, log, wasm=module)
    connected = await connected_apps(work / "outside-idle", config.outside_apps, log)
    return {"inside": inside, "outside": outside, "wasm": wasm, "wasm_bytes": module.stat().st_size, "connected": connected}


ICON = "data:image/svg+xml;utf8,%3Csvg%20xmlns%3D%27http%3A%2F%2Fwww.w3.org%2F2000%2Fsvg%27%2F%3E"


def register_apps(binary, data_dir, count):
    """`count` apps added with `parlor apps add`, as an operator would; their credentials."""
    data_dir.mkdir(parents=True, exist_ok=True)
    secrets = []
    for index in range(count):
        manifest = data_dir / f"bench-app-{index}.json"
        manifest.write_text(json.dumps({"id": f"org.bench.app{index}", "name": f"Bench {index}", "icon": {"url": ICON}}))
        added = subprocess.run([str(binary), "apps", "add", str(manifest), "--data-dir", str(data_dir)],
                               capture_output=True, text=True, check=True)
        secrets.append(next(line.strip() for line in added.stdout.splitlines() if line.startswith("parlor_app_")))
    return secrets


async def connected_apps(data_dir, count, log):
    """The server's memory and CPU with `count` app connections open and idle: `count` apps, each
    connected once, as `count` app processes would be (one app may have at most 16 copies)."""
    server = ParlorServer(data_dir)
    secrets = register_apps(server.binary, server.data_dir, count)
    server.start()
    sockets = []
    try:
        await asyncio.sleep(2)
        baseline = server.rss_bytes()
        url = f"ws://127.0.0.1:{server.port}/api/apps/connect?protocol=1"
        for secret in secrets:
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
