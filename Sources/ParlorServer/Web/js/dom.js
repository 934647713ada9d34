// Building DOM safely: text always goes in as text nodes, never as markup.

/**
 * Creates an element.
 * props: class, text (textContent), attrs {name: value} (null/false skips), dataset, on {event: fn},
 * and a few properties set directly (value, checked, disabled, type, hidden, tabIndex, id).
 * Children: nodes, strings (text nodes), arrays; null, undefined and false are skipped.
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null) continue;
    switch (key) {
      case 'class':
        el.className = Array.isArray(value) ? value.filter(Boolean).join(' ') : value;
        break;
      case 'text':
        el.textContent = String(value);
        break;
      case 'attrs':
        for (const [name, attr] of Object.entries(value)) {
          if (attr === null || attr === undefined || attr === false) continue;
          el.setAttribute(name, attr === true ? '' : String(attr));
        }
        break;
      case 'dataset':
        for (const [name, data] of Object.entries(value)) {
          if (data !== null && data !== undefined) el.dataset[name] = String(data);
        }
        break;
      case 'on':
        for (const [event, handler] of Object.entries(value)) el.addEventListener(event, handler);
        break;
      case 'style':
        // Individual properties through CSSOM: allowed by the CSP, unlike style attributes in markup.
        for (const [name, css] of Object.entries(value)) {
          if (css !== null && css !== undefined) el.style.setProperty(name, String(css));
        }
        break;
      default:
        el[key] = value;
    }
  }
  append(el, children);
  return el;
}

/** Appends children (nodes, strings, nested arrays) to `parent`. */
export function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/** Removes every child of `el`. */
export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

/** Replaces the children of `el`. */
export function replaceChildren(el, ...children) {
  clear(el);
  return append(el, children);
}

/** Says `text` to screen readers through the page's live region. */
export function announce(text) {
  const region = document.getElementById('announcer');
  if (!region || !text) return;
  const line = document.createElement('p');
  line.textContent = text;
  region.append(line);
  while (region.childElementCount > 5) region.firstElementChild.remove();
}

/** Whether a person can reach `el` now: on the page, enabled, shown, not inert. */
export function reachable(el) {
  return el.isConnected && !el.disabled && !el.closest('[hidden], [inert]') && el.getClientRects().length > 0;
}

/** What may take the keyboard's focus (those with a tabIndex of 0 or more are Tab stops). */
export const FOCUSABLE = 'button, [href], input, select, textarea, iframe, audio[controls], video[controls], [tabindex]';

/** The elements inside `root` that the keyboard can reach with Tab, in order. */
export function focusables(root) {
  return [...root.querySelectorAll(FOCUSABLE)].filter((el) => el.tabIndex >= 0 && reachable(el));
}

/** Keeps Tab inside `root` (a dialog, a presented screen): from its last stop to its first, and
 * Shift+Tab back. Returns whether it moved the focus. */
export function keepTabInside(event, root) {
  const items = focusables(root);
  if (event.key !== 'Tab' || items.length === 0) return false;
  const first = items[0];
  const last = items[items.length - 1];
  const target = event.shiftKey ? (event.target === first ? last : null) : (event.target === last ? first : null);
  if (!target) return false;
  event.preventDefault();
  focus(target);
  return true;
}

/** Focuses `el` without scrolling the page under the user. */
export function focus(el) {
  if (el && typeof el.focus === 'function') el.focus({ preventScroll: true });
}

/** Where Parlor itself serves images: app and sticker assets, blobs, and the image proxy. */
const OWN_IMAGE_PATHS = ['/assets/', '/blobs/', '/images/proxy'];

/** The URL to load an image from, or null when unsafe: Parlor's own image paths (remote images
 * come as the image proxy's signed addresses, which the server hands out: the page loads images
 * from Parlor only) and inline images. Any other path on Parlor's own address is refused: an
 * image an app or a page names there would be a request made with the viewer's cookies. */
export function safeImageURL(url) {
  if (typeof url !== 'string' || url.length === 0) return null;
  try {
    const parsed = new URL(url, location.href);
    if (parsed.origin === location.origin) {
      return OWN_IMAGE_PATHS.some((path) => parsed.pathname.startsWith(path)) ? parsed.pathname + parsed.search : null;
    }
    if (parsed.protocol === 'data:' && /^data:image\/(png|gif|jpeg|webp|svg\+xml|apng)[;,]/i.test(url)) return url;
  } catch {
    return null;
  }
  return null;
}

/** Whether a URL is a web page a person may open: http or https only. */
export function safeWebURL(url) {
  if (typeof url !== 'string') return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** A dialog's header: its heading (an element, or the text of an <h2> with `id`) and a close
 * button named `label` that calls `onClose`. */
export function dialogHeader(heading, { id, label = 'Cancel', onClose }) {
  return h('header', { class: 'dialog-header' },
    typeof heading === 'string' ? h('h2', { id, text: heading }) : heading,
    h('button', { type: 'button', class: 'icon-button', attrs: { 'aria-label': label }, on: { click: onClose } },
      h('span', { class: 'icon icon-close', attrs: { 'aria-hidden': 'true' } })));
}
