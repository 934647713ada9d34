"""An XSS corpus (entries of OWASP's XSS filter-evasion cheat sheet, and a few newer tricks) as
messages, a sender's display name and a group title: every entry shows as the text it is, no
script runs, and the page loads nothing from another host."""

import json
import urllib.request
from pathlib import Path

import pytest

CORPUS = [line for line in (Path(__file__).with_name("xss_corpus.txt")).read_text().splitlines() if line]
NAME = "<svg/onload=alert('name')>"
TITLE = '"><script>alert("title")</script>'


def http(base: str, method: str, path: str, body=None, token: str | None = None):
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read() or b"null")


@pytest.mark.flow
def test_every_corpus_entry_is_shown_as_text_and_runs_nothing(server, browsers):
    alice = http(server.url, "POST", "/api/auth/signin", {"username": "alice", "password": "parlor-demo"})["token"]
    mallory = http(server.url, "POST", "/api/auth/signup", {"username": "mallory", "displayName": NAME, "password": "purple-otter-47"})["token"]
    group = http(server.url, "POST", "/api/conversations", {"title": TITLE, "members": ["bob", "mallory"]}, alice)
    messages = f"/api/conversations/{group['id']}/messages"
    for index, entry in enumerate(CORPUS):
        author = mallory if index % 2 else alice
        http(server.url, "POST", messages, {"id": f"00000000-0000-4000-8000-{index:012d}", "text": entry}, author)

    bob = browsers("bob")
    bob.js("window.__violations = []; document.addEventListener('securitypolicyviolation', e => window.__violations.push(e.blockedURI))")
    bob.open_conversation(TITLE)
    shown = bob.wait(
        lambda: (texts := bob.js("return [...document.querySelectorAll('.transcript-list .bubble-text .bubble-body')].map(b => b.textContent)"))
        and len(texts) >= len(CORPUS) and texts,
        "every corpus entry in the transcript")
    assert shown[-len(CORPUS):] == CORPUS, "each entry shows exactly as sent"
    assert bob.js("return document.body.textContent.includes(arguments[0])", NAME), "the sender's name shows as text"
    bob.shot("xss-corpus")

    assert bob.alerts() == []
    assert bob.js("return typeof window.__pwned") == "undefined"
    # Nothing the corpus spelled became an element: no inline script, handler, frame, object, form
    # control, style or link made from text.
    made = bob.js("""
        const suspects = 'script:not([src]), [onerror], [onload], [onclick], [onmouseover], [ontoggle], iframe, object, embed,'
            + ' meta[http-equiv], link[href*="xss"], style, math, svg[onload], details[ontoggle], video source, input[type=image], x';
        return [...document.querySelectorAll(suspects)].map(e => e.outerHTML.slice(0, 120));
    """)
    assert made == [], f"elements made from text: {made}"
    # No link runs script: every href is http(s) or the page's own.
    hrefs = bob.js("return [...document.querySelectorAll('a[href]')].map(a => a.href)")
    assert all(href.startswith(("http://", "https://")) for href in hrefs), hrefs
    # Nothing was loaded from another host, and the CSP had nothing to block.
    origins = bob.js("return [...new Set(performance.getEntriesByType('resource').map(e => new URL(e.name).origin))]")
    assert origins in ([], [server.url.rstrip("/")]), origins
    assert bob.js("return window.__violations") == []
