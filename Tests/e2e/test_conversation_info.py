"""A group managed from its details dialog, by three people at once: the header's info button
(reached and opened by keyboard, closed by Escape with the focus back on it), renaming (the title
field holds the server's limit), adding someone (they see the conversation appear), naming an admin,
removing someone (it leaves their list, and the page they were on), leaving with a confirmation;
each change reaches the others live and is a line in the transcript ("You added Carol"). Only
admins are offered Remove and Make admin, and a refusal is shown as the server's sentence beside
the control."""

import time
import pytest
from selenium.webdriver.common.keys import Keys

from parlor_api import call, sign_in
from test_attachments import png

DIALOG = "dialog.conversation-info-dialog"


def info_dialog(person):
    return (person.visible(DIALOG) or [None])[0]


def members(person) -> list[str]:
    """The usernames the open dialog lists, in order."""
    return [row.get_attribute("data-username") for row in person.find(f"{DIALOG} .info-member")]


def member_row(person, username):
    return (person.find(f'{DIALOG} .info-member[data-username="{username}"]') or [None])[0]


def badges(person, username) -> list[str]:
    row = member_row(person, username)
    return [b.text for b in person.find(".info-badge", row)] if row else []


def listed(person, title: str) -> bool:
    return any(e.get_attribute("textContent") == title for e in person.find(".conversation-link .conversation-name"))


def avatar_colours(person, name: str, username: str) -> dict:
    """The colour `name`'s initials are on in the person's list (their 1:1), beside their message
    in the open conversation, and in its details' members."""
    return person.js("""
        const [name, username] = arguments, colour = (e) => e && getComputedStyle(e).backgroundImage;
        const row = [...document.querySelectorAll('.conversation-link')].find((l) => l.querySelector('.conversation-name').textContent === name);
        const sender = [...document.querySelectorAll('.entry-sender')].find((p) => p.querySelector('.entry-sender-name').textContent === name);
        return {list: colour(row?.querySelector('.avatar')), transcript: colour(sender?.querySelector('.avatar')),
                members: colour(document.querySelector(`dialog.conversation-info-dialog .info-member[data-username="${username}"] .avatar`))};
    """, name, username)


def open_info(person):
    person.press("Conversation info")
    return person.wait(lambda: info_dialog(person), "the conversation info dialog")


def press_key(person, key):
    person.driver.switch_to.active_element.send_keys(key)


@pytest.mark.flow
def test_a_group_is_managed_from_its_details_and_everyone_sees_it_live(server, browsers, tmp_path):
    alice = browsers("alice")
    bob = browsers("bob")
    carol = browsers("carol")

    # A group of two (a title makes one), started through the API as another client would.
    call(server.url, "POST", "/api/conversations", {"members": ["bob"], "title": "Weekend"}, token=sign_in(server.url, "alice"))
    alice.open_conversation("Weekend")
    bob.open_conversation("Weekend")
    bob.send_text("Count me in")
    alice.wait_for_text_bubble("Count me in")

    # By keyboard: from the title, Tab reaches the info button; Return opens the dialog with the
    # focus inside; Escape closes it and the focus is back on the button.
    alice.js("document.getElementById('conversation-title').focus()")
    press_key(alice, Keys.TAB)
    assert alice.js("return document.activeElement.getAttribute('aria-label')") == "Conversation info"
    press_key(alice, Keys.ENTER)
    dialog = alice.wait(lambda: info_dialog(alice), "the dialog opened by keyboard")
    assert alice.js("return arguments[0].contains(document.activeElement)", dialog), "the focus is in the dialog"
    assert members(alice) == ["alice", "bob"]
    assert badges(alice, "alice") == ["Admin", "You"] and badges(alice, "bob") == []
    press_key(alice, Keys.ESCAPE)
    alice.wait(lambda: info_dialog(alice) is None, "Escape to close the dialog")
    assert alice.js("return document.activeElement.classList.contains('info-button')"), alice.focused_element()
    press_key(alice, Keys.ENTER)
    dialog = alice.wait(lambda: info_dialog(alice), "the dialog opened again")
    # One person, one colour: Bob's initials are on the same colour in Alice's list, beside his
    # message and among the members (the list coloured him by their conversation's id).
    colours = avatar_colours(alice, "Bob", "bob")
    assert colours["list"] and colours["list"] == colours["transcript"] == colours["members"], colours

    # Rename: the field holds the server's title limit, and Bob's header and list follow.
    field = alice.find("#conversation-info-name")[0]
    assert field.get_attribute("value") == "Weekend"
    rules = call(server.url, "GET", "/api/rules")
    assert field.get_attribute("maxlength") == str(rules["maxTitleLength"])
    field.clear()
    field.send_keys("Friday dinner" + Keys.ENTER)
    bob.wait(lambda: bob.conversation_title() == "Friday dinner", "the new name in Bob's header")
    bob.wait(lambda: listed(bob, "Friday dinner") and not listed(bob, "Weekend"), "the new name in Bob's list")
    alice.wait(lambda: alice.conversation_title() == "Friday dinner", "the new name in Alice's header")

    # A group photo, chosen by Alice: Bob's list shows it with a line saying who; then removed.
    photo = tmp_path / "Dinner table.png"
    photo.write_bytes(png(120, 120))
    alice.find(f"{DIALOG} .info-photo input[type=file]")[0].send_keys(str(photo))
    bob.wait(lambda: bob.js("const c = [...document.querySelectorAll('.conversation-link')].find((l) => l.textContent.includes('Friday dinner'));"
                            " return Boolean(c && c.querySelector('.avatar-picture')?.getAttribute('src')?.startsWith('/blobs/'))"),
             "the group's photo in Bob's list")
    bob.wait(lambda: any("Alice changed the group photo" in line.text for line in bob.find(".event-line")), "the line in Bob's transcript")
    alice.wait(lambda: alice.button("Remove photo", root=dialog), "Remove photo offered once there is one")
    assert alice.js("return document.activeElement.textContent") == "Change photo…", alice.focused_element()
    alice.shot("group-photo")
    alice.press("Remove photo", root=dialog)
    bob.wait(lambda: any("Alice removed the group photo" in line.text for line in bob.find(".event-line")), "the removal's line")
    alice.wait(lambda: not alice.visible(f"{DIALOG} .info-photo .avatar-picture"), "initials again in the dialog")

    # Add Carol with the new-conversation picker: the conversation appears in her list.
    assert not listed(carol, "Friday dinner")
    alice.press("Add people…")
    alice.wait(lambda: alice.visible(f'{DIALOG} .person[data-username="carol"]'), "Carol offered")
    assert not alice.find(f'{DIALOG} .person[data-username="bob"]'), "members are not offered again"
    colour = "return getComputedStyle(document.querySelector(arguments[0])).backgroundImage"
    offered = alice.js(colour, f'{DIALOG} .person[data-username="carol"] .avatar')
    alice.click(lambda: alice.visible(f'{DIALOG} .person[data-username="carol"]')[0], "Carol")
    alice.shot("adding-carol")
    alice.press("Add", root=dialog)
    alice.wait(lambda: members(alice) == ["alice", "bob", "carol"], "Carol among the members")
    # Offered in her own colour, the one she has among the members (the picker drew everyone grey).
    assert offered == alice.js(colour, f'{DIALOG} .info-member[data-username="carol"] .avatar'), offered
    carol.wait(lambda: listed(carol, "Friday dinner"), "the conversation in Carol's list")
    alice.assert_controls_named("the conversation info dialog")
    alice.assert_accessible("the conversation info dialog")

    # Carol is not an admin: she may add people and leave, not remove anyone or name admins.
    carol.open_conversation("Friday dinner")
    open_info(carol)
    carol.wait(lambda: members(carol) == ["alice", "bob", "carol"], "the members in Carol's dialog")
    assert carol.button("Add people…") and carol.button("Leave conversation")
    actions = [b.text for b in carol.find(f"{DIALOG} .info-member-action")]
    assert actions == ["Block", "Block"], f"no Remove or Make admin for a member who is not admin, only Block beside the others: {actions}"

    # Alice makes Bob an admin: Bob's details (opened now) offer him Remove.
    alice.press("Make admin: Bob")
    alice.wait(lambda: badges(alice, "bob") == ["Admin"], "Bob marked admin")
    carol.wait(lambda: badges(carol, "bob") == ["Admin"], "Bob marked admin in Carol's dialog, live")
    open_info(bob)
    bob.wait(lambda: bob.button("Remove Carol"), "Remove offered to Bob, now an admin")

    # Alice removes Carol, whose dialog was open: she is taken to her list, which has lost it.
    alice.press("Remove Carol")
    alice.wait(lambda: members(alice) == ["alice", "bob"], "Carol gone from Alice's members")
    bob.wait(lambda: members(bob) == ["alice", "bob"], "Carol gone from Bob's members, live")
    carol.wait(lambda: not listed(carol, "Friday dinner"), "the conversation gone from Carol's list")
    carol.wait(lambda: info_dialog(carol) is None and carol.conversation_title() is None, "Carol out of the conversation's page")
    assert "You are no longer in this conversation." in carol.find(".toasts")[0].text

    # Bob leaves, after a confirmation that starts on Cancel.
    bob.press("Leave conversation")
    assert bob.js("return document.activeElement.textContent") == "Cancel"
    assert "Leave “Friday dinner”?" in bob.find("#conversation-info-leave-question")[0].text
    bob.shot("leave-confirmation")
    bob.press("Leave", root=info_dialog(bob))
    bob.wait(lambda: not listed(bob, "Friday dinner") and bob.conversation_title() is None, "Bob back at his list without it")
    time.sleep(1)  # what the page still had to send about it (a read) would come back refused
    said = " ".join(t.text for t in bob.find(".toasts"))
    assert "There is no such thing here" not in said, f"a refusal after leaving: {said}"
    alice.wait(lambda: members(alice) == ["alice"], "Bob gone from Alice's members, live")

    # The last admin cannot step down: the server's sentence shows beside the control.
    alice.press("Remove admin: Alice")
    error = alice.wait(lambda: (e := member_row(alice, "alice").find_elements("css selector", ".form-error")) and e[0].text and e[0],
                       "the server's refusal beside the control")
    assert error.text == "A group always has an admin: make someone else one first."
    assert badges(alice, "alice") == ["Admin", "You"]
    alice.shot("last-admin")

    # Each change is a line in the transcript, for everyone there, in their own words.
    press_key(alice, Keys.ESCAPE)
    alice.wait(lambda: info_dialog(alice) is None, "the dialog closed")
    expected = [
        "You named the conversation “Friday dinner”", "You changed the group photo", "You removed the group photo", "You added Carol", "You made Bob an admin", "You removed Carol",
        "Bob left the conversation",
    ]
    alice.wait(lambda: [e.text for e in alice.visible(".entry-event .event-line")] == expected, "the lines in Alice's transcript")
    alice.shot("event-lines")
    alice.assert_accessible("the transcript with event lines")

    # A 1:1's details: the other person's picture, name and the line they wrote about themselves.
    call(server.url, "PATCH", "/api/me", {"about": "Out until Monday"}, token=sign_in(server.url, "bob"))
    alice.open_conversation("Bob")
    open_info(alice)
    person = alice.wait(lambda: (alice.visible(f"{DIALOG} .info-person") or [None])[0], "Bob's details")
    assert [p.text for p in person.find_elements("css selector", "p")] == ["Bob", "@bob", "Out until Monday"], person.text
    assert not alice.visible(f"{DIALOG} .info-photo"), "a 1:1 has no group photo to change"
