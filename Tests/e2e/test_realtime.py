"""Live updates: recovering from a dropped connection without losing or doubling messages, and
two tabs of one person kept in sync."""

import pytest


@pytest.mark.flow
def test_messages_sent_while_disconnected_arrive_once_after_reconnecting(browsers):
    alice = browsers("alice")
    bob = browsers("bob")
    alice.open_conversation("Bob")
    bob.open_conversation("Alice")
    bob.send_text("Before the drop")
    alice.wait_for_text_bubble("Before the drop")

    # Cut Alice's WebSocket and keep it down while Bob writes.
    alice.js("window.__parlorTest.drop(true)")
    alice.wait(lambda: alice.visible(".connection-banner"), "the connection-lost banner")
    alice.shot("connection-lost")
    bob.send_text("While you were away 1")
    bob.send_text("While you were away 2")
    bob.wait_for_text_bubble("While you were away 2")
    # Alice writes too: her message waits and goes out once she is back.
    alice.send_text("Typed while offline")
    alice.wait(lambda: alice.find("[data-pending-id]"), "Alice's message to wait as pending")

    alice.js("window.__parlorTest.restore()")
    alice.wait(lambda: not alice.visible(".connection-banner"), "the connection to come back")
    for text in ("While you were away 1", "While you were away 2"):
        alice.wait_for_text_bubble(text)
    bob.wait_for_text_bubble("Typed while offline")
    alice.wait_until_sent("Alice's message to be acknowledged")
    alice.shot("reconnected")

    # Once each, in order, on both screens; and the live stream works again.
    bob.send_text("After the reconnect")
    alice.wait_for_text_bubble("After the reconnect")
    expected = ["Before the drop", "While you were away 1", "While you were away 2", "Typed while offline", "After the reconnect"]
    for person in (alice, bob):
        person.wait(lambda p=person: [b.text for b in p.find(".transcript-list .bubble-body")] == expected,
                    "every message exactly once, in order")
        sequences = person.js("return [...document.querySelectorAll('.entry[data-sequence]')].map(e => Number(e.dataset.sequence))")
        assert sequences == sorted(set(sequences)), sequences
    assert alice.js("return window.__parlorTest.openSockets()") == 1


@pytest.mark.flow
def test_two_tabs_of_one_person_stay_in_sync(browsers):
    alice = browsers("alice")
    bob = browsers("bob")
    bob.open_conversation("Alice")
    first = alice.driver.current_window_handle
    alice.open_conversation("Bob")
    alice.driver.switch_to.new_window("tab")
    second = alice.driver.current_window_handle
    alice.open("/")
    alice.open_conversation("Bob")

    def in_tab(handle):
        alice.driver.switch_to.window(handle)

    in_tab(first)
    alice.send_text("Hello from the first tab")
    in_tab(second)
    alice.wait_for_text_bubble("Hello from the first tab")
    bob.wait_for_text_bubble("Hello from the first tab")
    bob.send_text("Hi to both tabs")
    for handle in (first, second):
        in_tab(handle)
        alice.wait_for_text_bubble("Hi to both tabs")
        # Screen readers hear new messages through the live region.
        assert "Bob: Hi to both tabs" in alice.announcements()
        assert len(alice.text_bubbles("Hello from the first tab")) == 1

    # A message staged in one tab is in the other tab's compose field too; sent from there, it
    # leaves both.
    in_tab(first)
    alice.open_app("Tic-Tac-Toe")
    alice.press_in_app("Row 2, column 2, empty")
    alice.wait_for_staged("Want to play Tic-Tac-Toe?")
    in_tab(second)
    alice.wait_for_staged("Want to play Tic-Tac-Toe?")
    alice.shot("staged-in-second-tab")
    alice.send()
    alice.wait(lambda: alice.staged() is None, "the second tab's compose field to empty")
    alice.wait_for_card("Want to play Tic-Tac-Toe?")
    in_tab(first)
    alice.wait(lambda: alice.staged() is None, "the first tab's compose field to empty")
    alice.wait_for_card("Want to play Tic-Tac-Toe?")
    assert len(alice.app_cards()) == 1
    alice.shot("sent-from-second-tab")
    bob.wait_for_card("Want to play Tic-Tac-Toe?")


@pytest.mark.flow
def test_an_open_app_catches_up_after_reconnecting(browsers):
    alice = browsers("alice")
    bob = browsers("bob")
    alice.open_conversation("Bob")
    bob.open_conversation("Alice")
    alice.open_app("RSVP")
    alice.press_in_app("Create RSVP")
    alice.type_in_app("Title", "Picnic on Sunday?", submit=True)
    alice.wait_for_staged("Picnic on Sunday?")
    alice.send()
    alice.tap_card("Picnic on Sunday?")
    alice.wait_for_node_text("yes-count", "0 going")

    alice.js("window.__parlorTest.drop(true)")
    alice.wait(lambda: alice.visible(".connection-banner"), "the connection-lost banner")
    bob.tap_card("Picnic on Sunday?")
    bob.wait_for_surface("RSVP", style="expanded")
    bob.choose_in_app("Going")
    bob.wait_for_node_text("yes-count", "1 going")

    alice.js("window.__parlorTest.restore()")
    alice.wait(lambda: not alice.visible(".connection-banner"), "the connection to come back")
    alice.wait_for_node_text("yes-count", "1 going")
    alice.wait_for_card("1 going")
    alice.shot("app-caught-up")
