"""Notifications: turned on from Settings (the browser's permission asked on that click), shown for
messages in conversations not on screen, never for muted ones; the tab's title and icon count the
unread messages of conversations not muted. With Parlor closed (Web Push): Settings lists the
devices that receive them, each removable; the service worker shows a push as a notification, a
read on another device closes it at the next push, and opening its conversation in Parlor closes it
(pushes delivered through Chromium's DevTools
protocol: headless Chromium reaches no push service; test_push.py covers the server's side
against a stand-in)."""


import asyncio
import json
import time

import pytest

from parlor_api import call, protocol, sign_in, signed_in_socket

# Headless Chromium draws no notification: record each one the page makes, then let the browser's own
# Notification do the rest.
RECORDER = """
window.__notifications = [];
const Native = window.Notification;
window.Notification = class extends Native {
  constructor(title, options) {
    window.__notifications.push({ title, body: options?.body ?? '', tag: options?.tag ?? '' });
    super(title, options);
  }
};
"""




@pytest.mark.flow
def test_notifications_mute_and_the_unread_badge(server, browsers):
    bob = sign_in(server.url, "bob")
    direct = next(c for c in call(server.url, "GET", "/api/conversations", token=bob)
                  if not c["isGroup"] and {m["username"] for m in c["members"]} == {"alice", "bob"})
    say = lambda text, index: call(server.url, "POST", f"/api/conversations/{direct['id']}/messages",
                                   {"id": f"00000000-0000-4000-8000-0000000c{index:04d}", "text": text}, bob)

    alice = browsers("alice")
    alice.driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": server.url.rstrip("/"), "permissions": ["notifications"]})
    alice.js(RECORDER)
    notifications = lambda: alice.js("return window.__notifications")

    alice.press("Settings")
    toggle = alice.wait(lambda: (alice.visible("#setting-notifications") or [None])[0], "the notifications setting")
    assert not toggle.is_selected(), "off until the person turns it on"
    toggle.click()
    alice.wait(lambda: toggle.is_selected() and toggle.is_enabled(), "notifications on")
    alice.assert_accessible("the settings with notifications")
    alice.press("Settings")

    alice.open_conversation("Parlor demo")
    say("Are you coming tonight?", 1)
    alice.wait(lambda: notifications() == [{"title": "Bob", "body": "Are you coming tonight?", "tag": direct["id"]}],
               "a notification for Bob's message, in a conversation not on screen")
    alice.wait(lambda: alice.driver.title == "(1) Parlor", "the count in the tab's title")
    icon = alice.js("return document.querySelector('link[rel=icon]').href")
    assert icon.startswith("data:image/svg+xml,") and "%3E1%3C%2Ftext%3E" in icon, "a badge with 1 on the tab's icon"

    # Muting: from the conversation's header; the list shows it, and no notification follows.
    alice.open_conversation("Bob")
    mute = alice.wait(lambda: (alice.visible(".mute-button") or [None])[0], "the mute button")
    assert mute.get_attribute("aria-pressed") == "false"
    mute.click()
    alice.wait(lambda: mute.get_attribute("aria-pressed") == "true", "muted")
    alice.wait(lambda: alice.visible(".conversation-link.is-current .conversation-muted"), "the list shows it muted")
    alice.assert_accessible("a muted conversation")
    alice.shot("muted")
    alice.open_conversation("Parlor demo")
    say("Hello?", 2)
    alice.wait(lambda: alice.unread_count("Bob") == 1, "the message counted as unread")
    assert len(notifications()) == 1, "no notification from a muted conversation"
    assert alice.driver.title == "Parlor", "a muted conversation's messages are not in the title's count"
    assert alice.js("return document.querySelector('link[rel=icon]').getAttribute('href')") == "/favicon.svg"

    # Unmuted (it stays so after a reload: the server keeps it): alerts again.
    alice.driver.refresh()
    alice.js(RECORDER)
    alice.open_conversation("Bob")
    mute = alice.wait(lambda: (alice.visible(".mute-button[aria-pressed='true']") or [None])[0], "still muted after a reload")
    mute.click()
    alice.wait(lambda: mute.get_attribute("aria-pressed") == "false", "unmuted")
    alice.open_conversation("Parlor demo")
    say("Now?", 3)
    alice.wait(lambda: [n["body"] for n in notifications()] == ["Now?"], "notified again once unmuted")

    # Settings › Notifications with Parlor closed: a device subscribed (here through the page's own
    # session, as PushManager would: headless Chromium has no push service) is listed, and removed.
    alice.js("return (async () => {" + """
        const key = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']);
        const raw = new Uint8Array(await crypto.subtle.exportKey('raw', key.publicKey));
        const b64u = (bytes) => btoa(String.fromCharCode(...bytes)).replace(/[+]/g, '-').replace(/[/]/g, '_').replace(/=+$/, '');
        await fetch('/api/me/push', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({
            endpoint: 'https://fcm.googleapis.com/fcm/send/parlor-test', device: 'Pixel test phone',
            keys: { p256dh: b64u(raw), auth: b64u(crypto.getRandomValues(new Uint8Array(16))) } }) });
    """ + "})()")
    alice.press("Settings")
    remove = alice.wait(lambda: alice.button("Remove Pixel test phone"), "the device in Settings")
    assert alice.find("#setting-push-text")[0].is_selected(), "message text shown by default"
    alice.assert_accessible("the settings with a device for notifications")
    remove.click()
    alice.wait(lambda: alice.button("Remove Pixel test phone") is None, "the device removed")
    assert "Pixel test phone gets no more notifications." in alice.announcements()
    alice.press("Settings")

    # The service worker: a push shows a notification (who, what, its conversation as the tag).
    alice.js("return navigator.serviceWorker.ready.then(() => true)")
    origin = server.url.rstrip("/")
    alice.driver.execute_cdp_cmd("ServiceWorker.enable", {})
    alice.driver.get("about:blank")  # Parlor closed: no window of it in front
    alice.driver.get(origin + "/manifest.webmanifest")
    say("Still up?", 4)
    shown = "return navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((all) => all.map((n) => [n.title, n.body, n.tag]))"
    from_bob = ["Bob", "Bob: Still up?", direct["id"]]
    phone = sign_in(server.url, "alice")  # Alice's other device
    demo = next(c for c in call(server.url, "GET", "/api/conversations", token=phone) if c.get("title") == "Parlor demo")
    from_demo = ["Carol in Parlor demo", "Carol: Pizza?", demo["id"]]

    def pushed(payload, expected):
        # The registration's id is not exposed to WebDriver: each small one is tried (a wrong one
        # is refused, or takes nothing), until the notification shows.
        for registration in range(8):
            try:
                alice.driver.execute_cdp_cmd("ServiceWorker.deliverPushMessage", {
                    "origin": origin, "registrationId": str(registration), "data": json.dumps(payload)})
            except Exception:  # noqa: BLE001 - no such registration
                continue
        for _ in range(10):
            if sorted(alice.js(shown)) == sorted(expected):
                return True
            time.sleep(0.2)
        return False

    def push(conversation, title, body):
        return {"type": "message", "conversation": conversation, "title": title, "body": body, "url": f"/#/c/{conversation}"}
    alice.wait(lambda: pushed(push(direct["id"], *from_bob[:2]), [from_bob]), "the pushed notification")
    # Another conversation's push while Bob's is unread: both show.
    alice.wait(lambda: pushed(push(demo["id"], *from_demo[:2]), [from_bob, from_demo]), "both notifications")

    # Alice reads Bob's message on her phone: no push comes only to close a notification (browsers
    # forbid pushes that show nothing), so the next one closes Bob's here, and shows its own.
    async def read_on_the_phone():
        async with signed_in_socket(server.url, phone) as socket:
            last = call(server.url, "GET", f"/api/conversations/{direct['id']}", token=phone)["lastSequence"]
            await socket.send(json.dumps({"type": protocol.Client.read, "conversation": direct["id"], "sequence": last}))
            for _ in range(50):
                if call(server.url, "GET", f"/api/conversations/{direct['id']}", token=phone)["unreadCount"] == 0:
                    return
                await asyncio.sleep(0.1)
    asyncio.run(read_on_the_phone())
    assert sorted(alice.js(shown)) == sorted([from_bob, from_demo]), "nothing closes before a push comes"
    alice.wait(lambda: pushed(push(demo["id"], *from_demo[:2]), [from_demo]), "Bob's notification closed by the next push")

    # Opening the conversation in Parlor closes it.
    alice.driver.get(f"{origin}/#/c/{demo['id']}")
    alice.wait(lambda: alice.conversation_title() == "Parlor demo", "the conversation open")
    alice.wait(lambda: alice.js(shown) == [], "the notification closed once the conversation is open")

    # Signing out: this browser shows nothing more of Alice's (and its subscription ends, so that
    # pushes still waiting at the push service are dropped there).
    say("Still there?", 5)
    later = ["Bob", "Bob: Still there?", direct["id"]]
    alice.wait(lambda: pushed(push(direct["id"], *later[:2]), [later]), "a notification of Bob's unread message")
    alice.press("Sign out")
    alice.wait(lambda: alice.visible("#auth-username"), "the sign-in form after signing out")
    alice.wait(lambda: alice.js(shown) == [], "none of Alice's notifications left after she signed out")
