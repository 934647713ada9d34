"""The conversation list as one person keeps it: pin, archive, mark unread and delete (for them
alone) from a row's menu (the ⋯ button, right-click, or Shift+F10 from the keyboard), seen at once
on their other device, kept across a reload, and never shown to anyone else."""

import json
import urllib.request
import uuid

import pytest
from selenium.webdriver import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from parlor_api import call, sign_in
from test_attachments import png

# The list as a person sees it: each visible row's title, whether it shows the pin, and its badge.
LIST = """
    const rows = (list) => [...document.querySelectorAll(list + ' > .conversation-row')].filter((r) => r.offsetParent).map((r) => ({
        title: r.querySelector('.conversation-name').textContent,
        pinned: Boolean(r.querySelector('.conversation-pinned')),
        marked: Boolean(r.querySelector('.unread-badge.is-marked')),
    }));
    const toggle = document.querySelector('.archived-toggle');
    return { list: rows('.conversation-list:not(.archived-list)'), archived: rows('.archived-list'),
             toggle: toggle && !toggle.hidden ? toggle.textContent : null };
"""


def focused(person) -> str:
    """The focused element's name: its aria-label, else its text."""
    return person.js("const e = document.activeElement; return e ? (e.getAttribute('aria-label') || e.textContent || e.tagName) : 'none';")


def listed(person) -> dict:
    return person.js(LIST)


def titles(person) -> list[str]:
    return [row["title"] for row in listed(person)["list"]]


def row_link(person, title: str):
    for link in person.visible(".conversation-list:not(.archived-list) .conversation-link"):
        if link.find_element(By.CSS_SELECTOR, ".conversation-name").text == title:
            return link
    return None


def upload(server, token: str, data: bytes, kind: str | None = None) -> dict:
    request = urllib.request.Request(server.url + "/api/blobs" + (f"?kind={kind}" if kind else ""), method="POST", data=data)
    request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


def assert_live_previews_are_the_servers(server, person, group, bob: str):
    """Each kind of message, sent in `group` by Bob or by `person` (Alice) elsewhere: the row's
    preview drawn live equals the one the server gives Alice."""
    alice = sign_in(server.url, person.username)
    members = {m["username"]: m["id"] for m in group["members"]}
    sticker = call(server.url, "GET", "/api/apps", token=bob)["packs"][0]["stickers"][0]
    photo = upload(server, bob, png(24, 16))
    notes = upload(server, alice, b"Bring snacks.\n", kind="file")
    path = f"/api/conversations/{group['id']}/messages"
    last = None

    def said(token: str, body: dict) -> dict:
        return call(server.url, "POST", path, {"id": str(uuid.uuid4()), **body}, token)

    def check(what: str, send, title: str = "Parlor demo"):
        nonlocal last
        before = live_preview(person, title)
        message = send()
        last = message or last
        expected = next(c for c in call(server.url, "GET", "/api/conversations", token=alice) if c["id"] == group["id"])["preview"]
        assert expected != before, f"{what}: the server's preview did not change ({expected!r})"
        person.wait(lambda: live_preview(person, title) == expected,
                    f"{what}: the live preview {live_preview(person, title)!r} to read as the server's {expected!r}")

    check("a mention of her", lambda: said(bob, {"text": f"Lunch, <@{members['alice']}>?"}))
    check("a long text", lambda: said(bob, {"text": "Long " + "word " * 40}))
    check("her own text", lambda: said(alice, {"text": "Sure"}))
    check("a sticker", lambda: said(bob, {"sticker": sticker["id"]}))
    check("a sticker placed on a message", lambda: said(bob, {"sticker": sticker["id"], "placement": {"message": last["id"], "x": 0.5, "y": 0.5}}))
    check("a photo", lambda: said(bob, {"attachment": {"hash": photo["hash"], "name": "Lake.png"}}))
    check("her own file", lambda: said(alice, {"attachment": {"hash": notes["hash"], "name": "notes.txt"}}))
    rename = lambda title: call(server.url, "PATCH", f"/api/conversations/{group['id']}", {"title": title}, bob) and None
    check("the group renamed", lambda: rename("Demo"), title="Demo")
    check("the group named back", lambda: rename("Parlor demo"))


def live_preview(person, title: str) -> str | None:
    return person.js("""
        const row = [...document.querySelectorAll('.conversation-link')].find((l) => l.querySelector('.conversation-name')?.textContent === arguments[0]);
        return row ? row.querySelector('.conversation-preview').textContent : null;""", title)


def choose(person, item: str):
    """Picks `item` in the menu that is open."""
    person.wait(lambda: person.visible(".list-menu"), "the conversation's menu to open")
    person.click(lambda: next((b for b in person.visible(".list-menu .list-menu-item") if b.text == item), None), f"'{item}' in the menu")
    person.wait(lambda: not person.find(".list-menu"), "the menu to close")


@pytest.mark.flow
def test_pin_archive_and_mark_unread_follow_the_person_to_every_device(server, browsers):
    bob = sign_in(server.url, "bob")
    group = next(c for c in call(server.url, "GET", "/api/conversations", token=bob) if c.get("title") == "Parlor demo")

    alice = browsers("alice")
    phone = browsers("alice", width=390, height=844)
    alice.wait(lambda: {"Bob", "Parlor demo"} <= set(titles(alice)), "Bob and the demo group in Alice's list")
    start = titles(alice)

    # Pin Bob from the row's ⋯ button: it goes to the top with a pin, here and on her phone.
    alice.click(lambda: next((b for b in alice.visible(".conversation-menu-button") if b.get_attribute("aria-label") == "More for Bob"), None),
                "Bob's ⋯ button")
    menu = alice.wait(lambda: alice.visible(".list-menu"), "the menu")[0]
    assert menu.get_attribute("role") == "menu" and focused(alice) == "Pin", f"focus on the menu's first item, not {focused(alice)}"
    choose(alice, "Pin")
    alice.wait(lambda: listed(alice)["list"][0] == {"title": "Bob", "pinned": True, "marked": False}, "Bob pinned at the top")
    alice.wait(lambda: focused(alice) == "More for Bob", "focus back on Bob's ⋯ button")
    phone.wait(lambda: listed(phone)["list"][:1] == [{"title": "Bob", "pinned": True, "marked": False}], "Bob pinned on her phone too")
    # A long last message is cut short in the row: the phone's list stays as wide as the screen.
    call(server.url, "POST", f"/api/conversations/{group['id']}/messages",
         {"id": "00000000-0000-4000-8000-00000000f1a7", "text": "A very long message " * 20}, bob)
    phone.wait(lambda: "A very long message" in phone.js("return document.querySelector('.sidebar').textContent"), "the long preview")
    widths = phone.js("return [document.documentElement.clientWidth, document.querySelector('.sidebar').scrollWidth, document.documentElement.scrollWidth]")
    assert widths[1] <= widths[0] and widths[2] <= widths[0], f"the list is wider than the phone's screen: {widths}"
    # Her own message, sent from elsewhere, shows in her list as "You: …", live and after a reload.
    call(server.url, "POST", f"/api/conversations/{group['id']}/messages",
         {"id": "00000000-0000-4000-8000-00000000f1a8", "text": "On my way"}, sign_in(server.url, "alice"))
    preview = "return [...document.querySelectorAll('.conversation-preview')].map((p) => p.textContent)"
    phone.wait(lambda: "You: On my way" in phone.js(preview), "'You: On my way' in her list")
    phone.driver.refresh()
    phone.wait(lambda: "You: On my way" in phone.js(preview), "'You: On my way' in her list after a reload")
    bobs_view = call(server.url, "GET", f"/api/conversations/{group['id']}", token=bob)
    assert "pinnedAt" not in bobs_view, "Bob's list is his own"

    # The page writes a row's preview as each message arrives; the server writes it for a reload and
    # a notification. For every kind of message the two read alike, for the sender and the others.
    assert_live_previews_are_the_servers(server, phone, group, bob)

    # Archive the group from the keyboard: Shift+F10 on its row opens the menu, arrows move in it.
    link = row_link(alice, "Parlor demo")
    alice.js("arguments[0].focus()", link)
    link.send_keys(Keys.SHIFT, Keys.F10)
    alice.wait(lambda: alice.visible(".list-menu"), "the menu from Shift+F10")
    items = [b.text for b in alice.visible(".list-menu .list-menu-item")]
    assert items[0] == "Pin" and items[-2:] == ["Archive", "Delete…"] and "Mute" in items, items
    ActionChains(alice.driver).send_keys(Keys.END).send_keys(Keys.ARROW_UP).send_keys(Keys.ENTER).perform()
    alice.wait(lambda: "Parlor demo" not in titles(alice) and listed(alice)["toggle"] == "Archived (1)", "the group under Archived")
    alice.wait(lambda: focused(alice) == "Archived (1)", "focus on the Archived button once the row left")
    phone.wait(lambda: "Parlor demo" not in titles(phone), "the group archived on her phone too")

    # Reloaded, the list is as she left it.
    alice.driver.refresh()
    alice.wait(lambda: titles(alice)[:1] == ["Bob"] and listed(alice)["toggle"] == "Archived (1)", "pin and archive kept across a reload")
    alice.click(lambda: next(iter(alice.visible(".archived-toggle")), None), "the Archived button")
    alice.wait(lambda: [r["title"] for r in listed(alice)["archived"]] == ["Parlor demo"], "the archived group listed under the button")

    # A new message in the group brings it back into the list, on both devices.
    call(server.url, "POST", f"/api/conversations/{group['id']}/messages", {"id": str(uuid.uuid4()), "text": "Anyone up for lunch?"}, bob)
    alice.wait(lambda: "Parlor demo" in titles(alice) and listed(alice)["toggle"] is None, "the group back in the list with the new message")
    phone.wait(lambda: "Parlor demo" in titles(phone), "the group back on her phone")

    # Unread: its menu offers "Mark as read" (nothing offered it before), which reads it on both
    # devices and on the server without opening it. Delete… is drawn red, as in Messages.
    alice.wait(lambda: alice.unread_count("Parlor demo") > 0, "the new messages unread")
    ActionChains(alice.driver).context_click(row_link(alice, "Parlor demo")).perform()
    alice.wait(lambda: alice.visible(".list-menu"), "the group's menu")
    items = [b.text for b in alice.visible(".list-menu .list-menu-item")]
    assert "Mark as read" in items and "Mark as unread" not in items, items
    colors = alice.js("""
        const item = [...document.querySelectorAll('.list-menu-item')].find((b) => b.textContent === 'Delete…');
        const probe = document.createElement('span'); probe.style.color = 'var(--destructive)'; document.body.append(probe);
        const red = getComputedStyle(probe).color; probe.remove();
        return [getComputedStyle(item).color, red, getComputedStyle([...document.querySelectorAll('.list-menu-item')][0]).color];""")
    assert colors[0] == colors[1] != colors[2], f"Delete… in the destructive colour, the others not: {colors}"
    choose(alice, "Mark as read")
    alice.wait(lambda: alice.unread_count("Parlor demo") == 0, "the group read from its menu")
    phone.wait(lambda: phone.unread_count("Parlor demo") == 0, "read on her phone too")
    assert "Parlor demo marked read." in alice.announcements()
    alices = sign_in(server.url, "alice")
    alice.wait(lambda: next(c for c in call(server.url, "GET", "/api/conversations", token=alices)
                            if c["id"] == group["id"])["unreadCount"] == 0, "read on the server")

    # Mark Bob unread by right-click: a dot on both devices until she opens it on one.
    alice.js("arguments[0].focus()", row_link(alice, "Bob"))
    ActionChains(alice.driver).context_click(row_link(alice, "Bob")).perform()
    choose(alice, "Mark as unread")
    alice.wait(lambda: listed(alice)["list"][0]["marked"], "Bob marked unread")
    phone.wait(lambda: next(r for r in listed(phone)["list"] if r["title"] == "Bob")["marked"], "Bob marked unread on her phone")
    alice.assert_accessible("the list with a pinned, a marked-unread conversation and the menu's work done")
    alice.open_conversation("Bob")
    alice.wait(lambda: not any(r["marked"] for r in listed(alice)["list"]), "opened: no longer marked")
    phone.wait(lambda: not any(r["marked"] for r in listed(phone)["list"]), "read again on her phone too")

    # Unpin: Bob goes back among the others by his latest activity.
    alice.click(lambda: next((b for b in alice.visible(".conversation-menu-button") if b.get_attribute("aria-label") == "More for Bob"), None),
                "Bob's ⋯ button")
    choose(alice, "Unpin")
    alice.wait(lambda: not any(r["pinned"] for r in listed(alice)["list"]), "nothing pinned")
    assert set(titles(alice)) == set(start), titles(alice)

    # Settings › Your name: saved with Return, shown on her other device, and in Bob's list.
    alice.press("Settings")
    field = alice.wait(lambda: alice.visible("#setting-display-name"), "the name field in Settings")[0]
    alice.wait(lambda: field.get_attribute("value") == "Alice", "her current name in the field")
    field.clear()
    field.send_keys("Alice Liddell", Keys.ENTER)
    alice.wait(lambda: "Your name is now Alice Liddell." in alice.announcements(), "the change said")
    assert alice.js("return document.activeElement.id") == "setting-display-name", "focus stays in the name field"
    phone.wait(lambda: phone.js("return document.querySelector('.sidebar-me').textContent").startswith("Alice Liddell"),
               "her phone shows the new name")
    direct = next(c for c in call(server.url, "GET", "/api/conversations", token=bob) if not c["isGroup"]
                  and any(m["username"] == "alice" for m in c["members"]))
    assert next(m for m in direct["members"] if m["username"] == "alice")["displayName"] == "Alice Liddell"
    field.clear()
    field.send_keys("A" * 70)
    assert len(field.get_attribute("value")) == 64, "the field takes no more than the server's limit"
    # Settings › About you: saved with Return; Bob's details of their conversation show it.
    about = alice.visible("#setting-about")[0]
    assert about.get_attribute("maxlength") == str(call(server.url, "GET", "/api/rules")["maxAboutLength"])
    about.send_keys("Out until Monday", Keys.ENTER)
    alice.wait(lambda: "Saved what you say about yourself." in alice.announcements(), "the change said")
    direct = next(c for c in call(server.url, "GET", "/api/conversations", token=bob) if c["id"] == direct["id"])
    assert next(m for m in direct["members"] if m["username"] == "alice").get("about") == "Out until Monday"

    # Delete Bob's conversation for herself: asked first (Escape keeps it, focus back on its ⋯).
    alices = sign_in(server.url, "alice")
    call(server.url, "POST", f"/api/conversations/{direct['id']}/messages", {"id": str(uuid.uuid4()), "text": "Lunch on Friday?"}, alices)
    alice.press("Settings")
    def open_bobs_menu():
        alice.click(lambda: next((b for b in alice.visible(".conversation-menu-button") if b.get_attribute("aria-label") == "More for Bob"), None),
                    "Bob's ⋯ button")
        choose(alice, "Delete…")
        return alice.wait(lambda: alice.visible("dialog.confirm-dialog"), "the question before deleting")[0]
    dialog = open_bobs_menu()
    assert "Delete “Bob”?" in dialog.text and focused(alice) == "Cancel", focused(alice)
    alice.assert_accessible("the question before deleting a conversation")
    ActionChains(alice.driver).send_keys(Keys.ESCAPE).perform()
    alice.wait(lambda: not alice.visible("dialog.confirm-dialog") and focused(alice) == "More for Bob", "Escape: kept, focus back on its ⋯")
    assert "Bob" in titles(alice)
    open_bobs_menu()
    alice.click(lambda: next((b for b in alice.visible("dialog.confirm-dialog button") if b.text == "Delete"), None), "Delete")
    alice.wait(lambda: "Bob" not in titles(alice), "Bob's conversation gone from her list")
    assert "Bob deleted." in alice.announcements()
    phone.wait(lambda: "Bob" not in titles(phone), "gone from her phone too")
    bobs_list = call(server.url, "GET", f"/api/conversations/{direct['id']}/messages?limit=50", token=bob)
    assert [m.get("text") for m in bobs_list] == ["Lunch on Friday?"], "Bob keeps every message"
    alice.driver.refresh()
    alice.wait(lambda: "Parlor demo" in titles(alice), "the list after a reload")
    assert "Bob" not in titles(alice), "still deleted after a reload"

    # Bob writes: the conversation is back for her, holding only what he wrote since.
    call(server.url, "POST", f"/api/conversations/{direct['id']}/messages", {"id": str(uuid.uuid4()), "text": "Still on for Friday?"}, bob)
    alice.wait(lambda: "Bob" in titles(alice), "Bob's conversation back with his new message")
    alice.open_conversation("Bob")
    alice.wait_for_text_bubble("Still on for Friday?")
    assert [e.text for e in alice.find(".transcript-list .bubble-text .bubble-body")] == ["Still on for Friday?"], "only what came after the deletion"
