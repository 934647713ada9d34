"""Apps outside the server. Dice (examples/dice), a Python process that dials in over the app
connection protocol, is added to a running server, played by two people, stopped and started
again; the scores survive because they live in the messages, not in the process. Quick Poll
(examples/poll), a Swift package of its own on ParlorSDK alone, runs its unchanged app code with
ParlorAppRunner in its own process."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, parlor_binary

DICE = ROOT / "examples" / "dice"
POLL = ROOT / "examples" / "poll"
SCORE = re.compile(r"\b(Alice|Bob): (\d+)\b")


class DiceApp:
    """`python3 examples/dice/dice.py`, its stderr in artifacts/dice-<n>.log."""

    def __init__(self, server_url: str, secret: str, log: Path):
        self.log = log
        env = {**os.environ, "PARLOR_URL": server_url, "PARLOR_APP_SECRET": secret, "PYTHONUNBUFFERED": "1"}
        env.pop("PARLOR_STDIO", None)
        with open(log, "w") as stderr:
            self.process = subprocess.Popen([sys.executable, str(DICE / "dice.py")], env=env, stdin=subprocess.DEVNULL,
                                            stdout=subprocess.DEVNULL, stderr=stderr, cwd=ROOT)

    def wait_until_welcomed(self, timeout: float = 15):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if "Parlor welcomed org.example.dice" in self.log.read_text():
                return
            assert self.process.poll() is None, f"dice.py ended: {self.log.read_text()[-2000:]}"
            time.sleep(0.05)
        raise AssertionError(f"dice.py did not connect within {timeout:.0f} s: {self.log.read_text()[-2000:]}")

    def kill(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)


def add_app(server, manifest: Path, name: str) -> str:
    """`parlor apps add MANIFEST` on the running server; the credential it prints once."""
    added = subprocess.run(
        [str(parlor_binary()), "apps", "add", str(manifest), "--data-dir", server.data_dir],
        capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert added.returncode == 0, added.stderr
    assert f"Added {name}" in added.stdout, added.stdout
    return next(line.strip() for line in added.stdout.splitlines() if line.startswith("parlor_app_"))


def alice_and_bob(browsers):
    """Alice and Bob, each in their conversation with the other."""
    alice = browsers("alice")
    bob = browsers("bob")
    alice.open_conversation("Bob")
    bob.open_conversation("Alice")
    return alice, bob


def open_added_app(person, name: str):
    """Opens an app added while the server runs, once it shows in the person's drawer."""
    person.open_drawer()
    person.wait(lambda: name in person.drawer_names(), f"{name} in the drawer")
    person.open_app(name)


def poll_app() -> Path:
    """examples/poll's poll-app executable, built in the root's scratch path by scripts/swift-poll
    (scripts/e2e builds it before the flows)."""
    built = ROOT / ".build" / "debug" / "poll-app"
    if not built.exists():
        subprocess.run([str(ROOT / "scripts" / "swift-poll"), "build", "--product", "poll-app"], check=True, timeout=1800)
    return built


def server_log_count(server_log: Path, text: str) -> int:
    return server_log.read_text().count(text)


def scores(person, card) -> dict[str, int]:
    return {name: int(total) for name, total in SCORE.findall(person.card_text(card))}


def wait_for_scores(person, what: str, accept) -> dict[str, int]:
    """Waits for the newest Dice bubble to show scores `accept` likes; returns them."""

    def ready():
        cards = person.app_cards()
        if not cards:
            return None
        found = scores(person, cards[-1])
        return found if accept(found) else None

    return person.wait(ready, what)


@pytest.mark.flow
def test_an_app_in_its_own_process_keeps_score_across_a_restart(server, browsers, artifacts):
    # The operator adds Dice to the running server; it prints the credential once.
    secret = add_app(server, DICE / "manifest.json", "Dice (org.example.dice)")
    server_log = artifacts / "server.log"

    # A wrong credential is refused, and the app says so and ends instead of dialling forever.
    wrong = subprocess.run(
        [sys.executable, str(DICE / "dice.py")], capture_output=True, text=True, timeout=30, cwd=ROOT,
        env={**os.environ, "PARLOR_URL": server.url, "PARLOR_APP_SECRET": "parlor_app_not-registered"})
    assert wrong.returncode == 1 and "credential" in wrong.stderr, wrong.stderr
    assert "parlor_app_not-registered" not in wrong.stderr

    dice = DiceApp(server.url, secret, artifacts / "dice-1.log")
    try:
        dice.wait_until_welcomed()
        alice, bob = alice_and_bob(browsers)

        # Alice finds Dice in her drawer without anyone restarting the server, and rolls.
        open_added_app(alice, "Dice")
        alice.wait_for_surface("Dice", style="compact")
        alice.wait_for_node_text("score", "No rolls yet")
        # Its manifest asks for a compact tray 200 points tall (compactHeight), not the default 340.
        tray = alice.js("return Math.round(document.querySelector('.surface-conversation').getBoundingClientRect().height)")
        assert tray == 200, tray
        alice.shot("dice-opened")
        alice.press_in_app("Roll a die")
        first = wait_for_scores(alice, "Alice's roll in a bubble", lambda s: s.keys() == {"Alice"})
        assert 1 <= first["Alice"] <= 6
        card = bob.wait_for_card(f"Alice rolled {first['Alice']}")
        assert scores(bob, card) == first
        bob.shot("alice-rolled")

        # Bob rolls from the bubble: the same bubble now keeps both scores.
        bob.tap_card("rolled")
        bob.wait_for_surface("Dice", style="expanded")
        bob.wait_for_node_text("score", f"Alice: {first['Alice']}")
        bob.press_in_app("Roll a die")
        both = {}
        for person in (alice, bob):
            both = wait_for_scores(person, "both scores in the bubble", lambda s: s.keys() == {"Alice", "Bob"})
            assert both["Alice"] == first["Alice"] and 1 <= both["Bob"] <= 6, both
            person.wait(lambda p=person: len(p.app_cards()) == 1, "one bubble for the game")
            assert f"Bob rolled {both['Bob']}" in person.card_text(person.app_cards()[0])
            assert person.summary_lines() == [f"Alice rolled {first['Alice']}"], person.summary_lines()
        alice.shot("both-rolled")

        # The app's process goes away: Bob's roll fails with a sentence, and nothing else changes.
        disconnects = server_log_count(server_log, "An app disconnected")
        dice.kill()
        bob.wait(lambda: server_log_count(server_log, "An app disconnected") > disconnects, "the server to notice Dice left", timeout=10)
        bob.press_in_app("Roll a die")
        bob.wait(lambda: "Dice is not" in bob.surface_text(), "a sentence saying Dice is away")
        assert "Dice is not connected to this server right now" in bob.surface_text() or "Dice is not responding" in bob.surface_text()
        bob.shot("dice-away")
        for person in (alice, bob):
            assert len(person.app_cards()) == 1
            assert scores(person, person.app_cards()[0]) == both

        # Started again, it carries on from the scores in the bubble.
        dice = DiceApp(server.url, secret, artifacts / "dice-2.log")
        dice.wait_until_welcomed()
        bob.press_in_app("Roll a die")
        for person in (alice, bob):
            again = wait_for_scores(person, "Bob's roll after the restart", lambda s: s.get("Bob", 0) > both["Bob"])
            assert again["Alice"] == both["Alice"] and 1 <= again["Bob"] - both["Bob"] <= 6, (both, again)
            person.wait(lambda p=person: len(p.summary_lines()) == 2, "Bob's earlier roll to leave its summary line")
            assert len(person.app_cards()) == 1
            assert person.summary_lines() == [f"Alice rolled {first['Alice']}", f"Bob rolled {both['Bob']}"], person.summary_lines()
        assert "Dice is not" not in bob.surface_text()
        bob.shot("rolled-after-restart")
        bob.press_in_app("Close Dice")
        bob.wait_surface_closed()
        bob.shot("final-scores")
        # The credential is never written to the app's log.
        for log in artifacts.glob("dice-*.log"):
            assert secret not in log.read_text()
    finally:
        dice.kill()


@pytest.mark.flow
def test_apps_that_are_one_webassembly_file_are_added_and_used_by_two(server, browsers, artifacts, tmp_path):
    # Tic-Tac-Toe and Quick Poll ported to Embedded Swift with ParlorWasmKit (examples/*-wasm),
    # each built as one .wasm file by `parlor apps build` with the Swift toolchain alone; the
    # operator adds the files to the running server, and nothing else runs: no process, no
    # credential. (Dice in C, the other Wasm example, is played in the simulator and on two nodes.)
    for example, announced in (("tictactoe-wasm", "Tic-Tac-Toe (Wasm) (org.example.tictactoe-wasm)"), ("poll-wasm", "Poll (Wasm) (org.example.poll-wasm)")):
        module = tmp_path / f"{example}.wasm"
        built = subprocess.run([str(parlor_binary()), "apps", "build", str(ROOT / "examples" / example), "-o", str(module)],
                               capture_output=True, text=True, timeout=300, cwd=ROOT)
        assert built.returncode == 0, built.stderr
        added = subprocess.run([str(parlor_binary()), "apps", "add", str(module), "--data-dir", server.data_dir],
                               capture_output=True, text=True, timeout=60, cwd=ROOT)
        assert added.returncode == 0, added.stderr
        assert f"Added {announced}, a WebAssembly app" in added.stdout, added.stdout
    alice, bob = alice_and_bob(browsers)
    name = "Tic-Tac-Toe (Wasm)"

    open_added_app(alice, name)
    alice.wait_for_surface(name, style="compact")
    alice.wait_for_node_text("status", "Tap a square to start a game. You play X.")
    alice.press_in_app("Row 1, column 1, empty")
    alice.wait_surface_closed()
    alice.wait_for_staged("Want to play Tic-Tac-Toe?")
    alice.send()

    bob.wait_for_card("Want to play Tic-Tac-Toe?")
    bob.tap_card("Want to play Tic-Tac-Toe?")
    bob.wait_for_surface(name, style="expanded")
    bob.wait_for_node_text("status", "Tap a square to play O against Alice")
    bob.press_in_app("Row 2, column 2, empty")
    bob.wait_surface_closed()
    bob.wait_for_staged("It's your move!")
    bob.send()
    for person in (alice, bob):
        person.wait(lambda p=person: p.summary_lines() == ["Alice played the top-left square"], "Alice's move to leave its summary line")
        person.wait(lambda p=person: len(p.app_cards()) == 1, "one bubble for the game")
    # Alice cannot move for Bob: a square out of turn is refused in the app's words.
    bob.tap_card("It's your move!")
    bob.wait_for_surface(name, style="expanded")
    bob.wait_for_node_text("status", "Waiting for Alice to play X.")
    bob.press_in_app("Row 3, column 3, empty")
    bob.wait(lambda: "It's not your turn: waiting for Alice to play X." in bob.surface_text(), "the refusal in words")
    bob.shot("wasm-tictactoe-out-of-turn")
    assert "not responding" not in bob.surface_text()
    bob.press_in_app(f"Close {name}")
    bob.wait_surface_closed()

    # The poll: Alice asks, Bob votes from the bubble, and the one bubble counts it for both.
    open_added_app(alice, "Poll (Wasm)")
    alice.type_in_app("Question", "Lunch? 🍕")
    alice.type_in_app("Option 1", "Pizza")
    alice.type_in_app("Option 2", "Sushi")
    alice.press_in_app("Create")
    alice.wait_for_staged("Lunch? 🍕")
    alice.send()
    bob.wait_for_card("Lunch? 🍕")
    bob.tap_card("Lunch? 🍕")
    bob.wait_for_surface("Poll (Wasm)", style="expanded")
    bob.press_in_app("Pizza: 0")
    bob.wait_for_staged("Pizza 1")
    bob.send()
    for person in (alice, bob):
        person.wait(lambda p=person: any("Pizza 1 · Sushi 0" in p.card_text(card) for card in p.app_cards()), "the poll bubble with Bob's vote")
    bob.shot("wasm-poll-voted")


@pytest.mark.flow
def test_a_swift_app_package_runs_in_its_own_process(server, browsers, artifacts):
    # Quick Poll's own package: the app, and poll-app, which hands it to ParlorAppRunner.
    secret = add_app(server, POLL / "manifest.json", "Poll (org.example.poll)")
    log = artifacts / "poll-app.log"
    env = {**os.environ, "PARLOR_URL": server.url, "PARLOR_APP_SECRET": secret}
    with open(log, "w") as output:
        process = subprocess.Popen([str(poll_app())], env=env, stdin=subprocess.DEVNULL, stdout=output,
                                   stderr=subprocess.STDOUT, cwd=ROOT)
    try:
        deadline = time.monotonic() + 30
        while "Connected to Parlor" not in log.read_text():
            assert process.poll() is None, f"poll-app ended: {log.read_text()[-2000:]}"
            assert time.monotonic() < deadline, f"poll-app did not connect: {log.read_text()[-2000:]}"
            time.sleep(0.05)

        alice, bob = alice_and_bob(browsers)

        # Alice asks; the poll is staged in her compose field and she sends it.
        open_added_app(alice, "Poll")
        alice.type_in_app("Question", "Lunch?")
        alice.type_in_app("Option 1", "Pizza")
        alice.type_in_app("Option 2", "Sushi")
        alice.wait(lambda: alice.button("Create", root=alice.surface()) is not None, "the Create button")
        alice.press_in_app("Create")
        alice.wait_for_staged("Lunch?")
        alice.send()
        bob.wait_for_card("Lunch?")
        alice.shot("poll-sent")

        # Bob votes from the bubble; his vote updates the same bubble for both.
        bob.tap_card("Lunch?")
        bob.wait_for_surface("Poll", style="expanded")
        bob.press_in_app("Pizza: 0")
        bob.wait_for_staged("Pizza 1")
        bob.send()
        for person in (alice, bob):
            person.wait(lambda p=person: len(p.app_cards()) == 1 and "Pizza 1 · Sushi 0" in p.card_text(p.app_cards()[0]),
                        "one poll bubble with Bob's vote")
        bob.shot("bob-voted")
        assert secret not in log.read_text()
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
