"""Delivered and read receipts, and the setting that stops sending them."""

import time
import uuid

import pytest

from parlor_api import call, sign_in


def receipt(person):
    lines = person.visible(".receipt-line")
    return lines[-1].text if lines else None


@pytest.mark.flow
def test_read_receipts_in_a_conversation_and_a_group_and_turned_off(browsers):
    alice = browsers("alice")
    bob = browsers("bob")
    alice.open_conversation("Bob")
    alice.send_text("Did you see this?")
    alice.wait(lambda: receipt(alice) == "Delivered", "'Delivered' while Bob has not looked")
    # The list shows when each conversation was last active: a message today shows its time.
    sent_at = alice.js("const t = document.querySelector('.entry-mine[title]'); return t && t.title")
    alice.wait(lambda: [t.text for t in alice.find(".conversation-link.is-current .conversation-time")] == [sent_at],
               "the conversation's row to show the time of its newest message")
    # The transcript says when, above the message ("Today 4:52 AM"), and a tap on the bubble shows
    # the message's own time where there is no hover.
    alice.wait(lambda: f"Today {sent_at}" in [e.text for e in alice.find(".entry-time")], "the time above the first message")
    assert not alice.visible(".entry-mine .entry-sent-time")
    alice.wait_for_text_bubble("Did you see this?").click()
    alice.wait(lambda: [e.text for e in alice.visible(".entry-mine .entry-sent-time")] == [sent_at], "the message's time after a tap")

    bob.open_conversation("Alice")
    bob.wait_for_text_bubble("Did you see this?")
    alice.wait(lambda: (receipt(alice) or "").startswith("Read "), "'Read <time>' once Bob opened it")
    assert receipt(bob) is None, "the reader sees no receipt under Alice's message"
    alice.shot("read")

    # In a group, who read it.
    alice.open_conversation("Parlor demo")
    alice.send_text("Who is coming on Friday?")
    alice.wait(lambda: receipt(alice) == "Delivered", "'Delivered' in the group")
    bob.open_conversation("Parlor demo")
    bob.wait_for_text_bubble("Who is coming on Friday?")
    alice.wait(lambda: receipt(alice) == "Read by Bob", "'Read by Bob'")
    alice.shot("read-by")

    # Bob stops sending read receipts: his reading no longer shows.
    bob.press("Settings")
    toggle = bob.wait(lambda: (bob.visible("#setting-read-receipts") or [None])[0], "the read receipts setting")
    bob.wait(lambda: toggle.is_selected() and toggle.is_enabled(), "the setting to read as on")
    bob.assert_accessible("the settings")
    toggle.click()
    bob.wait(lambda: not toggle.is_selected() and toggle.is_enabled(), "the setting to be off")
    bob.shot("settings")
    bob.open_conversation("Alice")
    alice.open_conversation("Bob")
    alice.send_text("And this one?")
    bob.wait_for_text_bubble("And this one?")
    alice.wait(lambda: receipt(alice) == "Delivered", "'Delivered' for the new message")
    alice.driver.refresh()
    alice.open_conversation("Bob")
    alice.wait(lambda: receipt(alice) == "Delivered", "still 'Delivered' after a reload: Bob shares no receipts")


@pytest.mark.flow
def test_a_burst_of_messages_is_read_with_a_few_reads(server, browsers):
    """A reader looking at a busy conversation tells the server at once, then at most about once a
    second, not once for each message; the newest message still ends up read."""
    alice = browsers("alice")
    bob = browsers("bob")
    alice.open_conversation("Bob")
    bob.open_conversation("Alice")
    bob.js("""
        window.readsSent = 0;
        const send = WebSocket.prototype.send;
        WebSocket.prototype.send = function (data) {
            if (typeof data === 'string' && data.includes('"type":"read"')) window.readsSent += 1;
            return send.call(this, data);
        };
    """)
    token = sign_in(server.url, "alice")
    direct = next(c for c in call(server.url, "GET", "/api/conversations", token=token)
                  if not c["isGroup"] and {m["username"] for m in c["members"]} == {"alice", "bob"})
    started = time.monotonic()
    for index in range(40):
        call(server.url, "POST", f"/api/conversations/{direct['id']}/messages", {"id": str(uuid.uuid4()), "text": f"Burst {index}"}, token)
        time.sleep(0.05)
    bob.wait_for_text_bubble("Burst 39")
    seen = time.monotonic() - started  # one read at once, one a second since, and one last after
    alice.wait_for_text_bubble("Burst 39")
    alice.wait(lambda: (receipt(alice) or "").startswith("Read "), "'Read <time>' under the newest message")
    reads = bob.js("return window.readsSent")
    assert 1 <= reads <= seen + 2, f"{reads} reads sent for 40 messages seen in {seen:.1f} s"
