"""LinkShare: a post from a feed shared into a conversation and opened in the in-app web page.
The feed is a local fixture server (conftest.FeedServer) in Reddit's listing format."""

import pytest
from selenium.webdriver.common.by import By


@pytest.mark.flow
def test_a_feed_post_is_shared_and_opened_in_the_web_page(browsers, feed):
    alice = browsers("alice")
    bob = browsers("bob")
    apps = alice.js("return fetch('/api/apps').then(r => r.json()).then(d => d.apps.map(a => a.name))")
    if "LinkShare" not in apps:
        pytest.fail(
            "LinkShare is not in the server's app directory (Sources/ParlorServer/Apps/AppDirectory+BuiltIn.swift "
            f"lists {apps}); add it there to run this flow.")

    alice.open_conversation("Bob")
    bob.open_conversation("Alice")
    alice.open_app("LinkShare")
    alice.wait(lambda: "Parlor ships message apps on Linux" in alice.surface_text(), "the feed's posts")
    alice.shot("feed-posts")
    alice.press_in_app("Parlor ships message apps on Linux", exact=False)
    alice.wait_for_staged("Parlor ships message apps on Linux")
    alice.press_in_app("Close LinkShare")
    alice.send()

    card = bob.wait_for_card("Parlor ships message apps on Linux")
    assert "score: 1234" in bob.card_text(card)
    bob.shot("post-received")
    bob.tap_card("Parlor ships message apps on Linux")
    bob.wait_for_surface("LinkShare", style="expanded")
    frame = bob.wait(lambda: (f := bob.visible(".surface iframe.webpage-frame")) and f[0], "the in-app web page")
    assert frame.get_attribute("src") == feed.article_url(1)
    assert "allow-same-origin" not in (frame.get_attribute("sandbox") or "")
    bob.driver.switch_to.frame(frame)
    try:
        headline = bob.wait(lambda: bob.driver.find_elements(By.ID, "headline"), "the article inside the frame")[0]
        assert headline.text == "Fixture article 1"
    finally:
        bob.driver.switch_to.default_content()
    bob.shot("web-page-open")


@pytest.mark.flow
def test_a_slow_refresh_shows_that_it_is_working(browsers, feed):
    """A button pressed in an app says it is working (busy, with a spinner) until the app answers:
    a Refresh or Retry that takes seconds must not look ignored."""
    alice = browsers("alice")
    alice.open_conversation("Bob")
    # An app that takes seconds to draw its first view says at once that it is opening.
    feed.delay = 3.0
    try:
        alice.open_drawer()
        alice.click(lambda: alice.button("Open LinkShare"), "LinkShare in the drawer")
        opening = alice.js("const s = document.querySelector('.surface');"
                           " return s && !s.hidden ? [s.getAttribute('aria-busy'), s.querySelector('.surface-opening')?.textContent] : null")
        assert opening == ["true", "Opening LinkShare…"], opening
        alice.shot("opening")
    finally:
        feed.delay = 0.0
    alice.wait(lambda: "Parlor ships message apps on Linux" in alice.surface_text(), "the feed's posts")
    assert alice.js("return document.querySelector('.surface').getAttribute('aria-busy')") is None
    feed.delay = 3.0
    try:
        alice.press_in_app("Refresh")
        busy = alice.js("return [...document.querySelectorAll('.surface button[aria-busy=\"true\"]')].map(b => b.textContent)")
        assert busy == ["Refresh"], busy
        alice.shot("refresh-busy")
        alice.wait(lambda: not alice.js("return document.querySelector('.surface button[aria-busy]') !== null"),
                   "the app's answer to replace the busy button")
    finally:
        feed.delay = 0.0
    assert "Parlor ships message apps on Linux" in alice.surface_text()
