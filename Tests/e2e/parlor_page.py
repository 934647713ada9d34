"""A person using Parlor in a browser: what they click, type and read, found the way a person
(or a screen reader) finds it: by visible text and accessible labels."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, TypeVar

from selenium.common.exceptions import (
    ElementClickInterceptedException,
    ElementNotInteractableException,
    NoAlertPresentException,
    NoSuchElementException,
    StaleElementReferenceException,
    WebDriverException,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webelement import WebElement

T = TypeVar("T")
WAIT = 20.0
RETRYABLE = (StaleElementReferenceException, NoSuchElementException, ElementClickInterceptedException, ElementNotInteractableException)


_AXE_SOURCE: str | None = None


def axe_source() -> str:
    """axe-core's axe.min.js as shipped in the axe-playwright-python wheel (scripts/e2e installs it)."""
    global _AXE_SOURCE
    if _AXE_SOURCE is None:
        import axe_playwright_python  # the package's __init__ is empty: nothing of Playwright's loads

        _AXE_SOURCE = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()
    return _AXE_SOURCE


def xpath_literal(text: str) -> str:
    """`text` as an XPath string literal, whatever quotes it holds."""
    if "'" not in text:
        return f"'{text}'"
    if '"' not in text:
        return f'"{text}"'
    return "concat(" + ", \"'\", ".join(f"'{part}'" for part in text.split("'")) + ")"


class Person:
    def __init__(self, driver, base_url: str, username: str, artifacts: Path):
        self.driver = driver
        self.base_url = base_url
        self.username = username
        self.artifacts = artifacts
        self.console_problems: list[str] = []
        self._console: list[str] = []

    # MARK: Waiting

    def wait(self, condition: Callable[[], T], what: str, timeout: float = WAIT) -> T:
        """Polls `condition` until it returns something truthy; fails saying `what` never happened."""
        deadline = time.monotonic() + timeout
        last_error: Exception | None = None
        while True:
            try:
                value = condition()
                if value:
                    return value
            except RETRYABLE as error:
                last_error = error
            if time.monotonic() > deadline:
                self.shot(f"timeout-{what[:40]}")
                detail = f" (last error: {type(last_error).__name__})" if last_error else ""
                raise AssertionError(f"{self.username}: timed out after {timeout:.0f} s waiting for {what}{detail}")
            time.sleep(0.1)

    def click(self, find: Callable[[], WebElement], what: str):
        """Finds and clicks, again if a redraw replaced the element in between."""

        def attempt():
            element = find()
            if element is None or not element.is_displayed() or not element.is_enabled():
                return False
            element.click()
            return True

        self.wait(attempt, f"to click {what}")

    def js(self, script: str, *args):
        return self.driver.execute_script(script, *args)

    # MARK: Finding

    def find(self, css: str, root: WebElement | None = None) -> list[WebElement]:
        return (root or self.driver).find_elements(By.CSS_SELECTOR, css)

    def visible(self, css: str, root: WebElement | None = None) -> list[WebElement]:
        return [e for e in self.find(css, root) if e.is_displayed()]

    def button(self, label: str, root: WebElement | None = None, exact: bool = True) -> WebElement | None:
        """A visible button whose accessible label or text is `label` (or starts with it)."""
        literal = xpath_literal(label)
        if exact:
            path = f".//button[@aria-label={literal} or (not(@aria-label) and normalize-space(.)={literal})]"
        else:
            path = f".//button[starts-with(@aria-label, {literal}) or (not(@aria-label) and starts-with(normalize-space(.), {literal}))]"
        for element in (root or self.driver).find_elements(By.XPATH, path):
            if element.is_displayed():
                return element
        return None

    def press(self, label: str, root: WebElement | None = None, exact: bool = True):
        self.click(lambda: self.button(label, root() if callable(root) else root, exact), f"the button '{label}'")

    # MARK: Pages

    def open(self, path: str = "/"):
        self.driver.get(self.base_url + path)

    def sign_in(self, username: str, password: str = "parlor-demo"):
        self.open("/")
        field = self.wait(lambda: self.visible("#auth-username"), "the sign-in form")[0]
        field.send_keys(username)
        self.find("#auth-password")[0].send_keys(password + Keys.ENTER)
        self.wait(lambda: self.visible(".sidebar"), "the conversation list after signing in")

    def sign_up(self, username: str, display_name: str, password: str):
        self.open("/")
        self.wait(lambda: self.visible("#auth-username"), "the sign-in form")
        self.press("New here? Create an account")
        self.wait(lambda: self.visible("#auth-displayName"), "the sign-up form")
        self.find("#auth-username")[0].send_keys(username)
        self.find("#auth-displayName")[0].send_keys(display_name)
        self.find("#auth-password")[0].send_keys(password + Keys.ENTER)
        self.wait(lambda: self.visible(".sidebar"), "the conversation list after signing up")

    def open_conversation(self, title: str):
        def link():
            for element in self.visible(".conversation-link"):
                if element.find_element(By.CSS_SELECTOR, ".conversation-name").text == title:
                    return element
            return None

        self.click(link, f"the conversation '{title}'")
        self.wait(lambda: self.conversation_title() == title, f"the conversation '{title}' to open")
        self.wait(lambda: self.visible('.transcript[data-loaded="true"]'), f"the messages of '{title}' to load")

    def conversation_title(self) -> str | None:
        titles = self.visible(".conversation-title")
        return titles[0].text if titles else None

    def unread_count(self, title: str) -> int:
        for element in self.find(".conversation-link"):
            if element.find_element(By.CSS_SELECTOR, ".conversation-name").get_attribute("textContent") == title:
                badges = element.find_elements(By.CSS_SELECTOR, ".unread-badge")
                return int(badges[0].get_attribute("data-unread")) if badges else 0
        return -1  # not listed (yet)

    # MARK: The transcript

    def entries(self) -> list[WebElement]:
        return self.find(".transcript-list > .entry[data-message-id]")

    def text_bubbles(self, text: str) -> list[WebElement]:
        return [b for b in self.find(".transcript-list .bubble-text .bubble-body") if b.text == text]

    def wait_for_text_bubble(self, text: str, what: str | None = None) -> WebElement:
        return self.wait(lambda: (self.text_bubbles(text) or [None])[0], what or f"the message '{text}'")

    def wait_until_sent(self, what: str = "every message sent to be acknowledged") -> None:
        """Waits until no bubble of this person's is still pending: the server has committed them all."""
        self.wait(lambda: not self.find("[data-pending-id]"), what)

    def app_cards(self) -> list[WebElement]:
        return self.find(".transcript-list .entry .app-card")

    def card_text(self, card: WebElement) -> str:
        return " ".join(card.text.split())

    def wait_for_card(self, contains: str, what: str | None = None) -> WebElement:
        def card():
            for candidate in reversed(self.app_cards()):
                if contains in self.card_text(candidate):
                    return candidate
            return None

        return self.wait(card, what or f"an app message showing '{contains}'")

    def summary_lines(self) -> list[str]:
        return [e.text for e in self.find(".transcript-list .summary-text")]

    def tap_card(self, contains: str):
        self.click(lambda: self.wait_for_card(contains).find_element(By.CSS_SELECTOR, ".app-card-tap"), f"the app message '{contains}'")

    def send_text(self, text: str):
        field = self.wait(lambda: (self.visible(".composer-input") or [None])[0], "the compose field")
        field.send_keys(text)
        field.send_keys(Keys.ENTER)

    # MARK: Compose, drawer and apps

    def staged(self) -> WebElement | None:
        boxes = self.visible(".composer-staged")
        return boxes[0] if boxes else None

    def wait_for_staged(self, contains: str) -> WebElement:
        return self.wait(lambda: (box := self.staged()) is not None and contains in " ".join(box.text.split()) and box,
                         f"'{contains}' staged in the compose field")

    def send(self):
        self.click(lambda: self.find(".composer-send")[0], "Send")

    def open_drawer(self):
        if not self.visible(".drawer"):
            self.click(lambda: self.find(".composer-apps")[0], "the app drawer button")
        self.wait(lambda: self.visible(".drawer .drawer-item"), "the app drawer")

    def drawer_names(self) -> list[str]:
        return [e.text for e in self.find(".drawer .drawer-name")]

    def open_app(self, name: str):
        self.open_drawer()
        self.press(f"Open {name}")
        self.wait_for_surface(name)

    def surface(self) -> WebElement | None:
        found = self.visible(".surface")
        return found[0] if found else None

    def wait_for_surface(self, app_name: str, style: str | None = None) -> WebElement:
        def ready():
            surface = self.surface()
            if surface is None or surface.find_element(By.CSS_SELECTOR, ".surface-title").text != app_name:
                return None
            if style is not None and ("is-expanded" in surface.get_attribute("class").split()) != (style == "expanded"):
                return None
            return surface

        return self.wait(ready, f"{app_name} to be open" + (f" ({style})" if style else ""))

    def wait_surface_closed(self):
        self.wait(lambda: self.surface() is None, "the app to close")

    def surface_text(self) -> str:
        surface = self.surface()
        return " ".join(surface.text.split()) if surface else ""

    def node(self, node_id: str) -> WebElement | None:
        found = self.visible(f'.surface [data-node-id="{node_id}"]')
        return found[0] if found else None

    def wait_for_node_text(self, node_id: str, text: str) -> WebElement:
        return self.wait(lambda: (n := self.node(node_id)) is not None and text in n.text and n, f"'{text}' in the app's {node_id}")

    def press_in_app(self, label: str, exact: bool = True):
        self.press(label, root=lambda: self.surface(), exact=exact)

    def wait_for_enabled_in_app(self, label: str) -> WebElement:
        return self.wait(lambda: (b := self.button(label, self.surface())) is not None and b.is_enabled() and b, f"'{label}' to be enabled")

    def open_rsvp_form(self):
        """Opens RSVP from the drawer (compact), then its form for a new invitation (expanded)."""
        self.open_app("RSVP")
        self.wait_for_surface("RSVP", style="compact")
        self.press_in_app("Create RSVP")
        self.wait_for_surface("RSVP", style="expanded")

    def send_rsvp(self, title: str):
        """Creates an RSVP titled `title` with the form's Create button, and sends it."""
        self.open_rsvp_form()
        self.type_in_app("Title", title)
        self.wait_for_enabled_in_app("Create")
        self.press_in_app("Create")
        self.wait_for_staged(title)
        self.assert_focus_kept("the RSVP form's Create")
        self.send()

    def choose_in_app(self, option: str):
        """Chooses `option` in a segmented choice (a picker) of the open app, as a click on its label."""
        def segment():
            for label in self.surface().find_elements(By.CSS_SELECTOR, "label.vt-segment"):
                if label.text == option and label.is_displayed():
                    return label
            return None

        self.click(segment, f"the choice '{option}'")

    def chosen_in_app(self) -> list[str]:
        """The options shown chosen in the open app's pickers."""
        return [label.text for label in self.surface().find_elements(By.CSS_SELECTOR, "label.vt-segment")
                if label.find_element(By.CSS_SELECTOR, "input").is_selected()]

    def type_in_app(self, label: str, text: str, submit: bool = False):
        def field():
            surface = self.surface()
            for lab in surface.find_elements(By.CSS_SELECTOR, "label.vt-label"):
                if lab.text == label:
                    return surface.find_element(By.ID, lab.get_attribute("for"))
            return None

        # The app redraws after each edit of another field (an app in its own process answers each
        # keystroke a little later, so redraws can go on for a while): a field found a moment ago
        # may have been replaced. Click the current one until a click lands, then type into
        # whatever has the focus (the client keeps it on the field across redraws).
        def click_field():
            element = field()
            if element is None:
                return None
            try:
                element.click()
            except StaleElementReferenceException:
                return None
            return element

        element = self.wait(click_field, f"to click the field '{label}'")

        # A redraw between finding the focused field and typing makes that reference stale, and
        # nothing is typed: the focus is on the new field, so find it again and type.
        def type_text():
            self.driver.switch_to.active_element.send_keys(text + (Keys.ENTER if submit else ""))
            return True

        self.wait(type_text, f"to type into the field '{label}'")
        return element

    # MARK: Accessibility

    INTERACTIVE_ROLES = {"button", "link", "textbox", "checkbox", "switch", "radio", "combobox", "searchbox", "slider", "spinbutton", "menuitem", "tab"}

    def unnamed_controls(self) -> list[str]:
        """Controls on screen that a screen reader would announce without a name (Chromium's own
        accessibility tree decides)."""
        tree = self.driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})
        problems = []
        for node in tree.get("nodes", []):
            if node.get("ignored"):
                continue
            role = (node.get("role") or {}).get("value")
            name = ((node.get("name") or {}).get("value") or "").strip()
            if role in self.INTERACTIVE_ROLES and not name:
                problems.append(f"{role} (backend node {node.get('backendDOMNodeId')})")
        return problems

    def assert_controls_named(self, where: str):
        problems = self.unnamed_controls()
        assert not problems, f"{self.username}: controls without a name on {where}: {problems}"

    AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

    def axe_violations(self) -> list[dict]:
        """Runs axe-core over the page as it is now (WCAG 2.0/2.1 A and AA rules) and returns its
        violations. The script comes from the axe-playwright-python wheel and goes in through
        WebDriver, so the page's Content-Security-Policy stays as it is."""
        if not self.js("return typeof window.axe === 'object'"):
            self.js(axe_source() + "\n;return typeof window.axe;")
        result = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}, resultTypes: ['violations']})"
            "  .then((r) => done(r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,"
            "     nodes: v.nodes.map((n) => ({target: n.target.join(' '), summary: n.failureSummary}))}))))"
            "  .catch((e) => done({error: String(e)}));",
            self.AXE_TAGS)
        assert not isinstance(result, dict), f"axe failed to run: {result}"
        return result

    def assert_accessible(self, where: str):
        """Fails listing every WCAG A/AA violation axe finds on `where` (a few nodes of each)."""
        violations = self.axe_violations()
        if not violations:
            return
        self.shot(f"axe-{where}")
        lines = []
        for violation in violations:
            lines.append(f"- {violation['id']} ({violation['impact']}): {violation['help']} [{len(violation['nodes'])} nodes]")
            for node in violation["nodes"][:4]:
                summary = " ".join((node["summary"] or "").split())
                lines.append(f"    {node['target']}: {summary[:300]}")
        raise AssertionError(f"{self.username}: axe found WCAG A/AA violations on {where}:\n" + "\n".join(lines))

    def focused_element(self) -> str:
        """What has the keyboard focus, as tag#id.class (\"body\" when nothing does)."""
        return self.js("const e = document.activeElement; return e ? e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')"
                       " + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : '') : 'none';")

    def assert_focus_kept(self, after: str):
        """The keyboard focus is on something, not dropped to the page, once `after` is done."""
        self.wait(lambda: self.js("return document.activeElement && document.activeElement !== document.body"),
                  f"the focus kept on the page's controls after {after}")

    def announcements(self) -> str:
        return self.js("return document.getElementById('announcer').textContent")

    # MARK: Safety

    def alerts(self) -> list[str]:
        try:
            alert = self.driver.switch_to.alert
            text = alert.text
            alert.dismiss()
            return [text]
        except NoAlertPresentException:
            pass
        return self.js("return window.__alerts || []")

    # MARK: Artifacts

    def shot(self, step: str):
        """Saves a screenshot: artifacts/<test>/<n>-<person>-<step>.png."""
        safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in step).strip("-")[:60]
        number = len(list(self.artifacts.glob("*.png"))) + 1
        try:
            self.driver.save_screenshot(str(self.artifacts / f"{number:02d}-{self.username}-{safe}.png"))
        except WebDriverException:
            pass

    def collect_console(self):
        try:
            for entry in self.driver.get_log("browser"):
                line = f"[{entry.get('level')}] {entry.get('message')}"
                self._console.append(line)
                message = entry.get("message", "")
                if entry.get("level") == "SEVERE" and ("Uncaught" in message or "Content Security Policy" in message or "Refused to" in message):
                    self.console_problems.append(f"{self.username}: {message}")
        except WebDriverException:
            pass

    def save_console_log(self):
        self.collect_console()
        (self.artifacts / f"console-{self.username}.log").write_text("\n".join(self._console))
