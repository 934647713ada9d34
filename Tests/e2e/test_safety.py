"""Hostile text: markup in a message and in an app's caption shows as text and runs nothing."""

import pytest

PAYLOAD = "<img src=x onerror=alert(1)><script>window.__pwned=1</script>"


def assert_nothing_ran(person):
    assert person.alerts() == [], f"{person.username} saw an alert"
    assert person.js("return typeof window.__pwned") == "undefined"
    # No element came from the payload: no <img src=x>, no inline <script>.
    assert person.js("return document.querySelectorAll('img[src=\"x\"], img[onerror], script:not([src])').length") == 0


@pytest.mark.flow
def test_markup_in_a_message_and_a_caption_is_shown_as_text(browsers):
    alice = browsers("alice")
    bob = browsers("bob")
    alice.open_conversation("Bob")
    bob.open_conversation("Alice")

    alice.send_text(PAYLOAD)
    for person in (alice, bob):
        person.wait_for_text_bubble(PAYLOAD, "the payload shown as literal text")
        assert_nothing_ran(person)
    bob.shot("payload-text")

    # The same payload as an RSVP's title: the bubble's caption and the app's view.
    alice.send_rsvp(PAYLOAD)

    card = bob.wait_for_card(PAYLOAD, "the RSVP whose caption is the payload")
    assert PAYLOAD in bob.card_text(card)
    bob.tap_card(PAYLOAD)
    bob.wait_for_surface("RSVP", style="expanded")
    bob.wait_for_node_text("title", PAYLOAD)
    bob.shot("payload-rsvp")
    for person in (alice, bob):
        assert_nothing_ran(person)
    # The conversation list's preview is text too.
    assert alice.js("return [...document.querySelectorAll('.conversation-preview')].some(p => p.textContent.includes('RSVP'))")


@pytest.mark.flow
def test_images_load_from_parlors_image_paths_or_through_the_proxy_only(browsers):
    """An image an app, a page or a message names is loaded from Parlor's own image paths, inline,
    or through the image proxy's signed addresses the server hands out: never from another path of
    Parlor's address, which would be a request made with the viewer's cookies, and never straight
    from another site (a remote address the server did not sign is not loaded at all)."""
    alice = browsers("alice")
    origin = alice.base_url
    seen = alice.driver.execute_async_script("""
        const [origin, done] = arguments;
        import('/js/dom.js').then(({ safeImageURL }) => done({
            asset: safeImageURL('/assets/apps/org.parlor.rsvp/icon.png'),
            blob: safeImageURL(origin + '/blobs/' + 'a'.repeat(64)),
            proxied: safeImageURL('/images/proxy?url=https%3A%2F%2Fcdn.example%2Fa.png&sig=' + '0'.repeat(32)),
            api: safeImageURL(origin + '/api/link-preview?url=https%3A%2F%2Fevil.example%2F'),
            relativeApi: safeImageURL('/api/conversations'),
            climbing: safeImageURL('/assets/../api/me'),
            remote: safeImageURL('https://cdn.example/a.png'),
            script: safeImageURL('javascript:alert(1)'),
            inline: safeImageURL('data:image/png;base64,AAAA'),
        })).catch((error) => done({ error: String(error) }));
    """, origin)
    assert seen.get("error") is None, seen
    assert seen["asset"] == "/assets/apps/org.parlor.rsvp/icon.png"
    assert seen["blob"] == "/blobs/" + "a" * 64
    assert seen["proxied"] == "/images/proxy?url=https%3A%2F%2Fcdn.example%2Fa.png&sig=" + "0" * 32
    for refused in ("api", "relativeApi", "climbing", "script", "remote"):
        assert seen[refused] is None, (refused, seen[refused])
    assert seen["inline"] == "data:image/png;base64,AAAA"
