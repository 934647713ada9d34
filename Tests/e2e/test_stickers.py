"""Stickers: a pack browsed in its grid size from the drawer, a sticker sent."""

import pytest
from selenium.webdriver.common.by import By


@pytest.mark.flow
def test_a_sticker_is_sent_from_the_drawer(browsers):
    alice = browsers("alice")
    bob = browsers("bob")
    alice.open_conversation("Bob")
    bob.open_conversation("Alice")

    alice.open_drawer()
    assert "Everyday" in alice.drawer_names()
    alice.press("Everyday stickers")
    grid = alice.wait(lambda: (g := alice.visible(".drawer .sticker-grid")) and g[0], "the sticker pack")
    assert "sticker-grid-regular" in grid.get_attribute("class").split()
    buttons = grid.find_elements(By.CSS_SELECTOR, ".sticker-button")
    assert len(buttons) >= 10
    # Regular stickers: three or more to a row in the tray, none smaller than 90 px.
    widths = {round(b.rect["width"]) for b in buttons[:3]}
    assert min(widths) >= 90, widths
    alice.wait(lambda: alice.js("return [...document.querySelectorAll('.sticker-grid img')].slice(0, 4).every(i => i.complete && i.naturalWidth > 0)"), "the stickers to load")
    alice.shot("sticker-pack")
    alice.assert_controls_named("the sticker pack")
    label = buttons[0].get_attribute("aria-label")
    description = label.removeprefix("Send sticker: ")
    alice.press(label)

    for person in (alice, bob):
        sticker = person.wait(
            lambda p=person: next((s for s in p.find(".transcript-list img.sticker") if s.get_attribute("alt") == description), None),
            "the sticker in the transcript")
        person.wait(lambda p=person, s=sticker: p.js("return arguments[0].complete && arguments[0].naturalWidth > 0", s), "the sticker image to load")
        # A sticker has no bubble around it.
        assert not person.find(".transcript-list .bubble")
    bob.shot("sticker-received")
    alice.shot("sticker-sent")
    assert alice.visible(".drawer .sticker-grid"), "the pack stays open for another sticker"
