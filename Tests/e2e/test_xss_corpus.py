"""An XSS corpus (entries of OWASP's XSS filter-evasion cheat sheet, and a few newer tricks) as
messages, a sender's display name, a group title, an app's view text and bubble captions (a feed's
posts in LinkShare, an invitation's title in RSVP) and links: every entry shows as the text it is,
no script runs, and the page loads nothing from another host."""

from pathlib import Path

import pytest

from parlor_api import call, sign_in

CORPUS = [line for line in (Path(__file__).with_name("xss_corpus.txt")).read_text().splitlines() if line]
NAME = "<svg/onload=alert('name')>"
TITLE = '"><script>alert("title")</script>'




@pytest.mark.flow
def test_every_corpus_entry_is_shown_as_text_and_runs_nothing(server, browsers):
    alice = sign_in(server.url, "alice")
    mallory = call(server.url, "POST", "/api/auth/signup", {"username": "mallory", "displayName": NAME, "password": "purple-otter-47"})["token"]
    group = call(server.url, "POST", "/api/conversations", {"title": TITLE, "members": ["bob", "mallory"]}, alice)
    messages = f"/api/conversations/{group['id']}/messages"
    for index, entry in enumerate(CORPUS):
        author = mallory if index % 2 else alice
        call(server.url, "POST", messages, {"id": f"00000000-0000-4000-8000-{index:012d}", "text": entry}, author)

    bob = browsers("bob")
    watch_violations(bob)
    bob.open_conversation(TITLE)
    shown = bob.wait(
        lambda: (texts := bob.js("return [...document.querySelectorAll('.transcript-list .bubble-text .bubble-body')].map(b => b.textContent)"))
        and len(texts) >= len(CORPUS) and texts,
        "every corpus entry in the transcript")
    assert shown[-len(CORPUS):] == CORPUS, "each entry shows exactly as sent"
    assert bob.js("return document.body.textContent.includes(arguments[0])", NAME), "the sender's name shows as text"
    bob.shot("xss-corpus")

    assert_nothing_ran(bob, server)


def assert_nothing_ran(page, server):
    """No alert, no script's mark, no element made from text, no script link, nothing loaded from
    another host, nothing the CSP had to block."""
    assert page.alerts() == []
    assert page.js("return typeof window.__pwned") == "undefined"
    # Nothing the corpus spelled became an element: no inline script, handler, frame, object, form
    # control, style or link made from text. (The web page LinkShare opens is the one frame
    # allowed, and only when asked for.)
    made = page.js("""
        const suspects = 'script:not([src]), [onerror], [onload], [onclick], [onmouseover], [ontoggle], iframe, object, embed,'
            + ' meta[http-equiv], link[href*="xss"], style, math, svg[onload], details[ontoggle], video source, input[type=image], x';
        return [...document.querySelectorAll(suspects)].map(e => e.outerHTML.slice(0, 120));
    """)
    assert made == [], f"elements made from text: {made}"
    # No link runs script: every href is http(s) or the page's own.
    hrefs = page.js("return [...document.querySelectorAll('a[href], [src]')].map(a => a.href || a.src)")
    assert all(href.startswith(("http://", "https://", "blob:", "data:image/")) for href in hrefs), hrefs
    # Nothing was loaded from another host, and the CSP had nothing to block.
    origins = page.js("return [...new Set(performance.getEntriesByType('resource').map(e => new URL(e.name).origin))]")
    assert origins in ([], [server.url.rstrip("/")]), origins
    assert page.js("return window.__violations") == []


def watch_violations(page):
    page.js("window.__violations = []; document.addEventListener('securitypolicyviolation', e => window.__violations.push(e.blockedURI))")


def hostile_posts(feed) -> list[dict]:
    """One post per corpus entry: the entry as its title, author and domain; links and thumbnails
    that are scripts, data, or pixels on a foreign host."""
    links = ["javascript:alert('link')", "data:text/html,<script>alert('link')</script>", " javascript:alert(1)", "vbscript:msgbox(1)"]
    thumbnails = ["http://evil.example/pixel.png", "javascript:alert('thumb')", "https://evil.example/t.gif?c=1", "//evil.example/x.png"]
    posts = []
    for index, entry in enumerate(CORPUS):
        post = {"name": f"t3_x{index}", "title": entry, "author": entry, "domain": entry, "score": index, "number": index + 1,
                "thumbnail": thumbnails[index % len(thumbnails)]}
        if index % 3 == 2:
            post["url"] = links[index % len(links)]
        posts.append(post)
    return posts


@pytest.mark.flow
def test_corpus_in_app_views_captions_and_links_runs_nothing(server, browsers, feed):
    first = CORPUS[0]
    feed.posts = hostile_posts(feed)
    try:
        alice = browsers("alice")
        bob = browsers("bob")
        for person in (alice, bob):
            watch_violations(person)
        alice.open_conversation("Bob")
        bob.open_conversation("Alice")

        # LinkShare's list: every post's title is app view text.
        alice.open_app("LinkShare")
        alice.wait(lambda: first in alice.surface_text(), "the hostile feed's posts as text")
        shown = [entry for entry in CORPUS if entry in alice.surface_text()]
        assert len(shown) >= len(CORPUS) // 2, f"only {len(shown)} of {len(CORPUS)} titles show as text"
        alice.shot("hostile-feed")
        assert_nothing_ran(alice, server)

        # Shared: the title becomes the bubble's caption at Bob's.
        alice.press_in_app(first, exact=False)
        alice.wait_for_staged(first)
        alice.press_in_app("Close LinkShare")
        alice.send()
        card = bob.wait_for_card(first)
        assert first in bob.card_text(card)

        # RSVP: an invitation's title is view text in the form and the caption of its bubble.
        title = "<img src=x onerror=alert('rsvp')>"
        alice.send_rsvp(title)
        bob.wait_for_card(title)
        bob.tap_card(title)
        bob.wait_for_surface("RSVP", style="expanded")
        bob.wait_for_node_text("title", title)
        bob.shot("hostile-captions")
        for person in (alice, bob):
            assert_nothing_ran(person, server)
    finally:
        feed.posts = feed.DEFAULT_POSTS
