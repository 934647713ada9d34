"""Mentions: typing "@" suggests the conversation's members; the one chosen is sent as a reference
to that person, shown as "@Name", marked for them and counted in their list; "@Name" typed by hand
is only text."""

import pytest
from selenium.webdriver.common.keys import Keys

from parlor_api import call, sign_in


@pytest.mark.flow
def test_mention_suggested_sent_as_reference_and_counted(server, browsers):
    alice = browsers("alice")
    bob = browsers("bob")
    alice.open_conversation("Parlor demo")
    field = alice.wait(lambda: (alice.visible(".composer-input") or [None])[0], "the compose field")
    field.send_keys("Lunch with @bo")
    options = alice.wait(lambda: [o.text for o in alice.visible(".mention-option")] or None, "suggestions")
    assert options == ["Bob\n@bob"], options
    assert field.get_attribute("aria-activedescendant") == alice.visible(".mention-option")[0].get_attribute("id")
    assert "to mention" in alice.announcements()
    alice.assert_accessible("the mention suggestions")
    alice.shot("suggestions")
    field.send_keys(Keys.ENTER)
    alice.wait(lambda: field.get_attribute("value") == "Lunch with @Bob ", "the name written in the field")
    assert alice.visible(".mention-option") == [], "the list closes"
    field.send_keys("tomorrow?")
    field.send_keys(Keys.ENTER)
    alice.wait(lambda: alice.find(".transcript-list .bubble-body .mention"), "the sent mention")
    assert alice.find(".transcript-list .bubble-body")[-1].text == "Lunch with @Bob tomorrow?"

    # Tab moves on, as everywhere: the list closes, nothing is chosen, the focus leaves the field.
    field.send_keys("@ca")
    alice.wait(lambda: alice.visible(".mention-option"), "suggestions for @ca")
    field.send_keys(Keys.TAB)
    alice.wait(lambda: not alice.visible(".mention-option"), "the list closed by Tab")
    assert field.get_attribute("value") == "@ca", field.get_attribute("value")
    assert "composer-input" not in alice.focused_element(), "the focus moved on"
    field.clear()
    field.click()

    # Typed by hand, a name is only text.
    field.send_keys("@Carol, no mention here")
    alice.wait(lambda: not alice.visible(".mention-option"), "no list once a space follows")
    field.send_keys(Keys.ENTER)
    alice.wait_for_text_bubble("@Carol, no mention here")
    # A bubble shows while its message is still on the way: read the stored messages once both are in.
    alice.wait_until_sent()

    token = sign_in(server.url, "alice")
    group = next(c for c in call(server.url, "GET", "/api/conversations", token=token) if c.get("title") == "Parlor demo")
    bob_id = next(m["id"] for m in group["members"] if m["username"] == "bob")
    texts = [m.get("text") for m in call(server.url, "GET", f"/api/conversations/{group['id']}/messages", token=token)]
    assert f"Lunch with <@{bob_id}> tomorrow?" in texts, "sent as a reference to Bob, not as his name"
    assert "@Carol, no mention here" in texts

    # Bob's list says he was mentioned; in the conversation his mention is marked.
    badge = bob.wait(lambda: (bob.visible(".mention-badge") or [None])[0], "the mention badge in Bob's list")
    assert badge.get_attribute("aria-label") == "1 mention"
    bob.open_conversation("Parlor demo")
    mine = bob.wait(lambda: (bob.visible(".transcript-list .mention-me") or [None])[0], "Bob's mention marked")
    assert mine.text == "@Bob"
    bob.wait(lambda: not bob.visible(".mention-badge"), "read, the badge goes")
    bob.shot("mentioned")
