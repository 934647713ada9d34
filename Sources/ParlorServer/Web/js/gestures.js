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

/** Adds the long press and the swipe to `element`: `onLongPress()`, `onSwipeRight()`. */
export function addMessageGestures(element, { onLongPress, onSwipeRight }) {
  let start = null;
  let timer = null;
  let pressed = false;
  const reset = () => {
    clearTimeout(timer);
    start = null;
    element.style.transform = '';
  };
  element.addEventListener('pointerdown', (event) => {
    // A link, an image or a control keeps the browser's own long press (copy the link, save the image).
    if (event.pointerType === 'mouse' || !event.isPrimary || event.target.closest('a, img, button, input, textarea')) return;
    pressed = false;
    start = { x: event.clientX, y: event.clientY, id: event.pointerId, dx: 0, dy: 0 };
    clearTimeout(timer);
    timer = setTimeout(() => {
      pressed = true;
      reset();
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
    if (swiped) onSwipeRight();
  });
  element.addEventListener('pointercancel', reset);
  // The tap that ends a long press is not also a tap on the message.
  element.addEventListener('click', (event) => {
    if (!pressed) return;
    pressed = false;
    event.stopPropagation();
    event.preventDefault();
  }, true);
}
