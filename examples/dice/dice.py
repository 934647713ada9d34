#!/usr/bin/env python3
"""Dice: a Parlor app in its own process, written from docs/APPS-PROTOCOL.md with no Parlor SDK.

Everyone in a conversation rolls one die at a time; the bubble keeps the score. The scores live in
the message URL (as an iMessage app keeps its data), so this process keeps nothing between calls:
it can be stopped, restarted or run twice without losing a game.

    PARLOR_URL=http://127.0.0.1:8080 PARLOR_APP_SECRET=parlor_app_… python3 dice.py
    python3 dice.py --stdio        # one JSON frame per line on stdin and stdout

`answer(call)` turns one call into the frame to send back; the rest is the two transports.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import sys
import uuid
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode, urlsplit

APP_ID = "org.example.dice"
NAME = "Dice"
PROTOCOL = 1
# Where the scores go. Nobody loads this address: it only carries the message's state.
BASE_URL = "https://parlor.example/dice"
ROLL_ACTION = '{"roll":{}}'
FACES = 6
# Messages' limit for each caption text (docs/PROTOCOL.md §5).
MAX_CAPTION = 500
NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}

log = logging.getLogger("dice")
_dice = random.SystemRandom()


def roll_die() -> int:
    return _dice.randint(1, FACES)


# MARK: The scoreboard in a message URL


class MalformedURL(ValueError):
    """A message URL that is not a Dice scoreboard."""


@dataclass(frozen=True)
class Board:
    """One message's state: each player's total (in the order they first rolled), who rolled last
    and what."""

    totals: dict[str, int]
    last: str
    roll: int

    def url(self) -> str:
        items = list(self.totals.items()) + [("last", self.last), ("roll", str(self.roll))]
        return BASE_URL + "?" + urlencode(items)

    @staticmethod
    def parse(url: object) -> Board:
        """Reads a scoreboard URL.
        Raises: MalformedURL when the URL is not one this app writes."""
        if not isinstance(url, str):
            raise MalformedURL("no URL")
        parts = urlsplit(url)
        if f"{parts.scheme}://{parts.netloc}{parts.path}" != BASE_URL or parts.fragment:
            raise MalformedURL("not a Dice URL")
        totals: dict[str, int] = {}
        last = roll = None
        try:
            items = parse_qsl(parts.query, keep_blank_values=True, strict_parsing=True, max_num_fields=500)
        except ValueError:
            raise MalformedURL("unreadable query") from None
        for key, value in items:
            if key == "last" and last is None:
                last = participant(value)
            elif key == "roll" and roll is None:
                roll = count(value)
            elif key not in totals and key not in ("last", "roll"):
                totals[participant(key)] = count(value)
            else:
                raise MalformedURL(f"'{key[:40]}' appears twice")
        if last is None or roll is None or last not in totals:
            raise MalformedURL("no last roll")
        return Board(totals, last, roll)


def participant(text: str) -> str:
    """A participant id as Parlor writes it (an upper-case UUID)."""
    try:
        canonical = str(uuid.UUID(text)).upper()
    except ValueError:
        raise MalformedURL("not a participant id") from None
    if canonical != text:
        raise MalformedURL("not a participant id")
    return canonical


def count(text: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 9):
        raise MalformedURL("not a count")
    return int(text)


def board_of(message: object) -> Board | None:
    """The scoreboard of a message, or None when it is not a Dice message."""
    if not isinstance(message, dict):
        return None
    try:
        return Board.parse(message.get("url"))
    except MalformedURL:
        return None


def scores_text(totals: dict[str, int], limit: int = MAX_CAPTION) -> str:
    """`$<id>: total` for each player, joined by ' · ' (Parlor shows each `$<id>` as a name), cut
    to fit `limit` characters."""
    parts = [f"${pid}: {total}" for pid, total in totals.items()]
    text = " · ".join(parts)
    shown = len(parts)
    while len(text) > limit and shown > 1:
        shown -= 1
        text = " · ".join(parts[:shown]) + f" · and {len(parts) - shown} more"
    return text[:limit]


# MARK: What Parlor shows


def view(state: object, context: object) -> dict:
    """The app's screen: the newest scores this person has seen (their own roll included), else
    those of the message they opened, and the Roll button. A pure function of the state and the
    context, as the protocol asks (§5)."""
    seen = state.get("seen") if isinstance(state, dict) else None
    selected = context.get("selectedMessage") if isinstance(context, dict) else None
    board = board_of({"url": seen}) if isinstance(seen, str) else board_of(selected)
    return {
        "type": "stack", "axis": "vertical", "alignment": "center", "spacing": 8,
        "children": [
            {"type": "text", "text": NAME, "style": "title"},
            {"type": "text", "text": scores_text(board.totals) if board else "No rolls yet", "style": "body", "id": "score"},
            {"type": "button", "title": "Roll", "action": ROLL_ACTION, "role": "primary", "label": "Roll a die", "disabled": False},
        ],
    }


def message_for(board: Board, session: str) -> dict:
    """The bubble for a scoreboard."""
    roller = "$" + board.last
    scores = scores_text(board.totals)
    said = f"{roller} rolled {board.roll}"
    return {
        "id": str(uuid.uuid4()).upper(),
        "session": {"id": session},
        "url": board.url(),
        "layout": {"template": {"caption": said, "subcaption": scores}},
        "summaryText": said,
        "accessibilityLabel": f"{roller} rolled a {NUMBER_WORDS[board.roll]}. {scores}"[:MAX_CAPTION],
    }


# MARK: Answering calls


def result(call_id: str, **fields) -> dict:
    """A `result` frame: `state`, `effects` and `view` as given (a state left out stays as it was)."""
    return {"type": "result", "result": {"id": call_id, **fields}}


def refuse(call_id: str, code: str, message: str) -> dict:
    return {"type": "refuse", "refusal": {"id": call_id, "code": code, "message": message}}


def answer(call: dict, *, die=roll_die) -> dict:
    """The frame that answers one call (the `call` object of a `call` frame)."""
    call_id = str(call.get("id", ""))
    hook = call.get("hook")
    state = call.get("state")
    if state is None:
        state = {"rolls": 0}
    context = call.get("context") if isinstance(call.get("context"), dict) else {}
    if hook == "validate":
        return validate(call_id, call.get("message"), call.get("head"))
    if hook == "render":
        return result(call_id, view=view(state, context))
    if hook == "handle":
        return handle(call_id, call.get("action"), state, context, die)
    if hook in SHOWING:
        state = remember(state, hook, call.get("message"), context)
        return result(call_id, state=state, view=view(state, context))
    if hook in QUIET:
        # Nothing to do: Parlor stops calling them (docs/APPS-PROTOCOL.md §3.2).
        return result(call_id, unimplemented=True)
    return result(call_id)


def remember(state: dict, hook: str, message: object, context: dict) -> dict:
    """The state after a lifecycle hook: the scoreboard the person sees now. Opening a message or
    receiving one shows it; opening from the drawer shows none."""
    state = dict(state) if isinstance(state, dict) else {"rolls": 0}
    if hook in ("willSelect", "didSelect", "didReceive") and board_of(message):
        state["seen"] = message.get("url")
    elif hook == "willBecomeActive":
        selected = context.get("selectedMessage")
        if board_of(selected):
            state["seen"] = selected.get("url")
        else:
            state.pop("seen", None)
    return state


# The hooks that change what the person sees, and those where there is nothing to do.
SHOWING = {"willBecomeActive", "willSelect", "didSelect", "didReceive"}
QUIET = {"didBecomeActive", "willResignActive", "didResignActive", "didStartSending", "didCancelSending", "willTransition", "didTransition"}


def handle(call_id: str, action: object, state: object, context: dict, die) -> dict:
    """A roll: adds a die to the person's total in the opened scoreboard (or starts one) and sends
    the new scoreboard, replacing the old one in its session."""
    if not (isinstance(action, dict) and "roll" in action):
        return refuse(call_id, "actionRefused", "Dice does not know that control.")
    me = context.get("localParticipant")
    try:
        me = participant(str(me).upper())
    except MalformedURL:
        return refuse(call_id, "invalidValue", "Dice could not tell who is rolling.")
    selected = context.get("selectedMessage")
    board = board_of(selected)
    session = selected.get("session") if board else None
    session = session.get("id") if isinstance(session, dict) and isinstance(session.get("id"), str) else None
    # A scoreboard continues in its session; anything else starts a new one.
    totals = dict(board.totals) if board and session else {}
    session = session or str(uuid.uuid4()).upper()
    rolled = die()
    totals[me] = totals.get(me, 0) + rolled
    message = message_for(Board(totals, me, rolled), session)
    rolls = state.get("rolls", 0) if isinstance(state, dict) and isinstance(state.get("rolls"), int) else 0
    # The sender sees their own roll at once (the opened message is still the one before it).
    new_state = {"rolls": rolls + 1, "seen": message["url"]}
    return result(call_id, state=new_state, effects=[{"effect": "send", "message": message}], view=view(new_state, context))


def validate(call_id: str, message: object, head: object) -> dict:
    """Accepts a scoreboard only when it is the one before it plus one honest roll by its sender."""
    try:
        new = Board.parse(message.get("url") if isinstance(message, dict) else None)
        old = Board.parse(head.get("url")) if isinstance(head, dict) else None
    except MalformedURL:
        return refuse(call_id, "malformedURLState", "That is not a Dice scoreboard.")
    try:
        sender = participant(str(message.get("senderParticipantIdentifier")).upper())
    except MalformedURL:
        return refuse(call_id, "actionRefused", "That roll does not add up.")
    before = old.totals if old else {}
    players = set(before) | set(new.totals)
    changed = {pid for pid in players if before.get(pid, 0) != new.totals.get(pid, 0)}
    honest = (
        changed == {sender}
        and new.last == sender
        and new.totals[sender] - before.get(sender, 0) == new.roll
        and 1 <= new.roll <= FACES
    )
    if not honest:
        return refuse(call_id, "actionRefused", "That roll does not add up.")
    return result(call_id)


def reply_to(frame: object) -> dict | None:
    """What to send for a frame from Parlor, if anything."""
    if not isinstance(frame, dict):
        log.warning("Parlor sent something that is not a frame; ignored.")
        return None
    kind = frame.get("type")
    if kind == "call" and isinstance(frame.get("call"), dict) and "id" in frame["call"]:
        call = frame["call"]
        try:
            return answer(call)
        except Exception:  # One bad call must not end the app; Parlor shows the person why.
            log.exception("Could not answer a %s call", call.get("hook"))
            return refuse(str(call["id"]), "unknown", "Dice tripped over that; try again.")
    if kind == "welcome":
        log.info("Parlor welcomed %s (protocol %s); waiting for calls.", frame.get("app"), frame.get("protocol"))
        if frame.get("protocol") != PROTOCOL:
            log.warning("This app speaks protocol %s; Parlor said %s.", PROTOCOL, frame.get("protocol"))
        if frame.get("app") != APP_ID:
            log.warning("This credential belongs to %s, not %s: check PARLOR_APP_SECRET.", frame.get("app"), APP_ID)
    elif kind == "error":
        log.warning("Parlor refused a frame: %s: %s", frame.get("code"), frame.get("message"))
    elif kind != "containerValue":
        log.warning("Parlor sent a frame of type %r; ignored.", kind)
    return None


def encode(frame: dict) -> str:
    return json.dumps(frame, separators=(",", ":"))


# MARK: Transports


def run_stdio() -> None:
    """One JSON frame per line on stdin; one per line on stdout. Ends when stdin closes."""
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            frame = json.loads(line)
        except json.JSONDecodeError:
            log.warning("A line on stdin is not JSON; ignored.")
            continue
        reply = reply_to(frame)
        if reply is not None:
            sys.stdout.write(encode(reply) + "\n")
            sys.stdout.flush()


def connect_url(parlor_url: str) -> str:
    """`http://host:port` → `ws://host:port/api/apps/connect?protocol=1` (https → wss)."""
    parts = urlsplit(parlor_url.strip())
    scheme = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}.get(parts.scheme)
    if scheme is None or not parts.netloc:
        raise ValueError(f"PARLOR_URL must be an http or https address, not {parlor_url!r}")
    return f"{scheme}://{parts.netloc}{parts.path.rstrip('/')}/api/apps/connect?protocol={PROTOCOL}"


class Refused(Exception):
    """Parlor will not take this app's connection; trying again would not help."""


async def serve_connection(websocket) -> None:
    """Answers calls until the connection ends; each call in its own task, as calls may overlap."""
    tasks: set[asyncio.Task] = set()

    async def reply(frame: dict) -> None:
        response = reply_to(frame)
        if response is None:
            return
        try:
            await websocket.send(encode(response))
        except Exception as error:  # The connection dropped; Parlor fails the call for its person.
            log.warning("Could not send an answer: %s.", error)

    try:
        async for text in websocket:
            try:
                frame = json.loads(text)
            except (json.JSONDecodeError, TypeError):
                log.warning("Parlor sent a frame that is not JSON; ignored.")
                continue
            task = asyncio.create_task(reply(frame))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
    finally:
        for task in tasks:
            task.cancel()


async def run_websocket(parlor_url: str, secret: str) -> None:
    """Dials in to Parlor and stays connected: after a drop it dials again, waiting 0.25 s, then
    twice as long each time up to 10 s."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

    url = connect_url(parlor_url)
    pause = 0.25
    while True:
        try:
            async with connect(url, additional_headers={"Authorization": f"Bearer {secret}"}) as websocket:
                log.info("Connected to %s.", url.split("?")[0])
                pause = 0.25
                await serve_connection(websocket)
            reason = f" ({websocket.close_code}: {websocket.close_reason})" if websocket.close_reason else ""
            log.warning("Parlor closed the connection%s.", reason)
        except InvalidStatus as error:
            status = error.response.status_code
            detail = _error_text(error.response.body)
            if status == 401:
                raise Refused(f"Parlor at {parlor_url} does not know this app's credential (HTTP 401{detail}). "
                              "Check PARLOR_APP_SECRET, or register the app with `parlor apps add`.") from None
            if status == 400:
                # Parlor answers a refused WebSocket upgrade with 400, often with no reason given.
                raise Refused(f"Parlor at {parlor_url} refused the connection (HTTP 400{detail}). Either it does not "
                              "know this app's credential (check PARLOR_APP_SECRET, or register the app with "
                              f"`parlor apps add`), or it does not speak app protocol {PROTOCOL}.") from None
            log.warning("Parlor answered HTTP %s%s.", status, detail)
        except InvalidHandshake as error:
            log.warning("Parlor did not accept the WebSocket: %s.", error)
        except ConnectionClosed as error:
            log.warning("The connection to Parlor dropped (%s).", error)
        except (OSError, asyncio.TimeoutError) as error:
            log.warning("Could not reach Parlor at %s: %s.", url.split("?")[0], error or type(error).__name__)
        log.info("Connecting again in %g s.", pause)
        await asyncio.sleep(pause)
        pause = min(pause * 2, 10.0)


def _error_text(body: bytes | None) -> str:
    """`: code: message` from Parlor's JSON error body, when it has one."""
    try:
        error = json.loads(body or b"").get("error", {})
        return f": {error['code']}: {error['message']}"
    except (ValueError, AttributeError, KeyError, TypeError):
        return ""


def main(argv: list[str]) -> int:
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="dice: %(message)s")
    # The library's debug log would include the request headers, credential and all.
    logging.getLogger("websockets").setLevel(logging.WARNING)
    if "-h" in argv or "--help" in argv:
        print(__doc__.strip(), file=sys.stderr)
        return 0
    if "--stdio" in argv or os.environ.get("PARLOR_STDIO") == "1":
        run_stdio()
        return 0
    secret = os.environ.get("PARLOR_APP_SECRET", "").strip()
    if not secret:
        log.error("Set PARLOR_APP_SECRET to the credential `parlor apps add` printed (or use --stdio).")
        return 2
    parlor_url = os.environ.get("PARLOR_URL", "http://127.0.0.1:8080")
    try:
        connect_url(parlor_url)
        asyncio.run(run_websocket(parlor_url, secret))
    except (Refused, ValueError) as error:
        log.error("%s", error)
        return 1
    except KeyboardInterrupt:
        log.info("Stopped.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
