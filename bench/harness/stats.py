"""Latency histograms and the exactly-once delivery ledger shared by every scenario."""
import re
import time

from hdrh.histogram import HdrHistogram

# A benchmark message's text: a marker with the message number and the intended send time
# (CLOCK_MONOTONIC nanoseconds, the same clock in every process of this machine), padded.
MARKER = re.compile(r"BENCH (\d{9}) (\d{19}) ")
MESSAGE_BYTES = 200
HEAD_BYTES = 36  # "BENCH " + 9 digits + " " + 19 digits + " ": what a raw reader scans for


def now_ns():
    return time.monotonic_ns()


def bench_text(number, intended_ns, size=MESSAGE_BYTES):
    head = f"BENCH {number:09d} {intended_ns:019d} "
    return head + "x" * max(0, size - len(head))


def new_histogram():
    """Microseconds, 1 µs to 100 s, 3 significant digits."""
    return HdrHistogram(1, 100_000_000, 3)


def ms(histogram, percentile):
    return histogram.get_value_at_percentile(percentile) / 1000.0


class DeliveryLedger:
    """Counts every delivery of every message to every receiver.

    A message is complete when each of its receivers got it once; a second copy is a duplicate
    and fails the run. Latencies are recorded per delivery and per message (to the last receiver).
    """

    def __init__(self, receivers, node_of=None):
        """`node_of(member index)`: the node a member is connected to, when there are several;
        deliveries are then also counted apart by whether they crossed from one node to another."""
        self.receivers = receivers
        self.node_of = node_of
        self.senders = {}       # number -> sender index (with node_of)
        self.cross_node = new_histogram()
        self.same_node = new_histogram()
        self.sent = {}          # number -> intended send time (ns)
        self.counts = {}        # number -> bytearray, one count per receiver index
        self.remaining = {}     # number -> receivers still waiting
        self.last = {}          # number -> latest delivery time (ns)
        self.per_delivery = new_histogram()
        self.to_last = new_histogram()
        self.duplicates = 0
        self.unexpected = 0
        self.delivered = 0
        self.first_delivery_ns = None
        self.last_delivery_ns = None

    def expect(self, number, intended_ns, sender=None):
        self.sent[number] = intended_ns
        if self.node_of is not None:
            self.senders[number] = sender
        self.counts[number] = bytearray(self.receivers)
        self.remaining[number] = self.receivers

    def delivered_to(self, receiver, number, intended_ns, at_ns):
        counts = self.counts.get(number)
        if counts is None:
            self.unexpected += 1
            return
        if counts[receiver]:
            self.duplicates += 1
            counts[receiver] = 2
            return
        counts[receiver] = 1
        self.delivered += 1
        latency_us = max(1, (at_ns - intended_ns) // 1000)
        self.per_delivery.record_value(latency_us)
        if self.node_of is not None:
            crossed = self.node_of(self.senders[number]) != self.node_of(receiver)
            (self.cross_node if crossed else self.same_node).record_value(latency_us)
        if self.first_delivery_ns is None:
            self.first_delivery_ns = at_ns
        self.last_delivery_ns = at_ns
        self.remaining[number] -= 1
        if self.remaining[number] == 0:
            self.to_last.record_value(latency_us)

    def on_text(self, receiver, text, at_ns):
        """Records every benchmark marker found in a received text."""
        for match in MARKER.finditer(text):
            self.delivered_to(receiver, int(match.group(1)), int(match.group(2)), at_ns)

    @property
    def expected(self):
        return len(self.sent) * self.receivers

    @property
    def missing(self):
        return sum(self.remaining.values())

    def complete(self):
        return self.missing == 0

    def exactly_once(self):
        return self.missing == 0 and self.duplicates == 0 and self.unexpected == 0

    def summary(self):
        return {
            "messages": len(self.sent), "expected": self.expected, "delivered": self.delivered,
            "missing": self.missing, "duplicates": self.duplicates, "unexpected": self.unexpected,
        }
