"""Password and sign-in, from Settings: changing the password signs every other device out at
once (it lands on the sign-in page saying why) and the old password stops working; signing out
everywhere ends this browser's sign-in too, and a device that missed the news (its socket
down) learns it when it reconnects; the form works from the keyboard alone."""

import uuid

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from parlor_api import call, sign_in

NEW_PASSWORD = "quiet-harbor-7421"
SIGNED_OUT_NOTICE = "You were signed out: your password was changed, or you signed out everywhere. Sign in again."
# A device signed out from elsewhere goes to the sign-in page by itself, without a reload.
SIGNED_OUT_SECONDS = 8


def second_device(browsers, username):
    """The same person in another browser (its own profile: its own cookie, its own sign-in)."""
    person = browsers(username)
    person.username = f"{username}-2nd"  # its screenshots and console log apart from the first's
    return person


def open_security(person):
    if not person.visible(".setting-security"):
        person.press("Settings")
    person.wait(lambda: person.visible(".setting-security") and person.button("Change password…"),
                "Password and sign-in in the settings")


def shown_text(person, css) -> str:
    found = person.visible(css)
    return " ".join(found[0].text.split()) if found else ""


def focused_id(person) -> str:
    return person.js("const e = document.activeElement; return !e || e === document.body ? 'body' : (e.id || e.tagName.toLowerCase());")


def signed_in(person) -> bool:
    """The app is shown, with its socket up, and no sign-in form."""
    return bool(person.visible(".sidebar")) and not person.find("#auth-username") and person.js("return window.__parlorTest.openSockets()") == 1


def wait_for_sign_in_page(person, notice: bool, what: str, timeout: float = 20):
    person.wait(lambda: person.visible("#auth-username") and not person.find(".sidebar"), what, timeout=timeout)
    said = shown_text(person, ".auth-error")
    if notice:
        assert said == SIGNED_OUT_NOTICE, f"{person.username}: the sign-in page says {said!r}"
    else:
        assert said == "", f"{person.username}: the sign-in page says {said!r} before any sign-in was tried"


def say_as(server, username, text):
    """`username` writes `text` in the demo group through the API (a device of theirs elsewhere)."""
    token = sign_in(server.url, username)
    group = next(c for c in call(server.url, "GET", "/api/conversations", token=token) if c.get("title") == "Parlor demo")
    call(server.url, "POST", f"/api/conversations/{group['id']}/messages", {"id": str(uuid.uuid4()), "text": text}, token)


def fill_password_form(person, current, new):
    for name, value in (("current", current), ("new", new)):
        field = person.find(f"#password-{name}")[0]
        field.clear()
        field.send_keys(value)


@pytest.mark.flow
def test_changing_the_password_signs_the_other_device_out(browsers, server):
    laptop = browsers("alice")
    phone = second_device(browsers, "alice")
    laptop.open_conversation("Parlor demo")
    open_security(laptop)

    # A wrong current password: refused in the form, focus back on that field, nobody signed out.
    laptop.press("Change password…")
    laptop.wait(lambda: focused_id(laptop) == "password-current", "focus in Current password")
    fill_password_form(laptop, "not-my-password", NEW_PASSWORD)
    laptop.press("Change password")
    laptop.wait(lambda: shown_text(laptop, ".password-form .form-error") == "That is not your current password.",
                "the refusal of a wrong current password in the form")
    laptop.wait(lambda: focused_id(laptop) == "password-current", "focus back in Current password")
    laptop.shot("wrong-current-password")
    assert shown_text(laptop, ".security-status") == "", "nothing was changed"
    assert signed_in(laptop), "a wrong current password does not sign this browser out"
    assert signed_in(phone), "a wrong current password does not sign the other device out"

    # The right one: changed, and the other device is signed out at once, by itself.
    fill_password_form(laptop, "parlor-demo", NEW_PASSWORD)
    laptop.press("Change password")
    said = "Password changed. One other device was signed out."
    laptop.wait(lambda: shown_text(laptop, ".security-status") == said, "the password to be changed")
    assert not laptop.visible(".password-form"), "the form closes once the password is changed"
    assert said in laptop.announcements()
    laptop.shot("password-changed")
    wait_for_sign_in_page(phone, notice=True, what="the other device to land on the sign-in page", timeout=SIGNED_OUT_SECONDS)
    phone.shot("signed-out-by-password-change")

    # This browser is still signed in and live: its sends are acknowledged, others' messages arrive.
    assert signed_in(laptop)
    laptop.send_text("Still here after the change")
    laptop.wait_until_sent("her message to be acknowledged after the password change")
    say_as(server, "bob", "Bob can still reach you")
    laptop.wait_for_text_bubble("Bob can still reach you", "Bob's message to arrive after the password change")

    # On the signed-out device the old password no longer works; the new one does.
    phone.find("#auth-username")[0].send_keys("alice")
    phone.find("#auth-password")[0].send_keys("parlor-demo" + Keys.ENTER)
    phone.wait(lambda: shown_text(phone, ".auth-error") == "That username and password do not match.", "the old password to be refused")
    assert not phone.find(".sidebar")
    password = phone.find("#auth-password")[0]
    password.clear()
    password.send_keys(NEW_PASSWORD + Keys.ENTER)
    phone.wait(lambda: signed_in(phone), "signing in with the new password")


@pytest.mark.flow
def test_signing_out_everywhere_ends_every_sign_in_of_that_person_only(browsers):
    laptop = browsers("alice")
    phone = second_device(browsers, "alice")
    # A third device misses the close that says so: its socket is down (asleep, no network).
    tablet = second_device(browsers, "alice")
    tablet.username = "alice-3rd"
    bob = browsers("bob")
    bob.open_conversation("Parlor demo")
    open_security(laptop)

    # Asked first; Cancel changes nothing.
    laptop.press("Sign out everywhere…")
    laptop.wait(lambda: laptop.button("Sign out everywhere"), "the confirmation")
    laptop.shot("sign-out-everywhere-confirmation")
    laptop.press("Cancel")
    laptop.wait(lambda: not laptop.button("Sign out everywhere") and focused_id(laptop) != "body", "the confirmation to close")
    assert signed_in(laptop) and signed_in(phone)

    tablet.js("window.__parlorTest.drop(true)")
    tablet.wait(lambda: tablet.js("return window.__parlorTest.openSockets()") == 0, "the tablet's socket to be down")
    laptop.press("Sign out everywhere…")
    laptop.press("Sign out everywhere")
    wait_for_sign_in_page(phone, notice=True, what="the other device to land on the sign-in page", timeout=SIGNED_OUT_SECONDS)
    # Back online, the tablet's socket is refused; it asks why, and says so.
    tablet.js("window.__parlorTest.restore()")
    wait_for_sign_in_page(tablet, notice=True, what="the device that missed the close to land on the sign-in page", timeout=SIGNED_OUT_SECONDS)
    # The browser that chose it is not told it was signed out, as if by someone else.
    wait_for_sign_in_page(laptop, notice=False, what="this browser to land on the sign-in page")
    laptop.shot("signed-out-everywhere")

    # Ended on the server, not just left: a reload stays on the sign-in page (the notice said once).
    for person in (laptop, phone, tablet):
        person.driver.refresh()
        wait_for_sign_in_page(person, notice=False, what="the sign-in page after a reload")

    # Bob's sign-in is his own: still live.
    assert signed_in(bob), "signing out everywhere ends alice's sign-ins only"
    bob.send_text("Bob is still signed in")
    bob.wait_until_sent("Bob's message to be acknowledged")


def keys(person, *sequence):
    ActionChains(person.driver).send_keys(*sequence).perform()


def tab_to(person, label, limit=60):
    for _ in range(limit):
        if person.js("return document.activeElement.textContent.trim()") == label:
            return
        keys(person, Keys.TAB)
    raise AssertionError(f"Tab never reached '{label}'; focus is on {focused_id(person)}")


def assert_in_sight(person, what):
    """What has the focus is on screen, inside the sidebar, and the page itself has not scrolled
    (the settings scroll inside the sidebar, above its footer)."""
    sight = person.js(
        "const box = (e) => e.getBoundingClientRect();"
        "const f = box(document.activeElement), p = box(document.querySelector('.settings-panel')),"
        "      foot = box(document.querySelector('.sidebar-footer'));"
        "return {focus: f.top >= p.top - 1 && f.bottom <= p.bottom + 1, footer: foot.bottom <= innerHeight + 1,"
        "        page: document.scrollingElement.scrollTop === 0 && document.scrollingElement.scrollHeight <= innerHeight + 1};")
    assert sight == {"focus": True, "footer": True, "page": True}, f"{what}: {sight}"


@pytest.mark.flow
def test_the_password_form_by_keyboard_alone_on_a_short_window(browsers):
    # A laptop's browser with a short window: the open form is taller than the room the sidebar has.
    alice = browsers("alice", height=640)
    tab_to(alice, "Settings")
    keys(alice, Keys.ENTER)
    alice.wait(lambda: focused_id(alice) == "setting-read-receipts", "focus in the settings")
    tab_to(alice, "Change password…")
    keys(alice, Keys.ENTER)
    alice.wait(lambda: focused_id(alice) == "password-current", "focus in Current password")
    assert_in_sight(alice, "the password form just opened")

    # From the first submit on, focus is never left on <body> (sampled in the page every 20 ms).
    alice.js("window.__onBody = 0; setInterval(() => {"
             "  if (!document.activeElement || document.activeElement === document.body) window.__onBody += 1; }, 20);")
    # Enter in a field submits. A wrong current password: focus back on it, to type it again.
    keys(alice, "wrong-password-1", Keys.TAB, NEW_PASSWORD, Keys.ENTER)
    alice.wait(lambda: shown_text(alice, ".password-form .form-error") == "That is not your current password.", "the refusal")
    alice.wait(lambda: focused_id(alice) == "password-current", "focus back in Current password")
    assert_in_sight(alice, "the refused current password")
    ActionChains(alice.driver).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL).send_keys("parlor-demo", Keys.ENTER).perform()
    alice.wait(lambda: shown_text(alice, ".security-status") == "Password changed.", "the password to be changed (no other device)")
    alice.shot("password-changed-by-keyboard")
    assert alice.js("return window.__onBody") == 0, "focus fell to <body> after a submit"
    assert alice.js("return document.activeElement.textContent.trim()") == "Change password…", "focus back on Change password…"
    assert "Password changed." in alice.announcements()
