"""View tree elements drawn by the browser's own renderer (js/viewtree.js and its CSS) in Chromium,
the way an app's view is drawn in its tray: what a person sees and reaches with the keyboard."""

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
