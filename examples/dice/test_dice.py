"""Dice's answers, called the way Parlor calls them (docs/APPS-PROTOCOL.md): each test gives a
call as a dict and checks the frame the app would send. Two tests run the real transports: stdio
in a child process, and the WebSocket loop against a small stand-in for Parlor.

    python3 -m pytest -q examples/dice/test_dice.py
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest

import dice

ALICE = "3F9A0C1E-5B7D-4E21-9A6C-1D2E3F4A5B6C"
BOB = "77C0D1E2-F3A4-4B5C-8D6E-7F8091A2B3C4"
CAROL = "A2B4C6D8-E0F1-4A3B-9C5D-6E7F8091A2B3"
SESSION = "5E55104E-0000-4000-8000-00000000D1CE"
HERE = Path(__file__).resolve().parent


def scoreboard(totals: dict[str, int], last: str, roll: int) -> str:
    items = "&".join(f"{pid}={total}" for pid, total in totals.items())
    return f"https://parlor.example/dice?{items}&last={last}&roll={roll}"


def message(url: str, sender: str | None = None, session: str = SESSION) -> dict:
    found = {"id": "0D1CE000-0000-4000-8000-000000000001", "session": {"id": session}, "url": url, "shouldExpire": False}
    if sender:
        found["senderParticipantIdentifier"] = sender
    return found


def context(local: str = ALICE, selected: dict | None = None, style: str = "compact") -> dict:
    found = {"style": style, "surface": "messages", "localParticipant": local, "remoteParticipants": [p for p in (ALICE, BOB) if p != local]}
    if selected is not None:
        found["selectedMessage"] = selected
    return found


def roll(state, ctx, face: int, call_id: str = "c-roll") -> dict:
    return dice.answer({"id": call_id, "hook": "handle", "state": state, "context": ctx, "action": {"roll": {}}}, die=lambda: face)


def validate(new: dict, head: dict | None = None) -> dict:
    call = {"id": "c-check", "hook": "validate", "message": new}
    if head is not None:
        call["head"] = head
    return dice.answer(call)


def sent(frame: dict) -> dict:
    """The message of a result's single send effect."""
    effects = frame["result"]["effects"]
    assert [e["effect"] for e in effects] == ["send"], effects
    return effects[0]["message"]


def nodes(node: dict):
    yield node
    for child in node.get("children", []):
        yield from nodes(child)


REQUIRED = {
    "stack": {"axis", "alignment", "children"},
    "text": {"text", "style"},
    "button": {"title", "action", "role", "label", "disabled"},
}


def assert_screen(view: dict, score: str):
    """The screen the browser test finds: a title, the scores, and Roll; every required field set."""
    for node in nodes(view):
        missing = REQUIRED[node["type"]] - node.keys()
        assert not missing, f"{node['type']} lacks {missing}"
    assert view["type"] == "stack" and view["axis"] == "vertical"
    title, scores, button = view["children"]
    assert (title["text"], title["style"]) == ("Dice", "title")
    assert (scores["id"], scores["style"], scores["text"]) == ("score", "body", score)
    assert button == {"type": "button", "title": "Roll", "action": '{"roll":{}}', "role": "primary", "label": "Roll a die", "disabled": False}


# MARK: Hooks


def test_a_new_instance_gets_a_state_and_the_screen_with_no_rolls():
    frame = dice.answer({"id": "c1", "hook": "willBecomeActive", "state": None, "context": context()})
    assert frame["type"] == "result"
    assert frame["result"]["id"] == "c1"
    assert frame["result"]["state"] == {"rolls": 0}
    assert "effects" not in frame["result"]
    assert_screen(frame["result"]["view"], "No rolls yet")


@pytest.mark.parametrize("hook", sorted(dice.SHOWING))
def test_every_hook_that_shows_keeps_the_count_and_shows_the_opened_scores(hook):
    opened = message(scoreboard({ALICE: 4, BOB: 9}, BOB, 3), BOB)
    frame = dice.answer({"id": "c2", "hook": hook, "state": {"rolls": 2}, "context": context(selected=opened), "message": opened})
    assert frame["result"]["state"]["rolls"] == 2
    # Opening, selecting or receiving a scoreboard makes it the one on screen.
    assert frame["result"]["state"]["seen"] == opened["url"]
    assert_screen(frame["result"]["view"], f"${ALICE}: 4 · ${BOB}: 9")


@pytest.mark.parametrize("hook", sorted(dice.QUIET))
def test_the_other_hooks_are_unimplemented_so_parlor_stops_calling_them(hook):
    frame = dice.answer({"id": "c9", "hook": hook, "state": {"rolls": 2}, "context": context()})
    assert frame["result"] == {"id": "c9", "unimplemented": True}


def test_a_scoreboard_received_while_open_replaces_the_one_on_screen():
    seen = message(scoreboard({ALICE: 4}, ALICE, 4), ALICE)
    newer = message(scoreboard({ALICE: 4, BOB: 2}, BOB, 2), BOB)
    state = {"rolls": 1, "seen": seen["url"]}
    frame = dice.answer({"id": "c7", "hook": "didReceive", "state": state, "context": context(selected=seen), "message": newer})
    assert_screen(frame["result"]["view"], f"${ALICE}: 4 · ${BOB}: 2")


def test_render_answers_with_the_view_only():
    frame = dice.answer({"id": "c3", "hook": "render", "state": {"rolls": 1}, "context": context(style="transcript")})
    assert frame["result"].keys() == {"id", "view"}
    assert_screen(frame["result"]["view"], "No rolls yet")


def test_a_message_of_another_app_shows_no_rolls():
    other = message("https://example.org/poll?yes=3")
    frame = dice.answer({"id": "c4", "hook": "didSelect", "state": {"rolls": 0}, "context": context(selected=other), "message": other})
    assert_screen(frame["result"]["view"], "No rolls yet")


def test_an_unknown_hook_is_answered_with_its_id_only():
    assert dice.answer({"id": "c5", "hook": "didSomethingNew", "state": None}) == {"type": "result", "result": {"id": "c5"}}


# MARK: Rolling


def test_the_first_roll_starts_a_session_and_sends_it():
    frame = roll({"rolls": 0}, context(), 4)
    sent_message = sent(frame)
    assert frame["result"]["state"] == {"rolls": 1, "seen": sent_message["url"]}
    assert sent_message["session"]["id"] != SESSION
    assert sent_message["id"] != sent_message["session"]["id"]
    query = parse_qsl(urlsplit(sent_message["url"]).query)
    assert query == [(ALICE, "4"), ("last", ALICE), ("roll", "4")]
    assert sent_message["layout"] == {"template": {"caption": f"${ALICE} rolled 4", "subcaption": f"${ALICE}: 4"}}
    assert sent_message["summaryText"] == f"${ALICE} rolled 4"
    assert sent_message["accessibilityLabel"].startswith(f"${ALICE} rolled a four")
    # The roller sees their roll at once, though the opened message is still the one before it.
    assert_screen(frame["result"]["view"], f"${ALICE}: 4")


def test_a_roll_on_an_opened_scoreboard_continues_its_session():
    opened = message(scoreboard({ALICE: 4}, ALICE, 4), ALICE)
    frame = roll({"rolls": 3}, context(local=BOB, selected=opened), 6)
    sent_message = sent(frame)
    assert frame["result"]["state"] == {"rolls": 4, "seen": sent_message["url"]}
    assert sent_message["session"] == {"id": SESSION}
    assert parse_qsl(urlsplit(sent_message["url"]).query) == [(ALICE, "4"), (BOB, "6"), ("last", BOB), ("roll", "6")]
    assert sent_message["layout"]["template"] == {"caption": f"${BOB} rolled 6", "subcaption": f"${ALICE}: 4 · ${BOB}: 6"}
    # Bob rolling again adds to his own total, in the same place.
    again = roll({"rolls": 4}, context(local=BOB, selected=message(sent_message["url"], BOB)), 2)
    assert parse_qsl(urlsplit(sent(again)["url"]).query) == [(ALICE, "4"), (BOB, "8"), ("last", BOB), ("roll", "2")]


def test_a_new_state_starts_counting_from_zero():
    assert roll(None, context(), 1)["result"]["state"]["rolls"] == 1


def test_the_die_is_fair_enough():
    faces = {dice.roll_die() for _ in range(600)}
    assert faces == {1, 2, 3, 4, 5, 6}


def test_an_unknown_action_is_refused():
    frame = dice.answer({"id": "c6", "hook": "handle", "state": None, "context": context(), "action": {"cheat": {}}})
    assert frame == {"type": "refuse", "refusal": {"id": "c6", "code": "actionRefused", "message": "Dice does not know that control."}}


# MARK: Checking messages


def test_validate_accepts_the_rolls_the_app_sends():
    first = sent(roll(None, context(), 3))
    first["senderParticipantIdentifier"] = ALICE
    assert validate(first) == {"type": "result", "result": {"id": "c-check"}}
    second = sent(roll(None, context(local=BOB, selected=first), 5))
    second["senderParticipantIdentifier"] = BOB
    assert validate(second, head=first) == {"type": "result", "result": {"id": "c-check"}}


def test_validate_accepts_a_third_player_joining():
    head = message(scoreboard({ALICE: 4, BOB: 2}, BOB, 2), BOB)
    new = message(scoreboard({ALICE: 4, BOB: 2, CAROL: 6}, CAROL, 6), CAROL)
    assert validate(new, head)["type"] == "result"


FORGED = {
    "someone else's total changes": ({ALICE: 5, BOB: 2}, BOB, 2),
    "two totals change": ({ALICE: 5, BOB: 3}, BOB, 1),
    "the sender's total jumps by seven": ({ALICE: 4, BOB: 9}, BOB, 7),
    "the roll does not match the total": ({ALICE: 4, BOB: 3}, BOB, 2),
    "last names someone else": ({ALICE: 4, BOB: 3}, ALICE, 1),
    "nothing changes": ({ALICE: 4, BOB: 2}, BOB, 2),
    "a player's total goes down": ({ALICE: 4, BOB: 1}, BOB, 1),
    "a player disappears": ({BOB: 3}, BOB, 1),
}


@pytest.mark.parametrize("totals,last,face", FORGED.values(), ids=FORGED.keys())
def test_validate_refuses_forged_scores(totals, last, face):
    head = message(scoreboard({ALICE: 4, BOB: 2}, BOB, 2), BOB)
    frame = validate(message(scoreboard(totals, last, face), BOB), head)
    assert frame == {"type": "refuse", "refusal": {"id": "c-check", "code": "actionRefused", "message": "That roll does not add up."}}


@pytest.mark.parametrize("totals,last,face", [
    ({ALICE: 7}, ALICE, 7),  # no die has seven faces
    ({ALICE: 3, BOB: 2}, ALICE, 3),  # a new game where someone already has points
    ({ALICE: 0}, ALICE, 0),
], ids=["seven", "others-scored", "zero"])
def test_validate_refuses_a_new_session_that_does_not_start_at_zero(totals, last, face):
    assert validate(message(scoreboard(totals, last, face), ALICE))["refusal"]["code"] == "actionRefused"


def test_validate_trusts_only_the_sender_parlor_names():
    # Bob writes Alice's roll: Parlor says Bob sent it, so it is refused.
    frame = validate(message(scoreboard({ALICE: 3}, ALICE, 3), BOB))
    assert frame["refusal"]["code"] == "actionRefused"
    assert validate(message(scoreboard({ALICE: 3}, ALICE, 3)))["refusal"]["code"] == "actionRefused"


@pytest.mark.parametrize("url", [
    None,
    "https://example.org/dice?last=x&roll=1",
    "https://parlor.example/other?roll=1",
    f"https://parlor.example/dice?{ALICE}=3&last={ALICE}",
    f"https://parlor.example/dice?{ALICE}=3&roll=3",
    f"https://parlor.example/dice?{ALICE}=three&last={ALICE}&roll=3",
    f"https://parlor.example/dice?{ALICE}=-3&last={ALICE}&roll=3",
    f"https://parlor.example/dice?{ALICE.lower()}=3&last={ALICE.lower()}&roll=3",
    f"https://parlor.example/dice?{ALICE}=3&{ALICE}=3&last={ALICE}&roll=3",
    f"https://parlor.example/dice?{ALICE}=3&last={ALICE}&roll=3&roll=3",
    f"https://parlor.example/dice?{ALICE}=3&last={BOB}&roll=3",
    f"https://parlor.example/dice?nobody=3&last={ALICE}&roll=3",
    f"https://parlor.example/dice?{ALICE}=3&last={ALICE}&roll=3#more",
    "https://parlor.example/dice?&&&",
    "https://parlor.example/dice",
])
def test_validate_refuses_urls_that_are_not_scoreboards(url):
    frame = validate({"id": "X", "url": url, "senderParticipantIdentifier": ALICE} if url else {"id": "X", "senderParticipantIdentifier": ALICE})
    assert frame["type"] == "refuse"
    assert frame["refusal"]["code"] == "malformedURLState"


def test_validate_refuses_a_head_that_is_not_a_scoreboard():
    head = message("https://example.org/elsewhere")
    frame = validate(message(scoreboard({ALICE: 3}, ALICE, 3), ALICE), head)
    assert frame["refusal"]["code"] == "malformedURLState"


# MARK: Limits and failures


def test_a_crowd_of_scores_fits_a_caption():
    crowd = {f"{n:08X}-0000-4000-8000-000000000000": n for n in range(40)}
    text = dice.scores_text(crowd)
    assert len(text) <= 500
    assert text.endswith(" more")


def test_a_call_the_app_trips_over_is_refused_not_fatal(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(dice, "answer", broken)
    frame = dice.reply_to({"type": "call", "call": {"id": "c7", "hook": "render"}})
    assert frame == {"type": "refuse", "refusal": {"id": "c7", "code": "unknown", "message": "Dice tripped over that; try again."}}


def test_frames_that_are_not_calls_are_not_answered():
    assert dice.reply_to({"type": "welcome", "app": "org.example.dice", "protocol": 1}) is None
    assert dice.reply_to({"type": "error", "code": "malformedFrame", "message": "…"}) is None
    assert dice.reply_to({"type": "containerValue", "id": "r1", "value": None}) is None
    assert dice.reply_to(["not", "a", "frame"]) is None


def test_the_connect_address_follows_the_server_address():
    assert dice.connect_url("http://127.0.0.1:8080") == "ws://127.0.0.1:8080/api/apps/connect?protocol=1"
    assert dice.connect_url("https://chat.example.org/") == "wss://chat.example.org/api/apps/connect?protocol=1"
    with pytest.raises(ValueError):
        dice.connect_url("ftp://example.org")


# MARK: Transports


@pytest.mark.parametrize("switch", [["--stdio"], []], ids=["flag", "PARLOR_STDIO"])
def test_stdio_answers_one_frame_per_line_and_ends_with_stdin(switch):
    lines = [
        {"type": "welcome", "app": "org.example.dice", "protocol": 1},
        {"type": "call", "call": {"id": "s1", "hook": "willBecomeActive", "state": None, "context": context()}},
        {"type": "call", "call": {"id": "s2", "hook": "handle", "state": {"rolls": 0}, "context": context(), "action": {"roll": {}}}},
    ]
    done = subprocess.run(
        [sys.executable, str(HERE / "dice.py"), *switch], input="".join(json.dumps(line) + "\n" for line in lines),
        capture_output=True, text=True, timeout=30,
        env={"PARLOR_APP_SECRET": "parlor_app_not-for-stdio", **({} if switch else {"PARLOR_STDIO": "1"})},
    )
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a["result"]["id"] for a in answers] == ["s1", "s2"]
    assert answers[1]["result"]["effects"][0]["effect"] == "send"
    assert "parlor_app_not-for-stdio" not in done.stderr


def test_the_websocket_loop_answers_overlapping_calls_reconnects_and_stops_at_401():
    from websockets.asyncio.server import serve
    from websockets.datastructures import Headers
    from websockets.http11 import Response

    secret = "parlor_app_test-secret"
    seen: dict = {"connections": 0, "answers": [], "headers": [], "paths": []}

    async def scenario():
        connected_twice = asyncio.Event()

        def check(connection, request):
            seen["headers"].append(request.headers.get("Authorization"))
            seen["paths"].append(request.path)
            if seen["connections"] >= 2:
                body = json.dumps({"error": {"code": "unknownAppCredential", "message": "That app credential is not registered here."}}).encode()
                return Response(401, "Unauthorized", Headers([("Content-Length", str(len(body)))]), body)
            return None

        async def parlor(websocket):
            seen["connections"] += 1
            await websocket.send(json.dumps({"type": "welcome", "app": "org.example.dice", "protocol": 1}))
            # Two calls at once; they may be answered in any order.
            for call_id in ("w1", "w2"):
                await websocket.send(json.dumps({"type": "call", "call": {"id": call_id, "hook": "render", "state": None, "context": context()}}))
            for _ in range(2):
                seen["answers"].append(json.loads(await websocket.recv()))
            if seen["connections"] == 2:
                connected_twice.set()
            # Dropping the connection makes the app dial again.

        async with serve(parlor, "127.0.0.1", 0, process_request=check) as server:
            port = server.sockets[0].getsockname()[1]
            with pytest.raises(dice.Refused, match="HTTP 401: unknownAppCredential"):
                await asyncio.wait_for(dice.run_websocket(f"http://127.0.0.1:{port}", secret), timeout=20)
            assert connected_twice.is_set()

    asyncio.run(scenario())
    assert seen["connections"] == 2
    assert seen["headers"] == [f"Bearer {secret}"] * 3
    assert seen["paths"] == ["/api/apps/connect?protocol=1"] * 3
    assert sorted(a["result"]["id"] for a in seen["answers"]) == ["w1", "w1", "w2", "w2"]


def test_a_refused_upgrade_without_a_reason_ends_the_app_naming_the_likely_causes():
    # What Parlor answers a WebSocket upgrade with an unknown credential: 400, no body.
    from websockets.asyncio.server import serve
    from websockets.datastructures import Headers
    from websockets.http11 import Response

    async def scenario():
        def refuse(connection, request):
            return Response(400, "Bad Request", Headers([("Content-Length", "0")]), b"")

        async def parlor(websocket):
            raise AssertionError("the upgrade was refused")

        async with serve(parlor, "127.0.0.1", 0, process_request=refuse) as server:
            port = server.sockets[0].getsockname()[1]
            with pytest.raises(dice.Refused, match=r"HTTP 400\)\. Either it does not know this app's credential"):
                await asyncio.wait_for(dice.run_websocket(f"http://127.0.0.1:{port}", "parlor_app_wrong"), timeout=20)

    asyncio.run(scenario())


# MARK: In Parlor's simulator (parlor apps simulate): people playing, the app as a server hosts it


def dice_bubbles(person) -> list[dict]:
    return [line for line in person.transcript() if line["kind"] == "bubble" and line.get("appName") == "Dice"]


@pytest.fixture(params=["python", "wasm"])
def hosted(request, tmp_path):
    """What `parlor apps simulate` is given: this app in its own process (the manifest and the
    command), or the same app in C as one WebAssembly file (examples/dice-c), which it runs itself."""
    if request.param == "python":
        return HERE / "manifest.json", [sys.executable, str(HERE / "dice.py")]
    module = tmp_path / "dice.wasm"
    subprocess.run([str(HERE.parent / "dice-c" / "build"), str(module)], check=True, capture_output=True, timeout=120)
    return module, []


def test_three_people_roll_in_one_session_and_a_forged_score_is_refused_in_the_simulator(hosted):
    from parlor_simulator import Simulator, SimulatorError

    with Simulator(*hosted, people=["Alice", "Bob", "Carol"]) as simulator:
        alice, bob, carol = (simulator.person(name) for name in ("Alice", "Bob", "Carol"))
        opened = alice.open_app("Dice")
        assert opened["texts"] == ["Dice", "No rolls yet", "Roll"]
        rolled = alice.tap("Roll a die")
        assert "error" not in rolled, rolled.get("error")
        first = bob.transcript()[-1]
        assert first["sender"] == "Alice" and first["namedText"].startswith("Alice rolled "), first

        for person in (bob, carol):
            person.tap_message("rolled")
            screen = person.tap("Roll a die")
            assert "error" not in screen, (person.name, screen.get("error"))
        bubbles = dice_bubbles(alice)
        assert len(bubbles) == 1, "one session, one bubble"
        latest = bubbles[0]
        assert latest["sender"] == "Carol"
        scores = latest["message"]["layout"]["template"]["subcaption"].split(" · ")
        assert len(scores) == 3, scores

        # Bob claims 100 points, everyone else's score kept: Dice's validate refuses it, and the
        # bubble stays Carol's.
        bob_id = bob.participant_id("Dice")
        totals = dict(parse_qsl(urlsplit(latest["message"]["url"]).query))
        assert bob_id in totals and len(totals) == 5, totals
        totals.update({bob_id: "100", "last": bob_id, "roll": "6"})
        forged = dict(latest["message"], id=str(uuid.uuid4()).upper(), url=f"https://parlor.example/dice?{urlencode(totals)}")
        with pytest.raises(SimulatorError) as refused:
            bob.send_raw_message(forged, replacing=latest["id"])
        assert (refused.value.code, refused.value.message) == ("actionRefused", "That roll does not add up.")
        assert [line["id"] for line in dice_bubbles(alice)] == [latest["id"]]

        # A person who is not in the conversation, and a control that is not there, are said plainly.
        with pytest.raises(SimulatorError, match="'Dave' is not in this conversation"):
            simulator.person("Dave").open_app("Dice")
        with pytest.raises(SimulatorError, match="No enabled button.*'Cheat'"):
            alice.tap("Cheat")


def test_two_rolls_at_once_both_count_in_the_simulator(hosted):
    """Bob rolls on the scoreboard he sees while Alice's newer roll is still on its way to him:
    Parlor re-runs his roll on the newest scoreboard, so neither roll is lost."""
    from parlor_simulator import Simulator

    with Simulator(*hosted, people=["Alice", "Bob"]) as simulator:
        alice, bob = simulator.person("Alice"), simulator.person("Bob")
        alice.open_app("Dice")
        alice.tap("Roll a die")
        for person in (alice, bob):
            person.tap_message("rolled")
        bob.hold_deliveries()
        alice.tap("Roll a die")
        alices = dict(parse_qsl(urlsplit(dice_bubbles(alice)[0]["message"]["url"]).query))
        alice_id = alice.participant_id("Dice")
        screen = bob.tap("Roll a die")
        assert "error" not in screen, screen.get("error")
        bob.release_deliveries()
        bubbles = dice_bubbles(alice)
        assert len(bubbles) == 1 and bubbles[0]["sender"] == "Bob"
        totals = dict(parse_qsl(urlsplit(bubbles[0]["message"]["url"]).query))
        assert totals[alice_id] == alices[alice_id], "Alice's second roll is kept under Bob's"
        assert bob.participant_id("Dice") in totals


def test_dice_dialled_in_to_the_simulator_as_to_a_server(tmp_path):
    from parlor_simulator import Simulator

    with Simulator(HERE / "manifest.json", people=["Alice", "Bob"], listen=True) as simulator:
        assert simulator.listening["url"].startswith("http://127.0.0.1:")
        # What the app logs goes to a file: a pipe nobody reads would stop a chatty app.
        log = tmp_path / "dice.log"
        with log.open("w") as err:
            app = subprocess.Popen(
                [sys.executable, str(HERE / "dice.py")], env={**os.environ, **simulator.app_environment()},
                stdout=subprocess.DEVNULL, stderr=err,
            )
        try:
            alice, bob = simulator.person("Alice"), simulator.person("Bob")
            alice.open_app("Dice")
            alice.tap("Roll a die")
            bob.tap_message()
            screen = bob.tap("Roll a die")
            assert "error" not in screen, screen.get("error")
            (bubble,) = dice_bubbles(alice)
            assert bubble["sender"] == "Bob" and len(bubble["message"]["layout"]["template"]["subcaption"].split(" · ")) == 2
        finally:
            app.kill()
            app.wait()
        # The app gone, the next roll costs Bob a sentence in the app's panel, not the conversation.
        error = bob.tap("Roll a die").get("error")
        assert error and error["code"] == "appUnavailable" and "Dice" in error["message"], error
        assert bob.send("still talking")["text"] == "still talking"
        said = log.read_text()
        assert "Parlor welcomed org.example.dice" in said, said
        assert simulator.listening["secret"] not in said, "the credential is never logged"
