"""People and conversations: signing up, starting a 1:1 and a group by picking people, unread
counts; the store (removing an app, getting it back from a message); an app's error banner; a
draft kept across a reload and forgotten at sign-out."""

import pytest
from selenium.webdriver.common.by import By


def start_conversation(person, *usernames, title=None):
    person.press("New conversation")
    dialog = person.wait(lambda: (d := person.visible("dialog.new-conversation-dialog")) and d[0], "the new conversation dialog")
    for username in usernames:
        person.click(lambda u=username: next(iter(person.visible(f'.person[data-username="{u}"]')), None), f"{username} in the list")
        person.wait(lambda u=username: person.find(f'.person[data-username="{u}"][aria-pressed="true"]'), f"{username} to be picked")
    if title:
        field = person.wait(lambda: (f := person.visible("#group-title")) and f[0], "the group name field")
        field.send_keys(title)
    person.shot("new-conversation-dialog")
    person.assert_controls_named("the new conversation dialog")
    person.click(lambda: dialog.find_element(By.CSS_SELECTOR, "button[type=submit]"), "Start")
    person.wait(lambda: not person.visible("dialog.new-conversation-dialog"), "the dialog to close")


@pytest.mark.flow
def test_a_new_person_signs_up_and_starts_conversations(browsers):
    alice = browsers("alice")
    dana = browsers("dana", sign_in=False)
    dana.open("/")
    dana.wait(lambda: dana.visible("#auth-username"), "the sign-in form")
    # The sign-in page's background fills the window, whatever its height (it used to stop
    # below the card).
    covered = dana.driver.execute_script("return document.querySelector('.auth').getBoundingClientRect().height >= innerHeight")
    assert covered, "the sign-in page's background stops before the bottom of the window"
    # Under --demo, the page says which accounts exist.
    dana.wait(lambda: "Demo accounts: alice, bob, carol, each with the password parlor-demo." in dana.find(".auth-notice")[0].text,
              "the demo accounts on the sign-in page")
    dana.sign_up("dana", "Dana Scully", "trust-no-one-1")
    assert "Dana Scully (@dana)" in dana.find(".sidebar-me")[0].text
    dana.shot("signed-up")

    # A 1:1: pick one person.
    start_conversation(dana, "alice")
    dana.wait(lambda: dana.conversation_title() == "Alice", "the conversation with Alice to open")
    dana.send_text("Hi Alice, I'm new here")
    dana.wait_for_text_bubble("Hi Alice, I'm new here")

    # Alice sees the new conversation appear, with one unread message, then reads it.
    alice.wait(lambda: alice.unread_count("Dana Scully") == 1, "Dana's conversation with one unread message")
    alice.shot("new-conversation-unread")
    alice.open_conversation("Dana Scully")
    alice.wait_for_text_bubble("Hi Alice, I'm new here")
    alice.wait(lambda: alice.unread_count("Dana Scully") == 0, "the unread count to clear")

    # A group: several people and a name.
    start_conversation(dana, "alice", "bob", title="Field office")
    dana.wait(lambda: dana.conversation_title() == "Field office", "the group to open")
    assert "Alice, Bob and you" in dana.find(".conversation-subtitle")[0].text or "Bob, Alice and you" in dana.find(".conversation-subtitle")[0].text
    dana.send_text("Welcome to the group")
    alice.open_conversation("Field office")
    bubble = alice.wait_for_text_bubble("Welcome to the group")
    # In a group, the sender's name is over their bubble.
    entry = bubble.find_element(By.XPATH, "./ancestor::li[1]")
    assert entry.find_element(By.CSS_SELECTOR, ".entry-sender-name").text == "Dana Scully"
    alice.shot("group-message")


@pytest.mark.flow
def test_an_app_removed_from_the_drawer_is_offered_from_its_message(browsers):
    alice = browsers("alice")
    bob = browsers("bob")
    alice.open_conversation("Bob")
    bob.open_conversation("Alice")

    # Bob removes RSVP in the store.
    bob.open_drawer()
    bob.press("Store: get more apps and stickers")
    bob.wait(lambda: bob.visible("dialog.store"), "the store")
    bob.press("Remove RSVP")
    bob.wait(lambda: bob.button("Get RSVP", bob.visible("dialog.store")[0]) is not None, "RSVP to be removable no more")
    bob.shot("store")
    bob.assert_controls_named("the store")
    bob.press("Close store")
    bob.wait(lambda: "RSVP" not in bob.drawer_names(), "RSVP to leave the drawer")

    alice.open_app("RSVP")
    alice.press_in_app("Create RSVP")
    alice.type_in_app("Title", "Lunch at noon?", submit=True)
    alice.wait_for_staged("Lunch at noon?")
    alice.send()

    # Bob sees the bubble; tapping it offers the app; getting it opens the message.
    card = bob.wait_for_card("Lunch at noon?")
    assert "Open in RSVP" not in (card.find_element(By.CSS_SELECTOR, ".app-card-tap").get_attribute("aria-label") or "")
    bob.tap_card("Lunch at noon?")
    bob.wait(lambda: bob.visible(".offer"), "the offer to get RSVP")
    bob.shot("get-app-offer")
    bob.press("Get RSVP")
    bob.wait_for_surface("RSVP", style="expanded")
    bob.wait_for_node_text("title", "Lunch at noon?")
    bob.choose_in_app("Going")
    alice.wait_for_card("1 going")
    bob.open_drawer()
    assert "RSVP" in bob.drawer_names()


@pytest.mark.flow
def test_an_app_error_shows_as_a_banner_that_can_be_dismissed(browsers):
    alice = browsers("alice")
    bob = browsers("bob")
    alice.open_conversation("Bob")
    bob.open_conversation("Alice")
    alice.open_app("Tic-Tac-Toe")
    alice.press_in_app("Row 2, column 2, empty")
    alice.wait_for_staged("Want to play Tic-Tac-Toe?")
    alice.send()

    bob.tap_card("Want to play Tic-Tac-Toe?")
    bob.wait_for_surface("Tic-Tac-Toe", style="expanded")
    bob.press_in_app("Row 2, column 2, X")
    banner = bob.wait(lambda: (b := bob.visible(".surface-error")) and b[0], "the error banner")
    assert "That square is taken" in banner.text
    assert banner.get_attribute("role") == "alert"
    bob.shot("error-banner")
    bob.press("Dismiss", root=banner)
    bob.wait(lambda: not bob.visible(".surface-error"), "the banner to go")
    # The game goes on; a staged move can be taken back before it is sent.
    bob.press_in_app("Row 1, column 1, empty")
    bob.wait_for_staged("It's your move!")
    bob.shot("move-staged")
    bob.press("Remove Tic-Tac-Toe message")
    bob.wait(lambda: bob.staged() is None, "the staged move to be removed")
    assert len(alice.app_cards()) == 1 and len(bob.app_cards()) == 1, "nothing was sent"


@pytest.mark.flow
def test_earlier_messages_load_on_request(browsers):
    bob = browsers("bob")
    # 230 messages through the HTTP API (as another client of Bob's would send them).
    sent = bob.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        (async () => {
          const list = await (await fetch('/api/conversations')).json();
          const id = list.find((c) => !c.isGroup).id;
          for (let n = 1; n <= 230; n++) {
            const response = await fetch(`/api/conversations/${id}/messages`, {
              method: 'POST', headers: {'Content-Type': 'application/json'},
              body: JSON.stringify({id: crypto.randomUUID(), text: `Message number ${n}`}),
            });
            if (!response.ok) return done(`failed at ${n}: ${response.status}`);
          }
          done(230);
        })();
    """)
    assert sent == 230, sent
    alice = browsers("alice")
    alice.open_conversation("Bob")
    alice.wait_for_text_bubble("Message number 230")
    assert not alice.text_bubbles("Message number 1")
    alice.press("Show earlier messages")
    alice.wait_for_text_bubble("Message number 1")
    texts = [b.text for b in alice.find(".transcript-list .bubble-body")]
    assert texts == [f"Message number {n}" for n in range(1, 231)], texts[:3]
    assert not alice.visible(".transcript-earlier"), "no earlier page left"
    alice.shot("earlier-messages")
    # The page itself never scrolls: only the transcript does.
    assert alice.js("return document.documentElement.scrollHeight <= window.innerHeight")
    assert alice.js("const t = document.querySelector('.transcript'); return t.scrollHeight > t.clientHeight")


@pytest.mark.flow
def test_an_unsent_draft_survives_a_reload_but_not_signing_out(browsers):
    """Text typed and not sent is still in the compose field after the page reloads; signing out
    forgets it, so the next person at this browser does not find it."""
    bob = browsers("bob")
    bob.open_conversation("Parlor demo")

    def compose_field():
        return (bob.visible(".composer-input") or [None])[0]

    bob.wait(compose_field, "the compose field").send_keys("half-written draft")
    bob.driver.refresh()
    bob.wait(lambda: bob.conversation_title() == "Parlor demo", "the conversation to open again after the reload")
    bob.wait(lambda: (f := compose_field()) is not None and f.get_attribute("value") == "half-written draft",
             "the draft back in the compose field")

    bob.press("Sign out")
    bob.wait(lambda: bob.visible("#auth-username"), "the sign-in form after signing out")
    bob.sign_in("bob")
    bob.open_conversation("Parlor demo")
    assert bob.wait(compose_field, "the compose field").get_attribute("value") == ""


@pytest.mark.flow
def test_one_to_three_emoji_alone_are_drawn_large_without_a_bubble(server, browsers):
    """As in Messages: a message of one to three emoji and nothing else is drawn large, with no
    bubble behind it; more emoji, or emoji with words, stay a bubble of text."""
    from parlor_api import call, sign_in
    bob = sign_in(server.url, "bob")
    direct = next(c for c in call(server.url, "GET", "/api/conversations", token=bob)
                  if not c["isGroup"] and {m["username"] for m in c["members"]} == {"alice", "bob"})
    cases = {"😂": True, "👍🏽👍🏽👍🏽": True, "🇯🇵": True, "👩‍👩‍👧‍👦": True, "😂😂😂😂": False, "Hi 😂": False, "1": False}
    for index, text in enumerate(cases):
        call(server.url, "POST", f"/api/conversations/{direct['id']}/messages",
             {"id": f"00000000-0000-4000-8000-00000000e{index:03d}", "text": text}, bob)
    alice = browsers("alice")
    alice.open_conversation("Bob")
    for text, large in cases.items():
        body = alice.wait_for_text_bubble(text)
        drawn = "bubble-emoji" in body.find_element(By.XPATH, "..").get_attribute("class")
        assert drawn == large, f"{text!r} drawn {'large' if drawn else 'in a bubble'}"
    big = alice.text_bubbles("😂")[0].find_element(By.XPATH, "..")
    assert float(big.value_of_css_property("font-size").removesuffix("px")) >= 40
    assert big.value_of_css_property("background-color") in ("rgba(0, 0, 0, 0)", "transparent")
    alice.shot("large-emoji")
