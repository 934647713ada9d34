"""Link previews: the card of a page a text links to, shown while writing, removable, kept with the message."""

import pytest
from selenium.webdriver.common.by import By


def card_of(person, text):
    """The link preview card inside the bubble of the text message containing `text`, or None."""
    bubble = person.wait_for_text_bubble(text).find_element(By.XPATH, "./ancestor::div[contains(@class, 'bubble')]")
    cards = bubble.find_elements(By.CSS_SELECTOR, ".link-preview")
    return cards[0] if cards else None


@pytest.mark.flow
@pytest.mark.private_hosts
def test_a_link_shows_its_page_card_which_the_sender_can_remove(browsers, feed):
    alice = browsers("alice")
    bob = browsers("bob")
    alice.open_conversation("Bob")
    bob.open_conversation("Alice")
    link = feed.article_url(1)
    first = f"Have you read {link} ?"
    second = f"Another one: {feed.article_url(2)}"

    field = alice.wait(lambda: (f := alice.visible(".composer-input")) and f[0], "the message field")
    field.send_keys(first)
    preview = alice.wait(lambda: (c := alice.visible(".composer-link .link-preview")) and c[0], "the card above the field")
    assert "Fixture article" in preview.text
    alice.shot("link-preview-composing")
    alice.assert_accessible("the field with a link preview")
    alice.send()

    for person in (alice, bob):
        card = person.wait(lambda p=person: card_of(p, first), "the card in the bubble")
        assert "Fixture article" in card.text
        assert "An article the end-to-end tests serve." in card.text
        image = card.find_element(By.CSS_SELECTOR, ".link-preview-image")
        assert image.get_attribute("src").startswith(f"{person.base_url}/images/proxy?url="), "the page's image comes through the proxy"
        person.wait(lambda p=person, i=image: p.js("return arguments[0].complete && arguments[0].naturalWidth === 120", i), "the page's image to load")
        assert card.get_attribute("href") == link
        assert card.get_attribute("target") == "_blank"
        assert "noopener" in card.get_attribute("rel")
    assert not alice.visible(".composer-link .link-preview"), "the field's card goes with the message"
    # The card in her own (blue) message keeps the card's colours: its title is not white on light grey.
    alice.assert_accessible("her own message with a link card")
    bob.shot("link-preview-received")

    # The sender removes the card: the text goes without one.
    field.send_keys(second)
    alice.wait(lambda: alice.visible(".composer-link .link-preview"), "the second card")
    alice.press("Remove link preview")
    assert not alice.visible(".composer-link .link-preview")
    alice.send()
    bob.wait_for_text_bubble(second)
    assert card_of(bob, second) is None, "no card once the sender removed it"

    # A page that cannot be read says so where its card would be; the link goes as it is.
    missing = f"Broken: {feed.base}/missing-page"
    field.send_keys(missing)
    note = alice.wait(lambda: (n := alice.visible(".composer-link-note")) and "No preview" in n[0].text and n[0], "the reason there is no card")
    assert f"No preview for {feed.base.split('//')[1]}." in note.text and "The link is sent as it is." in note.text, note.text
    alice.send()
    bob.wait_for_text_bubble(missing)
    assert card_of(bob, missing) is None
    assert not alice.visible(".composer-link-note"), "the note goes with the message"

    # The card stays after a reload.
    bob.driver.refresh()
    bob.open_conversation("Alice")
    bob.wait(lambda: card_of(bob, first), "the card after a reload")
