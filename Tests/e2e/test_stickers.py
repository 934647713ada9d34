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


def placed_on(person, text):
    """The stickers placed on the text message `text`: [(alt, left %, top %)]."""
    entry = person.wait_for_text_bubble(text).find_element(By.XPATH, "./ancestor::li[contains(@class, 'entry')]")
    return [
        (sticker.find_element(By.CSS_SELECTOR, ".placed-sticker-image").get_attribute("alt"),
         round(float(sticker.value_of_css_property("left").removesuffix("px")) / sticker.find_element(By.XPATH, "./../..").rect["width"] * 100),
         sticker.get_attribute("title"))
        for sticker in entry.find_elements(By.CSS_SELECTOR, ".placed-sticker")
    ]


@pytest.mark.flow
def test_a_sticker_is_placed_on_a_message_from_its_menu_or_by_dragging(browsers):
    from test_reactions import open_picker

    alice = browsers("alice")
    bob = browsers("bob")
    alice.open_conversation("Bob")
    bob.open_conversation("Alice")
    bob.send_text("Happy birthday, Alice!")
    alice.wait_for_text_bubble("Happy birthday, Alice!")

    # From the message's menu, as the keyboard and a tap do it: the drawer offers stickers to place.
    picker = open_picker(alice, "Happy birthday, Alice!")
    alice.press("Place sticker", root=picker)
    alice.wait(lambda: "Choose a sticker to place on Bob's message." in alice.driver.find_element(By.CSS_SELECTOR, ".drawer").text, "the drawer, placing")
    if not alice.visible(".drawer .sticker-grid"):
        alice.press("Everyday stickers")
    grid = alice.wait(lambda: (g := alice.visible(".drawer .sticker-grid")) and g[0], "the sticker pack")
    alice.assert_accessible("the drawer while placing a sticker")
    label = grid.find_elements(By.CSS_SELECTOR, ".sticker-button")[0].get_attribute("aria-label")
    assert label.startswith("Place sticker: "), label
    description = label.removeprefix("Place sticker: ")
    alice.press(label)

    alice.wait(lambda: placed_on(alice, "Happy birthday, Alice!") and placed_on(alice, "Happy birthday, Alice!")[0][0] == f"{description}, placed by You",
               "the sticker on Bob's message, on Alice's screen")
    bob.wait(lambda: [p[0] for p in placed_on(bob, "Happy birthday, Alice!")] == [f"{description}, placed by Alice"], "the sticker on his message, live for Bob")
    assert not alice.visible(".drawer"), "placing closes the drawer"
    assert "react-button" in alice.js("return document.activeElement.className"), "focus is back on the message"
    for person in (alice, bob):
        assert not person.find(".transcript-list img.sticker"), "a placed sticker is not a message of its own"

    # Dragged from the drawer and dropped a quarter of the way across the bubble.
    alice.open_drawer()
    alice.press("Everyday stickers")
    grid = alice.wait(lambda: (g := alice.visible(".drawer .sticker-grid")) and g[0], "the sticker pack")
    second = grid.find_elements(By.CSS_SELECTOR, ".sticker-button")[1]
    dragged = second.get_attribute("aria-label").removeprefix("Send sticker: ")
    bubble = alice.wait_for_text_bubble("Happy birthday, Alice!")
    alice.js("""
        const [button, text] = arguments;
        const bubble = text.closest('.bubble');
        const data = new DataTransfer();
        const box = bubble.getBoundingClientRect();
        const at = { clientX: box.left + box.width * 0.25, clientY: box.top + box.height * 0.5 };
        button.dispatchEvent(new DragEvent('dragstart', { bubbles: true, dataTransfer: data }));
        for (const type of ['dragenter', 'dragover', 'drop']) {
            bubble.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: data, ...at }));
        }
        button.dispatchEvent(new DragEvent('dragend', { bubbles: true, dataTransfer: data }));
    """, second, bubble)
    bob.wait(lambda: len(placed_on(bob, "Happy birthday, Alice!")) == 2, "the dragged sticker on Bob's screen")
    alt, left, _ = placed_on(bob, "Happy birthday, Alice!")[1]
    assert alt == f"{dragged}, placed by Alice"
    assert abs(left - 25) <= 2, f"placed where it was dropped, not at {left}%"
    bob.shot("sticker-placed")
    bob.assert_accessible("a message with stickers placed on it")

    # They stay on the message after a reload.
    bob.driver.refresh()
    bob.open_conversation("Alice")
    bob.wait(lambda: len(placed_on(bob, "Happy birthday, Alice!")) == 2, "both stickers after a reload")

    # Alice peels her first sticker off again (her own, in the unsend window); Bob cannot press his.
    alice.wait(lambda: len(placed_on(alice, "Happy birthday, Alice!")) == 2, "both stickers on Alice's screen")
    assert not bob.find(".placed-sticker.is-removable"), "only the one who placed a sticker may take it off"
    alice.press(f"{description}, placed by you: take it off")
    for person in (alice, bob):
        person.wait(lambda p=person: [alt for alt, _, _ in placed_on(p, "Happy birthday, Alice!")] == [f"{dragged}, placed by {'You' if p is alice else 'Alice'}"],
                    "only the dragged sticker left")
    alice.assert_accessible("a message with a sticker one may take off")

    # Bob unsends his message: the sticker on it goes with it, for both.
    from test_replies import action
    action(bob, "Happy birthday, Alice!", "Unsend")
    for person in (alice, bob):
        person.wait(lambda p=person: p.find(".unsent-line"), "the unsent line")
        person.wait(lambda p=person: not p.find(".placed-sticker") and not p.find(".placed-note"), "no sticker left of the unsent message")
