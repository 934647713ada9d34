"""Around the messages: tapbacks and other emoji reactions on any message, and typing indicators."""

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


def entry_of(person, text):
    """The transcript entry of the text message `text`."""
    bubble = person.wait_for_text_bubble(text)
    return bubble.find_element(By.XPATH, "./ancestor::li[contains(@class, 'entry')]")


def chips(person, text):
    """The reaction chips under `text`, as {emoji: (count, pressed, who)}."""
    result = {}
    for chip in entry_of(person, text).find_elements(By.CSS_SELECTOR, ".reaction-chip"):
        emoji = chip.find_element(By.CSS_SELECTOR, ".reaction-emoji").text
        count = int(chip.find_element(By.CSS_SELECTOR, ".reaction-count").text)
        result[emoji] = (count, chip.get_attribute("aria-pressed") == "true", chip.get_attribute("title"))
    return result


def open_picker(person, text):
    """Hovers the message, as a person with a mouse does, and opens its reaction picker."""
    def attempt():
        entry = entry_of(person, text)
        ActionChains(person.driver).move_to_element(entry).perform()
        button = entry.find_element(By.CSS_SELECTOR, ".react-button")
        if not button.is_displayed():
            return False
        button.click()
        return True
    person.wait(attempt, f"to open the reaction picker of '{text}'")
    return person.wait(lambda: (person.visible(".reaction-picker") or [None])[0], "the reaction picker")


def open_emoji_picker(person):
    """The emoji picker just opened, its list loaded: its search field, which has the focus."""
    search = person.wait(lambda: (person.visible(".emoji-picker .emoji-search") or [None])[0], "the emoji picker")
    person.wait(lambda: person.js("return document.querySelectorAll('.emoji-picker .emoji').length") > 1000, "the emoji loaded")
    person.wait(lambda: "emoji-search" in person.focused_element(), "the focus in its search field")
    return search


def emoji_labels(person):
    """The names of the emoji the picker shows (read in the page: there are nearly 2,000)."""
    return person.js("return [...document.querySelectorAll('.emoji-picker .emoji')].map((e) => e.getAttribute('aria-label'))")


@pytest.mark.flow
def test_tapbacks_show_live_toggle_and_take_any_emoji(browsers):
    alice = browsers("alice")
    bob = browsers("bob")
    alice.open_conversation("Bob")
    bob.open_conversation("Alice")
    alice.send_text("Dinner at 7?")
    bob.wait_for_text_bubble("Dinner at 7?")

    picker = open_picker(bob, "Dinner at 7?")
    assert [b.get_attribute("aria-label") for b in picker.find_elements(By.CSS_SELECTOR, ".tapback")] == [
        "Love", "Like", "Dislike", "Laugh", "Emphasize", "Question"]
    bob.shot("picker")
    bob.assert_accessible("the reaction picker")
    bob.press("Love", root=picker)
    bob.wait(lambda: chips(bob, "Dinner at 7?") == {"❤️": (1, True, "You")}, "Bob's heart on his screen, pressed")
    alice.wait(lambda: chips(alice, "Dinner at 7?") == {"❤️": (1, False, "Bob")}, "Bob's heart live on Alice's screen")
    assert not bob.visible(".reaction-picker"), "choosing closes the picker"

    # Alice adds her heart by pressing the chip; Bob takes his off the same way.
    alice.click(lambda: entry_of(alice, "Dinner at 7?").find_element(By.CSS_SELECTOR, ".reaction-chip"), "the heart chip")
    bob.wait(lambda: chips(bob, "Dinner at 7?") == {"❤️": (2, True, "You, Alice")}, "two hearts")
    bob.click(lambda: entry_of(bob, "Dinner at 7?").find_element(By.CSS_SELECTOR, ".reaction-chip"), "his heart chip")
    alice.wait(lambda: chips(alice, "Dinner at 7?") == {"❤️": (1, True, "You")}, "only Alice's heart left")

    # Any other emoji, from the picker: found by a keyword, chosen with the keyboard.
    picker = open_picker(bob, "Dinner at 7?")
    bob.press("Other emoji", root=picker)
    search = open_emoji_picker(bob)
    bob.assert_accessible("the emoji picker")
    # Tab goes around inside it: Shift+Tab from the search reaches its emoji, not the page.
    ActionChains(bob.driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
    assert bob.focused_element() == "button.emoji", bob.focused_element()
    search.click()
    bob.shot("emoji picker")
    search.send_keys("popper")
    bob.wait(lambda: emoji_labels(bob) == ["Party popper"], "🎉 found by its name")
    search.send_keys(Keys.ARROW_DOWN)
    bob.wait(lambda: bob.focused_element() == "button.emoji", "the focus on the emoji found")
    ActionChains(bob.driver).send_keys(Keys.ENTER).perform()
    alice.wait(lambda: chips(alice, "Dinner at 7?").get("🎉") == (1, False, "Bob"), "Bob's 🎉")
    assert not bob.visible(".emoji-picker"), "choosing closes the picker"
    bob.wait(lambda: "react-button" in bob.focused_element(), "the focus back on the message's react button")
    alice.shot("reactions")

    # An emoji the list leaves out (a skin tone), pasted into the search, is offered as it is;
    # a search that finds nothing says so.
    picker = open_picker(bob, "Dinner at 7?")
    bob.press("Other emoji", root=picker)
    search = open_emoji_picker(bob)
    search.send_keys("zzzz")
    bob.wait(lambda: "No emoji found for “zzzz”." in bob.visible(".emoji-status")[0].text, "the search saying it found nothing")
    search.clear()
    bob.js("arguments[0].value = '👍🏽'; arguments[0].dispatchEvent(new Event('input'))", search)
    bob.wait(lambda: emoji_labels(bob)[:1] == ["Use 👍🏽"], "the pasted emoji offered")
    search.send_keys(Keys.ENTER)
    alice.wait(lambda: chips(alice, "Dinner at 7?").get("👍🏽") == (1, False, "Bob"), "Bob's 👍🏽")
    assert set(chips(bob, "Dinner at 7?")) == {"❤️", "🎉", "👍🏽"}

    # The same picker writes in the compose field, where the caret is; Escape closes it.
    field = bob.wait(lambda: (bob.visible(".composer-input") or [None])[0], "Bob's compose field")
    field.send_keys("See you")
    bob.press("Emoji")
    open_emoji_picker(bob).send_keys(Keys.ESCAPE)
    bob.wait(lambda: not bob.visible(".emoji-picker") and "composer-input" in bob.focused_element(), "Escape back to the field")
    bob.press("Emoji")
    search = open_emoji_picker(bob)
    search.send_keys("tears of joy")
    bob.wait(lambda: emoji_labels(bob)[:1] == ["Face with tears of joy"], "😂 first for 'tears of joy'")
    search.send_keys(Keys.ENTER)
    bob.wait(lambda: "composer-input" in bob.focused_element(), "the focus back in the field")
    ActionChains(bob.driver).send_keys(" soon", Keys.ENTER).perform()
    alice.wait_for_text_bubble("See you😂 soon")

    # Who reacted, on a right-click (a long press on a touch screen), without toggling anything.
    chip = entry_of(alice, "Dinner at 7?").find_element(By.CSS_SELECTOR, ".reaction-chip")
    ActionChains(alice.driver).context_click(chip).perform()
    who = alice.wait(lambda: (r := alice.visible(".reactors")) and r[0], "the list of who reacted")
    assert who.text == "❤️ You", who.text
    assert chips(alice, "Dinner at 7?")["❤️"][1], "a right-click does not take her heart off"
    alice.driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    alice.wait(lambda: not alice.visible(".reactors"), "the list to close with Escape")

    # They are in the history: a reload shows them.
    alice.driver.refresh()
    alice.open_conversation("Bob")
    alice.wait(lambda: chips(alice, "Dinner at 7?") == {"❤️": (1, True, "You"), "🎉": (1, False, "Bob"), "👍🏽": (1, False, "Bob")},
               "the reactions after a reload")


@pytest.mark.flow
def test_reaction_picker_by_keyboard(browsers):
    alice = browsers("alice")
    alice.open_conversation("Bob")
    alice.send_text("Keyboard only")
    entry = entry_of(alice, "Keyboard only")
    react = entry.find_element(By.CSS_SELECTOR, ".react-button")
    alice.js("arguments[0].focus()", react)
    assert react.is_displayed(), "the react button shows when it has the focus"
    ActionChains(alice.driver).send_keys(Keys.ENTER).perform()
    alice.wait(lambda: "tapback" in alice.focused_element(), "the focus on the first tapback")
    ActionChains(alice.driver).send_keys(Keys.ESCAPE).perform()
    alice.wait(lambda: not alice.visible(".reaction-picker"), "Escape to close the picker")
    assert "react-button" in alice.focused_element(), "the focus goes back to the react button"
    ActionChains(alice.driver).send_keys(Keys.ENTER).perform()
    alice.wait(lambda: "tapback" in alice.focused_element(), "the picker open again")
    ActionChains(alice.driver).send_keys(Keys.TAB, Keys.ENTER).perform()
    alice.wait(lambda: chips(alice, "Keyboard only") == {"👍": (1, True, "You")}, "Like chosen with Tab and Enter")
    # Taking off her only reaction with the keyboard: the chips' row goes, the focus stays on the message.
    alice.js("arguments[0].focus()", entry_of(alice, "Keyboard only").find_element(By.CSS_SELECTOR, ".reaction-chip"))
    ActionChains(alice.driver).send_keys(Keys.ENTER).perform()
    alice.wait(lambda: chips(alice, "Keyboard only") == {}, "the Like taken off")
    alice.wait(lambda: alice.js("const e = document.activeElement, entry = e && e.closest('.transcript-list > .entry');"
                                " return Boolean(entry && entry.textContent.includes('Keyboard only'))"),
               f"the focus still on the message: {alice.focused_element()}")


@pytest.mark.flow
def test_typing_indicator(browsers):
    alice = browsers("alice")
    bob = browsers("bob")
    alice.open_conversation("Bob")
    bob.open_conversation("Alice")
    field = bob.wait(lambda: (bob.visible(".composer-input") or [None])[0], "Bob's compose field")
    field.send_keys("I'm writing a long answer")
    alice.wait(lambda: alice.visible(".typing-indicator .typing-dots"), "the typing dots")
    assert alice.find(".typing-indicator")[0].text == "Bob is typing…"
    alice.shot("typing")
    assert not bob.find(".typing-indicator")[0].text, "nobody sees their own dots"

    # Clearing the field stops the dots at once.
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(Keys.BACKSPACE)
    alice.wait(lambda: not alice.find(".typing-indicator")[0].text, "the dots to go when Bob clears the field")

    # Typing again and sending: the message takes the dots' place.
    field.send_keys("Done")
    alice.wait(lambda: alice.find(".typing-indicator")[0].text == "Bob is typing…", "the dots again")
    field.send_keys(Keys.ENTER)
    alice.wait_for_text_bubble("Done")
    alice.wait(lambda: not alice.find(".typing-indicator")[0].text, "no dots once the message is there")
