"""Replies with a quote and a thread, Copy, Forward to other conversations, edits with their earlier
versions, and unsending."""

import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from test_reactions import entry_of, open_picker


def action(person, text, label):
    """Opens the message's menu and presses one of its actions (Reply, Edit, Unsend)."""
    picker = open_picker(person, text)
    person.press(label, root=picker)


def field(person):
    return person.wait(lambda: (person.visible(".composer-input") or [None])[0], "the compose field")


@pytest.mark.flow
def test_a_reply_quotes_its_message_jumps_to_it_and_lists_in_its_thread(browsers):
    alice = browsers("alice")
    bob = browsers("bob")
    alice.open_conversation("Bob")
    bob.open_conversation("Alice")
    alice.send_text("Pizza or sushi?")
    alice.send_text("Or tacos")
    bob.wait_for_text_bubble("Or tacos")

    action(bob, "Pizza or sushi?", "Reply")
    bob.wait(lambda: bob.visible(".composer-context"), "the reply bar")
    assert "Replying to Alice" in bob.find(".composer-context")[0].text
    bob.shot("replying")
    field(bob).send_keys("Sushi!", Keys.ENTER)
    for person in (alice, bob):
        entry = person.wait(lambda p=person: entry_of(p, "Sushi!"), "the reply")
        quote = person.wait(lambda e=entry: e.find_elements(By.CSS_SELECTOR, ".reply-quote"), "the quote")[0]
        assert "Alice" in quote.text and "Pizza or sushi?" in quote.text, quote.text
    assert not bob.visible(".composer-context"), "the reply bar goes once sent"
    alice.shot("reply")

    # Copy puts a text on the clipboard as it reads, and says so.
    bob.driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": bob.base_url, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    action(bob, "Or tacos", "Copy")
    bob.wait(lambda: "Copied." in bob.announcements(), "'Copied.' said")
    copied = bob.driver.execute_async_script("const done = arguments[0]; navigator.clipboard.readText().then(done, (e) => done('error: ' + e));")
    assert copied == "Or tacos", copied

    # Forward… sends a copy from Bob to the conversations he picks, found by name; Carol reads it.
    action(bob, "Or tacos", "Forward…")
    dialog = bob.wait(lambda: (bob.visible("dialog.forward-dialog") or [None])[0], "the forward dialog")
    assert bob.js("return document.activeElement.id") == "forward-search", bob.focused_element()
    bob.js("document.activeElement.value = 'demo'; document.activeElement.dispatchEvent(new Event('input'))")
    bob.wait(lambda: [e.text for e in dialog.find_elements(By.CSS_SELECTOR, ".forward-item")] == ["Parlor demo"], "only the demo group found")
    bob.click(lambda: dialog.find_element(By.CSS_SELECTOR, ".forward-item label"), "the demo group")
    bob.assert_accessible("the forward dialog")
    bob.press("Forward", root=dialog)
    bob.wait(lambda: not bob.visible("dialog.forward-dialog"), "the dialog closed")
    bob.wait(lambda: "Forwarded to Parlor demo." in bob.announcements(), "'Forwarded to Parlor demo.' said")
    assert bob.js("return document.activeElement.classList.contains('react-button')"), bob.focused_element()
    bob.open_conversation("Parlor demo")
    bob.wait_for_text_bubble("Or tacos", "the copy in the group, from Bob")
    bob.open_conversation("Alice")

    # A quote's small text reads on its fill (4.5:1), as axe checks.
    alice.assert_accessible("a reply quoting a message")

    # The quote jumps to the message it answers.
    alice.click(lambda: entry_of(alice, "Sushi!").find_element(By.CSS_SELECTOR, ".reply-quote"), "the quote")
    alice.wait(lambda: "is-highlighted" in entry_of(alice, "Pizza or sushi?").get_attribute("class"), "the question highlighted")

    # The question lists its replies.
    alice.click(lambda: entry_of(alice, "Pizza or sushi?").find_element(By.CSS_SELECTOR, ".entry-replies"), "'1 reply'")
    thread = alice.wait(lambda: (alice.visible(".thread .thread-item") or [None])[0], "the thread")
    assert "Bob" in thread.text and "Sushi!" in thread.text
    alice.assert_focus_kept("opening '1 reply'")
    alice.shot("thread")


@pytest.mark.flow
def test_the_sender_edits_and_unsends(browsers):
    alice = browsers("alice")
    bob = browsers("bob")
    alice.open_conversation("Bob")
    bob.open_conversation("Alice")
    alice.send_text("Dinner at 7")
    bob.wait_for_text_bubble("Dinner at 7")

    # Only the sender is offered Edit and Unsend.
    picker = open_picker(bob, "Dinner at 7")
    assert bob.button("Edit", root=picker) is None and bob.button("Unsend", root=picker) is None
    bob.click(lambda: entry_of(bob, "Dinner at 7").find_element(By.CSS_SELECTOR, ".react-button"), "the menu button, to close it")

    action(alice, "Dinner at 7", "Edit")
    input_field = field(alice)
    alice.wait(lambda: input_field.get_attribute("value") == "Dinner at 7", "the text in the field to edit")
    assert "Editing message" in alice.find(".composer-context")[0].text
    input_field.send_keys(Keys.CONTROL, "a")
    input_field.send_keys("Dinner at 8", Keys.ENTER)
    for person in (alice, bob):
        person.wait(lambda p=person: p.text_bubbles("Dinner at 8") and not p.text_bubbles("Dinner at 7"), "the edited text")
        person.wait(lambda p=person: entry_of(p, "Dinner at 8").find_elements(By.CSS_SELECTOR, ".entry-edited"), "'Edited'")
    bob.click(lambda: entry_of(bob, "Dinner at 8").find_element(By.CSS_SELECTOR, ".entry-edited"), "'Edited'")
    earlier = bob.wait(lambda: (bob.visible(".versions .version-text") or [None])[0], "the earlier versions")
    assert earlier.text == "Dinner at 7"
    bob.assert_focus_kept("opening the edit history")
    bob.shot("edited")

    alice.send_text("oops, wrong chat")
    bob.wait_for_text_bubble("oops, wrong chat")
    action(alice, "oops, wrong chat", "Unsend")
    bob.wait(lambda: any(e.text == "Alice unsent a message" for e in bob.find(".unsent-line")), "'Alice unsent a message'")
    alice.wait(lambda: any(e.text == "You unsent a message" for e in alice.find(".unsent-line")), "'You unsent a message'")
    alice.assert_focus_kept("Unsend")
    assert "wrong chat" not in bob.driver.find_element(By.CSS_SELECTOR, ".transcript").text
    bob.shot("unsent")


@pytest.mark.flow
@pytest.mark.serve_args("--unsend-window-seconds", "4")
def test_the_unsend_window_is_the_servers(browsers):
    """An operator who shortens the unsend window shortens it in the browser too: the menu offers
    Unsend while the server would take it, then no more (GET /api/rules, not a copy in the page)."""
    alice = browsers("alice")
    alice.open_conversation("Bob")
    alice.send_text("Short-lived")
    picker = open_picker(alice, "Short-lived")
    assert alice.button("Unsend", root=picker) is not None, "within the server's 4 seconds"
    alice.click(lambda: entry_of(alice, "Short-lived").find_element(By.CSS_SELECTOR, ".react-button"), "the menu button, to close it")
    time.sleep(5)
    picker = open_picker(alice, "Short-lived")
    assert alice.button("Unsend", root=picker) is None, "past the server's window, as the server would refuse"
    assert alice.button("Edit", root=picker) is not None, "the edit window is still the default 15 minutes"


@pytest.mark.flow
def test_a_message_too_long_for_the_socket_fails_on_its_bubble_and_the_connection_stays(browsers):
    """Ten thousand family emoji are 10,000 characters, within a text's limit, but over the
    WebSocket's 64 KiB: the browser refuses it on its bubble, with the limit, instead of sending a
    message the server would close the connection for (and resending it after every reconnect)."""
    alice = browsers("alice")
    alice.open_conversation("Bob")
    field = alice.wait(lambda: (alice.visible(".composer-input") or [None])[0], "the compose field")
    alice.js("""
        const field = arguments[0];
        field.value = '👨‍👩‍👧'.repeat(9000);
        field.dispatchEvent(new Event('input', { bubbles: true }));
    """, field)
    field.send_keys(Keys.ENTER)
    failed = alice.wait(lambda: (alice.visible(".entry-failed") or [None])[0], "the failed bubble")
    assert "too long to send" in failed.text and "64 KB" in failed.text, failed.text
    time.sleep(2)
    assert not alice.visible(".connection-banner"), "the connection stayed up"
    alice.send_text("Shorter, then")
    # The refused one stays on its bubble (Retry, Delete); the next is acknowledged.
    alice.wait(lambda: not alice.find("[data-pending-id]:not(.is-failed)"), "the next message to be acknowledged")
    assert len(alice.find("[data-pending-id].is-failed")) == 1, "the refused message keeps its bubble"
