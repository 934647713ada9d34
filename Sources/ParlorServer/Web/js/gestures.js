// Touch on a message, as Messages has it: a long press opens the message's menu, a swipe to the
// right replies. The mouse keeps its own ways (right-click, the ☺︎+ button); the bubble follows
// the finger a little while it swipes, and a swipe that stays short or turns vertical does nothing.

/** How long a press lasts before it opens the menu (ms). */
export const LONG_PRESS = 500;
/** How far a swipe goes to reply (px). */
const SWIPE = 64;
/** How far a finger may move before a press is no longer a press, or a swipe no longer level (px). */
const SLOP = 10;
const LEVEL = 30;

/** How long after the finger lifts its click may still come (ms). */
const RELEASE_CLICK = 300;

/** The click the finger's lift makes is not a tap on what it pressed: after a long press, on
 * whatever is under it by then anywhere on the page (the menu that opened, or the bubble redrawn
 * meanwhile); after a swipe, on the swiped message only (an app's card would open). */
function swallowLiftClick(within = null) {
  const swallow = (event) => {
    if (within && !within.contains(event.target)) return;
    event.stopPropagation();
    event.preventDefault();
    document.removeEventListener('click', swallow, { capture: true });
  };
  document.addEventListener('click', swallow, { capture: true });
  const lifted = () => setTimeout(() => document.removeEventListener('click', swallow, { capture: true }), RELEASE_CLICK);
  if (within) lifted();
  else {
    window.addEventListener('pointerup', lifted, { capture: true, once: true });
    window.addEventListener('pointercancel', lifted, { capture: true, once: true });
  }
}

/** Adds the long press and the swipe to `element`: `onLongPress()`, `onSwipeRight()`. */
export function addMessageGestures(element, { onLongPress, onSwipeRight }) {
  let start = null;
  let timer = null;
  const reset = () => {
    clearTimeout(timer);
    start = null;
    element.style.transform = '';
  };
  element.addEventListener('pointerdown', (event) => {
    // A link, an image or a control keeps the browser's own long press (copy the link, save the
    // image); a slider is dragged. An app's card is the message itself: a tap opens the app, a
    // long press opens the message's menu and a swipe replies, as on any bubble.
    if (event.pointerType === 'mouse' || !event.isPrimary) return;
    if (event.target.closest('a, input, textarea, video, audio, [role=slider]')) return;
    const control = event.target.closest('img, button');
    if (control && !control.closest('.app-card-tap')) return;
    start = { x: event.clientX, y: event.clientY, id: event.pointerId, dx: 0, dy: 0 };
    clearTimeout(timer);
    timer = setTimeout(() => {
      reset();
      swallowLiftClick();
      onLongPress();
    }, LONG_PRESS);
  });
  element.addEventListener('pointermove', (event) => {
    if (!start || event.pointerId !== start.id) return;
    start.dx = event.clientX - start.x;
    start.dy = event.clientY - start.y;
    if (Math.abs(start.dx) > SLOP || Math.abs(start.dy) > SLOP) clearTimeout(timer);
    const level = start.dx > 0 && Math.abs(start.dy) < LEVEL;
    element.style.transform = level ? `translateX(${Math.min(start.dx, SWIPE)}px)` : '';
  });
  element.addEventListener('pointerup', (event) => {
    if (!start || event.pointerId !== start.id) return;
    const swiped = start.dx >= SWIPE && Math.abs(start.dy) < LEVEL;
    reset();
    if (!swiped) return;
    swallowLiftClick(element);
    onSwipeRight();
  });
  element.addEventListener('pointercancel', reset);
}
