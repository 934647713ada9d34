"""Todo: a note added on the app's home surface, then shared from its message extension."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys


def set_date(person, label, iso):
    """Types a date as a person would (month, day, year in an en-US date field)."""
    field = person.type_in_app(label, "")
    year, month, day = iso.split("-")
    field.send_keys(month + day + year)
    if field.get_attribute("value") != iso:
        # Some Chromium builds order the parts differently: set it the way the picker would.
        person.js("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', {bubbles: true}));", field, iso)
    person.wait(lambda: field.get_attribute("value") == iso, f"the date field to hold {iso}")


@pytest.mark.flow
def test_a_todo_added_at_home_is_shared_from_the_extension(browsers):
    alice = browsers("alice")
    bob = browsers("bob")

    # The home surface: Todo's own screen, from the sidebar.
    alice.click(lambda: alice.visible('.home-app-link[data-app="org.parlor.todo"]')[0], "Todo in the sidebar")
    alice.wait_for_surface("Todo")
    alice.wait(lambda: "Nothing to do" in alice.surface_text(), "the empty list")
    alice.shot("todo-home-empty")
    alice.type_in_app("Title", "Buy balloons")
    alice.click(lambda: alice.surface().find_element(By.XPATH, ".//label[contains(@class,'vt-segment')][normalize-space(.)='High']"), "High priority")
    set_date(alice, "Date", "2026-12-31")
    alice.press_in_app("Add")
    alice.wait(lambda: "Added “Buy balloons”." in alice.surface_text(), "the note to be added")
    alice.wait(lambda: alice.button("Complete Buy balloons", alice.surface()) is not None, "the note in the list")
    # The form is empty again for the next note.
    assert alice.js("return document.querySelector('.surface [data-node-id=\"title\"]').value") == ""
    alice.shot("todo-home-added")
    # The next note goes in with Return; the date field takes a year of four digits, no more.
    set_date(alice, "Date", "2027-01-15")
    assert alice.js("return document.querySelector('.surface [data-node-id=\"date\"]').max") == "9999-12-31"
    alice.type_in_app("Title", "Call the venue", submit=True)
    alice.wait(lambda: alice.button("Complete Call the venue", alice.surface()) is not None, "the note added with Return")
    alice.assert_controls_named("Todo's home screen")

    # The message extension reads the same list and stages the note.
    alice.open_conversation("Bob")
    bob.open_conversation("Alice")
    alice.open_app("Todo")
    alice.wait(lambda: "Send a to-do" in alice.surface_text(), "the extension's list")
    alice.shot("todo-extension")
    alice.press_in_app("Send Buy balloons")
    alice.wait_for_staged("Buy balloons")
    alice.shot("todo-staged")
    alice.press_in_app("Close Todo")
    alice.wait_surface_closed()
    alice.send()

    card = bob.wait_for_card("Buy balloons")
    assert "Dec 31, 2026" in bob.card_text(card)
    image = card.find_element(By.CSS_SELECTOR, ".app-media-item")
    assert image.get_attribute("src").endswith("/assets/apps/org.parlor.todo/priority-high.png")
    bob.wait(lambda: bob.js("return arguments[0].complete && arguments[0].naturalWidth > 0", image), "the priority image to load")
    bob.shot("todo-received")

    # Tapping it shows the note read-only.
    bob.tap_card("Buy balloons")
    bob.wait_for_surface("Todo", style="expanded")
    bob.wait_for_node_text("detail-title", "Buy balloons")
    bob.wait_for_node_text("detail-priority", "High priority")
    bob.wait_for_node_text("detail-date", "Due Dec 31, 2026")
    assert "Shared by Alice" in bob.surface_text()
    bob.shot("todo-detail")
    bob.press_in_app("Back to my list")
    bob.press_in_app("Close Todo")
    bob.wait_surface_closed()

    # A list for both: Alice starts it with its first item (Return), and sends it.
    alice.open_app("Todo")
    alice.wait(lambda: "A list for everyone here" in alice.surface_text(), "the shared list's form")
    alice.type_in_app("First item", "Buy milk", submit=True)
    alice.wait_for_staged("Shared to-dos")
    alice.press_in_app("Close Todo")
    alice.wait_surface_closed()
    alice.send()

    # Both open it and add at the same moment: neither addition is lost.
    for person in (bob, alice):
        person.tap_card("Shared to-dos")
        person.wait_for_surface("Todo", style="expanded")
        person.wait(lambda p=person: p.button("Check off Buy milk, added by Alice", p.surface()) is not None, "the list's first item")
    bob.type_in_app("New item", "Bring chairs")
    alice.type_in_app("New item", "Bake a cake")

    def return_in_field(person, value):
        """Return where the person is typing: the field keeps its text and the focus through an
        update of the list that arrives meanwhile."""
        person.wait(lambda: person.js("const e = document.activeElement; return e.dataset.nodeId === 'new-item' && e.value") == value,
                    f"'{value}' typed, the focus in the field")
        ActionChains(person.driver).send_keys(Keys.ENTER).perform()
    return_in_field(bob, "Bring chairs")
    return_in_field(alice, "Bake a cake")
    for person in (alice, bob):
        person.wait(lambda p=person: all(p.button(f"Check off {item}", p.surface()) is not None
                                         for item in ("Buy milk, added by Alice", "Bring chairs, added by Bob", "Bake a cake, added by Alice")),
                    "all three items, with who added each")
    # Bob checks one off: Alice sees who did, and the bubble counts it.
    bob.press_in_app("Check off Buy milk, added by Alice")
    alice.wait(lambda: alice.button("Open Buy milk again, done by Bob", alice.surface()) is not None, "Buy milk done at Alice's")
    assert "Done by Bob" in alice.surface_text()
    alice.wait(lambda: "1 of 3 done" in alice.surface_text(), "the count")
    # Bob changes the text of his own item: Edit opens it in a field that has the focus, and Return
    # saves it for both. Alice's items offer him no Edit.
    assert bob.button("Edit Buy milk", bob.surface()) is None
    bob.press_in_app("Edit Bring chairs")
    bob.wait(lambda: bob.js("return document.activeElement.dataset.nodeId || ''").startswith("edit-text-"), "the focus in the item's field")
    ActionChains(bob.driver).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL).send_keys("Bring 6 chairs", Keys.ENTER).perform()
    alice.wait(lambda: alice.button("Check off Bring 6 chairs, added by Bob", alice.surface()) is not None, "the new text at Alice's")
    bob.wait(lambda: bob.button("Edit Bring 6 chairs", bob.surface()) is not None, "the field closed at Bob's")
    # The focus stays where the field was: on that item's row, not the top of the page.
    bob.wait(lambda: "Bring 6 chairs" in (bob.js("return document.activeElement.getAttribute('aria-label') || ''") or ""),
             "the focus on the item just changed")
    alice.assert_controls_named("the shared list")
    alice.assert_accessible("the shared list, one item done by someone else")
    alice.shot("todo-shared-list")
    # A row checks its item off where it is: no chevron saying it opens something.
    assert alice.find(".surface .vt-row-action") and not alice.find(".surface .vt-row-chevron")
    alice.press_in_app("Close Todo")
    alice.wait(lambda: "1 of 3 done" in alice.card_text(alice.wait_for_card("Shared to-dos")), "the one bubble, kept current")
