// Pieces drawn both for apps' view trees and by the client itself: the in-app web page and a
// grid of stickers.

import { h } from './dom.js';

/** Whether the CSP's frame-src lets a page in a frame: https, or http on this computer. */
function frameable(url) {
  const parsed = new URL(url);
  return parsed.protocol === 'https:' || (parsed.protocol === 'http:' && ['127.0.0.1', 'localhost'].includes(parsed.hostname));
}

/** The in-app web page: a sandboxed frame with its title and a way out to a real tab. */
export function webPageView(url, title) {
  const heading = title || (url ? new URL(url).host : 'Web page');
  const bar = h(
    'div',
    { class: 'webpage-bar' },
    h('span', { class: 'webpage-lock', attrs: { 'aria-hidden': 'true' } }),
    h('span', { class: 'webpage-title', text: heading }),
    url ? h('a', { class: 'webpage-open', href: url, target: '_blank', rel: 'noopener noreferrer', text: 'Open in new tab' }) : null,
  );
  if (!url) return h('div', { class: 'vt-webpage' }, bar, h('p', { class: 'vt-text vt-color-destructive', text: 'This page cannot be shown.' }));
  if (!frameable(url)) {
    // The CSP frames https pages only (and http on this computer, for development).
    return h('div', { class: 'vt-webpage' }, bar, h('p', { class: 'vt-text', text: 'This page is not secure (http), so it opens in a new tab only.' }));
  }
  const frame = h('iframe', {
    class: 'webpage-frame',
    src: url,
    title: heading,
    attrs: {
      sandbox: 'allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox',
      referrerpolicy: 'no-referrer',
      loading: 'eager',
    },
  });
  return h('div', { class: 'vt-webpage', dataset: { url } }, bar, frame);
}

/** A grid of sticker buttons in the pack's grid size (small, regular or large). */
/** The drag type of a sticker dragged from the drawer onto a message (its JSON: id, url, description). */
export const STICKER_DRAG_TYPE = 'application/x-parlor-sticker';

/**
 * A grid of sticker buttons. `verb` names what picking one does ("Send", "Place"); `draggable`
 * lets each be dragged onto a message (STICKER_DRAG_TYPE).
 */
export function stickerGrid({ label, gridSize, stickers, onPick, disabled = false, verb = 'Send', draggable = false }) {
  const size = ['small', 'regular', 'large'].includes(gridSize) ? gridSize : 'regular';
  const grid = h('div', { class: ['sticker-grid', `sticker-grid-${size}`], attrs: { role: 'list', 'aria-label': label } });
  for (const sticker of stickers) {
    const img = h('img', { alt: '', class: 'sticker-grid-image', loading: 'lazy', attrs: { 'aria-hidden': 'true' } });
    if (sticker.url) img.src = sticker.url;
    grid.append(
      h(
        'div',
        { class: 'sticker-grid-cell', attrs: { role: 'listitem' } },
        h('button', {
          type: 'button',
          class: 'sticker-button',
          disabled,
          dataset: { stickerId: sticker.id, focusKey: `sticker:${sticker.id}` },
          attrs: { 'aria-label': `${verb} sticker: ${sticker.description || 'sticker'}`, draggable: draggable && !disabled ? 'true' : null },
          on: {
            click: () => onPick(sticker),
            dragstart: (event) => {
              if (!draggable) return;
              event.dataTransfer.setData(STICKER_DRAG_TYPE, JSON.stringify({ id: sticker.id, url: sticker.url, description: sticker.description }));
              event.dataTransfer.effectAllowed = 'copy';
            },
          },
        }, img),
      ),
    );
  }
  return grid;
}
