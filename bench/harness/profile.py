"""Profiles Parlor under one scenario's load, to find what limits a missed target.

usage: bench/profile fanout|app|durable|idle|cluster|reads|prosody-fanout|ejabberd-fanout [--tool T] [--seconds S] [--rate R]

CPU: perf (Debian's linux-perf) when `perf stat -e instructions true` counts instructions on
this machine; otherwise the issue names valgrind --tool=callgrind, which cannot run Parlor's
Swift 6 binary with valgrind 3.19 (see bench/README.md), so perf samples the cpu-clock software
event instead (`--tool callgrind` still tries it). Heap: heaptrack. Waiting: strace -c -w -f, the
wall time in each system call (fdatasync is where a durable commit waits); `prosody-fanout` and
`ejabberd-fanout` attach it to the peer. Output goes to bench/results/profile-*.txt.
"""
import argparse
import asyncio
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

import app_trip
import cluster
import durable
import fanout
import idle
import reads
import wasm
from servers import ParlorServer

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "bench" / "results"


def perf_counts_instructions():
    try:
        run = subprocess.run(["perf", "stat", "-x,", "-e", "instructions", "true"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return run.returncode == 0 and "not supported" not in run.stderr and "not counted" not in run.stderr


def stripped_binary():
    """valgrind 3.19 cannot read the debug info of Swift 6 binaries ("possibly corrupted
    debuginfo"): profile a copy without it (the symbol table stays, so functions keep their names),
    beside the original so that its resource bundles are found."""
    import servers
    copy = servers.PARLOR.with_name("parlor-profiled")
    if not copy.exists() or copy.stat().st_mtime < servers.PARLOR.stat().st_mtime:
        subprocess.run(["objcopy", "--strip-debug", str(servers.PARLOR), str(copy)], check=True)
    return copy


class Profiled(ParlorServer):
    """Parlor started under a profiler (or with strace attached once it runs)."""

    def __init__(self, data_dir, tool, out, **kwargs):
        self.tool, self.out = tool, out
        wrapper = {
            "callgrind": ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--separate-threads=no"],
            "massif": ["valgrind", "--tool=massif", f"--massif-out-file={out}", "--threshold=0.5", "--detailed-freq=1000000"],
            "perf": ["perf", "record", "-g", "-o", str(out)],
            # Without hardware counters (a VM) and with valgrind crashing on the Swift runtime
            # ("Valgrind received a signal 11"), perf samples the cpu-clock software event.
            "perf-cpu-clock": ["perf", "record", "-e", "cpu-clock", "-F", "2000", "-g", "-o", str(out)],
            "heaptrack": ["heaptrack", "-o", str(out)],
            "strace": [],
        }[tool]
        super().__init__(data_dir, wrapper=wrapper, **kwargs)
        if tool in ("callgrind", "massif"):
            self.binary = stripped_binary()

    def start(self):
        super().start()
        if self.tool == "strace":
            self.tracer = subprocess.Popen(["strace", "-c", "-w", "-f", "-p", str(self.process.pid), "-o", str(self.out)],
                                           stderr=subprocess.DEVNULL)
            time.sleep(1)
        return self

    def stop(self):
        if self.tool == "strace":
            self.tracer.terminate()
            self.tracer.wait(timeout=30)
        super().stop()


async def load(scenario, tool, out, seconds, rate, work):
    def server_factory(data_dir, **kwargs):
        return Profiled(data_dir, tool, out, **kwargs)

    fanout.ParlorServer = server_factory
    app_trip.ParlorServer = server_factory
    durable.ParlorServer = server_factory
    reads.ParlorServer = server_factory
    if scenario in ("prosody-fanout", "ejabberd-fanout"):
        # A peer, for comparison: strace's wall time per system call of its threads.
        kind = scenario.split("-")[0]
        room = fanout.Room(kind, work / kind, 100, print)
        await room.start()
        tracer = subprocess.Popen(["strace", "-c", "-w", "-f", "-p", str(room.server.process.pid), "-o", str(out)],
                                  stderr=subprocess.DEVNULL)
        await asyncio.sleep(1)
        try:
            step = await room.run(rate, seconds, grace=60)
            print(fanout._describe(step))
        finally:
            tracer.terminate()
            tracer.wait(timeout=30)
            await room.stop()
    elif scenario == "fanout":
        room = fanout.Room("parlor", work / "room", 100, print)
        await room.start()
        try:
            step = await room.run(rate, seconds, grace=120)
            print(fanout._describe(step))
        finally:
            await room.stop()
    elif scenario == "cluster":
        # Two nodes on one PostgreSQL, members split between them; node 1 runs under the profiler.
        # Each node commits half the messages and fans out the other half from notifications.
        def node_factory(data_dir, **kwargs):
            return server_factory(data_dir, **kwargs) if Path(data_dir).name == "node1" else ParlorServer(data_dir, **kwargs)

        fanout.ParlorServer = node_factory
        postgres = cluster.PostgresCluster().start()
        room = fanout.Room("parlor", work / "cluster", 100, print, nodes=2, postgres=postgres.database("profiled"), cores=["0", "1"])
        try:
            await room.start()
            step = await room.run(rate, seconds, grace=120)
            print(fanout._describe(step), "node cpu", step["node_cpu"])
        finally:
            await room.stop()
            postgres.stop()
    elif scenario == "app":
        config = SimpleNamespace(app_pairs=4, app_rate=rate / 100, app_seconds=seconds)
        await app_trip.measure(work / "app", config, print)
    elif scenario == "wasm":
        # Dice as one WebAssembly file, rolled by pairs (scenario 10's first part).
        wasm.ParlorServer = server_factory
        config = SimpleNamespace(app_pairs=4, app_rate=rate / 100, app_seconds=seconds)
        module = work / "dice.wasm"
        subprocess.run([str(wasm.DICE_C / "build"), str(module)], check=True, capture_output=True)
        await wasm.wasm_rolls(work / "wasm", config, print, module)
    elif scenario == "wasm-tictactoe":
        # Tic-Tac-Toe's Embedded Swift port as one WebAssembly file, played by pairs (scenario 7's third part).
        config = SimpleNamespace(app_pairs=4, app_rate=rate / 100, app_seconds=seconds)
        module = work / "tictactoe.wasm"
        import servers
        subprocess.run([str(servers.PARLOR), "apps", "build", str(ROOT / "examples" / "tictactoe-wasm"), "-o", str(module)],
                       check=True, capture_output=True)
        await app_trip.measure(work / "wasm-tictactoe", config, print, wasm=module)
    elif scenario == "reads":
        # Mostly reads (each moving the mark by one), after the messages they read are written.
        count = int(rate * seconds)
        await reads.measure(work / "reads", print, short=count, long=count + 1, reads=count)
    elif scenario == "idle":
        idle.ParlorServer = server_factory
        await idle.measure("parlor", work / "idle", int(rate), 2, print, settle=seconds)
    else:
        await durable.commit_rate(work, "full", 64, seconds, print)


def perf_text(data):
    """Where the CPU went: by library, by function including callees, by function alone."""
    def report(*arguments):
        run = subprocess.run(["perf", "report", "-i", str(data), "--stdio", "-g", "none", *arguments], capture_output=True, text=True)
        return "\n".join(line for line in run.stdout.splitlines() if line and not line.startswith("#"))

    return demangle("== by library (self) ==\n" + report("--no-children", "--sort", "dso") +
                    "\n\n== by function, including callees (>= 3%) ==\n" + report("--children", "--sort", "symbol", "--percent-limit", "3") +
                    "\n\n== by function, self (>= 0.7%) ==\n" + report("--no-children", "--sort", "symbol", "--percent-limit", "0.7"))


def demangle(text):
    try:
        return subprocess.run(["swift", "demangle", "--simplified"], input=text, capture_output=True, text=True, timeout=120).stdout or text
    except (OSError, subprocess.TimeoutExpired):
        return text


def main():
    parser = argparse.ArgumentParser(prog="bench/profile")
    parser.add_argument("scenario", choices=["fanout", "app", "wasm", "wasm-tictactoe", "durable", "idle", "cluster", "reads", "prosody-fanout", "ejabberd-fanout"])
    parser.add_argument("--connections", type=int, default=500, help="idle sessions (with --tool massif)")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rate", type=float, default=500.0, help="deliveries/s for fanout and cluster; moves/s ×100 for app; reads/s for reads")
    parser.add_argument("--tool", choices=["auto", "perf", "perf-cpu-clock", "callgrind", "massif", "heaptrack", "strace"], default="auto")
    options = parser.parse_args()
    tool = options.tool
    if options.scenario in ("prosody-fanout", "ejabberd-fanout"):
        tool = "strace"
    if tool == "auto":
        # callgrind is the fallback the issue names, but valgrind 3.19 crashes on the Swift runtime
        # here (see bench/README.md), so without instruction counters perf samples the cpu clock.
        tool = "perf" if perf_counts_instructions() else "perf-cpu-clock"
    OUT.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    raw = Path(tempfile.mkdtemp(prefix="parlor-profile-"))
    out = raw / f"{tool}.out"
    rate = options.connections if options.scenario == "idle" else options.rate
    asyncio.run(load(options.scenario, tool, out, options.seconds, rate, raw))
    report = OUT / f"profile-{options.scenario}-{tool}-{stamp}.txt"
    if tool == "callgrind":
        text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=99", str(out)], capture_output=True, text=True).stdout
        exclusive = subprocess.run(["callgrind_annotate", "--threshold=95", str(out)], capture_output=True, text=True).stdout
        text = "== inclusive ==\n" + "\n".join(text.splitlines()[:80]) + "\n\n== exclusive ==\n" + "\n".join(exclusive.splitlines()[:60])
        text = demangle(text)
    elif tool == "massif":
        text = subprocess.run(["ms_print", str(out)], capture_output=True, text=True).stdout
        text = demangle(text)
    elif tool == "heaptrack":
        found = sorted(raw.glob("heaptrack.out*"))
        text = subprocess.run(["heaptrack_print", "--print-peaks", "1", "--print-allocators", "0", "--print-temporary", "0",
                               "--print-leaks", "0", "-n", "15", "-s", "8", str(found[-1])],
                              capture_output=True, text=True).stdout if found else "no heaptrack output"
    elif tool.startswith("perf"):
        text = perf_text(out)
    else:
        text = out.read_text()
    report.write_text(f"bench/profile {' '.join(sys.argv[1:])} ({tool})\n\n{text}")
    print(f"Profile: {report}")


if __name__ == "__main__":
    main()
