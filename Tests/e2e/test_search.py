"""Searching messages from the sidebar: results with the words found marked, only from one's own
conversations; choosing one opens its conversation at that message, however far back it is."""


import pytest

from parlor_api import call, sign_in
from selenium.webdriver.common.keys import Keys




def results(person) -> list[dict]:
    return person.js("""
        return [...document.querySelectorAll('.search-result')].map(r => ({
            conversation: r.querySelector('.search-result-conversation').textContent,
            sender: r.querySelector('.search-result-sender').textContent,
            excerpt: r.querySelector('.search-excerpt').textContent,
            marked: [...r.querySelectorAll('mark')].map(m => m.textContent),
        }));
    """)


@pytest.mark.flow
def test_search_finds_marks_and_opens_the_message_far_back(server, browsers):
    alice, bob, carol = (sign_in(server.url, name) for name in ("alice", "bob", "carol"))
    direct = next(c for c in call(server.url, "GET", "/api/conversations", token=alice)
                  if not c["isGroup"] and {m["username"] for m in c["members"]} == {"alice", "bob"})
    messages = f"/api/conversations/{direct['id']}/messages"
    call(server.url, "POST", messages, {"id": "00000000-0000-4000-8000-00000000a001", "text": "The Crème brûlée place on Elm Street"}, bob)
    # Far more than the first page the browser loads, so the message is not on screen yet.
    for index in range(260):
        call(server.url, "POST", messages, {"id": f"00000000-0000-4000-8000-{index:012d}", "text": f"filler {index}"}, alice if index % 2 else bob)
    secret = call(server.url, "POST", "/api/conversations", {"title": "Surprise", "members": ["bob", "carol"]}, carol)
    call(server.url, "POST", f"/api/conversations/{secret['id']}/messages",
         {"id": "00000000-0000-4000-8000-00000000b001", "text": "Creme brulee for Alice's birthday"}, carol)

    page = browsers("alice")
    search = page.wait(lambda: (page.visible("#search-input") or [None])[0], "the search field")
    search.send_keys("creme")
    page.wait(lambda: len(results(page)) == 1, "one result: the café message, not Bob and Carol's surprise")
    found = results(page)[0]
    assert found == {"conversation": "Bob", "sender": "Bob", "excerpt": "The Crème brûlée place on Elm Street", "marked": ["Crème"]}, found
    assert page.visible(".conversation-list") == [], "the results take the list's place"
    status = page.visible(".search-status")[0]
    assert status.text == "1 message" and status.get_attribute("role") == "status", "the count, read out by screen readers"
    page.assert_accessible("search results")
    page.shot("results")

    # By keyboard: down to the result, Enter; the conversation opens at the message.
    search.send_keys(Keys.ARROW_DOWN)
    assert "search-result" in page.focused_element()
    page.driver.switch_to.active_element.send_keys(Keys.ENTER)
    page.wait(lambda: page.conversation_title() == "Bob", "the conversation to open")
    target = page.wait(lambda: (page.visible(".entry.is-highlighted[data-message-id='00000000-0000-4000-8000-00000000a001' i]") or [None])[0],
                       "the message found, marked, 260 messages back")
    assert page.js("""
        const r = arguments[0].getBoundingClientRect(), list = document.querySelector('.transcript').getBoundingClientRect();
        return r.top >= list.top && r.bottom <= list.bottom;
    """, target), "scrolled into view"
    page.shot("opened")

    # Two words must both be there; a word with none found says so.
    search = page.visible("#search-input")[0]
    search.clear()
    search.send_keys("elm brulee")
    page.wait(lambda: [r["marked"] for r in results(page)] == [["brûlée", "Elm"]], "both words marked")
    search.send_keys(" zebra")
    page.wait(lambda: "No messages match" in page.visible(".search-status")[0].text, "no match said")
    # Escape gives the conversation list back.
    search.send_keys(Keys.ESCAPE)
    page.wait(lambda: page.visible(".conversation-list") and not page.visible(".search-results"), "the list back")
    assert search.get_attribute("value") == ""
