// Draws an app's view tree (ParlorKit's ViewNode JSON) with plain DOM. Generic: no code knows
// any app. Every text goes in through text nodes; labels become aria-labels.

import { h, safeImageURL, safeWebURL } from './dom.js';
import { resolveMentions } from './mentions.js';
import { stickerGrid, webPageView } from './widgets.js';

export { FieldMemory } from './fields.js';
export { stickerGrid, webPageView } from './widgets.js';

const HEADING_TAGS = { largeTitle: 'h2', title: 'h2', title2: 'h3', title3: 'h4' };
const CHANGE_DELAY = 300;
/** The color roles a node may name (ParlorKit's ColorRole); anything else is ignored. */
const COLOR_ROLES = new Set(['primary', 'secondary', 'accent', 'positive', 'destructive']);

/** Resolves an ImageSource ({asset} or {url}) of `appId` to a URL, or null when unsafe. */
export function imageURL(source, appId) {
  if (!source) return null;
  if (typeof source.asset === 'string') {
    return `/assets/apps/${encodeURIComponent(appId)}/${encodeURIComponent(source.asset)}`;
  }
  // An image the app uploaded (conversation.upload(image:)): Parlor's own store, for who may see it.
  if (typeof source.upload === 'string') {
    return /^[0-9a-f]{64}$/.test(source.upload) ? `/blobs/${source.upload}` : null;
  }
  return safeImageURL(source.url);
}

/**
 * Renders `node`.
 * ctx: { appId, names, interactive, send(event), openLink(url, title), fields (FieldMemory),
 *        onModal(node) (a modal node is handed over instead of drawn inline),
 *        pressed(button) (optional: a button was clicked, just before its action is sent) }
 */
export function renderView(node, ctx) {
  const fragment = document.createDocumentFragment();
  draw(node, ctx, fragment, '0');
  return fragment;
}

function text(ctx, value) {
  return resolveMentions(value ?? '', ctx.names);
}

function draw(node, ctx, parent, path) {
  if (!node || typeof node !== 'object') return;
  const drawer = DRAWERS[node.type];
  if (!drawer) return; // A newer server's node type: skip it rather than fail.
  const el = drawer(node, ctx, path);
  if (el) parent.append(el);
}

function drawChildren(children, ctx, parent, path) {
  (Array.isArray(children) ? children : []).forEach((child, index) => draw(child, ctx, parent, `${path}.${index}`));
  return parent;
}

function act(ctx, payload, value, { flush = true } = {}) {
  if (!ctx.interactive || typeof payload !== 'string') return;
  // Edits not yet sent go first, so the app sees the text before the button that uses it.
  if (flush) ctx.fields?.flushAll();
  const event = { kind: 'action', action: payload };
  if (value !== undefined) event.value = value;
  ctx.send(event);
}

const ALIGN = { leading: 'start', center: 'center', trailing: 'end' };

const DRAWERS = {
  group(node, ctx, path) {
    const fragment = document.createDocumentFragment();
    drawChildren(node.children, ctx, fragment, path);
    return fragment;
  },

  stack(node, ctx, path) {
    const el = h('div', {
      class: ['vt-stack', node.axis === 'horizontal' ? 'vt-hstack' : 'vt-vstack', `vt-align-${ALIGN[node.alignment] || 'start'}`],
    });
    if (Number.isFinite(node.spacing)) el.style.setProperty('--vt-gap', `${Math.max(0, Math.min(node.spacing, 64))}px`);
    return drawChildren(node.children, ctx, el, path);
  },

  text(node, ctx) {
    const tag = HEADING_TAGS[node.style] || 'p';
    return h(tag, {
      class: ['vt-text', `vt-text-${node.style || 'body'}`, COLOR_ROLES.has(node.color) && `vt-color-${node.color}`],
      dataset: { nodeId: node.id },
      text: text(ctx, node.text),
    });
  },

  image(node, ctx) {
    const src = imageURL(node.source, ctx.appId);
    const label = node.label ? text(ctx, node.label) : '';
    const img = h('img', {
      class: 'vt-image',
      alt: label,
      decoding: 'async',
      dataset: { nodeId: node.id },
      attrs: { 'aria-hidden': label ? null : 'true', referrerpolicy: 'no-referrer' },
    });
    if (src) img.src = src;
    if (Number.isFinite(node.width)) img.style.setProperty('width', `${Math.min(node.width, 1024)}px`);
    if (Number.isFinite(node.height)) img.style.setProperty('height', `${Math.min(node.height, 1024)}px`);
    return img;
  },

  button(node, ctx) {
    const title = text(ctx, node.title);
    const label = text(ctx, node.label || node.title);
    const src = node.image ? imageURL(node.image, ctx.appId) : null;
    const button = h(
      'button',
      {
        type: 'button',
        // A button of one character or none (a game square, a key) is drawn as a square key.
        class: ['vt-button', `vt-button-${node.role || 'plain'}`, src && 'vt-button-with-image', !src && [...title].length <= 1 && 'vt-button-square'],
        disabled: Boolean(node.disabled) || !ctx.interactive,
        dataset: { nodeId: node.id, focusKey: `button:${node.id || node.action}:${label}` },
        attrs: { 'aria-label': label !== title ? label : null },
        on: {
          click: (event) => {
            // Until the app answers (its next view replaces this button), the button says it is
            // working: a Retry that takes seconds must not look ignored.
            markBusy(event.currentTarget);
            ctx.pressed?.(event.currentTarget);
            act(ctx, node.action);
          },
        },
      },
      src ? h('img', { src, alt: '', attrs: { 'aria-hidden': 'true' }, class: 'vt-button-image' }) : null,
      title ? h('span', { class: ['vt-button-title', COLOR_ROLES.has(node.color) && `vt-color-${node.color}`], text: title }) : null,
    );
    return button;
  },

  list(node, ctx, path) {
    const list = h('ul', { class: 'vt-list', attrs: { 'aria-label': text(ctx, node.label) }, dataset: { nodeId: node.id } });
    (node.children || []).forEach((child, index) => {
      const item = h('li', { class: 'vt-list-item' });
      draw(child, ctx, item, `${path}.${index}`);
      list.append(item);
    });
    return list;
  },

  row(node, ctx, path) {
    const label = text(ctx, node.label);
    const content = h('span', { class: 'vt-row-content' });
    drawChildren(node.children, ctx, content, path);
    // Its trailing edge (`accessory`): a chevron when selecting it shows more (the default for a
    // row with an action), a check mark, or nothing. Its label says what they mean.
    const acts = typeof node.action === 'string';
    const accessory = node.accessory ?? (acts ? 'disclosureIndicator' : 'none');
    const trailing = accessory === 'checkmark' || (accessory === 'disclosureIndicator' && acts)
      ? h('span', { class: accessory === 'checkmark' ? 'vt-row-check' : 'vt-row-chevron', attrs: { 'aria-hidden': 'true' } })
      : null;
    if (acts) {
      return h(
        'button',
        {
          type: 'button',
          class: ['vt-row', 'vt-row-action', node.selected && 'is-selected'],
          disabled: !ctx.interactive,
          dataset: { nodeId: node.id, focusKey: `row:${node.id || node.action}` },
          attrs: { 'aria-label': label, 'aria-current': node.selected ? 'true' : null },
          on: { click: () => act(ctx, node.action) },
        },
        content,
        trailing,
      );
    }
    return h('div', { class: ['vt-row', node.selected && 'is-selected'], dataset: { nodeId: node.id }, attrs: { 'aria-label': label || null } }, content, trailing);
  },

  grid(node, ctx, path) {
    const grid = h('div', { class: 'vt-grid', attrs: { role: 'list', 'aria-label': text(ctx, node.label) }, dataset: { nodeId: node.id } });
    const min = Number.isFinite(node.minItemWidth) ? Math.max(40, Math.min(node.minItemWidth, 600)) : 120;
    grid.style.setProperty('--vt-min', `${min}px`);
    // A fixed number of columns (a board), whatever the width.
    if (Number.isInteger(node.columns) && node.columns >= 1 && node.columns <= 12) {
      grid.classList.add('vt-grid-fixed');
      grid.style.setProperty('--vt-columns', String(node.columns));
    } else if (node.scrollAxis === 'horizontal') {
      // A carousel: one row of cells that scrolls sideways; Tab reaches each cell's controls.
      grid.classList.add('vt-grid-carousel');
    }
    (node.children || []).forEach((child, index) => {
      const cell = h('div', { class: 'vt-grid-cell', attrs: { role: 'listitem' } });
      draw(child, ctx, cell, `${path}.${index}`);
      grid.append(cell);
    });
    return grid;
  },

  textField(node, ctx) {
    const fieldId = `field-${Math.random().toString(36).slice(2)}`;
    const multiline = node.kind === 'multiline';
    const type = { date: 'date', number: 'number', url: 'url' }[node.kind] || 'text';
    const input = multiline
      ? h('textarea', { id: fieldId, class: 'vt-input vt-textarea', rows: 3 })
      : h('input', { id: fieldId, class: 'vt-input', type });
    const memory = ctx.fields;
    input.value = memory ? memory.valueFor(node.id, node.text ?? '') : (node.text ?? '');
    if (node.placeholder) input.placeholder = text(ctx, node.placeholder);
    if (Number.isFinite(node.maxLength) && type !== 'date' && type !== 'number') input.maxLength = node.maxLength;
    // A year of four digits: without a bound Chromium's year part takes six, and 2026-12-04 typed
    // into it became the year 61204.
    if (type === 'date') input.max = '9999-12-31';
    input.disabled = !ctx.interactive;
    input.dataset.focusKey = `field:${node.id}`;
    input.dataset.nodeId = node.id;
    input.autocomplete = 'off';
    const submit = () => {
      memory?.flush(node.id);
      if (typeof node.onSubmit === 'string') act(ctx, node.onSubmit, input.value);
    };
    input.addEventListener('input', () => {
      if (typeof node.onChange !== 'string') {
        memory?.remember(node.id, input.value);
        return;
      }
      memory?.change(node.id, input.value, (value) => act(ctx, node.onChange, value, { flush: false }), CHANGE_DELAY);
    });
    input.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' || event.isComposing) return;
      if (multiline && !(event.metaKey || event.ctrlKey)) return;
      event.preventDefault();
      submit();
    });
    input.addEventListener('blur', () => memory?.flush(node.id));
    return h('div', { class: 'vt-field' }, h('label', { class: 'vt-label', htmlFor: fieldId, text: text(ctx, node.label) }), input);
  },

  toggle(node, ctx) {
    const input = h('input', {
      type: 'checkbox',
      class: 'vt-switch-input',
      checked: Boolean(node.isOn),
      disabled: !ctx.interactive,
      dataset: { nodeId: node.id, focusKey: `toggle:${node.id}` },
      attrs: { role: 'switch' },
      on: { change: (event) => act(ctx, event.target.checked ? node.turnOn : node.turnOff) },
    });
    return h('label', { class: 'vt-toggle' }, h('span', { class: 'vt-toggle-label', text: text(ctx, node.label) }), input, h('span', { class: 'vt-switch', attrs: { 'aria-hidden': 'true' } }));
  },

  picker(node, ctx) {
    const name = `picker-${node.id}-${Math.random().toString(36).slice(2)}`;
    const fieldset = h('fieldset', { class: 'vt-picker', dataset: { nodeId: node.id } }, h('legend', { class: 'vt-label', text: text(ctx, node.label) }));
    const segments = h('div', { class: 'vt-segments' });
    (node.options || []).forEach((option, index) => {
      const input = h('input', {
        type: 'radio',
        name,
        class: 'vt-segment-input',
        checked: Boolean(option.selected),
        disabled: !ctx.interactive,
        dataset: { focusKey: `picker:${node.id}:${index}` },
        on: { change: () => act(ctx, option.action) },
      });
      segments.append(h('label', { class: 'vt-segment' }, input, h('span', { text: text(ctx, option.title) })));
    });
    fieldset.append(segments);
    return fieldset;
  },

  link(node, ctx) {
    const url = safeWebURL(node.url);
    const title = text(ctx, node.title);
    const label = text(ctx, node.label || node.title);
    if (!url) return h('span', { class: 'vt-link is-broken', text: title });
    return h('a', {
      class: 'vt-link',
      href: url,
      target: '_blank',
      rel: 'noopener noreferrer',
      text: title,
      dataset: { focusKey: `link:${url}` },
      attrs: { 'aria-label': label !== title ? label : null },
      on: {
        click: (event) => {
          if (event.ctrlKey || event.metaKey || event.shiftKey || !ctx.openLink) return;
          event.preventDefault();
          ctx.openLink(url, title);
        },
      },
    });
  },

  webPage(node, ctx) {
    return webPageView(safeWebURL(node.url), text(ctx, node.title));
  },

  stickerBrowser(node, ctx) {
    return stickerGrid({
      label: text(ctx, node.label),
      gridSize: node.gridSize,
      stickers: (node.stickers || []).map((s) => ({ id: s.id, url: imageURL(s.image, ctx.appId), description: s.localizedDescription })),
      disabled: !ctx.interactive,
      onPick: (sticker) => ctx.interactive && ctx.send({ kind: 'insertSticker', stickerID: sticker.id }),
    });
  },

  spacer(node) {
    const el = h('div', { class: 'vt-spacer', attrs: { 'aria-hidden': 'true' } });
    if (Number.isFinite(node.minLength)) el.style.setProperty('--vt-min-length', `${Math.min(node.minLength, 400)}px`);
    return el;
  },

  divider() {
    return h('hr', { class: 'vt-divider' });
  },

  modal(node, ctx, path) {
    if (ctx.onModal) {
      ctx.onModal(node, path);
      return null;
    }
    const box = h('section', { class: 'vt-modal-inline' }, h('h2', { class: 'vt-text vt-text-title3', text: text(ctx, node.title) }));
    return drawChildren(node.children, ctx, box, path);
  },
};

/** Marks a pressed button as working until the app's next view replaces it. */
export function markBusy(button) {
  button.classList.add('is-busy');
  button.setAttribute('aria-busy', 'true');
}

/** Draws a modal node's content (the surface frames it as a dialog). */
export function renderChildren(children, ctx, path = 'm') {
  return drawChildren(children, ctx, document.createDocumentFragment(), path);
}
