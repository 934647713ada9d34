"""RSVP: three people answer one invitation; every screen shows the same counts."""

import time

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from test_where_you_are import picker_for, touch

TITLE = "Board games on Friday?"


def answer(person, choice):
    person.tap_card(TITLE)
    person.wait_for_surface("RSVP", style="expanded")
    person.wait_for_node_text("title", TITLE)
    person.choose_in_app(choice)
    person.wait_for_node_text("your-answer", f"Your answer: {choice}")
    # The answer given is shown chosen (not a disabled button), and can be changed.
    person.wait(lambda: person.chosen_in_app() == [choice], f"'{choice}' to be shown chosen")


def surface_busy(person):
    """Whether the open app holds back a new view (a press is on it)."""
    return person.surface().find_element(By.CSS_SELECTOR, ".surface-body").get_attribute("aria-busy") == "true"


def replaced(element):
    try:
        element.is_enabled()
    except StaleElementReferenceException:
        return True
    return False


@pytest.mark.flow
def test_three_answers_are_counted_on_every_screen(browsers):
    alice = browsers("alice")
    bob = browsers("bob")
    carol = browsers("carol")
    for person in (alice, bob, carol):
        person.open_conversation("Parlor demo")

    # Alice creates the invitation: compact, then the form expanded, then staged.
    alice.open_rsvp_form()
    alice.type_in_app("Title", TITLE)
    alice.type_in_app("When (optional)", "Friday at 8 PM")
    alice.type_in_app("Where (optional)", "Alice's place")
    alice.wait_for_enabled_in_app("Create")
    alice.shot("rsvp-form")
    alice.assert_controls_named("the RSVP form")
    alice.press_in_app("Create")
    alice.wait_for_staged(TITLE)
    alice.shot("rsvp-staged")
    alice.send()

    # Bob and Carol answer from the bubble; Alice too.
    bob.wait_for_card(TITLE)
    answer(bob, "Maybe")
    assert "1 maybe" in bob.surface_text() and "When: Friday at 8 PM" in bob.surface_text()
    # Bob changes his mind in the open app.
    bob.choose_in_app("Going")
    bob.wait_for_node_text("your-answer", "Your answer: Going")
    bob.wait(lambda: bob.chosen_in_app() == ["Going"], "'Going' to be shown chosen")
    bob.wait_for_node_text("yes-count", "1 going")
    bob.shot("bob-answered")
    carol.wait_for_card("1 going")
    answer(carol, "Can't go")
    # Carol's answer leaves the invitation on Alice's side, under the line saying what Carol answered.
    entry = alice.wait_for_card("1 can't go").find_element("xpath", "ancestor::li[contains(@class, 'entry')]")
    assert "entry-mine" in entry.get_attribute("class").split(), entry.get_attribute("class")
    assert alice.js("return arguments[0].previousElementSibling?.textContent.trim()", entry) == "Carol can't go"
    answer(alice, "Going")
    # Everyone sees who answered, by name, as plain lines (not rows that look like fields).
    for person in (alice, bob):
        person.wait(lambda p=person: "Can't go (1): Carol" in p.surface_text(), "who answered, with names")
        text = person.surface_text()
        assert "Going (2): Bob, Alice" in text or "Going (2): Alice, Bob" in text, text
        assert "Maybe (0): nobody yet" in text, text
    assert not alice.find(".surface .vt-list"), "no list rows"
    alice.shot("organizer-view")
    alice.assert_controls_named("the organizer's view")

    for person in (alice, bob, carol):
        # The open app follows the answers too (didReceive), then is closed to see the transcript.
        person.wait(lambda p=person: "2 going" in p.surface_text() and "1 can't go" in p.surface_text(), "the open RSVP to show the counts")
        person.press_in_app("Close RSVP")
        person.wait_surface_closed()
        card = person.wait_for_card("2 going", "the bubble to count two yes")
        assert "1 can't go" in person.card_text(card)
        person.wait(lambda p=person: len(p.app_cards()) == 1, "the invitation to be one bubble")
        assert "Friday at 8 PM" in person.card_text(card) and "Alice's place" in person.card_text(card)
        assert person.summary_lines() == [
            f"Alice asked: {TITLE}",
            "Bob might go",
            "Bob changed to Going",
            "Carol can't go",
        ], person.summary_lines()
        person.shot("final-counts")

    # On a touch screen the card is the message: a long press opens its menu (not the app, not the
    # browser's menu for its picture); a swipe to the right replies to it.
    card = carol.wait_for_card("2 going")
    card_id = card.find_element(By.XPATH, "./ancestor::li[@data-message-id]").get_attribute("data-message-id")
    touch(carol, card, hold=0.8)
    carol.wait(lambda: picker_for(carol) == card_id, "the card's menu from a long press")
    time.sleep(0.4)  # a click the lift might make has had its time
    assert carol.surface() is None, "the long press did not open the app"
    carol.js("document.activeElement.blur(); document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true}))")
    touch(carol, carol.wait_for_card("2 going"), swipe=120)
    carol.wait(lambda: carol.visible(".composer-context") and "Replying to Alice" in carol.find(".composer-context")[0].text, "replying to the swiped card")
    time.sleep(0.4)
    assert carol.surface() is None, "the swipe did not open the app"


@pytest.mark.flow
def test_a_press_held_while_the_view_changes_is_not_lost(browsers):
    """A new view that arrives while a button is held down waits for the press to end, so the
    button pressed is still there when it is released and the press counts."""
    alice = browsers("alice")
    alice.open_conversation("Parlor demo")
    alice.open_rsvp_form()
    alice.type_in_app("Title", "Picnic on Sunday?")
    alice.wait_for_enabled_in_app("Create")
    alice.type_in_app("Where (optional)", "The park")
    time.sleep(1)  # the field's edit sent (after 300 ms) and answered: nothing is drawn any more
    create = alice.wait_for_enabled_in_app("Create")

    # One more edit, and at once Create held down: the press moves the focus off the field, which
    # sends the edit then and there, and the app answers with a new view while the button is down.
    ActionChains(alice.driver).send_keys(" today").move_to_element(create).click_and_hold().perform()

    # Held back until the release (or, were it not, drawn over the button under the pointer).
    alice.wait(lambda: surface_busy(alice) or replaced(create), "the app's answer to the edit while Create is held down")
    # What the held view shows when it is drawn (the app's answer to Create comes later).
    alice.js("""
        const body = arguments[0];
        window.heldViewDrawn = null;
        new MutationObserver((changes, observer) => {
          if (body.getAttribute('aria-busy') === 'true') return;
          observer.disconnect();
          const create = [...body.querySelectorAll('button')].find((button) => button.textContent.trim() === 'Create');
          window.heldViewDrawn = { create: Boolean(create), busy: Boolean(create?.classList.contains('is-busy')) };
        }).observe(body, { attributes: true, attributeFilter: ['aria-busy'] });
    """, alice.surface().find_element(By.CSS_SELECTOR, ".surface-body"))
    ActionChains(alice.driver).release().perform()
    staged = alice.wait_for_staged("Picnic on Sunday?")
    assert "The park today" in staged.text, staged.text
    # The held view was drawn after the press: nothing is left waiting.
    alice.wait(lambda: not surface_busy(alice), "the held view to be drawn")
    # Drawn just after the click, it still says Create is working until the app answers it.
    assert alice.js("return window.heldViewDrawn") == {"create": True, "busy": True}


@pytest.mark.flow
def test_an_answer_chosen_with_space_while_another_arrives_is_not_lost(browsers):
    """Space presses a choice when it is released; a new view that arrives while it is down (here
    someone else's answer) waits, so the choice is still there and is made."""
    alice = browsers("alice")
    bob = browsers("bob")
    for person in (alice, bob):
        person.open_conversation("Parlor demo")
    alice.send_rsvp("Lunch on Monday?")
    bob.tap_card("Lunch on Monday?")
    bob.wait_for_surface("RSVP", style="expanded")
    # The card opened the app over the conversation (now inert): the focus went into the app.
    bob.wait(lambda: bob.js("return Boolean(document.activeElement.closest('.surface'))"), "the focus in the opened RSVP")
    bob.wait_for_node_text("your-answer", "Are you coming?")

    # Bob puts the focus on "Going" and holds Space down.
    going = bob.wait(lambda: next((label.find_element(By.CSS_SELECTOR, "input") for label in
                                   bob.surface().find_elements(By.CSS_SELECTOR, "label.vt-segment") if label.text == "Going"), None),
                     "the choice 'Going'")
    bob.js("arguments[0].focus()", going)
    ActionChains(bob.driver).key_down(Keys.SPACE).perform()

    # Meanwhile Alice answers: Bob's open invitation gets a new view with her answer counted.
    alice.tap_card("Lunch on Monday?")
    alice.wait_for_surface("RSVP", style="expanded")
    alice.choose_in_app("Can't go")
    bob.wait(lambda: surface_busy(bob) or replaced(going), "Alice's answer to reach Bob's open invitation while Space is down")
    ActionChains(bob.driver).key_up(Keys.SPACE).perform()

    alice.wait_for_node_text("your-answer", "Your answer: Can't go")
    bob.wait_for_node_text("your-answer", "Your answer: Going")
    bob.wait_for_node_text("yes-count", "1 going")
    bob.wait_for_node_text("no-count", "1 can't go")
