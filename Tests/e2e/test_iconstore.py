"""Icon Store: an icon shared into a conversation, opened on its detail by the recipient, liked."""

import uuid

import pytest
from selenium.webdriver import ActionChains
from selenium.webdriver.common.keys import Keys

from parlor_api import call, sign_in


@pytest.mark.flow
def test_a_shared_icon_is_opened_on_its_detail_and_liked(server, browsers):
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
    bob.assert_controls_named("the icon's detail")
    # Alice reads further up while Bob writes a while, then likes her icon: the like, drawn in her
    # name, is not something she sent, so it does not pull her down; the jump button counts it.
    bob_token = sign_in(server.url, "bob")
    direct = next(c for c in call(server.url, "GET", "/api/conversations", token=bob_token)
                  if not c["isGroup"] and {m["username"] for m in c["members"]} == {"alice", "bob"})
    for index in range(1, 26):
        call(server.url, "POST", f"/api/conversations/{direct['id']}/messages", {"id": str(uuid.uuid4()), "text": f"Chat {index}"}, bob_token)
    alice.wait_for_text_bubble("Chat 25")
    alice.js("document.querySelector('.transcript').scrollTop = 0")
    alice.driver.execute_async_script("requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(arguments[0], 50)))")
    bob.press_in_app("Like Cat icon")
    bob.wait(lambda: bob.button("Unlike Cat icon", bob.surface()) is not None, "the Like button to offer Unlike")

    # The like answers in the same session: one bubble, still showing the icon in full, with who
    # likes it, and still Alice's (on her side, not moved to Bob's), under the line saying Bob liked it.
    alice.wait(lambda: (b := alice.visible(".transcript .jump-latest-button")) and "1 new message" in b[0].text, "the jump button counting the like")
    assert alice.js("return document.querySelector('.transcript').scrollTop") < 50, "Alice left where she was reading"
    alice.js("const t = document.querySelector('.transcript'); t.scrollTop = t.scrollHeight")
    for person, side in ((alice, "entry-mine"), (bob, "entry-theirs")):
        card = person.wait_for_card("♥ Bob")
        assert "Cat icon" in person.card_text(card) and "$2.99" in person.card_text(card), person.card_text(card)
        person.wait(lambda p=person: len(p.app_cards()) == 1, "one bubble for the icon")
        assert person.summary_lines() == ["Alice shared Cat icon ($2.99)", "Bob liked Cat icon"], person.summary_lines()
        entry = card.find_element("xpath", "ancestor::li[contains(@class, 'entry')]")
        assert side in entry.get_attribute("class").split(), (person.username, entry.get_attribute("class"))
        above = person.js("return arguments[0].previousElementSibling?.textContent.trim()", entry)
        assert above == "Bob liked Cat icon", above
        # Drawn in Alice's name, it says in Parlor's own words who sent what it shows now.
        updated = entry.find_element("css selector", ".entry-updated-by").text
        assert updated == ("Updated by Bob" if person is alice else "Updated by you"), updated
    alice.shot("like-received")

    # Alice replies to the card: it is quoted in the name it is drawn in, hers, not the liker's.
    card_entry = alice.wait_for_card("♥ Bob").find_element("xpath", "ancestor::li[contains(@class, 'entry')]")
    alice.js("arguments[0].querySelector('.react-button').click()", card_entry)
    alice.press("Reply", root=alice.wait(lambda: (alice.visible(".reaction-picker") or [None])[0], "the card's menu"))
    context = alice.wait(lambda: (alice.visible(".composer-context") or [None])[0], "the reply bar")
    assert "Replying to Alice" in context.text, context.text
    alice.send_text("So cute")
    quote = alice.wait(lambda: alice.visible(".reply-quote"), "the quote")[0]
    assert "Alice" in quote.text and "Bob" not in quote.text, quote.text

    # Bob takes the like back.
    bob.press_in_app("Unlike Cat icon")
    bob.wait(lambda: bob.button("Like Cat icon", bob.surface()) is not None, "Like to come back")
    alice.wait(lambda: "♥" not in alice.card_text(alice.app_cards()[-1]), "the bubble to show no like")
    assert alice.summary_lines() == ["Alice shared Cat icon ($2.99)", "Bob liked Cat icon", "Bob unliked Cat icon"], alice.summary_lines()
    assert "entry-mine" in alice.find(".transcript-list .entry-app")[-1].get_attribute("class").split(), "still Alice's"
    # The like she replied to is a line now: her quote still finds it.
    alice.click(lambda: alice.visible(".reply-quote")[0], "the quote of the like")
    alice.wait(lambda: alice.visible(".entry-summary.is-highlighted"), "the like's line, highlighted")
    assert "Bob liked Cat icon" in alice.visible(".entry-summary.is-highlighted")[0].text

    # Closing the detail (its close control) goes back to the list.
    bob.press_in_app("Close Cat icon")
    bob.wait(lambda: not bob.visible(".surface [role=dialog]"), "the detail to close")
    bob.shot("detail-closed")


@pytest.mark.flow
def test_the_store_home_screen_shows_an_icon_and_buys_it(browsers):
    alice = browsers("alice")
    alice.click(lambda: alice.visible('.home-app-link[data-app="org.parlor.iconstore"]')[0], "Icon Store in the sidebar")
    alice.wait_for_surface("Icon Store")
    grid = alice.wait(lambda: (g := alice.visible('.surface [data-node-id="icon-grid"]')) and g[0], "the grid of icons")
    assert grid.get_attribute("role") == "list" and grid.get_attribute("aria-label") == "Icons"
    alice.wait(lambda: alice.js("return [...document.querySelectorAll('.vt-grid img')].slice(0, 4).every(i => i.complete && i.naturalWidth > 0)"), "the icons to load")
    alice.shot("store-home")
    alice.assert_controls_named("the Icon Store home screen")
    alice.press_in_app("Cat icon, $2.99")
    alice.wait(lambda: alice.visible(".surface [role=dialog]"), "the icon's detail")
    # Focus moves into the presented screen.
    alice.wait(lambda: alice.js("return document.activeElement.classList.contains('modal-title')"), "focus on the detail's title")
    alice.press_in_app("Buy Cat icon for $2.99")
    # Stores confirm a purchase first.
    alice.wait_for_node_text("confirm-question", "Buy Cat icon for $2.99?")
    alice.shot("store-confirm")
    alice.press_in_app("Confirm: buy Cat icon for $2.99")
    alice.wait_for_node_text("detail-owned", "Owned")
    alice.shot("store-owned")
    alice.press_in_app("Close Cat icon")
    alice.wait(lambda: not alice.visible(".surface [role=dialog]"), "the detail to close")
    alice.wait(lambda: "Owned" in alice.surface_text(), "the grid to show the icon as owned")
    # Leaving the home screen goes back to the list.
    alice.press_in_app("Close Icon Store")
    alice.wait(lambda: alice.visible(".placeholder"), "the start screen")
    # Left with Escape: the focus goes back to the store's link, never to the page.
    alice.click(lambda: alice.visible('.home-app-link[data-app="org.parlor.iconstore"]')[0], "Icon Store in the sidebar")
    alice.wait_for_surface("Icon Store")
    ActionChains(alice.driver).send_keys(Keys.ESCAPE).perform()
    alice.wait(lambda: alice.visible(".placeholder"), "the start screen after Escape")
    alice.assert_focus_kept("Escape in the Icon Store")
