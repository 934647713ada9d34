"""Parlor as an installed app on a phone: Chromium finds nothing stopping its installation once
the service worker runs; the worker keeps the app shell and nothing private; with the server
down, a reload shows Parlor with its "Connection lost" banner and what was already read (the
conversation list and the newest messages, kept in IndexedDB), a message written meanwhile is
sent once when the server is back; signing out deletes that copy, and then a reload without the
server shows only Parlor's own page; a new version taking over the page is announced with a way
to reload."""

import base64
import uuid

import pytest
from selenium.webdriver.common.keys import Keys

from conftest import parlor_binary, solid_png
from parlor_api import call, sign_in

OFFLINE_TEXT = "Connection lost. Reconnecting…"
PRIVATE_PREFIXES = ("/api", "/ws", "/images", "/blobs")

# Every cache the page's origin holds, as {name: [paths]}.
CACHED_PATHS = """
const done = arguments[arguments.length - 1];
(async () => {
  const found = {};
  for (const name of await caches.keys()) {
    found[name] = (await (await caches.open(name)).keys()).map((request) => new URL(request.url).pathname);
  }
  return found;
})().then(done, (error) => done({ error: String(error) }));
"""


# Posts a share as another app on the phone would: to the manifest's action, with its fields.
SHARE = """
const png = Uint8Array.from(atob(arguments[0]), (c) => c.charCodeAt(0));
const xhr = new XMLHttpRequest();
xhr.open('GET', '/manifest.webmanifest', false);
xhr.send();
const target = JSON.parse(xhr.responseText).share_target;
const form = Object.assign(document.createElement('form'), { method: target.method, action: target.action, enctype: target.enctype });
const field = (name, value) => form.append(Object.assign(document.createElement('input'), { type: 'hidden', name, value }));
field(target.params.title, 'Beach');
field(target.params.text, 'Look at this');
field(target.params.url, 'https://example.com/beach');
const photos = Object.assign(document.createElement('input'), { type: 'file', name: target.params.files[0].name });
const files = new DataTransfer();
files.items.add(new File([png], 'beach.png', { type: 'image/png' }));
photos.files = files.files;
form.append(photos);
document.body.append(form);
form.submit();
"""


def controlled(person) -> bool:
    """A service worker controls the page, and it is active."""
    return person.js("return Boolean(navigator.serviceWorker.controller) && navigator.serviceWorker.controller.state === 'activated'")


# The conversation titles in this browser's offline copy, or null when there is none.
KEPT_TITLES = """
const done = arguments[arguments.length - 1];
const request = indexedDB.open('parlor-offline');
request.onupgradeneeded = () => { request.transaction.abort(); };
request.onerror = () => done(null);
request.onsuccess = () => {
  const db = request.result;
  if (!db.objectStoreNames.contains('copy')) { db.close(); indexedDB.deleteDatabase('parlor-offline'); return done(null); }
  const get = db.transaction('copy').objectStore('copy').get('account');
  get.onsuccess = () => { db.close(); done(get.result ? get.result.conversations.map((c) => c.title || '') : null); };
  get.onerror = () => { db.close(); done(null); };
};
"""


def kept_titles(person):
    return person.driver.execute_async_script(KEPT_TITLES)


def offline_start_shown(person) -> bool:
    banner = person.visible(".connection-banner")
    return bool(person.visible(".offline-start")) and bool(banner) and banner[0].text == OFFLINE_TEXT


@pytest.mark.flow
def test_installable_and_opens_without_the_server(browsers, server):
    alice = browsers("alice", width=390, height=844)
    alice.wait(lambda: controlled(alice), "the service worker to control the page", timeout=15)

    # Chromium's own checks: the manifest parses, and nothing stops an installation.
    manifest = alice.driver.execute_cdp_cmd("Page.getAppManifest", {})
    assert manifest.get("url", "").endswith("/manifest.webmanifest"), manifest
    assert manifest.get("errors") == [], manifest.get("errors")
    installability = alice.driver.execute_cdp_cmd("Page.getInstallabilityErrors", {})
    assert installability.get("installabilityErrors") == [], installability

    # One cache, of this version's shell: the page, its scripts, no answer of the API.
    caches = alice.driver.execute_async_script(CACHED_PATHS)
    assert "error" not in caches, caches
    assert len(caches) == 1 and next(iter(caches)).startswith("parlor-shell-"), list(caches)
    paths = next(iter(caches.values()))
    assert "/" in paths and "/js/main.js" in paths and "/css/app.css" in paths, paths
    assert not [path for path in paths if path.startswith(PRIVATE_PREFIXES)], paths

    # Another app on her phone shares a link and a photo to Parlor (the manifest's share_target,
    # as Android posts it): "Send to…" opens with both; she ticks the group and sends.
    bob = sign_in(server.url, "bob")
    group = next(c for c in call(server.url, "GET", "/api/conversations", token=bob) if c.get("title") == "Parlor demo")
    alice.driver.execute_script(SHARE, base64.b64encode(solid_png(40, 30, (240, 120, 40))).decode())
    alice.wait(lambda: alice.visible("#share-text"), "the Send to… picker")
    assert alice.find("#share-text")[0].get_property("value") == "Look at this\nhttps://example.com/beach"
    assert [img.get_attribute("alt") for img in alice.find(".share-photo img")] == ["beach.png"]
    assert alice.js("return location.hash") == "#/", "taken once: a reload does not open it again"
    alice.find(f'.forward-item[data-conversation-id="{group["id"]}"] input')[0].click()
    alice.shot("share-picker")
    alice.press("Send")
    alice.wait(lambda: alice.js("return location.hash") == f"#/c/{group['id']}", "the group opened")
    alice.wait_for_text_bubble("Look at this\nhttps://example.com/beach")
    sent = call(server.url, "GET", f"/api/conversations/{group['id']}/messages?limit=5", token=bob)
    assert [m["attachment"]["name"] for m in sent if m.get("attachment")] == ["beach.png"], sent
    assert alice.driver.execute_async_script(CACHED_PATHS).get("parlor-share") is None, "the share is not kept once sent"
    alice.js("location.hash = '#/'")

    # Alice reads the demo group; its newest messages are kept in this browser.
    newest = "Dinner at eight?"
    call(server.url, "POST", f"/api/conversations/{group['id']}/messages", {"id": str(uuid.uuid4()), "text": newest}, bob)
    alice.open_conversation("Parlor demo")
    alice.wait_for_text_bubble(newest)
    alice.wait(lambda: "Parlor demo" in (kept_titles(alice) or []), "the offline copy written", timeout=10)

    # The server stops; a reload shows Parlor, not Chromium's error page: the banner, her list,
    # and the group's messages as she read them.
    server.pause()
    alice.driver.refresh()
    alice.wait(lambda: (b := alice.visible(".connection-banner")) and b[0].text == OFFLINE_TEXT, "the banner after a reload without the server")
    assert alice.driver.title.endswith("Parlor")
    assert not alice.find("#main-frame-error"), "Chromium's error page"
    # (the page opens where it was: the group)
    alice.wait_for_text_bubble(newest, "the messages already read, shown offline")
    alice.shot("offline-copy")
    alice.send_text("Written on the train")

    # The server is back: Parlor carries on by itself (a phone coming back online says so at
    # once), and the message written offline is sent, once.
    server.resume()
    alice.js("window.dispatchEvent(new Event('online'))")
    alice.wait(lambda: alice.js("return window.__parlorTest.openSockets()") == 1, "the socket open again", timeout=30)
    alice.wait_until_sent("the message written offline to be acknowledged")
    texts = [m.get("text") for m in call(server.url, "GET", f"/api/conversations/{group['id']}/messages?limit=50", token=bob)]
    assert texts.count("Written on the train") == 1, texts[-5:]
    assert not alice.visible(".connection-banner")

    # Signing out deletes the copy: a reload without the server then shows only Parlor's page.
    alice.js("location.hash = '#/'")
    alice.press("Sign out")
    alice.wait(lambda: alice.visible("#auth-username"), "the sign-in page")
    assert kept_titles(alice) is None, "the account's copy is gone"
    server.pause()
    alice.driver.refresh()
    alice.wait(lambda: offline_start_shown(alice), "Parlor's own page, nothing of Alice's")
    assert alice.find(".connection-banner")[0].get_attribute("role") == "status"
    server.resume()
    alice.js("window.dispatchEvent(new Event('online'))")
    alice.wait(lambda: alice.visible("#auth-username"), "the sign-in page once the server is back")


@pytest.mark.flow
def test_a_new_version_taking_over_is_announced(browsers, server):
    alice = browsers("alice", width=390, height=844)
    alice.wait(lambda: controlled(alice), "the service worker to control the page", timeout=15)
    assert not alice.find(".update-card"), "an announcement with nothing new"
    first = list(alice.driver.execute_async_script(CACHED_PATHS))
    alice.js("window.__beforeReload = true;")

    # The server is upgraded: the same binary, one file of its client changed (in the built
    # client the server reads, put back afterwards).
    stylesheet = parlor_binary().parent / "Parlor_ParlorServer.resources" / "Web" / "css" / "app.css"
    original = stylesheet.read_bytes()
    try:
        server.pause()
        stylesheet.write_bytes(original + b"\n/* the next version */\n")
        server.resume()
        # The page reconnects by itself, asks for the worker again, and the new one (its files
        # checked against their digests) takes over.
        notice = alice.wait(lambda: alice.visible(".update-notice[role=status] .update-card"), "the update notice", timeout=30)[0]
        assert " ".join(notice.text.split()) == "Parlor was updated — Reload", notice.text
        # The page's controller changes as the new worker activates; it drops the old shell then.
        alice.wait(lambda: len(list(alice.driver.execute_async_script(CACHED_PATHS))) == 1, "the old version's shell dropped")
        caches = list(alice.driver.execute_async_script(CACHED_PATHS))
        assert caches != first, f"the shell of the new version: {first} → {caches}"
        alice.shot("update-notice")

        # Its button is a real one, worked from the keyboard: Enter reloads the page.
        button = alice.button("Reload")
        assert button is not None and button.tag_name == "button"
        button.send_keys(Keys.ENTER)
        alice.wait(lambda: alice.js("return window.__beforeReload === undefined") and alice.visible(".sidebar"), "Parlor reloaded")
        assert not alice.find(".update-card")
    finally:
        stylesheet.write_bytes(original)
