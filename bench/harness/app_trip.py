"""Scenario 4 (Parlor only): a tic-tac-toe move's round trip, against a plain message.

Pairs of players each share a conversation and play draws (squares 0 1 2 4 3 5 7 6 8), one
move at a time, the moves of all pairs started at a fixed total rate. A move is what the web
client does: tap the opponent's last bubble (`tapMessage`; `openApp` for a new game) → the
`app` frame with the board → `appEvent` with the square button's action from that view tree →
the `staged` frame → `sendStaged` → the new bubble reaches the other player. Its time runs from
the tap to that delivery, the harness's own time between the steps included (reported apart
as `client`). Then the same pairs send plain 200-byte messages at the same rate,
timed from `sendText` to the other player's `message` frame.
"""
import asyncio
import json
import re
import subprocess
import time
import uuid

import parlor_driver
from servers import ParlorServer
from stats import DeliveryLedger, bench_text, ms, new_histogram, now_ns
import sys
import pathlib

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "tools"))
import parlor_protocol as protocol  # noqa: E402  (docs/protocol.json's names)

# The frames a player waits for besides app messages, as their text shows them.
_WAITED_FOR = tuple(protocol.marker(kind) for kind in (protocol.Server.app, protocol.Server.staged, protocol.Server.ack, protocol.Server.error))

APP = "org.parlor.tictactoe"
DRAW = [0, 1, 2, 4, 3, 5, 7, 6, 8]


def find_action(node, element_id):
    """The action of the view element with this id, searched through the view tree's JSON."""
    if isinstance(node, dict):
        if node.get("id") == element_id and "action" in node:
            return node["action"]
        for value in node.values():
            found = find_action(value, element_id)
            if found is not None:
                return found
    elif isinstance(node, list):
        for value in node:
            found = find_action(value, element_id)
            if found is not None:
                return found
    return None


class Player:
    def __init__(self, member):
        self.member = member
        self.inbox = asyncio.Queue()
        self.bubbles = {}  # app message id -> times delivered
        member.on_frame = self._frame

    def _frame(self, member, text, at):
        if protocol.marker(protocol.Server.message) in text and '"kind":"app"' in text:
            frame = json.loads(text)
            message_id = frame["message"]["id"]
            self.bubbles[message_id] = self.bubbles.get(message_id, 0) + 1
            self.inbox.put_nowait((frame, at))
        elif any(marker in text for marker in _WAITED_FOR):
            self.inbox.put_nowait((json.loads(text), at))

    def drain(self):
        while not self.inbox.empty():
            self.inbox.get_nowait()

    async def wait(self, accept, timeout=30.0):
        deadline = time.monotonic() + timeout
        while True:
            frame, at = await asyncio.wait_for(self.inbox.get(), max(0.01, deadline - time.monotonic()))
            if frame["type"] == protocol.Server.error:
                raise RuntimeError(f"{self.member.username}: {json.dumps(frame)[:300]}")
            if accept(frame):
                return frame, at


class Game:
    def __init__(self, conversation, x, o, app=APP):
        self.app = app
        self.conversation = conversation
        self.players = [x, o]
        self.move = 0
        self.last_message = None

    async def play(self, histograms):
        mover = self.players[self.move % 2]
        other = self.players[(self.move + 1) % 2]
        square = DRAW[self.move]
        conversation = self.conversation
        mover.drain()
        other.drain()
        tapped = now_ns()
        if self.last_message is None:
            await mover.member.send({"type": protocol.Client.openApp, "conversation": conversation, "app": self.app})
        else:
            await mover.member.send({"type": protocol.Client.tapMessage, "conversation": conversation, "message": self.last_message})
        found = {}

        def board(frame):
            # The square's action is looked up once, in the frame that has it.
            if frame["type"] != protocol.Server.app or frame.get("conversation") != conversation or not frame["update"]["isActive"]:
                return False
            found["action"] = find_action(frame["update"]["view"], f"square{square}")
            return found["action"] is not None

        _, viewed = await mover.wait(board)
        action = found["action"]
        evented = now_ns()
        await mover.member.send({"type": protocol.Client.appEvent, "conversation": conversation, "app": self.app, "event": {"kind": "action", "action": action}})
        _, staged = await mover.wait(lambda f: f["type"] == protocol.Server.staged and f.get("conversation") == conversation and f.get("staged"))
        request = str(uuid.uuid4())
        sending = now_ns()
        await mover.member.send({"type": protocol.Client.sendStaged, "conversation": conversation, "requestId": request})
        delivered_frame, delivered = await other.wait(lambda f: f["type"] == protocol.Server.message and f["message"]["conversation"] == conversation)
        ack, _ = await mover.wait(lambda f: f["type"] == protocol.Server.ack and f.get("requestId") == request)
        if ack["message"]["id"] != delivered_frame["message"]["id"]:
            raise RuntimeError("the other player got another bubble than the one sent")
        self.last_message = ack["message"]["id"]
        histograms["tap_to_view"].record_value(max(1, (viewed - tapped) // 1000))
        histograms["event_to_staged"].record_value(max(1, (staged - evented) // 1000))
        histograms["send_to_delivered"].record_value(max(1, (delivered - sending) // 1000))
        # The harness's own time between the steps (reading a frame, finding the square, sending the
        # next request): in the whole move, but not the server's.
        histograms["client"].record_value(max(1, ((evented - viewed) + (sending - staged)) // 1000))
        histograms["move"].record_value(max(1, (delivered - tapped) // 1000))
        self.move += 1
        if self.move == len(DRAW):
            self.move, self.last_message = 0, None  # a draw: the next game starts from the drawer


async def paced(games, rate, seconds, one):
    """Starts one unit of work per 1/rate seconds on the next idle game (open loop across games;
    a game still busy with its previous move is skipped to the next idle one)."""
    busy = set()
    tasks = set()
    failures = []
    started = time.monotonic()
    count = 0

    async def run(game):
        try:
            await one(game)
        except Exception as error:  # noqa: BLE001 - reported as a failed check
            failures.append(repr(error)[:300])
        finally:
            busy.discard(game)

    index = 0
    while time.monotonic() - started < seconds:
        target = started + count / rate
        await asyncio.sleep(max(0.0, target - time.monotonic()))
        for attempt in range(len(games)):
            game = games[(index + attempt) % len(games)]
            if game not in busy:
                busy.add(game)
                tasks.add(asyncio.create_task(run(game)))
                index = (index + attempt + 1) % len(games)
                break
        count += 1
    await asyncio.gather(*tasks)
    return count, failures


async def measure(data_dir, config, log, outside=False, wasm=None):
    """The move round trip beside plain messages; with `outside`, Tic-Tac-Toe runs in its own
    process (`parlor apps run`, on the server's core) instead of in the server; with `wasm` (a
    module's path), its Embedded Swift port (examples/tictactoe-wasm) runs as that one
    WebAssembly file, added with `parlor apps add` before the server starts."""
    server = ParlorServer(data_dir, outside=["org.parlor.tictactoe"] if outside else [])
    app = APP
    if wasm is not None:
        server.data_dir.mkdir(parents=True, exist_ok=True)
        added = subprocess.run([str(server.binary), "apps", "add", str(wasm), "--data-dir", str(server.data_dir)],
                               capture_output=True, text=True, check=True)
        app = re.search(r"\((org\.[^)]+)\), a WebAssembly app", added.stdout).group(1)
    server.start()
    members = []
    try:
        names = [f"player{i}" for i in range(config.app_pairs * 2)]
        tokens = await parlor_driver.sign_up(server.port, names)
        games = []
        for i in range(config.app_pairs):
            a, b = names[2 * i], names[2 * i + 1]
            conversation = await parlor_driver.create_conversation(server.port, tokens[a], None, [b])
            pair = []
            for name in (a, b):
                member = parlor_driver.ParlorMember(server, name, tokens[name], len(members))
                member.conversation = conversation
                members.append(member)
                pair.append(Player(member))
            games.append(Game(conversation, *pair, app=app))
        await asyncio.gather(*(m.connect() for m in members))
        histograms = {k: new_histogram() for k in ("tap_to_view", "event_to_staged", "send_to_delivered", "move", "client")}
        warm = {k: new_histogram() for k in histograms}
        await paced(games, config.app_rate, min(3.0, config.app_seconds / 3), lambda g: g.play(warm))
        cpu_before = server.cpu_seconds(), server.runner_cpu_seconds()
        moves, failures = await paced(games, config.app_rate, config.app_seconds, lambda g: g.play(histograms))
        cpu_after = server.cpu_seconds(), server.runner_cpu_seconds()
        move_count = max(histograms["move"].get_total_count(), 1)
        bubbles_ok = all(count == 1 for game in games for player in game.players for count in player.bubbles.values())
        # Plain messages between the same players, at the same rate.
        ledger = DeliveryLedger(1)
        plain = new_histogram()
        numbers = iter(range(1, 10**9))

        async def plain_message(game):
            sender, receiver = game.players
            receiver.member.on_text = lambda _, text, at: ledger.on_text(0, text, at)
            number = next(numbers)
            intended = now_ns()
            ledger.expect(number, intended)
            await sender.member.send({"type": protocol.Client.sendText, "requestId": str(number), "conversation": game.conversation,
                                      "id": str(uuid.uuid4()).upper(), "text": bench_text(number, intended)})
            deadline = time.monotonic() + 30
            while ledger.remaining[number] and time.monotonic() < deadline:
                await asyncio.sleep(0.0005)

        await paced(games, config.app_rate, min(3.0, config.app_seconds / 3), plain_message)
        ledger = DeliveryLedger(1)
        plain_cpu_before = server.cpu_seconds()
        plain_count, plain_failures = await paced(games, config.app_rate, config.app_seconds, plain_message)
        plain_cpu = (server.cpu_seconds() - plain_cpu_before) / max(ledger.delivered, 1)
        plain = ledger.per_delivery
        summary = {name: {"p50": ms(h, 50), "p99": ms(h, 99)} for name, h in histograms.items()}
        result = {
            "rate": config.app_rate, "pairs": config.app_pairs, "moves": histograms["move"].get_total_count(),
            "plain_messages": ledger.delivered, **summary, "plain": {"p50": ms(plain, 50), "p99": ms(plain, 99)},
            "failures": failures + plain_failures,
            # CPU per move (the whole move, both players' sides), of the server and of the app's runner process.
            "server_cpu_per_move": (cpu_after[0] - cpu_before[0]) / move_count,
            "runner_cpu_per_move": (cpu_after[1] - cpu_before[1]) / move_count,
            "server_cpu_per_plain": plain_cpu,
            "exactly_once": not failures and not plain_failures and bubbles_ok and ledger.exactly_once(),
        }
        log(f"  move p50 {result['move']['p50']:.1f} ms p99 {result['move']['p99']:.1f} ms "
            f"(tap→view p50 {result['tap_to_view']['p50']:.1f}, event→staged {result['event_to_staged']['p50']:.1f}, "
            f"send→delivered {result['send_to_delivered']['p50']:.1f}; the harness between steps {result['client']['p50']:.1f}); plain p50 {result['plain']['p50']:.1f} ms "
            f"p99 {result['plain']['p99']:.1f} ms; {result['moves']} moves, {len(result['failures'])} failures; "
            f"server CPU per move {result['server_cpu_per_move'] * 1e6:,.0f} µs, per plain message {plain_cpu * 1e6:,.0f} µs"
            + (f"; app runner CPU per move {result['runner_cpu_per_move'] * 1e6:,.0f} µs" if outside else ""))
        for failure in result["failures"][:5]:
            log(f"    failure: {failure}")
        return result
    finally:
        await asyncio.gather(*(m.close() for m in members), return_exceptions=True)
        server.stop()
