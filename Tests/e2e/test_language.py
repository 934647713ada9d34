"""Apps in the person's language: Settings › Language for apps, said to the server in the
connection's hello, and Hello (which speaks French and German) drawing in it."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select


def hello_buttons(person) -> list[str]:
    surface = person.surface()
    return [b.text for b in surface.find_elements(By.CSS_SELECTOR, ".surface-body button")] if surface else []


@pytest.mark.flow
def test_settings_language_makes_apps_speak_it(browsers):
    alice = browsers("alice")
    alice.open_conversation("Bob")
    # Hello shows developers how: it is in the store, not in a new person's drawer.
    alice.open_drawer()
    assert "Hello" not in alice.drawer_names()
    alice.press("Store: get more apps and stickers")
    store = alice.wait(lambda: (alice.visible("dialog.store") or [None])[0], "the store")
    alice.press("Get Hello", root=store)
    alice.press("Close store")
    alice.wait(lambda: "Hello" in alice.drawer_names(), "Hello in her drawer")
    alice.open_app("Hello")
    alice.wait(lambda: hello_buttons(alice)[:1] == ["Hi!"], "Hello in English, the browser's language")

    alice.press("Settings")
    choice = alice.wait(lambda: alice.visible("#setting-language"), "the language choice in Settings")[0]
    Select(choice).select_by_visible_text("Français")
    alice.press("Settings")

    # The connection says hello again in French; the app open in front of her follows.
    alice.open_app("Hello")
    alice.wait(lambda: hello_buttons(alice)[:3] == ["Salut !", "Bonjour", "C'est la fête 🎉"], "Hello in French")
    alice.press_in_app("Salut !")
    alice.wait_for_staged("Salut !")
    alice.shot("hello-in-french")

    # Kept in this browser across a reload, and back to the browser's language on Automatic.
    alice.driver.refresh()
    alice.press("Settings")
    choice = alice.wait(lambda: alice.visible("#setting-language"), "the language choice after a reload")[0]
    assert Select(choice).first_selected_option.text == "Français"
    Select(choice).select_by_value("")
    alice.press("Settings")
    alice.open_conversation("Bob")
    alice.open_app("Hello")
    alice.wait(lambda: hello_buttons(alice)[:1] == ["Hi!"], "Hello in English again")
