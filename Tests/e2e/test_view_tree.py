"""What the browser's own modules draw from the server's frames (js/viewtree.js, js/compose.js and
their CSS), in Chromium: what a person sees and reaches with the keyboard."""

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

# A view as ParlorKit's `Carousel(label: "Scoops", itemWidth: 96)` writes it (and, for comparison,
# the same cells in a flexible `Grid`), in a tray 360 points wide.
RENDER = """
const [scrollAxis, done] = arguments;
import('/js/viewtree.js').then(({ renderView }) => {
  const sent = [];
  const cells = Array.from({ length: 8 }, (_, i) => ({
    type: 'button', title: `Scoop ${i + 1}`, action: `{"scoop":${i + 1}}`, role: 'plain', id: `scoop-${i + 1}`,
  }));
  const node = { type: 'grid', label: 'Scoops', minItemWidth: 96, children: cells, id: 'scoops' };
  if (scrollAxis) node.scrollAxis = scrollAxis;
  const tray = document.createElement('div');
  tray.className = 'surface-body';
  tray.id = 'view-under-test';
  tray.style.cssText = 'position:fixed;left:0;top:0;width:360px;height:300px;z-index:99;background:#fff';
  tray.append(renderView(node, { appId: 'org.example.icecream', names: {}, interactive: true, send: (event) => sent.push(event) }));
  document.getElementById('view-under-test')?.remove();
  document.body.append(tray);
  window.__sent = sent;
  const grid = tray.querySelector('[data-node-id="scoops"]');
  done({
    role: grid.getAttribute('role'), label: grid.getAttribute('aria-label'),
    tops: [...grid.children].map((cell) => Math.round(cell.getBoundingClientRect().top)),
    widths: [...grid.children].map((cell) => Math.round(cell.getBoundingClientRect().width)),
    scrollWidth: grid.scrollWidth, clientWidth: grid.clientWidth,
  });
}).catch((error) => done({ error: String(error) }));
"""


@pytest.mark.flow
def test_a_carousel_is_one_row_that_scrolls_sideways_and_follows_the_keyboard(browsers):
    person = browsers("alice", sign_in=False)
    person.driver.get(person.base_url + "/")
    # The sign-in page takes the focus when it is drawn: let it, before the tray takes it.
    person.wait(lambda: person.js("return document.activeElement?.id") == "auth-username", "the sign-in form")
    carousel = person.driver.execute_async_script(RENDER, "horizontal")
    assert carousel.get("error") is None, carousel
    assert (carousel["role"], carousel["label"]) == ("list", "Scoops")
    assert len(set(carousel["tops"])) == 1, f"the cells sit in one row: {carousel['tops']}"
    assert all(width == 96 for width in carousel["widths"]), carousel["widths"]
    assert carousel["scrollWidth"] > carousel["clientWidth"], "eight cells of 96 points overflow 360 and scroll"

    # Tab from the first scoop to the last: the focused cell is scrolled into view.
    person.js("document.querySelector('[data-node-id=\"scoop-1\"]').focus()")
    for _ in range(7):
        ActionChains(person.driver).send_keys(Keys.TAB).perform()
    assert person.js("return document.activeElement.dataset.nodeId") == "scoop-8"
    person.wait(lambda: person.js("return document.querySelector('[data-node-id=\"scoops\"]').scrollLeft") > 0,
                "the carousel scrolled to the focused scoop")
    position = person.js("""
        const grid = document.querySelector('[data-node-id="scoops"]').getBoundingClientRect();
        const last = document.querySelector('[data-node-id="scoop-8"]').getBoundingClientRect();
        return { gridRight: grid.right, lastRight: last.right, lastLeft: last.left, gridLeft: grid.left };
    """)
    assert position["lastLeft"] >= position["gridLeft"] - 1 and position["lastRight"] <= position["gridRight"] + 1, position
    ActionChains(person.driver).send_keys(Keys.ENTER).perform()
    assert person.js("return window.__sent") == [{"kind": "action", "action": '{"scoop":8}'}]

    # The same cells in a flexible grid wrap into rows that fill the width instead.
    grid = person.driver.execute_async_script(RENDER, None)
    assert grid.get("error") is None, grid
    assert len(set(grid["tops"])) > 1, f"a grid wraps: {grid['tops']}"
    assert grid["scrollWidth"] <= grid["clientWidth"]

    # A row's trailing edge (`accessory`): a chevron by default on a row that acts (it shows more),
    # a check mark, or nothing (a row that acts where it is, as a to-do's check-off).
    trailing = person.driver.execute_async_script("""
        const done = arguments[0];
        import('/js/viewtree.js').then(({ renderView }) => {
          const row = (id, extra) => ({ type: 'row', label: id, selected: false, children: [{ type: 'text', text: id, style: 'body' }], id, ...extra });
          const node = { type: 'list', label: 'Rows', children: [
            row('default', { action: '{"a":1}' }), row('check', { action: '{"a":2}', accessory: 'checkmark' }),
            row('none', { action: '{"a":3}', accessory: 'none' }), row('still', {}),
          ] };
          const tray = renderView(node, { appId: 'org.example.rows', names: {}, interactive: true, send() {} });
          done(['default', 'check', 'none', 'still'].map((id) =>
            [...tray.querySelector(`[data-node-id="${id}"]`).querySelectorAll('[aria-hidden="true"]')].map((e) => e.className)));
        }).catch((error) => done(String(error)));
    """)
    assert trailing == [["vt-row-chevron"], ["vt-row-check"], [], []], trailing


# A staged app message whose Send the server refused: the `staged` frame's `app` with its `error`
# (MSMessage.error), as AppFlowTests sees the server send it.
STAGED = """
const [withError, done] = arguments;
import('/js/compose.js').then(({ Composer }) => {
  const removed = [];
  const composer = new Composer({
    onSend() {}, onRemoveStaged: () => removed.push(true), onToggleDrawer() {}, onDraft() {}, onContextEnd() {},
    conversation: () => null, onError() {}, linkPreview: () => Promise.resolve(null), me: () => null,
  });
  document.getElementById('composer-under-test')?.remove();
  composer.element.id = 'composer-under-test';
  document.body.append(composer.element);
  const app = {
    appID: 'org.parlor.tictactoe', appName: 'Tic-Tac-Toe', installed: true, shouldExpire: false, names: {},
    summaryLine: 'Carol played', layout: { caption: "Carol's move" },
  };
  if (withError) app.error = { code: 'sessionConflict', message: 'Someone else updated this first; open the newest message to continue.' };
  composer.setStaged({ kind: 'app', app });
  window.__removed = removed;
  const box = composer.element.querySelector('.composer-staged');
  const failure = box.querySelector('.staged-error');
  done({
    caption: box.textContent.includes("Carol's move"),
    failure: failure ? failure.textContent : null, role: failure?.getAttribute('role') ?? null,
    sendEnabled: !composer.element.querySelector('.composer-send').disabled,
  });
}).catch((error) => done({ error: String(error) }));
"""


@pytest.mark.flow
def test_a_staged_message_whose_send_was_refused_says_why_on_it(browsers):
    person = browsers("carol", sign_in=False)
    person.driver.get(person.base_url + "/")
    person.wait(lambda: person.js("return document.activeElement?.id") == "auth-username", "the sign-in form")
    refused = person.driver.execute_async_script(STAGED, True)
    assert refused.get("error") is None, refused
    assert refused["caption"], "the message is still there"
    assert refused["failure"] == "Not sent: Someone else updated this first; open the newest message to continue.", refused
    assert refused["role"] == "alert", "a screen reader says it at once"
    assert refused["sendEnabled"], "Send tries again"
    person.press("Remove Tic-Tac-Toe message")
    assert person.js("return window.__removed.length") == 1

    ready = person.driver.execute_async_script(STAGED, False)
    assert ready["caption"] and ready["failure"] is None, ready


@pytest.mark.flow
def test_an_image_an_app_uploaded_is_loaded_from_parlors_store(browsers):
    """`{"upload": id}` images (conversation.upload(image:)) load from /blobs/<id>, which answers
    only who may see them; an id that is not 64 hex digits loads nothing."""
    person = browsers("dave", sign_in=False)
    person.driver.get(person.base_url + "/")
    sources = person.driver.execute_async_script("""
        const done = arguments[0];
        import('/js/viewtree.js').then(({ renderView }) => {
          const draw = (upload) => {
            const box = document.createElement('div');
            box.append(renderView({ type: 'image', source: { upload }, label: 'Sketch', width: 40, height: 40 },
              { appId: 'org.example.sketch', names: {}, interactive: false, send() {} }));
            return box.querySelector('img')?.getAttribute('src') ?? null;
          };
          done({ good: draw('ab'.repeat(32)), climbing: draw('../api/me'), short: draw('abc') });
        }).catch((error) => done({ error: String(error) }));
    """)
    assert sources.get("error") is None, sources
    assert sources["good"] == "/blobs/" + "ab" * 32
    assert sources["climbing"] is None and sources["short"] is None, sources
