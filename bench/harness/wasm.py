"""Scenario 10: an app that is one WebAssembly file. The same app, Dice (examples/dice-c in C,
examples/dice in Python: the same calls and answers), played by pairs at the app rate, run by the
server as one .wasm file and in its own process, in one run; the Wasm roll again with fuel
metering off (what metering costs, reported only), and again while neighbours keep opening an app
whose every call loops (bench/harness/spinner: what one careless or hostile app costs the others);
what adding a module costs (from `parlor apps add` to the app offered); and the server's memory per
loaded module.

A roll is what the web client does: tap the other player's last bubble (`tapMessage`; `openApp`
for the first) → the `app` frame with the view → `appEvent` with the Roll button's action → the
new bubble reaches the other player. Its time runs from the tap to that delivery."""
import asyncio
import json
import os
import subprocess
import time
from pathlib import Path

import parlor_driver
from app_trip import Player, paced
from servers import ParlorServer, ROOT, prioritize
from stats import ms, new_histogram, now_ns
import sys

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
import parlor_protocol as protocol  # noqa: E402  (docs/protocol.json's names)

APP = "org.example.dice"
SPINNER = "org.bench.spinner"
DICE_C = ROOT / "examples" / "dice-c"
DICE_PY = ROOT / "examples" / "dice"


def find_button(view, title):
    if view.get("type") == "button" and view.get("title") == title:
        return view["action"]
    for child in view.get("children", []):
        found = find_button(child, title)
        if found:
            return found
    return None


class Table:
    """Two players rolling in turn in one conversation."""

    def __init__(self, conversation, a, b):
        self.conversation = conversation
        self.players = [a, b]
        self.turn = 0
        self.last = None

    async def roll(self, histograms):
        mover, other = self.players[self.turn % 2], self.players[(self.turn + 1) % 2]
        conversation = self.conversation
        mover.drain()
        other.drain()
        tapped = now_ns()
        if self.last is None:
            await mover.member.send({"type": protocol.Client.openApp, "conversation": conversation, "app": APP})
        else:
            await mover.member.send({"type": protocol.Client.tapMessage, "conversation": conversation, "message": self.last})
        found = {}

        def view(frame):
            if frame["type"] != protocol.Server.app or frame.get("conversation") != conversation or not frame["update"]["isActive"]:
                return False
            found["action"] = find_button(frame["update"]["view"], "Roll")
            return found["action"] is not None

        _, viewed = await mover.wait(view)
        evented = now_ns()
        await mover.member.send({"type": protocol.Client.appEvent, "conversation": conversation, "app": APP,
                                 "event": {"kind": "action", "action": found["action"]}})
        delivered_frame, delivered = await other.wait(
            lambda f: f["type"] == protocol.Server.message and f["message"]["conversation"] == conversation and f["message"].get("app"))
        self.last = delivered_frame["message"]["id"]
        histograms["tap_to_view"].record_value(max(1, (viewed - tapped) // 1000))
        histograms["event_to_delivered"].record_value(max(1, (delivered - evented) // 1000))
        histograms["roll"].record_value(max(1, (delivered - tapped) // 1000))
        self.turn += 1


def add_module(server, module):
    added = subprocess.run([str(server.binary), "apps", "add", str(module), "--data-dir", str(server.data_dir)],
                           capture_output=True, text=True, check=True)
    assert "a WebAssembly app of" in added.stdout, added.stdout


async def rolls(server, config, log, extra_cpu=lambda: 0.0):
    """Pairs rolling at the app rate on a started server hosting Dice; the rolls' times and CPU."""
    members = []
    try:
        names = [f"roller{i}" for i in range(config.app_pairs * 2)]
        tokens = await parlor_driver.sign_up(server.port, names)
        tables = []
        for i in range(config.app_pairs):
            a, b = names[2 * i], names[2 * i + 1]
            conversation = await parlor_driver.create_conversation(server.port, tokens[a], None, [b])
            pair = []
            for name in (a, b):
                member = parlor_driver.ParlorMember(server, name, tokens[name], len(members))
                member.conversation = conversation
                members.append(member)
                pair.append(Player(member))
            tables.append(Table(conversation, *pair))
        await asyncio.gather(*(m.connect() for m in members))
        histograms = {k: new_histogram() for k in ("tap_to_view", "event_to_delivered", "roll")}
        warm = {k: new_histogram() for k in histograms}
        await paced(tables, config.app_rate, min(3.0, config.app_seconds / 3), lambda t: t.roll(warm))
        cpu_before, extra_before = server.cpu_seconds(), extra_cpu()
        count, failures = await paced(tables, config.app_rate, config.app_seconds, lambda t: t.roll(histograms))
        done = max(histograms["roll"].get_total_count(), 1)
        result = {name: {"p50": ms(h, 50), "p99": ms(h, 99)} for name, h in histograms.items()}
        result.update(rolls=histograms["roll"].get_total_count(), failures=failures,
                      server_cpu_per_roll=(server.cpu_seconds() - cpu_before) / done,
                      app_cpu_per_roll=(extra_cpu() - extra_before) / done)
        log(f"    roll p50 {result['roll']['p50']:.1f} ms p99 {result['roll']['p99']:.1f} ms (tap→view p50 {result['tap_to_view']['p50']:.1f}, "
            f"event→delivered p50 {result['event_to_delivered']['p50']:.1f}); {result['rolls']} rolls, {len(failures)} failures; "
            f"server CPU per roll {result['server_cpu_per_roll'] * 1e6:,.0f} µs"
            + (f", the app's process {result['app_cpu_per_roll'] * 1e6:,.0f} µs" if result["app_cpu_per_roll"] else ""))
        for failure in failures[:5]:
            log(f"    failure: {failure}")
        return result
    finally:
        await asyncio.gather(*(m.close() for m in members), return_exceptions=True)


async def wasm_rolls(work, config, log, module, metered=True):
    server = ParlorServer(work, extra=() if metered else ("--wasm-fuel-per-call", "0"))
    server.data_dir.mkdir(parents=True, exist_ok=True)
    add_module(server, module)
    server.start()
    try:
        return await rolls(server, config, log)
    finally:
        server.stop()


async def neighbour_rolls(work, config, log, module, spinner, neighbours=2):
    """Wasm rolls while `neighbours` people each open Spinner again and again, as fast as Parlor
    answers them: a call that loops until its budget or deadline stops it, or, once a person's
    calls have failed three times in a row, a refusal at once (`CallerBackoff`)."""
    server = ParlorServer(work)
    server.data_dir.mkdir(parents=True, exist_ok=True)
    add_module(server, module)
    add_module(server, spinner)
    server.start()
    members, tasks = [], []
    counts = {"ran": 0, "rested": 0}  # calls stopped by their budget or deadline; refused at once
    stop = asyncio.Event()
    try:
        names = [f"neighbour{i}" for i in range(neighbours)]
        tokens = await parlor_driver.sign_up(server.port, names + ["host"])
        for index, name in enumerate(names):
            conversation = await parlor_driver.create_conversation(server.port, tokens[name], None, ["host"])
            member = parlor_driver.ParlorMember(server, name, tokens[name], 1000 + index)
            member.conversation = conversation
            members.append(member)
        await asyncio.gather(*(m.connect() for m in members))
        await offered(server, tokens[names[0]], SPINNER)

        async def spin(member):
            player = Player(member)
            while not stop.is_set():
                player.drain()
                await member.send({"type": protocol.Client.openApp, "conversation": member.conversation, "app": SPINNER})
                # The app's failure comes in its update (`error`), as the person sees it.
                try:
                    frame, _ = await player.wait(
                        lambda f: f["type"] == protocol.Server.app and f.get("conversation") == member.conversation
                        and f["update"].get("error") is not None, timeout=15)
                    said = json.dumps(frame["update"]["error"])
                except RuntimeError as error:  # an `error` frame
                    said = str(error)
                except asyncio.TimeoutError:
                    said = "appUnavailable: no answer within 15 s"
                if "try again in" in said:
                    counts["rested"] += 1
                elif "appUnavailable" in said:
                    counts["ran"] += 1
                else:
                    raise RuntimeError(f"Spinner answered {said[:300]}")

        tasks = [asyncio.create_task(spin(m)) for m in members]
        await asyncio.sleep(1)
        result = await rolls(server, config, log)
        for task in tasks:
            if task.done() and task.exception():
                raise task.exception()
        result.update(neighbours=neighbours, spins_ran=counts["ran"], spins_rested=counts["rested"])
        log(f"    meanwhile {neighbours} neighbours opened Spinner {counts['ran'] + counts['rested']} times: {counts['ran']} calls ran "
            f"until stopped, {counts['rested']} were refused at once while their caller rested")
        return result
    finally:
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(*(m.close() for m in members), return_exceptions=True)
        server.stop()


async def process_rolls(work, config, log):
    """Dice in Python, in its own process dialled in, on the server's core (the same CPU budget)."""
    server = ParlorServer(work)
    server.data_dir.mkdir(parents=True, exist_ok=True)
    added = subprocess.run([str(server.binary), "apps", "add", str(DICE_PY / "manifest.json"), "--data-dir", str(server.data_dir)],
                           capture_output=True, text=True, check=True)
    secret = next(line.strip() for line in added.stdout.splitlines() if line.startswith("parlor_app_"))
    server.start()
    environment = dict(os.environ, PARLOR_URL=server.base_url, PARLOR_APP_SECRET=secret)
    log_file = open(server.data_dir / "dice.log", "w")
    app = subprocess.Popen(["taskset", "-c", os.environ.get("BENCH_APP_CORE", server.core), sys.executable, str(DICE_PY / "dice.py")],
                           env=environment, stdout=subprocess.DEVNULL, stderr=log_file, start_new_session=True)
    prioritize(app.pid)
    try:
        deadline = time.monotonic() + 30
        while "Parlor welcomed" not in (server.data_dir / "dice.log").read_text():
            if time.monotonic() > deadline or app.poll() is not None:
                raise RuntimeError("dice.py did not connect")
            await asyncio.sleep(0.05)

        def app_cpu():
            fields = Path(f"/proc/{app.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

        return await rolls(server, config, log, extra_cpu=app_cpu)
    finally:
        app.kill()
        app.wait()
        log_file.close()
        server.stop()


def renamed(module, folder, index):
    """The Dice module under the app id org.bench.dice<index> (its name too): another app to load."""
    manifest = json.loads((DICE_PY / "manifest.json").read_text())
    manifest.update(id=f"org.bench.dice{index}", name=f"Dice {index}")
    manifest_path = folder / f"manifest-{index}.json"
    manifest_path.write_text(json.dumps(manifest))
    out = folder / f"dice-{index}.wasm"
    out.write_bytes(module.read_bytes())
    subprocess.run([str(ROOT / "tools" / "wasm_embed_manifest.py"), str(out), str(manifest_path)], check=True)
    return out


async def offered(server, token, app, timeout=30):
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        apps = await asyncio.to_thread(parlor_driver.http_json, server.port, "GET", "/api/apps", None, token)
        if any(found["id"] == app for found in apps["apps"]):
            return time.monotonic() - started
        await asyncio.sleep(0.01)
    raise RuntimeError(f"{app} was not offered within {timeout} s")


async def adding_and_memory(work, config, log, module, count=20):
    """`parlor apps add` until the app is offered, for `count` modules, and the server's memory
    before and after (each opened once, so its code is translated)."""
    server = ParlorServer(work).start()
    folder = work / "modules"
    folder.mkdir(parents=True, exist_ok=True)
    members = []
    try:
        token = (await parlor_driver.sign_up(server.port, ["operator", "peer"]))["operator"]
        conversation = await parlor_driver.create_conversation(server.port, token, None, ["peer"])
        await asyncio.sleep(2)
        baseline = server.rss_bytes()
        modules = [renamed(module, folder, index) for index in range(count)]
        adds = []
        for index, path in enumerate(modules):
            started = time.monotonic()
            add_module(server, path)
            await offered(server, token, f"org.bench.dice{index}")
            adds.append(time.monotonic() - started)
        member = parlor_driver.ParlorMember(server, "operator", token, 0)
        member.conversation = conversation
        members.append(member)
        player = Player(member)
        await member.connect()
        for index in range(count):
            player.drain()
            await member.send({"type": protocol.Client.openApp, "conversation": conversation, "app": f"org.bench.dice{index}"})
            await player.wait(lambda f: f["type"] == protocol.Server.app and f["update"]["isActive"])
        await asyncio.sleep(2)
        loaded = server.rss_bytes()
        adds.sort()
        result = {"modules": count, "module_bytes": module.stat().st_size, "add_p50_ms": adds[len(adds) // 2] * 1000,
                  "add_max_ms": adds[-1] * 1000, "baseline": baseline, "loaded": loaded, "per_module": (loaded - baseline) / count}
        log(f"  adding a {result['module_bytes']:,}-byte module until it is offered: p50 {result['add_p50_ms']:.0f} ms, "
            f"max {result['add_max_ms']:.0f} ms (the command's own start included); {count} modules loaded and opened: "
            f"RSS {baseline / 2**20:.1f} → {loaded / 2**20:.1f} MiB ({result['per_module'] / 1024:.0f} KiB each)")
        return result
    finally:
        await asyncio.gather(*(m.close() for m in members), return_exceptions=True)
        server.stop()


async def measure(work, config, log):
    work.mkdir(parents=True, exist_ok=True)
    module = work / "dice.wasm"
    subprocess.run([str(DICE_C / "build"), str(module)], check=True, capture_output=True)
    log("  Dice as one WebAssembly file, run by the server:")
    wasm = await wasm_rolls(work / "wasm-in", config, log, module)
    log("  the same, fuel metering off (reported only):")
    unmetered = await wasm_rolls(work / "wasm-unmetered", config, log, module, metered=False)
    spinner = work / "spinner.wasm"
    subprocess.run([str(ROOT / "bench" / "harness" / "spinner" / "build"), str(spinner)], check=True, capture_output=True)
    log("  the same, while neighbours keep opening an app whose every call loops:")
    neighbours = await neighbour_rolls(work / "wasm-neighbours", config, log, module, spinner)
    log("  Dice in Python, in its own process:")
    process = await process_rolls(work / "wasm-process", config, log)
    loading = await adding_and_memory(work / "wasm-load", config, log, module)
    return {"wasm": wasm, "unmetered": unmetered, "neighbours": neighbours, "process": process, "loading": loading}
