"""The keyboard alone: sign in, open a conversation, write, use the drawer and an app; focus goes
where the person is working, with a visible focus ring. And the phone-width layout."""

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys


def keys(person, *sequence):
    ActionChains(person.driver).send_keys(*sequence).perform()


def shift_tab(person):
    ActionChains(person.driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()


def focused(person) -> dict:
    return person.js(
        "const e = document.activeElement; const s = getComputedStyle(e);"
        "const name = e.querySelector && e.querySelector('.conversation-name');"
        "return {tag: e.tagName.toLowerCase(), label: e.getAttribute('aria-label') || (name ? name.textContent : e.textContent.trim().slice(0, 60)),"
        " cls: e.className || '', outline: s.outlineStyle, id: e.id};")


def tab_to(person, matches, what, limit=40, backwards=False):
    for _ in range(limit):
        if matches(focused(person)):
            return
        shift_tab(person) if backwards else keys(person, Keys.TAB)
    raise AssertionError(f"Tab never reached {what}; focus is on {focused(person)}")


@pytest.mark.flow
def test_the_keyboard_alone_is_enough(browsers):
    bob = browsers("bob")
    bob.open_conversation("Alice")
    alice = browsers("alice", sign_in=False)
    alice.open("/")
    alice.wait(lambda: focused(alice)["id"] == "auth-username", "the username field to have focus")
    keys(alice, "alice", Keys.TAB, "parlor-demo", Keys.ENTER)
    alice.wait(lambda: alice.visible(".conversation-link"), "the conversation list")

    tab_to(alice, lambda f: f["label"] == "Bob" and "conversation-link" in f["cls"], "the conversation with Bob")
    assert focused(alice)["outline"] != "none", "keyboard focus is visible"
    keys(alice, Keys.ENTER)
    alice.wait(lambda: "composer-input" in focused(alice)["cls"], "focus in the compose field")
    keys(alice, "Typed with the keyboard", Keys.ENTER)
    bob.wait_for_text_bubble("Typed with the keyboard")

    # The drawer: opened from its button, focus on its first app; Escape closes it and focus returns.
    # Before the field: the emoji, the paperclip, then the drawer's button.
    shift_tab(alice)
    assert focused(alice)["label"] == "Emoji"
    shift_tab(alice)
    assert focused(alice)["label"] == "Add a photo or file"
    shift_tab(alice)
    assert focused(alice)["label"] == "Apps"
    keys(alice, Keys.ENTER)
    alice.wait(lambda: "drawer-item" in focused(alice)["cls"], "focus in the drawer")
    alice.shot("drawer-keyboard")
    alice.assert_controls_named("the drawer")
    keys(alice, Keys.ESCAPE)
    alice.wait(lambda: not alice.visible(".drawer") and focused(alice)["label"] == "Apps", "the drawer to close with focus back on Apps")

    # An app: focus moves into it; a square played with Enter; focus back in the compose field.
    keys(alice, Keys.ENTER)
    alice.wait(lambda: "drawer-item" in focused(alice)["cls"], "focus in the drawer")
    tab_to(alice, lambda f: f["label"] == "Open Tic-Tac-Toe", "Tic-Tac-Toe in the drawer")
    keys(alice, Keys.ENTER)
    alice.wait(lambda: focused(alice)["label"] == "Tic-Tac-Toe", "focus on the app's title")
    tab_to(alice, lambda f: f["label"] == "Row 2, column 2, empty", "the center square")
    alice.shot("app-keyboard")
    alice.assert_controls_named("Tic-Tac-Toe's board")
    keys(alice, Keys.ENTER)
    alice.wait_for_staged("Want to play Tic-Tac-Toe?")
    alice.wait(lambda: "composer-input" in focused(alice)["cls"], "focus back in the compose field")
    keys(alice, Keys.ENTER)  # Return sends the staged move
    bob.wait_for_card("Want to play Tic-Tac-Toe?")

    # Escape closes an open app.
    tab_to(alice, lambda f: f["label"] == "Apps", "the drawer's button", backwards=True)
    keys(alice, Keys.ENTER)
    tab_to(alice, lambda f: f["label"] == "Open RSVP", "RSVP in the drawer")
    keys(alice, Keys.ENTER)
    alice.wait(lambda: focused(alice)["label"] == "RSVP", "focus on RSVP's title")
    # The compact app sits below the compose bar, and Tab meets it there: after the field, the
    # microphone and Send.
    alice.js("document.querySelector('.composer-input').focus()")
    keys(alice, Keys.TAB)
    assert focused(alice)["label"] == "Record a voice message", focused(alice)
    keys(alice, Keys.TAB)
    if "composer-send" in focused(alice)["cls"]:
        keys(alice, Keys.TAB)
    assert alice.js("return Boolean(document.activeElement.closest('.surface'))"), focused(alice)
    alice.js("document.querySelector('.surface-title').focus()")
    keys(alice, Keys.ESCAPE)
    alice.wait_surface_closed()
    alice.wait(lambda: "composer-input" in focused(alice)["cls"], "focus back in the compose field after Escape")
    # From the compose field too: Escape closes the app open above it, and focus stays there.
    tab_to(alice, lambda f: f["label"] == "Apps", "the drawer's button", backwards=True)
    keys(alice, Keys.ENTER)
    tab_to(alice, lambda f: f["label"] == "Open RSVP", "RSVP in the drawer")
    keys(alice, Keys.ENTER)
    alice.wait(lambda: focused(alice)["label"] == "RSVP", "focus on RSVP's title")
    alice.js("document.querySelector('.composer-input').focus()")
    keys(alice, Keys.ESCAPE)
    alice.wait_surface_closed()
    assert "composer-input" in focused(alice)["cls"], focused(alice)

    # Mute with Return, unmute with Space: the focus stays on the button (it used to drop to the page).
    alice.js("document.querySelector('.mute-button').focus()")
    keys(alice, Keys.ENTER)
    alice.wait(lambda: alice.js("return document.querySelector('.mute-button').getAttribute('aria-pressed')") == "true", "muted")
    alice.wait(lambda: "mute-button" in focused(alice)["cls"], "the focus still on Mute")
    keys(alice, Keys.SPACE)
    alice.wait(lambda: alice.js("return document.querySelector('.mute-button').getAttribute('aria-pressed')") == "false", "unmuted")
    assert "mute-button" in focused(alice)["cls"], focused(alice)


@pytest.mark.flow
def test_the_phone_layout_shows_one_pane_at_a_time(browsers):
    alice = browsers("alice")
    bob = browsers("bob", width=390, height=844)
    alice.open_conversation("Bob")
    alice.send_text("Hello on your phone")
    bob.wait(lambda: bob.visible(".conversation-link") and not bob.visible(".conversation"), "the list alone")
    bob.wait(lambda: bob.unread_count("Alice") == 1, "one unread message from Alice")
    bob.shot("phone-list")
    bob.open_conversation("Alice")
    assert not bob.visible(".sidebar"), "the list gives way to the conversation"
    bob.wait_for_text_bubble("Hello on your phone")
    bob.wait(lambda: bob.unread_count("Alice") == 0, "the message to count as read")
    bob.open_app("RSVP")
    bob.press_in_app("Create RSVP")
    bob.wait_for_surface("RSVP", style="expanded")
    bob.assert_focus_kept("'Create RSVP'")
    bob.shot("phone-app-expanded")
    assert bob.js("return window.innerWidth") == 390
    width = bob.js("return document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways ({width} px)"
    bob.press_in_app("Close RSVP")
    bob.click(lambda: bob.visible(".back-button")[0], "Back")
    bob.wait(lambda: bob.visible(".conversation-link"), "the list again")
    bob.assert_focus_kept("'Back to conversations'")


@pytest.mark.flow
def test_dark_mode_follows_the_system(browsers):
    alice = browsers("alice")
    alice.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    bob = browsers("bob")
    bob.open_conversation("Alice")
    bob.send_text("Good evening")
    alice.open_conversation("Bob")
    alice.wait_for_text_bubble("Good evening")
    alice.send_text("Dark here")
    alice.open_app("Tic-Tac-Toe")
    alice.press_in_app("Row 1, column 1, empty")
    alice.wait_for_staged("Want to play Tic-Tac-Toe?")
    alice.send()
    alice.wait_for_card("Want to play Tic-Tac-Toe?")
    background = alice.js("return getComputedStyle(document.querySelector('.main')).backgroundColor")
    assert background == "rgb(0, 0, 0)", background
    theirs = alice.js("return getComputedStyle(document.querySelector('.entry-theirs .bubble')).color")
    assert theirs != "rgb(29, 29, 31)", "text in their bubbles is light on dark"
    # The game's board in the bubble is drawn for the dark scheme too, not a bright white square.
    alice.wait(lambda: alice.js("const i = document.querySelector('.app-card img'); return i && i.complete && i.naturalWidth > 0"), "the board image")
    corner = alice.js("""
        const img = document.querySelector('.app-card img');
        const canvas = document.createElement('canvas');
        canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
        const context = canvas.getContext('2d');
        context.drawImage(img, 0, 0);
        return Array.from(context.getImageData(4, 4, 1, 1).data);
    """)
    assert max(corner[:3]) < 80, f"the board's background is {corner}, not dark"
    alice.open_drawer()
    alice.shot("dark-mode")
