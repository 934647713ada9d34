"""Scenarios 1 and 2: a 100-member room, 200-byte messages, an open-loop rate ladder.

A `Room` is one server process with its members connected; the same code drives Parlor (a
conversation over the JSON WebSocket protocol) and Prosody (a multi-user chat room over slixmpp).
Every member sends in turn and every member (the sender too: Parlor fans out to the sender's
connections, a MUC reflects to the sender) receives each message, so a message is 100 deliveries.
"""
import asyncio
import itertools
import time

import parlor_driver
import xmpp_driver
from servers import SERVER_CORE, ParlorServer, ProsodyServer
from stats import DeliveryLedger, bench_text, ms, now_ns

_numbers = itertools.count(1)


class Room:
    """`nodes`, `postgres`, `cores`, `quotas` (Parlor only): several `parlor serve` processes on
    one PostgreSQL database, member i connected to node i mod nodes; node i pinned to cores[i]
    and held to quotas[i] (a `CpuQuota`) when given."""

    def __init__(self, kind, data_dir, members, log, nodes=1, postgres=None, cores=None, quotas=None, label=None):
        self.kind = kind
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
            self.servers = [ProsodyServer(self.data_dir).start()]
            await self._prosody_members()
        self.prepared = True

    def node_of(self, member):
        return member % self.nodes

    async def _parlor_members(self):
        names = [f"member{i}" for i in range(self.size)]
        if not self.prepared:
            self.tokens = await parlor_driver.sign_up(self.server.port, names)
            self.conversation = await parlor_driver.create_conversation(
                self.server.port, self.tokens[names[0]], "Benchmark room", names[1:])
        self.members = [parlor_driver.ParlorMember(self.servers[self.node_of(i)], name, self.tokens[name], i, self._on_text)
                        for i, name in enumerate(names)]
        for member in self.members:
            member.conversation = self.conversation
        await _gather_limited([m.connect() for m in self.members], 20)

    async def _prosody_members(self):
        names = [f"member{i}" for i in range(self.size)]
        if not self.prepared:
            self.server.add_accounts([(name, xmpp_driver.PASSWORD) for name in names])
        self.members = [xmpp_driver.XmppMember(self.server, name, i, self._on_text) for i, name in enumerate(names)]
        await _gather_limited([m.connect() for m in self.members], 20)
        await self.members[0].join("benchmark")  # creates the room (persistent, archived)
        await _gather_limited([m.join("benchmark") for m in self.members[1:]], 20)

    def _on_text(self, receiver, text, at):
        if self.ledger is not None:
            self.ledger.on_text(receiver, text, at)

    async def stop(self):
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
        for every delivery; latency counts from the scheduled send time."""
        messages_per_second = deliveries_per_second / self.size
        total = max(1, int(messages_per_second * duration))
        ledger = DeliveryLedger(self.size, self.node_of if self.nodes > 1 else None)
        self.ledger = ledger
        cpu0, wall0 = time.process_time(), time.monotonic()
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
        wall = time.monotonic() - wall0
        node_cpu = [(server.cpu_seconds() - before) / wall for server, before in zip(self.servers, node_cpu0)]
        self.ledger = None
        errors = sum(len(m.errors) if isinstance(m.errors, list) else m.errors for m in self.members)
        span = max(1, (ledger.last_delivery_ns or send_end) - start) / 1e9
        result = {
            "offered": deliveries_per_second, "duration": duration, **ledger.summary(), "errors": errors,
            "achieved": ledger.delivered / span,
            "p50": ms(ledger.per_delivery, 50), "p99": ms(ledger.per_delivery, 99), "max": ledger.per_delivery.get_max_value() / 1000,
            "last_p50": ms(ledger.to_last, 50), "last_p99": ms(ledger.to_last, 99),
            "client_cpu": (time.process_time() - cpu0) / wall, "server_cpu": sum(node_cpu),
            "exactly_once": ledger.exactly_once() and errors == 0,
        }
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


def passes(step, p99_limit_ms):
    return step["exactly_once"] and step["p99"] <= p99_limit_ms


async def attempt(room, rate, config, log, steps):
    """One rung; a failing rung is tried once more, since a shared machine's hiccups can push one
    run's p99 over the limit at any rate. Returns the better of the tries."""
    step = None
    for _ in range(2):
        if step is not None:
            await room.restart()
            await room.run(rate / 2, config.warmup)
        step = await room.run(rate, config.step_seconds)
        steps.append(step)
        log(f"  {room.label:7s} {_describe(step)}")
        if passes(step, config.p99_limit_ms):
            return step
    return step


async def ladder(room, config, log):
    """The highest offered rate (deliveries/s) at which every message arrived exactly once with
    p99 delivery latency within the limit. Doubling from `start` until two rungs in a row fail
    (each tried twice: one failing rung on a shared machine may be a hiccup; one far behind its
    offered rate ends the climb), or halving when
    nothing passes; then finer rungs between the best pass and the rung above it. The server
    restarts after a failing rung (it may be backlogged)."""
    limit = config.p99_limit_ms
    steps = []
    await room.run(config.ladder_start, config.warmup)  # warm-up, not counted
    best, failures, rate = None, 0, config.ladder_start
    while rate <= config.ladder_max and failures < 2:
        step = await attempt(room, rate, config, log, steps)
        if passes(step, limit):
            best, failures = step, 0
        else:
            failures += 1
            if step["achieved"] < 0.9 * step["offered"]:
                failures = 2  # saturated: the server fell far behind, a higher rung cannot pass
            await room.restart()
            await room.run(config.ladder_start, config.warmup)
        rate *= 2
    rate = config.ladder_start / 2
    while best is None and rate >= config.ladder_min:
        step = await attempt(room, rate, config, log, steps)
        if passes(step, limit):
            best = step
        else:
            await room.restart()
        rate /= 2
    if best is not None and failures:
        low, high = best["offered"], best["offered"] * 2
        for i in range(1, config.refine_steps + 1):
            rate = low * (high / low) ** (i / (config.refine_steps + 1))
            step = await attempt(room, rate, config, log, steps)
            if not passes(step, limit):
                await room.restart()
                break
            best = step
    return best, steps


def _describe(step):
    return (f"offered {step['offered']:9.0f}/s achieved {step['achieved']:9.0f}/s p50 {step['p50']:8.1f} ms p99 {step['p99']:8.1f} ms "
            f"to-last p99 {step['last_p99']:8.1f} ms missing {step['missing']} dup {step['duplicates']} err {step['errors']} "
            f"client cpu {step['client_cpu']:.0%} server cpu {step['server_cpu']:.0%}")
