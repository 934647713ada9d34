"""The Autobahn TestSuite's fuzzing cases 1.* to 7.* and 9.*, case by case with their ids, as
autobahntestsuite/autobahntestsuite/case/caseN_N_N.py define them (their DESCRIPTION and
EXPECTATION are quoted), adapted to Parlor where an echo server would echo (parlor_endpoints.py)
and where a case goes past Parlor's limits (9.*). Each case's ADAPTATION says what changed;
README.md sums them up. Octets, opcodes, reserved bits, masks, fragmentation, chopping, waits and
expected close codes are otherwise Autobahn's.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from parlor_endpoints import MALFORMED
from wsfuzz import (CLOSE_INVALID_PAYLOAD, CLOSE_MESSAGE_TOO_BIG, CLOSE_NORMAL, CLOSE_PROTOCOL_ERROR, FAILED,
                    INFORMATIONAL, NON_STRICT, OK, OPEN, WRONG_CODE, Case, build_frame, frame_header, mask_bytes)

CASES: list[type[Case]] = []

# Waits Autobahn sets for the limits cases go up to 1000 s: only a broken server waits that
# long, and CI has no such time. A case that gets no answer fails after this many seconds.
MAX_WAIT = 10

ECHO_TEXT = ("An echo server's text message is Parlor's answered frame of the same size (the answer "
             "expected instead of the echo).")
ECHO_BINARY = "A binary message is answered with the endpoint's error frame (malformedFrame), not echoed."


def case(case_id, description, expectation, adaptation=""):
    """Registers a case: a function (its on_open) or a Case subclass."""
    def register(body):
        if isinstance(body, type):
            cls = body
        else:
            cls = type("Case" + case_id.replace(".", "_"), (Case,), {"on_open": body})
        cls.ID, cls.DESCRIPTION, cls.EXPECTATION = case_id, description, expectation
        cls.ADAPTATION = adaptation or cls.ADAPTATION
        CASES.append(cls)
        return cls
    return register


# MARK: Adaptation helpers


def answered_text(c: Case, size: int, fill=b"*", suffix=""):
    """The text message of `size` octets an echo case sends, as Parlor's answered frame, and the
    event expected back. Too short to hold the frame: `fill` octets as Autobahn sends them,
    answered with the endpoint's malformedFrame error."""
    request_id = c.ID + suffix
    if size >= c.ep.minimum(request_id):
        return c.ep.answerable(request_id, size, fill=fill), ("message", c.ep.answer(request_id), False)
    return (fill * (size // max(1, len(fill)) + 1))[:size], ("message", MALFORMED, False)


def carrying(c: Case, octets: bytes, suffix=""):
    """A text message carrying `octets` verbatim (the answered frame, `octets` as its padding),
    and the event expected back. Octets a JSON string cannot hold as they are (a quote, a
    backslash, a control character, or none at all) are sent alone, as Autobahn sends them, and
    answered with the malformedFrame error."""
    request_id = c.ID + suffix
    if octets and c.ep.can_carry(octets):
        return c.ep.answerable(request_id, pad=octets), ("message", c.ep.answer(request_id), False)
    return octets, ("message", MALFORMED, False)


def binary_answer():
    return ("message", MALFORMED, False)


def split(data: bytes, n: int):
    """`data` in `n` consecutive parts of nearly equal size."""
    k, r = divmod(len(data), n)
    parts, i = [], 0
    for j in range(n):
        size = k + (1 if j < r else 0)
        parts.append(data[i:i + size])
        i += size
    return parts


def send_message(p, payload: bytes, binary=False, fragment_size=None):
    """autobahn's sendMessage: one frame, or frames of `fragment_size` octets."""
    opcode = 2 if binary else 1
    if not fragment_size or len(payload) <= fragment_size:
        p.send_frame(opcode=opcode, payload=payload)
        return
    chunks = [payload[i:i + fragment_size] for i in range(0, len(payload), fragment_size)]
    frames = []
    for i, chunk in enumerate(chunks):
        frames.append(build_frame(opcode if i == 0 else 0, chunk, fin=i == len(chunks) - 1))
    p.send_data(b"".join(frames))


def expect_clean_normal(c: Case, closed_by_me=True):
    c.expected_close = {"closedByMe": closed_by_me, "closeCode": [CLOSE_NORMAL], "requireClean": True}


def expect_failure(c: Case, code=CLOSE_PROTOCOL_ERROR, **extra):
    c.expected_close = {"closedByMe": False, "closeCode": [code], "requireClean": False, **extra}


# MARK: 1 Framing
# 1.1 Text Messages, 1.2 Binary Messages

for number, (size, chop) in enumerate([(0, None), (125, None), (126, None), (127, None), (128, None),
                                       (65535, None), (65536, None), (65536, 997)], start=1):
    words = "with payload 0." if size == 0 else f"message with payload of length {size}."
    chopped = f" Sent out data in chops of {chop} octets." if chop else ""

    def text_case(c, size=size, chop=chop):
        payload, answer = answered_text(c, size)
        c.expected[OK] = [answer]
        expect_clean_normal(c)
        c.p.send_frame(opcode=1, payload=payload, chopsize=chop)
        c.p.kill_after(1 if size == 0 else 10)

    case(f"1.1.{number}", f"Send text message {'' if size == 0 else 'message '}{words}{chopped}",
         f"Receive echo'ed text message (with {'empty payload' if size == 0 else 'payload as sent'}). Clean close with normal code.",
         ECHO_TEXT if size else "The empty text message is sent as is; the answer expected is the endpoint's malformedFrame error.")(text_case)

for number, (size, chop) in enumerate([(0, None), (125, None), (126, None), (127, None), (128, None),
                                       (65535, None), (65536, None), (65536, 997)], start=1):
    words = "with payload 0." if size == 0 else f"message with payload of length {size}."
    chopped = f" Sent out data in chops of {chop} octets." if chop else ""

    def binary_case(c, size=size, chop=chop):
        c.expected[OK] = [binary_answer()]
        expect_clean_normal(c)
        c.p.send_frame(opcode=2, payload=b"\xfe" * size, chopsize=chop)
        c.p.kill_after(1 if size == 0 else 10)

    case(f"1.2.{number}", f"Send binary message {'' if size == 0 else 'message '}{words}{chopped}",
         f"Receive echo'ed binary message (with {'empty payload' if size == 0 else 'payload as sent'}). Clean close with normal code.",
         ECHO_BINARY)(binary_case)


# MARK: 2 Pings/Pongs


def pong_case(payload, chopsize=None, delay=1):
    def on_open(c):
        c.expected[OK] = [("pong", payload)]
        expect_clean_normal(c)
        c.p.send_frame(opcode=9, payload=payload, chopsize=chopsize)
        c.p.close_after(delay)
    return on_open


case("2.1", "Send ping without payload.",
     "Pong (with empty payload) is sent in reply to Ping. Clean close with normal code.")(pong_case(b""))
case("2.2", "Send ping with small text payload.",
     "Pong with payload echo'ed is sent in reply to Ping. Clean close with normal code.")(pong_case(b"Hello, world!"))
case("2.3", "Send ping with small binary (non UTF-8) payload.",
     "Pong with payload echo'ed is sent in reply to Ping. Clean close with normal code.")(pong_case(b"\x00\xff\xfe\xfd\xfc\xfb\x00\xff"))
case("2.4", "Send ping with binary payload of 125 octets.",
     "Pong with payload echo'ed is sent in reply to Ping. Clean close with normal code.")(pong_case(b"\xfe" * 125))


@case("2.5", "Send ping with binary payload of 126 octets.",
      "Connection is failed immediately (1002/Protocol Error), since control frames are only allowed to have payload up to and including 125 octets..")
def _(c):
    c.expected[OK] = []
    expect_failure(c)
    c.p.send_frame(opcode=9, payload=b"\xfe" * 126)
    c.p.kill_after(1)


case("2.6", "Send ping with binary payload of 125 octets, send in octet-wise chops.",
     "Pong with payload echo'ed is sent in reply to Ping. Implementations must be TCP clean. Clean close with normal code.")(
    pong_case(b"\xfe" * 125, chopsize=1, delay=2))


def unsolicited_pong(payload):
    def on_open(c):
        c.expected[OK] = []
        expect_clean_normal(c)
        c.p.send_frame(opcode=10, payload=payload)
        c.p.send_close(CLOSE_NORMAL)
        c.p.close_after(1)
    return on_open


case("2.7", "Send unsolicited pong without payload. Verify nothing is received. Clean close with normal code.", "Nothing.")(unsolicited_pong(b""))
case("2.8", "Send unsolicited pong with payload. Verify nothing is received. Clean close with normal code.", "Nothing.")(
    unsolicited_pong(b"unsolicited pong payload"))


@case("2.9", "Send unsolicited pong with payload. Send ping with payload. Verify pong for ping is received.",
      "Nothing in reply to own Pong, but Pong with payload echo'ed in reply to Ping. Clean close with normal code.")
def _(c):
    c.expected[OK] = [("pong", b"ping payload")]
    expect_clean_normal(c)
    c.p.send_frame(opcode=10, payload=b"unsolicited pong payload")
    c.p.send_frame(opcode=9, payload=b"ping payload")
    c.p.close_after(1)


def ten_pings(chopsize):
    def on_open(c):
        c.expected[OK] = []
        for i in range(10):
            payload = b"payload-%d" % i
            c.expected[OK].append(("pong", payload))
            c.p.send_frame(opcode=9, payload=payload, chopsize=chopsize)
        expect_clean_normal(c)
        c.p.close_after(3)
    return on_open


case("2.10", "Send 10 Pings with payload.",
     "Pongs for our Pings with all the payloads. Note: This is not required by the Spec .. but we check for this behaviour anyway. Clean close with normal code.")(
    ten_pings(None))
case("2.11", "Send 10 Pings with payload. Send out octets in octet-wise chops.",
     "Pongs for our Pings with all the payloads. Note: This is not required by the Spec .. but we check for this behaviour anyway. Clean close with normal code.")(
    ten_pings(1))


# MARK: 3 Reserved Bits

HELLO = b"Hello, world!"
ANSWERED_HELLO = ("Autobahn's small text message (\"Hello, world!\") is Parlor's answered frame, so that a "
                  "server ignoring the violation would be seen answering it.")


@case("3.1", "Send small text message with <b>RSV = 1</b>.",
      "The connection is failed immediately (1002/protocol error), since RSV must be 0, when no extension defining RSV meaning has been negotiated.",
      ANSWERED_HELLO)
def _(c):
    payload, _ = carrying(c, HELLO)
    c.expected[OK] = []
    expect_failure(c)
    c.p.send_frame(opcode=1, payload=payload, rsv=1)
    c.p.kill_after(1)


def rsv_after_message(rsv, sync=False, chopsize=None):
    def on_open(c):
        payload, answer = carrying(c, HELLO)
        c.expected[OK] = [answer]
        c.expected[NON_STRICT] = []
        expect_failure(c)
        c.p.send_frame(opcode=1, payload=payload, sync=sync, chopsize=chopsize)
        c.p.send_frame(opcode=1, payload=payload, rsv=rsv, sync=sync, chopsize=chopsize)
        c.p.send_frame(opcode=9, sync=sync, chopsize=chopsize)
        c.p.kill_after(1)
    return on_open


RSV_EXPECTATION = ("Echo for first message is received, but then connection is failed immediately, since RSV must be 0, "
                   "when no extension defining RSV meaning has been negotiated. The Pong is not received.")
case("3.2", "Send small text message, then send again with <b>RSV = 2</b>, then send Ping.", RSV_EXPECTATION, ANSWERED_HELLO)(
    rsv_after_message(2))
case("3.3", "Send small text message, then send again with <b>RSV = 3</b>, then send Ping. Octets are sent in frame-wise chops. "
     "Octets are sent in octet-wise chops.", RSV_EXPECTATION, ANSWERED_HELLO)(rsv_after_message(3, sync=True))
case("3.4", "Send small text message, then send again with <b>RSV = 4</b>, then send Ping. Octets are sent in octet-wise chops.",
     RSV_EXPECTATION, ANSWERED_HELLO)(rsv_after_message(4, chopsize=1))


def rsv_frame(opcode, payload, rsv):
    def on_open(c):
        c.expected[OK] = []
        expect_failure(c)
        c.p.send_frame(opcode=opcode, payload=payload, rsv=rsv)
        c.p.kill_after(1)
    return on_open


case("3.5", "Send small binary message with <b>RSV = 5</b>.", "The connection is failed immediately, since RSV must be 0.")(
    rsv_frame(2, b"\x00\xff\xfe\xfd\xfc\xfb\x00\xff", 5))
# Autobahn's case 3.6 says Ping but sends a binary frame (opcode 2); sent here as Autobahn sends it.
case("3.6", "Send Ping with <b>RSV = 6</b>.", "The connection is failed immediately, since RSV must be 0.")(
    rsv_frame(2, HELLO, 6))
case("3.7", "Send Close with <b>RSV = 7</b>.", "The connection is failed immediately, since RSV must be 0.")(
    rsv_frame(8, b"", 7))


# MARK: 4 Opcodes
# 4.1 Non-control Opcodes, 4.2 Control Opcodes


def reserved_opcode(opcode, payload=b""):
    def on_open(c):
        c.expected[OK] = []
        expect_failure(c)
        c.p.send_frame(opcode=opcode, payload=payload)
        c.p.kill_after(1)
    return on_open


def reserved_opcode_after_message(opcode, with_payload, chopsize=None):
    def on_open(c):
        payload, answer = carrying(c, HELLO)
        c.expected[OK] = [answer]
        c.expected[NON_STRICT] = []
        expect_failure(c)
        c.p.send_frame(opcode=1, payload=payload, chopsize=chopsize)
        c.p.send_frame(opcode=opcode, payload=payload if with_payload else b"", chopsize=chopsize)
        c.p.send_frame(opcode=9, chopsize=chopsize)
        c.p.kill_after(1)
    return on_open


OPCODE_EXPECTATION = ("Echo for first message is received, but then connection is failed immediately, since reserved opcode "
                      "frame is used. A Pong is not received.")
for prefix, kind, opcodes in (("4.1", "non-control", (3, 4, 5, 6, 7)), ("4.2", "control", (11, 12, 13, 14, 15))):
    first, second, third, fourth, fifth = opcodes
    case(f"{prefix}.1", f"Send frame with reserved {kind} <b>Opcode = {first}</b>.", "The connection is failed immediately.")(
        reserved_opcode(first))
    case(f"{prefix}.2", f"Send frame with reserved {kind} <b>Opcode = {second}</b> and non-empty payload.",
         "The connection is failed immediately.")(reserved_opcode(second, b"reserved opcode payload"))
    case(f"{prefix}.3", f"Send small text message, then send frame with reserved {kind} <b>Opcode = {third}</b>, then send Ping.",
         OPCODE_EXPECTATION, ANSWERED_HELLO)(reserved_opcode_after_message(third, False))
    case(f"{prefix}.4", f"Send small text message, then send frame with reserved {kind} <b>Opcode = {fourth}</b> and non-empty "
         "payload, then send Ping.", OPCODE_EXPECTATION, ANSWERED_HELLO)(reserved_opcode_after_message(fourth, True))
    case(f"{prefix}.5", f"Send small text message, then send frame with reserved {kind} <b>Opcode = {fifth}</b> and non-empty "
         "payload, then send Ping.", OPCODE_EXPECTATION, ANSWERED_HELLO)(reserved_opcode_after_message(fifth, True, chopsize=1))


# MARK: 5 Fragmentation


def fragmented_control(opcode):
    def on_open(c):
        c.expected[OK] = []
        expect_failure(c)
        c.p.send_frame(opcode=opcode, fin=False, payload=b"fragment1")
        c.p.send_frame(opcode=0, fin=True, payload=b"fragment2")
        c.p.kill_after(1)
    return on_open


case("5.1", "Send Ping fragmented into 2 fragments.",
     "Connection is failed immediately, since control message MUST NOT be fragmented.")(fragmented_control(9))
case("5.2", "Send Pong fragmented into 2 fragments.",
     "Connection is failed immediately, since control message MUST NOT be fragmented.")(fragmented_control(10))

FRAGMENTS = ("The message of Autobahn's fragments (\"fragment1\", \"fragment2\") is Parlor's answered frame, cut into "
             "as many fragments.")


def two_fragments(sync=False, chopsize=None, ping=False):
    def on_open(c):
        payload, answer = carrying(c, b"fragment1fragment2")
        first, second = split(payload, 2)
        c.expected[OK] = ([("pong", b"ping payload")] if ping else []) + [answer]
        expect_clean_normal(c)
        c.p.send_frame(opcode=1, fin=False, payload=first, sync=sync, chopsize=chopsize)
        if ping:
            c.p.send_frame(opcode=9, fin=True, payload=b"ping payload", sync=sync, chopsize=chopsize)
        c.p.send_frame(opcode=0, fin=True, payload=second, sync=sync, chopsize=chopsize)
        c.p.close_after(1)
    return on_open


case("5.3", "Send text Message fragmented into 2 fragments.", "Message is processed and echo'ed back to us.", FRAGMENTS)(two_fragments())
case("5.4", "Send text Message fragmented into 2 fragments, octets are sent in frame-wise chops.",
     "Message is processed and echo'ed back to us.", FRAGMENTS)(two_fragments(sync=True))
case("5.5", "Send text Message fragmented into 2 fragments, octets are sent in octet-wise chops.",
     "Message is processed and echo'ed back to us.", FRAGMENTS)(two_fragments(chopsize=1))
case("5.6", "Send text Message fragmented into 2 fragments, one ping with payload in-between.",
     "A pong is received, then the message is echo'ed back to us.", FRAGMENTS)(two_fragments(ping=True))
case("5.7", "Send text Message fragmented into 2 fragments, one ping with payload in-between. Octets are sent in frame-wise chops.",
     "A pong is received, then the message is echo'ed back to us.", FRAGMENTS)(two_fragments(sync=True, ping=True))
case("5.8", "Send text Message fragmented into 2 fragments, one ping with payload in-between. Octets are sent in octet-wise chops.",
     "A pong is received, then the message is echo'ed back to us.", FRAGMENTS)(two_fragments(chopsize=1, ping=True))


def nothing_to_continue(fin, sync=False, chopsize=None):
    def on_open(c):
        c.expected[OK] = []
        expect_failure(c)
        c.p.send_frame(opcode=0, fin=fin, payload=b"non-continuation payload", sync=sync, chopsize=chopsize)
        c.p.send_frame(opcode=1, fin=True, payload=HELLO, sync=sync, chopsize=chopsize)
        c.p.kill_after(1)
    return on_open


NO_CONTINUATION = "The connection is failed immediately, since there is no message to continue."
for number, (fin, how, sync, chop) in enumerate([(True, "sent in one chop", False, None), (True, "sent in per-frame chops", True, None),
                                                 (True, "sent in octet-wise chops", False, 1), (False, "sent in one chop", False, None),
                                                 (False, "sent in per-frame chops", True, None),
                                                 (False, "sent in octet-wise chops", False, 1)], start=9):
    case(f"5.{number}", f"Send unfragmented Text Message after Continuation Frame with FIN = {'true' if fin else 'false'}, where there is "
         f"nothing to continue, {how}.", NO_CONTINUATION)(nothing_to_continue(fin, sync, chop))


@case("5.15", "Send text Message fragmented into 2 fragments, then Continuation Frame with FIN = false where there is nothing to "
      "continue, then unfragmented Text Message, all sent in one chop.", NO_CONTINUATION,
      "The message of the first two fragments is Parlor's answered frame, cut in two; \"fragment3\" and \"fragment4\" as Autobahn sends them.")
def _(c):
    payload, answer = carrying(c, b"fragment1fragment2")
    first, second = split(payload, 2)
    c.expected[OK] = [answer]
    c.expected[NON_STRICT] = []
    expect_failure(c)
    c.p.send_frame(opcode=1, fin=False, payload=first)
    c.p.send_frame(opcode=0, fin=True, payload=second)
    c.p.send_frame(opcode=0, fin=False, payload=b"fragment3")
    c.p.send_frame(opcode=1, fin=True, payload=b"fragment4")
    c.p.kill_after(1)


def repeated_nothing_to_continue(fin):
    def on_open(c):
        c.expected[OK] = []
        expect_failure(c)
        for _ in range(2):
            c.p.send_frame(opcode=0, fin=fin, payload=b"fragment1")
            c.p.send_frame(opcode=1, fin=False, payload=b"fragment2")
            c.p.send_frame(opcode=0, fin=True, payload=b"fragment3")
        c.p.kill_after(1)
    return on_open


case("5.16", "Repeated 2x: Continuation Frame with FIN = false (where there is nothing to continue), then text Message fragmented into "
     "2 fragments.", NO_CONTINUATION)(repeated_nothing_to_continue(False))
case("5.17", "Repeated 2x: Continuation Frame with FIN = true (where there is nothing to continue), then text Message fragmented into "
     "2 fragments.", NO_CONTINUATION)(repeated_nothing_to_continue(True))


@case("5.18", "Send text Message fragmented into 2 fragments, with both frame opcodes set to text, sent in one chop.",
      "The connection is failed immediately, since all data frames after the initial data frame must have opcode 0.")
def _(c):
    c.expected[OK] = []
    expect_failure(c)
    c.p.send_frame(opcode=1, fin=False, payload=b"fragment1")
    c.p.send_frame(opcode=1, fin=True, payload=b"fragment2")
    c.p.kill_after(1)


class PingsBetweenFragments(Case):
    SYNC = False
    ADAPTATION = ("The message of Autobahn's five fragments is Parlor's answered frame, cut into five fragments. Autobahn "
                  "waits 1 s between the two parts; this runner goes on as soon as the first pong has come, waiting "
                  "1 s at most (the pong must come before the message is complete either way).")

    def on_open(self):
        payload, answer = carrying(self, b"fragment1fragment2fragment3fragment4fragment5")
        self.fragments = split(payload, 5)
        self.pings = [b"pongme 1!", b"pongme 2!"]
        self.expected[OK] = [("pong", self.pings[0]), ("pong", self.pings[1]), answer]
        expect_clean_normal(self)
        self.p.send_frame(opcode=1, fin=False, payload=self.fragments[0], sync=self.SYNC)
        self.p.send_frame(opcode=0, fin=False, payload=self.fragments[1], sync=self.SYNC)
        self.p.send_frame(opcode=9, fin=True, payload=self.pings[0], sync=self.SYNC)
        self.part2_timer = self.p.call_later(1, self.part2)
        self.p.wirelog.append("continue after 1 s, or at the first pong")

    def on_pong(self, payload):
        super().on_pong(payload)
        if len(self.received) == 1 and self.part2_timer:
            self.p.cancel(self.part2_timer)
            self.part2()

    def part2(self):
        self.part2_timer = None
        if self.p.state != OPEN:
            return
        self.p.send_frame(opcode=0, fin=False, payload=self.fragments[2], sync=self.SYNC)
        self.p.send_frame(opcode=0, fin=False, payload=self.fragments[3], sync=self.SYNC)
        self.p.send_frame(opcode=9, fin=True, payload=self.pings[1], sync=self.SYNC)
        self.p.send_frame(opcode=0, fin=True, payload=self.fragments[4], sync=self.SYNC)
        self.p.close_after(1)


@case("5.19", "A fragmented text message is sent in multiple frames. After sending the first 2 frames of the text message, a Ping is "
      "sent. Then we wait 1s, then we send 2 more text fragments, another Ping and then the final text fragment. Everything is legal.",
      "The peer immediately answers the first Ping before it has received the last text message fragment. The peer pong's back the "
      "Ping's payload exactly, and echo's the payload of the fragmented message back to us.")
class _(PingsBetweenFragments):
    SYNC = False


@case("5.20", "Same as Case 5.19, but send all frames with SYNC = True. Note, this does not change the octets sent in any way, only how "
      "the stream is chopped up on the wire.",
      "Same as Case 5.19. Implementations must be agnostic to how octet stream is chopped up on wire (must be TCP clean).")
class _(PingsBetweenFragments):
    SYNC = True


# MARK: 6 UTF-8 Handling

UTF8_CARRIED = ("The UTF-8 message is carried verbatim inside Parlor's answered frame (as its padding); octets a JSON "
                "string cannot hold as they are go alone, answered with the malformedFrame error.")


@case("6.1.1", "Send text message of length 0.", "A message is echo'ed back to us (with empty payload).",
      "The empty text message is sent as is; the answer expected is the endpoint's malformedFrame error.")
def _(c):
    c.expected[OK] = [("message", MALFORMED, False)]
    expect_clean_normal(c)
    c.p.send_frame(opcode=1, payload=b"")
    c.p.close_after(1)


@case("6.1.2", "Send fragmented text message, 3 fragments each of length 0.", "A message is echo'ed back to us (with empty payload).",
      "The empty text message is sent as is; the answer expected is the endpoint's malformedFrame error.")
def _(c):
    c.expected[OK] = [("message", MALFORMED, False)]
    expect_clean_normal(c)
    c.p.send_frame(opcode=1, fin=False, payload=b"")
    c.p.send_frame(opcode=0, fin=False, payload=b"")
    c.p.send_frame(opcode=0, fin=True, payload=b"")
    c.p.close_after(1)


@case("6.1.3", "Send fragmented text message, 3 fragments, first and last of length 0, middle non-empty.",
      "A message is echo'ed back to us (with payload = payload of middle fragment).",
      "The middle fragment is Parlor's answered frame carrying \"middle frame payload\".")
def _(c):
    payload, answer = carrying(c, b"middle frame payload")
    c.expected[OK] = [answer]
    expect_clean_normal(c)
    c.p.send_frame(opcode=1, fin=False, payload=b"")
    c.p.send_frame(opcode=0, fin=False, payload=payload)
    c.p.send_frame(opcode=0, fin=True, payload=b"")
    c.p.close_after(1)


HELLO_UTF8 = "Hello-µ@ßöäüàá-UTF-8!!".encode("utf-8")
KOSME = b"\xce\xba\xe1\xbd\xb9\xcf\x83\xce\xbc\xce\xb5"


@case("6.2.1", "Send a valid UTF-8 text message in one fragment.<br><br>MESSAGE:<br>%s<br>%s" % (HELLO_UTF8.decode(), HELLO_UTF8.hex()),
      "The message is echo'ed back to us.", UTF8_CARRIED)
def _(c):
    payload, answer = carrying(c, HELLO_UTF8)
    c.expected[OK] = [answer]
    expect_clean_normal(c)
    send_message(c.p, payload)
    c.p.close_after(1)


@case("6.2.2", "Send a valid UTF-8 text message in two fragments, fragmented on UTF-8 code point boundary.",
      "The message is echo'ed back to us.",
      UTF8_CARRIED + " The cut is Autobahn's, between \"Hello-µ@ßöä\" and \"üàá-UTF-8!!\".")
def _(c):
    first, second = "Hello-µ@ßöä".encode(), "üàá-UTF-8!!".encode()
    payload, answer = carrying(c, first + second)
    cut = payload.index(first) + len(first)
    c.expected[OK] = [answer]
    expect_clean_normal(c)
    c.p.send_frame(opcode=1, fin=False, payload=payload[:cut])
    c.p.send_frame(opcode=0, fin=True, payload=payload[cut:])
    c.p.close_after(1)


def one_octet_fragments(octets):
    def on_open(c):
        payload, answer = carrying(c, octets)
        c.expected[OK] = [answer]
        expect_clean_normal(c)
        send_message(c.p, payload, fragment_size=1)
        c.p.close_after(1)
    return on_open


case("6.2.3", "Send a valid UTF-8 text message in fragments of 1 octet, resulting in frames ending on positions which are not code "
     "point ends.<br><br>MESSAGE:<br>%s<br>%s" % (HELLO_UTF8.decode(), HELLO_UTF8.hex()), "The message is echo'ed back to us.",
     UTF8_CARRIED + " The whole message goes in fragments of 1 octet.")(one_octet_fragments(HELLO_UTF8))
case("6.2.4", "Send a valid UTF-8 text message in fragments of 1 octet, resulting in frames ending on positions which are not code "
     "point ends.<br><br>MESSAGE:<br>%s<br>%s" % (KOSME.decode(), KOSME.hex()), "The message is echo'ed back to us.",
     UTF8_CARRIED + " The whole message goes in fragments of 1 octet.")(one_octet_fragments(KOSME))

# Invalid exactly on octet 12 (0xa0).
INVALID_6_3 = KOSME + b"\xed\xa0\x80" + b"\x65\x64\x69\x74\x65\x64"


def invalid_text(octets, fragment_size=None, kill=1):
    def on_open(c):
        c.expected[OK] = []
        expect_failure(c, CLOSE_INVALID_PAYLOAD, closedByWrongEndpointIsFatal=True)
        send_message(c.p, octets, fragment_size=fragment_size)
        c.p.kill_after(kill)
    return on_open


case("6.3.1", "Send invalid UTF-8 text message unfragmented.<br><br>MESSAGE:<br>%s" % INVALID_6_3.hex(),
     "The connection is failed immediately, since the payload is not valid UTF-8.")(invalid_text(INVALID_6_3))
case("6.3.2", "Send invalid UTF-8 text message in fragments of 1 octet, resulting in frames ending on positions which are not code point "
     "ends.<br><br>MESSAGE:<br>%s" % INVALID_6_3.hex(),
     "The connection is failed immediately, since the payload is not valid UTF-8.")(invalid_text(INVALID_6_3, fragment_size=1))

# 6.4: PART2 is 0x110000 in UTF-8's integer encoding, out of Unicode's range: invalid exactly on octet 12 (0x90).
PART1, PART2, PART3 = KOSME, b"\xf4\x90\x80\x80", b"\x65\x64\x69\x74\x65\x64"
INVALID_6_4 = PART1 + PART2 + PART3


class FailFast(Case):
    """6.4.*: three parts a second apart; the server should fail the connection at the second."""
    PARTS = (PART1, PART2, PART3)
    CHOPS = False  # three chops of one frame rather than three frames

    def on_open(self):
        self.expected[OK] = [("timeout", "A")]
        self.expected[NON_STRICT] = [("timeout", "A"), ("timeout", "B")]
        expect_failure(self, CLOSE_INVALID_PAYLOAD, closedByWrongEndpointIsFatal=True)
        if self.CHOPS:
            # autobahn's beginMessage, beginMessageFrame(len(PAYLOAD)), sendMessageFrameData: one frame
            # whose payload goes out in three writes, masked as one.
            key = b"\x1f\x2e\x3d\x4c"
            payload = b"".join(self.PARTS)
            masked = mask_bytes(payload, key)
            a, b = len(self.PARTS[0]), len(self.PARTS[0]) + len(self.PARTS[1])
            self.sends = [frame_header(1, len(payload)) + key + masked[:a], masked[a:b], masked[b:]]
        else:
            self.sends = [build_frame(1, self.PARTS[0], fin=False), build_frame(0, self.PARTS[1], fin=False),
                          build_frame(0, self.PARTS[2], fin=True)]
        self.p.send_data(self.sends[0])
        self.p.continue_later(1, self.part2, "A")

    def part2(self):
        if self.p.state == OPEN:
            self.received.append(("timeout", "A"))
            self.p.send_data(self.sends[1])
            self.p.continue_later(1, self.part3, "B")

    def part3(self):
        if self.p.state == OPEN:
            self.received.append(("timeout", "B"))
            self.p.send_data(self.sends[2])
            self.p.kill_after(1)


FAIL_FAST = ("The first frame is accepted, we expect to timeout on the first wait. The 2nd frame should be rejected immediately (fail "
             "fast on UTF-8). If we timeout, we expect the connection is failed at least then, since the complete message payload is "
             "not valid UTF-8.")
FAIL_FAST_CHOPS = FAIL_FAST.replace("frame", "chop")


@case("6.4.1", "Send invalid UTF-8 text message in 3 fragments (frames). First frame payload is valid, then wait, then 2nd frame which "
      "contains the payload making the sequence invalid, then wait, then 3rd frame with rest. Note that PART1 and PART3 are valid UTF-8 "
      "in themselves, PART2 is a 0x110000 encoded as in the UTF-8 integer encoding scheme, but the codepoint is invalid (out of range). "
      f"PART1 = {PART1.hex()}, PART2 = {PART2.hex()}, PART3 = {PART3.hex()}", FAIL_FAST)
class _(FailFast):
    pass


@case("6.4.2", "Same as Case 6.4.1, but in 2nd frame, we send only up to and including the octet making the complete payload invalid. "
      f"PART1 = {INVALID_6_4[:12].hex()}, PART2 = {INVALID_6_4[12:13].hex()}, PART3 = {INVALID_6_4[13:].hex()}", FAIL_FAST)
class _(FailFast):
    PARTS = (INVALID_6_4[:12], INVALID_6_4[12:13], INVALID_6_4[13:])


@case("6.4.3", "Same as Case 6.4.1, but we send message not in 3 frames, but in 3 chops of the same message frame. "
      f"PART1 = {PART1.hex()}, PART2 = {PART2.hex()}, PART3 = {PART3.hex()}", FAIL_FAST_CHOPS)
class _(FailFast):
    CHOPS = True


@case("6.4.4", "Same as Case 6.4.2, but we send message not in 3 frames, but in 3 chops of the same message frame. "
      f"PART1 = {INVALID_6_4[:12].hex()}, PART2 = {INVALID_6_4[12:13].hex()}, PART3 = {INVALID_6_4[13:].hex()}", FAIL_FAST_CHOPS)
class _(FailFast):
    PARTS = (INVALID_6_4[:12], INVALID_6_4[12:13], INVALID_6_4[13:])
    CHOPS = True


def _autobahn_utf8_sequences():
    """createUtf8TestSequences() from Autobahn's case6_x_x.py, vendored in autobahn/ (loaded by
    path: the directory is not a package, and must not shadow autobahn-python)."""
    path = Path(__file__).resolve().parent / "autobahn" / "utf8_sequences.py"
    spec = importlib.util.spec_from_file_location("autobahn_utf8_sequences", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.createUtf8TestSequences()


def utf8_vector(octets, valid):
    def on_open(c):
        if valid:
            payload, answer = carrying(c, octets)
            c.expected[OK] = [answer]
            expect_clean_normal(c)
        else:
            payload = octets
            c.expected[OK] = []
            expect_failure(c, CLOSE_INVALID_PAYLOAD, closedByWrongEndpointIsFatal=True)
        c.p.send_frame(opcode=1, payload=payload)
        c.p.kill_after(0.5)
    return on_open


# Numbered as case6_x_x.py numbers them: 6.5.1 on, one subsection per sequence.
for section, (title, vectors) in enumerate(_autobahn_utf8_sequences(), start=5):
    for number, (valid, octets) in enumerate(vectors, start=1):
        if valid:
            description = "Send a text message with payload which is valid UTF-8 in one fragment."
            expectation = "The message is echo'ed back to us."
        else:
            description = "Send a text message with payload which is not valid UTF-8 in one fragment."
            expectation = "The connection is failed immediately, since the payload is not valid UTF-8."
        case(f"6.{section}.{number}", f"{description} ({title}) Payload: 0x{octets.hex()}", expectation,
             UTF8_CARRIED if valid else "")(utf8_vector(octets, valid))


# MARK: 7 Close Handling


class CloseCase(Case):
    """7.*: a close code other than expected fails the case (Autobahn's onConnectionLost there)."""

    def init(self):
        self.suppress_close = True

    def on_connection_lost(self, failed_by_me):
        super().on_connection_lost(failed_by_me)
        if self.behavior_close == WRONG_CODE:
            self.behavior = FAILED
            self.result = self.result_close


@case("7.1.1", "Send a message followed by a close frame", "Echoed message followed by clean close with normal code.",
      "Autobahn's \"Hello World!\" is Parlor's answered frame.")
class _(CloseCase):
    def init(self):
        pass  # 7.1.1 closes as soon as the answer is in (suppressClose stays False)

    def on_open(self):
        payload, answer = carrying(self, b"Hello World!")
        self.expected[OK] = [answer]
        expect_clean_normal(self)
        self.p.send_frame(opcode=1, payload=payload)
        self.p.kill_after(1)


@case("7.1.2", "Send two close frames", "Clean close with normal code. Second close frame ignored.")
class _(CloseCase):
    def on_open(self):
        self.expected[OK] = []
        expect_clean_normal(self)
        self.p.send_close(CLOSE_NORMAL)
        self.p.send_frame(opcode=8)
        self.p.kill_after(1)


@case("7.1.3", "Send a ping after close message", "Clean close with normal code, no pong.")
class _(CloseCase):
    def on_open(self):
        self.expected[OK] = []
        expect_clean_normal(self)
        self.p.send_close(CLOSE_NORMAL)
        self.p.send_frame(opcode=9)
        self.p.kill_after(1)


@case("7.1.4", "Send text message after sending a close frame.", "Clean close with normal code. Text message ignored.",
      "Autobahn's \"Hello World!\" is Parlor's answered frame, so that a server reading past the close would be seen answering it.")
class _(CloseCase):
    def on_open(self):
        payload, _ = carrying(self, b"Hello World!")
        self.expected[OK] = []
        expect_clean_normal(self)
        self.p.send_close(CLOSE_NORMAL)
        self.p.send_frame(opcode=1, payload=payload)
        self.p.kill_after(1)


@case("7.1.5", "Send message fragment1 followed by close then fragment", "Clean close with normal code.",
      "The message of the two fragments is Parlor's answered frame, cut in two.")
class _(CloseCase):
    def on_open(self):
        payload, _ = carrying(self, b"fragment1fragment2")
        first, second = split(payload, 2)
        self.expected[OK] = []
        expect_clean_normal(self)
        self.p.send_frame(opcode=1, fin=False, payload=first)
        self.p.send_close(CLOSE_NORMAL)
        self.p.send_frame(opcode=0, fin=True, payload=second)
        self.p.kill_after(1)


@case("7.1.6", "Send 256K message followed by close then a ping",
      "Case outcome depends on implementation defined close behavior. Message and close frame are sent back to back. If the close frame "
      "is processed before the text message write is complete (as can happen in asynchronous processing models) the close frame is "
      "processed first and the text message may not be received or may only be partially received.",
      "The 256 KiB message is Parlor's answered frame of 256 KiB or the endpoint's limit, whichever is less (64 KiB on /ws: a larger "
      "one is closed with 1009), and \"Hello World!\" too is an answered frame; both answers are expected for OK, none for NON-STRICT.")
class _(Case):
    def init(self):
        self.suppress_close = True

    def on_open(self):
        size = min(256 * 1024, self.ep.max_message_bytes)
        big, big_answer = answered_text(self, size, fill=b"BAsd7&jh23", suffix="-256K")
        hello, answer = carrying(self, b"Hello World!")
        self.expected[OK] = [big_answer, answer]
        self.expected[NON_STRICT] = []
        expect_clean_normal(self)
        self.p.send_frame(opcode=1, payload=big)
        self.p.send_frame(opcode=1, payload=hello)
        self.p.send_close(CLOSE_NORMAL)
        self.p.send_frame(opcode=9)
        self.p.kill_after(1)

    def on_connection_lost(self, failed_by_me):
        super().on_connection_lost(failed_by_me)
        if self.behavior == OK:
            self.result = "Text message was processed before close."
        elif self.behavior == NON_STRICT:
            self.result = "Close was processed before text message could be returned."
        self.result += f" (received {self.received}; close {self.behavior_close}: {self.result_close})"
        self.behavior = INFORMATIONAL
        self.behavior_close = INFORMATIONAL


def close_frame_case(code=None, reason=None, expected_code=CLOSE_NORMAL, require_clean=True, valid=True):
    class C(CloseCase):
        def on_open(self):
            self.expected[OK] = []
            self.expected_close = {"closedByMe": True, "closeCode": expected_code if isinstance(expected_code, list) else [expected_code],
                                   "requireClean": require_clean}
            if valid:
                self.p.send_close(code, reason)
            else:
                self.p.send_close_frame(code, reason)
            self.p.kill_after(1)
    return C


case("7.3.1", "Send a close frame with payload length 0 (no close code, no close reason)", "Clean close with normal code.")(
    close_frame_case(valid=False))
case("7.3.2", "Send a close frame with payload length 1", "Clean close with protocol error or drop TCP.")(
    close_frame_case(reason=b"a", expected_code=CLOSE_PROTOCOL_ERROR, require_clean=False, valid=False))
case("7.3.3", "Send a close frame with payload length 2 (regular close with a code)", "Clean close with normal code.")(
    close_frame_case(CLOSE_NORMAL))
case("7.3.4", "Send a close frame with close code and close reason", "Clean close with normal code.")(
    close_frame_case(CLOSE_NORMAL, "Hello World!"))
case("7.3.5", "Send a close frame with close code and close reason of maximum length (123)", "Clean close with normal code.")(
    close_frame_case(CLOSE_NORMAL, "*" * 123))
case("7.3.6", "Send a close frame with close code and close reason which is too long (124) - total frame payload 126 octets",
     "Clean close with protocol error code or dropped TCP connection.")(
    close_frame_case(CLOSE_NORMAL, b"*" * 124, expected_code=CLOSE_PROTOCOL_ERROR, require_clean=False, valid=False))
case("7.5.1", "Send a close frame with invalid UTF8 payload", "Clean close with protocol error or invalid utf8 code or dropped TCP.")(
    close_frame_case(CLOSE_NORMAL, INVALID_6_3, expected_code=[CLOSE_PROTOCOL_ERROR, CLOSE_INVALID_PAYLOAD], require_clean=False,
                     valid=False))

for number, code in enumerate([1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999], start=1):
    case(f"7.7.{number}", f"Send close with valid close code {code}", "Clean close with normal or echoed code")(
        close_frame_case(code, expected_code=[CLOSE_NORMAL, code], valid=False))

for number, code in enumerate([0, 999, 1004, 1005, 1006, 1016, 1100, 2000, 2999], start=1):
    case(f"7.9.{number}", f"Send close with invalid close code {code}", "Clean close with protocol error code or drop TCP")(
        close_frame_case(code, expected_code=CLOSE_PROTOCOL_ERROR, require_clean=False, valid=False))


def informational_close(code):
    class C(Case):
        def init(self):
            self.suppress_close = True

        def on_open(self):
            self.expected[OK] = []
            self.expected_close = {"closedByMe": True, "closeCode": [CLOSE_NORMAL, code, CLOSE_PROTOCOL_ERROR], "requireClean": False}
            self.p.send_close_frame(code)
            self.p.kill_after(1)

        def on_connection_lost(self, failed_by_me):
            super().on_connection_lost(failed_by_me)
            self.behavior = INFORMATIONAL
            self.behavior_close = INFORMATIONAL
            self.result = f"Actual events are undefined by the spec. (answered with close code {self.p.remote_close_code})"
    return C


case("7.13.1", "Send close with close code 5000", "Actual events are undefined by the spec.")(informational_close(5000))
case("7.13.2", "Send close with close code 65535", "Actual events are undefined by the spec.")(informational_close(65535))


# MARK: 9 Limits/Performance

KIB, MIB = 1024, 1024 * 1024
TEXT_FILL = b"BAsd7&jh23"
BINARY_FILL = b"\x00\xfe\x23\xfa\xf0"


class LimitsCase(Case):
    """9.1–9.6: one large message, whole, in fragments or in chops. Within the endpoint's limit it
    must be answered (the answer's content checked; Autobahn checks the echo's length); past it
    the server must fail the connection with 1009 (RFC 6455 7.4.1, Parlor's limit)."""
    DATALEN = 0
    BINARY = False
    FILL = TEXT_FILL
    FRAGSIZE = None
    CHOPSIZE = None
    WAITSECS = 10
    AT_LIMIT = False  # the message is the endpoint's limit (9.3–9.6), not DATALEN

    def init(self):
        self.report_time = True

    def size(self):
        return min(self.DATALEN, self.ep.max_message_bytes) if self.AT_LIMIT else self.DATALEN

    def on_open(self):
        size = self.size()
        self.p.wirelog.append(f"message of {size} octets")
        if self.BINARY:
            payload, self.answer = (self.FILL * (size // len(self.FILL) + 1))[:size], binary_answer()
        else:
            payload, self.answer = answered_text(self, size, fill=self.FILL)
        self.over = size > self.ep.max_message_bytes
        wait = min(self.WAITSECS, MAX_WAIT)
        if self.over:
            self.expected[OK] = []
            expect_failure(self, CLOSE_MESSAGE_TOO_BIG)
        else:
            self.behavior = FAILED
            expect_clean_normal(self)
            self.result = "Did not receive message within %d seconds." % wait
        if self.CHOPSIZE:
            self.p.send_frame(opcode=2 if self.BINARY else 1, payload=payload, chopsize=self.CHOPSIZE)
        else:
            send_message(self.p, payload, binary=self.BINARY, fragment_size=self.FRAGSIZE)
        if self.over:
            self.p.kill_after(wait)
        else:
            self.p.close_after(wait)

    def on_message(self, payload, binary):
        if self.over:
            return super().on_message(payload, binary)
        got = ("message", self.ep.normalize(payload), binary)
        self.received.append(got)
        if got != self.answer:
            self.result = f"Expected {self.answer}, but got {got}."
        else:
            self.behavior = OK
            self.result = f"Received the answer to a {'binary' if self.BINARY else 'text'} message of {self.size()} octets."
        self.p.send_close(CLOSE_NORMAL)


def limits_adaptation(cls):
    kind = "binary" if cls.BINARY else "text"
    answered = ECHO_BINARY if cls.BINARY else ECHO_TEXT
    if cls.AT_LIMIT:
        how = (f"The {cls.DATALEN // MIB} MiB {kind} message is over both endpoints' limits: it is the endpoint's limit instead "
               f"(64 KiB on /ws, 256 KiB on the app socket), sent as Autobahn sends it")
        how += f" (fragments of {cls.FRAGSIZE} octets)" if cls.FRAGSIZE else f" (chops of {cls.CHOPSIZE} octets)"
        return f"{how}. {answered}"
    return (f"{answered} Over the endpoint's limit (64 KiB on /ws, 256 KiB on the app socket) the server must fail the connection "
            f"with 1009 instead of answering (over 1 MiB, a single frame is refused by its header).")


def size_words(n):
    return f"{n // MIB}M" if n >= MIB else f"{n // KIB}k"


for number, size in enumerate([64 * KIB, 256 * KIB, 1 * MIB, 4 * MIB, 8 * MIB, 16 * MIB], start=1):
    exponent = f"{size // MIB} * 2**20" if size >= MIB else f"{size // KIB} * 2**10"
    for section, binary in ((1, False), (2, True)):
        kind = "binary" if binary else "text"
        cls = type(f"Case9_{section}_{number}", (LimitsCase,), {"DATALEN": size, "BINARY": binary,
                                                                "FILL": BINARY_FILL if binary else TEXT_FILL,
                                                                "WAITSECS": 100 if size >= 4 * MIB else 10})
        cls.ADAPTATION = limits_adaptation(cls)
        case(f"9.{section}.{number}", f"Send {kind} message message with payload of length {exponent} ({size_words(size)}).",
             f"Receive echo'ed {kind} message (with payload as sent).")(cls)

for number, fragsize in enumerate([64, 256, 1 * KIB, 4 * KIB, 16 * KIB, 64 * KIB, 256 * KIB, 1 * MIB, 4 * MIB], start=1):
    for section, binary in ((3, False), (4, True)):
        kind = "binary" if binary else "text"
        cls = type(f"Case9_{section}_{number}", (LimitsCase,), {"DATALEN": 4 * MIB, "BINARY": binary, "AT_LIMIT": True,
                                                                "FILL": b"\xfe" if binary else b"*", "FRAGSIZE": fragsize,
                                                                "WAITSECS": 100})
        cls.ADAPTATION = limits_adaptation(cls)
        case(f"9.{section}.{number}", f"Send fragmented {kind} message message with message payload of length 4 * 2**20 (4M). Sent out "
             f"in fragments of {fragsize if fragsize < KIB else size_words(fragsize)}.", f"Receive echo'ed {kind} message (with payload as sent).")(cls)

for number, chopsize in enumerate([64, 128, 256, 512, 1024, 2048], start=1):
    for section, binary in ((5, False), (6, True)):
        kind = "binary" if binary else "text"
        cls = type(f"Case9_{section}_{number}", (LimitsCase,), {"DATALEN": 1 * MIB, "BINARY": binary, "AT_LIMIT": True,
                                                                "FILL": BINARY_FILL if binary else TEXT_FILL, "CHOPSIZE": chopsize,
                                                                "WAITSECS": 1000})
        cls.ADAPTATION = limits_adaptation(cls)
        case(f"9.{section}.{number}", f"Send {kind} message message with payload of length 1 * 2**20 (1M). Sent out data in chops of "
             f"{chopsize} octets.", f"Receive echo'ed {kind} message (with payload as sent).")(cls)


# Round trips per 9.7/9.8 case instead of Autobahn's 1000: below the app socket's 500 messages a second.
ROUND_TRIPS = 400


class RoundTrips(Case):
    """9.7/9.8: COUNT messages of LEN octets, each sent when the last is answered."""
    LEN = 0
    COUNT = 1000
    WAITSECS = 60
    BINARY = False

    def init(self):
        self.report_time = True

    def count(self):
        # The app socket closes a connection that sends more than 500 messages in a second
        # (docs/APPS-PROTOCOL.md §9), so it gets fewer round trips, whatever their speed; /ws gets
        # as many, which keeps the run within CI's time (a debug build's server takes up to 6 ms
        # a round trip of 4 KiB of text).
        return min(self.COUNT, ROUND_TRIPS)

    def on_open(self):
        self.total = self.count()
        wait = min(self.WAITSECS, MAX_WAIT)
        self.behavior = FAILED
        expect_clean_normal(self)
        self.result = "Case did not finish within %d seconds." % wait
        self.p.wirelog.append(f"{self.total} round trips of {self.LEN} octets")
        self.p.close_after(wait)
        self.sent = 0
        self.send_one()

    def send_one(self):
        self.sent += 1
        if self.BINARY:
            payload, self.answer = b"\xfe" * self.LEN, binary_answer()
        else:
            payload, self.answer = answered_text(self, self.LEN, suffix=f"-{self.sent}")
        # As autobahn does for these, the wire log is kept for the first message only.
        self.p.send_data(build_frame(2 if self.BINARY else 1, payload), log=self.sent == 1)

    def on_message(self, payload, binary):
        self.p.quiet = True
        got = ("message", self.ep.normalize(payload), binary)
        if got != self.answer:
            self.behavior = FAILED
            self.result = f"Answer {self.sent} differs from what was expected: {got} instead of {self.answer}."
            self.p.send_close(CLOSE_NORMAL)
        elif self.sent < self.total:
            self.send_one()
        else:
            self.behavior = OK
            self.result = f"Ok, received all {self.total} answers in time."
            self.p.send_close(CLOSE_NORMAL)


for section, binary in ((7, False), (8, True)):
    for number, (length, count, waitsecs) in enumerate([(0, 1000, 60), (16, 1000, 60), (64, 1000, 60), (256, 1000, 120),
                                                         (1024, 1000, 240), (4096, 1000, 480)], start=1):
        kind = "binary" if binary else "text"
        cls = type(f"Case9_{section}_{number}", (RoundTrips,), {"LEN": length, "COUNT": count, "WAITSECS": waitsecs, "BINARY": binary})
        cls.ADAPTATION = ((ECHO_BINARY if binary else ECHO_TEXT + " Messages too short to hold it (0 and 16 octets) are sent as "
                           "Autobahn sends them and answered with the malformedFrame error.")
                          + f" {ROUND_TRIPS} messages instead of 1000: the app socket closes a connection that sends more than "
                          "500 in a second (docs/APPS-PROTOCOL.md §9), and /ws gets as many to keep the run within CI's time.")
        case(f"9.{section}.{number}", f"Send {count} {kind} messages of payload size {length} to measure implementation/network RTT "
             f"(round trip time) / latency.", f"Receive echo'ed {kind} messages (with payload as sent). Timeout case after {waitsecs} secs.")(cls)

CASES.sort(key=lambda c: [int(x) for x in c.ID.split(".")])
assert len({c.ID for c in CASES}) == len(CASES), "duplicate case ids"
