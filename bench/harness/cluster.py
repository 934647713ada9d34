"""Scenario 6: two Parlor nodes on one PostgreSQL, against one node on the same PostgreSQL.

The room of scenario 1 (100 members, 200-byte messages, every member sends in turn), with its
members split between two `parlor serve --postgres` nodes: member i on node i mod 2, so half of
every message's deliveries cross from the node that committed it to the other one (NOTIFY of a
pointer, then a read from the store). The same ladder as scenario 1 finds each set-up's capacity
(deliveries/s with every message exactly once and p99 ≤ the limit); the two-node figure is
reported as a ratio of the one-node figure. Then both run at half the one-node capacity, and the
cross-node deliveries' p99 is set beside the one-node p99 at that rate.

Each node gets the same CPU budget in both set-ups: a CPU quota (`--cluster-node-cpu` cores, a
cgroup), node i pinned to core i, so that the second node adds CPU without taking it from the
harness or PostgreSQL, which are not pinned and use what the quotas leave. The default quota,
a quarter of a core, leaves room for the harness at two nodes' rate on a two-core machine; the
figure is a lower bound where the report shows the harness near a whole core. Without a
writable cgroup file system the nodes get a whole core each, and the report says so.
"""
import os
import subprocess
import tempfile
from pathlib import Path

import fanout
from servers import ALL_CORES, CpuQuota

ROOT = Path(__file__).resolve().parents[2]
PG_CLUSTER = ROOT / "scripts" / "pg-cluster"


class PostgresCluster:
    """A throwaway cluster from scripts/pg-cluster, free to use every core. Its directory is its
    own under /tmp: as root, the server runs as `postgres`, which cannot enter the harness's
    private work directory."""

    def __init__(self):
        self.directory = Path(tempfile.mkdtemp(prefix="parlor-bench-postgres-"))
        self.url = None

    def start(self):
        run = subprocess.run(["taskset", "-c", ALL_CORES, str(PG_CLUSTER), "start", str(self.directory)],
                             capture_output=True, text=True, timeout=900)
        if run.returncode != 0:
            raise RuntimeError(f"scripts/pg-cluster start failed: {run.stderr.strip()[-500:]}")
        self.url = run.stdout.strip().splitlines()[-1]
        self.bin = Path((self.directory / "bin").read_text().strip())
        return self

    def database(self, name):
        """A new, empty database; returns its URL."""
        subprocess.run([str(self.bin / "psql"), "--quiet", "--no-psqlrc", self.url, "--command", f"CREATE DATABASE {name}"],
                       check=True, capture_output=True, timeout=60)
        return self.url.rsplit("/", 1)[0] + "/" + name

    def cpu_seconds(self):
        """CPU time of the postmaster, its live backends, and the backends it has reaped."""
        try:
            postmaster = int((self.directory / "data" / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return 0.0
        ticks = os.sysconf("SC_CLK_TCK")
        total = 0
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue  # exited meanwhile
            pid, parent = int(entry), int(fields[1])
            if pid == postmaster:
                total += sum(int(x) for x in fields[11:15])  # utime stime cutime cstime
            elif parent == postmaster:
                total += int(fields[11]) + int(fields[12])
        return total / ticks

    def stop(self):
        subprocess.run([str(PG_CLUSTER), "stop", str(self.directory)], capture_output=True, timeout=120)


async def measure(work, config, log):
    """The one-node and two-node ladders and the latency at one shared rate."""
    postgres = PostgresCluster()
    quotas = []
    # bench/run pins the harness to one core; here it may use any, or one of the two nodes
    # would share its core with the whole harness and the other would not.
    harness_cores = os.sched_getaffinity(0)
    os.sched_setaffinity(0, range(os.cpu_count() or 1))
    rooms = {}
    try:
        postgres.start()
        log(f"  PostgreSQL at {postgres.url}")
        quotas = [CpuQuota.create(f"node{i}", config.cluster_node_cpu) for i in range(2)]
        cores = [str(i % (os.cpu_count() or 1)) for i in range(2)]
        if all(quotas):
            budget = f"a quota of {config.cluster_node_cpu:g} core each (cgroup cpu bandwidth), node i pinned to core i"
        else:
            budget = "one core each, node i pinned to core i (no writable cgroup for a quota)"
        log(f"  nodes get {budget}")
        limits = quotas if all(quotas) else [None, None]
        results = {"budget": budget, "node_cpu_quota": config.cluster_node_cpu if limits[0] else None, "members": config.members}
        rooms = {
            "one": fanout.Room("parlor", work / "cluster-one", config.members, log, nodes=1, postgres=postgres.database("one_node"),
                               cores=cores[:1], quotas=limits[:1], label="1 node"),
            "two": fanout.Room("parlor", work / "cluster-two", config.members, log, nodes=2, postgres=postgres.database("two_nodes"),
                               cores=cores, quotas=limits, label="2 nodes"),
        }
        for room in rooms.values():
            room.watch["postgres"] = postgres.cpu_seconds
        for key, room in rooms.items():
            await room.start()
            try:
                best, steps = await fanout.ladder(room, config, log)
            finally:
                await room.stop()
            results[key] = {"best": best, "steps": steps}
        one_capacity = results["one"]["best"]["offered"] if results["one"]["best"] else config.ladder_min
        rate = one_capacity / 2
        results["rate"] = rate
        log(f"  latency at {rate:.0f} deliveries/s (half the one-node capacity)")
        for key, room in rooms.items():
            await room.start()
            try:
                await room.run(rate, config.warmup)
                step = await room.run(rate, config.latency_seconds)
            finally:
                await room.stop()
            log(f"  {room.label:7s} {fanout._describe(step)}")
            results[key]["latency"] = step
        return results
    finally:
        for room in rooms.values():
            await room.stop()
        postgres.stop()
        os.sched_setaffinity(0, harness_cores)
        for quota in quotas:
            if quota is not None:
                quota.remove()
