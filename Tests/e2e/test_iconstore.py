"""Icon Store: an icon shared into a conversation, opened on its detail by the recipient, liked."""

import pytest


@pytest.mark.flow
def test_a_shared_icon_is_opened_on_its_detail_and_liked(browsers):
    alice = browsers("alice")
    bob = browsers("bob")
    alice.open_conversation("Bob")
    bob.open_conversation("Alice")

    alice.open_app("Icon Store")
    alice.wait_for_surface("Icon Store", style="compact")
    alice.shot("icon-list")
    alice.press_in_app("Cat icon", exact=False)
    alice.wait_for_staged("Cat icon")
    alice.send()
    alice.wait_for_card("Cat icon")

    card = bob.wait_for_card("Cat icon")
    assert "Icon Store" in bob.card_text(card)
    bob.tap_card("Cat icon")
    bob.wait_for_surface("Icon Store", style="expanded")
    # The detail is presented as a modal screen over the app.
    dialog = bob.wait(lambda: (d := bob.visible(".surface [role=dialog]")) and d[0], "the icon's detail")
    assert bob.find(".modal-title", dialog)[0].text == "Cat icon"
    bob.wait_for_node_text("detail-name", "Cat icon")
    image = bob.node("detail-image")
    assert image.get_attribute("alt") == "Cat icon"
    bob.wait(lambda: bob.js("return arguments[0].complete && arguments[0].naturalWidth > 0", image), "the icon's image to load")
    bob.shot("icon-detail")
    bob.press_in_app("Like Cat icon")
    bob.wait(lambda: bob.button("You liked Cat icon", bob.surface()) is not None, "the Like button to say Liked")

    # The like replaces the bubble in the same session, for both.
    for person in (alice, bob):
        person.wait_for_card("Bob liked Cat icon")
        person.wait(lambda p=person: len(p.app_cards()) == 1, "one bubble for the icon")
        assert person.summary_lines() == ["Shared Cat icon ($2.99)"], person.summary_lines()
    alice.shot("like-received")

    # Closing the detail (its close control) goes back to the list.
    bob.press_in_app("Close Cat icon")
    bob.wait(lambda: not bob.visible(".surface [role=dialog]"), "the detail to close")
    bob.shot("detail-closed")
