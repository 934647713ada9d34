"""Parlor as an installed app on a phone: Chromium finds nothing stopping its installation once
the service worker runs; the worker keeps the app shell and nothing private; with the server
down, a reload shows Parlor with its "Connection lost" banner instead of the browser's error
page, and Parlor opens by itself once the server is back; a new version taking over the page
is announced with a way to reload."""

import pytest
from selenium.webdriver.common.keys import Keys

from conftest import parlor_binary

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


def controlled(person) -> bool:
    """A service worker controls the page, and it is active."""
    return person.js("return Boolean(navigator.serviceWorker.controller) && navigator.serviceWorker.controller.state === 'activated'")


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

    # The server stops; a reload shows Parlor from the kept shell, not Chromium's error page.
    server.pause()
    alice.driver.refresh()
    alice.wait(lambda: offline_start_shown(alice), "Parlor's page with the offline banner after a reload without the server")
    assert alice.driver.title == "Parlor"
    assert not alice.find("#main-frame-error"), "Chromium's error page"
    assert alice.find(".connection-banner")[0].get_attribute("role") == "status"
    alice.shot("offline-start")

    # The server is back: Parlor opens by itself (a phone coming back online says so at once).
    server.resume()
    alice.js("window.dispatchEvent(new Event('online'))")
    alice.wait(lambda: alice.visible(".sidebar") and not alice.find(".offline-start"), "the conversation list once the server is back")
    alice.wait(lambda: alice.js("return window.__parlorTest.openSockets()") == 1, "the socket open again")
    assert not alice.visible(".connection-banner")


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
