"""The SDK's documentation (DocC, built by scripts/docs) as a developer reads it: served by
`parlor serve` at /docs/, rendered by DocC's own page script under Parlor's strict policy (the
fixture fails the flow on any Content-Security-Policy violation or uncaught error)."""

import pytest
from selenium.webdriver.common.by import By

from conftest import ROOT


def heading(person) -> str:
    found = person.driver.find_elements(By.CSS_SELECTOR, "main h1")
    return found[0].text.strip() if found else ""


@pytest.mark.flow
def test_a_developer_reads_the_sdk_documentation_at_docs(browsers):
    assert (ROOT / ".build" / "parlor-docs" / "documentation" / "parlorkit" / "index.html").exists(), \
        "scripts/docs builds the site (scripts/test and scripts/e2e run it)"
    person = browsers("alice", sign_in=False)
    person.driver.get(person.base_url + "/docs/")
    person.wait(lambda: "/docs/documentation/" in person.driver.current_url, "/docs/ leads to the list of modules")

    person.driver.get(person.base_url + "/docs/documentation/parlorkit/")
    person.wait(lambda: heading(person) == "ParlorKit", "ParlorKit's page drawn by DocC's script")
    text = person.driver.find_element(By.TAG_NAME, "main").text
    for symbol in ("MessagesApp", "Carousel", "SharedState"):
        assert symbol in text, f"{symbol} is listed on ParlorKit's page"
    person.shot("parlorkit")

    # A symbol's page from the doc comments, and the testing module beside it.
    person.driver.get(person.base_url + "/docs/documentation/parlorkit/carousel/")
    person.wait(lambda: heading(person) == "Carousel", "Carousel's page")
    assert "scrolls sideways" in person.driver.find_element(By.TAG_NAME, "main").text
    person.driver.get(person.base_url + "/docs/documentation/parlortesting/conversationsimulator/")
    person.wait(lambda: heading(person) == "ConversationSimulator", "ConversationSimulator's page")
    person.shot("conversationsimulator")
