"""Tic-Tac-Toe: a whole game to a win, both players moving from the message bubble; a new game
seen whole by the other player, and a move out of turn refused in words."""

import json
import time
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By


def play(person, square_label, caption):
    """Taps the game's newest bubble, plays a square, and sends the move."""
    person.tap_card("")  # the newest app message: the game's only bubble
    person.wait_for_surface("Tic-Tac-Toe", style="expanded")
    person.wait_for_node_text("status", "It's your move!")
    person.press_in_app(square_label)
    person.wait_surface_closed()
    person.wait_for_staged(caption)
    person.send()


@pytest.mark.flow
def test_a_game_is_played_to_a_win_from_the_bubble(browsers):
    alice = browsers("alice")
    bob = browsers("bob")
    alice.open_conversation("Bob")
    bob.open_conversation("Alice")

    # Alice starts from the drawer: the app opens compact, in the keyboard's place.
    alice.open_app("Tic-Tac-Toe")
    surface = alice.wait_for_surface("Tic-Tac-Toe", style="compact")
    assert "You play X" in alice.surface_text()
    # The whole board fits the compact tray (at this 720-pixel-high window too): no row is cut off.
    cut_off = alice.js("""
        const body = document.querySelector('.surface .surface-body').getBoundingClientRect();
        return [...document.querySelectorAll('.surface .vt-button-square')]
            .filter(b => b.getBoundingClientRect().bottom > body.bottom + 0.5).length;
    """)
    assert cut_off == 0, f"{cut_off} squares are below the tray's bottom edge"
    alice.shot("game-opened-compact")
    alice.press_in_app("Row 1, column 1, empty")
    alice.wait_surface_closed()
    alice.wait_for_staged("Want to play Tic-Tac-Toe?")
    alice.shot("first-move-staged")
    alice.send()
    alice.wait(lambda: alice.staged() is None, "the compose field to empty after sending")
    alice.wait_for_card("Want to play Tic-Tac-Toe?")

    # Bob answers from the bubble: it opens the game expanded, on that move.
    bob.wait_for_card("Want to play Tic-Tac-Toe?")
    bob.shot("invitation-received")
    bob.tap_card("Want to play Tic-Tac-Toe?")
    bob.wait_for_surface("Tic-Tac-Toe", style="expanded")
    bob.wait_for_node_text("status", "Tap a square to play O against Alice")
    bob.shot("board-expanded")
    bob.press_in_app("Row 2, column 1, empty")
    bob.wait_surface_closed()
    bob.wait_for_staged("It's your move!")
    bob.send()

    alice.wait(lambda: len(alice.summary_lines()) == 1, "the first move to leave its summary line")
    play(alice, "Row 1, column 2, empty", "It's your move!")
    bob.wait(lambda: len(bob.summary_lines()) == 2, "Alice's second move")
    play(bob, "Row 2, column 2, empty", "It's your move!")
    alice.wait(lambda: len(alice.summary_lines()) == 3, "Bob's second move")
    play(alice, "Row 1, column 3, empty", "Alice won!")

    for person in (alice, bob):
        person.wait_for_card("Alice won!", "the winning bubble")
        # One session, one bubble: the older moves left their summary lines.
        person.wait(lambda p=person: len(p.app_cards()) == 1, "the game to be one bubble")
        lines = person.summary_lines()
        assert lines == [
            "Alice played the top-left square",
            "Bob played the middle-left square",
            "Alice played the top-middle square",
            "Bob played the center",
        ], lines
        person.shot("game-won")
    # The rule that drew it, held to the same table of cases as the simulator's (ParlorSDK/Tests/session-collapse.json).
    table = json.loads((Path(__file__).resolve().parents[2] / "ParlorSDK/Tests/session-collapse.json").read_text())["cases"]
    drawn = alice.driver.execute_async_script("""
        const [cases, done] = arguments;
        import('/js/transcript.js').then(({ sessionLines }) => done(cases.map((c) => {
            // As the server sends them: an answer names its session's first sender (app.startedBy).
            const starters = new Map();
            for (const [, session, sender = 'alice', , named] of c.messages) if (session && !starters.has(session)) starters.set(session, named ?? sender);
            const messages = c.messages.map(([id, session, sender = 'alice', answers, named]) => {
                const starter = named ?? starters.get(session);
                return { id, sender, app: session ? { sessionID: session, startedBy: answers === 'answers' ? { id: starter, name: starter } : undefined } : undefined };
            });
            const lines = sessionLines(messages);
            return messages.map((m) => ({ summary: 'summary', answer: `answer as ${m.app?.startedBy?.name}` })[lines.get(m.id)] ?? 'bubble');
        }))).catch((error) => done(String(error)));
    """, table)
    assert drawn == [case["shown"] for case in table], drawn

    # The winner's board, opened from the bubble, says who won and offers a rematch.
    bob.tap_card("Alice won!")
    bob.wait_for_surface("Tic-Tac-Toe", style="expanded")
    bob.wait_for_node_text("status", "Alice won!")
    assert bob.button("Rematch", bob.surface()) is not None
    # The expand/collapse control switches styles.
    bob.press_in_app("Collapse Tic-Tac-Toe")
    bob.wait_for_surface("Tic-Tac-Toe", style="compact")
    bob.press_in_app("Expand Tic-Tac-Toe")
    bob.wait_for_surface("Tic-Tac-Toe", style="expanded")
    bob.shot("finished-board")
    bob.press_in_app("Close Tic-Tac-Toe")
    bob.wait_surface_closed()


@pytest.mark.flow
def test_a_new_game_is_seen_whole_and_a_watcher_is_told_who_plays(browsers):
    """In a group, Alice and Bob, reading at the bottom of a long conversation, see Carol's new
    game whole once its board has loaded; when Bob has taken O, Alice's tap on a square is
    refused with the players' names."""
    alice = browsers("alice")
    bob = browsers("bob")
    carol = browsers("carol")
    for person in (alice, bob, carol):
        person.open_conversation("Parlor demo")
    for number in range(1, 31):
        alice.send_text(f"Line {number} of a long conversation")
    for person in (alice, bob):
        person.wait_for_text_bubble("Line 30 of a long conversation")
        heights = person.js("const t = document.querySelector('.transcript'); return [t.scrollHeight, t.clientHeight]")
        assert heights[0] > heights[1] + 200, f"the conversation should be longer than the screen: {heights}"

    carol.open_app("Tic-Tac-Toe")
    carol.wait_for_surface("Tic-Tac-Toe", style="compact")
    carol.press_in_app("Row 1, column 1, empty")
    carol.wait_surface_closed()
    carol.wait_for_staged("Want to play Tic-Tac-Toe?")
    carol.send()

    # The bubble's board is an image that loads after the bubble is drawn: the others stay at
    # the bottom, with the whole card on screen, not the bubble's height before the board came.
    for person in (alice, bob):
        card = person.wait_for_card("Want to play Tic-Tac-Toe?")
        person.wait(lambda p=person, c=card: p.js("return [...arguments[0].querySelectorAll('img')].every(i => i.complete && i.naturalWidth > 0)", c),
                    "the board's image to load")
        gap = lambda p=person: p.js("const t = document.querySelector('.transcript'); return t.scrollHeight - t.scrollTop - t.clientHeight")
        person.wait(lambda g=gap: g() <= 2, "the transcript to show the new game down to its end")
        time.sleep(0.5)
        assert gap() <= 2, f"{person.username}'s transcript stopped {gap()} px above its end"
        label = card.find_element(By.CSS_SELECTOR, ".app-card-tap").get_attribute("aria-label")
        assert ".." not in label and label.endswith("Open in Tic-Tac-Toe"), label

    # Scrolled up to read, Bob stays there when a message comes: only the bottom sticks.
    top = lambda: bob.js("return document.querySelector('.transcript').scrollTop")
    bob.js("document.querySelector('.transcript').scrollTop = 0")
    bob.wait(lambda: top() == 0, "Bob's transcript at its top")
    time.sleep(0.3)  # its scroll event
    carol.send_text("Who plays O?")
    bob.wait_for_text_bubble("Who plays O?")
    time.sleep(0.5)
    assert top() < 50, f"Bob was taken from what he was reading to {top()} px"

    # Bob takes O; Alice, who only watches, taps a square and is told who plays, by name.
    bob.tap_card("Want to play Tic-Tac-Toe?")
    bob.wait_for_surface("Tic-Tac-Toe", style="expanded")
    bob.press_in_app("Row 2, column 2, empty")
    bob.wait_surface_closed()
    bob.wait_for_staged("It's your move!")
    bob.send()
    alice.wait(lambda: len(alice.summary_lines()) == 1, "Bob's move to reach Alice")
    alice.tap_card("")
    alice.wait_for_surface("Tic-Tac-Toe", style="expanded")
    alice.press_in_app("Row 3, column 3, empty")
    banner = alice.wait(lambda: (e := alice.visible(".surface-error-text")) and e[0], "the app's answer to a watcher's tap")
    assert banner.text == "This game is between Carol and Bob; you're watching.", banner.text
