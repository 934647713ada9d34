// One message as the transcript draws it: a text bubble, a sticker, or an app message (its
// template layout, or its live layout drawn by the app).

import { h, safeImageURL, safeWebURL } from './dom.js';
import { mentionPieces, resolveMentions, sameId } from './mentions.js';
import { renderView } from './viewtree.js';

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/g;

/** Text with web addresses made into links, built from text nodes only. */
export function linkified(text) {
  const parts = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push(h('a', { href: match[0], target: '_blank', rel: 'noopener noreferrer', text: match[0] }));
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

/** The first web address in a text, or null. */
export function firstLink(text) {
  return [...(text ?? '').matchAll(URL_PATTERN)][0]?.[0] ?? null;
}

/** The most emoji a message of emoji alone may have to be drawn large, without a bubble. */
const LARGE_EMOJI = 3;
const EMOJI_ONLY = /^(?:\p{Extended_Pictographic}|\p{Emoji_Component}|\p{Emoji_Modifier}|\u200d|\ufe0f|\s)+$/u;
const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Whether `text` is one to three emoji and nothing else (a digit or a letter is not an emoji here). */
export function isLargeEmoji(text) {
  const trimmed = text.trim();
  if (!trimmed || !EMOJI_ONLY.test(trimmed) || /[0-9#*]/.test(trimmed) || !/\p{Extended_Pictographic}|\p{Regional_Indicator}/u.test(trimmed)) return false;
  const graphemes = [...GRAPHEMES.segment(trimmed)].filter((g) => g.segment.trim());
  return graphemes.length <= LARGE_EMOJI;
}

/**
 * A text message's bubble; mentions of `conversation`'s members shown as "@Name", the viewer's own
 * marked; under the text, the card of the page it links to when it has one.
 */
export function textBubble(text, conversation = null, viewerId = null, preview = null) {
  const parts = mentionPieces(text, conversation).flatMap((piece) => {
    if (typeof piece === 'string') return linkified(piece);
    const isViewer = sameId(piece.mention, viewerId);
    return [h('span', { class: ['mention', isViewer && 'mention-me'], text: piece.name })];
  });
  // One to three emoji alone are drawn large, without a bubble, as in Messages.
  const large = !preview && isLargeEmoji(text);
  return h('div', { class: ['bubble', 'bubble-text', preview && 'has-link-preview', large && 'bubble-emoji'] },
    h('p', { class: 'bubble-body' }, parts), preview ? linkPreviewCard(preview) : null);
}

/** A web page's card: its image, title, description and site; pressing it opens the page in a new tab. */
export function linkPreviewCard(preview) {
  const href = safeWebURL(preview.url);
  let site = preview.siteName;
  try {
    site ||= new URL(preview.url).hostname;
  } catch {
    site ||= '';
  }
  const src = preview.imageURL ? safeImageURL(preview.imageURL) : null;
  const parts = [
    src ? h('img', { class: 'link-preview-image', src, alt: '', loading: 'lazy', decoding: 'async' }) : null,
    h('span', { class: 'link-preview-text' },
      h('span', { class: 'link-preview-title', text: preview.title }),
      preview.description ? h('span', { class: 'link-preview-description', text: preview.description }) : null,
      site ? h('span', { class: 'link-preview-site', text: site }) : null),
  ];
  return href
    ? h('a', { class: 'link-preview', href, target: '_blank', rel: 'noopener noreferrer', attrs: { 'aria-label': `${preview.title}${site ? `, ${site}` : ''}: open the page` } }, parts)
    : h('div', { class: 'link-preview' }, parts);
}

/** A sticker, drawn without a bubble, as Messages does. */
export function stickerView(sticker) {
  const img = h('img', { class: 'sticker', alt: sticker.description || 'Sticker', loading: 'lazy', decoding: 'async' });
  const src = safeImageURL(sticker.url);
  if (src) img.src = src;
  return h('div', { class: 'sticker-message' }, img);
}

/**
 * The app message's card.
 * options: { onOpen(), onGet(), onOpenLink(url, title), interactive: whether tapping opens it }
 */
export function appCard(app, options = {}) {
  const names = app.names || {};
  const say = (value) => resolveMentions(value ?? '', names);
  const layout = app.layout || {};
  const label = say(app.accessibilityLabel) || [say(layout.caption), say(layout.subcaption)].filter(Boolean).join(', ') || `${app.appName} message`;
  const card = h('div', { class: ['app-card', app.liveView && 'app-card-live'], dataset: { app: app.appID } });

  let content;
  if (app.liveView) {
    content = h('div', { class: 'app-live', attrs: { inert: '' } });
    content.append(renderView(app.liveView, { appId: app.appID, names, interactive: false, send() {} }));
  } else {
    content = templateView(layout, app.appID, say);
  }

  if (options.interactive === false) {
    card.append(content);
  } else {
    const tap = h('button', {
      type: 'button',
      class: 'app-card-tap',
      attrs: { 'aria-label': app.installed ? `${label}${/[.!?…]$/u.test(label) ? '' : '.'} Open in ${app.appName}` : label },
      on: { click: () => (app.installed ? options.onOpen?.() : options.onOffer?.()) },
    });
    if (app.liveView) {
      card.append(content, tap);
      tap.classList.add('app-card-overlay');
    } else {
      tap.append(content);
      card.append(tap);
    }
  }

  const icon = safeImageURL(app.appIconURL);
  card.append(
    h(
      'div',
      { class: 'app-card-footer' },
      icon ? h('img', { class: 'app-card-icon', src: icon, alt: '', attrs: { 'aria-hidden': 'true' } }) : null,
      h('span', { class: 'app-card-name', text: app.appName }),
    ),
  );
  return card;
}

function templateView(layout, appId, say) {
  const parts = [];
  const media = layout.imageURL ? safeImageURL(layout.imageURL) : playableURL(layout.mediaURL) || safeImageURL(layout.mediaURL);
  const imageTitle = say(layout.imageTitle);
  const imageSubtitle = say(layout.imageSubtitle);
  if (media || imageTitle || imageSubtitle) {
    const box = h('span', { class: ['app-media', !media && 'app-media-empty'] });
    if (media) box.append(mediaElement(media, Boolean(layout.imageURL), layout.mediaURL));
    if (imageTitle || imageSubtitle) {
      box.append(
        h(
          'span',
          { class: 'app-media-text' },
          imageTitle ? h('span', { class: 'app-image-title', text: imageTitle }) : null,
          imageSubtitle ? h('span', { class: 'app-image-subtitle', text: imageSubtitle }) : null,
        ),
      );
    }
    parts.push(box);
  }
  const caption = say(layout.caption);
  const subcaption = say(layout.subcaption);
  const trailingCaption = say(layout.trailingCaption);
  const trailingSubcaption = say(layout.trailingSubcaption);
  if (caption || subcaption || trailingCaption || trailingSubcaption) {
    // Two lines: caption and trailing caption, then subcaption and trailing subcaption.
    const line = (lead, trail, kind) =>
      lead || trail
        ? h(
            'span',
            { class: ['app-caption-line', `app-caption-${kind}`] },
            h('span', { class: 'app-caption-lead', text: lead }),
            trail ? h('span', { class: 'app-caption-trail', text: trail }) : null,
          )
        : null;
    parts.push(h('span', { class: 'app-captions' }, line(caption, trailingCaption, 'main'), line(subcaption, trailingSubcaption, 'sub')));
  }
  if (parts.length === 0) parts.push(h('span', { class: 'app-captions' }, h('span', { class: 'app-caption-line', text: 'Message' })));
  return h('span', { class: 'app-template' }, parts);
}

const VIDEO = /\.(mp4|webm|mov|m4v)$/;
const AUDIO = /\.(mp3|m4a|aac|wav|ogg|oga)$/;

function mediaKind(url) {
  const lower = (url || '').toLowerCase().split(/[?#]/)[0];
  return VIDEO.test(lower) ? 'video' : AUDIO.test(lower) ? 'audio' : 'image';
}

/** A video or audio file's URL, loaded directly (media-src): our own, or https; else null. */
function playableURL(url) {
  if (mediaKind(url) === 'image') return null;
  if (typeof url === 'string' && url.startsWith('/') && !url.startsWith('//')) return url;
  const web = safeWebURL(url);
  return web && web.startsWith('https:') ? web : null;
}

/** Gives `element` its picture's width to height once known, so that the card's CSS draws the
 * picture whole in its own shape, as wide as the bubble unless that would make it too tall. */
function keepShape(element, width, height) {
  if (width > 0 && height > 0) element.style.setProperty('--media-ratio', String(width / height));
}

function mediaElement(url, isImage, original) {
  const kind = isImage ? 'image' : mediaKind(original);
  if (kind === 'video') {
    const video = h('video', { class: 'app-media-item', src: url, controls: true, preload: 'metadata' });
    video.addEventListener('loadedmetadata', () => keepShape(video, video.videoWidth, video.videoHeight), { once: true });
    return video;
  }
  if (kind === 'audio') {
    return h('audio', { class: 'app-media-audio', src: url, controls: true, preload: 'metadata' });
  }
  const img = h('img', { class: 'app-media-item', src: url, alt: '', decoding: 'async', attrs: { 'aria-hidden': 'true', referrerpolicy: 'no-referrer' } });
  img.addEventListener('load', () => keepShape(img, img.naturalWidth, img.naturalHeight), { once: true });
  return img;
}

/** The line an older message of a session leaves where it was. */
export function summaryLine(message) {
  const app = message.app;
  // The server writes the line (Message.summaryLine in ParlorKit), as the simulator reads it.
  const text = resolveMentions(app.summaryLine || app.summaryText || '', app.names) || `${message.senderName} sent ${app.appName}`;
  const icon = safeImageURL(app.appIconURL);
  return h(
    'div',
    { class: 'summary-line' },
    icon ? h('img', { class: 'summary-icon', src: icon, alt: '', attrs: { 'aria-hidden': 'true' } }) : null,
    h('span', { class: 'summary-text', text }),
  );
}
