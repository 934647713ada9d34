"""Profile pictures: chosen in Settings, shown to the people one shares a conversation with,
initials until then and after removing it."""

import pytest
from selenium.webdriver.common.by import By

from conftest import solid_png


def conversation_avatar(person, title):
    """The picture of the conversation called `title` in the person's list, or None (initials)."""
    for link in person.find(".conversation-link"):
        if title in link.text:
            pictures = link.find_elements(By.CSS_SELECTOR, ".avatar .avatar-picture")
            return pictures[0] if pictures else None
    return None


@pytest.mark.flow
def test_a_profile_picture_reaches_the_other_person_and_can_be_removed(browsers, tmp_path):
    alice = browsers("alice")
    bob = browsers("bob")
    alice.open_conversation("Bob")
    bob.open_conversation("Alice")
    alice.send_text("New picture coming")
    bob.wait_for_text_bubble("New picture coming")
    assert conversation_avatar(bob, "Alice") is None, "initials before there is a picture"

    picture = tmp_path / "me.png"
    picture.write_bytes(solid_png(64, 64, (230, 90, 40)))
    alice.press("Settings")
    alice.wait(lambda: alice.visible(".setting-picture"), "the profile picture setting")
    alice.assert_accessible("the settings with a profile picture")
    chooser = alice.find(".setting-picture input[type=file]")[0]
    chooser.send_keys(str(picture))
    own = alice.wait(lambda: (p := alice.visible(".setting-picture .avatar-picture")) and p[0], "her picture in the settings")
    alice.wait(lambda: alice.js("return arguments[0].complete && arguments[0].naturalWidth === 64", own), "her picture to load")
    assert alice.button("Remove", root=alice.find(".setting-picture")[0]) is not None
    alice.shot("picture-chosen")

    # Bob sees it in his list once his page loads the conversations again (it is not pushed live).
    alice.send_text("There it is")
    bob.wait_for_text_bubble("There it is")
    bob.driver.refresh()
    bob.open_conversation("Alice")
    seen = bob.wait(lambda: conversation_avatar(bob, "Alice"), "Alice's picture in Bob's list")
    bob.wait(lambda: bob.js("return arguments[0].complete && arguments[0].naturalWidth === 64", seen), "the picture to load at Bob's")
    bob.shot("picture-seen")

    alice.press("Remove", root=alice.find(".setting-picture")[0])
    alice.wait(lambda: not alice.visible(".setting-picture .avatar-picture"), "initials again in her settings")
    status = bob.js("return fetch(arguments[0]).then((r) => r.status)", seen.get_attribute("src"))
    assert status == 404, "a removed picture is private again"
