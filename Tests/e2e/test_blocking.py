"""Blocking a person, as two people would live it: Alice blocks Bob from their conversation's
details; from then on Bob's "New conversation" picker finds no Alice (exactly as for a name nobody
has, so he cannot tell), a group of his cannot take her, and neither sees the other typing in the
demo group they share, while Carol still sees both. Alice finds Bob in Settings › Blocked people
and unblocks him by keyboard alone; Bob finds her again."""

import json
import time
import urllib.error

import pytest
from selenium.webdriver.common.keys import Keys

from parlor_api import call, sign_in
from test_conversation_info import DIALOG, member_row, open_info, press_key

BLOCKED = "#settings-panel .setting-blocked"


def finds_in_picker(person, query: str) -> list[str]:
    """The usernames the new-conversation dialog offers for `query` (the dialog left open)."""
    if not person.visible("dialog.new-conversation-dialog"):
        person.press("New conversation")
    field = person.wait(lambda: (f := person.visible("dialog.new-conversation-dialog input[type=search]")) and f[0], "the people search")
    field.clear()
    field.send_keys(query)
    time.sleep(0.6)  # the picker asks the server as the person types; let it answer
    return [p.get_attribute("data-username") for p in person.visible(".person")]


def close_picker(person):
    # The first Escape empties the search field, the next closes the dialog.
    while person.visible("dialog.new-conversation-dialog"):
        press_key(person, Keys.ESCAPE)
        time.sleep(0.1)


def typing_shown(person) -> str:
    return " ".join(e.get_attribute("textContent") for e in person.find(".typing-indicator"))


@pytest.mark.flow
def test_a_blocked_person_cannot_reach_and_is_not_told(server, browsers):
    alice = browsers("alice")
    bob = browsers("bob")
    carol = browsers("carol")

    # Alice blocks Bob from their 1:1's details; the button turns to Unblock and it is said.
    alice.open_conversation("Bob")
    open_info(alice)
    block = alice.wait(lambda: (row := member_row(alice, "bob")) and alice.button("Block Bob", row), "Block beside Bob")
    # Block is drawn as destructive (it was in the accent's blue), and asks first: "Block Bob?",
    # what it does, Cancel focused. Escape leaves things as they were, back on Block.
    colours = alice.js("const probe = document.createElement('span'); probe.style.color = 'var(--destructive)';"
                       " arguments[0].after(probe); const want = getComputedStyle(probe).color; probe.remove();"
                       " return [getComputedStyle(arguments[0]).color, want]", block)
    assert colours[0] == colours[1], f"Block is not in the destructive colour: {colours}"
    alice.press("Block Bob")
    question = alice.wait(lambda: (d := alice.visible("dialog.confirm-dialog")) and d[0], "the question before blocking")
    assert alice.find("#confirm-title", question)[0].text == "Block Bob?"
    assert "They are not told." in alice.find("#confirm-text", question)[0].text
    assert alice.js("return document.activeElement.textContent") == "Cancel", alice.focused_element()
    alice.assert_accessible("the question before blocking")
    alice.shot("block-question")
    press_key(alice, Keys.ESCAPE)
    alice.wait(lambda: not alice.visible("dialog.confirm-dialog"), "Escape to close the question")
    assert alice.visible(DIALOG), "Escape closed the details too"
    assert alice.js("return document.activeElement.getAttribute('aria-label')") == "Block Bob", alice.focused_element()
    assert call(server.url, "GET", "/api/me/blocked", token=sign_in(server.url, "alice")) == [], "blocked although Alice said no"
    alice.press("Block Bob")
    alice.press("Block", root=alice.wait(lambda: (d := alice.visible("dialog.confirm-dialog")) and d[0], "the question again"))
    alice.wait(lambda: alice.button("Unblock Bob", member_row(alice, "bob")), "Unblock in Block's place")
    assert "Bob is blocked. They are not told." in alice.announcements()
    assert alice.js("return document.activeElement.getAttribute('aria-label')") == "Unblock Bob", alice.focused_element()
    assert alice.button("Block Alice", member_row(alice, "alice")) is None, "nobody blocks themselves"
    alice.assert_accessible("the details with a Block button")
    press_key(alice, Keys.ESCAPE)

    # Bob: no Alice in the picker, as for a name nobody has; Carol still finds her.
    assert finds_in_picker(bob, "ali") == [] == finds_in_picker(bob, "zelda")
    assert finds_in_picker(bob, "car") == ["carol"]
    assert finds_in_picker(carol, "ali") == ["alice"]
    for person in (bob, carol):
        close_picker(person)
    # Nor through the API, with the very answer a name nobody has gets.
    bobs = sign_in(server.url, "bob")
    answers = {}
    for name in ("alice", "zelda"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            call(server.url, "POST", "/api/conversations", {"members": [name], "title": "Hi"}, token=bobs)
        answers[name] = (refused.value.code, json.loads(refused.value.read()))
    assert answers["alice"][0] == answers["zelda"][0] == 404
    assert answers["alice"][1]["error"]["code"] == "unknownUser"
    assert json.dumps(answers["alice"][1]) == json.dumps(answers["zelda"][1]).replace("zelda", "alice")

    # Typing in the demo group they share: Carol sees Bob type, Alice does not.
    for person in (alice, bob, carol):
        person.open_conversation("Parlor demo")
    bob.wait(lambda: (bob.visible(".composer-input") or [None])[0], "Bob's compose field").send_keys("are you t")
    carol.wait(lambda: "Bob" in typing_shown(carol), "Carol to see Bob typing")
    time.sleep(0.5)
    assert "Bob" not in typing_shown(alice), "Alice sees Bob typing although she blocked him"

    # Settings › Blocked people: Bob is listed; Unblock by keyboard; the list says nobody.
    alice.press("Settings")
    alice.wait(lambda: alice.button("Unblock Bob", alice.find(BLOCKED)[0]), "Bob in Blocked people")
    alice.assert_accessible("Settings with a blocked person")
    alice.shot("settings-blocked")
    alice.button("Unblock Bob", alice.find(BLOCKED)[0]).send_keys(Keys.ENTER)
    alice.wait(lambda: not alice.find(f"{BLOCKED} .blocked-person"), "the list to empty")
    assert "Bob is unblocked." in alice.announcements()
    assert alice.js("return document.activeElement.id") == "blocked-heading", alice.focused_element()
    assert "Nobody" in alice.find(BLOCKED)[0].text
    assert finds_in_picker(bob, "ali") == ["alice"], "unblocked: Bob finds her again"
    close_picker(bob)
