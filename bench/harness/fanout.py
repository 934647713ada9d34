"""Scenarios 1 and 2: a 100-member room, 200-byte messages, an open-loop rate ladder.

A `Room` is one server process with its members connected; the same code drives Parlor (a
conversation over the JSON WebSocket protocol) and its XMPP peers, Prosody and ejabberd (a
multi-user chat room with its message archive; slixmpp signs in and joins: xmpp_driver). Once
signed in, every server's members are read by receiver processes that scan raw bytes (receiver.py).
Every member sends in turn and every member (the sender too: Parlor fans out to the sender's
connections, a MUC reflects to the sender) receives each message, so a message is 100 deliveries.
"""
import asyncio
import itertools
import os
import time

import parlor_driver
import receiver
import xmpp_driver
from servers import SERVER_CORE, XMPP_SERVERS, ParlorServer
from stats import DeliveryLedger, bench_text, ms, now_ns

_numbers = itertools.count(1)
# A rung on which the client harness used more than this share of its CPU (of one core, or of
# each core it may run on) measured the client, not the server: it is invalid, neither a pass
# nor a failure of the server.
CLIENT_CPU_LIMIT = float(os.environ.get("BENCH_CLIENT_CPU_LIMIT", "0.7"))


class Room:
    """`nodes`, `postgres`, `cores`, `quotas` (Parlor only): several `parlor serve` processes on
    one PostgreSQL database, member i connected to node i mod nodes; node i pinned to cores[i]
    and held to quotas[i] (a `CpuQuota`) when given."""

    def __init__(self, kind, data_dir, members, log, nodes=1, postgres=None, cores=None, quotas=None, label=None,
                 receivers=1):
        """`receivers`: processes that read the members' sockets once they signed in (and joined,
        for the peers): receiver.ReceiverPool, one code path for every server; 0 reads them in
        this process (Parlor: with the `websockets` library, parlor_driver.ParlorMember)."""
        self.kind = kind
        self.receivers = receivers
        self.pool = None
        self.pool_errors = 0
        self.pool_closed = 0
        self.closed_at_start = 0
        self.label = label or kind
        self.data_dir = data_dir
        self.size = members
        self.log = log
        self.nodes = nodes
        self.postgres = postgres
        self.cores = cores or [SERVER_CORE] * nodes
        self.quotas = quotas or [None] * nodes
        self.servers = []
        self.watch = {}  # name -> a function returning CPU seconds: other processes whose use each run reports
        self.members = []
        self.prepared = False
        self.ledger = None

    @property
    def server(self):
        return self.servers[0]

    async def start(self):
        if self.kind == "parlor":
            self.servers = [ParlorServer(self.data_dir / f"node{i}" if self.nodes > 1 else self.data_dir, core=self.cores[i],
                                         postgres=self.postgres, cpu_quota=self.quotas[i]) for i in range(self.nodes)]
            for server in self.servers:
                server.start()
            await self._parlor_members()
        else:
            self.servers = [XMPP_SERVERS[self.kind](self.data_dir).start()]
            await self._xmpp_members()
        self.prepared = True
        self.closed_at_start = self.pool_closed

    def node_of(self, member):
        return member % self.nodes

    async def _parlor_members(self):
        names = [f"member{i}" for i in range(self.size)]
        if not self.prepared:
            self.tokens = await parlor_driver.sign_up(self.server.port, names)
            self.conversation = await parlor_driver.create_conversation(
                self.server.port, self.tokens[names[0]], "Benchmark room", names[1:])
        if self.receivers > 0:
            self.members = [parlor_driver.RawParlorMember(self.servers[self.node_of(i)], name, self.tokens[name], i)
                            for i, name in enumerate(names)]
        else:
            self.members = [parlor_driver.ParlorMember(self.servers[self.node_of(i)], name, self.tokens[name], i, self._on_text)
                            for i, name in enumerate(names)]
        for member in self.members:
            member.conversation = self.conversation
        await _gather_limited([m.connect() for m in self.members], 20)
        if self.receivers > 0:
            self.pool = receiver.ReceiverPool(self.receivers, self._on_marker, self._on_error, self._on_ping, self._on_close)
            for member in self.members:
                member.hand_over(self.pool)

    async def _xmpp_members(self):
        names = [f"member{i}" for i in range(self.size)]
        if not self.prepared:
            self.server.add_accounts([(name, xmpp_driver.PASSWORD) for name in names])
        self.members = [xmpp_driver.XmppMember(self.server, name, i, self._on_marker) for i, name in enumerate(names)]
        await _gather_limited([m.connect() for m in self.members], 20)
        await self.members[0].join("benchmark")  # creates the room (persistent, archived)
        await _gather_limited([m.join("benchmark") for m in self.members[1:]], 20)
        if self.receivers > 0:
            self.pool = receiver.ReceiverPool(self.receivers, self._on_marker, self._on_error, on_close=self._on_close)
            for member in self.members:
                member.hand_over(self.pool)

    def _on_text(self, receiver, text, at):
        if self.ledger is not None:
            self.ledger.on_text(receiver, text, at)

    def _on_marker(self, receiver, number, intended, at):
        if self.ledger is not None:
            self.ledger.delivered_to(receiver, number, intended, at)

    def _on_error(self, receiver):
        self.pool_errors += 1

    def _on_close(self, receiver):
        """The server closed a member's socket during a rung (Parlor closes a connection that
        falls too far behind its messages): the rung's missing messages then say nothing of the
        server's rate."""
        self.pool_closed += 1

    def _on_ping(self, index, payload):
        """A WebSocket ping read by a receiver process: answered here, the socket's one writer."""
        if index < len(self.members):
            self.members[index].pong(payload)

    def client_cpu_seconds(self):
        """This process's CPU time and each receiver process's."""
        return [time.process_time(), *(self.pool.cpu_seconds() if self.pool else [])]

    async def stop(self):
        if self.pool is not None:
            self.pool.close()
            self.pool = None
        await asyncio.gather(*(m.close() for m in self.members), return_exceptions=True)
        self.members = []
        for server in self.servers:
            server.stop()

    async def restart(self):
        await self.stop()
        await asyncio.sleep(0.5)
        await self.start()

    async def run(self, deliveries_per_second, duration, grace=15.0):
        """Sends at a fixed rate (open loop: the schedule never waits for the server) and waits
        for every delivery; latency counts from the scheduled send time. Members the server
        closed before it (in a warm-up) are connected again first."""
        if self.pool_closed > self.closed_at_start:
            await self.restart()
        messages_per_second = deliveries_per_second / self.size
        total = max(1, int(messages_per_second * duration))
        ledger = DeliveryLedger(self.size, self.node_of if self.nodes > 1 else None)
        self.ledger = ledger
        cpu0, wall0 = self.client_cpu_seconds(), time.monotonic()
        errors0, closed0 = self.pool_errors, self.pool_closed
        node_cpu0 = [server.cpu_seconds() for server in self.servers]
        throttled0 = [quota.throttled_seconds() if quota else 0.0 for quota in self.quotas]
        watched0 = {name: cpu_seconds() for name, cpu_seconds in self.watch.items()}
        start = now_ns() + 20_000_000
        interval = 1e9 / messages_per_second
        sent = 0
        while sent < total:
            now = now_ns()
            due = min(total, int((now - start) / interval) + 1) if now >= start else 0
            while sent < due:
                intended = start + int(sent * interval)
                number = next(_numbers)
                ledger.expect(number, intended, sent % self.size)
                self.members[sent % self.size].send_text(bench_text(number, intended))
                sent += 1
            next_at = start + sent * interval
            await asyncio.sleep(max(0.0, min(0.002, (next_at - now_ns()) / 1e9)))
        send_end = now_ns()
        deadline = time.monotonic() + grace
        while not ledger.complete() and time.monotonic() < deadline and all(server.alive() for server in self.servers):
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.2)  # late duplicates show up here
        if self.pool is not None:
            self.pool.flush()
        wall = time.monotonic() - wall0
        client_cpu = [(after - before) / wall for after, before in zip(self.client_cpu_seconds(), cpu0)]
        node_cpu = [(server.cpu_seconds() - before) / wall for server, before in zip(self.servers, node_cpu0)]
        self.ledger = None
        errors = sum(len(m.errors) if isinstance(m.errors, list) else m.errors for m in self.members) + self.pool_errors - errors0
        span = max(1, (ledger.last_delivery_ns or send_end) - start) / 1e9
        result = {
            "offered": deliveries_per_second, "duration": duration, **ledger.summary(), "errors": errors,
            "closed": self.pool_closed - closed0,
            "achieved": ledger.delivered / span,
            "p50": ms(ledger.per_delivery, 50), "p99": ms(ledger.per_delivery, 99), "max": ledger.per_delivery.get_max_value() / 1000,
            "last_p50": ms(ledger.to_last, 50), "last_p99": ms(ledger.to_last, 99),
            "client_cpu": sum(client_cpu), "client_processes": client_cpu, "server_cpu": sum(node_cpu),
            "exactly_once": ledger.exactly_once() and errors == 0,
        }
        result["valid"] = client_valid(result)
        if self.nodes > 1:
            result["node_cpu"] = node_cpu
            result["cross_p50"], result["cross_p99"] = ms(ledger.cross_node, 50), ms(ledger.cross_node, 99)
            result["same_p50"], result["same_p99"] = ms(ledger.same_node, 50), ms(ledger.same_node, 99)
        if self.watch:
            result["watched_cpu"] = {name: (self.watch[name]() - before) / wall for name, before in watched0.items()}
        if any(self.quotas):
            result["throttled"] = [(quota.throttled_seconds() - before) / wall if quota else 0.0
                                   for quota, before in zip(self.quotas, throttled0)]
        return result


async def _gather_limited(coroutines, limit):
    semaphore = asyncio.Semaphore(limit)

    async def run(coroutine):
        async with semaphore:
            return await coroutine

    return await asyncio.gather(*(run(c) for c in coroutines))


def client_valid(step):
    """Whether the client harness stayed under CLIENT_CPU_LIMIT: in total (of the cores it may
    use) and in its busiest process (of one core)."""
    processes = step.get("client_processes") or [step["client_cpu"]]
    cores = len(os.sched_getaffinity(0))  # the cores the harness (and its receivers) may use now
    return step["client_cpu"] <= CLIENT_CPU_LIMIT * cores and max(processes) <= CLIENT_CPU_LIMIT


def verdict(step, p99_limit_ms):
    """pass, fail (the server missed: a message lost or doubled, or p99 over the limit), or
    invalid (the client harness used too much CPU for the rung to say anything of the server, or
    read too slowly: the server closed members that fell behind, and what they would have sent
    and received since is missing). A doubled message fails the rung whatever the client did; a
    lost one too, unless the server closed a member."""
    if step["duplicates"]:
        return "fail"
    if step.get("closed"):
        return "invalid"
    if not step["exactly_once"]:
        return "fail"
    if not step.get("valid", True):
        return "invalid"
    return "pass" if step["p99"] <= p99_limit_ms else "fail"


def passes(step, p99_limit_ms):
    return verdict(step, p99_limit_ms) == "pass"


_RANK = {"pass": 2, "fail": 1, "invalid": 0}


async def attempt(room, rate, config, log, steps):
    """One rung; a rung that did not pass is tried once more, since a shared machine's hiccups
    can push one run's p99 over the limit (or the client's CPU over its limit) at any rate.
    Returns the better of the tries: a pass, else a failure seen with the client within its CPU
    limit, else the invalid rung."""
    tries = []
    for _ in range(2):
        if tries:
            await room.restart()
            await room.run(rate / 2, config.warmup)
        step = await room.run(rate, config.step_seconds)
        step["verdict"] = verdict(step, config.p99_limit_ms)
        steps.append(step)
        tries.append(step)
        log(f"  {room.label:8s} {_describe(step)}")
        if step["verdict"] == "pass":
            break
    return max(tries, key=lambda step: _RANK[step["verdict"]])


async def ladder(room, config, log):
    """The highest offered rate (deliveries/s) at which every message arrived exactly once with
    p99 delivery latency within the limit, with the client harness within its CPU limit.
    Doubling from `start` until two rungs in a row fail (each tried twice: one failing rung on a
    shared machine may be a hiccup; one far behind its offered rate ends the climb) or one is
    invalid (the client, not the server, was the limit: a higher rung would measure it even
    more), or halving when nothing passes; then finer rungs between the best pass and the rung
    above it. The server restarts after a rung that did not pass (it may be backlogged)."""
    limit = config.p99_limit_ms
    steps = []
    await room.run(config.ladder_start, config.warmup)  # warm-up, not counted
    best, failures, rate = None, 0, config.ladder_start
    while rate <= config.ladder_max and failures < 2:
        step = await attempt(room, rate, config, log, steps)
        if step["verdict"] == "pass":
            best, failures = step, 0
        else:
            failures += 1
            if step["verdict"] == "invalid":
                failures = 2  # the client is the limit: a higher rung cannot say more of the server
            elif step["achieved"] < 0.9 * step["offered"]:
                failures = 2  # saturated: the server fell far behind, a higher rung cannot pass
            await room.restart()
            await room.run(config.ladder_start, config.warmup)
        rate *= 2
    rate = config.ladder_start / 2
    while best is None and rate >= config.ladder_min:
        step = await attempt(room, rate, config, log, steps)
        if step["verdict"] == "pass":
            best = step
        else:
            await room.restart()
            if step["verdict"] == "invalid":
                break
        rate /= 2
    if best is not None and failures:
        low, high = best["offered"], best["offered"] * 2
        for i in range(1, config.refine_steps + 1):
            rate = low * (high / low) ** (i / (config.refine_steps + 1))
            step = await attempt(room, rate, config, log, steps)
            if step["verdict"] != "pass":
                await room.restart()
                break
            best = step
    return best, steps


def limited_by_client(best, steps):
    """Whether the rung that ended the climb above `best` was invalid (so `best` is a lower
    bound of the server's capacity, set by the client harness)."""
    floor = best["offered"] if best else 0.0
    above = [step for step in steps if step["offered"] > floor]
    if not above:
        return False
    lowest = min(step["offered"] for step in above)
    tries = [step for step in above if step["offered"] == lowest]
    return all(step.get("verdict") == "invalid" for step in tries)


def _describe(step):
    return (f"offered {step['offered']:9.0f}/s achieved {step['achieved']:9.0f}/s p50 {step['p50']:8.1f} ms p99 {step['p99']:8.1f} ms "
            f"to-last p99 {step['last_p99']:8.1f} ms missing {step['missing']} dup {step['duplicates']} err {step['errors']} closed {step.get('closed', 0)} "
            f"client cpu {step['client_cpu']:.0%} server cpu {step['server_cpu']:.0%}"
            + (f" {step['verdict']}" if "verdict" in step else ""))
